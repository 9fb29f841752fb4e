"""Armadora's position format: text a person can write and read (the docs page, section
"Position format", describes it field by field).

One ``key: value`` line per field, then one line per warrior::

    Armadora position
    board: printed
    players: 2
    variant: basic
    phase: turn
    to move: 0
    move: 10
    last: gold 3
    passed: none
    gold: d1 5, b2 4, f2 6, h2 7, a4 4, e4 6, c5 5, g5 3
    palisades: none
    c3: player 0, strength 2

What the rules derive from the rest is not written: the warriors behind each screen (the
player's set less his warriors on the board), the unplaced gold piles, the palisades in
the supply, the reinforcement tokens still held.  The core's ``load`` checks the whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardrules.errors import InvalidPositionError
from boardrules.games.armadora.moves import RACES, normalise

if TYPE_CHECKING:
    from boardrules.games.armadora.game import ArmadoraGame

HEADER = "Armadora position"
PHASES = ("gold", "race", "turn", "after_power", "second_palisade", "over")
KEYS = ("board", "players", "variant", "phase", "to move", "move", "last", "passed", "gold",
        "palisades")
# rule 2.3 (setup): each player's warriors by strength, per player count
WARRIOR_SETS = {2: (11, 2, 1, 1, 1), 3: (7, 2, 1, 1, 0), 4: (5, 1, 1, 1, 0)}
GOLD_PILES = (3, 4, 4, 5, 5, 6, 6, 7)  # rule 2.5 (setup)
PALISADES = 35  # rule 1 (components)


def _none_or(items: list[str]) -> str:
    return ", ".join(items) if items else "none"


def position_text(game: ArmadoraGame, raw: dict[str, Any]) -> str:
    """The canonical text of the position ``raw`` (the core's export)."""
    square = game.square
    layout = game._core.layout
    lines = [
        HEADER,
        f"board: {game.board.name}",
        f"players: {game.num_players}",
        f"variant: {game._options['variant']}",
        f"phase: {PHASES[raw['phase']]}",
        f"to move: {raw['current']}",
        f"move: {raw['move_count']}",
        f"last: {'-' if raw['last_action'] < 0 else game._moves[raw['last_action']]}",
        "passed: " + (" ".join(str(p) for p, gone in enumerate(raw["passed"]) if gone)
                      or "none"),
        "gold: " + ", ".join(f"{square(c)} {raw['gold'][c] or '-'}"
                             for c in game.board.mine_cells),
        "palisades: " + _none_or([str(game._moves[layout["palisade"] + e])
                                  for e in raw["palisades"]]),
    ]
    if game.advanced:
        for p in range(game.num_players):
            race = raw["race"][p]
            peeked = " ".join(square(c) for c in raw["known"][p]) or "none"
            lines.append(f"player {p}: race {'none' if race is None else RACES[race]}, "
                         f"tokens {raw['power_tokens'][p]}, peeked {peeked}")
    for c, owner in enumerate(raw["owner"]):
        if owner < 0:
            continue
        parts = [f"player {owner}", f"strength {raw['strength'][c]}"]
        if raw["face_up"][c]:
            parts.append("face up")
        if raw["arrows"][c]:
            parts.append(f"arrows {raw['arrows'][c]}")
        if raw["reinforced"][c]:
            parts.append("reinforced")
        lines.append(f"{square(c)}: {', '.join(parts)}")
    return "\n".join(lines) + "\n"


class _Reader:
    """The fields of one position text, each checked as it is read."""

    def __init__(self, game: ArmadoraGame, text: str) -> None:
        self.game = game
        ncells = game.board.width * game.board.height
        self.cells = {game.square(c): c for c in range(ncells)}
        lines = [line.strip() for line in text.splitlines()]
        lines = [line for line in lines if line and not line.startswith("#")]
        if not lines or " ".join(lines[0].lower().split()) != HEADER.lower():
            raise InvalidPositionError("", f"an Armadora position starts with the line "
                                       f"{HEADER!r}")
        self.fields: dict[str, str] = {}
        for line in lines[1:]:
            key, colon, value = line.partition(":")
            key = " ".join(key.lower().split())
            if not colon:
                raise InvalidPositionError(key[:20], "a line is 'key: value'")
            if key in self.fields:
                raise InvalidPositionError(key, "given twice")
            if key not in KEYS and key not in self.cells and not self._player_key(key):
                raise InvalidPositionError(key[:20], "not a field of an Armadora position "
                                           f"(fields: {', '.join(KEYS)}, 'player N', "
                                           "and a square per warrior)")
            self.fields[key] = " ".join(value.split())
        for key in KEYS:
            if key not in self.fields:
                raise InvalidPositionError(key, "missing")

    def _player_key(self, key: str) -> bool:
        name, _, number = key.partition(" ")
        return name == "player" and number in {str(p) for p in range(self.game.num_players)}

    def number(self, key: str, value: str, hi: int) -> int:
        # ASCII digits only: str.isdigit() also takes '²', which int() refuses
        if not (value.isascii() and value.isdigit()) or len(value) > 9:
            raise InvalidPositionError(key, f"{value!r} is not a whole number")
        number = int(value)
        if number > hi:
            raise InvalidPositionError(key, f"{number} is out of range (0 to {hi})")
        return number

    def square(self, key: str, name: str) -> int:
        cell = self.cells.get(name.lower())
        if cell is None:
            raise InvalidPositionError(key, f"{name!r} is not a square of this board")
        return cell

    def listed(self, key: str) -> list[str]:
        value = self.fields.get(key, "none")
        return [] if value.lower() == "none" else [v.strip() for v in value.split(",")]


def position_raw(game: ArmadoraGame, text: str) -> dict[str, Any]:
    """Parse position text into the core's export form (InvalidPositionError naming the
    field); the parts the text does not write are derived here and checked by the core."""
    read = _Reader(game, text)
    fields = read.fields
    n = game.num_players
    ncells = game.board.width * game.board.height
    for key, expected in (("board", game.board.name), ("players", str(n)),
                          ("variant", game._options["variant"])):
        if fields[key].lower() != expected.lower():
            raise InvalidPositionError(key, f"this game's is {expected!r}, not "
                                       f"{fields[key]!r}")
    phase_name = fields["phase"].lower()
    if phase_name not in PHASES:
        raise InvalidPositionError("phase", f"one of {', '.join(PHASES)}")
    raw: dict[str, Any] = {"phase": PHASES.index(phase_name)}
    raw["current"] = read.number("to move", fields["to move"], n - 1)
    raw["move_count"] = read.number("move", fields["move"], 1 << 24)
    raw["last_action"] = _last_action(game, fields["last"])
    passed = [False] * n
    if fields["passed"].lower() != "none":
        for word in fields["passed"].replace(",", " ").split():
            p = read.number("passed", word, n - 1)
            if passed[p]:
                raise InvalidPositionError("passed", f"player {p} listed twice")
            passed[p] = True
    raw["passed"] = passed
    raw.update(_gold(game, read))
    raw.update(_palisades(game, read))
    raw.update(_players(game, read))
    raw.update(_warriors(game, read, ncells))
    raw["reinforcement_left"] = [
        game.advanced and not any(raw["reinforced"][c] and raw["owner"][c] == p
                                  for c in range(ncells))
        for p in range(n)]
    return raw


def _last_action(game: ArmadoraGame, value: str) -> int:
    if value == "-":
        return -1
    move = game._by_text.get(normalise(value))
    if move is None:
        raise InvalidPositionError("last", f"{value!r} is not an Armadora move ('-': none)")
    return move.action


def _gold(game: ArmadoraGame, read: _Reader) -> dict[str, Any]:
    """``gold: d1 5, b2 -, ...``: every mine, in the board's order, with its pile."""
    mines = game.board.mine_cells
    entries = read.listed("gold")
    if len(entries) != len(mines):
        raise InvalidPositionError("gold", f"one entry per mine, {len(mines)}, in the "
                                   "board's order ('d1 5', or 'd1 -' before its pile)")
    gold = [0] * (game.board.width * game.board.height)
    left = [0] * 8
    for v in GOLD_PILES:
        left[v] += 1
    filled = 0
    for entry, cell in zip(entries, mines, strict=True):
        name, _, pile = entry.partition(" ")
        if read.square("gold", name) != cell:
            raise InvalidPositionError("gold", f"the mines in the board's order: "
                                       f"{game.square(cell)} where {name!r} is")
        if pile.strip() == "-":
            continue
        value = read.number("gold", pile.strip(), 7)
        if left[value] == 0:
            raise InvalidPositionError("gold", f"{name}: no pile of {value} is left (piles: "
                                       "3, 4, 4, 5, 5, 6, 6, 7)")
        left[value] -= 1
        gold[cell] = value
        filled += 1
    return {"gold": gold, "gold_left": left, "mines_filled": filled}


def _palisades(game: ArmadoraGame, read: _Reader) -> dict[str, Any]:
    base = game._core.layout["palisade"]
    edges: set[int] = set()
    for name in read.listed("palisades"):
        move = game._by_text.get(normalise(name))
        if move is None or move.kind != "palisade":
            raise InvalidPositionError("palisades", f"{name!r} is not a gap between two "
                                       "neighbouring squares ('c2-d2')")
        if move.action - base in edges:
            raise InvalidPositionError("palisades", f"{name} listed twice")
        edges.add(move.action - base)
    if len(edges) > PALISADES:
        raise InvalidPositionError("palisades", f"there are {PALISADES} palisades")
    return {"palisades": sorted(edges), "palisades_left": PALISADES - len(edges)}


def _players(game: ArmadoraGame, read: _Reader) -> dict[str, Any]:
    """``player 0: race elf, tokens 2, peeked c2 d4`` (the advanced game)."""
    n = game.num_players
    races: list[int | None] = [None] * n
    tokens = [0] * n
    known: list[list[int]] = [[] for _ in range(n)]
    for p in range(n):
        key = f"player {p}"
        value = read.fields.get(key)
        if value is None:
            continue
        parts = [part.strip().lower() for part in value.split(",")]
        names = [part.partition(" ")[0] for part in parts]
        if names != ["race", "tokens", "peeked"]:
            raise InvalidPositionError(key, "'race R, tokens N, peeked SQUARES' (race none "
                                       "before it is dealt, peeked none)")
        race = parts[0].partition(" ")[2]
        if race != "none":
            if race not in RACES:
                raise InvalidPositionError(key, f"race {race!r} is none of "
                                           f"{', '.join(RACES)}")
            races[p] = RACES.index(race)
        tokens[p] = read.number(key, parts[1].partition(" ")[2], 2)
        peeked = parts[2].partition(" ")[2].split()
        if peeked != ["none"]:
            known[p] = sorted({read.square(key, name) for name in peeked})
    return {"race": races, "power_tokens": tokens, "known": known,
            "races_dealt": sum(1 for r in races if r is not None)}


def _warriors(game: ArmadoraGame, read: _Reader, ncells: int) -> dict[str, Any]:
    """``c3: player 0, strength 2[, face up][, arrows N][, reinforced]``; the screens hold
    the rest of each player's set (rule 2.3)."""
    n = game.num_players
    owner, strength, arrows = [-1] * ncells, [0] * ncells, [0] * ncells
    face_up, reinforced = [False] * ncells, [False] * ncells
    pool = [list(WARRIOR_SETS[n]) for _ in range(n)]
    for name, cell in read.cells.items():
        value = read.fields.get(name)
        if value is None:
            continue
        parts = [" ".join(part.lower().split()) for part in value.split(",")]
        if len(parts) < 2 or not parts[0].startswith("player ") \
                or not parts[1].startswith("strength "):
            raise InvalidPositionError(name, "'player P, strength S' then any of 'face up', "
                                       "'arrows N', 'reinforced'")
        p = read.number(name, parts[0][len("player "):], n - 1)
        k = read.number(name, parts[1][len("strength "):], 5)
        if k == 0:
            raise InvalidPositionError(name, "a warrior has strength 1 to 5")
        for part in parts[2:]:
            if part == "face up" and not face_up[cell]:
                face_up[cell] = True
            elif part.startswith("arrows ") and not arrows[cell]:
                arrows[cell] = read.number(name, part[len("arrows "):], 2)
            elif part == "reinforced" and not reinforced[cell]:
                reinforced[cell] = True
            else:
                raise InvalidPositionError(name, f"{part!r}: 'face up', 'arrows N' or "
                                           "'reinforced', each once")
        if pool[p][k - 1] == 0:
            raise InvalidPositionError(name, f"player {p} has no more warriors of strength "
                                       f"{k} (his set: {WARRIOR_SETS[n][k - 1]}, rule 2.3)")
        pool[p][k - 1] -= 1
        owner[cell], strength[cell] = p, k
    return {"owner": owner, "strength": strength, "arrows": arrows, "face_up": face_up,
            "reinforced": reinforced, "pool": pool}
