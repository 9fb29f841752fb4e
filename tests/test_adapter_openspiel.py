"""boardrules.openspiel: pyspiel's own random_sim_test on every game and option set (with
serialisation), the GameType each game declares, OpenSpiel's MCTSBot and ISMCTSBot playing
every game through the bridge, and the observation / information-state strings and
tensors."""

from __future__ import annotations

import doctest
import os
import pickle
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import boardrules
from boardrules.openspiel import SpielGame, load_game, short_name
from boardrules.testing import example_configs

CONFIGS = [pytest.param(game_id, options,
                        id="-".join([game_id, *(f"{k}={v}" for k, v in options.items())]))
           for game_id, options in example_configs()]
Type = pyspiel.GameType


def _spiel(game_id: str, options: dict[str, Any]) -> Any:
    return pyspiel.load_game(short_name(game_id), options)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_openspiel_random_sim_test(game_id: str, options: dict[str, Any]) -> None:
    sims = 2 if game_id in ("rome_and_carthage", "armada", "albion") else 5
    pyspiel.random_sim_test(_spiel(game_id, options), num_sims=sims, serialize=True,
                            verbose=False)


@pytest.mark.parametrize(("game_id", "chance", "information", "utility"), [
    ("tic_tac_toe", Type.ChanceMode.DETERMINISTIC, Type.Information.PERFECT_INFORMATION,
     Type.Utility.ZERO_SUM),
    ("connect_four", Type.ChanceMode.DETERMINISTIC, Type.Information.PERFECT_INFORMATION,
     Type.Utility.ZERO_SUM),
    ("pig", Type.ChanceMode.EXPLICIT_STOCHASTIC, Type.Information.PERFECT_INFORMATION,
     Type.Utility.ZERO_SUM),
    # the registered type: two and four players (two teams) are zero-sum, three are not
    ("armadora", Type.ChanceMode.EXPLICIT_STOCHASTIC, Type.Information.IMPERFECT_INFORMATION,
     Type.Utility.GENERAL_SUM),
    # ... and Armada hides something only with its cards (an example option set has them)
    ("armada", Type.ChanceMode.EXPLICIT_STOCHASTIC, Type.Information.IMPERFECT_INFORMATION,
     Type.Utility.GENERAL_SUM),
])
def test_registered_game_type_claims_every_option_set(game_id: str, chance: Any,
                                                      information: Any, utility: Any) -> None:
    kind = next(t for t in pyspiel.registered_games() if t.short_name == short_name(game_id))
    game = pyspiel.load_game(short_name(game_id))
    rules = boardrules.load(boardrules.games.as_game_id(game_id))
    assert (kind.dynamics, kind.chance_mode, kind.information, kind.utility) == (
        Type.Dynamics.SEQUENTIAL, chance, information, utility)
    assert game.num_distinct_actions() == rules.num_distinct_actions
    assert game.max_game_length() == rules.max_game_length
    assert game.observation_tensor_shape() == list(rules.observation_shape)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


@pytest.mark.parametrize(("game_id", "options", "information", "utility"), [
    ("armada", {"players": 2}, Type.Information.PERFECT_INFORMATION, Type.Utility.ZERO_SUM),
    ("armada", {"players": 2, "cards": True}, Type.Information.IMPERFECT_INFORMATION,
     Type.Utility.ZERO_SUM),
    ("armadora", {"players": 2}, Type.Information.IMPERFECT_INFORMATION, Type.Utility.ZERO_SUM),
    ("armadora", {"players": 3}, Type.Information.IMPERFECT_INFORMATION,
     Type.Utility.GENERAL_SUM),
])
def test_each_loaded_game_has_its_own_type(game_id: str, options: dict[str, Any],
                                           information: Any, utility: Any) -> None:
    game = load_game(game_id, **options)
    kind = game.get_type()
    assert (kind.information, kind.utility) == (information, utility)
    assert game.utility_sum() == (0.0 if utility == Type.Utility.ZERO_SUM else None)


def test_parameters_are_the_options() -> None:
    game = pyspiel.load_game("boardrules_armadora", {"players": 4, "variant": "advanced"})
    assert game.num_players() == 4
    assert game.rules.options["variant"] == "advanced"
    assert game.get_parameters()["players"] == 4
    assert str(pyspiel.load_game(str(game))) == str(game)  # the name reloads the game
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("boardrules_armadora", {"colour": "red"})
    assert pyspiel.load_game("boardrules_tic_tac_toe").utility_sum() == 0.0


def _play(game: Any, bots: list[Any], rng: np.random.RandomState, limit: int) -> Any:
    state = game.new_initial_state()
    while not state.is_terminal() and limit:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        limit -= 1
    return state


#: A short game of each, for OpenSpiel's Python MCTS (every simulation goes through the
#: bridge): the long games with few rounds.
SHORT = [("tic_tac_toe", {}), ("connect_four", {}), ("pig", {}),
         ("armadora", {"players": 2}), ("rome_and_carthage", {"players": 2, "max_rounds": 3}),
         ("armada", {"players": 2, "max_rounds": 1}), ("albion", {"players": 2, "max_rounds": 1})]


@pytest.mark.parametrize(("game_id", "options"), SHORT, ids=[g for g, _ in SHORT])
def test_openspiel_mcts_bot_plays_through_the_bridge(game_id: str,
                                                     options: dict[str, Any]) -> None:
    game = load_game(game_id, **options)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [mcts.MCTSBot(game, 2.0, 12, evaluator, random_state=rng)
            for _ in range(game.num_players())]
    state = _play(game, bots, rng, limit=3000)
    assert state.is_terminal()  # a whole game, every decision OpenSpiel's
    assert state.returns() == list(state.rules_state.returns())
    assert state.rules_state.outcome() is not None


#: The short games that hide something (Armada's cards are its secret).
HIDDEN = [("armadora", {"players": 2}), ("rome_and_carthage", {"players": 2, "max_rounds": 3}),
          ("armada", {"players": 2, "max_rounds": 1, "cards": True})]


@pytest.mark.parametrize(("game_id", "options"), HIDDEN, ids=[g for g, _ in HIDDEN])
def test_openspiel_ismcts_bot_plays_hidden_information_games(game_id: str,
                                                             options: dict[str, Any]) -> None:
    game = load_game(game_id, **options)
    assert game.get_type().information == Type.Information.IMPERFECT_INFORMATION
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 12, random_state=rng)
            for _ in range(game.num_players())]
    state = _play(game, bots, rng, limit=3000)
    assert state.is_terminal()
    assert state.returns() == list(state.rules_state.returns())


def test_observation_tensor_and_strings_come_from_the_rules() -> None:
    game = load_game("armadora", players=3, variant="advanced")
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    for _ in range(25):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    truth = state.rules_state
    for player in range(3):
        assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32),
                              truth.observation(player))
        assert f'"viewer": {player}' in state.observation_string(player)
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)


def test_states_pickle_and_serialise() -> None:
    game = load_game("pig")
    state = game.new_initial_state()
    for action in (0, 5, 0, 3, 1):
        state.apply_action(action)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    new_game, new_state = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(new_game) == str(game) and str(new_state) == str(state)
    assert new_state.rules_state.state_bytes() == state.rules_state.state_bytes()
    assert isinstance(game, SpielGame)


# --- what a long game costs: a clone, its text and its game cost its own moves ---


def _played(game: Any, steps: int, seed: int) -> Any:
    """The state after ``steps`` random actions (chance drawn by its odds) from the start."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _text_from_scratch(state: Any) -> str:
    """What ``str(state)`` must say, computed on a state restored from the save (nothing
    cached: its events and notation computed from the start)."""
    fresh = pickle.loads(pickle.dumps(state.rules_state))
    moves = " ".join(str(move) for move in fresh.history)
    return f"{fresh.render_text(None)}\n[{moves}]"


def test_a_clone_computes_only_the_events_of_its_own_moves(monkeypatch: Any) -> None:
    """OpenSpiel clones the state before each step and prints both (``random_sim_test``):
    a clone's text used to compute the events of the whole history again (its "last:"
    line), so that a Rome & Carthage game cost the square of its length."""
    game = load_game("rome_and_carthage")
    state = _played(game, 300, seed=4)
    str(state)
    computed = []
    events = type(game.rules)._events
    monkeypatch.setattr(type(game.rules), "_events",
                        lambda rules, *args: computed.append(args) or events(rules, *args))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    text = str(clone)
    added = len(clone.rules_state.history) - len(state.rules_state.history)
    assert 1 <= len(computed) <= added < 10 < len(state.rules_state.history)
    assert text == _text_from_scratch(clone)


def test_a_states_text_grows_by_its_new_moves(monkeypatch: Any) -> None:
    """The history's notation in ``str(state)`` is kept and extended: printing a state
    after a move writes the new moves only, and says what a state computed from scratch
    says (after clones, a world drawn by ISMCTS, and moves undone behind the bridge)."""
    game = load_game("rome_and_carthage")
    state = _played(game, 300, seed=5)
    str(state)
    move_class = type(state.rules_state.history[0])
    written = []
    text_of = move_class.__str__
    monkeypatch.setattr(move_class, "__str__",
                        lambda move: written.append(move) or text_of(move))
    state.apply_action(state.legal_actions()[0])
    text = str(state)
    assert len(written) < 20 < len(state.rules_state.history)
    monkeypatch.undo()
    assert text == _text_from_scratch(state)
    clone = _played(game, 0, seed=0)
    for each in (state.clone(), state, clone):
        for _ in range(40):
            _step(each, np.random.RandomState(6))
            assert str(each) == _text_from_scratch(each)
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0., 1.))
    assert str(world) == f"{world.rules_state.render_text(None)}\n[]"  # a world: no history
    state.rules_state.undo()
    state.rules_state.undo()
    assert str(state) == _text_from_scratch(state)


def _step(state: Any, rng: np.random.RandomState) -> None:
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_clone_of_a_world_does_not_walk_its_move_log(monkeypatch: Any) -> None:
    """A world drawn for ISMCTS keeps the drawing player's move log (``seen_before``);
    each clone of it (one per simulation) used to deep-copy that log entry by entry."""
    import copy

    game = load_game("rome_and_carthage")
    state = _played(game, 300, seed=7)
    world = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0., 1.))
    assert len(world.seen_before[0]) > 200
    copied = []
    tuple_copy = copy._deepcopy_dispatch[tuple]  # type: ignore[attr-defined]
    monkeypatch.setitem(copy._deepcopy_dispatch, tuple,  # type: ignore[attr-defined]
                        lambda value, *args: copied.append(value) or tuple_copy(value, *args))
    clone = world.clone()
    assert len(copied) < 20
    assert clone.seen_before == world.seen_before
    assert clone.information_state_string(1) == state.information_state_string(1)


def test_loading_a_game_again_loads_its_rules_once(monkeypatch: Any) -> None:
    """pyspiel loads the game again for every state it deserialises (``random_sim_test``
    does, at every power of two of a game's length): the player counts the game type
    declares used to be found again each time, loading the game once per count."""
    pyspiel.load_game(short_name("rome_and_carthage"), {"players": 3})
    loads = []
    load = boardrules.load
    monkeypatch.setattr(boardrules, "load",
                        lambda *args, **kwargs: loads.append(args) or load(*args, **kwargs))
    game = pyspiel.load_game(short_name("rome_and_carthage"), {"players": 3})
    assert len(loads) == 1
    assert (game.get_type().min_num_players, game.get_type().max_num_players) == (2, 4)


# --- the docs' OpenSpiel examples (docs/adapters.rst), each in seconds ---

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS_PAGE = ROOT / "docs" / "adapters.rst"
#: ``.. doctest:: GROUP`` and its ``testsetup`` / ``testcleanup``, at the page's margin.
GROUP_DIRECTIVE = re.compile(r"^\.\. (?P<kind>testsetup|doctest|testcleanup):: (?P<group>\S+)$")
#: The flags of the docs' doctest build (docs/conf.py's doctest_default_flags).
DOCS_FLAGS = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1


def docs_group(group: str) -> dict[str, tuple[int, str]]:
    """The bodies of one doctest group of docs/adapters.rst, by directive: the page line
    (0-based) before the body's first, and the body dedented."""
    lines = ADAPTERS_PAGE.read_text(encoding="utf-8").splitlines()
    found = {}
    for number, line in enumerate(lines):
        directive = GROUP_DIRECTIVE.match(line)
        if directive and directive["group"] == group:
            body = []
            for text in lines[number + 1:]:
                if text.strip() and not text.startswith(" "):
                    break
                body.append(text)
            found[directive["kind"]] = (number, textwrap.dedent("\n".join(body)) + "\n")
    return found


def run_docs_group(group: str) -> tuple[int, str]:
    """Run one doctest group of docs/adapters.rst as the docs build does (setup, the
    examples, cleanup, in one namespace): the examples run and the failure report
    (empty when every example printed what the page shows)."""
    parts = docs_group(group)
    namespace: dict[str, Any] = {}
    exec(parts.get("testsetup", (0, ""))[1], namespace)
    line, examples = parts["doctest"]
    test = doctest.DocTestParser().get_doctest(examples, namespace, group,
                                               str(ADAPTERS_PAGE), line)
    runner = doctest.DocTestRunner(optionflags=DOCS_FLAGS)
    report: list[str] = []
    runner.run(test, out=report.append, clear_globs=False)
    exec(parts.get("testcleanup", (0, ""))[1], namespace)
    return runner.tries, "".join(report)


def test_the_docs_mcts_example_runs() -> None:
    tries, report = run_docs_group("openspiel-mcts")
    assert report == ""
    assert tries >= 8


def test_the_docs_ismcts_example_runs() -> None:
    tries, report = run_docs_group("openspiel-ismcts")
    assert report == ""
    assert tries >= 14


@pytest.fixture(scope="module")
def kuhn_poker_src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tutorial's package (examples/kuhn_poker) built in place in a copy, its core
    compiled against this boardrules, as .ci/run builds it for the docs: the ``src``
    directory to import it from."""
    package = tmp_path_factory.mktemp("tutorial") / "kuhn_poker"
    shutil.copytree(ROOT / "examples" / "kuhn_poker", package,
                    ignore=shutil.ignore_patterns("build", "*.so", "*.egg-info", "__pycache__"))
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=package,
                   check=True, capture_output=True, text=True, timeout=600)
    return package / "src"


def test_the_docs_cfr_example_solves_kuhn_poker(kuhn_poker_src: Path) -> None:
    """In a child process (the example registers the tutorial's game, which this
    process's registry must not keep) with the built package on its path."""
    run = ("import sys; sys.path.insert(0, sys.argv[1]); "
           "from test_adapter_openspiel import run_docs_group; "
           "tries, report = run_docs_group('openspiel-cfr'); "
           "print(tries); sys.stdout.write(report)")
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(kuhn_poker_src),
                                                       os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", run, str(Path(__file__).parent)], env=env,
                          check=True, capture_output=True, text=True, timeout=600)
    tries, _, report = done.stdout.partition("\n")
    assert report == ""
    assert int(tries) >= 12
