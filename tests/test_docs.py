"""The documentation's own test settings (the examples themselves run in the Sphinx
doctest build of ``.ci/run``)."""

from __future__ import annotations

import ast
import doctest
import re
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


CITED_TEST = re.compile(r"``(tests/[\w/]+\.py)::(test_\w+)")


def _defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_test_the_docs_cite_exists() -> None:
    """A rules clarification pins its reading with a test the page names: a renamed or
    removed test must not leave the page citing nothing."""
    root = CONF.parent.parent
    cited = [(page.name, file, name) for page in sorted(CONF.parent.glob("*.rst"))
             for file, name in CITED_TEST.findall(page.read_text(encoding="utf-8"))]
    assert len(cited) > 50            # the pattern still matches the pages' spelling
    missing = [(page, f"{file}::{name}") for page, file, name in cited
               if not (root / file).exists() or name not in _defined_tests(root / file)]
    assert missing == []
