"""Fuzz target: the public compiled objects -- ``game.core`` (the game's CoreGame) and
``state._core`` (its CoreState) -- called with fuzzed ints, tuples, bytes and states.

Input: a program for a FuzzedDataProvider: which game and position to start from, then a
few calls, each a method of the CoreGame or the CoreState with arguments drawn from
hostile values (huge, negative, lying ints, bools, floats, bytes, tuples, text), valid
values, this game's states and another game's.  The compiled objects check every argument:
the only exceptions that may come out are TypeError, ValueError and IndexError (the
documented ones; OverflowError is a finding), and nothing may crash the interpreter.
After the calls the state is played on in C, so a state a call left broken shows itself;
unless a position was loaded into it by hand (``load``), the state is still one the
rules reached: its invariants hold and its save restores to it.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import atheris
from _common import CHANCE, example_games, hostile_value, main, sample_positions

#: FUZZ_TRACE=1 prints each call (to read a crash file: python fuzz/fuzz_core.py FILE).
TRACE = bool(os.environ.get("FUZZ_TRACE"))
GAMES = example_games()
POSITIONS = [[state for state in sample_positions(game, depths=(0, 5, 30))] for game in GAMES]
#: Which exceptions a compiled object may raise on bad arguments.
DOCUMENTED = (TypeError, ValueError, IndexError)
#: Field names of the positions ``load`` reads (and a junk one), so that the fuzzer
#: reaches past a name check.
FIELD_NAMES = ["board", "phase", "current", "move_count", "scores", "flag", "occ", "bands",
               "gold", "natives", "hand", "played", "ap", "round", "nothing"]
#: Calls that change the state they are given (the rest only read it).
MUTATING = {"apply", "apply_forced", "apply_random_chance", "redraw", "undo", "undo_move",
            "run_auto", "run_auto_chance", "seed", "rng_start", "load"}
#: CoreGame calls whose first argument is a count of whole games to play (a valid count
#: of 1.8 billion Armada games is no finding, only a timeout: CI's run of 0.6.0 met one).
PLAYOUTS = {"random_playouts", "observed_playouts"}
#: CoreGame.load is the position reader: a game without a position format says so.
KNOWN_NOT_IMPLEMENTED = {"load"}


def public_methods(obj: Any) -> list[str]:
    return sorted(name for name in dir(obj)
                  if not name.startswith("_") and callable(getattr(obj, name)))


STATE_METHODS = [*public_methods(GAMES[0].new_game(seed=0)._core), "rng_start", "new"]


class Program:
    """One input: a game, a position, and the calls made on them."""

    def __init__(self, data: bytes) -> None:
        self.fdp = atheris.FuzzedDataProvider(data)
        self.game_index = self.fdp.ConsumeIntInRange(0, len(GAMES) - 1)
        self.game = GAMES[self.game_index]
        positions = POSITIONS[self.game_index]
        self.state = positions[self.fdp.ConsumeIntInRange(0, len(positions) - 1)].copy()
        self.core = self.game.core
        self.edited = False  # a position loaded by hand (load): it has no start to save
        self.world = False
        self.by_hand = False  # the state was changed by a core call, not through the State

    def argument(self) -> Any:
        """An argument: hostile, a valid number, a field name, a state of this game or
        another's, or a table of moves."""
        fdp, st = self.fdp, self.state._core
        kind = fdp.ConsumeIntInRange(0, 9)
        if kind <= 2:
            return hostile_value(fdp)
        if kind <= 4:
            return fdp.ConsumeIntInRange(-1, max(self.game.num_distinct_actions, 8))
        if kind == 5:
            legal = st.legal_actions()
            return legal[fdp.ConsumeIntInRange(0, len(legal) - 1)] if legal else 0
        if kind == 6:
            return st
        if kind == 7:
            other = GAMES[fdp.ConsumeIntInRange(0, len(GAMES) - 1)]
            return other.new_game(seed=1)._core
        if kind == 8:
            return FIELD_NAMES[fdp.ConsumeIntInRange(0, len(FIELD_NAMES) - 1)]
        return list(self.game._moves)[:fdp.ConsumeIntInRange(0, self.game.num_distinct_actions)]

    def arguments(self, most: int = 5) -> list[Any]:
        return [self.argument() for _ in range(self.fdp.ConsumeIntInRange(0, most))]

    def call(self, what: str, function: Any, args: list[Any]) -> Any:
        """``function(*args)``; a documented refusal must leave the state as it was."""
        if TRACE:
            print("call", what, [_shown(a) for a in args], file=sys.stderr)
        st = self.state._core
        before = (st.state_bytes(), st.actions, st.rng_state, st.rng_start)
        try:
            result = function(*args)
        except DOCUMENTED as exc:
            after = (st.state_bytes(), st.actions, st.rng_state, st.rng_start)
            if after != before:
                raise AssertionError(f"{what}({', '.join(map(_shown, args))}) was refused "
                                     f"({type(exc).__name__}: {exc}) but changed the state"
                                     ) from exc
            return None
        except OverflowError:
            raise AssertionError(f"{what}({', '.join(map(_shown, args))}) raised "
                                 "OverflowError") from None
        except NotImplementedError:
            if what.rsplit(".", 1)[-1] in KNOWN_NOT_IMPLEMENTED:
                return None
            raise AssertionError(f"{what} raised NotImplementedError") from None
        except BaseException as exc:
            raise AssertionError(f"{what}({', '.join(map(_shown, args))}) raised "
                                 f"{type(exc).__name__}: {exc}") from exc
        if what.rsplit(".", 1)[-1] in MUTATING:
            self.by_hand = True
        elif (st.state_bytes(), st.actions, st.rng_state, st.rng_start) != before:
            raise AssertionError(f"{what}({', '.join(map(_shown, args))}) only reads, but "
                                 "changed the state")
        return result

    def game_call(self) -> None:
        names = public_methods(self.core)
        name = names[self.fdp.ConsumeIntInRange(0, len(names) - 1)]
        args = self.arguments()
        if name in PLAYOUTS and args and _plain_int(args[0]) and args[0] > 3:
            args[0] %= 4  # a valid count plays that many whole games: keep it short
        if name == "load":
            self.edited = True
        self.call(f"{type(self.core).__name__}.{name}", getattr(self.core, name), args)

    def state_call(self) -> None:
        st = self.state._core
        name = STATE_METHODS[self.fdp.ConsumeIntInRange(0, len(STATE_METHODS) - 1)]
        args = self.arguments(3)
        what = f"CoreState.{name}"
        if name == "rng_start":
            self.call(what, lambda *a: setattr(st, "rng_start", a[0] if a else ()), args)
        elif name == "new":
            self.call("CoreState", type(st), [self.core, *args])
        elif name in ("copy", "determinized"):
            result = self.call(what, getattr(st, name), args)
            if result is not None and self.fdp.ConsumeBool():
                self.state = type(self.state)(self.game, result, self.state.auto_chance)
                # a copy without its history, or a world, starts from no game's start
                self.world = self.world or name == "determinized" or (not (
                    args and args[0]) and len(args) == 1)
        else:
            self.call(what, getattr(st, name), args)

    def run(self) -> None:
        for _ in range(self.fdp.ConsumeIntInRange(1, 8)):
            if self.fdp.ConsumeBool():
                self.game_call()
            else:
                self.state_call()
        self.play_on()

    def play_on(self) -> None:
        """Random legal actions in C, then the state's checks: a call that left it broken
        (read or written outside its struct, a count out of step) shows itself here."""
        st = self.state._core
        for _ in range(20):
            legal = st.legal_actions()
            if not legal:
                break
            if st.current_player == CHANCE and self.state.auto_chance:
                st.run_auto(True, self.state.auto_forced)  # as the State does
            else:
                st.apply(legal[self.fdp.ConsumeIntInRange(0, len(legal) - 1)],
                         self.state.auto_chance, self.state.auto_forced)
            self.core.export(st)
            st.evaluate()
            st.returns()
        if self.edited:
            return
        for name, (counted, expected) in self.state.invariants().items():
            if counted != expected:
                raise AssertionError(f"after core calls without load, invariant {name!r} "
                                     f"{counted} != {expected}")
        # A state changed by hand through its core (a chance outcome or a forced step
        # applied where the State would have drawn or taken it) may rightly have no save;
        # one changed only through the State's own ways must still save and restore.
        if not (self.world or self.by_hand) and not _saves_back(self.state):
            raise AssertionError("after core calls without load, the state's save does not "
                                 "restore to it")


def _saves_back(state: Any) -> bool:
    restored = state.game.state_from_json(state.to_json())
    return bool(restored == state)


def _plain_int(value: Any) -> bool:
    return type(value) is int


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 80 else text[:77] + "..."


def TestOneInput(data: bytes) -> None:
    Program(data).run()


if __name__ == "__main__":
    main(TestOneInput)
    sys.exit(0)
