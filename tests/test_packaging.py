"""Packaging: what the sdist carries, what setup.py refuses, what an install must hold.

Cheap checks for the normal suite (no network, no build); ``.ci/check_dist.sh`` builds the
real sdist and wheel and installs them outside the clone.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from setuptools.command.egg_info import FileList

import boardrules

if sys.version_info >= (3, 11):
    import tomllib
else:  # the "test" extra installs tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
EXT_SRC = ROOT / "src_ext" / "boardrules" / "_ext"
SKIP_DIRS = {".git", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache",
             ".pytest_cache", ".hypothesis", ".benchmarks", "_build"}
# Files a build leaves in the tree; the sdist must never carry them.
GENERATED = [
    "src_ext/boardrules/_ext/core.c",
    "src_ext/boardrules/_ext/core.html",
    "boardrules/_ext/core.cpython-311-x86_64-linux-gnu.so",
    "boardrules/_ext/core.cp311-win_amd64.pyd",
    "build/cython/src_ext/boardrules/_ext/core.c",
    "docs/_build/html/index.html",
]


def tree_files() -> list[str]:
    """Every file of the source tree, as POSIX paths relative to its root."""
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        files += [Path(folder, n).relative_to(ROOT).as_posix() for n in names
                  if not n.endswith((".so", ".pyd"))]
    return files


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], set[str]]:
    """(the tree's files, the files MANIFEST.in selects), by setuptools' own template rules.

    setuptools globs from the working directory, so the selection is made in a copy of the
    tree to which the generated files of a build (``GENERATED``) are added.
    """
    files = tree_files()
    copy = tmp_path_factory.mktemp("tree")
    for name in files:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, copy / name)
    for name in GENERATED:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_text("generated\n", encoding="utf-8")
    selection = FileList()
    here = os.getcwd()
    os.chdir(copy)
    try:
        for line in (copy / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                selection.process_template_line(line)
    finally:
        os.chdir(here)
    return files, {Path(f).as_posix() for f in selection.files}


def load_setup_py() -> dict[str, Any]:
    # run_name is not "__main__", so setup() is not called: only the helpers are defined.
    return runpy.run_path(str(ROOT / "setup.py"), run_name="boardrules_setup")


def test_sdist_manifest_carries_every_cython_source(
        manifest: tuple[list[str], set[str]]) -> None:
    files, selected = manifest
    cython = {f for f in files if f.startswith("src_ext/") and f.endswith((".pyx", ".pxd"))}
    assert any(f.endswith(".pyx") for f in cython) and any(f.endswith(".pxd") for f in cython)
    assert cython <= selected


def test_sdist_manifest_carries_build_files_and_package_data(
        manifest: tuple[list[str], set[str]]) -> None:
    files, selected = manifest
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "boardrules/py.typed"):
        assert name in selected
    data = {f for f in files if f.startswith("boardrules/")
            and (f.endswith(".pyi") or f.endswith(".json"))}
    assert data and data <= selected
    tests = {f for f in files if f.startswith("tests/") and f.endswith(".py")}
    assert Path(__file__).relative_to(ROOT).as_posix() in tests
    assert tests <= selected


def test_sdist_manifest_carries_the_fuzz_targets_and_their_corpus(
        manifest: tuple[list[str], set[str]]) -> None:
    files, selected = manifest
    fuzz = {f for f in files if f.startswith("fuzz/")}
    assert "fuzz/run.py" in fuzz and "fuzz/make_corpus.py" in fuzz
    assert any(f.startswith("fuzz/corpus/saves/") for f in fuzz)
    assert fuzz <= selected


def test_sdist_manifest_leaves_out_generated_files(
        manifest: tuple[list[str], set[str]]) -> None:
    _, selected = manifest
    assert selected.isdisjoint(GENERATED)


def test_installed_ext_modules_are_compiled_extensions() -> None:
    # One compiled module per Cython source, loaded from a real extension file.
    stems = sorted(p.stem for p in EXT_SRC.glob("*.pyx"))
    assert "core" in stems and "search" in stems
    for stem in stems:
        module = importlib.import_module(f"boardrules._ext.{stem}")
        assert isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader)
        assert str(module.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_setup_py_raises_on_a_tree_without_cython_sources(tmp_path: Path) -> None:
    setup_py = load_setup_py()
    (tmp_path / "src_ext" / "boardrules" / "_ext").mkdir(parents=True)
    with pytest.raises(setup_py["NoCythonSourceError"], match=r"no Cython source"):
        setup_py["cython_sources"](tmp_path)
    # Only an explicit documentation-only install may go on without them.
    assert setup_py["cython_sources"](tmp_path, require=False) == []
    assert [p.name for p in setup_py["cython_sources"](ROOT)] == sorted(
        p.name for p in EXT_SRC.glob("*.pyx"))


def test_setup_py_run_without_cython_sources_fails_loudly(tmp_path: Path) -> None:
    # The real script, as a build frontend runs it, in a copy of the tree that lost src_ext/.
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    env = {k: v for k, v in os.environ.items() if k != "BOARDRULES_REQUIRE_EXTENSIONS"}
    done = subprocess.run([sys.executable, "setup.py", "--version"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "no Cython source" in done.stderr


@pytest.mark.parametrize(("value", "required"), [(None, True), ("1", True), ("", True),
                                                 ("0", False)])
def test_setup_py_require_extensions_off_only_when_explicit(
        monkeypatch: pytest.MonkeyPatch, value: str | None, required: bool) -> None:
    if value is None:
        monkeypatch.delenv("BOARDRULES_REQUIRE_EXTENSIONS", raising=False)
    else:
        monkeypatch.setenv("BOARDRULES_REQUIRE_EXTENSIONS", value)
    assert load_setup_py()["REQUIRE"] is required


def test_pyproject_metadata_has_no_invented_url() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def strings(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [s for v in value.values() for s in strings(v)]
        if isinstance(value, list):
            return [s for v in value for s in strings(v)]
        return []

    for text in strings(project):
        for placeholder in (".invalid", "example.com", "example.org", "localhost"):
            assert placeholder not in text, text


def test_pyproject_version_is_the_package_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == boardrules.__version__


def test_cibuildwheel_runs_the_test_suite_on_every_platform() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    config = pyproject["tool"]["cibuildwheel"]
    assert "pytest" in config["test-command"] and "{project}/tests" in config["test-command"]
    assert config["test-extras"] == ["test"]
    assert {"linux", "macos", "windows"} <= set(config)


def test_source_checkout_without_cores_import_error_says_what_is_wrong(
        tmp_path: Path) -> None:
    # A source folder shadowing the install: the package's Python files, no compiled cores.
    shutil.copytree(ROOT / "boardrules", tmp_path / "boardrules",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    done = subprocess.run([sys.executable, "-c", "import boardrules"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    message = done.stderr
    assert "ImportError" in message and "compiled Cython cores" in message
    assert "pip install -e ." in message and "C compiler" in message
    assert str(tmp_path / "boardrules") in message


# --- the persistent build directories (setup.py) -------------------------------------------


def build_dir_for(monkeypatch: pytest.MonkeyPatch, debug: str | None,
                  sanitize: str | None) -> str:
    """The object directory setup.py picks under these switches, for gcc with the same
    toolchain (only the switches' flags differ)."""
    for name, value in (("BOARDRULES_CYTHON_DEBUG", debug), ("BOARDRULES_SANITIZE", sanitize)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    setup_py = load_setup_py()
    commands = [("compiler_so", ["gcc", "-fPIC"]), setup_py["compile_args"]("unix"),
                setup_py["link_args"]("unix")]
    name: str = setup_py["build_dir_name"]("temp", commands, debug=setup_py["DEBUG"],
                                           sanitize=setup_py["SANITIZE"])
    return name


def test_build_dir_name_is_stable_and_names_platform_python_and_flavour() -> None:
    name = load_setup_py()["build_dir_name"]
    commands = [("compiler_so", ["gcc"]), ["-O3"], []]
    first = name("temp", commands, debug=False, sanitize=False, platform="linux-x86_64",
                 cache_tag="cpython-311")
    # the same toolchain and flags find the same directory again: what makes a second
    # install reuse the first one's objects
    assert first == name("temp", [("compiler_so", ["gcc"]), ["-O3"], []], debug=False,
                         sanitize=False, platform="linux-x86_64", cache_tag="cpython-311")
    assert first.startswith("temp-linux-x86_64-cpython-311-release-")
    assert name("lib", commands, debug=False, sanitize=False, platform="linux-x86_64",
                cache_tag="cpython-311") == "lib-" + first.removeprefix("temp-")
    assert name("temp", commands, debug=False, sanitize=False, platform="linux-x86_64",
                cache_tag="cpython-312") != first


def test_build_dir_name_changes_with_any_flag_or_command() -> None:
    name = load_setup_py()["build_dir_name"]
    base = dict(debug=False, sanitize=False, platform="linux-x86_64", cache_tag="cpython-311")
    names = {
        name("temp", [("compiler_so", ["gcc"]), ["-O3"], []], **base),
        name("temp", [("compiler_so", ["gcc"]), ["-O2"], []], **base),
        name("temp", [("compiler_so", ["gcc", "-march=native"]), ["-O3"], []], **base),
        name("temp", [("compiler_so", ["clang"]), ["-O3"], []], **base),
        name("temp", [("compiler_so", ["gcc"]), ["-O3"], ["-lm"]], **base),
    }
    assert len(names) == 5


@pytest.mark.parametrize(("debug", "sanitize", "flavour"), [
    ("1", None, "-debug-"), (None, "1", "-release-sanitize-"), ("1", "1", "-debug-sanitize-")])
def test_debug_and_sanitize_switches_build_in_directories_of_their_own(
        monkeypatch: pytest.MonkeyPatch, debug: str | None, sanitize: str | None,
        flavour: str) -> None:
    release = build_dir_for(monkeypatch, None, None)
    assert "-release-" in release
    switched = build_dir_for(monkeypatch, debug, sanitize)
    assert flavour in switched and switched != release
    # and switching back finds the release build's directory again
    assert build_dir_for(monkeypatch, "0", "0") == release


def test_cython_directives_are_recorded_and_a_change_regenerates(tmp_path: Path) -> None:
    setup_py = load_setup_py()
    changed, record = setup_py["directives_changed"], setup_py["record_directives"]
    directives = dict(setup_py["DIRECTIVES"])
    cython_dir = tmp_path / "build" / "cython"
    assert changed(cython_dir, directives)  # nothing recorded: C of unknown directives
    record(cython_dir, directives)
    assert not changed(cython_dir, directives)
    assert changed(cython_dir, dict(directives, boundscheck=not directives["boundscheck"]))
    (cython_dir / "directives.json").write_text("{not json", encoding="utf-8")
    assert changed(cython_dir, directives)


def test_debug_build_keeps_its_c_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    # the bounds-checked C (other directives) never overwrites the optimised build's C
    monkeypatch.setenv("BOARDRULES_CYTHON_DEBUG", "1")
    assert load_setup_py()["CYTHON_DIR"] == Path("build") / "cython-debug"
    monkeypatch.delenv("BOARDRULES_CYTHON_DEBUG")
    assert load_setup_py()["CYTHON_DIR"] == Path("build") / "cython"
