# A toy game of sequential hidden commits, for the search core's tests: not a registered
# game (no facade), driven through CoreState and the search entry points directly.

from libc.stdint cimport uint8_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    TC_ACTIONS = 3           # action ids, for both players: 0 rock, 1 paper, 2 scissors
    TC_MAX_ROUNDS = 8
    # ToyCommitCore(flaw=...): a rules core that contradicts itself, for the tests that
    # no search trusts a state (search.pyx, SEARCH_NO_MOVE)
    TC_FLAW_NONE = 0
    TC_FLAW_DEAD_WORLD = 1   # player 1's worlds leave him no move (the game not over)
    TC_FLAW_OVER_WORLD = 2   # player 1's worlds are over although the state is not
    TC_FLAW_DEAD_REPLY = 3   # every state where player 1 is to reply leaves him no move


ctypedef struct ToyCommitTables:
    double payoff[TC_ACTIONS * TC_ACTIONS]  # player 0's payoff of (his * 3 + player 1's)
    int rounds
    int flaw                 # TC_FLAW_*


ctypedef struct ToyCommitState:
    uint8_t round            # rounds revealed
    uint8_t pending          # 1: player 0 has committed this round (hidden), player 1 to move
    uint8_t commit           # player 0's pending commit (player 1 cannot see it)
    uint8_t dead             # TC_FLAW_DEAD_WORLD: a world drawn with no move (else 0)
    uint8_t history[2 * TC_MAX_ROUNDS]  # the revealed pairs (player 0's, player 1's)


cdef class ToyCommitCore(CoreGame):
    cdef ToyCommitTables tables
