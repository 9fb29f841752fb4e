"""Tic-tac-toe rules core: the only implementation of the game's rules.

An example game, kept as small as a complete implementation of the contract in
``core.pxd`` can be inside the library (``docs/tutorial_add_a_game.rst`` builds a game
outside it, as a package).

The board is nine cells numbered ``c = 3 * row + column``, row 0 at the top::

     0 | 1 | 2          a1 | b1 | c1
    ---+---+---        ----+----+----
     3 | 4 | 5          a2 | b2 | c2
    ---+---+---        ----+----+----
     6 | 7 | 8          a3 | b3 | c3

Each player's marks are one 9-bit mask; the action id of a move is its cell.
"""

from libc.stdint cimport uint16_t, uint64_t
from libc.string cimport memset

from boardrules._ext.core cimport (
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    ctz64,
    field_int,
    popcount64,
    splitmix64_next,
)

# The eight lines as cell masks: three rows, three columns, two diagonals.
cdef uint16_t LINES[8]
LINES[:] = [0x007, 0x038, 0x1C0,     # rows 1, 2, 3
            0x049, 0x092, 0x124,     # columns a, b, c
            0x111, 0x054]            # diagonals a1-c3 and c1-a3


cdef inline bint has_line(uint16_t marks) noexcept nogil:
    """Three marks in a row, a column or a diagonal."""
    cdef int i
    for i in range(8):
        if (marks & LINES[i]) == LINES[i]:
            return True
    return False


cdef inline bint is_over(const TicTacToeState* s) noexcept nogil:
    """A line is complete, or all nine cells are marked."""
    return s.winner != TTT_NO_WINNER or s.move_count == TTT_CELLS


# --------------------------------------------------------------------------------------
# The contract
# --------------------------------------------------------------------------------------

cdef void ttt_initial_state(void* state, const void* tables) noexcept nogil:
    """An empty board, X (player 0) to move."""
    cdef TicTacToeState* s = <TicTacToeState*>state
    memset(s, 0, sizeof(TicTacToeState))
    s.winner = TTT_NO_WINNER


cdef int ttt_current_player(const void* state, const void* tables) noexcept nogil:
    """The player to move, or TERMINAL_PLAYER once the game is over."""
    cdef const TicTacToeState* s = <const TicTacToeState*>state
    # (an if, not "TERMINAL_PLAYER if ... else s.current": that expression would take
    # the type of s.current, uint8_t, and turn -4 into 252)
    if is_over(s):
        return TERMINAL_PLAYER
    return s.current


cdef int ttt_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    """Every empty cell, in ascending order; none once the game is over."""
    cdef const TicTacToeState* s = <const TicTacToeState*>state
    cdef uint64_t empty = TTT_ALL & ~(s.marks[0] | s.marks[1])
    cdef int n = 0
    if is_over(s):
        return 0
    while empty:
        out[n] = ctz64(empty)      # lowest empty cell first
        empty &= empty - 1         # clear that bit
        n += 1
    return n


cdef int ttt_chance_outcomes(const void* state, const void* tables, int* out,
                             double* probs) noexcept nogil:
    return 0  # no chance in tic-tac-toe


cdef void ttt_apply(void* state, const void* tables, int action) noexcept nogil:
    """The player to move marks cell ``action`` (legal: empty, game not over)."""
    cdef TicTacToeState* s = <TicTacToeState*>state
    cdef int p = s.current
    s.marks[p] |= <uint16_t>(1 << action)
    s.move_count += 1
    if has_line(s.marks[p]):
        s.winner = p
    s.current = 1 - p


cdef void ttt_returns(const void* state, const void* tables, double* out) noexcept nogil:
    """+1 for the winner and -1 for the loser; 0 each on a draw or before the end."""
    cdef const TicTacToeState* s = <const TicTacToeState*>state
    out[0] = 0.0
    out[1] = 0.0
    if s.winner != TTT_NO_WINNER:
        out[s.winner] = 1.0
        out[1 - s.winner] = -1.0


cdef void ttt_determinize(void* state, const void* tables, int observer,
                          Rng* rng) noexcept nogil:
    pass  # perfect information: nothing is hidden, nothing to redraw


cdef void ttt_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """The returns at the end; before it, a small line count: each line still open to a
    player (no opposing mark) scores one point per mark he has in it.  A line holds at
    most 2 marks of a player before the end, so each side scores at most 16."""
    cdef const TicTacToeState* s = <const TicTacToeState*>state
    cdef int i, p
    cdef int score[2]
    if is_over(s):
        ttt_returns(state, tables, out)
        return
    score[0] = 0
    score[1] = 0
    for i in range(8):
        for p in range(2):
            if (s.marks[1 - p] & LINES[i]) == 0:
                score[p] += popcount64(s.marks[p] & LINES[i])
    out[0] = (score[0] - score[1]) / 16.0
    out[1] = 0.0 - out[0]        # (not -out[0]: no negative zero)


cdef uint64_t ttt_hash(const void* state, const void* tables) noexcept nogil:
    """Both masks and the side to move, packed into 19 bits and mixed (splitmix64)."""
    cdef const TicTacToeState* s = <const TicTacToeState*>state
    cdef uint64_t key = (s.marks[0] | (<uint64_t>s.marks[1] << 9)
                         | (<uint64_t>s.current << 18))
    return splitmix64_next(&key)


cdef void ttt_observation(const void* state, const void* tables, int player,
                          float* out) noexcept nogil:
    """The observer's marks (9 cells), the opponent's (9), then who is to move, relative
    to the observer (own, opponent; both 0 at the end).  Layout:
    ``boardrules/games/tic_tac_toe/observation.py``."""
    cdef const TicTacToeState* s = <const TicTacToeState*>state
    cdef int k
    cdef uint64_t marks
    memset(out, 0, sizeof(float) * TTT_OBSERVATION_SIZE)
    for k in range(2):
        marks = s.marks[(player + k) % 2]
        while marks:                     # only the marks there are, lowest cell first
            out[k * TTT_CELLS + ctz64(marks)] = 1.0
            marks &= marks - 1
    if not is_over(s):
        out[2 * TTT_CELLS + (s.current - player + 2) % 2] = 1.0

# --------------------------------------------------------------------------------------
# The compiled game and its Python-facing helpers (used by boardrules.games.tic_tac_toe)
# --------------------------------------------------------------------------------------

cdef class TicTacToeCore(CoreGame):
    """Tic-tac-toe: two players, X (player 0) moves first.  No options, no tables."""

    def __cinit__(self):
        self.contract.state_size = sizeof(TicTacToeState)
        self.contract.num_players = 2
        self.contract.num_teams = 2              # each player is a team of one
        self.contract.team_of[0] = 0
        self.contract.team_of[1] = 1
        self.contract.num_distinct_actions = TTT_CELLS   # action id = cell
        self.contract.max_legal_actions = TTT_CELLS
        self.contract.max_game_length = TTT_CELLS
        self.contract.has_hidden_information = False
        self.contract.tables = NULL              # nothing to look up
        self.contract.initial_state = ttt_initial_state
        self.contract.current_player = ttt_current_player
        self.contract.legal_actions = ttt_legal_actions
        self.contract.chance_outcomes = ttt_chance_outcomes
        self.contract.apply = ttt_apply
        self.contract.returns = ttt_returns
        self.contract.determinize = ttt_determinize
        self.contract.evaluate = ttt_evaluate
        self.contract.hash = ttt_hash
        self.contract.simultaneous = NULL   # no simultaneous choices
        self.contract.observation_size = TTT_OBSERVATION_SIZE
        self.contract.observation = ttt_observation

    def export(self, CoreState st):
        """The whole state as plain Python values (for views, JSON and pictures).

        ``board[c]`` is the owner of cell c (-1: empty); ``line`` the cells of the
        completed line(s), empty unless the game was won.
        """
        self._check(st)
        cdef TicTacToeState* s = <TicTacToeState*>st.data
        return {
            "marks": [s.marks[0], s.marks[1]],
            "board": [0 if (s.marks[0] >> c) & 1 else 1 if (s.marks[1] >> c) & 1 else -1
                      for c in range(TTT_CELLS)],
            "current": s.current,
            "move_count": s.move_count,
            "winner": s.winner,
            "line": _line_cells(s),
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (see ``CoreGame.load``): the board by
        value, and a position play can reach -- X (who starts) has as many marks as O or one
        more, at most one player completed a line, his last mark completed it, and the
        counters follow from the marks.  ``ValueError`` (``TypeError`` for a wrong type)
        ``"<field>: <why>"`` otherwise, ``st`` untouched."""
        self._check(st)
        cdef TicTacToeState tmp
        memset(&tmp, 0, sizeof(TicTacToeState))
        _load_position(&tmp, raw)
        st._replace_data(&tmp)

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal)."""
        self._check(st)
        cdef int action = self._action_id(action_id)
        cdef TicTacToeState* s = <TicTacToeState*>st.data
        if action < 0 or action >= TTT_CELLS:
            return "unknown_action"
        if is_over(s):
            return "game_over"
        if ((s.marks[0] | s.marks[1]) >> action) & 1:
            return "cell_taken"
        return "legal"


# --------------------------------------------------------------------------------------
# Positions: TicTacToeCore.load, the checked inverse of export
# --------------------------------------------------------------------------------------

cdef inline bint last_mark_won(uint16_t marks) noexcept nogil:
    """Some mark of ``marks`` is one whose removal leaves no line: the winner's last."""
    cdef uint16_t rest = marks
    cdef int c
    while rest:
        c = ctz64(rest)
        rest &= rest - 1
        if not has_line(marks & ~(1 << c)):
            return True
    return False


cdef int _load_position(TicTacToeState* s, dict raw) except -1:
    cdef int c, p
    cdef int n[2]
    if set(raw) != {"marks", "board", "current", "move_count", "winner", "line"}:
        raise ValueError("board: a tic-tac-toe position has the fields marks, board, "
                         "current, move_count, winner, line")
    board = raw["board"]
    if not isinstance(board, list) or len(board) != TTT_CELLS:
        raise ValueError("board: a list of 9 owners (-1 empty, 0 X, 1 O)")
    board = list.copy(board)
    for c in range(TTT_CELLS):
        p = field_int(board[c], f"board[{c}]", -1, 1)
        if p >= 0:
            s.marks[p] |= <uint16_t>(1 << c)
    n[0] = popcount64(s.marks[0])
    n[1] = popcount64(s.marks[1])
    marks = raw["marks"]
    if not isinstance(marks, list) or len(marks) != 2:
        raise ValueError("marks: the two players' cell masks")
    marks = list.copy(marks)
    for p in range(2):
        if field_int(marks[p], f"marks[{p}]", 0, TTT_ALL) != s.marks[p]:
            raise ValueError(f"marks[{p}]: the player's cell mask, as the board shows it")
    if n[0] - n[1] not in (0, 1):
        raise ValueError(f"board: X (who starts) has {n[0]} marks and O {n[1]}: X has as "
                         "many as O or one more")
    s.move_count = n[0] + n[1]
    s.current = s.move_count % 2
    s.winner = TTT_NO_WINNER
    for p in range(2):
        if has_line(s.marks[p]):
            if s.winner != TTT_NO_WINNER:
                raise ValueError("board: both players have a line (the first ends the game)")
            if s.current != 1 - p or not last_mark_won(s.marks[p]):
                raise ValueError(f"board: {'XO'[p]}'s line must be completed by the last "
                                 "mark (the game ends with the first line)")
            s.winner = p
    for field, value in (("current", s.current), ("move_count", s.move_count),
                         ("winner", s.winner)):
        if field_int(raw[field], field, -1, 9) != value:
            raise ValueError(f"{field}: the board gives {value}")
    line = raw["line"]
    if not isinstance(line, list) or list.copy(line) != _line_cells(s):
        raise ValueError("line: the cells of the completed line(s), as the board shows them")
    return 0


cdef list _line_cells(const TicTacToeState* s):
    cdef uint16_t line = 0
    cdef int i
    if s.winner != TTT_NO_WINNER:
        for i in range(8):
            if (s.marks[s.winner] & LINES[i]) == LINES[i]:
                line |= LINES[i]
    return [c for c in range(TTT_CELLS) if (line >> c) & 1]
