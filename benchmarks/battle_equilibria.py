"""Rome & Carthage battles small enough to solve exactly, and how far a search's mixed
strategies are from their equilibrium (used by ``run_exploitability.py`` and the tests).

A battle position here is a two-player game down to two armies a side, on the last round
(``max_rounds``), with the attacker the round's last player: he has moved both his
infantry into the cities of the defender's two armies (Salona to Aquileia, Genua to
Mediolanum), and the two battles are fought one after the other with the cards in hand.
Winning both eliminates the defender and wins the game (+1), losing both loses it (-1);
anything else ends the turn, the round and so the game, a draw (0).  The cards laid in
the first battle are gone for the second, so each battle is a real choice of how much to
spend: a Blotto game, whose equilibria are mixed.  Both hands are known to both
(``known[p]``): the only thing hidden is the attacker's face-down commit, so the battles
are simultaneous-move games -- a matrix game per round of cards, with what follows (tie
rounds, a spy's choice, the second battle) in its cells.

``Solver`` finds the value and both players' equilibrium strategies by backward induction,
a linear program at each stage (scipy's HiGHS).  ``exploitability`` measures a strategy
pair at the first stage against the stage matrix of the equilibrium values of what
follows: what a best response gains against each side.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.optimize import linprog

import boardrules
from boardrules.games.rome_and_carthage import RomeCarthageState
from boardrules.search import Suggestion

#: Non-zero card values a hand may hold.
VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15)
KINDS = ("infantry", "chariot", "elephant")
#: The defenders' armies (an empire has one chariot and one elephant).
DEFENDERS = [(a, b) for a in KINDS for b in KINDS if a != b or a == "infantry"]
LAST_ROUND = 10

_POSITION = """Rome & Carthage position
city aquileia: rome {defender0}
city mediolanum: rome {defender1}
city salona: byzantium infantry
city genua: carthage infantry
phase: main
round: {round}
turn_player: 1
current: 1
removed: 0 0 0 0
hand[0]: 0 0 {hand0}
hand[1]: 0 0 {hand1}
known[0]: {hand0}
known[1]: {hand1}
pile[0]: {pile}
"""


def _deck_rest(hands: Sequence[Sequence[int]]) -> list[int]:
    """The non-zero cards of the deck (four of each value 1-10 and 15) not in a hand."""
    rest = [v for v in (*range(1, 11), 15) for _ in range(4)]
    for hand in hands:
        for card in hand:
            rest.remove(card)
    return rest


def battle_position(hand0: Sequence[int], hand1: Sequence[int],
                    defenders: tuple[str, str] = ("infantry", "infantry")
                    ) -> RomeCarthageState:
    """The two battles: player 1's two infantry against player 0's ``defenders`` at
    Aquileia and Mediolanum, with the given non-zero cards in hand (each player also holds
    his two zeros); the attacker is to lay his cards at Aquileia."""
    game = boardrules.load("rome_and_carthage", players=2, max_rounds=LAST_ROUND)
    text = _POSITION.format(
        defender0=defenders[0], defender1=defenders[1], round=LAST_ROUND,
        hand0=" ".join(map(str, sorted(hand0))), hand1=" ".join(map(str, sorted(hand1))),
        pile=" ".join(map(str, sorted(_deck_rest([hand0, hand1])))))
    state = game.position(text)
    for move in ("salona-aquileia", "genua-mediolanum", "battle aquileia"):
        state.apply(move)
    return state


def random_positions(count: int, seed: int, cards: int = 4) -> list[RomeCarthageState]:
    """``count`` seeded battle positions, each hand ``cards`` non-zero cards."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pool = [v for v in VALUES for _ in range(4)]
        rng.shuffle(pool)
        hand0, hand1 = sorted(pool[:cards]), sorted(pool[cards:2 * cards])
        out.append(battle_position(hand0, hand1, rng.choice(DEFENDERS)))
    return out


def solve_matrix(payoff: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Value and equilibrium strategies of the zero-sum matrix game ``payoff`` (the row
    player's gains): max over x of min over columns of x @ payoff, and its dual."""
    rows, cols = payoff.shape
    # variables (x_1..x_rows, v): maximise v subject to v <= x @ payoff[:, j] for every j
    res = linprog(np.r_[np.zeros(rows), -1.0],
                  A_ub=np.c_[-payoff.T, np.ones(cols)], b_ub=np.zeros(cols),
                  A_eq=np.r_[np.ones(rows), 0.0][None, :], b_eq=[1.0],
                  bounds=[(0, None)] * rows + [(None, None)], method="highs")
    if not res.success:
        raise RuntimeError(f"linear program failed: {res.message}")
    x = np.clip(res.x[:rows], 0, None)
    duals = -np.asarray(res.ineqlin.marginals)  # the column player's strategy
    y = np.clip(duals, 0, None)
    return float(res.x[rows]), x / x.sum(), y / y.sum()


@dataclass
class Stage:
    """A simultaneous stage: the committer's and the replier's actions, and the matrix of
    equilibrium values (for the committer) of what each pair leads to."""

    committer: int
    commits: list[int]
    replies: list[int]
    payoff: np.ndarray
    value: float
    commit_strategy: np.ndarray
    reply_strategy: np.ndarray


class Solver:
    """Backward induction over a battle from any of its states (memoised on the state's
    bytes): the equilibrium value for a given player, a linear program at each stage."""

    def __init__(self, player: int) -> None:
        self.player = player
        self._values: dict[bytes, float] = {}

    def value(self, core) -> float:
        key = core.state_bytes()
        if key not in self._values:
            self._values[key] = self._value(core)
        return self._values[key]

    def _value(self, core) -> float:
        mover = core.current_player
        if mover == boardrules.CHANCE:
            raise ValueError("a chance event inside the battle: not a battle position")
        if mover < 0:
            return float(core.returns()[self.player])
        return self.stage(core).value if self._is_stage(core) else self._decision(core)

    def _is_stage(self, core) -> bool:
        child = core.copy(False)
        child.apply(core.legal_actions()[0])
        return child.current_player >= 0 and bool(child.simultaneous())

    def _decision(self, core) -> float:
        """A decision of one player that nobody answers simultaneously."""
        sign = 1.0 if core.current_player == self.player else -1.0
        best = -2.0
        for action in core.legal_actions():
            child = core.copy(False)
            child.apply(action)
            best = max(best, sign * self.value(child))
        return sign * best

    def stage(self, core) -> Stage:
        """The stage at ``core`` (its mover to commit), solved; values for the committer."""
        committer = core.current_player
        sign = 1.0 if committer == self.player else -1.0
        commits = list(core.legal_actions())
        replies: list[int] = []
        rows = []
        for commit in commits:
            child = core.copy(False)
            child.apply(commit)
            here = list(child.legal_actions())
            if replies and here != replies:
                raise ValueError("the replies depend on the hidden commit")
            replies = here
            row = []
            for reply in replies:
                grandchild = child.copy(False)
                grandchild.apply(reply)
                row.append(sign * self.value(grandchild))
            rows.append(row)
        payoff = np.array(rows)
        value, x, y = solve_matrix(payoff)
        return Stage(committer, commits, replies, payoff, sign * value, x, y)


def mixed_positions(count: int, seed: int, cards: int = 4,
                    ) -> list[tuple[RomeCarthageState, Stage]]:
    """The first ``count`` seeded battle positions whose first stage has a mixed
    equilibrium on both sides (no strategy puts 0.99 on one commit), each with its solved
    stage: the positions where playing the equilibrium is more than finding a best move."""
    rng = random.Random(seed)
    out: list[tuple[RomeCarthageState, Stage]] = []
    while len(out) < count:
        state = random_positions(1, rng.randrange(2**32), cards)[0]
        stage = Solver(state.current_player).stage(state._core)
        if stage.commit_strategy.max() < 0.99 and stage.reply_strategy.max() < 0.99:
            out.append((state, stage))
    return out


def played_mix(hint: Suggestion[Any]) -> dict[int, float]:
    """The mixed strategy a search's suggestion plays, by action id: its strategy
    (regret matching), else its visit shares."""
    if hint.strategy:
        return {m.action: p for m, p in hint.strategy}
    visits = sum(n for _, _, n in hint.ranked)
    return {m.action: n / visits for m, _, n in hint.ranked}


def exploitability(stage: Stage, commit: dict[int, float],
                   reply: dict[int, float]) -> tuple[float, float]:
    """What a best response gains, in the committer's payoff units, against the commit
    strategy (the replier's gain over the stage value) and against the reply strategy (the
    committer's gain): both 0 at an equilibrium.  Strategies map action ids to
    probabilities (missing actions 0)."""
    x = np.array([commit.get(a, 0.0) for a in stage.commits])
    y = np.array([reply.get(a, 0.0) for a in stage.replies])
    x, y = x / x.sum(), y / y.sum()
    value = float(stage.commit_strategy @ stage.payoff @ stage.reply_strategy)
    against_commit = value - float((x @ stage.payoff).min())
    against_reply = float((stage.payoff @ y).max()) - value
    return against_commit, against_reply
