"""Armada (1986) rules core: the only implementation of the game's rules.

The rulebook (shared/rules/armada_1986.txt) is cited by its section names; the readings
of its unclear points are numbered M1, M2, ... as under "Rules clarifications" on the
docs page (docs/armada.rst), which also gives the notation.

A colour's turn is a sequence of small atomic decisions, each with a legal completion:

* the 10-action budget ("Action Budget"): ``move <from>-<to>`` then ``bands <k>`` and
  ``gold <g>`` (a group move, load, unload or transhipment), ``attack <from>-<to>`` then
  the combat die (chance) and the weapon windows, ``launch``, ``sail``, ``explore`` then
  the gold and tribes dice (chance), ``scuttle``, ``destroy``, ``convert``, ``recruit``
  then ``place`` per band, ``buy`` then the draw (chance);
* free card plays (``play <card>``), their rolls and placements;
* ``end``.  A sub-choice with one option only is made by the engine, not asked; a
  reaction window is always asked (who is asked must not reveal a hand, M4).

Cards in hand and the pile are secret: the state holds counts per kind, a draw is a
chance node over the pile's composition, and ``determinize`` redraws what the observer
has not seen.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from boardrules._ext.core cimport (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    exact_int,
    field_int,
    hash_bytes,
    rng_below,
)

COLOURS = ("green", "raspberry", "blue", "orange")
CARD_KINDS = ("attack_weapon", "defence_weapon", "shipyard", "coup_de_main", "discovery",
              "recruitment", "big_recruitment", "mobilisation", "big_mobilisation",
              "strategist", "gold_mine", "dope")
PHASES = ("deal", "setup_ship", "setup_bands", "turn", "bands", "gold", "roll",
          "attack_weapon", "defence_weapon", "explore", "tribes", "place", "draw", "look",
          "coup", "over")
PLACE_WHAT = ("recruit", "card_bands", "natives", "gold", "ship")
END_REASONS = ("", "victory", "round_cap")
WINDOW_POLICIES = ("off", "turn_start", "every_action")
ROUTE_KINDS = ("land", "load", "unload", "tranship")
SHIP_PLACES = ("box", "city", "sea")
GROUPS = ("central", "neighbour", "lair")
# Two-Player Rule: "One of the players takes command of the green and blue pirate bands,
# the other of the raspberry and orange"
TWO_PLAYER_SEATS = (0, 1, 0, 1)

cdef int BIG = 1 << 20
# evaluate(): a stack d actions from a target gets EVAL_DECAY[d] of its value
cdef double EVAL_SCALE = 30.0
cdef double EVAL_RIVAL = 0.5
cdef double EVAL_DECAY[256]
for _d in range(256):
    # linear: each step nearer is worth the same, so that a far ship still sails on
    EVAL_DECAY[_d] = max(0.0, 1.0 - _d / 24.0)
# A bound on the steps of one action (see _game_length_bound): an attack is the choice,
# the die and two weapon windows.
cdef int STEPS_PER_ACTION = 4
# Placement of Pirate Bands: "One gold may be converted into 4 pirate bands"
cdef int CONVERT_BANDS = 4


# ------------------------------------------------------------------ small helpers

cdef inline int player_of(const AmTables* t, int c) noexcept nogil:
    return t.colour_player[c] if 0 <= c < AM_COLOURS else -1


cdef inline bint friendly(const AmTables* t, int a, int b) noexcept nogil:
    """Same colour, or the two colours of one player (M11: never attacked)."""
    if a == b:
        return True
    if a >= AM_COLOURS or b >= AM_COLOURS:
        return False
    return t.colour_player[a] >= 0 and t.colour_player[a] == t.colour_player[b]


cdef inline int hand_size(const AmState* s, int p) noexcept nogil:
    cdef int k, n = 0
    for k in range(AM_KINDS):
        n += s.hand[p][k]
    return n


cdef inline int deck_size(const AmState* s) noexcept nogil:
    cdef int k, n = 0
    for k in range(AM_KINDS):
        n += s.deck[k]
    return n


cdef inline bint could_hold(const AmState* s, const AmTables* t, int p,
                            int kind) noexcept nogil:
    """M4/M5: by public information only -- a hand of at least one card and a copy of
    the kind not yet played -- so that who is asked reveals nothing."""
    return (t.cards and p >= 0 and hand_size(s, p) >= 1
            and s.played[kind] < t.deck_total[kind])


cdef inline bint printed_circle(const AmTables* t, int terr, int c) noexcept nogil:
    """"each player owns all the territories of their starting lair ... players do not
    need to place flags there" -- no token is used for them."""
    return c < AM_COLOURS and t.lair[terr] == c


cdef void set_flag(AmState* s, const AmTables* t, int terr, int c) noexcept nogil:
    """The invader's flag "in place of the flag of the previous occupant or owner"."""
    cdef int old = s.flag[terr]
    if old == c:
        return
    if old != NOBODY and not printed_circle(t, terr, old):
        s.flags_used[old] -= 1
    if not printed_circle(t, terr, c):
        s.flags_used[c] += 1
    s.flag[terr] = <uint8_t>c


cdef inline bint can_enter(const AmState* s, const AmTables* t, int terr,
                           int c) noexcept nogil:
    """Moving Pirate Bands / Invasion: free of enemy bands and of natives; the central
    group only once explored; an invasion needs a flag token (M12)."""
    if s.natives[terr]:
        return False
    if s.bands[terr] and s.occ[terr] != c:
        return False
    if t.group[terr] != G_LAIR and not s.explored[terr]:
        return False
    if s.flag[terr] != c and not printed_circle(t, terr, c) and s.flags_used[c] >= AM_FLAGS:
        return False
    return True


cdef inline int ship_room(const AmState* s, int i) noexcept nogil:
    return AM_SHIP_TOKENS - s.ship_bands[i] - s.ship_gold[i]


cdef inline bint ship_accepts(const AmState* s, int i, int c) noexcept nogil:
    """Loading: one colour a ship (an empty one takes any, M8), at most 10 tokens."""
    return (i >= 0 and (s.ship_bands[i] == 0 or s.ship_crew[i] == c)
            and ship_room(s, i) >= 1)


cdef inline int crewed_ship(const AmState* s, int sea, int c, int need) noexcept nogil:
    """The ship on ``sea`` if ``c`` has at least ``need`` bands aboard, else -1."""
    cdef int i = s.at_sea[sea]
    if i >= 0 and s.ship_crew[i] == c and s.ship_bands[i] >= need:
        return i
    return -1


ctypedef struct Owned:
    int lair[AM_COLOURS]              # territories of each lair flying the colour's flag
    int central                       # territories of the central group
    int posts                         # trading posts
    int opposing_cities               # cities of opposing lairs (M10)
    bint central_post


cdef void count_owned(const AmState* s, const AmTables* t, int c, Owned* o) noexcept nogil:
    """What ``c`` owns, in one pass (M9: ownership by flag, the printed circles
    included): what the victory conditions, recruitment and evaluate() count."""
    cdef int r, L
    memset(o, 0, sizeof(Owned))
    for r in range(t.nterr):
        if s.flag[r] != c:
            continue
        L = t.lair[r]
        if L >= 0:
            o.lair[L] += 1
            if t.city[r] and not friendly(t, L, c):
                o.opposing_cities += 1
        else:
            o.central += 1
        if t.post[r] >= 0:
            o.posts += 1
    o.central_post = s.flag[t.central_post] == c


cdef bint victorious(const Owned* o) noexcept nogil:
    """Object of the Game: own a lair (at least 4 of its territories) and either at
    least 3 trading posts with the central one, or at least 4 cities in opposing lairs
    (M10: the lairs of the colours other players play, the neutral one included)."""
    cdef int L
    for L in range(AM_COLOURS):
        if o.lair[L] >= 4:
            return o.opposing_cities >= 4 or (o.posts >= 3 and o.central_post)
    return False


cdef int posts_owned(const AmState* s, const AmTables* t, int c) noexcept nogil:
    cdef int r, n = 0
    for r in range(t.nterr):
        if t.post[r] >= 0 and s.flag[r] == c:
            n += 1
    return n


cdef int cities_owned(const AmState* s, const AmTables* t, int c, int lair) noexcept nogil:
    cdef int i, n = 0
    for i in range(3):
        if s.flag[t.lair_city[lair][i]] == c:
            n += 1
    return n


cdef bint in_victory(const AmState* s, const AmTables* t, int c) noexcept nogil:
    cdef Owned o
    count_owned(s, t, c, &o)
    return victorious(&o)


cdef inline int next_colour(const AmTables* t, int c) noexcept nogil:
    cdef int i, d
    for i in range(1, AM_COLOURS + 1):
        d = (c + i) % AM_COLOURS
        if t.in_play[d]:
            return d
    return c


# ------------------------------------------------------------------ turns and windows

cdef void open_window(AmState* s, const AmTables* t) noexcept nogil:
    """M4: a Coup de main window, one seat at a time after the acting player's."""
    if not t.cards or t.windows == WIN_OFF or s.in_coup:
        s.phase = PH_TURN
        s.current = <uint8_t>player_of(t, s.acting)
        return
    s.window_next = <uint8_t>((player_of(t, s.acting) + 1) % t.num_players)
    s.window_left = <uint8_t>(t.num_players - 1)
    next_window(s, t)


cdef void next_window(AmState* s, const AmTables* t) noexcept nogil:
    cdef int q
    while s.window_left > 0:
        q = s.window_next
        s.window_next = <uint8_t>((q + 1) % t.num_players)
        s.window_left -= 1
        if could_hold(s, t, q, K_COUP):
            s.phase = PH_COUP
            s.current = <uint8_t>q
            return
    s.phase = PH_TURN
    s.current = <uint8_t>player_of(t, s.acting)


cdef void start_turn(AmState* s, const AmTables* t, int c) noexcept nogil:
    s.turn_colour = <uint8_t>c
    s.acting = <uint8_t>c
    s.ap = AM_ACTIONS
    s.recruited[c] = 0                # M27: a new allowance at the colour's own turn
    s.in_coup = 0
    open_window(s, t)


cdef void finish(AmState* s, int reason, int winners) noexcept nogil:
    s.phase = PH_OVER
    s.end_reason = <uint8_t>reason
    s.winners = <uint8_t>winners


cdef void end_turn(AmState* s, const AmTables* t) noexcept nogil:
    """M1: the option placed at the end of a turn in a victory situation is confirmed at
    the end of the colour's next own turn if it is in one again, else removed."""
    cdef int c = s.turn_colour
    cdef bint v = in_victory(s, t, c)
    cdef int nxt
    if s.option[c]:
        if v:
            finish(s, END_VICTORY, 1 << player_of(t, c))
            return
        s.option[c] = 0
    elif v:
        s.option[c] = 1
    nxt = next_colour(t, c)
    if nxt <= c:
        if s.round >= t.max_rounds:
            finish(s, END_ROUND_CAP, 0)       # library rule: the round cap, a draw
            return
        s.round += 1
    start_turn(s, t, nxt)


cdef void end_coup(AmState* s, const AmTables* t) noexcept nogil:
    """The interrupted turn resumes.  The card rules' note: a victory option may be
    placed at the end of a surprise attack (confirmed on the colour's own turn)."""
    cdef int c = s.acting
    if not s.option[c] and in_victory(s, t, c):
        s.option[c] = 1
    s.in_coup = 0
    s.acting = s.turn_colour
    s.ap = s.saved_ap
    next_window(s, t)                 # M4: the window goes on to the seats not yet asked


cdef void after_action(AmState* s, const AmTables* t) noexcept nogil:
    """An action is complete: back to the acting colour, through a window (M4)."""
    s.phase = PH_TURN
    s.current = <uint8_t>player_of(t, s.acting)
    if t.windows == WIN_EVERY_ACTION and not s.in_coup:
        open_window(s, t)


# ------------------------------------------------------------------ the preliminary turn

cdef void start_setup(AmState* s, const AmTables* t, int c) noexcept nogil:
    s.turn_colour = <uint8_t>c
    s.acting = <uint8_t>c
    s.current = <uint8_t>player_of(t, c)
    s.phase = PH_SETUP_SHIP
    s.first_ship_city = NOBODY


cdef void setup_ship(AmState* s, const AmTables* t, int city) noexcept nogil:
    """Preliminary Turn: "2 ships ... on cities (one ship per city)"."""
    cdef int c = s.turn_colour
    cdef int i = 2 * c + (0 if s.first_ship_city == NOBODY else 1)
    cdef int k
    s.ship_where[i] = W_CITY
    s.ship_pos[i] = <uint8_t>city
    s.ship_owner[i] = <uint8_t>c
    s.ship_crew[i] = NOBODY
    if s.first_ship_city == NOBODY:
        for k in range(3):
            if t.lair_city[c][k] == city:
                s.first_ship_city = <uint8_t>k
        return
    s.phase = PH_SETUP_BANDS
    s.setup_index = 0
    s.setup_left = <uint8_t>t.start_bands[c]


cdef void put_bands(AmState* s, int terr, int c, int k) noexcept nogil:
    if k <= 0:
        return
    s.bands[terr] += k
    s.occ[terr] = <uint8_t>c
    s.pool[c] -= k


cdef void deploy(AmState* s, const AmTables* t, int k) noexcept nogil:
    """Preliminary Turn: "Pirate bands may be freely distributed among the territories
    of the lair" -- a count for each territory in board order, the rest on the last (a
    forced step, M29)."""
    cdef int c = s.turn_colour
    put_bands(s, t.lair_terr[c][s.setup_index], c, k)
    s.setup_left -= k
    s.setup_index += 1
    if s.setup_index < t.lair_n[c]:
        return
    c = next_colour(t, c)
    if c <= s.turn_colour:
        start_turn(s, t, t.first_colour)
    else:
        start_setup(s, t, c)


# ------------------------------------------------------------------ moves and combat

cdef inline int src_bands(const AmState* s, const AmTables* t, int r) noexcept nogil:
    cdef int k = t.route_kind[r]
    if k == R_LAND or k == R_LOAD:
        return s.bands[t.route_from[r]]
    return s.ship_bands[s.at_sea[t.route_from[r]]]


cdef inline int src_gold(const AmState* s, const AmTables* t, int r) noexcept nogil:
    cdef int k = t.route_kind[r]
    if k == R_LAND or k == R_LOAD:
        return s.gold[t.route_from[r]]
    return s.ship_gold[s.at_sea[t.route_from[r]]]


cdef bint source_holds(const AmState* s, const AmTables* t, int r, int c,
                       int need) noexcept nogil:
    cdef int a = t.route_from[r]
    if t.route_kind[r] == R_LAND or t.route_kind[r] == R_LOAD:
        return s.occ[a] == c and s.bands[a] >= need
    return crewed_ship(s, a, c, need) >= 0


cdef bint move_legal(const AmState* s, const AmTables* t, int r, int c) noexcept nogil:
    """Moving Pirate Bands and Ships: a group to an adjacent territory, onto an adjacent
    ship (loading), off a ship (unloading) or from ship to ship (transhipment)."""
    cdef int kind = t.route_kind[r]
    cdef int b = t.route_to[r]
    if not source_holds(s, t, r, c, 1):
        return False
    if kind == R_LAND or kind == R_UNLOAD:
        return can_enter(s, t, b, c)
    return ship_accepts(s, s.at_sea[b], c)


cdef bint attack_legal(const AmState* s, const AmTables* t, int r, int c) noexcept nogil:
    """Combat: at least 2 bands on one territory or ship adjacent to the target, which
    holds enemy bands or natives (M6, M11: never the player's other colour)."""
    cdef int kind = t.route_kind[r]
    cdef int b = t.route_to[r]
    cdef int i
    if not source_holds(s, t, r, c, 2):
        return False
    if kind == R_LAND or kind == R_UNLOAD:
        if s.natives[b]:
            return True
        return s.bands[b] > 0 and not friendly(t, s.occ[b], c)
    i = s.at_sea[b]
    return i >= 0 and s.ship_bands[i] > 0 and not friendly(t, s.ship_crew[i], c)


cdef inline int dest_room(const AmState* s, const AmTables* t, int r) noexcept nogil:
    """What a move may carry: any amount onto land, the ship's free room onto a ship."""
    cdef int kind = t.route_kind[r]
    if kind == R_LOAD or kind == R_TRANSHIP:
        return ship_room(s, s.at_sea[t.route_to[r]])
    return BIG


cdef inline int max_bands(const AmState* s, const AmTables* t) noexcept nogil:
    return min(src_bands(s, t, s.route), dest_room(s, t, s.route))


cdef inline int max_gold(const AmState* s, const AmTables* t) noexcept nogil:
    """M7: gold goes only with the bands that carry it, within the ship's room."""
    return min(src_gold(s, t, s.route), dest_room(s, t, s.route) - s.move_bands)


cdef void invade(AmState* s, const AmTables* t, int terr, int c) noexcept nogil:
    """Invasion: the flag is replaced; an unlaunched ship there passes to the invader
    ("Victory over the Forces Occupying a Territory or a Ship"), who may destroy it."""
    cdef int i
    set_flag(s, t, terr, c)
    for i in range(AM_SHIPS):
        if s.ship_where[i] == W_CITY and s.ship_pos[i] == terr:
            s.ship_owner[i] = <uint8_t>c
            s.captured |= <uint8_t>(1 << i)     # M23: "It may also be destroyed"


cdef void finish_move(AmState* s, const AmTables* t, int g) noexcept nogil:
    cdef int r = s.route
    cdef int c = s.acting
    cdef int k = s.move_bands
    cdef int kind = t.route_kind[r]
    cdef int a = t.route_from[r]
    cdef int b = t.route_to[r]
    cdef int i
    if kind == R_LAND or kind == R_LOAD:
        s.bands[a] -= k
        s.gold[a] -= g
        if s.bands[a] == 0:
            s.occ[a] = NOBODY
    else:
        i = s.at_sea[a]
        s.ship_bands[i] -= k
        s.ship_gold[i] -= g
        if s.ship_bands[i] == 0:
            s.ship_crew[i] = NOBODY
    if kind == R_LAND or kind == R_UNLOAD:
        s.bands[b] += k
        s.gold[b] += g
        s.occ[b] = <uint8_t>c
        if s.flag[b] != c:
            invade(s, t, b, c)
    else:
        i = s.at_sea[b]
        if s.ship_bands[i] == 0:       # M8: boarding an empty ship makes it one's own
            s.ship_owner[i] = <uint8_t>c
        s.ship_crew[i] = <uint8_t>c
        s.ship_bands[i] += k
        s.ship_gold[i] += g
    s.ap -= 1
    after_action(s, t)


cdef void choose_bands(AmState* s, const AmTables* t, int k) noexcept nogil:
    s.move_bands = <uint8_t>k
    s.phase = PH_GOLD


cdef void start_move(AmState* s, const AmTables* t, int r) noexcept nogil:
    s.route = <int16_t>r
    s.phase = PH_BANDS


cdef void start_attack(AmState* s, const AmTables* t, int r) noexcept nogil:
    """Conduct of Combat: "For each of their attacks, the attacking player rolls the
    combat die. This costs one action.\""""
    cdef int b = t.route_to[r]
    cdef int kind = t.route_kind[r]
    s.route = <int16_t>r
    s.ap -= 1
    if kind == R_LAND or kind == R_UNLOAD:
        s.target_colour = FLAG_BROWN if s.natives[b] else s.occ[b]
    else:
        s.target_colour = s.ship_crew[s.at_sea[b]]
    s.phase = PH_ROLL


cdef void rolled(AmState* s, const AmTables* t, int d, int a) noexcept nogil:
    """M5: after the roll, the attacker's attack-weapon window, then the defender's."""
    s.roll_d = <uint8_t>d
    s.roll_a = <uint8_t>a
    if could_hold(s, t, player_of(t, s.acting), K_ATTACK):
        s.phase = PH_ATTACK_WINDOW
        s.current = <uint8_t>player_of(t, s.acting)
        return
    defence_window(s, t)


cdef void defence_window(AmState* s, const AmTables* t) noexcept nogil:
    cdef int q = player_of(t, s.target_colour)
    if q >= 0 and could_hold(s, t, q, K_DEFENCE):
        s.phase = PH_DEFENCE_WINDOW
        s.current = <uint8_t>q
        return
    resolve_combat(s, t)


cdef void resolve_combat(AmState* s, const AmTables* t) noexcept nogil:
    """M6: the cannons that fire eliminate defenders, the crossed-out ones attackers of
    the committed stack, each capped at what stands there; the tokens leave the game
    (bands to their colour's reserve, natives to the supply)."""
    cdef int r = s.route
    cdef int c = s.acting
    cdef int kind = t.route_kind[r]
    cdef int a = t.route_from[r]
    cdef int b = t.route_to[r]
    cdef int i, lost
    if kind == R_LAND or kind == R_LOAD:
        lost = min(<int>s.roll_a, <int>s.bands[a])
        s.bands[a] -= lost
        if s.bands[a] == 0:
            s.occ[a] = NOBODY
    else:
        i = s.at_sea[a]
        lost = min(<int>s.roll_a, <int>s.ship_bands[i])
        s.ship_bands[i] -= lost
        if s.ship_bands[i] == 0:
            s.ship_crew[i] = NOBODY
    s.pool[c] += lost
    if kind == R_LAND or kind == R_UNLOAD:
        if s.natives[b]:
            lost = min(<int>s.roll_d, <int>s.natives[b])
            s.natives[b] -= lost
            s.supply_natives += lost
        else:
            lost = min(<int>s.roll_d, <int>s.bands[b])
            s.pool[s.occ[b]] += lost
            s.bands[b] -= lost
            if s.bands[b] == 0:
                s.occ[b] = NOBODY
    else:
        i = s.at_sea[b]
        lost = min(<int>s.roll_d, <int>s.ship_bands[i])
        s.pool[s.ship_crew[i]] += lost
        s.ship_bands[i] -= lost
        if s.ship_bands[i] == 0:
            s.ship_crew[i] = NOBODY
    after_action(s, t)


# ------------------------------------------------------------------ exploration, ships, gold

cdef void start_explore(AmState* s, const AmTables* t, int r, bint special) noexcept nogil:
    """Discovery of Gold and Natives; the central trading post doubles the find, a
    Special discovery card doubles it again (M19)."""
    s.ap -= 1
    s.explore_t = <uint8_t>r
    s.multiplier = 2 if r == t.central_post else 1
    if special:
        s.multiplier *= 2
        play_card(s, K_DISCOVERY)
    s.phase = PH_EXPLORE


cdef void found(AmState* s, const AmTables* t, int g, int n) noexcept nogil:
    """The gold and natives placed (capped by the supply, M12) and the brown flag."""
    cdef int r = s.explore_t
    g = min(g * s.multiplier, <int>s.supply_gold)
    n = min(n * s.multiplier, <int>s.supply_natives)
    s.gold[r] += g
    s.supply_gold -= g
    s.natives[r] += n
    s.supply_natives -= n
    s.explored[r] = 1
    set_flag(s, t, r, FLAG_BROWN)
    after_action(s, t)


cdef inline int unlaunched(const AmState* s, int city) noexcept nogil:
    cdef int i
    for i in range(AM_SHIPS):
        if s.ship_where[i] == W_CITY and s.ship_pos[i] == city:
            return i
    return -1


cdef bint scuttle_legal(const AmState* s, const AmTables* t, int sea, int c) noexcept nogil:
    """"scuttle a ship (empty of pirate bands) if the player has at least one pirate
    band on a space adjacent to that ship" (M24)."""
    cdef int i = s.at_sea[sea]
    cdef int k, r
    if i < 0 or s.ship_bands[i] > 0:
        return False
    for k in range(t.shore_n[sea]):
        r = t.shore[sea][k]
        if s.occ[r] == c and s.bands[r] > 0:
            return True
    for k in range(t.sea_n[sea]):
        if crewed_ship(s, t.sea[sea][k], c, 1) >= 0:
            return True
    return False


cdef void sink(AmState* s, int i) noexcept nogil:
    """A ship to the box; M8: its gold back to the supply."""
    if s.ship_where[i] == W_SEA:
        s.at_sea[s.ship_pos[i]] = -1
    s.supply_gold += s.ship_gold[i]
    s.ship_gold[i] = 0
    s.ship_where[i] = W_BOX
    s.ship_crew[i] = NOBODY
    s.captured &= <uint8_t>~(1 << i)


cdef bint convert_legal(const AmState* s, const AmTables* t, int r, int c) noexcept nogil:
    """Conditions of Conversion (M25): gold in a city or trading post the colour owns;
    in a city, at least 2 cities of its lair owned; on the central island, at least 3
    trading posts owned; and the 4 bands the gold is converted into in reserve."""
    if s.gold[r] == 0 or s.flag[r] != c or s.pool[c] < CONVERT_BANDS:
        return False
    if t.city[r]:
        return cities_owned(s, t, c, t.lair[r]) >= 2
    if t.post[r] >= 0:
        return posts_owned(s, t, c) >= 3
    return False


cdef void convert(AmState* s, const AmTables* t, int r) noexcept nogil:
    """"One gold may be converted into 4 pirate bands" (the 4 are in reserve, M25)."""
    cdef int c = s.acting
    s.gold[r] -= 1
    s.supply_gold += 1
    put_bands(s, r, c, CONVERT_BANDS)
    s.ap -= 1
    after_action(s, t)


# ------------------------------------------------------------------ placements

cdef bint place_legal(const AmState* s, const AmTables* t, int r) noexcept nogil:
    cdef int c = s.acting
    cdef int w = s.place_what
    cdef int L
    if (w == PL_NATIVES or w == PL_CARD_BANDS) and r == s.place_first:
        return False                  # M13: a Large card's rolls go to "two" territories
    if w == PL_NATIVES:
        # Mobilisation indigène: "already been explored and is unoccupied" (M13)
        return t.group[r] != G_LAIR and s.explored[r] and s.bands[r] == 0
    if s.flag[r] != c or s.natives[r] or (s.bands[r] and s.occ[r] != c):
        return False
    if w == PL_SHIP:
        return t.city[r] and unlaunched(s, r) < 0
    if w != PL_RECRUIT:
        return True
    # Recruitment: a lair's band in that lair, the central bands on the central group,
    # in non-decreasing board order (M16)
    for L in range(AM_COLOURS):
        if s.place_queue[L]:
            return t.lair[r] == L
    return t.group[r] != G_LAIR and r >= s.place_min


cdef void next_recruit(AmState* s, const AmTables* t) noexcept nogil:
    cdef int L
    if s.pool[s.acting] > 0:
        for L in range(AM_COLOURS + 1):
            if s.place_queue[L]:
                s.phase = PH_PLACE
                return
    for L in range(AM_COLOURS + 1):
        s.place_queue[L] = 0
    after_action(s, t)


cdef int recruits_due(const AmState* s, const AmTables* t, int c, uint8_t* queue) noexcept nogil:
    """Recruitment: 1 band per lair owned (4 territories), 1 per 4 territories owned on
    the central island and its neighbours."""
    cdef int L, n = 0
    cdef Owned o
    count_owned(s, t, c, &o)
    for L in range(AM_COLOURS):
        queue[L] = 1 if o.lair[L] >= 4 else 0
        n += queue[L]
    queue[AM_COLOURS] = <uint8_t>(o.central // 4)
    return n + queue[AM_COLOURS]


cdef void start_recruit(AmState* s, const AmTables* t) noexcept nogil:
    recruits_due(s, t, s.acting, s.place_queue)
    s.place_what = PL_RECRUIT
    s.place_min = 0
    s.recruited[s.acting] = 1
    s.ap -= 1
    next_recruit(s, t)


cdef void place(AmState* s, const AmTables* t, int r) noexcept nogil:
    cdef int c = s.acting
    cdef int w = s.place_what
    cdef int L
    cdef int i
    if w == PL_RECRUIT:
        put_bands(s, r, c, 1)
        for L in range(AM_COLOURS + 1):
            if s.place_queue[L]:
                s.place_queue[L] -= 1
                break
        if t.group[r] != G_LAIR:
            s.place_min = <uint8_t>r
        next_recruit(s, t)
        return
    if w == PL_CARD_BANDS:
        put_bands(s, r, c, s.place_amount)
        s.place_first = <uint8_t>r
    elif w == PL_NATIVES:
        # M13: the flag stays -- it "is removed only if it is replaced by the flag of
        # another invader", and the card places tokens, it invades nothing
        s.natives[r] += s.place_amount
        s.supply_natives -= s.place_amount
        s.place_first = <uint8_t>r
    elif w == PL_GOLD:
        s.gold[r] += s.place_amount
        s.supply_gold -= s.place_amount
    else:
        for i in range(AM_SHIPS):
            # a ship of a colour in play (the 3-player neutral colour's never sailed)
            if s.ship_where[i] == W_BOX and t.in_play[i // 2]:
                s.ship_where[i] = W_CITY
                s.ship_pos[i] = <uint8_t>r
                s.ship_owner[i] = <uint8_t>c
                s.ship_crew[i] = NOBODY
                s.captured &= <uint8_t>~(1 << i)   # built, not captured (M23)
                break
    next_roll(s, t)


cdef void next_roll(AmState* s, const AmTables* t) noexcept nogil:
    """A card with two rolls rolls again; otherwise the turn goes on (a card play is
    not an action)."""
    if s.rolls_left > 0:
        s.phase = PH_SPEARS
        return
    s.place_first = NOBODY
    s.phase = PH_TURN
    s.current = <uint8_t>player_of(t, s.acting)


cdef void spears(AmState* s, const AmTables* t, int n) noexcept nogil:
    """The tribes die of a recruitment or mobilisation card; nothing to place on a
    blank face or an empty reserve (M12)."""
    s.rolls_left -= 1
    if s.place_what == PL_NATIVES:
        n = min(n, <int>s.supply_natives)
    else:
        n = min(n, <int>s.pool[s.acting])
    s.place_amount = <uint8_t>n
    if n > 0:
        s.phase = PH_PLACE
    else:
        next_roll(s, t)


# ------------------------------------------------------------------ cards

cdef inline void play_card(AmState* s, int kind) noexcept nogil:
    s.hand[s.current][kind] -= 1
    s.played[kind] += 1


cdef bint places_for(const AmState* s, const AmTables* t, int what,
                     int need) noexcept nogil:
    """Whether at least ``need`` territories could take a placement of ``what``."""
    cdef AmState probe = s[0]
    cdef int r, n = 0
    probe.place_what = <uint8_t>what
    probe.place_first = NOBODY
    for r in range(t.nterr):
        if place_legal(&probe, t, r):
            n += 1
            if n >= need:
                return True
    return False


cdef bint card_playable(const AmState* s, const AmTables* t, int kind) noexcept nogil:
    """A card played on one's own turn ("unless the card states otherwise")."""
    cdef int i
    if not t.cards or s.hand[s.current][kind] == 0:
        return False
    if kind == K_DOPE:
        return s.ap <= 250
    if kind == K_STRATEGIST:
        return s.ap >= 1 and deck_size(s) >= 1
    if kind == K_SHIPYARD:
        # "A ship must have been sunk or scuttled and be available in the game box"
        for i in range(AM_SHIPS):
            if s.ship_where[i] == W_BOX and t.in_play[i // 2]:
                return places_for(s, t, PL_SHIP, 1)
        return False
    # M13: a Large card needs the "two" territories it names (the second roll never
    # lacks a place: the first placement changes no other territory)
    if kind == K_RECRUIT:
        return places_for(s, t, PL_CARD_BANDS, 1)
    if kind == K_BIG_RECRUIT:
        return places_for(s, t, PL_CARD_BANDS, 2)
    if kind == K_MOBILISE:
        return places_for(s, t, PL_NATIVES, 1)
    if kind == K_BIG_MOBILISE:
        return places_for(s, t, PL_NATIVES, 2)
    if kind == K_GOLD_MINE:
        return places_for(s, t, PL_GOLD, 1)
    return False                    # weapons, Coup de main: windows; discovery: explore


cdef void start_card(AmState* s, const AmTables* t, int kind) noexcept nogil:
    play_card(s, kind)
    s.rolls_left = 0
    s.place_first = NOBODY
    if kind == K_DOPE:
        s.ap += 3                   # M2 (reconstructed): three extra actions
    elif kind == K_STRATEGIST:
        s.ap -= 1                   # "You spend 1 action per card looked at"
        s.draw_reason = DR_LOOK
        s.drawer = s.current
        s.phase = PH_DRAW
    elif kind == K_SHIPYARD:
        s.place_what = PL_SHIP
        s.phase = PH_PLACE
    elif kind == K_GOLD_MINE:
        # "find 3 additional gold, which you place in one of your territories"
        s.place_what = PL_GOLD
        s.place_amount = <uint8_t>min(3, <int>s.supply_gold)
        if s.place_amount:
            s.phase = PH_PLACE
    else:
        s.place_what = PL_NATIVES if kind == K_MOBILISE or kind == K_BIG_MOBILISE \
            else PL_CARD_BANDS
        s.rolls_left = 2 if kind == K_BIG_RECRUIT or kind == K_BIG_MOBILISE else 1
        s.phase = PH_SPEARS


cdef void drawn(AmState* s, const AmTables* t, int k) noexcept nogil:
    """A card from the pile: dealt, bought ("taken from the top of the pile"), or looked
    at by a Grand stratège."""
    s.deck[k] -= 1
    if s.draw_reason == DR_LOOK:
        s.looked[k] += 1
        s.last_looked = <uint8_t>k
        s.phase = PH_LOOK
        return
    s.hand[s.drawer][k] += 1
    if s.draw_reason == DR_BUY:
        after_action(s, t)
        return
    s.setup_left -= 1               # the deal: 2 cards a player, seat by seat
    if s.setup_left > 0:
        s.drawer = <uint8_t>((2 * t.num_players - s.setup_left) // 2)
        return
    start_setup(s, t, t.first_colour)


cdef void take_looked(AmState* s, const AmTables* t) noexcept nogil:
    """Grand stratège: the card just looked at is taken, free; the others go back and
    the reserve is reshuffled (M13)."""
    cdef int k
    s.hand[s.drawer][s.last_looked] += 1
    s.looked[s.last_looked] -= 1
    s.last_looked = 0                 # M28: no trace of the card taken
    for k in range(AM_KINDS):
        s.deck[k] += s.looked[k]
        s.looked[k] = 0
    after_action(s, t)


cdef bint buy_from(const AmState* s, const AmTables* t, int gold) noexcept nogil:
    """M3: 2 gold and 2 actions a card, a card left in the pile."""
    return t.cards and gold >= 2 and s.ap >= 2 and deck_size(s) >= 1


cdef void buy(AmState* s, const AmTables* t, int r, int sea) noexcept nogil:
    cdef int i
    if r >= 0:
        s.gold[r] -= 2
    else:
        i = s.at_sea[sea]
        s.ship_gold[i] -= 2
    s.supply_gold += 2
    s.ap -= 2
    s.draw_reason = DR_BUY
    s.drawer = s.current
    s.phase = PH_DRAW


cdef void coup(AmState* s, const AmTables* t, int c) noexcept nogil:
    """Coup de main: "You interrupt their turn and play three actions in a row"."""
    play_card(s, K_COUP)
    s.in_coup = 1
    s.saved_ap = s.ap
    s.ap = AM_COUP_ACTIONS            # M27: no new recruitment (its own turn's allowance)
    s.acting = <uint8_t>c
    s.phase = PH_TURN
    s.current = <uint8_t>player_of(t, c)


# ------------------------------------------------------------------ the contract

cdef void am_initial_state(void* state, const void* tables) noexcept nogil:
    """Start of the Game; the 3-player rule's neutral lair is placed at once."""
    cdef AmState* s = <AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    cdef int r, c, i, k
    memset(s, 0, sizeof(AmState))
    for r in range(t.nterr):
        s.occ[r] = NOBODY
        s.flag[r] = <uint8_t>t.lair[r] if t.lair[r] >= 0 else NOBODY
    for r in range(AM_MAX_S):
        s.at_sea[r] = -1
    for i in range(AM_SHIPS):
        s.ship_crew[i] = NOBODY
        s.ship_owner[i] = <uint8_t>(i // 2)
    for c in range(AM_COLOURS):
        s.pool[c] = AM_BANDS
    s.supply_gold = AM_GOLD
    s.supply_natives = AM_NATIVES
    if t.neutral >= 0:
        # "3 pirate bands of the lair's colour on each of the cities, 1 pirate band on
        # each of the other territories of that lair"
        for k in range(t.lair_n[t.neutral]):
            r = t.lair_terr[t.neutral][k]
            put_bands(s, r, t.neutral, 3 if t.city[r] else 1)
    for k in range(AM_KINDS):
        s.deck[k] = <uint8_t>t.deck_total[k]
    s.round = 1
    s.place_first = NOBODY
    s.last_action = -1
    s.current = <uint8_t>player_of(t, t.first_colour)
    if t.cards:
        # "2 cards drawn at random are dealt face down to each player"
        s.phase = PH_DEAL
        s.draw_reason = DR_DEAL
        s.drawer = 0
        s.setup_left = <uint8_t>(2 * t.num_players)
    else:
        start_setup(s, t, t.first_colour)


cdef int am_current_player(const void* state, const void* tables) noexcept nogil:
    cdef const AmState* s = <const AmState*>state
    cdef int ph = s.phase
    if ph == PH_OVER:
        return TERMINAL_PLAYER
    if (ph == PH_DEAL or ph == PH_ROLL or ph == PH_EXPLORE or ph == PH_SPEARS
            or ph == PH_DRAW):
        return CHANCE_PLAYER
    return s.current


cdef int holdings(const AmState* s, const AmTables* t, int c, int* terr, int* ships,
                  int* nships) noexcept nogil:
    """The territories where ``c`` has bands (ascending) and the sea spaces of the ships
    it crews (ascending); returns the territories' count."""
    cdef int r, i, j, x, n = 0
    for r in range(t.nterr):
        if s.occ[r] == c:
            terr[n] = r
            n += 1
    nships[0] = 0
    for i in range(AM_SHIPS):
        if s.ship_crew[i] == c and s.ship_where[i] == W_SEA:
            x = s.ship_pos[i]
            j = nships[0]
            while j > 0 and ships[j - 1] > x:
                ships[j] = ships[j - 1]
                j -= 1
            ships[j] = x
            nships[0] += 1
    return n


cdef int links_from(const AmState* s, const AmTables* t, int c, const int* places, int np,
                    const int* degree, const int (*route_of)[AM_MAX_DEG], bint attack,
                    int base, int* out, int n) noexcept nogil:
    """The legal moves (or attacks) along one kind of link from the given places, in
    place then link order."""
    cdef int i, k, x
    for i in range(np):
        for k in range(degree[places[i]]):
            x = route_of[places[i]][k]
            if attack_legal(s, t, x, c) if attack else move_legal(s, t, x, c):
                out[n] = base + x
                n += 1
    return n


cdef int route_actions(const AmState* s, const AmTables* t, int c, const int* terr, int nt,
                       const int* ships, int ns, bint attack, int base,
                       int* out, int n) noexcept nogil:
    """Group moves (or attacks) from the colour's holdings, by route kind then source
    then destination: ascending route ids."""
    n = links_from(s, t, c, terr, nt, t.land_n, t.land_route, attack, base, out, n)
    n = links_from(s, t, c, terr, nt, t.coast_n, t.load_route, attack, base, out, n)
    n = links_from(s, t, c, ships, ns, t.shore_n, t.unload_route, attack, base, out, n)
    return links_from(s, t, c, ships, ns, t.sea_n, t.tranship_route, attack, base, out, n)


cdef int ship_actions(const AmState* s, const AmTables* t, int c, const int* ships, int ns,
                      int* out, int n) noexcept nogil:
    """Launches (the colour's unlaunched ships, by city) and sailing (its crewed ships)."""
    cdef int r, k, i
    for r in range(t.nterr):
        # Launching: the owner's unlaunched ship onto a free space next to its city (M22)
        if not t.city[r]:
            continue
        i = unlaunched(s, r)
        if i < 0 or s.ship_owner[i] != c:
            continue
        for k in range(t.coast_n[r]):
            if s.at_sea[t.coast[r][k]] < 0:
                out[n] = t.a_launch + t.coast_id[r][k]
                n += 1
    for i in range(ns):
        # Movement: a crew aboard; never onto (so never through) another ship (M26)
        r = ships[i]
        for k in range(t.sea_n[r]):
            if s.at_sea[t.sea[r][k]] < 0:
                out[n] = t.a_sail + t.sail_id[r][k]
                n += 1
    return n


cdef uint64_t explorable(const AmState* s, const AmTables* t, int c, const int* terr,
                         int nt, const int* ships, int ns) noexcept nogil:
    """The territories the colour may explore, as a bit set (M14)."""
    cdef uint64_t found = 0
    cdef int i, k, r, u
    for i in range(ns):
        for k in range(t.shore_n[ships[i]]):
            r = t.shore[ships[i]][k]
            if t.group[r] != G_LAIR and not s.explored[r]:
                found |= (<uint64_t>1) << r
    for i in range(nt):
        u = terr[i]
        if t.group[u] != G_CENTRAL or not s.explored[u]:
            continue
        for k in range(t.land_n[u]):
            r = t.land[u][k]
            if not s.explored[r]:
                found |= (<uint64_t>1) << r
    return found


cdef int turn_actions(const AmState* s, const AmTables* t, int* out) noexcept nogil:
    """The acting colour's choices, ascending by id (block by block)."""
    cdef int c = s.acting
    cdef int n = 0
    cdef int k, r, i, nt, ns
    cdef int terr[AM_MAX_T]
    cdef int ships[AM_SHIPS]
    cdef uint64_t explore
    cdef uint8_t queue[AM_COLOURS + 1]
    out[n] = ACT_END
    n += 1
    if (t.recruitment and not s.recruited[c] and s.ap >= 1 and s.pool[c] > 0
            and recruits_due(s, t, c, queue) > 0):
        out[n] = ACT_RECRUIT
        n += 1
    if t.cards:
        for k in range(AM_KINDS):
            if card_playable(s, t, k):
                out[n] = t.a_play + k
                n += 1
    if s.ap == 0:
        return n
    nt = holdings(s, t, c, terr, ships, &ns)
    n = route_actions(s, t, c, terr, nt, ships, ns, False, t.a_move, out, n)
    n = route_actions(s, t, c, terr, nt, ships, ns, True, t.a_attack, out, n)
    n = ship_actions(s, t, c, ships, ns, out, n)
    explore = explorable(s, t, c, terr, nt, ships, ns)
    if explore:
        for r in range(t.nterr):
            if (explore >> r) & 1:
                out[n] = t.a_explore + r
                n += 1
        if t.cards and s.hand[s.current][K_DISCOVERY]:
            for r in range(t.nterr):
                if (explore >> r) & 1:
                    out[n] = t.a_special + r
                    n += 1
    n = scuttle_actions(s, t, c, out, n)
    for r in range(t.nterr):
        # "If a ship (which has not been launched) is located in the invaded territory,
        # it becomes the property of the attacker. It may also be destroyed": only a
        # ship the colour took with its city, not launched since (M23)
        i = unlaunched(s, r) if t.city[r] else -1
        if i >= 0 and s.ship_owner[i] == c and (s.captured >> i) & 1:
            out[n] = t.a_destroy + r
            n += 1
    for r in range(t.nterr):
        if s.gold[r] and convert_legal(s, t, r, c):
            out[n] = t.a_convert + r
            n += 1
    if t.cards and s.ap >= 2:
        for k in range(nt):
            r = terr[k]
            if buy_from(s, t, s.gold[r]):
                out[n] = t.a_buy_t + r
                n += 1
        for k in range(ns):
            if buy_from(s, t, s.ship_gold[s.at_sea[ships[k]]]):
                out[n] = t.a_buy_s + ships[k]
                n += 1
    return n


cdef int scuttle_actions(const AmState* s, const AmTables* t, int c, int* out,
                         int n) noexcept nogil:
    """The empty ships at sea the colour may scuttle, by sea space."""
    cdef int seas[AM_SHIPS]
    cdef int i, j, x, m = 0
    for i in range(AM_SHIPS):
        if s.ship_where[i] == W_SEA and s.ship_bands[i] == 0:
            x = s.ship_pos[i]
            if not scuttle_legal(s, t, x, c):
                continue
            j = m
            while j > 0 and seas[j - 1] > x:
                seas[j] = seas[j - 1]
                j -= 1
            seas[j] = x
            m += 1
    for i in range(m):
        out[n] = t.a_scuttle + seas[i]
        n += 1
    return n


cdef int am_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    cdef const AmState* s = <const AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    cdef int n = 0
    cdef int k, r, c
    cdef int ph = s.phase
    if ph == PH_TURN:
        return turn_actions(s, t, out)
    if ph == PH_SETUP_SHIP:
        c = s.turn_colour
        for k in range(3):
            # two ships on two cities, the second on a later one (no duplicate orders)
            if s.first_ship_city == NOBODY and k == 2:
                continue
            if s.first_ship_city != NOBODY and k <= s.first_ship_city:
                continue
            out[n] = t.a_ship + t.lair_city[c][k]
            n += 1
        return n
    if ph == PH_SETUP_BANDS:
        if s.setup_index == t.lair_n[s.turn_colour] - 1:
            out[0] = t.a_deploy + s.setup_left      # the last territory takes the rest
            return 1
        for k in range(s.setup_left + 1):
            out[k] = t.a_deploy + k
        return s.setup_left + 1
    if ph == PH_BANDS:
        for k in range(1, max_bands(s, t) + 1):
            out[n] = t.a_bands + k - 1
            n += 1
        return n
    if ph == PH_GOLD:
        for k in range(max_gold(s, t) + 1):
            out[n] = t.a_gold + k
            n += 1
        return n
    if ph == PH_ATTACK_WINDOW or ph == PH_DEFENCE_WINDOW or ph == PH_COUP:
        out[n] = ACT_DECLINE
        n += 1
        if ph == PH_ATTACK_WINDOW and s.hand[s.current][K_ATTACK]:
            out[n] = t.a_play + K_ATTACK
            n += 1
        elif ph == PH_DEFENCE_WINDOW and s.hand[s.current][K_DEFENCE]:
            out[n] = t.a_play + K_DEFENCE
            n += 1
        elif ph == PH_COUP and s.hand[s.current][K_COUP]:
            for c in range(AM_COLOURS):
                if t.in_play[c] and t.colour_player[c] == s.current:
                    out[n] = t.a_coup + c
                    n += 1
        return n
    if ph == PH_PLACE:
        for r in range(t.nterr):
            if place_legal(s, t, r):
                out[n] = t.a_place + r
                n += 1
        return n
    if ph == PH_LOOK:
        out[n] = ACT_TAKE
        n += 1
        if s.ap >= 1 and deck_size(s) >= 1:
            out[n] = ACT_LOOK
            n += 1
        return n
    return 0


cdef int am_chance_outcomes(const void* state, const void* tables, int* out,
                            double* probs) noexcept nogil:
    """Dice outcomes are their effects (defenders and attackers lost; ingots and spears
    found), so a table app enters the real face; a card drawn is one of the pile's."""
    cdef const AmState* s = <const AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    cdef int n = 0
    cdef int k, total
    cdef int ph = s.phase
    if ph == PH_ROLL:
        for k in range(AM_FACE * AM_FACE):
            if t.p_hits[k] > 0:
                out[n] = t.a_hits + k
                probs[n] = t.p_hits[k]
                n += 1
    elif ph == PH_EXPLORE:
        for k in range(AM_FACE * AM_FACE):
            if t.p_find[k] > 0:
                out[n] = t.a_find + k
                probs[n] = t.p_find[k]
                n += 1
    elif ph == PH_SPEARS:
        for k in range(AM_FACE):
            if t.p_spears[k] > 0:
                out[n] = t.a_spears + k
                probs[n] = t.p_spears[k]
                n += 1
    elif ph == PH_DEAL or ph == PH_DRAW:
        total = deck_size(s)
        for k in range(AM_KINDS):
            if s.deck[k]:
                out[n] = t.a_draw + k
                probs[n] = s.deck[k] / <double>total
                n += 1
    return n


cdef void apply_one(AmState* s, const AmTables* t, int action) noexcept nogil:
    cdef int x
    if action == ACT_END:
        if s.in_coup:
            end_coup(s, t)
        else:
            end_turn(s, t)
    elif action == ACT_DECLINE:
        if s.phase == PH_ATTACK_WINDOW:
            defence_window(s, t)
        elif s.phase == PH_DEFENCE_WINDOW:
            resolve_combat(s, t)
        else:
            next_window(s, t)
    elif action == ACT_TAKE:
        take_looked(s, t)
    elif action == ACT_LOOK:
        s.ap -= 1
        s.last_looked = 0             # M28: set aside, among the others
        s.phase = PH_DRAW
    elif action == ACT_RECRUIT:
        start_recruit(s, t)
    elif action < t.a_coup:
        x = action - t.a_play
        if x == K_ATTACK:
            play_card(s, K_ATTACK)
            s.roll_d = 2                # "2 cannons that fire (2 defenders eliminated)"
            s.roll_a = 0
            defence_window(s, t)
        elif x == K_DEFENCE:
            play_card(s, K_DEFENCE)
            s.roll_d = 0                # "two cannons that explode": 2 attackers lost
            s.roll_a = 2
            resolve_combat(s, t)
        else:
            start_card(s, t, x)
    elif action < t.a_ship:
        coup(s, t, action - t.a_coup)
    elif action < t.a_deploy:
        setup_ship(s, t, action - t.a_ship)
    elif action < t.a_move:
        deploy(s, t, action - t.a_deploy)
    elif action < t.a_attack:
        start_move(s, t, action - t.a_move)
    elif action < t.a_bands:
        start_attack(s, t, action - t.a_attack)
    elif action < t.a_gold:
        choose_bands(s, t, action - t.a_bands + 1)
    elif action < t.a_launch:
        finish_move(s, t, action - t.a_gold)
    elif action < t.a_sail:
        x = action - t.a_launch
        launch(s, t, unlaunched(s, t.coast_terr[x]), t.coast_sea[x])
    elif action < t.a_explore:
        x = action - t.a_sail
        sail(s, t, t.sail_from[x], t.sail_to[x])
    elif action < t.a_special:
        start_explore(s, t, action - t.a_explore, False)
    elif action < t.a_scuttle:
        start_explore(s, t, action - t.a_special, True)
    elif action < t.a_destroy:
        sink(s, s.at_sea[action - t.a_scuttle])
        s.ap -= 1
        after_action(s, t)
    elif action < t.a_convert:
        sink(s, unlaunched(s, action - t.a_destroy))
        s.ap -= 1
        after_action(s, t)
    elif action < t.a_buy_t:
        convert(s, t, action - t.a_convert)
    elif action < t.a_buy_s:
        buy(s, t, action - t.a_buy_t, -1)
    elif action < t.a_place:
        buy(s, t, -1, action - t.a_buy_s)
    elif action < t.a_hits:
        place(s, t, action - t.a_place)
    elif action < t.a_find:
        x = action - t.a_hits
        rolled(s, t, x // AM_FACE, x % AM_FACE)
    elif action < t.a_spears:
        x = action - t.a_find
        found(s, t, x // AM_FACE, x % AM_FACE)
    elif action < t.a_draw:
        spears(s, t, action - t.a_spears)
    else:
        drawn(s, t, action - t.a_draw)


cdef void launch(AmState* s, const AmTables* t, int i, int sea) noexcept nogil:
    """Launching: "placing it on a coastal space adjacent to the territory containing
    the city" (1 action)."""
    s.ship_where[i] = W_SEA
    s.ship_pos[i] = <uint8_t>sea
    s.at_sea[sea] = <int8_t>i
    s.captured &= <uint8_t>~(1 << i)  # M23: launched, no longer the ship of the capture
    s.ap -= 1
    after_action(s, t)


cdef void sail(AmState* s, const AmTables* t, int a, int b) noexcept nogil:
    cdef int i = s.at_sea[a]
    s.at_sea[a] = -1
    s.at_sea[b] = <int8_t>i
    s.ship_pos[i] = <uint8_t>b
    s.ap -= 1
    after_action(s, t)


cdef inline bint may_be_forced(int ph) noexcept nogil:
    """The sub-choices a forced step can be (M29): how many bands and how much gold a
    group move takes, where a placement goes, the preliminary turn's ships and bands
    (the last lair territory takes the rest; nothing left: 0 for the others), a Grand
    stratège's take-or-look -- their options follow from the board and the public
    counts only.  Never a window (M4): who may hold a card is asked even with one
    answer, so that the asking reveals no hand."""
    return (ph == PH_BANDS or ph == PH_GOLD or ph == PH_PLACE or ph == PH_SETUP_SHIP
            or ph == PH_SETUP_BANDS or ph == PH_LOOK)


cdef bint am_forced(const void* state, const void* tables) noexcept nogil:
    """M29: a forced step is a sub-choice with a single option (the engine takes it by
    default, auto_forced)."""
    cdef const AmState* s = <const AmState*>state
    cdef int buf[256]                 # a sub-choice lists at most 255 options
    return may_be_forced(s.phase) and am_legal_actions(s, tables, buf) == 1


cdef void am_apply(void* state, const void* tables, int action) noexcept nogil:
    cdef AmState* s = <AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    s.move_count += 1
    s.last_action = action
    apply_one(s, t, action)


cdef void am_returns(const void* state, const void* tables, double* out) noexcept nogil:
    """The master of the archipelago +1, the others -1; a round-cap end is a draw."""
    cdef const AmState* s = <const AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    cdef int p
    for p in range(t.num_players):
        if s.phase != PH_OVER or s.winners == 0:
            out[p] = 0.0
        else:
            out[p] = 1.0 if (s.winners >> p) & 1 else -1.0


cdef inline bint is_target(const AmState* s, const AmTables* t, int c, int r) noexcept nogil:
    """evaluate(): a territory a victory condition asks for that c does not own -- a
    trading post or a city of an opposing lair."""
    if s.flag[r] == c:
        return False
    if t.post[r] >= 0:
        return True
    return t.city[r] and not friendly(t, t.lair[r], c)


cdef inline double target_weight(const AmTables* t, int r) noexcept nogil:
    return 1.5 if r == t.central_post else 1.0


cdef inline double defence(const AmState* s, const AmTables* t, int r) noexcept nogil:
    """evaluate(): what stands in the way: the bands or natives there, and the natives
    an unexplored territory may hide (1.5 on average, doubled at the central post)."""
    if not s.explored[r] and t.group[r] != G_LAIR:
        return 3.0 if r == t.central_post else 1.5
    return s.bands[r] + s.natives[r]


cdef double reach(const AmState* s, const AmTables* t, int c, int bands, int sea,
                  int land) noexcept nogil:
    """evaluate(): the best target a stack of ``bands`` may take, from a ship on
    ``sea`` or a territory ``land`` (the other -1): nearer and stronger is better."""
    cdef double best = 0.0, v, strength
    cdef int r, d
    for r in range(t.nterr):
        if not is_target(s, t, c, r):
            continue
        d = t.sea_dist[sea][r] if sea >= 0 else t.land_dist[land][r]
        if d == 255:
            continue
        strength = bands / (bands + 2.0 * defence(s, t, r) + 1.0)
        v = target_weight(t, r) * strength * EVAL_DECAY[d]
        if v > best:
            best = v
    return best


cdef double colour_value(const AmState* s, const AmTables* t, int c) noexcept nogil:
    """evaluate(): the victory conditions held (a lair; trading posts with the central
    one, or cities in opposing lairs), the stacks and ships on their way to the targets
    still missing, loadable ships next to the colour's bands, then bands and gold."""
    cdef double lair = 0.0, posts, cities, v, potential = 0.0, load = 0.0
    cdef int L, r, i, k, bands = 0, gold = 0
    cdef Owned o
    count_owned(s, t, c, &o)
    for L in range(AM_COLOURS):
        lair = max(lair, min(o.lair[L], 4) / 4.0)
    posts = min(o.posts, 3) + (1.0 if o.central_post else 0.0)
    cities = min(o.opposing_cities, 4)
    for r in range(t.nterr):
        if s.occ[r] == c:
            bands += s.bands[r]
            gold += s.gold[r]
            if t.group[r] != G_LAIR or t.lair[r] != c:
                potential += reach(s, t, c, s.bands[r], -1, r)
    for i in range(AM_SHIPS):
        if s.ship_where[i] != W_SEA:
            continue
        if s.ship_crew[i] == c:
            bands += s.ship_bands[i]
            gold += s.ship_gold[i]
            potential += reach(s, t, c, s.ship_bands[i], s.ship_pos[i], -1)
        # an empty ship of its own next to its bands: a crew can board (launching and
        # loading pay off only later)
        if s.ship_bands[i] == 0 and s.ship_owner[i] == c and ship_room(s, i) > 0:
            for k in range(t.shore_n[s.ship_pos[i]]):
                r = t.shore[s.ship_pos[i]][k]
                if s.occ[r] == c and s.bands[r] > 1:
                    load += 0.15
                    break
    # every target taken counts, the condition nearer completion twice: a capture is
    # worth more than the reach of the stack that made it
    v = 2.0 * lair + 1.5 * (posts + cities) + 1.5 * max(posts, cities)
    v += potential + min(load, 0.3) + bands / 20.0 + min(gold, 12) / 24.0
    if victorious(&o):
        v += 3.0 + (3.0 if s.option[c] else 0.0)
    return v


cdef void am_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """Each player's best colour against his best opponent's, scaled into (-1, 1)."""
    cdef const AmState* s = <const AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    cdef double v[AM_COLOURS]
    cdef double best, x
    cdef int p, q, c
    if s.phase == PH_OVER:
        am_returns(state, tables, out)
        return
    for p in range(t.num_players):
        v[p] = -1e9
    for c in range(AM_COLOURS):
        p = t.colour_player[c]
        if p >= 0:
            # a player wins with either of his colours (Two-Player Rule)
            v[p] = max(v[p], colour_value(s, t, c))
    for p in range(t.num_players):
        best = -1e9
        for q in range(t.num_players):
            if q != p and v[q] > best:
                best = v[q]
        # linear, not saturating: far ahead of a weak opponent, the next city must still
        # look better than idling; the opponent's progress counts for less than one's
        # own, so that equal bots attack rather than only parry (self-play ends sooner)
        x = (v[p] - EVAL_RIVAL * best) / EVAL_SCALE
        out[p] = max(-0.95, min(0.95, x))


# ------------------------------------------------------------------ action_values

# action_values(): what a move is worth to the colour making it, in "actions of progress"
# toward a victory condition.  Ending the turn is 0: a move that brings nothing nearer
# is worth less, so an informed playout spends its budget on progress, then ends.
cdef double AV_STEP = 2.0            # each action nearer to a target the colour lacks
cdef double AV_IDLE = -0.5           # a move that brings nothing nearer: below ``end``
cdef double AV_INVADE = 4.0          # taking a territory (its flag)
cdef double AV_INVADE_TARGET = 6.0   # ... that a victory condition asks for, besides
cdef double AV_EXPLORE = 4.0         # gold and natives found; the way in opened
cdef double AV_LAUNCH = 3.0
cdef double AV_GROWTH = 8.0          # conversion, recruitment: bands added
cdef int AV_FAR = 30                 # the gap of a place that reaches no target


ctypedef struct Goals:
    int colour                       # the colour acting
    int n                            # targets: what its victory conditions still lack
    int terr[AM_MAX_T]


cdef void find_goals(const AmState* s, const AmTables* t, Goals* g) noexcept nogil:
    cdef int r
    g.colour = s.acting
    g.n = 0
    for r in range(t.nterr):
        if is_target(s, t, g.colour, r):
            g.terr[g.n] = r
            g.n += 1


cdef int gap(const AmTables* t, const Goals* g, int place) noexcept nogil:
    """Actions from ``place`` (a territory, or AM_MAX_T + a sea space) to the nearest
    target, capped at AV_FAR."""
    cdef int k, d, best = AV_FAR
    for k in range(g.n):
        d = t.goal_dist[place][g.terr[k]]
        if d < best:
            best = d
    return best


cdef inline int route_place(const AmTables* t, int r, bint dest) noexcept nogil:
    """A route's source or destination as a place of goal_dist."""
    cdef int kind = t.route_kind[r]
    if dest:
        return t.route_to[r] + (AM_MAX_T if kind == R_LOAD or kind == R_TRANSHIP else 0)
    return t.route_from[r] + (AM_MAX_T if kind == R_UNLOAD or kind == R_TRANSHIP else 0)


cdef double move_value(const AmState* s, const AmTables* t, const Goals* g,
                       int r) noexcept nogil:
    """A group move: the actions it saves toward the nearest target, and the flag it
    plants (never over the player's other colour's)."""
    cdef int kind = t.route_kind[r]
    cdef int b = t.route_to[r]
    cdef int c = g.colour
    cdef int progress = gap(t, g, route_place(t, r, False)) - gap(t, g, route_place(t, r, True))
    cdef double v = AV_STEP * progress if progress != 0 else AV_IDLE
    if (kind == R_LAND or kind == R_UNLOAD) and s.flag[b] != c:
        if s.flag[b] < AM_COLOURS and friendly(t, s.flag[b], c):
            return v - AV_INVADE
        v += AV_INVADE
        if is_target(s, t, c, b):
            v += AV_INVADE_TARGET
    return v


cdef double attack_value(const AmState* s, const AmTables* t, const Goals* g,
                         int r) noexcept nogil:
    """A combat roll: worth more the stronger the stack against the defenders, and
    more where the territory is a target; hopeless attacks fall below ``end``."""
    cdef int kind = t.route_kind[r]
    cdef int b = t.route_to[r]
    cdef double att = src_bands(s, t, r)
    cdef double dfn, odds, v
    if kind == R_LAND or kind == R_UNLOAD:
        dfn = s.natives[b] + s.bands[b]
    else:
        dfn = s.ship_bands[s.at_sea[b]]
    odds = att / (att + dfn)
    v = 8.0 * odds - 3.0
    if (kind == R_LAND or kind == R_UNLOAD) and is_target(s, t, g.colour, b):
        v += 3.0 * odds
    return v


cdef double sail_value(const AmTables* t, const Goals* g, int x) noexcept nogil:
    cdef int progress = (gap(t, g, AM_MAX_T + t.sail_from[x])
                         - gap(t, g, AM_MAX_T + t.sail_to[x]))
    return AV_STEP * progress if progress != 0 else AV_IDLE


cdef double explore_value(const AmTables* t, int r) noexcept nogil:
    if r == t.central_post:
        return AV_EXPLORE + 2.0
    return AV_EXPLORE + (1.0 if t.post[r] >= 0 else 0.0)


cdef double card_value(const AmState* s, int kind) noexcept nogil:
    """A card played on one's turn, or in its window (where ``decline`` is 0)."""
    if kind == K_ATTACK:
        return (2.0 - s.roll_d) + s.roll_a        # 2 defenders lost, no attacker
    if kind == K_DEFENCE:
        return s.roll_d + (2.0 - s.roll_a)        # no defender lost, 2 attackers
    if kind == K_DOPE:
        return 6.0
    if kind == K_RECRUIT or kind == K_BIG_RECRUIT or kind == K_GOLD_MINE:
        return 5.0
    if kind == K_SHIPYARD:
        return 3.0
    return 1.0                                    # mobilisation, strategist


cdef double place_value(const AmState* s, const AmTables* t, const Goals* g,
                        int r) noexcept nogil:
    """Bands and ships near the targets; gold where it may be converted; natives on
    trading posts the colour does not own (in its rivals' way)."""
    cdef int w = s.place_what
    if w == PL_GOLD:
        return 1.0 if t.city[r] or t.post[r] >= 0 else 0.0
    if w == PL_NATIVES:
        return 1.0 if t.post[r] >= 0 and s.flag[r] != g.colour else 0.0
    return -<double>gap(t, g, r)


cdef double deploy_value(const AmState* s, const AmTables* t, int k) noexcept nogil:
    """Preliminary Turn: the bands left spread over the lair's remaining territories,
    three shares to a city with a ship (its crew-to-be)."""
    cdef int c = s.turn_colour
    cdef int i, r, share, shares = 0, mine = 0
    for i in range(s.setup_index, t.lair_n[c]):
        r = t.lair_terr[c][i]
        share = 3 if t.city[r] and unlaunched(s, r) >= 0 else 1
        shares += share
        if i == s.setup_index:
            mine = share
    return -abs(k - s.setup_left * mine / <double>shares)


cdef double turn_value(const AmState* s, const AmTables* t, const Goals* g,
                       int a) noexcept nogil:
    """One action of the acting colour's turn, by its block of action ids."""
    if a == ACT_END:
        return 0.0
    if a == ACT_RECRUIT:
        return AV_GROWTH
    if a < t.a_coup:
        return card_value(s, a - t.a_play)
    if t.a_move <= a < t.a_attack:
        return move_value(s, t, g, a - t.a_move)
    if t.a_attack <= a < t.a_bands:
        return attack_value(s, t, g, a - t.a_attack)
    if t.a_launch <= a < t.a_sail:
        return AV_LAUNCH
    if t.a_sail <= a < t.a_explore:
        return sail_value(t, g, a - t.a_sail)
    if t.a_explore <= a < t.a_special:
        return explore_value(t, a - t.a_explore)
    if t.a_special <= a < t.a_scuttle:
        return explore_value(t, a - t.a_special) + 1.0
    if t.a_scuttle <= a < t.a_destroy:
        # a rival's empty ship; one's own (or the partner colour's) is kept
        return -1.0 if friendly(t, s.ship_owner[s.at_sea[a - t.a_scuttle]], g.colour) \
            else 1.0
    if t.a_destroy <= a < t.a_convert:
        return 1.0
    if t.a_convert <= a < t.a_buy_t:
        return AV_GROWTH
    return 2.0                                    # buying a card


cdef double step_value(const AmState* s, const AmTables* t, const Goals* g,
                       int a) noexcept nogil:
    """Any decision's action: the turn's, a group's size and gold (all of them: the
    more that arrive, the better), a window, a placement, the preliminary turn."""
    cdef int ph = s.phase
    if ph == PH_TURN:
        return turn_value(s, t, g, a)
    if ph == PH_BANDS:
        return a - t.a_bands
    if ph == PH_GOLD:
        return a - t.a_gold
    if ph == PH_PLACE:
        return place_value(s, t, g, a - t.a_place)
    if ph == PH_SETUP_BANDS:
        return deploy_value(s, t, a - t.a_deploy)
    if ph == PH_SETUP_SHIP:
        return -<double>gap(t, g, a - t.a_ship)
    if a == ACT_DECLINE or a == ACT_LOOK:
        return 0.0
    if a == ACT_TAKE or a >= t.a_coup:
        return 1.0                                # a card taken; a Coup de main
    return card_value(s, a - t.a_play)            # a weapon in its window


cdef void am_action_values(const void* state, const void* tables, const int* acts, int n,
                           double* out) noexcept nogil:
    """The contract's move values (informed rollouts): progress toward the targets the
    colour's victory conditions lack -- taking territories, fighting, exploring, adding
    bands, carrying stacks nearer by land and sea -- above shuffling, ``end`` at 0."""
    cdef const AmState* s = <const AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    cdef Goals g
    cdef int i
    find_goals(s, t, &g)
    for i in range(n):
        out[i] = step_value(s, t, &g, acts[i])


cdef int last_draw_recipient(const AmState* s, const AmTables* t) noexcept nogil:
    """The player the card of the last action went to, if that action was a draw (a
    card dealt, bought or looked at), else -1.  Right after a draw the state still
    says whose it was: ``drawer`` for a buy or a look; during the deal (two cards a
    seat, seat by seat) the seat before the next card's, and after the last card of
    the deal ``drawer`` is still its recipient."""
    if not t.a_draw <= s.last_action < t.num_actions:
        return -1
    if s.draw_reason == DR_DEAL and s.phase == PH_DEAL:
        return (2 * t.num_players - s.setup_left - 1) // 2
    return s.drawer


cdef void am_determinize(void* state, const void* tables, int observer,
                         Rng* rng) noexcept nogil:
    """Redraws what ``observer`` has not seen (M28): the other players' hands (their
    sizes kept), the pile's order (counts: any order is a draw), a Grand stratège's
    cards set aside by another player and the one he is looking at, from the cards the
    observer cannot see; and the last action, when it was a card drawn for another
    player, is made to name a card the world gave that player.  Every other field is
    public, so two truths the observer cannot tell apart give byte-identical worlds."""
    cdef AmState* s = <AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    cdef int pool[AM_KINDS]
    cdef int sizes[AM_COLOURS]
    cdef int looked = 0
    cdef int p, k, total = 0, _
    cdef int recipient = last_draw_recipient(s, t)
    cdef bint hide_looked = (s.drawer != observer and (
        s.phase == PH_LOOK or (s.phase == PH_DRAW and s.draw_reason == DR_LOOK)))
    for k in range(AM_KINDS):
        pool[k] = s.deck[k]
        if hide_looked:
            pool[k] += s.looked[k]
            looked += s.looked[k]
            s.looked[k] = 0
    for p in range(t.num_players):
        sizes[p] = 0
        if p == observer:
            continue
        for k in range(AM_KINDS):
            pool[k] += s.hand[p][k]
            sizes[p] += s.hand[p][k]
            s.hand[p][k] = 0
    for k in range(AM_KINDS):
        total += pool[k]
    for p in range(t.num_players):
        for _ in range(sizes[p]):
            k = draw_from(pool, &total, rng)
            s.hand[p][k] += 1
    if hide_looked:
        for _ in range(looked):
            k = draw_from(pool, &total, rng)
            s.looked[k] += 1
            s.last_looked = <uint8_t>k    # the last set aside is the one looked at
    if s.phase != PH_LOOK:
        s.last_looked = 0                 # meaningful only while looking
    for k in range(AM_KINDS):
        s.deck[k] = <uint8_t>pool[k]
    if recipient >= 0 and recipient != observer:
        if s.phase == PH_LOOK:
            k = s.last_looked
        else:
            k = card_of_hand(s, recipient, rng)
        s.last_action = t.a_draw + k


cdef int card_of_hand(const AmState* s, int p, Rng* rng) noexcept nogil:
    """One of ``p``'s cards, each card as likely (0 for an empty hand)."""
    cdef int n = hand_size(s, p)
    cdef int k, x
    if n == 0:
        return 0
    x = rng_below(rng, n)
    for k in range(AM_KINDS):
        if x < s.hand[p][k]:
            return k
        x -= s.hand[p][k]
    return 0


cdef inline int draw_from(int* pool, int* total, Rng* rng) noexcept nogil:
    cdef int x = rng_below(rng, total[0])
    cdef int k = 0
    while x >= pool[k]:
        x -= pool[k]
        k += 1
    pool[k] -= 1
    total[0] -= 1
    return k


cdef uint64_t am_hash(const void* state, const void* tables) noexcept nogil:
    cdef const AmState* s = <const AmState*>state
    return hash_bytes(s, <size_t>(<const char*>&s.move_count - <const char*>s))


# ------------------------------------------------------------------ the observation tensor
# What a player may see (docs/armada.rst, "Hidden information" and "Observation tensor"):
# every field of the board, the reserves, supplies, cards played, hand sizes, the phase
# and the pending sub-decision is public (M28); of the cards only his own hand, and the
# card he looks at with a Grand stratège.  Layout: boardrules/games/armada/observation.py.

# A byte's value as a float, by lookup (cheaper than a conversion per entry written).
cdef float BYTE_FLOAT[256]
for _d in range(256):
    BYTE_FLOAT[_d] = _d


cdef inline int obs_seat(const AmTables* t, int player, int p) noexcept nogil:
    """Where player ``p`` is listed in ``player``'s per-seat fields."""
    return (p - player + t.num_players) % t.num_players


cdef inline int obs_flag(const AmTables* t, int player, int f) noexcept nogil:
    """A flag (a colour or FLAG_BROWN) as an index of the flag one-hots, -1 for none."""
    if f < AM_COLOURS:
        return t.obs_slot[player][f]
    return AM_COLOURS if f == FLAG_BROWN else -1


cdef void obs_territories(const AmState* s, const AmTables* t, int player,
                          float* out) noexcept nogil:
    """Everything on the board is public: flags, explored, bands, gold, natives.
    Branch-free: a territory without a flag (or bands) writes 0.0 into its own entry of
    plane 0."""
    cdef const int* off = t.obs_off
    cdef const uint8_t* plane = t.obs_plane[player]
    cdef int n = t.nterr
    cdef float* flag = out + off[OB_FLAG]
    cdef float* bands = out + off[OB_BANDS]
    cdef float* explored = out + off[OB_EXPLORED]
    cdef float* gold = out + off[OB_GOLD]
    cdef float* natives = out + off[OB_NATIVES]
    cdef int r, f, c, k, e, g, m
    for r in range(n):
        f = s.flag[r]                     # every byte read before the floats are written
        c = s.occ[r]
        k = s.bands[r]
        e = s.explored[r]
        g = s.gold[r]
        m = s.natives[r]
        flag[plane[f] * n + r] = BYTE_FLOAT[f != NOBODY]
        bands[plane[c] * n + r] = BYTE_FLOAT[k]
        explored[r] = BYTE_FLOAT[e]
        gold[r] = BYTE_FLOAT[g]
        natives[r] = BYTE_FLOAT[m]


cdef void obs_ships(const AmState* s, const AmTables* t, int player,
                    float* out) noexcept nogil:
    """The 8 ships, public, by the place they are on (the actions name places, not ships):
    one ship a city or a sea space, tokens aboard only at sea (Ships)."""
    cdef const int* off = t.obs_off
    cdef int i, pos, owner
    for i in range(AM_SHIPS):
        pos = s.ship_pos[i]
        owner = t.obs_slot[player][s.ship_owner[i]]
        if s.ship_where[i] == W_CITY:
            pos = t.city_index[pos]
            out[off[OB_CITY_SHIP] + owner * t.ncities + pos] = 1.0
            if (s.captured >> i) & 1:
                out[off[OB_CITY_CAPTURED] + pos] = 1.0
        elif s.ship_where[i] == W_SEA:
            out[off[OB_SEA_SHIP] + owner * t.nseas + pos] = 1.0
            if s.ship_crew[i] != NOBODY:
                out[off[OB_SEA_CREW] + t.obs_slot[player][s.ship_crew[i]] * t.nseas
                    + pos] = s.ship_bands[i]
            out[off[OB_SEA_GOLD] + pos] = s.ship_gold[i]
        else:
            out[off[OB_BOX_SHIPS] + owner] += 1.0


cdef void count_owned_all(const AmState* s, const AmTables* t, Owned* o) noexcept nogil:
    """count_owned for the four colours in one pass over the board."""
    cdef int r, L, c
    for c in range(AM_COLOURS):           # field by field: a memset call costs more here
        for L in range(AM_COLOURS):
            o[c].lair[L] = 0
        o[c].central = 0
        o[c].posts = 0
        o[c].opposing_cities = 0
        o[c].central_post = False
    for r in range(t.nterr):
        c = s.flag[r]
        if c >= AM_COLOURS:
            continue
        L = t.lair[r]
        if L >= 0:
            o[c].lair[L] += 1
            if t.city[r] and not friendly(t, L, c):
                o[c].opposing_cities += 1
        else:
            o[c].central += 1
        if t.post[r] >= 0:
            o[c].posts += 1
    c = s.flag[t.central_post]
    if c < AM_COLOURS:
        o[c].central_post = True


cdef void obs_colours(const AmState* s, const AmTables* t, int player,
                      float* out) noexcept nogil:
    """Per colour slot: the colour (so the lairs of the board are known), its player's
    seat, reserve, flags used, victory option and
    situation (Object of the Game: announced and checked in the open); whose turn, who
    acts."""
    cdef const int* off = t.obs_off
    cdef Owned owned[AM_COLOURS]
    cdef int k, c, p
    count_owned_all(s, t, owned)
    for k in range(AM_COLOURS):
        c = t.obs_colour[player][k]
        p = t.colour_player[c]
        out[off[OB_COLOUR] + k * AM_COLOURS + c] = 1.0
        if p >= 0:
            out[off[OB_COLOUR_OWNER] + k * t.num_players + obs_seat(t, player, p)] = 1.0
        out[off[OB_POOL] + k] = s.pool[c]
        out[off[OB_FLAGS_USED] + k] = s.flags_used[c]
        out[off[OB_VICTORY_OPTION] + k] = s.option[c]
        out[off[OB_IN_VICTORY] + k] = victorious(&owned[c])
    out[off[OB_TURN_COLOUR] + t.obs_slot[player][s.turn_colour]] = 1.0
    out[off[OB_ACTING_COLOUR] + t.obs_slot[player][s.acting]] = 1.0


cdef void obs_cards(const AmState* s, const AmTables* t, int player,
                    float* out) noexcept nogil:
    """Hidden information: a hand is seen by its player alone, its size by all; the cards
    played lie face up; the pile and the cards set aside are counts."""
    cdef const int* off = t.obs_off
    cdef int p, k, looked = 0
    for p in range(t.num_players):
        out[off[OB_HAND_SIZE] + obs_seat(t, player, p)] = hand_size(s, p)
    for k in range(AM_KINDS):
        out[off[OB_HAND] + k] = s.hand[player][k]
        out[off[OB_PLAYED] + k] = s.played[k]
        looked += s.looked[k]
    out[off[OB_PILE]] = deck_size(s)
    out[off[OB_PILE] + 1] = looked


cdef void obs_turn(const AmState* s, const AmTables* t, int player,
                   float* out) noexcept nogil:
    """The supplies, the round, the actions left, a Coup de main, the phase, who decides,
    the end and the options: all public."""
    cdef const int* off = t.obs_off
    cdef int mover = am_current_player(s, t)
    cdef int p
    out[off[OB_SUPPLY]] = s.supply_gold
    out[off[OB_SUPPLY] + 1] = s.supply_natives
    out[off[OB_ROUNDS]] = s.round
    out[off[OB_ROUNDS] + 1] = t.max_rounds
    if s.phase > PH_SETUP_BANDS:              # the budget starts with the first turn
        out[off[OB_ACTIONS_LEFT]] = s.ap
    if s.in_coup:
        out[off[OB_COUP]] = 1.0
        out[off[OB_COUP] + 1] = s.saved_ap
    out[off[OB_PHASE] + s.phase] = 1.0
    if mover >= 0:
        out[off[OB_TO_MOVE] + obs_seat(t, player, mover)] = 1.0
    if s.phase == PH_OVER:
        for p in range(t.num_players):
            if (s.winners >> p) & 1:
                out[off[OB_WINNERS] + obs_seat(t, player, p)] = 1.0
    if s.end_reason != END_NONE:
        out[off[OB_END_REASON] + s.end_reason - 1] = 1.0
    out[off[OB_OPTIONS]] = t.recruitment
    out[off[OB_OPTIONS] + 1] = t.cards
    out[off[OB_OPTIONS] + 2 + t.windows] = 1.0


cdef void obs_route(const AmState* s, const AmTables* t, float* out) noexcept nogil:
    """A pending move or attack: its kind, its start and its end (territories, then seas)."""
    cdef const int* off = t.obs_off
    cdef int r = s.route
    cdef int kind = t.route_kind[r]
    cdef int a = t.route_from[r]
    cdef int b = t.route_to[r]
    out[off[OB_PENDING_ROUTE] + kind] = 1.0
    out[off[OB_PENDING_FROM] + (a if kind == R_LAND or kind == R_LOAD else t.nterr + a)] = 1.0
    out[off[OB_PENDING_TO] + (b if kind == R_LAND or kind == R_UNLOAD else t.nterr + b)] = 1.0


cdef void obs_pending(const AmState* s, const AmTables* t, int player,
                      float* out) noexcept nogil:
    """The sub-decision under way (M28: the pending move, roll or placement and the
    drawer are public); the card a Grand stratège looks at only to the player looking."""
    cdef const int* off = t.obs_off
    cdef int ph = s.phase
    cdef int counts = off[OB_PENDING_COUNTS]
    cdef int k
    if ph == PH_SETUP_BANDS:
        out[off[OB_PENDING_KIND] + PK_DEPLOY] = 1.0
        out[off[OB_PENDING_TO] + t.lair_terr[s.turn_colour][s.setup_index]] = 1.0
        out[counts] = s.setup_left
    elif ph == PH_BANDS or ph == PH_GOLD:
        out[off[OB_PENDING_KIND] + PK_MOVE] = 1.0
        obs_route(s, t, out)
        if ph == PH_GOLD:
            out[counts + 1] = s.move_bands
    elif ph == PH_ROLL or ph == PH_ATTACK_WINDOW or ph == PH_DEFENCE_WINDOW:
        out[off[OB_PENDING_KIND] + PK_ATTACK] = 1.0
        obs_route(s, t, out)
        k = obs_flag(t, player, s.target_colour)
        if k >= 0:
            out[off[OB_PENDING_DEFENDER] + k] = 1.0
        if ph != PH_ROLL:
            out[off[OB_PENDING_LOSSES]] = s.roll_d
            out[off[OB_PENDING_LOSSES] + 1] = s.roll_a
    elif ph == PH_EXPLORE:
        out[off[OB_PENDING_KIND] + PK_EXPLORE] = 1.0
        out[off[OB_PENDING_TO] + s.explore_t] = 1.0
        out[counts + 4] = s.multiplier
    elif ph == PH_SPEARS or ph == PH_PLACE:
        out[off[OB_PENDING_KIND] + PK_PLACE] = 1.0
        out[off[OB_PENDING_PLACE] + s.place_what] = 1.0
        if ph == PH_PLACE:
            out[counts + 2] = s.place_amount
        out[counts + 3] = s.rolls_left
    elif ph == PH_DRAW or ph == PH_DEAL:
        out[off[OB_PENDING_KIND] + PK_DRAW] = 1.0
        out[off[OB_PENDING_PLAYER] + obs_seat(t, player, s.drawer)] = 1.0
    elif ph == PH_LOOK:
        out[off[OB_PENDING_KIND] + PK_LOOK] = 1.0
        out[off[OB_PENDING_PLAYER] + obs_seat(t, player, s.drawer)] = 1.0
        if s.drawer == player:           # "look at the top card": his alone
            out[off[OB_PENDING_CARD] + s.last_looked] = 1.0


cdef void am_observation(const void* state, const void* tables, int player,
                         float* out) noexcept nogil:
    """What ``player`` may see, as ``obs_off[OB_FIELDS]`` floats: the board (territories
    and ships), the colours by slot (his first), the cards (his own hand; the others'
    sizes), the turn and the pending sub-decision.  Seats relative to ``player``."""
    cdef const AmState* s = <const AmState*>state
    cdef const AmTables* t = <const AmTables*>tables
    memset(out, 0, sizeof(float) * t.obs_off[OB_FIELDS])
    obs_territories(s, t, player, out)
    obs_ships(s, t, player, out)
    obs_colours(s, t, player, out)
    obs_cards(s, t, player, out)
    obs_turn(s, t, player, out)
    obs_pending(s, t, player, out)


# ------------------------------------------------------------------ the Python object

cdef class ArmadaCore(CoreGame):
    """The compiled game for one board, one set of dice, one deck and the options.

    Territories: ``groups`` (index into GROUPS), ``lairs`` (a colour or -1), ``islands``,
    ``cities`` (bool), ``posts`` (-1 or the trading post's index, 0 the central one);
    ``land`` (territory pairs), ``sea`` (sea pairs), ``coast`` ((sea, territory) pairs).
    Dice: ``combat`` six (defenders, attackers) faces, ``gold`` and ``tribes`` six values.
    ``deck``: a count per kind of CARD_KINDS.  ``start_bands``: each colour's bands.
    """

    def __cinit__(self, int players, list groups, list lairs, list islands, list cities,
                  list posts, int nseas, list land, list sea, list coast, list combat,
                  list gold,
                  list tribes, list deck, list start_bands, int neutral=-1,
                  int max_rounds=60, bint recruitment=False, bint cards=False,
                  int windows=WIN_EVERY_ACTION):
        cdef AmTables* t = &self.tables
        cdef int c, k
        memset(t, 0, sizeof(AmTables))
        if not 2 <= players <= 4:
            raise ValueError("2 to 4 players")
        if (neutral >= 0) != (players == 3) or not -1 <= neutral < AM_COLOURS:
            raise ValueError("a neutral colour with 3 players only")
        if not 1 <= max_rounds <= 10000:
            raise ValueError("max_rounds must be 1 to 10000")
        if not 0 <= windows <= 2:
            raise ValueError("windows must be WIN_OFF, WIN_TURN_START or WIN_EVERY_ACTION")
        if len(deck) != AM_KINDS or any(not 0 <= x <= 200 for x in deck) or sum(deck) > 200:
            raise ValueError(f"deck: {AM_KINDS} counts, 200 cards at most")
        if len(start_bands) != AM_COLOURS or any(not 0 <= b <= AM_BANDS for b in start_bands):
            raise ValueError("start_bands: 0 to 50 for each colour")
        t.num_players = players
        t.neutral = neutral
        t.max_rounds = max_rounds
        t.recruitment = recruitment
        t.cards = cards
        t.windows = windows
        t.first_colour = -1
        for c in range(AM_COLOURS):
            if players == 4:
                t.colour_player[c] = c
            elif players == 2:
                t.colour_player[c] = TWO_PLAYER_SEATS[c]
            else:
                t.colour_player[c] = -1 if c == neutral else (c if c < neutral else c - 1)
            t.in_play[c] = t.colour_player[c] >= 0
            t.start_bands[c] = start_bands[c]
            if t.in_play[c] and t.first_colour < 0:
                t.first_colour = c
        for k in range(AM_KINDS):
            t.deck_total[k] = deck[k]
            t.deck_cards += deck[k]
        if cards and t.deck_cards < 2 * players:
            raise ValueError("the deck must hold the 2 cards dealt to each player")
        self._setup_geography(groups, lairs, islands, cities, posts, nseas, land, sea, coast)
        self._setup_dice(combat, gold, tribes)
        self._setup_layout()
        self._setup_observation()

        self.contract.state_size = sizeof(AmState)
        self.contract.num_players = players
        self.contract.num_teams = players
        for c in range(players):
            self.contract.team_of[c] = c
        self.contract.num_distinct_actions = t.num_actions
        self.contract.max_legal_actions = t.num_actions
        self.contract.max_game_length = self._game_length_bound()
        self.contract.has_hidden_information = bool(cards)
        self.contract.tables = t
        self.contract.initial_state = am_initial_state
        self.contract.current_player = am_current_player
        self.contract.legal_actions = am_legal_actions
        self.contract.chance_outcomes = am_chance_outcomes
        self.contract.apply = am_apply
        self.contract.returns = am_returns
        self.contract.determinize = am_determinize
        self.contract.evaluate = am_evaluate
        self.contract.hash = am_hash
        self.contract.simultaneous = NULL
        self.contract.forced = am_forced
        self.contract.observation_size = t.obs_off[OB_FIELDS]
        self.contract.observation = am_observation
        self.contract.action_values = am_action_values

    cdef _setup_geography(self, list groups, list lairs, list islands, list cities,
                          list posts, int nseas, list land, list sea, list coast):
        cdef AmTables* t = &self.tables
        cdef int n = len(groups)
        cdef int m = nseas
        cdef int r, c, a, b, x
        if not 1 <= n <= AM_MAX_T or not 1 <= m <= AM_MAX_S:
            raise ValueError(f"1 to {AM_MAX_T} territories and {AM_MAX_S} sea spaces")
        if not (len(lairs) == len(islands) == len(cities) == len(posts) == n):
            raise ValueError("one entry per territory")
        t.nterr = n
        t.nseas = m
        t.central_post = -1
        for r in range(n):
            if not 0 <= groups[r] <= G_LAIR or not -1 <= lairs[r] < AM_COLOURS:
                raise ValueError("bad territory group or lair")
            if (groups[r] == G_LAIR) != (lairs[r] >= 0):
                raise ValueError("a lair territory names its colour")
            t.group[r] = groups[r]
            t.lair[r] = lairs[r]
            t.island[r] = islands[r]
            t.city[r] = bool(cities[r])
            t.post[r] = posts[r]
            if t.city[r] and t.lair[r] < 0:
                raise ValueError("cities are in lairs")
            if posts[r] == 0:
                t.central_post = r
            if t.lair[r] >= 0:
                c = t.lair[r]
                if t.lair_n[c] >= 8:
                    raise ValueError("at most 8 territories a lair")
                t.lair_terr[c][t.lair_n[c]] = r
                t.lair_n[c] += 1
        if t.central_post < 0:
            raise ValueError("a central trading post")
        for c in range(AM_COLOURS):
            cities_of = [r for r in range(n) if t.lair[r] == c and t.city[r]]
            if len(cities_of) != 3 or t.lair_n[c] < 2:
                raise ValueError("each lair has 3 cities")
            for x in range(3):
                t.lair_city[c][x] = cities_of[x]
        links = {"land": sorted({(a, b) for a, b in land} | {(b, a) for a, b in land}),
                 "coast": sorted({(b, a) for a, b in coast}),      # (territory, sea)
                 "sea": sorted({(a, b) for a, b in sea} | {(b, a) for a, b in sea})}
        for a, b in links["land"]:
            if not (0 <= a < n and 0 <= b < n) or a == b:
                raise ValueError("bad land pair")
            _append(t.land_n, t.land, a, b)
        for a, b in links["coast"]:
            if not (0 <= a < n and 0 <= b < m):
                raise ValueError("bad coast pair")
            _append(t.coast_n, t.coast, a, b)
            _append(t.shore_n, t.shore, b, a)
        for a, b in links["sea"]:
            if not (0 <= a < m and 0 <= b < m) or a == b:
                raise ValueError("bad sea pair")
            _append(t.sea_n, t.sea, a, b)
        routes = ([(R_LAND, a, b) for a, b in links["land"]]
                  + [(R_LOAD, a, b) for a, b in links["coast"]]
                  + [(R_UNLOAD, a, b) for a, b in sorted((s, r) for r, s in links["coast"])]
                  + [(R_TRANSHIP, a, b) for a, b in links["sea"]])
        if len(routes) > AM_MAX_ROUTES:
            raise ValueError("too many links")
        t.nroutes = len(routes)
        for x, (k, a, b) in enumerate(routes):
            t.route_kind[x] = k
            t.route_from[x] = a
            t.route_to[x] = b
        t.ncoast = len(links["coast"])
        for x, (a, b) in enumerate(links["coast"]):
            t.coast_terr[x] = a
            t.coast_sea[x] = b
        t.nsail = len(links["sea"])
        for x, (a, b) in enumerate(links["sea"]):
            t.sail_from[x] = a
            t.sail_to[x] = b
        route_id = {route: x for x, route in enumerate(routes)}
        coast_id = {pair: x for x, pair in enumerate(links["coast"])}
        sail_id = {pair: x for x, pair in enumerate(links["sea"])}
        for a in range(n):
            for x in range(t.land_n[a]):
                t.land_route[a][x] = route_id[(R_LAND, a, t.land[a][x])]
            for x in range(t.coast_n[a]):
                t.load_route[a][x] = route_id[(R_LOAD, a, t.coast[a][x])]
                t.coast_id[a][x] = coast_id[(a, t.coast[a][x])]
        for a in range(m):
            for x in range(t.shore_n[a]):
                t.unload_route[a][x] = route_id[(R_UNLOAD, a, t.shore[a][x])]
            for x in range(t.sea_n[a]):
                t.tranship_route[a][x] = route_id[(R_TRANSHIP, a, t.sea[a][x])]
                t.sail_id[a][x] = sail_id[(a, t.sea[a][x])]
        self._setup_distances(links)
        self._routes = routes
        self._coast = links["coast"]
        self._sail = links["sea"]

    cdef _setup_distances(self, dict links):
        """evaluate()'s distance tables: sail steps from a sea space to a coast space of a
        territory plus the landing, and land steps within an island."""
        cdef AmTables* t = &self.tables
        cdef int n = t.nterr, m = t.nseas, r, x
        sea_adj = [[] for _ in range(m)]
        for a, b in links["sea"]:
            sea_adj[a].append(b)
        land_adj = [[] for _ in range(n)]
        for a, b in links["land"]:
            land_adj[a].append(b)
        coast_of = [[] for _ in range(n)]
        for r, x in links["coast"]:
            coast_of[r].append(x)
        for r in range(n):
            for x, d in enumerate(_bfs(sea_adj, coast_of[r], m)):
                t.sea_dist[x][r] = min(d + 1, 255)
            for x, d in enumerate(_bfs(land_adj, [r], n)):
                t.land_dist[x][r] = 255 if d == 254 else d
        # one graph of territories (0 .. n-1) and sea spaces (n ..): every link both ways
        any_adj = ([list(land_adj[r]) for r in range(n)]
                   + [[n + y for y in sea_adj[x]] for x in range(m)])
        for r, x in links["coast"]:
            any_adj[r].append(n + x)
            any_adj[n + x].append(r)
        for r in range(n):
            for x, d in enumerate(_bfs(any_adj, [r], n + m)):
                if x < n:
                    t.goal_dist[x][r] = 255 if d == 254 else d
                else:
                    t.goal_dist[AM_MAX_T + x - n][r] = 255 if d == 254 else d

    cdef _setup_dice(self, list combat, list gold, list tribes):
        """One entry a face; the chance of each effect is the share of its faces."""
        cdef AmTables* t = &self.tables
        cdef int f, d, a
        if len(combat) != 6 or len(gold) != 6 or len(tribes) != 6:
            raise ValueError("six faces a die")
        for f in range(6):
            d, a = combat[f]
            if not (0 <= d < AM_FACE and 0 <= a < AM_FACE and 0 <= gold[f] < AM_FACE
                    and 0 <= tribes[f] < AM_FACE):
                raise ValueError(f"die faces show 0 to {AM_FACE - 1}")
            t.p_hits[d * AM_FACE + a] += 1.0 / 6
            t.p_spears[tribes[f]] += 1.0 / 6
        for f in range(6):
            for d in range(6):
                t.p_find[gold[f] * AM_FACE + tribes[d]] += 1.0 / 36

    cdef _setup_layout(self):
        cdef AmTables* t = &self.tables
        t.a_play = ACT_FIXED
        t.a_coup = t.a_play + AM_KINDS
        t.a_ship = t.a_coup + AM_COLOURS
        t.a_deploy = t.a_ship + t.nterr
        t.a_move = t.a_deploy + AM_BANDS + 1
        t.a_attack = t.a_move + t.nroutes
        t.a_bands = t.a_attack + t.nroutes
        t.a_gold = t.a_bands + AM_BANDS
        t.a_launch = t.a_gold + AM_GOLD + 1
        t.a_sail = t.a_launch + t.ncoast
        t.a_explore = t.a_sail + t.nsail
        t.a_special = t.a_explore + t.nterr
        t.a_scuttle = t.a_special + t.nterr
        t.a_destroy = t.a_scuttle + t.nseas
        t.a_convert = t.a_destroy + t.nterr
        t.a_buy_t = t.a_convert + t.nterr
        t.a_buy_s = t.a_buy_t + t.nterr
        t.a_place = t.a_buy_s + t.nseas
        t.a_hits = t.a_place + t.nterr
        t.a_find = t.a_hits + AM_FACE * AM_FACE
        t.a_spears = t.a_find + AM_FACE * AM_FACE
        t.a_draw = t.a_spears + AM_FACE
        t.num_actions = t.a_draw + AM_KINDS

    cdef _setup_observation(self):
        """Each observer's colour slots (observation.py ``colour_slots``: by the seat of
        the colour's player from his own, the neutral colour last; a player's colours in
        turn order from his first) and the offsets of the tensor's fields (its legend)."""
        cdef AmTables* t = &self.tables
        cdef int n = t.num_players, T = t.nterr, S = t.nseas
        cdef int p, k, f, first
        t.ncities = 0
        for k in range(T):
            t.city_index[k] = t.ncities if t.city[k] else -1
            t.ncities += t.city[k] != 0
        sizes = {
            OB_FLAG: (AM_COLOURS + 1) * T, OB_EXPLORED: T, OB_BANDS: AM_COLOURS * T,
            OB_GOLD: T, OB_NATIVES: T, OB_COLOUR: AM_COLOURS * AM_COLOURS,
            OB_CITY_SHIP: AM_COLOURS * t.ncities, OB_CITY_CAPTURED: t.ncities,
            OB_SEA_SHIP: AM_COLOURS * S, OB_SEA_CREW: AM_COLOURS * S,
            OB_SEA_GOLD: S, OB_BOX_SHIPS: AM_COLOURS, OB_COLOUR_OWNER: AM_COLOURS * n,
            OB_POOL: AM_COLOURS, OB_FLAGS_USED: AM_COLOURS, OB_VICTORY_OPTION: AM_COLOURS,
            OB_IN_VICTORY: AM_COLOURS, OB_TURN_COLOUR: AM_COLOURS,
            OB_ACTING_COLOUR: AM_COLOURS, OB_HAND_SIZE: n, OB_HAND: AM_KINDS,
            OB_PLAYED: AM_KINDS, OB_PILE: 2, OB_SUPPLY: 2, OB_ROUNDS: 2, OB_ACTIONS_LEFT: 1,
            OB_COUP: 2, OB_PHASE: PH_OVER + 1, OB_TO_MOVE: n, OB_PENDING_KIND: PK_LOOK + 1,
            OB_PENDING_ROUTE: R_TRANSHIP + 1, OB_PENDING_FROM: T + S, OB_PENDING_TO: T + S,
            OB_PENDING_DEFENDER: AM_COLOURS + 1, OB_PENDING_LOSSES: 2,
            OB_PENDING_PLACE: PL_SHIP + 1, OB_PENDING_PLAYER: n, OB_PENDING_CARD: AM_KINDS,
            OB_PENDING_COUNTS: 5, OB_WINNERS: n, OB_END_REASON: END_ROUND_CAP,
            OB_OPTIONS: 2 + WIN_EVERY_ACTION + 1,
        }
        t.obs_off[0] = 0
        for f in range(OB_FIELDS):
            t.obs_off[f + 1] = t.obs_off[f] + sizes[f]
        for p in range(n):
            first = min(c for c in range(AM_COLOURS) if t.colour_player[c] == p)
            order = sorted(range(AM_COLOURS), key=lambda c: (
                (t.colour_player[c] - p + n) % n if t.colour_player[c] >= 0 else n,
                (c - first + AM_COLOURS) % AM_COLOURS))      # C division: no negatives
            for k in range(AM_COLOURS):
                t.obs_colour[p][k] = order[k]
                t.obs_slot[p][order[k]] = k
            for k in range(256):
                t.obs_plane[p][k] = (t.obs_slot[p][k] if k < AM_COLOURS else
                                     AM_COLOURS if k == FLAG_BROWN else 0)

    cdef int _game_length_bound(self):
        """A true bound on the actions of a game (chance outcomes included).

        * The deal (2 cards a player, with cards) and the preliminary turn (2 ships, and
          at most one count per lair territory, a colour).
        * A colour's turn: its Coup de main window (with cards and windows on: one
          decision a seat, each seat once a window, a Coup de main played in it or not),
          ``end``, one recruitment (the action and one placement a band: one a lair, one
          per 4 territories of the central group), and 10 actions of at most
          STEPS_PER_ACTION steps each (an attack: the choice, the die, two weapon
          windows; a group move: route, bands, gold; a buy: the buy and the draw, for 2
          actions; a Grand stratège's look: the draw and take-or-look), plus with
          ``every_action`` windows one window after each (an action ends at most once).
        * Beyond the turns, over the whole game and with cards only, each card at most
          once: a play and its rolls and placements (at most 5 steps), a Dopé's 3 more
          actions, a Coup de main's 3 actions, its ``end`` and its colour's recruitment
          (M27 allows fewer: one a colour between two of its own turns).  (A card bought
          or looked at costs actions, counted in the turns.)

        Without cards no window ever opens and no card is dealt, bought or played."""
        cdef AmTables* t = &self.tables
        cdef int seats = t.num_players - 1 if t.cards and t.windows != WIN_OFF else 0
        cdef int window = seats if t.windows == WIN_EVERY_ACTION else 0
        cdef int per_action = STEPS_PER_ACTION + window
        cdef int central = 0, colours = 0, setup = 0, c, r, recruit, turn, per_card
        cdef int cards = t.deck_cards if t.cards else 0
        for r in range(t.nterr):
            central += t.group[r] != G_LAIR
        for c in range(AM_COLOURS):
            if t.in_play[c]:
                colours += 1
                setup += 2 + t.lair_n[c]
        recruit = 1 + AM_COLOURS + central // 4
        turn = seats + 1 + recruit + AM_ACTIONS * per_action
        per_card = 5 + 3 * per_action + (3 * per_action + 1 + recruit)
        return ((2 * t.num_players if t.cards else 0) + setup
                + t.max_rounds * colours * turn + cards * per_card)

    @property
    def layout(self):
        """Action-id offsets of each block (see the action layout in the .pxd)."""
        t = &self.tables
        return {
            "end": ACT_END, "decline": ACT_DECLINE, "take": ACT_TAKE, "look": ACT_LOOK,
            "recruit": ACT_RECRUIT, "play": t.a_play, "coup": t.a_coup, "ship": t.a_ship,
            "deploy": t.a_deploy, "move": t.a_move, "attack": t.a_attack,
            "bands": t.a_bands, "gold": t.a_gold, "launch": t.a_launch, "sail": t.a_sail,
            "explore": t.a_explore, "special": t.a_special, "scuttle": t.a_scuttle,
            "destroy": t.a_destroy, "convert": t.a_convert, "buy_t": t.a_buy_t,
            "buy_s": t.a_buy_s, "place": t.a_place, "hits": t.a_hits, "find": t.a_find,
            "spears": t.a_spears, "draw": t.a_draw, "end_of_actions": t.num_actions,
        }

    @property
    def routes(self):
        """The directed links in route-id order: (kind, from, to); kind is an index into
        ROUTE_KINDS, from/to a territory or sea index as the kind says."""
        return list(self._routes)

    @property
    def coast_pairs(self):
        """(territory, sea) pairs in launch-id order."""
        return list(self._coast)

    @property
    def sail_pairs(self):
        """Directed (sea, sea) pairs in sail-id order."""
        return list(self._sail)

    @property
    def colour_players(self):
        return [self.tables.colour_player[c] for c in range(AM_COLOURS)]

    @property
    def deck_totals(self):
        return [self.tables.deck_total[k] for k in range(AM_KINDS)]

    def export(self, CoreState st):
        """The whole truth of a state as plain Python values (for views, JSON, SVG)."""
        self._check(st)
        cdef AmState* s = <AmState*>st.data
        cdef AmTables* t = &self.tables
        n = t.nterr
        return {
            "flag": [s.flag[r] for r in range(n)],
            "occ": [s.occ[r] for r in range(n)],
            "bands": [s.bands[r] for r in range(n)],
            "gold": [s.gold[r] for r in range(n)],
            "natives": [s.natives[r] for r in range(n)],
            "explored": [bool(s.explored[r]) for r in range(n)],
            "ship_where": [s.ship_where[i] for i in range(AM_SHIPS)],
            "ship_pos": [s.ship_pos[i] for i in range(AM_SHIPS)],
            "ship_owner": [s.ship_owner[i] for i in range(AM_SHIPS)],
            "ship_crew": [s.ship_crew[i] for i in range(AM_SHIPS)],
            "ship_bands": [s.ship_bands[i] for i in range(AM_SHIPS)],
            "ship_gold": [s.ship_gold[i] for i in range(AM_SHIPS)],
            "captured": [bool((s.captured >> i) & 1) for i in range(AM_SHIPS)],
            "pool": [s.pool[c] for c in range(AM_COLOURS)],
            "supply_gold": s.supply_gold,
            "supply_natives": s.supply_natives,
            "flags_used": [s.flags_used[c] for c in range(5)],
            "option": [bool(s.option[c]) for c in range(AM_COLOURS)],
            "hand": [[s.hand[p][k] for k in range(AM_KINDS)] for p in range(t.num_players)],
            "deck": [s.deck[k] for k in range(AM_KINDS)],
            "played": [s.played[k] for k in range(AM_KINDS)],
            "looked": [s.looked[k] for k in range(AM_KINDS)],
            "phase": s.phase,
            "current": s.current,
            "turn_colour": s.turn_colour,
            "acting": s.acting,
            "ap": s.ap,
            "saved_ap": s.saved_ap,
            "in_coup": bool(s.in_coup),
            "window": [s.window_next, s.window_left],
            "recruited": [bool(s.recruited[c]) for c in range(AM_COLOURS)],
            "route": s.route,
            "move_bands": s.move_bands,
            "roll": [s.roll_d, s.roll_a],
            "target_colour": s.target_colour,
            "explore_t": s.explore_t,
            "multiplier": s.multiplier,
            "place_what": s.place_what,
            "place_amount": s.place_amount,
            "place_queue": [s.place_queue[k] for k in range(AM_COLOURS + 1)],
            "place_min": s.place_min,
            "place_first": s.place_first,
            "rolls_left": s.rolls_left,
            "draw_reason": s.draw_reason,
            "drawer": s.drawer,
            "last_looked": s.last_looked,
            "setup_index": s.setup_index,
            "setup_left": s.setup_left,
            "first_ship_city": s.first_ship_city,
            "winners": [p for p in range(t.num_players) if (s.winners >> p) & 1],
            "end_reason": s.end_reason,
            "round": s.round,
            "in_victory": [bool(in_victory(s, t, c)) for c in range(AM_COLOURS)],
            "last_action": s.last_action,
            "move_count": s.move_count,
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (``ValueError`` (``TypeError`` for a wrong
        type) ``"<field>: <why>"``, ``st`` untouched): the board, ships, cards and the
        turn's counters are read and range-checked, the reserves, supplies, flag tokens and
        pile are computed from them (an export's copies must agree), and the phase must be
        one play reaches: coherent with who decides, and with a next step."""
        self._check(st)
        cdef AmState tmp
        _load_position(&tmp, &self.tables, raw)
        st._replace_data(&tmp)

    def drawers(self, CoreState st):
        """For each applied action, the player a card drawn by it went to (-1: not a
        draw), read from the undo history's snapshot before it."""
        self._check(st)
        cdef size_t entry = sizeof(AmState) + sizeof(Rng)
        cdef const AmState* before
        cdef int i
        out = []
        for i in range(st.n_actions):
            before = <const AmState*>(st.undo_states + entry * i)
            out.append(before.drawer if before.phase == PH_DEAL or before.phase == PH_DRAW
                       else -1)
        return out

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal).  Legality is the move generator's own answer;
        the key only explains it."""
        cdef int action
        key = self._known_legal(st, action_id, &action)
        if key is not None:
            return key
        return _illegal_reason(<AmState*>st.data, &self.tables, action)


def _bfs(list adj, list sources, int size):
    """Steps from the nearest source to every node (254 if unreachable)."""
    dist = [254] * size
    todo = list(sources)
    for x in todo:
        dist[x] = 0
    for x in todo:
        for y in adj[x]:
            if dist[y] == 254:
                dist[y] = dist[x] + 1
                todo.append(y)
    return dist


cdef _append(int* counts, int (*rows)[AM_MAX_DEG], int a, int b):
    if counts[a] >= AM_MAX_DEG:
        raise ValueError(f"at most {AM_MAX_DEG} links of a kind from one place")
    rows[a][counts[a]] = b
    counts[a] += 1


cdef str _block_of(const AmTables* t, int action):
    if action < ACT_FIXED:
        return ("end", "decline", "take", "look", "recruit")[action]
    for name, start in (("draw", t.a_draw), ("spears", t.a_spears), ("find", t.a_find),
                        ("hits", t.a_hits), ("place", t.a_place), ("buy", t.a_buy_s),
                        ("buy", t.a_buy_t), ("convert", t.a_convert),
                        ("destroy", t.a_destroy), ("scuttle", t.a_scuttle),
                        ("explore", t.a_special), ("explore", t.a_explore),
                        ("sail", t.a_sail), ("launch", t.a_launch), ("gold", t.a_gold),
                        ("bands", t.a_bands), ("attack", t.a_attack), ("move", t.a_move),
                        ("deploy", t.a_deploy), ("ship", t.a_ship), ("coup", t.a_coup),
                        ("play", t.a_play)):
        if action >= start:
            return name
    return "unknown"


cdef str _illegal_reason(const AmState* s, const AmTables* t, int action):
    """Names the rule an illegal action breaks (only for explanations)."""
    block = _block_of(t, action)
    ph = s.phase
    chance = block in ("draw", "spears", "find", "hits")
    if ph == PH_OVER:
        return "game_over"
    if ph in (PH_DEAL, PH_ROLL, PH_EXPLORE, PH_SPEARS, PH_DRAW):
        return "outcome_impossible" if chance else "chance_expected"
    if chance:
        return "not_chance"
    expected = {PH_SETUP_SHIP: ("ship",), PH_SETUP_BANDS: ("deploy",),
                PH_BANDS: ("bands",), PH_GOLD: ("gold",),
                PH_ATTACK_WINDOW: ("decline", "play"), PH_DEFENCE_WINDOW: ("decline", "play"),
                PH_COUP: ("decline", "coup"), PH_PLACE: ("place",), PH_LOOK: ("take", "look")}
    keys = {PH_SETUP_SHIP: "setup_ship", PH_SETUP_BANDS: "setup_bands",
            PH_BANDS: "bands_pending", PH_GOLD: "gold_pending",
            PH_ATTACK_WINDOW: "attack_window", PH_DEFENCE_WINDOW: "defence_window",
            PH_COUP: "coup_window", PH_PLACE: "place_pending", PH_LOOK: "look_pending"}
    if ph in expected:
        if block not in expected[ph]:
            return keys[ph]
        return {"ship": "ship_city", "deploy": "too_many_bands", "bands": "too_many_bands",
                "gold": "too_much_gold", "play": "card_not_held", "coup": "card_not_held",
                "place": "place_not_allowed", "look": "no_look_left",
                "decline": keys[ph], "take": keys[ph]}[block]
    # PH_TURN
    if block in ("ship", "deploy"):
        return "setup_over"
    if block in ("decline", "take", "look", "bands", "gold", "place", "coup"):
        return "nothing_pending"
    if block == "recruit":
        if not t.recruitment:
            return "recruitment_off"
        if s.recruited[s.acting]:
            return "recruited"
        return "no_actions_left" if s.ap == 0 else "no_recruits"
    if block in ("play", "buy") and not t.cards:
        return "cards_off"
    if block == "play":
        return "card_not_playable"
    if s.ap == 0:
        return "no_actions_left"
    return {"move": "move_not_allowed", "attack": "attack_not_allowed",
            "launch": "launch_not_allowed", "sail": "sail_not_allowed",
            "explore": "explore_not_allowed", "scuttle": "scuttle_not_allowed",
            "destroy": "destroy_not_allowed", "convert": "convert_not_allowed",
            "buy": "buy_not_allowed"}.get(block, "move_not_now")


# ------------------------------------------------------------------ positions (load)

cdef int _ranged(object value, str name, long lo, long hi) except? -1:
    return <int>field_int(value, name, lo, hi)


cdef int _colour_or_none(object value, str name, int extra) except? -1:
    """A colour 0-3 (``extra``: 4, brown, allowed too) or 255 (none)."""
    cdef str colours = f"a colour{' or brown' if extra else ''} or 255 (none)"
    try:
        value = field_int(value, name, 0, NOBODY)
    except ValueError:
        raise ValueError(f"{name}: {exact_int(value, name)} is not {colours}") from None
    if not (0 <= value < AM_COLOURS + extra or value == NOBODY):
        raise ValueError(f"{name}: {value} is not {colours}")
    return <int>value


cdef bint _flag_bool(object value, str name) except? -1:
    if not isinstance(value, bool):
        raise ValueError(f"{name}: a bool, not {type(value).__name__}")
    return value is True


cdef list _seq(dict raw, str name, Py_ssize_t n):
    if name not in raw:
        raise ValueError(f"{name}: missing")
    value = raw[name]
    if type(value) is not list:
        raise ValueError(f"{name}: a list, not {type(value).__name__}")
    if len(<list>value) != n:
        raise ValueError(f"{name}: {n} entries, not {len(<list>value)}")
    return list(<list>value)


cdef object _get(dict raw, str name):
    if name not in raw:
        raise ValueError(f"{name}: missing")
    return raw[name]


cdef _load_board(AmState* s, const AmTables* t, dict raw):
    """Territories and ships, with the placement rules play keeps."""
    cdef int r, i, k, n = t.nterr
    flag = _seq(raw, "flag", n)
    occ = _seq(raw, "occ", n)
    bands = _seq(raw, "bands", n)
    gold = _seq(raw, "gold", n)
    natives = _seq(raw, "natives", n)
    explored = _seq(raw, "explored", n)
    for r in range(n):
        s.flag[r] = <uint8_t>_colour_or_none(flag[r], f"flag[{r}]", 1)
        s.occ[r] = <uint8_t>_colour_or_none(occ[r], f"occ[{r}]", 0)
        s.bands[r] = <uint8_t>_ranged(bands[r], f"bands[{r}]", 0, AM_BANDS)
        s.gold[r] = <uint8_t>_ranged(gold[r], f"gold[{r}]", 0, AM_GOLD)
        s.natives[r] = <uint8_t>_ranged(natives[r], f"natives[{r}]", 0, AM_NATIVES)
        s.explored[r] = _flag_bool(explored[r], f"explored[{r}]")
        if (s.bands[r] > 0) != (s.occ[r] != NOBODY):
            raise ValueError(f"bands[{r}]: a territory's bands and their colour go together")
        if s.bands[r] and s.natives[r]:
            raise ValueError(f"natives[{r}]: bands and natives never share a territory")
        if s.occ[r] != NOBODY and not t.in_play[s.occ[r]] and s.occ[r] != t.neutral:
            raise ValueError(f"occ[{r}]: colour {s.occ[r]} is not in this game")
        if t.group[r] == G_LAIR and (s.explored[r] or s.natives[r]):
            raise ValueError(f"explored[{r}]: only the central group is explored and holds "
                             "natives")
        if t.lair[r] >= 0 and s.flag[r] == NOBODY:
            raise ValueError(f"flag[{r}]: a lair territory always has an owner")
        if s.natives[r] and not s.explored[r]:
            raise ValueError(f"natives[{r}]: natives stand on explored territories only")
    owner = _seq(raw, "ship_owner", AM_SHIPS)
    where = _seq(raw, "ship_where", AM_SHIPS)
    pos = _seq(raw, "ship_pos", AM_SHIPS)
    crew = _seq(raw, "ship_crew", AM_SHIPS)
    sbands = _seq(raw, "ship_bands", AM_SHIPS)
    sgold = _seq(raw, "ship_gold", AM_SHIPS)
    captured = _seq(raw, "captured", AM_SHIPS)
    for r in range(AM_MAX_S):
        s.at_sea[r] = -1
    s.captured = 0
    for i in range(AM_SHIPS):
        s.ship_owner[i] = <uint8_t>_ranged(owner[i], f"ship_owner[{i}]", 0, AM_COLOURS - 1)
        s.ship_where[i] = <uint8_t>_ranged(where[i], f"ship_where[{i}]", W_BOX, W_SEA)
        s.ship_pos[i] = <uint8_t>_ranged(pos[i], f"ship_pos[{i}]", 0, 255)
        s.ship_crew[i] = <uint8_t>_colour_or_none(crew[i], f"ship_crew[{i}]", 0)
        s.ship_bands[i] = <uint8_t>_ranged(sbands[i], f"ship_bands[{i}]", 0, AM_SHIP_TOKENS)
        s.ship_gold[i] = <uint8_t>_ranged(sgold[i], f"ship_gold[{i}]", 0, AM_SHIP_TOKENS)
        if _flag_bool(captured[i], f"captured[{i}]"):
            if s.ship_where[i] != W_CITY:
                raise ValueError(f"captured[{i}]: only an unlaunched ship is captured")
            s.captured |= <uint8_t>(1 << i)
        if s.ship_where[i] == W_SEA:
            if s.ship_pos[i] >= t.nseas:
                raise ValueError(f"ship_pos[{i}]: no sea space {s.ship_pos[i]}")
            if s.at_sea[s.ship_pos[i]] >= 0:
                raise ValueError(f"ship_pos[{i}]: one ship a sea space")
            s.at_sea[s.ship_pos[i]] = <int8_t>i
        elif s.ship_where[i] == W_CITY:
            if s.ship_pos[i] >= t.nterr or not t.city[s.ship_pos[i]]:
                raise ValueError(f"ship_pos[{i}]: an unlaunched ship stands on a city")
            for k in range(i):
                if s.ship_where[k] == W_CITY and s.ship_pos[k] == s.ship_pos[i]:
                    raise ValueError(f"ship_pos[{i}]: one ship a city")
        if s.ship_where[i] != W_SEA and (s.ship_bands[i] or s.ship_gold[i]):
            raise ValueError(f"ship_bands[{i}]: only a ship at sea carries tokens")
        if (s.ship_bands[i] > 0) != (s.ship_crew[i] != NOBODY):
            raise ValueError(f"ship_crew[{i}]: a ship's bands and their colour go together")
        if s.ship_bands[i] + s.ship_gold[i] > AM_SHIP_TOKENS:
            raise ValueError(f"ship_gold[{i}]: a ship holds at most 10 tokens")


cdef _derive_supplies(AmState* s, const AmTables* t):
    """What follows from the board: each colour's reserve (50 less its bands in play),
    the gold and natives supplies (50 less those in play) and the flag tokens used."""
    cdef int r, i, c
    cdef int bands[AM_COLOURS]
    cdef int gold = 0, natives = 0
    for c in range(AM_COLOURS):
        bands[c] = 0
    for c in range(5):
        s.flags_used[c] = 0
    for r in range(t.nterr):
        if s.occ[r] != NOBODY:
            bands[s.occ[r]] += s.bands[r]
        gold += s.gold[r]
        natives += s.natives[r]
        if s.flag[r] != NOBODY and not printed_circle(t, r, s.flag[r]):
            s.flags_used[s.flag[r]] += 1
    for i in range(AM_SHIPS):
        if s.ship_crew[i] != NOBODY:
            bands[s.ship_crew[i]] += s.ship_bands[i]
        gold += s.ship_gold[i]
    for c in range(AM_COLOURS):
        if bands[c] > AM_BANDS:
            raise ValueError(f"bands: {bands[c]} bands of colour {c} in play, 50 at most")
        s.pool[c] = <uint8_t>(AM_BANDS - bands[c])
    for c in range(5):
        if s.flags_used[c] > AM_FLAGS:
            raise ValueError(f"flag: {s.flags_used[c]} flag tokens of colour {c}, 30 at most")
    if gold > AM_GOLD:
        raise ValueError(f"gold: {gold} gold in play, 50 at most")
    if natives > AM_NATIVES:
        raise ValueError(f"natives: {natives} natives in play, 50 at most")
    s.supply_gold = <uint8_t>(AM_GOLD - gold)
    s.supply_natives = <uint8_t>(AM_NATIVES - natives)


cdef _load_cards(AmState* s, const AmTables* t, dict raw):
    """Hands, played and set-aside cards; the pile is the deck less them."""
    cdef int p, k, left
    hands = _seq(raw, "hand", t.num_players)
    played = _seq(raw, "played", AM_KINDS)
    looked = _seq(raw, "looked", AM_KINDS)
    for p in range(t.num_players):
        if type(hands[p]) is not list or len(hands[p]) != AM_KINDS:
            raise ValueError(f"hand[{p}]: a list of {AM_KINDS} counts")
        for k in range(AM_KINDS):
            s.hand[p][k] = <uint8_t>_ranged(hands[p][k], f"hand[{p}][{k}]", 0,
                                            t.deck_total[k])
    for k in range(AM_KINDS):
        s.played[k] = <uint8_t>_ranged(played[k], f"played[{k}]", 0, t.deck_total[k])
        s.looked[k] = <uint8_t>_ranged(looked[k], f"looked[{k}]", 0, t.deck_total[k])
        left = t.deck_total[k] - s.played[k] - s.looked[k]
        for p in range(t.num_players):
            left -= s.hand[p][k]
        if left < 0:
            raise ValueError(f"hand: more cards of kind {k} than the deck's "
                             f"{t.deck_total[k]}")
        if not t.cards and left != t.deck_total[k]:
            raise ValueError("hand: no cards without the card variant (cards=False)")
        s.deck[k] = <uint8_t>left


cdef _load_turn(AmState* s, const AmTables* t, dict raw):
    """Phase, who acts and the pending step's counters."""
    cdef int c, p, k
    s.phase = <uint8_t>_ranged(_get(raw, "phase"), "phase", PH_DEAL, PH_OVER)
    s.current = <uint8_t>_ranged(_get(raw, "current"), "current", 0, t.num_players - 1)
    s.turn_colour = <uint8_t>_ranged(_get(raw, "turn_colour"), "turn_colour", 0, 3)
    s.acting = <uint8_t>_ranged(_get(raw, "acting"), "acting", 0, 3)
    # (the deal comes before any turn: the colours are still the struct's zeros)
    if s.phase != PH_DEAL and not t.in_play[s.turn_colour]:
        raise ValueError(f"turn_colour: colour {s.turn_colour} takes no turns here")
    if s.phase != PH_DEAL and not t.in_play[s.acting]:
        raise ValueError(f"acting: colour {s.acting} takes no turns here")
    # the 10 actions of the budget, and 3 more for each Dopé (Dopé des pirates)
    most = min(255, AM_ACTIONS + 3 * t.deck_total[K_DOPE])
    s.ap = <uint8_t>_ranged(_get(raw, "ap"), "ap", 0, most)
    s.saved_ap = <uint8_t>_ranged(_get(raw, "saved_ap"), "saved_ap", 0, most)
    s.in_coup = _flag_bool(_get(raw, "in_coup"), "in_coup")
    recruited = _seq(raw, "recruited", AM_COLOURS)
    options = _seq(raw, "option", AM_COLOURS)
    for c in range(AM_COLOURS):
        s.recruited[c] = _flag_bool(recruited[c], f"recruited[{c}]")
        s.option[c] = _flag_bool(options[c], f"option[{c}]")
        if (s.recruited[c] or s.option[c]) and not t.in_play[c]:
            raise ValueError(f"option[{c}]: colour {c} takes no turns here")
    window = _seq(raw, "window", 2)
    s.window_next = <uint8_t>_ranged(window[0], "window[0]", 0, t.num_players - 1)
    s.window_left = <uint8_t>_ranged(window[1], "window[1]", 0, t.num_players - 1)
    s.route = <int16_t>_ranged(_get(raw, "route"), "route", -1, t.nroutes - 1)
    s.move_bands = <uint8_t>_ranged(_get(raw, "move_bands"), "move_bands", 0, AM_BANDS)
    roll = _seq(raw, "roll", 2)
    s.roll_d = <uint8_t>_ranged(roll[0], "roll[0]", 0, AM_FACE - 1)
    s.roll_a = <uint8_t>_ranged(roll[1], "roll[1]", 0, AM_FACE - 1)
    s.target_colour = <uint8_t>_colour_or_none(_get(raw, "target_colour"), "target_colour", 1)
    s.explore_t = <uint8_t>_ranged(_get(raw, "explore_t"), "explore_t", 0, t.nterr - 1)
    s.multiplier = <uint8_t>_ranged(_get(raw, "multiplier"), "multiplier", 0, 4)
    s.place_what = <uint8_t>_ranged(_get(raw, "place_what"), "place_what", PL_RECRUIT, PL_SHIP)
    s.place_amount = <uint8_t>_ranged(_get(raw, "place_amount"), "place_amount", 0, 255)
    queue = _seq(raw, "place_queue", AM_COLOURS + 1)
    for k in range(AM_COLOURS + 1):
        s.place_queue[k] = <uint8_t>_ranged(queue[k], f"place_queue[{k}]", 0, AM_BANDS)
    s.place_min = <uint8_t>_ranged(_get(raw, "place_min"), "place_min", 0, 255)
    s.place_first = <uint8_t>_ranged(_get(raw, "place_first"), "place_first", 0, 255)
    if s.place_first != NOBODY and s.place_first >= t.nterr:
        raise ValueError(f"place_first: no territory {s.place_first}")
    s.rolls_left = <uint8_t>_ranged(_get(raw, "rolls_left"), "rolls_left", 0, 2)
    s.draw_reason = <uint8_t>_ranged(_get(raw, "draw_reason"), "draw_reason", DR_DEAL, DR_LOOK)
    s.drawer = <uint8_t>_ranged(_get(raw, "drawer"), "drawer", 0, t.num_players - 1)
    s.last_looked = <uint8_t>_ranged(_get(raw, "last_looked"), "last_looked", 0, AM_KINDS - 1)
    s.setup_index = <uint8_t>_ranged(_get(raw, "setup_index"), "setup_index", 0, 7)
    s.setup_left = <uint8_t>_ranged(_get(raw, "setup_left"), "setup_left", 0, AM_BANDS)
    s.first_ship_city = <uint8_t>_ranged(_get(raw, "first_ship_city"), "first_ship_city",
                                         0, 255)
    if s.first_ship_city != NOBODY and s.first_ship_city > 2:
        raise ValueError("first_ship_city: 0, 1, 2 (a lair city) or 255 (none)")
    winners = _get(raw, "winners")
    if type(winners) is not list:
        raise ValueError("winners: a list of players")
    s.winners = 0
    for p in winners:
        p = _ranged(p, "winners", 0, t.num_players - 1)
        s.winners |= <uint8_t>(1 << p)
    s.end_reason = <uint8_t>_ranged(_get(raw, "end_reason"), "end_reason", END_NONE,
                                    END_ROUND_CAP)
    s.round = <uint16_t>_ranged(_get(raw, "round"), "round", 1, t.max_rounds)
    s.move_count = <uint32_t>_ranged(_get(raw, "move_count"), "move_count", 0, 2 ** 31 - 1)
    s.last_action = <int32_t>_ranged(_get(raw, "last_action"), "last_action", -1,
                                     t.num_actions - 1)


cdef str _phase_problem(const AmState* s, const AmTables* t):
    """The coherence of the phase with the rest ('' if none): what a state reached by
    play always has."""
    cdef int ph = s.phase
    cdef int q
    if (ph == PH_OVER) != (s.end_reason != END_NONE):
        return "end_reason: set exactly when the phase is over"
    if s.winners and s.end_reason != END_VICTORY:
        return "winners: only a victory has winners"
    if s.end_reason == END_VICTORY and not s.winners:
        return "winners: a victory has a winner"
    if not t.cards and (ph == PH_DEAL or ph == PH_DRAW or ph == PH_LOOK or ph == PH_COUP
                        or ph == PH_ATTACK_WINDOW or ph == PH_DEFENCE_WINDOW or s.in_coup):
        return "phase: cards belong to the card variant (cards=False)"
    if s.in_coup and (t.windows == WIN_OFF or s.acting == s.turn_colour):
        return "in_coup: a Coup de main is another colour's, in a window policy"
    if not s.in_coup and s.acting != s.turn_colour:
        return "acting: the turn's colour acts, but in a Coup de main"
    if ph == PH_DEAL or ph == PH_SETUP_SHIP or ph == PH_SETUP_BANDS:
        if s.round != 1 or s.ap or s.in_coup:
            return "phase: the preliminary turn is at round 1, before any action"
    if ph == PH_SETUP_BANDS and s.setup_index >= t.lair_n[s.turn_colour]:
        return "setup_index: past the lair's territories"
    if ph == PH_SETUP_BANDS and s.setup_left > s.pool[s.turn_colour]:
        return "setup: the bands still to place come from the reserve"
    if ph == PH_DEAL and not 1 <= s.setup_left <= 2 * t.num_players:
        return "setup: the deal has 1 to 2 cards a player still to deal"
    if ph == PH_SETUP_SHIP:
        q = 2 * s.turn_colour
        if (s.ship_where[q + 1] != W_BOX
                or (s.first_ship_city == NOBODY) != (s.ship_where[q] == W_BOX)):
            return "setup: the colour's ships still to place are in the box"
    if ph in (PH_BANDS, PH_GOLD, PH_ROLL, PH_ATTACK_WINDOW, PH_DEFENCE_WINDOW) and s.route < 0:
        return "route: a group move or attack is pending"
    if ph == PH_EXPLORE and (t.group[s.explore_t] == G_LAIR or s.explored[s.explore_t]):
        return "explore_t: an unexplored territory of the central group"
    if ph != PH_LOOK and s.last_looked:
        return "last_looked: a card is looked at in the look phase only"
    if ph == PH_LOOK and not s.looked[s.last_looked]:
        return "last_looked: the card looked at is set aside"
    if ph in (PH_BANDS, PH_GOLD) and not move_legal(s, t, s.route, s.acting):
        return "route: the pending move must be one the acting colour can make"
    if ph == PH_GOLD and not 1 <= s.move_bands <= max_bands(s, t):
        return "move_bands: the bands moving stand at the move's start, within its room"
    if ph in (PH_ROLL, PH_ATTACK_WINDOW, PH_DEFENCE_WINDOW):
        if not attack_legal(s, t, s.route, s.acting):
            return "route: the pending attack must be one the acting colour can make"
        if s.target_colour != _target_of(s, t, s.route):
            return "target_colour: the colour of the attacked tokens"
    if ph == PH_SPEARS and (s.rolls_left < 1 or not (s.place_what == PL_CARD_BANDS
                                                     or s.place_what == PL_NATIVES)):
        return "rolls_left: a recruitment or mobilisation card's roll is pending"
    if ph == PH_PLACE:
        if s.place_what == PL_RECRUIT and s.pool[s.acting] == 0:
            return "place_queue: recruited bands come from the reserve"
        if s.place_what == PL_CARD_BANDS and not 1 <= s.place_amount <= s.pool[s.acting]:
            return "place_amount: bands placed come from the reserve"
        if s.place_what == PL_NATIVES and not 1 <= s.place_amount <= s.supply_natives:
            return "place_amount: natives placed come from the supply"
        if s.place_what == PL_GOLD and not 1 <= s.place_amount <= s.supply_gold:
            return "place_amount: gold placed comes from the supply"
        if s.place_what == PL_SHIP and not _ship_in_box(s, t):
            return "place_what: a shipyard needs a ship in the box"
    if ph == PH_COUP or ph == PH_DEFENCE_WINDOW:
        pass
    elif ph in (PH_TURN, PH_BANDS, PH_GOLD, PH_ATTACK_WINDOW, PH_PLACE, PH_LOOK,
                PH_SETUP_SHIP, PH_SETUP_BANDS):
        if s.current != player_of(t, s.acting):
            return "current: the acting colour's player decides"
    if ph == PH_COUP:
        q = s.current
        if q == player_of(t, s.acting) or not could_hold(s, t, q, K_COUP):
            return "current: a Coup de main window is another player's, with a card"
    if ph == PH_DEFENCE_WINDOW and s.current != player_of(t, s.target_colour):
        return "current: the defending player decides"
    return ""


cdef int _target_of(const AmState* s, const AmTables* t, int r) noexcept:
    cdef int b = t.route_to[r]
    if t.route_kind[r] == R_LAND or t.route_kind[r] == R_UNLOAD:
        return FLAG_BROWN if s.natives[b] else s.occ[b]
    return s.ship_crew[s.at_sea[b]]


cdef bint _ship_in_box(const AmState* s, const AmTables* t) noexcept:
    cdef int i
    for i in range(AM_SHIPS):
        if s.ship_where[i] == W_BOX and t.in_play[i // 2]:
            return True
    return False


cdef int _load_position(AmState* s, const AmTables* t, dict raw) except -1:
    cdef int n
    cdef double* probs
    cdef int* buf
    memset(s, 0, sizeof(AmState))
    _load_board(s, t, raw)
    _derive_supplies(s, t)
    _load_cards(s, t, raw)
    _load_turn(s, t, raw)
    _check_derived(s, t, raw)
    problem = _phase_problem(s, t)
    if problem:
        raise ValueError(problem)
    if s.phase != PH_OVER:
        buf = <int*>PyMem_Malloc(sizeof(int) * t.num_actions)
        probs = <double*>PyMem_Malloc(sizeof(double) * t.num_actions)
        if buf == NULL or probs == NULL:
            PyMem_Free(buf)
            PyMem_Free(probs)
            raise MemoryError()
        if am_current_player(s, t) == CHANCE_PLAYER:
            n = am_chance_outcomes(s, t, buf, probs)
        else:
            n = am_legal_actions(s, t, buf)
        PyMem_Free(buf)
        PyMem_Free(probs)
        if n == 0:
            raise ValueError(f"phase: nothing can happen next ({PHASES[s.phase]})")
    return 0


cdef _check_derived(const AmState* s, const AmTables* t, dict raw):
    """The derived fields a position may carry (an export does) must be what the board
    gives; a hand-written position leaves them out."""
    cdef int c, k
    pool = []
    for c in range(AM_COLOURS):
        pool.append(s.pool[c])
    flags = []
    for c in range(5):
        flags.append(s.flags_used[c])
    deck = []
    for k in range(AM_KINDS):
        deck.append(s.deck[k])
    _same(raw, "pool", pool)
    _same(raw, "supply_gold", s.supply_gold)
    _same(raw, "supply_natives", s.supply_natives)
    _same(raw, "flags_used", flags)
    _same(raw, "deck", deck)


cdef _same(dict raw, str name, object value):
    if name in raw and raw[name] != value:
        raise ValueError(f"{name}: {raw[name]!r}, but the board and hands give {value!r}")
