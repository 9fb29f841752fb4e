"""Albion's position format: text a person can write and read (docs/albion.rst,
"Position format"), written from the core's ``export`` and parsed back into it.

One line per part, ``label: name value; name value; ...``::

    albion: 2 players
    state: phase move; round 1; turn 0; current 0; setup 2
    turn: points 2; started no; moved no; spent 0; launched -
    region port: buildings rampart 1 | rampart 1; settlers 1 1; legions 0 0; picts 0 0
    ...                                   (every region, in board order)
    player 0: fish 3; wood 1; stone 0; gold 0; neutral 1; owe 0 0
    ...
    supply: fish 18; wood 19; stone 20; gold 18; neutral 22
    picts: assault 16; peace 10; box 0
    build: -
    end: triggered no; winners -; reason -
    counters: moves 2; last 7

The text is canonical: writing what was parsed gives the same text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from boardrules._ext.albion import END_REASONS, PHASES, TYPES
from boardrules.errors import InvalidPositionError

RESOURCES = ("fish", "wood", "stone", "gold")
_YES_NO = {"yes": True, "no": False}


def _yn(flag: Any) -> str:
    return "yes" if flag else "no"


def _ints(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def _list(values: Sequence[Any], word: Callable[[Any], str] = str) -> str:
    return " ".join(word(v) for v in values) if values else "-"


def position_text(raw: dict[str, Any], region_keys: Sequence[str]) -> str:
    """The position text of ``raw`` (the core's export)."""
    players = len(raw["res"])
    lines = [f"albion: {players} players",
             f"state: phase {PHASES[raw['phase']]}; round {raw['round']}; "
             f"turn {raw['turn_player']}; current {raw['current']}; "
             f"setup {raw['setup_done']}",
             f"turn: points {raw['points']}; started {_yn(raw['started'])}; "
             f"moved {_yn(raw['moved'])}; spent {raw['spent']}; "
             f"launched {_list(raw['launched'], lambda r: region_keys[r])}"]
    for r, key in enumerate(region_keys):
        buildings = " | ".join(
            f"{TYPES[raw['btype'][r][p]]} {raw['bstage'][r][p]}" if raw["btype"][r][p]
            else "-" for p in range(players))
        lines.append(f"region {key}: buildings {buildings}; "
                     f"settlers {_ints(raw['settlers'][r])}; "
                     f"legions {_ints(raw['legions'][r])}; "
                     f"picts {raw['face_down'][r]} {raw['face_up'][r]}")
    for p in range(players):
        hand = "; ".join(f"{kind} {raw['res'][p][k]}" for k, kind in enumerate(RESOURCES))
        lines.append(f"player {p}: {hand}; neutral {raw['neutral'][p]}; "
                     f"owe {_ints(raw['owe'][p])}")
    supply = "; ".join(f"{kind} {raw['supply'][k]}" for k, kind in enumerate(RESOURCES))
    lines.append(f"supply: {supply}; neutral {raw['neutral_supply']}")
    lines.append(f"picts: assault {raw['pool_assault']}; peace {raw['pool_peace']}; "
                 f"box {raw['box_peace']}")
    if raw["b_type"] or raw["b_stage"] or raw["b_region"] or raw["b_lost"] or raw["b_free"]:
        paid = [kind for k, kind in enumerate(RESOURCES) if raw["b_paid"] >> k & 1]
        lines.append(f"build: region {region_keys[raw['b_region']]}; "
                     f"type {TYPES[raw['b_type']] or '-'}; stage {raw['b_stage']}; "
                     f"free {_yn(raw['b_free'])}; lost {_yn(raw['b_lost'])}; "
                     f"paid {'+'.join(paid) or '-'}; "
                     f"tributed {_list(raw['tribute_done'])}; "
                     f"takers {_list(raw['tribute_takers'])}")
    else:
        lines.append("build: -")
    lines.append(f"end: triggered {_yn(raw['end_triggered'])}; "
                 f"winners {_list(raw['winners'])}; "
                 f"reason {END_REASONS[raw['end_reason']] or '-'}")
    lines.append(f"counters: moves {raw['move_count']}; last {raw['last_action']}")
    return "\n".join(lines) + "\n"


class _Line:
    """One ``label: name value; ...`` line: its parts by name, each read once."""

    def __init__(self, label: str, body: str) -> None:
        self.label = label
        self.parts: dict[str, str] = {}
        if body.strip() == "-":
            return
        for part in body.split(";"):
            name, _, value = part.strip().partition(" ")
            if not name or name in self.parts:
                raise InvalidPositionError(label, f"part {name!r} missing or repeated")
            self.parts[name] = value.strip()

    def take(self, name: str) -> str:
        if name not in self.parts:
            raise InvalidPositionError(f"{self.label}.{name}", "missing")
        return self.parts.pop(name)

    def number(self, name: str) -> int:
        return _int(self.take(name), f"{self.label}.{name}")

    def flag(self, name: str) -> bool:
        value = self.take(name)
        if value not in _YES_NO:
            raise InvalidPositionError(f"{self.label}.{name}", "yes or no")
        return _YES_NO[value]

    def ints(self, name: str, count: int) -> list[int]:
        words = self.take(name).split()
        if len(words) != count:
            raise InvalidPositionError(f"{self.label}.{name}", f"{count} numbers")
        return [_int(w, f"{self.label}.{name}") for w in words]

    def done(self) -> None:
        if self.parts:
            raise InvalidPositionError(f"{self.label}.{next(iter(self.parts))}",
                                       "not a part of this line")


def _int(word: str, field: str) -> int:
    if not (word.isascii() and word.lstrip("-").isdigit()) or len(word) > 12:
        raise InvalidPositionError(field, f"{word!r} is not a number")
    return int(word)


def _word(word: str, choices: Sequence[str], field: str) -> int:
    if word not in choices:
        raise InvalidPositionError(field, f"{word!r} is not one of {', '.join(choices)}")
    return list(choices).index(word)


def _players(text: str, field: str) -> list[int]:
    return [] if text == "-" else [_int(w, field) for w in text.split()]


def position_raw(text: str, region_keys: Sequence[str], players: int) -> dict[str, Any]:
    """Parse position text into the core's export form (InvalidPositionError naming
    the field).  Ranges and consistency are checked by the core's ``load``."""
    lines: dict[str, _Line] = {}
    for number, row in enumerate(text.splitlines(), start=1):
        if not row.strip():
            continue
        label, colon, body = row.partition(":")
        label = " ".join(label.split())
        if not colon:
            raise InvalidPositionError(f"line {number}", "'label: parts' expected")
        if label in lines:
            raise InvalidPositionError(label, "repeated")
        lines[label] = _Line(label, body)

    def line(label: str) -> _Line:
        if label not in lines:
            raise InvalidPositionError(label, "missing line")
        return lines.pop(label)

    header = line("albion")
    if list(header.parts.items()) != [(str(players), "players")]:
        raise InvalidPositionError("albion", f"this game has {players} players")
    header.parts.clear()
    raw: dict[str, Any] = {}
    state = line("state")
    raw["phase"] = _word(state.take("phase"), PHASES, "state.phase")
    raw["round"] = state.number("round")
    raw["turn_player"] = state.number("turn")
    raw["current"] = state.number("current")
    raw["setup_done"] = state.number("setup")
    state.done()
    turn = line("turn")
    raw["points"] = turn.number("points")
    raw["started"] = turn.flag("started")
    raw["moved"] = turn.flag("moved")
    raw["spent"] = turn.number("spent")
    launched = turn.take("launched")
    raw["launched"] = [] if launched == "-" else [
        _word(k, region_keys, "turn.launched") for k in launched.split()]
    turn.done()
    for name in ("btype", "bstage", "settlers", "legions", "face_down", "face_up"):
        raw[name] = []
    for key in region_keys:
        region = line(f"region {key}")
        cells = [c.strip() for c in region.take("buildings").split("|")]
        if len(cells) != players:
            raise InvalidPositionError(f"region {key}.buildings", f"{players} cells")
        types, stages = [], []
        for cell in cells:
            if cell == "-":
                types.append(0)
                stages.append(0)
                continue
            kind, _, stage = cell.partition(" ")
            types.append(_word(kind, TYPES[1:], f"region {key}.buildings") + 1)
            stages.append(_int(stage.strip(), f"region {key}.buildings"))
        raw["btype"].append(types)
        raw["bstage"].append(stages)
        raw["settlers"].append(region.ints("settlers", players))
        raw["legions"].append(region.ints("legions", players))
        down, up = region.ints("picts", 2)
        raw["face_down"].append(down)
        raw["face_up"].append(up)
        region.done()
    raw["res"], raw["neutral"], raw["owe"] = [], [], []
    for p in range(players):
        player = line(f"player {p}")
        raw["res"].append([player.number(kind) for kind in RESOURCES])
        raw["neutral"].append(player.number("neutral"))
        raw["owe"].append(player.ints("owe", 2))
        player.done()
    supply = line("supply")
    raw["supply"] = [supply.number(kind) for kind in RESOURCES]
    raw["neutral_supply"] = supply.number("neutral")
    supply.done()
    picts = line("picts")
    raw["pool_assault"] = picts.number("assault")
    raw["pool_peace"] = picts.number("peace")
    raw["box_peace"] = picts.number("box")
    picts.done()
    build = line("build")
    if not build.parts:
        raw.update(b_region=0, b_type=0, b_stage=0, b_free=False, b_lost=False, b_paid=0,
                   tribute_done=[], tribute_takers=[])
    else:
        raw["b_region"] = _word(build.take("region"), region_keys, "build.region")
        kind = build.take("type")
        raw["b_type"] = 0 if kind == "-" else _word(kind, TYPES[1:], "build.type") + 1
        raw["b_stage"] = build.number("stage")
        raw["b_free"] = build.flag("free")
        raw["b_lost"] = build.flag("lost")
        paid = build.take("paid")
        raw["b_paid"] = 0 if paid == "-" else sum(
            1 << _word(k, RESOURCES, "build.paid") for k in set(paid.split("+")))
        raw["tribute_done"] = _players(build.take("tributed"), "build.tributed")
        raw["tribute_takers"] = _players(build.take("takers"), "build.takers")
        build.done()
    end = line("end")
    raw["end_triggered"] = end.flag("triggered")
    raw["winners"] = _players(end.take("winners"), "end.winners")
    reason = end.take("reason")
    raw["end_reason"] = 0 if reason == "-" else _word(reason, END_REASONS[1:],
                                                      "end.reason") + 1
    end.done()
    counters = line("counters")
    raw["move_count"] = counters.number("moves")
    raw["last_action"] = counters.number("last")
    counters.done()
    if lines:
        raise InvalidPositionError(next(iter(lines)), "not a line of an Albion position")
    return raw


def figures_on_board(raw: dict[str, Any], player: int) -> tuple[int, int]:
    """``player``'s settlers and legionnaires on the board, and how many play leaves
    there (docs/albion.rst, A18): figures enter the board only with the starting settler
    and a settlement stage I or II ("The player takes a new play figure"; a settlement
    III or IV stands on its I and II), and leave it only when such a stage is reduced or
    removed ("returns this back to his play area").  Between the two, a reduced
    settlement's figure may still be owed (``owe``, the loss phase), and a settlement
    just built may still have its figure to bring (the ``figure`` phase)."""
    settlement = TYPES.index("settlement")
    on_board = (sum(row[player] for row in raw["settlers"])
                + sum(row[player] for row in raw["legions"]))
    stages = sum(min(stages_row[player], 2)
                 for types_row, stages_row in zip(raw["btype"], raw["bstage"], strict=True)
                 if types_row[player] == settlement)
    owed = raw["owe"][player][1]
    to_bring = int(PHASES[raw["phase"]] == "figure" and raw["turn_player"] == player)
    return on_board, 1 + stages + owed - to_bring


def check_figures(raw: dict[str, Any], players: int) -> None:
    """InvalidPositionError naming ``figures[p]`` when a colour's figures on the board
    are not what play leaves there (:func:`figures_on_board`)."""
    for player in range(players):
        counted, expected = figures_on_board(raw, player)
        if counted != expected:
            raise InvalidPositionError(
                f"figures[{player}]", f"counts {counted}, the game has {expected} (the "
                "starting settler, one a settlement stage I or II, the figures owed)")
