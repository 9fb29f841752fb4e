"""Why a Rome & Carthage move is refused, in the words of the rule it breaks.

The compiled core names one rule key a kind of refusal (:data:`~boardrules.games.
rome_and_carthage.game.ILLEGAL_REASONS`); where one key covers several causes, the cause
is found here, from the position, so that the message names the rule really broken.
"Turns 1 and 2" is such a key: a placement is refused for its city (another's, or taken),
for its kind (none of it left), or for the turn's quota -- the core says only
``place_not_allowed``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardrules._ext.rome_and_carthage import KINDS
from boardrules.games.rome_and_carthage.board import EMPIRES

if TYPE_CHECKING:
    from boardrules.games.rome_and_carthage.game import RomeCarthageGame
    from boardrules.games.rome_and_carthage.moves import RomeCarthageMove

#: "Each player has [...] 3 infantry, 2 galleys, 1 chariot and 1 elephant" an empire.
ARMY_SET = {"infantry": 3, "galley": 2, "chariot": 1, "elephant": 1}
PLURALS = {"infantry": "infantry", "galley": "galleys", "chariot": "chariots",
           "elephant": "elephants"}
#: Armies an empire places in turn 1, then in turn 2 ("4 an empire in the first turn and
#: the 3 others in the second").
PLACE_QUOTA = (4, 3)

#: The placement refusals' rule keys and their general messages (the specific message,
#: naming the city, empire and kind, is :func:`placement_refusal`'s).
PLACEMENT_REASONS: dict[str, str] = {
    "place_not_own_city": "Turns 1 and 2: a player places his armies on the cities of "
                          "his own empires",
    "place_city_taken": "Turns 1 and 2: an army goes on an empty city, one a city",
    "place_none_left": "Turns 1 and 2: an empire places its own 7 armies, 3 infantry, "
                       "2 galleys, 1 chariot and 1 elephant",
    "place_quota_done": "Turns 1 and 2: an empire places 4 armies in the first turn and "
                        "its 3 others in the second",
}


def _title(empire: str) -> str:
    return empire.capitalize()


def placement_refusal(game: RomeCarthageGame, raw: dict[str, Any],
                      move: RomeCarthageMove) -> tuple[str, str] | None:
    """(rule key, message) for a placement the core refused in the placement phase, or
    None when none of the causes below is found (the core's general message stands)."""
    if move.kind != "place" or move.city is None or move.army is None:
        return None
    player = raw["turn_player"]
    c = game.board.index(move.city)
    e = game.board.cities[c].empire
    empire, kind = EMPIRES[e], str(move.army)
    if empire not in game.empires_of(player):
        owner = next(q for q in range(game.num_players) if empire in game.empires_of(q))
        return "place_not_own_city", (
            f"{move.city} is a city of {_title(empire)}, which player {owner} plays: "
            f"{PLACEMENT_REASONS['place_not_own_city']} (player {player}: "
            f"{' and '.join(_title(x) for x in game.empires_of(player))})")
    code = raw["army"][c]
    if code >= 0:
        held = f"{_title(EMPIRES[code // 4])}'s {KINDS[code % 4]}"
        return "place_city_taken", (f"{move.city} already holds {held}: "
                                    f"{PLACEMENT_REASONS['place_city_taken']}")
    if raw["unplaced"][e][KINDS.index(kind)] == 0:
        count = ARMY_SET[kind]
        return "place_none_left", (
            f"{_title(empire)} has no {kind} left to place: its "
            f"{count} {PLURALS[kind] if count > 1 else kind} "
            f"{'are' if count > 1 else 'is'} on the board; "
            f"{PLACEMENT_REASONS['place_none_left']}")
    placement_turn = raw["round"]
    left = sum(raw["unplaced"][e]) + raw["placed"][e]
    quota = min(left, PLACE_QUOTA[placement_turn - 1]) if placement_turn <= 2 else 0
    if raw["placed"][e] >= quota:
        return "place_quota_done", (
            f"{_title(empire)} has placed its {raw['placed'][e]} armies of turn "
            f"{placement_turn}: {PLACEMENT_REASONS['place_quota_done']}")
    return None


__all__ = ["PLACEMENT_REASONS", "placement_refusal"]
