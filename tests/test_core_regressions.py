"""Regression tests for the defects an outside review found in the generic core (the
low-level ``Game.core`` / ``CoreState`` objects, the RNG beside a state, undo, pictures and
saved states).  Each test is named after its defect; the review's scripts are in the
project's shared reproducers."""

from __future__ import annotations

import json
import random
import re
import sys
import threading
from typing import Any

import pytest

import boardrules
from boardrules import CHANCE, InvalidStateError
from boardrules._ext.core import CoreState

SIGNING_KEY = b"a server secret of 32 bytes ...."
GAME_IDS = ["armadora", "connect_four", "pig", "tic_tac_toe"]


def _load(game_id: str) -> boardrules.Game:
    return boardrules.load("armadora", players=2) if game_id == "armadora" \
        else boardrules.load(game_id)


def _pig_after_some_turns(seed: int) -> boardrules.State[Any]:
    game = boardrules.load("pig")
    state = game.new_game(seed=seed)
    for _ in range(4):
        state.apply("roll")
        if state.is_terminal():
            break
        if state.is_legal("hold"):
            state.apply("hold")
    return state


# --- the public core objects check every argument ------------------------------------

@pytest.mark.parametrize("game_id", GAME_IDS)
def test_core_legal_moves_with_a_short_table_is_refused(game_id: str) -> None:
    core = _load(game_id).core.new_state()
    for table in ([], [None] * (core.game.num_distinct_actions - 1)):
        with pytest.raises(ValueError, match="table needs an entry per action id"):
            core.legal_moves(table)
    with pytest.raises(TypeError):
        core.legal_moves(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_blank_core_state_cannot_be_made(game_id: str) -> None:
    core_game = _load(game_id).core
    for extra in ((True,), (1,), (object(),), (True, True)):
        with pytest.raises(TypeError, match="takes only the game"):
            CoreState(core_game, *extra)  # type: ignore[call-arg]
    # what can be made is a real initial state: random chance and play work on it
    state = CoreState(core_game)
    while state.current_player != boardrules.TERMINAL:
        if state.current_player == CHANCE:
            state.apply_random_chance(1)
        else:
            state.apply(state.legal_actions()[0])
    assert state.num_actions <= core_game.max_game_length


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_core_state_arguments_out_of_range_raise_documented_errors(game_id: str) -> None:
    core = _load(game_id).core.new_state()
    before = core.state_bytes()
    n = core.game.num_distinct_actions
    for action in (-1, n, 2**31, 2**63, 2**64, 10**400, -(10**400)):
        assert core.is_legal(action) is False
        with pytest.raises(ValueError, match="illegal action"):
            core.apply(action)
    for junk in ("1", 1.0, None, True, [1]):
        with pytest.raises(TypeError):
            core.apply(junk)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            core.is_legal(junk)  # type: ignore[arg-type]
    for seed in (-1, 2**64, 10**400):
        with pytest.raises(ValueError):
            core.seed(seed)
        with pytest.raises(ValueError):
            core.determinized(0, seed)
        with pytest.raises(ValueError):
            core.game.random_playouts(1, seed)
    for games in (-1, 2**31, 10**400):
        with pytest.raises(ValueError):
            core.game.random_playouts(games, 1)
    with pytest.raises(TypeError):
        core.game.random_playouts(1.5, 1)  # type: ignore[arg-type]
    for words in ((1, 2, 3), (0, 0, 0, 0), (1, 2, 3, -1), (1, 2, 3, 2**64), (1, 2, 3, "4")):
        with pytest.raises((ValueError, TypeError)):
            core.rng_start = words  # type: ignore[assignment]
    assert core.state_bytes() == before


def test_core_state_with_history_cannot_be_reseeded() -> None:
    state = boardrules.load("pig").new_game(seed=3)
    state.apply("roll")
    rng = state._core.rng_state
    with pytest.raises(ValueError, match="without history"):
        state._core.seed(4)
    with pytest.raises(ValueError, match="history"):
        state._core.rng_start = (1, 2, 3, 4)
    assert state._core.rng_state == rng


# --- random numbers --------------------------------------------------------------------

@pytest.mark.parametrize("seed", [12345, 7, 99])
def test_restored_state_undo_brings_back_the_rng_the_game_had(seed: int) -> None:
    game = boardrules.load("pig")
    original = _pig_after_some_turns(seed)
    restored = game.state_from_json(original.to_json())
    assert restored == original and restored.to_json() == original.to_json()
    while original.history and original.current_player >= 0:
        assert restored.undo() == original.undo()
        assert restored.to_json() == original.to_json()
        if original.is_terminal() or not original.is_legal("roll"):
            break
        # the next die after undo is the original game's, not the seed-0 stream's
        assert restored.child("roll").history == original.child("roll").history
    seed0 = game.new_game(seed=0, auto_chance=False)
    assert restored._core.rng_state != seed0._core.rng_state


def test_restore_refuses_chance_outcomes_the_saved_rng_does_not_draw() -> None:
    game = boardrules.load("pig")
    doc = json.loads(_pig_after_some_turns(5).to_json())
    dice = [i for i, m in enumerate(doc["history"]) if m.startswith("die")]
    i = dice[0]
    doc["history"][i] = "die 6" if doc["history"][i] != "die 6" else "die 5"
    with pytest.raises(InvalidStateError, match=rf"history\[{i}\].*not the outcome the saved RNG"):
        game.state_from_json(json.dumps(doc))


def test_manual_chance_outcomes_are_saved_as_not_drawn() -> None:
    """A table applying real dice (no auto chance) does not consume the state's RNG; a
    draw from the state's own RNG does, and both survive a restore and an undo."""
    game = boardrules.load("pig")
    state = game.new_game(seed=8, auto_chance=False)
    state.apply("roll")
    state.apply("die 4")
    state.apply("roll")
    state.apply_random_chance()          # the state's own RNG
    state.apply("roll") if state.is_legal("roll") else state.apply("hold")
    if state.current_player == CHANCE:
        state.apply_random_chance(seed=77)   # a throw-away RNG: not a draw of the state's
    doc = json.loads(state.to_json())
    assert doc["drawn"] == [3]
    restored = game.state_from_json(state.to_json())
    assert restored.to_json() == state.to_json()
    while restored.history:
        assert restored.undo() == state.undo()
        assert restored._core.rng_state == state._core.rng_state


@pytest.mark.parametrize("seed", range(5))
def test_determinized_world_does_not_predict_the_real_next_chance(seed: int) -> None:
    state = boardrules.load("pig").new_game(seed=99)
    state.apply("roll")
    world = state.determinize(0, seed=seed)
    assert world._core.rng_state != state._core.rng_state
    worlds_next = {str(state.determinize(0, seed=s).child("roll").history[-1])
                   for s in range(40)}
    assert len(worlds_next) > 1      # the worlds' dice vary with their seeds
    again = state.determinize(0, seed=seed)
    assert again._core.rng_state == world._core.rng_state   # and are reproducible


def test_armadora_determinized_world_has_its_own_rng() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=4)
    state.apply(state.legal_moves()[0])
    worlds = {state.determinize(1, seed=s)._core.rng_state for s in range(10)}
    assert state._core.rng_state not in worlds and len(worlds) == 10


# --- threads ---------------------------------------------------------------------------

def test_undo_of_an_auto_chance_state_is_one_core_step() -> None:
    """``undo()`` takes back a move and the chance outcomes drawn after it in a single
    call into the core: no state is ever seen between the two."""
    state = boardrules.load("pig").new_game(seed=1)
    state.apply("roll")
    core = state._core
    calls: list[str] = []

    class Spy:
        def __getattr__(self, name: str) -> Any:
            calls.append(name)
            return getattr(core, name)

    state._core = Spy()  # type: ignore[assignment]
    try:
        assert str(state.undo()) == "roll"
    finally:
        state._core = core
    assert calls == ["undo_move"]
    assert state.history == [] and state.current_player == 0


def test_concurrent_undo_and_apply_never_leave_an_auto_chance_state_at_chance() -> None:
    game = boardrules.load("pig")
    state = game.new_game(seed=1)
    stranded: list[str] = []
    interval = sys.getswitchinterval()

    def work(tid: int) -> None:
        rng = random.Random(tid)
        for _ in range(4000):
            try:
                if state.current_player == CHANCE:
                    stranded.append(state.to_json())
                    return
                if rng.random() < 0.5 or state.is_terminal():
                    state.undo()
                else:
                    moves = state.legal_moves()
                    if moves:
                        state.apply(rng.choice(moves))
            except (boardrules.BoardRulesError, IndexError):
                pass

    sys.setswitchinterval(1e-6)   # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert stranded == []
    assert state.current_player != CHANCE
    assert game.state_from_json(state.to_json()) == state


# --- pictures --------------------------------------------------------------------------

def test_render_svg_none_is_a_spectator_view_like_view_none() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=5)
    state.apply("3@c2")
    state.apply("5@e3")
    labels = re.compile(r'fill="#ffffff">(\d|\?)</text>')
    assert [sq["warrior"]["strength"] for sq in state.view(None)["squares"]
            if sq["warrior"]] == [None, None]
    assert labels.findall(state.render_svg(None)) == ["?", "?"]
    assert labels.findall(state.render_svg()) == ["?", "?"]
    assert labels.findall(state._repr_svg_()) == ["?", "?"]
    assert sorted(labels.findall(state.render_svg(0))) == ["3", "?"]
    assert sorted(labels.findall(state.render_svg_truth())) == ["3", "5"]


@pytest.mark.parametrize("game_id", ["connect_four", "pig", "tic_tac_toe"])
def test_render_svg_truth_of_a_perfect_information_game_is_the_spectator_view(
        game_id: str) -> None:
    state = _load(game_id).new_game(seed=2)
    state.apply(state.legal_moves()[0])
    assert state.render_svg_truth() == state.render_svg(None)


# --- saved states: a server's signature ------------------------------------------------

def _forged_pig_save(real: boardrules.State[Any]) -> str:
    """The review's forgery: chosen dice (all sixes) in an otherwise consistent save."""
    game = real.game
    forged = game.new_game(seed=0, auto_chance=False)
    for _ in range(3):
        forged.apply("roll")
        forged.apply("die 6")
    return forged.to_json()


def test_forged_consistent_save_is_refused_by_a_server_holding_the_key() -> None:
    game = boardrules.load("pig")
    real = game.new_game(seed=5)
    signed = json.loads(real.to_json(key=SIGNING_KEY))
    forged = json.loads(_forged_pig_save(real))
    forged["signature"] = signed["signature"]           # the player kept the signature
    assert game.state_from_json(json.dumps({k: v for k, v in forged.items()
                                            if k != "signature"}))   # loads unsigned...
    with pytest.raises(InvalidStateError, match="signature does not match"):
        game.state_from_json(json.dumps(forged), key=SIGNING_KEY)  # ...not with the key
    with pytest.raises(InvalidStateError, match="signature does not match"):
        boardrules.state_from_json(json.dumps(forged), key=SIGNING_KEY)


def test_signed_save_round_trips_and_any_change_breaks_the_signature() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=11)
    state.apply(state.legal_moves()[3])
    text = state.to_json(key=SIGNING_KEY)
    assert game_state_equal(boardrules.state_from_json(text, key=SIGNING_KEY), state)
    assert game_state_equal(state.game.state_from_json(text, key=SIGNING_KEY), state)
    doc = json.loads(text)
    for field in ("rng", "history", "auto_chance", "drawn"):
        changed = json.loads(text)
        changed[field] = doc["rng_start"] if field == "rng" else (
            doc[field][:-1] if isinstance(doc[field], list) else not doc[field])
        with pytest.raises(InvalidStateError, match="signature does not match"):
            state.game.state_from_json(json.dumps(changed), key=SIGNING_KEY)
    with pytest.raises(InvalidStateError, match="signature does not match"):
        state.game.state_from_json(text, key=b"another key, also long enough")
    with pytest.raises(InvalidStateError, match="not signed"):
        state.game.state_from_json(state.to_json(), key=SIGNING_KEY)
    # a save without a key loads without one, signed or not
    assert game_state_equal(state.game.state_from_json(text), state)


def test_signing_key_must_be_bytes_of_at_least_16() -> None:
    state = boardrules.load("tic_tac_toe").new_game(seed=1)
    with pytest.raises(TypeError):
        state.to_json(key="a text key, not bytes")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        state.to_json(key=b"short")
    with pytest.raises(TypeError):
        state.game.state_from_json(state.to_json(key=SIGNING_KEY), key=123)  # type: ignore
    assert json.loads(state.to_json())["format_version"] == 3


def game_state_equal(a: boardrules.State[Any], b: boardrules.State[Any]) -> bool:
    return a == b and a.to_json() == b.to_json() and a._core.rng_start == b._core.rng_start


# --- every public method of the core objects, with junk --------------------------------

_JUNK = [None, True, -1, 0, 1, 2**31, 2**64, 10**400, 1.5, float("nan"), "x", [], [0] * 5000,
         object()]
_DOCUMENTED = (TypeError, ValueError, IndexError, NotImplementedError)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_core_objects_answer_junk_arguments_with_documented_errors_only(game_id: str) -> None:
    """Nothing passed to ``game.core`` or a ``CoreState`` crashes or escapes as another
    error class (OverflowError, SystemError...): every argument is checked."""
    game = _load(game_id)
    foreign = _load("pig" if game_id == "tic_tac_toe" else "tic_tac_toe").core.new_state()
    undocumented = []
    for owner_name in ("core", "state"):
        state = game.core.new_state()
        owner = game.core if owner_name == "core" else state
        pool = [*_JUNK, state, foreign]
        for name in sorted(n for n in dir(owner) if not n.startswith("__")):
            method = getattr(owner, name)
            if not callable(method):
                continue
            calls = [(), *((a,) for a in pool), *((a, b) for a in pool[::3] for b in pool)]
            for args in calls:
                try:
                    method(*args)
                except _DOCUMENTED:
                    pass
                except Exception as exc:
                    undocumented.append(f"{owner_name}.{name}{args!r:.60}: {exc!r}")
    assert undocumented == []


# --- found by a review of the fixes ----------------------------------------------------

@pytest.mark.parametrize("game_id", ["pig", "armadora"])
def test_undo_of_a_self_drawn_outcome_gives_back_the_rng_before_the_draw(game_id: str) -> None:
    """The undo snapshot of a chance outcome drawn from the state's own RNG holds the RNG
    *before* the draw: undoing it and drawing again gives the same outcome, and the save
    after the undo loads (the RNG is still rng_start plus the recorded draws)."""
    game = _load(game_id)
    state = game.new_game(seed=5, auto_chance=False)
    while state.current_player != CHANCE:
        state.apply(state.legal_moves()[0])
    rng = state._core.rng_state
    first = state.apply_random_chance()
    state.undo()
    assert state._core.rng_state == rng
    assert state.apply_random_chance() == first
    state.undo()
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()


def test_save_with_a_non_ascii_signature_is_refused_with_invalid_state_error() -> None:
    text = boardrules.load("pig").new_game(seed=1).to_json(key=SIGNING_KEY)
    for forged in ("é" * 64, "\u0000", "", "0" * 64):
        doc = json.loads(text)
        doc["signature"] = forged
        with pytest.raises(InvalidStateError,
                           match=r"signature (does not match|is not 64 hexadecimal)"):
            boardrules.state_from_json(json.dumps(doc), key=SIGNING_KEY)


def test_oversized_save_counted_in_bytes_is_refused() -> None:
    from boardrules.api import MAX_STATE_JSON_BYTES
    text = '{"pad": "' + "é" * (MAX_STATE_JSON_BYTES // 2 + 1) + '"}'
    assert len(text) <= MAX_STATE_JSON_BYTES < len(text.encode())
    with pytest.raises(InvalidStateError, match="too large"):
        boardrules.state_from_json(text)
    with pytest.raises(InvalidStateError):
        boardrules.state_from_json('{"pad": "\ud800"}')


def test_alphabeta_worlds_all_start_from_the_position_searched() -> None:
    """A state changed by another thread while alpha-beta runs does not leak into the
    later worlds: every ranked move is legal where the search began."""
    from boardrules.search import suggest

    state = boardrules.load("armadora", players=2).new_game(seed=3)
    rng = random.Random(0)
    for _ in range(6):
        state.apply(rng.choice(state.legal_moves()))
    legal = set(state.legal_moves())
    started = threading.Event()

    def meddle() -> None:
        started.wait()
        for _ in range(10):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))

    helper = threading.Thread(target=meddle)
    helper.start()
    try:
        hint = suggest(state, algorithm="alphabeta", max_nodes=400_000, determinizations=8,
                       seed=1, should_stop=lambda: started.set() or False)
    finally:
        started.set()
        helper.join()
    assert {m for m, _, _ in hint.ranked} <= legal


@pytest.mark.parametrize("game_id", ["connect_four", "pig", "tic_tac_toe"])
def test_determinizations_on_a_perfect_information_game_is_an_error(game_id: str) -> None:
    from boardrules.search import suggest

    state = _load(game_id).new_game(seed=1)
    with pytest.raises(ValueError, match="determinizations does not apply"):
        suggest(state, algorithm="alphabeta", determinizations=5, max_nodes=1000)
    assert suggest(state, algorithm="ismcts", iterations=50, seed=1).stats["algorithm"] == "mcts"
