"""Results shared by the two example games, where a completed line wins and a full board
without one is a draw (``tic_tac_toe``, ``connect_four``)."""

from __future__ import annotations

from boardrules.api import TERMINAL, MoveT, Outcome, State, Termination


class LineGameState(State[MoveT]):
    """A two-player game won by completing a line; ``_raw()["winner"]`` is the winner or
    -1."""

    __slots__ = ()

    def score(self) -> tuple[int, ...]:
        """1 for the player who completed a line, 0 for the other; (0, 0) until then."""
        winner = self._raw()["winner"]
        return tuple(int(p == winner) for p in range(2))

    def outcome(self) -> Outcome | None:
        """The winner (ranked 1, the loser 2) when a line is complete, or a draw (both
        ranked 1, both ``winners``) when the board filled up without one."""
        if self._core.current_player != TERMINAL:
            return None
        winner = self._raw()["winner"]
        scores = self.score()
        if winner >= 0:
            winners: tuple[int, ...] = (winner,)
            ranking = tuple(1 if p == winner else 2 for p in range(2))
        else:
            winners, ranking = (0, 1), (1, 1)
        return Outcome(
            winners=winners,
            ranking=ranking,
            scores=scores,
            team_scores=tuple(sum(scores[p] for p in team) for team in self._game.teams),
            returns=self.returns(),
            reason=Termination.LINE if winner >= 0 else Termination.BOARD_FULL,
        )
