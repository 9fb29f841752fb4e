"""Build the Kuhn poker rules core against the installed boardrules.

The core cimports ``boardrules._ext.core`` (the C-level contract): Cython finds its
``.pxd`` in ``boardrules.get_include()``.  Everything else is in ``pyproject.toml``.
"""

import boardrules
from Cython.Build import cythonize
from setuptools import Extension, setup

extensions = [
    Extension(
        "boardrules_kuhn_poker._core",
        ["src/boardrules_kuhn_poker/_core.pyx"],
        include_dirs=[boardrules.get_include()],
    ),
]

setup(
    ext_modules=cythonize(
        extensions,
        include_path=[boardrules.get_include()],
        build_dir="build/cython",            # the generated C stays out of src/
        compiler_directives={"language_level": 3, "boundscheck": False,
                             "wraparound": False, "cdivision": True},
    ),
)
