"""Why a Rome & Carthage move is refused, in the words of the rule it breaks.

The compiled core names one rule key a kind of refusal (:data:`~boardrules.games.
rome_and_carthage.game.ILLEGAL_REASONS`); where one key covers several causes, the cause
is found here, from the position, so that the message names the rule really broken.
"Turns 1 and 2" is such a key: a placement is refused for its city (another's, or taken),
for its kind (none of it left), or for the turn's quota -- the core says only
``place_not_allowed``.  "3. Move a piece" is another: a move is refused because the
city is out of the army's reach, behind an enemy city (a chariot), holds a battle, or
holds a friendly army -- the core says only ``unreachable``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardrules._ext.rome_and_carthage import KINDS
from boardrules.games.rome_and_carthage.board import EMPIRES

if TYPE_CHECKING:
    from boardrules.games.rome_and_carthage.game import RomeCarthageGame
    from boardrules.games.rome_and_carthage.moves import RomeCarthageMove

#: "Each player has [...] 3 infantry, 2 galleys, 1 chariot and 1 elephant" an empire.
ARMY_SET = {"infantry": 3, "galley": 2, "chariot": 1, "elephant": 1}
PLURALS = {"infantry": "infantry", "galley": "galleys", "chariot": "chariots",
           "elephant": "elephants"}
#: Armies an empire places in turn 1, then in turn 2 ("4 an empire in the first turn and
#: the 3 others in the second").
PLACE_QUOTA = (4, 3)

#: The placement refusals' rule keys and their general messages (the specific message,
#: naming the city, empire and kind, is :func:`placement_refusal`'s).
PLACEMENT_REASONS: dict[str, str] = {
    "place_not_own_city": "Turns 1 and 2: a player places his armies on the cities of "
                          "his own empires",
    "place_city_taken": "Turns 1 and 2: an army goes on an empty city, one a city",
    "place_none_left": "Turns 1 and 2: an empire places its own 7 armies, 3 infantry, "
                       "2 galleys, 1 chariot and 1 elephant",
    "place_quota_done": "Turns 1 and 2: an empire places 4 armies in the first turn and "
                        "its 3 others in the second",
}


def _title(empire: str) -> str:
    return empire.capitalize()


def placement_refusal(game: RomeCarthageGame, raw: dict[str, Any],
                      move: RomeCarthageMove) -> tuple[str, str] | None:
    """(rule key, message) for a placement the core refused in the placement phase, or
    None when none of the causes below is found (the core's general message stands)."""
    if move.kind != "place" or move.city is None or move.army is None:
        return None
    player = raw["turn_player"]
    c = game.board.index(move.city)
    e = game.board.cities[c].empire
    empire, kind = EMPIRES[e], str(move.army)
    if empire not in game.empires_of(player):
        owner = next(q for q in range(game.num_players) if empire in game.empires_of(q))
        return "place_not_own_city", (
            f"{move.city} is a city of {_title(empire)}, which player {owner} plays: "
            f"{PLACEMENT_REASONS['place_not_own_city']} (player {player}: "
            f"{' and '.join(_title(x) for x in game.empires_of(player))})")
    code = raw["army"][c]
    if code >= 0:
        held = f"{_title(EMPIRES[code // 4])}'s {KINDS[code % 4]}"
        return "place_city_taken", (f"{move.city} already holds {held}: "
                                    f"{PLACEMENT_REASONS['place_city_taken']}")
    if raw["unplaced"][e][KINDS.index(kind)] == 0:
        count = ARMY_SET[kind]
        return "place_none_left", (
            f"{_title(empire)} has no {kind} left to place: its "
            f"{count} {PLURALS[kind] if count > 1 else kind} "
            f"{'are' if count > 1 else 'is'} on the board; "
            f"{PLACEMENT_REASONS['place_none_left']}")
    placement_turn = raw["round"]
    left = sum(raw["unplaced"][e]) + raw["placed"][e]
    quota = min(left, PLACE_QUOTA[placement_turn - 1]) if placement_turn <= 2 else 0
    if raw["placed"][e] >= quota:
        return "place_quota_done", (
            f"{_title(empire)} has placed its {raw['placed'][e]} armies of turn "
            f"{placement_turn}: {PLACEMENT_REASONS['place_quota_done']}")
    return None


#: The move refusals' rule keys and their general messages (:func:`move_refusal` names the
#: army and the cities).
MOVE_REASONS: dict[str, str] = {
    "move_out_of_reach": "3. Move a piece: elephant and infantry one land city, galley "
                         "one city by sea, chariot one or two land cities",
    "move_through_enemy": "3. Move a piece: a chariot moving two cities never passes "
                          "through an enemy city",
    "move_into_battle": "3. Move a piece: never three armies in a city (a battle is "
                        "being fought there)",
    "move_onto_friend": "3. Move a piece: an army may not stop in a city occupied by a "
                        "friendly army (a forced march passes through one only when paid "
                        "for and able to move on)",
}
REACH_WORDS = {"infantry": "one land city", "elephant": "one land city",
               "galley": "one city by sea", "chariot": "one or two land cities"}


def _neighbours(pairs: Any, count: int) -> list[set[int]]:
    out: list[set[int]] = [set() for _ in range(count)]
    for a, b in pairs:
        out[a].add(b)
        out[b].add(a)
    return out


def move_refusal(game: RomeCarthageGame, raw: dict[str, Any],
                 move: RomeCarthageMove) -> tuple[str, str] | None:
    """(rule key, message) for a move the core called ``unreachable`` (the army is one
    the mover may move now: his own, a Treason's enemy, an ally's, or the army passing
    through a friend in a forced march), or None when none of the causes below is
    found."""
    if move.kind != "move" or move.city is None or move.to is None:
        return None
    board = game.board
    src, dst = board.index(move.city), board.index(move.to)
    passing = raw["transit"] >= 0 and raw["transit_city"] == src
    code = raw["transit"] if passing else raw["army"][src]  # a forced march's second leg
    if code < 0:
        return None
    kind = KINDS[code % 4]
    army = f"the {_title(EMPIRES[code // 4])} {kind} on {move.city}"
    count = len(board.cities)
    routes = _neighbours(board.sea if kind == "galley" else board.land, count)
    team = _team_of_code(game, code)
    enemy = {c for c in range(count)
             if raw["army"][c] >= 0 and _team_of_code(game, raw["army"][c]) != team}
    if dst not in routes[src]:
        two_steps = {c for c in routes[src] if dst in routes[c]}
        if kind != "chariot" or not two_steps:
            return "move_out_of_reach", (
                f"{army} moves {REACH_WORDS[kind]}: {move.to} is out of its reach; "
                f"{MOVE_REASONS['move_out_of_reach']}")
        if two_steps <= enemy:
            return "move_through_enemy", (
                f"{army} reaches {move.to} only through "
                f"{' or '.join(sorted(board.cities[c].key for c in two_steps))}, held by "
                f"the enemy: {MOVE_REASONS['move_through_enemy']}")
    if raw["attacker"][dst] >= 0:
        return "move_into_battle", (f"{move.to} holds a battle: "
                                    f"{MOVE_REASONS['move_into_battle']}")
    resident = raw["army"][dst]
    if resident >= 0 and _team_of_code(game, resident) == team:
        held = f"{_title(EMPIRES[resident // 4])}'s {KINDS[resident % 4]}"
        return "move_onto_friend", (f"{move.to} holds {held}, a friend: "
                                    f"{MOVE_REASONS['move_onto_friend']}")
    return None


def _team_of_code(game: RomeCarthageGame, code: int) -> int:
    empire = EMPIRES[code // 4]
    owner = next(q for q in range(game.num_players) if empire in game.empires_of(q))
    return int(game._core.team_of[owner])


__all__ = ["MOVE_REASONS", "PLACEMENT_REASONS", "move_refusal", "placement_refusal"]
