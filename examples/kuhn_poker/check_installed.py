"""What CI runs after installing the boardrules wheel and then this package, in a fresh
virtualenv, from a directory outside the source tree::

    python -m venv /tmp/kp-venv
    /tmp/kp-venv/bin/pip install boardrules cython "setuptools>=70.1"   # (or CI's wheel)
    /tmp/kp-venv/bin/pip install --no-build-isolation examples/kuhn_poker
    cd /tmp && /tmp/kp-venv/bin/python /path/to/examples/kuhn_poker/check_installed.py

It checks the real path a user's game takes: boardrules ships its contract files
(``get_include()``), finds the installed game by name through its entry point, lists it
on the command line, and the game passes the conformance suite, PettingZoo's
``api_test`` (when pettingzoo is installed) and a search.  Any failure exits non-zero
with a message saying what failed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
failures: list[str] = []


def step(name: str) -> Callable[[Callable[[], str | None]], None]:
    """Run the decorated check at once: print ``ok`` and what it returned, or record the
    failure (with its traceback) and go on to the next check."""
    def run(check: Callable[[], str | None]) -> None:
        try:
            detail = check()
        except Exception as exc:
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
            print(f"FAIL {name}: {type(exc).__name__}: {exc}")
            traceback.print_exc()
        else:
            print(f"ok   {name}" + (f": {detail}" if detail else ""))
    return run


@step("boardrules and this package are the installed ones, not the source tree")
def _installed() -> str:
    import boardrules

    import boardrules_kuhn_poker

    for module in (boardrules, boardrules_kuhn_poker):
        path = Path(module.__file__ or "").resolve()
        # this package's tree, or the boardrules checkout it sits in (examples/kuhn_poker)
        if path.is_relative_to(HERE) or path.is_relative_to(HERE.parent.parent / "boardrules"):
            raise RuntimeError(f"{module.__name__} is imported from the source tree "
                               f"({path}): run this from another directory")
    return f"boardrules {boardrules.__version__} at {Path(boardrules.__file__ or '').parent}"


@step("boardrules.get_include() holds the contract (boardrules/_ext/core.pxd)")
def _include() -> str:
    import boardrules

    include = Path(boardrules.get_include())
    if not (include / "boardrules" / "_ext" / "core.pxd").is_file():
        raise FileNotFoundError(f"no boardrules/_ext/core.pxd under {include}")
    return str(include)


@step('boardrules.load("kuhn_poker") finds the game by name (entry point)')
def _load() -> str:
    import boardrules
    from boardrules.games import load_entry_points

    problems = load_entry_points()
    if "kuhn_poker" in problems:
        raise RuntimeError(f"the entry point failed: {problems['kuhn_poker']}")
    if "kuhn_poker" not in boardrules.available_games():
        raise RuntimeError(f"kuhn_poker is not registered: {boardrules.available_games()}")
    game = boardrules.load("kuhn_poker")
    if type(game).__module__ != "boardrules_kuhn_poker.game":
        raise RuntimeError(f"kuhn_poker loads {type(game)!r}")
    return repr(game)


@step("`boardrules games` (the command line) lists kuhn_poker")
def _cli() -> str:
    script = Path(sys.executable).with_name("boardrules")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "boardrules"]
    found = shutil.which(command[0]) or command[0]
    result = subprocess.run([*command, "games"], capture_output=True, text=True, timeout=120,
                            check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{found} games exited {result.returncode}: {result.stderr}")
    if "kuhn_poker" not in result.stdout.split():
        raise RuntimeError(f"{found} games does not list kuhn_poker: {result.stdout!r}")
    return f"{' '.join(command)} games: {' '.join(result.stdout.split())}"


@step("check_game passes (the conformance suite)")
def _conformance() -> None:
    import boardrules
    from boardrules.testing import check_game

    check_game(boardrules.load("kuhn_poker"), games=20)


@step("PettingZoo's api_test on boardrules.pettingzoo.env('kuhn_poker')")
def _pettingzoo() -> str:
    if importlib.util.find_spec("pettingzoo") is None:
        return "skipped: pettingzoo is not installed"
    import boardrules.pettingzoo
    from pettingzoo.test import api_test

    api_test(boardrules.pettingzoo.env("kuhn_poker"), num_cycles=200)
    return "passed"


@step("suggest() answers with a legal move")
def _suggest() -> str:
    import boardrules

    state = boardrules.load("kuhn_poker").new_game(seed=1)
    suggestion = boardrules.suggest(state, iterations=500, seed=1)
    if suggestion.move not in state.legal_moves():
        raise RuntimeError(f"suggest() gave {suggestion.move}, not a legal move")
    state.apply(suggestion.move)
    return f"player 0 holding {state.view(0)['cards'][0]}: {suggestion.move}"


if __name__ == "__main__":
    if failures:
        print(f"\n{len(failures)} check(s) failed:", *failures, sep="\n  ", file=sys.stderr)
        sys.exit(1)
    print(f"\nall checks passed ({os.path.basename(sys.executable)} {sys.version.split()[0]})")
