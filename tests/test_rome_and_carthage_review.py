"""Rome & Carthage: an outside review's tests.

Each test is named after what it checks.  The first group are regression tests of
defects the review found (both fixed before the release); the others
pin behaviour the review checked and found right, on positions built like those of
``tests/test_rome_and_carthage_rules.py`` (its small test map and helpers are reused).
"""

from __future__ import annotations

import json
import random
from typing import Any

from test_rome_and_carthage_rules import (
    TEST_MAP,
    army,
    arrange,
    hand,
    legal,
    new_game,
    place,
    play,
    rapid,
    turn,
)

from boardrules import CHANCE, Termination
from boardrules.games.rome_and_carthage import RomeCarthageGame, RomeCarthageState

# --------------------------------------------------------------------- helpers


def drawers(state: RomeCarthageState) -> list[int | None]:
    """For each entry of the history, the turn player at that moment if it is a chance
    event (the player who drew the card), else None -- found by replaying the history
    on a fresh core state (the whole truth, for the test only)."""
    game = state.game
    core = game._core.new_state()
    out: list[int | None] = []
    for action in state._core.actions:
        out.append(game._core.export(core)["turn_player"]
                   if core.current_player == CHANCE else None)
        core.apply(action)
    return out


def draw_redaction_errors(state: RomeCarthageState) -> list[tuple[Any, ...]]:
    """(viewer, index, what) for every draw in history_view(viewer) that is shown to a
    player who may not see it, or hidden from one who may (1. Draw a card: "He looks at
    its value secretly"; allies show each other their cards, except in Equal Arms)."""
    game = state.game
    team = game._core.team_of
    errors = []
    for viewer in range(game.num_players):
        log = state.history_view(viewer)
        for i, ((_, text), drawer) in enumerate(zip(log, drawers(state), strict=True)):
            if drawer is None:
                continue
            sees = drawer == viewer or (not game.equal_arms and team[drawer] == team[viewer])
            if sees and text == "draw ?":
                errors.append((viewer, i, "hidden from", drawer))
            if not sees and text != "draw ?":
                errors.append((viewer, i, "leaked", drawer, text))
    return errors


# ------------------------------------------------ defect: the pass-bonus draw's redaction


def rapid_pass_bonus_drawn() -> RomeCarthageState:
    """Rapid Conquest: player 1 (Carthage) is down to his two zeros, draws two cards,
    passes and draws the pass bonus (a 5); then player 2's turn begins."""
    state = rapid(arrange({"ro7": "infantry", "ca8": "infantry"}))
    turn(state, 1, "ro7-ca8")
    if state.phase == "moved":
        play(state, "done")
    play(state, "play 15+10", "play 15+10", "play 8", "play 8", "play 6", "play 6",
         "play 4", "play 4", "play 2", "play 2", "play 1", "play 0")
    assert hand(state, 1) == [0, 0]
    play(state, "draw 3", "draw 3", "pass", "draw 5")
    assert hand(state, 1) == [0, 0, 3, 3, 5]
    assert state.view(None)["turn_player"] == 2
    return state


def test_history_view_redacts_the_rapid_conquest_pass_bonus_draw_of_its_drawer() -> None:
    """Rapid Conquest, 1.: "draws 1 card, or 2 cards if he passes his turn" -- the extra
    card is the passer's, drawn secretly ("He looks at its value secretly").  The
    history view attributes a draw to the next player who moves after it, which for the
    pass bonus is the NEXT player: the enemy of the drawer reads the card, his ally
    does not."""
    state = rapid_pass_bonus_drawn()
    bonus = (CHANCE, "draw 5")
    assert state.history_view(3)[-1] == bonus       # his ally sees it (standard rules)
    assert state.history_view(0)[-1] == (CHANCE, "draw ?")   # an enemy must not
    assert state.history_view(2)[-1] == (CHANCE, "draw ?")
    play(state, "draw 7", "pass")                   # player 2's own turn goes on
    assert state.history_view(0)[-3] == (CHANCE, "draw ?")
    assert state.history_view(2)[-3] == (CHANCE, "draw ?")
    assert state.history_view(1)[-3] == bonus


def test_history_view_draws_shown_exactly_to_the_drawers_side_in_random_rapid_games() -> None:
    """Every draw of seeded random Rapid Conquest games reads ``draw ?`` exactly for the
    players who may not see it (the pass-bonus draws included)."""
    game = RomeCarthageGame(4, variant="rapid_conquest", board=TEST_MAP, max_rounds=12)
    for seed in range(3):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
        assert draw_redaction_errors(state) == []


# ------------------------------------- defect: the capitals clock and a mid-clock exclusion


def clock_map() -> dict[str, Any]:
    """TEST_MAP with frontier routes for a 3-player scenario: Rome's armies on ro2, ro3,
    ro4, ro6 each face an army of the lone player, and the lone player's infantry on ca1
    and by1 reach the empty capitals ro0 and al0."""
    doc = json.loads(json.dumps(TEST_MAP))
    doc["land"] += [["ro2", "ca2"], ["ro3", "ca3"], ["ro4", "by4"], ["ca1", "ro0"],
                    ["by1", "al0"]]
    doc["sea"] += [["ro6", "by6"]]
    return doc


# Player 0 plays Carthage and Byzantium alone; player 1 Rome, player 2 Alexandria.
CLOCK_LAYOUT = {
    "ca1": "infantry", "ca2": "infantry", "ca8": "infantry", "ca3": "chariot",
    "ca4": "elephant", "ca5": "galley", "ca6": "galley",
    "by0": "infantry", "by1": "infantry", "by7": "infantry", "by3": "chariot",
    "by4": "elephant", "by5": "galley", "by6": "galley",
    "ro7": "infantry", "ro8": "infantry", "ro2": "infantry", "ro5": "galley",
    "ro6": "galley", "ro3": "chariot", "ro4": "elephant",
    "al1": "infantry", "al2": "infantry", "al7": "infantry", "al3": "chariot",
    "al4": "elephant", "al5": "galley", "al6": "galley",
}


def rome_loses_every_battle(state: RomeCarthageState, cards: list[str]) -> None:
    """Rome (player 1) attacks with zeros; the lone player defends with ``cards``."""
    while state.phase in ("battle_order", "commit"):
        if state.phase == "battle_order":
            state.apply(sorted(legal(state))[0])
        elif state.current_player == 1:
            state.apply("play 0" if state.capital_occupied(1) else "play 0+0")
        else:
            state.apply(cards.pop(0))


def lone_player_holds_both_capitals_and_rome_drops_out() -> RomeCarthageState:
    """3 players.  Rome throws 5 of his 7 armies at the lone player in rounds 3 and 4;
    in round 5 the lone player takes Rome's and Alexandria's capitals (two infantry);
    then Rome, in his turn, loses his last two armies and drops out; player 2 is to
    draw, and the lone player has not played since the capture."""
    game = RomeCarthageGame(3, board=clock_map())
    state = game.new_game(seed=1, auto_chance=False)
    place(state, CLOCK_LAYOUT)
    cards = [f"play {v}+0" for v in (3, 4, 5, 6, 7, 8, 9)]
    play(state, "draw 9", "draw 9", "pass")                                  # round 3
    turn(state, 9, "ro7-ca8", "ro8-by7", "pay 4", "ro5-ca5")
    rome_loses_every_battle(state, cards)
    turn(state, 7, "pass")
    play(state, "draw 7", "draw 7", "pass")                                  # round 4
    turn(state, 5, "ro2-ca2", "pay 6", "ro3-ca3")
    rome_loses_every_battle(state, cards)
    turn(state, 5, "pass")
    play(state, "draw 5", "draw 3", "ca1-ro0", "by1-al0")                    # round 5
    if state.phase == "moved":
        play(state, "done")
    assert state.view(None)["capitals_clock"][1]["running"]
    turn(state, 3, "ro4-by4", "pay 8", "ro6-by6")
    rome_loses_every_battle(state, cards)
    assert state.armies() == (14, 0, 7)
    assert [p["eliminated"] for p in state.view(None)["players"]] == [False, True, False]
    assert state.current_player == CHANCE and state.view(None)["turn_player"] == 2
    return state


def test_capitals_clock_waits_for_the_capturers_next_turn_after_an_exclusion() -> None:
    """Victory: "a complete turn is over when all the players have played once after
    the capture of the second capital" -- R4: the team wins at the end of the turn after
    which every player still in the game has played once since the capture, the
    capturer's own next turn included.  The core counts turns and compares the count
    with the players left, so a player who played after the capture and then dropped
    out still counts: the lone player wins at the end of player 2's turn, before his
    own next turn."""
    state = lone_player_holds_both_capitals_and_rome_drops_out()
    turn(state, 3, "pass")                 # Alexandria frees nothing
    assert not state.is_terminal()         # the lone player has not played since
    play(state, "draw 1", "draw 1", "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is Termination.CAPITALS
    assert outcome.winners == (0,)


# --------------------------------------------------------------------- verified behaviour


def test_treason_retreat_chain_second_enemy_infantry_in_the_first_ones_city() -> None:
    """Ties + R3 + R5: a Treason moves Carthage's infantry ca8 onto Rome's ro7 and a
    second Carthaginian infantry into ca8, which the first left; two zero totals send
    the attacker back to ca8, and the army now standing there back to ca7."""
    state = new_game(layout=arrange({"ca8": "infantry", "ca7": "infantry",
                                     "ro7": "infantry"}))
    turn(state, 1, "treason", "ca8-ro7", "ca7-ca8")
    assert state.phase == "commit" and state.current_player == 1
    play(state, "play 0+0", "play 0+0")
    assert army(state, "ca7") == "carthage infantry"
    assert army(state, "ca8") == "carthage infantry"
    assert army(state, "ro7") == "rome infantry"
    assert state.phase == "main" and state.current_player == 0
    assert all(counted == expected for counted, expected in state.invariants().values())


def test_treason_battle_on_own_capital_lost_then_uprising_and_one_card_battles() -> None:
    """A Treason walks Carthage's chariot onto Rome's capital and wins the battle: Rome's
    capital is then occupied, so player 0 may play his Popular Uprising in the same turn
    ("one or two special cards"), and plays one card in his own battles."""
    state = new_game(layout=arrange({"ca8": "chariot"}, empty=("ro1", "ro3", "ro7")))
    turn(state, 1, "pass")
    turn(state, 1, "ca8-ro3", "done")
    turn(state, 2, "treason", "ro3-ro0")
    assert state.phase == "commit" and state.view(None)["battle"]["attacker"] == 1
    play(state, "play 10+9", "play 1+0")
    assert army(state, "ro0") == "carthage chariot" and state.capital_occupied(0)
    assert state.phase == "main" and "uprising ro0" in legal(state)
    play(state, "ro2-ro0")                 # the infantry attacks the occupier
    if state.phase == "moved":
        play(state, "done")
    assert state.phase == "commit"
    assert legal(state) and not any("+" in m for m in legal(state))


def random_checks(state: RomeCarthageState, rng: random.Random) -> None:
    """Invariants, a legal move, hidden hands, and determinize keeping the view."""
    game = state.game
    team = game._core.team_of
    assert all(counted == expected for counted, expected in state.invariants().values())
    assert state.is_terminal() or state.legal_moves()
    for p in range(game.num_players):
        view = state.view(p)
        for q, entry in enumerate(view["players"]):
            if q != p and (game.equal_arms or team[q] != team[p]):
                assert entry["hand"] is None
        world = state.determinize(p, seed=rng.randrange(1 << 30))
        assert world.view(p) == view
        if state.current_player == p:
            assert world.legal_moves() == state.legal_moves()


def test_random_play_every_variant_keeps_invariants_views_and_saves() -> None:
    """Seeded random play (standard, Equal Arms, Rapid Conquest with implicit and
    explicit consent; 2, 3 and 4 players): invariants, a legal move at every
    non-terminal state, no hidden hand in a view, determinize keeping the observer's
    view and legal moves, and the save round trip."""
    configs: list[dict[str, Any]] = [
        {"players": 2}, {"players": 3}, {"players": 4, "first_player": 1},
        {"players": 2, "variant": "equal_arms"}, {"players": 3, "variant": "equal_arms"},
        {"players": 4, "variant": "equal_arms"},
        {"players": 4, "variant": "rapid_conquest"},
        {"players": 4, "variant": "rapid_conquest", "consent": "explicit"},
    ]
    for n, options in enumerate(configs):
        game = RomeCarthageGame(board=TEST_MAP, max_rounds=6, **options)
        state = game.new_game(seed=n, auto_chance=n % 2 == 0)
        rng = random.Random(n)
        steps = 0
        while not state.is_terminal():
            if steps % 5 == 0:
                random_checks(state, rng)
            if state.current_player == CHANCE:
                state.apply_random_chance(seed=rng.randrange(1 << 30))
            else:
                state.apply(rng.choice(state.legal_moves()))
            steps += 1
        random_checks(state, rng)
        assert steps <= game.max_game_length
        assert game.state_from_json(state.to_json()) == state


def test_lone_player_one_capital_occupied_one_card_for_both_empires_and_uprising() -> None:
    """Occupied capital, 3 players: "A lone player whose capital is occupied plays just
    one card in the battles of all the armies of both of his Empires" (R7: one of his
    two capitals is enough); R6: his Uprising frees that capital."""
    doc = json.loads(json.dumps(TEST_MAP))
    doc["land"] += [["ro8", "by1"]]
    game = RomeCarthageGame(3, board=doc)
    state = game.new_game(seed=1, auto_chance=False)
    place(state, arrange({"ro8": "infantry", "ro7": "infantry", "ca8": "infantry"},
                         empty=("by0", "by1")))
    play(state, "draw 9", "draw 9", "pass")               # the lone player (player 0)
    turn(state, 9, "ro8-by1", "pay 4", "by1-by0")         # Rome takes Byzantium
    turn(state, 7, "pass")
    assert state.capital_occupied(0) and not state.capital_occupied(1)
    play(state, "draw 7", "draw 7")
    assert "uprising by0" in legal(state) and "uprising ca0" not in legal(state)
    play(state, "ca8-ro7")                                # a Carthaginian army attacks
    if state.phase == "moved":
        play(state, "done")
    assert state.phase == "commit" and state.current_player == 0
    assert "play 10" in legal(state) and not any("+" in m for m in legal(state))


def test_equal_arms_each_team_refills_only_its_own_pile() -> None:
    """Equal Arms: each team has its own draw pile (R15: its spent cards refill it);
    R14: an empty pile with no spent cards of one's own team draws nothing."""
    state = new_game(2, variant="equal_arms")
    turn(state, 1, "pass")
    turn(state, 1, "ca4-ca8", "pay 9", "ca8-ca7")          # player 1 spends a 9
    assert state.view(None)["discard"] == [[], [9]]
    for value in range(2, 11):
        turn(state, value, "pass")
        turn(state, value, "pass")
    view = state.view(None)
    assert view["pile_size"] == [0, 0] and view["discard"] == [[], [9]]
    assert state.current_player == 0 and state.phase == "main"   # nothing to draw
    play(state, "pass")
    assert [str(m) for m, _ in state.chance_outcomes()] == ["draw 9"]   # team 1's 9
