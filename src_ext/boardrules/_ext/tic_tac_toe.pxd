# Tic-tac-toe rules core: the state struct and the compiled game.
# An example game: the smallest complete implementation of the contract in core.pxd.

from libc.stdint cimport int8_t, uint8_t, uint16_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    TTT_CELLS = 9            # cell c = 3 * row + column, row 0 at the top ("a1" is cell 0)
    TTT_ALL = 0x1FF          # the nine cell bits
    TTT_NO_WINNER = -1
    TTT_OBSERVATION_SIZE = 2 * TTT_CELLS + 2   # two mark planes, then who is to move


ctypedef struct TicTacToeState:
    uint16_t marks[2]        # bit c set: player p (0 plays X, 1 plays O) has marked cell c
    uint8_t current          # the player to move
    uint8_t move_count       # marks on the board
    int8_t winner            # the player who completed a line, or TTT_NO_WINNER
    uint8_t pad0             # explicit padding: every byte of the struct is defined


cdef class TicTacToeCore(CoreGame):
    pass
