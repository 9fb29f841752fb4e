"""Self-play data (boardrules.selfplay): every row checked against a replay of its game,
both formats read back alike, the same file from any number of processes and from Ray,
Ctrl-C keeping the first games, a failing bot named with its game, bad arguments refused
before any game."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import boardrules
from boardrules import CHANCE, selfplay
from boardrules.arena import derive_seed
from boardrules.search.bots import RandomBot
from boardrules.selfplay import (
    COLUMNS,
    SelfPlayError,
    SelfPlayProgress,
    generate,
    read,
    read_meta,
)

ROOT = Path(__file__).resolve().parent.parent
Data = dict[str, npt.NDArray[Any]]

SMALL = "mcts:iterations=20"
#: (game id, options, games): the small games and a big one with hidden information.
CASES = [("tic_tac_toe", {}, 4), ("pig", {}, 4), ("armadora", {"players": 2}, 2)]


def _equal(a: Data, b: Data) -> bool:
    return a.keys() == b.keys() and all(
        a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


def _replay_and_check(data: Data, game: boardrules.Game[Any, Any], seed: int) -> None:
    """Each game of ``data`` played again from its seed with the recorded actions: every
    row is what the table showed before that move, and the final returns are the game's."""
    games = np.unique(data["game"])
    assert games.tolist() == list(range(len(games)))      # every game, none twice
    assert np.all(np.diff(data["game"]) >= 0)              # in game order
    for g in games.tolist():
        rows = np.flatnonzero(data["game"] == g)
        assert data["step"][rows].tolist() == list(range(len(rows)))
        state = game.new_game(seed=derive_seed(seed, "selfplay", g))
        for r in rows.tolist():
            while state.current_player == CHANCE:
                state.apply_random_chance()
            player = int(data["player"][r])
            assert state.current_player == player
            assert np.array_equal(data["observation"][r], state.observation(player))
            assert np.array_equal(data["action_mask"][r], state.action_mask())
            state.apply(game.move(int(data["action"][r])), player=player)
        while state.current_player == CHANCE:
            state.apply_random_chance()
        assert state.is_terminal()
        final = np.asarray(state.returns(), dtype=np.float32)
        assert np.array_equal(data["returns"][rows], np.tile(final, (len(rows), 1)))


@pytest.mark.parametrize(("game_id", "options", "games"), CASES,
                         ids=[c[0] for c in CASES])
def test_rows_are_the_games_decisions(game_id: str, options: dict[str, Any], games: int,
                                      tmp_path: Path) -> None:
    game = boardrules.load(game_id, **options)
    result = generate(game, SMALL, games=games, path=tmp_path / "d.npz", seed=5,
                      processes=1)
    data = read(tmp_path / "d.npz")
    n = result.decisions
    assert (result.games, result.interrupted, result.format) == (games, False, "npz")
    assert list(data) == list(COLUMNS)
    actions = game.num_distinct_actions
    shapes = {"observation": (n, game.observation_layout.size), "action_mask": (n, actions),
              "policy": (n, actions), "returns": (n, game.num_players)}
    for name, dtype in COLUMNS.items():
        assert data[name].dtype == dtype, name
        assert data[name].shape == shapes.get(name, (n,)), name
    _replay_and_check(data, game, 5)
    rows = np.arange(n)
    assert np.all(data["action_mask"][rows, data["action"]] == 1)
    assert np.allclose(data["policy"].sum(axis=1), 1.0, atol=1e-5)
    assert not data["policy"][data["action_mask"] == 0].any()
    assert np.array_equal(data["value"], data["returns"][rows, data["player"]])


def test_parquet_and_npz_read_back_alike(tmp_path: Path) -> None:
    first = generate("pig", SMALL, games=4, path=tmp_path / "d.parquet", processes=1)
    second = generate("pig", SMALL, games=4, path=tmp_path / "d.npz", processes=1)
    assert (first.format, second.format) == ("parquet", "npz")
    assert first.decisions == second.decisions > 0
    assert _equal(read(tmp_path / "d.parquet"), read(tmp_path / "d.npz"))
    meta = read_meta(tmp_path / "d.parquet")
    assert meta == read_meta(tmp_path / "d.npz")
    assert (meta["format"], meta["format_version"]) == ("boardrules-selfplay", 1)
    assert (meta["game"], meta["bot"], meta["seed"]) == ("pig", SMALL, 0)
    layout = boardrules.load("pig").observation_layout
    assert [(f["name"], tuple(f["shape"])) for f in meta["observation_layout"]] == [
        (f.name, f.shape) for f in layout.fields]


def test_parquet_row_groups_are_bounded(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows go out in row groups as the games come in, each at least the group size but
    for the last, and no game split between two."""
    pq = pytest.importorskip("pyarrow.parquet")
    monkeypatch.setattr(selfplay, "ROW_GROUP_ROWS", 40)
    generate("pig", SMALL, games=10, path=tmp_path / "d.parquet", processes=1)
    generate("pig", SMALL, games=10, path=tmp_path / "d.npz", processes=1)
    data = read(tmp_path / "d.parquet")
    assert _equal(data, read(tmp_path / "d.npz"))
    meta = pq.read_metadata(tmp_path / "d.parquet")
    sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
    assert len(sizes) > 1 and all(size >= 40 for size in sizes[:-1])
    ends = np.cumsum(sizes)[:-1]
    assert all(data["game"][end - 1] != data["game"][end] for end in ends)


def test_the_seed_decides_the_data(tmp_path: Path) -> None:
    runs = {}
    for name, seed in [("a", 1), ("b", 1), ("c", 2)]:
        generate("tic_tac_toe", SMALL, games=5, path=tmp_path / f"{name}.npz", seed=seed,
                 processes=1)
        runs[name] = read(tmp_path / f"{name}.npz")
    assert _equal(runs["a"], runs["b"])
    assert not _equal(runs["a"], runs["c"])


def test_one_process_or_two_write_the_same_rows(tmp_path: Path) -> None:
    one = generate("pig", SMALL, games=12, path=tmp_path / "one.parquet", processes=1)
    two = generate("pig", SMALL, games=12, path=tmp_path / "two.parquet", processes=2)
    assert one.decisions == two.decisions
    assert _equal(read(tmp_path / "one.parquet"), read(tmp_path / "two.parquet"))


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_writes_what_local_writes(ray_cluster: Any, tmp_path: Path) -> None:
    local = generate("pig", SMALL, games=6, path=tmp_path / "local.npz", processes=1)
    on_ray = generate("pig", SMALL, games=6, path=tmp_path / "ray.npz", backend="ray")
    assert local.decisions == on_ray.decisions
    assert _equal(read(tmp_path / "local.npz"), read(tmp_path / "ray.npz"))


def test_a_random_bot_gives_one_hot_policies(tmp_path: Path) -> None:
    generate("connect_four", "random", games=3, path=tmp_path / "r.npz", processes=1)
    data = read(tmp_path / "r.npz")
    expected = np.zeros_like(data["policy"])
    expected[np.arange(len(expected)), data["action"]] = 1.0
    assert np.array_equal(data["policy"], expected)


def test_a_search_bot_gives_its_visits(tmp_path: Path) -> None:
    generate("connect_four", SMALL, games=2, path=tmp_path / "s.npz", processes=1)
    policy = read(tmp_path / "s.npz")["policy"]
    assert (np.count_nonzero(policy, axis=1) > 1).any()
    # 20 iterations spread over the moves: each share is a multiple of 1/visits
    assert set(np.round(policy[0] * 20, 4).tolist()) <= {float(k) for k in range(21)}


@dataclass
class FakeSuggestion:
    ranked: list[tuple[Any, float, int]]


class SearchesOnce:
    """A bot whose ``last`` is fresh for its first decision only: later ones must not
    reuse it."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.last: FakeSuggestion | None = None
        self.searched = False

    def choose(self, state: Any) -> Any:
        moves = state.legal_moves()
        if not self.searched:
            self.searched = True
            self.last = FakeSuggestion([(moves[0], 0.0, 3), (moves[1], 0.0, 1)])
            return moves[0]
        return self.bot.choose(state)


class StaleLast:
    """A bot whose ``last`` cannot be reset and never changes: never a fresh search."""

    _stale = FakeSuggestion([])

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)

    @property
    def last(self) -> FakeSuggestion:
        return self._stale

    def choose(self, state: Any) -> Any:
        return self.bot.choose(state)


def test_policy_comes_from_a_fresh_last_only(tmp_path: Path) -> None:
    generate("tic_tac_toe", SearchesOnce, games=1, path=tmp_path / "a.npz", processes=1)
    data = read(tmp_path / "a.npz")
    first = np.zeros(9, dtype=np.float32)
    first[[0, 1]] = [0.75, 0.25]   # the first decision: its visits, normalised
    assert np.array_equal(data["policy"][0], first)
    # seat 1's bot is another instance: its first decision searched too
    assert np.count_nonzero(data["policy"][1]) == 2
    assert (np.count_nonzero(data["policy"][2:], axis=1) == 1).all()
    generate("tic_tac_toe", StaleLast, games=2, path=tmp_path / "b.npz", processes=1)
    assert (np.count_nonzero(read(tmp_path / "b.npz")["policy"], axis=1) == 1).all()


class SavesWhatItIsHanded:
    """Fails if it is handed the table: a world drawn for its seat has no save."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)

    def choose(self, state: Any) -> Any:
        state.to_json()
        return self.bot.choose(state)


def test_the_bot_is_never_handed_the_table(tmp_path: Path) -> None:
    with pytest.raises(SelfPlayError, match=r"self-play game 0 of armadora .*"
                                            r"choose raised ValueError: a world drawn"):
        generate("armadora", SavesWhatItIsHanded, games=1, path=tmp_path / "x.npz",
                 processes=1, options={"players": 2})


def test_an_interrupted_run_keeps_the_first_games(tmp_path: Path) -> None:
    def stop_after_three(p: SelfPlayProgress) -> None:
        if p.done == 3:
            raise KeyboardInterrupt

    whole = generate("pig", SMALL, games=8, path=tmp_path / "whole.parquet", processes=1)
    cut = generate("pig", SMALL, games=8, path=tmp_path / "cut.parquet", processes=1,
                   progress=stop_after_three)
    assert (cut.interrupted, cut.games, whole.interrupted) == (True, 3, False)
    data, full = read(tmp_path / "cut.parquet"), read(tmp_path / "whole.parquet")
    assert np.unique(data["game"]).tolist() == [0, 1, 2]
    keep = full["game"] < 3
    assert _equal(data, {k: v[keep] for k, v in full.items()})
    assert cut.decisions == int(keep.sum())
    assert sorted(os.listdir(tmp_path)) == ["cut.parquet", "whole.parquet"]  # no temp file


class SlowInGameZero:
    """Game 0's first move takes seconds, every other move none: with two processes
    games 1, 2 and 3 finish while game 0 is still being played."""

    def __init__(self, seed: int) -> None:
        self.pause = 5.0 if seed == derive_seed(0, "selfplay", 0, "seat", 0) else 0.0
        self.bot = RandomBot(seed)

    def choose(self, state: Any) -> Any:
        time.sleep(self.pause)
        self.pause = 0.0
        return self.bot.choose(state)


@pytest.mark.parametrize("name", ["cut.parquet", "cut.npz"])
def test_an_interrupted_pool_keeps_only_a_prefix(name: str, tmp_path: Path) -> None:
    """Three games finished, but not game 0: the games after the gap are dropped, and
    the file holds no rows (its columns keep their widths)."""
    def stop_after_three(p: SelfPlayProgress) -> None:
        if p.done == 3:
            raise KeyboardInterrupt

    started = time.monotonic()
    cut = generate("pig", SlowInGameZero, games=8, path=tmp_path / name, processes=2,
                   progress=stop_after_three)
    assert time.monotonic() - started < 4.0     # game 0 was not waited for
    assert (cut.interrupted, cut.games, cut.decisions) == (True, 0, 0)
    data = read(tmp_path / name)
    assert data["game"].shape == (0,) and data["policy"].shape == (0, 8)
    assert data["observation"].shape == (0, boardrules.load("pig").observation_layout.size)


class RaisesInGameTwo:
    def __init__(self, seed: int) -> None:
        self.bad = seed in {derive_seed(0, "selfplay", 2, "seat", s) for s in range(2)}
        self.bot = RandomBot(seed)

    def choose(self, state: Any) -> Any:
        if self.bad:
            raise RuntimeError("out of ideas")
        return self.bot.choose(state)


class Illegal:
    def __init__(self, seed: int) -> None:
        pass

    def choose(self, state: Any) -> Any:
        return "a1"


def test_a_failing_bot_is_named_with_its_game(tmp_path: Path) -> None:
    target = tmp_path / "x.parquet"
    target.write_bytes(b"the file from before")
    with pytest.raises(SelfPlayError, match=r"self-play game 2 of tic_tac_toe \(seed \d+\), "
                                            r"seat 0, step 0, bot 'RaisesInGameTwo': choose "
                                            r"raised RuntimeError: out of ideas"):
        generate("tic_tac_toe", RaisesInGameTwo, games=4, path=target, processes=2)
    with pytest.raises(SelfPlayError, match=r"self-play game 0 .* seat 1, step 1, .* chose "
                                            r"'a1', which cannot be played"):
        generate("tic_tac_toe", Illegal, games=1, path=target, processes=1)
    # the old file stands and no temporary file is left beside it
    assert target.read_bytes() == b"the file from before"
    assert os.listdir(tmp_path) == ["x.parquet"]


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"games": 0}, ValueError, "games must be at least 1"),
    ({"games": 2.0}, TypeError, "games must be an int"),
    ({"bot": "nosuch"}, ValueError, "unknown bot 'nosuch'"),
    ({"bot": "mcts:depth=3"}, ValueError, "has no option 'depth'"),
    ({"bot": 42}, TypeError, "a bot is a spec string"),
    ({"format": "csv"}, ValueError, "unknown format 'csv'"),
    ({"format": 1}, TypeError, "format must be a str"),
    ({"path": "data.csv"}, ValueError, "cannot tell the format"),
    ({"path": "."}, ValueError, "is a directory"),
    ({"path": "no/such/dir/d.npz"}, ValueError, "does not exist"),
    ({"path": 3}, TypeError, "path must be a str"),
    ({"seed": -1}, ValueError, "seed must be in"),
    ({"processes": 0}, ValueError, "processes must be at least 1"),
    ({"backend": "spark"}, ValueError, "unknown backend 'spark'"),
    ({"progress": 3}, TypeError, "progress must be a callable"),
    ({"game": "chess"}, boardrules.UnknownGameError, "chess"),
    ({"options": {"players": 9}}, ValueError, "players"),
])
def test_bad_arguments_fail_before_any_game(kwargs: dict[str, Any], error: type[Exception],
                                            match: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    played: list[SelfPlayProgress] = []
    args: dict[str, Any] = {"game": "armadora", "bot": "random", "games": 2,
                            "path": "d.npz", "processes": 1, "progress": played.append,
                            **kwargs}
    with pytest.raises(error, match=match):
        generate(**args)
    assert played == [] and os.listdir(tmp_path) == []


def test_parquet_without_pyarrow_fails_before_any_game(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "pyarrow" or m.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pyarrow", None)   # import pyarrow: ImportError
    played: list[SelfPlayProgress] = []
    with pytest.raises(ImportError, match=r"pip install 'boardrules\[parquet\]'"):
        generate("pig", "random", games=2, path=tmp_path / "d.parquet", processes=1,
                 progress=played.append)
    assert played == [] and os.listdir(tmp_path) == []
    generate("pig", "random", games=2, path=tmp_path / "d.npz", processes=1)  # numpy only
    assert len(read(tmp_path / "d.npz")["game"]) > 0


def test_read_refuses_other_files(tmp_path: Path) -> None:
    (tmp_path / "text.npz").write_text("hello")
    np.savez(tmp_path / "other.npz", a=np.zeros(3))
    for name, match in [("text.npz", "neither Parquet nor .npz"),
                        ("other.npz", "not boardrules-selfplay data")]:
        with pytest.raises(ValueError, match=match):
            read(tmp_path / name)
        with pytest.raises(ValueError, match=match):
            read_meta(tmp_path / name)


def test_result_and_progress(tmp_path: Path) -> None:
    seen: list[SelfPlayProgress] = []
    result = generate("tic_tac_toe", "random", games=3, path=tmp_path / "d.npz", seed=None,
                      processes=1, progress=seen.append)
    assert [p.done for p in seen] == [0, 1, 2, 3] and seen[0].seconds_left is None
    assert seen[-1].decisions == result.decisions and seen[-1].total == 3
    assert read_meta(tmp_path / "d.npz")["seed"] == result.seed   # the drawn seed, kept
    doc = result.as_dict()
    assert doc["path"] == str(tmp_path / "d.npz") and doc["bot"] == "random"
    assert (doc["games"], doc["format"], doc["interrupted"]) == (3, "npz", False)


def test_the_example_runs() -> None:
    # the boardrules this suite tests (a source tree with its cores, or an installed
    # wheel: the clone's own folder has no compiled cores when the wheel is tested)
    tested = Path(boardrules.__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(tested)}
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "read_selfplay.py")],
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("20 games, ") and lines[0].endswith(" in tic_tac_toe.npz")
    rows = int(lines[0].split()[2])   # "20 games, N decisions in ..."
    assert f"  observation  float32  ({rows}, 20)" in lines
    assert any(line.startswith("game 0: ['") for line in lines)


# --- the command line ---

def test_cli_selfplay_writes_the_file_and_reports_a_bad_bot(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from boardrules import cli

    out = tmp_path / "c4.parquet"
    assert cli.main(["selfplay", "connect_four", "--bot", "mcts:iterations=20",
                     "--games", "3", "--out", str(out), "--processes", "1"]) == 0
    printed = capsys.readouterr()
    data = selfplay.read(out)
    assert f"{out}: 3 games, {len(data['action'])} decisions (parquet)" in printed.out
    assert "boardrules selfplay: 3/3 games" in printed.err
    same = selfplay.generate("connect_four", "mcts:iterations=20", 3, tmp_path / "c4.npz",
                             processes=1)
    assert np.array_equal(selfplay.read(same.path)["policy"], data["policy"])
    assert cli.main(["selfplay", "connect_four", "--bot", "nobot", "--out",
                     str(tmp_path / "x.npz")]) == 2
    assert "unknown bot 'nobot'" in capsys.readouterr().err

