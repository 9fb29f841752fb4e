"""Sphinx configuration of the boardrules documentation.

Build from the repository root, with the package installed (``pip install -e .``, which
compiles the Cython cores)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
    python -m sphinx -W --keep-going -b doctest docs docs/_build/doctest
    python docs/check_code_fits.py docs/_build/html    # no code block or picture clipped
"""

from __future__ import annotations

import doctest
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

# autodoc imports the installed package.  Only when it is not importable at all does the
# configuration fall back to the source tree (an in-place build keeps the compiled cores
# there); there is no pure-Python fallback, so without the cores the build stops here.
try:
    import boardrules
except ImportError:  # pragma: no cover - depends on how the docs are built
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import boardrules

project = "boardrules"
author = "boardrules developers"
copyright = "boardrules developers (MIT licence)"
release = boardrules.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
]

# The package's docstrings are plain reST (no napoleon); type hints go into the
# descriptions, not the signatures.
autodoc_typehints = "description"
autodoc_member_order = "bysource"

# Plain ``>>>`` paragraphs are tested as well as ``.. doctest::`` blocks, so every example
# on every page runs in the doctest build.
doctest_test_doctest_blocks = "default"
# Sphinx's default flags include IGNORE_EXCEPTION_DETAIL, under which an example passes
# whatever message its exception carries: without it, every message shown on a page is the
# one the library prints.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1

root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "figures/*"]
language = "en"
pygments_style = "sphinx"

html_theme = "furo"
html_static_path = ["_static"]
html_title = f"boardrules {release}"
# Long code lines wrap rather than scroll, board pictures fill the column
# (docs/check_code_fits.py checks the built pages in a browser).
html_css_files = ["code_fits.css"]

# Classes that users never construct themselves (they get them from a Game or a State):
# their constructor parameters are internals, so the pages do not list them.
FACTORY_MADE_CLASSES = {
    "boardrules.State",
    "boardrules.Move",
    "boardrules.games.armadora.ArmadoraState",
    "boardrules.games.armadora.ArmadoraMove",
    "boardrules.games.rome_and_carthage.RomeCarthageState",
    "boardrules.games.rome_and_carthage.RomeCarthageMove",
    "boardrules.games.albion.AlbionState",
    "boardrules.games.albion.AlbionMove",
    "boardrules.games.armada.ArmadaState",
    "boardrules.games.armada.ArmadaMove",
    "boardrules.games.tic_tac_toe.TicTacToeState",
    "boardrules.games.tic_tac_toe.TicTacToeMove",
    "boardrules.games.connect_four.ConnectFourState",
    "boardrules.games.connect_four.ConnectFourMove",
    "boardrules.games.pig.PigState",
    "boardrules.games.pig.PigMove",
}


def hide_constructor_parameters(app: Sphinx, domain: str, objtype: str,
                                contentnode: Any) -> None:
    """Drop the parameter fields that ``autodoc_typehints = "description"`` adds to a
    class of FACTORY_MADE_CLASSES (its methods keep theirs)."""
    if domain != "py" or objtype != "class":
        return
    signature = contentnode.parent[0]
    fullname = f"{signature.get('module', '')}.{signature.get('fullname', '')}"
    if fullname not in FACTORY_MADE_CLASSES:
        return
    for field_list in [n for n in contentnode.children if isinstance(n, nodes.field_list)]:
        for field in list(field_list.children):
            name = field[0].astext()
            if name.startswith(("param ", "type ")) or name in ("Parameters", "Parameter"):
                field_list.remove(field)
        if not field_list.children:
            contentnode.remove(field_list)


def setup(app: Sphinx) -> dict[str, Any]:
    # after autodoc's own handler (priority 500), which adds the fields
    app.connect("object-description-transform", hide_constructor_parameters, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
