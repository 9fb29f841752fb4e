"""Every game's text board has a legend (``TEXT_LEGEND`` beside its text renderer, shown
by ``boardrules play``'s ``legend`` and ``help``): every mark a board prints, over random
states of each game and option set seen by every player and a spectator, is in it.

A mark is what is not a word: a board's token is split into names and numbers (lower-case
words such as ``roma``, ``gn1``, ``player``; capitalised prose such as ``Picts``) and
marks; each mark must be a legend entry, its digits standing for any number (``0S2``
covers ``1F3``'s shape only through ``0F1``'s entry, letter by letter).  A single
letter inside a token is a mark too (``v`` an arrow, ``s`` settlers); a lone letter
(a column's name) and a word of two letters or more are not."""

from __future__ import annotations

import random
import re

import pytest

import boardrules
from boardrules.cli import play as cli_play

#: A name or a word (``roma``, ``gn1``, ``s_c2``, ``attacker's``) or a number; a single
#: letter inside a token is a mark (``v`` an arrow, ``s`` settlers), not a word.
WORD = r"[a-z][a-z_']+\d*|\d+"
#: Prose around the marks: capitalised words, ``&``, and a lone letter (a column's name).
PROSE = re.compile(r"[A-Z][a-z]+|&|[a-z]")
#: Punctuation of the prose lines around a word, not marks of the board.
PROSE_EDGES = ",;():"


def _mark_pattern(mark: str) -> str:
    """A legend mark as a regex: its digits stand for any number."""
    return "".join(r"\d+" if part.isdigit() else re.escape(part)
                   for part in re.split(r"(\d+)", mark))


def _legend_regex(game: boardrules.Game) -> re.Pattern[str]:
    legend = cli_play.text_legend(game)
    assert legend, f"{game.id} declares no TEXT_LEGEND beside its text renderer"
    marks = sorted((m for mark, _ in legend for m in mark.split()), key=len, reverse=True)
    alternatives = "|".join(_mark_pattern(m) for m in marks)
    return re.compile(rf"(?:{alternatives}|{WORD})+")


def _boards(game_id: str, seed: int, options: dict[str, object]) -> list[str]:
    game = boardrules.load(game_id, **options)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    boards = []
    step = 0
    while not state.is_terminal():
        if step % 7 == 0:
            boards += [state.render_text(p) for p in [None, *range(game.num_players)]]
        state.apply(rng.choice(state.legal_moves()))
        step += 1
    return [*boards, state.render_text(None)]


def _unexplained(board: str, legend: re.Pattern[str], name: str = "") -> set[str]:
    found = set()
    for line in board.splitlines():
        if line.startswith("last:"):  # the last move in words, not the board
            continue
        if name and line.startswith(f"{name} - "):  # the header line, in words
            continue
        for token in line.split():
            token = token.strip(PROSE_EDGES)
            if token and not PROSE.fullmatch(token) and not legend.fullmatch(token):
                found.add(token)
    return found


@pytest.mark.parametrize("game_id", boardrules.available_games())
def test_every_mark_of_the_text_board_is_in_its_legend(game_id: str) -> None:
    game = boardrules.load(game_id)
    legend = _legend_regex(game)
    unexplained: set[str] = set()
    # every option set the game's conformance runs (variants print their own marks:
    # Armadora's advanced game its arrows and reinforcements)
    for seed, options in enumerate(type(game).example_options):
        for board in _boards(game_id, seed, options):
            unexplained |= _unexplained(board, legend, game.name)
    assert not unexplained, f"{game_id}: marks not in the legend: {sorted(unexplained)[:20]}"


def test_a_mark_left_out_of_the_legend_is_found() -> None:
    """The check fails on a board whose mark the legend does not name."""
    legend = _legend_regex(boardrules.load("rome_and_carthage"))
    assert _unexplained("  roma*~   RI | ostia%   .", legend) == {"ostia%"}
    assert _unexplained("  roma*~   ZQ", legend) == {"ZQ"}
    armadora = _legend_regex(boardrules.load("armadora"))
    assert _unexplained(" 1 | 1:3vv+   1:2w   $4 |", armadora) == {"1:2w"}  # w: no mark


@pytest.mark.parametrize("game_id", boardrules.available_games())
def test_play_shows_the_legend_and_help_shows_it_too(game_id: str) -> None:
    game = boardrules.load(game_id)
    text = cli_play.legend_text(game)
    legend = cli_play.text_legend(game)
    assert legend is not None
    for mark, meaning in legend:
        assert f"  {mark}" in text and meaning in text
