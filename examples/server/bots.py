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
    game, with the server's time limit and memory cap filled in for a search bot."""
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
    if spec.name in SEARCH_BOTS:
        options.setdefault("time_limit", budget.max_time_limit)
        options.setdefault("max_memory", budget.max_memory)
    if "determinizations" in options and not game.has_hidden_information:
        raise bot_error(f"bot {text!r}: determinizations does not apply to {game.id}, which "
                        f"has no hidden information")
    bounded = BotSpec(spec.name, tuple(options.items()))
    try:
        bounded.build(0)  # the bot's constructor checks each value's type and range
    except (ValueError, TypeError) as exc:
        raise bot_error(f"bot {text!r}: {exc}") from None
    return bounded


def choose_move(spec: BotSpec, state: boardrules.State[Any], seed: int) -> str:
    """The bot's move (notation) on ``state``, a copy owned by the calling worker thread."""
    return str(spec.build(seed).choose(state))
