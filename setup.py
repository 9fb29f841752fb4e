"""Build the Cython rules cores and search core.

Switches (environment variables):

* ``BOARDRULES_CYTHON_DEBUG=1`` -- bounds checks, wrap-around and initialised-check on, no
  ``-O3``: the bounds-checked build the test suite runs once in CI.
* ``BOARDRULES_SANITIZE=1`` -- compile and link with AddressSanitizer and
  UndefinedBehaviorSanitizer (gcc/clang: ``-fsanitize=address,undefined``, ``-O1 -g``, every
  undefined-behaviour finding fatal): the build ``.ci/sanitize.sh`` runs the tests on, in a
  temporary copy of the clone.  Its modules load only with the sanitizer runtimes preloaded
  (``LD_PRELOAD``), so never leave such a build where the tests run normally.
* ``BOARDRULES_CYTHON_ANNOTATE=1`` -- write ``cython -a`` HTML beside the generated C, in
  ``build/cython/src_ext/boardrules/_ext/``.
* ``BOARDRULES_REQUIRE_EXTENSIONS`` -- ``1`` (the default) makes a failed compile fail the
  install.  The library has no pure-Python rules, so ``0`` only exists to let a
  documentation-only environment install the package; importing a game then raises
  ``ImportError``.

Whatever that switch says, a tree with no ``.pyx`` under ``src_ext/boardrules/_ext`` is an
error (an sdist that lost its Cython sources would otherwise build a ``py3-none-any`` wheel
that imports nothing); only an explicit ``BOARDRULES_REQUIRE_EXTENSIONS=0`` lets it through.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
SRC = HERE / "src_ext"
DEBUG = os.environ.get("BOARDRULES_CYTHON_DEBUG", "0") == "1"
ANNOTATE = os.environ.get("BOARDRULES_CYTHON_ANNOTATE", "0") == "1"
SANITIZE = os.environ.get("BOARDRULES_SANITIZE", "0") == "1"
SANITIZER_FLAGS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
                   "-fno-sanitize-recover=undefined"]
REQUIRE = os.environ.get("BOARDRULES_REQUIRE_EXTENSIONS", "1") != "0"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}


class NoCythonSourceError(RuntimeError):
    """The tree has none of the ``.pyx`` files the package is made of."""


def cython_sources(root: Path, require: bool = True) -> list[Path]:
    """Every rules/search core under ``root/src_ext/boardrules/_ext``, sorted.

    Raises :class:`NoCythonSourceError` when there is none, unless ``require`` is false
    (``BOARDRULES_REQUIRE_EXTENSIONS=0``, a documentation-only install).
    """
    ext_dir = root / "src_ext" / "boardrules" / "_ext"
    found = sorted(ext_dir.glob("*.pyx"))
    if not found and require:
        raise NoCythonSourceError(
            f"boardrules: no Cython source (*.pyx) in {ext_dir}. The package is nothing "
            "without its compiled cores: a wheel built from here would import nothing. "
            "Build from a complete source tree or sdist (MANIFEST.in must carry src_ext/); "
            "set BOARDRULES_REQUIRE_EXTENSIONS=0 only for a documentation-only install."
        )
    return found


def extensions() -> list[Extension]:
    modules = cython_sources(HERE, REQUIRE)
    if not modules:
        print("boardrules: no Cython source found; building without the cores", file=sys.stderr)
        return []
    from Cython.Build import cythonize

    exts = [Extension("boardrules._ext." + p.stem, [str(p.relative_to(HERE))]) for p in modules]
    return cythonize(
        exts,
        include_path=[str(SRC)],
        compiler_directives=DIRECTIVES,
        annotate=ANNOTATE,
        # A debug build must not reuse C files generated with other directives.
        force=DEBUG,
        build_dir=str(Path("build") / ("cython-debug" if DEBUG else "cython")),
    )


def compile_args(compiler_type: str) -> list[str]:
    """Optimised (or, with ``BOARDRULES_CYTHON_DEBUG=1``, debug) flags for this compiler;
    with ``BOARDRULES_SANITIZE=1`` the sanitizers' (gcc and clang only)."""
    if compiler_type == "msvc":
        if SANITIZE:
            raise RuntimeError("BOARDRULES_SANITIZE=1 needs gcc or clang, not MSVC")
        return ["/Od", "/Zi", "/UNDEBUG"] if DEBUG else ["/O2"]
    flags = ["-O0", "-g", "-UNDEBUG"] if DEBUG else ["-O3"]
    if SANITIZE:
        # -O1 keeps the reports' stacks readable without the cost of -O0
        flags = (flags if DEBUG else ["-O1", "-g"]) + SANITIZER_FLAGS
    return flags


def link_args(compiler_type: str) -> list[str]:
    """The sanitizer runtimes at link time (nothing otherwise)."""
    return SANITIZER_FLAGS if SANITIZE and compiler_type != "msvc" else []


class BuildExt(build_ext):
    """Fail loudly when an extension does not compile (unless explicitly allowed)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        # Compile the modules side by side (threads, one per core) unless told otherwise
        # (``-j``): compiling is most of an install's time.
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # pragma: no cover - exercised only on broken compilers
            if REQUIRE:
                raise
            print(f"boardrules: extensions not built ({exc}); the games cannot run",
                  file=sys.stderr)
            return
        self._check_built()

    def _check_built(self) -> None:
        # A build that produced no extension module gives a package that cannot import.
        missing = [ext.name for ext in self.extensions
                   if not Path(self.get_ext_fullpath(ext.name)).exists()]
        if REQUIRE and (missing or not self.extensions):
            raise NoCythonSourceError(
                f"boardrules: the build did not compile {missing or 'any extension'}; a C "
                "compiler and the Python headers are needed to install from source"
            )

    def build_extension(self, ext: Extension) -> None:
        # The flags depend on the compiler, known only now: MSVC spells them differently.
        ext.extra_compile_args = compile_args(self.compiler.compiler_type)
        ext.extra_link_args = link_args(self.compiler.compiler_type)
        try:
            super().build_extension(ext)
        except Exception as exc:  # pragma: no cover
            if REQUIRE:
                raise
            print(f"boardrules: {ext.name} not built ({exc})", file=sys.stderr)


if __name__ == "__main__":
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
