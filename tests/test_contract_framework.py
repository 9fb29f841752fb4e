"""The generic parts of the 0.6.0 contract: save format 3 (and format 2 still loading),
event records, position errors, forced-step flags, odds per viewer and records v2.  Each
game's positions, events and forced steps are tested on its own pages and by the
conformance checks."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

import boardrules
from boardrules import CHANCE, Event, InvalidPositionError, InvalidStateError
from boardrules.records import game_record, replay
from boardrules.testing import assert_rejected, random_play


def _played(game_id: str, moves: int = 12, **options: Any) -> boardrules.State[Any]:
    return random_play(boardrules.load(game_id, **options), seed=3, moves=moves)  # type: ignore[call-overload]


def test_a_save_of_format_3_holds_auto_forced_forced_and_start() -> None:
    state = _played("armadora", players=2)
    doc = json.loads(state.to_json())
    assert doc["format_version"] == 3
    assert doc["auto_forced"] is True and doc["forced"] == state.forced and doc["start"] is None


def test_a_save_of_format_2_still_loads() -> None:
    """Saves made by 0.5.0 (format 2: no forced steps, no start position) still restore."""
    state = _played("armadora", players=2)
    doc = json.loads(state.to_json())
    for name in ("auto_forced", "forced", "start"):
        del doc[name]
    doc["format_version"] = 2
    restored = state.game.state_from_json(json.dumps(doc))
    assert restored == state and restored.auto_forced and restored.start_position is None


def test_a_format_3_save_without_its_new_fields_is_refused() -> None:
    state = _played("pig")
    doc = json.loads(state.to_json())
    del doc["forced"]
    with pytest.raises(InvalidStateError, match="fields must be exactly"):
        state.game.state_from_json(json.dumps(doc))


def test_new_game_checks_auto_forced() -> None:
    game = boardrules.load("pig")
    with pytest.raises(TypeError, match="auto_forced"):
        game.new_game(auto_forced=1)  # type: ignore[arg-type]
    state = game.new_game(seed=1, auto_forced=False)
    assert state.auto_forced is False and state.copy().auto_forced is False
    assert game.state_from_json(state.to_json()).auto_forced is False


def test_event_records_are_frozen_json_ready_and_pickle() -> None:
    data: dict[str, Any] = {"cards": [1, 2], "total": 3}
    event = Event(4, CHANCE, "dice", data)
    data["cards"].append(99)  # the record keeps what it was given
    assert event.as_dict() == {"index": 4, "player": CHANCE, "kind": "dice",
                               "cards": [1, 2], "total": 3}
    record = event.as_dict()
    record["cards"].append(5)
    assert event.data["cards"] == [1, 2]
    with pytest.raises(TypeError):
        event.data["total"] = 4  # type: ignore[index]
    assert pickle.loads(pickle.dumps(event)) == event
    json.dumps(event.as_dict())


def test_invalid_position_error_names_the_field_and_pickles() -> None:
    error = InvalidPositionError("board[c3]", "two warriors on one square")
    assert error.field == "board[c3]" and str(error) == "board[c3]: two warriors on one square"
    assert isinstance(error, InvalidStateError)
    again = pickle.loads(pickle.dumps(error))
    assert again.field == error.field and str(again) == str(error)


def test_position_text_is_type_and_size_checked() -> None:
    game = boardrules.load("armadora", players=2)
    with pytest.raises(TypeError, match="a position is text"):
        game.position(b"board")  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="at most"):
        game.position("x" * (game.max_position_text + 1))


def test_events_and_last_events_check_the_viewer() -> None:
    state = _played("armadora", players=2)
    for bad in (2, -1):
        with pytest.raises(ValueError):
            state.events(bad)
    with pytest.raises(TypeError):
        state.last_events("0")  # type: ignore[arg-type]
    assert state.events(0)[len(state.events(0)) - len(state.last_events(0)):] == \
        state.last_events(0)


def test_chance_outcomes_for_a_viewer_are_the_engines_odds_without_hidden_chance() -> None:
    """Pig's die is the same die whoever looks: the odds for a viewer are the engine's."""
    game = boardrules.load("pig")
    state = game.new_game(seed=2, auto_chance=False)
    state.apply("roll")
    assert state.current_player == CHANCE
    assert state.chance_outcomes(viewer=0) == state.chance_outcomes() == \
        state.chance_outcomes(viewer=1)
    assert_rejected(state, ValueError, lambda: state.chance_outcomes(viewer=2))
    assert_rejected(state, TypeError, lambda: state.chance_outcomes(viewer=True))


def test_a_record_lists_forced_steps_start_and_events_and_replays() -> None:
    state = _played("albion", moves=60, players=2)
    record = game_record(state)
    assert record["format_version"] == 3
    assert [i for i, m in enumerate(record["moves"]) if m["forced"]] == state.forced
    assert record["headers"]["start"] is None
    seen = game_record(state, viewer=None)
    assert [(i, m["mover"], e) for i, m in enumerate(seen["moves"]) for e in m["events"]] \
        == [(e.index, e.player, {"kind": e.kind, **e.data}) for e in state.events(None)]
    assert replay(record) == state
    json.dumps(game_record(state, viewer=1))


def _old_record(state: boardrules.State[Any], version: int) -> dict[str, Any]:
    """The record 0.5.0 (format 1) or the contract issue (format 2) wrote of ``state``."""
    game = state.game
    record: dict[str, Any] = {
        "format": "boardrules-record", "format_version": version, "game": game.id,
        "rules_version": game.rules_version, "options": dict(game.options), "viewer": "all",
        "moves": [[mover, str(move)] for mover, move in
                  zip(state._core.movers(), state.history, strict=True)],
        "outcome": None}
    if version == 2:
        record.update(forced=state.forced, start=None,
                      events=[e.as_dict() for e in state.events(None)])
    return record


@pytest.mark.parametrize("version", [1, 2])
def test_a_version_1_or_2_record_still_replays(version: int) -> None:
    state = _played("albion", moves=60, players=2)
    record = _old_record(state, version)
    if version == 1:  # format 1 knew no forced steps: they were plain moves then
        state = _played_asking_forced(state)
    assert replay(record) == state


def _played_asking_forced(auto: boardrules.State[Any]) -> boardrules.State[Any]:
    asked = auto.game.new_game(seed=3, auto_forced=False)
    history = list(auto.history)
    while len(asked.history) < len(history):  # chance is drawn by both games' RNG
        asked.apply(history[len(asked.history)])
    return asked


def test_a_record_with_a_forged_forced_mark_is_refused() -> None:
    state = _played("armadora", players=2)
    record = game_record(state)
    record["moves"][-1]["forced"] = True
    with pytest.raises(InvalidStateError, match="forced"):
        replay(record)
    record["moves"][-1]["forced"] = "3"
    with pytest.raises(InvalidStateError, match="forced"):
        replay(record)


def test_the_record_of_a_replayed_record_with_forced_steps_replays_again() -> None:
    """A replayed record takes its marked steps as forced steps, so the replayed state's
    own record marks them again and replays (found by the records fuzz target)."""
    state = _played("albion", moves=60, players=2)
    assert state.forced, "the sample game should have forced steps"
    replayed = replay(game_record(state))
    assert replayed == state and replayed.forced == state.forced
    again = replay(json.loads(json.dumps(game_record(replayed))))
    assert again == state and again.forced == state.forced


def test_the_record_of_a_game_asking_its_forced_steps_replays() -> None:
    """With auto_forced=False the forced steps are asked and played as moves: the record
    marks none of them, and it replays to the same state."""
    game = boardrules.load("albion", players=2)
    auto = _played("albion", moves=60, players=2)
    asked = game.new_game(seed=3, auto_forced=False)
    history = list(auto.history)
    while len(asked.history) < len(history):  # chance is drawn by both games' RNG
        asked.apply(history[len(asked.history)])
    assert asked.forced == [] and asked.state_bytes() == auto.state_bytes()
    record = game_record(asked)
    assert not any(m["forced"] for m in record["moves"])
    assert replay(record) == asked


def test_state_from_json_loads_a_games_board_once_for_many_saves() -> None:
    """A server restoring many saves of one game and option set loads the game once:
    the restored states share one (immutable) Game; other options get their own."""
    two = _played("rome_and_carthage", players=2)
    three = _played("rome_and_carthage", players=3)
    first, again = (boardrules.state_from_json(two.to_json()) for _ in range(2))
    assert first == two and again == two
    assert first.game is again.game
    other = boardrules.state_from_json(three.to_json())
    assert other == three and other.game is not first.game
    assert other.game.options != first.game.options


def test_state_from_json_calls_a_registered_function_factory_for_every_save() -> None:
    """Only a game class's games are shared between restored saves: a factory function a
    user registered may answer differently each call, so it is called every time."""
    from boardrules.games import _REGISTRY, register
    from boardrules.games.tic_tac_toe import TicTacToeGame

    class CountedGame(TicTacToeGame):
        id = "my_counted_tic_tac_toe"

    calls: list[int] = []

    def factory() -> TicTacToeGame:
        calls.append(1)
        return CountedGame()

    my_id = register("my_counted_tic_tac_toe", factory)
    try:
        saved = boardrules.load(my_id).new_game(seed=2).to_json()
        calls.clear()
        restored = [boardrules.state_from_json(saved) for _ in range(2)]
        assert all(type(r.game) is CountedGame for r in restored)
        assert restored[0].game is not restored[1].game and len(calls) == 2
    finally:
        del _REGISTRY[my_id]
