"""Types an integrator can lean on: ``mypy --strict`` on a user's script knows each game's
own classes and catches a misspelled game id and a move of the wrong game.

Each script is checked by mypy's API in a temporary directory (its cache there too), all
in one mypy run: the good script must pass, each bad line must give its error.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from mypy import api as mypy_api

import boardrules

GOOD = """
    from collections.abc import Sequence
    from typing import Any, Final

    import boardrules
    from boardrules.games import as_game_id, register
    from boardrules.search import GreedyBot, ISMCTSBot, MCTSBot, RandomBot
    from boardrules.games.armadora import ArmadoraGame, ArmadoraMove, ArmadoraState
    from boardrules.games.pig import PigGame, PigMove
    from boardrules.games.tic_tac_toe import TicTacToeGame, TicTacToeState

    game: ArmadoraGame = boardrules.load("armadora", players=2)
    state: ArmadoraState = game.new_game(seed=1)
    moves: list[ArmadoraMove] = state.legal_moves()
    parsed: ArmadoraMove = game.parse_move("3@c2")
    by_id: ArmadoraMove = game.move(0)
    history: Sequence[ArmadoraMove] = state.history
    last: ArmadoraMove = state.history[-1]
    # the basic loops of the docs, unchanged: a suggestion's and a bot's move apply
    state.apply(boardrules.suggest(state, iterations=10).move)
    state.apply(ISMCTSBot(iterations=10).choose(state))
    hint: boardrules.Suggestion[ArmadoraMove] = boardrules.suggest(state, iterations=10)
    ranked: list[tuple[ArmadoraMove, float, int]] = hint.ranked
    same_game: ArmadoraGame = game
    again: ArmadoraState = state.game.new_game(seed=2)
    for bot in (RandomBot(seed=1), GreedyBot(seed=1), MCTSBot(iterations=5)):
        state.apply(bot.choose(state))
    state.apply(moves[0])
    state.apply("pass")
    undone: ArmadoraMove = state.undo()
    child: ArmadoraState = state.child("pass")
    restored: ArmadoraState = game.state_from_json(state.to_json())
    anything_may_be_asked: bool = state.is_legal(42)
    # a view is its game's TypedDict, and a Mapping for code written for every game
    from collections.abc import Mapping
    from boardrules.games.armadora import ArmadoraView
    typed_view: ArmadoraView = state.view(0)
    squares: int = len(typed_view["squares"])
    any_state: boardrules.State[Any] = state
    generic_view: Mapping[str, Any] = any_state.view(None)
    also_generic: Mapping[str, Any] = state.view(1)
    copied: dict[str, Any] = dict(any_state.view(0))
    print(moves[0].kind, parsed.square)

    pig: PigGame = boardrules.load("pig")
    roll: PigMove = pig.new_game().legal_moves()[0]
    ttt: TicTacToeState = boardrules.load("tic_tac_toe").new_game()

    PIG: Final = "pig"
    pig_again: PigGame = boardrules.load(PIG)

    MY_GAME = register("my_tic_tac_toe", TicTacToeGame)   # a user's game
    mine = boardrules.load(MY_GAME)
    mine.new_game().apply(mine.new_game().legal_moves()[0])

    def from_the_command_line(name: str) -> boardrules.State[Any]:
        return boardrules.load(as_game_id(name)).new_game()

    def any_game_by_its_id(name: str) -> None:   # a plain str, as available_games() gives
        some = boardrules.load(name).new_game(seed=1)
        some.apply(boardrules.suggest(some, iterations=10).move)
        some.apply(RandomBot(seed=1).choose(some))

    for game_id in boardrules.available_games():
        any_game_by_its_id(game_id)

    # observation tensors and the adapters, as an AI user writes them
    import numpy as np
    import numpy.typing as npt
    from boardrules.observations import ObservationLayout
    from boardrules.gymnasium import SingleAgentEnv
    from boardrules.pettingzoo import BoardRulesEnv, raw_env
    tensor: npt.NDArray[np.float32] = state.observation(0)
    into: npt.NDArray[np.float32] = state.observation(1, out=game.observation_layout.zeros())
    mask: npt.NDArray[np.int8] = state.action_mask()
    layout: ObservationLayout = game.observation_layout
    shape: tuple[int] = game.observation_shape
    planes: dict[str, npt.NDArray[np.float32]] = layout.split(tensor)
    single = SingleAgentEnv("connect_four", seat=1, opponents="mcts:iterations=20")
    observation, info = single.reset(seed=1)
    after, reward, terminated, truncated, info = single.step(3)
    aec: BoardRulesEnv = raw_env("pig")
    aec.reset(seed=1)
    seen: dict[str, Any] = aec.observe(aec.agent_selection)
"""

#: What mypy infers (``reveal_type``) for the game's own types: not ``Any``, which would
#: pass the good script too.
REVEALED = {
    'boardrules.load("armadora")': "boardrules.games.armadora.game.ArmadoraGame",
    'boardrules.load("connect_four").new_game()':
        "boardrules.games.connect_four.game.ConnectFourState",
    'boardrules.load("armadora").new_game().legal_moves()':
        "builtins.list[boardrules.games.armadora.moves.ArmadoraMove]",
    'boardrules.load("pig").new_game().history':
        "boardrules._state.History[boardrules.games.pig.moves.PigMove]",
    'boardrules.suggest(boardrules.load("pig").new_game()).move':
        "boardrules.games.pig.moves.PigMove",
    'boardrules.search.RandomBot().choose(boardrules.load("albion").new_game())':
        "boardrules.games.albion.moves.AlbionMove",
    'boardrules.load("armada").new_game().game.new_game()':
        "boardrules.games.armada.game.ArmadaState",
    'boardrules.load("pig").new_game().undo()': "boardrules.games.pig.moves.PigMove",
    'boardrules.load("tic_tac_toe").parse_move("b2")':
        "boardrules.games.tic_tac_toe.moves.TicTacToeMove",
    'boardrules.load("tic_tac_toe").move(4)': "boardrules.games.tic_tac_toe.moves.TicTacToeMove",
    'boardrules.load("pig").new_game().chance_outcomes()':
        "builtins.list[tuple[boardrules.games.pig.moves.PigMove, builtins.float]]",
    'boardrules.load("armadora").state_from_json("")':
        "boardrules.games.armadora.game.ArmadoraState",
    'boardrules.load(boardrules.games.as_game_id("pig"))':
        "boardrules._game.Game[boardrules._state.State[boardrules._base.Move], "
        "boardrules._base.Move]",
    'boardrules.load(str(1))':
        "boardrules._game.Game[boardrules._state.State[boardrules._base.Move], "
        "boardrules._base.Move]",
}

#: (a bad line, the error mypy must report for it)
BAD = {
    "misspelled_game_class": ('from boardrules.games.armadora import ArmadoraGame\n'
                              'game: ArmadoraGame = boardrules.load("armadorra")',
                              r'variable has type "ArmadoraGame"'),
    "general_move_to_a_games_own_type": (
        'from boardrules.games.pig import PigMove\n'
        'def f(name: str) -> PigMove:\n'
        '    return boardrules.load(name).new_game().legal_moves()[0]',
        r'Incompatible return value type \(got "Move", expected "PigMove"\)'),
    "move_of_another_game_applied": (
        'boardrules.load("armadora").new_game().apply(\n'
        '    boardrules.load("tic_tac_toe").new_game().legal_moves()[0])',
        r'Argument 1 to "apply" of "State" has incompatible type "TicTacToeMove"; '
        r'expected "ArmadoraMove \| str"'),
    "legal_move_assigned_to_another_games_type": (
        'from boardrules.games.connect_four import ConnectFourMove\n'
        'move: ConnectFourMove = boardrules.load("armadora").new_game().legal_moves()[0]',
        r'Incompatible types in assignment \(expression has type "ArmadoraMove", '
        r'variable has type "ConnectFourMove"\)'),
    "parsed_move_of_another_game": (
        'from boardrules.games.pig import PigMove\n'
        'move: PigMove = boardrules.load("tic_tac_toe").parse_move("b2")',
        r'expression has type "TicTacToeMove", variable has type "PigMove"'),
    "wrong_state_class": (
        'from boardrules.games.pig import PigState\n'
        'state: PigState = boardrules.load("connect_four").new_game()',
        r'expression has type "ConnectFourState", variable has type "PigState"'),
}


def _mypy_path() -> str | None:
    """The source tree for mypy when boardrules is installed in development mode (an
    editable install is not found by mypy's search of site-packages)."""
    root = Path(boardrules.__file__).resolve().parent.parent
    return None if "site-packages" in root.parts else str(root)


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """mypy --strict's output for each script, by script name (one mypy run)."""
    tmp = tmp_path_factory.mktemp("typing")
    scripts = {"good": GOOD}
    scripts.update({name: f"import boardrules\n{line}\n" for name, (line, _) in BAD.items()})
    scripts["reveal"] = "import boardrules\nimport boardrules.games\n" + "".join(
        f"reveal_type({expression})\n" for expression in REVEALED)
    paths = []
    for name, text in scripts.items():
        path = tmp / f"{name}.py"
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        paths.append(str(path))
    config = tmp / "mypy.ini"  # not the repository's configuration
    mypy_path = _mypy_path()
    config.write_text("[mypy]\n" + (f"mypy_path = {mypy_path}\n" if mypy_path else ""),
                      encoding="utf-8")
    stdout, stderr, _ = mypy_api.run(
        ["--strict", "--no-error-summary", "--show-error-codes", "--hide-error-context",
         "--cache-dir", str(tmp / "cache"), "--config-file", str(config), *paths])
    assert not stderr, stderr
    report = {name: "" for name in scripts}
    for line in stdout.splitlines():
        name = Path(line.split(":", 1)[0]).stem
        assert name in report, line
        report[name] += line + "\n"
    return report


def test_a_well_typed_script_passes_mypy_strict(mypy_report: dict[str, str]) -> None:
    assert mypy_report["good"] == ""


@pytest.mark.parametrize("name", list(BAD))
def test_mypy_strict_catches(mypy_report: dict[str, str], name: str) -> None:
    expected = BAD[name][1]
    errors = [line for line in mypy_report[name].splitlines() if ": error:" in line]
    assert len(errors) == 1, mypy_report[name]
    assert re.search(expected, errors[0]), errors[0]


def test_each_game_has_its_own_types(mypy_report: dict[str, str]) -> None:
    revealed = re.findall(r'Revealed type is "(.*)"', mypy_report["reveal"])
    # mypy versions differ on spelling builtins ("builtins.list" or "list")
    assert ([t.replace("builtins.", "") for t in revealed]
            == [t.replace("builtins.", "") for t in REVEALED.values()]), mypy_report["reveal"]
