"""``boardrules bench`` and :mod:`boardrules.bench`: every asked game gets its rows with
positive rates, each naming its clock, the JSON has its schema, a busy machine is flagged,
bad input is refused; and ``benchmarks/interleave.py``, the side-by-side helper of the
benchmark scripts, alternates its sides and takes ratios round by round.

Every run here is tiny (``--seconds 0.01``): these tests check what is measured and
printed, not how fast anything is.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from boardrules import bench as lib
from boardrules.cli import bench as cli
from boardrules.cli import build_parser, main

TINY = "0.01"
ENGINE = ["playouts (C core)", "playouts (Python)", "legal moves", "apply+undo"]
ROW_KEYS = {"game", "players", "workload", "unit", "count", "cpu_seconds", "wall_seconds",
            "runs", "batch", "games", "note", "rate", "games_per_s", "clock"}
LOAD_KEYS = {"before", "after", "cores", "own", "per_core", "other_load", "busy", "warning"}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["bench", "--seconds", TINY, "--json", *argv]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_json_has_a_row_per_workload_of_every_asked_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--game", "connect_four", "--game", "pig")
    rows = report["rows"]
    assert [(r["game"], r["workload"]) for r in rows] == [
        (game, workload) for game in ("connect_four", "pig")
        for workload in [*ENGINE, "MCTS (1 thread)"]]
    for row in rows:
        assert set(row) == ROW_KEYS
        assert row["count"] > 0 and row["cpu_seconds"] > 0 and row["runs"] >= 1
        assert row["rate"] == pytest.approx(row["count"] / row["cpu_seconds"])
        assert row["rate"] > 0 and row["players"] == 2
        if row["workload"].startswith("playouts"):
            assert row["games"] >= row["runs"] and row["games_per_s"] > 0
        else:
            assert row["games"] is None and row["games_per_s"] is None


def test_json_schema_machine_load_and_budget(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--game", "tic_tac_toe", "--no-search")
    assert set(report) == {"machine", "seconds_per_row", "clock", "load", "rows"}
    assert report["seconds_per_row"] == pytest.approx(0.01)
    assert report["clock"] == "process_time"
    assert {"platform", "cpu", "cores", "python", "boardrules"} <= set(report["machine"])
    load = report["load"]
    assert set(load) == LOAD_KEYS
    assert load["cores"] >= 1 and load["own"] == 1.0 and load["per_core"] == 0.5
    assert isinstance(load["before"], float) and isinstance(load["after"], float)
    assert load["busy"] == (load["warning"] is not None)
    assert [r["workload"] for r in report["rows"]] == ENGINE  # --no-search: no search row


def test_default_games_are_the_four_and_connect_four(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--no-search")
    games = list(dict.fromkeys(r["game"] for r in report["rows"]))
    assert games == ["armadora", "rome_and_carthage", "armada", "albion", "connect_four"]
    assert all(r["rate"] > 0 for r in report["rows"])


def test_hidden_information_games_are_searched_with_ismcts(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--game", "armadora", "--game", "albion")
    search = {r["game"]: r for r in report["rows"] if r["unit"] == "simulations"}
    assert search["armadora"]["workload"] == "ISMCTS (1 thread)"
    assert search["albion"]["workload"] == "MCTS (1 thread)"
    assert "positions after 40+ actions" in search["albion"]["note"]
    assert all(r["rate"] > 0 for r in search.values())


def test_a_game_asked_twice_is_measured_once(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_json(capsys, "--game", "pig", "--game", "pig", "--no-search")
    assert [r["game"] for r in report["rows"]] == ["pig"] * len(ENGINE)


def test_plain_table_has_a_line_per_row_with_aligned_columns(
        capsys: pytest.CaptureFixture[str]) -> None:
    # capsys is no terminal: plain text, not rich
    assert main(["bench", "--seconds", TINY, "--game", "pig", "--game", "tic_tac_toe"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("boardrules ") and "CPU s a row" in lines[2]
    assert lines[3] == ""
    header, rule, *body = lines[4:]
    assert header.split()[:2] == ["game", "workload"] and set(rule) <= {"-", " "}
    assert "note" not in header  # the notes are in the JSON and the rich table
    assert len(body) == 10
    rate_end = header.index("rate/CPU s") + len("rate/CPU s")  # right-aligned under it
    for line in body:
        game, players = line.split()[:2]
        assert game in ("pig", "tic_tac_toe") and players == "2p"
        assert float(line[:rate_end].split()[-1].replace(",", "")) > 0
        assert line[rate_end:rate_end + 2] == "  "
    assert max(len(line) for line in lines[3:]) <= 88  # fits a docs page, as shown there


def test_every_rate_says_it_is_per_cpu_second(capsys: pytest.CaptureFixture[str]) -> None:
    """U9: the same workload read 19,135 games/s here and 13,910 under pytest-benchmark, and
    nothing said that one is CPU time and the other wall time.  Every rate column's title,
    the summary and every JSON row name the clock."""
    assert main(["bench", "--seconds", TINY, "--game", "pig", "--no-search"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[4].split("  ")
    assert "rate/CPU s" in lines[4] and "games/CPU s" in lines[4]
    assert "games/s" not in header and "rate" not in header  # no rate without its clock
    assert "rates per CPU second" in lines[2] and "not wall time" in lines[2]
    report = run_json(capsys, "--game", "pig", "--no-search")
    assert report["clock"] == "process_time"
    assert {row["clock"] for row in report["rows"]} == {"cpu"}


def test_rich_table_shows_every_row(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "220")
    report = lib.run_bench(["pig"], seconds=0.01, loadavg=None)
    cli.print_rich(report)
    out = capsys.readouterr().out
    assert "boardrules bench" in out
    for row in report.rows:
        assert row.workload in out and f"{row.rate:,.0f}" in out
    assert "no load average" in out  # loadavg=None: none read


@pytest.mark.parametrize("names", [["nope"], ["pig", "Armadora"], ["pig", "", "x y"]])
def test_unknown_games_exit_2_naming_them(capsys: pytest.CaptureFixture[str],
                                          names: list[str]) -> None:
    argv = ["bench", "--seconds", TINY]
    for name in names:
        argv += ["--game", name]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing measured
    assert captured.err.startswith("boardrules bench: error: unknown game")
    for name in names:
        if name != "pig":
            assert repr(name) in captured.err
    assert "'pig'" not in captured.err and "albion, armada, armadora" in captured.err


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "inf", "abc", "601"])
def test_bad_seconds_exit_2(capsys: pytest.CaptureFixture[str], seconds: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bench", "--game", "pig", "--seconds", seconds])
    assert exc.value.code == 2
    assert "--seconds" in capsys.readouterr().err


@pytest.mark.parametrize("seconds", [0, -0.5, math.nan, math.inf, True, "1", 601])
def test_library_refuses_bad_seconds_before_running(seconds: Any) -> None:
    calls: list[str] = []
    with pytest.raises(ValueError, match="seconds must be"):
        lib.run_bench(["pig"], seconds=seconds, progress=lambda g, w: calls.append(w))
    assert calls == []


def test_library_refuses_unknown_and_empty_game_lists() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'chess'"):
        lib.run_bench(["pig", "chess"], seconds=0.01)
    with pytest.raises(ValueError, match="no game"):
        lib.run_bench([], seconds=0.01)


# --- the load check ------------------------------------------------------------------------


@pytest.mark.parametrize(("before", "after", "cores", "busy"), [
    (0.2, 1.1, 2, False),   # the benchmark's own thread only
    (0.9, 1.9, 2, False),   # 0.9 of others on 2 cores: under 0.5 a core
    (1.0, 2.0, 2, False),   # at the threshold: not above it
    (1.5, 1.2, 2, True),    # busy before it started
    (0.1, 3.5, 2, True),    # 2.5 beyond its own thread by the end
    (3.5, 4.0, 8, False),   # many cores: 3.5 of others is under 0.5 a core
    (4.5, 4.0, 8, True),
])
def test_load_check_flags_load_beyond_the_benchmarks_own(
        before: float, after: float, cores: int, busy: bool) -> None:
    check = lib.LoadCheck(before, after, cores)
    assert check.busy is busy
    warning = check.warning()
    if busy:
        assert warning is not None and "busy" in warning and f"{cores} cores" in warning
        assert f"{before:.2f} before" in warning and f"{after:.2f} after" in warning
    else:
        assert warning is None


def test_load_check_without_a_load_average_never_warns() -> None:
    check = lib.LoadCheck(None, None, 2)
    assert check.other_load is None and not check.busy and check.warning() is None


def fake_loadavg(*readings: float) -> lib.LoadAverage:
    """A load average that reads ``readings`` in turn (the first before, the next after)."""
    values = iter(readings)

    def loadavg() -> tuple[float, float, float]:
        value = next(values)
        return (value, value, value)
    return loadavg


def test_run_bench_reads_the_load_before_and_after() -> None:
    report = lib.run_bench(["pig"], seconds=0.01, search=False,
                           loadavg=fake_loadavg(0.25, 3.75), cores=2)
    assert (report.load.before, report.load.after) == (0.25, 3.75)
    assert report.load.busy and report.load.other_load == pytest.approx(2.75)
    assert report.as_dict()["load"]["warning"] == report.load.warning()
    quiet = lib.run_bench(["pig"], seconds=0.01, search=False,
                          loadavg=fake_loadavg(0.25, 1.0), cores=2)
    assert not quiet.load.busy and quiet.as_dict()["load"]["warning"] is None


def test_run_bench_without_a_load_average_on_the_platform() -> None:
    def no_loadavg() -> tuple[float, float, float]:
        raise OSError("no load average here")

    report = lib.run_bench(["pig"], seconds=0.01, search=False, loadavg=no_loadavg)
    assert report.load.before is None and report.load.warning() is None


def bench_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["bench", "--seconds", TINY, "--no-search", *argv])


def test_cli_warns_on_stderr_when_the_machine_is_busy(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.bench(bench_args("--game", "pig", "--json"),
                     loadavg=fake_loadavg(5.0, 6.0)) == 0
    captured = capsys.readouterr()
    assert captured.err.startswith("boardrules bench: warning: the machine is busy")
    assert json.loads(captured.out)["load"]["before"] == 5.0  # the load in the JSON too
    assert cli.bench(bench_args("--game", "pig"), loadavg=fake_loadavg(0.0, 1.0)) == 0
    assert "warning" not in capsys.readouterr().err


# --- the timing ----------------------------------------------------------------------------


def test_time_workload_times_only_the_jobs_in_cpu_time() -> None:
    # A fake clock: each unit of work costs 1 microsecond; making a job costs nothing.
    now = [0.0]
    made: list[int] = []

    def make(batch: int) -> lib.Job:
        made.append(batch)

        def job() -> int:
            now[0] += batch * 1e-6
            return batch
        return job

    timing = lib.time_workload(make, 0.02, clock=lambda: now[0])
    assert timing.cpu_seconds >= 0.02
    assert timing.count / timing.cpu_seconds == pytest.approx(1e6)
    # calibrated: a batch of about CALIBRATION_SHARE of the budget, then timed runs of it
    assert timing.batch * 1e-6 >= 0.02 * lib.CALIBRATION_SHARE
    assert made[-timing.runs:] == [timing.batch] * timing.runs and made[0] == 1


def test_time_workload_stops_on_wall_time_when_cpu_time_does_not_come() -> None:
    # A clock that never moves: CPU time never reaches the budget; wall time ends the row.
    timing = lib.time_workload(lambda n: lambda: n, 0.01, clock=lambda: 0.0, limit=4)
    assert timing.runs >= 1 and timing.cpu_seconds == 0.0
    assert timing.wall_seconds >= lib.WALL_FACTOR * 0.01 or timing.runs > 1


def test_shared_workload_code_is_the_benchmarks_code() -> None:
    # benchmarks/ imports these (no copy there to drift): the same seeded positions.
    import boardrules

    game = boardrules.load("albion")
    first = lib.seeded_positions(game, 2, 7, 40)
    again = lib.seeded_positions(game, 2, 7, 40)
    assert [s.state_bytes() for s in first] == [s.state_bytes() for s in again]
    assert all(len(s.history) > 40 and len(s.legal_moves()) > 1 for s in first)
    assert lib.python_api_playouts(boardrules.load("tic_tac_toe"), 3) == \
        lib.python_api_playouts(boardrules.load("tic_tac_toe"), 3) > 0


# --- benchmarks/interleave.py: the side-by-side helper of every comparing script ----------

INTERLEAVE = Path(__file__).resolve().parent.parent / "benchmarks" / "interleave.py"


def load_interleave() -> ModuleType:
    """``benchmarks/`` is no package: the helper is loaded from its path and registered as
    a module (its dataclasses need that), once."""
    name = "boardrules_benchmarks_interleave"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, INTERLEAVE)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def scripted_side(name: str, log: list[str], rates: list[float], interleave: ModuleType
                  ) -> Callable[[], Any]:
    """A side that logs each run and returns the next scripted rate (count per CPU
    second; its wall time twice its CPU time): no clock is read, nothing is timed."""
    left = iter(rates)

    def run() -> Any:
        log.append(name)
        return interleave.Rate(round(next(left) * 10), cpu_seconds=10.0, wall_seconds=20.0)
    return run


def test_interleaved_rounds_alternate_the_sides_after_one_warm_up_each() -> None:
    interleave = load_interleave()
    log: list[str] = []
    rounds = interleave.interleaved(
        {"a": scripted_side("a", log, [0, 1, 2, 3], interleave),
         "b": scripted_side("b", log, [0, 1, 2, 3], interleave)}, rounds=3)
    assert log == ["a", "b"] + ["a", "b"] * 3  # the warm-ups, then A, B, A, B, A, B
    assert rounds.rates("a") == [1.0, 2.0, 3.0]  # the warm-up's figure is dropped
    assert rounds.rates("a", "wall") == [0.5, 1.0, 1.5]  # the wall clock on demand


def test_a_ratio_is_taken_round_by_round_with_its_lowest_and_highest_round() -> None:
    interleave = load_interleave()
    log: list[str] = []
    # round ratios 2, 4, 3: median 3; the ratio of the median rates would be 30/9
    rounds = interleave.interleaved(
        {"ours": scripted_side("ours", log, [10, 40, 30], interleave),
         "theirs": scripted_side("theirs", log, [5, 10, 10], interleave)},
        rounds=3, warmup=False)
    ratio = rounds.ratio("ours", "theirs")
    assert (ratio.low, ratio.median, ratio.high) == (2.0, 3.0, 4.0)
    assert str(ratio) == "3.00x (2.00-4.00)"
    assert rounds.rate("ours").rate_text() == "30 (10-40)"


def test_interleaving_refuses_no_rounds_and_no_sides() -> None:
    interleave = load_interleave()
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        interleave.interleaved({"a": lambda: None}, rounds=0)
    with pytest.raises(ValueError, match="nothing to time"):
        interleave.interleaved({}, rounds=1)


def test_alternate_hands_back_what_each_side_returned_in_order() -> None:
    # compare_versions.py: each side is a worker process returning its whole table
    interleave = load_interleave()
    calls = iter(range(100))
    runs = interleave.alternate({"ref": lambda: ("ref", next(calls)),
                                 "now": lambda: ("now", next(calls))}, 2, warmup=False)
    assert runs == {"ref": [("ref", 0), ("ref", 2)], "now": [("now", 1), ("now", 3)]}


def test_cpu_timed_counts_what_the_work_returns() -> None:
    interleave = load_interleave()
    rate = interleave.cpu_timed(lambda: sum(range(1000)) and 7)
    assert rate.count == 7 and rate.cpu_seconds >= 0 and rate.wall_seconds >= 0
