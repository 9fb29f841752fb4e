"""Games built outside the library: the .pxd contract files the wheel ships and
``boardrules.get_include()``, games declared by installed packages through the
``boardrules.games`` entry-point group, and the adapters' imports staying optional.

The entry-point tests install a real (tiny) distribution: a ``.dist-info`` directory with
an ``entry_points.txt`` on ``sys.path`` of a child interpreter, which is what ``pip
install`` leaves; the full path (a Cython game compiled against the installed wheel) is
CI's, in ``.ci/check_dist.sh``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import boardrules
from boardrules import games

ROOT = Path(__file__).resolve().parents[1]


def test_get_include_holds_the_contract_files() -> None:
    include = Path(boardrules.get_include())
    core = include / "boardrules" / "_ext" / "core.pxd"
    assert core.is_file()
    assert "ctypedef struct GameContract" in core.read_text(encoding="utf-8")
    assert (include / "boardrules" / "__init__.pxd").is_file()
    assert (include / "boardrules" / "_ext" / "__init__.pxd").is_file()


def test_the_build_ships_every_pxd_under_boardrules_include(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "setup.py", "-q", "build_py", "-d", str(tmp_path)],
                   cwd=ROOT, check=True, capture_output=True)
    shipped = sorted(p.relative_to(tmp_path / "boardrules" / "include")
                     for p in (tmp_path / "boardrules" / "include").rglob("*.pxd"))
    sources = sorted(p.relative_to(ROOT / "src_ext") for p in (ROOT / "src_ext").rglob("*.pxd"))
    assert shipped == sources and Path("boardrules/_ext/core.pxd") in shipped


def _child(code: str, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, "-W", "always", "-c", textwrap.dedent(code)],
                          env=env, capture_output=True, text=True, timeout=120)


def _distribution(site: Path, name: str, entry_points: str, module: str = "") -> None:
    """What pip installs: a dist-info with its entry points, and the package's module."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    if module:
        (site / f"{name}.py").write_text(module)


def test_an_installed_packages_game_loads_by_name(tmp_path: Path) -> None:
    _distribution(tmp_path, "my_line_game", textwrap.dedent("""\
        [boardrules.games]
        my_line_game = my_line_game:MyGame
        """), module=textwrap.dedent("""\
        from boardrules.games.tic_tac_toe import TicTacToeGame

        class MyGame(TicTacToeGame):
            id = "my_line_game"
        """))
    result = _child("""
        import boardrules
        from boardrules.cli import main
        assert "my_line_game" in boardrules.available_games()
        game = boardrules.load(boardrules.games.as_game_id("my_line_game"))
        assert type(game).__name__ == "MyGame" and game.new_game(seed=1).legal_moves()
        main(["games"])
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "my_line_game" in result.stdout.split()


def test_a_broken_or_clashing_entry_point_warns_and_the_rest_load(tmp_path: Path) -> None:
    _distribution(tmp_path, "broken_games", textwrap.dedent("""\
        [boardrules.games]
        no_such_game = no_such_module:Game
        armadora = broken_games:Fake
        good_game = broken_games:Good
        """), module=textwrap.dedent("""\
        from boardrules.games.tic_tac_toe import TicTacToeGame
        Fake = object
        class Good(TicTacToeGame):
            id = "good_game"
        """))
    result = _child("""
        import boardrules
        names = boardrules.available_games()
        assert "good_game" in names and "no_such_game" not in names, names
        assert type(boardrules.load("armadora")).__name__ == "ArmadoraGame"
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "'no_such_game'" in result.stderr and "failed to load" in result.stderr
    assert "'armadora'" in result.stderr and "already registered" in result.stderr


def test_a_malformed_entry_points_file_warns_naming_its_package_and_the_rest_load(
        tmp_path: Path) -> None:
    # importlib.metadata.entry_points() parses every package's entry_points.txt at once:
    # one line without "=" in an unrelated package's [console_scripts] raised TypeError
    # out of the first boardrules.load(), and no plugin ever loaded after it.
    _distribution(tmp_path, "unrelated_tool", "[console_scripts]\nfoo\n")
    _distribution(tmp_path, "healthy_games", textwrap.dedent("""\
        [boardrules.games]
        healthy_game = healthy_games:Healthy
        """), module=textwrap.dedent("""\
        from boardrules.games.tic_tac_toe import TicTacToeGame
        class Healthy(TicTacToeGame):
            id = "healthy_game"
        """))
    result = _child("""
        import boardrules
        boardrules.load("armadora").new_game(seed=1)
        assert "healthy_game" in boardrules.available_games()
        assert boardrules.load(boardrules.games.as_game_id("healthy_game")).new_game(seed=1)
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "distribution unrelated_tool" in result.stderr
    assert "entry points cannot be read" in result.stderr


def test_a_plugin_raising_systemexit_at_import_warns_and_the_rest_load(
        tmp_path: Path) -> None:
    # A module that calls sys.exit() when a dependency is missing: SystemExit is no
    # Exception, and it escaped boardrules.load("armadora").
    _distribution(tmp_path, "exiting_games", textwrap.dedent("""\
        [boardrules.games]
        exiting_game = exiting_games:Game
        """), module="import sys\nsys.exit('needs libfoo')\n")
    result = _child("""
        import boardrules
        boardrules.load("armadora").new_game(seed=1)
        assert "exiting_game" not in boardrules.available_games()
        print("loaded")
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "loaded"
    assert "'exiting_game'" in result.stderr and "SystemExit: needs libfoo" in result.stderr


def test_a_plugin_raising_keyboardinterrupt_at_import_is_not_swallowed(
        tmp_path: Path) -> None:
    # Ctrl-C while a plugin imports must still stop the program.
    _distribution(tmp_path, "interrupted_games", textwrap.dedent("""\
        [boardrules.games]
        interrupted_game = interrupted_games:Game
        """), module="raise KeyboardInterrupt\n")
    result = _child("""
        import boardrules
        try:
            boardrules.available_games()
        except KeyboardInterrupt:
            print("interrupted")
        """, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "interrupted"


def test_the_entry_point_group_is_documented_and_used() -> None:
    assert games.ENTRY_POINT_GROUP == "boardrules.games"


def test_import_boardrules_needs_none_of_the_adapters_libraries() -> None:
    code = ("import sys, boardrules, boardrules.testing, boardrules.arena; "
            "boardrules.load('pig').new_game(seed=1).observation(0); "
            "print(sorted(m for m in ('pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=ROOT)
    assert result.stdout.strip() == "[]"
