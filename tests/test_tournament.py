"""Tournaments (``boardrules.tournament``): tables, seeds, results files and resuming,
forfeits, ratings, the CLI (a real Ctrl-C to a real process, then the same command
resuming it)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from process_helpers import default_sigint

from boardrules import cli
from boardrules.api import Move, State
from boardrules.arena import derive_seed, play_match
from boardrules.tournament import (
    DroppedResultsWarning,
    TournamentProgress,
    TournamentResult,
    gauntlet,
    ladder,
    play_tournament,
    read_results,
    round_robin,
    tables_for,
)

FIVE_BOTS = ["random", "greedy", "mcts:iterations=10", "ismcts:iterations=10",
             "alphabeta:max_nodes=40"]
FOUR_GAMES = ["armadora", "rome_and_carthage", "armada", "albion"]


def untimed(result: TournamentResult) -> list[tuple[Any, ...]]:
    """Every game of a result but its times."""
    return [(g.table, g.index, g.bots, g.seed, g.seats, g.winners, g.places, g.points,
             g.length, g.moves, g.forfeit) for g in result.records]


def game_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


# --- tables ---

def test_round_robin_tables_are_every_combination() -> None:
    assert tables_for("round-robin", 4) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert tables_for("round-robin", 4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]


def test_a_gauntlet_puts_the_challenger_at_every_table() -> None:
    assert tables_for("gauntlet", 4) == [(0, 1), (0, 2), (0, 3)]
    assert tables_for("gauntlet", 4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3)]


def test_a_ladder_meets_rungs_at_most_reach_apart() -> None:
    assert tables_for("ladder", 5, reach=1) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert tables_for("ladder", 4, reach=2) == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]
    with pytest.raises(ValueError, match="unknown tournament"):
        tables_for("swiss", 4)


def test_each_table_plays_the_match_of_its_bots_with_its_derived_seed() -> None:
    bots = ["random", "greedy", "mcts:iterations=20"]
    result = round_robin("connect_four", bots, games=4, seed=9, processes=1, bootstrap=0)
    assert result.tables == ((0, 1), (0, 2), (1, 2))
    for t, table in enumerate(result.tables):
        match = play_match("connect_four", [bots[b] for b in table], games=4, processes=1,
                           seed=derive_seed(9, "table", *(bots[b] for b in table)))
        mine = [g for g in result.records if g.table == t]
        assert [(g.seed, g.points, g.moves, g.places) for g in mine] == [
            (r.seed, r.points, r.moves, r.places) for r in match.records]
        assert all(g.seats == tuple(table[b] for b in r.seats)
                   for g, r in zip(mine, match.records, strict=True))


def test_one_process_two_processes_give_the_same_tournament() -> None:
    kwargs: dict[str, Any] = {"games": 6, "seed": 3, "bootstrap": 50}
    one = round_robin("pig", ["random", "greedy", "mcts:iterations=20"], processes=1, **kwargs)
    two = round_robin("pig", ["random", "greedy", "mcts:iterations=20"], processes=2, **kwargs)
    assert untimed(one) == untimed(two)
    assert one.ratings == two.ratings


def test_a_three_player_game_seats_three_bots_per_table() -> None:
    result = round_robin("albion", ["random", "greedy", "mcts:iterations=5", "ismcts:iterations=5"],
                         games=1, options={"players": 3}, processes=2, bootstrap=20)
    assert result.tables == tuple(tables_for("round-robin", 4, 3))
    assert all(sorted(g.places)[0] == 1 and len(g.seats) == 3 for g in result.records)


def test_two_bots_share_a_four_player_table_in_alternate_seats() -> None:
    result = gauntlet("armadora", "greedy", ["random", "mcts:iterations=5"], games=2,
                      options={"players": 4}, processes=2, bootstrap=20)
    assert result.tables == ((0, 1), (0, 2))
    assert result.records[0].seats == (0, 1, 0, 1)
    assert result.records[1].seats == (1, 0, 1, 0)


def test_ratings_put_a_strong_bot_above_random_with_intervals() -> None:
    result = ladder("connect_four", ["random", "greedy", "mcts:iterations=200"], games=16,
                    reach=2, anchor="random", processes=2, bootstrap=200)
    assert result.ratings is not None
    by_bot = {r.bot: r for r in result.ratings.ratings}
    assert by_bot["random"].elo == 0.0
    assert by_bot["mcts:iterations=200"].elo > 150
    assert all(r.low <= r.elo <= r.high for r in by_bot.values())
    assert result.ranked()[-1].bot == "random"
    assert "points of row vs column" in result.table()


# --- results files and resuming ---

class StopAfter:
    """A progress callback that presses Ctrl-C once ``games`` games have finished."""

    def __init__(self, games: int) -> None:
        self.games = games

    def __call__(self, progress: TournamentProgress) -> None:
        if progress.done - progress.resumed >= self.games:
            raise KeyboardInterrupt


@pytest.mark.parametrize("game_id", FOUR_GAMES)
def test_an_interrupted_tournament_resumes_with_no_game_lost_or_played_twice(
        game_id: str, tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    kwargs: dict[str, Any] = {"games": 1, "seed": 4, "bootstrap": 20, "processes": 2}
    stopped = round_robin(game_id, FIVE_BOTS, results=results, progress=StopAfter(3),
                          **kwargs)
    assert stopped.interrupted and 3 <= len(stopped.records) < 10
    assert len(game_lines(results)) == len(stopped.records)
    resumed_from: list[int] = []
    again = round_robin(game_id, FIVE_BOTS, results=results,
                        progress=lambda p: resumed_from.append(p.resumed), **kwargs)
    assert again.complete and not again.interrupted
    assert set(resumed_from) == {len(stopped.records)}
    keys = [(line["table"], line["index"]) for line in game_lines(results)]
    assert len(keys) == len(set(keys)) == 10
    whole = round_robin(game_id, FIVE_BOTS, **kwargs)
    assert untimed(again) == untimed(whole)
    assert untimed(read_results(results, bootstrap=20)) == untimed(whole)


def test_a_line_cut_short_by_a_crash_is_dropped_and_its_game_played_again(
        tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    bots = ["random", "greedy", "mcts:iterations=10"]
    round_robin("tic_tac_toe", bots, games=2, results=results, processes=1,
                progress=StopAfter(4), bootstrap=10)
    whole_lines = results.read_text()
    results.write_text(whole_lines + '{"table": 2, "index": 0, "bo')  # the crash
    done = round_robin("tic_tac_toe", bots, games=2, results=results, processes=1,
                       bootstrap=10)
    assert done.complete and len(game_lines(results)) == 6
    assert results.read_text().startswith(whole_lines)


def test_a_results_file_of_another_tournament_is_refused(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    round_robin("tic_tac_toe", ["random", "greedy"], games=2, results=results,
                processes=1, bootstrap=10)
    before = results.read_bytes()
    with pytest.raises(ValueError, match=r"another tournament \(it differs in games"):
        round_robin("tic_tac_toe", ["random", "greedy"], games=3, results=results,
                    processes=1)
    with pytest.raises(ValueError, match="differs in game, bots, tables"):
        round_robin("pig", ["random", "greedy", "mcts:iterations=5"], games=2,
                    results=results, processes=1)
    assert results.read_bytes() == before
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "something else"}\n')
    with pytest.raises(ValueError, match="not a boardrules-tournament results file"):
        round_robin("tic_tac_toe", ["random", "greedy"], results=bad)
    bad.write_text('{"format": "boardrules-tournament", "format_version": 1}\nnot json\n')
    with pytest.raises(ValueError, match="line 2"):
        read_results(bad)


def _forgeries(line: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """A real game line changed into lines that are no game of its tournament, each with
    what the reason for dropping it names."""
    loser = line["points"].index(min(line["points"]))
    return [
        (dict(line, index=999), "is not one of table 0's 4 games"),
        (dict(line, table=5), "table 5 is not one of the 1 tables"),
        (dict(line, index=True), "is not one of"),
        (dict(line, seed=line["seed"] + 1), "other seed"),
        (dict(line, seats=line["seats"][::-1]), "other seats"),
        (dict(line, bots=[1, 0]), "other bots"),
        (dict(line, points=[1e6, 0.0]), "points"),
        (dict(line, points=[float("nan"), 0.0]), "points"),
        (dict(line, places=[1, 1] if line["places"] != [1, 1] else [1, 2]), "places"),
        (dict(line, winners=[7]), "winners"),
        (dict(line, moves=[-1, 0], length=-1), "counts"),
        (dict(line, seconds=[float("inf"), 0.0]), "counts"),
        (dict(line, forfeit={"bot": line["bots"][loser], "seat": 9, "reason": "x"}),
         "forfeit"),
        (line, "a second line for table 0's game 0"),
    ]


def test_a_resumed_tournament_counts_only_games_of_its_own_schedule(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    kwargs: dict[str, Any] = {"games": 4, "processes": 1, "bootstrap": 10}
    whole = round_robin("tic_tac_toe", ["random", "greedy"], results=results, **kwargs)
    first = game_lines(results)[0]
    assert (first["table"], first["index"]) == (0, 0)
    forgeries = _forgeries(first)
    with results.open("a") as file:
        for forged, _ in forgeries:
            file.write(json.dumps(forged) + "\n")
    with pytest.warns(DroppedResultsWarning, match=f"{len(forgeries)} line"):
        again = round_robin("tic_tac_toe", ["random", "greedy"], results=results, **kwargs)
    assert untimed(again) == untimed(whole) and again.complete
    assert [s.games for s in again.standings] == [4, 4]
    assert len(again.dropped) == len(forgeries)
    for (_, why), said in zip(forgeries, again.dropped, strict=True):
        assert why in said, (why, said)
    assert [line.split(":")[0] for line in again.dropped] == \
        [f"line {n}" for n in range(6, 6 + len(forgeries))]
    assert again.as_dict()["dropped"] == list(again.dropped)
    assert "line(s) of the results file not counted" in again.table()
    read = read_results(results, bootstrap=10)
    assert untimed(read) == untimed(whole) and read.dropped == again.dropped


def test_a_game_dropped_from_the_results_file_is_played_again(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    kwargs: dict[str, Any] = {"games": 3, "processes": 1, "bootstrap": 10}
    whole = round_robin("tic_tac_toe", ["random", "greedy"], results=results, **kwargs)
    lines = results.read_text().splitlines()
    forged = json.loads(lines[2])
    forged["points"] = [p * 3 for p in forged["points"]]
    results.write_text("\n".join([lines[0], lines[1], json.dumps(forged), lines[3]]) + "\n")
    with pytest.warns(DroppedResultsWarning):
        again = round_robin("tic_tac_toe", ["random", "greedy"], results=results, **kwargs)
    assert untimed(again) == untimed(whole)  # game 1 played again, not read
    assert again.dropped == ("line 3: table 0's game 1: its points are not those its "
                             "winners give",)


def test_cli_tournament_says_which_results_lines_it_did_not_count(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "t.jsonl"
    argv = ["tournament", "tic_tac_toe", "random", "greedy", "--games", "4",
            "--processes", "1", "--json", "--bootstrap", "10", "--results", str(results)]
    assert cli.main(argv) == 0
    total = sum(s["games"] for s in json.loads(capsys.readouterr().out)["standings"])
    with results.open("a") as file:
        file.write(json.dumps(dict(game_lines(results)[1], index=999, points=[1e6, 0])) + "\n")
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert sum(s["games"] for s in doc["standings"]) == total
    assert doc["dropped"] == ["line 6: game 999 is not one of table 0's 4 games"]
    assert "line 6: game 999 is not one of table 0's 4 games" in captured.err
    assert "Warning" not in captured.err


def test_records_are_written_per_table_and_game(tmp_path: Path) -> None:
    result = round_robin("pig", ["random", "greedy", "mcts:iterations=5"], games=2,
                         records_dir=tmp_path / "games", processes=2, bootstrap=10)
    names = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert names == [f"table-{t:03d}-game-{g:05d}.json" for t in (1, 2, 3) for g in (1, 2)]
    first = json.loads((tmp_path / "games" / names[0]).read_text())
    assert first["headers"]["seed"] == result.records[0].seed


# --- forfeits and bad arguments ---

class Crashing:
    def choose(self, state: State[Move]) -> Move:
        raise RuntimeError("segfault averted")


def test_a_forfeiting_bot_loses_its_games_and_the_tournament_finishes() -> None:
    result = round_robin("tic_tac_toe", [Crashing(), "random", "greedy"], games=2,
                         processes=1, bootstrap=20)
    assert result.complete
    crashing = result.standings[0]
    assert (crashing.games, crashing.forfeits, crashing.losses) == (4, 4, 4)
    assert "Crashing (seat" in result.table() and "segfault averted" in result.table()
    assert result.ranked()[-1].bot == "Crashing"


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"bots": ["random", "random"]}, ValueError, "labels must differ"),
    ({"bots": ["random"]}, ValueError, "at least two"),
    ({"tournament": "swiss"}, ValueError, "unknown tournament"),
    ({"table_size": 3}, ValueError, "divide the players"),
    ({"table_size": 2.0}, TypeError, "table_size"),
    ({"games": 0}, ValueError, "games"),
    ({"reach": 0}, ValueError, "reach"),
    ({"anchor": "mcts"}, ValueError, "anchor"),
    ({"backend": "dask"}, ValueError, "backend"),
    ({"processes": 0}, ValueError, "processes"),
    ({"results": 3}, TypeError, "results"),
    ({"move_time_limit": -1}, ValueError, "move_time_limit"),
])
def test_bad_arguments_are_refused_before_any_game(
        kwargs: dict[str, Any], error: type[Exception], message: str, tmp_path: Path) -> None:
    settings: dict[str, Any] = {"bots": ["random", "greedy"], "results": tmp_path / "r.jsonl"}
    settings.update(kwargs)
    with pytest.raises(error, match=message):
        play_tournament("tic_tac_toe", **settings)
    assert not (tmp_path / "r.jsonl").exists()


# --- the command line ---

def test_cli_tournament_prints_ratings_and_json(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    plot = tmp_path / "ratings.png"
    assert cli.main(["tournament", "tic_tac_toe", "random", "greedy", "--games", "4",
                     "--processes", "1", "--bootstrap", "20", "--plot", str(plot)]) == 0
    out = capsys.readouterr()
    assert "round-robin of 2 bots" in out.out and "greedy" in out.out
    assert "boardrules tournament: 4/4 games" in out.err
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert cli.main(["tournament", "tic_tac_toe", "random", "greedy", "--games", "2",
                     "--processes", "1", "--bootstrap", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["bots"] == ["random", "greedy"] and len(doc["records"]) == 2
    assert cli.main(["tournament", "tic_tac_toe", "random", "nobot"]) == 2
    assert "unknown bot 'nobot'" in capsys.readouterr().err


#: Budgets for which a game lasts long enough that Ctrl-C comes before the last one.
CLI_BOTS = ["random", "greedy", "mcts:iterations=100", "ismcts:iterations=100",
            "alphabeta:max_nodes=500"]


@pytest.mark.parametrize("game_id", FOUR_GAMES)
def test_cli_tournament_stopped_by_ctrl_c_resumes_from_its_results_file(
        game_id: str, tmp_path: Path) -> None:
    """A real SIGINT to a real process playing on two workers, then the same command:
    a round-robin of five bots (ten tables of two games)."""
    results = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "boardrules", "tournament", game_id, *CLI_BOTS,
               "--games", "2", "--seed", "2", "--processes", "2", "--bootstrap", "50",
               "--results", str(results)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    first = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env, preexec_fn=default_sigint)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and first.poll() is None:
        if results.exists() and len(results.read_text().splitlines()) >= 1 + 3:
            break
        time.sleep(0.05)
    first.send_signal(signal.SIGINT)
    out, err = first.communicate(timeout=60)
    assert first.returncode == 130, err
    assert "run the same command again to resume" in err
    kept = game_lines(results)
    assert 3 <= len(kept) < 20
    assert "(interrupted)" in out
    second = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert second.returncode == 0, second.stderr
    lines = game_lines(results)
    assert lines[:len(kept)] == kept
    keys = [(line["table"], line["index"]) for line in lines]
    assert len(keys) == len(set(keys)) == 20
    assert "20/20 played" in second.stdout and "95% intervals" in second.stdout
    assert "boardrules tournament: 20/20 games" in second.stderr  # the progress

