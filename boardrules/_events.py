"""What happened: the :class:`Event` records a move caused (a battle's revealed cards and
totals, a die and its effect, a tribute paid...), each redacted per viewer as the game's
``view`` is.  :meth:`State.events <boardrules.State.events>` gives a game's whole log,
:meth:`State.last_events <boardrules.State.last_events>` what the last move caused."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def _frozen(data: Mapping[str, Any]) -> Mapping[str, Any]:
    # A JSON round trip: the record is JSON-ready by construction, and shares no list with
    # the game's internals (a caller may change what as_dict() returns).
    return MappingProxyType(json.loads(json.dumps(dict(data))))


@dataclass(frozen=True)
class Event:
    """One thing a move caused, JSON-ready.

    * ``index`` -- the history index of the action that caused it (a player's move, a
      chance outcome or a forced step);
    * ``player`` -- who made that action: a player (0-based) or :data:`~boardrules.CHANCE`;
    * ``kind`` -- what happened, in the game's words (``"battle"``, ``"dice"``,
      ``"tribute"``...; each game's page lists its kinds and their fields);
    * ``data`` -- the kind's fields, as the viewer may see them (a value he may not see is
      ``None``, or the event is not in his log at all).
    """

    index: int
    player: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", _frozen(self.data))

    def as_dict(self) -> dict[str, Any]:
        """The record as one JSON object: ``index``, ``player`` (who made the action),
        ``kind`` and the fields.  A field named like one of the first three -- most
        often ``player``, the player an event concerns, who for a chance outcome (a die
        thrown for him, a card he draws) is not the one who made the action -- is written
        ``data_player`` (``data_index``, ``data_kind``) when its value differs, so that
        neither hides the other (equal, it says nothing more and is left out)."""
        fields = json.loads(json.dumps(dict(self.data)))
        own = {"index": self.index, "player": self.player, "kind": self.kind}
        return {**own, **{f"data_{k}" if k in own else k: v for k, v in fields.items()
                          if not (k in own and own[k] == v)}}

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.index, self.player, self.kind, dict(self.data)))
