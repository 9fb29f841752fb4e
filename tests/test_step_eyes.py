"""A player's eyes at a step are the eyes he had then: what the record viewer's page and
``boardrules replay`` show a player (or the spectator) at a step of a whole record is what
the library gave him at that step (``history_view``, ``events`` and ``view`` of the state
at that step), never the final state's redaction -- a card revealed two steps later is
``play ?`` at the step it was played face down (finding U1 of 0.6.0's review)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import boardrules
from boardrules import viewer
from boardrules.cli import main
from boardrules.cli import replay as replay_cli
from boardrules.records import game_record, replay_states
from boardrules.testing import check_step_eyes, example_configs, random_play
from boardrules.viewer import record_html

#: Seed 1's random Rome & Carthage game (2 players) has player 0's first face-down battle
#: commit at step 41, revealed to player 1 at step 42 (the defender commits), within the
#: 60 moves Rome & Carthage's option sets are checked over (each has a reveal by then).
SEED, MOVES = 1, 60
#: The other games reveal nothing later than its step (a face-down warrior stays face
#: down to the end, a card drawn for another stays "draw ?"): fewer moves show the same,
#: and a game without hidden information shows every eye the same log.
HIDDEN_MOVES, OPEN_MOVES = 30, 12


def rome_and_carthage_record(moves: int = MOVES) -> dict[str, Any]:
    game = boardrules.load("rome_and_carthage", players=2, max_rounds=12)
    return game_record(random_play(game, SEED, moves, rng_seed=SEED), date=None)


def face_down_commit(record: dict[str, Any], eye: int) -> tuple[int, str, str]:
    """The first step at which ``eye``'s log reads the move just made ``play ?`` although
    the record's end reveals it: (step, text then, text at the end)."""
    states = list(replay_states(record))
    final = states[-1].history_view(eye)
    for step, state in enumerate(states[1:], start=1):
        text = state.history_view(eye)[-1][1]
        if text == "play ?" and final[step - 1][1] != text:
            return step, text, final[step - 1][1]
    raise AssertionError("no face-down commit revealed later in this record")


def page_data(page: str) -> dict[str, Any]:
    found = re.search(r'id="viewer-data">(.*?)</script>', page, re.DOTALL)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def entry_at(data: dict[str, Any], key: str, index: int, step: int) -> list[Any]:
    side = next(s for s in data["sides"] if s["key"] == key)
    number = side["moves"][index]
    for at, revised, entry in side["revisions"]:
        if revised == index and at <= step:
            number = entry
    row: list[Any] = data["entries"][number]
    return row


# --- the general check, on every game and option set ---

@pytest.mark.parametrize(("game_id", "options"), example_configs(),
                         ids=[f"{g}-{i}" for i, (g, _) in enumerate(example_configs())])
def test_every_eye_at_every_step_is_what_the_library_gave_him_then(
        game_id: str, options: dict[str, Any]) -> None:
    game = boardrules.load(game_id, **options)
    moves = (MOVES if game_id == "rome_and_carthage" else
             HIDDEN_MOVES if game.has_hidden_information else OPEN_MOVES)
    check_step_eyes(game, games=1, seed=SEED, moves=moves)


# --- U1: the Rome & Carthage face-down commit ---

def test_a_face_down_commit_reads_play_question_mark_at_its_step_on_the_page() -> None:
    record = rome_and_carthage_record()
    step, then, later = face_down_commit(record, 1)
    data = page_data(record_html(record))
    assert entry_at(data, "1", step - 1, step)[1] == then == "play ?"
    assert entry_at(data, "1", step - 1, len(record["moves"]))[1] == later != "play ?"
    revealed = next(at for at, index, _ in next(
        s for s in data["sides"] if s["key"] == "1")["revisions"] if index == step - 1)
    states = list(replay_states(record))
    assert states[revealed - 1].history_view(1)[step - 1][1] == "play ?"
    assert states[revealed].history_view(1)[step - 1][1] == later
    # a page for player 1 alone reads the same
    alone = page_data(record_html(record, viewer=1))
    assert entry_at(alone, "1", step - 1, step)[1] == "play ?"


def test_replay_as_a_player_prints_a_face_down_commit_as_he_saw_it_then(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    record = rome_and_carthage_record()
    step, _, later = face_down_commit(record, 1)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--viewer", "1", "--step", str(step), "--all"]) == 0
    printed = capsys.readouterr().out
    at_step = printed.split(f"-- step {step} of")[1].split("-- step")[0]
    assert f"{step:4d}. player 0: play ?" in at_step
    assert later not in at_step.splitlines()[1]


def first_rewrite(record: dict[str, Any], eyes: list[int | None]) -> int | None:
    """The first step at which some eye's log writes an earlier move anew, if any."""
    before: dict[int | None, list[tuple[int, str]]] = {eye: [] for eye in eyes}
    for step, state in enumerate(replay_states(record)):
        for eye in eyes:
            log = state.history_view(eye)
            if log[:-1] != before[eye][:len(log) - 1]:
                return step
            before[eye] = log
    return None


@pytest.mark.parametrize("options", [o for g, o in example_configs()
                                     if g == "rome_and_carthage"])
def test_the_step_eyes_check_covers_a_reveal(options: dict[str, Any]) -> None:
    """The general check runs over records in which a move is revealed later (else a
    final-state redaction would pass it unseen)."""
    game = boardrules.load("rome_and_carthage", **options)
    record = game_record(random_play(game, SEED, MOVES, rng_seed=SEED), date=None)
    assert first_rewrite(record, [*range(game.num_players), None]) is not None


# --- the check fails on the old behaviour ---

def _final_state_redaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """The viewer as it was: every step's moves from the final state's log."""
    made = viewer._EyeLog.__init__

    def from_the_end(self: Any, eye: int | None, final: boardrules.State[Any]) -> None:
        made(self, eye, final)
        self._fixed = final.history_view(eye)

    monkeypatch.setattr(viewer._EyeLog, "__init__", from_the_end)


def test_the_step_eyes_check_fails_on_a_final_state_redaction_in_the_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _final_state_redaction(monkeypatch)
    game = boardrules.load("rome_and_carthage", players=2, max_rounds=12)
    with pytest.raises(AssertionError, match="the page's moves as 1 saw them differ"):
        check_step_eyes(game, games=1, seed=SEED, moves=MOVES)


def test_the_step_eyes_check_fails_on_replay_printing_the_final_redaction(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def finally_seen(record: Any, eye: int | None) -> Any:  # replay as it was
        final = list(replay_states(record))[-1].history_view(eye)
        for step, (entry, view) in enumerate(viewer._steps_as_seen(record, eye)):
            yield (None if entry is None else {**entry, "move": final[step - 1][1]}), view

    monkeypatch.setattr(replay_cli, "_steps_as_seen", finally_seen)
    game = boardrules.load("rome_and_carthage", players=2, max_rounds=12)
    with pytest.raises(AssertionError, match="replay --viewer 1 prints what he did not see"):
        check_step_eyes(game, games=1, seed=SEED, moves=MOVES)
