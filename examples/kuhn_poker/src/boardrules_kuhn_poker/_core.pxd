# Kuhn poker rules core: the state struct and the compiled game.
# A game of its own package, built against the installed boardrules: everything it
# cimports comes from boardrules._ext.core (boardrules.get_include() on the include path).

from libc.stdint cimport int8_t, uint8_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    KUHN_CARDS = 3           # card 0 is the jack, 1 the queen, 2 the king (K beats Q beats J)
    KUHN_NO_CARD = -1        # not dealt yet
    # action ids: pass, bet, then the deals -- "deal J to 0" is KUHN_DEAL + 3 * 0 + 0
    KUHN_PASS = 0
    KUHN_BET = 1
    KUHN_DEAL = 2
    KUHN_ACTIONS = KUHN_DEAL + 2 * KUHN_CARDS           # 8
    KUHN_MAX_BETTING = 3     # pass, bet, then pass (fold) or bet (call)
    KUHN_MAX_GAME_LENGTH = 2 + KUHN_MAX_BETTING         # two deals, then the betting
    KUHN_OBSERVATION_SIZE = 18                          # see kuhn_observation


ctypedef struct KuhnState:
    int8_t card[2]           # each player's card (0 J, 1 Q, 2 K), KUHN_NO_CARD until dealt
    uint8_t pot[2]           # chips each player has put in: the ante 1, plus 1 for a bet
    uint8_t moves            # betting actions so far (0 to 3)
    uint8_t bets             # bit k set: betting action k was a bet (else a pass)


cdef class KuhnPokerCore(CoreGame):
    pass
