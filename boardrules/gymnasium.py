"""A Gymnasium single-agent environment: one seat of a boardrules game against bots
(extra ``boardrules[gymnasium]``).

>>> from boardrules.gymnasium import SingleAgentEnv
>>> env = SingleAgentEnv("connect_four", seat=0, opponents="mcts:iterations=50")
>>> observation, info = env.reset(seed=1)
>>> observation["observation"].shape, observation["action_mask"].shape
((86,), (7,))

Each game is also registered with Gymnasium as ``"boardrules/<game>-v0"``
(``gymnasium.make("boardrules/armadora-v0", players=3, opponents="ismcts")``) when this
module is imported.

* The agent plays ``seat``; the other seats are played by ``opponents``: one bot spec (the
  ``boardrules match`` syntax: ``"random"``, ``"ismcts:iterations=500"``) or one bot
  object (anything with ``choose(state) -> move``) for every other seat, or a sequence of
  them, one per other seat in seat order.  Spec bots are made afresh each episode, seeded
  from the environment's generator.
* A bot is handed a world drawn for its seat (:meth:`State.determinize
  <boardrules.State.determinize>`, with its own seed): it sees what its seat may see, and
  cannot read the hidden cards or the game's future dice from it.
* Observations, the action mask, rewards, chance and illegal actions follow
  :mod:`boardrules.pettingzoo`: a dict of ``"observation"`` (the seat's ``float32``
  tensor) and ``"action_mask"``; the reward is 0 until the end, then the seat's return in
  [-1, 1]; an illegal action ends the episode with ``illegal_reward`` unless
  ``illegal_moves="raise"``.  ``info`` holds ``"seat"``, ``"team"``, and at the end
  ``"outcome"`` and ``"winners"`` (seats).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsFloat

import numpy as np

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - only without the extra
    raise ImportError("boardrules.gymnasium needs Gymnasium: "
                      "pip install 'boardrules[gymnasium]'") from exc

import boardrules
from boardrules._adapters import legal_action, load_observed_game
from boardrules.api import CHANCE, Game, State
from boardrules.arena import parse_bot
from boardrules.errors import IllegalMoveError
from boardrules.observations import ACTION_MASK_DTYPE, OBSERVATION_DTYPE, ActionMask

__all__ = ["SingleAgentEnv", "observation_space", "register_envs"]

RENDER_MODES = ("ansi", "svg")
Observation = dict[str, Any]


class SingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a boardrules game against bots, as a Gymnasium environment (see the
    module notes)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, game: str | Game[Any, Any], *, seat: int = 0,
                 opponents: object | Sequence[object] = "random",
                 render_mode: str | None = None,
                 illegal_moves: Literal["lose", "raise"] = "lose",
                 illegal_reward: float = -1.0, **options: Any) -> None:
        self.game = load_observed_game(game, options)
        self.metadata = {**type(self).metadata, "render_modes": [
            *RENDER_MODES, *(["rgb_array"] if self.game.renders_rgb else [])]}
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of "
                             f"{', '.join(self.metadata['render_modes'])} or None")
        if illegal_moves not in ("lose", "raise"):
            raise ValueError(f"illegal_moves must be 'lose' or 'raise', not {illegal_moves!r}")
        self.seat = seat
        self.render_mode = render_mode
        self.illegal_moves = illegal_moves
        self.illegal_reward = float(illegal_reward)
        self._opponents = _opponents(opponents, n - 1)
        self._team = next(t for t, team in enumerate(self.game.teams) if seat in team)
        self.observation_space = observation_space(self.game)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_distinct_actions)
        self._state: State[Any] | None = None
        self._bots: dict[int, Any] = {}
        self._over = False  # terminated: the end, or an illegal action that lost

    @property
    def state(self) -> State[Any]:
        """The game in progress (the whole truth: for the caller, not for the agent)."""
        if self._state is None:
            raise RuntimeError("reset() the environment first")
        return self._state

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        """A new game (seeded by ``seed``, else by the environment's generator) played by
        chance and the bots until the agent's first decision: ``(observation, info)``."""
        super().reset(seed=seed)
        self._state = self.game.new_game(seed=self._draw_seed())
        others = [p for p in range(self.game.num_players) if p != self.seat]
        self._bots = {p: _build(spec, self._draw_seed())
                      for p, spec in zip(others, self._opponents, strict=True)}
        self._play_others()
        self._over = self.state.is_terminal()  # (the bots may end it before the agent moves)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` (an action id) for the agent's seat, then chance and the bots
        until his next decision or the end: ``(observation, reward, terminated, truncated,
        info)``.  An illegal action ends the episode with ``illegal_reward`` (or raises
        :class:`~boardrules.IllegalMoveError` with ``illegal_moves="raise"``, the game
        unchanged); a step after the end raises ``RuntimeError``."""
        state = self.state
        if self._over:
            raise RuntimeError("the episode is over: reset() the environment")
        move_id = legal_action(self.game, state, action)
        if move_id is None:
            if self.illegal_moves == "raise":
                raise IllegalMoveError(f"seat {self.seat} cannot play action {action!r} here")
            self._over = True
            return self._observation(), self.illegal_reward, True, False, {
                **self._info(), "illegal_move": True}
        state.apply(self.game.move(move_id), player=self.seat)
        self._play_others()
        if state.is_terminal():
            self._over = True
            return (self._observation(), float(state.returns()[self.seat]), True, False,
                    self._info())
        return self._observation(), 0.0, False, False, self._info()

    def _play_others(self) -> None:
        """Chance and the bots move until the agent's seat is to move, or the end."""
        state = self.state
        while not state.is_terminal() and state.current_player != self.seat:
            player = state.current_player
            if player == CHANCE:
                state.apply_random_chance()
                continue
            world = state.determinize(player, seed=self._draw_seed())
            state.apply(self._bots[player].choose(world), player=player)

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(2**63))

    def _observation(self) -> Observation:
        mask = np.zeros(self.game.num_distinct_actions, dtype=ACTION_MASK_DTYPE)
        if self.state.current_player == self.seat:
            self.state.action_mask(out=mask)
        return {"observation": self.state.observation(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat, "team": self._team}
        outcome = self.state.outcome()
        if outcome is not None:
            info["outcome"] = outcome.reason.value
            info["winners"] = list(outcome.winners)
        return info

    def action_masks(self) -> ActionMask:
        """The legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        mask: ActionMask = self._observation()["action_mask"]
        return mask

    def render(self) -> Any:
        """The board as the agent's seat sees it: text (``"ansi"``), SVG (``"svg"``) or,
        for the line games, an RGB array (``"rgb_array"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "svg":
            return self.state.render_svg(self.seat)
        if self.render_mode == "rgb_array":
            return self.game.render_view_rgb(self.state.view(self.seat))
        return self.state.render_text(self.seat)


def register_envs() -> None:
    """Register ``"boardrules/<game>-v0"`` with Gymnasium for every registered game (done
    on import; call again after registering a game of your own)."""
    for game_id in boardrules.available_games():
        env_id = f"boardrules/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=_make, kwargs={"game": game_id})


def _make(**kwargs: Any) -> SingleAgentEnv:
    return SingleAgentEnv(**kwargs)


def _opponents(opponents: object, count: int) -> list[object]:
    """One bot spec or bot per other seat (specs checked now, built each episode)."""
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        listed = [opponents] * count
    else:
        listed = list(opponents)
        if len(listed) != count:
            raise ValueError(f"opponents: {count} needed (one per other seat), "
                             f"{len(listed)} given")
    for bot in listed:
        if isinstance(bot, str):
            parse_bot(bot)
        elif not callable(getattr(bot, "choose", None)):
            raise TypeError(f"an opponent is a bot spec or has choose(state), not {bot!r}")
    return listed


def _build(bot: object, seed: int) -> Any:
    return parse_bot(bot).build(seed) if isinstance(bot, str) else bot



def observation_space(game: Game[Any, Any]) -> gymnasium.spaces.Dict:
    """The space of an agent's observation dict: ``"observation"``, a ``Box`` of the
    game's observation tensor within its legend's bounds, and ``"action_mask"``, a 0/1
    ``int8`` ``Box`` over the action ids (also :mod:`boardrules.pettingzoo`'s)."""
    low, high = game.observation_layout.bounds()
    return gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(low=low, high=high, dtype=OBSERVATION_DTYPE),
        "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(game.num_distinct_actions,),
                                            dtype=ACTION_MASK_DTYPE),
    })


register_envs()
