# Pig (the dice game) rules core: the state struct and the compiled game.
# An example game with chance in the middle of play: every roll is a chance node.

from libc.stdint cimport int8_t, uint8_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    PIG_TARGET = 20          # the first player to reach 20 points wins at once
    PIG_TURN_LIMIT = 40      # ... and the game ends after 40 turns in all
    # rolls in one turn: 9 non-1 dice (at least 2 each) keep a turn total below 20, the
    # 10th roll wins or rolls a 1; so a game has at most 40 turns of 10 rolls and 10 dice
    PIG_MAX_ROLLS = 10
    PIG_MAX_GAME_LENGTH = PIG_TURN_LIMIT * 2 * PIG_MAX_ROLLS   # 800
    PIG_ROLL = 0             # action ids: roll, hold, then "die 1" .. "die 6"
    PIG_HOLD = 1
    PIG_DIE_1 = 2
    PIG_ACTIONS = 8
    PIG_FACES = 6
    PIG_NO_WINNER = -1
    PIG_OBSERVATION_SIZE = 18   # see pig_observation

    # phases
    PIG_DECIDE = 0           # the player to move chooses roll (or hold, turn total > 0)
    PIG_ROLLING = 1          # a chance node: the die is rolling
    PIG_OVER = 2             # the game is over


ctypedef struct PigState:
    uint8_t score[2]         # banked points (the winner's includes his last turn total)
    uint8_t turn_total       # points of the turn in progress, lost on a 1
    uint8_t current          # the player whose turn it is (0 moves first)
    uint8_t turns            # turns completed (a turn ends with hold or a 1)
    uint8_t phase            # PIG_DECIDE, PIG_ROLLING or PIG_OVER
    int8_t winner            # the winner, or PIG_NO_WINNER (game on, or a draw)
    # the last die rolled (1 to 6), 0 before the first roll: shown in views, not part
    # of the position (not hashed)
    uint8_t last_die


cdef class PigCore(CoreGame):
    pass
