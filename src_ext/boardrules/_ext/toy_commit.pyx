"""A toy game of sequential hidden commits, for testing search on simultaneous choices.

Each round player 0 commits an action face down, then player 1 chooses his without
seeing it (``simultaneous()`` is 1 there), then both are revealed and player 0 scores
``payoff[his * 3 + player 1's]`` (player 1 the opposite).  After ``rounds`` rounds the
return is the mean score.  The default payoff is rock-paper-scissors (value 0, the
uniform mix its unique equilibrium); any 3x3 zero-sum matrix in [-1, 1] can be given.

Not a registered game: it has no facade and no move names.  Tests drive it through
``CoreState`` and ``boardrules._ext.search`` directly.

Action ids, for both players::

    0 rock     1 paper     2 scissors
"""

import math

from libc.stdint cimport uint64_t
from libc.string cimport memset

from boardrules._ext.core cimport (
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    hash_bytes,
    rng_below,
)

# rock-paper-scissors for player 0: paper beats rock, scissors paper, rock scissors
RPS = (0.0, -1.0, 1.0,
       1.0, 0.0, -1.0,
       -1.0, 1.0, 0.0)


cdef void tc_initial_state(void* state, const void* tables) noexcept nogil:
    memset(state, 0, sizeof(ToyCommitState))


cdef int tc_current_player(const void* state, const void* tables) noexcept nogil:
    """Player 0 commits, then player 1 chooses; TERMINAL_PLAYER after the last round."""
    cdef const ToyCommitState* s = <const ToyCommitState*>state
    if s.round >= (<const ToyCommitTables*>tables).rounds:
        return TERMINAL_PLAYER
    return 1 if s.pending else 0


cdef int tc_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    cdef const ToyCommitState* s = <const ToyCommitState*>state
    cdef int player = tc_current_player(state, tables)
    cdef int i
    if player < 0 or s.dead:
        return 0
    if player == 1 and (<const ToyCommitTables*>tables).flaw == TC_FLAW_DEAD_REPLY:
        return 0
    for i in range(TC_ACTIONS):
        out[i] = i
    return TC_ACTIONS


cdef int tc_chance_outcomes(const void* state, const void* tables, int* out,
                            double* probs) noexcept nogil:
    return 0  # no chance


cdef void tc_apply(void* state, const void* tables, int action) noexcept nogil:
    """Player 0's action is his hidden commit; player 1's reveals both and ends the
    round."""
    cdef ToyCommitState* s = <ToyCommitState*>state
    if not s.pending:
        s.commit = <unsigned char>action
        s.pending = 1
        return
    s.history[2 * s.round] = s.commit
    s.history[2 * s.round + 1] = <unsigned char>action
    s.round += 1
    s.pending = 0
    s.commit = 0


cdef double tc_score(const void* state, const void* tables) noexcept nogil:
    """Player 0's mean payoff over every round (rounds not played count 0)."""
    cdef const ToyCommitState* s = <const ToyCommitState*>state
    cdef const ToyCommitTables* t = <const ToyCommitTables*>tables
    cdef double total = 0.0
    cdef int r
    for r in range(s.round):
        total += t.payoff[s.history[2 * r] * TC_ACTIONS + s.history[2 * r + 1]]
    return total / t.rounds


cdef void tc_returns(const void* state, const void* tables, double* out) noexcept nogil:
    """Player 0's mean payoff, player 1 the opposite (0 each before the end)."""
    cdef double v = 0.0
    if tc_current_player(state, tables) == TERMINAL_PLAYER:
        v = tc_score(state, tables)
    out[0] = v
    out[1] = 0.0 - v    # (not -v: no negative zero)


cdef void tc_determinize(void* state, const void* tables, int observer,
                         Rng* rng) noexcept nogil:
    """Player 1 cannot see player 0's pending commit: redrawn uniformly for him."""
    cdef ToyCommitState* s = <ToyCommitState*>state
    cdef int flaw = (<const ToyCommitTables*>tables).flaw
    if observer != 0 and s.pending:
        s.commit = <unsigned char>rng_below(rng, TC_ACTIONS)
        if flaw == TC_FLAW_DEAD_WORLD:
            s.dead = 1
        elif flaw == TC_FLAW_OVER_WORLD:
            s.round = <unsigned char>(<const ToyCommitTables*>tables).rounds
            s.pending = 0


cdef void tc_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """The payoff of the rounds revealed (the rest counted as 0)."""
    cdef double v = tc_score(state, tables)
    out[0] = v
    out[1] = 0.0 - v


cdef uint64_t tc_hash(const void* state, const void* tables) noexcept nogil:
    return hash_bytes(state, sizeof(ToyCommitState))


cdef bint tc_simultaneous(const void* state, const void* tables) noexcept nogil:
    """Player 1 decides simultaneously with player 0's hidden commit."""
    return (<const ToyCommitState*>state).pending != 0


cdef void tc_take_back_commit(void* state, const void* tables) noexcept nogil:
    """Player 0's pending commit taken back: he is to commit again."""
    cdef ToyCommitState* s = <ToyCommitState*>state
    s.pending = 0
    s.commit = 0


cdef class ToyCommitCore(CoreGame):
    """``ToyCommitCore(payoff=None, rounds=1, flaw=None)``: ``payoff`` is player 0's 3x3
    payoff matrix, row-major (his action, then player 1's), nine finite numbers in
    [-1, 1] (default: rock-paper-scissors); ``rounds`` 1 to 8.  ``flaw`` plants a rules
    core that contradicts itself, for the tests that no search trusts a state: one of
    FLAWS (``"dead_world"``: player 1's worlds at his reply give him no move;
    ``"over_world"``: they are over although the state is not; ``"dead_reply"``: every
    state where player 1 is to reply gives him no move)."""

    FLAWS = ("dead_world", "over_world", "dead_reply")

    def __cinit__(self, *args, **kwargs):
        cdef int i
        for i in range(TC_ACTIONS * TC_ACTIONS):
            self.tables.payoff[i] = RPS[i]
        self.tables.rounds = 1
        self.contract.state_size = sizeof(ToyCommitState)
        self.contract.num_players = 2
        self.contract.num_teams = 2
        self.contract.team_of[0] = 0
        self.contract.team_of[1] = 1
        self.contract.num_distinct_actions = TC_ACTIONS
        self.contract.max_legal_actions = TC_ACTIONS
        self.contract.max_game_length = 2
        self.contract.has_hidden_information = True
        self.contract.tables = &self.tables
        self.contract.initial_state = tc_initial_state
        self.contract.current_player = tc_current_player
        self.contract.legal_actions = tc_legal_actions
        self.contract.chance_outcomes = tc_chance_outcomes
        self.contract.apply = tc_apply
        self.contract.returns = tc_returns
        self.contract.determinize = tc_determinize
        self.contract.evaluate = tc_evaluate
        self.contract.hash = tc_hash
        self.contract.simultaneous = tc_simultaneous
        self.contract.take_back_commit = tc_take_back_commit

    def __init__(self, payoff=None, rounds=1, flaw=None):
        values = RPS if payoff is None else tuple(payoff)
        if len(values) != TC_ACTIONS * TC_ACTIONS:
            raise ValueError("payoff must hold 9 numbers (3x3, row-major)")
        for v in values:
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"a payoff is a number, not {type(v).__name__}")
            if not (math.isfinite(v) and -1.0 <= v <= 1.0):
                raise ValueError("a payoff must be a finite number in [-1, 1]")
        if isinstance(rounds, bool) or not isinstance(rounds, int):
            raise TypeError(f"rounds must be an int, not {type(rounds).__name__}")
        if not 1 <= rounds <= TC_MAX_ROUNDS:
            raise ValueError(f"rounds must be 1 to {TC_MAX_ROUNDS}")
        if flaw is not None and flaw not in self.FLAWS:
            raise ValueError(f"flaw must be None or one of {', '.join(self.FLAWS)}")
        for i, v in enumerate(values):
            self.tables.payoff[i] = v
        self.tables.flaw = TC_FLAW_NONE if flaw is None else 1 + self.FLAWS.index(flaw)
        self.tables.rounds = rounds
        self.contract.max_game_length = 2 * rounds

    @property
    def payoff(self):
        """Player 0's payoff matrix, row-major."""
        return tuple(self.tables.payoff[i] for i in range(TC_ACTIONS * TC_ACTIONS))

    @property
    def rounds(self):
        return self.tables.rounds

    def export(self, CoreState st):
        """The whole truth: rounds revealed, the pending commit (``None`` if none) and the
        revealed pairs."""
        self._check(st)
        cdef ToyCommitState* s = <ToyCommitState*>st.data
        return {
            "round": s.round,
            "commit": s.commit if s.pending else None,
            "history": [(s.history[2 * r], s.history[2 * r + 1]) for r in range(s.round)],
        }

    def illegal_reason(self, CoreState st, action_id):
        self._check(st)
        cdef int action = self._action_id(action_id)
        if action < 0:
            return "unknown_action"
        if tc_current_player(st.data, &self.tables) < 0:
            return "game_over"
        return "legal"
