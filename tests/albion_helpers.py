"""A small Albion board of the shipped schema and helpers for staging positions (by
editing the position in the core's export form: see ``stage_position``).

Regions (index: key, kind)::

    12 mine(gold)
     |        \\
    10 peak* - 11 glen*          * laurel (dark)
     |       /
     9 crag* - 8 quarry(stone)
     |      /
     7 glade(light)
    /        \\
   5 moor     6 hill - 4 forest(wood)
   |          |      /
   1 westgate - 2 eastgate        (start regions)
     \\       /
   3 fishery - 0 port(launch)     (fishery borders port only)

Borders also: moor-hill, westgate-eastgate.  Sea: fishery-moor (facing, never crossed).
Picts (2p/3p/4p): moor 6/7/8 (1 printed assault), hill 6/7/8, crag 4/5/6, peak 4/5/6,
glen 4/4/5.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardrules.games.albion import AlbionGame, AlbionState

REGIONS = [
    ("port", "launch", 500, 950), ("westgate", "start", 400, 850),
    ("eastgate", "start", 600, 850), ("fishery", "fish", 300, 940),
    ("forest", "wood", 800, 760), ("moor", "dark", 380, 720), ("hill", "dark", 620, 720),
    ("glade", "light", 500, 600), ("quarry", "stone", 700, 500), ("crag", "dark", 480, 460),
    ("peak", "dark", 420, 300), ("glen", "dark", 600, 300), ("mine", "gold", 500, 120),
]
PICTS = {"moor": [6, 7, 8], "hill": [6, 7, 8], "crag": [4, 5, 6], "peak": [4, 5, 6],
         "glen": [4, 4, 5]}
BORDERS = [("port", "westgate"), ("port", "eastgate"), ("port", "fishery"),
           ("westgate", "eastgate"), ("westgate", "moor"), ("eastgate", "hill"),
           ("eastgate", "forest"), ("moor", "hill"), ("moor", "glade"), ("hill", "glade"),
           ("hill", "forest"), ("glade", "quarry"), ("glade", "crag"), ("quarry", "crag"),
           ("crag", "peak"), ("crag", "glen"), ("peak", "glen"), ("peak", "mine"),
           ("glen", "mine")]
LAURELS = ("crag", "peak", "glen")


def test_board() -> dict[str, Any]:
    regions = []
    for key, kind, x, y in REGIONS:
        entry: dict[str, Any] = {"key": key, "name": key.title(), "kind": kind,
                                 "laurel": key in LAURELS, "x": x, "y": y,
                                 "printed_assault": 1 if key == "moor" else 0}
        if kind == "dark":
            entry["picts"] = PICTS[key]
        regions.append(entry)
    return {"format": "boardrules-board", "format_version": 1, "game": "albion",
            "name": "test", "title": "Test board", "provenance": "user",
            "sources": ["tests"], "regions": regions,
            "borders": [list(b) for b in BORDERS], "sea": [["fishery", "moor"]]}


TEST_BOARD = test_board()
INDEX = {key: i for i, (key, *_rest) in enumerate(REGIONS)}
KINDS = ("fish", "wood", "stone", "gold")
TYPES = ("", "settlement", "fortress", "rampart", "plant")


def new_game(players: int = 2, fortresses: tuple[str, ...] = (), **options: Any
             ) -> AlbionState:
    """A game on the test board, chance not automatic, the starting fortresses placed
    (``fortresses`` in turn order, default all in westgate)."""
    game = AlbionGame(players, board=TEST_BOARD, **options)
    state = game.new_game(seed=1, auto_chance=False)
    for p in range(players):
        state.apply(f"fortress {fortresses[p] if fortresses else 'westgate'}")
    return state


def stage_position(state: AlbionState, change: Callable[[dict[str, Any]], None]) -> None:
    """Stage a position: ``change`` edits the whole truth (the core's export form), which
    becomes ``state``'s position through the core's checked ``load`` (types, ranges,
    contents' limits, the phase's coherence; the conservation counts are left to the
    test, which checks ``invariants()`` where it matters).  The state starts there: no
    history before it, the position as its start."""
    game = state.game
    whole = game._core.export(state._core)
    change(whole)
    core = game._core.new_state()
    core.seed(1)
    game._core.load(core, whole)
    core.run_auto(state.auto_chance, state.auto_forced)     # a staged forced step
    state._core = core
    state._start = game._position_text(game._core.export(core))
    state._log = None
    state._log_shared = False
    state._events_log = []


def _index(i: str | int) -> int:
    return INDEX[i] if isinstance(i, str) and i in INDEX else (
        KINDS.index(i) if isinstance(i, str) else i)


def edit(state: AlbionState, field: str, value: int, *index: str | int) -> None:
    """Set one field of the position (region keys and resource names allowed as
    indices)."""
    idx = [_index(i) for i in index]

    def change(whole: dict[str, Any]) -> None:
        if not idx:
            whole[field] = value
        elif len(idx) == 1:
            whole[field][idx[0]] = value
        else:
            whole[field][idx[0]][idx[1]] = value

    stage_position(state, change)


def building(state: AlbionState, region: str, player: int, kind: str, stage_: int) -> None:
    """Put ``player``'s building of ``kind`` and ``stage_`` in ``region`` (0: none)."""
    r = INDEX[region]

    def change(whole: dict[str, Any]) -> None:
        whole["btype"][r][player] = TYPES.index(kind) if stage_ else 0
        whole["bstage"][r][player] = stage_

    stage_position(state, change)


def give(state: AlbionState, player: int, **counts: int) -> None:
    """Set ``player``'s resources (the supply absorbs the difference)."""

    def change(whole: dict[str, Any]) -> None:
        for kind, n in counts.items():
            k = KINDS.index(kind)
            whole["supply"][k] += whole["res"][player][k] - n
            whole["res"][player][k] = n

    stage_position(state, change)


def figures(state: AlbionState, region: str, player: int, settlers: int | None = None,
            legions: int | None = None) -> None:
    r = INDEX[region]

    def change(whole: dict[str, Any]) -> None:
        if settlers is not None:
            whole["settlers"][r][player] = settlers
        if legions is not None:
            whole["legions"][r][player] = legions

    stage_position(state, change)


def play(state: AlbionState, *moves: str) -> None:
    for move in moves:
        state.apply(move)


def legal(state: AlbionState) -> set[str]:
    return {str(m) for m in state.legal_moves()}


def raw(state: AlbionState) -> dict[str, Any]:
    return state._raw()
