"""Rome & Carthage rules core: the only implementation of the game's rules.

The rulebook (shared/rules/rome_and_carthage.txt) is cited by its section names; the
readings of its unclear points are numbered R1, R2, ... as under "Rules clarifications"
on the docs page (docs/rome_and_carthage.rst), which also gives the notation.

A turn is a sequence of small atomic decisions, each with at least one legal completion:

* draw (chance, one card; two for the lone player of the 3-player game);
* ``pass``, ``uprising <capital>``, ``treason`` (then one or two enemy moves and their
  battles, fought at once), or the first move ``<from>-<to>``;
* after the first move: a second infantry's move, the first card of a forced march
  (``pay v``), or ``done``; a forced march is paid one card at a time in non-increasing
  value order and ends as soon as it reaches 3 points, then one more simple move;
* a move onto a friendly army is the first leg of a forced march passing through it
  (R22): the payment follows at once, then that army's second leg;
* battles: ``battle <city>`` when several are pending, then each side's cards face down
  (``play a+b``, or ``play v`` with one card), the reveal, a lone spy's replay or
  ``withdraw``, tie rounds.

Cards are values (their colour only matters for the deal), hands and piles are counts:
the pile has no order, so its order is secret to everyone by construction.
"""

from libc.math cimport tanh
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from boardrules._ext.core cimport (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    ctz64,
    exact_int,
    field_int,
    hash_bytes,
    popcount64,
    rng_below,
    rng_uniform,
)

# value of each card index; the deck: four colours of 0, 0, 1 .. 10, 15 ("Components")
CARD_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15)
DECK = (8, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)
# "Distributing the resource cards": the hand of a one-empire and of a two-empire player
ONE_EMPIRE_HAND = (0, 0, 2, 4, 6, 8, 10, 15)
TWO_EMPIRE_HAND = (0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 15)
# "Components": 7 armies an empire
ARMY_SET = (3, 2, 1, 1)
KINDS = ("infantry", "galley", "chariot", "elephant")
PHASES = ("place", "draw", "main", "treason", "treason_second", "moved", "pay", "extra",
          "battle_order", "commit", "spy", "over", "consent", "ally_move", "ally_moved")
END_REASONS = ("", "capitals", "elimination", "no_progress", "round_cap", "army_reduced",
               "weak_and_capital")
# "Turns 1 and 2": armies placed per empire in each placement turn
PLACE_QUOTA = (4, 3)
# a bound on the non-battle actions of one turn (see max_game_length)
cdef int TURN_ACTIONS = 32
# "Components": the four 15s of the four colours
cdef int DECK_FIFTEENS = 4

cdef int VALUE[RC_VALUES]
VALUE[:] = CARD_VALUE
cdef int ARMY_SET_C[RC_KINDS]
ARMY_SET_C[:] = ARMY_SET
cdef int PLACE_QUOTA_C[2]
PLACE_QUOTA_C[:] = PLACE_QUOTA
# material weights for evaluate(): infantry, galley, chariot, elephant
cdef double WEIGHT[RC_KINDS]
WEIGHT[:] = [1.0, 1.0, 1.5, 1.5]


# ------------------------------------------------------------------ small helpers

cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


cdef inline int code_empire(int code) noexcept nogil:
    return (code - 1) >> 2


cdef inline int code_kind(int code) noexcept nogil:
    return (code - 1) & 3


cdef inline int code_team(const RcTables* t, int code) noexcept nogil:
    return t.empire_team[code_empire(code)]


cdef inline int code_player(const RcTables* t, int code) noexcept nogil:
    return t.empire_player[code_empire(code)]


cdef inline int hand_size(const RcState* s, int p) noexcept nogil:
    cdef int v, n = 0
    for v in range(RC_VALUES):
        n += s.hand[p][v]
    return n


cdef inline int nonzero_points(const RcState* s, int p, int top) noexcept nogil:
    """Points of p's non-zero cards of index <= top."""
    cdef int v, n = 0
    for v in range(1, top + 1):
        n += s.hand[p][v] * VALUE[v]
    return n


cdef inline bint sees_hand(const RcTables* t, int viewer, int q) noexcept nogil:
    """Setup: "Allied players may ... show each other their cards" -- except in Equal
    Arms ("Allied players may NOT show each other their cards")."""
    return viewer == q or (not t.equal_arms and t.player_team[viewer] == t.player_team[q])


cdef int armies_of_player(const RcState* s, const RcTables* t, int p) noexcept nogil:
    cdef int c, e, k, n = 0
    for c in range(t.ncities):
        if s.army[c] and code_player(t, s.army[c]) == p:
            n += 1
        if s.attacker[c] and code_player(t, s.attacker[c]) == p:
            n += 1
    if s.transit and code_player(t, s.transit) == p:
        n += 1
    for e in range(RC_EMPIRES):
        if t.empire_player[e] == p:
            for k in range(RC_KINDS):
                n += s.unplaced[e][k]
    return n


cdef int armies_of_team(const RcState* s, const RcTables* t, int team) noexcept nogil:
    cdef int p, n = 0
    for p in range(t.num_players):
        if t.player_team[p] == team:
            n += armies_of_player(s, t, p)
    return n


cdef int active_players(const RcState* s, const RcTables* t) noexcept nogil:
    cdef int p, n = 0
    for p in range(t.num_players):
        if not s.excluded[p]:
            n += 1
    return n


cdef int ally_of(const RcState* s, const RcTables* t, int p) noexcept nogil:
    """p's partner still in the game, or -1 (no partner, or he dropped out)."""
    cdef int q
    for q in range(t.num_players):
        if q != p and t.player_team[q] == t.player_team[p] and not s.excluded[q]:
            return q
    return -1


# ------------------------------------------------------------------ the board

cdef inline void set_resident(RcState* s, const RcTables* t, int c, int code,
                              int origin) noexcept nogil:
    cdef int team
    if s.army[c]:
        s.side_mask[code_team(t, s.army[c])] &= ~bit(c)
    s.army[c] = code
    s.origin[c] = origin
    if code:
        team = code_team(t, code)
        s.side_mask[team] |= bit(c)


cdef inline void set_attacker(RcState* s, int c, int code, int origin) noexcept nogil:
    s.attacker[c] = code
    s.att_origin[c] = origin
    if code:
        s.att_mask |= bit(c)
    else:
        s.att_mask &= ~bit(c)


cdef bint capital_occupied(const RcState* s, const RcTables* t, int p) noexcept nogil:
    """"Occupied capital": an enemy army stands on a capital of one of p's empires (R7:
    for a two-empire player, either of his capitals; R6: during the battle for it the
    city is not yet occupied -- its defender still stands there)."""
    cdef int e, c
    for e in range(RC_EMPIRES):
        if (t.player_empires[p] >> e) & 1:
            c = t.capital[e]
            if s.army[c] and code_team(t, s.army[c]) != t.player_team[p]:
                return True
    return False


cdef uint64_t reach(const RcState* s, const RcTables* t, int code, int c) noexcept nogil:
    """Cities one simple move takes army ``code`` from c to, before the rule on where it
    may stop ("Move a piece": elephant and infantry one land city, galley one city at sea
    or along the coasts, chariot one or two land cities, passing through friendly but
    never enemy cities; never into a city already holding two armies, a battle)."""
    cdef int team = code_team(t, code)
    cdef uint64_t enemy = s.side_mask[1 - team]
    cdef uint64_t via, out
    cdef int kind = code_kind(code)
    if kind == KIND_GALLEY:
        return t.sea[c] & ~s.att_mask
    out = t.land[c] & ~s.att_mask
    if kind == KIND_CHARIOT:
        via = t.land[c] & ~enemy & ~s.att_mask
        while via:
            out |= t.land[ctz64(via)] & ~s.att_mask
            via &= via - 1
        out &= ~bit(c)
    return out


cdef inline uint64_t destinations_of(const RcState* s, const RcTables* t, int code,
                                     int c) noexcept nogil:
    """Where army ``code`` standing on c may end a simple move: never on a friendly
    army ("An army may not stop in a city occupied by a friendly army")."""
    return reach(s, t, code, c) & ~s.side_mask[code_team(t, code)]


cdef uint64_t destinations(const RcState* s, const RcTables* t, int c) noexcept nogil:
    """Cities the resident army of c may reach by one simple move, moved as its owner
    would move it."""
    return destinations_of(s, t, s.army[c], c)


cdef uint64_t passing_stops(const RcState* s, const RcTables* t, int c) noexcept nogil:
    """R22: the friendly cities the resident army of c may enter as the first leg of its
    forced march, to pass through ("In a move of 2 cities or more, an army may pass
    through a city occupied by a friendly army"): those from which its second leg can
    end somewhere (c itself, which it leaves, included), so the choice always has a
    completion."""
    cdef int code = s.army[c]
    cdef uint64_t friendly = s.side_mask[code_team(t, code)]
    cdef uint64_t rest = reach(s, t, code, c) & friendly
    cdef uint64_t out = 0
    cdef int d
    while rest:
        d = ctz64(rest)
        rest &= rest - 1
        if reach(s, t, code, d) & ~(friendly & ~bit(c)):
            out |= bit(d)
    return out


cdef uint64_t movers(const RcState* s, const RcTables* t, int team, int kind) noexcept nogil:
    """Residents of ``team`` (of ``kind``; -1 any) that have a simple move."""
    cdef uint64_t rest = s.side_mask[team] & ~s.att_mask
    cdef uint64_t out = 0
    cdef int c
    while rest:
        c = ctz64(rest)
        rest &= rest - 1
        if (kind < 0 or code_kind(s.army[c]) == kind) and destinations(s, t, c):
            out |= bit(c)
    return out


cdef uint64_t own_armies(const RcState* s, const RcTables* t, int p, int kind) noexcept nogil:
    """The residents (of ``kind``; -1 any) the player p himself moves, those of his own
    empires ("Move a piece": a two-empire player moves an army of the empire of his
    choice), not held in a battle."""
    cdef uint64_t rest = s.side_mask[t.player_team[p]] & ~s.att_mask
    cdef uint64_t out = 0
    cdef int c
    while rest:
        c = ctz64(rest)
        rest &= rest - 1
        if code_player(t, s.army[c]) == p and (kind < 0 or code_kind(s.army[c]) == kind):
            out |= bit(c)
    return out


cdef uint64_t own_movers(const RcState* s, const RcTables* t, int p, int kind) noexcept nogil:
    """p's own armies (of ``kind``; -1 any) that have a simple move."""
    cdef uint64_t rest = own_armies(s, t, p, kind)
    cdef uint64_t out = 0
    cdef int c
    while rest:
        c = ctz64(rest)
        rest &= rest - 1
        if destinations(s, t, c):
            out |= bit(c)
    return out


cdef uint64_t own_passers(const RcState* s, const RcTables* t, uint64_t armies) noexcept nogil:
    """The ``armies`` that may pass through a friend (R22)."""
    cdef uint64_t out = 0
    cdef int c
    while armies:
        c = ctz64(armies)
        armies &= armies - 1
        if passing_stops(s, t, c):
            out |= bit(c)
    return out


cdef uint64_t second_infantry_candidates(const RcState* s, const RcTables* t,
                                         int p) noexcept nogil:
    """p's infantry other than the one already moved, whether or not they can move."""
    cdef uint64_t m = own_armies(s, t, p, KIND_INFANTRY)
    if s.second_infantry:
        m &= ~bit(s.second_infantry - 1)
    return m


cdef uint64_t second_infantry_movers(const RcState* s, const RcTables* t, int team,
                                     int p) noexcept nogil:
    """"Or two infantry": infantry other than the one already moved (p < 0: any player's
    of the team, for a Treason)."""
    cdef uint64_t m
    if p >= 0:
        m = own_movers(s, t, p, KIND_INFANTRY)
    else:
        m = movers(s, t, team, KIND_INFANTRY)
    if s.second_infantry:
        m &= ~bit(s.second_infantry - 1)
    return m


# ------------------------------------------------------------------ cards

cdef void check_fifteens_aside(RcState* s) noexcept nogil:
    """"Draw pile": "The last two '15's are added to the new draw pile after the last '15'
    held by a player has been played."  All four 15s are dealt, so at the rulebook's
    moment "the last 15 held" is the last 15 still in the game: R8 waits until every 15
    neither boxed nor lost (``removed``) lies aside, then they join the spent cards (the
    next reshuffle takes them).  That count is public; whether a hand holds a 15 is not
    (a drawn 15 is seen by its side only), and must not show in the public state."""
    if s.fifteens_aside == 0:
        return
    if s.fifteens_aside + s.removed[RC_V15] < DECK_FIFTEENS:
        return
    s.discard[0][RC_V15] += s.fifteens_aside
    s.fifteens_aside = 0


cdef void spend_card(RcState* s, const RcTables* t, int p, int v) noexcept nogil:
    """A card p has laid down (battle) or paid (forced march), already out of his hand.
    The play is public, so everyone's knowledge of his hand loses the card.  Zeros
    always go back to their owner ("Battle": the Zeros ... are always recovered -- R2: at
    once, after each reveal); 15s follow "Draw pile"; the rest are spent face down."""
    if v == 0:
        s.hand[p][0] += 1
        return
    if s.known[p][v]:
        s.known[p][v] -= 1
    elif s.unknown[p]:
        s.unknown[p] -= 1
    if v == RC_V15:
        if t.equal_arms:
            s.removed[RC_V15] += 1      # Equal Arms: used 15s leave the game
        elif s.fifteens_removed < 2:
            s.removed[RC_V15] += 1      # the first two 15s played leave the game
            s.fifteens_removed += 1
        else:
            s.fifteens_aside += 1
        check_fifteens_aside(s)
        return
    s.discard[t.team_pile[t.player_team[p]]][v] += 1


cdef inline int pile_count(const RcState* s, int k) noexcept nogil:
    cdef int v, n = 0
    for v in range(RC_VALUES):
        n += s.pile[k][v]
    return n


cdef void refill_pile(RcState* s, int k) noexcept nogil:
    """"Draw pile": when the draw pile is exhausted, the spent cards are shuffled into a
    new one (counts only: the new order is secret to all)."""
    cdef int v
    for v in range(RC_VALUES):
        s.pile[k][v] += s.discard[k][v]
        s.discard[k][v] = 0


cdef void lose_hand(RcState* s, const RcTables* t, int p) noexcept nogil:
    """"Victory": a player with no army left is excluded and "All the cards still in his
    hand are lost".  R8: they leave the game as they lie -- his zeros and the cards
    everyone knew he held in sight (``removed``), the ones only his side had seen face
    down (``lost``), so that losing a hand reveals nothing of it."""
    cdef int v
    s.removed[0] += s.hand[p][0]
    for v in range(1, RC_VALUES):
        s.removed[v] += s.known[p][v]
        s.lost[p][v] += s.hand[p][v] - s.known[p][v]
        s.hand[p][v] = 0
        s.known[p][v] = 0
    s.hand[p][0] = 0
    s.unknown[p] = 0
    check_fifteens_aside(s)


# ------------------------------------------------------------------ turn flow

cdef void finish_game(RcState* s, int winner_team, int reason) noexcept nogil:
    s.phase = PH_OVER
    s.winner = winner_team + 1 if winner_team >= 0 else 0
    s.end_reason = reason
    s.current = 0


cdef bint check_exclusions(RcState* s, const RcTables* t) noexcept nogil:
    """After an army is eliminated: players without armies drop out; a team without
    armies loses ("Victory: eliminating all enemy pieces").  True when the game ended."""
    cdef int p, team
    cdef bint alive[RC_TEAMS]
    if s.round <= 2:
        return False
    alive[0] = False
    alive[1] = False
    for p in range(t.num_players):
        if s.excluded[p]:
            continue
        if armies_of_player(s, t, p) == 0:
            s.excluded[p] = 1
            lose_hand(s, t, p)
            if t.equal_arms:
                # Equal Arms: the special card an eliminated player did not use is removed
                s.treason[t.holder[p]] = 0
                s.uprising[t.holder[p]] = 0
        else:
            alive[t.player_team[p]] = True
    for team in range(RC_TEAMS):
        if not alive[team]:
            finish_game(s, 1 - team, END_ELIMINATION)
            return True
        # Rapid Conquest: "Reduce the army of the opposing team to 5 pieces"
        if t.rapid and armies_of_team(s, t, team) <= 5:
            finish_game(s, 1 - team, END_ARMY_REDUCED)
            return True
    return False


cdef uint8_t capital_status(const RcState* s, const RcTables* t) noexcept nogil:
    cdef int e, c
    cdef uint8_t status = 0
    for e in range(RC_EMPIRES):
        c = t.capital[e]
        if s.army[c] and code_team(t, s.army[c]) != t.empire_team[e]:
            status |= 1 << e
    return status


cdef void update_capitals(RcState* s, const RcTables* t) noexcept nogil:
    """The capitals clock of "Victory: occupying both enemy capitals": a team's clock runs
    while its armies stand on both capitals of the other team (R4), and any change in who
    holds a capital counts as progress for the no-progress draw (R17)."""
    cdef uint8_t status = capital_status(s, t)
    cdef int team, e, held
    if status != s.cap_status:
        s.cap_status = status
        s.quiet_turns = 0
    for team in range(RC_TEAMS):
        held = 1
        for e in range(RC_EMPIRES):
            if t.empire_team[e] != team and not (status >> e) & 1:
                held = 0
        if held and not s.clock_on[team]:
            s.clock_on[team] = 1
            s.clock_turns[team] = -1    # the turn of the capture does not count
            s.clock_played[team] = 0
        elif not held:
            s.clock_on[team] = 0
            s.clock_turns[team] = 0
        if t.rapid:
            held = weak_and_capital(s, t, team)
            if held and not s.clock2_on[team]:
                s.clock2_on[team] = 1
                s.clock2_turns[team] = -1
                s.clock2_played[team] = 0
            elif not held:
                s.clock2_on[team] = 0
                s.clock2_turns[team] = 0


cdef bint weak_and_capital(const RcState* s, const RcTables* t, int team) noexcept nogil:
    """Rapid Conquest: "Reduce the army of one opponent to 3 pieces or fewer, and occupy
    the capital of his ally" (R16: the clock of R4 then runs)."""
    cdef int q, e, c
    for q in range(t.num_players):
        if t.player_team[q] == team or armies_of_player(s, t, q) > 3:
            continue
        for e in range(RC_EMPIRES):
            if t.empire_team[e] != team and t.empire_player[e] != q:
                c = t.capital[e]
                if s.army[c] and code_team(t, s.army[c]) == team:
                    return True
    return False

cdef void start_turn(RcState* s, const RcTables* t) noexcept nogil:
    """"Turns 1 and 2" place the armies; from the third turn a turn begins with the draw
    (two cards for the lone player of the 3-player game)."""
    cdef int e
    s.current = s.turn_player
    s.moves_made = 0
    s.second_infantry = 0
    s.march_used = 0
    s.pay_sum = 0
    s.pay_last = RC_V15
    memset(s.origin, 0, sizeof(s.origin))
    if s.round <= 2:
        s.phase = PH_PLACE
        for e in range(RC_EMPIRES):
            s.placed[e] = 0
        return
    s.refused = 0
    s.pass_draw = 0
    s.ally_city = 0
    s.pay_for = PAY_MARCH
    s.draws_left = t.player_draws[s.turn_player]
    if t.rapid:
        rapid_draws(s, hand_size(s, s.turn_player))
    prepare_draw(s, t)


cdef void rapid_draws(RcState* s, int held) noexcept nogil:
    """Rapid Conquest, 1. Draw: 9 cards or more (zeros included) draw none, 6 to 8 one,
    5 or fewer one (two if he passes), only his two zeros two (three if he passes)."""
    if held >= 9:
        s.draws_left = 0
    elif held > 2:
        s.draws_left = 1
    else:
        s.draws_left = 2
    s.pass_bonus = held <= 5


cdef void prepare_draw(RcState* s, const RcTables* t) noexcept nogil:
    """The next draw, or the turn's decisions once the draws are done.  R14: with an
    empty pile and no spent cards to reshuffle, a draw gives nothing."""
    cdef int k = t.team_pile[t.player_team[s.turn_player]]
    if s.draws_left and pile_count(s, k) == 0:
        refill_pile(s, k)
        if pile_count(s, k) == 0:
            s.draws_left = 0
    s.current = s.turn_player
    if s.draws_left:
        s.phase = PH_DRAW
    elif s.pass_draw:
        end_turn(s, t)      # Rapid Conquest: the extra card of a pass is drawn
    else:
        s.phase = PH_MAIN


cdef bint all_played(const RcState* s, const RcTables* t, int played) noexcept nogil:
    """R4: every player still in the game has ended a turn since the capture (a player
    who dropped out meanwhile is not waited for, nor counted)."""
    cdef int p
    for p in range(t.num_players):
        if not s.excluded[p] and not (played >> p) & 1:
            return False
    return True


cdef void end_turn(RcState* s, const RcTables* t) noexcept nogil:
    """The turn passes clockwise to the next player still in the game.  Here the
    capitals clock counts complete turns (R4), and the library's two end rules apply:
    a draw after ``no_progress_rounds`` rounds without battle, elimination, Uprising or
    change of a capital's holder, and a draw once ``max_rounds`` rounds are played
    (R17)."""
    cdef int team, p, active, _
    memset(s.origin, 0, sizeof(s.origin))
    active = active_players(s, t)
    if s.round > 2:
        for team in range(RC_TEAMS):
            if s.clock_on[team]:
                if s.clock_turns[team] >= 0:
                    s.clock_played[team] |= 1 << s.turn_player
                s.clock_turns[team] += 1
            if s.clock2_on[team]:
                if s.clock2_turns[team] >= 0:
                    s.clock2_played[team] |= 1 << s.turn_player
                s.clock2_turns[team] += 1
        # the turn player's team first: its clock started no later in his own turn
        team = t.player_team[s.turn_player]
        for _ in range(RC_TEAMS):
            if s.clock_on[team] and all_played(s, t, s.clock_played[team]):
                finish_game(s, team, END_CAPITALS)
                return
            if s.clock2_on[team] and all_played(s, t, s.clock2_played[team]):
                finish_game(s, team, END_WEAK_AND_CAPITAL)
                return
            team = 1 - team
        s.quiet_turns += 1
        if s.quiet_turns >= t.no_progress_rounds * active:
            finish_game(s, -1, END_NO_PROGRESS)
            return
    p = s.turn_player
    for _ in range(t.num_players):
        p = (p + 1) % t.num_players
        if p == t.first_player:
            s.round += 1
        if not s.excluded[p]:
            break
    if s.round > t.max_rounds:
        finish_game(s, -1, END_ROUND_CAP)
        return
    s.turn_player = p
    start_turn(s, t)


# ------------------------------------------------------------------ battles

cdef int battle_total(int kind, int opp_kind, const uint8_t* cards, int n,
                      bint advantages) noexcept nogil:
    """"Special advantages": the elephant doubles its highest card against land armies
    (not against galleys), the chariot doubles its lowest against all armies -- for the
    defender too (R12).  With one card ("Occupied capital") the elephant still doubles
    it against land armies and the chariot does not."""
    cdef int a = VALUE[cards[0]]
    cdef int b, hi, lo
    cdef bint elephant = advantages and kind == KIND_ELEPHANT and opp_kind != KIND_GALLEY
    if n == 1:
        return 2 * a if elephant else a
    b = VALUE[cards[1]]
    hi = a if a > b else b
    lo = a + b - hi
    if elephant:
        return 2 * hi + lo
    if advantages and kind == KIND_CHARIOT:
        return hi + 2 * lo
    return a + b


cdef bint is_spy(const uint8_t* cards, int n) noexcept nogil:
    """"Spies": "1 and 1" or "2 and 0"; a single "2" for a player whose capital is
    occupied.  "0 and 1" is never a spy, whatever it totals."""
    if n == 1:
        return cards[0] == 2
    return ((cards[0] == 1 and cards[1] == 1)
            or (cards[0] == 2 and cards[1] == 0) or (cards[0] == 0 and cards[1] == 2))


cdef int cards_needed(const RcState* s, const RcTables* t, int side) noexcept nogil:
    """Two cards ("General case"), one in tie rounds ("Ties"), one for a player whose
    capital is occupied ("Occupied capital") -- also when he replays as a spy (R1)."""
    if s.b_kind == ROUND_TIE:
        return 1
    return 1 if capital_occupied(s, t, s.b_att if side == 0 else s.b_def) else 2


cdef void new_round(RcState* s, int kind) noexcept nogil:
    s.b_kind = kind
    s.ncommit[0] = 0
    s.ncommit[1] = 0
    s.b_side = 0
    s.phase = PH_COMMIT
    s.current = s.b_att


cdef void begin_battle(RcState* s, const RcTables* t, int c) noexcept nogil:
    """"Carry out a battle": the army that moved in attacks the resident."""
    s.bcity = c
    s.b_att = code_player(t, s.attacker[c])
    s.b_def = code_player(t, s.army[c])
    s.quiet_turns = 0
    new_round(s, ROUND_FULL)


cdef void next_battle(RcState* s, const RcTables* t) noexcept nogil:
    """"If several battles take place simultaneously ... the attacker chooses which one is
    fought first" (R5: the turn player chooses, Treason battles included)."""
    if s.phase == PH_OVER:
        return
    if s.att_mask == 0:
        if s.context == CTX_TREASON and not s.excluded[s.turn_player]:
            s.phase = PH_MAIN
            s.current = s.turn_player
        else:
            end_turn(s, t)
        return
    if popcount64(s.att_mask) == 1:
        begin_battle(s, t, ctz64(s.att_mask))
        return
    s.phase = PH_BATTLE_ORDER
    s.current = s.turn_player


cdef void start_battles(RcState* s, const RcTables* t, int context) noexcept nogil:
    s.context = context
    next_battle(s, t)


cdef void battle_won(RcState* s, const RcTables* t, int side) noexcept nogil:
    """"The losing army is eliminated permanently"; a winning attacker stays in the
    city."""
    cdef int c = s.bcity
    if side == 0:
        set_resident(s, t, c, s.attacker[c], s.att_origin[c])
    set_attacker(s, c, 0, 0)
    update_capitals(s, t)
    if check_exclusions(s, t):
        return
    next_battle(s, t)


cdef void return_home(RcState* s, const RcTables* t, int code, int home,
                      int depth) noexcept nogil:
    """Puts a retreating army back in the city where it began this turn's move (R3).  An
    army standing there (it moved in this turn) retreats the same way first ("Ties: If
    the previous city is occupied by an army, that army also retreats")."""
    cdef int other = s.army[home]
    if other:
        if s.origin[home] == 0 or depth > 4:
            return      # cannot happen (R3): every city left this turn was entered only
            #             by armies that moved this turn
        return_home(s, t, other, s.origin[home] - 1, depth + 1)
    set_resident(s, t, home, code, 0)


cdef void attacker_retreats(RcState* s, const RcTables* t) noexcept nogil:
    """"If both opponents play a total of Zero, the battle ceases and the attacker returns
    to his previous place" (R3: the city where it began this turn's move); a spy attacker
    who withdraws does the same (R1)."""
    cdef int c = s.bcity
    cdef int code = s.attacker[c]
    cdef int home = s.att_origin[c] - 1
    set_attacker(s, c, 0, 0)
    if home >= 0:
        return_home(s, t, code, home, 0)
    update_capitals(s, t)
    next_battle(s, t)


cdef void compare_totals(RcState* s, const RcTables* t) noexcept nogil:
    """"The player with the highest total is the winner"; equal totals go to a tie round,
    and two zero totals end the battle with the attacker's retreat ("Ties")."""
    if s.total[0] > s.total[1]:
        battle_won(s, t, 0)
    elif s.total[1] > s.total[0]:
        battle_won(s, t, 1)
    elif s.total[0] == 0:
        attacker_retreats(s, t)
    else:
        new_round(s, ROUND_TIE)


cdef void lay_down(RcState* s, int side, int p, int a, int b, int n) noexcept nogil:
    s.commit[side][0] = a
    s.commit[side][1] = 0    # an unused slot is always 0 (a position writes no more)
    s.hand[p][a] -= 1
    if n == 2:
        s.commit[side][1] = b
        s.hand[p][b] -= 1
    s.ncommit[side] = n


cdef void spend_commit(RcState* s, const RcTables* t, int side, int p) noexcept nogil:
    """The revealed cards leave the table ("The cards laid on the table are lost to the
    players, except for the Zeros")."""
    cdef int i
    for i in range(s.ncommit[side]):
        spend_card(s, t, p, s.commit[side][i])
        s.commit[side][i] = 0    # cleared: the table holds only what a position says
    s.ncommit[side] = 0


cdef inline int side_kind(const RcState* s, int side) noexcept nogil:
    return code_kind(s.attacker[s.bcity] if side == 0 else s.army[s.bcity])


cdef void reveal(RcState* s, const RcTables* t) noexcept nogil:
    """"They are then turned over at the same time": totals, spies, the cards spent."""
    cdef int side, spies = 0
    cdef bint advantages = s.b_kind != ROUND_TIE
    cdef bint spy[2]
    for side in range(2):
        s.total[side] = battle_total(side_kind(s, side), side_kind(s, 1 - side),
                                     s.commit[side], s.ncommit[side], advantages)
        # "Ties: the players may no longer play the spy"
        spy[side] = s.b_kind == ROUND_FULL and is_spy(s.commit[side], s.ncommit[side])
        spies += spy[side]
    spend_commit(s, t, 0, s.b_att)
    spend_commit(s, t, 1, s.b_def)
    if spies == 2:
        new_round(s, ROUND_FULL)    # "both ... play a spy, the battle restarts"
        return
    if spies == 1:
        side = 0 if spy[0] else 1
        if s.total[side] > s.total[1 - side]:
            battle_won(s, t, side)  # R1: a spy that already wins needs no replay
            return
        s.spy_side = side
        s.phase = PH_SPY
        s.current = s.b_att if side == 0 else s.b_def
        return
    compare_totals(s, t)


cdef void spy_replays(RcState* s, const RcTables* t, int a, int b, int n) noexcept nogil:
    """"He may then choose to replay two new cards to beat his opponent": the new cards
    replace the spy's total (advantages apply, R1) and face the opponent's total."""
    cdef int side = s.spy_side
    cdef int p = s.b_att if side == 0 else s.b_def
    lay_down(s, side, p, a, b, n)
    s.total[side] = battle_total(side_kind(s, side), side_kind(s, 1 - side),
                                 s.commit[side], n, True)
    spend_commit(s, t, side, p)
    compare_totals(s, t)


cdef void spy_withdraws(RcState* s, const RcTables* t) noexcept nogil:
    """"... or to withdraw" (R1): an attacker goes back as after two zero totals; a
    defender has nowhere to go, so withdrawing concedes the city and his army."""
    if s.spy_side == 0:
        attacker_retreats(s, t)
    else:
        battle_won(s, t, 0)


# ------------------------------------------------------------------ moves

cdef void move_army(RcState* s, const RcTables* t, int src, int dst) noexcept nogil:
    """One simple move; an army entering an enemy city waits there for the battle (and
    moves no further, R9)."""
    cdef int code = s.army[src]
    cdef int origin = s.origin[src] if s.origin[src] else src + 1
    set_resident(s, t, src, 0, 0)
    if s.army[dst]:
        set_attacker(s, dst, code, origin)
    else:
        set_resident(s, t, dst, code, origin)
    s.moves_made += 1
    update_capitals(s, t)


cdef void pass_through(RcState* s, const RcTables* t, int src, int dst,
                       int pay_for) noexcept nogil:
    """R22: the first leg of a forced march ends on a friendly army: the army passes
    through, waiting beside it (``transit``) while the march is paid, and its second
    leg must take it on."""
    s.transit = s.army[src]
    s.transit_city = dst + 1
    s.transit_origin = s.origin[src] if s.origin[src] else src + 1
    set_resident(s, t, src, 0, 0)
    s.moves_made += 1
    s.second_infantry = 0
    update_capitals(s, t)
    start_payment(s, pay_for)
    s.phase = PH_PAY
    s.current = s.turn_player


cdef void move_on(RcState* s, const RcTables* t, int dst) noexcept nogil:
    """R22: the second leg of a forced march that passed through a friend."""
    cdef int code = s.transit
    cdef int origin = s.transit_origin
    s.transit = 0
    s.transit_city = 0
    s.transit_origin = 0
    if s.army[dst]:
        set_attacker(s, dst, code, origin)
    else:
        set_resident(s, t, dst, code, origin)
    s.moves_made += 1
    update_capitals(s, t)


cdef bint march_affordable(const RcState* s, int p) noexcept nogil:
    """"Forced march": at most once a turn (R9), paid with cards worth at least 3 (zeros
    pay nothing)."""
    return not s.march_used and nonzero_points(s, p, RC_V15) >= 3


cdef bint can_pay_march(const RcState* s, const RcTables* t, int p) noexcept nogil:
    """A forced march paid after the base move, and an army left to move."""
    return march_affordable(s, p) and own_movers(s, t, p, -1) != 0


cdef bint may_pay_publicly(const RcState* s, int p) noexcept nogil:
    """Whether p might hold cards worth 3 points as far as the others can tell: his
    known cards, plus any card only his side has seen (never a zero, so possibly
    enough).  A decision offered or skipped by this test tells nobody anything about
    his hand (R9); the true test, ``nonzero_points``, decides the payments offered."""
    cdef int v, n = 0
    if s.unknown[p]:
        return True
    for v in range(1, RC_VALUES):
        n += s.known[p][v] * VALUE[v]
    return n >= 3


cdef bint pay_feasible(const RcState* s, int p, int v) noexcept nogil:
    """Paying v now can still reach 3 points with cards no higher than v."""
    if v == 0 or v > s.pay_last or s.hand[p][v] == 0:
        return False
    return s.pay_sum + VALUE[v] + nonzero_points(s, p, v) - VALUE[v] >= 3


cdef void after_move(RcState* s, const RcTables* t) noexcept nogil:
    """After a base move: a second infantry, a forced march or ``done``; when ``done`` is
    all that is left -- as far as the other players can tell -- the turn goes on to its
    battles at once."""
    cdef int p = s.turn_player
    cdef uint64_t second = 0    # infantry that may still make the second move
    cdef bint second_moves = False
    if s.march_used:
        start_battles(s, t, CTX_MOVE)
        return
    # R9: the decision is offered when a forced march may be paid for all the others
    # know, even if only ``done`` is legal: skipping it would tell them the hand is poor
    if s.second_infantry and s.moves_made == 1:
        second = second_infantry_candidates(s, t, p)
        second_moves = second_infantry_movers(s, t, t.player_team[p], p) != 0
    if second_moves or (may_pay_publicly(s, p) and (own_movers(s, t, p, -1) != 0
                                                    or own_passers(s, t, second) != 0)):
        s.phase = PH_MOVED
        s.current = p
        return
    start_battles(s, t, CTX_MOVE)


# ------------------------------------------------------------------ the contract

cdef void rc_initial_state(void* state, const void* tables) noexcept nogil:
    cdef RcState* s = <RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef int e, k, p
    memset(s, 0, sizeof(RcState))
    memcpy(s.hand, t.initial_hand, sizeof(s.hand))
    for p in range(RC_MAX_PLAYERS):
        for k in range(1, RC_VALUES):
            s.known[p][k] = t.initial_hand[p][k]  # every starting hand is public
    memcpy(s.pile, t.initial_pile, sizeof(s.pile))
    memcpy(s.removed, t.initial_removed, sizeof(s.removed))
    memcpy(s.treason, t.initial_treason, sizeof(s.treason))
    memcpy(s.uprising, t.initial_uprising, sizeof(s.uprising))
    for e in range(RC_EMPIRES):
        for k in range(RC_KINDS):
            s.unplaced[e][k] = ARMY_SET_C[k]
    s.round = 1
    s.turn_player = t.first_player
    s.last_action = -1
    start_turn(s, t)


cdef int rc_current_player(const void* state, const void* tables) noexcept nogil:
    cdef const RcState* s = <const RcState*>state
    if s.phase == PH_OVER:
        return TERMINAL_PLAYER
    if s.phase == PH_DRAW:
        return CHANCE_PLAYER
    return s.current


cdef inline int place_quota(const RcState* s, int e) noexcept nogil:
    """Armies empire e places this placement turn: 4, then its 3 remaining ones."""
    cdef int k, left = 0
    for k in range(RC_KINDS):
        left += s.unplaced[e][k]
    left += s.placed[e]
    return left if left < PLACE_QUOTA_C[s.round - 1] else PLACE_QUOTA_C[s.round - 1]


cdef int emit_moves(const RcState* s, const RcTables* t, uint64_t from_mask,
                    bint through, int* out, int n) noexcept nogil:
    """The simple moves of the armies of ``from_mask``; ``through``: also the first legs
    of a forced march that pass through a friend (R22)."""
    cdef int c, d
    cdef uint64_t dest
    while from_mask:
        c = ctz64(from_mask)
        from_mask &= from_mask - 1
        dest = destinations(s, t, c)
        if through:
            dest |= passing_stops(s, t, c)
        while dest:
            d = ctz64(dest)
            dest &= dest - 1
            out[n] = t.a_move + c * t.ncities + d
            n += 1
    return n


cdef int emit_move_on(const RcState* s, const RcTables* t, int* out) noexcept nogil:
    """R22: the second leg of the army passing through a friend, from the friend's city
    (never stopping on a friendly army)."""
    cdef int c = s.transit_city - 1
    cdef uint64_t dest = destinations_of(s, t, s.transit, c)
    cdef int n = 0
    while dest:
        out[n] = t.a_move + c * t.ncities + ctz64(dest)
        dest &= dest - 1
        n += 1
    return n


cdef int emit_pays(const RcState* s, const RcTables* t, int p, int* out, int n) noexcept nogil:
    cdef int v
    for v in range(1, RC_VALUES):
        if pay_feasible(s, p, v):
            out[n] = t.a_pay + v
            n += 1
    return n


cdef int emit_commits(const RcState* s, const RcTables* t, int p, int cards,
                      int* out, int n) noexcept nogil:
    """Card choices by value: one action per unordered pair of values held (or per value
    for one card), so identical cards give no duplicate moves."""
    cdef int i
    if cards == 1:
        for i in range(RC_VALUES):
            if s.hand[p][i]:
                out[n] = t.a_single + i
                n += 1
        return n
    for i in range(RC_PAIRS):
        if t.pair_a[i] == t.pair_b[i]:
            if s.hand[p][t.pair_a[i]] >= 2:
                out[n] = t.a_pair + i
                n += 1
        elif s.hand[p][t.pair_a[i]] and s.hand[p][t.pair_b[i]]:
            out[n] = t.a_pair + i
            n += 1
    return n


cdef int legal_place(const RcState* s, const RcTables* t, int* out) noexcept nogil:
    """"Turns 1 and 2": an army of his choice on an empty city of its own colour, 4 an
    empire in the first turn and the 3 others in the second."""
    cdef int p = s.turn_player
    cdef int n = 0
    cdef int e, k, c
    cdef uint64_t free_cities = 0, rest
    cdef uint64_t occupied = s.side_mask[0] | s.side_mask[1]
    for e in range(RC_EMPIRES):
        if (t.player_empires[p] >> e) & 1 and s.placed[e] < place_quota(s, e):
            free_cities |= t.empire_cities[e] & ~occupied
    for k in range(RC_KINDS):
        rest = free_cities
        while rest:
            c = ctz64(rest)
            rest &= rest - 1
            if s.unplaced[t.city_empire[c]][k]:
                out[n] = t.a_place + k * t.ncities + c
                n += 1
    return n


cdef bint treason_available(const RcState* s, const RcTables* t, int p) noexcept nogil:
    """"General's Treason": single-use, and only with an enemy army to move (Rapid
    Conquest: not again in a turn after the ally refused it)."""
    return (s.treason[t.holder[p]] != 0 and not (s.refused & ASK_TREASON)
            and movers(s, t, 1 - t.player_team[p], -1) != 0)


cdef bint ally_move_available(const RcState* s, const RcTables* t, int p) noexcept nogil:
    """Rapid Conquest: "Move a piece of his allied player", paying cards of at least 3
    points, when one of the ally's armies can move."""
    cdef int q = ally_of(s, t, p)
    return (t.rapid and q >= 0 and not (s.refused & ASK_ALLY)
            and nonzero_points(s, p, RC_V15) >= 3 and own_movers(s, t, q, -1) != 0)


cdef int legal_main(const RcState* s, const RcTables* t, int* out) noexcept nogil:
    cdef int p = s.turn_player
    cdef int n = 0
    cdef int e, c
    out[n] = ACT_PASS    # "The player may then pass his turn" (R10: also after a card)
    n += 1
    if treason_available(s, t, p):
        out[n] = ACT_TREASON
        n += 1
    if s.uprising[t.holder[p]]:
        # "Popular Uprising: if his capital is occupied" (R6: his own capital, either of
        # a two-empire player's)
        for c in range(t.ncities):
            e = t.city_empire[c]
            if (c == t.capital[e] and (t.player_empires[p] >> e) & 1 and s.army[c]
                    and code_team(t, s.army[c]) != t.player_team[p]):
                out[n] = t.a_uprising + c
                n += 1
    if ally_move_available(s, t, p):
        out[n] = ACT_ALLY
        n += 1
    n = emit_moves(s, t, own_armies(s, t, p, -1), march_affordable(s, p), out, n)
    if t.rapid and ally_of(s, t, p) >= 0:
        # Rapid Conquest: "give one of his cards to his ally" (R16: not a zero)
        for c in range(1, RC_VALUES):
            if s.hand[p][c]:
                out[n] = t.a_give + c
                n += 1
    return n


cdef int rc_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    cdef const RcState* s = <const RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef int p = s.current
    cdef int n = 0
    cdef int team = t.player_team[s.turn_player]
    if s.phase == PH_PLACE:
        return legal_place(s, t, out)
    if s.phase == PH_MAIN:
        return legal_main(s, t, out)
    if s.phase == PH_TREASON:
        # "move an army of the OPPONENT ... as if the opponent were playing it"
        return emit_moves(s, t, movers(s, t, 1 - team, -1), False, out, 0)
    if s.phase == PH_TREASON_SECOND:
        out[0] = ACT_DONE
        return emit_moves(s, t, second_infantry_movers(s, t, 1 - team, -1), False, out,
                          1)
    if s.phase == PH_MOVED:
        out[0] = ACT_DONE
        n = 1
        if s.second_infantry and s.moves_made == 1:
            n = emit_moves(s, t, second_infantry_candidates(s, t, p),
                           march_affordable(s, p), out, n)
        if can_pay_march(s, t, p):
            n = emit_pays(s, t, p, out, n)
        return n
    if s.phase == PH_PAY:
        return emit_pays(s, t, p, out, 0)
    if s.phase == PH_CONSENT:
        out[0] = ACT_AGREE
        out[1] = ACT_REFUSE
        return 2
    if s.phase == PH_ALLY_MOVE:
        if s.transit:
            return emit_move_on(s, t, out)
        if s.ally_city:
            return emit_moves(s, t, bit(s.ally_city - 1), False, out, 0)
        # the first leg may pass through a friend if the second can be paid (R22)
        return emit_moves(s, t, own_armies(s, t, ally_of(s, t, s.turn_player), -1),
                          nonzero_points(s, p, RC_V15) >= 3, out, 0)
    if s.phase == PH_ALLY_MOVED:
        out[0] = ACT_DONE
        return emit_pays(s, t, p, out, 1)
    if s.phase == PH_EXTRA:
        if s.transit:
            return emit_move_on(s, t, out)
        return emit_moves(s, t, own_movers(s, t, p, -1), False, out, 0)
    if s.phase == PH_BATTLE_ORDER:
        return emit_cities(s.att_mask, t.a_battle, out)
    if s.phase == PH_COMMIT:
        return emit_commits(s, t, p, cards_needed(s, t, s.b_side), out, 0)
    if s.phase == PH_SPY:
        out[0] = ACT_WITHDRAW
        return emit_commits(s, t, p, cards_needed(s, t, s.spy_side), out, 1)
    return 0


cdef int emit_cities(uint64_t mask, int base, int* out) noexcept nogil:
    cdef int n = 0
    while mask:
        out[n] = base + ctz64(mask)
        mask &= mask - 1
        n += 1
    return n


cdef int rc_chance_outcomes(const void* state, const void* tables, int* out,
                            double* probs) noexcept nogil:
    cdef const RcState* s = <const RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef int k, v, n = 0, total
    if s.phase != PH_DRAW:
        return 0
    k = t.team_pile[t.player_team[s.turn_player]]
    total = pile_count(s, k)
    for v in range(RC_VALUES):
        if s.pile[k][v]:
            out[n] = t.a_draw + v
            probs[n] = s.pile[k][v] / <double>total
            n += 1
    return n


cdef void apply_place(RcState* s, const RcTables* t, int x) noexcept nogil:
    cdef int k = x // t.ncities
    cdef int c = x % t.ncities
    cdef int e = t.city_empire[c]
    cdef int p = s.turn_player
    set_resident(s, t, c, 1 + e * 4 + k, 0)
    s.unplaced[e][k] -= 1
    s.placed[e] += 1
    for e in range(RC_EMPIRES):
        if (t.player_empires[p] >> e) & 1 and s.placed[e] < place_quota(s, e):
            return
    end_turn(s, t)


cdef void apply_move(RcState* s, const RcTables* t, int x) noexcept nogil:
    cdef int src = x // t.ncities
    cdef int dst = x % t.ncities
    cdef int kind = code_kind(s.army[src])
    cdef int phase = s.phase
    cdef int team = code_team(t, s.army[src]) if s.army[src] else -1
    if s.transit:    # R22: the second leg of a march through a friend
        move_on(s, t, dst)
        if phase == PH_ALLY_MOVE:
            after_ally_move(s, t, dst)
        else:
            after_move(s, t)
        return
    if s.army[dst] and code_team(t, s.army[dst]) == team:
        # R22: the first leg of a forced march, passing through a friend
        if phase == PH_ALLY_MOVE:
            s.ally_city = dst + 1
            pass_through(s, t, src, dst, PAY_ALLY_MARCH)
        else:
            pass_through(s, t, src, dst, PAY_MARCH)
        return
    move_army(s, t, src, dst)
    if phase == PH_TREASON:
        s.second_infantry = dst + 1 if kind == KIND_INFANTRY else 0
        if (s.second_infantry
                and second_infantry_movers(s, t, 1 - t.player_team[s.turn_player], -1)):
            s.phase = PH_TREASON_SECOND
        else:
            s.second_infantry = 0
            start_battles(s, t, CTX_TREASON)
        return
    if phase == PH_TREASON_SECOND:
        s.second_infantry = 0
        start_battles(s, t, CTX_TREASON)
        return
    if phase == PH_ALLY_MOVE:
        after_ally_move(s, t, dst)
        return
    if phase == PH_MAIN:
        s.moves_made = 1
        s.second_infantry = dst + 1 if kind == KIND_INFANTRY else 0
    elif phase == PH_MOVED:
        s.second_infantry = 0    # the second infantry has moved
    after_move(s, t)


cdef void apply_pay(RcState* s, const RcTables* t, int v) noexcept nogil:
    """One card of a forced march (or, in Rapid Conquest, of moving an ally's army):
    public (R9), spent face down like battle cards."""
    cdef int p = s.turn_player
    s.hand[p][v] -= 1
    spend_card(s, t, p, v)
    s.pay_sum += VALUE[v]
    s.pay_last = v
    s.second_infantry = 0
    if s.pay_sum < 3:
        s.phase = PH_PAY
    elif s.pay_for == PAY_MARCH:
        s.march_used = 1
        s.phase = PH_EXTRA
    else:
        s.phase = PH_ALLY_MOVE


cdef void start_payment(RcState* s, int pay_for) noexcept nogil:
    s.pay_for = pay_for
    s.pay_sum = 0
    s.pay_last = RC_V15


cdef void after_ally_move(RcState* s, const RcTables* t, int dst) noexcept nogil:
    """Rapid Conquest: "To move the allied player's piece by forced march, the player must
    discard cards A SECOND TIME" (R16: the same army moves again); an army that entered
    an enemy city stops there, and its owner fights the battle."""
    cdef int p = s.turn_player
    if (s.ally_city == 0 and not (s.att_mask >> dst) & 1 and destinations(s, t, dst)
            and may_pay_publicly(s, p)):    # R9: offered on public grounds only
        s.ally_city = dst + 1
        start_payment(s, PAY_ALLY_MARCH)
        s.phase = PH_ALLY_MOVED
        s.current = p
        return
    start_battles(s, t, CTX_MOVE)


cdef void ask_or_go(RcState* s, const RcTables* t, int what) noexcept nogil:
    """Rapid Conquest: the Treason and the ally's army need "the agreement of the allied
    player" -- asked only with the explicit-consent option (implicit otherwise, R16), and
    never of a partner who dropped out."""
    cdef int q = ally_of(s, t, s.turn_player)
    if t.rapid and t.explicit_consent and q >= 0:
        s.asked = what
        s.phase = PH_CONSENT
        s.current = q
        return
    consent_given(s, t, what)


cdef void consent_given(RcState* s, const RcTables* t, int what) noexcept nogil:
    s.current = s.turn_player
    if what == ASK_TREASON:
        s.treason[t.holder[s.turn_player]] = 0
        s.phase = PH_TREASON
    else:
        start_payment(s, PAY_ALLY)
        s.phase = PH_PAY


cdef void apply_give(RcState* s, const RcTables* t, int v) noexcept nogil:
    """Rapid Conquest: "give one of his cards to his ally. In this case the player makes no
    move".  The opponents do not see which card: what they knew of the giver's hand
    becomes unknown to them (R21)."""
    cdef int p = s.turn_player
    cdef int q = ally_of(s, t, p)
    cdef int k
    for k in range(1, RC_VALUES):
        s.unknown[p] += s.known[p][k]
        s.known[p][k] = 0
    s.hand[p][v] -= 1
    s.unknown[p] -= 1
    s.hand[q][v] += 1
    s.unknown[q] += 1
    end_turn(s, t)


cdef void apply_commit(RcState* s, const RcTables* t, int a, int b, int n) noexcept nogil:
    cdef int side = s.b_side
    lay_down(s, side, s.b_att if side == 0 else s.b_def, a, b, n)
    if side == 0:
        s.b_side = 1
        s.current = s.b_def
    else:
        reveal(s, t)


cdef void apply_uprising(RcState* s, const RcTables* t, int c) noexcept nogil:
    """"Popular Uprising": the occupier is destroyed without a battle, "eliminated as
    after an ordinary defeat"."""
    s.uprising[t.holder[s.turn_player]] = 0
    set_resident(s, t, c, 0, 0)
    s.quiet_turns = 0
    update_capitals(s, t)
    check_exclusions(s, t)


cdef void rc_apply(void* state, const void* tables, int action) noexcept nogil:
    cdef RcState* s = <RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef int p, x
    s.move_count += 1
    s.last_action = action
    s.last_turn = s.turn_player
    if action >= t.a_draw:
        x = action - t.a_draw
        p = s.turn_player
        s.pile[t.team_pile[t.player_team[p]]][x] -= 1
        s.hand[p][x] += 1
        s.unknown[p] += 1    # "He looks at its value secretly"
        s.draws_left -= 1
        prepare_draw(s, t)
    elif action == ACT_PASS or action == ACT_DONE:
        if s.phase == PH_TREASON_SECOND:
            s.second_infantry = 0
            start_battles(s, t, CTX_TREASON)
        elif s.phase == PH_MOVED or s.phase == PH_ALLY_MOVED:
            start_battles(s, t, CTX_MOVE)
        elif t.rapid and s.pass_bonus:
            # Rapid Conquest: "draws 1 card, or 2 cards if he passes his turn"
            s.pass_draw = 1
            s.draws_left = 1
            prepare_draw(s, t)
        else:
            end_turn(s, t)
    elif action == ACT_TREASON:
        ask_or_go(s, t, ASK_TREASON)
    elif action == ACT_ALLY:
        ask_or_go(s, t, ASK_ALLY)
    elif action == ACT_AGREE:
        consent_given(s, t, s.asked)
    elif action == ACT_REFUSE:
        s.refused |= s.asked
        s.phase = PH_MAIN
        s.current = s.turn_player
    elif action == ACT_WITHDRAW:
        spy_withdraws(s, t)
    elif action < t.a_place:
        apply_uprising(s, t, action - t.a_uprising)
    elif action < t.a_move:
        apply_place(s, t, action - t.a_place)
    elif action < t.a_battle:
        apply_move(s, t, action - t.a_move)
    elif action < t.a_pair:
        begin_battle(s, t, action - t.a_battle)
    elif action < t.a_single:
        x = action - t.a_pair
        if s.phase == PH_SPY:
            spy_replays(s, t, t.pair_b[x], t.pair_a[x], 2)
        else:
            apply_commit(s, t, t.pair_b[x], t.pair_a[x], 2)
    elif action < t.a_pay:
        x = action - t.a_single
        if s.phase == PH_SPY:
            spy_replays(s, t, x, 0, 1)
        else:
            apply_commit(s, t, x, 0, 1)
    elif action < t.a_give:
        apply_pay(s, t, action - t.a_pay)
    else:
        apply_give(s, t, action - t.a_give)


cdef void rc_returns(const void* state, const void* tables, double* out) noexcept nogil:
    cdef const RcState* s = <const RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef int p
    for p in range(t.num_players):
        if s.winner == 0:
            out[p] = 0.0
        else:
            out[p] = 1.0 if t.player_team[p] == s.winner - 1 else -1.0


cdef void rc_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """Heuristic for cut-off search: armies (heavy ones a little more), enemy capitals
    held (the capitals clock nearly done counts most), armies near the enemy capitals
    (so that search advances rather than passes), and card points in hand."""
    cdef const RcState* s = <const RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef double score[RC_TEAMS]
    cdef int c, e, p, team
    cdef double diff
    if s.phase == PH_OVER:
        rc_returns(state, tables, out)
        return
    score[0] = 0.0
    score[1] = 0.0
    for c in range(t.ncities):
        if s.army[c]:
            team = code_team(t, s.army[c])
            score[team] += WEIGHT[code_kind(s.army[c])] + t.threat[team][c]
        if s.attacker[c]:
            score[code_team(t, s.attacker[c])] += WEIGHT[code_kind(s.attacker[c])]
    if s.transit:
        score[code_team(t, s.transit)] += WEIGHT[code_kind(s.transit)]
    for e in range(RC_EMPIRES):
        for c in range(RC_KINDS):
            score[t.empire_team[e]] += s.unplaced[e][c] * WEIGHT[c]
        if (s.cap_status >> e) & 1:
            score[1 - t.empire_team[e]] += 2.0
    for team in range(RC_TEAMS):
        if s.clock_on[team]:
            score[team] += 3.0
    for p in range(t.num_players):
        score[t.player_team[p]] += 0.05 * nonzero_points(s, p, RC_V15)
    diff = tanh((score[0] - score[1]) / 6.0)
    for p in range(t.num_players):
        out[p] = diff if t.player_team[p] == 0 else -diff


cdef void rc_determinize(void* state, const void* tables, int observer,
                         Rng* rng) noexcept nogil:
    """Redraws what ``observer`` has not seen: the cards others drew (each hand keeps the
    cards everyone knows it holds -- the public starting hands minus the cards seen
    played) and the face-down cards of lost hands (R8), from the pool of the pile plus
    those cards, and a pending face-down commit of a hidden attacker (a random choice of
    his redrawn hand).  A player in the middle of a payment keeps a hand that can finish
    it (payer_to_redraw): the world is one the rules could have reached.

    The result depends only on what the observer knows and on ``rng``: the pool is
    walked in value order, and the last action -- which may be a card he did not see --
    is rewritten to agree with the redrawn cards (R21), so two truths he cannot tell
    apart give byte-identical worlds for the same random numbers."""
    cdef RcState* s = <RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef int pool[RC_TEAMS][RC_VALUES]
    cdef int sizes[RC_TEAMS]
    cdef int last_drawn[RC_MAX_PLAYERS]   # the value redrawn last for each hand
    cdef int lost[RC_MAX_PLAYERS]         # face-down cards of each lost hand
    cdef int p, v, k, x, r, payer, need, top
    cdef int acts[RC_PAIRS]
    cdef int att = s.b_att
    cdef bint redraw_commit = (s.phase == PH_COMMIT and s.b_side == 1
                               and not sees_hand(t, observer, att))
    if redraw_commit:
        for x in range(s.ncommit[0]):
            s.hand[att][s.commit[0][x]] += 1
    for k in range(RC_TEAMS):
        sizes[k] = 0
        for v in range(RC_VALUES):
            pool[k][v] = s.pile[k][v]
            sizes[k] += s.pile[k][v]
    for p in range(t.num_players):
        last_drawn[p] = -1
        lost[p] = 0
        if sees_hand(t, observer, p):
            continue
        k = t.team_pile[t.player_team[p]]
        for v in range(1, RC_VALUES):
            x = s.hand[p][v] - s.known[p][v] + s.lost[p][v]
            pool[k][v] += x
            sizes[k] += x
            lost[p] += s.lost[p][v]
            s.hand[p][v] = s.known[p][v]
            s.lost[p][v] = 0
    payer = payer_to_redraw(s, t, observer, &need, &top)
    if payer >= 0:
        k = t.team_pile[t.player_team[payer]]
        last_drawn[payer] = draw_paying_hand(s, payer, pool[k], &sizes[k], need, top,
                                             rng)
        if last_drawn[payer] == -2:
            last_drawn[payer] = -1
            payer = -1    # no draw pays: redrawn as any other hand
    for p in range(t.num_players):
        if sees_hand(t, observer, p):
            continue
        k = t.team_pile[t.player_team[p]]
        for x in range(s.unknown[p] if p == payer else 0, s.unknown[p] + lost[p]):
            r = rng_below(rng, sizes[k])
            v = 0
            while r >= pool[k][v]:
                r -= pool[k][v]
                v += 1
            pool[k][v] -= 1
            sizes[k] -= 1
            if x < s.unknown[p]:
                s.hand[p][v] += 1
                last_drawn[p] = v
            else:
                s.lost[p][v] += 1    # a lost hand's face-down cards (R8)
    for k in range(RC_TEAMS):
        for v in range(RC_VALUES):
            s.pile[k][v] = pool[k][v]
    if redraw_commit:
        x = emit_commits(s, t, att, s.ncommit[0], acts, 0)
        v = acts[rng_below(rng, x)]
        s.last_action = v    # the commit just laid face down is the last action
        if s.ncommit[0] == 2:
            v -= t.a_pair
            lay_down(s, 0, att, t.pair_b[v], t.pair_a[v], 2)
        else:
            lay_down(s, 0, att, v - t.a_single, 0, 1)
    else:
        redraw_last_card(s, t, observer, last_drawn)


cdef int payer_to_redraw(const RcState* s, const RcTables* t, int observer, int* need,
                         int* top) noexcept nogil:
    """determinize: the player whose redrawn hand must still pay what the game asks of
    him, or -1.  "By discarding one (or several) card(s) from his hand, for a minimum of
    3 points, a player may carry out a forced march" (and, Rapid Conquest, "Move a piece
    of his allied player ... discard one (or several) card(s) from his hand, for a
    minimum of 3 points"): a payment is begun (``pay``), or consent is asked for one
    (``consent`` to move the ally's army), only when the hand can make those 3 points
    (R9: in non-increasing order, so with cards no higher than the last one paid).  Every
    other player sees that the payment was begun, so a world whose redrawn hand cannot
    finish it is not one the rules could reach: its mover would have no legal move
    (0.5.0's search crashed there).  ``need``: the points still owed from the hand's
    cards of index <= ``top``, beyond those of the cards everyone knows it holds."""
    cdef int p = s.turn_player
    cdef int v
    if s.phase == PH_PAY:
        need[0] = 3 - s.pay_sum
        top[0] = s.pay_last
    elif s.phase == PH_CONSENT and s.asked == ASK_ALLY:
        need[0] = 3
        top[0] = RC_V15
    else:
        return -1
    if p >= t.num_players or sees_hand(t, observer, p) or s.unknown[p] == 0:
        return -1
    for v in range(1, top[0] + 1):
        need[0] -= s.known[p][v] * VALUE[v]
    return p if need[0] > 0 else -1


# draw_paying_hand's table: per value, per number of cards drawn (0..44), per points (0..3)
cdef enum:
    WAYS_ROW = (RC_NONZERO_CARDS + 1) * 4


# C(n, k) for the counts of one card value (at most 8 of a value in the deck; 0 above n)
cdef enum:
    BINOM_MAX = 8
cdef double BINOM[BINOM_MAX + 1][BINOM_MAX + 1]


def _fill_binomials():
    cdef int n, k
    for n in range(BINOM_MAX + 1):
        for k in range(BINOM_MAX + 1):
            if k > n:
                BINOM[n][k] = 0.0
            elif k == 0 or k == n:
                BINOM[n][k] = 1.0
            else:
                BINOM[n][k] = BINOM[n - 1][k - 1] + BINOM[n - 1][k]


_fill_binomials()


cdef inline double choose(int n, int k) noexcept nogil:
    """C(n, k) as a double, n a count of one card value (<= BINOM_MAX)."""
    return BINOM[n][k]


cdef int draw_paying_hand(RcState* s, int p, int* pool, int* size, int need, int top,
                          Rng* rng) noexcept nogil:
    """Adds ``s.unknown[p]`` cards drawn from ``pool`` to p's hand, uniformly among the
    draws whose cards of index 1..``top`` make at least ``need`` points (payer_to_redraw):
    the redraw conditioned on what everyone saw.  ways[i][j][c] counts the draws of j
    cards from the values i.. that bring ``c`` points already drawn (capped at ``need``)
    to ``need``; the values are then walked in order, each taking x cards with the weight
    of the draws that still complete.  Returns one of the drawn values, chosen uniformly
    (the card to name as the hand's last draw), or -2 and draws nothing when no draw
    completes (a state no play reaches: the caller redraws unconditioned)."""
    cdef double ways[(RC_VALUES + 1) * WAYS_ROW]
    cdef int drawn[RC_VALUES]
    cdef int u = s.unknown[p]
    cdef int i, j, c, x, left, got
    cdef double total
    if u > RC_NONZERO_CARDS or need > 3:
        return -2
    for i in range(RC_VALUES):
        if pool[i] > BINOM_MAX:    # more of a value than the deck has: no play reaches it
            return -2
    for j in range(u + 1):
        for c in range(need + 1):
            ways[way(RC_VALUES, j, c)] = 1.0 if j == 0 and c >= need else 0.0
    for i in range(RC_VALUES - 1, -1, -1):
        for j in range(u + 1):
            for c in range(need + 1):
                total = 0.0
                for x in range(min(pool[i], j) + 1):
                    total += completions(ways, pool, i, x, j, c, need, top)
                ways[way(i, j, c)] = total
    if ways[way(0, u, 0)] <= 0.0:
        return -2
    left = u
    got = 0
    for i in range(RC_VALUES):
        x = take_how_many(ways, pool, i, left, got, need, top, rng)
        drawn[i] = x
        s.hand[p][i] += x
        pool[i] -= x
        size[0] -= x
        left -= x
        got = min(need, got + x * points_toward(i, top))
    x = <int>rng_below(rng, u)
    for i in range(RC_VALUES):
        x -= drawn[i]
        if x < 0:
            return i
    return -1


cdef inline int points_toward(int i, int top) noexcept nogil:
    """What a card of index i pays toward a payment limited to indexes <= top (zeros
    pay nothing, R9)."""
    return VALUE[i] if 1 <= i <= top else 0


cdef inline int way(int i, int j, int c) noexcept nogil:
    """draw_paying_hand: where ways[i][j][c] is in the flat table."""
    return i * WAYS_ROW + j * 4 + c


cdef inline double completions(const double* ways, const int* pool, int i, int x, int j,
                               int c, int need, int top) noexcept nogil:
    """draw_paying_hand: the draws of j cards from values i.. that take x cards of value
    i and complete the payment (``ways`` as there)."""
    return choose(pool[i], x) * ways[way(i + 1, j - x,
                                         min(need, c + x * points_toward(i, top)))]


cdef int take_how_many(const double* ways, const int* pool, int i, int left, int got,
                       int need, int top, Rng* rng) noexcept nogil:
    """draw_paying_hand: how many cards of value i to draw, by the weight of the draws
    that complete; never a choice of weight 0, whatever the rounding."""
    cdef double r = rng_uniform(rng) * ways[way(i, left, got)]
    cdef double w
    cdef int x, best = -1
    for x in range(min(pool[i], left) + 1):
        w = completions(ways, pool, i, x, left, got, need, top)
        if w > 0.0:
            best = x
            r -= w
            if r < 0.0:
                return x
    return best if best >= 0 else 0


cdef void redraw_last_card(RcState* s, const RcTables* t, int observer,
                           const int* last_drawn) noexcept nogil:
    """determinize: a last action that is a card the observer did not see -- drawn
    ("He looks at its value secretly") or, in Rapid Conquest, given to the ally -- names
    one of the cards redrawn for that hand instead (the last one redrawn: the redraw is
    uniform, so it is as likely as any).  Any other last action is public."""
    cdef int a = s.last_action
    cdef int p = s.last_turn
    cdef int q
    if a < t.a_give or p >= t.num_players or sees_hand(t, observer, p):
        return
    if a >= t.a_draw:
        if last_drawn[p] >= 0:
            s.last_action = t.a_draw + last_drawn[p]
        return
    q = ally_of(s, t, p)     # the card went to the giver's ally
    if q >= 0 and last_drawn[q] >= 0:
        s.last_action = t.a_give + last_drawn[q]


cdef uint64_t rc_hash(const void* state, const void* tables) noexcept nogil:
    cdef const RcState* s = <const RcState*>state
    return hash_bytes(s, <size_t>(<const char*>&s.move_count - <const char*>s))


cdef bint rc_simultaneous(const void* state, const void* tables) noexcept nogil:
    """"Each of the two combatants chooses TWO cards, which he places in front of him face
    down. They are then turned over at the same time": the defender's choice is made
    without seeing the attacker's."""
    cdef const RcState* s = <const RcState*>state
    return s.phase == PH_COMMIT and s.b_side == 1


cdef void rc_take_back_commit(void* state, const void* tables) noexcept nogil:
    """The attacker's face-down cards back in his hand and the attacker to lay them again
    (the inverse of apply_commit's first half; the last action, the commit, is forgotten:
    re-applying it writes it back)."""
    cdef RcState* s = <RcState*>state
    cdef int x
    for x in range(s.ncommit[0]):
        s.hand[s.b_att][s.commit[0][x]] += 1
        s.commit[0][x] = 0
    s.ncommit[0] = 0
    s.b_side = 0
    s.current = s.b_att
    s.last_action = -1
    s.move_count -= 1


cdef bint rc_forced(const void* state, const void* tables) noexcept nogil:
    """A forced step: a decision with one legal answer, which every player can tell has
    one -- the phases whose moves depend on the board alone: a placement (turns 1 and
    2), a General's Treason's move and its second infantry (or ``done``), and the forced
    march's extra move.  A decision whose moves depend on a hand (a payment, battle cards,
    the ``done`` after a move, R9) is asked even with one answer: skipping it would tell
    the others what the hand holds."""
    cdef const RcState* s = <const RcState*>state
    cdef int buffer[RC_FORCED_BUFFER]
    if s.phase not in (PH_PLACE, PH_TREASON, PH_TREASON_SECOND, PH_EXTRA):
        return False
    return rc_legal_actions(state, tables, buffer) == 1


# ------------------------------------------------------------------ the observation tensor
#
# What one player may see, as floats (the legend: boardrules/games/rome_and_carthage/
# observation.py): the same information as the facade's view(player), nothing more.
# Seats are relative to the observer (seat (player + k) % players at index k), teams too
# (his own first), and armies are listed by empire *slot*: the observer's empires first
# (in the board file's order), then the next seat's (RcTables.obs_slot).  Counts are plain
# counts.  The set-up fields never change, so each observer's are written once, when the
# game is loaded (RcTables.obs_setup), and copied.

cdef inline int rel_seat(const RcTables* t, int player, int q) noexcept nogil:
    cdef int k = q - player
    return k + t.num_players if k < 0 else k


cdef inline int rel_team(const RcTables* t, int player, int team) noexcept nogil:
    return 0 if team == t.player_team[player] else 1


cdef void empire_slots(const RcTables* t, int player, int* slot) noexcept nogil:
    """Each empire's slot in ``player``'s tensor: the empires of his seat, then those of
    the next seats in turn order, each seat's in the board file's order (Rome, Carthage,
    Byzantium, Alexandria)."""
    cdef int k, q, e
    cdef int n = 0
    for k in range(t.num_players):
        q = player + k
        if q >= t.num_players:
            q -= t.num_players
        for e in range(RC_EMPIRES):
            if (t.player_empires[q] >> e) & 1:
                slot[e] = n
                n += 1


cdef void obs_setup(const RcTables* t, int player, float* out) noexcept nogil:
    """The game as set up -- public by the rules ("Forming teams") and the options:
    which empire each slot is and who plays it, the observer's team, the variant, the
    round caps (R17).  (The map never changes and is not repeated: ``game.board``.)
    Written once per observer into RcTables.obs_setup."""
    cdef const int* slot = t.obs_slot[player]
    cdef int e, q
    for e in range(RC_EMPIRES):
        out[t.obs_at[OBS_SLOT_EMPIRE] + slot[e] * RC_EMPIRES + e] = 1.0
        out[t.obs_at[OBS_SLOT_SEAT] + slot[e] * t.num_players
            + rel_seat(t, player, t.empire_player[e])] = 1.0
    for q in range(t.num_players):
        if t.player_team[q] == t.player_team[player]:
            out[t.obs_at[OBS_SEAT_ALLY] + rel_seat(t, player, q)] = 1.0
    out[t.obs_at[OBS_VARIANT] + (1 if t.equal_arms else 2 if t.rapid else 0)] = 1.0
    out[t.obs_at[OBS_CONSENT]] = 1.0 if t.explicit_consent else 0.0
    out[t.obs_at[OBS_LIMITS]] = t.max_rounds
    out[t.obs_at[OBS_LIMITS] + 1] = t.no_progress_rounds


cdef inline uint32_t obs_armies(const RcTables* t, const int* slot, const uint8_t* codes,
                                uint64_t cities, float* owner, float* kind) noexcept nogil:
    """The armies ``codes[c]`` of the cities of the mask: each one's slot in the
    ``owner`` planes and kind in the ``kind`` planes ([row, city]).  Returns their count
    by empire, 8 bits an empire (7 armies an empire, "Components")."""
    cdef int c, code
    cdef uint32_t counts = 0
    while cities:
        c = ctz64(cities)
        cities &= cities - 1
        code = codes[c]
        owner[slot[code_empire(code)] * t.ncities + c] = 1.0
        kind[code_kind(code) * t.ncities + c] = 1.0
        counts += (<uint32_t>1) << (8 * code_empire(code))
    return counts


cdef void obs_board(const RcState* s, const RcTables* t, int player, int* armies,
                    float* out) noexcept nogil:
    """Every army on the map is in sight: residents, the attackers of pending battles,
    and an army passing through a friend in its forced march (R22).  Counts each
    empire's armies into ``armies`` (those still to place included, as the view's)."""
    cdef const int* slot = t.obs_slot[player]
    cdef int e, code
    cdef uint32_t counts = obs_armies(t, slot, s.army, s.side_mask[0] | s.side_mask[1],
                                      out + t.obs_at[OBS_ARMY], out + t.obs_at[OBS_ARMY_KIND])
    counts += obs_armies(t, slot, s.attacker, s.att_mask, out + t.obs_at[OBS_ATTACKER],
                         out + t.obs_at[OBS_ATTACKER_KIND])
    for e in range(RC_EMPIRES):
        armies[e] = (<int>(counts >> (8 * e)) & 255) + (
            s.unplaced[e][0] + s.unplaced[e][1] + s.unplaced[e][2] + s.unplaced[e][3])
    code = s.transit
    if code:
        armies[code_empire(code)] += 1
        if s.transit_city:
            out[t.obs_at[OBS_PASSING] + s.transit_city - 1] = 1.0
            out[t.obs_at[OBS_PASSING_SLOT] + slot[code_empire(code)]] = 1.0
            out[t.obs_at[OBS_PASSING_KIND] + code_kind(code)] = 1.0


cdef void obs_turn(const RcState* s, const RcTables* t, int player,
                   float* out) noexcept nogil:
    """The phase, the round, whose turn it is and who decides now (no one while a card
    is drawn and at the end)."""
    out[t.obs_at[OBS_PHASE] + s.phase] = 1.0
    out[t.obs_at[OBS_ROUND]] = s.round
    out[t.obs_at[OBS_TURN_PLAYER] + rel_seat(t, player, s.turn_player)] = 1.0
    if s.phase != PH_DRAW and s.phase != PH_OVER:
        out[t.obs_at[OBS_TO_MOVE] + rel_seat(t, player, s.current)] = 1.0


cdef void obs_players(const RcState* s, const RcTables* t, int player, const int* armies,
                      float* out) noexcept nogil:
    """Per seat: the hand only to himself and, except in Equal Arms, his ally (Setup:
    "Allied players may ... show each other their cards"; Equal Arms: "may NOT"), else
    its size, the cards everyone knows it holds and how many only its side has seen
    (R21: "He looks at its value secretly"); a lost hand's face-down cards likewise
    (R8); armies, exclusion, an occupied capital, the special cards (face up)."""
    cdef int q, k, v, e, c, size, lost, n
    cdef int occupied = 0          # bit e: an enemy army holds empire e's capital
    cdef uint8_t hand[RC_VALUES]   # local copies: stores to ``out`` cannot touch them
    cdef uint8_t cards[RC_VALUES]
    cdef float* row
    for e in range(RC_EMPIRES):
        c = t.capital[e]
        if s.army[c] and code_team(t, s.army[c]) != t.empire_team[e]:
            occupied |= 1 << e
    for q in range(t.num_players):
        k = rel_seat(t, player, q)
        memcpy(hand, s.hand[q], RC_VALUES)
        memcpy(cards, s.known[q], RC_VALUES)
        size = 0
        for v in range(RC_VALUES):
            size += hand[v]
        row = out + t.obs_at[OBS_KNOWN] + k * RC_VALUES
        for v in range(RC_VALUES):
            row[v] = cards[v]
        memcpy(cards, s.lost[q], RC_VALUES)
        lost = 0
        for v in range(RC_VALUES):
            lost += cards[v]
        if sees_hand(t, player, q):
            row = out + t.obs_at[OBS_HAND] + k * RC_VALUES
            for v in range(RC_VALUES):
                row[v] = hand[v]
            if lost:
                row = out + t.obs_at[OBS_LOST_CARDS] + k * RC_VALUES
                for v in range(RC_VALUES):
                    row[v] = cards[v]
            out[t.obs_at[OBS_HAND_VISIBLE] + k] = 1.0
        n = 0
        for e in range(RC_EMPIRES):
            if t.empire_player[e] == q:
                n += armies[e]
        out[t.obs_at[OBS_HAND_SIZE] + k] = size
        out[t.obs_at[OBS_UNKNOWN] + k] = s.unknown[q]
        out[t.obs_at[OBS_LOST] + k] = lost
        out[t.obs_at[OBS_ARMIES] + k] = n
        out[t.obs_at[OBS_ELIMINATED] + k] = 1.0 if s.excluded[q] else 0.0
        out[t.obs_at[OBS_CAPITAL_OCCUPIED] + k] = (
            1.0 if occupied & t.player_empires[q] else 0.0)
        out[t.obs_at[OBS_TREASON] + k] = 1.0 if s.treason[t.holder[q]] else 0.0
        out[t.obs_at[OBS_UPRISING] + k] = 1.0 if s.uprising[t.holder[q]] else 0.0


cdef void obs_cards(const RcState* s, const RcTables* t, int player,
                    float* out) noexcept nogil:
    """The pile's size, never its content ("Draw pile": face down); the spent cards, all
    seen when played; the cards out of the game in sight and the 15s (R8).  Equal Arms:
    one pile and one discard a team, the observer's team's first; else the one pile at
    index 0."""
    cdef int k, i, v, n
    cdef uint8_t cards[RC_VALUES]   # a local copy: stores to ``out`` cannot touch it
    cdef float* row
    for k in range(RC_TEAMS if t.equal_arms else 1):
        i = rel_team(t, player, k) if t.equal_arms else k
        n = 0
        for v in range(RC_VALUES):
            n += s.pile[k][v]
        out[t.obs_at[OBS_PILE_SIZE] + i] = n
        memcpy(cards, s.discard[k], RC_VALUES)
        row = out + t.obs_at[OBS_DISCARD] + i * RC_VALUES
        for v in range(RC_VALUES):
            row[v] = cards[v]
    memcpy(cards, s.removed, RC_VALUES)
    row = out + t.obs_at[OBS_REMOVED]
    for v in range(RC_VALUES):
        row[v] = cards[v]
    out[t.obs_at[OBS_FIFTEENS]] = s.fifteens_removed
    out[t.obs_at[OBS_FIFTEENS] + 1] = s.fifteens_aside


cdef void obs_battle(const RcState* s, const RcTables* t, int player,
                     float* out) noexcept nogil:
    """The battle being fought: where, who, which round, who lays cards.  The attacker's
    cards lie face down ("Each of the two combatants chooses TWO cards, which he places
    in front of him face down"): their number to all, their values to his side only.
    While a lone spy decides, the revealed totals (R1)."""
    cdef int i
    if s.phase != PH_COMMIT and s.phase != PH_SPY:
        return
    out[t.obs_at[OBS_BATTLE_CITY] + s.bcity] = 1.0
    out[t.obs_at[OBS_BATTLE_ATTACKER] + rel_seat(t, player, s.b_att)] = 1.0
    out[t.obs_at[OBS_BATTLE_DEFENDER] + rel_seat(t, player, s.b_def)] = 1.0
    out[t.obs_at[OBS_BATTLE_ROUND] + s.b_kind] = 1.0
    if s.phase == PH_COMMIT:
        out[t.obs_at[OBS_BATTLE_TO_PLAY] + s.b_side] = 1.0
        if s.b_side == 1:
            out[t.obs_at[OBS_FACE_DOWN]] = s.ncommit[0]
            if sees_hand(t, player, s.b_att):
                for i in range(s.ncommit[0]):
                    out[t.obs_at[OBS_FACE_DOWN_CARDS] + s.commit[0][i]] += 1.0
    else:
        out[t.obs_at[OBS_SPY] + s.spy_side] = 1.0
        out[t.obs_at[OBS_BATTLE_TOTALS]] = s.total[0]
        out[t.obs_at[OBS_BATTLE_TOTALS] + 1] = s.total[1]


cdef void obs_progress(const RcState* s, const RcTables* t, int player,
                       float* out) noexcept nogil:
    """The turn's forced march (its payment is public, R9), the victory clocks (R4,
    R16), Rapid Conquest's pass bonus, the turns without progress (R17) and the result."""
    cdef int k, i
    out[t.obs_at[OBS_MARCH_USED]] = 1.0 if s.march_used else 0.0
    out[t.obs_at[OBS_MARCH_PAID]] = s.pay_sum
    for k in range(RC_TEAMS):
        i = rel_team(t, player, k)
        out[t.obs_at[OBS_CLOCK_RUNNING] + i] = 1.0 if s.clock_on[k] else 0.0
        out[t.obs_at[OBS_CLOCK_RUNNING] + RC_TEAMS + i] = 1.0 if s.clock2_on[k] else 0.0
        out[t.obs_at[OBS_CLOCK_TURNS] + i] = s.clock_turns[k] if s.clock_turns[k] > 0 else 0
        out[t.obs_at[OBS_CLOCK_TURNS] + RC_TEAMS + i] = (
            s.clock2_turns[k] if s.clock2_turns[k] > 0 else 0)
    out[t.obs_at[OBS_PASS_BONUS]] = 1.0 if s.pass_bonus else 0.0
    out[t.obs_at[OBS_QUIET_TURNS]] = s.quiet_turns
    if s.winner:
        out[t.obs_at[OBS_WINNER] + rel_team(t, player, s.winner - 1)] = 1.0
    if s.end_reason:
        out[t.obs_at[OBS_END_REASON] + s.end_reason - 1] = 1.0


cdef void rc_observation(const void* state, const void* tables, int player,
                         float* out) noexcept nogil:
    """What ``player`` may see, as ``RcTables.obs_size`` floats (every one written): the
    set-up (copied), the map's armies, the turn, each seat's cards as far as he may see
    them, the piles, the battle and the clocks.  Layout:
    ``boardrules/games/rome_and_carthage/observation.py``."""
    cdef const RcState* s = <const RcState*>state
    cdef const RcTables* t = <const RcTables*>tables
    cdef int armies[RC_EMPIRES]
    cdef int setup = t.obs_at[OBS_ARMY]     # the set-up fields come first
    memcpy(out, t.obs_setup[player], sizeof(float) * setup)
    memset(out + setup, 0, sizeof(float) * (t.obs_size - setup))
    obs_board(s, t, player, armies, out)
    obs_turn(s, t, player, out)
    obs_players(s, t, player, armies, out)
    obs_cards(s, t, player, out)
    obs_battle(s, t, player, out)
    obs_progress(s, t, player, out)


# ------------------------------------------------------------------ the Python object

cdef class RomeCarthageCore(CoreGame):
    """The compiled game for one board and one set of options.

    ``land`` and ``sea`` are lists of city index pairs; ``city_empire`` gives each city's
    empire, ``capitals`` each empire's capital; ``empires`` lists each player's empires
    (in turn order) and ``allies`` the empire allied with Rome.
    """

    def __cinit__(self, list city_empire, list capitals, list land, list sea,
                  list empires, list empire_team, int first_player, bint equal_arms,
                  int max_rounds, int no_progress_rounds, bint rapid=False,
                  bint explicit_consent=False):
        cdef RcTables* t = &self.tables
        cdef int ncities = len(city_empire)
        cdef int players = len(empires)
        cdef int c, d, e, p, i, j, k
        memset(t, 0, sizeof(RcTables))
        if not 2 <= players <= 4:
            raise ValueError("2 to 4 players")
        if not 2 <= ncities <= RC_MAX_CITIES:
            raise ValueError("2 to 64 cities")
        if not 0 <= first_player < players:
            raise ValueError("first_player out of range")
        if max_rounds < 3 or no_progress_rounds < 1:
            raise ValueError("max_rounds >= 3 and no_progress_rounds >= 1")
        t.ncities = ncities
        t.num_players = players
        t.equal_arms = equal_arms
        t.rapid = rapid
        t.explicit_consent = explicit_consent
        if rapid and (players != 4 or equal_arms):
            raise ValueError("Rapid Conquest is a 4-player variant of the standard game")
        t.max_rounds = max_rounds
        t.no_progress_rounds = no_progress_rounds
        t.first_player = first_player
        for c in range(ncities):
            e = city_empire[c]
            if not 0 <= e < RC_EMPIRES:
                raise ValueError("city empire out of range")
            t.city_empire[c] = e
            t.empire_cities[e] |= bit(c)
        for e in range(RC_EMPIRES):
            t.capital[e] = capitals[e]
            if not 0 <= t.capital[e] < ncities or t.city_empire[t.capital[e]] != e:
                raise ValueError("a capital must be a city of its empire")
        for pairs, masks in ((land, 0), (sea, 1)):
            for c, d in pairs:
                if not (0 <= c < ncities and 0 <= d < ncities) or c == d:
                    raise ValueError("bad link")
                if masks == 0:
                    t.land[c] |= bit(d)
                    t.land[d] |= bit(c)
                else:
                    t.sea[c] |= bit(d)
                    t.sea[d] |= bit(c)
        self._setup_players(empires, empire_team)
        self._setup_cards()
        self._setup_threat()
        k = 0
        for i in range(RC_VALUES):
            for j in range(i, RC_VALUES):
                t.pair_a[k] = i
                t.pair_b[k] = j
                t.pair_of[i][j] = k
                t.pair_of[j][i] = k
                k += 1
        t.a_uprising = ACT_FIXED
        t.a_place = t.a_uprising + ncities
        t.a_move = t.a_place + RC_KINDS * ncities
        t.a_battle = t.a_move + ncities * ncities
        t.a_pair = t.a_battle + ncities
        t.a_single = t.a_pair + RC_PAIRS
        t.a_pay = t.a_single + RC_VALUES
        t.a_give = t.a_pay + RC_VALUES
        t.a_draw = t.a_give + RC_VALUES
        t.num_actions = t.a_draw + RC_VALUES
        if t.num_actions > RC_FORCED_BUFFER:
            raise ValueError("too many actions")    # cannot happen: 64 cities at most

        self.contract.state_size = sizeof(RcState)
        self.contract.num_players = players
        self.contract.num_teams = RC_TEAMS
        for p in range(players):
            self.contract.team_of[p] = t.player_team[p]
        self.contract.num_distinct_actions = t.num_actions
        self.contract.max_legal_actions = t.num_actions
        self.contract.max_game_length = self._game_length_bound()
        self.contract.has_hidden_information = True
        self.contract.tables = t
        self.contract.initial_state = rc_initial_state
        self.contract.current_player = rc_current_player
        self.contract.legal_actions = rc_legal_actions
        self.contract.chance_outcomes = rc_chance_outcomes
        self.contract.apply = rc_apply
        self.contract.returns = rc_returns
        self.contract.determinize = rc_determinize
        self.contract.evaluate = rc_evaluate
        self.contract.hash = rc_hash
        self.contract.simultaneous = rc_simultaneous
        self.contract.take_back_commit = rc_take_back_commit
        self.contract.forced = rc_forced
        self._setup_observation()
        self.contract.observation_size = t.obs_size
        self.contract.observation = rc_observation

    cdef _setup_players(self, list empires, list empire_team):
        """"Forming teams": each player plays one or two empires; a team is two allied
        empires, and a player's empires are allies."""
        cdef RcTables* t = &self.tables
        cdef int p, e
        seen = set()
        for e in range(RC_EMPIRES):
            t.empire_player[e] = -1
        for p, own in enumerate(empires):
            if len(own) not in (1, 2):
                raise ValueError("a player plays one or two empires")
            for e in own:
                if not 0 <= e < RC_EMPIRES or e in seen:
                    raise ValueError("each empire is played by exactly one player")
                seen.add(e)
                t.empire_player[e] = p
                t.player_empires[p] |= 1 << e
        if len(seen) != RC_EMPIRES:
            raise ValueError("each empire is played by exactly one player")
        if sorted(empire_team) != [0, 0, 1, 1]:
            raise ValueError("two teams of two empires")
        for e in range(RC_EMPIRES):
            t.empire_team[e] = empire_team[e]
        for p in range(t.num_players):
            t.player_team[p] = -1
            for e in range(RC_EMPIRES):
                if (t.player_empires[p] >> e) & 1:
                    if t.player_team[p] not in (-1, t.empire_team[e]):
                        raise ValueError("a player's empires must be allies")
                    t.player_team[p] = t.empire_team[e]
        return None

    cdef _setup_cards(self):
        """"Distributing the resource cards" and "the special cards" (and Equal Arms)."""
        cdef RcTables* t = &self.tables
        cdef int p, v, team
        cdef int dealt[RC_VALUES]
        memset(dealt, 0, sizeof(dealt))
        memset(t.initial_hand, 0, sizeof(t.initial_hand))
        memset(t.initial_pile, 0, sizeof(t.initial_pile))
        memset(t.initial_removed, 0, sizeof(t.initial_removed))
        memset(t.initial_treason, 0, sizeof(t.initial_treason))
        memset(t.initial_uprising, 0, sizeof(t.initial_uprising))
        for p in range(t.num_players):
            two = popcount64(t.player_empires[p]) == 2
            for value in (TWO_EMPIRE_HAND if two else ONE_EMPIRE_HAND):
                v = CARD_VALUE.index(value)
                t.initial_hand[p][v] += 1
                dealt[v] += 1
            # "In a three-player game, the player who plays alone draws TWO cards"
            t.player_draws[p] = 2 if two and t.num_players == 3 else 1
        # "Zeros that are not dealt out are removed from the game permanently"
        t.initial_removed[0] = DECK[0] - dealt[0]
        pile = [DECK[v] - dealt[v] if v else 0 for v in range(RC_VALUES)]
        if t.equal_arms:
            halves = equal_arms_split(pile)
            for team in range(RC_TEAMS):
                t.team_pile[team] = team
                for v in range(RC_VALUES):
                    t.initial_pile[team][v] = halves[team][v]
        else:
            for v in range(RC_VALUES):
                t.initial_pile[0][v] = pile[v]
        # "Each team takes one General's Treason card and one Popular Uprising card";
        # Equal Arms: "A player who plays in a team takes one special card and his ally
        # takes the other" (R15: the team's lower-numbered player takes the Treason)
        for team in range(RC_TEAMS):
            team_players = [p for p in range(t.num_players) if t.player_team[p] == team]
            if not t.equal_arms:
                for p in team_players:
                    t.holder[p] = team
                t.initial_treason[team] = 1
                # Rapid Conquest: "the two Popular Uprising cards are removed from the game"
                t.initial_uprising[team] = 0 if t.rapid else 1
            elif len(team_players) == 1:
                t.holder[team_players[0]] = team_players[0]
                t.initial_treason[team_players[0]] = 1
                t.initial_uprising[team_players[0]] = 1
            elif len(team_players) == 2:
                for p in team_players:
                    t.holder[p] = p
                t.initial_treason[team_players[0]] = 1
                t.initial_uprising[team_players[1]] = 1

    cdef _setup_threat(self):
        """evaluate()'s bonus for an army near the enemy capitals: 0.4 / (1 + d) per enemy
        capital, d the number of routes (land or sea) between the city and that capital."""
        cdef RcTables* t = &self.tables
        cdef int c, e, team
        n = t.ncities
        for e in range(RC_EMPIRES):
            dist = [-1] * n
            dist[t.capital[e]] = 0
            frontier = [t.capital[e]]
            while frontier:
                nxt = []
                for c in frontier:
                    for d in range(n):
                        if ((t.land[c] | t.sea[c]) >> d) & 1 and dist[d] < 0:
                            dist[d] = dist[c] + 1
                            nxt.append(d)
                frontier = nxt
            team = 1 - t.empire_team[e]
            for c in range(n):
                if dist[c] >= 0:
                    t.threat[team][c] += 0.4 / (1 + dist[c])
        return None

    cdef _setup_observation(self):
        """Each observation field's first float (``RcTables.obs_at``), the fields end to
        end in OBS_* order; their shapes, as ``observation.py`` lists them, depend on the
        number of players (seats) and of cities."""
        cdef RcTables* t = &self.tables
        cdef int i, p
        seats = t.num_players
        cities = t.ncities
        sizes = {
            OBS_SLOT_EMPIRE: RC_EMPIRES * RC_EMPIRES, OBS_SLOT_SEAT: RC_EMPIRES * seats,
            OBS_SEAT_ALLY: seats, OBS_VARIANT: 3, OBS_CONSENT: 1, OBS_LIMITS: 2,
            OBS_ARMY: RC_EMPIRES * cities, OBS_ARMY_KIND: RC_KINDS * cities,
            OBS_ATTACKER: RC_EMPIRES * cities, OBS_ATTACKER_KIND: RC_KINDS * cities,
            OBS_PASSING: cities, OBS_PASSING_SLOT: RC_EMPIRES, OBS_PASSING_KIND: RC_KINDS,
            OBS_PHASE: PH_ALLY_MOVED + 1, OBS_ROUND: 1, OBS_TURN_PLAYER: seats,
            OBS_TO_MOVE: seats, OBS_HAND: seats * RC_VALUES, OBS_HAND_VISIBLE: seats,
            OBS_HAND_SIZE: seats, OBS_KNOWN: seats * RC_VALUES, OBS_UNKNOWN: seats,
            OBS_LOST: seats, OBS_LOST_CARDS: seats * RC_VALUES, OBS_ARMIES: seats,
            OBS_ELIMINATED: seats, OBS_CAPITAL_OCCUPIED: seats, OBS_TREASON: seats,
            OBS_UPRISING: seats, OBS_PILE_SIZE: RC_TEAMS, OBS_DISCARD: RC_TEAMS * RC_VALUES,
            OBS_REMOVED: RC_VALUES, OBS_FIFTEENS: 2, OBS_BATTLE_CITY: cities,
            OBS_BATTLE_ATTACKER: seats, OBS_BATTLE_DEFENDER: seats, OBS_BATTLE_ROUND: 3,
            OBS_BATTLE_TO_PLAY: 2, OBS_FACE_DOWN: 1, OBS_FACE_DOWN_CARDS: RC_VALUES,
            OBS_SPY: 2, OBS_BATTLE_TOTALS: 2, OBS_MARCH_USED: 1, OBS_MARCH_PAID: 1,
            OBS_CLOCK_RUNNING: 2 * RC_TEAMS, OBS_CLOCK_TURNS: 2 * RC_TEAMS,
            OBS_PASS_BONUS: 1, OBS_QUIET_TURNS: 1, OBS_WINNER: RC_TEAMS,
            OBS_END_REASON: len(END_REASONS) - 1,
        }
        assert sorted(sizes) == list(range(OBS_FIELDS))
        t.obs_size = 0
        for i in range(OBS_FIELDS):
            t.obs_at[i] = t.obs_size
            t.obs_size += sizes[i]
        assert t.obs_at[OBS_ARMY] <= RC_OBS_SETUP_MAX
        memset(t.obs_setup, 0, sizeof(t.obs_setup))
        for p in range(seats):
            empire_slots(t, p, t.obs_slot[p])
            obs_setup(t, p, t.obs_setup[p])
        return None

    cdef int _game_length_bound(self):
        """A true bound on the actions of a game.  Placement: one action an army.  A turn:
        at most TURN_ACTIONS actions outside battles (3 draws, special cards and their
        moves, up to 3 simple moves, ``done``, up to 3 payments, battle choices), and all
        its battle rounds together: every round but the last of a battle spends a non-zero
        card of each side (ties above zero, double spies) or of the spy, so a turn's up to
        5 battles have at most RC_NONZERO_CARDS + 5 rounds of at most 3 actions."""
        cdef RcTables* t = &self.tables
        cdef int per_turn = TURN_ACTIONS + 3 * (RC_NONZERO_CARDS + 5)
        return 7 * RC_EMPIRES + t.max_rounds * t.num_players * per_turn

    @property
    def layout(self):
        """Action-id offsets of each block (see the action layout in the .pxd)."""
        t = &self.tables
        return {
            "pass": ACT_PASS, "done": ACT_DONE, "treason": ACT_TREASON,
            "withdraw": ACT_WITHDRAW, "ally": ACT_ALLY, "agree": ACT_AGREE,
            "refuse": ACT_REFUSE, "uprising": t.a_uprising, "place": t.a_place,
            "move": t.a_move, "battle": t.a_battle, "pair": t.a_pair,
            "single": t.a_single, "pay": t.a_pay, "give": t.a_give, "draw": t.a_draw,
            "end": t.num_actions,
        }

    @property
    def pairs(self):
        """[(low, high)] value indices of each pair action, in id order."""
        return [(self.tables.pair_a[i], self.tables.pair_b[i]) for i in range(RC_PAIRS)]

    @property
    def holder(self):
        return [self.tables.holder[p] for p in range(self.tables.num_players)]

    @property
    def initial_pile(self):
        return [[self.tables.initial_pile[k][v] for v in range(RC_VALUES)]
                for k in range(RC_TEAMS)]

    def export(self, CoreState st):
        """The whole truth of a state as plain Python values (for views, JSON, SVG)."""
        self._check(st)
        cdef RcState* s = <RcState*>st.data
        cdef RcTables* t = &self.tables
        n = t.ncities
        players = t.num_players
        return {
            "army": [s.army[c] - 1 if s.army[c] else -1 for c in range(n)],
            "attacker": [s.attacker[c] - 1 if s.attacker[c] else -1 for c in range(n)],
            "origin": [s.origin[c] - 1 for c in range(n)],
            "att_origin": [s.att_origin[c] - 1 for c in range(n)],
            "transit": s.transit - 1 if s.transit else -1,
            "transit_city": s.transit_city - 1,
            "transit_origin": s.transit_origin - 1,
            "hand": [[s.hand[p][v] for v in range(RC_VALUES)] for p in range(players)],
            "known": [[s.known[p][v] for v in range(RC_VALUES)] for p in range(players)],
            "unknown": [s.unknown[p] for p in range(players)],
            "pile": [[s.pile[k][v] for v in range(RC_VALUES)] for k in range(RC_TEAMS)],
            "discard": [[s.discard[k][v] for v in range(RC_VALUES)] for k in range(RC_TEAMS)],
            "removed": [s.removed[v] for v in range(RC_VALUES)],
            "lost": [[s.lost[p][v] for v in range(RC_VALUES)] for p in range(players)],
            "unplaced": [[s.unplaced[e][k] for k in range(RC_KINDS)]
                         for e in range(RC_EMPIRES)],
            "treason": [s.treason[h] for h in range(RC_MAX_PLAYERS)],
            "uprising": [s.uprising[h] for h in range(RC_MAX_PLAYERS)],
            "excluded": [bool(s.excluded[p]) for p in range(players)],
            "placed": [s.placed[e] for e in range(RC_EMPIRES)],
            "commit": [[s.commit[side][i] for i in range(s.ncommit[side])]
                       for side in range(2)],
            "clock_on": [bool(s.clock_on[k]) for k in range(RC_TEAMS)],
            "clock_turns": [s.clock_turns[k] for k in range(RC_TEAMS)],
            "clock2_on": [bool(s.clock2_on[k]) for k in range(RC_TEAMS)],
            "clock2_turns": [s.clock2_turns[k] for k in range(RC_TEAMS)],
            "pay_for": s.pay_for,
            "ally_city": s.ally_city - 1,
            "pass_bonus": bool(s.pass_bonus),
            "asked": s.asked,
            "refused": s.refused,
            "total": [s.total[0], s.total[1]],
            "round": s.round,
            "quiet_turns": s.quiet_turns,
            "fifteens_removed": s.fifteens_removed,
            "fifteens_aside": s.fifteens_aside,
            "phase": s.phase,
            "current": s.current,
            "turn_player": s.turn_player,
            "draws_left": s.draws_left,
            "moves_made": s.moves_made,
            "second_infantry": s.second_infantry - 1,
            "march_used": bool(s.march_used),
            "pay_sum": s.pay_sum,
            "pay_last": s.pay_last,
            "context": s.context,
            "battle_city": s.bcity if s.phase in (PH_COMMIT, PH_SPY) else -1,
            "round_kind": s.b_kind,
            "commit_side": s.b_side,
            "attacker_player": s.b_att,
            "defender_player": s.b_def,
            "spy_side": s.spy_side,
            "cap_status": s.cap_status,
            "winner": s.winner - 1,
            "end_reason": s.end_reason,
            "last_action": s.last_action,
            # the rest of the struct, so that load(export(s)) is s byte for byte
            "bcity": s.bcity,
            "pass_draw": bool(s.pass_draw),
            "clock_played": [s.clock_played[k] for k in range(RC_TEAMS)],
            "clock2_played": [s.clock2_played[k] for k in range(RC_TEAMS)],
            "last_turn": s.last_turn,
            "move_count": s.move_count,
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (see ``CoreGame.load``): each field's
        type and range, then what play keeps true -- each army in one place and no more
        than an empire has, the 52 cards where the rules put them and what each hand is
        known to hold, the phase and whose decision it is, a decision with at least one
        legal answer -- and the derived masks computed again.  ValueError (TypeError
        for a wrong type) "<field>: <why>" leaves ``st`` untouched."""
        self._check(st)
        cdef RcTables* t = &self.tables
        cdef RcState tmp
        cdef int n = t.ncities
        cdef int players = t.num_players
        cdef int c, p, k, e, i
        memset(&tmp, 0, sizeof(RcState))
        codes = 4 * RC_EMPIRES
        army = _ints(raw, "army", n, -1, codes - 1)
        attacker = _ints(raw, "attacker", n, -1, codes - 1)
        origin = _ints(raw, "origin", n, -1, n - 1)
        att_origin = _ints(raw, "att_origin", n, -1, n - 1)
        for c in range(n):
            tmp.army[c] = army[c] + 1
            tmp.attacker[c] = attacker[c] + 1
            tmp.origin[c] = origin[c] + 1
            tmp.att_origin[c] = att_origin[c] + 1
            if army[c] >= 0:
                tmp.side_mask[t.empire_team[army[c] // 4]] |= bit(c)
            if attacker[c] >= 0:
                tmp.att_mask |= bit(c)
                if army[c] < 0:
                    raise ValueError(f"attacker[{c}]: an attacker fights a resident army")
                if t.empire_team[army[c] // 4] == t.empire_team[attacker[c] // 4]:
                    raise ValueError(f"attacker[{c}]: an army attacks only an enemy")
            elif att_origin[c] >= 0:
                raise ValueError(f"att_origin[{c}]: no attacker there")
            if army[c] < 0 and origin[c] >= 0:
                raise ValueError(f"origin[{c}]: no army there")
        transit = _int(raw, "transit", -1, codes - 1)
        transit_city = _int(raw, "transit_city", -1, n - 1)
        transit_origin = _int(raw, "transit_origin", -1, n - 1)
        if (transit < 0) != (transit_city < 0) or (transit < 0) != (transit_origin < 0):
            raise ValueError("transit: an army passing through has a city and an origin")
        if transit >= 0 and (army[transit_city] < 0 or t.empire_team[army[transit_city] // 4]
                             != t.empire_team[transit // 4]):
            raise ValueError("transit: an army passes through a friendly army's city")
        tmp.transit = transit + 1
        tmp.transit_city = transit_city + 1
        tmp.transit_origin = transit_origin + 1
        self._load_cards(&tmp, raw)
        unplaced = _matrix(raw, "unplaced", RC_EMPIRES, RC_KINDS, 0, 3)
        for e in range(RC_EMPIRES):
            for k in range(RC_KINDS):
                tmp.unplaced[e][k] = unplaced[e][k]
                on_board = sum(1 for code in army + attacker + [transit] if code == 4 * e + k)
                if on_board + unplaced[e][k] > ARMY_SET[k]:
                    raise ValueError(f"unplaced[{e}][{k}]: more {KINDS[k]} armies than "
                                     "an empire has")
        treason = _ints(raw, "treason", RC_MAX_PLAYERS, 0, 1)
        uprising = _ints(raw, "uprising", RC_MAX_PLAYERS, 0, 1)
        for p in range(RC_MAX_PLAYERS):
            tmp.treason[p] = treason[p]
            tmp.uprising[p] = uprising[p]
        excluded = _bools(raw, "excluded", players)
        placed = _ints(raw, "placed", RC_EMPIRES, 0, PLACE_QUOTA[0])
        for e in range(RC_EMPIRES):
            tmp.placed[e] = placed[e]
        for p in range(players):
            tmp.excluded[p] = excluded[p]
        for k, name in enumerate(("clock_on", "clock2_on")):
            values = _bools(raw, name, RC_TEAMS)
            for i in range(RC_TEAMS):
                if k == 0:
                    tmp.clock_on[i] = values[i]
                else:
                    tmp.clock2_on[i] = values[i]
        for k, name in enumerate(("clock_turns", "clock2_turns")):
            values = _ints(raw, name, RC_TEAMS, -1, 30000)
            for i in range(RC_TEAMS):
                if k == 0:
                    tmp.clock_turns[i] = values[i]
                else:
                    tmp.clock2_turns[i] = values[i]
        for k, name in enumerate(("clock_played", "clock2_played")):
            values = _ints(raw, name, RC_TEAMS, 0, (1 << players) - 1)
            for i in range(RC_TEAMS):
                if k == 0:
                    tmp.clock_played[i] = values[i]
                else:
                    tmp.clock2_played[i] = values[i]
        totals = _ints(raw, "total", 2, 0, 100)
        tmp.total[0] = totals[0]
        tmp.total[1] = totals[1]
        tmp.pay_for = _int(raw, "pay_for", PAY_MARCH, PAY_ALLY_MARCH)
        tmp.ally_city = _int(raw, "ally_city", -1, n - 1) + 1
        tmp.pass_bonus = _bool(raw, "pass_bonus")
        tmp.pass_draw = _bool(raw, "pass_draw")
        tmp.asked = _int(raw, "asked", 0, ASK_ALLY)
        tmp.refused = _int(raw, "refused", 0, ASK_TREASON | ASK_ALLY)
        tmp.round = _int(raw, "round", 1, t.max_rounds + 1)
        tmp.quiet_turns = _int(raw, "quiet_turns", 0, t.no_progress_rounds * players)
        tmp.fifteens_removed = _int(raw, "fifteens_removed", 0, 2)
        tmp.phase = _int(raw, "phase", 0, PH_ALLY_MOVED)
        tmp.current = _int(raw, "current", 0, players - 1)
        tmp.turn_player = _int(raw, "turn_player", 0, players - 1)
        tmp.draws_left = _int(raw, "draws_left", 0, 3)
        tmp.moves_made = _int(raw, "moves_made", 0, 4)
        tmp.second_infantry = _int(raw, "second_infantry", -1, n - 1) + 1
        tmp.march_used = _bool(raw, "march_used")
        tmp.pay_sum = _int(raw, "pay_sum", 0, 45)
        tmp.pay_last = _int(raw, "pay_last", 0, RC_V15)
        tmp.context = _int(raw, "context", CTX_MOVE, CTX_TREASON)
        tmp.bcity = _int(raw, "bcity", 0, n - 1)
        tmp.b_kind = _int(raw, "round_kind", ROUND_FULL, ROUND_TIE)
        tmp.b_side = _int(raw, "commit_side", 0, 1)
        tmp.b_att = _int(raw, "attacker_player", 0, players - 1)
        tmp.b_def = _int(raw, "defender_player", 0, players - 1)
        tmp.spy_side = _int(raw, "spy_side", 0, 1)
        tmp.cap_status = _int(raw, "cap_status", 0, 15)
        tmp.winner = _int(raw, "winner", -1, 1) + 1
        tmp.end_reason = _int(raw, "end_reason", END_NONE, END_WEAK_AND_CAPITAL)
        tmp.last_action = _int(raw, "last_action", -1, t.num_actions - 1)
        tmp.last_turn = _int(raw, "last_turn", 0, players - 1)
        tmp.move_count = _int(raw, "move_count", 0, 2**32 - 1)
        self._load_commit(&tmp, raw)
        self._check_loaded(&tmp, raw)
        st._replace_data(&tmp)

    cdef _load_cards(self, RcState* s, dict raw):
        """Hands, what each is known to hold, piles, spent, removed and lost cards."""
        cdef RcTables* t = &self.tables
        cdef int players = t.num_players
        cdef int p, k, v
        hand = _matrix(raw, "hand", players, RC_VALUES, 0, 8)
        known = _matrix(raw, "known", players, RC_VALUES, 0, 4)
        lost = _matrix(raw, "lost", players, RC_VALUES, 0, 8)
        unknown = _ints(raw, "unknown", players, 0, 52)
        pile = _matrix(raw, "pile", RC_TEAMS, RC_VALUES, 0, 8)
        discard = _matrix(raw, "discard", RC_TEAMS, RC_VALUES, 0, 8)
        removed = _ints(raw, "removed", RC_VALUES, 0, 8)
        for p in range(players):
            s.unknown[p] = unknown[p]
            if known[p][0]:
                raise ValueError(f"known[{p}]: zeros are never counted as known")
            for v in range(RC_VALUES):
                s.hand[p][v] = hand[p][v]
                s.known[p][v] = known[p][v]
                s.lost[p][v] = lost[p][v]
        for k in range(RC_TEAMS):
            if not t.equal_arms and k == 1 and (any(pile[1]) or any(discard[1])):
                raise ValueError("pile[1]: only Equal Arms has a second draw pile")
            for v in range(RC_VALUES):
                s.pile[k][v] = pile[k][v]
                s.discard[k][v] = discard[k][v]
        for v in range(RC_VALUES):
            s.removed[v] = removed[v]
        s.fifteens_aside = _int(raw, "fifteens_aside", 0, 2)

    cdef _load_commit(self, RcState* s, dict raw):
        """The battle cards on the table: [attacker's, defender's], 0 to 2 each."""
        commit = raw.get("commit")
        if type(commit) is not list or len(commit) != 2:
            raise ValueError("commit: a list of two lists of card indices")
        for side in range(2):
            cards = commit[side]
            if type(cards) is not list or len(cards) > 2:
                raise ValueError(f"commit[{side}]: 0 to 2 card indices")
            for i, value in enumerate(cards):
                s.commit[side][i] = field_int(value, f"commit[{side}]", 0, RC_V15)
            s.ncommit[side] = len(cards)

    cdef _check_loaded(self, RcState* s, dict raw):
        """Cross-field checks of a loaded position (see :meth:`load`)."""
        cdef RcTables* t = &self.tables
        cdef int players = t.num_players
        cdef int p, v, k, side
        cdef int total[RC_VALUES]
        cdef int full[RC_VALUES]
        cdef int* buffer
        memset(total, 0, sizeof(total))
        for p in range(players):
            for v in range(RC_VALUES):
                total[v] += s.hand[p][v] + s.lost[p][v]
        for k in range(RC_TEAMS):
            for v in range(RC_VALUES):
                total[v] += s.pile[k][v] + s.discard[k][v]
        for v in range(RC_VALUES):
            total[v] += s.removed[v]
        for side in range(2):
            for i in range(s.ncommit[side]):
                total[s.commit[side][i]] += 1
        total[RC_V15] += s.fifteens_aside
        for v in range(RC_VALUES):
            if total[v] != DECK[v]:
                raise ValueError(f"cards: {total[v]} cards of value {CARD_VALUE[v]}, the "
                                 f"deck has {DECK[v]}")
        in_battle = s.phase == PH_COMMIT
        if not in_battle and (s.ncommit[0] or s.ncommit[1]):
            raise ValueError("commit: battle cards lie on the table only while a side "
                             "commits")
        for p in range(players):
            for v in range(RC_VALUES):
                full[v] = s.hand[p][v]
            for side in range(2):
                if in_battle and p == (s.b_att if side == 0 else s.b_def):
                    for i in range(s.ncommit[side]):
                        full[s.commit[side][i]] += 1
            unseen = 0
            for v in range(1, RC_VALUES):
                if s.known[p][v] > full[v]:
                    raise ValueError(f"known[{p}]: more known cards of value "
                                     f"{CARD_VALUE[v]} than the hand holds")
                unseen += full[v] - s.known[p][v]
            if unseen != s.unknown[p]:
                raise ValueError(f"unknown[{p}]: the hand holds {unseen} cards not known")
            if s.excluded[p]:
                if armies_of_player(s, t, p) or any(full[v] for v in range(RC_VALUES)):
                    raise ValueError(f"excluded[{p}]: an excluded player has no army "
                                     "and no card")
            elif s.round > 2 and full[0] != 2:
                raise ValueError(f"hand[{p}]: a player in the game holds his two zeros")
        if s.cap_status != capital_status(s, t):
            raise ValueError("cap_status: not who holds the capitals on the board")
        self._check_phase(s)
        if s.phase == PH_OVER:
            return
        buffer = <int*>malloc(t.num_actions * sizeof(int))
        if buffer == NULL:
            raise MemoryError()
        try:
            # a draw is checked above (a card to draw); any other decision needs an answer
            k = rc_legal_actions(s, t, buffer) if s.phase != PH_DRAW else 1
        finally:
            free(buffer)
        if k <= 0:
            raise ValueError(f"phase: no legal move in phase {PHASES[s.phase]}")

    cdef _check_phase(self, RcState* s):
        """The phase and whose decision it is agree with the rest (see :meth:`load`)."""
        cdef RcTables* t = &self.tables
        cdef int phase = s.phase
        cdef int want
        name = PHASES[phase]
        if (phase == PH_OVER) != (s.end_reason != END_NONE):
            raise ValueError("end_reason: a game is over exactly when it has an end reason")
        if phase == PH_OVER:
            draw = s.end_reason in (END_NO_PROGRESS, END_ROUND_CAP)
            if draw != (s.winner == 0) or s.current != 0:
                raise ValueError("winner: a drawn game has none, a won one a team")
            return
        if s.winner:
            raise ValueError("winner: only a game over has a winner")
        if (phase == PH_PLACE) != (s.round <= 2):
            raise ValueError("phase: turns 1 and 2 place the armies, and only they")
        if s.round > t.max_rounds:
            raise ValueError("round: past the round cap")
        if s.excluded[s.turn_player]:
            raise ValueError("turn_player: an excluded player has no turn")
        if phase in (PH_CONSENT, PH_ALLY_MOVE, PH_ALLY_MOVED) and not t.rapid:
            raise ValueError(f"phase: {name} belongs to Rapid Conquest")
        if phase == PH_CONSENT and not t.explicit_consent:
            raise ValueError("phase: consent is asked only with explicit consent")
        if phase == PH_DRAW:
            k = t.team_pile[t.player_team[s.turn_player]]
            if not s.draws_left or not any(s.pile[k][v] for v in range(RC_VALUES)):
                raise ValueError("draws_left: a draw needs a card to draw")
        if s.transit and phase not in (PH_PAY, PH_EXTRA, PH_ALLY_MOVE):
            raise ValueError("transit: an army passes through a friend only while its "
                             "forced march is paid and its second leg made")
        want = s.turn_player
        if phase == PH_COMMIT or phase == PH_SPY:
            c = s.bcity
            if not s.attacker[c]:
                raise ValueError("bcity: no battle in that city")
            if (s.b_att != code_player(t, s.attacker[c])
                    or s.b_def != code_player(t, s.army[c])):
                raise ValueError("attacker_player: not the armies' players")
            side = s.b_side if phase == PH_COMMIT else s.spy_side
            want = s.b_att if side == 0 else s.b_def
            if phase == PH_COMMIT and s.b_side == 1:
                if s.ncommit[0] != cards_needed(s, t, 0) or s.ncommit[1]:
                    raise ValueError("commit: the attacker's cards lie face down, the "
                                     "defender's not yet")
            elif s.ncommit[0] or s.ncommit[1]:
                raise ValueError("commit: no card lies on the table yet")
        elif phase == PH_CONSENT:
            want = ally_of(s, t, s.turn_player)
            # "Move a piece of his allied player ... discard one (or several) card(s) from
            # his hand, for a minimum of 3 points": asked only by a hand that can pay (its
            # payment follows the answer, and a hand that cannot has no move then)
            if s.asked == ASK_ALLY and nonzero_points(s, s.turn_player, RC_V15) < 3:
                raise ValueError("asked: the ally's army is moved for cards of at least 3 "
                                 "points, and the turn player's hand has not that many")
        if s.current != want:
            raise ValueError(f"current: player {want} decides in phase {name}")

    def turn_players(self, CoreState st):
        """The turn player before each action of ``st``'s history (who drew each card),
        replayed in C from the initial state."""
        self._check(st)
        cdef RcState s
        cdef int i
        rc_initial_state(&s, &self.tables)
        out = []
        for i in range(st.n_actions):
            out.append(s.turn_player)
            rc_apply(&s, &self.tables, st.actions[i])
        return out

    def capital_occupied(self, CoreState st, player):
        """Whether an enemy army holds a capital of ``player`` ("Occupied capital")."""
        self._check(st)
        player = exact_int(player, "player")  # by value: a huge or lying int stays out of C
        if not 0 <= player < self.tables.num_players:
            raise ValueError("player out of range")
        return bool(capital_occupied(<RcState*>st.data, &self.tables, <int>player))

    def cards_needed(self, CoreState st):
        """Cards the deciding side lays down now (PH_COMMIT / PH_SPY), else 0."""
        self._check(st)
        cdef RcState* s = <RcState*>st.data
        if s.phase == PH_COMMIT:
            return cards_needed(s, &self.tables, s.b_side)
        if s.phase == PH_SPY:
            return cards_needed(s, &self.tables, s.spy_side)
        return 0

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal).  Legality is the move generator's own answer;
        the key only explains it."""
        cdef int action
        key = self._known_legal(st, action_id, &action)
        if key is not None:
            return key
        return _illegal_reason(<RcState*>st.data, &self.tables, action)


# ------------------------------------------------------------------ load() helpers


def _field(raw, name):
    if name not in raw:
        raise ValueError(f"{name}: missing")
    return raw[name]


def _int(raw, name, lo, hi):
    return field_int(_field(raw, name), name, lo, hi)


def _bool(raw, name):
    value = _field(raw, name)
    if type(value) is not bool:
        raise TypeError(f"{name}: a bool, not {type(value).__name__}")
    return value


def _list(value, name, length):
    if type(value) is not list or len(value) != length:
        raise ValueError(f"{name}: a list of {length}")
    return value


def _ints(raw, name, length, lo, hi):
    values = _list(_field(raw, name), name, length)
    return [field_int(v, f"{name}[{i}]", lo, hi) for i, v in enumerate(values)]


def _bools(raw, name, length):
    values = _list(_field(raw, name), name, length)
    for i, v in enumerate(values):
        if type(v) is not bool:
            raise TypeError(f"{name}[{i}]: a bool, not {type(v).__name__}")
    return list(values)


def _matrix(raw, name, rows, length, lo, hi):
    values = _list(_field(raw, name), name, rows)
    return [[field_int(v, f"{name}[{r}][{i}]", lo, hi)
             for i, v in enumerate(_list(row, f"{name}[{r}]", length))]
            for r, row in enumerate(values)]


def equal_arms_split(pile):
    """Equal Arms: "Separate the cards of the draw pile into two equal piles" (R15): each
    value's cards are shared half and half; the odd cards left over (only in the 3-player
    game) go one by one, highest first, to the team with the fewer points so far (then
    the fewer cards, then team 0), so both piles hold 10 cards and differ by at most a
    few points."""
    halves = [[c // 2 for c in pile], [c // 2 for c in pile]]
    sums = [sum(h * v for h, v in zip(halves[k], CARD_VALUE, strict=True)) for k in (0, 1)]
    counts = [sum(halves[k]) for k in (0, 1)]
    for v in range(len(pile) - 1, -1, -1):
        if pile[v] % 2:
            k = min((0, 1), key=lambda team: (sums[team], counts[team], team))
            halves[k][v] += 1
            sums[k] += CARD_VALUE[v]
            counts[k] += 1
    return halves


cdef str _illegal_reason(const RcState* s, const RcTables* t, int action):
    """Names the rule an illegal action breaks (only for explanations)."""
    if s.phase == PH_OVER:
        return "game_over"
    if s.phase == PH_DRAW:
        return "chance_expected" if action < t.a_draw else "card_not_in_pile"
    if action >= t.a_draw:
        return "not_chance"
    if s.phase == PH_PLACE:
        if not (t.a_place <= action < t.a_move):
            return "placement_turn"
        return "place_not_allowed"
    if t.a_place <= action < t.a_move:
        return "placement_over"
    if s.phase in (PH_COMMIT, PH_SPY):
        if action == ACT_WITHDRAW:
            return "withdraw_not_spy"
        if t.a_pair <= action < t.a_pay:
            return "cards_not_allowed"
        return "battle_pending"
    if s.phase == PH_BATTLE_ORDER:
        return "choose_battle" if not (t.a_battle <= action < t.a_pair) else "no_battle_there"
    if s.phase == PH_CONSENT:
        return "consent_pending"
    if action == ACT_AGREE or action == ACT_REFUSE:
        return "no_consent_asked"
    if action == ACT_ALLY:
        if not t.rapid:
            return "rapid_conquest_only"
        return "ally_move_not_available"
    if t.a_give <= action < t.a_draw:
        if not t.rapid:
            return "rapid_conquest_only"
        return "give_not_allowed"
    if t.a_pair <= action < t.a_pay or action == ACT_WITHDRAW:
        return "no_battle"
    if t.a_battle <= action < t.a_pair:
        return "no_battle"
    if action == ACT_PASS:
        return "pass_not_now"
    if action == ACT_DONE:
        return "done_not_now"
    if action == ACT_TREASON:
        if s.phase != PH_MAIN:
            return "special_not_now"
        return "treason_used" if not s.treason[t.holder[s.turn_player]] else "treason_no_move"
    if t.a_uprising <= action < t.a_place:
        if s.phase != PH_MAIN:
            return "special_not_now"
        if not s.uprising[t.holder[s.turn_player]]:
            return "uprising_used"
        return "uprising_not_occupied"
    if t.a_pay <= action < t.a_give:
        if s.phase not in (PH_MOVED, PH_PAY, PH_ALLY_MOVED):
            return "march_not_now"
        if s.march_used and s.phase != PH_PAY:
            return "march_used"
        return "march_payment"
    # a move
    if s.phase == PH_PAY:
        return "march_payment_pending"
    if s.phase not in (PH_MAIN, PH_TREASON, PH_TREASON_SECOND, PH_MOVED, PH_EXTRA,
                       PH_ALLY_MOVE):
        return "move_not_now"
    src = (action - t.a_move) // t.ncities
    if s.transit and s.phase in (PH_EXTRA, PH_ALLY_MOVE):
        # R22: only the army passing through a friend moves, and it moves on
        return "unreachable" if src == s.transit_city - 1 else "passing_army_moves_on"
    code = s.army[src]
    if not code:
        return "no_army_there"
    team = t.player_team[s.turn_player]
    if s.phase in (PH_TREASON, PH_TREASON_SECOND):
        if code_team(t, code) == team:
            return "treason_own_army"
    elif s.phase == PH_ALLY_MOVE:
        if code_player(t, code) != ally_of(s, t, s.turn_player):
            return "not_ally_army"
        if s.ally_city and src != s.ally_city - 1:
            return "ally_same_army"
    elif code_player(t, code) != s.turn_player:
        return "not_your_army"
    if s.phase in (PH_MOVED, PH_TREASON_SECOND):
        if code_kind(code) != KIND_INFANTRY or not s.second_infantry:
            return "second_move_infantry"
        if src == s.second_infantry - 1:
            return "second_move_infantry"
    if (s.att_mask >> src) & 1:
        return "army_in_battle"
    return "unreachable"
