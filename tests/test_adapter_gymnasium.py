"""boardrules.gymnasium: Gymnasium's own check_env on every game and option set (through
gymnasium.make, so the render modes are checked too), and what the single-agent
environment promises: bots of any spec, bots handed worlds of their own seat, rewards,
illegal actions."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import boardrules
from boardrules.errors import IllegalMoveError
from boardrules.gymnasium import SingleAgentEnv
from boardrules.testing import example_configs

CONFIGS = [pytest.param(game_id, options,
                        id="-".join([game_id, *(f"{k}={v}" for k, v in options.items())]))
           for game_id, options in example_configs()]


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_gymnasium_check_env(game_id: str, options: dict[str, Any]) -> None:
    last_seat = boardrules.load(boardrules.games.as_game_id(game_id), **options).num_players - 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = gymnasium.make(f"boardrules/{game_id}-v0", seat=last_seat, opponents="random",
                              **options)
        check_env(made.unwrapped)
    assert [str(w.message) for w in caught] == []


def _episode(env: SingleAgentEnv, seed: int) -> tuple[float, dict[str, Any], int]:
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    reward: float = 0.0
    steps = 0
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, r, terminated, truncated, info = env.step(action)
        reward, done = float(r), terminated or truncated
        steps += 1
    return reward, info, steps


@pytest.mark.parametrize(("game_id", "options", "opponents"), [
    ("tic_tac_toe", {}, "alphabeta:depth=9"),
    ("pig", {}, "mcts:iterations=30"),
    ("armadora", {"players": 3}, ["random", "ismcts:iterations=20"]),
])
def test_an_episode_ends_with_the_seats_return(game_id: str, options: dict[str, Any],
                                               opponents: object) -> None:
    env = SingleAgentEnv(game_id, seat=1, opponents=opponents, **options)
    reward, info, steps = _episode(env, seed=4)
    assert env.state.is_terminal() and steps > 0
    assert reward == env.state.returns()[1]
    assert info["winners"] == list(env.state.outcome().winners)  # type: ignore[union-attr]


def test_perfect_play_never_loses_tic_tac_toe_as_the_opponent() -> None:
    """The opponent spec is really the bot: a full-depth alpha-beta never loses."""
    env = SingleAgentEnv("tic_tac_toe", seat=0, opponents="alphabeta:depth=9")
    rewards = [_episode(env, seed)[0] for seed in range(8)]
    assert max(rewards) <= 0.0


class _Recorder:
    """A bot that compares the world it is handed with the table's truth at that moment,
    then plays its last legal move."""

    def __init__(self) -> None:
        self.env: SingleAgentEnv | None = None
        self.calls = 0
        self.worlds_differing = 0

    def choose(self, world: Any) -> Any:
        assert self.env is not None
        truth = self.env.state
        seat = truth.current_player
        assert world.view(seat) == truth.view(seat)  # all it may know, unchanged
        assert world.legal_moves() == truth.legal_moves()
        self.calls += 1
        self.worlds_differing += world.state_bytes() != truth.state_bytes()
        return world.legal_moves()[-1]  # (the first, pass, would end its game at once)


def test_bots_are_handed_worlds_of_their_own_seat() -> None:
    """A bot gets a world drawn for its seat: his view is the truth's, the hidden rest (the
    other screen's warriors, face-down strengths) is drawn again."""
    bot = _Recorder()
    env = SingleAgentEnv("armadora", seat=0, opponents=bot, players=2)
    bot.env = env
    _episode(env, seed=9)
    assert bot.calls > 5 and bot.worlds_differing > 0


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward() -> None:
    env = SingleAgentEnv("connect_four", opponents="random", illegal_reward=-5.0)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(99)
    assert (reward, terminated, truncated, info["illegal_move"]) == (-5.0, True, False, True)
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    env.reset(seed=1)
    assert env.step(0)[2] is False


def test_an_illegal_action_raises_when_asked_and_changes_nothing() -> None:
    env = SingleAgentEnv("tic_tac_toe", opponents="random", illegal_moves="raise")
    env.reset(seed=0)
    before = env.state.state_bytes()
    with pytest.raises(IllegalMoveError):
        env.step(np.int64(9))
    assert env.state.state_bytes() == before


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("tic_tac_toe", seat=2)
    with pytest.raises(ValueError, match="one per other seat"):
        SingleAgentEnv("armadora", players=3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot"):
        SingleAgentEnv("pig", opponents="deep_blue")
    with pytest.raises(TypeError, match="choose"):
        SingleAgentEnv("pig", opponents=42)
    with pytest.raises(RuntimeError, match="reset"):
        SingleAgentEnv("pig").state  # noqa: B018


def test_every_game_is_registered_with_gymnasium() -> None:
    for game_id in boardrules.available_games():
        assert f"boardrules/{game_id}-v0" in gymnasium.registry
