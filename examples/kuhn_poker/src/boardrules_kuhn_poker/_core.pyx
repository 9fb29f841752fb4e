"""Kuhn poker rules core: the only implementation of the game's rules.

A game built outside boardrules, in a package of its own: the tutorial
(``docs/tutorial_add_a_game.rst`` of boardrules) walks through it.

Three cards, the jack, the queen and the king (J < Q < K); two players, who ante one chip
each.  Chance deals one card to each player (player 0 first), uniformly from the cards
left; each sees only his own.  Then player 0 passes or bets one chip:

* after a pass, player 1 passes (showdown for the antes) or bets; facing that bet,
  player 0 passes (folds: player 1 takes the pot) or bets (calls: showdown);
* after a bet, player 1 passes (folds: player 0 takes the pot) or bets (calls: showdown).

At a showdown the higher card takes the pot.  The winner gains what the loser put in (1
or 2 chips); returns are chips / 2, in [-1, 1].  These are the rules of OpenSpiel's
``kuhn_poker``.  Action ids::

    0 pass    1 bet    2 + 3 * p + c  deal card c (0 J, 1 Q, 2 K) to player p
"""

from libc.stdint cimport uint64_t
from libc.string cimport memset

from boardrules._ext.core cimport (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    field_int,
    rng_below,
    splitmix64_next,
)


cdef inline bint is_over(const KuhnState* s) noexcept nogil:
    """The betting is closed: pass pass, bet pass, bet bet (two actions), or pass bet
    then pass or bet (three)."""
    if s.moves == 3:
        return True
    return s.moves == 2 and s.bets != 0b10   # only "pass bet" asks for a third action


cdef inline int to_deal(const KuhnState* s) noexcept nogil:
    """The player whose card is dealt next, or -1 once both are dealt."""
    if s.card[0] == KUHN_NO_CARD:
        return 0
    if s.card[1] == KUHN_NO_CARD:
        return 1
    return -1


cdef inline bint is_showdown(const KuhnState* s) noexcept nogil:
    """The game ended with both in for the same stake: the cards are shown."""
    return is_over(s) and s.pot[0] == s.pot[1]


cdef inline int winner_of(const KuhnState* s) noexcept nogil:
    """At the end: the player who folded loses (he put in less); at a showdown the
    higher card wins."""
    if s.pot[0] != s.pot[1]:
        return 0 if s.pot[0] > s.pot[1] else 1
    return 0 if s.card[0] > s.card[1] else 1


# --------------------------------------------------------------------------------------
# The contract
# --------------------------------------------------------------------------------------

cdef void kuhn_initial_state(void* state, const void* tables) noexcept nogil:
    """No card dealt, both antes in the pot: the deal (a chance node) comes first."""
    cdef KuhnState* s = <KuhnState*>state
    memset(s, 0, sizeof(KuhnState))
    s.card[0] = KUHN_NO_CARD
    s.card[1] = KUHN_NO_CARD
    s.pot[0] = 1
    s.pot[1] = 1


cdef int kuhn_current_player(const void* state, const void* tables) noexcept nogil:
    """CHANCE_PLAYER while a card is to be dealt, then the players in turn (player 0
    first), TERMINAL_PLAYER once the betting is closed."""
    cdef const KuhnState* s = <const KuhnState*>state
    if to_deal(s) >= 0:
        return CHANCE_PLAYER
    if is_over(s):
        return TERMINAL_PLAYER
    return s.moves % 2


cdef int kuhn_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    """Pass and bet for the player to move; none at the deal or at the end."""
    cdef const KuhnState* s = <const KuhnState*>state
    if to_deal(s) >= 0 or is_over(s):
        return 0
    out[0] = KUHN_PASS
    out[1] = KUHN_BET
    return 2


cdef int kuhn_chance_outcomes(const void* state, const void* tables, int* out,
                              double* probs) noexcept nogil:
    """At the deal: each card not dealt yet, to the player whose turn it is to get one,
    uniformly (3 cards for player 0's, the 2 left for player 1's)."""
    cdef const KuhnState* s = <const KuhnState*>state
    cdef int p = to_deal(s)
    cdef int c, n = 0
    if p < 0:
        return 0
    for c in range(KUHN_CARDS):
        if c != s.card[0]:             # player 1's card is never player 0's
            out[n] = KUHN_DEAL + KUHN_CARDS * p + c
            n += 1
    for c in range(n):
        probs[c] = 1.0 / n
    return n


cdef void kuhn_apply(void* state, const void* tables, int action) noexcept nogil:
    """A deal gives its card to its player; a bet puts one chip in the bettor's pot (a
    pass puts in nothing); either is recorded in the betting sequence."""
    cdef KuhnState* s = <KuhnState*>state
    cdef int p
    if action >= KUHN_DEAL:
        p = (action - KUHN_DEAL) // KUHN_CARDS
        s.card[p] = (action - KUHN_DEAL) % KUHN_CARDS
        return
    if action == KUHN_BET:
        s.pot[s.moves % 2] += 1
        s.bets |= 1 << s.moves
    s.moves += 1


cdef void kuhn_returns(const void* state, const void* tables, double* out) noexcept nogil:
    """At the end the winner gains what the loser put in (1 or 2 chips) and the loser
    loses it, both halved to lie in [-1, 1]; 0 each before the end."""
    cdef const KuhnState* s = <const KuhnState*>state
    cdef int w
    out[0] = 0.0
    out[1] = 0.0
    if to_deal(s) < 0 and is_over(s):
        w = winner_of(s)
        out[w] = s.pot[1 - w] / 2.0
        out[1 - w] = -s.pot[1 - w] / 2.0


cdef void kuhn_determinize(void* state, const void* tables, int observer,
                           Rng* rng) noexcept nogil:
    """The opponent's card, once dealt and unless shown at a showdown, is drawn again
    uniformly from the cards ``observer`` has not seen: every card but his own (all
    three before his own is dealt).  Nothing else is hidden."""
    cdef KuhnState* s = <KuhnState*>state
    cdef int other = 1 - observer
    cdef int own = s.card[observer]
    cdef int k
    if s.card[other] == KUHN_NO_CARD or is_showdown(s):
        return
    if own == KUHN_NO_CARD:
        s.card[other] = <int>rng_below(rng, KUHN_CARDS)
        return
    k = <int>rng_below(rng, KUHN_CARDS - 1)    # the k-th card that is not his own
    s.card[other] = k if k < own else k + 1


cdef void kuhn_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """The returns at the end; before it, the showdown were it held now: the higher
    card wins the smaller stake (0 each before both cards are dealt)."""
    cdef const KuhnState* s = <const KuhnState*>state
    cdef int stake
    if to_deal(s) >= 0 or is_over(s):
        kuhn_returns(state, tables, out)
        return
    stake = s.pot[0] if s.pot[0] < s.pot[1] else s.pot[1]
    out[0] = stake / 2.0 if s.card[0] > s.card[1] else -stake / 2.0
    out[1] = 0.0 - out[0]        # (not -out[0]: no negative zero)


cdef uint64_t kuhn_hash(const void* state, const void* tables) noexcept nogil:
    """The cards, the pots and the betting packed into 16 bits and mixed (splitmix64:
    no two positions share a key)."""
    cdef const KuhnState* s = <const KuhnState*>state
    cdef uint64_t key = ((s.card[0] + 1) | ((s.card[1] + 1) << 2) | (s.pot[0] << 4)
                         | (s.pot[1] << 6) | (<uint64_t>s.moves << 8)
                         | (<uint64_t>s.bets << 12))
    return splitmix64_next(&key)


cdef void kuhn_observation(const void* state, const void* tables, int player,
                           float* out) noexcept nogil:
    """What ``player`` sees, seats relative to him: his card (3, one-hot), the
    opponent's (3, one-hot, at a showdown only), which seats have a card (2), the
    betting (3 x 2: pass or bet for each betting action in order), the chips each seat
    put in (2), and who is to move (2; both 0 at the deal and at the end).  Layout:
    ``boardrules_kuhn_poker/observation.py``."""
    cdef const KuhnState* s = <const KuhnState*>state
    cdef int k, seat
    cdef int mover = kuhn_current_player(state, tables)
    memset(out, 0, sizeof(float) * KUHN_OBSERVATION_SIZE)
    if s.card[player] != KUHN_NO_CARD:
        out[s.card[player]] = 1.0
    if is_showdown(s):
        out[3 + s.card[1 - player]] = 1.0
    for k in range(2):
        seat = (player + k) % 2
        if s.card[seat] != KUHN_NO_CARD:
            out[6 + k] = 1.0
        out[14 + k] = s.pot[seat]
    for k in range(s.moves):
        out[8 + 2 * k + ((s.bets >> k) & 1)] = 1.0
    if mover >= 0:
        out[16 + (mover - player + 2) % 2] = 1.0

# --------------------------------------------------------------------------------------
# The compiled game and its Python-facing helpers (used by the facade, game.py)
# --------------------------------------------------------------------------------------

cdef class KuhnPokerCore(CoreGame):
    """Kuhn poker: two players, three cards, player 0 acts first.  No options, no
    tables."""

    def __cinit__(self):
        self.contract.state_size = sizeof(KuhnState)
        self.contract.num_players = 2
        self.contract.num_teams = 2              # each player is a team of one
        self.contract.team_of[0] = 0
        self.contract.team_of[1] = 1
        self.contract.num_distinct_actions = KUHN_ACTIONS
        self.contract.max_legal_actions = KUHN_CARDS     # the first deal: 3 cards
        self.contract.max_game_length = KUHN_MAX_GAME_LENGTH
        self.contract.has_hidden_information = True      # the opponent's card
        self.contract.tables = NULL              # nothing to look up
        self.contract.initial_state = kuhn_initial_state
        self.contract.current_player = kuhn_current_player
        self.contract.legal_actions = kuhn_legal_actions
        self.contract.chance_outcomes = kuhn_chance_outcomes
        self.contract.apply = kuhn_apply
        self.contract.returns = kuhn_returns
        self.contract.determinize = kuhn_determinize
        self.contract.evaluate = kuhn_evaluate
        self.contract.hash = kuhn_hash
        self.contract.simultaneous = NULL   # no simultaneous choices
        self.contract.forced = NULL         # no forced steps
        self.contract.observation_size = KUHN_OBSERVATION_SIZE
        self.contract.observation = kuhn_observation

    def export(self, CoreState st):
        """The whole state as plain Python values (for views, JSON and pictures).

        ``cards[p]`` is player p's card (0 J, 1 Q, 2 K; -1 not dealt); ``pot[p]`` the
        chips he put in; ``betting`` the betting actions so far (0 pass, 1 bet);
        ``winner`` the winner at the end (-1 before); ``showdown`` whether the cards
        were shown.
        """
        self._check(st)
        cdef KuhnState* s = <KuhnState*>st.data
        return {
            "cards": [s.card[0], s.card[1]],
            "pot": [s.pot[0], s.pot[1]],
            "betting": [(s.bets >> k) & 1 for k in range(s.moves)],
            "winner": winner_of(s) if to_deal(s) < 0 and is_over(s) else -1,
            "showdown": to_deal(s) < 0 and is_showdown(s),
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (see ``CoreGame.load``): the cards and
        the betting by value, and a position play can reach -- player 1's card dealt only
        after player 0's and never the same card, no betting before both are dealt, a
        betting sequence the rules allow -- with the pots, the winner and the showdown
        following from them.  ``ValueError`` (``TypeError`` for a wrong type)
        ``"<field>: <why>"`` otherwise, ``st`` untouched."""
        self._check(st)
        cdef KuhnState tmp
        memset(&tmp, 0, sizeof(KuhnState))
        _load_position(&tmp, raw)
        st._replace_data(&tmp)

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal)."""
        self._check(st)
        cdef int action = self._action_id(action_id)
        cdef KuhnState* s = <KuhnState*>st.data
        cdef int p = to_deal(s)
        if action < 0 or action >= KUHN_ACTIONS:
            return "unknown_action"
        if p < 0 and is_over(s):
            return "game_over"
        if p >= 0:
            if action < KUHN_DEAL:
                return "deal_expected"
            if (action - KUHN_DEAL) // KUHN_CARDS != p:
                return "wrong_player_dealt"
            if p == 1 and (action - KUHN_DEAL) % KUHN_CARDS == s.card[0]:
                return "card_dealt"
            return "legal"
        if action >= KUHN_DEAL:
            return "not_chance"
        return "legal"


# --------------------------------------------------------------------------------------
# Positions: KuhnPokerCore.load, the checked inverse of export
# --------------------------------------------------------------------------------------

cdef int _load_position(KuhnState* s, dict raw) except -1:
    cdef int p, k, n
    if set(raw) != {"cards", "pot", "betting", "winner", "showdown"}:
        raise ValueError("cards: a Kuhn poker position has the fields cards, pot, "
                         "betting, winner, showdown")
    cards = raw["cards"]
    if not isinstance(cards, list) or len(cards) != 2:
        raise ValueError("cards: a list of 2 cards (-1 not dealt, 0 J, 1 Q, 2 K)")
    cards = list.copy(cards)
    for p in range(2):
        s.card[p] = field_int(cards[p], f"cards[{p}]", KUHN_NO_CARD, KUHN_CARDS - 1)
    if s.card[0] == KUHN_NO_CARD and s.card[1] != KUHN_NO_CARD:
        raise ValueError("cards[1]: player 0's card is dealt first")
    if s.card[1] != KUHN_NO_CARD and s.card[0] == s.card[1]:
        raise ValueError("cards[1]: the two players hold different cards")
    betting = raw["betting"]
    if not isinstance(betting, list) or len(betting) > KUHN_MAX_BETTING:
        raise ValueError("betting: a list of at most 3 actions (0 pass, 1 bet)")
    betting = list.copy(betting)
    n = len(betting)
    if n and to_deal(s) >= 0:
        raise ValueError("betting: the betting starts once both cards are dealt")
    s.pot[0] = 1
    s.pot[1] = 1
    for k in range(n):
        if is_over(s):
            raise ValueError(f"betting[{k}]: the betting was closed before it")
        if field_int(betting[k], f"betting[{k}]", KUHN_PASS, KUHN_BET) == KUHN_BET:
            s.pot[k % 2] += 1
            s.bets |= 1 << k
        s.moves += 1
    pot = raw["pot"]
    if not isinstance(pot, list) or len(pot) != 2:
        raise ValueError("pot: the chips each player put in, a list of 2")
    pot = list.copy(pot)
    for p in range(2):
        if field_int(pot[p], f"pot[{p}]", 1, 2) != s.pot[p]:
            raise ValueError(f"pot[{p}]: the betting gives {s.pot[p]}")
    over = to_deal(s) < 0 and is_over(s)
    winner = winner_of(s) if over else -1
    if field_int(raw["winner"], "winner", -1, 1) != winner:
        raise ValueError(f"winner: the cards and the betting give {winner}")
    if type(raw["showdown"]) is not bool or raw["showdown"] != (over and is_showdown(s)):
        raise ValueError("showdown: whether the betting ended with equal stakes")
    return 0
