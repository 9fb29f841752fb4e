"""Albion positions (docs/albion.rst, "Position format"): the text round-trips every
reachable state byte for byte, hand-written positions play on, and junk, wrong types,
out-of-range values and broken invariants are refused naming the field, with nothing
changed."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from albion_helpers import INDEX, TEST_BOARD

from boardrules import InvalidPositionError
from boardrules.games.albion import AlbionGame, AlbionState
from boardrules.testing import random_positions


def board_game(players: int = 2) -> AlbionGame:
    return AlbionGame(players, board=TEST_BOARD)


@pytest.mark.parametrize("options", AlbionGame.example_options)
def test_position_round_trips_every_reachable_state(options: dict[str, Any]) -> None:
    game = AlbionGame(**options)
    for state in random_positions(game, games=4, seed=11):
        text = state.position()
        again = game.position(text, auto_chance=False, auto_forced=False)
        assert again.state_bytes() == state.state_bytes()
        assert again.position() == text


def test_position_round_trips_on_the_test_board_with_auto_chance() -> None:
    game = board_game(3)
    for state in random_positions(game, games=6, seed=3):
        again = game.position(state.position(), auto_chance=False, auto_forced=False)
        assert again.state_bytes() == state.state_bytes()


def fresh(players: int = 2) -> tuple[AlbionGame, str]:
    """The test board's game and the position of its first turn (fortresses placed)."""
    game = board_game(players)
    state = game.new_game(seed=1)
    for _ in range(players):
        state.apply("fortress westgate")
    return game, state.position()


def replace_line(text: str, label: str, line: str) -> str:
    lines = text.splitlines()
    i = next(i for i, old in enumerate(lines) if old.startswith(label + ":"))
    lines[i] = line
    return "\n".join(lines) + "\n"


def test_a_hand_written_position_plays_on() -> None:
    """Player 0 with a settler in the moor and a fish and a wood: he builds a settlement
    there (stage I costs one resource of any kind: two kinds, so he chooses)."""
    game, text = fresh()
    text = replace_line(text, "region moor", "region moor: buildings - | -; settlers 1 0; "
                        "legions 0 0; picts 6 0")
    text = replace_line(text, "region port", "region port: buildings rampart 1 | rampart 1; "
                        "settlers 0 1; legions 0 0; picts 0 0")
    state = game.position(text, auto_chance=False)
    state.apply("build settlement moor")
    assert state.phase == "pay"
    state.apply("pay wood")
    assert state.phase == "reveal"      # the moor's face-down Picts: one is turned over


def test_a_state_from_a_position_has_no_history_and_saves_its_start() -> None:
    game, text = fresh()
    state = game.position(text)
    assert state.history == [] and state.start_position == text
    with pytest.raises(IndexError):
        state.undo()
    state.apply("resources")
    state.undo()
    assert state.position() == text
    state.apply("settler port-westgate")
    restored = game.state_from_json(state.to_json())
    assert restored.state_bytes() == state.state_bytes()
    assert restored.start_position == text
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert other.state_bytes() == state.state_bytes()
        assert other.start_position == text
    assert json.loads(state.to_json())["start"] == text


def refused(game: AlbionGame, text: str, field: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        game.position(text)
    assert info.value.field == field, info.value


def test_positions_refuse_junk_naming_the_field() -> None:
    game, text = fresh()
    refused(game, "", "albion")
    refused(game, "not a position", "line 1")
    refused(game, text.replace("albion: 2 players", "albion: 3 players"), "albion")
    refused(game, text.replace("phase move", "phase dancing"), "state.phase")
    refused(game, text.replace("round 1", "round one"), "state.round")
    refused(game, text.replace("started no", "started maybe"), "turn.started")
    refused(game, text + "extra: 1\n", "extra")
    refused(game, text.replace("counters: moves", "counters: bogus 1; moves"), "counters.bogus")
    refused(game, "\n".join(text.splitlines()[:-1]) + "\n", "counters")
    refused(game, text.replace("region moor: buildings - | -",
                               "region moor: buildings castle 1 | -"), "region moor.buildings")
    refused(game, text.replace("region glen: buildings - | -; settlers 0 0",
                               "region glen: buildings - | -; settlers 0"),
            "region glen.settlers")


def test_positions_refuse_out_of_range_values_and_broken_invariants() -> None:
    game, text = fresh()
    refused(game, text.replace("round 1", "round 0"), "round")
    refused(game, text.replace("current 0", "current 2"), "current")
    refused(game, text.replace("current 0", "current 1"), "current")
    refused(game, text.replace("region moor: buildings - | -",
                               "region moor: buildings plant 1 | -"), f"btype[{INDEX['moor']}][0]")
    refused(game, text.replace("region moor: buildings - | -",
                               "region moor: buildings fortress 4 | -"),
            f"bstage[{INDEX['moor']}][0]")
    refused(game, text.replace("region moor: buildings - | -; settlers 0 0",
                               "region moor: buildings - | -; settlers 4 0"), "settlers")
    refused(game, text.replace("region moor: buildings - | -; settlers 0 0; legions 0 0",
                               "region moor: buildings - | -; settlers 0 0; legions 4 0"),
            f"legions[{INDEX['moor']}][0]")
    # a fish out of nowhere: the resource count is broken
    player0 = next(line for line in text.splitlines() if line.startswith("player 0:"))
    refused(game, text.replace(player0, player0.replace("fish 3", "fish 4")),
            "resources.fish")
    # a stage II fortress without its neutral marker (A10)
    refused(game, text.replace("region westgate: buildings fortress 1",
                               "region westgate: buildings fortress 2"), "neutral_markers[0]")
    refused(game, text.replace("build: -", "build: region moor; type settlement; stage 1; "
                               "free no; lost no; paid -; tributed -; takers -"), "b_stage")
    refused(game, text.replace("reason -", "reason round_cap"), "end_reason")


def test_core_load_refuses_wrong_types_and_leaves_the_state_as_it_was() -> None:
    game, text = fresh()
    state = game.position(text)
    raw = game._core.export(state._core)
    before = state.state_bytes()
    for field, value in (("phase", "move"), ("phase", True), ("phase", 1.0),
                         ("btype", [[0, 0]]), ("res", None), ("launched", [99]),
                         ("started", 1), ("winners", [0, 0]), ("last_action", 2**70)):
        bad = dict(raw, **{field: value})
        with pytest.raises((TypeError, ValueError)) as info:
            game._core.load(state._core, bad)
        assert str(info.value).startswith(field), info.value
        assert state.state_bytes() == before
    missing = dict(raw)
    del missing["points"]
    with pytest.raises(KeyError):
        game._core.load(game._core.new_state(), missing)


def test_an_int_subclass_is_read_by_its_value() -> None:
    class Liar(int):
        def __le__(self, other: object) -> bool:
            return True

        def __ge__(self, other: object) -> bool:
            return True

    game, text = fresh()
    raw = game._core.export(game.position(text)._core)
    with pytest.raises(ValueError):
        game._core.load(game._core.new_state(), dict(raw, points=Liar(200)))


def test_a_position_in_each_phase_round_trips_through_its_text() -> None:
    game = board_game(2)
    seen: dict[str, AlbionState] = {}
    for state in random_positions(game, games=8, seed=5):
        seen.setdefault(state.phase, state)
    assert {"setup", "move", "build", "pay", "reveal", "over"} <= set(seen)
    for state in seen.values():
        text = state.position()
        assert game._position_text(game._position_raw(text)) == text


def test_mangled_position_text_is_refused_or_read_never_anything_else() -> None:
    """Random edits of real positions: each is a position or an InvalidPositionError
    (never another exception), and what is read plays on."""
    game = board_game(2)
    texts = [s.position() for s in random_positions(game, games=1, seed=3)]
    rng = random.Random(1)
    alphabet = " ;:|-+0123456789abcdefghijklmnopqrstuvwxyz\n"
    for _ in range(400):
        chars = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            chars[i:i + 1] = rng.choice(([], [rng.choice(alphabet)],
                                         [rng.choice(alphabet), chars[i]]))
        try:
            state = game.position("".join(chars), auto_chance=False)
        except InvalidPositionError:
            continue
        assert state.is_terminal() or state.legal_moves()


# --- figures on the board (docs/albion.rst, A18) ------------------------------------------


def _shipped_start() -> tuple[AlbionGame, str]:
    """The shipped board's game and the position of its first turn (fortresses placed):
    each player's starting settler in cantium."""
    game = AlbionGame(2)
    state = game.new_game(auto_chance=False)
    state.apply("fortress trinovantes")
    state.apply("fortress atrebates")
    return game, state.position()


CANTIUM = "region cantium: buildings rampart 1 | rampart 1; settlers 1 1; legions 0 0; picts 0 0"


def test_a_position_with_figures_play_cannot_make_is_refused() -> None:
    # Game.position took 4 settlers + 3 legionnaires with no settlement (play leaves the
    # starting settler alone), and a settlement II with no figure at all (play leaves 3).
    game, text = _shipped_start()
    assert CANTIUM in text

    def with_figures(settlers: int, legions: int, settlement: str = "-") -> str:
        changed = text.replace(CANTIUM, CANTIUM.replace(
            "settlers 1 1; legions 0 0", f"settlers {settlers} 1; legions {legions} 0"))
        return changed.replace("region catuvellauni: buildings - | -",
                               f"region catuvellauni: buildings {settlement} | -")

    refused(game, with_figures(4, 3), "figures[0]")
    refused(game, with_figures(0, 0, "settlement 2"), "figures[0]")
    refused(game, with_figures(1, 0, "settlement 1"), "figures[0]")   # one short
    refused(game, with_figures(2, 1, "settlement 1"), "figures[0]")   # one too many
    refused(game, with_figures(3, 1, "settlement 4"), "figures[0]")   # III, IV add none
    for settlers, legions, settlement in ((2, 0, "settlement 1"), (1, 1, "settlement 1"),
                                          (1, 2, "settlement 2"), (3, 0, "settlement 4")):
        state = game.position(with_figures(settlers, legions, settlement))
        assert state.view(None)["players"][0]["settlers_in_supply"] == 4 - settlers


def _builder(rng: random.Random, state: AlbionState) -> Any:
    """A random player who builds and develops far more than uniform play does (so that
    settlements reach stage III, assaults reduce them and figures are owed and returned),
    and removes buildings rarely."""
    moves = state.legal_moves()
    weights = {"develop": 30.0, "build": 8.0, "pay": 5.0, "take": 5.0, "resources": 3.0,
               "remove": 0.05, "carry": 0.5}
    return rng.choices(moves, [weights.get(str(m).split()[0], 1.0) for m in moves])[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_random_play_reaches_keeps_its_figures_and_round_trips(
        players: int) -> None:
    # The figures check must refuse only what play cannot make: every state of random
    # games (every phase, losses owed, figures to bring, free developments, removals)
    # goes through position() -> Game.position() to the same bytes.
    options = [o for o in AlbionGame.example_options if o["players"] == players]
    game = AlbionGame(**{**options[0], "max_rounds": 60})
    rng = random.Random(players)
    phases: set[str] = set()
    checked = 0
    for number in range(4):
        state = game.new_game(seed=number, auto_chance=number % 2 == 0)
        for _ in range(1500):
            if state.is_terminal():
                break
            phases.add(state.phase)
            text = state.position()
            again = game.position(text, auto_chance=False, auto_forced=False)
            assert again.state_bytes() == state.state_bytes() and again.position() == text
            checked += 1
            if state.current_player < 0:
                state.apply_random_chance()
            else:
                state.apply(_builder(rng, state))
    assert checked > 1000
    assert {"move", "build", "pay", "figure", "loss"} <= phases, phases
