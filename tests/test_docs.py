"""The documentation's own test settings (the examples themselves run in the Sphinx
doctest build of ``.ci/run``)."""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

CONF = Path(__file__).resolve().parent.parent / "docs" / "conf.py"


def _doctest_flags() -> int:
    """The value docs/conf.py gives ``doctest_default_flags`` (read, not imported: the
    configuration imports Sphinx)."""
    tree = ast.parse(CONF.read_text(encoding="utf-8"))
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "doctest_default_flags"):
            flags: int = eval(compile(ast.Expression(node.value), str(CONF), "eval"),
                              {"doctest": doctest})
            return flags
    raise AssertionError("docs/conf.py does not set doctest_default_flags (Sphinx's "
                         "default ignores exception messages)")


def test_doctests_check_exception_messages() -> None:
    """Sphinx's default flags include IGNORE_EXCEPTION_DETAIL, under which an example
    showing a message the library never prints still passed."""
    flags = _doctest_flags()
    assert not flags & doctest.IGNORE_EXCEPTION_DETAIL
    assert flags & doctest.ELLIPSIS  # "..." stands for a traceback's middle and long hints
