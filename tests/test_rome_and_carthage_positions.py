"""Rome & Carthage positions (the docs page's "Position format"): the text round-trips
for reachable states of every example option set, hand-written positions play on, and
junk, wrong types, values out of range and positions the rules could never make are
refused with an error naming the field, the state machine untouched."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from rome_and_carthage_helpers import BATTLE_AT_SALONA

import boardrules
from boardrules.errors import InvalidPositionError
from boardrules.games.rome_and_carthage import RomeCarthageGame
from boardrules.testing import random_positions


def _game() -> RomeCarthageGame:
    return RomeCarthageGame(players=2)


def _replace(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("options", RomeCarthageGame.example_options,
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_position_round_trip_every_reachable_state(options: dict[str, object]) -> None:
    game = RomeCarthageGame(**options)  # type: ignore[arg-type]
    for state in random_positions(game, games=3, seed=5):
        text = state.position()
        again = game.position(text, auto_chance=False)
        assert again.state_bytes() == state.state_bytes()
        assert again.position() == text


def test_position_hand_written_battle_is_fought_from_it() -> None:
    game = _game()
    state = game.position(BATTLE_AT_SALONA)
    assert state.position() == BATTLE_AT_SALONA
    assert "aquileia-salona" in {str(m) for m in state.legal_moves()}
    state.apply("aquileia-salona")
    assert state.phase == "commit"
    state.apply("play 10+5")
    state.apply("play 7+3")
    # Battle: 15 against 10, the attacker wins; player 1 has no army left (Victory)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert "city salona: rome infantry" in state.position()


def test_position_has_no_history_and_undo_stops_there() -> None:
    game = _game()
    state = game.position(BATTLE_AT_SALONA)
    assert state.history == []
    assert state.start_position == BATTLE_AT_SALONA
    with pytest.raises(IndexError):
        state.undo()
    state.apply("aquileia-salona")
    state.undo()
    assert state.position() == BATTLE_AT_SALONA


def test_position_saves_and_pickles_carry_the_start() -> None:
    game = _game()
    state = game.position(BATTLE_AT_SALONA)
    state.apply("aquileia-salona")
    for again in (boardrules.state_from_json(state.to_json()),
                  pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert again.state_bytes() == state.state_bytes()
        assert again.start_position == BATTLE_AT_SALONA
        assert [str(m) for m in again.history] == ["aquileia-salona"]


@pytest.mark.parametrize(("old", "new", "field"), [
    ("Rome & Carthage position", "Chess position", "header"),
    ("round: 3\n", "round: three\n", "round"),
    ("round: 3\n", "round: 999\n", "round"),
    ("round: 3\n", "", "round"),
    ("phase: main", "phase: lunch", "phase"),
    ("current: 0\n", "current: 0\ncolour: red\n", "colour"),
    ("current: 0\n", "current: 0\ncurrent: 0\n", "current"),
    ("hand[0]: 0 0 5", "hand[0]: 0 0 11", "hand[0]"),
    ("city salona: byzantium infantry", "city salona: byzantium dragon", "city salona"),
    ("city salona", "city atlantis", "city atlantis"),
    ("current: 0\n", "current: 0\n!!\n", "line 8"),
])
def test_position_refuses_text_not_in_the_format(old: str, new: str, field: str) -> None:
    with pytest.raises(InvalidPositionError) as error:
        _game().position(_replace(BATTLE_AT_SALONA, old, new))
    assert error.value.field == field


@pytest.mark.parametrize(("old", "new", "field"), [
    # Components: an empire has 3 infantry
    ("city salona: byzantium infantry\n", "city salona: byzantium infantry\n"
     "city roma: rome infantry\ncity ostia: rome infantry\ncity capua: rome infantry\n",
     "unplaced[0][0]"),
    # the 52 cards: a ten too many
    ("hand[0]: 0 0 5 10", "hand[0]: 0 0 5 10 10", "cards"),
    # known cards are in the hand
    ("known[0]: 5 10 15 15", "known[0]: 5 10 10 15 15", "known[0]"),
    # a card only its side has seen must be counted as unknown
    ("known[0]: 5 10 15 15", "known[0]: 10 15 15", "unknown[0]"),
    # whose decision: the turn player's in the main phase
    ("current: 0", "current: 1", "current"),
    # the players keep their two zeros (Battle)
    ("hand[1]: 0 0 3", "hand[1]: 0 3", "cards"),
    # an attacker fights an enemy
    ("city salona: byzantium infantry", "city salona: byzantium infantry; attacker "
     "carthage infantry", "attacker[22]"),
    # turns 1 and 2 place the armies
    ("round: 3", "round: 2", "phase"),
    # a game over has an end reason
    ("phase: main", "phase: over", "end_reason"),
    # a draw needs a card to draw
    ("phase: main", "phase: draw", "draws_left"),
    # a battle is fought where an attacker stands
    ("phase: main", "phase: commit", "bcity"),
])
def test_position_refuses_what_the_rules_never_make(old: str, new: str, field: str) -> None:
    game = _game()
    text = _replace(BATTLE_AT_SALONA, old, new)
    with pytest.raises(InvalidPositionError) as error:
        game.position(text)
    assert error.value.field.startswith(field.split("[")[0]), error.value
    if "[" in field and field != "attacker[22]":
        assert error.value.field == field


def test_position_refuses_non_text_and_leaves_the_state_machine_alone() -> None:
    game = _game()
    before = game.new_game(seed=1)
    snapshot = before.state_bytes()
    with pytest.raises(TypeError):
        game.position(42)  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError):
        game.position("")
    assert before.state_bytes() == snapshot


def test_position_core_load_refuses_wrong_types_by_field() -> None:
    game = _game()
    state = game.position(BATTLE_AT_SALONA)
    raw = game._core.export(state._core)
    for key, value in (("round", True), ("army", [0] * 3), ("hand", "cards"),
                       ("excluded", [0, 0]), ("commit", [[1, 2, 3], []]),
                       ("move_count", 2**40), ("last_action", 10**6)):
        bad = dict(raw)
        bad[key] = value
        target = game._core.new_state()
        empty = target.state_bytes()
        with pytest.raises((TypeError, ValueError), match=f"^{key}"):
            game._core.load(target, bad)
        assert target.state_bytes() == empty


def test_position_mangled_texts_are_refused_or_read_never_another_error() -> None:
    """Junk built from a real position -- lines dropped, doubled, swapped, cut, values
    changed -- is refused with InvalidPositionError or read to a state whose text reads
    back the same; nothing else escapes."""
    game = _game()
    rng = random.Random(3)
    sources = [BATTLE_AT_SALONA] + [s.position() for s in
                                     random_positions(game, games=1, seed=2)[::40]]
    words = ["-", "0", "15", "yes", "no", "99", "-1", "roma", "rome infantry", "x", ""]
    for _ in range(1500):
        lines = rng.choice(sources).split("\n")
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(lines))
            how = rng.randrange(4)
            if how == 0:
                del lines[i]
            elif how == 1:
                lines.insert(i, lines[i])
            elif how == 2:
                lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
            else:
                key = lines[i].partition(": ")[0]
                lines[i] = f"{key}: {rng.choice(words)}"
        try:
            state = game.position("\n".join(lines), auto_chance=False)
        except InvalidPositionError:
            continue
        assert state.position() == game.position(state.position(),
                                                 auto_chance=False).position()
