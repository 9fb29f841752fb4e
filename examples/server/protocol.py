"""What clients send: the request bodies and websocket messages, checked by pydantic.

Types are strict (``"true"`` is not a bool, ``"3"`` is not an int) and unknown fields
are refused, so a client's mistake is answered with 400 and a sentence, never guessed at.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, TypeAdapter

#: Longer move text than any game's notation: refused before it reaches a game.
MAX_MOVE_TEXT = 200
#: A bot spec or ``"human"``.
MAX_SEAT_TEXT = 200

MoveText = Annotated[StrictStr, Field(min_length=1, max_length=MAX_MOVE_TEXT)]
SeatText = Annotated[StrictStr, Field(min_length=1, max_length=MAX_SEAT_TEXT)]
Version = Annotated[StrictInt, Field(ge=0)]
#: A client's correlation id, echoed in the reply to its message.
MessageId = StrictStr | StrictInt | None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateTable(_Strict):
    """``POST /tables``: a game and its options, one entry per seat (``"human"`` or a bot
    spec such as ``"ismcts:iterations=200"``; default: every seat human), whether the
    server draws chance events (``auto_chance``; false: the host feeds real dice and
    cards) and optionally the seed of the game's random setup."""

    game: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatText] | None = Field(default=None, max_length=16)
    auto_chance: StrictBool = True
    seed: StrictInt | None = None


class MoveRequest(_Strict):
    """``POST /tables/{id}/moves``: a move in the game's notation, the version it was
    chosen at, and optionally the seat the client believes it plays (checked against the
    token: a move sent for another seat is refused)."""

    move: MoveText
    expected_version: Version
    seat: StrictInt | None = None


class ChanceRequest(_Strict):
    """``POST /tables/{id}/chance`` (the host): what the real dice or cards gave."""

    outcome: MoveText
    expected_version: Version


class MoveMessage(MoveRequest):
    type: Literal["move"]
    id: MessageId = None


class ChanceMessage(ChanceRequest):
    type: Literal["chance"]
    id: MessageId = None


class SyncMessage(_Strict):
    """Ask for the whole picture again (events and history included)."""

    type: Literal["sync"]
    id: MessageId = None


ClientMessage = Annotated[MoveMessage | ChanceMessage | SyncMessage,
                          Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[MoveMessage | ChanceMessage | SyncMessage] = TypeAdapter(
    ClientMessage)
