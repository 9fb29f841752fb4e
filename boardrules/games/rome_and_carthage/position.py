"""Rome & Carthage positions as text (the docs page's "Position format"): write the core's
``export`` dict as text a person can read and edit, and parse such text back into the
dict the core's ``load`` checks.

The text is a header line, one ``city <key>: ...`` line per city holding an army, then
``field: value`` lines in a fixed order; a field at its default value is not written
(and may be left out), so the text is canonical: writing what was parsed gives the same
text.  Card counts are written as the card values they hold (``0 0 4 15``, ``-`` for
none), cities by their keys, armies as ``<empire> <kind>``.  Parsing checks the form of
each line and value (InvalidPositionError naming the field); the rules' checks -- what
play could have made -- are the core's ``load``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from boardrules._ext.rome_and_carthage import END_REASONS, KINDS, PHASES
from boardrules.errors import InvalidPositionError
from boardrules.games.rome_and_carthage.board import EMPIRES
from boardrules.games.rome_and_carthage.moves import CARD_VALUES

if TYPE_CHECKING:
    from boardrules.games.rome_and_carthage.game import RomeCarthageGame

HEADER = "Rome & Carthage position"
NONE = "-"
SIDES = ("attacker", "defender")
PAY_FOR = ("march", "ally", "ally_march")
ASKED = ("none", "treason", "ally")
CONTEXTS = ("move", "treason")
ROUND_KINDS = ("full", "replay", "tie")
_LINE = re.compile(r"([a-z_0-9]+)(?:\[([a-z0-9]+)\])?: (.+)")
_CITY_LINE = re.compile(r"city ([a-z][a-z0-9_]*): (.+)")


class _Codec:
    """How one field's value is written and read: ``write(game, value) -> str`` and
    ``read(game, text) -> value`` (ValueError with the reason for text it cannot read)."""

    def __init__(self, write: Callable[[RomeCarthageGame, Any], str],
                 read: Callable[[RomeCarthageGame, str], Any]) -> None:
        self.write = write
        self.read = read


def _read_int(game: RomeCarthageGame, text: str) -> int:
    if not re.fullmatch(r"-?[0-9]{1,10}", text):
        raise ValueError(f"{text!r} is not a whole number")
    return int(text)


def _read_ints(game: RomeCarthageGame, text: str) -> list[int]:
    return [_read_int(game, word) for word in text.split(" ")]


def _read_bool(game: RomeCarthageGame, text: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError("yes or no")
    return text == "yes"


def _write_cards(game: RomeCarthageGame, counts: list[int]) -> str:
    words = [str(CARD_VALUES[v]) for v, n in enumerate(counts) for _ in range(n)]
    return " ".join(words) or NONE


def _read_cards(game: RomeCarthageGame, text: str) -> list[int]:
    counts = [0] * len(CARD_VALUES)
    for v in _read_values(game, text):
        counts[v] += 1
    return counts


def _write_values(game: RomeCarthageGame, indices: list[int]) -> str:
    return " ".join(str(CARD_VALUES[v]) for v in indices) or NONE


def _read_values(game: RomeCarthageGame, text: str) -> list[int]:
    if text == NONE:
        return []
    words = text.split(" ")
    if len(words) > 60:
        raise ValueError("more cards than the deck has")
    indices = []
    for word in words:
        if word not in _VALUE_INDEX:
            raise ValueError(f"{word!r} is not a card value (0 to 10, 15)")
        indices.append(_VALUE_INDEX[word])
    return indices


_VALUE_INDEX = {str(value): v for v, value in enumerate(CARD_VALUES)}


def _write_card_value(game: RomeCarthageGame, v: int) -> str:
    return str(CARD_VALUES[v])


def _read_card_value(game: RomeCarthageGame, text: str) -> int:
    if text not in _VALUE_INDEX:
        raise ValueError(f"{text!r} is not a card value (0 to 10, 15)")
    return _VALUE_INDEX[text]


def _write_city(game: RomeCarthageGame, city: int) -> str:
    return NONE if city < 0 else game.board.cities[city].key


def _read_city(game: RomeCarthageGame, text: str) -> int:
    if text == NONE:
        return -1
    keys = [c.key for c in game.board.cities]
    if text not in keys:
        raise ValueError(f"{text!r} is not a city of this map")
    return keys.index(text)


def _write_army(game: RomeCarthageGame, code: int) -> str:
    return NONE if code < 0 else f"{EMPIRES[code // 4]} {KINDS[code % 4]}"


def _read_army(game: RomeCarthageGame, text: str) -> int:
    if text == NONE:
        return -1
    words = text.split(" ")
    if len(words) != 2 or words[0] not in EMPIRES or words[1] not in KINDS:
        raise ValueError(f"{text!r} is not '<empire> <kind>' (empires: "
                         f"{', '.join(EMPIRES)}; kinds: {', '.join(KINDS)})")
    return EMPIRES.index(words[0]) * 4 + KINDS.index(words[1])


def _enum(names: tuple[str, ...], offset: int = 0) -> _Codec:
    def read(game: RomeCarthageGame, text: str) -> int:
        if text not in names:
            raise ValueError(f"one of {', '.join(names)}")
        return names.index(text) + offset
    return _Codec(lambda game, value: names[value - offset], read)


def _write_action(game: RomeCarthageGame, action: int) -> str:
    return NONE if action < 0 else str(game._moves[action])


def _read_action(game: RomeCarthageGame, text: str) -> int:
    if text == NONE:
        return -1
    for move in game._moves:
        if str(move) == text:
            return move.action
    raise ValueError(f"{text!r} is not a move of this game")


INT = _Codec(lambda game, value: str(value), _read_int)
INTS = _Codec(lambda game, values: " ".join(str(v) for v in values), _read_ints)
BOOL = _Codec(lambda game, value: "yes" if value else "no", _read_bool)
CARDS = _Codec(_write_cards, _read_cards)
VALUES = _Codec(_write_values, _read_values)
CARD = _Codec(_write_card_value, _read_card_value)
CITY = _Codec(_write_city, _read_city)
ARMY = _Codec(_write_army, _read_army)
ACTION = _Codec(_write_action, _read_action)
WINNER = _Codec(lambda game, value: NONE if value < 0 else str(value),
                lambda game, text: -1 if text == NONE else _read_int(game, text))
END = _Codec(lambda game, value: END_REASONS[value] or NONE,
             lambda game, text: _enum(tuple(r or NONE for r in END_REASONS)).read(game, text))

#: The scalar fields, in the text's order: (name, codec, default or None if required).
SCALARS: tuple[tuple[str, _Codec, Any], ...] = (
    ("phase", _enum(PHASES), None),
    ("round", INT, None),
    ("turn_player", INT, None),
    ("current", INT, None),
    ("draws_left", INT, 0),
    ("moves_made", INT, 0),
    ("second_infantry", CITY, -1),
    ("march_used", BOOL, False),
    ("pay_for", _enum(PAY_FOR), 0),
    ("pay_sum", INT, 0),
    ("pay_last", CARD, len(CARD_VALUES) - 1),
    ("transit", ARMY, -1),
    ("transit_city", CITY, -1),
    ("transit_origin", CITY, -1),
    ("ally_city", CITY, -1),
    ("pass_bonus", BOOL, False),
    ("pass_draw", BOOL, False),
    ("asked", _enum(ASKED), 0),
    ("refused", INT, 0),
    ("context", _enum(CONTEXTS), 0),
    ("bcity", CITY, 0),
    ("round_kind", _enum(ROUND_KINDS), 0),
    ("commit_side", _enum(SIDES), 0),
    ("attacker_player", INT, 0),
    ("defender_player", INT, 0),
    ("spy_side", _enum(SIDES), 0),
    ("total", INTS, [0, 0]),
    ("removed", CARDS, [0] * len(CARD_VALUES)),
    ("fifteens_removed", INT, 0),
    ("fifteens_aside", INT, 0),
    ("treason", INTS, [0, 0, 0, 0]),
    ("uprising", INTS, [0, 0, 0, 0]),
    ("cap_status", INT, 0),
    ("quiet_turns", INT, 0),
    ("winner", WINNER, -1),
    ("end_reason", END, 0),
    ("last_action", ACTION, -1),
    ("last_turn", INT, 0),
    ("move_count", INT, 0),
)
_EMPTY = [0] * len(CARD_VALUES)
#: Fields with one line per player.
PER_PLAYER: tuple[tuple[str, _Codec, Any], ...] = (
    ("hand", CARDS, _EMPTY), ("known", CARDS, _EMPTY), ("unknown", INT, 0),
    ("lost", CARDS, _EMPTY), ("excluded", BOOL, False))
#: Fields with one line per team (Equal Arms has a pile and spent cards per team).
PER_TEAM: tuple[tuple[str, _Codec, Any], ...] = (
    ("pile", CARDS, _EMPTY), ("discard", CARDS, _EMPTY),
    ("clock_on", BOOL, False), ("clock_turns", INT, 0), ("clock_played", INT, 0),
    ("clock2_on", BOOL, False), ("clock2_turns", INT, 0), ("clock2_played", INT, 0))
#: Fields with one line per empire, indexed by the empire's name.
PER_EMPIRE: tuple[tuple[str, _Codec, Any], ...] = (
    ("unplaced", INTS, [0, 0, 0, 0]), ("placed", INT, 0))
#: Fields with one line per battle side, indexed attacker / defender.
PER_SIDE: tuple[tuple[str, _Codec, Any], ...] = (("commit", VALUES, []),)


def _indexed(game: RomeCarthageGame) -> list[tuple[str, list[str], _Codec, Any]]:
    """(field, index labels, codec, default) of the indexed fields, in the text's order."""
    players = [str(p) for p in range(game.num_players)]
    groups = ((PER_PLAYER, players), (PER_TEAM, ["0", "1"]), (PER_EMPIRE, list(EMPIRES)),
              (PER_SIDE, list(SIDES)))
    return [(name, labels, codec, default)
            for fields, labels in groups for name, codec, default in fields]


def _city_line(game: RomeCarthageGame, raw: dict[str, Any], c: int) -> str | None:
    """``city <key>: <army>[ from <city>][; attacker <army>[ from <city>]]``."""
    if raw["army"][c] < 0 and raw["attacker"][c] < 0:
        return None
    text = f"city {game.board.cities[c].key}: {_write_army(game, raw['army'][c])}"
    if raw["origin"][c] >= 0:
        text += f" from {_write_city(game, raw['origin'][c])}"
    if raw["attacker"][c] >= 0:
        text += f"; attacker {_write_army(game, raw['attacker'][c])}"
        if raw["att_origin"][c] >= 0:
            text += f" from {_write_city(game, raw['att_origin'][c])}"
    return text


def position_text(game: RomeCarthageGame, raw: dict[str, Any]) -> str:
    """The position's text (``raw`` is the core's ``export``)."""
    lines = [HEADER]
    for c in range(len(game.board.cities)):
        line = _city_line(game, raw, c)
        if line is not None:
            lines.append(line)
    for name, codec, default in SCALARS:
        if default is None or raw[name] != default:
            lines.append(f"{name}: {codec.write(game, raw[name])}")
    for name, labels, codec, default in _indexed(game):
        values = raw[name]
        for i, label in enumerate(labels):
            if values[i] != default:
                lines.append(f"{name}[{label}]: {codec.write(game, values[i])}")
    return "\n".join(lines) + "\n"


def position_raw(game: RomeCarthageGame, text: str) -> dict[str, Any]:
    """Parse position text into the core's ``load`` dict (InvalidPositionError naming the
    field for text that is not in the format)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0] != HEADER:
        raise InvalidPositionError("header", f"the first line is {HEADER!r}")
    n = len(game.board.cities)
    raw: dict[str, Any] = {"army": [-1] * n, "attacker": [-1] * n, "origin": [-1] * n,
                           "att_origin": [-1] * n}
    seen_cities: set[str] = set()
    fields: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        city = _CITY_LINE.fullmatch(line)
        if city:
            _parse_city(game, raw, city.group(1), city.group(2), seen_cities)
            continue
        match = _LINE.fullmatch(line)
        if not match:
            raise InvalidPositionError(f"line {number}", "not 'field: value' nor "
                                       "'city <key>: <army>'")
        key = match.group(1) + (f"[{match.group(2)}]" if match.group(2) else "")
        if key in fields:
            raise InvalidPositionError(key, "given twice")
        fields[key] = match.group(3)
    for name, codec, default in SCALARS:
        raw[name] = _parse_field(game, fields, name, codec, default)
    for name, labels, codec, default in _indexed(game):
        raw[name] = [_parse_field(game, fields, f"{name}[{label}]", codec, default)
                     for label in labels]
    if fields:
        raise InvalidPositionError(sorted(fields)[0], "not a field of the position format")
    return raw


def _parse_field(game: RomeCarthageGame, fields: dict[str, str], key: str, codec: _Codec,
                 default: Any) -> Any:
    if key not in fields:
        if default is None:
            raise InvalidPositionError(key, "missing")
        return list(default) if isinstance(default, list) else default
    try:
        return codec.read(game, fields.pop(key))
    except ValueError as exc:
        raise InvalidPositionError(key, str(exc)) from None


def _parse_city(game: RomeCarthageGame, raw: dict[str, Any], key: str, text: str,
                seen: set[str]) -> None:
    field = f"city {key}"
    try:
        c = _read_city(game, key)
    except ValueError as exc:
        raise InvalidPositionError(field, str(exc)) from None
    if key in seen:
        raise InvalidPositionError(field, "given twice")
    seen.add(key)
    resident, _, attacker = text.partition("; attacker ")
    try:
        raw["army"][c], raw["origin"][c] = _army_from(game, resident)
        if attacker:
            raw["attacker"][c], raw["att_origin"][c] = _army_from(game, attacker)
    except ValueError as exc:
        raise InvalidPositionError(field, str(exc)) from None
    if raw["army"][c] < 0:
        raise InvalidPositionError(field, "a city line names the army there")


def _army_from(game: RomeCarthageGame, text: str) -> tuple[int, int]:
    """``<empire> <kind>[ from <city>]`` -> (army code, origin city or -1)."""
    army, _, origin = text.partition(" from ")
    return _read_army(game, army), (_read_city(game, origin) if origin else -1)
