"""One version everywhere (U5 of the 0.6.0 review: ``__version__`` and pyproject said
0.5.0 while the changelog said "Unreleased (0.6.0)" and the game pages "default since
0.6.0")."""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

import boardrules

if sys.version_info >= (3, 11):
    import tomllib
else:  # the "test" extra installs tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RELEASE_HEADING = re.compile(r"^(?P<version>\d+\.\d+\.\d+) \((?P<date>\d{4}-\d\d-\d\d)\)$")


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _changelog_headings() -> list[str]:
    lines = (DOCS / "changelog.rst").read_text(encoding="utf-8").splitlines()
    return [line for line, under in itertools.pairwise(lines)
            if under and set(under) == {"-"} and len(under) >= len(line) > 0]


def test_the_newest_changelog_entry_is_this_version_and_dated() -> None:
    newest = _changelog_headings()[0]
    match = RELEASE_HEADING.match(newest)
    assert match, f"the changelog's newest entry is not a dated release: {newest!r}"
    assert match["version"] == boardrules.__version__


def test_pyproject_and_the_package_name_one_version() -> None:
    with open(ROOT / "pyproject.toml", "rb") as f:
        assert tomllib.load(f)["project"]["version"] == boardrules.__version__


def test_no_page_calls_a_later_version_the_present() -> None:
    # "default since 0.6.0" on a page of a library that says 0.5.0 was the symptom
    current = _version_tuple(boardrules.__version__)
    later = [f"{page.name}: {match.group(0)}"
             for page in [*DOCS.glob("*.rst"), ROOT / "README.md"]
             for match in re.finditer(r"\b(?:since|from|in|as of) (\d+\.\d+\.\d+)\b",
                                      page.read_text(encoding="utf-8"))
             if _version_tuple(match.group(1)) > current]
    assert later == []


def test_records_and_the_viewer_name_the_package_version() -> None:
    from boardrules.records import game_record
    from boardrules.viewer import record_html

    state = boardrules.load("tic_tac_toe").new_game(seed=1)
    record = game_record(state, date=None)
    assert record["headers"]["library_version"] == boardrules.__version__
    assert f"boardrules {boardrules.__version__}" in record_html(record)
