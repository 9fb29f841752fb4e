"""What the next decision is, without parsing notation: :class:`Decision`, as
:meth:`State.decision <boardrules.State.decision>` gives it."""

from __future__ import annotations

from dataclasses import dataclass

from boardrules._base import CHANCE, TERMINAL


@dataclass(frozen=True)
class Decision:
    """The decision a state waits for.

    * ``player`` -- who decides: a player (0-based), :data:`~boardrules.CHANCE` (a die,
      a draw: ``chance_outcomes()`` has the odds) or :data:`~boardrules.TERMINAL` (none:
      the game is over);
    * ``phase`` -- the game's name for the step (``"turn"``, ``"commit"``...; the state's
      ``phase`` where the game has one, else ``"play"``, ``"chance"`` or ``"over"``);
    * ``kinds`` -- the kinds of the legal moves (``move.kind``: ``"warrior"``,
      ``"palisade"``...), sorted, without repeats;
    * ``moves`` -- how many legal moves there are;
    * ``simultaneous`` -- the player decides at the same time as the previous, hidden
      commit (a Rome & Carthage battle card): he does not know what it was;
    * ``forced`` -- a forced step: the game's rules leave one answer, which the engine
      takes itself unless the state was made with ``auto_forced=False`` (only such a
      state stops here).
    """

    player: int
    phase: str
    kinds: tuple[str, ...]
    moves: int
    simultaneous: bool
    forced: bool = False

    @property
    def is_chance(self) -> bool:
        return self.player == CHANCE

    @property
    def is_over(self) -> bool:
        return self.player == TERMINAL

    @property
    def has_one_answer(self) -> bool:
        """Exactly one legal move (a forced step, or a decision of the game's that has one
        answer here without being a forced step: pig's first roll of a turn)."""
        return self.moves == 1
