"""Armadora positions: the text format of docs/armadora.rst ("Position format") read by
``game.position`` and written by ``state.position``, round trips over random reachable
states of every example option set, hand-written positions, and refusals naming the
field (the state machine untouched)."""

from __future__ import annotations

import copy
import pickle

import pytest

import boardrules
from boardrules.errors import InvalidPositionError
from boardrules.games.armadora import (
    ArmadoraGame,
    ArmadoraState,
    ArmadoraView,
    ArmadoraWarriorView,
)
from boardrules.testing import random_positions

#: A basic two-player position on the printed board: player 0 to move, his 2 on c3.
BASIC = """\
Armadora position
board: printed
players: 2
variant: basic
phase: turn
to move: 1
move: 9
last: 2@c3
passed: none
gold: d1 5, b2 4, f2 6, h2 7, a4 4, e4 6, c5 5, g5 3
palisades: none
c3: player 0, strength 2
"""

#: An advanced position: the Elf's arrow on the Mage's 5, the Mage has just peeked at
#: the Elf's 3 and now places a warrior or palisades (rule 7.2.1).
ADVANCED = """\
Armadora position
board: printed
players: 2
variant: advanced
phase: after_power
to move: 1
move: 16
last: peek a1
passed: none
gold: d1 5, b2 4, f2 6, h2 7, a4 4, e4 6, c5 5, g5 3
palisades: b1-c1, b2-c2
player 0: race elf, tokens 1, peeked none
player 1: race mage, tokens 1, peeked a1
a1: player 0, strength 3
c3: player 1, strength 5, arrows 1
"""


def warrior(view: ArmadoraView, cell: int) -> ArmadoraWarriorView:
    """The warrior on ``cell`` of a view (there must be one)."""
    found = view["squares"][cell]["warrior"]
    assert found is not None
    return found


def game(**options: object) -> ArmadoraGame:
    return boardrules.load("armadora", **options)


@pytest.mark.parametrize("options", ArmadoraGame.example_options, ids=str)
def test_positions_round_trip_every_reachable_state(options: dict[str, object]) -> None:
    g = game(**options)
    for state in random_positions(g, games=4, seed=11):
        text = state.position()
        again = g.position(text, auto_chance=False)
        assert again.state_bytes() == state.state_bytes()
        assert again.position() == text


def test_a_hand_written_position_is_canonical_and_plays_on() -> None:
    state = game().position(BASIC)
    assert state.position() == BASIC
    assert state.current_player == 1
    assert state.view(0)["players"][0]["pool"] == [11, 1, 1, 1, 1]
    state.apply("5@d3")
    assert warrior(state.view(1), 19)["strength"] == 5
    assert state.current_player == 0


def test_an_advanced_position_holds_races_tokens_arrows_and_peeks() -> None:
    state = game(variant="advanced").position(ADVANCED)
    assert state.position() == ADVANCED
    view = state.view(1)
    assert view["players"][1]["race"] == "mage"
    assert warrior(view, 0)["strength"] == 3  # peeked at
    assert warrior(view, 18)["arrows"] == 1
    assert warrior(state.view(None), 0)["strength"] is None


def test_position_text_is_lenient_with_spacing_order_and_comments() -> None:
    shuffled = BASIC.replace("phase: turn\n", "").replace("Armadora position\n", "")
    text = "armadora   position\n# a comment\nphase :  turn\n" + shuffled.upper().replace(
        "BOARD: PRINTED", "board: printed").replace("VARIANT: BASIC", "variant: basic")
    assert game().position(text).position() == BASIC


def test_a_state_from_a_position_has_no_history_and_saves_its_start() -> None:
    g = game()
    state = g.position(BASIC)
    assert list(state.history) == [] and state.start_position == BASIC
    with pytest.raises(IndexError):
        state.undo()
    state.apply("1@a1")
    state.undo()
    assert state.position() == BASIC
    state.apply("1@a1")
    restored = g.state_from_json(state.to_json())
    assert restored.state_bytes() == state.state_bytes()
    assert restored.start_position == BASIC
    assert pickle.loads(pickle.dumps(state)).state_bytes() == state.state_bytes()
    assert copy.deepcopy(state).position() == state.position()


def _refused(g: ArmadoraGame, text: str, field: str) -> InvalidPositionError:
    with pytest.raises(InvalidPositionError) as info:
        g.position(text)
    assert info.value.field == field, str(info.value)
    return info.value


@pytest.mark.parametrize(("old", "new", "field"), [
    ("Armadora position", "Chess position", ""),
    ("phase: turn", "phase: lunch", "phase"),
    ("players: 2", "players: 3", "players"),
    ("variant: basic", "variant: advanced", "variant"),
    ("board: printed", "board: sheet-7x5", "board"),
    ("to move: 1", "to move: 2", "to move"),
    ("to move: 1", "to move: -1", "to move"),
    ("move: 9", "move: nine", "move"),
    ("last: 2@c3", "last: castle", "last"),
    ("passed: none\n", "", "passed"),
    ("passed: none", "passed: 1 1", "passed"),
    ("gold: d1 5,", "gold: d1 8,", "gold"),
    ("gold: d1 5,", "gold: d1 3,", "gold"),  # a second pile of 3 (g5 holds the only one)
    ("gold: d1 5, b2 4", "gold: b2 4, d1 5", "gold"),
    ("palisades: none", "palisades: a1-c1", "palisades"),
    ("palisades: none", "palisades: a1-b1, a1-b1", "palisades"),
    ("c3: player 0, strength 2", "c3: player 2, strength 2", "c3"),
    ("c3: player 0, strength 2", "c3: player 0, strength 6", "c3"),
    ("c3: player 0, strength 2", "c3: player 0, strength 2, shiny", "c3"),
    ("c3: player 0, strength 2", "c3: player 0", "c3"),
    ("c3: player 0, strength 2", "z9: player 0, strength 2", "z9"),
    ("c3: player 0, strength 2", "c3: player 0, strength 2\nc3: player 1, strength 1", "c3"),
    ("c3: player 0, strength 2", "c3: player 0, strength 5\nd3: player 0, strength 5",
     "d3"),  # a second 5: the set has one (rule 2.3)
])
def test_malformed_text_is_refused_naming_the_field(old: str, new: str, field: str) -> None:
    assert old in BASIC
    _refused(game(), BASIC.replace(old, new), field)


@pytest.mark.parametrize(("old", "new", "field"), [
    # rule 3: a warrior never stands on a mine
    ("c3: player 0", "d1: player 0", "owner[d1]"),
    # rule 3 (palisades): no territory of fewer than 4 squares
    ("palisades: none", "palisades: a1-b1, a2-b2, a2-a3", "palisades"),
    # rule 7.2.2: only the Goblin places face up, and basic has no tokens
    ("strength 2", "strength 2, face up", "face_up[c3]"),
    ("strength 2", "strength 2, reinforced", "reinforced[c3]"),
    ("strength 2", "strength 2, arrows 1", "arrows[c3]"),
    # rule 4: the game is over exactly when everybody passed; the one to move has not
    ("passed: none", "passed: 1", "current"),
    ("phase: turn", "phase: over", "phase"),
    ("passed: none", "passed: 0 1", "phase"),
    # the setup first (rule 2.6): gold before play, no warrior during it
    ("gold: d1 5,", "gold: d1 -,", "gold[d1]"),
    ("phase: turn", "phase: gold", "phase"),
    ("phase: turn", "phase: race", "phase"),
    ("phase: turn", "phase: after_power", "phase"),
    ("phase: turn", "phase: second_palisade", "phase"),
    # counters: the actions that led here, and the last one's mark
    ("move: 9", "move: 3", "move_count"),
    ("last: 2@c3", "last: 3@c3", "last_action"),
    ("last: 2@c3", "last: a1-b1", "last_action"),
    ("last: 2@c3", "last: -", "last_action"),
    ("last: 2@c3", "last: race elf", "last_action"),
])
def test_inconsistent_positions_are_refused_naming_the_field(old: str, new: str,
                                                            field: str) -> None:
    assert old in BASIC
    _refused(game(), BASIC.replace(old, new), field)


@pytest.mark.parametrize(("old", "new", "field"), [
    ("player 0: race elf", "player 0: race mage", "race[1]"),  # each race once
    ("player 0: race elf", "player 0: race dwarf", "player 0"),
    ("player 0: race elf", "player 0: race none", "race[0]"),  # dealt in player order
    ("tokens 1, peeked none", "tokens 3, peeked none", "player 0"),
    # after the power (rule 7.2.1) the Mage has used one of his 2 tokens
    ("player 1: race mage, tokens 1", "player 1: race mage, tokens 2", "power_tokens[1]"),
    ("peeked a1", "peeked c3", "known[1][0]"),  # the Mage's own warrior
    ("player 0: race elf, tokens 1, peeked none", "player 0: race elf, tokens 1, peeked a1",
     "known[0][0]"),  # only a Mage peeks
    ("c3: player 1, strength 5, arrows 1", "c3: player 1, strength 5, arrows 1, face up",
     "face_up[c3]"),
    ("player 0: race elf", "player 0: race orc", "arrows[c3]"),  # no Elf shot it
])
def test_inconsistent_advanced_positions_are_refused(old: str, new: str, field: str) -> None:
    assert old in ADVANCED
    with pytest.raises(InvalidPositionError) as info:
        game(variant="advanced").position(ADVANCED.replace(old, new))
    assert info.value.field.startswith(field), str(info.value)


def test_the_elf_tokens_must_add_up_with_the_arrows_on_the_board() -> None:
    # rule 7.2.2: the Elf has 2 tokens; one arrow lies on the board, so he has 1 left
    text = ADVANCED.replace("race elf, tokens 1", "race elf, tokens 2")
    _refused(game(variant="advanced"), text, "power_tokens[0]")


def test_the_goblin_token_must_add_up_with_his_face_up_warrior() -> None:
    # rule 7.2.2: the Goblin has 1 token; his face-up warrior shows it is used
    text = (ADVANCED.replace("race elf, tokens 1", "race goblin, tokens 1")
            .replace("race mage, tokens 1, peeked a1", "race mage, tokens 2, peeked none")
            .replace("phase: after_power", "phase: turn").replace("last: peek a1", "last: 5@c3")
            .replace("c3: player 1, strength 5, arrows 1", "c3: player 1, strength 5")
            .replace("a1: player 0, strength 3", "a1: player 0, strength 3, face up"))
    _refused(game(variant="advanced"), text, "power_tokens[0]")
    assert game(variant="advanced").position(text.replace("goblin, tokens 1",
                                                          "goblin, tokens 0"))


def test_the_core_load_checks_types_by_value() -> None:
    g = game()
    state = g.position(BASIC)
    raw = state._raw()
    for field, value in (("phase", True), ("phase", 2.0), ("owner", "x"), ("pool", [[]]),
                         ("gold", [None] * 40), ("palisades", [3, 3]), ("known", [[], [99]]),
                         ("current", 2**70), ("move_count", -1)):
        bad = dict(raw, **{field: value})
        core = g._core.new_state()
        before = core.state_bytes()
        with pytest.raises((TypeError, ValueError), match=rf"^{field}"):
            g._core.load(core, bad)
        assert core.state_bytes() == before
    with pytest.raises(ValueError, match=r"^colour: not a field"):
        g._core.load(g._core.new_state(), dict(raw, colour=1))


def test_a_bad_position_leaves_the_game_untouched() -> None:
    g = game()
    state = g.position(BASIC)
    before = state.state_bytes()
    with pytest.raises(InvalidPositionError):
        g.position(BASIC.replace("strength 2", "strength 9"))
    with pytest.raises(TypeError):
        g.position(b"Armadora position")  # type: ignore[arg-type]
    assert state.state_bytes() == before


def test_positions_of_another_board_name_its_squares() -> None:
    g = game(board="sheet-7x5", players=3)
    state = g.new_game(seed=3)
    state.apply(state.legal_moves()[-1])
    text = state.position()
    assert "board: sheet-7x5" in text and "players: 3" in text
    assert isinstance(g.position(text), ArmadoraState)
    _refused(g, text.replace("gold: d1", "gold: h1"), "gold")
