"""Ratings of a field of bots from finished games: Bradley-Terry on the Elo scale, with
bootstrap confidence intervals.

>>> from boardrules.ratings import GameResult, fit_ratings
>>> won = GameResult(bots=(0, 1), places=(1, 2))        # bot 0 first, bot 1 second
>>> ratings = fit_ratings([won] * 20, ["a", "b"], anchor="b")
>>> a = ratings.rating("a")
>>> round(a.elo), round(a.low), round(a.high), a.score  # 20.5-0.5 with the prior draw
(645, 645, 645, 20.0)

**The model.**  A game gives each bot at its table a *place* (1 best, equal places a
tie).  It is split into its pairwise comparisons, one for each pair of bots at the table:
the better place wins, equal places draw (:func:`pairwise`).  Bradley-Terry gives bot
``i`` a strength ``g_i > 0`` and ``P(i beats j) = g_i / (g_i + g_j)``; a draw counts as
half a win to each side (the usual Elo and Bradley-Terry convention), and the rating is
``elo = 400 * log10(g)``, so a 400-point gap means 10:1 odds.  The strengths are the
maximum-likelihood estimate, found by Newton's method on the log-likelihood (concave in
``log g``), with a halving line search.

**The prior.**  A bot that won every comparison has an infinite maximum-likelihood
rating.  As in BayesElo, ``prior`` virtual draws are added to every pair of bots that met
at least once, which keeps every estimate finite: a 20-0 record is fitted as 20.5-0.5
(``prior=1``), a gap of ``400 * log10(41)``, about 645 Elo.  ``prior=0`` fits the games
alone; the estimate is then finite only when every group of bots lost at least one
comparison to the others (the graph of who scored against whom is strongly connected).
When it is not, the gaps between such groups are infinite, and the ratings are:

* with an ``anchor``: finite for the bots of the anchor's group (fitted on the
  comparisons within the group), ``+inf`` for a bot of a group that beat it (directly or
  through other groups), ``-inf`` for one it beat, ``nan`` for a group neither above nor
  below it;
* with mean centring: ``+inf`` for a group that scored against bots outside it but
  that no bot outside it ever scored against, ``-inf`` for the reverse, ``nan`` for
  the others (a group in between, or cut off from the rest in a resample): its place
  against the mean is not determined.

**The intervals.**  A percentile bootstrap over *games*: the games are resampled with
replacement ``bootstrap`` times, each resample is fitted the same way, and the interval
is the ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` empirical quantiles (order
statistics) of each bot's resampled ratings.  Resampling whole games, not comparisons,
keeps the dependence between the pairs of one multi-player game.  The prior is added to
the pairs that met in the *original* games, so every resample keeps the field connected.
A resample whose rating of a bot is ``nan`` (``prior=0`` only) counts at whichever end
widens the interval.  The resamples come from ``numpy.random.default_rng(seed)``: the
same games and seed give the same intervals.

**Centring.**  Ratings are relative; without an ``anchor`` they are shifted so that
their mean is ``anchor_elo`` (0 by default), in the estimate and in each resample.  With
``anchor="some bot"`` that bot is at ``anchor_elo`` in the estimate and in every
resample, so its interval is ``[anchor_elo, anchor_elo]`` and the others' intervals are
those of their differences to it.

The bots must be connected through the games (who met whom): a field in separate groups
has no common scale, and :func:`fit_ratings` raises :class:`ValueError` naming the groups.
"""

from __future__ import annotations

import json
import math
import numbers
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from boardrules._base import check_seed, exact_int

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "RATINGS_FORMAT",
    "RATINGS_FORMAT_VERSION",
    "GameResult",
    "Rating",
    "Ratings",
    "fit_ratings",
    "pairwise",
]

RATINGS_FORMAT = "boardrules-ratings"
RATINGS_FORMAT_VERSION = 1
#: Elo points per natural-log unit of strength: ``elo = ELO_PER_NAT * ln(g)``.
ELO_PER_NAT = 400.0 / math.log(10.0)
#: Newton stops when no rating moves by more than this (natural-log units: ~2e-8 Elo).
_TOLERANCE = 1e-10
#: Far from the optimum (a huge gap from a tiny prior) Newton gains about 1 a step.
_MAX_ITERATIONS = 1000
#: The bootstrap fits this many resamples at a time (bounds the memory of the gathers).
_CHUNK_ENTRIES = 1 << 22
#: Up to this many games x pairs, a game's comparisons are held as a dense row.
_DENSE_LIMIT = 1 << 22
_PLOT_SUFFIXES = ("png", "svg", "pdf")

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]


# --- games and their comparisons ---

@dataclass(frozen=True)
class GameResult:
    """One finished game as the tournament gives it: the bots at its table (indices into
    the field, distinct, at least two) and each one's place (1 best; equal places tie).

    Lists (and numpy integers) are accepted and stored as tuples of ints; a bool, a
    non-int, a repeated bot, a negative index, a place below 1 or places not matching the
    bots raise at once (:class:`TypeError` / :class:`ValueError`).  Whether an index is
    in the field is checked by :func:`fit_ratings`, which knows the field.
    """

    bots: tuple[int, ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        bots = _int_tuple(self.bots, "bots")
        places = _int_tuple(self.places, "places")
        if len(bots) < 2:
            raise ValueError(f"a game needs at least two bots at its table, not {len(bots)}")
        if len(places) != len(bots):
            raise ValueError(f"a game has one place per bot: {len(bots)} bots but "
                             f"{len(places)} places")
        if len(set(bots)) != len(bots):
            repeated = sorted({b for b in bots if bots.count(b) > 1})
            raise ValueError(f"bot {repeated[0]} sits at the table more than once")
        if min(bots) < 0:
            raise ValueError(f"bot indices are 0 or more, not {min(bots)}")
        if min(places) < 1:
            raise ValueError(f"places are 1 (best) or more, not {min(places)}")
        # frozen: store the checked tuples (a list given is copied, so it cannot change)
        object.__setattr__(self, "bots", bots)
        object.__setattr__(self, "places", places)


def _int_tuple(values: object, name: str) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of ints, not {type(values).__name__}")
    return tuple(_index(v, name) for v in values)


def _index(value: object, name: str) -> int:
    """An int of ``name`` (a numpy integer too, as a simulation may give; not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must hold ints, not {type(value).__name__}")
    return int(value)


def pairwise(result: GameResult) -> list[tuple[int, int, float]]:
    """The game's comparisons: ``(i, j, points of i against j)`` for each pair of bots at
    the table, in table order (``i`` sits before ``j``); 1 if ``i`` placed better, 0.5 on
    equal places, 0 if worse.

    >>> from boardrules.ratings import GameResult, pairwise
    >>> pairwise(GameResult(bots=(2, 0, 1), places=(2, 1, 2)))
    [(2, 0, 0.0), (2, 1, 0.5), (0, 1, 1.0)]
    """
    if not isinstance(result, GameResult):
        raise TypeError(f"pairwise takes a GameResult, not {type(result).__name__}")
    seated = list(zip(result.bots, result.places, strict=True))
    return [(i, j, _points(pi, pj))
            for a, (i, pi) in enumerate(seated) for j, pj in seated[a + 1:]]


def _points(place: int, other: int) -> float:
    return 1.0 if place < other else 0.5 if place == other else 0.0


# --- results ---

@dataclass(frozen=True)
class Rating:
    """One bot's rating.

    * ``elo`` -- the estimate on the Elo scale, ``low``/``high`` its bootstrap interval
      (``low == high == elo`` without a bootstrap); ``+-inf`` or ``nan`` only with
      ``prior=0`` (see the module's description);
    * ``games`` -- the games it played; ``score`` -- its pairwise points in them (1 per
      opponent placed below it, 0.5 per tie, the prior not counted) out of
      ``opponents`` comparisons;
    * ``rank`` -- 1 for the best estimate; equal estimates share a rank, ``nan`` is last.
    """

    bot: str
    elo: float
    low: float
    high: float
    games: int
    score: float
    opponents: int
    rank: int


@dataclass(frozen=True)
class Ratings:
    """The result of :func:`fit_ratings`: one :class:`Rating` per bot in the field's
    order, and the settings of the fit.

    ``anchor`` is the bot fixed at ``anchor_elo``, or None when the ratings' mean is
    ``anchor_elo``; ``confidence`` the intervals' level; ``bootstrap`` the resamples
    (0: no intervals); ``prior`` the virtual draws per pair that met; ``games`` the games
    fitted; ``seed`` the resamples' seed.  ``str(ratings)`` is :meth:`table`;
    :meth:`to_json` / :meth:`from_json` round-trip (a ``nan`` rating, being unequal to
    itself, makes the copies unequal).
    """

    ratings: tuple[Rating, ...]
    anchor: str | None
    anchor_elo: float
    confidence: float
    bootstrap: int
    prior: float
    games: int
    seed: int = 0

    def rating(self, bot: str) -> Rating:
        """The rating of the bot named ``bot`` (KeyError for a name not in the field)."""
        for r in self.ratings:
            if r.bot == bot:
                return r
        raise KeyError(bot)

    def ranked(self) -> list[Rating]:
        """The ratings best first (by rank, then the field's order)."""
        return sorted(self.ratings, key=lambda r: r.rank)

    def table(self) -> str:
        """A plain-text table, best first: rank, bot, Elo, interval, games, score."""
        centre = (f"{self.anchor} at {self.anchor_elo:g}" if self.anchor is not None
                  else f"mean {self.anchor_elo:g}")
        intervals = (f"{_percent(self.confidence)} intervals by {self.bootstrap} bootstraps "
                     f"(seed {self.seed})" if self.bootstrap else "no intervals")
        lines = [f"{len(self.ratings)} bots, {self.games} games, {centre}, {intervals}, "
                 f"prior {self.prior:g}"]
        header = ["#", "bot", "elo", f"{_percent(self.confidence)} CI", "games", "score"]
        rows = [[str(r.rank), r.bot, _elo_text(r.elo),
                 f"[{_elo_text(r.low)}, {_elo_text(r.high)}]", str(r.games),
                 f"{r.score:g}/{r.opponents}"] for r in self.ranked()]
        widths = [max(len(row[c]) for row in [header, *rows]) for c in range(len(header))]
        for row in [header, *rows]:
            cells = [row[c].ljust(widths[c]) if c == 1 else row[c].rjust(widths[c])
                     for c in range(len(header))]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data with a format name and version; an infinite or ``nan`` rating
        is the string ``"inf"``, ``"-inf"`` or ``"nan"`` (standard JSON has no such
        number)."""
        return {
            "format": RATINGS_FORMAT, "format_version": RATINGS_FORMAT_VERSION,
            "anchor": self.anchor, "anchor_elo": self.anchor_elo,
            "confidence": self.confidence, "bootstrap": self.bootstrap,
            "prior": self.prior, "games": self.games, "seed": self.seed,
            "ratings": [{"bot": r.bot, "elo": _json_float(r.elo), "low": _json_float(r.low),
                         "high": _json_float(r.high), "games": r.games, "score": r.score,
                         "opponents": r.opponents, "rank": r.rank} for r in self.ratings],
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.as_dict(), indent=indent, allow_nan=False)

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> Ratings:
        """The ratings back from :meth:`as_dict` (ValueError on another format or a
        malformed document)."""
        if (not isinstance(doc, Mapping) or doc.get("format") != RATINGS_FORMAT
                or doc.get("format_version") != RATINGS_FORMAT_VERSION):
            raise ValueError(f"not a {RATINGS_FORMAT} version {RATINGS_FORMAT_VERSION} "
                             "document")
        try:
            return _ratings_from_doc(doc)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed ratings document: {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> Ratings:
        return cls.from_dict(json.loads(text))

    def plot(self, ax: Axes | None = None, *, title: str | None = None) -> Figure:
        """Each bot's estimate and interval as a horizontal error bar, best at the top;
        a dashed line marks the anchor (or the mean).  Draws on ``ax`` if given, else on a
        new :class:`matplotlib.figure.Figure` (no pyplot: safe without a display), and
        returns the figure.  ``title`` defaults to a summary of the fit.

        An infinite rating or bound is drawn at the plot's edge with an arrow head
        (``>`` or ``<``); a ``nan`` rating has an empty bar and ``nan`` beside its name.
        Needs matplotlib (``pip install boardrules[plot]``).
        """
        try:
            from matplotlib.figure import Figure
        except ImportError as exc:
            raise ImportError("Ratings.plot needs matplotlib: pip install boardrules[plot]"
                              ) from exc
        ranked = self.ranked()
        if ax is None:
            fig = Figure(figsize=(6.4, 1.2 + 0.35 * len(ranked)), layout="constrained")
            ax = fig.add_subplot()
        else:
            owner = ax.get_figure(root=True)
            if not isinstance(owner, Figure):
                raise ValueError("ax must belong to a matplotlib Figure")
            fig = owner
        lo_edge, hi_edge = _plot_range([self.anchor_elo] + [
            v for r in ranked for v in (r.elo, r.low, r.high)])
        n = len(ranked)
        for pos, r in enumerate(ranked):
            _draw_rating(ax, n - 1 - pos, r, lo_edge, hi_edge)
        ax.axvline(self.anchor_elo, color="0.6", linestyle="--", linewidth=1, zorder=0)
        ax.set_yticks(range(n), [_plot_label(r) for r in reversed(ranked)])
        ax.set_xlim(lo_edge, hi_edge)
        ax.set_ylim(-0.7, n - 0.3)
        interval = f"{_percent(self.confidence)} interval" if self.bootstrap else "no interval"
        ax.set_xlabel(f"Elo ({interval})")
        if title is None:
            centre = (f"{self.anchor} = {self.anchor_elo:g}" if self.anchor is not None
                      else f"mean {self.anchor_elo:g}")
            title = f"Ratings: {self.games} games, {centre}"
        ax.set_title(title)
        return fig

    def save_plot(self, path: str | os.PathLike[str], *, title: str | None = None,
                  dpi: float = 150) -> None:
        """Write :meth:`plot` to ``path``: PNG, SVG or PDF by its suffix (ValueError for
        another)."""
        suffix = Path(path).suffix.lower().lstrip(".")
        if suffix not in _PLOT_SUFFIXES:
            raise ValueError(f"save_plot writes .png, .svg or .pdf, not {Path(path).name!r}")
        self.plot(title=title).savefig(path, format=suffix, dpi=dpi)


def _percent(share: float) -> str:
    return f"{share * 100:.6g}%"      # 95%, 97.5%


def _elo_text(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:+.0f}" if math.isinf(value) else \
        f"{value:.0f}"


def _json_float(value: float) -> float | str:
    return value if math.isfinite(value) else repr(value)   # 'inf', '-inf', 'nan'


_NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}
_TOP_KEYS = {"format", "format_version", "anchor", "anchor_elo", "confidence", "bootstrap",
             "prior", "games", "seed", "ratings"}
_RATING_KEYS = {"bot", "elo", "low", "high", "games", "score", "opponents", "rank"}


def _ratings_from_doc(doc: Mapping[str, Any]) -> Ratings:
    """Read a document of the right format (KeyError/TypeError/ValueError on a bad one)."""
    _exact_keys(doc, _TOP_KEYS, "the document")
    entries = doc["ratings"]
    if not isinstance(entries, list) or len(entries) < 2:
        raise ValueError("ratings must be a list of at least two bots")
    ratings = tuple(_rating_from_doc(e) for e in entries)
    names = [r.bot for r in ratings]
    if len(set(names)) != len(names):
        raise ValueError("a bot is named twice")
    anchor = doc["anchor"]
    if anchor is not None and anchor not in names:
        raise ValueError(f"the anchor {anchor!r} is not one of the bots")
    confidence = _doc_number(doc["confidence"], "confidence")
    if not 0 < confidence < 1:
        raise ValueError("confidence must be in (0, 1)")
    values = {k: _doc_count(doc[k], k) for k in ("bootstrap", "games", "seed")}
    prior = _doc_number(doc["prior"], "prior")
    anchor_elo = _doc_number(doc["anchor_elo"], "anchor_elo")
    if prior < 0 or not math.isfinite(prior) or not math.isfinite(anchor_elo):
        raise ValueError("prior must be finite and at least 0, anchor_elo finite")
    return Ratings(ratings=ratings, anchor=anchor, anchor_elo=anchor_elo,
                   confidence=confidence, bootstrap=values["bootstrap"], prior=prior,
                   games=values["games"], seed=values["seed"])


def _rating_from_doc(entry: object) -> Rating:
    if not isinstance(entry, Mapping):
        raise TypeError("each rating must be an object")
    _exact_keys(entry, _RATING_KEYS, "a rating")
    if not isinstance(entry["bot"], str):
        raise TypeError("a bot's name must be a string")
    rank = _doc_count(entry["rank"], "rank")
    if rank < 1:
        raise ValueError("rank must be at least 1")
    return Rating(bot=entry["bot"], elo=_doc_elo(entry["elo"]), low=_doc_elo(entry["low"]),
                  high=_doc_elo(entry["high"]), games=_doc_count(entry["games"], "games"),
                  score=_doc_number(entry["score"], "score"),
                  opponents=_doc_count(entry["opponents"], "opponents"), rank=rank)


def _exact_keys(doc: Mapping[str, Any], keys: set[str], what: str) -> None:
    missing = sorted(keys - set(doc))
    if missing:
        raise ValueError(f"{what} lacks {', '.join(missing)}")
    extra = sorted(map(str, set(doc) - keys))
    if extra:
        raise ValueError(f"{what} has unknown {', '.join(extra)}")


def _doc_count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a whole number, at least 0")
    return value


def _doc_number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number")
    return float(value)


def _doc_elo(value: object) -> float:
    if isinstance(value, str):
        if value not in _NON_FINITE:
            raise ValueError(f"a rating is a number, 'inf', '-inf' or 'nan', not {value!r}")
        return _NON_FINITE[value]
    return _doc_number(value, "a rating")


# --- plotting helpers ---

def _plot_range(values: Iterable[float]) -> tuple[float, float]:
    """The x range: the finite values with a margin (room for an infinite one's arrow)."""
    finite = [v for v in values if math.isfinite(v)]
    lo, hi = min(finite), max(finite)   # anchor_elo is always among them
    margin = max(0.08 * (hi - lo), 25.0)
    return lo - margin, hi + margin


def _plot_label(r: Rating) -> str:
    return r.bot if math.isfinite(r.elo) else f"{r.bot} ({_elo_text(r.elo)})"


def _draw_rating(ax: Axes, y: int, r: Rating, lo_edge: float, hi_edge: float) -> None:
    """One bot's bar; infinite ends clipped to the edges and marked with an arrow head."""
    def clip(v: float) -> float:
        return lo_edge if v == -math.inf else hi_edge if v == math.inf else v

    if math.isnan(r.elo):
        ax.errorbar([], [], xerr=[], fmt="o", color="C0", capsize=3)
        return
    x, low, high = clip(r.elo), clip(r.low), clip(r.high)
    # nan bounds (never with a finite estimate, but a loaded document may hold them)
    low, high = (x if math.isnan(low) else low), (x if math.isnan(high) else high)
    ax.errorbar([x], [y], xerr=[[max(x - low, 0.0)], [max(high - x, 0.0)]],
                fmt="o" if math.isfinite(r.elo) else "none", color="C0", capsize=3)
    for sign in {math.copysign(1.0, v) for v in (r.elo, r.low, r.high) if math.isinf(v)}:
        ax.plot([hi_edge if sign > 0 else lo_edge], [y], marker=">" if sign > 0 else "<",
                color="C0", linestyle="none", clip_on=False)


# --- fitting ---

def fit_ratings(games: Iterable[GameResult], bots: Sequence[str], *,
                anchor: str | None = None, anchor_elo: float = 0.0,
                confidence: float = 0.95, bootstrap: int = 1000, prior: float = 1.0,
                seed: int | None = 0) -> Ratings:
    """Fit Bradley-Terry ratings of the field ``bots`` (their names; a game's bot ``i`` is
    ``bots[i]``) to ``games``, with bootstrap intervals (see the module's description).

    * ``anchor`` -- a bot's name to fix at ``anchor_elo``; None: the mean is at
      ``anchor_elo``;
    * ``confidence`` -- the intervals' level, in (0, 1); ``bootstrap`` -- the resamples
      (0: no intervals, ``low == high == elo``);
    * ``prior`` -- virtual draws added to each pair of bots that met (0 or more);
    * ``seed`` -- the resamples' seed (None: a fresh one, recorded in the result).

    Raises :class:`TypeError` for an argument of the wrong type (a bool where a number is
    due included) and :class:`ValueError` for a bad value: fewer than two bots, a name
    given twice, a game's bot not in the field, an unknown anchor, a bot with no game,
    a field in groups that never met (naming the groups), or a prior so close to 0 (below
    about 1e-300) that the finite ratings it gives are beyond floating point.
    """
    names = _check_bots(bots)
    results = _check_games(games, len(names))
    anchor_index = _check_anchor(anchor, names)
    anchor_elo = _real(anchor_elo, "anchor_elo")
    confidence = _real(confidence, "confidence")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), not {confidence}")
    bootstrap = exact_int(bootstrap, "bootstrap")
    if bootstrap < 0:
        raise ValueError(f"bootstrap must be 0 (no intervals) or more, not {bootstrap}")
    prior = _real(prior, "prior")
    if prior < 0:
        raise ValueError(f"prior must be 0 or more, not {prior}")
    used_seed = check_seed(seed)

    data = _Comparisons(results, len(names))
    _check_connected(data, names)
    fit = _Fitter(data, prior, anchor_index, anchor_elo)
    try:
        elo = fit.ratings(np.ones((1, len(results))))[0]
        if bootstrap:
            low, high = _bootstrap(fit, len(results), bootstrap, confidence, used_seed)
        else:
            low, high = elo.copy(), elo.copy()
    except np.linalg.LinAlgError:
        # only a prior so close to 0 that a gap of hundreds of natural-log units (beyond
        # floating point's odds) is finite gets here
        raise ValueError(f"prior {prior:g} is too small to fit in floating point: use 0 "
                         "(infinite ratings) or a larger prior") from None
    ranks = _ranks(elo)
    ratings = tuple(
        Rating(bot=names[i], elo=float(elo[i]), low=float(low[i]), high=float(high[i]),
               games=int(data.games_played[i]), score=float(data.score[i]),
               opponents=int(data.opponents[i]), rank=ranks[i])
        for i in range(len(names)))
    return Ratings(ratings=ratings, anchor=anchor, anchor_elo=anchor_elo,
                   confidence=confidence, bootstrap=bootstrap, prior=prior,
                   games=len(results), seed=used_seed)


def _check_bots(bots: Sequence[str]) -> list[str]:
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise TypeError("bots must be a sequence of names (str)")
    names = list(bots)
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"each bot name must be a str, not {type(name).__name__}")
    if len(names) < 2:
        raise ValueError(f"ratings need at least two bots, not {len(names)}")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"bot names must be distinct: {', '.join(map(repr, twice))} "
                         "given more than once")
    return names


def _check_games(games: Iterable[GameResult], num_bots: int) -> list[GameResult]:
    if isinstance(games, (str, bytes, GameResult)) or not isinstance(games, Iterable):
        raise TypeError("games must be an iterable of GameResult")
    results = list(games)
    for g, result in enumerate(results):
        if not isinstance(result, GameResult):
            raise TypeError(f"game {g} is a {type(result).__name__}, not a GameResult")
        if max(result.bots) >= num_bots:
            raise ValueError(f"game {g} seats bot {max(result.bots)}, but the field has "
                             f"{num_bots} bots (indices 0 to {num_bots - 1})")
    return results


def _check_anchor(anchor: str | None, names: list[str]) -> int | None:
    if anchor is None:
        return None
    if not isinstance(anchor, str):
        raise TypeError(f"anchor must be a bot's name or None, not {type(anchor).__name__}")
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the bots: {', '.join(names)}")
    return names.index(anchor)


def _real(value: object, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, not {number}")
    return number


def _check_connected(data: _Comparisons, names: list[str]) -> None:
    """ValueError for a bot with no game, and for a field in groups that never met."""
    idle = [names[i] for i in range(len(names)) if data.games_played[i] == 0]
    if idle:
        raise ValueError(f"no game for {', '.join(idle)}: a bot needs games to be rated")
    groups = _groups(len(names), data.pair_i, data.pair_j)
    if len(groups) > 1:
        listed = "; ".join("{" + ", ".join(names[i] for i in g) + "}" for g in groups)
        raise ValueError(f"the bots fall into {len(groups)} groups that never met, whose "
                         f"ratings have no common scale: {listed}")


def _groups(k: int, pair_i: IntArray, pair_j: IntArray) -> list[list[int]]:
    """The connected groups of the graph of who met whom, each in the field's order."""
    parent = list(range(k))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in zip(pair_i.tolist(), pair_j.tolist(), strict=True):
        parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for x in range(k):
        groups.setdefault(root(x), []).append(x)
    return list(groups.values())


class _Comparisons:
    """The games as comparisons of the pairs that met (``i < j``): one *entry* per pair of
    each game, sorted by pair, so a resample's totals are sums over entries weighted by
    how often the resample drew each game."""

    def __init__(self, results: Sequence[GameResult], k: int) -> None:
        self.k = k
        self.games_played = np.zeros(k, dtype=np.intp)
        self.score = np.zeros(k)
        self.opponents = np.zeros(k, dtype=np.intp)
        # (an empty piece each, so that no games concatenate to no comparisons)
        games, first, second, points = ([np.zeros(0, dtype=np.intp)] for _ in range(4))
        # the comparisons of all the games with s bots at once (what pairwise() gives)
        for size in sorted({len(r.bots) for r in results}):
            index = [g for g, r in enumerate(results) if len(r.bots) == size]
            bots = np.array([results[g].bots for g in index], dtype=np.intp)
            places = np.array([results[g].places for g in index])
            left, right = np.triu_indices(size, 1)
            won = places[:, left] < places[:, right]
            tied = places[:, left] == places[:, right]
            games.append(np.repeat(np.asarray(index, dtype=np.intp), len(left)))
            first.append(bots[:, left].ravel())
            second.append(bots[:, right].ravel())
            points.append(np.where(won, 1.0, np.where(tied, 0.5, 0.0)).ravel())
            self.games_played += np.bincount(bots.ravel(), minlength=k)
        game, i, j, pts = (np.concatenate(a) for a in (games, first, second, points))
        self.score += np.bincount(i, pts, k) + np.bincount(j, 1.0 - pts, k)
        self.opponents += np.bincount(i, None, k) + np.bincount(j, None, k)
        # each pair as (lower index, higher index), with the points of the lower one
        swap = i > j
        lo, hi = np.where(swap, j, i), np.where(swap, i, j)
        pts = np.where(swap, 1.0 - pts, pts)
        codes, pair_index = np.unique(lo * k + hi, return_inverse=True)
        self.pair_i, self.pair_j = codes // k, codes % k
        order = np.argsort(pair_index, kind="stable")
        self.entry_game, self.entry_points = game[order], pts[order]
        self.starts = np.searchsorted(pair_index[order], np.arange(len(codes)))
        # few enough games x pairs: the same sums as a (BLAS) matrix product, much faster
        self.dense: tuple[FloatArray, FloatArray] | None = None
        size = len(results) * len(codes)
        if size <= _DENSE_LIMIT:
            cell = game * len(codes) + pair_index
            shape = (len(results), len(codes))
            self.dense = (np.bincount(cell, pts, size).astype(np.float64).reshape(shape),
                          np.bincount(cell, None, size).astype(np.float64).reshape(shape))

    def totals(self, weights: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Each row's points of ``i`` against ``j`` and comparisons, pair by pair, for
        ``weights`` (rows x games: how often each game counts)."""
        if self.dense is not None:
            return weights @ self.dense[0], weights @ self.dense[1]
        drawn = weights[:, self.entry_game]
        points = np.add.reduceat(drawn * self.entry_points, self.starts, axis=1)
        counts = np.add.reduceat(drawn, self.starts, axis=1)
        return points, counts


class _Fitter:
    """Ratings on the Elo scale for rows of game weights (the data: all ones; a bootstrap
    resample: how often it drew each game), centred as asked."""

    def __init__(self, data: _Comparisons, prior: float, anchor: int | None,
                 anchor_elo: float) -> None:
        self.data, self.prior, self.anchor, self.anchor_elo = data, prior, anchor, anchor_elo
        k, p = data.k, len(data.pair_i)
        # signed incidence: the rating difference of pair p is (theta @ incidence.T)[p]
        self.incidence = np.zeros((p, k))
        self.incidence[np.arange(p), data.pair_i] = 1.0
        self.incidence[np.arange(p), data.pair_j] = -1.0

    def ratings(self, weights: FloatArray) -> FloatArray:
        points, counts = self.data.totals(weights)
        # i's points and j's, kept apart: a tiny prior added to a count would be lost;
        # the prior: virtual draws on every pair that met in the original games
        wins, losses = points + self.prior / 2, counts - points + self.prior / 2
        rows, k = weights.shape[0], self.data.k
        ref = np.full(rows, 0 if self.anchor is None else self.anchor, dtype=np.intp)
        active = np.ones((rows, k), dtype=bool)
        special: FloatArray | None = None
        if self.prior == 0:
            active, special = self._unbounded(wins, losses)
            wins, losses = self._within(wins, losses, active)
        theta = _newton(wins, losses, self.incidence, self.data.pair_i,
                        self.data.pair_j, active, ref)
        elo = ELO_PER_NAT * theta
        if self.anchor is None:
            elo -= elo.mean(axis=1, keepdims=True)
        elo += self.anchor_elo
        if special is not None:
            elo = np.where(np.isnan(special), elo, special)
            elo[np.isnan(special) & ~active] = np.nan
        return elo

    def _unbounded(self, wins: FloatArray, losses: FloatArray
                   ) -> tuple[BoolArray, FloatArray]:
        """With no prior: for each row the bots given a finite rating (``active``) and the
        others' value (``+inf``/``-inf``, ``nan`` where undetermined; ``nan`` also marks
        the active ones), from who reaches whom in the graph of "scored against"."""
        rows, k = wins.shape[0], self.data.k
        pi, pj = self.data.pair_i, self.data.pair_j
        reach = np.zeros((rows, k, k), dtype=np.int64)
        reach[:, np.arange(k), np.arange(k)] = 1
        reach[:, pi, pj] = wins > 0      # i scored against j
        reach[:, pj, pi] = losses > 0    # j scored against i
        for _ in range(max(1, math.ceil(math.log2(k)))):
            reach = np.minimum(reach @ reach, 1)
        beats = reach.astype(bool)                # beats[r, i, j]: i reaches j
        strong = np.asarray(beats.all(axis=(1, 2)), dtype=bool)
        special = np.full((rows, k), np.nan)
        if self.anchor is not None:
            a = self.anchor
            up, down = beats[:, :, a], beats[:, a, :]
            active = up & down
            special[up & ~down] = math.inf
            special[down & ~up] = -math.inf
        else:
            above = (beats.transpose(0, 2, 1) & ~beats).any(axis=2)  # someone outside reaches i
            below = (beats & ~beats.transpose(0, 2, 1)).any(axis=2)  # i reaches someone outside
            active = np.repeat(strong[:, None], k, axis=1)
            special[~strong[:, None] & ~above & below] = math.inf
            special[~strong[:, None] & above & ~below] = -math.inf
        return active, special

    def _within(self, wins: FloatArray, losses: FloatArray, active: BoolArray
                ) -> tuple[FloatArray, FloatArray]:
        """Only the comparisons between two active bots count."""
        keep = active[:, self.data.pair_i] & active[:, self.data.pair_j]
        return np.where(keep, wins, 0.0), np.where(keep, losses, 0.0)


def _newton(wins: FloatArray, losses: FloatArray, incidence: FloatArray, pair_i: IntArray,
            pair_j: IntArray, active: BoolArray, ref: IntArray) -> FloatArray:
    """The maximum-likelihood log-strengths of each row (``wins``/``losses``: the points
    of ``i`` and of ``j``, pair by pair), 0 at the row's ``ref`` bot (and at inactive
    bots, which have no comparison), by Newton's method with step halving."""
    rows, k = active.shape
    theta = np.zeros((rows, k))
    diag, row_index = np.arange(k), np.arange(rows)
    loglik = _loglik(theta, wins, losses, incidence)
    for _ in range(_MAX_ITERATIONS):
        diff = theta @ incidence.T
        # log P(i beats j) and log P(j beats i), each without overflow or cancellation
        log_p, log_q = -np.logaddexp(0.0, -diff), -np.logaddexp(0.0, diff)
        gradient = (wins * np.exp(log_q) - losses * np.exp(log_p)) @ incidence
        weight = (wins + losses) * np.exp(log_p + log_q)
        # minus the Hessian: the Laplacian of the pairs weighted by their variance; the
        # ratings are defined up to a shift, so pinning ref (and each inactive bot) makes
        # it invertible, and the solution then leaves ref where it is
        lap = np.zeros((rows, k, k))
        lap[:, pair_i, pair_j] = -weight
        lap[:, pair_j, pair_i] = -weight
        lap[:, diag, diag] = weight @ np.abs(incidence) + ~active
        lap[row_index, ref, ref] += 1.0
        step = np.linalg.solve(lap, gradient[:, :, None])[:, :, 0]
        scale = np.ones(rows)
        for _ in range(60):
            trial = theta + scale[:, None] * step
            trial_loglik = _loglik(trial, wins, losses, incidence)
            worse = trial_loglik < loglik - 1e-12 * (1.0 + np.abs(loglik))
            if not worse.any():
                break
            scale[worse] /= 2
        theta, loglik = trial, np.maximum(trial_loglik, loglik)
        if np.abs(scale[:, None] * step).max(initial=0.0) < _TOLERANCE:
            break
    else:
        raise np.linalg.LinAlgError("the ratings fit did not converge")
    result: FloatArray = theta - theta[row_index, ref][:, None]
    return result


def _loglik(theta: FloatArray, wins: FloatArray, losses: FloatArray,
            incidence: FloatArray) -> FloatArray:
    diff = theta @ incidence.T
    # log P(i beats j) = -log(1 + exp(-diff)); a draw is half a win to each side
    total: FloatArray = -(wins * np.logaddexp(0.0, -diff)
                          + losses * np.logaddexp(0.0, diff)).sum(axis=1)
    return total


def _bootstrap(fit: _Fitter, num_games: int, resamples: int, confidence: float,
               seed: int) -> tuple[FloatArray, FloatArray]:
    """The percentile interval of each bot's rating over ``resamples`` resamples of the
    games (fitted a chunk of resamples at a time)."""
    rng = np.random.default_rng(seed)
    gathered = num_games if fit.data.dense is not None else len(fit.data.entry_game)
    chunk = max(1, _CHUNK_ENTRIES // max(num_games, gathered))
    parts = []
    for start in range(0, resamples, chunk):
        rows = min(chunk, resamples - start)
        drawn = rng.integers(0, num_games, size=(rows, num_games))
        # how often each row drew each game
        drawn += np.arange(0, rows * num_games, num_games)[:, None]
        weights = np.bincount(drawn.ravel(), minlength=rows * num_games)
        parts.append(fit.ratings(weights.reshape(rows, num_games).astype(np.float64)))
    elo = np.concatenate(parts)
    q_low, q_high = (1 - confidence) / 2, (1 + confidence) / 2
    # a nan resample (prior 0) goes to whichever end widens the interval
    low = _order_statistic(np.where(np.isnan(elo), -math.inf, elo), q_low)
    high = _order_statistic(np.where(np.isnan(elo), math.inf, elo), q_high)
    return low, high


def _order_statistic(values: FloatArray, q: float) -> FloatArray:
    """The empirical ``q``-quantile of each column (the smallest value with at least a
    share ``q`` at or below it): an order statistic, so infinite values need no
    arithmetic."""
    n = values.shape[0]
    index = min(n - 1, max(0, math.ceil(q * n - 1e-9) - 1))
    result: FloatArray = np.sort(values, axis=0)[index]
    return result


def _ranks(elo: FloatArray) -> list[int]:
    """1 for the best; equal ratings (to a millionth of a point) share a rank; nan last."""
    keys = [(0, 0.0) if math.isnan(v) else (1, round(float(v), 6)) for v in elo]
    return [1 + sum(other > key for other in keys) for key in keys]
