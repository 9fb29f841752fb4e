"""boardrules.pettingzoo: PettingZoo's own api_test and seed_test on every game and option
set, and what the environment promises beyond them (observations from the core, chance
inside step, illegal moves, truncation, teams, rewards, renders)."""

from __future__ import annotations

import functools
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import boardrules
from boardrules.errors import IllegalMoveError
from boardrules.pettingzoo import BoardRulesEnv, agent_name, env, raw_env
from boardrules.testing import example_configs

CONFIGS = [pytest.param(game_id, options,
                        id="-".join([game_id, *(f"{k}={v}" for k, v in options.items())]))
           for game_id, options in example_configs()]

#: What api_test says of any environment whose observation is a dict (PettingZoo's own
#: classic games, which use the same dict, are exempted from these two by name).
DICT_OBSERVATION_WARNINGS = ("Observation is not a NumPy array",
                             "Observation space for each agent probably should be")


def _cycles(game_id: str) -> int:
    """Steps per agent for api_test: whole games of the small ones, a few hundred steps of
    the long ones."""
    return 60 if game_id in ("rome_and_carthage", "armada", "albion") else 200


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_pettingzoo_api_test(game_id: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game_id, **options), num_cycles=_cycles(game_id))
    unexpected = [str(w.message) for w in caught
                  if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)]
    assert unexpected == []


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_pettingzoo_seed_test(game_id: str, options: dict[str, Any]) -> None:
    seed_test(functools.partial(env, game_id, **options), num_cycles=_cycles(game_id))


def _play_out(aec: BoardRulesEnv, seed: int) -> dict[str, float]:
    """A whole game of masked random actions; the rewards each agent was given."""
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    total = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        total[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return total


@pytest.mark.parametrize("game_id", ["tic_tac_toe", "pig", "armadora"])
def test_rewards_are_the_returns_at_the_end(game_id: str) -> None:
    aec = raw_env(game_id)
    total = _play_out(aec, seed=3)
    returns = aec.state.returns()
    assert total == {agent_name(p): r for p, r in enumerate(returns)}
    assert aec.state.is_terminal() and aec.agents == []


def test_observations_are_the_cores_and_the_mask_only_for_the_mover() -> None:
    aec = raw_env("armadora", players=3, variant="advanced")
    aec.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(12):
        mover = aec.agent_selection
        for seat, agent in enumerate(aec.possible_agents):
            seen = aec.observe(agent)
            assert np.array_equal(seen["observation"], aec.state.observation(seat))
            if agent == mover:
                assert np.array_equal(seen["action_mask"], aec.state.action_mask())
            else:
                assert not seen["action_mask"].any()
        aec.step(int(rng.choice(np.flatnonzero(aec.observe(mover)["action_mask"])[1:])))
    assert not aec.state.is_terminal()  # (the first legal move, pass, was never played)


def test_chance_is_resolved_inside_step_from_the_seeded_rng() -> None:
    one, two = raw_env("pig"), raw_env("pig")
    for aec in (one, two):
        aec.reset(seed=11)
    steps = 0
    while not one.state.is_terminal():
        assert one.state.current_player >= 0  # never left at a chance node
        action = int(np.flatnonzero(one.observe(one.agent_selection)["action_mask"])[0])
        one.step(action)
        two.step(action)
        steps += 1
        assert one.state.state_bytes() == two.state.state_bytes()
    assert len(one.state.history) == 2 * steps  # each roll was followed by its die


def test_an_illegal_action_loses_the_game_by_default() -> None:
    aec = raw_env("tic_tac_toe")
    aec.reset(seed=0)
    aec.step(4)
    aec.step(4)  # taken
    assert all(aec.terminations.values())
    assert aec.rewards == {"player_0": 0.0, "player_1": -1.0}
    assert aec.infos["player_1"]["illegal_move"] == "player_1"


@pytest.mark.parametrize("bad", [4, 99, -1, "a1", 2.0, True, None])
def test_an_illegal_action_raises_when_asked_and_changes_nothing(bad: object) -> None:
    aec = raw_env("tic_tac_toe", illegal_moves="raise")
    aec.reset(seed=0)
    aec.step(4)
    before = aec.state.state_bytes()
    rewards, cumulative = dict(aec.rewards), dict(aec._cumulative_rewards)
    with pytest.raises(IllegalMoveError):
        aec.step(bad)  # type: ignore[arg-type]
    assert aec.state.state_bytes() == before
    assert not any(aec.terminations.values()) and aec.agent_selection == "player_1"
    assert (aec.rewards, aec._cumulative_rewards) == (rewards, cumulative)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_max_cycles_truncates_after_that_many_steps(game_id: str,
                                                   options: dict[str, Any]) -> None:
    """PettingZoo's max_cycles_test in AEC form: with ``max_cycles=5`` every agent is
    truncated (not terminated) after the fifth step, and each is stepped out once."""
    aec = raw_env(game_id, max_cycles=5, **options)
    aec.reset(seed=1)
    rng = np.random.default_rng(1)
    steps, finished = 0, []
    for agent in aec.agent_iter():
        _, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            assert truncated and not terminated
            finished.append(agent)
            aec.step(None)
            continue
        mask = aec.observe(agent)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps == 5 and not aec.state.is_terminal()
    assert sorted(finished) == aec.possible_agents and aec.agents == []


def test_teams_are_reported_in_infos() -> None:
    aec = raw_env("armadora", players=4)
    aec.reset(seed=2)
    assert aec.infos["player_0"] == {"seat": 0, "team": 0, "partners": ["player_2"]}
    assert aec.infos["player_3"] == {"seat": 3, "team": 1, "partners": ["player_1"]}
    _play_out(aec, seed=2)
    assert aec.state.is_terminal()


def test_the_end_reports_outcome_and_winners() -> None:
    aec = raw_env("connect_four")
    aec.reset(seed=0)
    for column in (0, 1, 0, 1, 0, 1, 0):
        aec.step(column)
    assert aec.infos["player_0"]["outcome"] == "line"
    assert aec.infos["player_1"]["winners"] == ["player_0"]
    assert aec.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_renders_as_the_render_viewer_sees() -> None:
    aec = raw_env("armadora", render_mode="ansi", players=2)
    aec.reset(seed=4)
    assert aec.render() == aec.state.render_text(None)
    svg = raw_env("armadora", render_mode="svg", render_viewer=1, players=2)
    svg.reset(seed=4)
    assert svg.render() == svg.state.render_svg(1)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("armadora", render_mode="rgb_array")  # (no cheap raster of its board)


def test_line_games_render_rgb_arrays_of_their_boards() -> None:
    aec = raw_env("connect_four", render_mode="rgb_array")
    aec.reset(seed=0)
    aec.step(3)  # player 0's disc on d1
    picture = aec.render()
    assert picture.shape == (6 * 32, 7 * 32, 3) and picture.dtype == np.uint8
    bottom_d, bottom_e = picture[5 * 32 + 16, 3 * 32 + 16], picture[5 * 32 + 16, 4 * 32 + 16]
    assert tuple(bottom_d) == (210, 40, 40) and tuple(bottom_e) == (235, 235, 235)
    assert "rgb_array" in aec.metadata["render_modes"]
    assert "rgb_array" not in raw_env("pig").metadata["render_modes"]


def test_env_takes_a_loaded_game_and_checks_its_arguments() -> None:
    game = boardrules.load("armadora", players=3)
    assert raw_env(game).possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(TypeError, match="options go with a game id"):
        raw_env(game, players=2)
    with pytest.raises(boardrules.UnknownGameError):
        raw_env("chess")
    with pytest.raises(ValueError, match="max_cycles"):
        raw_env("pig", max_cycles=0)
    with pytest.raises(ValueError, match="illegal_moves"):
        raw_env("pig", illegal_moves="ignore")  # type: ignore[arg-type]
