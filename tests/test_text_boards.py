"""``print(state)``: every game's board as text (``State.render_text``), like
python-chess's ``print(board)``.  ``render_text(None)`` is a spectator's board (hidden
values redacted, as in ``view(None)``); ``render_text(p)`` what player p may see."""

from __future__ import annotations

import random

import pytest

import boardrules
from boardrules.games.armadora import ArmadoraState

#: The gold piles on the printed board's mines d1, b2, f2, h2, a4, e4, c5, g5.
GOLD = (4, 7, 4, 3, 5, 6, 6, 5)


def armadora_position() -> ArmadoraState:
    """Elf (0) against Goblin (1): the top-left corner closed by palisades of both
    directions, a face-down warrior each side of it, a face-up Goblin warrior there with
    an arrow and the reinforcement token, and a face-down warrior in the open."""
    game = boardrules.load("armadora", players=2, variant="advanced")
    state = game.new_game(seed=0, auto_chance=False)
    for move in [f"gold {v}" for v in GOLD] + ["race elf", "race goblin"]:
        state.apply(move)
    for move in ("b1-c1", "b2-c2", "a2-a3", "b2-b3", "3@a1", "goblin 2@b1", "1@e3",
                 "arrow b1", "1@a2", "reinforce b1"):
        state.apply(move)
    assert isinstance(state, ArmadoraState)
    return state


ARMADORA_SPECTATOR = """\
     a       b       c       d       e       f       g       h
   +---------------------------------------------------------------+
 1 | 0:?     1=2v+ | .       $4      .       .       .       .     |
   |               |                                               |
 2 | 0:?     $7    | .       .       .       $4      .       $3    |
   |---------------+                                               |
 3 | .       .       .       .       1:?     .       .       .     |
   |                                                               |
 4 | $5      .       .       .       $6      .       .       .     |
   |                                                               |
 5 | .       .       $6      .       .       .       $5      .     |
   +---------------------------------------------------------------+
player 0, elf, 14 warriors left, 1 ability token, reinforcement held, to move
player 1, goblin, 14 warriors left, 0 ability tokens, reinforcement placed
palisades left: 31
last: player 1 reinforces b1"""


def test_armadora_text_board_of_a_known_position() -> None:
    """Coordinates as the notation names squares (columns a-h, rows 1-5 from the title
    edge), palisades as | and ---, gold piles as $N, warriors as owner:strength."""
    state = armadora_position()
    assert state.render_text() == ARMADORA_SPECTATOR
    assert str(state) == ARMADORA_SPECTATOR


def test_armadora_text_board_hides_face_down_strengths_from_spectator_and_opponent() -> None:
    """A spectator sees every face-down strength as ?; each player sees his own (and his
    screen), never the other's; a face-up Goblin warrior is seen by all."""
    state = armadora_position()
    mine = state.render_text(0)
    theirs = state.render_text(1)
    assert "0:3" in mine and "0:1" in mine and "1:?" in mine
    assert "0:?" in theirs and "1:1" in theirs and "0:3" not in theirs
    for text in (str(state), mine, theirs):
        assert "1=2v+" in text
    assert "0:3" not in str(state) and "1:1" not in str(state)
    assert "behind the screen: 10 of strength 1, 2 of strength 2, 1 of strength 4" in mine
    assert "behind the screen" not in str(state)
    assert mine.count("behind the screen") == theirs.count("behind the screen") == 1


def test_armadora_text_board_shows_a_peek_only_to_the_mage() -> None:
    """With look_at_face_down off, the value a Mage just peeked at is shown to him (his
    view carries it) and to nobody else."""
    game = boardrules.load("armadora", players=2, variant="advanced", look_at_face_down=False)
    state = game.new_game(seed=3)  # player 0 the Mage
    for move in ("3@c2", "2@e3", "peek e3"):
        state.apply(move)
    assert "peeked: the warrior on e3 is a 2" in state.render_text(0)
    assert "peeked" not in state.render_text(1) and "peeked" not in str(state)
    assert "1:?" in state.render_text(0)  # he must remember it


@pytest.mark.parametrize("players", [2, 3, 4])
def test_armadora_text_board_never_shows_what_the_view_hides(players: int) -> None:
    """Through random advanced games: the spectator's board has no face-down strength, and
    two states differing only in hidden values print alike for a spectator."""
    game = boardrules.load("armadora", players=players, variant="advanced")
    state = game.new_game(seed=players)
    rng = random.Random(players)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
        view = state.view(None)
        text = str(state)
        hidden = sum(1 for sq in view["squares"]
                     if sq["warrior"] and sq["warrior"]["strength"] is None)
        assert text.count(":?") == hidden
        assert str(state.determinize(0, seed=1)).splitlines()[:12] == text.splitlines()[:12]


def test_tic_tac_toe_text_board() -> None:
    game = boardrules.load("tic_tac_toe")
    state = game.new_game(seed=0)
    for move in ("b2", "a1", "c3", "c1", "b1"):
        state.apply(move)
    assert str(state) == "  a b c\n1 O X O\n2 . X .\n3 . . X\nO to move\nlast: X on b1"
    assert state.render_text(1) == str(state)  # perfect information


def test_connect_four_text_board() -> None:
    """The top row first, row 1 at the bottom, columns a-g under the board."""
    game = boardrules.load("connect_four")
    state = game.new_game(seed=0)
    for move in ("d", "d", "c", "e", "b"):
        state.apply(move)
    assert str(state) == "\n".join([
        "6 . . . . . . .",
        "5 . . . . . . .",
        "4 . . . . . . .",
        "3 . . . . . . .",
        "2 . . . O . . .",
        "1 . X X X O . .",
        "  a b c d e f g",
        "yellow (O) to move",
        "last: X in b (row 1)",
    ])


def test_pig_text_board() -> None:
    """The scores, the turn total at risk, the last die and whose turn it is."""
    game = boardrules.load("pig")
    state = game.new_game(seed=0, auto_chance=False)
    for move in ("roll", "die 4", "roll", "die 6", "hold", "roll", "die 1", "roll", "die 3"):
        state.apply(move)
    assert str(state) == "\n".join([
        "player 0: 10 of 20 (+3 this turn)",
        "player 1:  0 of 20",
        "last die: 3",
        "turn 3 of 40: player 0, turn total 3",
        "last: player 0 rolls 3",
    ])


@pytest.mark.parametrize("game_id", boardrules.available_games())
def test_every_game_prints_its_board(game_id: str) -> None:
    """str(state) is the spectator's text board for every registered game, at the start
    and at the end; a bad viewer is refused as by view()."""
    game = boardrules.load(game_id)
    state = game.new_game(seed=5)
    assert str(state) == state.render_text(None) and str(state).strip()
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    assert str(state) == state.render_text(None) and str(state).strip()
    with pytest.raises(ValueError):
        state.render_text(game.num_players)
    with pytest.raises(TypeError):
        state.render_text("0")  # type: ignore[arg-type]


def test_rome_and_carthage_battle_reads_in_words_and_no_advantage_is_no_question_mark() -> None:
    """The battle line was a dump of the view's fields (``face_down_cards None``...), and a
    battle without a special advantage must not print ``?``, the mark of what is hidden:
    ``?`` shows only for the attacker's cards face down to one who may not see them."""
    game = boardrules.load("rome_and_carthage")
    battles = reveals = 0
    for seed in range(6):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
            for viewer in (None, 0, 1):
                text = state.render_text(viewer)
                line = next((x for x in text.splitlines() if x.startswith("battle at ")), None)
                if line is not None:
                    battles += 1
                    assert "None" not in line and " attacks player " in line
                    hidden = state.view(viewer)["battle"]["face_down_cards"] is None
                    assert ("(?)" in line) == (hidden and "face down" in line), line
                last = text.splitlines()[-1]
                if last.startswith("last: battle at"):  # a reveal: nothing is hidden
                    reveals += 1
                    battle_words = last.split("; ")[0]
                    assert "?" not in battle_words, last
    assert battles and reveals


def test_albion_building_line_reads_in_words() -> None:
    """The build in progress was a dump of the view's fields (``free False, paid_left
    []``): it reads in words, the stage in Roman numerals as the rules number it."""
    game = boardrules.load("albion", players=2, max_rounds=6)
    lines = set()
    for seed in range(3):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_moves()))
            lines |= {x for x in str(state).splitlines() if x.startswith("building:")}
    assert lines
    for line in lines:
        assert not any(dump in line for dump in ("[]", "False", "True", "None", "_"))
        assert " stage I" in line and " in " in line
