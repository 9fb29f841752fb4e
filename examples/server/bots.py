"""Bot seats: a bot spec (``"ismcts:iterations=200"``) checked against the server's budget.

A spec is read by :func:`boardrules.arena.parse_bot`; the server then refuses a budget
above its caps (it never clamps in silence: the table's creator learns what he gets), and
gives every search bot a time limit and a memory cap of the server's when the spec names
none, so that no bot move can hold a worker thread for long.  The search runs off the
event loop, in the server's bot thread pool (the search core releases the GIL).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import boardrules
from boardrules.arena import BotSpec, parse_bot
from boardrules.search.suggest import ALPHABETA_LEVELS
from examples.server.errors import ApiError

#: The bots whose move is a search (the others, random and greedy, are one ply at most).
SEARCH_BOTS = ("mcts", "ismcts", "alphabeta")


@dataclass(frozen=True)
class BotBudget:
    """The most a bot seat may ask for one move (the server's ``--max-*`` options)."""

    max_iterations: int = 20_000
    max_time_limit: float = 2.0
    max_threads: int = 1
    max_depth: int = 12
    max_nodes: int = 1_000_000
    max_determinizations: int = 32
    max_memory: int = 64 * 2**20

    def caps(self) -> dict[str, int | float]:
        return {"iterations": self.max_iterations, "time_limit": self.max_time_limit,
                "threads": self.max_threads, "depth": self.max_depth,
                "max_nodes": self.max_nodes, "determinizations": self.max_determinizations,
                "max_memory": self.max_memory}


def bot_error(message: str) -> ApiError:
    return ApiError(422, "bad_bot", message)


def bounded_bot(text: str, game: boardrules.Game[Any, Any], budget: BotBudget) -> BotSpec:
    """The spec ``text`` as the server runs it: parsed, checked against ``budget`` and the
    game, its search budget made explicit (see :func:`_bounded_search`), with the server's
    time limit and memory cap filled in for a search bot."""
    try:
        spec = parse_bot(text)
    except (ValueError, TypeError) as exc:
        raise bot_error(str(exc)) from None
    options: dict[str, Any] = dict(spec.options)
    for name, cap in budget.caps().items():
        value = options.get(name)
        if isinstance(value, int | float) and value > cap:
            raise bot_error(f"bot {text!r}: {name}={value} is over this server's cap of "
                            f"{cap}")
    _build(spec, text)  # a level is a known word, and stands beside no other budget
    if spec.name in SEARCH_BOTS:
        _bounded_search(spec.name, options, game, budget, text)
        options.setdefault("time_limit", budget.max_time_limit)
        options.setdefault("max_memory", budget.max_memory)
    if "determinizations" in options and not game.has_hidden_information:
        raise bot_error(f"bot {text!r}: determinizations does not apply to {game.id}, which "
                        f"has no hidden information")
    bounded = BotSpec(spec.name, tuple(options.items()))
    _build(bounded, text)
    return bounded


def _build(spec: BotSpec, text: str) -> None:
    """The bot's constructor checks each value's type and range."""
    try:
        spec.build(0)
    except (ValueError, TypeError) as exc:
        raise bot_error(f"bot {text!r}: {exc}") from None


def _bounded_search(name: str, options: dict[str, Any], game: boardrules.Game[Any, Any],
                    budget: BotBudget, text: str) -> None:
    """Check what a search bot would really search -- a level is a fixed budget per game:
    MCTS and ISMCTS iterations (``game.search_levels``), alpha-beta nodes -- against the
    server's cap, and give a spec that names no budget the server's cap as its own (a
    spec with a time limit only, or none, would search without end until the clock
    stops it)."""
    level = options.get("level")
    if name == "alphabeta":
        what, cap, given = "max_nodes", budget.max_nodes, options.get("max_nodes")
        level_budget = None if level is None else ALPHABETA_LEVELS[level][0]
    else:
        what, cap, given = "iterations", budget.max_iterations, options.get("iterations")
        level_budget = None if level is None else game.search_levels[level]
    if level_budget is not None:
        if level_budget > cap:
            raise bot_error(f"bot {text!r}: level={level} searches {level_budget:,} "
                            f"{what.replace('max_', '')} on {game.name}, over this "
                            f"server's cap of {cap:,} {what}")
    elif given is None:
        options[what] = cap


def choose_move(spec: BotSpec, state: boardrules.State[Any], seed: int) -> str:
    """The bot's move (notation) on ``state``, a copy owned by the calling worker thread."""
    return str(spec.build(seed).choose(state))
