# Connect Four rules core: the state struct, the lookup tables and the compiled game.
# An example game: 7 columns of 6 rows, bitboards in the usual 7-bits-per-column layout.

from libc.stdint cimport int8_t, uint8_t, uint64_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    C4_COLUMNS = 7
    C4_ROWS = 6
    C4_STRIDE = 7            # bits per column: 6 rows and an always-empty guard bit on top
    C4_CELLS = 42
    C4_WINDOWS = 69          # lines of four cells: 24 across, 21 up, 12 + 12 diagonal
    C4_NO_WINNER = -1
    C4_OBSERVATION_SIZE = 2 * C4_CELLS + 2   # two disc planes, then who is to move


ctypedef struct ConnectFourState:
    uint64_t discs[2]        # bit 7 * column + row (row 0 at the bottom): player p's discs
    uint8_t height[C4_COLUMNS]  # discs in each column
    uint8_t current          # the player to move (0 moves first)
    uint8_t move_count       # discs on the board
    int8_t winner            # the player who connected four, or C4_NO_WINNER
    uint8_t pad0[6]          # explicit padding: every byte of the struct is defined


ctypedef struct ConnectFourTables:
    uint64_t windows[C4_WINDOWS]   # every line of four cells
    uint64_t starts[4]             # per direction: the lowest cell of each line of four
    int shifts[4]                  # per direction: bit distance between neighbours
    uint64_t centre                # the cells of the centre column d


cdef class ConnectFourCore(CoreGame):
    cdef ConnectFourTables tables
