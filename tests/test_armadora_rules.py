"""Armadora: one or more tests per rule of the Chinese rules sheet (summarised in English,
rule by rule, in docs/armadora.rst), each named after its rule, on positions built from
move sequences in the notation.

Printed board (8 x 5), mines marked M, filled by the gold chance events in this order:
d1, b2, f2, h2, a4, e4, c5, g5::

        a  b  c  d  e  f  g  h
    1   .  .  .  M  .  .  .  .
    2   .  M  .  .  .  M  .  M
    3   .  .  .  .  .  .  .  .
    4   M  .  .  .  M  .  .  .
    5   .  .  M  .  .  .  M  .
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boardrules
from boardrules import CHANCE, TERMINAL, Termination
from boardrules.games.armadora import ArmadoraState
from boardrules.testing import assert_illegal

#: d1=4, b2=7, f2=4, h2=3, a4=5, e4=6, c5=6, g5=5: the four corner mines hold 7, 3, 5, 5.
CORNER_GOLD = (4, 7, 4, 3, 5, 6, 6, 5)

#: Eight palisade turns closing the four corners into 4-square territories:
#: TL {a1 b1 a2 b2} (mine b2 = 7), TR {g1 h1 g2 h2} (h2 = 3), BL {a4 b4 a5 b5} (a4 = 5),
#: BR {g4 h4 g5 h5} (g5 = 5); the remaining 24 squares are one territory holding 20 gold.
FOUR_CORNERS = (
    "b1-c1", "b2-c2",  "a2-a3", "b2-b3",
    "f1-g1", "f2-g2",  "g2-g3", "h2-h3",
    "a3-a4", "b3-b4",  "b4-c4", "b5-c5",
    "f4-g4", "f5-g5",  "g3-g4", "h3-h4",
)


def new(players: int = 2, variant: str = "basic", gold: tuple[int, ...] = CORNER_GOLD,
        races: tuple[str, ...] = (), **options: Any) -> ArmadoraState:
    """A game after a chosen setup (the chance events applied by hand)."""
    game = boardrules.load("armadora", players=players, variant=variant, **options)
    state = game.new_game(seed=0, auto_chance=False)
    for v in gold:
        state.apply(f"gold {v}")
    for race in races:
        state.apply(f"race {race}")
    assert isinstance(state, ArmadoraState)
    return state


def play(state: ArmadoraState, *moves: str) -> None:
    for move in moves:
        state.apply(move)


def legal(state: ArmadoraState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def refused(state: ArmadoraState, move: str) -> str:
    """Apply an illegal move: check it is refused (by is_legal, apply and child), absent
    from legal_moves, and changes nothing; return the rule key it broke."""
    return assert_illegal(state, move).rule


def assert_reasons_agree(state: ArmadoraState) -> None:
    """Every action id is legal (and listed) or refused with a named rule."""
    game = state.game
    listed = {m.action for m in state.legal_moves()}
    for action in range(game.num_distinct_actions):
        reason = game._explain(state._core, action)[0]
        assert (reason == "legal") == (action in listed), (str(game.move(action)), reason)


def square(state: ArmadoraState, name: str, viewer: int | None = None) -> dict[str, Any]:
    view = state.view(viewer)
    return next(sq for sq in view["squares"] if sq["square"] == name)


def palisades_left(state: ArmadoraState) -> int:
    return int(state.view(None)["palisades_left"])


def use_up_palisades(state: ArmadoraState, leave: int = 0) -> None:
    """Place palisades (the first legal one each time) until ``leave`` remain."""
    while palisades_left(state) > leave:
        move = next(m for m in state.legal_moves() if m.kind == "palisade")
        state.apply(move)
    if state.phase == "second_palisade":
        state.apply("done")


# --- rules 1 (一) components, 2 (二) setup -----------------------------------------------


def test_board_printed_8x5_is_the_default() -> None:
    game = boardrules.load("armadora")
    assert (game.board.width, game.board.height) == (8, 5)
    assert game.board.provenance == "published"
    assert game.board.mines == ((3, 0), (1, 1), (5, 1), (7, 1), (0, 3), (4, 3), (2, 4), (6, 4))


def test_board_sheet_7x5_is_available() -> None:
    game = boardrules.load("armadora", board="sheet-7x5")
    assert (game.board.width, game.board.height) == (7, 5)
    assert game.board.provenance == "reconstructed"
    state = game.new_game(seed=1)
    assert sum(1 for m in state.legal_moves() if m.kind == "palisade") == 6 * 5 + 7 * 4


def test_warrior_sets_per_player_count() -> None:
    """rule 2.3: 16 / 11 / 8 warriors; strengths 1-5 as the sheet's table."""
    expected = {2: [11, 2, 1, 1, 1], 3: [7, 2, 1, 1, 0], 4: [5, 1, 1, 1, 0]}
    for players, pool in expected.items():
        state = new(players)
        for p in range(players):
            assert state.view(p)["players"][p]["pool"] == pool
            assert state.view(p)["players"][p]["warriors_left"] == sum(pool)


def test_warriors_hidden_behind_screens() -> None:
    """rule 2.4: a player sees only his own screen."""
    state = new(3)
    view = state.view(1)
    assert view["players"][1]["pool"] == [7, 2, 1, 1, 0]
    assert view["players"][0]["pool"] is None
    assert view["players"][2]["pool"] is None
    assert view["players"][0]["warriors_left"] == 11


def test_gold_piles_are_3_4_4_5_5_6_6_7() -> None:
    """rule 2.5: 40 gold in 8 piles: one 3, two 4, two 5, two 6, one 7."""
    game = boardrules.load("armadora")
    state = game.new_game(seed=0, auto_chance=False)
    outcomes = {str(m): p for m, p in state.chance_outcomes()}
    assert outcomes == pytest.approx({"gold 3": 1 / 8, "gold 4": 2 / 8, "gold 5": 2 / 8,
                                      "gold 6": 2 / 8, "gold 7": 1 / 8})
    for seed in range(5):
        state = game.new_game(seed=seed)
        piles = sorted(sq["gold"] for sq in state.view(None)["squares"] if sq["mine"])
        assert piles == [3, 4, 4, 5, 5, 6, 6, 7]


def test_gold_piles_placed_at_random_on_mines() -> None:
    """rule 2.6: each chance event puts one remaining pile on the next mine (board
    file order), with probability proportional to the piles of that size left."""
    game = boardrules.load("armadora")
    state = game.new_game(seed=0, auto_chance=False)
    state.apply("gold 7")
    assert square(state, "d1")["gold"] == 7
    outcomes = {str(m): p for m, p in state.chance_outcomes()}
    assert outcomes == pytest.approx({"gold 3": 1 / 7, "gold 4": 2 / 7, "gold 5": 2 / 7,
                                      "gold 6": 2 / 7})
    assert refused(state, "gold 7") == "gold_pile_unavailable"
    state.apply("gold 3")
    assert square(state, "b2")["gold"] == 3
    first_mine = Counter(square(game.new_game(seed=s), "d1")["gold"] for s in range(400))
    assert set(first_mine) == {3, 4, 5, 6, 7}
    assert first_mine[4] > first_mine[3]  # two piles of 4, one of 3


def test_thirty_five_palisades_shared() -> None:
    """rules 1 + 2.7: 35 palisades in one supply beside the board."""
    state = new(2)
    assert palisades_left(state) == 35
    play(state, "a1-b1", "done")
    play(state, "c1-d1", "e1-f1")
    assert palisades_left(state) == 32
    use_up_palisades(state)
    assert len(state.view(None)["palisades"]) == 35
    assert not any(m.kind == "palisade" for m in state.legal_moves())
    free_gap = next(str(m) for m in state.game._moves
                    if m.kind == "palisade" and str(m) not in state.view(None)["palisades"])
    assert refused(state, free_gap) == "no_palisades_left"


# --- rule 3 (三) play -------------------------------------------------------------------


def test_turn_order_is_clockwise() -> None:
    """rule 3: players move in turn (player 0 first)."""
    state = new(3)
    order = []
    for move in ("1@a1", "1@c1", "1@e1", "1@g1"):
        order.append(state.current_player)
        state.apply(move)
    assert order == [0, 1, 2, 0]


def test_one_action_per_turn() -> None:
    """rule 3: a warrior or up to two palisades, not both."""
    state = new(2)
    play(state, "a1-b1")
    assert refused(state, "1@a1") == "second_palisade_only"
    play(state, "done", "1@a1")
    assert state.current_player == 0


def test_warrior_only_on_empty_square() -> None:
    """rule 3: on an empty square, holding neither a warrior nor gold."""
    state = new(2)
    assert refused(state, "1@d1") == "square_not_empty"  # a gold mine
    play(state, "2@a1")
    assert refused(state, "1@a1") == "square_not_empty"
    assert not any(m.square in ("a1", "d1") for m in state.legal_moves() if m.kind == "warrior")


def test_warrior_placed_face_down() -> None:
    """rule 3: face down -- only its owner knows the strength."""
    state = new(3)
    play(state, "3@a1")
    assert square(state, "a1", 0)["warrior"]["strength"] == 3
    for viewer in (1, 2, None):
        warrior = square(state, "a1", viewer)["warrior"]
        assert warrior == {"owner": 0, "strength": None, "face_up": False, "arrows": 0,
                           "reinforced": False}


def test_warrior_strength_must_be_in_the_pool() -> None:
    """rule 2.3: only the warriors of the player's set."""
    state = new(4)
    assert refused(state, "5@a1") == "no_such_warrior"  # 4 players: no strength 5
    play(state, "4@a1", "1@b1", "1@c1", "1@e1")
    assert refused(state, "4@g1") == "no_such_warrior"  # his only 4 is on the board


def test_look_at_face_down_option_hides_own_values() -> None:
    """rule 3: the players agree whether face-down warriors may be looked at; if not,
    they must remember.  Reading: the option concerns a player's own warriors."""
    shown = new(2)
    hidden = new(2, look_at_face_down=False)
    for state in (shown, hidden):
        play(state, "3@a1", "2@c1")
    assert square(shown, "a1", 0)["warrior"]["strength"] == 3
    assert square(hidden, "a1", 0)["warrior"]["strength"] is None
    assert hidden.view(0)["players"][0]["pool"] == [11, 2, 0, 1, 1]  # the screen stays
    assert square(hidden, "c1", 0)["warrior"]["strength"] is None
    # bots remember: the truth and determinize keep his own values
    assert hidden.determinize(0, seed=1).view(None) == hidden.view(None)
    # a Mage's peek is shown right after it, then must be remembered
    mage = new(2, "advanced", races=("mage", "orc"), look_at_face_down=False)
    play(mage, "1@e3", "4@c1", "peek c1")
    assert mage.view(0)["peek"] == {"square": "c1", "strength": 4}
    assert square(mage, "c1", 0)["warrior"]["strength"] is None
    play(mage, "1@e5", "1@g3")
    assert "peek" not in mage.view(0)


def test_palisades_only_between_two_squares() -> None:
    """rule 3: a palisade goes in a gap between two squares, never on the outer edge:
    the 8 x 5 board has 7 x 5 + 8 x 4 = 67 gaps."""
    state = new(2)
    gaps = [m for m in state.legal_moves() if m.kind == "palisade"]
    assert len(gaps) == 67
    for text in ("a1-a0", "h1-i1", "a1-c1", "a1-b2"):
        with pytest.raises(boardrules.InvalidMoveError):
            state.apply(text)


def test_palisade_may_not_form_territory_smaller_than_four() -> None:
    """rule 3, the restriction (限制條件): no palisade that would form a territory of 1, 2
    or 3 squares."""
    state = new(2)
    play(state, "a1-b1")
    assert refused(state, "a1-a2") == "territory_too_small"  # a1 alone: 1 square
    play(state, "a2-b2", "a3-b3")
    assert refused(state, "a3-a4") == "territory_too_small"  # a1-a3: 3 squares
    play(state, "a4-b4")
    assert "a4-a5" in legal(state)  # a1-a4: 4 squares, allowed
    play(state, "a4-a5")
    assert [t for t in state.view(None)["territories"] if len(t) == 4] == [["a1", "a2", "a3", "a4"]]


def test_palisade_that_closes_nothing_is_allowed() -> None:
    """rule 3: the limit is on territories formed; a palisade that closes nothing (here
    a lone one beside a corner square) is always allowed."""
    state = new(2)
    assert {"a1-b1", "a1-a2", "d3-e3", "h4-h5"} <= legal(state)
    play(state, "a1-b1", "b1-c1")
    assert "a2-b2" in legal(state)
    assert len(state.view(None)["territories"]) == 1


def test_two_palisades_need_not_touch() -> None:
    """rule 3: the two palisades of a turn need not be adjacent."""
    state = new(2)
    play(state, "a1-b1", "h4-h5")
    assert state.current_player == 1
    assert state.view(None)["palisades"] == ["a1-b1", "h4-h5"]


def test_second_palisade_optional_and_turn_ends_when_none_legal() -> None:
    """rule 3, reminder (小提醒): a player may place just one palisade ('done'); when no
    second palisade is possible the turn ends by itself."""
    state = new(2)
    play(state, "a1-b1")
    assert state.current_player == 0 and state.phase == "second_palisade"
    assert {"done", "c1-d1"} <= legal(state)
    assert "pass" not in legal(state)
    play(state, "done")
    assert state.current_player == 1 and state.phase == "turn"
    use_up_palisades(state, leave=1)
    mover = state.current_player
    play(state, next(str(m) for m in state.legal_moves() if m.kind == "palisade"))
    assert palisades_left(state) == 0
    assert state.current_player != mover and state.phase == "turn"


def test_territory_may_hold_several_mines_or_none() -> None:
    """rule 3, reminder (小提醒): a territory may hold several gold mines, or none."""
    state = new(2)
    play(state, *FOUR_CORNERS)
    territories = state.view(None)["territories"]
    mines = {"d1", "b2", "f2", "h2", "a4", "e4", "c5", "g5"}
    counts = sorted(len(mines & set(t)) for t in territories)
    assert counts == [1, 1, 1, 1, 4]
    play(state, "c2-c3", "d2-d3", "c3-c4", "d3-d4", "d3-e3")  # closes a3 b3 c3 d3: no mine
    assert 0 in [len(mines & set(t)) for t in state.view(None)["territories"]]


# --- rule 4 (四) end of the game --------------------------------------------------------


def test_game_ends_when_every_player_has_passed() -> None:
    """rule 4: when every player has ended, the game ends."""
    state = new(2)
    play(state, "1@a1", "pass")
    assert state.current_player == 0 and state.outcome() is None
    play(state, "pass")
    assert state.current_player == TERMINAL
    assert state.legal_moves() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.reason is Termination.ALL_PASSED
    assert refused(state, "pass") == "game_over"


def test_pass_is_final_and_skipped() -> None:
    """rule 4: a player who ends takes no further action; the others go on."""
    state = new(3)
    play(state, "pass")
    movers = []
    for move in ("1@a1", "1@c1", "1@e1", "1@g1"):
        movers.append(state.current_player)
        state.apply(move)
    assert movers == [1, 2, 1, 2]
    assert state.view(None)["players"][0]["passed"] is True
    play(state, "pass", "pass")
    assert state.is_terminal()


def test_pass_allowed_with_moves_left() -> None:
    """rule 4: a player may end when he does not want to place anything more."""
    state = new(2)
    assert "pass" in legal(state)
    assert len(state.legal_moves()) > 100


def test_pass_not_allowed_mid_turn() -> None:
    """Reading: ending replaces a whole turn; not between two palisades, not after a power."""
    state = new(2)
    play(state, "a1-b1")
    assert refused(state, "pass") == "pass_mid_turn"
    advanced = new(2, "advanced", races=("mage", "elf"))
    play(advanced, "1@a1", "1@c1", "peek c1")
    assert refused(advanced, "pass") == "pass_mid_turn"


def test_player_without_warriors_may_still_place_palisades() -> None:
    """Reading: running out of warriors does not end a player's game; he may still place
    palisades, and ends when he wants (rule 4)."""
    state = new(4)
    play(state, "pass", "pass", "pass")  # players 0-2 end: player 3 moves alone
    assert state.current_player == 3
    squares = ["a1", "b1", "c1", "e1", "f1", "g1", "h1", "a2"]
    strengths = ["1", "1", "1", "1", "1", "2", "3", "4"]
    for k, sq in zip(strengths, squares, strict=True):
        play(state, f"{k}@{sq}")
    assert state.view(3)["players"][3]["warriors_left"] == 0
    moves = state.legal_moves()
    assert not any(m.kind == "warrior" for m in moves)
    assert any(m.kind == "palisade" for m in moves) and "pass" in legal(state)
    play(state, "c3-d3", "done")
    assert state.current_player == 3


# --- rule 5 (五) scoring ----------------------------------------------------------------


def corners(players: int = 2, variant: str = "basic", races: tuple[str, ...] = ()) -> ArmadoraState:
    state = new(players, variant, races=races)
    play(state, *FOUR_CORNERS)
    return state


def end_game(state: ArmadoraState) -> None:
    while not state.is_terminal():
        state.apply("pass")


def test_scoring_reveals_every_face_down_warrior() -> None:
    """Rule 5 (翻開所有面朝下的戰士板塊): at the end every face-down warrior is turned over, so
    every view -- a spectator's too -- shows every strength on the board, and a world drawn
    for a player then keeps them (only screens stay secret)."""
    game = boardrules.load("armadora", players=3)
    rng = random.Random(5)
    state = game.new_game(seed=5)
    while not state.is_terminal():
        before_end = state.view(None)
        state.apply(rng.choice(state.legal_moves()))
    hidden_before = [sq for sq in before_end["squares"]
                     if sq["warrior"] and sq["warrior"]["strength"] is None]
    assert hidden_before  # the last position before the end still hid some
    raw = state._raw()
    for viewer in (None, 0, 1, 2):
        for c, sq in enumerate(state.view(viewer)["squares"]):
            if sq["warrior"]:
                assert sq["warrior"]["strength"] == raw["strength"][c]
    assert ":?" not in str(state)
    world = state.determinize(1, seed=3)
    assert world.view(None)["squares"] == state.view(None)["squares"]


def test_scoring_majority_takes_gold() -> None:
    """rule 5: in each territory the highest total strength takes its gold; a territory
    with no warrior gives its gold to nobody."""
    state = corners()
    play(state, "2@a1", "1@b1")  # TL (7): 2 against 1
    play(state, "1@d3", "1@e3", "1@f3")  # rest (20): 2 against 1
    end_game(state)
    assert state.score() == (27, 0)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.ranking == (1, 2)
    assert outcome.returns == (1.0, -1.0)


def test_scoring_totals_strength_per_player() -> None:
    """rule 5: each player's warriors in a territory are added together."""
    state = corners()
    play(state, "1@a1", "3@b1", "1@a2")  # TL: player 0 has 1 + 1 = 2, player 1 has 3
    end_game(state)
    assert state.score() == (0, 7)


def test_scoring_tie_shares_and_loses_remainder() -> None:
    """rule 5: on a tie the tied players share equally; the remainder goes to nobody."""
    state = corners()
    play(state, "1@a1", "1@b1")  # TL holds 7: 3 each, 1 lost
    end_game(state)
    assert state.score() == (3, 3)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.ranking == (1, 1)
    assert outcome.returns == (0.0, 0.0)


def test_gold_kept_in_separate_piles() -> None:
    """rule 5: a player keeps the gold of each territory as a separate pile."""
    state = corners()
    play(state, "1@a1", "1@a5", "1@g1")
    end_game(state)
    assert state.piles() == ((7, 3), (5,))
    assert state.score() == (10, 5)


def test_ranking_tie_break_by_piles() -> None:
    """rule 5: equal gold is decided by the piles, compared from the largest down."""
    state = corners()
    play(state, "1@a1", "1@a5", "1@g1", "1@h5")  # 0: TL 7 + TR 3; 1: BL 5 + BR 5
    end_game(state)
    assert state.score() == (10, 10)
    assert state.piles() == ((7, 3), (5, 5))
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.ranking == (1, 2)


def test_three_players_each_for_himself() -> None:
    """rule 5 with three players: no teams; places 1-3."""
    state = corners(3)
    assert state.game.teams == ((0,), (1,), (2,))
    assert state.current_player == 2
    play(state, "1@b4", "2@a1", "1@g1")  # 2 takes BL (5), 0 TL (7), 1 TR (3)
    end_game(state)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (7, 3, 5)
    assert outcome.ranking == (1, 3, 2) and outcome.winners == (0,)
    assert outcome.returns == (1.0, -1.0, 0.0)


# --- rule 6 (六) four players -----------------------------------------------------------


def test_four_players_turn_order_and_teams() -> None:
    """rule 6: two teams, turn order A-C-B-D; players are numbered in turn order, so the
    sheet's A, C, B, D are players 0, 1, 2, 3 and partners are 0 & 2, 1 & 3."""
    state = new(4)
    assert state.game.teams == ((0, 2), (1, 3))
    movers = []
    for move in ("1@a1", "1@b1", "1@c1", "1@e1", "1@f1"):
        movers.append(state.current_player)
        state.apply(move)
    assert movers == [0, 1, 2, 3, 0]


def test_team_gold_adds_up() -> None:
    """rule 6 reading: majorities are per player (partners' strengths are not added);
    a team's gold is its two players' gold."""
    state = corners(4)
    play(state, "1@a1", "2@b1", "1@a2", "4@d3")  # TL: 0 and 2 have 1 each, 1 has 2
    end_game(state)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (0, 7, 0, 20)
    assert outcome.team_scores == (0, 27)
    assert outcome.winners == (1, 3) and outcome.ranking == (2, 1, 2, 1)
    assert outcome.returns == (-1.0, 1.0, -1.0, 1.0)


def test_team_tie_break_uses_both_partners_piles() -> None:
    """rules 5 + 6: a team's piles are both partners' piles together."""
    state = corners(4)
    # team 0: TL 7 (player 0) + TR 3 (player 2); team 1: BL 5 (player 1) + BR 5 (player 3)
    play(state, "1@a1", "1@a5", "1@g1", "1@h5")
    end_game(state)
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.team_scores == (10, 10)
    assert outcome.winners == (0, 2)


# --- rule 7 (七) advanced game ----------------------------------------------------------


def test_races_dealt_at_random() -> None:
    """rule 7.1.1: races are dealt at random, one per player in player order."""
    game = boardrules.load("armadora", players=2, variant="advanced")
    state = game.new_game(seed=0, auto_chance=False)
    for v in CORNER_GOLD:
        state.apply(f"gold {v}")
    assert state.current_player == CHANCE
    assert {str(m): p for m, p in state.chance_outcomes()} == pytest.approx(
        {"race orc": 0.25, "race goblin": 0.25, "race elf": 0.25, "race mage": 0.25})
    state.apply("race mage")
    assert {str(m) for m, _ in state.chance_outcomes()} == {"race orc", "race goblin",
                                                            "race elf"}
    assert refused(state, "race mage") == "race_unavailable"
    state.apply("race elf")
    assert [p["race"] for p in state.view(None)["players"]] == ["mage", "elf"]
    seen = Counter(game.new_game(seed=s).view(None)["players"][0]["race"] for s in range(200))
    assert set(seen) == {"orc", "goblin", "elf", "mage"}


def test_ability_tokens_per_race() -> None:
    """rule 7.1.2: Elves and Mages 2 ability tokens, Orcs and Goblins 1; public."""
    state = new(4, "advanced", races=("orc", "goblin", "elf", "mage"))
    assert [p["power_tokens"] for p in state.view(1)["players"]] == [1, 1, 2, 2]


def test_power_then_main_action() -> None:
    """rule 7.2.1: first the race power, then one of the three actions."""
    state = new(2, "advanced", races=("goblin", "orc"))
    play(state, "goblin 3@a1")
    assert state.current_player == 0 and state.phase == "after_power"
    moves = state.legal_moves()
    assert "pass" not in legal(state) and not any(m.is_power for m in moves)
    assert {"1@c1", "c1-d1"} <= legal(state)
    play(state, "1@c1")
    assert state.current_player == 1


def test_power_once_per_turn() -> None:
    """rule 7.2.2: a race power at most once per turn."""
    state = new(2, "advanced", races=("orc", "elf"))
    play(state, "orc a1-b1")
    assert refused(state, "orc c1-d1") == "power_not_now"
    play(state, "1@a1")
    assert refused(state, "orc c1-d1") == "wrong_race"


def test_power_uses_up_a_token() -> None:
    """rule 7.2.2: each use removes one ability token from the game."""
    state = new(2, "advanced", races=("mage", "elf"))
    play(state, "1@e3", "2@a1", "peek a1", "1@e5", "1@c1", "peek c1", "1@g3", "1@h1")
    assert state.view(1)["players"][0]["power_tokens"] == 0
    assert refused(state, "peek a1") == "no_power_tokens"


def test_power_only_in_the_advanced_game() -> None:
    """rule 7: race powers and reinforcement tokens are the advanced rules."""
    state = new(2)
    play(state, "1@a1", "1@c1")
    for move in ("goblin 1@e1", "orc a1-b1", "peek c1", "arrow c1"):
        assert refused(state, move) == "basic_game"
    assert not any(m.is_power or m.kind == "reinforce" for m in state.legal_moves())


def test_goblin_places_extra_warrior_face_up() -> None:
    """rule 7.2.2, Goblin (哥布林): one more warrior, face up (its strength is public)."""
    state = new(2, "advanced", races=("goblin", "elf"))
    play(state, "goblin 4@a1", "2@c1")
    assert square(state, "a1", 1)["warrior"] == {"owner": 0, "strength": 4, "face_up": True,
                                                 "arrows": 0, "reinforced": False}
    assert square(state, "c1", 1)["warrior"]["strength"] is None
    assert state.view(0)["players"][0]["pool"] == [11, 1, 1, 0, 1]
    assert refused(state, "goblin 1@e1") == "wrong_race"  # player 1 is the elf


def test_orc_places_up_to_three_palisades() -> None:
    """rule 7.2.2, Orc (獸人): one extra palisade, so up to three in a turn."""
    state = new(2, "advanced", races=("orc", "mage"))
    play(state, "orc a1-b1", "c1-d1", "e1-f1")
    assert state.current_player == 1
    assert palisades_left(state) == 32
    assert state.view(1)["players"][0]["power_tokens"] == 0
    # the extra palisade obeys the 4-square limit too
    other = new(2, "advanced", races=("orc", "mage"))
    play(other, "a1-b1", "done", "1@c3")
    assert refused(other, "orc a1-a2") == "territory_too_small"


def test_mage_peek_reveals_value_to_mage_only() -> None:
    """rule 7.2.2, Mage (法師): secretly look at a face-down warrior of an opponent."""
    state = new(3, "advanced", races=("mage", "elf", "orc"))
    play(state, "1@e3", "3@c1", "1@h5")
    assert refused(state, "peek e3") == "peek_target"  # his own
    assert refused(state, "peek a1") == "peek_target"  # an empty square
    play(state, "peek c1")
    assert square(state, "c1", 0)["warrior"]["strength"] == 3
    assert square(state, "c1", 2)["warrior"]["strength"] is None
    assert square(state, "c1", None)["warrior"]["strength"] is None
    play(state, "1@a2")
    assert square(state, "c1", 0)["warrior"]["strength"] == 3  # he remembers
    # determinize for the mage keeps what he saw
    assert all(square(state.determinize(0, seed=s), "c1")["warrior"] is not None
               and state.determinize(0, seed=s).view(0) == state.view(0) for s in range(5))


def test_mage_may_not_peek_face_up_warrior() -> None:
    """rule 7.2.2, Mage (法師): only face-down warriors can be looked at."""
    state = new(2, "advanced", races=("mage", "goblin"))
    play(state, "1@e3", "goblin 2@c1", "1@a2")
    assert refused(state, "peek c1") == "peek_target"
    assert "peek a2" in legal(state)


def test_mage_may_peek_partner_in_four_player_game() -> None:
    """rule 7.2.2, Mage (法師): in the 4-player game he may look at his teammate's
    warrior."""
    state = new(4, "advanced", races=("mage", "elf", "orc", "goblin"))
    play(state, "1@e3", "1@g3", "3@c1", "1@a2")
    assert "peek c1" in legal(state)  # player 2 is the partner
    play(state, "peek c1")
    assert square(state, "c1", 0)["warrior"]["strength"] == 3


def test_elf_arrow_conditions() -> None:
    """rule 7.2.2, Elf (精靈): the target is an opponent warrior in a territory holding one
    of the elf player's own warriors and still having an empty square."""
    state = new(2, "advanced", races=("elf", "orc"))
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3")  # TL closed: a1 b1 a2 (b2 mine)
    play(state, "1@e3", "2@a1")
    assert refused(state, "arrow a1") == "arrow_no_elf_warrior"
    assert refused(state, "arrow e3") == "arrow_not_opponent"  # his own warrior
    assert refused(state, "arrow g3") == "arrow_not_opponent"  # no warrior there
    play(state, "1@b1", "1@d3")
    assert "arrow a1" in legal(state)
    play(state, "arrow a1", "1@e5", "1@a2")  # player 1 fills TL
    assert refused(state, "arrow a1") == "arrow_territory_full"
    assert "arrow d3" in legal(state)  # the big territory still has empty squares


def test_elf_arrow_reduces_strength() -> None:
    """rule 7.2.2, Elf (精靈): -1 per arrow; the token stays.  Reading: several arrows may
    hit one warrior, whose strength never drops below 0."""
    state = new(2, "advanced", races=("elf", "orc"))
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3")  # TL: 7 gold
    play(state, "2@b1", "1@a1")
    play(state, "arrow a1", "1@e3", "1@d3")
    play(state, "arrow a1", "1@f3", "2@a2")  # a1: 1 - 2 arrows -> 0, not -1
    assert square(state, "a1", 1)["warrior"]["arrows"] == 2
    end_game(state)
    # TL: elf 2 against 0 + 2 = 2: a tie, 3 each; the rest (33): 2 against 1
    assert state.score() == (36, 3)


def test_rule_7_arrows_and_reinforcement_added_before_the_floor_at_0() -> None:
    """rule 7.2.2 Elf (-1 per arrow) and 7.2.3(1), (4) reinforcement (+1), counted at
    scoring (rule 5): a warrior's strength is its printed value minus its arrows plus its
    reinforcement token, and only that sum is floored at 0.  A 1 with two arrows and the
    token counts 1 - 2 + 1 = 0, not max(0, 1 - 2) + 1 = 1."""
    state = new(2, "advanced", races=("elf", "orc"))
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3")  # TL: a1 b1 a2 (b2 mine, 7 gold)
    play(state, "2@b1", "1@a1")
    play(state, "arrow a1", "1@e3", "1@d3")
    play(state, "arrow a1", "1@f3", "1@a2")  # TL full: elf 2 against 1 (a1) + 1 (a2)
    play(state, "1@g3", "reinforce a1")
    assert square(state, "a1", 1)["warrior"] == {"owner": 1, "strength": 1, "face_up": False,
                                                 "arrows": 2, "reinforced": True}
    end_game(state)
    # TL: elf 2 against 0 + 1 = 1, the elf takes the 7 (were a1 worth 1, a 2-2 tie would
    # give them to the token's holder); the rest (33): 3 against 1
    assert state.score() == (40, 0)


def test_reinforcement_conditions() -> None:
    """rule 7.2.3: on one's own warrior (1, 5), in a full territory (2), one per
    territory (3); the token may share a warrior with an arrow (4)."""
    state = new(2, "advanced", races=("orc", "goblin"))
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3")  # TL: a1 b1 a2 (b2 mine)
    play(state, "1@a1", "1@b1")
    assert refused(state, "reinforce a1") == "reinforce_not_full"
    play(state, "1@a2")
    assert refused(state, "reinforce a1") == "reinforce_not_own"
    play(state, "reinforce b1")
    assert refused(state, "reinforce a1") == "reinforce_territory_taken"
    play(state, "1@e3")
    assert refused(state, "reinforce b1") == "no_reinforcement_left"
    assert square(state, "b1", 0)["warrior"]["reinforced"] is True
    # (4) with an arrow on the same warrior
    elf = new(2, "advanced", races=("elf", "orc"))
    play(elf, "b1-c1", "b2-c2", "a2-a3", "b2-b3", "1@b1", "2@a1", "arrow a1", "1@e3", "1@a2")
    play(elf, "1@d3", "reinforce a1")
    assert square(elf, "a1", 0)["warrior"] == {"owner": 1, "strength": None, "face_up": False,
                                              "arrows": 1, "reinforced": True}


def test_reinforcement_not_on_partner_warrior() -> None:
    """rule 7.2.3(5): in the 4-player game not on the teammate's warrior."""
    state = new(4, "advanced", races=("orc", "goblin", "elf", "mage"))
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3")  # players 0 and 1 close TL
    play(state, "1@a1", "1@b1", "1@a2")  # players 2, 3, 0: TL is full
    play(state, "1@e3", "1@g3", "1@e5")  # players 1, 2, 3
    assert state.current_player == 0
    assert refused(state, "reinforce a1") == "reinforce_not_own"  # player 2's: his partner
    assert refused(state, "reinforce b1") == "reinforce_not_own"  # an opponent's
    play(state, "reinforce a2")
    assert square(state, "a2", 1)["warrior"]["reinforced"] is True


def test_reinforcement_adds_one() -> None:
    """rule 7.2.3(1): +1 to the warrior's strength."""
    state = new(2, "advanced", races=("orc", "goblin"))
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3", "1@a1", "2@b1", "1@a2", "1@e3")
    play(state, "reinforce a1")  # player 0: 1 + 1 + 1 = 3 against 2
    end_game(state)
    assert state.score() == (7, 20 + 13)


def test_scoring_reinforcement_breaks_tie() -> None:
    """rule 7.2.3(6): among players tied for the highest strength, the one whose
    warrior carries the reinforcement token takes the gold alone.  Reading: a holder
    who is not among the tied changes nothing."""
    state = new(2, "advanced", races=("orc", "goblin"))
    play(state, "b1-c1", "b2-c2", "a2-a3", "b2-b3", "1@a1", "3@b1", "1@a2", "1@d3")
    play(state, "reinforce a1")  # 1 + 1 + 1 = 3 against 3: a tie, the token decides
    end_game(state)
    assert state.piles() == ((7,), (33,))
    three = new(3, "advanced", races=("orc", "goblin", "elf"))
    play(three, "b1-c1", "b2-c2", "a2-a3", "b2-b3", "1@e3", "1@a1", "3@b1", "3@a2")
    play(three, "reinforce a1")  # player 1: 1 + 1 = 2; players 2 and 0: 3 each
    end_game(three)
    # TL: players 1 and 2 share 7 (3 each, 1 lost); player 2 alone takes the rest (33)
    assert three.piles() == ((), (3,), (33, 3))


def free_squares(state: ArmadoraState) -> list[list[str]]:
    """Each territory's empty squares (neither warrior nor gold), in territory order."""
    view = state.view(None)
    taken = {sq["square"] for sq in view["squares"] if sq["warrior"] or sq["mine"]}
    return [[sq for sq in t if sq not in taken] for t in view["territories"]]


def place_keeping_room(state: ArmadoraState, leave: int) -> None:
    """The player to move places his weakest warriors, each on the first empty square of
    a territory with at least two, until ``leave`` remain: no territory is ever filled,
    so no reinforcement token becomes possible."""
    p = state.current_player
    while state.view(p)["players"][p]["warriors_left"] > leave:
        room = min(min(f) for f in free_squares(state) if len(f) >= 2)
        pool = state.view(p)["players"][p]["pool"]
        play(state, f"{next(k for k, n in enumerate(pool, 1) if n)}@{room}")


def alone_with_nothing_left(races: tuple[str, str], leave: int) -> ArmadoraState:
    """Player 1 plays alone (player 0 put a warrior on h4 and ended), has placed every
    palisade, and all but ``leave`` warriors without filling a territory."""
    state = new(2, "advanced", races=races)
    play(state, "1@h4", "a1-b1", "done", "pass")
    use_up_palisades(state)
    place_keeping_room(state, leave)
    assert state.current_player == 1 and state.phase == "turn"
    return state


@pytest.mark.parametrize(("races", "power"), [(("mage", "elf"), "arrow h4"),
                                              (("elf", "mage"), "peek h4")])
def test_rule_7_power_only_when_a_main_action_can_follow(races: tuple[str, str],
                                                         power: str) -> None:
    """rule 7.2.1 (七/(二)1) with rule 4 (四): a turn is an optional power *followed by*
    one of the three actions; a player with nothing left to place ends.  An Elf or a Mage
    with no warrior, no palisade and no reinforcement target may not shoot or peek turn
    after turn: his only move is to pass."""
    state = alone_with_nothing_left(races, leave=1)
    assert power in legal(state)  # one warrior left: the power, then that warrior
    play(state, power)
    assert state.phase == "after_power" and "pass" not in legal(state)
    place_keeping_room(state, leave=0)
    assert state.current_player == 1 and state.view(1)["players"][1]["power_tokens"] == 1
    assert legal(state) == {"pass"}
    assert refused(state, power) == "power_without_action"
    assert_reasons_agree(state)
    play(state, "pass")
    assert state.is_terminal()


def test_rule_7_power_still_offered_when_only_the_reinforcement_can_follow() -> None:
    """rule 7.2.1 (七/(二)1): the reinforcement token is one of the three actions, so a
    power is offered when it is the only thing left to do; the power is then followed
    by it."""
    state = new(2, "advanced", races=("elf", "mage"))
    play(state, "1@h4", "a1-b1", "done", "pass")
    use_up_palisades(state)
    place_keeping_room(state, leave=2)
    column_a = next(f for f in free_squares(state) if f == ["a3"])  # a1 a2 theirs, a4 gold
    pool = state.view(1)["players"][1]["pool"]
    play(state, f"{next(k for k, n in enumerate(pool, 1) if n)}@{column_a[0]}")  # fills a1-a4
    place_keeping_room(state, leave=0)
    assert not any(m.kind in ("warrior", "palisade") for m in state.legal_moves())
    assert legal(state) == {"pass", "peek h4", "reinforce a1", "reinforce a2", "reinforce a3"}
    play(state, "peek h4")
    assert state.phase == "after_power"
    assert legal(state) == {"reinforce a1", "reinforce a2", "reinforce a3"}


def test_rule_7_goblin_warrior_only_where_a_main_action_can_follow() -> None:
    """rule 7.2.1 with 7.2.2 Goblin (七/(二)2 哥布林): with his last warrior and no
    palisade left, the Goblin's extra warrior may go only where it fills a territory,
    so that the reinforcement token can follow it (on that very warrior, say); elsewhere
    nothing could follow.  With two warriors left it may go on any empty square."""
    state = alone_with_nothing_left(("mage", "goblin"), leave=2)
    empties = {sq for f in free_squares(state) for sq in f}
    assert {m.square for m in state.legal_moves() if m.kind == "goblin"} == empties
    place_keeping_room(state, leave=1)
    lone = {f[0] for f in free_squares(state) if len(f) == 1}
    roomy = {sq for f in free_squares(state) if len(f) >= 2 for sq in f}
    assert lone and roomy
    assert {m.square for m in state.legal_moves() if m.kind == "goblin"} == lone
    k = next(m.strength for m in state.legal_moves() if m.kind == "warrior")
    assert f"{k}@{min(roomy)}" in legal(state)  # as the main action it may go there
    assert refused(state, f"goblin {k}@{min(roomy)}") == "power_without_action"
    assert_reasons_agree(state)
    play(state, f"goblin {k}@a3")  # fills a1-a4 (a1 a2 his, a4 gold)
    assert state.phase == "after_power"
    assert legal(state) == {"reinforce a1", "reinforce a2", "reinforce a3"}


def test_rule_7_orc_palisade_only_where_a_main_action_can_follow() -> None:
    """rule 7.2.1 with 7.2.2 Orc (七/(二)2 獸人): with no warrior left and one palisade
    in the supply, the Orc's extra palisade is offered only where it closes a full
    territory holding his warriors, so that the reinforcement token can follow."""
    state = new(2, "advanced", races=("mage", "orc"))
    play(state, "pass")
    use_up_palisades(state, leave=1)
    assert "g4-g5" not in state.view(None)["palisades"]  # column g still opens onto row 5
    squares = ["g1", "g2", "g3", "g4", "a1", "a2", "b1", "b3", "c1", "c2", "c3", "d2", "d3",
               "e1", "e2", "f1"]
    for sq in squares:
        pool = state.view(1)["players"][1]["pool"]
        play(state, f"{next(k for k, n in enumerate(pool, 1) if n)}@{sq}")
    assert all(f for f in free_squares(state))  # no territory full yet
    palisades = {str(m) for m in state.legal_moves() if m.kind == "palisade"}
    assert {"g4-g5", "h4-h5"} <= palisades
    assert {m for m in legal(state) if m.startswith("orc")} == {"orc g4-g5"}
    assert refused(state, "orc h4-h5") == "power_without_action"
    assert_reasons_agree(state)
    play(state, "orc g4-g5")
    assert state.phase == "after_power" and palisades_left(state) == 0
    assert legal(state) == {"reinforce g1", "reinforce g2", "reinforce g3", "reinforce g4"}


def random_move_saving_powers(state: ArmadoraState, moves: list[Any],
                              rng: random.Random) -> Any:
    """A random move that mostly keeps the powers for the end of the game (from the
    player's last warrior on) and rarely passes, so that games reach the positions
    where little is left to do."""
    player = state.current_player
    powers = [m for m in moves if m.is_power]
    if powers and (state.view(None)["players"][player]["warriors_left"] <= 1
                   or rng.random() < 0.1):
        return rng.choice(powers)
    others = [m for m in moves if not m.is_power and str(m) != "pass"]
    if others and rng.random() > 0.02:
        return rng.choice(others)
    return rng.choice(moves)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_7_every_power_offered_is_followed_by_a_main_action(players: int) -> None:
    """rule 7.2.1 (七/(二)1) in random games that keep the powers for the end: after every
    power the same player has a main action (never 'pass'); a Mage's or Elf's power is offered
    exactly when a main action is possible before it (a peek or an arrow changes nothing
    an action depends on)."""
    game = boardrules.load("armadora", players=players, variant="advanced")
    main_kinds = {"warrior", "palisade", "reinforce"}
    powers = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            moves = state.legal_moves()
            player = state.current_player
            race = state.view(None)["players"][player]["race"]
            if state.phase == "turn" and race in ("mage", "elf"):
                can_act = any(m.kind in main_kinds for m in moves)
                kind = "peek" if race == "mage" else "arrow"
                reasons = {game._explain(state._core, m.action)[0]
                           for m in game._moves if m.kind == kind}
                # whether the power is offered depends only on what could follow it
                assert ("legal" in reasons) <= can_act
                assert ("power_without_action" in reasons) <= (not can_act)
            move = random_move_saving_powers(state, moves, rng)
            state.apply(move)
            if move.is_power:
                powers += 1
                assert state.current_player == player and state.phase == "after_power"
                after = state.legal_moves()
                assert after and all(m.kind in main_kinds for m in after)
    assert powers >= 4 * players


# --- the facade agrees with the core -----------------------------------------------------


@pytest.mark.parametrize("options", [
    {"players": 2, "variant": "basic"},
    {"players": 3, "variant": "advanced"},
    {"players": 4, "variant": "advanced"},
])
def test_illegal_reasons_agree_with_legal_moves(options: dict[str, Any]) -> None:
    """Every action id is either legal (and listed) or refused with a named rule."""
    game = boardrules.load("armadora", **options)
    for seed in range(3):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert_reasons_agree(state)
            state.apply(rng.choice(state.legal_moves()))


def test_determinize_depends_only_on_what_the_observer_knows() -> None:
    """Hidden information: two states that differ only in values player 0 cannot see give
    byte-identical worlds for the same seed (so search cannot tell them apart)."""
    one = new(2, "advanced", races=("mage", "elf"))
    two = new(2, "advanced", races=("mage", "elf"))
    play(one, "2@e3", "3@c1", "peek c1", "1@a2", "4@g3")
    play(two, "2@e3", "3@c1", "peek c1", "1@a2", "1@g3")  # g3 differs; c1 was peeked
    assert one.state_bytes() != two.state_bytes()
    assert one.view(0) == two.view(0)
    for seed in range(10):
        world_one, world_two = one.determinize(0, seed), two.determinize(0, seed)
        assert world_one.state_bytes() == world_two.state_bytes()
        assert square(world_one, "c1")["warrior"] is not None
        assert world_one._raw()["strength"][one.game.board.width * 0 + 2] == 3  # c1 kept
