"""Ctrl-C of a real match in a real process: SIGINT to its whole process group (as a
terminal sends it, to the workers too) while the bots are busy.  The match returns the
finished games at once, with no traceback; ``boardrules match`` prints them and exits
with status 130."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from process_helpers import default_sigint

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg"), reason="POSIX process groups")

#: A match of seed 0 whose game 0 is quick and whose other games take 30 s a move: when
#: the first game has finished, every worker is in the middle of a game it would take
#: minutes to finish.
SLOW_MATCH = textwrap.dedent("""
    import json, signal, sys, time
    from boardrules.arena import derive_seed, play_match

    QUICK = {derive_seed(0, 0, "seat", s) for s in range(2)}

    class SlowAfterGameZero:
        def __init__(self, seed):
            self.pause = 0.0 if seed in QUICK else 30.0

        def choose(self, state):
            time.sleep(self.pause)
            return state.legal_moves()[0]

    def report(progress):
        print("done", progress.done, flush=True)

    if __name__ == "__main__":
        result = play_match("tic_tac_toe", [SlowAfterGameZero, SlowAfterGameZero], games=8,
                            seed=0, processes=int(sys.argv[1]), progress=report,
                            records_dir=sys.argv[2])
        print("result", result.to_json(indent=None), flush=True)
""")


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=default_sigint)


def _ctrl_c(child: subprocess.Popen[str]) -> float:
    """Ctrl-C to the child's whole process group, as a terminal sends it; the time."""
    os.killpg(child.pid, signal.SIGINT)
    return time.monotonic()


def _stop(child: subprocess.Popen[str]) -> None:
    if child.poll() is None:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()


@pytest.mark.parametrize("processes", [1, 2])
def test_ctrl_c_returns_the_finished_games_at_once(processes: int, tmp_path: Path) -> None:
    script = tmp_path / "slow_match.py"
    script.write_text(SLOW_MATCH, encoding="utf-8")
    records = tmp_path / "records"
    child = _start([sys.executable, str(script), str(processes), str(records)], tmp_path)
    try:
        assert child.stdout is not None and child.stderr is not None
        for line in child.stdout:  # the first game ends at once, the next ones never
            if line.strip() == "done 1":
                break
        time.sleep(0.3)  # the workers are well into their 30-second moves
        sent = _ctrl_c(child)
        line = child.stdout.readline()
        returned = time.monotonic() - sent
        assert line.startswith("result "), line + child.stderr.read()
        assert returned < 1.0, f"play_match returned {returned:.2f} s after Ctrl-C"
        result = json.loads(line.removeprefix("result "))
        assert child.wait(timeout=5) == 0
        err = child.stderr.read()
    finally:
        _stop(child)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert result["interrupted"] is True and result["games"] == 1
    assert [r["index"] for r in result["records"]] == [0]
    assert [p.name for p in records.iterdir()] == ["game-00001.json"]


def test_ctrl_c_of_the_match_command_prints_the_finished_games_and_exits_130(
        tmp_path: Path) -> None:
    records = tmp_path / "records"
    child = _start([sys.executable, "-m", "boardrules", "match", "pig", "mcts:iterations=200",
                    "random", "--games", "100000", "--processes", "2", "--json",
                    "--records", str(records)], tmp_path)
    try:
        deadline = time.monotonic() + 60
        while len(list(records.glob("game-*.json"))) < 2:
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        sent = _ctrl_c(child)
        out, err = child.communicate(timeout=10)
        exited = time.monotonic() - sent
    finally:
        _stop(child)
    assert child.returncode == 130, err
    assert exited < 3.0, f"the command took {exited:.2f} s to exit after Ctrl-C"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    result = json.loads(out)  # standard output is the result alone
    assert result["interrupted"] is True and result["games"] >= 2
    assert result["games"] == len(result["records"]) < 100000
    # the records written are those of the finished games, no more, no fewer
    assert sorted(p.name for p in records.iterdir()) == [
        f"game-{r['index'] + 1:05d}.json" for r in result["records"]]
    assert err.splitlines()[-1] == (f"boardrules match: interrupted after {result['games']} "
                                    f"of 100000 games")
