"""Static checks of the docs' code blocks and stated facts, fast enough for every run.

* **Width**: no line of a code block of ``docs/*.rst`` (code-block, doctest, testcode,
  testoutput, a literal ``::`` block, a plain ``>>>`` paragraph) nor of the README's
  python block is longer than :data:`MAX_CODE_LINE` characters as the page shows it.  At
  that width a block fits furo's content column at 1280 px without scrolling; the browser
  check (``docs/check_code_fits.py``, run by ``.ci/run`` on the built pages) measures the
  real pages, wrapping included, at 1280 and 800 px.
* **Versions**: every version the docs and the README install or name for the current
  release (``boardrules==X``, ``boardrules-X.tar.gz``, ``boardrules X``) is
  ``boardrules.__version__``.
* **Games**: the package's summary, the docs' front page and the README call no game
  "planned".
* **The README's example** runs as it stands, and each value a comment states is right.
* **The browser check** itself (with the session's headless Chromium): it flags a code
  block that scrolls, a picture wider than its column and a page that scrolls sideways,
  and passes a page that fits.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import boardrules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(DOCS.glob("*.rst"))

#: The longest code line a page may show: furo's content column holds about 90 characters
#: of its code font at a 1280 px window.
MAX_CODE_LINE = 88

#: Directives whose body the page shows as code, line for line.
CODE_DIRECTIVES = {"code-block", "code", "sourcecode", "doctest", "testcode", "testoutput",
                   "parsed-literal"}
DIRECTIVE = re.compile(r"^(?P<indent> *)\.\. (?P<name>[\w:-]+)::(?P<argument>.*)$")
#: Sphinx strips these from the pages it shows (``trim_doctest_flags``, on by default).
DOCTEST_FLAG = re.compile(r"\s*#\s*doctest:.*$")


@dataclass(frozen=True)
class CodeLine:
    where: str   # "page.rst:123"
    text: str    # as the page shows it (block indentation and doctest flags removed)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _body(lines: list[str], start: int, indent: int) -> tuple[int, int]:
    """[first, end) of the block opened on the line before ``start`` at ``indent``, its
    option lines (``:options: ...``) left out."""
    first = start
    while (first < len(lines) and lines[first].strip().startswith(":")
           and _indent(lines[first]) > indent):
        first += 1
    end = first
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    return first, end


def _shown(path: Path, lines: list[str], first: int, end: int) -> list[CodeLine]:
    block = textwrap.dedent("\n".join(lines[first:end])).split("\n")
    return [CodeLine(f"{path.name}:{first + offset + 1}", DOCTEST_FLAG.sub("", text))
            for offset, text in enumerate(block)]


def rst_code_lines(path: Path) -> list[CodeLine]:
    """Every line of every code block of a reST page, as the page shows it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[CodeLine] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        directive = DIRECTIVE.match(line)
        start: tuple[int, int] | None = None
        if directive and directive["name"] in CODE_DIRECTIVES:
            start = _body(lines, i + 1, len(directive["indent"]))
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            start = _body(lines, i + 1, _indent(line))
        elif line.lstrip().startswith(">>>") and (i == 0 or not lines[i - 1].strip()):
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            start = (i, end)
        if start is None:
            i += 1
            continue
        found.extend(_shown(path, lines, *start))
        i = max(start[1], i + 1)
    return found


def readme_python_block() -> tuple[int, list[str]]:
    """(first line number, lines) of the README's python block."""
    lines = README.read_text(encoding="utf-8").splitlines()
    opening = lines.index("```python")
    closing = lines.index("```", opening + 1)
    return opening + 2, lines[opening + 1:closing]


def all_code_lines() -> list[CodeLine]:
    first, block = readme_python_block()
    readme = [CodeLine(f"README.md:{first + n}", text) for n, text in enumerate(block)]
    return [line for page in PAGES for line in rst_code_lines(page)] + readme


# --- width ---

def test_the_scan_finds_the_code_blocks() -> None:
    """The parser still sees the pages' blocks (a change of spelling must not leave the
    width test checking nothing)."""
    lines = all_code_lines()
    assert len(lines) > 1500
    texts = {line.text for line in lines}
    assert ">>> import boardrules" in texts                          # doctest blocks
    assert "pip install -e . && python -m boardrules demo" in texts  # code-block:: sh
    assert any(line.where.startswith("README.md") for line in lines)


def test_no_code_line_is_wider_than_the_page() -> None:
    too_long = [f"{line.where} ({len(line.text)} chars): {line.text}"
                for line in all_code_lines() if len(line.text) > MAX_CODE_LINE]
    assert too_long == []


def test_doctest_flags_are_not_counted() -> None:
    """The width counts what the page shows, and Sphinx hides ``# doctest:`` flags."""
    page = DOCS / "quickstart.rst"
    shown = _shown(page, [">>> f()  # doctest: +NORMALIZE_WHITESPACE"], 0, 1)
    assert [line.text for line in shown] == [">>> f()"]


# --- versions ---

#: A version the docs name for the package itself (not the saves' format versions, not a
#: dependency's): an install command, an archive, a wheel or "boardrules X.Y.Z".
PACKAGE_VERSION = re.compile(
    r"boardrules(?:==|-|\s+)(?P<version>\d+\.\d+(?:\.\d+)?(?:[ab]|rc|\.dev|\.post)?\d*)"
    r"(?=[\s.`*'\"),;:]|-\*|$)")
#: The one page about past releases, which names each by its version.
CHANGELOG = "changelog.rst"


def version_mentions(path: Path) -> list[tuple[int, str, str]]:
    """(line number, version, line) of each version of the package ``path`` names."""
    return [(number, match["version"], line)
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            for match in PACKAGE_VERSION.finditer(line)]


def test_the_version_pattern_reads_the_spellings() -> None:
    sample = ("pip install boardrules==1.2.3; pip install boardrules-1.2.3.tar.gz "
              "(boardrules-1.2.3-*.whl), in boardrules 1.2.3.")
    assert [m["version"] for m in PACKAGE_VERSION.finditer(sample)] == ["1.2.3"] * 4
    assert PACKAGE_VERSION.search("boardrules-state") is None


def test_every_version_named_is_the_packages() -> None:
    """An install command, an archive or "boardrules X" names ``__version__`` (a page
    telling of an older release words it without the package's name: "saves of format
    version 1 (0.1.0)"); the changelog alone lists the releases."""
    stale = [f"{path.name}:{number}: {version}: {line.strip()}"
             for path in [*PAGES, README] if path.name != CHANGELOG
             for number, version, line in version_mentions(path)
             if version != boardrules.__version__]
    assert stale == []


def test_the_install_commands_name_the_version() -> None:
    """The quickstart's install of a built package is checked, not merely absent."""
    mentions = version_mentions(DOCS / "quickstart.rst")
    assert [version for _, version, line in mentions if "pip install" in line]
    assert {version for _, version, _ in mentions} == {boardrules.__version__}


# --- games ---

def test_no_game_is_called_planned() -> None:
    """The four published games are implemented: the summaries say so."""
    summaries = {"boardrules/__init__.py": boardrules.__doc__ or "",
                 "docs/index.rst": (DOCS / "index.rst").read_text(encoding="utf-8"),
                 "README.md": README.read_text(encoding="utf-8")}
    stale = [name for name, text in summaries.items()
             if re.search(r"\bplanned\b|\bso far\b|\bnot yet\b", text, re.IGNORECASE)]
    assert stale == []
    for text in summaries.values():
        assert all(name in text for name in ("Armadora", "Rome & Carthage", "Albion",
                                             "Armada"))


# --- the README's example ---

#: A comment that states a value: ``state.current_player   # 0``, ``x == y   # True: ...``.
STATED_VALUE = re.compile(r"#\s*(?P<value>[^:;#]+)")


def _stated_value(line: str) -> tuple[bool, object]:
    """(True, value) when the line's comment starts with a Python literal."""
    comment = STATED_VALUE.search(line)
    if comment is None:
        return False, None
    try:
        return True, ast.literal_eval(comment["value"].strip())
    except (ValueError, SyntaxError):
        return False, None


def test_the_readme_example_runs_as_it_stands(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's python block runs as a fresh script would run it (every name it uses
    defined in it: ``SECRET`` too), and each value a comment states is the one computed."""
    first, block = readme_python_block()
    source = "\n".join(block)
    namespace: dict[str, object] = {"__name__": "__readme__"}
    checked = []
    for statement in ast.parse(source).body:
        code = ast.Module(body=[statement], type_ignores=[])
        if not isinstance(statement, ast.Expr):
            exec(compile(code, "README.md", "exec"), namespace)
            continue
        value = eval(compile(ast.Expression(statement.value), "README.md", "eval"), namespace)
        stated, expected = _stated_value(block[statement.lineno - 1])
        if stated:
            assert value == expected, f"README.md:{first + statement.lineno - 1}"
            checked.append(statement.lineno)
    assert len(checked) >= 2           # "# 0" and "# True": the comments are still read
    secret = namespace.get("SECRET")   # the signing key the block uses, defined in it
    assert isinstance(secret, bytes) and len(secret) >= 16
    state = namespace["state"]
    assert isinstance(state, boardrules.State)  # print(state): the spectator's text board
    assert capsys.readouterr().out == state.render_text(None) + "\n"


# --- the browser check of the built pages (docs/check_code_fits.py) ---

def _check_code_fits() -> Any:
    """docs/check_code_fits.py as a module (docs/ is not a package)."""
    spec = importlib.util.spec_from_file_location("check_code_fits",
                                                  DOCS / "check_code_fits.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


PAGE = """<!doctype html><html><head><style>
body {{ margin: 0 }} main {{ width: {column}px }} pre {{ overflow: auto; {pre_style} }}
img {{ display: block }}
</style></head><body><main>
<pre>short line
{long_line}</pre>
<p><a href="#"><img src="data:image/svg+xml,{svg}" style="width: {image}px"></a></p>
<div style="width: {block}px">a block as wide as that</div>
</main></body></html>"""
SVG = "%3Csvg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/%3E"


def test_the_browser_check_finds_clipped_code_and_wide_pictures(browser: Any,
                                                                tmp_path: Path) -> None:
    """A page whose code scrolls and whose picture overflows its column fails, at both
    widths, and so does a page that scrolls sideways; the same page with wrapping code
    and a picture that fits passes."""
    check = _check_code_fits()
    long_line = "x = " + "'word' + " * 60 + "'end'"
    fits = {"column": 600, "pre_style": "white-space: pre-wrap", "long_line": long_line,
            "svg": SVG, "image": 600, "block": 600}
    (tmp_path / "bad.html").write_text(PAGE.format(**{**fits, "pre_style": "",
                                                      "image": 700}))
    (tmp_path / "good.html").write_text(PAGE.format(**fits))
    (tmp_path / "wide.html").write_text(PAGE.format(**{**fits, "block": 1400}))
    pages = check.pages_of(tmp_path)
    assert [page.name for page in pages] == ["bad.html", "good.html", "wide.html"]
    found = check.check_pages(browser, tmp_path, pages)
    assert {(o.page, o.window, o.kind) for o in found} == {
        ("bad.html", 1280, "code"), ("bad.html", 800, "code"),
        ("bad.html", 1280, "image"), ("bad.html", 800, "image"),
        ("wide.html", 1280, "page"), ("wide.html", 800, "page")}
    code = next(o for o in found if o.kind == "code")
    assert code.what == "short line" and code.needs > code.has   # the block's first line
    assert browser.execute_script("return window.innerWidth") == 1280   # restored
