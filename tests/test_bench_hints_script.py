"""The pure parts of ``benchmarks/run_hints.py`` (issue 34's measurements): what a resumed
run still has to measure, the separation table drawn from a small results file, the
targets' verdicts and the bot specs of the matches.  Nothing here searches or times."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))

import pair_matches as pm  # noqa: E402
import run_hints  # noqa: E402

from boardrules.arena import parse_bot  # noqa: E402

ARMADA = {"players": 4, "max_rounds": 3}


def _line(position: int, *, separated: bool, sure: bool, cpu: float, tied: int = 0,
          stopped: str | None = "sure", visits: int = 1000,
          options: dict[str, Any] = ARMADA) -> dict[str, Any]:
    return {"game": "armada", "options": options, "position": position, "seed": 1,
            "moves": 10, "separated": separated, "tied": tied, "sure": sure,
            "stopped": stopped, "iterations": 2000, "cpu_seconds": cpu,
            "search_cpu_seconds": cpu, "best_visits": visits, "confidence": 0.95}


def _write(path: Path, lines: list[dict[str, Any]], cut: str = "") -> None:
    path.write_text("".join(json.dumps(d) + "\n" for d in lines) + cut, encoding="utf-8")


def test_a_resumed_run_measures_only_the_positions_missing(tmp_path: Path) -> None:
    path = tmp_path / "hints-separation.jsonl"
    _write(path, [_line(0, separated=True, sure=True, cpu=0.5),
                  _line(2, separated=False, sure=False, cpu=1.0)],
           cut='{"game": "armada", "opti')  # the line Ctrl-C cut short
    done = run_hints.read_lines(path)
    assert [d["position"] for d in done] == [0, 2]
    assert run_hints.pending_positions(done, "armada", ARMADA, 5) == [1, 3, 4]
    # another option set of the game has measured nothing yet
    other = {"players": 2, "max_rounds": 3, "recruitment": True}
    assert run_hints.pending_positions(done, "armada", other, 2) == [0, 1]
    assert run_hints.read_lines(tmp_path / "missing.jsonl") == []


def test_append_line_adds_one_line_a_position(tmp_path: Path) -> None:
    path = tmp_path / "results" / "hints-separation.jsonl"
    run_hints.append_line(path, _line(0, separated=True, sure=True, cpu=0.5))
    run_hints.append_line(path, _line(1, separated=False, sure=True, cpu=0.7, tied=2))
    assert [d["position"] for d in run_hints.read_lines(path)] == [0, 1]
    assert run_hints.pending_positions(run_hints.read_lines(path), "armada", ARMADA, 3) == [2]


def test_the_separation_table_counts_each_set_and_the_total() -> None:
    lines = [_line(0, separated=True, sure=True, cpu=0.2, visits=900),
             _line(1, separated=True, sure=True, cpu=1.1, visits=1100),
             _line(2, separated=False, sure=True, cpu=0.4, tied=1, stopped="cpu"),
             _line(3, separated=False, sure=False, cpu=0.9, stopped="cpu"),
             _line(4, separated=True, sure=True, cpu=0.3)]
    row = run_hints.separation_row("armada", "players=4, max_rounds=3", lines)
    assert row == ["armada", "players=4, max_rounds=3", "3 of 5", "4 of 5", "1",
                   "cpu 2, sure 3", "0.40", "1.10", "1,000"]
    table = run_hints.separation_table(lines, positions=5)
    assert "| 3 of 5 " in table and "60% separated (23-88%)" in table
    assert "target 80%: not met" in table


def test_the_separation_table_keeps_only_the_positions_asked_for() -> None:
    lines = [_line(i, separated=i < 4, sure=True, cpu=0.1) for i in range(5)]
    assert "4 of 4" in run_hints.separation_table(lines, positions=4)
    assert "4 of 5" in run_hints.separation_table(lines, positions=5)


def test_a_target_is_met_only_by_its_whole_interval() -> None:
    assert pm.verdict(0.81, 0.9, 0.8) == "met"
    assert pm.verdict(0.7, 0.85, 0.8) == "met by the estimate only"
    assert pm.verdict(0.5, 0.6, 0.8) == "not met"


def test_legacy_spec_writes_0_6_0_out_in_full() -> None:
    spec = run_hints.legacy_spec("armada", 0.2)
    assert spec == ("mcts:iterations=30000,until_sure=false,root_selection=uct,"
                    "rollout_policy=random,exploration=0.005,rollout_limit=0,cpu_limit=0.2")
    assert run_hints.legacy_spec("armadora", 0.2).startswith("ismcts:iterations=10000,")


def test_the_ladder_steps_are_1x_4x_16x_each_against_the_one_below() -> None:
    """The default is the "normal" level (its stop once sure) with the step's CPU limit;
    an iteration cap cannot go with a level, so it asks for the stop itself."""
    level = "mcts:level=normal,cpu_limit="
    assert run_hints.ladder_pairs("albion", 0.05, None) == [
        (level + "0.2", level + "0.05"), (level + "0.8", level + "0.2")]
    assert run_hints.ladder_pairs("armadora", 0.05, 500) == [
        ("ismcts:iterations=2000,until_sure=true", "ismcts:iterations=500,until_sure=true"),
        ("ismcts:iterations=8000,until_sure=true", "ismcts:iterations=2000,until_sure=true")]


def test_a_reduced_match_never_shares_the_full_match_file() -> None:
    bots = ["mcts:level=normal,cpu_limit=0.2", "greedy"]
    full = run_hints.match_path("previous", "armada", bots, 200)
    reduced = run_hints.match_path("previous", "armada", bots, 4)
    assert full != reduced and full.name.startswith("hints-previous-armada-")
    assert ":" not in full.name and "=" not in full.name


@pytest.mark.parametrize("game_id", run_hints.GAMES)
def test_every_option_set_loads_and_mid_game_is_defined(game_id: str) -> None:
    import boardrules

    for options in run_hints.OPTION_SETS[game_id]:
        game = boardrules.load(game_id, **options)
        assert game.num_players == options["players"]
    assert run_hints.MID_GAME[game_id] > 0


def test_the_arguments_refuse_an_unknown_part() -> None:
    args = run_hints.arguments(["--only", "separation,ladder", "--games", "4"])
    assert args.parts == ["separation", "ladder"] and args.games == 4
    assert run_hints.games_a_match("openspiel", args) == 4
    defaults = run_hints.arguments([])
    assert run_hints.games_a_match("openspiel", defaults) == 100  # the counts
    assert run_hints.games_a_match("previous", defaults) == 200
    with pytest.raises(SystemExit):
        run_hints.arguments(["--only", "everything"])


def test_the_match_specs_parse_as_arena_bots() -> None:
    """The specs are the arena's: a spec it refuses would stop the run at its first
    match, after the separation part's hour."""
    for argv in ([], ["--base-iterations", "100"]):
        args = run_hints.arguments(argv)
        for part in ("ladder", "previous", "openspiel"):
            for _, bots, _, _ in run_hints.match_plan(part, args, run_hints.GAMES):
                for bot in bots:
                    if isinstance(bot, str):  # OpenSpiel's is a factory
                        parse_bot(bot).build(seed=1)


def test_the_default_spec_searches_as_suggest_does() -> None:
    """A level's bot with a CPU limit keeps the level's stop once sure; 0.6.0's does
    not stop early."""
    import boardrules
    from boardrules.search import suggest

    state = boardrules.load("connect_four").new_game(seed=3)
    ours = parse_bot(run_hints.default_spec("connect_four", "cpu_limit=0.05"))
    hint = suggest(state, seed=1, **dict(ours.options))  # type: ignore[arg-type]
    assert hint.stats["until_sure"] and hint.stats["level"] == "normal"
    legacy = parse_bot(run_hints.legacy_spec("albion", 5.0))
    options = {k: v for k, v in legacy.options}
    assert options["until_sure"] == "false" and options["iterations"] == 30_000


def test_column_heights_reads_a_world_without_history() -> None:
    """OpenSpiel's bot follows the game by the columns that grew: the arena's worlds
    carry no history."""
    import boardrules

    game = boardrules.load("connect_four")
    state = game.new_game(seed=1)
    for action in (3, 3, 2, 6, 3):
        state.apply(game.move(action))
    world = state.determinize(0, 5)
    assert world.history == []
    assert run_hints.column_heights(world) == [0, 0, 1, 3, 0, 0, 1]


def test_fresh_drops_only_the_games_asked_for(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "hints-separation.jsonl"
    monkeypatch.setattr(run_hints, "separation_path", lambda: path)
    albion = {**_line(0, separated=True, sure=True, cpu=0.1), "game": "albion",
              "options": {"players": 2, "max_rounds": 6}}
    _write(path, [_line(0, separated=True, sure=True, cpu=0.1), albion])
    run_hints.forget("separation", run_hints.arguments([]), ["armada"])
    assert [d["game"] for d in run_hints.read_lines(path)] == ["albion"]
    assert run_hints.pending_positions(run_hints.read_lines(path), "armada", ARMADA, 1) == [0]


def test_a_match_row_shows_forfeits_and_the_verdict(tmp_path: Path) -> None:
    """A bot that raises loses by forfeit: the row must say so, not pass for a weak bot."""
    from boardrules.tournament import round_robin

    def broken(seed: int) -> Any:
        class Broken:
            def choose(self, state: Any) -> Any:
                raise RuntimeError("no search")
        return Broken()

    result = round_robin("tic_tac_toe", ["random", broken], games=4, seed=1, processes=1,
                         results=tmp_path / "match.jsonl", bootstrap=0)
    row = run_hints.match_row(["tic_tac_toe"], result, 0.9)
    assert row[1:4] == ["4", "4-0-0", "100.0%"]
    assert row[-2:] == ["0-4", "90%: met by the estimate only"]


def test_cpu_logged_bots_log_each_move_and_the_cell_reads_them(tmp_path: Path) -> None:
    """Against OpenSpiel "the same CPU a move" is checked from this log: a line a move,
    under the bot's label, read back as each bot's mean."""
    from boardrules.tournament import round_robin

    log = tmp_path / "match.cpu.jsonl"
    bots = [run_hints.cpu_logged(name, lambda seed: parse_bot("random").build(seed), log)
            for name in ("first", "second")]
    result = round_robin("tic_tac_toe", bots, games=2, seed=1, processes=1, bootstrap=0)
    lines = run_hints.read_lines(log)
    assert len(lines) == sum(s.moves for s in result.standings)
    assert {d["bot"] for d in lines} == {"first", "second"}
    cell = run_hints.cpu_cell(log, ["first", "second"]).split(" / ")
    assert len(cell) == 2 and all(float(c) >= 0 for c in cell)
    assert run_hints.cpu_cell(log, ["first", "nobody"]).endswith(" / -")


def test_preflight_stops_a_run_whose_bot_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before hours of matches: a bot that raises stops the run, instead of losing every
    game by forfeit."""
    class Broken:
        def __init__(self, seed: int) -> None:
            pass

        def choose(self, state: Any) -> Any:
            raise TypeError("run_mcts() got an unexpected keyword argument")

    plan = [("tic_tac_toe", ["random", Broken], 0.9, ["tic_tac_toe"])]
    monkeypatch.setattr(run_hints, "match_plan", lambda part, args, games: plan)
    with pytest.raises(TypeError, match="unexpected keyword"):
        run_hints.preflight("previous", run_hints.arguments([]), ["tic_tac_toe"])
    plan[0][1][1] = "greedy"  # a sound field passes
    run_hints.preflight("previous", run_hints.arguments([]), ["tic_tac_toe"])
