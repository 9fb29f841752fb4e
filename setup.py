"""Build the Cython rules cores and search core.

Switches (environment variables):

* ``BOARDRULES_CYTHON_DEBUG=1`` -- bounds checks, wrap-around and initialised-check on, no
  ``-O3``: the bounds-checked build the test suite runs once in CI.
* ``BOARDRULES_CYTHON_ANNOTATE=1`` -- write ``cython -a`` HTML next to each ``.pyx``.
* ``BOARDRULES_REQUIRE_EXTENSIONS`` -- ``1`` (the default) makes a failed compile fail the
  install.  The library has no pure-Python rules, so ``0`` only exists to let a
  documentation-only environment install the package; importing a game then raises
  ``ImportError``.
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
REQUIRE = os.environ.get("BOARDRULES_REQUIRE_EXTENSIONS", "1") != "0"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}


def extensions() -> list[Extension]:
    from Cython.Build import cythonize

    compile_args = ["-O0", "-g", "-UNDEBUG"] if DEBUG else ["-O3"]
    modules = sorted(p for p in (SRC / "boardrules" / "_ext").glob("*.pyx"))
    exts = [
        Extension(
            "boardrules._ext." + p.stem,
            [str(p.relative_to(HERE))],
            extra_compile_args=compile_args,
        )
        for p in modules
    ]
    return cythonize(
        exts,
        include_path=[str(SRC)],
        compiler_directives=DIRECTIVES,
        annotate=ANNOTATE,
        # A debug build must not reuse C files generated with other directives.
        force=DEBUG,
        build_dir=str(Path("build") / ("cython-debug" if DEBUG else "cython")),
    )


class BuildExt(build_ext):
    """Fail loudly when an extension does not compile (unless explicitly allowed)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # pragma: no cover - exercised only on broken compilers
            if REQUIRE:
                raise
            print(f"boardrules: extensions not built ({exc}); the games cannot run", file=sys.stderr)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # pragma: no cover
            if REQUIRE:
                raise
            print(f"boardrules: {ext.name} not built ({exc})", file=sys.stderr)


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
