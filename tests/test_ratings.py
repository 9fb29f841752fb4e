"""Ratings from games (``boardrules.ratings``): comparisons, the Bradley-Terry fit and its
recovery of known strengths, the prior, centring, the bootstrap, input checks, JSON, the
table and the plot."""

from __future__ import annotations

import doctest
import json
import math
import sys
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import boardrules.ratings as ratings_module
from boardrules.ratings import GameResult, Rating, Ratings, fit_ratings, pairwise

GAP_20_0 = 400 * math.log10(41)   # 20-0 plus one virtual draw: 20.5-0.5, odds 41:1


@pytest.fixture(autouse=True)
def _warnings_are_errors() -> Iterator[None]:
    """No path of the fit may warn (an inf or a nan must come out of the logic, not of
    numpy's floating-point warnings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def beat(winner: int, loser: int) -> GameResult:
    return GameResult(bots=(winner, loser), places=(1, 2))


def drew(a: int, b: int) -> GameResult:
    return GameResult(bots=(a, b), places=(1, 1))


def simulate(elos: Sequence[float] | np.ndarray[Any, Any], games: int, table: int,
             seed: int) -> list[GameResult]:
    """Games at random tables of ``table`` bots, placed by Plackett-Luce sampling from the
    strengths ``10 ** (elo / 400)`` (for two bots: Bradley-Terry exactly)."""
    rng = np.random.default_rng(seed)
    strength = 10.0 ** (np.asarray(elos, dtype=float) / 400)
    results = []
    for _ in range(games):
        bots = [int(b) for b in rng.choice(len(elos), size=table, replace=False)]
        left, order = list(bots), []
        while left:
            w = strength[left]
            order.append(left.pop(int(rng.choice(len(left), p=w / w.sum()))))
        results.append(GameResult(bots=tuple(bots),
                                  places=tuple(order.index(b) + 1 for b in bots)))
    return results


# --- comparisons ---

def test_pairwise_two_bots_win_and_tie() -> None:
    assert pairwise(GameResult(bots=(3, 1), places=(2, 1))) == [(3, 1, 0.0)]
    assert pairwise(GameResult(bots=(0, 2), places=(1, 2))) == [(0, 2, 1.0)]
    assert pairwise(GameResult(bots=(0, 2), places=(2, 2))) == [(0, 2, 0.5)]


def test_pairwise_four_bots_with_a_tie() -> None:
    game = GameResult(bots=(4, 0, 2, 1), places=(3, 1, 3, 2))
    assert pairwise(game) == [(4, 0, 0.0), (4, 2, 0.5), (4, 1, 0.0),
                              (0, 2, 1.0), (0, 1, 1.0), (2, 1, 0.0)]


def test_pairwise_takes_a_game_result() -> None:
    with pytest.raises(TypeError, match="GameResult"):
        pairwise(((0, 1), (1, 2)))  # type: ignore[arg-type]


def test_game_result_stores_tuples_of_ints() -> None:
    game = GameResult(bots=[np.int64(2), 0], places=np.array([1, 2]))  # type: ignore[arg-type]
    assert game.bots == (2, 0) and game.places == (1, 2)
    assert all(type(v) is int for v in game.bots + game.places)


@pytest.mark.parametrize(("bots", "places", "error", "message"), [
    ((0, True), (1, 2), TypeError, "bots must hold ints, not bool"),
    ((0, 1), (1, 2.0), TypeError, "places must hold ints, not float"),
    ("01", (1, 2), TypeError, "bots must be a sequence of ints"),
    ((0, 1), {1, 2}, TypeError, "places must be a sequence of ints"),
    ((0,), (1,), ValueError, "at least two bots"),
    ((0, 1, 0), (1, 2, 3), ValueError, "bot 0 sits at the table more than once"),
    ((0, 1, 2), (1, 2), ValueError, "3 bots but 2 places"),
    ((0, 1), (1, 2, 3), ValueError, "2 bots but 3 places"),
    ((0, 1), (0, 1), ValueError, "places are 1 .best. or more, not 0"),
    ((-1, 1), (1, 2), ValueError, "bot indices are 0 or more, not -1"),
])
def test_game_result_refuses_a_malformed_game(bots: Any, places: Any, error: type[Exception],
                                              message: str) -> None:
    with pytest.raises(error, match=message):
        GameResult(bots=bots, places=places)


# --- the fit ---

def test_recovers_known_elos_from_two_player_games() -> None:
    true = np.array([0.0, 100.0, 300.0, 600.0])
    result = fit_ratings(simulate(true, 4000, 2, seed=0), ["a", "b", "c", "d"])
    centred = true - true.mean()
    for rating, value in zip(result.ratings, centred, strict=True):
        assert rating.low <= value <= rating.high, rating
        assert abs(rating.elo - value) < 40, rating
        assert rating.low < rating.elo < rating.high
    assert [r.rank for r in result.ratings] == [4, 3, 2, 1]
    assert sum(r.elo for r in result.ratings) == pytest.approx(0.0, abs=1e-9)


def test_four_player_tables_recover_the_order() -> None:
    true = [0.0, 150.0, 300.0, 450.0, 600.0, 750.0]
    result = fit_ratings(simulate(true, 1500, 4, seed=5), [f"bot{i}" for i in range(6)])
    assert [r.bot for r in result.ranked()] == [f"bot{i}" for i in (5, 4, 3, 2, 1, 0)]
    centred = np.array(true) - np.mean(true)
    assert max(abs(r.elo - v) for r, v in zip(result.ratings, centred, strict=True)) < 60


def test_counts_games_scores_and_comparisons() -> None:
    games = [GameResult(bots=(0, 1, 2, 3), places=(1, 2, 2, 4)),
             GameResult(bots=(3, 2, 1), places=(1, 1, 3))]
    result = fit_ratings(games, list("abcd"), bootstrap=0)
    assert [r.games for r in result.ratings] == [1, 2, 2, 2]
    # a: 3 wins; b: a tie with c, beat d, lost to c and d; c: that tie, beat d and b, tied d
    assert [r.score for r in result.ratings] == [3.0, 1.5, 3.0, 1.5]
    assert [r.opponents for r in result.ratings] == [3, 5, 5, 5]
    assert result.games == 2


def test_swapping_two_bots_swaps_their_ratings() -> None:
    games = simulate([0.0, 200.0, 50.0], 300, 2, seed=3)
    swap = {0: 1, 1: 0, 2: 2}
    swapped = [GameResult(bots=tuple(swap[b] for b in g.bots), places=g.places)
               for g in games]
    one = fit_ratings(games, ["x", "y", "z"], bootstrap=200)
    two = fit_ratings(swapped, ["x", "y", "z"], bootstrap=200)
    assert one.ratings[0].elo != pytest.approx(one.ratings[1].elo, abs=1)
    for i, j in swap.items():
        a, b = one.ratings[i], two.ratings[j]
        assert (a.elo, a.low, a.high) == pytest.approx((b.elo, b.low, b.high), abs=1e-6)
        assert (a.games, a.score, a.opponents) == (b.games, b.score, b.opponents)


def test_equal_records_give_equal_ratings() -> None:
    # a cycle, each beating the next 7-3: every bot has the same record
    games = [beat(i, (i + 1) % 3) for i in range(3)] * 7 + \
        [beat((i + 1) % 3, i) for i in range(3)] * 3
    result = fit_ratings(games, ["a", "b", "c"], bootstrap=0)
    assert [r.elo for r in result.ratings] == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
    assert [r.rank for r in result.ratings] == [1, 1, 1]
    # and two bots with the same results against a third
    games = [beat(0, 2)] * 6 + [beat(2, 0)] * 2 + [beat(1, 2)] * 6 + [beat(2, 1)] * 2 + \
        [drew(0, 1)]
    result = fit_ratings(games, ["a", "b", "c"], bootstrap=0)
    assert result.ratings[0].elo == pytest.approx(result.ratings[1].elo, abs=1e-9)
    assert result.ratings[0].elo > result.ratings[2].elo


def test_all_games_drawn_rates_everyone_zero() -> None:
    games = [drew(0, 1), drew(1, 2), drew(2, 0), GameResult(bots=(0, 1, 2), places=(1, 1, 1))]
    result = fit_ratings(games * 4, ["a", "b", "c"], bootstrap=100)
    for r in result.ratings:
        assert (r.elo, r.low, r.high) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)


def test_two_player_fit_matches_the_closed_form() -> None:
    # two bots: the MLE odds are exactly the points ratio (15.5 : 5.5 with the prior)
    games = [beat(0, 1)] * 15 + [beat(1, 0)] * 5
    result = fit_ratings(games, ["a", "b"], anchor="b", bootstrap=0)
    assert result.rating("a").elo == pytest.approx(400 * math.log10(15.5 / 5.5), abs=1e-6)
    result = fit_ratings(games, ["a", "b"], anchor="b", bootstrap=0, prior=0)
    assert result.rating("a").elo == pytest.approx(400 * math.log10(3), abs=1e-6)


# --- the prior and perfect records ---

def test_a_perfect_record_is_finite_with_the_prior() -> None:
    result = fit_ratings([beat(0, 1)] * 20, ["a", "b"])
    a, b = result.ratings
    assert a.elo - b.elo == pytest.approx(GAP_20_0, abs=1e-6)   # about 645
    assert a.elo == pytest.approx(GAP_20_0 / 2, abs=1e-6)        # mean 0
    # every resample is 20-0 as well
    assert (a.low, a.high) == pytest.approx((a.elo, a.elo), abs=1e-6)


def test_a_perfect_record_without_prior_is_infinite() -> None:
    result = fit_ratings([beat(0, 1)] * 20, ["a", "b"], prior=0)
    a, b = result.ratings
    assert (a.elo, a.low, a.high) == (math.inf, math.inf, math.inf)
    assert (b.elo, b.low, b.high) == (-math.inf, -math.inf, -math.inf)
    anchored = fit_ratings([beat(0, 1)] * 20, ["a", "b"], prior=0, anchor="b")
    assert anchored.rating("a").elo == math.inf and anchored.rating("b").elo == 0.0
    assert "+inf" in anchored.table()


def test_without_prior_a_bot_between_two_infinite_ones_is_undetermined() -> None:
    # a beat b, b drew c: with the mean, b's place is not determined; against b it is 0
    games = [beat(0, 1)] * 5 + [drew(1, 2)] * 5 + [beat(1, 3)] * 5
    result = fit_ratings(games, list("abcd"), prior=0)
    elo = [r.elo for r in result.ratings]
    assert elo[0] == math.inf and elo[3] == -math.inf
    assert math.isnan(elo[1]) and math.isnan(elo[2])
    assert [r.rank for r in result.ratings] == [1, 3, 3, 2]
    anchored = fit_ratings(games, list("abcd"), prior=0, anchor="b")
    assert [r.elo for r in anchored.ratings] == pytest.approx([math.inf, 0, 0, -math.inf])


def test_without_prior_a_resample_can_be_infinite_but_the_estimate_is_not() -> None:
    games = [beat(0, 1)] * 8 + [beat(1, 0)] + [beat(1, 2)] * 8 + [beat(2, 1)]
    result = fit_ratings(games, ["a", "b", "c"], prior=0, anchor="b")
    a = result.rating("a")
    assert a.elo == pytest.approx(400 * math.log10(8), abs=1e-6)
    assert a.high == math.inf and math.isfinite(a.low)   # some resamples lost a's defeat


def test_a_prior_too_small_for_floating_point_is_refused() -> None:
    result = fit_ratings([beat(0, 1)] * 20, ["a", "b"], prior=1e-12, anchor="b", bootstrap=0)
    assert result.rating("a").elo == pytest.approx(400 * math.log10(20.0 / 5e-13), rel=1e-9)
    with pytest.raises(ValueError, match="too small to fit"):
        fit_ratings([beat(0, 1)] * 20, ["a", "b"], prior=1e-320, bootstrap=0)


# --- centring ---

def test_the_anchor_is_fixed_and_the_differences_stay() -> None:
    games = simulate([0.0, 120.0, 250.0, 400.0], 600, 3, seed=8)
    names = ["a", "b", "c", "d"]
    mean = fit_ratings(games, names, bootstrap=300)
    anchored = fit_ratings(games, names, anchor="c", anchor_elo=1500.0, bootstrap=300)
    c = anchored.rating("c")
    assert (c.elo, c.low, c.high) == (1500.0, 1500.0, 1500.0)
    shift = 1500.0 - mean.rating("c").elo
    assert [r.elo for r in anchored.ratings] == pytest.approx(
        [r.elo + shift for r in mean.ratings], abs=1e-6)
    assert anchored.anchor == "c" and mean.anchor is None
    # without an anchor, anchor_elo places the mean
    shifted = fit_ratings(games, names, anchor_elo=1500.0, bootstrap=0)
    assert np.mean([r.elo for r in shifted.ratings]) == pytest.approx(1500.0)


# --- the bootstrap ---

def test_the_bootstrap_is_reproducible_by_seed() -> None:
    games = simulate([0.0, 100.0, 200.0], 300, 2, seed=1)
    one = fit_ratings(games, ["a", "b", "c"], seed=4, bootstrap=200)
    again = fit_ratings(games, ["a", "b", "c"], seed=4, bootstrap=200)
    other = fit_ratings(games, ["a", "b", "c"], seed=5, bootstrap=200)
    assert one == again
    assert [r.elo for r in one.ratings] == [r.elo for r in other.ratings]
    assert [(r.low, r.high) for r in one.ratings] != [(r.low, r.high) for r in other.ratings]
    assert one.seed == 4 and one.bootstrap == 200


def test_no_bootstrap_no_interval() -> None:
    result = fit_ratings(simulate([0.0, 100.0], 50, 2, seed=2), ["a", "b"], bootstrap=0)
    assert all(r.low == r.elo == r.high for r in result.ratings)
    assert "no intervals" in result.table()


def test_a_narrower_confidence_gives_narrower_intervals() -> None:
    games = simulate([0.0, 100.0, 200.0], 300, 2, seed=6)
    wide = fit_ratings(games, ["a", "b", "c"], confidence=0.95, bootstrap=300)
    narrow = fit_ratings(games, ["a", "b", "c"], confidence=0.5, bootstrap=300)
    for w, n in zip(wide.ratings, narrow.ratings, strict=True):
        assert w.low < n.low < n.high < w.high


def test_both_ways_of_summing_a_resample_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Few games x pairs are summed by a matrix product, many by gathering entries."""
    games = simulate([0.0, 80.0, 160.0, 240.0, 320.0], 400, 3, seed=9)
    names = list("abcde")
    dense = fit_ratings(games, names, bootstrap=100)
    monkeypatch.setattr(ratings_module, "_DENSE_LIMIT", 0)
    gathered = fit_ratings(games, names, bootstrap=100)
    for d, g in zip(dense.ratings, gathered.ratings, strict=True):
        assert (d.elo, d.low, d.high) == pytest.approx((g.elo, g.low, g.high), abs=1e-9)


# --- bad input ---

def test_a_field_in_two_groups_is_refused_naming_them() -> None:
    games = [beat(0, 1), beat(1, 0), beat(2, 3), beat(3, 2)]
    with pytest.raises(ValueError, match=r"2 groups.*\{ann, bob\}; \{cy, dee\}"):
        fit_ratings(games, ["ann", "bob", "cy", "dee"])


def test_a_bot_without_games_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="no game for idle"):
        fit_ratings([beat(0, 1), beat(2, 0)], ["a", "b", "c", "idle"])
    with pytest.raises(ValueError, match="no game for a, b"):
        fit_ratings([], ["a", "b"])


GOOD = [beat(0, 1), beat(1, 0)]


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"games": [beat(0, 2)]}, ValueError, "game 0 seats bot 2, but the field has 2 bots"),
    ({"games": [((0, 1), (1, 2))]}, TypeError, "game 0 is a tuple, not a GameResult"),
    ({"games": beat(0, 1)}, TypeError, "iterable of GameResult"),
    ({"bots": ["a"]}, ValueError, "at least two bots"),
    ({"bots": ["a", "a"]}, ValueError, "'a' given more than once"),
    ({"bots": "ab"}, TypeError, "sequence of names"),
    ({"bots": ["a", 2]}, TypeError, "name must be a str, not int"),
    ({"anchor": "zed"}, ValueError, "anchor 'zed' is not one of the bots"),
    ({"anchor": 0}, TypeError, "anchor must be a bot's name"),
    ({"confidence": 1.0}, ValueError, r"confidence must be in \(0, 1\)"),
    ({"confidence": 0}, ValueError, r"confidence must be in \(0, 1\)"),
    ({"confidence": True}, TypeError, "confidence must be a number, not bool"),
    ({"confidence": "0.9"}, TypeError, "confidence must be a number, not str"),
    ({"bootstrap": -1}, ValueError, "bootstrap must be 0"),
    ({"bootstrap": True}, TypeError, "bootstrap must be an int, not bool"),
    ({"bootstrap": 10.0}, TypeError, "bootstrap must be an int, not float"),
    ({"prior": -0.5}, ValueError, "prior must be 0 or more"),
    ({"prior": False}, TypeError, "prior must be a number, not bool"),
    ({"prior": math.inf}, ValueError, "prior must be finite"),
    ({"anchor_elo": math.nan}, ValueError, "anchor_elo must be finite"),
    ({"seed": True}, TypeError, "seed must be an int, not bool"),
    ({"seed": -1}, ValueError, "seed must be in"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], error: type[Exception],
                                   message: str) -> None:
    args: dict[str, Any] = {"games": GOOD, "bots": ["a", "b"], **kwargs}
    with pytest.raises(error, match=message):
        fit_ratings(args.pop("games"), args.pop("bots"), **args)


# --- JSON ---

def sample() -> Ratings:
    return fit_ratings(simulate([0.0, 100.0, 300.0], 200, 2, seed=4), ["a", "b", "c"],
                       bootstrap=100, anchor="a", anchor_elo=1000.0, seed=7)


def test_json_round_trip() -> None:
    result = sample()
    doc = result.as_dict()
    assert doc["format"] == "boardrules-ratings" and doc["format_version"] == 1
    assert Ratings.from_json(result.to_json()) == result
    assert Ratings.from_dict(json.loads(result.to_json(indent=None))) == result
    assert Ratings.from_dict(doc) == result


def test_json_of_infinite_ratings_is_standard_json() -> None:
    result = fit_ratings([beat(0, 1)] * 5, ["a", "b"], prior=0)
    text = result.to_json()

    def refuse(constant: str) -> None:
        raise AssertionError(f"non-standard JSON constant {constant}")

    doc = json.loads(text, parse_constant=refuse)
    assert doc["ratings"][0]["elo"] == "inf" and doc["ratings"][1]["low"] == "-inf"
    assert Ratings.from_json(text) == result


def _broken(change: str) -> Any:
    doc = sample().as_dict()
    if change == "missing key":
        del doc["prior"]
    elif change == "unknown key":
        doc["extra"] = 1
    elif change == "rating missing key":
        del doc["ratings"][0]["score"]
    elif change == "elo text":
        doc["ratings"][1]["elo"] = "lots"
    elif change == "games float":
        doc["ratings"][1]["games"] = 2.5
    elif change == "bool count":
        doc["bootstrap"] = True
    elif change == "anchor unknown":
        doc["anchor"] = "nobody"
    elif change == "ratings not a list":
        doc["ratings"] = {"a": 1}
    elif change == "confidence out of range":
        doc["confidence"] = 1.5
    elif change == "name twice":
        doc["ratings"][1]["bot"] = "a"
    return doc


@pytest.mark.parametrize("change", [
    "missing key", "unknown key", "rating missing key", "elo text", "games float",
    "bool count", "anchor unknown", "ratings not a list", "confidence out of range",
    "name twice"])
def test_from_dict_refuses_a_malformed_document(change: str) -> None:
    with pytest.raises(ValueError, match="malformed ratings document"):
        Ratings.from_dict(_broken(change))


@pytest.mark.parametrize("doc", [
    {"format": "boardrules-match", "format_version": 1},
    {"format": "boardrules-ratings", "format_version": 2},
    {"format_version": 1},
    [1, 2],
])
def test_from_dict_refuses_another_format(doc: Any) -> None:
    with pytest.raises(ValueError, match="not a boardrules-ratings version 1 document"):
        Ratings.from_dict(doc)


# --- table and plot ---

def test_table_lists_best_first() -> None:
    result = fit_ratings(simulate([300.0, 0.0, 600.0], 300, 2, seed=2), ["mid", "low", "top"])
    lines = result.table().splitlines()
    assert str(result) == result.table()
    assert lines[0].startswith("3 bots, 300 games, mean 0, 95% intervals by 1000 bootstraps")
    assert lines[1].split()[:3] == ["#", "bot", "elo"]
    assert [line.split()[1] for line in lines[2:]] == ["top", "mid", "low"]
    assert [line.split()[0] for line in lines[2:]] == ["1", "2", "3"]
    top = result.rating("top")
    assert f"{top.elo:.0f}" in lines[2] and f"[{top.low:.0f}, {top.high:.0f}]" in lines[2]


def test_rating_looks_a_bot_up_by_name() -> None:
    result = sample()
    assert result.rating("b") is result.ratings[1]
    assert isinstance(result.rating("b"), Rating)
    with pytest.raises(KeyError):
        result.rating("nobody")


def test_plot_draws_one_error_bar_per_bot_best_at_top() -> None:
    from matplotlib.container import ErrorbarContainer
    from matplotlib.figure import Figure

    result = fit_ratings(simulate([300.0, 0.0, 600.0, 100.0], 300, 2, seed=2),
                         ["mid", "low", "top", "low2"])
    fig = result.plot(title="field")
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 4
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[::-1] == [r.bot for r in result.ranked()] == ["top", "mid", "low2", "low"]
    assert ax.get_title() == "field"
    # the bar at the top is the best bot's estimate
    def point(bar: ErrorbarContainer) -> tuple[float, float]:
        line = bar.lines[0]
        return float(np.asarray(line.get_xdata())[0]), float(np.asarray(line.get_ydata())[0])

    top_x, _ = max((point(bar) for bar in bars), key=lambda xy: xy[1])
    assert top_x == pytest.approx(result.rating("top").elo)


def test_plot_on_given_axes_and_with_infinite_ratings() -> None:
    from matplotlib.figure import Figure

    fig = Figure()
    ax = fig.add_subplot()
    games = [beat(0, 1)] * 5 + [drew(1, 2)] * 5 + [beat(1, 3)] * 5
    result = fit_ratings(games, list("abcd"), prior=0)
    assert result.plot(ax) is fig
    assert len(ax.containers) == 4
    assert [t.get_text() for t in ax.get_yticklabels()][::-1] == [
        "a (+inf)", "d (-inf)", "b (nan)", "c (nan)"]


def test_save_plot_writes_png_and_svg(tmp_path: Path) -> None:
    result = sample()
    result.save_plot(tmp_path / "ratings.png")
    assert (tmp_path / "ratings.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    result.save_plot(tmp_path / "ratings.svg", title="t")
    assert b"<svg" in (tmp_path / "ratings.svg").read_bytes()[:1000]
    with pytest.raises(ValueError, match=r"not 'ratings\.txt'"):
        result.save_plot(tmp_path / "ratings.txt")
    assert not (tmp_path / "ratings.txt").exists()


def test_plot_without_matplotlib_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"pip install boardrules\[plot\]"):
        sample().plot()


def test_the_module_examples_run() -> None:
    assert doctest.testmod(ratings_module).failed == 0
