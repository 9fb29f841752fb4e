"""Connect Four rules core: the only implementation of the game's rules.

An example game.  The board is 7 columns (``a`` to ``g``, action ids 0 to 6) of 6 rows.
Each player's discs are one uint64_t bitboard in the usual layout: 7 bits per column,
bit ``7 * column + row`` with row 0 at the bottom, and a 7th bit on top of each column
that is never set.  That guard bit keeps the shift tricks below from wrapping one
column into the next::

    .  .  .  .  .  .  .     <- guard bits 6 13 20 27 34 41 48
    5 12 19 26 33 40 47     <- row 5 (the top row)
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42     <- row 0 (the bottom row)
    a  b  c  d  e  f  g
"""

from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset

from boardrules._ext.core cimport (
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    field_int,
    popcount64,
    splitmix64_next,
)

# evaluate(): points per line of four still open to a player (no opposing disc), by the
# number of his discs in it, and per disc in the centre column (in most lines).
cdef enum:
    OPEN_TWO = 1
    OPEN_THREE = 5
    CENTRE_DISC = 2
    SCALE = 16               # a lead of SCALE points evaluates to 0.5


cdef inline uint64_t bit(int column, int row) noexcept nogil:
    return (<uint64_t>1) << (C4_STRIDE * column + row)


cdef inline uint64_t fours(uint64_t b, int d) noexcept nogil:
    """The first cells of every four discs of ``b`` in a line of step ``d`` (1: up a
    column, 7: along a row, 8 and 6: the two diagonals)."""
    cdef uint64_t pairs = b & (b >> d)        # a disc with another d further on
    return pairs & (pairs >> (2 * d))         # ... and that pair again 2d further on


cdef inline uint64_t four_in_a_row(uint64_t b) noexcept nogil:
    """Nonzero when ``b`` holds four in a row in any direction."""
    return (fours(b, 1) | fours(b, C4_STRIDE)
            | fours(b, C4_STRIDE + 1) | fours(b, C4_STRIDE - 1))


cdef inline bint is_over(const ConnectFourState* s) noexcept nogil:
    """Someone connected four, or all 42 cells are filled."""
    return s.winner != C4_NO_WINNER or s.move_count == C4_CELLS


# --------------------------------------------------------------------------------------
# The contract
# --------------------------------------------------------------------------------------

cdef void c4_initial_state(void* state, const void* tables) noexcept nogil:
    """An empty board, player 0 to move."""
    cdef ConnectFourState* s = <ConnectFourState*>state
    memset(s, 0, sizeof(ConnectFourState))
    s.winner = C4_NO_WINNER


cdef int c4_current_player(const void* state, const void* tables) noexcept nogil:
    """The player to move, or TERMINAL_PLAYER once the game is over."""
    cdef const ConnectFourState* s = <const ConnectFourState*>state
    if is_over(s):
        return TERMINAL_PLAYER
    return s.current


cdef int c4_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    """Every column that is not full, left to right; none once the game is over."""
    cdef const ConnectFourState* s = <const ConnectFourState*>state
    cdef int column
    cdef int n = 0
    if is_over(s):
        return 0
    for column in range(C4_COLUMNS):
        if s.height[column] < C4_ROWS:
            out[n] = column
            n += 1
    return n


cdef int c4_chance_outcomes(const void* state, const void* tables, int* out,
                            double* probs) noexcept nogil:
    return 0  # no chance in Connect Four


cdef void c4_apply(void* state, const void* tables, int action) noexcept nogil:
    """The player to move drops a disc into column ``action`` (legal: not full, game
    not over); it falls to the lowest free row."""
    cdef ConnectFourState* s = <ConnectFourState*>state
    cdef int p = s.current
    s.discs[p] |= bit(action, s.height[action])
    s.height[action] += 1
    s.move_count += 1
    if four_in_a_row(s.discs[p]):
        s.winner = p
    s.current = 1 - p


cdef void c4_returns(const void* state, const void* tables, double* out) noexcept nogil:
    """+1 for the winner and -1 for the loser; 0 each on a draw or before the end."""
    cdef const ConnectFourState* s = <const ConnectFourState*>state
    out[0] = 0.0
    out[1] = 0.0
    if s.winner != C4_NO_WINNER:
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0


cdef void c4_determinize(void* state, const void* tables, int observer,
                         Rng* rng) noexcept nogil:
    pass  # perfect information: nothing is hidden, nothing to redraw


cdef inline int line_points(uint64_t own, uint64_t other, uint64_t starts,
                            int d) noexcept nogil:
    """Open twos and threes of ``own`` along one direction, all lines at once: bit i of
    each mask stands for the line of four starting at cell i (cells i, i+d, i+2d, i+3d);
    the disc count per line is added bit-sliced (s2 s1 s0)."""
    cdef uint64_t free = ~other
    cdef uint64_t open_lines = starts & free & (free >> d) & (free >> (2 * d)) & (free >> (3 * d))
    cdef uint64_t m0 = own, m1 = own >> d, m2 = own >> (2 * d), m3 = own >> (3 * d)
    cdef uint64_t a = m0 ^ m1, b = m0 & m1, c = m2 ^ m3, e = m2 & m3
    cdef uint64_t s0 = a ^ c, carry = a & c
    cdef uint64_t s1 = b ^ e ^ carry
    cdef uint64_t s2 = (b & e) | (carry & (b ^ e))
    cdef uint64_t twos = open_lines & ~s0 & s1 & ~s2
    cdef uint64_t threes = open_lines & s0 & s1 & ~s2
    return OPEN_TWO * popcount64(twos) + OPEN_THREE * popcount64(threes)


cdef int c4_points_difference(const ConnectFourState* s,
                              const ConnectFourTables* t) noexcept nogil:
    """Player 0's heuristic points minus player 1's: open twos and threes (a line of
    four cells holding discs of one player only), and discs in the centre column."""
    cdef uint64_t mine = s.discs[0]
    cdef uint64_t theirs = s.discs[1]
    cdef int k
    cdef int points = CENTRE_DISC * (popcount64(mine & t.centre) - popcount64(theirs & t.centre))
    for k in range(4):
        points += (line_points(mine, theirs, t.starts[k], t.shifts[k])
                   - line_points(theirs, mine, t.starts[k], t.shifts[k]))
    return points


# action_values(): how a column looks to the player to move, for informed rollouts.
cdef double VALUE_WINS = 3.0         # it connects four now
cdef double VALUE_BLOCKS = 2.0       # it takes the cell the opponent would win on
cdef double VALUE_QUIET = 0.0
cdef double VALUE_GIVES_WIN = -1.0   # the cell above it is one the opponent wins on


cdef void c4_action_values(const void* state, const void* tables, const int* acts, int n,
                           double* out) noexcept nogil:
    """Per legal column: a win now, then a block of the opponent's win there, then a
    quiet move, and last a move that opens the cell above to the opponent's win -- what a
    playout that looks one move ahead would prefer."""
    cdef const ConnectFourState* s = <const ConnectFourState*>state
    cdef int p = s.current
    cdef uint64_t mine = s.discs[p]
    cdef uint64_t theirs = s.discs[1 - p]
    cdef int i, column, row
    for i in range(n):
        column = acts[i]
        row = s.height[column]
        if four_in_a_row(mine | bit(column, row)):
            out[i] = VALUE_WINS
        elif four_in_a_row(theirs | bit(column, row)):
            out[i] = VALUE_BLOCKS
        elif row + 1 < C4_ROWS and four_in_a_row(theirs | bit(column, row + 1)):
            out[i] = VALUE_GIVES_WIN
        else:
            out[i] = VALUE_QUIET


cdef void c4_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """The returns at the end; before it, the difference of the two players' points
    squashed into (-1, 1) by d / (|d| + SCALE): zero-sum, and the same sign as the
    lead."""
    cdef const ConnectFourState* s = <const ConnectFourState*>state
    cdef const ConnectFourTables* t = <const ConnectFourTables*>tables
    cdef double d
    if is_over(s):
        c4_returns(state, tables, out)
        return
    d = c4_points_difference(s, t)
    out[0] = d / ((d if d >= 0 else -d) + SCALE)
    out[1] = 0.0 - out[0]        # (not -out[0]: no negative zero)


cdef uint64_t c4_hash(const void* state, const void* tables) noexcept nogil:
    """Splitmix64 mixing of player 0's discs (with the side to move in the unused top
    bit), then of that result xor player 1's discs."""
    cdef const ConnectFourState* s = <const ConnectFourState*>state
    cdef uint64_t key = s.discs[0] | (<uint64_t>s.current << 63)
    cdef uint64_t h = splitmix64_next(&key)
    key = h ^ s.discs[1]
    return splitmix64_next(&key)


# The six floats of a column's cells (0.0 / 1.0, row 0 first) for each 6-bit pattern of
# its discs: c4_observation copies a column at a time instead of testing 42 bits.
cdef float COLUMN_FLOATS[64][C4_ROWS]
for _pattern in range(64):
    for _row in range(C4_ROWS):
        COLUMN_FLOATS[_pattern][_row] = (_pattern >> _row) & 1


cdef void c4_observation(const void* state, const void* tables, int player,
                         float* out) noexcept nogil:
    """The observer's discs, then the opponent's, each a 7 x 6 plane (column-major,
    index ``6 * column + row``, row 0 at the bottom: a column's six cells are six bits of
    the bitboard in a row, so each column is copied from COLUMN_FLOATS), then who is to
    move, relative to the observer (own, opponent; both 0 at the end).  Every float is
    written.  Layout: ``boardrules/games/connect_four/observation.py``."""
    cdef const ConnectFourState* s = <const ConnectFourState*>state
    cdef int k, column
    cdef uint64_t discs
    cdef float* plane
    for k in range(2):
        discs = s.discs[(player + k) % 2]
        plane = out + k * C4_CELLS
        for column in range(C4_COLUMNS):
            memcpy(plane + C4_ROWS * column,
                   COLUMN_FLOATS[(discs >> (C4_STRIDE * column)) & 63], sizeof(float) * C4_ROWS)
    out[2 * C4_CELLS] = 0.0
    out[2 * C4_CELLS + 1] = 0.0
    if c4_current_player(state, tables) >= 0:
        out[2 * C4_CELLS + (s.current - player + 2) % 2] = 1.0


# --------------------------------------------------------------------------------------
# The compiled game and its Python-facing helpers (used by boardrules.games.connect_four)
# --------------------------------------------------------------------------------------

cdef int build_tables(ConnectFourTables* t) except -1:
    """Every line of four cells that fits on the board, and the centre column."""
    cdef int n = 0
    cdef int column, row, dc, dr, k, direction
    cdef uint64_t window
    memset(t, 0, sizeof(ConnectFourTables))
    for direction, (dc, dr) in enumerate(((1, 0), (0, 1), (1, 1), (1, -1))):
        # across, up, two diagonals; cells are numbered column * 7 + row
        t.shifts[direction] = 7 * dc + dr
        for column in range(C4_COLUMNS):
            for row in range(C4_ROWS):
                if not (0 <= column + 3 * dc < C4_COLUMNS and 0 <= row + 3 * dr < C4_ROWS):
                    continue
                window = 0
                for k in range(4):
                    window |= bit(column + k * dc, row + k * dr)
                t.windows[n] = window
                t.starts[direction] |= bit(column, row)
                n += 1
    assert n == C4_WINDOWS
    for row in range(C4_ROWS):
        t.centre |= bit(C4_COLUMNS // 2, row)
    return 0


cdef class ConnectFourCore(CoreGame):
    """Connect Four, 7 columns by 6 rows: two players, player 0 moves first."""

    def __cinit__(self):
        build_tables(&self.tables)
        self.contract.state_size = sizeof(ConnectFourState)
        self.contract.num_players = 2
        self.contract.num_teams = 2              # each player is a team of one
        self.contract.team_of[0] = 0
        self.contract.team_of[1] = 1
        self.contract.num_distinct_actions = C4_COLUMNS   # action id = column
        self.contract.max_legal_actions = C4_COLUMNS
        self.contract.max_game_length = C4_CELLS
        self.contract.has_hidden_information = False
        self.contract.tables = &self.tables
        self.contract.initial_state = c4_initial_state
        self.contract.current_player = c4_current_player
        self.contract.legal_actions = c4_legal_actions
        self.contract.chance_outcomes = c4_chance_outcomes
        self.contract.apply = c4_apply
        self.contract.returns = c4_returns
        self.contract.determinize = c4_determinize
        self.contract.evaluate = c4_evaluate
        self.contract.hash = c4_hash
        self.contract.simultaneous = NULL   # no simultaneous choices
        self.contract.action_values = c4_action_values
        self.contract.observation_size = C4_OBSERVATION_SIZE
        self.contract.observation = c4_observation

    def export(self, CoreState st):
        """The whole state as plain Python values (for views, JSON and pictures).

        ``board[row][column]`` is the owner of a cell (-1: empty), row 0 at the bottom;
        ``line`` the cells ``(column, row)`` of the connected four(s), empty unless the
        game was won.
        """
        self._check(st)
        cdef ConnectFourState* s = <ConnectFourState*>st.data
        return {
            "discs": [s.discs[0], s.discs[1]],
            "height": [s.height[c] for c in range(C4_COLUMNS)],
            "board": [[_owner(s, c, r) for c in range(C4_COLUMNS)] for r in range(C4_ROWS)],
            "current": s.current,
            "move_count": s.move_count,
            "winner": s.winner,
            "line": _line_cells(s),
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (see ``CoreGame.load``): the board by
        value, and a position play can reach -- discs stacked from the bottom, player 0 (who
        starts) with as many discs as player 1 or one more, at most one four, made by the
        winner's last disc (on top of its column), and the counters following from the
        discs.  ``ValueError`` (``TypeError`` for a wrong type) ``"<field>: <why>"``
        otherwise, ``st`` untouched."""
        self._check(st)
        cdef ConnectFourState tmp
        memset(&tmp, 0, sizeof(ConnectFourState))
        _load_position(&tmp, raw)
        st._replace_data(&tmp)

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal)."""
        self._check(st)
        cdef int action = self._action_id(action_id)
        cdef ConnectFourState* s = <ConnectFourState*>st.data
        if action < 0 or action >= C4_COLUMNS:
            return "unknown_action"
        if is_over(s):
            return "game_over"
        if s.height[action] >= C4_ROWS:
            return "column_full"
        return "legal"


cdef int _owner(const ConnectFourState* s, int column, int row) noexcept:
    if s.discs[0] & bit(column, row):
        return 0
    if s.discs[1] & bit(column, row):
        return 1
    return -1


cdef list _line_cells(const ConnectFourState* s):
    """The cells (column, row) of the connected four(s), empty unless the game was won."""
    cdef uint64_t line = 0, m
    cdef int d
    if s.winner != C4_NO_WINNER:
        for d in (1, C4_STRIDE, C4_STRIDE + 1, C4_STRIDE - 1):
            m = fours(s.discs[s.winner], d)
            line |= m | (m << d) | (m << (2 * d)) | (m << (3 * d))
    return [(c, r) for c in range(C4_COLUMNS) for r in range(C4_ROWS) if line & bit(c, r)]


# --------------------------------------------------------------------------------------
# Positions: ConnectFourCore.load, the checked inverse of export
# --------------------------------------------------------------------------------------

cdef list _exact_list(object value, str field, int length):
    if not isinstance(value, list) or len(value) != length:
        raise ValueError(f"{field}: a list of {length}")
    return list.copy(value)


cdef bint last_disc_won(const ConnectFourState* s, int p) noexcept nogil:
    """A disc of p on top of its column whose removal leaves p no four: his last."""
    cdef int column
    cdef uint64_t top
    for column in range(C4_COLUMNS):
        if s.height[column] == 0:
            continue
        top = bit(column, s.height[column] - 1)
        if (s.discs[p] & top) and not four_in_a_row(s.discs[p] & ~top):
            return True
    return False


cdef int _load_position(ConnectFourState* s, dict raw) except -1:
    cdef int c, r, p, count0, count1
    if set(raw) != {"discs", "height", "board", "current", "move_count", "winner", "line"}:
        raise ValueError("board: a Connect Four position has the fields discs, height, "
                         "board, current, move_count, winner, line")
    rows = _exact_list(raw["board"], "board", C4_ROWS)
    for r in range(C4_ROWS):
        row = _exact_list(rows[r], f"board[{r}]", C4_COLUMNS)
        for c in range(C4_COLUMNS):
            p = field_int(row[c], f"board[{r}][{c}]", -1, 1)
            if p < 0:
                continue
            if s.height[c] != r:
                raise ValueError(f"board[{r}][{c}]: a disc falls to the lowest free row "
                                 f"of its column (row {s.height[c]} is empty)")
            s.discs[p] |= bit(c, r)
            s.height[c] += 1
    heights = _exact_list(raw["height"], "height", C4_COLUMNS)
    for c in range(C4_COLUMNS):
        if field_int(heights[c], f"height[{c}]", 0, C4_ROWS) != s.height[c]:
            raise ValueError(f"height[{c}]: the column holds {s.height[c]} discs")
    discs = _exact_list(raw["discs"], "discs", 2)
    for p in range(2):
        if field_int(discs[p], f"discs[{p}]", 0, (1 << 64) - 1) != s.discs[p]:
            raise ValueError(f"discs[{p}]: the player's bitboard, as the board shows it")
    count0 = popcount64(s.discs[0])
    count1 = popcount64(s.discs[1])
    if count0 - count1 not in (0, 1):
        raise ValueError(f"board: player 0 (who starts) has {count0} discs and player 1 "
                         f"{count1}: as many or one more")
    s.move_count = count0 + count1
    s.current = s.move_count % 2
    s.winner = C4_NO_WINNER
    for p in range(2):
        if four_in_a_row(s.discs[p]):
            if s.winner != C4_NO_WINNER:
                raise ValueError("board: both players have four (the first ends the game)")
            if s.current != 1 - p or not last_disc_won(s, p):
                raise ValueError(f"board: player {p}'s four must be made by his last disc "
                                 "(the game ends with the first four)")
            s.winner = p
    for field, value in (("current", s.current), ("move_count", s.move_count),
                         ("winner", s.winner)):
        if field_int(raw[field], field, -1, C4_CELLS) != value:
            raise ValueError(f"{field}: the board gives {value}")
    line = raw["line"]
    if not isinstance(line, list) or list.copy(line) != _line_cells(s):
        raise ValueError("line: the cells of the connected four(s), as the board shows them")
    return 0
