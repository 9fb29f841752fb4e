"""Property tests (Hypothesis) over random seeded games of every player count and variant:
notation and JSON round trips, copies, children, undo, determinism, and views that hide
what a player may not see.

Each example is a game: options, a seed, whether chance is drawn automatically, and a
move index drawn at each step into ``legal_moves()`` (chance outcomes included when the
caller applies chance).  Half the games avoid passing while anything else is legal, so
that full boards and late-game positions are reached too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardrules
from boardrules.testing import snapshot

# (players, variant, look_at_face_down)
CONFIGS = [
    (2, "basic", True), (2, "advanced", True),
    (3, "basic", True), (3, "advanced", True),
    (4, "basic", True), (4, "advanced", True),
    (2, "advanced", False), (4, "advanced", False),
]
GAMES = {
    c: boardrules.load("armadora", players=c[0], variant=c[1], look_at_face_down=c[2])
    for c in CONFIGS
}
MAIN_CONFIGS = CONFIGS[:6]

SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

scenarios = st.tuples(
    st.sampled_from(MAIN_CONFIGS),
    st.integers(min_value=0, max_value=2**64 - 1),   # seed
    st.booleans(),                                    # auto_chance
    st.integers(min_value=0, max_value=160),          # number of steps
    st.booleans(),                                    # avoid passing
)

Step = Callable[[Any, list[Any], Any], None]


def play(data: st.DataObject, config: tuple[int, str, bool], seed: int, auto_chance: bool,
         steps: int, avoid_pass: bool, each: Step | None = None) -> tuple[Any, list[Any]]:
    """Play up to ``steps`` decisions, each an index drawn into ``legal_moves()`` (with
    ``avoid_pass``, into the moves other than 'pass' when there are any);
    ``each(state, legal, move)`` runs before every move is applied."""
    game = GAMES[config]
    state = game.new_game(seed=seed, auto_chance=auto_chance)
    played: list[Any] = []
    for i in range(steps):
        legal = state.legal_moves()
        if not legal:
            assert state.is_terminal()
            break
        choices = legal
        if avoid_pass and len(legal) > 1 and str(legal[0]) == "pass":
            choices = legal[1:]
        move = choices[data.draw(st.integers(0, len(choices) - 1), label=f"index {i}")]
        if each is not None:
            each(state, legal, move)
        state.apply(move)
        played.append(move)
    return state, played


# --------------------------------------------------------------------------------------
# Notation
# --------------------------------------------------------------------------------------

def tolerant_spellings(move: Any) -> list[str]:
    """Other ways a user may write ``move``: any case, extra white space, the two squares
    of a palisade gap in either order."""
    text = str(move)
    out = [text.upper(), text.title(), f"  {text}  ", text.replace(" ", "   "),
           "\t" + text.upper() + "\n"]
    if move.edge is not None:
        a, b = move.edge
        reverse = f"{b}-{a}" if move.kind == "palisade" else f"orc {b}-{a}"
        out += [reverse, reverse.upper(), " " + reverse.replace(" ", "  ") + " "]
    return out


@SETTINGS
@given(scenario=scenarios, data=st.data())
def test_notation_round_trip(scenario: tuple[Any, ...], data: st.DataObject) -> None:
    seen: dict[int, Any] = {}

    def each(state: Any, legal: list[Any], move: Any) -> None:
        for m in legal:
            seen.setdefault(m.action, m)

    state, _ = play(data, *scenario, each=each)
    for m in state.legal_moves():
        seen.setdefault(m.action, m)
    game = state.game
    for m in seen.values():
        text = str(m)
        assert game.parse_move(text) == m, text
        assert str(game.parse_move(text)) == text
        assert game.move(m.action) == m
        for spelling in tolerant_spellings(m):
            parsed = game.parse_move(spelling)
            assert parsed == m, f"{spelling!r} parsed as {parsed}, expected {m}"
            assert str(parsed) == text


def test_notation_tolerates_spaces_around_separators() -> None:
    """'3 @ c2' and 'c2 - d2' are extra spaces like any other (every move of every game)."""
    for game in GAMES.values():
        for action in range(game.num_distinct_actions):
            move = game.move(action)
            text = str(move)
            spaced = text.replace("@", " @ ").replace("-", " - ")
            if spaced == text:
                continue
            try:
                parsed = game.parse_move(spaced)
            except boardrules.InvalidMoveError:
                raise AssertionError(f"{spaced!r} (for {text!r}) is refused") from None
            assert parsed == move, spaced


def test_legal_moves_sorted_unique_and_canonical() -> None:
    """Every action id's move prints once and parses back (a deterministic companion of the
    property above, over the whole move table)."""
    for game in GAMES.values():
        texts = [str(game.move(a)) for a in range(game.num_distinct_actions)]
        assert len(set(texts)) == len(texts)
        for a, text in enumerate(texts):
            assert game.parse_move(text).action == a


# --------------------------------------------------------------------------------------
# JSON, copies, children, undo, determinism
# --------------------------------------------------------------------------------------

def check_json_round_trip(state: Any) -> None:
    text = state.to_json()
    for restored in (state.game.state_from_json(text),
                     state.game.state_from_json(text.encode("utf-8"))):
        assert restored == state
        assert restored.state_bytes() == state.state_bytes()
        assert [str(m) for m in restored.history] == [str(m) for m in state.history]
        assert restored.current_player == state.current_player
        assert restored.to_json() == text


@SETTINGS
@given(scenario=scenarios, data=st.data())
def test_json_round_trip(scenario: tuple[Any, ...], data: st.DataObject) -> None:
    counter = [0]

    def each(state: Any, legal: list[Any], move: Any) -> None:
        counter[0] += 1
        if counter[0] % 12 == 1:
            check_json_round_trip(state)

    state, _ = play(data, *scenario, each=each)
    check_json_round_trip(state)
    restored = boardrules.state_from_json(state.to_json())
    assert restored == state
    # the restored state plays on exactly like the original
    legal = state.legal_moves()
    if legal:
        move = legal[data.draw(st.integers(0, len(legal) - 1), label="after restore")]
        state.apply(move)
        restored.apply(str(move))
        assert restored.state_bytes() == state.state_bytes()
        assert restored.to_json() == state.to_json()


@SETTINGS
@given(scenario=scenarios, data=st.data())
def test_copy_is_independent(scenario: tuple[Any, ...], data: st.DataObject) -> None:
    def each(state: Any, legal: list[Any], move: Any) -> None:
        before = snapshot(state)
        twin = state.copy()
        assert twin == state and snapshot(twin) == before
        other = legal[data.draw(st.integers(0, len(legal) - 1), label="copy move")]
        twin.apply(other)
        assert snapshot(state) == before, "applying to a copy changed the original"
        twin_before = snapshot(twin)
        twin2 = state.copy()
        state.apply(move)
        assert snapshot(twin) == twin_before, "applying to the original changed a copy"
        state.undo()
        assert snapshot(state) == before
        assert snapshot(twin2) == before
        twin.undo()
        assert twin == state

    play(data, *scenario, each=each)


@SETTINGS
@given(scenario=scenarios, data=st.data())
def test_child_leaves_parent_unchanged(scenario: tuple[Any, ...], data: st.DataObject) -> None:
    def each(state: Any, legal: list[Any], move: Any) -> None:
        before = snapshot(state)
        child = state.child(move)
        assert snapshot(state) == before, "child() changed the parent"
        by_text = state.child(str(move))
        assert snapshot(state) == before
        assert child == by_text
        assert child.history[len(before[2])] == move
        manual = state.copy()
        manual.apply(move)
        assert manual.state_bytes() == child.state_bytes()
        assert manual.to_json() == child.to_json()

    play(data, *scenario, each=each)


@SETTINGS
@given(scenario=scenarios, data=st.data())
def test_apply_then_undo_restores(scenario: tuple[Any, ...], data: st.DataObject) -> None:
    def each(state: Any, legal: list[Any], move: Any) -> None:
        before = snapshot(state)
        state.apply(move)
        after = snapshot(state)
        assert state.undo() == move
        assert snapshot(state) == before, f"apply + undo of {move} changed the state"
        # applying it again gives the same result (chance drawn alike from the same RNG)
        state.apply(move)
        assert snapshot(state) == after
        state.undo()

    play(data, *scenario, each=each)


@SETTINGS
@given(scenario=scenarios, data=st.data())
def test_same_seed_same_moves_same_bytes(scenario: tuple[Any, ...],
                                         data: st.DataObject) -> None:
    config, seed, auto_chance, _, _ = scenario
    state, played = play(data, *scenario)
    game = GAMES[config]
    again = game.new_game(seed=seed, auto_chance=auto_chance)
    for move in played:
        again.apply(str(move))
    assert again.state_bytes() == state.state_bytes()
    assert again.to_json() == state.to_json()
    assert again == state
    third = GAMES[config].new_game(seed=seed, auto_chance=auto_chance)
    for move in played:
        third.apply(move)
    assert third.state_bytes() == state.state_bytes()


# --------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------

def check_views(state: Any) -> None:
    game = state.game
    raw = state._raw()
    n = game.num_players
    for viewer in [None, *range(n)]:
        view = state.view(viewer)
        json.dumps(view, allow_nan=False)  # JSON-ready
        assert view["viewer"] == viewer
        known = set(raw["known"][viewer]) if viewer is not None else set()
        assert len(view["squares"]) == game.board.width * game.board.height
        for c, square in enumerate(view["squares"]):
            owner = raw["owner"][c]
            warrior = square["warrior"]
            if owner < 0:
                assert warrior is None
                continue
            assert warrior["owner"] == owner
            shown = warrior["strength"]
            if shown is not None:
                assert shown == raw["strength"][c]
            if raw["face_up"][c] or state.is_terminal():
                # rule 5, victory: at the end every warrior is turned over, for everyone
                assert shown == raw["strength"][c], "a face-up warrior is hidden"
            elif owner != viewer and c not in known:
                assert shown is None, (
                    f"viewer {viewer} sees the strength of player {owner}'s face-down "
                    f"warrior on {square['square']}")
        for q, player in enumerate(view["players"]):
            if q != viewer:
                assert player["pool"] is None, f"viewer {viewer} sees player {q}'s screen"
        if viewer != state.current_player:
            assert view["legal_moves"] == [], "another player's legal moves are shown"
        if "peek" in view:
            assert viewer is not None
            cells = [c for c, sq in enumerate(view["squares"])
                     if sq["square"] == view["peek"]["square"]]
            assert cells and cells[0] in known


view_scenarios = st.tuples(
    st.sampled_from(CONFIGS),
    st.integers(min_value=0, max_value=2**64 - 1),
    st.booleans(),
    st.integers(min_value=0, max_value=160),
    st.booleans(),
)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(scenario=view_scenarios, data=st.data())
def test_views_hide_face_down_strengths(scenario: tuple[Any, ...],
                                        data: st.DataObject) -> None:
    def each(state: Any, legal: list[Any], move: Any) -> None:
        check_views(state)

    state, _ = play(data, *scenario, each=each)
    check_views(state)
