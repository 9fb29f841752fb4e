"""Game records (format 3): headers, moves with their movers, forced marks, events and
comments; the text form; replay as states and as a viewer's views; the shipped JSON
Schema; formats 1 and 2 still read; per-player move logs."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest

import boardrules
from boardrules import CHANCE, InvalidStateError
from boardrules.games import as_game_id
from boardrules.records import (
    describe_event,
    game_record,
    load_record,
    record_from_text,
    record_schema,
    record_to_text,
    replay,
    replay_states,
    replay_views,
    result_text,
    upgrade_record,
)
from boardrules.testing import example_configs, random_play, random_playout


def played(game_id: str = "armadora", seed: int = 3, moves: int = 30,
           **options: Any) -> boardrules.State[Any]:
    state = boardrules.load(as_game_id(game_id), **options).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def _configs() -> list[Any]:
    """Every registered game with each of its example options."""
    return [pytest.param(game_id, options,
                         id="-".join([game_id, *(f"{k}={v}" for k, v in options.items())]))
            for game_id, options in example_configs()]


CONFIGS = _configs()
VALIDATOR = jsonschema.Draft202012Validator(record_schema())


def _finished(game_id: str, options: dict[str, Any], seed: int = 11) -> boardrules.State[Any]:
    return random_playout(boardrules.load(as_game_id(game_id), **options), seed=seed)


# --- format 3, whole and per viewer, every game ---

@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_records_of_a_whole_game_validate_read_back_from_text_and_replay(
        game_id: str, options: dict[str, Any]) -> None:
    state = _finished(game_id, options)
    players = [f"bot {p}" for p in range(state.game.num_players)]
    record = json.loads(json.dumps(game_record(state, players=players, seed=11)))
    VALIDATOR.validate(record)
    assert replay(record) == state
    assert record_from_text(record_to_text(record)) == record
    assert load_record(record_to_text(record)) == record == load_record(json.dumps(record))
    outcome = state.outcome()
    assert outcome is not None
    head = record["headers"]
    assert head["outcome"]["winners"] == list(outcome.winners)
    assert head["termination"] == outcome.reason.value and head["result"] != "*"
    assert head["players"] == players and head["seed"] == 11
    assert head["library_version"] == boardrules.__version__


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_a_viewers_record_validates_reads_back_and_replays_as_his_views(
        game_id: str, options: dict[str, Any]) -> None:
    state = _finished(game_id, options, seed=12)
    whole = game_record(state)
    for viewer in (0, None):
        record = json.loads(json.dumps(game_record(state, viewer=viewer)))
        VALIDATOR.validate(record)
        assert record_from_text(record_to_text(record)) == record
        views = replay_views(record)
        assert views == [json.loads(json.dumps(dict(s.view(viewer))))
                         for s in replay_states(whole)]
        assert views[-1] == json.loads(json.dumps(dict(state.view(viewer))))
        with pytest.raises(InvalidStateError, match="whole record"):
            replay(record)


def test_replay_states_steps_through_every_move() -> None:
    state = played(players=3, variant="advanced")
    states = list(replay_states(game_record(state)))
    assert len(states) == len(state.history) + 1
    for i, step in enumerate(states):
        assert list(step.history) == list(state.history)[:i]
    assert states[-1] == state
    states[0].apply(states[0].legal_moves()[0])  # each step is a copy of its own
    assert len(states[1].history) == 1


def test_the_views_of_a_whole_record_are_computed_for_any_viewer() -> None:
    state = played(players=2)
    record = game_record(state)
    assert replay_views(record, 1)[-1] == state.view(1)
    with pytest.raises(InvalidStateError, match="whose views"):
        replay_views(record)
    with pytest.raises(InvalidStateError, match="only what 0 saw"):
        replay_views(game_record(state, viewer=0), 1)


# --- headers and comments ---

def test_headers_carry_players_seed_date_and_ones_own() -> None:
    state = played(moves=4)
    record = game_record(state, players=["alice", None], seed=3, date="2026-12-03T10:00:00Z",
                         headers={"event": "club night", "round": "2"})
    head = record["headers"]
    assert head["players"] == ["alice", None] and head["date"] == "2026-12-03T10:00:00Z"
    assert head["event"] == "club night" and head["result"] == "*"
    assert head["termination"] == "unfinished" and head["outcome"] is None
    VALIDATOR.validate(record)
    text = record_to_text(record)
    assert '[X-event "club night"]' in text and '[Player0 "alice"]' in text
    assert record_from_text(text) == record
    assert game_record(state, date=None)["headers"]["date"] is None
    assert game_record(state)["headers"]["date"].endswith("Z")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"players": ["one"]}, "each of the 2 seats"),
    ({"players": "ab"}, "each of the 2 seats"),
    ({"headers": {"game": "chess"}}, "own headers"),
    ({"headers": {"Event": "x"}}, "own headers"),
    ({"headers": {"event": "two\nlines"}}, "one line"),
    ({"comments": {99: "x"}}, "move index"),
    ({"comments": {0: "x" * 5000}}, "at most"),
])
def test_bad_headers_and_comments_are_refused(kwargs: dict[str, Any], message: str) -> None:
    state = played(moves=4)
    before = state.state_bytes()
    with pytest.raises(ValueError, match=message):
        game_record(state, **kwargs)
    assert state.state_bytes() == before


def test_comments_survive_the_text_form_whatever_they_hold() -> None:
    state = played(moves=6)
    odd = "a } brace, a \\ backslash; a {nested} one\nand a second line ; x"
    record = game_record(state, comments={0: odd, 8: "plain"})
    assert record["moves"][0]["comment"] == odd
    text = record_to_text(record)
    assert len(text.splitlines()) == len(record["moves"]) + 1 + text.count("[")
    assert record_from_text(text) == record


# --- the text form ---

def test_the_text_form_reads_like_a_score_sheet() -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=5)
    state.apply("3@c2")
    text = record_to_text(game_record(state, seed=5, date=None))
    lines = text.splitlines()
    assert lines[0] == '[Game "armadora"]'
    assert "   1. chance: gold 4 ; gold: square d1, gold 4" in lines
    assert lines[-1] == "   9. P0: 3@c2 ; warrior: player 0, square c2, strength 3"
    seen = record_to_text(game_record(state, viewer=1, date=None))
    assert "   9. P0: ?@c2 ; warrior: player 0, square c2, strength ?" in seen.splitlines()
    assert "%% data" in seen


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace('[Game "armadora"]', '[Game armadora]'), "not JSON"),
    (lambda t: t.replace('[Game "armadora"]', '[Colour "x"]'), "unknown header"),
    (lambda t: t.replace("   9. P0:", "   7. P0:"), "move 9"),
    (lambda t: t.replace("3@c2", "9@z9"), "moves\\[8\\]"),
    (lambda t: t.replace("   9. P0:", "   9. P1:"), "not who moves"),
    (lambda t: t.replace("   9. P0: 3@c2", "   9. P0: 3@c2 {open"), "ends with }"),
    (lambda t: t.replace("[Result", '[Outcome {"winners": [0], "ranking": [1, 2], '
                         '"scores": [1, 0], "team_scores": [1, 0], "reason": "x"}]\n[Result'),
     "outcome header"),
])
def test_a_broken_text_form_is_refused_with_the_line(change: Any, message: str) -> None:
    state = boardrules.load("armadora", players=2).new_game(seed=5)
    state.apply("3@c2")
    text = record_to_text(game_record(state))
    with pytest.raises(InvalidStateError, match=message):
        record_from_text(change(text))


def test_a_viewers_text_form_without_its_data_is_refused() -> None:
    state = played(moves=4)
    text = record_to_text(game_record(state, viewer=0))
    with pytest.raises(InvalidStateError, match="data"):
        record_from_text(text.split("%% data")[0])
    body, data = text.split("%% data\n")
    views = json.loads(data)
    views["views"] = views["views"][:-1]
    with pytest.raises(InvalidStateError, match="one view more"):
        record_from_text(body + "%% data\n" + json.dumps(views))


def test_load_record_refuses_what_is_no_record() -> None:
    for junk in ("", "{", "[1]", "{}", b"\xff\xfe", '{"format": "x"}'):
        with pytest.raises(InvalidStateError):
            load_record(junk)
    with pytest.raises(TypeError):
        load_record(3)  # type: ignore[arg-type]


def test_event_words_name_every_field_and_hide_what_is_hidden() -> None:
    assert describe_event({"kind": "battle_won", "city": "Roma", "cards": [3, None],
                           "player": 1, "tie": False}) == \
        "battle won: city Roma, cards [3 ?], player 1, tie no"
    assert describe_event({"kind": "pass"}) == "pass"
    die = boardrules.Event(5, CHANCE, "die", {"player": 1, "value": 4})
    assert describe_event(die) == "die: player 1, value 4"


def test_an_event_for_another_player_keeps_both_players() -> None:
    """A die thrown for player 1 (pig: the chance outcome is made by CHANCE): the record
    keeps the player it concerns, as_dict both the mover and him."""
    die = boardrules.Event(5, CHANCE, "die", {"player": 1, "value": 4})
    assert die.as_dict() == {"index": 5, "player": CHANCE, "kind": "die", "data_player": 1,
                             "value": 4}
    state = played("pig", moves=20)
    record = game_record(state)
    dice = [(m["mover"], e) for m in record["moves"] for e in m["events"] if e["kind"] == "die"]
    assert dice and all(mover == CHANCE and e["player"] in (0, 1) for mover, e in dice)
    mine = boardrules.Event(3, 1, "hold", {"player": 1, "total": 9})
    assert mine.as_dict() == {"index": 3, "player": 1, "kind": "hold", "total": 9}


def test_result_in_words() -> None:
    state = boardrules.load("armadora").new_game(seed=2)
    assert result_text(state.outcome()) == "*"
    for move in ("1@a1", "pass", "pass"):
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None and len(outcome.winners) == 1
    assert result_text(outcome) == f"player {outcome.winners[0]} wins"


# --- older formats, hidden moves, forged records ---

def test_format_2_records_upgrade_to_format_3() -> None:
    state = played()
    record = game_record(state)
    old = {"format": "boardrules-record", "format_version": 2, "game": "armadora",
           "rules_version": state.game.rules_version, "options": dict(state.game.options),
           "viewer": "all", "forced": [], "start": None, "outcome": None,
           "moves": [[m["mover"], m["move"]] for m in record["moves"]],
           "events": [{"index": i, "player": m["mover"], **e}
                      for i, m in enumerate(record["moves"]) for e in m["events"]]}
    upgraded = upgrade_record(old)
    VALIDATOR.validate(upgraded)

    def said(moves: list[dict[str, Any]]) -> list[Any]:  # a player field equal to the mover
        return [[{k: v for k, v in e.items() if not (k == "player" and v == m["mover"])}
                 for e in m["events"]] for m in moves]  # says nothing more

    assert said(upgraded["moves"]) == said(record["moves"])
    assert [(m["mover"], m["move"]) for m in upgraded["moves"]] == \
        [(m["mover"], m["move"]) for m in record["moves"]]
    assert upgraded["headers"]["players"] is None and replay(old) == state


def test_move_log_hides_other_players_face_down_strengths() -> None:
    """rule 三: warriors go face down -- another player's log shows where, not what."""
    state = played(players=3, variant="advanced")
    truth = game_record(state)["moves"]
    for viewer in (0, 1, 2, None):
        log = game_record(state, viewer=viewer)["moves"]
        assert len(log) == len(truth)
        for seen, true in zip(log, truth, strict=True):
            assert seen["mover"] == true["mover"]
            move = true["move"]
            if "@" in move and not move.startswith("goblin") and true["mover"] != viewer:
                assert seen["move"] == "?@" + move.split("@")[1]
            else:
                assert seen["move"] == move
    assert any(m["mover"] == CHANCE for m in truth)  # the setup's gold piles and races


def test_a_viewers_views_never_show_another_players_hidden_strength() -> None:
    state = played(players=2, variant="basic", look_at_face_down=False)
    views = json.dumps(game_record(state, viewer=1)["views"])
    placed = [m for m in game_record(state)["moves"] if m["mover"] == 0 and "@" in m["move"]]
    assert placed, "player 0 placed warriors"
    assert json.dumps(game_record(state, viewer=0)["views"]) != views
    assert views.count('"strength": null') + views.count('"strength":null') > 0


def test_move_log_respects_look_at_face_down() -> None:
    state = boardrules.load("armadora", look_at_face_down=False).new_game(seed=1)
    state.apply("3@c2")
    assert state.history_view(0)[-1] == (0, "?@c2")
    shown = boardrules.load("armadora").new_game(seed=1)
    shown.apply("3@c2")
    assert shown.history_view(0)[-1] == (0, "3@c2")


def test_redacted_or_forged_records_are_refused() -> None:
    state = played()
    record = game_record(state)
    first = record["moves"][0]
    for path, value in (
        (("format",), "x"), (("headers", "game"), "chess"),
        (("headers", "options"), {"players": 9}),
        (("headers", "options"), {"board": "/etc/passwd"}),
        (("headers", "rules_version"), "0.1"), (("headers", "viewer"), 7),
        (("headers",), "x"), (("moves",), [{**first, "move": "9@z9"}]),
        (("moves",), [{**first, "mover": 1}]), (("moves",), "x"), (("moves",), [["junk"]]),
        (("moves",), [{**first, "forced": "no"}]), (("headers", "start"), 5),
    ):
        forged = json.loads(json.dumps(record))
        target = forged
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(InvalidStateError):
            replay(forged)
    with pytest.raises(TypeError):
        replay("not a record")  # type: ignore[arg-type]


def test_history_view_checks_its_player() -> None:
    state = played()
    with pytest.raises(ValueError):
        state.history_view(5)
    with pytest.raises(TypeError):
        state.history_view("0")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        game_record(state, viewer=5)


# --- records cannot lie: the result headers are the moves' ---

def _won(game_id: str = "connect_four", seed: int = 1) -> boardrules.State[Any]:
    """A finished game of two players with one winner."""
    state = _finished(game_id, {}, seed=seed)
    assert state.outcome() is not None and len(state.outcome().winners) == 1  # type: ignore[union-attr]
    return state


def _forged_winner(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` (a two-player game won by one) with the loser written as the winner."""
    forged = json.loads(json.dumps(record))
    loser = 1 - record["headers"]["outcome"]["winners"][0]
    forged["headers"]["result"] = f"player {loser} wins"
    forged["headers"]["outcome"].update(winners=[loser], ranking=[2, 2],
                                        scores=[0, 0], team_scores=[0, 0])
    forged["headers"]["outcome"]["ranking"][loser] = 1
    forged["headers"]["outcome"]["scores"][loser] = 1
    forged["headers"]["outcome"]["team_scores"][loser] = 1
    return forged


@pytest.mark.parametrize("header", ["result", "termination", "outcome", "all three"])
def test_a_forged_result_header_of_a_whole_record_is_refused(header: str) -> None:
    state = _won()
    record = game_record(state, date=None)
    forged = _forged_winner(record)
    if header != "all three":
        forged["headers"] = {**record["headers"], header: forged["headers"][header]}
    if header == "termination":
        forged["headers"]["termination"] = "unfinished"
    for read in (replay, lambda r: list(replay_states(r)), lambda r: load_record(json.dumps(r))):
        with pytest.raises(InvalidStateError, match=r"header .* is not the .* of the moves"):
            read(forged)
    assert replay(record) == state  # the true headers pass


def test_a_finished_game_recorded_as_unfinished_is_refused() -> None:
    record = game_record(_won(), date=None)
    record["headers"].update(result=None, termination=None, outcome=None)  # "not over"
    with pytest.raises(InvalidStateError, match="outcome header"):
        replay(record)


def test_replay_states_refuses_a_forged_result_before_giving_the_last_state() -> None:
    state = _won()
    forged = _forged_winner(game_record(state, date=None))
    given = []
    with pytest.raises(InvalidStateError):
        for step in replay_states(forged):
            given.append(step)
    assert len(given) == len(state.history)  # every state but the final one


def test_load_record_fills_in_the_result_an_old_record_leaves_unknown() -> None:
    state = _won()
    record = game_record(state, date=None)
    old = {"format": "boardrules-record", "format_version": 1, "game": "connect_four",
           "rules_version": state.game.rules_version, "options": dict(state.game.options),
           "viewer": "all", "outcome": record["headers"]["outcome"],
           "moves": [[m["mover"], m["move"]] for m in record["moves"]]}
    head = load_record(json.dumps(old))["headers"]
    assert (head["result"], head["termination"], head["outcome"]) == (
        record["headers"]["result"], record["headers"]["termination"],
        record["headers"]["outcome"])
    assert upgrade_record(old)["headers"]["termination"] is None  # unknown until replayed


def test_a_viewers_record_whose_result_words_contradict_its_outcome_is_refused() -> None:
    state = _won("armadora", seed=4)
    seen = game_record(state, viewer=0, date=None)
    assert replay_views(seen) == seen["views"]
    forged = _forged_winner(game_record(state, date=None))
    for name in ("result", "termination"):
        lying = json.loads(json.dumps(seen))
        lying["headers"][name] = "unfinished" if name == "termination" else \
            forged["headers"]["result"]
        with pytest.raises(InvalidStateError, match=f"the {name} header"):
            replay_views(lying)
        with pytest.raises(InvalidStateError, match=f"the {name} header"):
            record_from_text(record_to_text(seen).replace(
                json.dumps(seen["headers"][name]), json.dumps(lying["headers"][name]), 1))


def test_the_text_form_refuses_a_forged_result_or_termination_too() -> None:
    record = game_record(_won(), date=None)
    text = record_to_text(record)
    loser = 1 - record["headers"]["outcome"]["winners"][0]
    for line, forged in ((f"[Result {json.dumps(record['headers']['result'])}]",
                          f'[Result "player {loser} wins"]'),
                         (f"[Termination {json.dumps(record['headers']['termination'])}]",
                          '[Termination "unfinished"]')):
        assert line in text
        with pytest.raises(InvalidStateError, match="is not the"):
            record_from_text(text.replace(line, forged))
    assert record_from_text(text) == record


# --- the text form: a comment holds any text ---

def test_line_breaks_lists_every_character_splitlines_breaks_at() -> None:
    from boardrules.records import LINE_BREAKS

    breaking = "".join(chr(c) for c in range(0x110000)
                       if len(f"a{chr(c)}b".splitlines()) > 1)
    assert breaking == "".join(sorted(LINE_BREAKS))


@pytest.mark.parametrize("brk", ["\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
                                 "\x85", "\u2028", "\u2029", "\n\r\\u2028}\\"])
def test_a_comment_with_any_line_break_survives_the_text_form(brk: str) -> None:
    state = played("pig", moves=3)
    record = game_record(state, comments={0: f"line one{brk}line two", 1: brk}, date=None)
    text = record_to_text(record)
    headers = sum(line.startswith("[") for line in text.split("\n"))
    assert len(text.splitlines()) == headers + 1 + len(record["moves"])  # one line a move
    assert load_record(text) == record == record_from_text(text)


def test_an_older_text_forms_escapes_still_read() -> None:
    """0.5.0 escaped only backslash, brace and newline: its comments read the same."""
    state = played("pig", moves=3)
    record = game_record(state, comments={0: "a \\u2028, a } and\na \\r"}, date=None)
    plain = record_to_text(game_record(state, date=None)).splitlines()
    first = next(i for i, line in enumerate(plain) if line.startswith("   1. "))
    move, _, words = plain[first].partition(" ;")
    plain[first] = move + " {a \\\\u2028, a \\} and\\na \\\\r}" + " ;" + words
    assert record_from_text("\n".join(plain) + "\n") == record


def test_load_record_gives_a_whole_records_events_as_the_moves_caused_them() -> None:
    state = played(moves=30)
    record = game_record(state, date=None)
    forged = json.loads(json.dumps(record))
    warrior = next(e for m in forged["moves"] for e in m["events"] if e["kind"] == "warrior")
    warrior["strength"] = 99
    forged["moves"][0]["events"].append({"kind": "gold", "square": "a1", "gold": 1000})
    assert load_record(json.dumps(forged)) == record


# --- hidden (?) or none: describe_event knows which ---

def _rome_battle(advantages: list[Any]) -> boardrules.Event:
    return boardrules.Event(61, 0, "battle", {"city": "tyrus", "cards": [[15, 1], [8, 8]],
                                              "advantages": advantages, "result": "tie"})


def test_a_battle_without_advantage_is_described_as_none_not_hidden() -> None:
    """Rome & Carthage's battles are public: "no special advantage" (None) is no secret,
    whoever reads it, so it is ``none``; ``?`` would say it was hidden from him."""
    game = boardrules.load("rome_and_carthage")
    battle = _rome_battle([None, "elephant"])
    for viewer in ("all", None, 0, 1):
        assert describe_event(battle, game=game, viewer=viewer) == \
            "battle: city tyrus, cards [[15 1] [8 8]], advantages [none elephant], " \
            "result tie"
    assert "advantages [none elephant]" in describe_event(battle, battle)  # told the truth


def test_a_card_hidden_from_the_viewer_is_still_described_as_hidden() -> None:
    """A card drawn by player 1 is ``?`` to player 0 and to a spectator, in an Event and
    in a record's event alike, and its value to player 1 himself."""
    game = boardrules.load("rome_and_carthage")
    drawn = boardrules.Event(8, CHANCE, "draw", {"player": 1, "card": 9})
    for viewer in (None, 0):
        seen = game._redact_event(drawn, viewer)
        assert seen is not None and seen.data["card"] is None
        assert describe_event(seen, game=game, viewer=viewer) == "draw: player 1, card ?"
        assert describe_event({"kind": "draw", "player": 1, "card": None},
                              game=game, viewer=viewer) == "draw: player 1, card ?"
        assert describe_event(seen, drawn) == "draw: player 1, card ?"
    assert describe_event(drawn, game=game, viewer=1) == "draw: player 1, card 9"


def test_a_power_with_no_strength_is_none_but_a_peeked_one_is_hidden() -> None:
    """Armadora's ``power`` event: a power that reveals no strength has none (``none``
    to everyone); the strength the Mage peeked at is hidden from the others (``?``)."""
    game = boardrules.load("armadora", players=2)
    arrow = {"kind": "power", "player": 0, "race": "elf", "square": "b2", "strength": None}
    assert describe_event(arrow, game=game, viewer=1).endswith("strength none")
    peek = boardrules.Event(4, 0, "power", {"player": 0, "race": "mage", "square": "b2",
                                            "strength": 5})
    seen = game._redact_event(peek, 1)
    assert seen is not None
    assert describe_event(seen, game=game, viewer=1).endswith("strength ?")
    assert describe_event(peek, game=game, viewer=0).endswith("strength 5")


@pytest.mark.parametrize("game_id", ["armada", "rome_and_carthage"])
def test_an_event_the_redaction_cannot_read_is_described_as_hidden(game_id: str) -> None:
    """A viewer's record's events are as its file says: a draw without its ``player``
    made the game's redaction raise KeyError out of describe_event (and ``record show``
    crashed).  What is hidden cannot be told then, so every missing value is ``?``."""
    game = boardrules.load(game_id)
    for viewer in (None, 0, 1):
        assert describe_event({"kind": "draw", "card": None}, game=game,
                              viewer=viewer) == "draw: card ?"


def _every_eye(game: Any) -> list[int | None]:
    return [None, *range(game.num_players)]


@pytest.mark.parametrize("game_id", boardrules.available_games())
def test_no_value_of_the_whole_truth_is_described_as_hidden(game_id: str) -> None:
    """Over random games of every game: the whole truth hides nothing, so no event of it
    says ``?``; and what each viewer's events say by the game's redaction is what they
    say beside the truth -- ``?`` exactly where the truth holds a value he may not see."""
    game = boardrules.load(as_game_id(game_id))
    for seed in range(2):
        state = random_play(game, seed, moves=150)
        for truth in (e for per_action in state._truth_events() for e in per_action):
            assert "?" not in describe_event(truth, game=game, viewer="all"), truth
            for viewer in _every_eye(game):
                seen = game._redact_event(truth, viewer)
                if seen is not None:
                    assert describe_event(seen, game=game, viewer=viewer) == \
                        describe_event(seen, truth), (viewer, truth)


def test_a_viewers_record_text_says_none_for_no_advantage_and_keeps_hidden_cards() -> None:
    """record_to_text (record show's words) of a player's record of Rome & Carthage: a
    battle's missing advantage is ``none``, a card the other side drew ``?``."""
    game = boardrules.load("rome_and_carthage")
    state = random_play(game, 0, moves=150)
    text = record_to_text(game_record(state, viewer=0))
    assert "advantages [none none]" in text and "advantages [?" not in text
    assert "draw: player 1, card ?" in text
    assert "advantages [none none]" in record_to_text(game_record(state))


def test_a_draw_and_a_spys_missing_cards_are_described_as_none_not_hidden() -> None:
    """Rome & Carthage: a drawn game's ``over`` event has no winning team, and a battle
    side that played no cards (a spy withdrew) has none: public facts, ``none`` to every
    viewer, in an Event and in a record's event."""
    game = boardrules.load("rome_and_carthage")
    over = boardrules.Event(90, 1, "over", {"winner_team": None, "reason": "max_rounds"})
    spied = {"kind": "battle", "city": "roma", "cards": [[4, 2], None]}
    for viewer in ("all", None, 0, 1):
        assert describe_event(over, game=game, viewer=viewer) == \
            "over: winner team none, reason max_rounds"
        assert describe_event(spied, game=game, viewer=viewer) == \
            "battle: city roma, cards [[4 2] none]"


def test_a_hidden_value_beside_an_absent_one_reads_as_each_is() -> None:
    """One event may lack a value the viewer may not see and another the game does not
    hold: the first reads ``?``, the second ``none`` (the game's redaction, which builds
    a new event of its own, is asked about both at once)."""
    game = boardrules.load("rome_and_carthage")
    given = {"kind": "give", "player": 1, "to": None, "card": None}
    assert describe_event(given, game=game, viewer=0) == "give: player 1, to none, card ?"
    assert describe_event(given, game=game, viewer=1) == "give: player 1, to none, card none"
