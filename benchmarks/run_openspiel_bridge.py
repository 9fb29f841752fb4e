"""OpenSpiel's own ``pyspiel.random_sim_test`` through the bridge (``boardrules.openspiel``),
per game, in CPU seconds: what a long game costs OpenSpiel's checks (docs/adapters.rst,
"OpenSpiel", "What a long game costs").

    python benchmarks/run_openspiel_bridge.py                   # this checkout, 3 runs a game
    python benchmarks/run_openspiel_bridge.py --before f2138f5  # and f2138f5's bridge beside it
    python benchmarks/run_openspiel_bridge.py --runs 5 --only rome_and_carthage

Each run is one child process calling ``random_sim_test(game, num_sims, serialize=True)``
(the simulations of ``tests/test_adapter_openspiel.py``: OpenSpiel's fixed seed, so every
run plays the same games) and timing it with its own CPU clock (``time.process_time``:
the time it waited for a core is not counted); the game is loaded before the clock starts.
``--before REV`` runs a copy of the installed package whose bridge files
(:data:`BRIDGE_FILES`) are those of the git revision ``REV``, the two sides in interleaved
rounds (REV, this checkout, REV, ...), and the ratio is taken round by round.  Each figure
is the median run with the lowest and highest.  Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Each game (default options) and its simulations, as the test suite runs them.
GAMES = {"rome_and_carthage": 2, "armada": 2, "albion": 2, "armadora": 5, "connect_four": 5}

#: The files that make the bridge's cost: the bridge itself and the state whose copies it
#: clones (a revision's bridge is these files of that revision).
BRIDGE_FILES = ("boardrules/openspiel.py", "boardrules/_state.py")


def child(game_id: str, sims: int) -> None:
    """In the child process: one random_sim_test, printed as JSON (CPU seconds, the
    apply_action calls it made, and which boardrules it ran)."""
    import pyspiel

    import boardrules
    import boardrules.openspiel as bridge

    applied = 0
    apply_action = bridge.SpielState._apply_action

    def counted(self: bridge.SpielState, action: int) -> None:
        nonlocal applied
        applied += 1
        apply_action(self, action)

    bridge.SpielState._apply_action = counted  # type: ignore[method-assign]
    game = pyspiel.load_game(bridge.short_name(game_id))
    start = time.process_time()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    cpu = time.process_time() - start
    print(json.dumps({"cpu": cpu, "applied": applied, "boardrules": boardrules.__file__}))


def run_child(game_id: str, sims: int, package_root: Path | None) -> dict[str, float]:
    """One run in a child process (``package_root``: the directory holding the
    ``boardrules`` package to import instead of the installed one)."""
    env = dict(os.environ)
    if package_root is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(package_root), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, __file__, "--child", game_id, str(sims)],
                         env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{game_id}: the child failed:\n{out.stderr}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    expected = package_root if package_root is not None else ROOT
    if not str(result["boardrules"]).startswith(str(expected)):
        raise SystemExit(f"the child imported {result['boardrules']}, not from {expected}")
    return result


def package_at(revision: str, where: Path) -> Path:
    """A copy of the installed package (compiled cores included) in ``where`` whose
    :data:`BRIDGE_FILES` are those of git ``revision``."""
    import boardrules

    package = Path(boardrules.__file__).resolve().parent
    shutil.copytree(package, where / "boardrules",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in BRIDGE_FILES:
        text = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:{name}"],
                              capture_output=True, text=True, check=True).stdout
        (where / name).write_text(text, encoding="utf-8")
    return where


def spread(values: Sequence[float], digits: int = 2) -> str:
    """The median with the lowest and highest: ``"1.23 (1.20-1.31)"``."""
    return (f"{statistics.median(values):.{digits}f} "
            f"({min(values):.{digits}f}-{max(values):.{digits}f})")


def table(header: list[str], rows: list[list[str]]) -> str:
    """A reStructuredText simple table."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    rule = "  ".join("=" * w for w in widths)
    lines = [rule, "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)), rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join([*lines, rule])


def measure(games: dict[str, int], runs: int, before: str | None) -> str:
    """The table: per game, the CPU seconds of each run (and of REV's bridge beside it)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        old = package_at(before, Path(tmp)) if before else None
        for game_id, sims in games.items():
            now: list[dict[str, float]] = []
            then: list[dict[str, float]] = []
            for run in range(runs):
                print(f"{game_id}: run {run + 1} of {runs}", file=sys.stderr, flush=True)
                if old is not None:
                    then.append(run_child(game_id, sims, old))
                now.append(run_child(game_id, sims, None))
            cpu = [r["cpu"] for r in now]
            applied = int(now[0]["applied"])
            row = [game_id, str(sims), f"{applied:,}"]
            if old is not None:
                ratios = [t["cpu"] / n["cpu"] for t, n in zip(then, now, strict=True)]
                row += [spread([r["cpu"] for r in then]), spread(cpu),
                        spread(ratios, 1).replace(" ", "x ", 1)]
            else:
                row.append(spread(cpu))
            row.append(spread([1e6 * c / applied for c in cpu], 0))
            rows.append(row)
            print("  ".join(row), file=sys.stderr, flush=True)  # each game as it is done
    header = ["game", "sims", "apply_action calls"]
    header += ([f"CPU s, {before}'s bridge", "CPU s, this bridge", "ratio"] if before
               else ["CPU s"])
    return table([*header, "CPU us per apply_action"], rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per game (default 3)")
    parser.add_argument("--before", metavar="REV",
                        help="also time the bridge of git revision REV, interleaved")
    parser.add_argument("--only", choices=sorted(GAMES), action="append",
                        help="this game only (repeatable)")
    parser.add_argument("--child", nargs=2, metavar=("GAME", "SIMS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    games = {g: n for g, n in GAMES.items() if not args.only or g in args.only}
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_tables import machine_summary

    try:
        load = os.getloadavg()[0]
    except OSError:  # a platform without a load average
        load = None
    print(measure(games, args.runs, args.before))
    print()
    print(machine_summary(load, "pyspiel.random_sim_test(serialize=True), CPU seconds of "
                                "the child process, median (lowest-highest) over the runs"))


if __name__ == "__main__":
    main()
