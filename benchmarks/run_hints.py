"""Hints you can trust, measured (issue 34; docs/ai_search.rst, "Hints you can trust: the
figures"): four parts, each resumable after Ctrl-C, each writing its raw results to
``benchmarks/results/hints-*.jsonl`` and its table to ``docs/figures/hints_<part>.rst``.

    python benchmarks/run_hints.py                          # every part, full size (hours)
    python benchmarks/run_hints.py --only separation        # one part (or a list: a,b)
    python benchmarks/run_hints.py --only separation --game armada   # one game
    python benchmarks/run_hints.py --games 4 --positions 2  # reduced, to check it runs
    python benchmarks/run_hints.py --render-only            # the tables from the results

* ``separation`` -- ``suggest(state, seed=...)`` with the defaults on five seeded
  mid-game positions (:func:`boardrules.bench.seeded_positions`) of every option set of
  :data:`OPTION_SETS`: separated, tied, sure, why it stopped, iterations, the CPU seconds
  of the call (``time.process_time`` around it) and the best move's visits.  Target:
  separated on at least 80% of the positions, within about 1 s of CPU each.
* ``ladder`` -- the default search at 1x, 4x and 16x a base budget (``--base-cpu`` CPU
  seconds a move, default 0.05, or ``--base-iterations``), each step against the one
  below, seats rotated.  Target: each step up scores at least 60%.
* ``previous`` -- the default against 0.6.0's default (:func:`legacy_spec`) at the same
  ``cpu_limit`` a move (``--cpu``, default 0.2 s), and against the greedy bot.  Targets:
  65% and 90%.
* ``openspiel`` -- connect four's default MCTS against OpenSpiel's C++ ``MCTSBot`` at the
  same CPU time a move (``--times``, default 0.05 and 0.2 s; colours alternated).
  Target: 95%.

Matches are two-bot round robins of :mod:`boardrules.tournament` (``pair_matches.py``):
each game finished is appended to its file, which is named after both budgets and the
number of games, so a reduced run never mixes with a full one and the same command
resumes.  Scores count a win 1 and a draw a half; intervals are the arena's 95% Wilson
intervals.  Separation results are one line per position, keyed by game, options,
position and seed: a position already measured is not measured again (delete the file
to measure anew).  CPU budgets are CPU seconds of each search thread, so a match's
result does not depend on the load of the machine; the tables' s/move columns are the
arena's wall seconds a move.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import pair_matches as pm
from bench_tables import machine_summary
from run_search import grid
from search_workloads import UCT_C, openspiel_available

import boardrules
from boardrules.arena import parse_bot, wilson_interval
from boardrules.bench import POSITION_HISTORY, POSITION_SEED, search_algorithm, seeded_positions
from boardrules.search import suggest

PARTS = ("separation", "ladder", "previous", "openspiel")
GAMES = ("armadora", "rome_and_carthage", "armada", "albion")
SEED = 2034
SCRIPT = "run_hints.py"

#: The main option sets of each game (``Game.example_options`` without the variants of a
#: variant: Armadora's face-down rule off and its small sheet board, Rome & Carthage's
#: equal-arms and rapid-conquest games, Armada's reaction windows): every player count
#: each game takes, and each game's variant options at least once: 14 sets, 70 positions,
#: the per-game counts of the issue's first figure (20, 15, 20 and 15 positions; its
#: total, "of 85", does not add up from them).
OPTION_SETS: Mapping[str, Sequence[Mapping[str, Any]]] = {
    "armadora": ({"players": 2, "variant": "basic"}, {"players": 2, "variant": "advanced"},
                 {"players": 3, "variant": "advanced"}, {"players": 4, "variant": "basic"}),
    "rome_and_carthage": ({"players": 2, "max_rounds": 12}, {"players": 3, "max_rounds": 10},
                          {"players": 4, "max_rounds": 10, "first_player": 1}),
    "armada": ({"players": 4, "max_rounds": 3},
               {"players": 2, "max_rounds": 3, "recruitment": True},
               {"players": 3, "max_rounds": 3, "cards": True, "neutral": "green"},
               {"players": 4, "max_rounds": 2, "cards": True, "recruitment": True}),
    "albion": ({"players": 2, "max_rounds": 6}, {"players": 3, "max_rounds": 5, "first_player": 2},
               {"players": 4, "max_rounds": 4, "start_region_tribute": True}),
}
#: Actions of random play before a position counts as mid-game: the bench's, and for
#: Armadora (whose bench searches the opening) half a random game (random games of the
#: four sets last a median 70 to 84 actions, setup included).
MID_GAME = {"armadora": 35, **POSITION_HISTORY}
POSITIONS = 5
#: The matches' option set: two players, as in run_defaults.py.
MATCH_OPTIONS: Mapping[str, Any] = {"players": 2}

#: 0.6.0's default search, written out so that a later change of a game's defaults does
#: not change it: (iterations of its "normal" level, exploration, rollout_limit).
#: Armadora's rollouts ran to the end (10**6: more moves than any game has).
LEGACY = {"armadora": (10_000, 1.0, 10**6), "rome_and_carthage": (30_000, 1.0, 30),
          "armada": (30_000, 0.005, 0), "albion": (30_000, 0.05, 0)}
LADDER_STEPS = (1, 4, 16)

TARGETS = {"separation": 0.80, "ladder": 0.60, "previous": 0.65, "greedy": 0.90,
           "openspiel": 0.95}


def clock_text(part: str, args: argparse.Namespace) -> str:
    """The clock of a part's table, and the budget it gave, as its page says them."""
    if part == "separation":
        revisions = sorted({str(d.get("revision", "unknown"))
                            for d in read_lines(separation_path())})
        return ("clock: CPU seconds of each suggest() call (time.process_time around it); "
                f"measured on {', '.join(revisions)}")
    if part == "ladder" and args.base_iterations is not None:
        budget = f"iteration caps, 1x = {args.base_iterations:,} iterations a move"
    elif part == "ladder":
        budget = (f"CPU-limited bots (cpu_limit: CPU seconds of each search thread), "
                  f"1x = {args.base_cpu:g} CPU s a move")
    elif part == "previous":
        budget = f"both searches cpu_limit={args.cpu:g} CPU s a move"
    else:
        budget = ("ours cpu_limit, OpenSpiel's simulations sized by its CPU rate on its "
                  "previous move, the same CPU seconds a move")
    return f"budgets: {budget}; s/move columns: the arena's wall seconds"


# --- results files --------------------------------------------------------------------------


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of ``path`` (none when it is missing); a last line cut short by an
    interruption is left out."""
    if not path.exists():
        return []
    lines = []
    for text in path.read_text(encoding="utf-8").splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            continue
    return lines


def append_line(path: Path, doc: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(doc, sort_keys=True) + "\n")


def options_text(options: Mapping[str, Any]) -> str:
    """``players=2, variant=basic``: an option set as a table shows it and a key holds it."""
    return ", ".join(f"{k}={v}" for k, v in options.items())


def options_key(options: Mapping[str, Any]) -> str:
    """An option set whatever the order of its keys (a results line sorts them)."""
    return json.dumps(dict(options), sort_keys=True)


def position_key(game_id: str, options: Mapping[str, Any], index: int) -> tuple[str, str, int]:
    return game_id, options_key(options), index


def pending_positions(done: Iterable[Mapping[str, Any]], game_id: str,
                      options: Mapping[str, Any], count: int) -> list[int]:
    """The positions among the first ``count`` of a set that no line of ``done`` measured
    (what a resumed run still has to do)."""
    measured = {position_key(d["game"], d["options"], d["position"]) for d in done}
    return [i for i in range(count) if position_key(game_id, options, i) not in measured]


# --- part 1: separation -----------------------------------------------------------------------


def separation_path() -> Path:
    return pm.RESULTS / "hints-separation.jsonl"


def measure_position(game_id: str, options: Mapping[str, Any], index: int,
                     state: boardrules.State[Any]) -> dict[str, Any]:
    """One default hint: ``suggest(state, seed=...)`` timed on the CPU clock."""
    seed = SEED + index
    start = time.process_time()
    hint = suggest(state, seed=seed)
    cpu = time.process_time() - start
    return {"game": game_id, "options": dict(options), "position": index, "seed": seed,
            "moves": len(state.legal_moves()), "separated": bool(hint.separated),
            "tied": len(hint.tied), "sure": bool(hint.sure), "stopped": hint.stats["stopped"],
            "iterations": hint.stats["iterations"], "cpu_seconds": round(cpu, 4),
            "search_cpu_seconds": hint.stats.get("cpu_seconds"),
            "best_visits": hint.best_visits, "confidence": hint.confidence}


def source_revision() -> str:
    """The tree measured (``git describe --always --dirty``): a line of results says
    which search it measured, since resuming keeps lines of earlier runs."""
    try:
        out = subprocess.run(["git", "-C", str(pm.ROOT), "describe", "--always", "--dirty"],
                             capture_output=True, text=True, check=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() or "unknown"


def forget_separation(games: Sequence[str]) -> None:
    """Drop the lines of ``games`` from the results (``--fresh``: measure them anew)."""
    path = separation_path()
    kept = [d for d in read_lines(path) if d["game"] not in games]
    path.write_text("".join(json.dumps(d, sort_keys=True) + "\n" for d in kept),
                    encoding="utf-8")


def play_separation(games: Sequence[str], positions: int) -> None:
    path = separation_path()
    revision = source_revision()
    for game_id in games:
        for options in OPTION_SETS[game_id]:
            todo = pending_positions(read_lines(path), game_id, options, positions)
            if not todo:
                continue
            game = boardrules.load(game_id, **options)
            states = seeded_positions(game, positions, POSITION_SEED, MID_GAME[game_id])
            for index in todo:
                line = measure_position(game_id, options, index, states[index])
                append_line(path, {**line, "revision": revision})
                print(f"separation {game_id} ({options_text(options)}) #{index}: "
                      f"separated={line['separated']} stopped={line['stopped']} "
                      f"{line['cpu_seconds']:.2f} CPU s", file=sys.stderr, flush=True)


def separation_row(game_id: str, options: str, lines: Sequence[Mapping[str, Any]]) -> list[str]:
    cpu = [d["cpu_seconds"] for d in lines]
    stopped: dict[str, int] = {}
    for d in lines:
        stopped[str(d["stopped"])] = stopped.get(str(d["stopped"]), 0) + 1
    n = len(lines)
    return [game_id, options, f"{sum(d['separated'] for d in lines)} of {n}",
            f"{sum(d['sure'] for d in lines)} of {n}", f"{sum(d['tied'] > 0 for d in lines)}",
            ", ".join(f"{k} {v}" for k, v in sorted(stopped.items())),
            f"{statistics.median(cpu):.2f}", f"{max(cpu):.2f}",
            f"{statistics.median(d['best_visits'] for d in lines):,.0f}"]


def separation_table(lines: Sequence[Mapping[str, Any]], positions: int) -> str:
    """A row per game and option set (its first ``positions`` positions measured), in
    the order of :data:`OPTION_SETS`, and a last row over them all with the share
    separated, its Wilson interval and the target."""
    rows: list[list[str]] = []
    kept: list[Mapping[str, Any]] = []
    for game_id, sets in OPTION_SETS.items():
        for options in sets:
            key = options_key(options)
            mine = sorted((d for d in lines if d["game"] == game_id
                           and options_key(d["options"]) == key
                           and d["position"] < positions), key=lambda d: d["position"])
            if mine:
                rows.append(separation_row(game_id, options_text(options), mine))
                kept += mine
    if kept:
        rows.append(separation_total(kept))
    return grid(["game", "options", "separated", "sure", "with ties", "stopped",
                 "median CPU s", "largest CPU s", "median best visits"], rows)


def separation_total(lines: Sequence[Mapping[str, Any]]) -> list[str]:
    n = len(lines)
    separated = sum(d["separated"] for d in lines)
    share = separated / n
    low, high = wilson_interval(separated, n)
    cpu = [d["cpu_seconds"] for d in lines]
    return ["all", f"{n} positions: {100 * share:.0f}% separated "
            f"({100 * low:.0f}-{100 * high:.0f}%); target 80%: "
            f"{pm.verdict(low, share, TARGETS['separation'])}",
            f"{separated} of {n}", f"{sum(d['sure'] for d in lines)} of {n}",
            f"{sum(d['tied'] > 0 for d in lines)}", "",
            f"{statistics.median(cpu):.2f}", f"{max(cpu):.2f}", ""]


# --- parts 2 and 3: matches of two bots -----------------------------------------------------


def default_spec(game_id: str, budget: str) -> str:
    """The default search of ``game_id`` (the algorithm ``suggest`` picks) at ``budget``:
    ``"cpu_limit=0.2"`` keeps the ``"normal"`` level (its iteration cap, its stop once
    the answer is sure) with that CPU limit instead of the level's second; an iteration
    cap (``"iterations=3000"``) cannot go with a level, and asks for the stop when sure
    itself (an explicit budget is otherwise searched out)."""
    algorithm = search_algorithm(boardrules.load(game_id))
    if budget.startswith("iterations="):
        return f"{algorithm}:{budget},until_sure=true"
    return f"{algorithm}:level=normal,{budget}"


def legacy_spec(game_id: str, cpu_limit: float) -> str:
    """0.6.0's default search, CPU-limited like the default it meets."""
    iterations, exploration, rollout_limit = LEGACY[game_id]
    algorithm = search_algorithm(boardrules.load(game_id))
    return (f"{algorithm}:iterations={iterations},until_sure=false,root_selection=uct,"
            f"rollout_policy=random,exploration={exploration!r},rollout_limit={rollout_limit},"
            f"cpu_limit={cpu_limit!r}")


def ladder_budget(base_cpu: float, base_iterations: int | None, step: int) -> str:
    if base_iterations is not None:
        return f"iterations={base_iterations * step}"
    return f"cpu_limit={round(base_cpu * step, 6)!r}"


def ladder_pairs(game_id: str, base_cpu: float,
                 base_iterations: int | None) -> list[tuple[str, str]]:
    """(step up, step below) for each step of the ladder."""
    specs = [default_spec(game_id, ladder_budget(base_cpu, base_iterations, k))
             for k in LADDER_STEPS]
    return list(zip(specs[1:], specs[:-1], strict=True))


def slug(spec: str) -> str:
    """A bot spec as a file name part: ``ismcts:cpu_limit=0.2`` -> ``ismcts-cpu_limit0.2``."""
    return spec.replace(":", "-").replace("=", "").replace(",", "-")


def match_path(part: str, game_id: str, bots: Sequence[str], games: int) -> Path:
    return pm.RESULTS / f"hints-{part}-{game_id}-{'-vs-'.join(map(slug, bots))}-g{games}.jsonl"


def match_row(cells: list[str], result: Any, target: float) -> list[str]:
    """``cells``, the first bot's score cells, the games each side lost by forfeit (a
    bot that raised or chose an illegal move: a broken run, not a weak bot) and the
    target's verdict."""
    first, second = (next(s for s in result.standings if s.bot == b) for b in result.bots)
    low, _ = wilson_interval(first.score, first.games)
    return [*cells, *pm.score_cells(result), f"{first.forfeits}-{second.forfeits}",
            f"{100 * target:.0f}%: {pm.verdict(low, first.score / first.games, target)}"]


SCORE_HEADER = ["games", "won-drawn-lost", "score", "95% interval", "wall s/move",
                "opponent wall s/move", "forfeits", "target"]


# --- part 4: OpenSpiel --------------------------------------------------------------------


def column_heights(state: boardrules.State[Any]) -> list[int]:
    """The discs in each column of a connect four position (its text: a title line,
    then the rows top to bottom, ``.`` an empty cell)."""
    rows = state.position().splitlines()[1:]
    return [sum(row[c] != "." for row in rows) for c in range(len(rows[0]))]


class OpenSpielMCTS:
    """OpenSpiel's C++ ``MCTSBot`` (one random rollout a simulation, UCT constant
    :data:`search_workloads.UCT_C`, no solver) playing a boardrules connect four game,
    given ``seconds`` of CPU a move: it has no time limit, so each move gets the
    simulations its rate so far (simulations per CPU second of its last move; a first
    guess of 20,000 a second) buys, and :attr:`cpu_seconds` keeps what each move took.

    The arena hands a bot a world without history (:func:`boardrules.arena.fair_state`),
    so the bot keeps its own OpenSpiel state: its own moves, and the opponent's one disc
    found between two calls by the columns that grew (one bot a game and seat)."""

    def __init__(self, seconds: float, seed: int) -> None:
        import pyspiel

        self._pyspiel = pyspiel
        self._game = pyspiel.load_game("connect_four")
        self._theirs = self._game.new_initial_state()
        self._heights = [0] * self._game.num_distinct_actions()
        self._evaluator = pyspiel.RandomRolloutEvaluator(1, seed % 2**31)
        self._seconds = seconds
        self._seed = seed % 2**31
        self._rate = 20_000.0
        self.cpu_seconds: list[float] = []

    def _catch_up(self, state: boardrules.State[Any]) -> None:
        """Play the opponent's disc, found by the column that grew, into our state."""
        grown = [c for c, (now, seen) in enumerate(zip(column_heights(state), self._heights,
                                                       strict=True)) if now != seen]
        if len(grown) > 1:
            raise ValueError(f"columns {grown} changed since the last move: one bot a game")
        for column in grown:
            self._play(column)

    def _play(self, action: int) -> None:
        self._theirs.apply_action(action)
        self._heights[action] += 1

    def choose(self, state: boardrules.State[Any]) -> Any:
        self._catch_up(state)
        simulations = max(1, int(self._rate * self._seconds))
        bot = self._pyspiel.MCTSBot(self._game, self._evaluator, UCT_C, simulations, 1000,
                                    False, self._seed + sum(self._heights), False)
        start = time.process_time()
        action = bot.step(self._theirs)
        used = time.process_time() - start
        self.cpu_seconds.append(used)
        self._rate = simulations / max(used, 1e-4)
        self._play(action)
        return state.game.move(action)


class CpuLogged:
    """A bot whose every move's CPU seconds (``time.process_time`` around ``choose``,
    in this process) are appended to ``log`` under ``label``: the arena times moves on
    the wall clock, and "the same CPU time a move" is checked on the CPU clock."""

    def __init__(self, inner: Any, label: str, log: Path) -> None:
        self.inner, self._label, self._log = inner, label, log

    def choose(self, state: boardrules.State[Any]) -> Any:
        start = time.process_time()
        move = self.inner.choose(state)
        append_line(self._log, {"bot": self._label, "cpu": time.process_time() - start})
        return move


def cpu_logged(label: str, make: Callable[[int], Any], log: Path) -> Callable[..., CpuLogged]:
    """An arena bot factory named ``label`` whose bots log their CPU a move."""
    def factory(seed: int) -> CpuLogged:
        return CpuLogged(make(seed), label, log)
    factory.__name__ = label
    return factory


def openspiel_bots(seconds: float, games: int) -> list[Callable[..., CpuLogged]]:
    """Our default at ``cpu_limit=seconds`` and OpenSpiel's bot at as much CPU a move,
    both logging their CPU a move beside the match's results file."""
    ours = default_spec("connect_four", f"cpu_limit={seconds!r}")
    theirs = f"openspiel-mctsbot-cpu{seconds!r}"
    log = cpu_log(match_path("openspiel", "connect_four", [ours, theirs], games))
    return [cpu_logged(ours, lambda seed: parse_bot(ours).build(seed), log),
            cpu_logged(theirs, lambda seed: OpenSpielMCTS(seconds, seed), log)]


def cpu_log(path: Path) -> Path:
    """The CPU log beside a match's results file."""
    return path.with_suffix(".cpu.jsonl")


def cpu_cell(log: Path, labels: Sequence[str]) -> str:
    """Each bot's mean CPU seconds a move from ``log``: ``0.021 / 0.049``."""
    lines = read_lines(log)
    means = []
    for label in labels:
        cpu = [d["cpu"] for d in lines if d["bot"] == label]
        means.append(f"{statistics.fmean(cpu):.3g}" if cpu else "-")
    return " / ".join(means)


# --- running and rendering each part ----------------------------------------------------------


def match_plan(part: str, args: argparse.Namespace,
               games: Sequence[str]) -> list[tuple[str, list[Any], float, list[str]]]:
    """The matches of a part: (game, bots, target, the row's first cells)."""
    plan: list[tuple[str, list[Any], float, list[str]]] = []
    if part == "ladder":
        for game_id in games:
            for up, below in ladder_pairs(game_id, args.base_cpu, args.base_iterations):
                plan.append((game_id, [up, below], TARGETS["ladder"],
                             [game_id, f"``{up}``", f"``{below}``"]))
    elif part == "previous":
        for game_id in games:
            new = default_spec(game_id, f"cpu_limit={args.cpu!r}")
            for other, target in ((legacy_spec(game_id, args.cpu), TARGETS["previous"]),
                                  ("greedy", TARGETS["greedy"])):
                plan.append((game_id, [new, other], target,
                             [game_id, f"``{new}``", f"``{other}``"]))
    elif part == "openspiel":
        for seconds in args.times:
            bots = openspiel_bots(seconds, games_a_match(part, args))
            plan.append(("connect_four", bots, TARGETS["openspiel"],
                         [f"{seconds:g} s", f"``{bots[0].__name__}``",
                          "OpenSpiel C++ MCTSBot, random rollouts"]))
    return plan


#: Games a match when --games is not given: the issue's counts.
GAMES_A_MATCH = {"ladder": 200, "previous": 200, "openspiel": 100}


def games_a_match(part: str, args: argparse.Namespace) -> int:
    return int(args.games) if args.games is not None else GAMES_A_MATCH[part]


def bot_label(bot: Any) -> str:
    return bot if isinstance(bot, str) else str(bot.__name__)


def match_paths(part: str, args: argparse.Namespace, games: Sequence[str]) -> list[Path]:
    return [match_path(part, game_id, [bot_label(b) for b in bots], games_a_match(part, args))
            for game_id, bots, _, _ in match_plan(part, args, games)]


def forget(part: str, args: argparse.Namespace, games: Sequence[str]) -> None:
    """``--fresh``: drop the part's results of ``games``, to measure a changed search
    anew (resuming would keep games its files hold under the same specs)."""
    if part == "separation":
        forget_separation(games)
        return
    for path in match_paths(part, args, games):
        path.unlink(missing_ok=True)
        cpu_log(path).unlink(missing_ok=True)


def match_options(game_id: str) -> dict[str, Any]:
    """The four games' matches are of two players; connect four has no options."""
    return dict(MATCH_OPTIONS) if game_id in GAMES else {}


def preflight(part: str, args: argparse.Namespace, games: Sequence[str]) -> None:
    """One move of every bot of the part's matches, on the first position of a seeded
    game, before any match: a bot that raises (a search option its build does not
    take) would otherwise lose every game by forfeit, for hours."""
    for game_id, bots, _, _ in match_plan(part, args, games):
        state = boardrules.load(game_id, **match_options(game_id)).new_game(seed=SEED)
        for bot in bots:
            player = bot(seed=SEED) if callable(bot) else parse_bot(bot).build(seed=SEED)
            if isinstance(player, CpuLogged):  # not a move of the match: not logged
                player = player.inner
            player.choose(state)


def run_matches(part: str, args: argparse.Namespace, games: Sequence[str]) -> None:
    preflight(part, args, games)
    plan = zip(match_plan(part, args, games), match_paths(part, args, games), strict=True)
    for (game_id, bots, _, _), path in plan:
        options = match_options(game_id)
        # OpenSpiel's bot is no spec: one process, where the factory was made
        processes = 1 if part == "openspiel" else args.processes
        pm.play(f"hints {part}", game_id, bots, games=games_a_match(part, args), seed=SEED,
                options=options, processes=processes, path=path)


def match_table(part: str, args: argparse.Namespace, games: Sequence[str]) -> str:
    rows = []
    plan = zip(match_plan(part, args, games), match_paths(part, args, games), strict=True)
    for (game_id, _, target, cells), path in plan:
        result = pm.finished(game_id, path)
        if result is None:
            continue
        row = match_row(cells, result, target)
        if part == "openspiel":
            row.insert(-2, cpu_cell(cpu_log(path), result.bots))
        rows.append(row)
    if part == "openspiel":
        return grid(["CPU a move", "ours", "OpenSpiel", *SCORE_HEADER[:-2],
                     "CPU s/move, ours / OpenSpiel", *SCORE_HEADER[-2:]], rows)
    first = {"ladder": ["game (2 players)", "step up", "step below"],
             "previous": ["game (2 players)", "default", "against"]}[part]
    return grid(first + SCORE_HEADER, rows)


def command_line(argv: Sequence[str]) -> str:
    return " ".join(["python", f"benchmarks/{SCRIPT}", *argv])


def render(part: str, args: argparse.Namespace) -> str:
    """The part's table over every game whose results are complete (not only those this
    run played)."""
    if part == "separation":
        return separation_table(read_lines(separation_path()), args.positions)
    return match_table(part, args, GAMES)


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(PARTS),
                        help=f"parts, comma-separated ({', '.join(PARTS)}; default all)")
    parser.add_argument("--game", action="append", choices=GAMES,
                        help="only this game (repeatable; default the four)")
    parser.add_argument("--games", type=int, default=None,
                        help="games a match (200; 100 in 'openspiel')")
    parser.add_argument("--positions", type=int, default=POSITIONS,
                        help=f"positions an option set ({POSITIONS})")
    parser.add_argument("--base-cpu", type=float, default=0.05,
                        help="the ladder's 1x: CPU s a move (0.05)")
    parser.add_argument("--base-iterations", type=int, default=None,
                        help="the ladder's 1x as iterations instead of CPU time")
    parser.add_argument("--cpu", type=float, default=0.2,
                        help="CPU s a move of both sides in 'previous' (0.2)")
    parser.add_argument("--times", type=float, nargs="+", default=[0.05, 0.2],
                        help="CPU s a move in 'openspiel' (0.05 0.2)")
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--render-only", action="store_true")
    parser.add_argument("--fresh", action="store_true",
                        help="drop the selected games' results of the parts first")
    args = parser.parse_args(argv)
    args.parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = set(args.parts) - set(PARTS)
    if unknown:
        parser.error(f"unknown part(s) {', '.join(sorted(unknown))}; parts: {', '.join(PARTS)}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = arguments(argv)
    games = args.game or list(GAMES)
    for part in args.parts:
        if part == "openspiel" and not openspiel_available():
            print("openspiel: not installed (pip install -e '.[openspiel]'), skipped",
                  file=sys.stderr)
            continue
        load_before = os.getloadavg()[0]
        if args.fresh and not args.render_only:
            forget(part, args, games)
        if not args.render_only:
            if part == "separation":
                play_separation(games, args.positions)
            else:
                run_matches(part, args, games)
        how = clock_text(part, args)
        if args.render_only:
            how += "; rendered from earlier results: the load is the rendering's"
        pm.write_figure(f"hints_{part}.rst", SCRIPT, SEED, render(part, args),
                        command=command_line(argv),
                        summary=machine_summary(None if args.render_only else load_before,
                                                how))


if __name__ == "__main__":
    main()
