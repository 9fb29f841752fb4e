"""The match harness (``boardrules.arena``): seats, scores, seeds, processes, JSON, CLI,
progress, Ctrl-C and records (a real Ctrl-C to a real process: test_arena_interrupt.py)."""

from __future__ import annotations

import io
import json
import multiprocessing
import random
import re
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import boardrules
from boardrules import cli
from boardrules.api import CHANCE, Move, State
from boardrules.arena import (
    BotSpec,
    MatchProgress,
    MatchResult,
    derive_seed,
    parse_bot,
    parse_options,
    play_match,
    wilson_interval,
)
from boardrules.cli import match as match_cli
from boardrules.games.pig import PigGame, PigState
from boardrules.games.tic_tac_toe import TicTacToeGame
from boardrules.records import replay

# tic-tac-toe cells in action order: a1 b1 c1 / a2 b2 c2 / a3 b3 c3
FIRST_CELL_FIRST = list(range(9))  # both sides: 0 1 2 3 4 5 6 -> X completes c1-b2-a3
DRAWING_ORDER = [4, 0, 2, 6, 3, 5, 1, 7, 8]  # both sides: a full board without a line


class PreferenceBot:
    """Plays the first legal move in a fixed order of action ids (deterministic)."""

    def __init__(self, order: Sequence[int]) -> None:
        self.order = list(order)

    def choose(self, state: State[Move]) -> Move:
        legal = {m.action: m for m in state.legal_moves()}
        return next(legal[a] for a in self.order if a in legal)


class SeededFirstOrRandom:
    """A user bot class taking ``seed=`` (module level: picklable for worker processes)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Move]) -> Move:
        return self.rng.choice(state.legal_moves())


def seat_seeds(match_seed: int, *games: int) -> frozenset[int]:
    """The seeds the bots of these games of a two-player match are built with: a bot
    knows from its seed which game it plays."""
    return frozenset(derive_seed(match_seed, g, "seat", s) for g in games for s in range(2))


SLOW_GAME_ZERO = seat_seeds(0, 0)


class SlowInGameZero:
    """Plays the first legal move, slowly in game 0 of a match of seed 0 (picklable)."""

    def __init__(self, seed: int) -> None:
        self.pause = 0.1 if seed in SLOW_GAME_ZERO else 0.0

    def choose(self, state: State[Move]) -> Move:
        time.sleep(self.pause)
        return state.legal_moves()[0]


class IgnoresCtrlCOrFails:
    """Plays only in a worker process that ignores SIGINT (picklable)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[Move]) -> Move:
        if multiprocessing.parent_process() is None:
            raise RuntimeError("played in the match's own process")
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            raise RuntimeError(f"a worker with SIGINT handled by "
                               f"{signal.getsignal(signal.SIGINT)!r}")
        return self.rng.choice(state.legal_moves())


def ctrl_c_in_game(stop: int, match_seed: int) -> Callable[..., Any]:
    """A seeded random bot class whose ``choose`` in game ``stop`` is hit by Ctrl-C."""
    doomed = seat_seeds(match_seed, stop)

    class CtrlCInGame(SeededFirstOrRandom):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            self.doomed = seed in doomed

        def choose(self, state: State[Move]) -> Move:
            if self.doomed:
                raise KeyboardInterrupt
            return super().choose(state)
    return CtrlCInGame


class ManualChancePig(PigGame):
    """Pig whose games stop at every die roll, so the arena must draw chance itself."""

    def new_game(self, seed: int | None = None, auto_chance: bool = True,
                 auto_forced: bool = True) -> PigState:
        return super().new_game(seed=seed, auto_chance=False, auto_forced=auto_forced)


class TooShortTicTacToe(TicTacToeGame):
    """A game whose declared maximum length is shorter than its games (a broken core)."""

    @property
    def max_game_length(self) -> int:
        return 3


def untimed(result: MatchResult) -> dict[str, Any]:
    """The result without the measured times (the only part that may differ)."""
    doc = result.as_dict()
    for bot in doc["bots"]:
        del bot["mean_move_seconds"]
    for record in doc["records"]:
        del record["seconds"]
    return doc


# --- seats ---

def test_seats_rotate_so_two_bots_play_alternate_teams_in_four_player_armadora() -> None:
    game = boardrules.load("armadora", players=4)
    assert game.teams == ((0, 2), (1, 3))
    result = play_match(game, ["random", "greedy"], games=2, seed=3, processes=1)
    assert [r.seats for r in result.records] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    for record in result.records:
        # a team wins or both draw: one point per game, all of it to the winners' bot
        assert sum(record.points) == 1.0
        if len(record.winners) == 2:
            assert record.points[record.seats[record.winners[0]]] == 1.0


def test_each_seat_gets_its_own_bot_and_the_bot_of_its_rotation() -> None:
    played: list[tuple[str, set[int]]] = []

    def recorder(tag: str) -> Any:
        def factory(seed: int) -> Any:
            seen: set[int] = set()
            played.append((tag, seen))
            rng = random.Random(seed)

            class Recorder:
                def choose(self, state: State[Move]) -> Move:
                    seen.add(state.current_player)
                    return rng.choice(state.legal_moves())
            return Recorder()
        factory.__name__ = tag
        return factory

    play_match("armadora", [recorder("A"), recorder("B")], games=3, seed=5, processes=1,
               options={"players": 4})
    made = played[2:]  # the first two are built once to check the bots before playing
    assert len(made) == 3 * 4
    for g in range(3):
        for s in range(4):
            tag, seen = made[4 * g + s]
            assert seen == {s}, "one bot per seat, never asked for another seat"
            assert tag == "AB"[(s + g) % 2]


def test_bots_must_share_the_seats_equally() -> None:
    with pytest.raises(ValueError, match="divide"):
        play_match("armadora", ["random"] * 3, games=1, options={"players": 4})
    with pytest.raises(ValueError, match="at least two"):
        play_match("tic_tac_toe", ["random"], games=1)


# --- scores ---

def test_the_bot_in_the_first_seat_wins_every_game_and_scores_are_counted_per_bot() -> None:
    # both bots take the first free cell: X (seat 0) always completes c1-b2-a3 on move 7
    result = play_match("tic_tac_toe", [PreferenceBot(FIRST_CELL_FIRST),
                                        PreferenceBot(FIRST_CELL_FIRST)],
                        games=5, seed=0, processes=1)
    assert [r.winners for r in result.records] == [(0,)] * 5
    assert [r.points for r in result.records] == [(1.0, 0.0), (0.0, 1.0)] * 2 + [(1.0, 0.0)]
    first, second = result.bots
    assert (first.wins, first.draws, first.losses, first.score) == (3, 0, 2, 3.0)
    assert (second.wins, second.draws, second.losses, second.score) == (2, 0, 3, 2.0)
    assert result.mean_game_length == 7
    assert (first.moves, second.moves) == (3 * 4 + 2 * 3, 2 * 4 + 3 * 3)


def test_a_draw_counts_half_for_each_bot() -> None:
    result = play_match("tic_tac_toe", [PreferenceBot(DRAWING_ORDER),
                                        PreferenceBot(DRAWING_ORDER)],
                        games=4, seed=0, processes=1)
    assert all(r.winners == (0, 1) and r.length == 9 for r in result.records)
    for bot in result.bots:
        assert (bot.wins, bot.draws, bot.losses, bot.score, bot.score_rate) == (0, 4, 0, 2.0, 0.5)


def test_a_shared_win_with_another_bot_counts_half() -> None:
    # four bots, one seat each: Armadora's partners (0 & 2, 1 & 3) are two different bots
    result = play_match("armadora", ["random", "greedy", "random", "greedy"], games=4, seed=1,
                        processes=1, options={"players": 4})
    for record in result.records:
        winning_bots = {record.seats[p] for p in record.winners}
        assert len(winning_bots) >= 2
        assert record.points == tuple(0.5 if b in winning_bots else 0.0 for b in range(4))
    assert all(bot.wins == 0 for bot in result.bots)
    assert sum(bot.draws for bot in result.bots) >= 2 * 4
    for bot in result.bots:
        assert bot.score == bot.wins + bot.draws / 2
        assert bot.wins + bot.draws + bot.losses == bot.games == 4


def test_a_known_strategy_beats_random_play() -> None:
    result = play_match("tic_tac_toe", ["alphabeta:depth=9", "random"], games=10, seed=2,
                        processes=1)
    perfect, rnd = result.bots
    assert perfect.losses == 0 and rnd.wins == 0
    assert perfect.score + rnd.score == 10
    assert perfect.ci_low <= perfect.score_rate <= perfect.ci_high


def test_wilson_interval() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(1 - high) and low == pytest.approx(0.2366, abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


def test_chance_nodes_are_drawn_when_the_game_stops_at_them() -> None:
    result = play_match(ManualChancePig(), ["random", "greedy"], games=4, seed=0, processes=1)
    assert all(sum(r.points) == 1.0 and r.length > 0 for r in result.records)
    assert [b.games for b in result.bots] == [4, 4]


def test_a_game_longer_than_max_game_length_is_reported() -> None:
    with pytest.raises(RuntimeError, match="past max_game_length"):
        play_match(TooShortTicTacToe(), ["random", "random"], games=1, processes=1)


# --- seeds and processes ---

def test_same_seed_gives_the_same_match_and_another_seed_another() -> None:
    bots = ["mcts:iterations=20", "random"]
    one = play_match("pig", bots, games=6, seed=11, processes=1)
    again = play_match("pig", bots, games=6, seed=11, processes=1)
    other = play_match("pig", bots, games=6, seed=12, processes=1)
    assert untimed(one) == untimed(again)
    assert [r.seed for r in one.records] == [derive_seed(11, g) for g in range(6)]
    assert [r.seed for r in one.records] != [r.seed for r in other.records]


def test_one_process_and_two_processes_give_the_same_result() -> None:
    bots = ["ismcts:iterations=20", "greedy"]
    kwargs: dict[str, Any] = {"games": 4, "seed": 9, "options": {"players": 2}}
    inline = play_match("armadora", bots, processes=1, **kwargs)
    pooled = play_match("armadora", bots, processes=2, **kwargs)
    assert untimed(inline) == untimed(pooled)
    assert inline.specs == ("ismcts:iterations=20", "greedy")


def test_a_user_bot_class_is_seeded_per_seat_and_plays_in_worker_processes() -> None:
    kwargs: dict[str, Any] = {"games": 4, "seed": 4}
    inline = play_match("connect_four", [SeededFirstOrRandom, "random"], processes=1, **kwargs)
    pooled = play_match("connect_four", [SeededFirstOrRandom, "random"], processes=2, **kwargs)
    assert untimed(inline) == untimed(pooled)
    assert inline.specs[0] == "SeededFirstOrRandom"


def test_a_user_bot_object_plays_in_process_and_must_be_picklable_for_processes() -> None:
    class LocalBot:  # a local class: cannot be pickled
        def choose(self, state: State[Move]) -> Move:
            return state.legal_moves()[-1]

    result = play_match("tic_tac_toe", [LocalBot(), "random"], games=4, processes=1)
    assert result.specs == ("LocalBot", "random") and result.bots[0].games == 4
    with pytest.raises(TypeError, match=r"bot 0 \(LocalBot\) cannot be pickled.*processes=1"):
        play_match("tic_tac_toe", [LocalBot(), "random"], games=4, processes=2)


def test_a_game_class_of_your_own_plays_in_process_and_must_be_picklable_for_processes() -> None:
    class LocalPig(PigGame):
        pass

    assert play_match(LocalPig(), ["random", "random"], games=2, processes=1).games == 2
    with pytest.raises(TypeError, match="game class LocalPig cannot be pickled"):
        play_match(LocalPig(), ["random", "random"], games=2, processes=2)


def test_a_bot_choosing_an_illegal_move_forfeits_the_game_with_the_reason() -> None:
    class Stubborn:
        def choose(self, state: State[Move]) -> Move:
            return state.game.move(4)  # b2, again and again

    result = play_match("tic_tac_toe", [Stubborn(), "random"], games=2, processes=1)
    for record in result.records:
        assert record.forfeit is not None and record.forfeit.bot == 0
        assert "chose b2, which cannot be played" in record.forfeit.reason
        assert record.points == (0.0, 1.0) and record.places == (2, 1)
        assert record.winners == (record.seats.index(1),)
    # game 0: Stubborn moves first and plays b2; game 1: random moves first, and b2 is
    # refused only if random took it -- else Stubborn's second b2 is the illegal one
    assert result.records[0].moves == (2, 1)
    assert [b.forfeits for b in result.bots] == [2, 0]
    assert [b.losses for b in result.bots] == [2, 0]


class Raising:
    def choose(self, state: State[Move]) -> Move:
        raise KeyError("a bug in the bot")


class Sleepy:
    """Slow on its first move only (the limit is per move)."""

    def __init__(self, seed: int = 0) -> None:
        self.moves = 0

    def choose(self, state: State[Move]) -> Move:
        self.moves += 1
        time.sleep(0.3 if self.moves == 1 else 0.0)
        return state.legal_moves()[0]


class Endless:
    """Never returns, and swallows every Exception it could be stopped with."""

    def choose(self, state: State[Move]) -> Move:
        while True:
            try:
                time.sleep(0.01)
            except Exception:  # the point of the bot: nothing stops it but the alarm
                continue


@pytest.mark.parametrize("processes", [1, 2])
def test_a_bot_that_raises_forfeits_and_the_match_goes_on(processes: int) -> None:
    result = play_match("connect_four", [Raising(), "random"], games=4, processes=processes)
    assert result.games == 4
    assert all(r.forfeit is not None and r.forfeit.bot == 0 for r in result.records)
    assert {r.forfeit.reason for r in result.records if r.forfeit} == {
        "choose raised KeyError: 'a bug in the bot'"}
    assert result.bots[1].score == 4.0


def test_a_bot_over_the_move_time_limit_forfeits() -> None:
    result = play_match("tic_tac_toe", [Sleepy, "random"], games=2, processes=1,
                        move_time_limit=0.1)
    for record in result.records:
        assert record.forfeit is not None and record.forfeit.bot == 0
        assert re.fullmatch(r"took 0\.3\d* s, over the 0\.1 s move time limit",
                            record.forfeit.reason)
    # a generous limit changes nothing
    assert all(r.forfeit is None for r in play_match(
        "tic_tac_toe", [Sleepy, "random"], games=2, processes=1, move_time_limit=5).records)


@pytest.mark.parametrize("processes", [1, 2])
def test_a_bot_that_never_returns_is_stopped_and_forfeits(processes: int) -> None:
    start = time.monotonic()
    result = play_match("tic_tac_toe", [Endless(), "random"], games=2, processes=processes,
                        move_time_limit=0.2)
    assert time.monotonic() - start < 10
    assert [r.forfeit.reason for r in result.records if r.forfeit] == [
        "stopped after running past the 0.2 s move time limit"] * 2
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL  # put back as it was


@pytest.mark.parametrize("limit", [0, -1.0, float("nan"), float("inf"), "1", True])
def test_a_bad_move_time_limit_is_refused(limit: Any) -> None:
    error = TypeError if isinstance(limit, (str, bool)) else ValueError
    with pytest.raises(error, match="move_time_limit"):
        play_match("tic_tac_toe", ["random", "random"], games=1, move_time_limit=limit)


# --- results as data ---

def test_json_round_trip() -> None:
    result = play_match("connect_four", ["greedy", "mcts:iterations=10"], games=2, seed=3,
                        processes=1)
    text = result.to_json()
    doc = json.loads(text)
    assert doc["format"] == "boardrules-match" and doc["specs"] == list(result.specs)
    assert doc["bots"][0]["score"] == result.bots[0].score
    assert MatchResult.from_json(text) == result
    with pytest.raises(ValueError, match="not a boardrules-match"):
        MatchResult.from_dict({"format": "other"})
    with pytest.raises(ValueError, match="malformed"):
        MatchResult.from_dict({**doc, "bots": [{"bot": "x"}]})


def test_table_shows_every_bot_and_the_settings() -> None:
    result = play_match("tic_tac_toe", ["greedy", "random"], games=6, seed=8, processes=1)
    lines = str(result).splitlines()
    assert lines[0].startswith("tic_tac_toe: 6 games, seed 8, 2 players")
    assert lines[1].split() == ["#", "bot", "games", "score", "rate", "95%", "CI", "W", "D",
                                "L", "s/move"]
    greedy = lines[2].split()
    b = result.bots[0]
    assert greedy[:6] == ["0", "greedy", "6", f"{b.score:g}", f"{b.score_rate:.3f}",
                          f"{b.ci_low:.3f}-{b.ci_high:.3f}"]
    assert lines[3].split()[1] == "random"


# --- bad input ---

def test_spec_parsing() -> None:
    assert parse_bot("random") == BotSpec("random")
    spec = parse_bot(" ismcts: iterations=2_000, threads=1 ")
    assert spec == BotSpec("ismcts", (("iterations", 2000), ("threads", 1)))
    assert str(spec) == "ismcts:iterations=2000,threads=1"
    assert parse_bot("mcts:time_limit=0.5").options == (("time_limit", 0.5),)


@pytest.mark.parametrize(("spec", "message"), [
    ("nosuch", "unknown bot 'nosuch'"),
    ("mcts:iterations", "not key=value"),
    ("mcts:iterations=abc", "'abc' is not a number"),
    ("mcts:iterations=1,iterations=2", "given twice"),
    ("mcts:seed=1", "seed is set by the match"),
    ("random:depth=3", "bot 'random' has no option 'depth'"),
    ("alphabeta:iterations=5", "bot 'alphabeta' has no option 'iterations'"),
])
def test_bad_spec_raises_value_error_naming_it(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_bot(spec)
    with pytest.raises(ValueError, match=message):
        play_match("tic_tac_toe", [spec, "random"], games=1, processes=1)


def test_bad_option_value_is_refused_by_the_bot() -> None:
    with pytest.raises(ValueError, match="iterations"):
        play_match("tic_tac_toe", ["mcts:iterations=0", "random"], games=2, processes=1)


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"bots": ["random", 42]}, TypeError),
    ({"bots": "random"}, TypeError),
    ({"bots": [BotSpec("nosuch"), "random"]}, ValueError),
    ({"bots": [BotSpec("random", (("depth", 3),)), "random"]}, ValueError),
    ({"games": 0}, ValueError),
    ({"games": "3"}, TypeError),
    ({"processes": 0}, ValueError),
    ({"processes": True}, TypeError),
    ({"seed": -1}, ValueError),
    ({"game": 3}, TypeError),
    ({"game": "nosuch"}, boardrules.UnknownGameError),
    ({"options": {"players": 9}}, boardrules.InvalidOptionError),
])
def test_bad_match_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    args: dict[str, Any] = {"game": "armadora", "bots": ["random", "random"], "games": 2,
                            "processes": 1, **kwargs}
    with pytest.raises(error):
        play_match(**args)


def test_options_with_a_game_object_are_refused() -> None:
    with pytest.raises(ValueError, match="options"):
        play_match(boardrules.load("pig"), ["random", "random"], options={"target": 50})


def test_parse_options() -> None:
    assert parse_options(["players=4", "variant=advanced", "look_at_face_down=false",
                          "x=0.5"]) == {"players": 4, "variant": "advanced",
                                        "look_at_face_down": False, "x": 0.5}
    with pytest.raises(ValueError, match="not key=value"):
        parse_options(["players"])
    with pytest.raises(ValueError, match="twice"):
        parse_options(["players=2", "players=3"])


# --- progress ---

def test_progress_reports_the_start_and_each_finished_game_with_the_running_scores() -> None:
    seen: list[MatchProgress] = []
    result = play_match("tic_tac_toe", ["greedy", "random"], games=6, seed=8, processes=1,
                        progress=seen.append)
    assert [p.done for p in seen] == list(range(7))
    assert all(p.total == 6 and p.bots == ("greedy", "random") for p in seen)
    assert seen[0].record is None and seen[0].scores == (0.0, 0.0)
    assert seen[0].seconds_left is None and seen[-1].seconds_left == 0
    assert [p.record for p in seen[1:]] == list(result.records)
    running = [0.0, 0.0]
    for p in seen[1:]:
        assert p.record is not None
        running = [a + b for a, b in zip(running, p.record.points, strict=True)]
        assert p.scores == tuple(running)
    assert seen[-1].scores == tuple(bot.score for bot in result.bots)
    elapsed = [p.elapsed for p in seen]
    assert elapsed == sorted(elapsed) and elapsed[0] >= 0


def test_games_report_as_they_finish_but_the_result_keeps_game_order_whatever_the_processes(
        ) -> None:
    # game 0 is slow: with two workers the others finish first
    seen: list[MatchProgress] = []
    pooled = play_match("tic_tac_toe", [SlowInGameZero, SlowInGameZero], games=6, seed=0,
                        processes=2, progress=seen.append)
    inline = play_match("tic_tac_toe", [SlowInGameZero, SlowInGameZero], games=6, seed=0,
                        processes=1)
    finished = [p.record.index for p in seen if p.record is not None]
    assert sorted(finished) == list(range(6)) and finished[0] != 0 and finished[-1] == 0
    assert [p.done for p in seen] == list(range(7))
    assert [r.index for r in pooled.records] == list(range(6))
    assert untimed(pooled) == untimed(inline)


def test_many_quick_games_in_worker_processes_give_the_one_process_result() -> None:
    # quick games go to the workers many at a time: the order and seeds do not change
    seen: list[MatchProgress] = []
    kwargs: dict[str, Any] = {"games": 300, "seed": 21}
    pooled = play_match("tic_tac_toe", ["greedy", "random"], processes=2,
                        progress=seen.append, **kwargs)
    inline = play_match("tic_tac_toe", ["greedy", "random"], processes=1, **kwargs)
    assert untimed(pooled) == untimed(inline)
    assert [p.done for p in seen] == list(range(301))
    assert seen[-1].scores == tuple(bot.score for bot in inline.bots)


def test_an_error_in_a_worker_stops_the_match_and_the_workers() -> None:
    # a defect of the game (not of a bot, which would forfeit) stops everything
    with pytest.raises(RuntimeError, match="past max_game_length"):
        play_match(TooShortTicTacToe(), ["random", "random"], games=50, processes=2)
    assert _no_children_left()


def _no_children_left(within: float = 5.0) -> bool:
    """No worker process is left running: each is ended and reaped within ``within``
    seconds (a process just killed is reaped, not waited for to finish its games)."""
    deadline = time.monotonic() + within
    while multiprocessing.active_children():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_an_error_in_the_progress_callback_propagates() -> None:
    def broken(progress: MatchProgress) -> None:
        if progress.done == 1:
            raise ZeroDivisionError("display broke")

    with pytest.raises(ZeroDivisionError, match="display broke"):
        play_match("pig", ["random", "random"], games=20, processes=2, progress=broken)
    assert _no_children_left()


@pytest.fixture
def python_ctrl_c() -> Iterator[None]:
    """Python's own SIGINT handler (a suite started in the background or under nohup
    inherits SIGINT ignored, and a worker would then ignore it whatever the arena did)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("python_ctrl_c")
def test_worker_processes_ignore_ctrl_c() -> None:
    result = play_match("connect_four", [IgnoresCtrlCOrFails, "random"], games=4, seed=2,
                        processes=2)
    assert result.games == 4 and not result.interrupted


# --- Ctrl-C ---

@pytest.mark.parametrize("stop", [0, 2])
def test_ctrl_c_in_process_drops_the_running_game_and_returns_the_finished_ones(
        stop: int, tmp_path: Path) -> None:
    records = tmp_path / "records"
    result = play_match("connect_four", [ctrl_c_in_game(stop, 4), "random"], games=5, seed=4,
                        processes=1, records_dir=records)
    assert result.interrupted and result.games == stop
    assert [r.index for r in result.records] == list(range(stop))
    assert all(bot.games == stop for bot in result.bots)
    assert sorted(p.name for p in records.iterdir()) == [
        f"game-{i:05d}.json" for i in range(1, stop + 1)]
    # the finished games are those of an uninterrupted match
    whole = play_match("connect_four", [SeededFirstOrRandom, "random"], games=5, seed=4,
                       processes=1)
    assert untimed(result)["records"] == untimed(whole)["records"][:stop]
    assert result.table().splitlines()[0].startswith(
        f"connect_four: {stop} games (interrupted), seed 4")
    assert json.loads(result.to_json())["interrupted"] is True
    assert MatchResult.from_json(result.to_json()) == result


def test_ctrl_c_while_the_workers_play_keeps_the_finished_games_and_ends_the_workers(
        tmp_path: Path) -> None:
    def ctrl_c_after_two(progress: MatchProgress) -> None:
        if progress.done == 2:
            raise KeyboardInterrupt

    bots = ["mcts:iterations=30", "random"]
    start = time.perf_counter()
    result = play_match("pig", bots, games=200, seed=1, processes=2,
                        progress=ctrl_c_after_two, records_dir=tmp_path)
    assert time.perf_counter() - start < 10  # far less than 200 games
    assert result.interrupted and result.games == 2
    assert _no_children_left()
    indices = [r.index for r in result.records]
    assert indices == sorted(indices)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        f"game-{i + 1:05d}.json" for i in indices]
    whole = play_match("pig", bots, games=max(indices) + 1, seed=1, processes=1)
    assert untimed(result)["records"] == [untimed(whole)["records"][i] for i in indices]


def test_a_result_without_the_interrupted_key_reads_as_not_interrupted() -> None:
    result = play_match("tic_tac_toe", ["greedy", "random"], games=2, processes=1)
    doc = result.as_dict()
    assert doc["interrupted"] is False
    del doc["interrupted"]  # as written before a match could be interrupted
    assert MatchResult.from_dict(doc) == result
    with pytest.raises(ValueError, match="interrupted"):
        MatchResult.from_dict({**doc, "interrupted": "yes"})


# --- records ---

def test_each_finished_game_is_recorded_whole_and_replays_to_the_arena_result(
        tmp_path: Path) -> None:
    records = tmp_path / "new" / "records"  # made, parents too
    result = play_match("pig", ["greedy", "mcts:iterations=20"], games=5, seed=3,
                        processes=2, records_dir=records)
    assert sorted(p.name for p in records.iterdir()) == [
        f"game-{i:05d}.json" for i in range(1, 6)]  # and no temporary file left
    for game in result.records:
        doc = json.loads((records / f"game-{game.index + 1:05d}.json").read_text("utf-8"))
        state = replay(doc)
        outcome = state.outcome()
        assert outcome is not None and tuple(outcome.winners) == game.winners
        assert doc["headers"]["viewer"] == "all"
        assert doc["headers"]["players"] == [result.specs[b] for b in game.seats]
        assert doc["headers"]["seed"] == game.seed
        bot_moves = [m for m in doc["moves"] if m["mover"] != CHANCE and not m["forced"]]
        assert len(bot_moves) == game.length


def test_records_in_process_match_those_from_worker_processes(tmp_path: Path) -> None:
    for processes in (1, 2):
        play_match("connect_four", ["greedy", "random"], games=3, seed=6,
                   processes=processes, records_dir=tmp_path / str(processes))
    for name in ("game-00001.json", "game-00002.json", "game-00003.json"):
        one, two = (json.loads((tmp_path / d / name).read_text("utf-8")) for d in "12")
        assert one["moves"] == two["moves"] and one["headers"]["outcome"] == \
            two["headers"]["outcome"]


@pytest.mark.parametrize(("records_dir", "error", "message"), [
    ("a_file", ValueError, "is not a directory"),
    ("with_records", ValueError, "already holds game records"),
    (3, TypeError, "records_dir must be a path"),
])
def test_a_bad_records_dir_is_refused_before_any_game(tmp_path: Path, records_dir: Any,
                                                      error: type[Exception],
                                                      message: str) -> None:
    (tmp_path / "a_file").write_text("mine", encoding="utf-8")
    (tmp_path / "with_records").mkdir()
    (tmp_path / "with_records" / "game-00003.json").write_text("{}", encoding="utf-8")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    target = tmp_path / records_dir if isinstance(records_dir, str) else records_dir
    with pytest.raises(error, match=message):
        play_match("tic_tac_toe", ["random", "random"], games=2, processes=1,
                   records_dir=target)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "a_file").read_text(encoding="utf-8") == "mine"


def test_a_bad_argument_leaves_the_records_dir_unmade(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        play_match("tic_tac_toe", ["nosuch", "random"], games=2, records_dir=tmp_path / "r")
    with pytest.raises(TypeError, match="progress must be a callable"):
        play_match("tic_tac_toe", ["random", "random"], games=2, progress=3,  # type: ignore[arg-type]
                   records_dir=tmp_path / "r")
    assert not (tmp_path / "r").exists()


# --- command line ---

def test_cli_match_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", "tic_tac_toe", "greedy", "random", "--games", "4", "--seed",
                     "2", "--processes", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("tic_tac_toe: 4 games, seed 2, 2 players")
    assert [line.split()[1] for line in out[2:]] == ["greedy", "random"]


def test_cli_match_prints_json_with_game_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", "armadora", "random", "random", "--games", "2", "--processes",
                     "1", "--option", "players=2", "--option", "variant=advanced",
                     "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["options"]["variant"] == "advanced" and doc["players"] == 2
    assert sum(bot["score"] for bot in doc["bots"]) == 2
    same = play_match("armadora", ["random", "random"], games=2, seed=0, processes=1,
                      options={"players": 2, "variant": "advanced"})
    assert [r["winners"] for r in doc["records"]] == [list(r.winners) for r in same.records]


def test_cli_match_reports_a_bad_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["match", "tic_tac_toe", "greedy", "nosuch", "--processes", "1"]) == 2
    assert "unknown bot 'nosuch'" in capsys.readouterr().err


def test_cli_match_writes_records_and_plain_progress_lines_when_not_a_terminal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    records = tmp_path / "records"
    assert cli.main(["match", "tic_tac_toe", "greedy", "random", "--games", "20",
                     "--processes", "1", "--records", str(records)]) == 0
    captured = capsys.readouterr()
    same = play_match("tic_tac_toe", ["greedy", "random"], games=20, seed=0, processes=1)
    def untimed_table(text: str) -> list[str]:  # without the s/move column
        title, *rows = text.splitlines()
        return [title] + [row.rsplit(None, 1)[0] for row in rows]
    assert untimed_table(captured.out) == untimed_table(same.table())  # the table only
    lines = captured.err.splitlines()
    assert len(lines) == 10, "one line per tenth of the games"
    assert all(line.startswith(f"boardrules match: {2 * (i + 1)}/20 games, greedy ")
               for i, line in enumerate(lines))
    assert "\x1b" not in captured.err and "━" not in captured.err  # no bar, no escapes
    final = same.bots
    assert lines[-1].split(", ")[1:3] == [f"greedy {final[0].score:g}",
                                          f"random {final[1].score:g}"]
    assert sorted(p.name for p in records.iterdir()) == [
        f"game-{i:05d}.json" for i in range(1, 21)]


def test_cli_match_refuses_a_records_directory_holding_records(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "game-00001.json").write_text("{}", encoding="utf-8")
    assert cli.main(["match", "tic_tac_toe", "greedy", "random", "--games", "2",
                     "--processes", "1", "--records", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert "already holds game records" in captured.err and captured.out == ""
    assert [p.name for p in tmp_path.iterdir()] == ["game-00001.json"]


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_on_a_terminal_shows_games_scores_and_times() -> None:
    stream = FakeTerminal()
    display = match_cli.progress_display(stream)
    bots = ("greedy", "mcts:iterations=50")
    with display as show:
        show(MatchProgress(done=0, total=4, bots=bots, scores=(0.0, 0.0), elapsed=0.0))
        show(MatchProgress(done=3, total=4, bots=bots, scores=(2.5, 0.5), elapsed=1.5))
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", stream.getvalue())  # colours, cursor
    last = shown.rsplit("games ", 1)[1].splitlines()
    assert re.fullmatch(r"━+╺?━* 3/4 0:00:0\d elapsed, \S+ left", last[0].strip()), last
    assert last[1] == "  greedy 2.5, mcts:iterations=50 0.5"
    plain = io.StringIO()
    with match_cli.progress_display(plain) as show:
        show(MatchProgress(done=3, total=4, bots=bots, scores=(2.5, 0.5), elapsed=1.5))
    assert plain.getvalue() == ("boardrules match: 3/4 games, greedy 2.5, "
                                "mcts:iterations=50 0.5, 0:00:02 elapsed, 0:00:00 left\n")


# --- a match of any length starts at once: its jobs are built as they go out ---

def _job_number(context: None, job: int) -> int:  # a runner's work (module level: pickled)
    return job


def _no_context() -> None:
    return None


@pytest.mark.parametrize("processes", [1, 2])
def test_the_runner_takes_jobs_from_a_generator_only_as_it_sends_them(processes: int) -> None:
    from boardrules._runner import Runner

    taken: list[int] = []

    def jobs() -> Iterator[int]:
        for number in range(10**30):  # more than memory could ever hold as a list
            taken.append(number)
            yield number

    finished: list[int] = []

    def on_result(job: int, result: int) -> None:
        assert job == result
        finished.append(job)
        if len(finished) == 40:
            raise KeyboardInterrupt

    runner: Runner[int, int] = Runner(_no_context, (), _job_number, processes=processes)
    with pytest.raises(KeyboardInterrupt):
        runner.run(jobs(), on_result, count=10**30)
    assert len(set(finished)) == len(finished) == 40
    # bounded look-ahead: the jobs out are at most two batches per worker, and a batch
    # never exceeds BATCH_SECONDS of jobs (each takes microseconds here, so a batch can
    # be large, but it is a batch and not the whole run)
    assert len(taken) < 100_000
    assert taken == list(range(len(taken)))


def test_the_runner_needs_the_count_of_jobs_that_are_no_sequence() -> None:
    from boardrules._runner import Runner

    runner: Runner[int, int] = Runner(_no_context, (), _job_number, processes=1)
    with pytest.raises(TypeError, match="count"):
        runner.run(iter([1, 2]), lambda job, result: None)
    got: list[int] = []
    runner.run(iter([1, 2, 3]), lambda job, result: got.append(result), count=5)  # fewer
    assert got == [1, 2, 3]


#: A run of 10**30 games, stopped (Ctrl-C) after five: what each kind of run is handed.
_ENDLESS = {
    "match": """
        from boardrules.arena import play_match
        result = play_match("tic_tac_toe", ["random", "greedy"], games=10**30, seed=3,
                            processes=PROCESSES, progress=stop)
        print("STARTED", result.interrupted, result.games)
    """,
    "tournament": """
        from boardrules.tournament import round_robin
        result = round_robin("tic_tac_toe", ["random", "greedy", "mcts:iterations=5"],
                             games=10**30, processes=PROCESSES, bootstrap=10, progress=stop)
        print("STARTED", result.interrupted, len(result.records))
    """,
    "selfplay": """
        import tempfile
        from boardrules.selfplay import generate
        path = tempfile.mkdtemp() + "/cut.npz"
        result = generate("pig", "random", games=10**30, path=path, processes=PROCESSES,
                          progress=stop)
        print("STARTED", result.interrupted, result.games)
    """,
}


@pytest.mark.needs_address_limit
@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("kind", sorted(_ENDLESS))
def test_a_run_of_more_games_than_memory_holds_starts_at_once(kind: str,
                                                             processes: int) -> None:
    """Matches, tournaments and self-play build each game's job as it goes out: 10**30
    games start at once in a child with 1 GiB of address space (a list of the jobs made
    first ran out of memory, or of time)."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        def stop(progress):
            if progress.done >= 5:
                raise KeyboardInterrupt
    """) + textwrap.dedent(_ENDLESS[kind]).replace("PROCESSES", str(processes))
    try:
        child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("10**30 games did not start within 120 s")
    said = child.stdout.split()
    assert said[:2] == ["STARTED", "True"], child.stdout + child.stderr[-2000:]
    # games were played and kept (with two processes the interrupt may land before the
    # fifth finished game is counted in; none ran away either)
    assert 1 <= int(said[2]) < 10**4
