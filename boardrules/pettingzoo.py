"""PettingZoo AEC environments of every boardrules game (extra ``boardrules[pettingzoo]``).

>>> from boardrules.pettingzoo import env
>>> aec = env("armadora", players=4, variant="advanced")
>>> aec.reset(seed=1)
>>> aec.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = aec.last()
>>> sorted(observation)
['action_mask', 'observation']

The conventions of PettingZoo's classic games (``connect_four_v3``, ``chess_v6``):

* agents ``"player_0"`` ... ``"player_{n-1}"``, one per seat, in seat order;
* an observation is a dict: ``"observation"``, the seat's ``float32`` observation tensor
  written by the core (:meth:`State.observation <boardrules.State.observation>`: what the
  seat may see and nothing more; legend in :attr:`Game.observation_layout
  <boardrules.Game.observation_layout>`), and ``"action_mask"``, an ``int8`` mask over
  ``Discrete(num_distinct_actions)`` (all 0 for a seat not to move);
* an action is an action id (``Move.action``);
* rewards are 0 until the end, then each seat's return (:meth:`State.returns
  <boardrules.State.returns>`, in [-1, 1]; partners get their team's);
* chance (dice, shuffles, draws) is resolved inside :meth:`~BoardRulesEnv.step` from the
  game's own RNG, seeded by ``reset(seed=...)``; forced steps (one legal move) are taken
  there too, so every step is a real choice;
* ``infos[agent]`` holds ``"seat"``, ``"team"`` (the seat's team index) and ``"partners"``
  (the other agents of the team); at the end also ``"outcome"`` (the reason) and
  ``"winners"`` (agent names);
* an illegal action ends the game by default, the mover losing (reward
  ``illegal_reward``, the others 0), as PettingZoo's ``TerminateIllegalWrapper`` does;
  ``illegal_moves="raise"`` raises :class:`~boardrules.IllegalMoveError` instead and
  leaves the game as it was;
* ``max_cycles``: the game is truncated after that many steps (agent decisions) in all.

Render modes: ``"ansi"`` (the board as text, returned), ``"human"`` (the same, printed),
``"svg"`` (the SVG picture, returned) and, for tic-tac-toe and Connect Four, whose boards
rasterise cheaply, ``"rgb_array"`` (a ``uint8`` picture); each as ``render_viewer`` sees
it (``None``, the default: a spectator, who sees no hidden thing).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

try:
    import gymnasium
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError("boardrules.pettingzoo needs PettingZoo: "
                      "pip install 'boardrules[pettingzoo]'") from exc

from boardrules._adapters import legal_action, load_observed_game
from boardrules.api import CHANCE, Game, State
from boardrules.errors import IllegalMoveError
from boardrules.gymnasium import observation_space
from boardrules.observations import ACTION_MASK_DTYPE

__all__ = ["BoardRulesEnv", "agent_name", "env", "raw_env"]

RENDER_MODES = ("ansi", "human", "svg")


def render_modes(game: Game[Any, Any]) -> list[str]:
    """The render modes of ``game``'s environment: text, printed text and SVG for every
    game, ``"rgb_array"`` too where the game draws one cheaply (``Game.renders_rgb``)."""
    return [*RENDER_MODES, *(["rgb_array"] if game.renders_rgb else [])]
IllegalMoves = Literal["lose", "raise"]


def agent_name(seat: int) -> str:
    """The agent of a seat: ``"player_0"`` for seat 0."""
    return f"player_{seat}"


def env(game: str | Game[Any, Any], **kwargs: Any) -> Any:
    """The AEC environment of ``game`` (an id or a loaded :class:`~boardrules.Game`),
    wrapped in PettingZoo's ``OrderEnforcingWrapper`` (``reset`` before use) as its
    classic environments are.  Keywords: those of :class:`BoardRulesEnv`, then the game's
    options (``players=4, variant="advanced"``)."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, **kwargs))


def raw_env(game: str | Game[Any, Any], **kwargs: Any) -> BoardRulesEnv:
    """The unwrapped :class:`BoardRulesEnv` (same arguments as :func:`env`)."""
    return BoardRulesEnv(game, **kwargs)


class BoardRulesEnv(AECEnv):  # type: ignore[misc]  # (PettingZoo is untyped)
    """A boardrules game as a PettingZoo AEC environment (see the module notes)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "boardrules",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str | Game[Any, Any], *, render_mode: str | None = None,
                 render_viewer: int | None = None, max_cycles: int | None = None,
                 illegal_moves: IllegalMoves = "lose", illegal_reward: float = -1.0,
                 **options: Any) -> None:
        super().__init__()
        self.game = load_observed_game(game, options)
        modes = render_modes(self.game)
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be one of {', '.join(modes)} or None, "
                             f"not {render_mode!r}")
        if illegal_moves not in ("lose", "raise"):
            raise ValueError(f"illegal_moves must be 'lose' or 'raise', not {illegal_moves!r}")
        if max_cycles is not None and (isinstance(max_cycles, bool)
                                       or not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError("max_cycles must be an int >= 1 or None")
        if render_viewer is not None and (isinstance(render_viewer, bool)
                                          or not isinstance(render_viewer, int)
                                          or not 0 <= render_viewer < self.game.num_players):
            raise ValueError(f"render_viewer must be a seat 0 to {self.game.num_players - 1} "
                             "or None")
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.max_cycles = max_cycles
        self.illegal_moves: IllegalMoves = illegal_moves
        self.illegal_reward = float(illegal_reward)
        self.metadata = {**type(self).metadata, "name": f"boardrules_{self.game.id}_v0",
                         "render_modes": modes}
        self.possible_agents = [agent_name(p) for p in range(self.game.num_players)]
        self._seat = {name: p for p, name in enumerate(self.possible_agents)}
        self._team_of = {p: t for t, team in enumerate(self.game.teams) for p in team}
        # one space object per agent, kept: seeding an agent's space must hold
        self._observation_spaces = {a: observation_space(self.game) for a in self.possible_agents}
        self._action_spaces = {a: gymnasium.spaces.Discrete(self.game.num_distinct_actions)
                               for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._state: State[Any] | None = None
        self._steps = 0

    # --- spaces ---

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        """The agent's observation space (the same object each time, so that seeding it
        holds): :func:`boardrules.gymnasium.observation_space`."""
        self._check_agent(agent)
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """``Discrete(num_distinct_actions)``: the action ids (the same object each time)."""
        self._check_agent(agent)
        return self._action_spaces[agent]

    def _check_agent(self, agent: str) -> None:
        if agent not in self._seat:
            raise KeyError(f"no agent {agent!r}; agents: {', '.join(self.possible_agents)}")

    # --- the game ---

    @property
    def state(self) -> State[Any]:
        """The game in progress (the whole truth: for the caller, not for an agent)."""
        if self._state is None:
            raise RuntimeError("reset() the environment first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seeded by ``seed`` (the same seed, the same game: chance comes from
        the game's RNG), else by the environment's own generator."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._state = self.game.new_game(seed=int(self._rng.integers(2**63)))
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._base_info(agent) for agent in self.agents}
        self._settle_chance()
        self.agent_selection = agent_name(max(self.state.current_player, 0))
        if self.state.is_terminal():
            self._finish(self.state.returns())

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation dict: his seat's tensor and, if he is to move, the
        action mask (all 0 otherwise)."""
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions, dtype=ACTION_MASK_DTYPE)
        if self.state.current_player == seat:
            self.state.action_mask(out=mask)
        return {"observation": self.state.observation(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` (an action id) for the agent selected, then draw whatever chance
        follows, as PettingZoo's AEC API has it (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        move_id = legal_action(self.game, self.state, action)
        if move_id is None and self.illegal_moves == "raise":  # (before anything changes)
            raise IllegalMoveError(f"{agent} (seat {seat}) cannot play action {action!r} here; "
                                   f"legal: {[m.action for m in self.state.legal_moves()]}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if move_id is None:
            self._lose_by_illegal_move(agent)
            return
        self.state.apply(self.game.move(move_id), player=seat)
        self._steps += 1
        self._settle_chance()
        if self.state.is_terminal():
            self._finish(self.state.returns())
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = agent_name(self.state.current_player)
            if self.max_cycles is not None and self._steps >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _lose_by_illegal_move(self, agent: str) -> None:
        """The game ends, ``agent`` given ``illegal_reward`` (PettingZoo's
        TerminateIllegalWrapper's convention)."""
        self.terminations = dict.fromkeys(self.agents, True)
        self.rewards = {a: (self.illegal_reward if a == agent else 0.0) for a in self.agents}
        for a in self.agents:
            self.infos[a] = {**self._base_info(a), "illegal_move": agent}
        self._accumulate_rewards()

    def _settle_chance(self) -> None:
        # auto_chance draws chance outcomes from the game's RNG as moves are applied; a game
        # may still stop at a chance node (a fresh game): draw until a player is to move
        while self.state.current_player == CHANCE:
            self.state.apply_random_chance()

    def _finish(self, returns: tuple[float, ...]) -> None:
        self.terminations = dict.fromkeys(self.agents, True)
        outcome = self.state.outcome()
        self.rewards = {agent_name(p): float(r) for p, r in enumerate(returns)}
        for agent in self.agents:
            info = self._base_info(agent)
            if outcome is not None:
                info["outcome"] = outcome.reason.value
                info["winners"] = [agent_name(p) for p in outcome.winners]
            self.infos[agent] = info

    def _base_info(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        team = self._team_of[seat]
        return {"seat": seat, "team": team,
                "partners": [agent_name(p) for p in self.game.teams[team] if p != seat]}

    # --- rendering ---

    def render(self) -> Any:
        """The board as ``render_viewer`` sees it: text returned (``"ansi"``) or printed
        (``"human"``), SVG (``"svg"``), or an RGB array (``"rgb_array"``, the line
        games)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "svg":
            return self.state.render_svg(self.render_viewer)
        if self.render_mode == "rgb_array":
            return self.game.render_view_rgb(self.state.view(self.render_viewer))
        text = self.state.render_text(self.render_viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""

    def __str__(self) -> str:
        return str(self.metadata["name"])
