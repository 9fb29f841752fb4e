"""CI: the interpreter running .ci/run is a fresh virtualenv that sees none of the
machine's packages (a newcomer's Python has nothing but the standard library).

A package the machine's Python has (Cython, pytest, numpy...) visible here would hide a
dependency missing from the project's extras, as Cython once was from ``test``."""

import importlib.util
import sys

if sys.prefix == sys.base_prefix:
    sys.exit("CI: not running in a virtualenv")
leaked = [name for name in ("Cython", "pytest", "numpy", "setuptools_scm", "boardrules")
          if importlib.util.find_spec(name) is not None]
if leaked:
    sys.exit(f"CI: the fresh virtualenv sees {leaked}: not a clean environment")
print(f"CI: fresh virtualenv {sys.prefix}")
