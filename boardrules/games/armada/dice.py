"""Armada's three special dice as data: the faces of the combat, gold and tribes dice.

Dice files live in ``dice/`` (``reconstructed`` is the project's choice: no public source
gives the printed faces).  A user may pass the name of a shipped file, the path of a dice
file of his own, or the same content as a mapping; every field is checked and a bad one
raises :class:`~boardrules.errors.BoardDataError` naming it (``combat[2].attackers: ...``).

Each die has :data:`FACES` faces, listed in file order (face ``i`` is entry ``i``):

* ``combat``: ``{"defenders": d, "attackers": a}``: the cannons that fire (``d``
  defenders eliminated) and the crossed-out cannons (``a`` attackers eliminated);
* ``gold``: the ingots on each face, the number of gold found;
* ``tribes``: the spears on each face, the number of native tribes found.

What a dice file must satisfy: every value an integer 0 to :data:`MAX_FACE_VALUE`; the
gold and tribes dice each have exactly one blank face (0) and the others show 1 or more
("Each die has one blank face", rulebook, "Discovery of Gold and Natives").  That the
combat die favours the attacker (outside sources) is a property of the shipped file, not
checked here: a user's die may be fair or favour the defender.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardrules.games.armada.board import (
    HEADER_FIELDS,
    MAX_FILE_BYTES,
    parse_header,
)
from boardrules.games.board_files import (
    fail,
    get_field,
    known_fields,
    load_board_spec,
    shipped_names,
)

DICE_DIR = Path(__file__).parent / "dice"
DEFAULT_DICE = "reconstructed"
FACES = 6
MAX_FACE_VALUE = 3
FIELDS = (*HEADER_FIELDS, "combat", "gold", "tribes")
COMBAT_FIELDS = ("defenders", "attackers")


@dataclass(frozen=True)
class Dice:
    """A validated set of dice; each die's faces in file order.  A ``combat`` face is
    ``(defenders, attackers)``: how many of each it eliminates."""

    name: str
    title: str
    provenance: str
    sources: tuple[str, ...]
    combat: tuple[tuple[int, int], ...]
    gold: tuple[int, ...]
    tribes: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The dice as a file's content; ``parse_dice`` of it gives equal dice."""
        return {
            "format": "boardrules-dice",
            "format_version": 1,
            "game": "armada",
            "name": self.name,
            "title": self.title,
            "provenance": self.provenance,
            "sources": list(self.sources),
            "combat": [{"defenders": d, "attackers": a} for d, a in self.combat],
            "gold": list(self.gold),
            "tribes": list(self.tribes),
        }


def shipped_dice() -> list[str]:
    """Names of the dice files that come with the library."""
    return shipped_names(DICE_DIR)


def load_dice(spec: str | os.PathLike[str] | Mapping[str, Any]) -> Dice:
    """Dice by shipped name, file path, or as a mapping of the file's fields."""
    return load_board_spec(spec, DICE_DIR, MAX_FILE_BYTES, parse_dice, "dice")


def parse_dice(doc: Mapping[str, Any], where: str) -> Dice:
    """Validate the fields of a dice file (see the module docstring) and build the
    :class:`Dice`."""
    head = parse_header(doc, where, "boardrules-dice", FIELDS)
    combat = _faces(doc, "combat", where)
    faces: list[tuple[int, int]] = []
    for i, raw in enumerate(combat):
        at = f"combat[{i}]"
        if not isinstance(raw, Mapping):
            raise fail(where, at, "must be an object {\"defenders\": d, \"attackers\": a}")
        known_fields(raw, COMBAT_FIELDS, where, at)
        faces.append((_value(raw, "defenders", where, f"{at}.defenders"),
                      _value(raw, "attackers", where, f"{at}.attackers")))
    gold = _exploration_die(doc, "gold", where)
    tribes = _exploration_die(doc, "tribes", where)
    return Dice(head.name, head.title, head.provenance, head.sources, tuple(faces), gold,
                tribes)


def _faces(doc: Mapping[str, Any], key: str, where: str) -> list[Any]:
    faces: list[Any] = get_field(doc, key, list, where)
    if len(faces) != FACES:
        raise fail(where, key, f"lists {len(faces)} faces, a die has {FACES}")
    return faces


def _value(raw: Mapping[str, Any], key: str, where: str, label: str) -> int:
    value: int = get_field(raw, key, int, where, label)
    if not 0 <= value <= MAX_FACE_VALUE:
        raise fail(where, label, f"{value} must be 0 to {MAX_FACE_VALUE}")
    return value


def _exploration_die(doc: Mapping[str, Any], key: str, where: str) -> tuple[int, ...]:
    """The gold or tribes die: one blank face, the others 1 to MAX_FACE_VALUE."""
    faces = _faces(doc, key, where)
    values = tuple(_value({"face": v}, "face", where, f"{key}[{i}]")
                   for i, v in enumerate(faces))
    blanks = values.count(0)
    if blanks != 1:
        raise fail(where, key, f"has {blanks} blank faces, the die has exactly one")
    return values
