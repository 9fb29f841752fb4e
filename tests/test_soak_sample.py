"""The soak (``benchmarks/soak.py``) on a small sample: every game and option set, random
and bot games, every invariant and round trip checked, no failure.  The full soak (10,000
games per option set) is no CI test: its figures are on the docs' Reliability page."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

import boardrules

SOAK = Path(__file__).resolve().parent.parent / "benchmarks" / "soak.py"
NAME = "boardrules_benchmarks_soak"


def load_soak() -> ModuleType:
    """``benchmarks/`` is no package: the script is loaded from its path (whatever the
    working directory), once, and registered as a module (its dataclasses need that)."""
    if NAME in sys.modules:
        return sys.modules[NAME]
    spec = importlib.util.spec_from_file_location(NAME, SOAK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[NAME] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict]:
    soak = load_soak()
    out = tmp_path_factory.mktemp("soak") / "soak.json"
    status = soak.main(["--games", "20", "--bot-games", "2", "--processes", "0",
                        "--json", str(out)])
    return status, json.loads(out.read_text(encoding="utf-8"))


def test_soak_sample_finds_no_failure(sample: tuple[int, dict]) -> None:
    status, report = sample
    assert report["failures"] == []
    assert status == 0


def test_soak_sample_covers_every_game_and_option_set(sample: tuple[int, dict]) -> None:
    _, report = sample
    random_sets = {(t["game_id"], t["option_index"]) for t in report["tasks"]
                   if t["kind"] == "random"}
    bot_games = {t["game_id"] for t in report["tasks"] if t["kind"] == "bots"}
    expected = {(game_id, k) for game_id in boardrules.available_games()
                for k in range(len(type(boardrules.load(game_id)).example_options))}
    assert random_sets == expected
    assert bot_games == set(boardrules.available_games())


def test_soak_sample_counts_what_it_checked(sample: tuple[int, dict]) -> None:
    _, report = sample
    for task in report["tasks"]:
        assert task["games"] == (20 if task["kind"] == "random" else 2), task
        # every game has moves, an invariant check after each, and at least the end's
        # three round trips and the undo-and-replay one
        assert task["moves"] >= task["games"], task
        assert task["invariant_checks"] > task["moves"], task
        assert task["round_trips"] >= 4 * task["games"], task


def test_soak_failure_names_the_command_that_replays_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    soak = load_soak()

    def broken(state: object, where: object) -> int:
        raise soak.SoakFailure("invariant 'x': counted 1, expected 2")

    monkeypatch.setattr(soak, "check_invariants", broken)
    out = tmp_path / "soak.json"
    status = soak.main(["--games", "1", "--bot-games", "0", "--only", "pig", "--start", "3",
                        "--processes", "0", "--seed", "7", "--json", str(out)])
    failures = json.loads(out.read_text(encoding="utf-8"))["failures"]
    assert status == 1
    assert [f["index"] for f in failures] == [3]
    assert failures[0]["error"] == "SoakFailure: invariant 'x': counted 1, expected 2"
    assert failures[0]["replay"] == ("python benchmarks/soak.py --only pig --options 0 "
                                     "--start 3 --games 1 --bot-games 0 --seed 7 "
                                     "--processes 0")


def test_soak_merge_makes_one_table_of_a_soak_run_in_parts(tmp_path: Path) -> None:
    soak = load_soak()
    whole, log, merged = tmp_path / "whole.rst", tmp_path / "parts.log", tmp_path / "m.rst"
    common = ["--games", "2", "--bot-games", "1", "--processes", "0", "--seed", "3"]
    assert soak.main([*common, "--only", "pig", "--only", "tic_tac_toe", "--rst",
                      str(whole)]) == 0
    for game_id in ("tic_tac_toe", "pig"):
        assert soak.main([*common, "--only", game_id, "--log", str(log)]) == 0
    assert soak.main(["--merge", str(log), "--rst", str(merged)]) == 0

    def counts(table: Path) -> list[list[str]]:
        # the counting columns (game to failures) of every row; times and memory differ
        rows = [line.split("|")[1:8] for line in table.read_text().splitlines()
                if line.startswith("|")]
        return [[cell.strip() for cell in row] for row in rows]

    assert counts(merged) == counts(whole)
    assert len(counts(merged)) == 1 + 4 + 1  # header, two tasks per game, total
