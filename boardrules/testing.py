"""The conformance kit: the checks every game must pass, for the author of a new game.

Like PettingZoo's ``api_test``, :func:`check_game` plays seeded random games of a
:class:`~boardrules.Game` and checks the contract of :mod:`boardrules.api` at every step:
legal moves sorted, unique and empty only at the end; every legal move applies and undoes
byte for byte; copies and children are independent; JSON and notation round-trip; views
do not change when what their player cannot see is redrawn; the invariants hold; games
end within ``max_game_length`` with a well-formed outcome; the same seed and moves give
the same bytes; chance nodes behave; the rules core explains every refused action::

    from boardrules.testing import check_game

    check_game(MyGame())          # AssertionError naming the first violation

Each check is also a function of its own (``check_json_round_trip(game)``...), listed in
:data:`CHECKS`: the repository's ``tests/test_conformance.py`` runs each of them on every
registered game with each of its ``example_options``.

The module also holds the helpers the rule tests share: seeded random play
(:func:`random_play`, :func:`play_to_end`, :func:`random_positions`) and checks that a
rejected call leaves the state exactly as it was (:func:`assert_rejected`,
:func:`assert_unchanged`, :func:`assert_illegal`).

The checks raise :class:`AssertionError` with a message themselves (no bare ``assert``),
so they work outside pytest and under ``python -O``.
"""

# ruff: noqa: B023  (the lambdas passed as messages to _require run at once, in the loop)
from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Callable, Iterator
from typing import Any, ParamSpec, TypeVar

from boardrules.api import CHANCE, TERMINAL, Game, Move, State
from boardrules.errors import IllegalMoveError

__all__ = [
    "CHECKS",
    "CONTRACT_CHECKS",
    "action_values_hold",
    "assert_illegal",
    "assert_rejected",
    "assert_unchanged",
    "check_action_values",
    "check_apply_and_undo",
    "check_chance_nodes",
    "check_compiled_playouts",
    "check_copy_and_child",
    "check_determinize_resamples",
    "check_events_redact_as_views",
    "check_forced_steps_recorded",
    "check_game",
    "check_games_end_with_an_outcome",
    "check_history_is_a_snapshot",
    "check_illegal_reasons",
    "check_invariants",
    "check_is_legal",
    "check_json_round_trip",
    "check_legal_moves",
    "check_notation_round_trip",
    "check_outcome_none_until_terminal",
    "check_pickle_and_deepcopy",
    "check_positions_round_trip",
    "check_restore_then_undo_gives_back_the_rng",
    "check_same_seed_same_state",
    "check_saves_of_tables_applying_chance",
    "check_step_eyes",
    "check_views_hide_what_the_viewer_cannot_see",
    "check_worlds_are_consistent",
    "check_worlds_have_their_own_rng",
    "check_worlds_leak_nothing",
    "example_configs",
    "play_to_end",
    "random_play",
    "random_playout",
    "random_positions",
    "snapshot",
]

AnyState = State[Any]
AnyGame = Game[State[Any], Any]
Check = Callable[[AnyState, int], None]
T = TypeVar("T")
P = ParamSpec("P")


def _require(condition: object, message: str | Callable[[], str]) -> None:
    """``assert`` that survives ``python -O``; a message that costs something to build
    (it names the position) is passed as a function, called only on failure."""
    if not condition:
        raise AssertionError(message if isinstance(message, str) else message())


def _where(state: AnyState, step: int) -> str:
    """Where a violation happened, for the message."""
    tail = " ".join(str(m) for m in state.history[-6:])
    return f"{state.game.id} {state.game.options}, step {step} (last moves: {tail or '-'})"


def example_configs() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with each of its ``example_options``: ``(game id, options)``
    pairs, in a fixed order (a test parametrised over them covers every option set worth
    testing)."""
    from boardrules.games import as_game_id, available_games, load

    return [(game_id, dict(options)) for game_id in available_games()
            for options in type(load(as_game_id(game_id))).example_options]


# --- playing ----------------------------------------------------------------------------


def random_playout(game: AnyGame, seed: int, check: Check | None = None) -> AnyState:
    """A seeded random game to its end (``auto_chance``: chance drawn by the game's RNG);
    ``check(state, step)`` runs before every move and on the final state."""
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if check is not None:
            check(state, step)
        moves = state.legal_moves()
        _require(moves, lambda: f"no legal move at a non-terminal state: {_where(state, step)}")
        state.apply(rng.choice(moves))
        step += 1
        _require(step <= game.max_game_length,
                 lambda: f"the game lasts longer than max_game_length {game.max_game_length}")
    if check is not None:
        check(state, step)
    return state


def random_play(game: AnyGame, seed: int, moves: int, rng_seed: int = 0,
                auto_chance: bool = True) -> AnyState:
    """A state after up to ``moves`` uniformly random legal decisions (chance nodes,
    without ``auto_chance``, drawn by ``apply_random_chance``)."""
    state = game.new_game(seed=seed, auto_chance=auto_chance)
    rng = random.Random(rng_seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state.apply_random_chance()
        else:
            state.apply(rng.choice(state.legal_moves()))
    return state


def play_to_end(state: AnyState, rng_seed: int = 0) -> AnyState:
    """Play ``state`` to its end with uniformly random moves; returns it."""
    rng = random.Random(rng_seed)
    for _ in range(state.game.max_game_length + 1):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state.apply_random_chance()
        else:
            moves = state.legal_moves()
            _require(moves, "no legal move at a non-terminal state")
            state.apply(rng.choice(moves))
    _require(state.is_terminal(), "the game did not end within max_game_length")
    return state


def random_positions(game: AnyGame, games: int, seed: int) -> list[AnyState]:
    """Every position of ``games`` random games (chance by its probabilities, players'
    moves uniformly; without ``auto_chance``, so chance nodes are among them)."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = game.new_game(seed=rng.randrange(2**32), auto_chance=False)
        positions.append(state.copy())
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply_random_chance()
            else:
                state.apply(rng.choice(state.legal_moves()))
            positions.append(state.copy())
    return positions


# --- rejected calls change nothing ----------------------------------------------------------


def snapshot(state: AnyState) -> tuple[bytes, str, list[str], int]:
    """Everything a rejected call must leave untouched: the state's bytes, its JSON (RNG
    included), its history and the player to move."""
    return (state.state_bytes(), state.to_json(), [str(m) for m in state.history],
            state.current_player)


def _compare(before: tuple[bytes, str, list[str], int], state: AnyState, what: str) -> None:
    after = snapshot(state)
    for name, a, b in zip(("state_bytes", "to_json", "history", "current_player"),
                          before, after, strict=True):
        _require(a == b, lambda: f"{name} changed by {what}")


def assert_unchanged(state: AnyState, call: Callable[[], T]) -> T:
    """``call()``'s result, checking that ``state`` is identical afterwards (a query, or
    a call that must not change it)."""
    before = snapshot(state)
    result = call()
    _compare(before, state, "a call that must not change the state")
    return result


def assert_rejected(state: AnyState,
                    error: type[BaseException] | tuple[type[BaseException], ...],
                    call: Callable[[], object]) -> BaseException:
    """``call()`` raises ``error`` and ``state`` is identical afterwards; returns the
    exception."""
    before = snapshot(state)
    try:
        call()
    except error as exc:
        _compare(before, state, f"a rejected call ({type(exc).__name__}: {exc})")
        return exc
    raise AssertionError(f"the call did not raise {error}")


def assert_illegal(state: AnyState, move: Move | str, rule: str | None = None
                   ) -> IllegalMoveError:
    """``move`` is illegal here: not listed, ``is_legal`` is False, ``apply`` and
    ``child`` raise :class:`~boardrules.IllegalMoveError` naming a rule (``rule``, when
    given) and change nothing.  Returns the error (``.rule`` is the rule key)."""
    _require(str(move) not in {str(m) for m in state.legal_moves()},
             lambda: f"{move!s} is listed in legal_moves()")
    _require(not assert_unchanged(state, lambda: state.is_legal(move)),
             lambda: f"is_legal({move!s}) is True")
    exc = assert_rejected(state, IllegalMoveError, lambda: state.apply(move))
    _require(isinstance(exc, IllegalMoveError), lambda: f"{move!s}: not an IllegalMoveError")
    assert isinstance(exc, IllegalMoveError)  # for the type checker
    _require(isinstance(exc.rule, str) and exc.rule and exc.rule != "legal",
             lambda: f"{move!s}: IllegalMoveError.rule is {exc.rule!r}")
    _require(str(exc), lambda: f"{move!s}: IllegalMoveError has no message")
    if rule is not None:
        _require(exc.rule == rule, lambda: f"{move!s}: rule {exc.rule!r}, expected {rule!r}")
    assert_rejected(state, IllegalMoveError, lambda: state.child(move))
    return exc


# --- the conformance checks -----------------------------------------------------------------


def _conformance_check(check: Callable[P, None]) -> Callable[P, None]:
    """A check whose every failure is an AssertionError: an exception the game raises
    while being checked (a save it cannot restore, a TypeError from ``is_legal``) is a
    violation too, reported as one with the original error chained."""
    @functools.wraps(check)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            check(*args, **kwargs)
        except AssertionError:
            raise
        except Exception as exc:
            raise AssertionError(f"{type(exc).__name__} raised: {exc}") from exc
    return run



def _each_step(game: AnyGame, games: int, seed: int, check: Check,
               every: int = 1) -> list[AnyState]:
    """Run ``check`` at every ``every``-th step of ``games`` seeded random games."""
    def sampled(state: AnyState, step: int) -> None:
        if step % every == 0:
            check(state, step)
    return [random_playout(game, seed + i, sampled) for i in range(games)]


@_conformance_check
def check_legal_moves(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Legal moves are sorted by action id, without duplicates, and empty exactly when
    the game is over."""
    def check(state: AnyState, step: int) -> None:
        moves = state.legal_moves()
        actions = [m.action for m in moves]
        _require(actions == sorted(set(actions)),
                 lambda: f"legal_moves() not sorted and unique: {actions[:12]}... at "
                         f"{_where(state, step)}")
        _require(moves == sorted(moves), lambda: f"legal moves do not sort: {_where(state, step)}")
        _require(bool(moves) == (state.current_player != TERMINAL),
                 lambda: f"legal_moves() {'empty' if not moves else 'not empty'} with "
                         f"current_player "
                 f"{state.current_player} at {_where(state, step)}")
    _each_step(game, games, seed, check)


@_conformance_check
def check_apply_and_undo(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Every legal move is legal by ``is_legal``, applies, extends the history and is
    taken back by ``undo`` byte for byte."""
    def check(state: AnyState, step: int) -> None:
        before = state.state_bytes()
        history = state.history
        for move in state.legal_moves():
            _require(state.is_legal(move),
                     lambda: f"is_legal({move}) is False: {_where(state, step)}")
            state.apply(move)
            _require(state.history[: len(history) + 1] == [*history, move],
                     lambda: f"history after {move} does not end with it: {_where(state, step)}")
            undone = state.undo()
            _require(undone == move, lambda: f"undo() returned {undone}, not {move}")
            _require(state.state_bytes() == before,
                     lambda: f"apply({move}) + undo() changed the state bytes: "
                             f"{_where(state, step)}")
            _require(state.history == history, lambda: f"undo() after {move} left another history")
    _each_step(game, games, seed, check)


@_conformance_check
def check_copy_and_child(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """A copy equals its original and is independent of it; ``child`` leaves its
    parent unchanged."""
    def check(state: AnyState, step: int) -> None:
        if state.is_terminal():
            return
        before = state.state_bytes()
        twin = state.copy()
        _require(twin == state, lambda: f"copy() differs from the state: {_where(state, step)}")
        move = state.legal_moves()[-1]
        twin.apply(move)
        child = state.child(move)
        _require(state.state_bytes() == before,
                 lambda: f"applying {move} to a copy or child changed the original: "
                         f"{_where(state, step)}")
        _require(child == twin,
                 lambda: f"child({move}) differs from copy + apply: {_where(state, step)}")
        _require(child.history[len(state.history)] == move,
                 lambda: f"child({move})'s history does not end with it")
    _each_step(game, games, seed, check)


@_conformance_check
def check_json_round_trip(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """``to_json`` and ``state_from_json`` (the game's and the package's) give back an
    equal state with the same bytes and the same JSON."""
    import boardrules

    def check(state: AnyState, step: int) -> None:
        text = state.to_json()
        restored = game.state_from_json(text)
        where = _where(state, step)
        _require(restored == state, lambda: f"the restored state differs: {where}")
        _require(restored.state_bytes() == state.state_bytes(),
                 lambda: f"the restored state bytes differ: {where}")
        _require(restored.to_json() == text, f"the restored state saves other JSON: {where}")
        if boardrules.games._REGISTRY.get(game.id) is type(game):
            _require(boardrules.state_from_json(text.encode()) == state,
                     lambda: f"boardrules.state_from_json gives another state: {where}")
    _each_step(game, games, seed, check, every=7)


@_conformance_check
def check_pickle_and_deepcopy(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """A state pickles and deep-copies as it saves: the copy has the same bytes, history
    and RNG (its next draws are the original's), undoes as the original does, and is
    independent of it; the game and the moves pickle to the game and moves themselves."""
    import copy
    import pickle

    _require(pickle.loads(pickle.dumps(game)) == game, "an unpickled game is another game")
    _require(copy.deepcopy(game) is game, "a deep copy of a game is not the game")

    def check(state: AnyState, step: int) -> None:
        where = _where(state, step)
        for how, twin in (("pickle", pickle.loads(pickle.dumps(state))),
                          ("deepcopy", copy.deepcopy(state))):
            _require(twin == state,
                     lambda: f"the {how} of a state differs: {where}")
            _require(twin.to_json() == state.to_json(),
                     lambda: f"the {how} of a state saves other JSON (RNG?): {where}")
            _require(twin.history == state.history,
                     lambda: f"the {how} of a state has another history: {where}")
            moves = state.legal_moves()
            if moves:
                twin.apply(moves[-1])
                _require(twin != state, lambda: f"the {how} shares the state: {where}")
                twin.undo()
                _require(twin == state, lambda: f"the {how} does not undo back: {where}")
            _require(pickle.loads(pickle.dumps(moves)) == moves,
                     lambda: f"unpickled moves differ: {where}")
    _each_step(game, games, seed, check, every=11)


@_conformance_check
def check_history_is_a_snapshot(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """``history`` lists every action applied, in order, and a History read earlier stays
    as it was while the state moves on and is undone."""
    def check(state: AnyState, step: int) -> None:
        where = _where(state, step)
        before = state.history
        listed = list(before)
        _require(len(listed) == state._core.num_actions,
                 lambda: f"history has {len(listed)} moves, the game {state._core.num_actions}"
                 f": {where}")
        moves = state.legal_moves()
        if not moves:
            return
        state.apply(moves[0])
        after = state.history
        _require(len(after) > len(before) and list(after)[:len(listed)] == listed,
                 lambda: f"history after a move does not extend the one before: {where}")
        state.undo()
        _require(list(before) == listed and before == state.history,
                 lambda: f"a History read earlier changed, or undo did not restore it: {where}")
    _each_step(game, games, seed, check, every=5)


@_conformance_check
def check_restore_then_undo_gives_back_the_rng(game: AnyGame, *, games: int = 3,
                                               seed: int = 0) -> None:
    """A restored state undoes exactly like the original: after each ``undo()`` both
    save the same JSON, RNG words included (the RNG the game really had, not a replay's)."""
    def check(state: AnyState, step: int) -> None:
        original = state.copy()
        restored = game.state_from_json(state.to_json())
        undone = 0
        while undone < 6:
            try:
                original.undo()
            except IndexError:
                break
            restored.undo()
            undone += 1
            _require(restored.to_json() == original.to_json(),
                     lambda: f"after {undone} undo(s) the restored state differs from the "
                             f"original (RNG or position): {_where(state, step)}")
    _each_step(game, games, seed, check, every=11)


@_conformance_check
def check_saves_of_tables_applying_chance(game: AnyGame, *, games: int = 3,
                                          seed: int = 0) -> None:
    """Without ``auto_chance`` -- chance outcomes drawn from the state's RNG, from a
    throw-away seed or applied by hand, with moves taken back now and then -- every
    position saves and restores to the same JSON, and an undo gives back the RNG as it was
    before the undone action."""
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_game(seed=seed + g, auto_chance=False)
        steps = 0
        while not state.is_terminal() and steps < game.max_game_length:
            steps += 1
            before = state.to_json()
            if state.current_player == CHANCE:
                way = rng.randrange(3)
                if way == 0:
                    state.apply_random_chance()
                elif way == 1:
                    state.apply_random_chance(seed=rng.getrandbits(64))
                else:
                    state.apply(rng.choice(state.legal_moves()))
            else:
                state.apply(rng.choice(state.legal_moves()))
            if rng.random() < 0.2:
                state.undo()
                _require(state.to_json() == before,
                         lambda: f"undo did not give back the position and RNG before the "
                                 f"action: {_where(state, steps)}")
            text = state.to_json()
            _require(game.state_from_json(text).to_json() == text,
                     lambda: f"a table's save does not restore to itself: {_where(state, steps)}")


@_conformance_check
def check_worlds_have_their_own_rng(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """A world from ``determinize`` never carries the real state's RNG words, so a search
    using it cannot predict the real game's next chance outcome."""
    def check(state: AnyState, step: int) -> None:
        for player in range(game.num_players):
            world = state.determinize(player, seed=step)
            _require(world._core.rng_state != state._core.rng_state,
                     lambda: f"determinize({player}) kept the real RNG: {_where(state, step)}")
    _each_step(game, games, seed, check, every=9)


@_conformance_check
def check_notation_round_trip(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Every legal move and every chance outcome prints as text that ``parse_move``
    reads back to it; ``game.move(action)`` is the same move object."""
    seen: set[str] = set()

    def check(state: AnyState, step: int) -> None:
        for move in state.legal_moves():
            text = str(move)
            _require(game.parse_move(text) == move,
                     lambda: f"parse_move({text!r}) is not the move it printed")
            _require(game.move(move.action) is move,
                     lambda: f"game.move({move.action}) is not {text}")
            seen.add(text)

    # The games must print a fair share of the notation (a game listing almost no move
    # would pass unchecked); a short run that has not (one game of Pig may never roll
    # a 6) plays on with the next seeds, up to ten times as many games.
    wanted = min(50, game.num_distinct_actions)
    played = 0
    for _ in range(10):
        for final in _each_step(game, games, seed + played, check):
            for move in final.history:  # chance outcomes too (auto-drawn, never listed)
                _require(game.parse_move(str(move)) == move,
                         lambda: f"parse_move({str(move)!r}) is not the move it printed")
                seen.add(str(move))
        played += games
        if len(seen) >= wanted:
            break
    _require(len(seen) >= wanted,
             lambda: f"only {len(seen)} distinct moves seen in {played} games")


@_conformance_check
def check_views_hide_what_the_viewer_cannot_see(game: AnyGame, *, games: int = 3,
                                                seed: int = 0) -> None:
    """A view is JSON-ready and a function of what its player may know: redrawing what
    he cannot see (``determinize``) leaves his view, and his own legal moves, unchanged."""
    def check(state: AnyState, step: int) -> None:
        for player in range(game.num_players):
            view = state.view(player)
            json.dumps(view)
            for world_seed in range(3):
                world = state.determinize(player, seed=world_seed)
                _require(world.view(player) == view,
                         lambda: f"player {player}'s view changes when determinized: "
                         f"{_where(state, step)}")
                if player == state.current_player:  # he knows his own options
                    _require(world.legal_moves() == state.legal_moves(),
                             lambda: f"determinize changes the legal moves of player {player}: "
                             f"{_where(state, step)}")
        json.dumps(state.view(None))
    _each_step(game, games, seed, check, every=3)


@_conformance_check
def check_determinize_resamples(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """In a game with hidden information, ``determinize`` does redraw the hidden truth
    (else the view check would prove nothing) and keeps the invariants.  Nothing to
    check for a game of perfect information."""
    if not game.has_hidden_information:
        return
    changed = 0

    def check(state: AnyState, step: int) -> None:
        nonlocal changed
        world = state.determinize(0, seed=step)
        for name, (counted, expected) in world.invariants().items():
            _require(counted == expected,
                     lambda: f"invariant {name!r} of a determinized world: {counted} != {expected}")
        changed += world.state_bytes() != state.state_bytes()

    _each_step(game, games, seed, check, every=5)
    _require(changed > 0, "determinize never changed the state of a hidden-information game")


#: Random steps played on from each world by :func:`check_worlds_are_consistent`.
WORLD_WALK = 6
#: :func:`check_worlds_are_consistent` plays this many times ``games`` random games: a
#: world that fails shows at a few positions in a thousand (Rome & Carthage's did at 75
#: of 21,960), so the default run looks at thousands of positions per option set.
WORLD_GAMES_PER_GAME = 4
#: ... and compares the observer's ``view`` of the world and of the truth at every this
#: many positions (his observation tensor, which the core writes, at every position).
WORLD_VIEW_EVERY = 8


@_conformance_check
def check_worlds_are_consistent(game: AnyGame, *, games: int = 3, seed: int = 0,
                                walk: int = WORLD_WALK) -> None:
    """Every world ``determinize`` draws is a state the rules could reach from what its
    observer knows.  At every position of ``games`` times WORLD_GAMES_PER_GAME random
    games (chance nodes and every phase they reach among them; a soak passes a larger
    ``games``) and for every observer, one world is checked: it
    is over exactly when the truth is, has the same player to move, gives him a legal
    move (a chance node an outcome) whenever it is not over, its legal moves are sorted,
    unique and legal by ``is_legal``, the truth's own when the observer is the one to
    move, and the observer sees it as he sees the truth (his observation tensor; his
    ``view`` too at every WORLD_VIEW_EVERY-th position).  Then ``walk`` random
    steps are played on from it: none may reach a state that is not over with no move
    (a world where a hand cannot pay what a later step asks).  A search trusts these
    worlds (Rome & Carthage's at a payment gave the mover no move up to 0.5.0).  Nothing
    to check for a game of perfect information."""
    if not game.has_hidden_information:
        return
    rng = random.Random(seed)
    positions = random_positions(game, games * WORLD_GAMES_PER_GAME, seed)
    for index, state in enumerate(positions):
        for observer in range(game.num_players):
            world = state.determinize(observer, seed=rng.getrandbits(64))
            _check_world(state, world, observer, index % WORLD_VIEW_EVERY == 0)
            _walk_world(state, world, observer, walk, rng)


def _world_where(state: AnyState, observer: int) -> str:
    phase = getattr(state, "phase", None)
    return (f"player {observer}'s world at {_where(state, len(state.history))}"
            + (f", phase {phase!r}" if isinstance(phase, str) else ""))


def _check_world(state: AnyState, world: AnyState, observer: int, views: bool) -> None:
    """check_worlds_are_consistent at the world itself (``views``: the views compared
    too, not only the observation tensors)."""
    over = state.is_terminal()
    _require(world.is_terminal() == over,
             lambda: f"the world is {'not ' if over else ''}over, the truth is"
                     f"{'' if over else ' not'}: {_world_where(state, observer)}")
    _require(world.current_player == state.current_player,
             lambda: f"the world has player {world.current_player} to move, the truth "
                     f"{state.current_player}: {_world_where(state, observer)}")
    moves = world.legal_moves()
    _require(bool(moves) != over,
             lambda: f"the world gives player {world.current_player} no legal move and is "
                     f"not over: {_world_where(state, observer)}")
    actions = [m.action for m in moves]
    _require(actions == sorted(set(actions)) and all(world.is_legal(m) for m in moves),
             lambda: f"the world's legal moves are not sorted, unique and legal: "
                     f"{_world_where(state, observer)}")
    if observer == state.current_player:
        _require(moves == state.legal_moves(),
                 lambda: f"the world gives its observer other moves than the truth: "
                         f"{_world_where(state, observer)}")
    _require(bytes(world.observation(observer)) == bytes(state.observation(observer))
             and (not views or world.view(observer) == state.view(observer)),
             lambda: f"the observer's view of the world is not his view of the truth: "
                     f"{_world_where(state, observer)}")


def _walk_world(state: AnyState, world: AnyState, observer: int, steps: int,
                rng: random.Random) -> None:
    """check_worlds_are_consistent: ``steps`` random steps on from the world."""
    for step in range(steps):
        if world.is_terminal():
            return
        if world.current_player == CHANCE:
            world.apply_random_chance(seed=rng.getrandbits(64))
        else:
            world.apply(rng.choice(world.legal_moves()))
        _require(world.is_terminal() or world.legal_moves(),
                 lambda: f"{step + 1} random steps on from it, the world gives player "
                         f"{world.current_player} no legal move and is not over "
                         f"(after {' '.join(str(m) for m in world.history[-step - 1:])}): "
                         f"{_world_where(state, observer)}")


@_conformance_check
def check_worlds_leak_nothing(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Two truths that differ only in what an observer cannot see give him byte-identical
    worlds for one seed: a world holds nothing he could not know (not the last action he
    saw redacted, nor anything derived from it).

    The twin truths are two children of one position, through two moves that the
    observer's move log (``history_view``) writes alike -- another player's face-down
    commit, a card drawn by another player -- and after which his views are equal."""
    if not game.has_hidden_information:
        return
    twins = 0
    rng = random.Random(seed)
    for twin in _twin_truths(game, games, seed, rng):
        twins += 1
        world_seed = rng.randrange(2**64)
        _require(twin.a.determinize(twin.observer, world_seed).state_bytes()
                 == twin.b.determinize(twin.observer, world_seed).state_bytes(),
                 lambda: f"player {twin.observer} sees {twin.one} and {twin.other} alike, "
                 f"yet their worlds differ: {_where(twin.parent, twin.start)}")
    _require(twins > 0, "no twin truths were found to compare (a game with hidden information "
             "should have moves some player sees written alike)")


class _Twins:
    """Two children ``a`` and ``b`` of ``parent`` (through ``one`` and ``other``, from
    history index ``start``) that ``observer`` sees alike."""

    def __init__(self, parent: AnyState, start: int, observer: int, one: Move, other: Move,
                 a: AnyState, b: AnyState) -> None:
        self.parent, self.start, self.observer = parent, start, observer
        self.one, self.other, self.a, self.b = one, other, a, b


def _twin_truths(game: AnyGame, games: int, seed: int, rng: random.Random
                 ) -> Iterator[_Twins]:
    """Twin truths: two children of one position, through two moves that the observer's
    move log (``history_view``) writes alike -- another player's face-down commit, a card
    drawn by another player -- and after which his views are equal."""
    for state in random_positions(game, games, seed):
        if state.is_terminal() or rng.random() > 0.4:
            continue
        mover, start = state.current_player, len(state.history)
        moves = state.legal_moves()
        if len(moves) < 2:
            continue
        for observer in range(game.num_players):
            if observer == mover:
                continue
            for one, other in _pairs_written_alike(game, moves, mover, observer, rng):
                a, b = state.child(one), state.child(other)
                if (a.history_view(observer)[start:] != b.history_view(observer)[start:]
                        or a.view(observer) != b.view(observer)):
                    continue  # he can tell them apart
                yield _Twins(state, start, observer, one, other, a, b)


def _pairs_written_alike(game: AnyGame, moves: list[Move], mover: int, observer: int,
                         rng: random.Random) -> list[tuple[Move, Move]]:
    """Pairs of moves to try as twins: those the game's move redaction writes alike for
    ``observer`` (a face-down warrior's strength), and some at random (a game that
    redacts by position, in ``history_view``, is tried that way)."""
    by_sight: dict[str, list[Move]] = {}
    for move in moves:
        by_sight.setdefault(game._redact(move, mover, observer), []).append(move)
    pairs = [(group[0], group[-1]) for group in by_sight.values() if len(group) > 1]
    pairs = rng.sample(pairs, min(3, len(pairs)))
    pairs += [(moves[0], other) for other in rng.sample(moves[1:], min(4, len(moves) - 1))]
    return pairs


@_conformance_check
def check_invariants(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """``state.invariants()`` is not empty and every (counted, expected) pair is equal
    at every step."""
    def check(state: AnyState, step: int) -> None:
        invariants = state.invariants()
        _require(invariants, "invariants() is empty")
        for name, (counted, expected) in invariants.items():
            _require(counted == expected,
                     lambda: f"invariant {name!r}: {counted} != {expected} at "
                             f"{_where(state, step)}")
    _each_step(game, games, seed, check)


@_conformance_check
def check_games_end_with_an_outcome(game: AnyGame, *, games: int = 10, seed: int = 0) -> None:
    """Games end within ``max_game_length`` with a well-formed outcome: winners, a
    ranking from 1, a score per player, returns in [-1, 1] equal to ``returns()``,
    partners sharing their team's result, the teams' returns summing to zero."""
    for i in range(games):
        state = random_playout(game, seed + i)
        where = f"{game.id} {game.options}, seed {seed + i}"
        _require(len(state.history) <= game.max_game_length,
                 lambda: f"{len(state.history)} actions, more than max_game_length: {where}")
        outcome = state.outcome()
        _require(outcome is not None, lambda: f"outcome() is None at the end: {where}")
        assert outcome is not None  # for the type checker
        _require(outcome.winners, lambda: f"the outcome has no winner: {where}")
        _require(min(outcome.ranking) == 1, lambda: f"nobody is ranked first: {where}")
        _require(len(outcome.scores) == game.num_players, f"not one score per player: {where}")
        _require(outcome.returns == state.returns(), f"outcome.returns != returns(): {where}")
        _require(all(-1.0 <= r <= 1.0 for r in outcome.returns),
                 lambda: f"returns {outcome.returns} outside [-1, 1]: {where}")
        for team in game.teams:
            _require(len({outcome.returns[p] for p in team}) == 1
                     and len({outcome.ranking[p] for p in team}) == 1,
                     lambda: f"partners {team} do not share their result: {where}")
        _require(abs(sum(outcome.returns[team[0]] for team in game.teams)) < 1e-9,
                 lambda: f"the teams' returns {outcome.returns} do not sum to zero: {where}")


@_conformance_check
def check_outcome_none_until_terminal(game: AnyGame, *, games: int = 1, seed: int = 0) -> None:
    """``outcome()`` is ``None`` exactly until the game is over; ``score()`` has one
    entry per player throughout."""
    def check(state: AnyState, step: int) -> None:
        _require((state.outcome() is None) == (not state.is_terminal()),
                 lambda: f"outcome() is {state.outcome()!r}: {_where(state, step)}")
        _require(len(state.score()) == game.num_players, "score() is not one per player")
    _each_step(game, games, seed, check)


@_conformance_check
def check_same_seed_same_state(game: AnyGame, *, games: int = 1, seed: int = 5) -> None:
    """The same seed and the same players' moves give byte-identical states and the same
    JSON (the seeded RNG draws the same chance outcomes again)."""
    for i in range(games):
        first = random_playout(game, seed + i)
        second = game.new_game(seed=seed + i)
        movers = [mover for mover, _ in first.history_view(None)]
        forced = set(first.forced)  # taken by the engine in the replay too
        for index, (move, mover) in enumerate(zip(first.history, movers, strict=True)):
            if mover != CHANCE and index not in forced:
                second.apply(str(move))
        _require(second.state_bytes() == first.state_bytes(),
                 lambda: f"replaying seed {seed + i} gives other state bytes")
        _require(second.to_json() == first.to_json(),
                 lambda: f"replaying seed {seed + i} gives other JSON")


@_conformance_check
def check_chance_nodes(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Without ``auto_chance`` every chance node waits for an outcome: its legal moves
    are the outcomes, their probabilities sum to 1, any of them applies and
    ``apply_random_chance`` draws one; a player's node has no chance outcomes."""
    for i in range(games):
        state = game.new_game(seed=seed + i, auto_chance=False)
        rng = random.Random(seed + i)
        step = 0
        while not state.is_terminal():
            step += 1
            _require(step <= game.max_game_length + 1, "the game outlasts max_game_length")
            if state.current_player != CHANCE:
                _require(state.chance_outcomes() == [],
                         lambda: f"chance_outcomes() at a player's node: {_where(state, step)}")
                state.apply(rng.choice(state.legal_moves()))
                continue
            outcomes = state.chance_outcomes()
            _require(abs(sum(p for _, p in outcomes) - 1.0) < 1e-9,
                     lambda: f"chance probabilities sum to {sum(p for _, p in outcomes)}")
            _require(all(p > 0 for _, p in outcomes), "a chance outcome of probability 0")
            _require([m for m, _ in outcomes] == state.legal_moves(),
                     lambda: f"the chance outcomes are not the legal moves: {_where(state, step)}")
            if rng.random() < 0.5:
                state.apply(rng.choice(outcomes)[0])
            else:
                drawn = state.apply_random_chance()
                _require(drawn in [m for m, _ in outcomes],
                         lambda: f"apply_random_chance drew {drawn}, not an outcome")


@_conformance_check
def check_illegal_reasons(game: AnyGame, *, games: int = 1, seed: int = 0) -> None:
    """At positions of random games (chance nodes included) every action id is either
    legal and listed or refused by the core with a rule key of ``illegal_reasons``;
    action ids out of range are refused."""
    for state in random_positions(game, games, seed):
        listed = {m.action for m in state.legal_moves()}
        for action in range(-1, game.num_distinct_actions + 1):
            key = game._core.illegal_reason(state._core, action)
            _require(key in game.illegal_reasons,
                     lambda: f"rule key {key!r} (action {action}) is not in illegal_reasons")
            in_range = 0 <= action < game.num_distinct_actions
            _require((key == "legal") == (in_range and action in listed),
                     lambda: f"action {action}: the core says {key!r} but it is "
                     f"{'' if action in listed else 'not '}listed as legal: "
                     f"{_where(state, len(state.history))}")


def _not_moves_here(game: AnyGame) -> list[object]:
    """Values that are no legal move of ``game`` anywhere: junk text, other types,
    moves of another game and forged moves."""
    forged_blank = Move.__new__(Move)  # no fields at all
    return ["", " ", "no such move", "x" * (game.max_move_text + 1), "\x00", None, 0, 3.5,
            True, b"pass", ["pass"], object(),
            Move(0, str(game.move(0)), ("another game", "{}")),
            Move(-1, "forged", game._game_key()),
            Move(game.num_distinct_actions, "forged", game._game_key()),
            forged_blank]


@_conformance_check
def check_is_legal(game: AnyGame, *, games: int = 1, seed: int = 0) -> None:
    """``is_legal`` answers, changing nothing: ``True`` for each legal move and its text,
    ``False`` for every other action of the game and its text, and for anything that is
    not a move here (junk text, other types, a move of another game, a forged move)."""
    junk = _not_moves_here(game)
    every_move = [game.move(a) for a in range(game.num_distinct_actions)]

    def check(state: AnyState, step: int) -> None:
        before = snapshot(state)
        legal = set(state.legal_moves())
        for move in every_move:
            for asked in (move, str(move)):
                _require(state.is_legal(asked) == (move in legal),
                         lambda: f"is_legal({asked!r}) is {move not in legal}: "
                                 f"{_where(state, step)}")
        for value in junk:
            _require(state.is_legal(value) is False,
                     lambda: f"is_legal({value!r}) is not False: {_where(state, step)}")
        _compare(before, state, "is_legal")
    _each_step(game, games, seed, check, every=3)


@_conformance_check
def check_compiled_playouts(game: AnyGame, *, games: int = 50, seed: int = 1) -> None:
    """The compiled core's own random playouts run, last no longer than
    ``max_game_length`` and are reproducible for a seed."""
    moves = game.core.random_playouts(games, seed)
    _require(games <= moves <= games * game.max_game_length,
             lambda: f"{games} compiled playouts made {moves} moves")
    _require(game.core.random_playouts(games, seed) == moves,
             "compiled playouts are not reproducible for a seed")


def action_values_hold(core: Any, where: Callable[[], str]) -> None:
    """What :func:`check_action_values` asks of one decision's core state: one finite value
    per legal action, the same on a second call, the state byte-identical afterwards (an
    AssertionError naming ``where()`` else; nothing to check when the game has none)."""
    before = core.state_bytes()
    values = core.action_values()
    if values is None:
        return
    _require(core.state_bytes() == before, lambda: f"action_values changed the state: {where()}")
    _require(len(values) == len(core.legal_actions()),
             lambda: f"{len(values)} action values for {len(core.legal_actions())} legal "
                     f"actions: {where()}")
    _require(all(isinstance(v, float) and math.isfinite(v) for v in values),
             lambda: f"an action value is not a finite float: {where()}")
    _require(core.action_values() == values,
             lambda: f"action_values differ on a second call: {where()}")


@_conformance_check
def check_action_values(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """A game with the contract's ``action_values`` (informed rollouts): at every third
    decision of seeded random games, :func:`action_values_hold` -- search calls it on its
    worlds millions of times.  A game without it has nothing to check."""
    def check(state: AnyState, step: int) -> None:
        if state.current_player >= 0:
            action_values_hold(state._core, lambda: _where(state, step))
    _each_step(game, games, seed, check, every=3)


# --- positions, events and forced steps (0.6.0) ----------------------------------------------


@_conformance_check
def check_positions_round_trip(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Every position reached in play is written by ``state.position()`` and read back by
    ``game.position()`` to the same state byte for byte, the same text and the same legal
    moves, without history; its save round-trips with the position as its start."""
    def check(state: AnyState, step: int) -> None:
        text = state.position()
        _require(isinstance(text, str) and text, "position() is not text")
        again = game.position(text, auto_chance=False, auto_forced=False)
        _require(again.state_bytes() == state.state_bytes(),
                 lambda: f"the position read back differs from the state: {_where(state, step)}")
        _require(again.position() == text,
                 lambda: f"position text is not canonical: {_where(state, step)}")
        _require(len(again.history) == 0 and again.start_position == text,
                 "a state made from a position has history or no start")
        _require(again.legal_moves() == state.legal_moves(),
                 lambda: f"the position read back has other legal moves: {_where(state, step)}")
        if step % 4 == 0:
            restored = game.state_from_json(again.to_json())
            _require(restored == again and restored.start_position == text,
                     lambda: f"the save of a position does not restore: {_where(state, step)}")
    _each_step(game, games, seed, check, every=2)


def _event_records(state: AnyState, viewer: int | None, start: int = 0) -> list[Any]:
    return [e.as_dict() for e in state.events(viewer) if e.index >= start]


@_conformance_check
def check_events_redact_as_views(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Events are JSON-ready records of the history's actions (ascending, each naming its
    mover); ``last_events`` ends the log; and a viewer's events are a function of what he
    may know: twin truths he sees alike give him the same events (so events redact as
    views do)."""
    def check(state: AnyState, step: int) -> None:
        movers = state._core.movers()
        for viewer in [None, *range(game.num_players)]:
            events = state.events(viewer)
            json.dumps([e.as_dict() for e in events])
            indices = [e.index for e in events]
            _require(indices == sorted(indices) and all(0 <= i < len(movers) for i in indices),
                     lambda: f"event indices out of order or range: {_where(state, step)}")
            _require(all(e.player == movers[e.index] for e in events),
                     lambda: f"an event names another mover: {_where(state, step)}")
            last = state.last_events(viewer)
            _require(events[len(events) - len(last):] == last,
                     lambda: f"last_events is not the end of events: {_where(state, step)}")
    _each_step(game, games, seed, check, every=3)
    if not game.has_hidden_information:
        return
    rng = random.Random(seed)
    for twin in _twin_truths(game, games, seed, rng):
        _require(_event_records(twin.a, twin.observer, twin.start)
                 == _event_records(twin.b, twin.observer, twin.start),
                 lambda: f"player {twin.observer} sees {twin.one} and {twin.other} alike, yet "
                 f"his events differ: {_where(twin.parent, twin.start)}")
        a_log, b_log = twin.a.history_view(None), twin.b.history_view(None)
        if twin.a.view(None) == twin.b.view(None) and a_log[twin.start:] == b_log[twin.start:]:
            _require(_event_records(twin.a, None, twin.start)
                     == _event_records(twin.b, None, twin.start),
                     lambda: f"a spectator sees {twin.one} and {twin.other} alike, yet his "
                     f"events differ: {_where(twin.parent, twin.start)}")


@_conformance_check
def check_forced_steps_recorded(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Forced steps the engine takes are in the history and in ``state.forced``; the same
    game with ``auto_forced=False`` asks exactly those steps (``decision().forced``, one
    legal move) and ends byte-identical; saves keep the marks, and undo takes back a move
    with the forced steps after it."""
    for i in range(games):
        state = random_playout(game, seed + i)
        history, forced = list(state.history), set(state.forced)
        asked = game.new_game(seed=seed + i, auto_forced=False)
        while len(asked.history) < len(history):
            index = len(asked.history)
            decision = asked.decision()
            if index in forced:
                _require(decision.forced and decision.moves == 1,
                         lambda: f"history[{index}] is marked forced but is not a forced step")
            else:
                _require(not decision.forced,
                         lambda: f"history[{index}] is a forced step the engine did not take")
            asked.apply(history[index])
        _require(asked.state_bytes() == state.state_bytes() and asked.forced == [],
                 "the game asking every forced step ends elsewhere")
        _require(game.state_from_json(state.to_json()).forced == state.forced,
                 "a save loses the forced marks")
        movers = state._core.movers()
        asked_moves = [j for j in range(len(history)) if j not in forced and movers[j] >= 0]
        if forced and asked_moves:
            last_asked = asked_moves[-1]
            copy = state.copy()
            copy.undo()
            _require(len(copy.history) == last_asked,
                     "undo does not take back the last move with the forced steps after it")


def _has_observations(game: AnyGame) -> bool:
    return bool(game.core.observation_size)


def _observation_differs(game: AnyGame, a: Any, b: Any) -> str | None:
    """Where two observation tensors of ``game`` differ (the first float, its field and
    entry), else None."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"shape/dtype {a.shape} {a.dtype} against {b.shape} {b.dtype}"
    if (a == b).all():
        return None
    index = int((a != b).nonzero()[0][0])
    return f"float {index}: {a[index]} against {b[index]}, {_field_at(game, index)}"


def _field_at(game: AnyGame, index: int) -> str:
    for f in game.observation_layout.fields:
        if f.start <= index < f.stop:
            return f"field {f.name!r} {f.shape}, entry {index - f.start}"
    return f"float {index}"


@_conformance_check
def check_observations_match_views(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Each player's observation tensor, written by the core, has the layout's shape and
    dtype, lies within the legend's bounds, and equals the one computed in Python from his
    view (``observation_from_view``):
    it carries what his view carries.  The action mask marks exactly the legal actions.
    Nothing to check for a game whose core writes no observation."""
    if not _has_observations(game):
        return
    layout = game.observation_layout
    _require(game.observation_shape == (layout.size,), "observation_shape is not the layout's")

    def check(state: AnyState, step: int) -> None:
        for player in range(game.num_players):
            tensor = state.observation(player)
            outside = layout.out_of_bounds(tensor)
            _require(outside is None, lambda: f"player {player}'s observation: {outside}, "
                     f"against the legend, at {_where(state, step)}")
            reference = game.observation_from_view(state.view(player), player)
            differs = _observation_differs(game, tensor, reference)
            _require(differs is None, lambda: f"player {player}'s observation is not his "
                     f"view's ({differs}) at {_where(state, step)}")
        mask = state.action_mask()
        legal = [m.action for m in state.legal_moves()] if state.current_player >= 0 else []
        _require(mask.nonzero()[0].tolist() == legal,
                 lambda: f"the action mask is not the legal actions at {_where(state, step)}")

    _each_step(game, games, seed, check)


@_conformance_check
def check_observations_leak_nothing(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Two truths that differ only in what a player cannot see give him equal observation
    tensors: the twin truths of ``worlds_leak_nothing`` (two children of one position he
    sees alike), and each truth against the worlds ``determinize`` draws for him (every
    hidden part drawn again)."""
    if not _has_observations(game) or not game.has_hidden_information:
        return
    compared = 0

    def check(state: AnyState, step: int) -> None:
        nonlocal compared
        for player in range(game.num_players):
            world = state.determinize(player, seed=step)
            differs = _observation_differs(game, state.observation(player),
                                           world.observation(player))
            _require(differs is None,
                     lambda: f"player {player}'s observation changes when what he cannot see "
                     f"is drawn again ({differs}) at {_where(state, step)}")
            compared += world.state_bytes() != state.state_bytes()

    _each_step(game, games, seed, check, every=3)
    _require(compared > 0, "determinize never changed a state: nothing was compared")
    twins = 0
    for twin in _twin_truths(game, games, seed, random.Random(seed)):
        twins += 1
        differs = _observation_differs(game, twin.a.observation(twin.observer),
                                       twin.b.observation(twin.observer))
        _require(differs is None,
                 lambda: f"player {twin.observer} sees {twin.one} and {twin.other} alike, "
                 f"yet his observations differ ({differs}): {_where(twin.parent, twin.start)}")
    _require(twins > 0, "no twin truths were found to compare")


@_conformance_check
def check_commits_taken_back(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Where the game can take back the hidden commit a simultaneous decision answers
    (the contract's ``take_back_commit``, which search uses to model the committer): the
    commit's mover is to move again, the commit is legal for him, and applying it gives
    the state back byte for byte."""
    def check(state: AnyState, step: int) -> None:
        core = state._core
        if not core.can_take_back_commit():
            return
        commit = core.actions[-1]
        movers = core.movers()
        taken = core.taken_back()
        _require(taken.current_player == movers[-1],
                 lambda: f"taken back, player {taken.current_player} is to move, not the "
                         f"committer {movers[-1]}: {_where(state, step)}")
        _require(commit in taken.legal_actions(),
                 lambda: f"taken back, the commit {commit} is not legal: "
                         f"{_where(state, step)}")
        taken.apply(commit)
        _require(taken.state_bytes() == core.state_bytes(),
                 lambda: f"the commit taken back and made again is another state: "
                         f"{_where(state, step)}")
    _each_step(game, games, seed, check)


# --- a player's eyes at each step (0.6.0) --------------------------------------------------


@_conformance_check
def check_step_eyes(game: AnyGame, *, games: int = 1, seed: int = 0,
                    moves: int = 120) -> None:
    """What the record viewer's page (:func:`boardrules.viewer.record_html`) and
    ``boardrules replay`` show each player (and the spectator) at each step of a whole
    record is what the library gave him at that step -- the moves as
    :meth:`~boardrules.State.history_view` read them there, their events as
    :meth:`~boardrules.State.events` told them there, the board drawn from
    :meth:`~boardrules.State.view` there -- never the redaction of a later state (a card
    revealed later shown at the step it was played face down).  A move after the step
    reads on the page as it did when it was made.  Plays ``games`` seeded random games of
    up to ``moves`` decisions.  Not in :data:`CHECKS`: it draws every step's picture in
    every eye (seconds a game); the repository's ``tests/test_step_eyes.py`` runs it on
    every registered game and option set."""
    from boardrules.cli.replay import Replay, step_text
    from boardrules.records import game_record, replay_states
    from boardrules.viewer import record_html

    eyes: list[int | None] = [*range(game.num_players), None]

    @functools.lru_cache(maxsize=64)  # a view that did not change is drawn once
    def draw(view: str, highlight: tuple[str, ...]) -> str:
        return game.render_view_svg(json.loads(view), highlight=highlight)

    def drawn(view: Any, highlight: tuple[str, ...]) -> str:
        return draw(json.dumps(view, sort_keys=True), highlight)

    for i in range(games):
        record = game_record(random_play(game, seed + i, moves, rng_seed=seed + i), date=None)
        page = _PageEyes(record_html(record))
        replays = {eye: Replay(record, eye, game) for eye in eyes}
        last = len(record["moves"])
        for eye in eyes:  # a move ahead of the step reads as it did when it was made
            early = page.early_revision(eye)
            _require(early is None, lambda: f"{game.id} {game.options}, game {i}: the page "
                     f"shows {eye!r} move {early} anew before the step after it")
        for step, state in enumerate(replay_states(record)):
            where = f"{game.id} {game.options}, game {i}, step {step}"
            for eye in eyes:
                log = _log_seen(state, eye)
                rows = [_page_row(entry, game, eye) for entry in log]
                shown = [page.entry(eye, index, step) for index in range(step)]
                _require(shown == rows, lambda: f"{where}: the page's moves as {eye!r} saw "
                         f"them differ from his log there: {_first_difference(shown, rows)}")
                highlight = () if step == 0 else tuple(game.move_locations(rows[-1][1]))
                _require(page.picture(eye, step) == drawn(state.view(eye), highlight),
                         lambda: f"{where}: the page's board for {eye!r} is not his view there")
                entry = log[-1] if log else None
                _require(replays[eye].step_text(step) == step_text(
                    game, step, last, entry, state.view(eye), viewer=eye),
                    lambda: f"{where}: replay --viewer {eye!r} prints what he did not see "
                    "there:\n" + replays[eye].step_text(step).split("\n", 2)[1])


def _log_seen(state: AnyState, eye: int | None) -> list[dict[str, Any]]:
    """The moves so far as ``eye``'s log reads them at ``state``, each a record's move
    object (mover, move, forced, events)."""
    told: list[list[dict[str, Any]]] = [[] for _ in range(len(state.history))]
    for event in state.events(eye):
        told[event.index].append({"kind": event.kind, **json.loads(json.dumps(dict(event.data)))})
    forced = set(state.forced)
    return [{"mover": mover, "move": text, "forced": index in forced, "events": told[index]}
            for index, (mover, text) in enumerate(state.history_view(eye))]


def _page_row(entry: dict[str, Any], game: AnyGame, eye: int | None) -> list[Any]:
    """A move object in the page's form: ``[mover, move, forced, events in words]``
    (as ``eye`` saw them: ``?`` hidden from him, ``none`` not there)."""
    from boardrules.records import describe_event

    return [entry["mover"], entry["move"], entry["forced"],
            [" ".join(describe_event(event, game=game, viewer=eye).split())
             for event in entry["events"]]]


def _first_difference(shown: list[Any], rows: list[Any]) -> str:
    for index, (a, b) in enumerate(zip(shown, rows, strict=False)):
        if a != b:
            return f"move {index}: shown {a!r}, his log {b!r}"
    return f"{len(shown)} moves shown, {len(rows)} in his log"


class _PageEyes:
    """A record page's data read as its script reads it: per eye, each move as it reads
    at a step and the board drawn at a step."""

    def __init__(self, page: str) -> None:
        import re

        found = re.search(r'<script type="application/json" id="viewer-data">(.*?)</script>',
                          page, re.DOTALL)
        _require(found is not None, "the page holds no viewer data")
        assert found is not None
        self.data: dict[str, Any] = json.loads(found.group(1))
        self.sides = {side["key"]: side for side in self.data["sides"]}
        self._tokens: dict[int, list[int]] = {}

    def _side(self, eye: int | None) -> dict[str, Any]:
        side: dict[str, Any] = self.sides["spectator" if eye is None else str(eye)]
        return side

    def entry(self, eye: int | None, index: int, step: int) -> list[Any]:
        """Move ``index`` as the page shows it to ``eye`` at ``step`` (the list and, for
        the move just made, the caption)."""
        side = self._side(eye)
        number = side["moves"][index]
        for at, revised, entry in side.get("revisions", []):
            if revised == index and at <= step:
                number = entry
        row: list[Any] = self.data["entries"][number]
        return row

    def early_revision(self, eye: int | None) -> int | None:
        """A move that the page writes anew for ``eye`` before the step that makes it
        (so that it reads otherwise ahead of its step than at it), if any."""
        for at, index, _ in self._side(eye).get("revisions", []):
            if at <= index + 1:
                return int(index)
        return None

    def picture(self, eye: int | None, step: int) -> str:
        return "".join(self.data["tokens"][t]
                       for t in self._decoded(self._side(eye)["boards"][step]))

    def _decoded(self, index: int) -> list[int]:
        if index not in self._tokens:
            code = self.data["pictures"][index]
            base = self._decoded(code[0]) if code[0] >= 0 else []
            out: list[int] = []
            k = 1
            while k < len(code):
                if code[k] < 0:
                    out.append(-1 - code[k])
                    k += 1
                else:
                    out += base[code[k]:code[k] + code[k + 1]]
                    k += 2
            self._tokens[index] = out
        return self._tokens[index]


#: The checks of observation tensors and action masks (the ecosystem adapters' input),
#: also in :data:`CHECKS`.
OBSERVATION_CHECKS: dict[str, Callable[..., None]] = {
    "observations_match_views": check_observations_match_views,
    "observations_leak_nothing": check_observations_leak_nothing,
}

#: The checks of positions, events and forced steps (0.6.0), also in :data:`CHECKS`.
CONTRACT_CHECKS: dict[str, Callable[..., None]] = {
    "positions_round_trip": check_positions_round_trip,
    "events_redact_as_views": check_events_redact_as_views,
    "forced_steps_recorded": check_forced_steps_recorded,
}

#: Every check, by name, in the order :func:`check_game` runs them.
CHECKS: dict[str, Callable[..., None]] = {
    "legal_moves": check_legal_moves,
    "apply_and_undo": check_apply_and_undo,
    "copy_and_child": check_copy_and_child,
    "json_round_trip": check_json_round_trip,
    "pickle_and_deepcopy": check_pickle_and_deepcopy,
    "history_is_a_snapshot": check_history_is_a_snapshot,
    "restore_then_undo_gives_back_the_rng": check_restore_then_undo_gives_back_the_rng,
    "worlds_have_their_own_rng": check_worlds_have_their_own_rng,
    "worlds_leak_nothing": check_worlds_leak_nothing,
    "saves_of_tables_applying_chance": check_saves_of_tables_applying_chance,
    "notation_round_trip": check_notation_round_trip,
    "views_hide_what_the_viewer_cannot_see": check_views_hide_what_the_viewer_cannot_see,
    "determinize_resamples": check_determinize_resamples,
    "worlds_are_consistent": check_worlds_are_consistent,
    "invariants": check_invariants,
    "games_end_with_an_outcome": check_games_end_with_an_outcome,
    "outcome_none_until_terminal": check_outcome_none_until_terminal,
    "same_seed_same_state": check_same_seed_same_state,
    "chance_nodes": check_chance_nodes,
    "illegal_reasons": check_illegal_reasons,
    "is_legal": check_is_legal,
    "compiled_playouts": check_compiled_playouts,
    "commits_taken_back": check_commits_taken_back,
    "action_values": check_action_values,
    **CONTRACT_CHECKS,
    **OBSERVATION_CHECKS,
}


def check_game(game: AnyGame, *, games: int = 3, seed: int = 0) -> None:
    """Run every check of :data:`CHECKS` on ``game`` with ``games`` seeded random games
    each (from ``seed``); raises :class:`AssertionError` naming the check and the first
    violation.  Run it once per option set worth testing (``example_options``)."""
    if not isinstance(game, Game):
        raise TypeError(f"check_game needs a boardrules Game, not {type(game).__name__}")
    for name, check in CHECKS.items():
        try:
            check(game, games=games, seed=seed)
        except AssertionError as exc:
            raise AssertionError(f"{game.id} {game.options}: check {name!r} failed: {exc}"
                                 ) from exc
