"""Regressions of the outside review of 0.5.0 (shared/reproducers/v0.5.0): each test is
named after the defect it pins.  (The rules findings -- worlds keeping the last action,
the last two 15s -- are pinned in each game's own tests.)"""

from __future__ import annotations

import json
from typing import Any

import pytest

import boardrules
from boardrules.search import AlphaBetaBot, GreedyBot, ISMCTSBot, MCTSBot, RandomBot
from boardrules.testing import assert_rejected, random_play

GAMES = ["albion", "armada", "armadora", "connect_four", "pig", "rome_and_carthage",
         "tic_tac_toe"]
KEY = b"0123456789abcdef-server-only-key"


class LyingInt(int):
    """An int whose comparisons say whatever passes a range check."""

    def __lt__(self, other: object) -> bool:
        return True

    def __le__(self, other: object) -> bool:
        return True

    def __ge__(self, other: object) -> bool:
        return True

    def __gt__(self, other: object) -> bool:
        return False


def _state(game_id: str) -> boardrules.State[Any]:
    return random_play(boardrules.load(game_id), seed=1, moves=4)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("value", [10**6, -3, 2**64])
def test_lying_int_indexes_are_checked_by_their_true_value(game_id: str, value: int) -> None:
    """Every integer a caller passes is read as a plain int before its range check: an
    out-of-range player, action id or seed is refused whatever its comparisons say (it
    reached the core as an out-of-range observer: a segfault in Armadora)."""
    state = _state(game_id)
    lying = LyingInt(value)
    calls = {
        "determinize": lambda: state.determinize(lying, 1),
        "view": lambda: state.view(lying),
        "history_view": lambda: state.history_view(lying),
        "render_text": lambda: state.render_text(lying),
        "apply player": lambda: state.apply(state.legal_moves()[0], player=lying),
        "move": lambda: state.game.move(lying),
        "core determinized": lambda: state._core.determinized(lying, 1),
        "core is_legal": lambda: state._core.is_legal(lying) and None,
    }
    if not 0 <= value < 2**64:  # out of a seed's range too
        calls["determinize seed"] = lambda: state.determinize(0, lying)
        calls["new_game seed"] = lambda: state.game.new_game(seed=lying)
    if state.current_player >= 0:
        calls["suggest player"] = lambda: boardrules.suggest(state, player=lying, iterations=5)
        if value > 10**12 or value < 1:  # out of the iterations' range
            calls["suggest iterations"] = lambda: boardrules.suggest(state, iterations=lying)
    for name, call in calls.items():
        before = state.state_bytes(), state.to_json()
        try:
            result = call()
        except (ValueError, TypeError, IndexError, boardrules.BoardRulesError):
            pass
        else:
            # only a query whose true value is harmless may answer (is_legal: False)
            assert result in (None, False), name
        assert (state.state_bytes(), state.to_json()) == before, name
    # the history from a lying start index: clamped by its true value
    n = state._core.num_actions
    assert state._core.actions_from(lying) == ([] if value > 0 else state._core.actions)
    assert len(state._core.actions_from(LyingInt(n - 1))) == 1


@pytest.mark.parametrize("game_id", GAMES)
def test_lying_int_game_count_of_compiled_playouts_is_checked_by_its_true_value(
        game_id: str) -> None:
    """``core.random_playouts(games, seed)``: a game count that lies in its comparisons is
    read by its value (2**32) and refused as out of range, not converted to a C int
    (found by the core fuzz target: OverflowError)."""
    core = boardrules.load(game_id).core  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="games must be 0 to"):
        core.random_playouts(LyingInt(2**32), 1)
    with pytest.raises(TypeError, match="games must be an int"):
        core.random_playouts(True, 1)


@pytest.mark.parametrize("value", [LyingInt(2**80), 2**80, LyingInt(-1), LyingInt(7)])
def test_lying_int_player_of_the_rome_and_carthage_core_capital_query(value: int) -> None:
    """``RomeCarthageCore.capital_occupied(st, player)`` read its player as a C int: a huge
    int raised OverflowError instead of the range error, and a lying one reached C."""
    state = _state("rome_and_carthage")
    core = state.game.core  # type: ignore[attr-defined]
    before = state.state_bytes()
    with pytest.raises(ValueError, match="player out of range"):
        core.capital_occupied(state._core, value)
    with pytest.raises(TypeError, match="player must be an int"):
        core.capital_occupied(state._core, True)
    assert core.capital_occupied(state._core, LyingInt(1)) is state.capital_occupied(1)
    assert state.state_bytes() == before


def test_signature_with_a_lone_surrogate_is_an_invalid_state() -> None:
    """A signature holding ``\\ud800`` raised UnicodeEncodeError from state_from_json."""
    state = boardrules.load("pig").new_game(seed=5)
    doc = json.loads(state.to_json(key=KEY))
    for forged in ("\ud800" + doc["signature"][1:], "\udfff", "é" * 64, doc["signature"][:-1],
                   doc["signature"].upper()):
        doc["signature"] = forged
        with pytest.raises(boardrules.InvalidStateError, match="signature"):
            boardrules.state_from_json(json.dumps(doc), key=KEY)
        with pytest.raises(boardrules.InvalidStateError, match="signature"):
            state.game.state_from_json(json.dumps(doc).encode(), key=KEY)


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot, MCTSBot, ISMCTSBot, AlphaBetaBot])
def test_bots_check_their_seed_as_suggest_does(bot: Any) -> None:
    """Bots took seed=-1 or 2**64, which suggest() refuses."""
    for seed in (-1, 2**64, 10**30, LyingInt(-1)):
        with pytest.raises(ValueError, match="seed"):
            bot(seed=seed)
    for seed in (1.5, "7", True):
        with pytest.raises(TypeError, match="seed"):
            bot(seed=seed)
    state = boardrules.load("connect_four").new_game(seed=1)
    assert state.is_legal(bot(seed=2**64 - 1).choose(state))


class WeirdStr(str):
    """A str whose methods misbehave."""

    def lower(self) -> Any:  # type: ignore[override]
        return 12

    def strip(self, chars: str | None = None) -> Any:  # type: ignore[override]
        return self

    def split(self, sep: str | None = None, maxsplit: int = -1) -> Any:  # type: ignore[override]
        return 12


@pytest.mark.parametrize("game_id", GAMES)
def test_str_subclass_move_text_is_read_as_plain_text(game_id: str) -> None:
    """A str subclass reached pig's parser unconverted (AttributeError); every game reads
    the exact text of a subclass."""
    state = _state(game_id)
    game = state.game
    legal = state.legal_moves()[0]
    assert game.parse_move(WeirdStr(str(legal))) == legal
    assert state.is_legal(WeirdStr(str(legal)))
    assert not state.is_legal(WeirdStr("no such move"))
    assert_rejected(state, boardrules.InvalidMoveError,
                    lambda: state.apply(WeirdStr("no such move")))
    assert str(state.child(WeirdStr(str(legal))).history[-1 - _chance_after(state, legal)]) \
        == str(legal)


def _chance_after(state: boardrules.State[Any], move: Any) -> int:
    """How many chance outcomes auto_chance drew after ``move``."""
    child = state.child(move)
    return len(child.history) - len(state.history) - 1


def test_alphabeta_bot_takes_max_memory_as_suggest_does() -> None:
    """The alpha-beta memory cap (probe_ab_threads_mem) reaches the bot too."""
    with pytest.raises(ValueError, match="max_memory"):
        AlphaBetaBot(max_memory=0)
    bot = AlphaBetaBot(max_memory=8 * 2**20, threads=4, max_nodes=20_000, seed=1)
    state = _state("armadora")
    assert state.is_legal(bot.choose(state))
    assert bot.last is not None
    assert 0 < bot.last.stats["memory_bytes"] <= 8 * 2**20 == bot.last.stats["max_memory"]
