"""Shared Rome & Carthage test positions (the docs page's "Position format")."""

#: Player 0 (Rome and Alexandria) is to move in round 3 with one infantry at Aquileia,
#: beside the one army player 1 (Carthage and Byzantium) has left, at Salona.
BATTLE_AT_SALONA = """\
Rome & Carthage position
city aquileia: rome infantry
city salona: byzantium infantry
phase: main
round: 3
turn_player: 0
current: 0
removed: 0 0 0 0
hand[0]: 0 0 5 10 15 15
hand[1]: 0 0 3 7 15 15
known[0]: 5 10 15 15
known[1]: 3 7 15 15
pile[0]: 1 1 1 1 2 2 2 2 3 3 3 4 4 4 4 5 5 5 6 6 6 6 7 7 7 8 8 8 8 9 9 9 9 10 10 10
"""
