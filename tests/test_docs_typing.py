"""``mypy --strict`` over every Python example of the docs and the README, not only over
the hand-picked scripts of tests/test_typing.py: what a user copies from a page
type-checks as it stands.

A page reads like a notebook (a later example uses the names an earlier one defined), so a
page's Python chunks, in page order, make one module; all pages are checked in one mypy
run, and each page's errors are reported at the page's own lines.

What is a Python chunk:

* reST (``docs/**/*.rst``): the body of ``.. code-block:: python`` (also ``code`` and
  ``sourcecode``, and the languages ``py`` and ``python3``), of ``.. testsetup::``,
  ``.. testcode::`` and ``.. testcleanup::``; and the source of each example (``>>>`` and
  ``...`` lines, outputs dropped) of a ``.. doctest::`` block, of a
  ``.. code-block:: pycon`` and of a plain ``>>>`` paragraph, split by
  :class:`doctest.DocTestParser` as the doctest build splits them.
* Markdown (``README.md``): fenced blocks marked ``python``, ``py`` or ``python3``
  (``pycon``: its examples).
* Not Python: blocks in another language (``sh``, ``cython``, ``text``, ``json``...) and
  ``testoutput``.  A literal block (``::``) is not a chunk either, and none may hold
  Python: an example in one would escape this test, so it is marked
  ``.. code-block:: python`` instead (or with its own language).
* A ``literalinclude`` of a ``.py`` file inside ``docs/`` (a script the page shows whole)
  is checked as a module of its own.  Other literalincludes show the package's own source
  and tests, which the project's mypy run covers.

An ``.. include::`` is not expanded: an included file is checked as a page of its own.

A page may show a line mypy rejects, with a comment saying so:
``load("pig").new_game().apply(move)  # error: expected "PigMove | str"``; mypy must then
report on that line an error whose message contains the comment's text.

The flags are ``--strict`` and no more: not ``--allow-redefinition``, so a page that
re-binds a name does so with the same type (a list of move texts is looped over as
``text``, not as the ``move`` an earlier example bound to a Move), as a user's script
under ``--strict`` must.  ``--follow-imports=silent`` only keeps errors inside boardrules
itself out of this report (the project's own mypy run owns them).
"""

from __future__ import annotations

import ast
import doctest
import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from mypy import api as mypy_api

import boardrules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [*sorted(p for p in DOCS.rglob("*.rst") if "_build" not in p.parts),
         ROOT / "README.md"]

PYTHON = {"python", "python3", "py"}
CONSOLE = {"pycon"}
CODE_DIRECTIVES = {"code-block", "code", "sourcecode"}
SOURCE_DIRECTIVES = {"testsetup", "testcode", "testcleanup"}
#: Directives whose body is verbatim text, not reST (so a ``>>>`` in it is not a doctest).
VERBATIM_DIRECTIVES = {"testoutput", "raw", "math", "parsed-literal", "literalinclude"}

DIRECTIVE = re.compile(r"^(?P<indent> *)\.\. (?P<name>[\w:-]+)::(?P<argument>.*)$")
FENCE = re.compile(r"^ *(?P<fence>`{3,}|~{3,}) *(?P<info>[\w+-]*)")
#: A line the page shows mypy rejecting: ``x = f()  # error: <part of mypy's message>``.
EXPECTED_ERROR = re.compile(r"#\s*error:(?P<text>.*)$")


@dataclass(frozen=True)
class Chunk:
    """Python source whose lines stand on consecutive lines of a page, from ``line``
    (1-based)."""

    line: int
    source: str


@dataclass
class Page:
    chunks: list[Chunk] = field(default_factory=list)
    literal_blocks: list[Chunk] = field(default_factory=list)  # ``::``: none may be Python
    other_blocks: list[Chunk] = field(default_factory=list)    # other languages, verbatim
    scripts: list[Path] = field(default_factory=list)  # the docs' .py files it includes


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _body(lines: list[str], start: int, indent: int) -> tuple[int, int]:
    """[first, end) of the content of the block opened on the line before ``start`` at
    ``indent``: its option lines (``:caption: ...``) and its leading and trailing blank
    lines left out."""
    first = start
    while (first < len(lines) and lines[first].strip().startswith(":")
           and _indent(lines[first]) > indent):
        first += 1
    while first < len(lines) and not lines[first].strip():
        first += 1
    end = first
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
        end += 1
    last = end
    while last > first and not lines[last - 1].strip():
        last -= 1
    return first, last


def _block(lines: list[str], first: int, end: int) -> Chunk:
    return Chunk(first + 1, textwrap.dedent("\n".join(lines[first:end])))


def _examples(block: Chunk) -> list[Chunk]:
    """The source of each doctest example of ``block`` (outputs dropped)."""
    return [Chunk(block.line + example.lineno, example.source)
            for example in doctest.DocTestParser().get_examples(block.source)]


def _directive_kind(name: str, argument: str) -> str | None:
    """What a directive's body is: Python ``source``, doctest ``examples``, ``verbatim``
    text of another kind, or reST (``None``)."""
    if name in SOURCE_DIRECTIVES or (name in CODE_DIRECTIVES and argument in PYTHON):
        return "source"
    if name == "doctest" or (name in CODE_DIRECTIVES and argument in CONSOLE):
        return "examples"
    if name in CODE_DIRECTIVES or name in VERBATIM_DIRECTIVES:
        return "verbatim"
    return None


def _rst_page(path: Path) -> Page:
    lines = path.read_text(encoding="utf-8").splitlines()
    page = Page()
    i = 0
    while i < len(lines):
        line = lines[i]
        directive = DIRECTIVE.match(line)
        if directive:
            name, argument = directive["name"], directive["argument"].strip()
            first, end = _body(lines, i + 1, len(directive["indent"]))
            kind = _directive_kind(name, argument)
            if kind == "source":
                page.chunks.append(_block(lines, first, end))
            elif kind == "examples":
                page.chunks.extend(_examples(_block(lines, first, end)))
            elif kind == "verbatim" and end > first:
                page.other_blocks.append(_block(lines, first, end))
            if name == "literalinclude":
                script = (path.parent / argument).resolve()
                if script.suffix == ".py" and script.parent == DOCS:
                    page.scripts.append(script)
            if kind is not None:
                i = max(end, i + 1)
                continue
            # any other directive (note, admonition, list-table...) holds reST: read on
        elif line.rstrip().endswith("::") and not line.lstrip().startswith(".."):
            first, end = _body(lines, i + 1, _indent(line))
            if end > first:
                page.literal_blocks.append(_block(lines, first, end))
                i = end
                continue
        elif line.lstrip().startswith(">>>") and (i == 0 or not lines[i - 1].strip()):
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            page.chunks.extend(_examples(_block(lines, i, end)))
            i = end
            continue
        i += 1
    return page


def _markdown_page(path: Path) -> Page:
    lines = path.read_text(encoding="utf-8").splitlines()
    page = Page()
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence["fence"]):
            end += 1
        block = _block(lines, i + 1, end)
        if fence["info"] in PYTHON:
            page.chunks.append(block)
        elif fence["info"] in CONSOLE:
            page.chunks.extend(_examples(block))
        else:
            page.other_blocks.append(block)
        i = end + 1
    return page


def read_page(path: Path) -> Page:
    return _markdown_page(path) if path.suffix == ".md" else _rst_page(path)


def _module(chunks: list[Chunk]) -> tuple[str, list[int]]:
    """The page's chunks as one module, and the page line of each of its lines."""
    text: list[str] = []
    origin: list[int] = []
    for chunk in chunks:
        for offset, line in enumerate(chunk.source.splitlines()):
            text.append(line)
            origin.append(chunk.line + offset)
    return "\n".join(text) + "\n", origin


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _module_name(path: Path) -> str:
    """A module name no real module has (mypy_path holds the repository's root)."""
    return "page_" + re.sub(r"\W", "_", path.relative_to(ROOT).with_suffix("").as_posix())


#: The tutorial's game, a package of its own (``examples/kuhn_poker``): its pages import
#: it as a user who installed it would.
TUTORIAL_PACKAGE = ROOT / "examples" / "kuhn_poker" / "src"


def _mypy_path() -> str | None:
    """The source tree for mypy when boardrules is installed in development mode (an
    editable install is not found by mypy's search of site-packages), and the tutorial's
    package."""
    root = Path(boardrules.__file__).resolve().parent.parent
    paths = [] if "site-packages" in root.parts else [str(root)]
    return os.pathsep.join([*paths, str(TUTORIAL_PACKAGE)])


def _expected_errors(text: str) -> dict[int, str]:
    """The module lines (1-based) whose comment says ``# error: ...``: what the page shows
    mypy rejecting (the message must contain the comment's text)."""
    return {number: found["text"].strip()
            for number, line in enumerate(text.splitlines(), start=1)
            if (found := EXPECTED_ERROR.search(line))}


@dataclass
class _Module:
    """A file mypy checks: a page's chunks (``origin``: the page line of each of its
    lines), or a script a page shows whole (``origin`` None: its own lines)."""

    page: str
    file: Path
    origin: list[int] | None
    expected: dict[int, str]

    def where(self, number: int) -> str:
        if self.origin is None:
            return f"{_name(self.file)}:{number}"
        return f"{self.page}:{self.origin[number - 1]}"


def _write_modules(tmp: Path) -> dict[str, _Module]:
    """Each page's chunks written as a module in ``tmp``, and the scripts the pages show,
    by absolute path."""
    modules: dict[str, _Module] = {}
    for path in PAGES:
        page = read_page(path)
        text, origin = _module(page.chunks)
        file = (tmp / f"{_module_name(path)}.py").resolve()
        file.write_text(text, encoding="utf-8")
        modules[str(file)] = _Module(_name(path), file, origin, _expected_errors(text))
        for script in page.scripts:
            modules[str(script)] = _Module(
                _name(path), script, None, _expected_errors(script.read_text(encoding="utf-8")))
    return modules


def _run_mypy(tmp: Path, files: list[str]) -> str:
    """mypy --strict's output on ``files`` (absolute paths), its cache in ``tmp``."""
    config = tmp / "mypy.ini"  # not the repository's configuration
    mypy_path = _mypy_path()
    config.write_text("[mypy]\n" + (f"mypy_path = {mypy_path}\n" if mypy_path else ""),
                      encoding="utf-8")
    # follow_imports=silent: boardrules' own errors belong to the project's mypy run
    stdout, stderr, _ = mypy_api.run(
        ["--strict", "--follow-imports=silent", "--no-error-summary", "--show-error-codes",
         "--hide-error-context", "--show-absolute-path", "--cache-dir", str(tmp / "cache"),
         "--config-file", str(config), *files])
    assert not stderr, stderr
    return stdout


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """By page, what mypy --strict reports that the page does not show (at the page's
    lines), and each error the page shows (``# error: ...``) that mypy did not report.
    One mypy run."""
    tmp = tmp_path_factory.mktemp("docs_typing")
    modules = _write_modules(tmp)
    report: dict[str, list[str]] = {_name(path): [] for path in PAGES}
    shown: set[tuple[str, int]] = set()
    for line in _run_mypy(tmp, list(modules)).splitlines():
        file, number_text, message = line.split(":", 2)
        assert file in modules, line
        module, number = modules[file], int(number_text)
        expected = module.expected.get(number)
        if expected is not None:  # the page shows an error here: this one, and its notes
            if message.startswith(" error:") and expected in message:
                shown.add((file, number))
                continue
            if message.startswith(" note:"):
                continue
        report[module.page].append(f"{module.where(number)}:{message}")
    for file, module in modules.items():
        report[module.page].extend(
            f"{module.where(number)}: the error shown is not reported: {expected}"
            for number, expected in module.expected.items() if (file, number) not in shown)
    return report


@pytest.mark.parametrize("page", [_name(path) for path in PAGES])
def test_the_pages_python_passes_mypy_strict(mypy_report: dict[str, list[str]],
                                             page: str) -> None:
    """Every error mypy reports is one the page shows (``# error: ...``), and the other
    way round."""
    assert not mypy_report[page], "\n".join(mypy_report[page])


SAMPLE = '''\
Title
=====

.. code-block:: python
   :caption: one

   a = 1

.. code-block:: sh

   pip install boardrules

Text::

   b = 2

.. note::

   .. doctest::

      >>> c = a + 1
      >>> c
      2
      >>> for k in range(2):
      ...     print(k)
      0
      1

>>> d = c  # a plain doctest paragraph
>>> d
2

.. testcode::

   print(d)

.. testoutput::

   >>> 2

.. code-block:: cython

   cdef int e = 3

.. literalinclude:: armadora_picture.py
'''


def test_the_extractor_finds_each_kind_of_chunk(tmp_path: Path) -> None:
    sample = tmp_path / "sample.rst"
    sample.write_text(SAMPLE, encoding="utf-8")
    page = _rst_page(sample)
    assert page.chunks == [
        Chunk(7, "a = 1"),
        Chunk(21, "c = a + 1\n"),
        Chunk(22, "c\n"),
        Chunk(24, "for k in range(2):\n    print(k)\n"),
        Chunk(29, "d = c  # a plain doctest paragraph\n"),
        Chunk(30, "d\n"),
        Chunk(35, "print(d)"),
    ]
    assert page.literal_blocks == [Chunk(15, "b = 2")]
    assert page.other_blocks == [Chunk(11, "pip install boardrules"), Chunk(39, ">>> 2"),
                                 Chunk(43, "cdef int e = 3")]
    assert page.scripts == []  # the sample is not in docs/
    text, origin = _module(page.chunks)
    assert text.splitlines()[3:5] == ["for k in range(2):", "    print(k)"]
    assert origin[3:5] == [24, 25]


def test_the_extractor_finds_the_pages_examples() -> None:
    """An extractor that finds nothing would let every page pass."""
    pages = {_name(path): read_page(path) for path in PAGES}
    for name, page in pages.items():
        text = (ROOT / name).read_text(encoding="utf-8")
        if ">>>" in text or "code-block:: python" in text or "```python" in text:
            assert page.chunks, name
    quickstart = pages["docs/quickstart.rst"]
    # its first example, then the loop that plays a game to its end
    assert quickstart.chunks[0].source == "import boardrules\n"
    assert any(chunk.source.startswith("while not state.is_terminal():")
               for chunk in quickstart.chunks)
    assert len(pages["README.md"].chunks) == 1
    assert sum(len(page.chunks) for page in pages.values()) > 500
    assert {script.name for page in pages.values() for script in page.scripts} == {
        "albion_picture.py", "armada_picture.py", "armadora_picture.py",
        "rome_and_carthage_picture.py"}


def _lines_of(blocks: list[Chunk]) -> set[int]:
    return {block.line + offset for block in blocks
            for offset in range(len(block.source.splitlines()))}


@pytest.mark.parametrize("page", [_name(path) for path in PAGES])
def test_every_prompt_of_the_page_is_checked(page: str) -> None:
    """Each ``>>>`` of the page starts a chunk, unless it stands in a block of another
    kind (a ``testoutput``, a ``text`` block)."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    found = read_page(ROOT / page)
    prompts = {number for number, line in enumerate(lines, start=1)
               if line.lstrip().startswith(">>>")}
    unchecked = (prompts - {chunk.line for chunk in found.chunks}
                 - _lines_of(found.other_blocks + found.literal_blocks))
    assert sorted(unchecked) == []


@pytest.mark.parametrize("page", [_name(path) for path in PAGES])
def test_no_python_hides_in_a_literal_block(page: str) -> None:
    """A ``::`` block is not checked, so Python goes in ``.. code-block:: python``."""
    python = []
    for block in read_page(ROOT / page).literal_blocks:
        try:
            ast.parse(block.source)
        except SyntaxError:
            continue
        python.append(f"{page}:{block.line}")
    assert python == []
