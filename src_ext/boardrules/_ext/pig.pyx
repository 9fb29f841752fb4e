"""Pig rules core: the only implementation of the game's rules.

An example game, and the one with chance in the middle of play: after every ``roll`` the
state is a chance node whose six outcomes are the faces of the die, so search meets
chance at every turn (MCTS samples the die, alpha-beta takes the expectation).

A turn: the player to move rolls as often as he likes, adding each die to his turn
total; a 1 loses the turn total and ends the turn; ``hold`` banks the turn total and
ends it.  The first to reach 20 points wins at once; after 40 turns the higher score
wins (equal scores draw).

Action ids::

    0 roll     1 hold     2 .. 7  die 1 .. die 6 (chance outcomes)
"""

from libc.stdint cimport uint64_t
from libc.string cimport memset

from boardrules._ext.core cimport (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    field_int,
    splitmix64_next,
)

# FINISH[n]: the chance that a player who needs n more points (0 <= n <= 20) gets them
# in one turn by rolling until he has them (no 1 before): FINISH[n] is the mean of
# FINISH[n - d] over the faces d = 2 .. 6 (a 1 ends the turn), counted as 1 for n <= 0.
# evaluate() builds its race estimate on it.
cdef double FINISH[PIG_TARGET + 1]


cdef void fill_finish() noexcept nogil:
    cdef int n, d
    FINISH[0] = 1.0
    for n in range(1, PIG_TARGET + 1):
        FINISH[n] = 0.0
        for d in range(2, PIG_FACES + 1):
            FINISH[n] += FINISH[n - d] if n > d else 1.0
        FINISH[n] /= PIG_FACES


fill_finish()


cdef inline void end_turn(PigState* s) noexcept nogil:
    """The turn passes to the other player; after the 40th turn the game is over and the
    higher score wins (equal scores: a draw)."""
    s.turn_total = 0
    s.turns += 1
    s.current = 1 - s.current
    s.phase = PIG_DECIDE
    if s.turns >= PIG_TURN_LIMIT:
        s.phase = PIG_OVER
        if s.score[0] > s.score[1]:
            s.winner = 0
        elif s.score[1] > s.score[0]:
            s.winner = 1


# --------------------------------------------------------------------------------------
# The contract
# --------------------------------------------------------------------------------------

cdef void pig_initial_state(void* state, const void* tables) noexcept nogil:
    """Scores 0 and 0, player 0 to move with a turn total of 0."""
    cdef PigState* s = <PigState*>state
    memset(s, 0, sizeof(PigState))
    s.winner = PIG_NO_WINNER


cdef int pig_current_player(const void* state, const void* tables) noexcept nogil:
    """The player to move, CHANCE_PLAYER while the die rolls, or TERMINAL_PLAYER."""
    cdef const PigState* s = <const PigState*>state
    if s.phase == PIG_OVER:
        return TERMINAL_PLAYER
    if s.phase == PIG_ROLLING:
        return CHANCE_PLAYER
    return s.current


cdef int pig_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    """``roll``, and ``hold`` once the turn total is above 0; none while the die rolls or
    once the game is over."""
    cdef const PigState* s = <const PigState*>state
    if s.phase != PIG_DECIDE:
        return 0
    out[0] = PIG_ROLL
    if s.turn_total == 0:
        return 1               # a turn rolls at least once
    out[1] = PIG_HOLD
    return 2


cdef int pig_chance_outcomes(const void* state, const void* tables, int* out,
                             double* probs) noexcept nogil:
    """While the die rolls: ``die 1`` .. ``die 6``, 1/6 each."""
    cdef const PigState* s = <const PigState*>state
    cdef int i
    if s.phase != PIG_ROLLING:
        return 0
    for i in range(PIG_FACES):
        out[i] = PIG_DIE_1 + i
        probs[i] = 1.0 / PIG_FACES
    return PIG_FACES


cdef void pig_apply(void* state, const void* tables, int action) noexcept nogil:
    """``roll`` starts the die; ``hold`` banks the turn total and ends the turn; a die
    outcome of 1 loses the turn total and ends the turn, 2 to 6 adds to it and wins at
    once when score + turn total reach the target (the turn total is then banked)."""
    cdef PigState* s = <PigState*>state
    cdef int p = s.current
    cdef int face
    if action == PIG_ROLL:
        s.phase = PIG_ROLLING
    elif action == PIG_HOLD:
        s.score[p] += s.turn_total
        end_turn(s)
    else:
        face = action - PIG_DIE_1 + 1
        s.last_die = face
        if face == 1:
            end_turn(s)
        else:
            s.turn_total += face
            s.phase = PIG_DECIDE
            if s.score[p] + s.turn_total >= PIG_TARGET:
                s.score[p] += s.turn_total
                s.turn_total = 0
                s.winner = p
                s.phase = PIG_OVER


cdef void pig_returns(const void* state, const void* tables, double* out) noexcept nogil:
    """+1 for the winner and -1 for the loser; 0 each on a draw or before the end."""
    cdef const PigState* s = <const PigState*>state
    out[0] = 0.0
    out[1] = 0.0
    if s.winner != PIG_NO_WINNER:
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0


cdef void pig_determinize(void* state, const void* tables, int observer,
                          Rng* rng) noexcept nogil:
    pass  # perfect information: nothing is hidden, nothing to redraw


cdef void pig_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """The returns at the end; before it, a race estimate: each player tries to finish
    in one turn by rolling until he has the points he needs, the player to move first
    (with his turn total counted), and they alternate until one succeeds.  The player
    to move, finishing in a turn with chance ``a = FINISH[his need]`` against
    ``b = FINISH[the other's need]``, wins with ``P = a / (a + b - a b)``; the value is
    ``2 P - 1``, in (-1, 1) and zero-sum.  (The turn limit is ignored.)"""
    cdef const PigState* s = <const PigState*>state
    cdef int p = s.current
    cdef double a, b
    if s.phase == PIG_OVER:
        pig_returns(state, tables, out)
        return
    a = FINISH[PIG_TARGET - s.score[p] - s.turn_total]
    b = FINISH[PIG_TARGET - s.score[1 - p]]
    out[p] = 2.0 * a / (a + b - a * b) - 1.0
    out[1 - p] = 0.0 - out[p]    # (not -out[p]: no negative zero)


cdef uint64_t pig_hash(const void* state, const void* tables) noexcept nogil:
    """Scores, turn total, player to move, turns played, phase and winner packed into 56
    bits and mixed (splitmix64, a bijection: no two positions share a key).  The last
    die is not part of the position."""
    cdef const PigState* s = <const PigState*>state
    cdef uint64_t key = (s.score[0] | (<uint64_t>s.score[1] << 8)
                         | (<uint64_t>s.turn_total << 16) | (<uint64_t>s.current << 24)
                         | (<uint64_t>s.turns << 32) | (<uint64_t>s.phase << 40)
                         | (<uint64_t>(s.winner + 1) << 48))
    return splitmix64_next(&key)


cdef void pig_observation(const void* state, const void* tables, int player,
                          float* out) noexcept nogil:
    """Everything (pig has no secret), seats relative to the observer: the two scores,
    the turn total, whose turn it is (2, one-hot), the phase (decide, rolling, over), the
    last die (7, one-hot: none yet, 1 to 6), turns completed, and who is to move (2; both 0
    while the die rolls and at the end).  Layout: ``boardrules/games/pig/observation.py``."""
    cdef const PigState* s = <const PigState*>state
    cdef int k
    cdef int mover = pig_current_player(state, tables)
    memset(out, 0, sizeof(float) * PIG_OBSERVATION_SIZE)
    for k in range(2):
        out[k] = s.score[(player + k) % 2]
    out[2] = s.turn_total
    out[3 + (s.current - player + 2) % 2] = 1.0
    out[5 + s.phase] = 1.0
    out[8 + s.last_die] = 1.0
    out[15] = s.turns
    if mover >= 0:
        out[16 + (mover - player + 2) % 2] = 1.0


# --------------------------------------------------------------------------------------
# The compiled game and its Python-facing helpers (used by boardrules.games.pig)
# --------------------------------------------------------------------------------------

cdef class PigCore(CoreGame):
    """Pig to 20 points: two players, player 0 moves first.  No options, no tables."""

    def __cinit__(self):
        self.contract.state_size = sizeof(PigState)
        self.contract.num_players = 2
        self.contract.num_teams = 2              # each player is a team of one
        self.contract.team_of[0] = 0
        self.contract.team_of[1] = 1
        self.contract.num_distinct_actions = PIG_ACTIONS
        self.contract.max_legal_actions = PIG_FACES  # roll/hold: 2; chance: 6 faces
        self.contract.max_game_length = PIG_MAX_GAME_LENGTH
        self.contract.has_hidden_information = False
        self.contract.tables = NULL              # nothing to look up
        self.contract.initial_state = pig_initial_state
        self.contract.current_player = pig_current_player
        self.contract.legal_actions = pig_legal_actions
        self.contract.chance_outcomes = pig_chance_outcomes
        self.contract.apply = pig_apply
        self.contract.returns = pig_returns
        self.contract.determinize = pig_determinize
        self.contract.evaluate = pig_evaluate
        self.contract.hash = pig_hash
        self.contract.simultaneous = NULL   # no simultaneous choices
        self.contract.observation_size = PIG_OBSERVATION_SIZE
        self.contract.observation = pig_observation

    @property
    def target(self):
        """Points that win at once (20)."""
        return PIG_TARGET

    @property
    def turn_limit(self):
        """Turns after which the game ends on the scores (40)."""
        return PIG_TURN_LIMIT

    def export(self, CoreState st):
        """The whole state as plain Python values (for views, JSON and pictures).

        ``phase`` is ``"decide"``, ``"rolling"`` (a chance node) or ``"over"``;
        ``last_die`` 0 before the first roll.
        """
        self._check(st)
        cdef PigState* s = <PigState*>st.data
        return {
            "scores": [s.score[0], s.score[1]],
            "turn_total": s.turn_total,
            "current": s.current,
            "turns": s.turns,
            "phase": ("decide", "rolling", "over")[s.phase],
            "winner": s.winner,
            "last_die": s.last_die,
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (see ``CoreGame.load``): every field by
        value, and a position play can reach -- the player to move follows from the turns
        played, nobody past 20 before the end, a player without a turn yet at 0, the game
        over exactly when someone reached 20 or the 40 turns are played, the winner
        following from the scores.  ``ValueError`` (``TypeError`` for a wrong type)
        ``"<field>: <why>"`` otherwise, ``st`` untouched."""
        self._check(st)
        cdef PigState tmp
        memset(&tmp, 0, sizeof(PigState))
        _load_position(&tmp, raw)
        st._replace_data(&tmp)

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal)."""
        self._check(st)
        cdef int action = self._action_id(action_id)
        cdef PigState* s = <PigState*>st.data
        if action < 0 or action >= PIG_ACTIONS:
            return "unknown_action"
        if s.phase == PIG_OVER:
            return "game_over"
        if s.phase == PIG_ROLLING:
            return "legal" if action >= PIG_DIE_1 else "chance_expected"
        if action >= PIG_DIE_1:
            return "not_chance"
        if action == PIG_HOLD and s.turn_total == 0:
            return "must_roll_first"
        return "legal"


# --------------------------------------------------------------------------------------
# Positions: PigCore.load, the checked inverse of export
# --------------------------------------------------------------------------------------

PHASE_NAMES = ("decide", "rolling", "over")


cdef int _load_position(PigState* s, dict raw) except -1:
    cdef int p, done
    if set(raw) != {"scores", "turn_total", "current", "turns", "phase", "winner",
                    "last_die"}:
        raise ValueError("scores: a Pig position has the fields scores, turn_total, "
                         "current, turns, phase, winner, last_die")
    phase = raw["phase"]
    if type(phase) is not str or phase not in PHASE_NAMES:
        raise ValueError(f"phase: one of {', '.join(PHASE_NAMES)}")
    s.phase = PHASE_NAMES.index(phase)
    s.turns = field_int(raw["turns"], "turns", 0, PIG_TURN_LIMIT)
    s.current = field_int(raw["current"], "current", 0, 1)
    if s.current != s.turns % 2:
        raise ValueError(f"current: after {s.turns} turns player {s.turns % 2} is to move "
                         "(player 0 starts, turns alternate)")
    scores = raw["scores"]
    if not isinstance(scores, list) or len(scores) != 2:
        raise ValueError("scores: a list of 2")
    scores = list.copy(scores)
    for p in range(2):
        # the winner banks at most 19 + 6 (a roll takes him from below 20 to 20 or more)
        s.score[p] = field_int(scores[p], f"scores[{p}]", 0, PIG_TARGET + PIG_FACES - 1)
        done = (s.turns + 1 - p) // 2     # turns player p has completed
        if done == 0 and s.score[p] and not (s.phase == PIG_OVER and s.current == p):
            raise ValueError(f"scores[{p}]: player {p} has not had a turn yet")
    s.turn_total = field_int(raw["turn_total"], "turn_total", 0, PIG_TARGET - 1)
    s.last_die = field_int(raw["last_die"], "last_die", 0, PIG_FACES)
    s.winner = PIG_NO_WINNER
    target = s.score[s.current] >= PIG_TARGET
    for p in range(2):
        if s.score[p] >= PIG_TARGET and p != s.current:
            raise ValueError(f"scores[{p}]: the game ends as soon as a player reaches "
                             f"{PIG_TARGET}, in his own turn")
    if s.phase == PIG_OVER:
        if target:
            s.winner = s.current
            if s.turns >= PIG_TURN_LIMIT or s.turn_total or s.last_die < 2:
                raise ValueError(f"phase: a win at {PIG_TARGET} comes from a roll of 2 to "
                                 "6, which banks the turn total, within the 40 turns")
        elif s.turns != PIG_TURN_LIMIT or s.turn_total:
            raise ValueError(f"phase: the game is over when a player reaches {PIG_TARGET} "
                             f"or after {PIG_TURN_LIMIT} turns")
        elif s.score[0] != s.score[1]:
            s.winner = 0 if s.score[0] > s.score[1] else 1
    else:
        if target or s.turns >= PIG_TURN_LIMIT:
            raise ValueError(f"phase: the game is over (a player has {PIG_TARGET} or the "
                             f"{PIG_TURN_LIMIT} turns are played)")
        if s.score[s.current] + s.turn_total >= PIG_TARGET:
            raise ValueError(f"turn_total: reaching {PIG_TARGET} wins at once")
        if s.turn_total == 1:
            raise ValueError("turn_total: a 1 loses the turn total; the dice add 2 to 6")
        if s.turn_total and s.last_die < 2:
            raise ValueError("last_die: the last die added to the turn total (2 to 6)")
    if s.last_die == 0 and (s.turns or s.turn_total or s.phase == PIG_OVER):
        raise ValueError("last_die: 0 only before the first roll")
    if field_int(raw["winner"], "winner", -1, 1) != s.winner:
        raise ValueError(f"winner: the scores give {s.winner}")
    return 0
