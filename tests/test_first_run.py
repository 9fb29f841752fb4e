"""A first run that works: the README's two commands in a fresh virtualenv (U3 of the
0.6.0 review: the test command failed there, Cython missing from the ``test`` extra, and
pytest hid the cause).

``.ci/run`` runs both commands in a virtualenv of its own without the machine's
site-packages; these tests pin the pieces that make that true for a newcomer.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # the "test" extra installs tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict[str, object]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def _names(requirements: list[str]) -> set[str]:
    return {Requirement(text).name.lower() for text in requirements}


def test_the_test_extra_installs_every_build_requirement() -> None:
    # tests run setup.py (build_py, build_ext of the tutorial's game): in a fresh
    # virtualenv only the test extra can have put the build's tools there
    project = _pyproject()
    build = _names(project["build-system"]["requires"])  # type: ignore[index]
    test = _names(project["project"]["optional-dependencies"]["test"])  # type: ignore[index]
    assert build <= test, f"build requirements missing from the test extra: {build - test}"


def test_a_failed_child_process_shows_its_stderr(tmp_path: Path) -> None:
    # the suite's conftest adds a CalledProcessError's output to the failure report
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_child.py").write_text(textwrap.dedent("""\
        import subprocess, sys

        def test_child():
            subprocess.run([sys.executable, "-c",
                            "import sys; sys.stderr.write('the-real-cause-7781'); sys.exit(3)"],
                           check=True, capture_output=True)
        """))
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "--rootdir", str(tmp_path), str(tmp_path / "test_child.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the-real-cause-7781" in result.stdout
    assert "the failed child process's stderr" in result.stdout


def test_ci_runs_every_step_in_a_fresh_virtualenv_of_its_own() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    first_install = script.index("pip install")
    activate = script.index("/bin/activate")
    assert "python3 -m venv" in script[:activate]
    assert "--system-site-packages" not in script
    assert activate < first_install, "a pip install runs before the fresh virtualenv"
    assert "check_clean_venv.py" in script[activate:first_install]


def test_the_clean_virtualenv_check_refuses_an_environment_with_packages() -> None:
    # run under this suite's interpreter, which has pytest: the check must refuse it
    result = subprocess.run([sys.executable, str(ROOT / ".ci" / "check_clean_venv.py")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "pytest" in result.stderr or "not running in a virtualenv" in result.stderr


def test_the_readme_opens_with_the_two_commands_and_says_what_they_cost() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[0].startswith("pip install -e .") and "python -m boardrules demo" in lines[0]
    assert lines[1].startswith('pip install -e ".[test]"') and "python -m pytest" in lines[1]
    assert "-n auto" in lines[1]  # pytest-xdist, from the test extra: every core
    opening = "\n".join(lines[:40])
    assert re.search(r"\d+ minutes", opening), "the README says how long the tests take"
    assert re.search(r"\d[\d.,]* ?(MB|GB)", opening), "the README says how large the extra is"


def test_mypy_strict_finds_an_editable_install_as_the_quickstart_says(tmp_path: Path) -> None:
    # U6: outside the clone `mypy --strict app.py` reported import-not-found for boardrules
    # after the README's editable install; the quickstart gives the command that works
    quickstart = (ROOT / "docs" / "quickstart.rst").read_text()
    command = re.search(r"^\s+(MYPYPATH=\S+ mypy --strict app\.py)$", quickstart, re.M)
    assert command, "the quickstart says how mypy --strict finds an editable install"
    (tmp_path / "app.py").write_text(textwrap.dedent("""\
        import boardrules

        state = boardrules.load("connect_four").new_game(seed=1)
        state.apply(state.legal_moves()[0])
        print(state.current_player + 1)
        """))
    env_path = command.group(1).split()[0].split("=", 1)[1]
    assert env_path == "/path/to/clone"
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "app.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "MYPYPATH": str(ROOT)})
    assert result.returncode == 0, result.stdout + result.stderr
