"""Albion rules core: the only implementation of the game's rules.

The rulebook (shared/rules/albion.txt) is cited by its section names; the readings of
its unclear points are numbered A1, A2, ... as under "Rules clarifications" on the docs
page (docs/albion.rst), which also gives the notation.

A turn is a sequence of small atomic decisions, each with at least one legal completion:

* ``resources`` (action B, the whole turn), or action A: ``launch <r>`` for each stage III
  fortress (before any movement), movement steps ``settler a-b``, ``legion a-b``,
  ``carry a-b`` (each costs the shortest number of boundaries crossed), then builds;
* a build: ``build <type> <r>`` or ``develop <r>`` with a settler in ``r`` (or
  ``remove <r>``), the payment ``pay <kinds>``, tribute picks ``tribute <kind>`` by the
  takers, the settler's return, the Pict turned over (chance), the assault's losses
  (``return settler|legion <r>``, ``reduce <r>``) decided by the losers, then the
  building's ability (``take settler|legion``, settlement III's ``develop <r>`` or
  ``skip``);
* ``end``.  A decision with one legal action is a forced step (the contract's
  ``forced``): the engine takes it by default (``auto_forced``), recorded in the history.

Face-down Picts are unknown to everyone and interchangeable, so the state holds counts:
a reveal is a chance node whose odds come from the unrevealed pool (the two Picts left in
the box included).  Nothing else is hidden.
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from boardrules._ext.core cimport (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    field_int,
    hash_bytes,
    popcount64,
)

RESOURCES = ("fish", "wood", "stone", "gold")
TYPES = ("", "settlement", "fortress", "rampart", "plant")
REGION_KINDS = ("launch", "light", "start", "dark", "fish", "wood", "stone", "gold")
PHASES = ("setup", "move", "build", "pay", "tribute", "reveal", "loss", "figure", "free",
          "over")
END_REASONS = ("", "three_settlements", "round_cap")
# "Contents": 84 resources (24 fish, 22 wood, 20 stone, 18 gold)
RESOURCE_TOTALS = (24, 22, 20, 18)
# "Contents": 3 settlements, 3 fortresses, 2 ramparts per colour (index: building type)
BUILDING_CAPS = (0, 3, 3, 2, 4)
# "Preparation": the Picts returned to the box by player count (peace, assault)
PICTS_REMOVED = {2: (7, 2), 3: (3, 2), 4: (0, 0)}
# A bound on the actions of one turn (see _game_length_bound)
cdef int TURN_ACTIONS = 67

cdef int RES_TOTAL_C[AL_RES]
RES_TOTAL_C[:] = RESOURCE_TOTALS
cdef int CAP_C[AL_TYPES]
CAP_C[:] = BUILDING_CAPS
# evaluate(): a settler n turns of walking from a target gets DECAY[n] of its value
# (n = 0: he stands there; well under 1, so that building is worth it)
cdef double EVAL_SCALE = 90.0
cdef double DECAY[256]
for _d in range(256):
    DECAY[_d] = 0.7 * 0.8 ** _d


# ------------------------------------------------------------------ small helpers

cdef inline uint64_t bit(int r) noexcept nogil:
    return (<uint64_t>1) << r


cdef inline int max_stage(int kind) noexcept nogil:
    """"A building begins with stage I and can be developed to stage II, then to III and,
    finally, IV (only settlements)"."""
    return 4 if kind == T_SETTLEMENT else 3


cdef inline int kinds_held(const AlState* s, int p) noexcept nogil:
    """Bit k: player p holds at least one resource of kind k."""
    cdef int k, m = 0
    for k in range(AL_RES):
        if s.res[p][k]:
            m |= 1 << k
    return m


cdef inline int free_settlers(const AlState* s, const AlTables* t, int r, int p) noexcept nogil:
    """Settlers of p in r that may still act this round ("2) Return Settler": one that
    built "may not do further actions in this round"; a new one moves next round)."""
    cdef int n = s.settlers[r][p]
    if r == t.launch:
        n -= s.spent
    return n


cdef inline int figures_on_board(const AlState* s, const AlTables* t, int p,
                                 bint legion) noexcept nogil:
    cdef int r, n = 0
    for r in range(t.nregions):
        n += s.legions[r][p] if legion else s.settlers[r][p]
    return n


cdef inline int seat_distance(const AlTables* t, int from_player, int q) noexcept nogil:
    """Clockwise seats from ``from_player`` to ``q`` (turn order is clockwise)."""
    return (q - from_player + t.num_players) % t.num_players


cdef bint settlement_in_laurel(const AlState* s, const AlTables* t, int p,
                               int min_stage) noexcept nogil:
    cdef int r
    for r in range(t.nregions):
        if (t.laurel[r] and s.btype[r][p] == T_SETTLEMENT
                and s.bstage[r][p] >= min_stage):
            return True
    return False


# ------------------------------------------------------------------ buildings

cdef void new_building(AlState* s, int r, int p, int kind) noexcept nogil:
    s.btype[r][p] = kind
    s.bstage[r][p] = 0
    s.count[p][kind] += 1


cdef void drop_building(AlState* s, int r, int p) noexcept nogil:
    s.count[p][s.btype[r][p]] -= 1
    s.btype[r][p] = T_NONE
    s.bstage[r][p] = 0


cdef void add_stage(AlState* s, int r, int p) noexcept nogil:
    """A stage turned face up: from now on it counts (ramparts' defence, stage IV)."""
    s.bstage[r][p] += 1
    if s.btype[r][p] == T_RAMPART:
        s.rampart_stages[p] += 1
    elif s.btype[r][p] == T_SETTLEMENT and s.bstage[r][p] == 4:
        s.stage4[p] += 1


cdef void lose_stage(AlState* s, int r, int p, bint assault) noexcept nogil:
    """The top stage of p's building in r goes back to his supply, with the loss of what
    it gave ("4) Turn Over Building Token"): a fortress I/II's movement marker, a
    settlement I/II's figure (decided by the owner, queued in ``owe``), a rampart's
    defence.  A settlement III reduced by an ``assault`` also costs another stage II or
    III building (A3, queued in ``owe``); a voluntary removal does not (A9)."""
    cdef int kind = s.btype[r][p]
    cdef int stage = s.bstage[r][p]
    if kind == T_FORTRESS and stage <= 2:
        s.neutral[p] -= 1
        s.neutral_supply += 1
    elif kind == T_SETTLEMENT:
        if stage <= 2:
            s.owe[p][OWE_FIGURE] += 1
        elif assault:
            # "With a subsequent assault, the owner of a reduced stage III settlement
            # must take another stage II or III building token from the board" (A3, A9)
            s.owe[p][OWE_REDUCE] += 1
    elif kind == T_RAMPART:
        s.rampart_stages[p] -= 1
    s.bstage[r][p] = stage - 1
    if stage == 1:
        drop_building(s, r, p)


cdef inline bint can_reduce_other(const AlState* s, int r, int q) noexcept nogil:
    """A3: "another stage II or III building token from the board, but not a
    settlement"."""
    cdef int kind = s.btype[r][q]
    return kind != T_NONE and kind != T_SETTLEMENT and s.bstage[r][q] >= 2


cdef inline bint can_develop_free(const AlState* s, int r, int p) noexcept nogil:
    """"Settlement Stage III": one of his buildings already on the board, not a
    settlement, one stage up."""
    cdef int kind = s.btype[r][p]
    return kind != T_NONE and kind != T_SETTLEMENT and s.bstage[r][p] < 3


cdef void recount(AlState* s, const AlTables* t) noexcept nogil:
    """The derived counts (buildings per type, rampart defence, stage IV settlements)
    from the buildings (after a position is loaded)."""
    cdef int r, p, kind
    memset(s.count, 0, sizeof(s.count))
    memset(s.rampart_stages, 0, sizeof(s.rampart_stages))
    memset(s.stage4, 0, sizeof(s.stage4))
    for r in range(t.nregions):
        for p in range(t.num_players):
            kind = s.btype[r][p]
            if kind == T_NONE:
                continue
            s.count[p][kind] += 1
            if kind == T_RAMPART:
                s.rampart_stages[p] += s.bstage[r][p]
            elif kind == T_SETTLEMENT and s.bstage[r][p] == 4:
                s.stage4[p] += 1


# ------------------------------------------------------------------ turn and round

cdef void finish_game(AlState* s, const AlTables* t, int reason) noexcept nogil:
    """"Game End and Victory": among the players with three stage IV settlements (one in
    a laurel region), the most assault Picts in the regions of their settlements (A13),
    then the most gold, stone, wood and fish; still tied, a shared victory."""
    cdef int p, r, k, best = -1
    cdef int64_t key, best_key = -1
    cdef int64_t keys[AL_MAX_PLAYERS]
    s.phase = PH_OVER
    s.end_reason = reason
    s.winners = 0
    if reason != END_SETTLEMENTS:
        return
    for p in range(t.num_players):
        keys[p] = -1
        if s.stage4[p] < 3 or not settlement_in_laurel(s, t, p, 4):
            continue
        key = 0
        for r in range(t.nregions):
            if s.btype[r][p] == T_SETTLEMENT:
                key += s.face_up[r] + t.printed[r]
        for k in range(AL_RES - 1, -1, -1):      # gold, stone, wood, fish
            key = key * 256 + s.res[p][k]
        keys[p] = key
        if key > best_key:
            best_key = key
    for p in range(t.num_players):
        if keys[p] == best_key and best_key >= 0:
            s.winners |= 1 << p
            best = p
    if best < 0:        # cannot happen: the end was triggered by such a player
        s.end_reason = END_ROUND_CAP


cdef void start_turn(AlState* s, const AlTables* t, int p) noexcept nogil:
    """"A player has exactly as many movement points available as he has movement
    markers in his play area": his own and the neutral ones."""
    s.turn_player = p
    s.current = p
    s.phase = PH_MOVE
    s.points = 1 + s.neutral[p]
    s.started = 0
    s.moved = 0
    s.spent = 0
    s.launched = 0
    s.b_stage = 0


cdef void end_turn(AlState* s, const AlTables* t) noexcept nogil:
    """The next player clockwise; a round ends when the turn comes back to the start
    player ("which he keeps for the remainder of the game").  "As soon as a player has
    developed three stage IV settlements ... the current round is played to the end";
    the library's round cap ends the game as a draw."""
    cdef int nxt = (s.turn_player + 1) % t.num_players
    if nxt == t.first_player:
        if s.end_triggered:
            finish_game(s, t, END_SETTLEMENTS)
            return
        if s.round >= t.max_rounds:
            finish_game(s, t, END_ROUND_CAP)
            return
        s.round += 1
    start_turn(s, t, nxt)


cdef int build_options(const AlState* s, const AlTables* t, int* out, int n) noexcept nogil:
    """"Summary of the Building Rules": a build, development or voluntary removal with a
    settler of the player's own in the region; appended to ``out`` (may be NULL: count)."""
    cdef int p = s.current
    cdef int r, kind, stage, held = kinds_held(s, p)
    cdef int distinct = popcount64(held)
    cdef bint laurel_needed = (s.count[p][T_SETTLEMENT] == 2
                               and not settlement_in_laurel(s, t, p, 0))
    # build (type, r): ids ascend with type, then region
    if distinct:
        for kind in range(T_SETTLEMENT, T_PLANT + 1):
            if s.count[p][kind] >= CAP_C[kind]:
                continue
            for r in range(t.nregions):
                if s.btype[r][p] != T_NONE or free_settlers(s, t, r, p) <= 0:
                    continue
                # "In resource regions only matching resource plants may be built" (A16)
                if (kind == T_PLANT) != (t.kind[r] >= KR_RESOURCE):
                    continue
                if kind == T_SETTLEMENT and laurel_needed and not t.laurel[r]:
                    continue                     # A8
                if out != NULL:
                    out[n] = t.a_build + (kind - 1) * t.nregions + r
                n += 1
    for r in range(t.nregions):                  # develop r
        kind = s.btype[r][p]
        stage = s.bstage[r][p]
        if (kind != T_NONE and stage < max_stage(kind) and distinct >= stage + 1
                and free_settlers(s, t, r, p) > 0):
            if out != NULL:
                out[n] = t.a_develop + r
            n += 1
    for r in range(t.nregions):                  # remove r (A9: never a stage IV)
        kind = s.btype[r][p]
        if (kind != T_NONE and not (kind == T_SETTLEMENT and s.bstage[r][p] == 4)
                and free_settlers(s, t, r, p) > 0):
            if out != NULL:
                out[n] = t.a_remove + r
            n += 1
    return n


cdef int move_options(const AlState* s, const AlTables* t, int* out, int n) noexcept nogil:
    """"Movement Rules" and "Legionnaires": settler, legionnaire and carrying moves whose
    shortest path fits the points left (ids ascend: settler, legion, carry blocks)."""
    cdef int p = s.current
    cdef int a, b, block, base
    if s.points == 0:
        return n
    for block in range(3):
        base = t.a_settler if block == 0 else (t.a_legion if block == 1 else t.a_carry)
        for a in range(t.nregions):
            if block == 0:
                if s.settlers[a][p] == 0:
                    continue
            elif s.legions[a][p] == 0 or (block == 2 and s.face_down[a] == 0):
                continue
            for b in range(t.nregions):
                if b == a or t.dist[a][b] > s.points:
                    continue
                if block == 2 and not t.droppable[b]:
                    continue                     # A6: "not ... to light green or
                #                                  resource regions"
                if out != NULL:
                    out[n] = base + a * t.nregions + b
                n += 1
    return n


cdef int launch_options(const AlState* s, const AlTables* t, int* out, int n) noexcept nogil:
    """"Fortress Stage III": at the beginning of his movement, one settler (from the
    launching region, A7) on each of his stage III fortresses."""
    cdef int p = s.current
    cdef int r
    if s.moved or s.settlers[t.launch][p] == 0:
        return n
    for r in range(t.nregions):
        if (s.btype[r][p] == T_FORTRESS and s.bstage[r][p] == 3
                and not (s.launched >> r) & 1 and r != t.launch):
            if out != NULL:
                out[n] = t.a_launch + r
            n += 1
    return n


cdef void clear_build(AlState* s) noexcept nogil:
    """The build record is zero outside a build, so that a position (which has no
    history) holds all a state holds, byte for byte."""
    s.b_region = 0
    s.b_type = 0
    s.b_stage = 0
    s.b_free = 0
    s.b_lost = 0
    s.b_paid = 0


cdef void back_to_turn(AlState* s, const AlTables* t) noexcept nogil:
    """A build, a removal or a movement step is over: the turn goes on (``end`` alone
    left is a forced step)."""
    s.current = s.turn_player
    clear_build(s)
    if s.phase != PH_MOVE:
        s.phase = PH_BUILD


# ------------------------------------------------------------------ building, step by step

cdef void start_build(AlState* s, const AlTables* t, int r, int kind) noexcept nogil:
    """"1) Pay Resources and Place Building Token Face Down": the stage being built."""
    cdef int p = s.turn_player
    s.started = 1
    s.phase = PH_BUILD
    if s.btype[r][p] == T_NONE:
        new_building(s, r, p, kind)
    s.b_region = r
    s.b_type = s.btype[r][p]
    s.b_stage = s.bstage[r][p] + 1
    s.b_free = 0
    s.b_lost = 0
    s.phase = PH_PAY          # a forced step when only one payment is possible


cdef int payment_options(const AlState* s, const AlTables* t, int* out) noexcept nogil:
    """The ``pay`` actions for the stage being built: as many different resources as its
    stage, all held by the builder (``out`` may be NULL: count only)."""
    cdef int i, n = 0, held = kinds_held(s, s.turn_player)
    for i in range(AL_PAY_SETS):
        if (popcount64(t.pay_mask_of[i]) == s.b_stage
                and (t.pay_mask_of[i] & held) == t.pay_mask_of[i]):
            if out != NULL:
                out[n] = t.a_pay + i
            n += 1
    return n


cdef void pay(AlState* s, const AlTables* t, int mask) noexcept nogil:
    """"A stage I building costs 1 of any resource ... stage IV ... exactly 1 fish, 1
    wood, 1 stone, and 1 gold"; the resources go back to the supply, except tribute."""
    cdef int p = s.turn_player
    cdef int k
    for k in range(AL_RES):
        if (mask >> k) & 1:
            s.res[p][k] -= 1
            s.supply[k] += 1
    s.b_paid = mask
    start_tribute(s, t)


cdef void start_tribute(AlState* s, const AlTables* t) noexcept nogil:
    """"Tribute Payment with the Building": in a tribute region (A1) the other players'
    buildings of a stage at least the one being built (A5) take one paid resource each,
    the highest stage first, equal stages clockwise from the builder."""
    cdef int p = s.turn_player
    cdef int r = s.b_region
    cdef int q, i, j, d, tmp
    memset(s.trib, 0, sizeof(s.trib))
    s.ntrib = 0
    s.itrib = 0
    if t.tribute[r] and not s.b_free:
        for d in range(1, t.num_players):
            q = (p + d) % t.num_players
            if s.btype[r][q] != T_NONE and s.bstage[r][q] >= s.b_stage:
                s.trib[s.ntrib] = q
                s.ntrib += 1
        # stable insertion sort by stage, highest first (clockwise order kept on ties)
        for i in range(1, s.ntrib):
            j = i
            while j > 0 and s.bstage[r][s.trib[j - 1]] < s.bstage[r][s.trib[j]]:
                tmp = s.trib[j]
                s.trib[j] = s.trib[j - 1]
                s.trib[j - 1] = tmp
                j -= 1
    next_tribute(s, t)


cdef void take_tribute(AlState* s, int q, int k) noexcept nogil:
    s.supply[k] -= 1
    s.res[q][k] += 1
    s.b_paid &= ~(1 << k)
    s.itrib += 1


cdef void next_tribute(AlState* s, const AlTables* t) noexcept nogil:
    """Takers in order while paid resources are left ("It is possible that players
    receive no resources ... when none are left"); one kind left is a forced step."""
    if s.itrib < s.ntrib and s.b_paid:
        s.phase = PH_TRIBUTE
        s.current = s.trib[s.itrib]
        return
    s.b_paid = 0
    memset(s.trib, 0, sizeof(s.trib))      # canonical: no takers outside the tribute
    s.ntrib = 0
    s.itrib = 0
    s.current = s.turn_player
    settler_home_and_reveal(s, t)


cdef void settler_home_and_reveal(AlState* s, const AlTables* t) noexcept nogil:
    """"2) Return Settler to the Launching Field" (not for settlement III's extra
    development) and "3) Turn Over a Face-Down Pict" if the region has one."""
    cdef int p = s.turn_player
    cdef int r = s.b_region
    if not s.b_free:
        s.settlers[r][p] -= 1
        s.settlers[t.launch][p] += 1
        s.spent += 1
    if s.face_down[r]:
        s.phase = PH_REVEAL
        s.current = p
    else:
        finish_build(s, t)


cdef void pict_turned(AlState* s, const AlTables* t, bint assault) noexcept nogil:
    """"If a "peace" Pict is turned over ... [it] is returned to the box. If, however, an
    "assault" Pict is turned over, the Pict remains in the region and all Picts in the
    region execute an assault."""
    cdef int r = s.b_region
    s.face_down[r] -= 1
    if not assault:
        s.pool_peace -= 1
        s.box_peace += 1
        finish_build(s, t)
        return
    s.pool_assault -= 1
    s.face_up[r] += 1
    assault_losses(s, t, r)


cdef void assault_losses(AlState* s, const AlTables* t, int r) noexcept nogil:
    """"Defending an Assault": strength = the face-up and printed assault Picts (A12);
    each player with a building in the region defends with his legionnaires there and the
    stages of all his face-up ramparts.  The builder, too weak, loses the face-down token
    (whose stage does not count yet, example 3; a face-down stage IV is not protected,
    A4); any other player too weak loses a stage of his building in the region (A2),
    except a stage IV settlement."""
    cdef int p = s.turn_player
    cdef int strength = s.face_up[r] + t.printed[r]
    cdef int q
    for q in range(t.num_players):
        if s.btype[r][q] == T_NONE:
            continue
        if s.legions[r][q] + s.rampart_stages[q] >= strength:
            continue
        if q == p:
            s.b_lost = 1
            if s.bstage[r][p] == 0:
                drop_building(s, r, p)
        elif not (s.btype[r][q] == T_SETTLEMENT and s.bstage[r][q] == 4):
            lose_stage(s, r, q, True)
    s.loss_from = p
    resolve_losses(s, t)


cdef int reduce_choices(const AlState* s, const AlTables* t, int q, int* out,
                        int n) noexcept nogil:
    cdef int r
    for r in range(t.nregions):
        if can_reduce_other(s, r, q):
            if out != NULL:
                out[n] = t.a_reduce + r
            n += 1
    return n


cdef int figure_choices(const AlState* s, const AlTables* t, int q, int* out,
                        int n) noexcept nogil:
    """"The owner of a reduced settlement selects any of his legionnaires or settlers on
    the board": one choice per kind and region (identical figures give one move)."""
    cdef int r
    for r in range(t.nregions):
        if s.settlers[r][q]:
            if out != NULL:
                out[n] = t.a_return + r
            n += 1
    for r in range(t.nregions):
        if s.legions[r][q]:
            if out != NULL:
                out[n] = t.a_return + t.nregions + r
            n += 1
    return n


cdef void return_figure(AlState* s, const AlTables* t, int q, bint legion,
                        int r) noexcept nogil:
    s.owe[q][OWE_FIGURE] -= 1
    if legion:
        s.legions[r][q] -= 1
        return
    s.settlers[r][q] -= 1
    # from the launching region, the owner returns a settler that has already acted
    # this round if he has one: those left keep their right to act
    if q == s.turn_player and r == t.launch and s.spent:
        s.spent -= 1


cdef void reduce_other(AlState* s, int q, int r) noexcept nogil:
    """A3: the assault's further loss (never a settlement, so it chains no further)."""
    s.owe[q][OWE_REDUCE] -= 1
    lose_stage(s, r, q, True)


cdef void resolve_losses(AlState* s, const AlTables* t) noexcept nogil:
    """Each loser's decisions, clockwise from the builder: a reduced settlement III's
    other building, then a reduced settlement I/II's figure.  Nothing to choose from
    drops the debt; one choice is a forced step."""
    cdef int i, q
    for i in range(t.num_players):
        q = (s.loss_from + i) % t.num_players
        if s.owe[q][OWE_REDUCE] and reduce_choices(s, t, q, NULL, 0) == 0:
            s.owe[q][OWE_REDUCE] = 0
        if s.owe[q][OWE_REDUCE]:
            s.phase = PH_LOSS
            s.current = q
            return
        if s.owe[q][OWE_FIGURE] and figure_choices(s, t, q, NULL, 0) == 0:
            s.owe[q][OWE_FIGURE] = 0
        if s.owe[q][OWE_FIGURE]:
            s.phase = PH_LOSS
            s.current = q
            return
    s.loss_from = 0                        # canonical: only meaningful in PH_LOSS
    s.current = s.turn_player
    if s.b_stage == 0 or s.b_lost:       # a removal, or the token lost in its assault
        back_to_turn(s, t)
    else:
        finish_build(s, t)


cdef void take_figure(AlState* s, const AlTables* t, bint legion) noexcept nogil:
    """"Settlement Stage I and II": a settler into the launching region (it acts next
    round) or a legionnaire into the building's region (its defence counts at once)."""
    cdef int p = s.turn_player
    if legion:
        s.legions[s.b_region][p] += 1
    else:
        s.settlers[t.launch][p] += 1
        s.spent += 1


cdef void finish_build(AlState* s, const AlTables* t) noexcept nogil:
    """"4) Turn Over Building Token and Use Its Abilities"."""
    cdef int p = s.turn_player
    cdef int r = s.b_region
    cdef int r2, settlers_left, legions_left
    add_stage(s, r, p)
    if s.b_type == T_FORTRESS and s.b_stage <= 2:
        # "Fortress Stage I and II": a neutral marker (A10: the supply never runs out)
        s.neutral[p] += 1
        s.neutral_supply -= 1
    elif s.b_type == T_SETTLEMENT and s.b_stage <= 2:
        settlers_left = AL_SETTLERS - figures_on_board(s, t, p, False)
        legions_left = AL_LEGIONS - figures_on_board(s, t, p, True)
        if settlers_left or legions_left:      # one kind left: a forced step
            s.phase = PH_FIGURE
            s.current = p
            return
    elif s.b_type == T_SETTLEMENT and s.b_stage == 3:
        for r2 in range(t.nregions):
            if can_develop_free(s, r2, p):
                s.phase = PH_FREE
                s.current = p
                return
    elif s.b_type == T_SETTLEMENT and s.b_stage == 4:
        if s.stage4[p] >= 3 and settlement_in_laurel(s, t, p, 4):
            s.end_triggered = 1
    back_to_turn(s, t)


cdef void start_free_development(AlState* s, const AlTables* t, int r) noexcept nogil:
    """"Settlement Stage III": no construction costs, no settler needed (settlers there
    stay), but a face-down Pict in the region is turned over as normal."""
    s.b_region = r
    s.b_type = s.btype[r][s.turn_player]
    s.b_stage = s.bstage[r][s.turn_player] + 1
    s.b_free = 1
    s.b_lost = 0
    settler_home_and_reveal(s, t)


cdef void start_removal(AlState* s, const AlTables* t, int r) noexcept nogil:
    """"A player may voluntarily remove building tokens": his settler in the region takes
    all his tokens there (stage by stage, giving back the marker or figure each gave, but
    no assault's further loss for a settlement III: A9) and goes to the launching field;
    no tribute, no Pict."""
    cdef int p = s.turn_player
    s.started = 1
    s.phase = PH_BUILD
    s.settlers[r][p] -= 1
    s.settlers[t.launch][p] += 1
    s.spent += 1
    while s.btype[r][p] != T_NONE:
        lose_stage(s, r, p, False)
    s.b_stage = 0
    s.b_lost = 0
    s.loss_from = p
    resolve_losses(s, t)


cdef inline bint held_by_anyone(const AlState* s, const AlTables* t, int k) noexcept nogil:
    cdef int q
    for q in range(t.num_players):
        if s.res[q][k]:
            return True
    return False


cdef void take_resources(AlState* s, const AlTables* t) noexcept nogil:
    """"B – Take Resources": as many of each kind as his plant of that kind has stages.
    Short supply: every player, the taker included, returns one of that kind if he has
    one, round after round, until the supply is enough."""
    cdef int p = s.turn_player
    cdef int k, q, need, r
    for k in range(AL_RES):
        r = t.resource_region[k]
        need = s.bstage[r][p] if s.btype[r][p] == T_PLANT else 0
        while s.supply[k] < need and held_by_anyone(s, t, k):
            for q in range(t.num_players):
                if s.res[q][k]:
                    s.res[q][k] -= 1
                    s.supply[k] += 1
        if need > s.supply[k]:
            need = s.supply[k]     # (never in play: the supply and hands hold them all)
        s.supply[k] -= need
        s.res[p][k] += need
    end_turn(s, t)


# ------------------------------------------------------------------ the contract

cdef void al_initial_state(void* state, const void* tables) noexcept nogil:
    """"Preparation": Picts by player count, stage I fishery and lumber mill, starting
    resources by seat (3 fish and 1, 2, 3, 4 wood from the start player on), a stage I
    rampart and a settler in the launching region; then the starting fortresses."""
    cdef AlState* s = <AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef int p, k, r, seat
    memset(s, 0, sizeof(AlState))
    for k in range(AL_RES):
        s.supply[k] = RES_TOTAL_C[k]
    for r in range(t.nregions):
        s.face_down[r] = t.initial_picts[r]
    s.pool_peace = AL_PICTS_PEACE - t.removed_peace
    s.pool_assault = AL_PICTS_ASSAULT - t.removed_assault
    s.neutral_supply = AL_NEUTRAL_MARKERS
    for p in range(t.num_players):
        for k in range(RES_FISH, RES_WOOD + 1):
            r = t.resource_region[k]
            new_building(s, r, p, T_PLANT)
            add_stage(s, r, p)
        new_building(s, t.launch, p, T_RAMPART)
        add_stage(s, t.launch, p)
        s.settlers[t.launch][p] = 1
        seat = (p - t.first_player + t.num_players) % t.num_players
        s.res[p][RES_FISH] = 3
        s.res[p][RES_WOOD] = 1 + seat
        s.supply[RES_FISH] -= 3
        s.supply[RES_WOOD] -= 1 + seat
    s.phase = PH_SETUP
    s.current = t.first_player
    s.turn_player = t.first_player
    s.round = 1
    s.last_action = -1


cdef int al_current_player(const void* state, const void* tables) noexcept nogil:
    cdef const AlState* s = <const AlState*>state
    if s.phase == PH_OVER:
        return TERMINAL_PLAYER
    if s.phase == PH_REVEAL:
        return CHANCE_PLAYER
    return s.current


cdef int al_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    cdef const AlState* s = <const AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef int n = 0
    cdef int k, r
    if s.phase == PH_SETUP:
        out[0] = t.a_fortress + min(t.starts[0], t.starts[1])
        out[1] = t.a_fortress + max(t.starts[0], t.starts[1])
        return 2
    if s.phase == PH_MOVE or s.phase == PH_BUILD:
        if s.phase == PH_MOVE and not s.started:
            out[n] = ACT_RESOURCES
            n += 1
        out[n] = ACT_END
        n += 1
        if s.phase == PH_MOVE:
            n = launch_options(s, t, out, n)
            n = move_options(s, t, out, n)
        return build_options(s, t, out, n)
    if s.phase == PH_PAY:
        return payment_options(s, t, out)
    if s.phase == PH_TRIBUTE:
        for k in range(AL_RES):
            if (s.b_paid >> k) & 1:
                out[n] = t.a_tribute + k
                n += 1
        return n
    if s.phase == PH_LOSS:
        if s.owe[s.current][OWE_REDUCE]:
            return reduce_choices(s, t, s.current, out, 0)
        return figure_choices(s, t, s.current, out, 0)
    if s.phase == PH_FIGURE:
        if figures_on_board(s, t, s.turn_player, False) < AL_SETTLERS:
            out[n] = ACT_TAKE_SETTLER
            n += 1
        if figures_on_board(s, t, s.turn_player, True) < AL_LEGIONS:
            out[n] = ACT_TAKE_LEGION
            n += 1
        return n
    if s.phase == PH_FREE:
        out[n] = ACT_SKIP
        n += 1
        for r in range(t.nregions):
            if can_develop_free(s, r, s.turn_player):
                out[n] = t.a_develop + r
                n += 1
        return n
    return 0


cdef int al_chance_outcomes(const void* state, const void* tables, int* out,
                            double* probs) noexcept nogil:
    """The face-down Pict turned over: assault or peace, in proportion to the unrevealed
    Picts (board and box); an empty kind is not an outcome."""
    cdef const AlState* s = <const AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef int n = 0
    cdef double total = s.pool_assault + s.pool_peace
    if s.phase != PH_REVEAL:
        return 0
    if s.pool_assault:
        out[n] = t.a_pict
        probs[n] = s.pool_assault / total
        n += 1
    if s.pool_peace:
        out[n] = t.a_pict + 1
        probs[n] = s.pool_peace / total
        n += 1
    return n


cdef void apply_move(AlState* s, const AlTables* t, int block, int x) noexcept nogil:
    cdef int p = s.turn_player
    cdef int a = x // t.nregions
    cdef int b = x % t.nregions
    s.started = 1
    s.moved = 1
    s.points -= t.dist[a][b]
    if block == 0:
        s.settlers[a][p] -= 1
        s.settlers[b][p] += 1
    else:
        s.legions[a][p] -= 1
        s.legions[b][p] += 1
        if block == 2:
            s.face_down[a] -= 1
            s.face_down[b] += 1
    back_to_turn(s, t)


cdef void al_apply(void* state, const void* tables, int action) noexcept nogil:
    cdef AlState* s = <AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef int p = s.turn_player
    cdef int x
    s.move_count += 1
    s.last_action = action
    if s.phase == PH_SETUP:
        # "each player places one stage I fortress into any of the two dark-green regions
        # without imprinted Picts ... Each player also takes a neutral movement marker"
        x = action - t.a_fortress
        new_building(s, x, s.current, T_FORTRESS)
        add_stage(s, x, s.current)
        s.neutral[s.current] += 1
        s.neutral_supply -= 1
        s.setup_done += 1
        if s.setup_done == t.num_players:
            start_turn(s, t, t.first_player)
        else:
            s.current = (t.first_player + s.setup_done) % t.num_players
        return
    if action == ACT_RESOURCES:
        take_resources(s, t)
    elif action == ACT_END:
        end_turn(s, t)
    elif action == ACT_SKIP:
        back_to_turn(s, t)
    elif action == ACT_TAKE_SETTLER or action == ACT_TAKE_LEGION:
        take_figure(s, t, action == ACT_TAKE_LEGION)
        back_to_turn(s, t)
    elif action < t.a_settler:
        x = action - t.a_launch
        s.settlers[t.launch][p] -= 1
        s.settlers[x][p] += 1
        s.launched |= bit(x)
        s.started = 1
        back_to_turn(s, t)
    elif action < t.a_legion:
        apply_move(s, t, 0, action - t.a_settler)
    elif action < t.a_carry:
        apply_move(s, t, 1, action - t.a_legion)
    elif action < t.a_build:
        apply_move(s, t, 2, action - t.a_carry)
    elif action < t.a_develop:
        x = action - t.a_build
        start_build(s, t, x % t.nregions, 1 + x // t.nregions)
    elif action < t.a_remove:
        x = action - t.a_develop
        if s.phase == PH_FREE:
            start_free_development(s, t, x)
        else:
            start_build(s, t, x, s.btype[x][p])
    elif action < t.a_pay:
        start_removal(s, t, action - t.a_remove)
    elif action < t.a_tribute:
        pay(s, t, t.pay_mask_of[action - t.a_pay])
    elif action < t.a_return:
        take_tribute(s, s.current, action - t.a_tribute)
        next_tribute(s, t)
    elif action < t.a_reduce:
        x = action - t.a_return
        return_figure(s, t, s.current, x >= t.nregions, x % t.nregions)
        resolve_losses(s, t)
    elif action < t.a_pict:
        reduce_other(s, s.current, action - t.a_reduce)
        resolve_losses(s, t)
    else:
        pict_turned(s, t, action == t.a_pict)


cdef bint al_forced(const void* state, const void* tables) noexcept nogil:
    """A forced step: the decision at hand has one legal action (a payment possible one
    way, the last kind of paid resource for a tribute taker, a loser's only candidate,
    the only kind of figure left, ``end`` when nothing else is left).  Everything is
    public, so a forced step shown to all leaks nothing."""
    cdef int buf[11 * AL_MAX_REGIONS + 32]
    return al_legal_actions(state, tables, buf) == 1


cdef void al_returns(const void* state, const void* tables, double* out) noexcept nogil:
    """A14: the winner(s) +1 ("all tied players rejoice in their shared victory"), the
    others -1; a round-cap end is a draw (0 each)."""
    cdef const AlState* s = <const AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef int p
    for p in range(t.num_players):
        if s.phase != PH_OVER or s.winners == 0:
            out[p] = 0.0
        else:
            out[p] = 1.0 if (s.winners >> p) & 1 else -1.0


cdef double stage_value(int kind, int stage, int developed) noexcept nogil:
    """evaluate(): what the ``stage``-th stage of a building is worth -- settlements most
    (stage IV above all), a first plant much, the more so the more settlements stand at
    stage II or more (``developed``: stages III and IV need three and four different
    resources), fortresses (movement) and ramparts (defence) a little."""
    if kind == T_SETTLEMENT:
        return 1.6 + (2.5 if stage == 4 else 0.0)
    if kind == T_PLANT:
        if stage == 1:
            return 2.5 + 1.0 * developed
        return 0.5
    if kind == T_FORTRESS:
        return 0.4 if stage <= 2 else 0.2
    return 0.35


cdef inline double laurel_bonus(const AlState* s, const AlTables* t, int p) noexcept nogil:
    """evaluate(): a first settlement in a laurel region is worth more (one of the three
    must stand there, A8)."""
    return 0.2 if settlement_in_laurel(s, t, p, 0) else 1.5


cdef double best_gain(const AlState* s, const AlTables* t, int p, int r,
                      int distinct, int developed) noexcept nogil:
    """evaluate(): the value of the best next stage p could build in r (a development
    of his building there, or a new settlement or plant), less if he lacks the
    different resources it costs."""
    cdef int kind = s.btype[r][p]
    cdef int stage = s.bstage[r][p]
    cdef double gain
    if kind != T_NONE:
        if stage >= max_stage(kind):
            return 0.0
        gain = stage_value(kind, stage + 1, developed)
        return gain if distinct >= stage + 1 else 0.1 * gain
    if t.kind[r] >= KR_RESOURCE:
        return stage_value(T_PLANT, 1, developed)
    if s.count[p][T_SETTLEMENT] < 3:
        if (s.count[p][T_SETTLEMENT] == 2 and not t.laurel[r]
                and not settlement_in_laurel(s, t, p, 0)):
            return 0.0
        return stage_value(T_SETTLEMENT, 1, developed) + (
            laurel_bonus(s, t, p) if t.laurel[r] else 0.0)
    return 0.0


cdef inline double prospect(const AlTables* t, double gain, int a, int r,
                            int points) noexcept nogil:
    """evaluate(): a settler in a, a target gain in r: less for each turn of walking (at
    his movement points), a little less with the distance, more when he is there."""
    cdef int d = t.dist[a][r]
    return gain * DECAY[(d + points - 1) // points] * (1.0 - 0.01 * d)


cdef inline bint building_pending(const AlState* s) noexcept nogil:
    """A stage is being built (paid for or about to be) and not yet lost."""
    return (s.b_stage > 0 and not s.b_lost
            and (s.phase == PH_PAY or s.phase == PH_TRIBUTE or s.phase == PH_REVEAL
                 or s.phase == PH_LOSS))


cdef double progress(const AlState* s, const AlTables* t, int p) noexcept nogil:
    """evaluate()'s measure of how far p is from three stage IV settlements: the stages
    he has built, the resources in his hand (a few of each kind), and his settlers'
    prospects (the best next stage within reach, discounted by distance)."""
    cdef double v = 0.0
    cdef double best, gain
    cdef double gains[AL_MAX_REGIONS]
    cdef uint64_t taken = 0
    cdef int r, a, i, k, pick, chosen, stage, nsettlers, used = 0
    cdef int distinct = popcount64(kinds_held(s, p))
    cdef int where[AL_SETTLERS * 2]
    cdef int points = 1 + s.neutral[p]
    cdef int developed = 0
    cdef int new_settlements = 3 - s.count[p][T_SETTLEMENT]
    for r in range(t.nregions):
        if s.btype[r][p] == T_SETTLEMENT and s.bstage[r][p] >= 2:
            developed += 1
    for r in range(t.nregions):
        for stage in range(1, s.bstage[r][p] + 1):
            v += stage_value(s.btype[r][p], stage, developed)
        if s.btype[r][p] == T_SETTLEMENT and t.laurel[r]:
            v += 1.5
        v += 0.15 * s.legions[r][p]
    for k in range(AL_RES):
        v += 0.12 * (s.res[p][k] if s.res[p][k] < 4 else 4)
        if s.res[p][k] > 4:
            v += 0.02 * ((s.res[p][k] if s.res[p][k] < 8 else 8) - 4)
    if s.stage4[p] >= 3:
        v += 30.0          # the victory is triggered: the round only has to end
    if building_pending(s) and p == s.turn_player:
        # the stage being built counts nearly in full (an assault may still take it)
        v += 0.9 * stage_value(s.b_type, s.b_stage, developed)
        if s.b_type == T_SETTLEMENT and s.b_stage == 1 and t.laurel[s.b_region]:
            v += 0.9 * laurel_bonus(s, t, p)
        taken |= bit(s.b_region)
    # settlers and targets paired greedily, the best discounted gain first (each target
    # one settler's: one build at a time)
    for r in range(t.nregions):
        gains[r] = best_gain(s, t, p, r, distinct, developed)
    nsettlers = 0
    for a in range(t.nregions):
        for _ in range(s.settlers[a][p]):
            if nsettlers < AL_SETTLERS * 2:      # (an edited test position may hold more)
                where[nsettlers] = a
                nsettlers += 1
    for _ in range(nsettlers):
        best = 0.0
        pick = -1
        chosen = -1
        for i in range(nsettlers):
            if (used >> i) & 1:
                continue
            a = where[i]
            for r in range(t.nregions):
                if (taken >> r) & 1:
                    continue
                gain = prospect(t, gains[r], a, r, points)
                if gain > best:
                    best = gain
                    pick = r
                    chosen = i
        if pick < 0:
            break
        taken |= bit(pick)
        used |= 1 << chosen
        v += best
        if s.btype[pick][p] == T_NONE and t.kind[pick] < KR_RESOURCE:
            new_settlements -= 1         # only so many settlements are left to found
            if new_settlements <= 0:
                for r in range(t.nregions):
                    if s.btype[r][p] == T_NONE and t.kind[r] < KR_RESOURCE:
                        taken |= bit(r)
    return v


cdef void al_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """Heuristic for cut-off search: each player's progress against his best opponent's."""
    cdef const AlState* s = <const AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef double v[AL_MAX_PLAYERS]
    cdef double best
    cdef int p, q
    if s.phase == PH_OVER:
        al_returns(state, tables, out)
        return
    for p in range(t.num_players):
        v[p] = progress(s, t, p)
    for p in range(t.num_players):
        best = -1e9
        for q in range(t.num_players):
            if q != p and v[q] > best:
                best = v[q]
        # linear, not saturating: far ahead of a weak opponent, the next stage must
        # still look better than idling
        out[p] = (v[p] - best) / EVAL_SCALE
        if out[p] > 0.95:
            out[p] = 0.95
        elif out[p] < -0.95:
            out[p] = -0.95


# ------------------------------------------------------------------ informed rollouts
# al_action_values rates each legal action of the player to move so that a playout which
# mostly takes the best one plays like the game: found and develop settlements and
# plants, walk settlers toward the stage they can build next, take resources when a
# settler waits for them, pay with the kinds held in plenty, lose the least.  The
# tiers keep the order of those aims (values only order moves: search reads their
# order and ties, never their size).
cdef double AV_BUILD_MAIN = 20.0     # a settlement or plant stage: the road to victory
cdef double AV_WALK = 10.0           # a settler (or launch) that gets closer to a target
cdef double AV_RESOURCES = 9.0       # resources from his plants, the whole turn
cdef double AV_BUILD_OTHER = 8.0     # a fortress (movement) or rampart (defence) stage
cdef double AV_LEGION = 2.0          # a legionnaire to guard, a Pict carried to a rival
cdef double AV_REMOVE = -5.0         # giving stages back is for rare situations


cdef double av_target_gain(const AlState* s, const AlTables* t, int p, int r,
                           int developed, bint laurel_held, int kinds) noexcept nogil:
    """What a settler of p standing in r could build there next, settlements and plants
    first: a development at full value when ``kinds`` (those he holds or his plants
    yield: "Take resources" brings them) are enough for it, else at a tenth (a missing
    kind's plant is the better target)."""
    cdef int kind = s.btype[r][p]
    cdef int stage = s.bstage[r][p]
    cdef double gain
    if kind != T_NONE:
        if stage >= max_stage(kind):
            return 0.0
        gain = stage_value(kind, stage + 1, developed)
        if kind == T_FORTRESS or kind == T_RAMPART or kinds < stage + 1:
            return 0.1 * gain
        return gain
    if t.kind[r] >= KR_RESOURCE:
        return stage_value(T_PLANT, 1, developed)
    if t.kind[r] == KR_LAUNCH or s.count[p][T_SETTLEMENT] >= 3:
        return 0.0
    if s.count[p][T_SETTLEMENT] == 2 and not laurel_held and not t.laurel[r]:
        return 0.0                               # A8: the third needs a laurel region
    return stage_value(T_SETTLEMENT, 1, developed) + (
        1.5 if t.laurel[r] and not laurel_held else 0.0)


cdef void av_potentials(const AlState* s, const AlTables* t, int p,
                        double* pot) noexcept nogil:
    """pot[a]: the best target gain seen from region a, discounted for each turn of
    walking (at p's movement points) and a little per boundary, like evaluate()'s
    prospects; a settler's step from a to b is worth pot[b] - pot[a]."""
    cdef double gains[AL_MAX_REGIONS]
    cdef int developed = 0, points = 1 + s.neutral[p]
    cdef int a, r, d, k, kinds = kinds_held(s, p)
    cdef bint laurel_held = settlement_in_laurel(s, t, p, 0)
    cdef double v, best
    for r in range(t.nregions):
        if s.btype[r][p] == T_SETTLEMENT and s.bstage[r][p] >= 2:
            developed += 1
    for k in range(AL_RES):
        if s.btype[t.resource_region[k]][p] == T_PLANT:
            kinds |= 1 << k
    kinds = popcount64(kinds)
    for r in range(t.nregions):
        gains[r] = av_target_gain(s, t, p, r, developed, laurel_held, kinds)
    for a in range(t.nregions):
        best = 0.0
        for r in range(t.nregions):
            if gains[r] <= best:
                continue
            d = t.dist[a][r]
            v = gains[r] * DECAY[(d + points - 1) // points] * (1.0 - 0.01 * d)
            if v > best:
                best = v
        pot[a] = best


cdef double av_build(const AlState* s, const AlTables* t, int p, int kind, int r,
                     int stage) noexcept nogil:
    """A build (stage 1) or development of p's ``kind`` in r to ``stage``."""
    cdef int developed = 0, q
    for q in range(t.nregions):
        if s.btype[q][p] == T_SETTLEMENT and s.bstage[q][p] >= 2:
            developed += 1
    if kind == T_SETTLEMENT or kind == T_PLANT:
        if (kind == T_SETTLEMENT and stage == 1 and t.laurel[r]
                and not settlement_in_laurel(s, t, p, 0)):
            return AV_BUILD_MAIN + stage_value(kind, stage, developed) + 1.5
        return AV_BUILD_MAIN + stage_value(kind, stage, developed)
    return AV_BUILD_OTHER + stage_value(kind, stage, developed)


cdef inline int own_stages(const AlState* s, int r, int p) noexcept nogil:
    return s.bstage[r][p] if s.btype[r][p] != T_NONE else 0


cdef int rival_stages(const AlState* s, const AlTables* t, int r, int p) noexcept nogil:
    cdef int q, n = 0
    for q in range(t.num_players):
        if q != p and s.btype[r][q] != T_NONE:
            n += s.bstage[r][q]
    return n


cdef double av_legion(const AlState* s, const AlTables* t, int p, int a, int b,
                      bint carry) noexcept nogil:
    """A legionnaire's step: to guard his buildings where Picts wait (face down or up);
    carrying a face-down Pict away from his buildings and next to a rival's (a raid)."""
    cdef double v
    if carry:
        v = (rival_stages(s, t, b, p) - rival_stages(s, t, a, p)
             + 2 * (own_stages(s, a, p) - own_stages(s, b, p)))
        return AV_LEGION + v if v > 0 else -1.0 + 0.1 * v
    v = (own_stages(s, b, p) * (s.face_down[b] + s.face_up[b] + t.printed[b] > 0)
         - own_stages(s, a, p) * (s.face_down[a] + s.face_up[a] + t.printed[a] > 0))
    return AV_LEGION + v if v > 0 else -1.0 + 0.1 * v


cdef double av_resources(const AlState* s, const AlTables* t, int p) noexcept nogil:
    """"Take resources": worth the turn when his plants yield something, more the more
    kinds it brings that he lacks."""
    cdef int k, r, got, yield_ = 0, new_kinds = 0
    for k in range(AL_RES):
        r = t.resource_region[k]
        got = s.bstage[r][p] if s.btype[r][p] == T_PLANT else 0
        yield_ += got
        if got and not s.res[p][k]:
            new_kinds += 1
    if yield_ == 0:
        return -0.5
    return AV_RESOURCES + 0.1 * yield_ + 0.3 * new_kinds


cdef double av_turn_action(const AlState* s, const AlTables* t, int p, int action,
                           const double* pot) noexcept nogil:
    """A decision of the turn: resources, end, launch, movement, build, removal."""
    cdef int x, a, b, kind, r
    if action == ACT_RESOURCES:
        return av_resources(s, t, p)
    if action == ACT_END:
        return 0.0
    if action < t.a_settler:                     # launch onto a stage III fortress
        x = action - t.a_launch
        return AV_WALK + pot[x] - pot[t.launch]
    if action < t.a_build:                       # settler, legion or carry step
        x = (action - t.a_settler) % (t.nregions * t.nregions)
        a = x // t.nregions
        b = x % t.nregions
        if action < t.a_legion:
            if pot[b] > pot[a]:
                return AV_WALK + pot[b] - pot[a]
            return pot[b] - pot[a] - 0.5
        return av_legion(s, t, p, a, b, action >= t.a_carry)
    if action < t.a_develop:
        x = action - t.a_build
        kind = 1 + x // t.nregions
        return av_build(s, t, p, kind, x % t.nregions, 1)
    if action < t.a_remove:
        r = action - t.a_develop
        return av_build(s, t, p, s.btype[r][p], r, s.bstage[r][p] + 1)
    return AV_REMOVE


cdef double av_payment(const AlState* s, int p, int mask) noexcept nogil:
    """Pay with the kinds held in plenty; a kind paid down to nothing costs the
    different kinds the next stages need."""
    cdef int k
    cdef double v = 0.0
    for k in range(AL_RES):
        if (mask >> k) & 1:
            v += s.res[p][k] - (3.0 if s.res[p][k] == 1 else 0.0)
    return v


cdef double av_loss(const AlState* s, const AlTables* t, int q, int action) noexcept nogil:
    """An assault's loss: the building stage or the figure worth least to him."""
    cdef int x, r
    if action >= t.a_reduce:
        r = action - t.a_reduce
        return -stage_value(s.btype[r][q], s.bstage[r][q], 0)
    x = action - t.a_return
    if x >= t.nregions:                          # a legionnaire: guards, builds nothing
        return -0.5
    return -1.0


cdef void al_action_values(const void* state, const void* tables, const int* acts, int n,
                           double* out) noexcept nogil:
    """The contract's move values (see the comment above and docs/albion.rst, "Search:
    informed rollouts")."""
    cdef const AlState* s = <const AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef int p = s.current
    cdef int i, action, r
    cdef double pot[AL_MAX_REGIONS]
    if s.phase == PH_MOVE or s.phase == PH_BUILD:
        av_potentials(s, t, p, pot)
        for i in range(n):
            out[i] = av_turn_action(s, t, p, acts[i], pot)
        return
    for i in range(n):
        action = acts[i]
        if s.phase == PH_PAY:
            out[i] = av_payment(s, p, t.pay_mask_of[action - t.a_pay])
        elif s.phase == PH_TRIBUTE:          # the kind he has least of (gold first)
            out[i] = -s.res[p][action - t.a_tribute] + 0.1 * (action - t.a_tribute)
        elif s.phase == PH_LOSS:
            out[i] = av_loss(s, t, p, action)
        elif s.phase == PH_FIGURE:           # a settler builds; a legionnaire guards here
            r = s.b_region
            if action == ACT_TAKE_SETTLER:
                out[i] = 1.0
            else:
                out[i] = 1.5 if s.face_down[r] + s.face_up[r] + t.printed[r] else 0.5
        elif s.phase == PH_FREE and action != ACT_SKIP:
            r = action - t.a_develop
            out[i] = 1.0 + stage_value(s.btype[r][p], s.bstage[r][p] + 1, 0)
        else:                                # setup's two fortresses, skip
            out[i] = 0.0


cdef void al_determinize(void* state, const void* tables, int observer,
                         Rng* rng) noexcept nogil:
    """Nothing is hidden: face-down Picts are unknown to everyone, held as counts."""
    return


cdef uint64_t al_hash(const void* state, const void* tables) noexcept nogil:
    cdef const AlState* s = <const AlState*>state
    return hash_bytes(s, <size_t>(<const char*>&s.move_count - <const char*>s))


# ------------------------------------------------------------------ the observation tensor
# Albion hides nothing ("Chance and information" on the docs page: the face-down Picts are
# unknown to everyone and shown as counts), so a player's tensor is the whole view, seats
# relative to him (seat (player + k) % players at index k).  Legend and reference from a
# view: boardrules/games/albion/observation.py; field by field on the docs page,
# "Observation tensor".  R regions, P players:
#
#   region_kind (R, 8)   laurel (R)   printed_assault (R)   face_down (R)   assault (R)
#   building_type (P, 4, R)   building_stage (P, R)   building_face_down (P, R)
#   settlers (P, R)   legions (P, R)
#   resources (P, 4)   movement, settlers_in_supply, legions_in_supply, defence (P each)
#   production (P, 4)   stage4 (P)   start_player (P)
#   supply (4)   neutral_markers (1)   picts (3)   phase (10)   turn_player (P)
#   to_move (P)   round (1)   max_rounds (1)   points_left (1)
#   build_region (R)   build_type (4)   build_stage (1)   build_free (1)
#   build_paid_left (4)   tribute_takers (3, P)   end_triggered (1)   winners (P)
#   end_reason (2)

cdef enum:
    AL_PHASES = 10           # PH_SETUP .. PH_OVER
    AL_MAX_TAKERS = 3        # "Tribute Payment": at most three takers
    AL_CLEAR_CHUNK = 448     # floats zeroed by one memset (1,792 bytes: clear_floats)


cdef int al_observation_size(const AlTables* t) noexcept nogil:
    """Floats of a player's tensor (the legend above): 13 per region (kind, laurel,
    printed, face-down and face-up Picts, the build's region), 8 per seat and region,
    20 per seat (3 of them the tribute takers' rows), 34 more."""
    cdef int n = t.nregions, p = t.num_players
    return (AL_KINDS + 5) * n + 8 * p * n + 20 * p + 34


cdef inline int rel(const AlTables* t, int player, int q) noexcept nogil:
    """Where seat q is listed in player's per-seat fields (his own seat first; no
    division: this runs a few dozen times a tensor)."""
    cdef int k = q - player
    return k + t.num_players if k < 0 else k


cdef void fill_observation_static(AlTables* t) noexcept nogil:
    """The board's part of every tensor, written once: each region's kind (one-hot), its
    laurel wreath and its printed assault Picts (al_observation copies it)."""
    cdef int n = t.nregions, r
    memset(t.obs_static, 0, sizeof(t.obs_static))
    for r in range(n):
        t.obs_static[r * AL_KINDS + t.kind[r]] = 1.0
        t.obs_static[AL_KINDS * n + r] = t.laurel[r]
        t.obs_static[(AL_KINDS + 1) * n + r] = t.printed[r]


cdef float* obs_regions(const AlState* s, const AlTables* t, float* o) noexcept nogil:
    """Per region: the board's part (kind, laurel, printed assault Picts), the face-down
    Picts (a count: "face-down Picts are unknown to everyone") and the face-up assault
    Picts ("Defending an Assault": they stay in the region)."""
    cdef int n = t.nregions
    memcpy(o, t.obs_static, sizeof(float) * AL_STATIC_PER_REGION * n)
    o += AL_STATIC_PER_REGION * n
    counts_of(s.face_down, n, o)
    counts_of(s.face_up, n, o + n)
    return o + 2 * n


cdef inline void counts_of(const uint8_t* counts, int n, float* o) noexcept nogil:
    """o[r] = counts[r] for the n regions, o cleared before: eight regions at a time, and
    most eights are all 0 (a region array has AL_MAX_REGIONS = 40 bytes, a multiple of 8,
    past n all 0)."""
    cdef uint64_t word
    cdef int r, j
    for r in range(0, n, 8):
        memcpy(&word, counts + r, sizeof(uint64_t))
        if word:
            for j in range(r, r + 8 if r + 8 < n else n):
                o[j] = counts[j]


cdef inline bint any_of(const uint8_t* row) noexcept nogil:
    """Whether a per-player row of the state (AL_MAX_PLAYERS = 4 bytes) holds anything,
    read as one word."""
    cdef uint32_t word
    memcpy(&word, row, sizeof(uint32_t))
    return word != 0


cdef float* obs_pieces(const AlState* s, const AlTables* t, int player, float* o,
                       int* settlers_out, int* legions_out) noexcept nogil:
    """Per (seat, region): the building's type (4 planes, one-hot), its stages (the one
    being built counted), whether its top stage is that face-down token ("1) Pay
    Resources: place the new stage face down"), the settlers and the legionnaires.  Also
    counts each player's figures on the board (for obs_players)."""
    cdef int n = t.nregions, np = t.num_players, r, q, k, kind
    cdef int pending_r = s.b_region if building_pending(s) else -1
    cdef int at[AL_MAX_PLAYERS]
    cdef float* types = o
    cdef float* stage = o + 4 * np * n
    cdef float* down = stage + np * n
    cdef float* settlers = down + np * n
    cdef float* legions = settlers + np * n
    for q in range(np):
        at[q] = rel(t, player, q) * n
        settlers_out[q] = 0
        legions_out[q] = 0
    for r in range(n):
        # most regions hold nothing of a kind: one 4-byte row (a byte a player) tells
        if any_of(s.btype[r]):
            for q in range(np):
                kind = s.btype[r][q]
                if kind != T_NONE:
                    types[4 * at[q] + (kind - 1) * n + r] = 1.0
                    stage[at[q] + r] = s.bstage[r][q]
        if any_of(s.settlers[r]):
            for q in range(np):
                settlers[at[q] + r] = s.settlers[r][q]
                settlers_out[q] += s.settlers[r][q]
        if any_of(s.legions[r]):
            for q in range(np):
                legions[at[q] + r] = s.legions[r][q]
                legions_out[q] += s.legions[r][q]
    if pending_r >= 0:
        k = at[s.turn_player] + pending_r
        stage[k] += 1.0
        down[k] = 1.0
    return legions + np * n


cdef float* obs_players(const AlState* s, const AlTables* t, int player, float* o,
                        const int* settlers, const int* legions) noexcept nogil:
    """Per seat, his play area (all of it open): resources, movement markers (his own and
    the neutral ones), settlers and legionnaires in supply, defence (face-up rampart
    stages), production (his plants' stages: "B - Take Resources"), stage IV settlements,
    and the start player."""
    cdef int np = t.num_players, q, k, i, r
    cdef float* res = o
    cdef float* single = o + AL_RES * np          # movement .. legions_in_supply, defence
    cdef float* prod = single + 4 * np
    cdef float* stage4 = prod + AL_RES * np
    cdef float* start = stage4 + np
    for q in range(np):
        i = rel(t, player, q)
        for k in range(AL_RES):
            res[i * AL_RES + k] = s.res[q][k]
            r = t.resource_region[k]
            if s.btype[r][q] == T_PLANT:
                prod[i * AL_RES + k] = s.bstage[r][q]
        single[i] = 1 + s.neutral[q]
        single[np + i] = AL_SETTLERS - settlers[q]
        single[2 * np + i] = AL_LEGIONS - legions[q]
        single[3 * np + i] = s.rampart_stages[q]
        stage4[i] = s.stage4[q]
    start[rel(t, player, t.first_player)] = 1.0
    return start + np


cdef float* obs_turn(const AlState* s, const AlTables* t, int player,
                     float* o) noexcept nogil:
    """The supply, the neutral markers left, the unrevealed Picts (assault, peace: public
    counts, the odds of the next one turned over) and those in the box, the phase, whose
    turn it is, who is to move (all 0 at chance and at the end), the round and the cap,
    the movement points left."""
    cdef int np = t.num_players, k
    cdef int mover = al_current_player(s, t)
    for k in range(AL_RES):
        o[k] = s.supply[k]
    o[4] = s.neutral_supply
    o[5] = s.pool_assault
    o[6] = s.pool_peace
    o[7] = t.removed_peace + t.removed_assault + AL_BOX_UNSEEN + s.box_peace
    o[8 + s.phase] = 1.0
    o += 8 + AL_PHASES
    o[rel(t, player, s.turn_player)] = 1.0
    if mover >= 0:
        o[np + rel(t, player, mover)] = 1.0
    o += 2 * np
    o[0] = s.round
    o[1] = t.max_rounds
    o[2] = s.points if s.phase == PH_MOVE else 0
    return o + 3


cdef float* obs_build(const AlState* s, const AlTables* t, int player,
                      float* o) noexcept nogil:
    """The stage being built, while it is (paid for, shared as tribute, its Pict turned
    over, the losses decided; not once lost): its region, type, stage, settlement III's
    free development, the paid resources still to share and the tribute takers still to
    pick, in the rule's order ("Tribute Payment with the Building")."""
    cdef int n = t.nregions, np = t.num_players, k, i
    cdef float* kind = o + n
    cdef float* rest = kind + 4                  # stage, free, paid_left (4)
    cdef float* takers = rest + 2 + AL_RES
    if building_pending(s):
        o[s.b_region] = 1.0
        kind[s.b_type - 1] = 1.0
        rest[0] = s.b_stage
        rest[1] = s.b_free
        for k in range(AL_RES):
            if (s.b_paid >> k) & 1:
                rest[2 + k] = 1.0
        for i in range(s.itrib, s.ntrib):
            takers[(i - s.itrib) * np + rel(t, player, s.trib[i])] = 1.0
    return takers + AL_MAX_TAKERS * np


cdef float* obs_end(const AlState* s, const AlTables* t, int player,
                    float* o) noexcept nogil:
    """"Game End and Victory": the end triggered (the round is played out), the winners
    once the game is over, and why it ended (three settlements, the round cap)."""
    cdef int np = t.num_players, q
    o[0] = s.end_triggered
    if s.phase == PH_OVER:
        for q in range(np):
            if (s.winners >> q) & 1:
                o[1 + rel(t, player, q)] = 1.0
    if s.end_reason != END_NONE:
        o[1 + np + s.end_reason - 1] = 1.0
    return o + 3 + np


cdef void clear_floats(float* o, int n) noexcept nogil:
    """Zeroes n floats in equal pieces of under 2 KiB: from 2 KiB on glibc's memset turns
    to ``rep stosb`` (its default threshold), slow to start on some processors (AMD's
    among them) for a few KiB like a tensor's.  The pieces' size is not a constant, so
    that the compiler does not inline its own ``rep stos`` either."""
    cdef int pieces = (n + AL_CLEAR_CHUNK - 1) // AL_CLEAR_CHUNK
    cdef int m
    if pieces == 0:
        return
    m = (n + pieces - 1) // pieces
    while n > 0:
        if m > n:
            m = n
        memset(o, 0, sizeof(float) * m)
        o += m
        n -= m


cdef void al_observation(const void* state, const void* tables, int player,
                         float* out) noexcept nogil:
    """What ``player`` sees, which is everything: the fields of the legend above, end to
    end, each written by its helper (every float: the buffer is cleared first)."""
    cdef const AlState* s = <const AlState*>state
    cdef const AlTables* t = <const AlTables*>tables
    cdef float* o = out
    cdef int settlers[AL_MAX_PLAYERS]
    cdef int legions[AL_MAX_PLAYERS]
    cdef int fixed = AL_STATIC_PER_REGION * t.nregions     # copied by obs_regions
    clear_floats(out + fixed, al_observation_size(t) - fixed)
    o = obs_regions(s, t, o)
    o = obs_pieces(s, t, player, o, settlers, legions)
    o = obs_players(s, t, player, o, settlers, legions)
    o = obs_turn(s, t, player, o)
    o = obs_build(s, t, player, o)
    obs_end(s, t, player, o)


# ------------------------------------------------------------------ the Python object

cdef class AlbionCore(CoreGame):
    """The compiled game for one board and one set of options.

    ``kinds`` gives each region's kind (index into REGION_KINDS), ``borders`` the region
    index pairs, ``picts`` each region's face-down Picts at the start (for this player
    count), ``printed`` its printed assault Picts and ``laurel`` its laurel flags.
    """

    def __cinit__(self, int players, list kinds, list borders, list picts, list printed,
                  list laurel, int first_player=0, int max_rounds=100,
                  bint start_region_tribute=False):
        cdef AlTables* t = &self.tables
        cdef int n = len(kinds)
        cdef int k, p, i
        memset(t, 0, sizeof(AlTables))
        if not 2 <= players <= 4:
            raise ValueError("2 to 4 players")
        if not 2 <= n <= AL_MAX_REGIONS:
            raise ValueError(f"2 to {AL_MAX_REGIONS} regions")
        if not 0 <= first_player < players:
            raise ValueError("first_player out of range")
        if not 1 <= max_rounds <= 10000:
            raise ValueError("max_rounds must be 1 to 10000")
        if not (len(picts) == len(printed) == len(laurel) == n):
            raise ValueError("one entry per region")
        t.nregions = n
        t.num_players = players
        t.first_player = first_player
        t.max_rounds = max_rounds
        t.removed_peace, t.removed_assault = PICTS_REMOVED[players]
        self._setup_regions(kinds, picts, printed, laurel, start_region_tribute)
        self._setup_distances(borders)
        i = 0
        for k in range(1, 16):
            t.pay_mask_of[i] = k
            i += 1
        t.a_fortress = ACT_FIXED
        t.a_launch = t.a_fortress + n
        t.a_settler = t.a_launch + n
        t.a_legion = t.a_settler + n * n
        t.a_carry = t.a_legion + n * n
        t.a_build = t.a_carry + n * n
        t.a_develop = t.a_build + 4 * n
        t.a_remove = t.a_develop + n
        t.a_pay = t.a_remove + n
        t.a_tribute = t.a_pay + AL_PAY_SETS
        t.a_return = t.a_tribute + AL_RES
        t.a_reduce = t.a_return + 2 * n
        t.a_pict = t.a_reduce + n
        t.num_actions = t.a_pict + 2

        self.contract.state_size = sizeof(AlState)
        self.contract.num_players = players
        self.contract.num_teams = players
        for p in range(players):
            self.contract.team_of[p] = p
        self.contract.num_distinct_actions = t.num_actions
        # movement: at most 7 sources (4 settler, 3 legion regions) x 2 kinds of legion
        # move, each to every region; builds: 4 types or develop / remove per settler
        # region; plus resources, end and launches
        self.contract.max_legal_actions = 11 * n + 32
        self.contract.max_game_length = self._game_length_bound()
        self.contract.has_hidden_information = False
        self.contract.tables = t
        self.contract.initial_state = al_initial_state
        self.contract.current_player = al_current_player
        self.contract.legal_actions = al_legal_actions
        self.contract.chance_outcomes = al_chance_outcomes
        self.contract.apply = al_apply
        self.contract.returns = al_returns
        self.contract.determinize = al_determinize
        self.contract.evaluate = al_evaluate
        self.contract.hash = al_hash
        self.contract.simultaneous = NULL
        self.contract.forced = al_forced
        self.contract.action_values = al_action_values
        fill_observation_static(t)
        self.contract.observation_size = al_observation_size(t)
        self.contract.observation = al_observation

    cdef _setup_regions(self, list kinds, list picts, list printed, list laurel,
                        bint start_region_tribute):
        cdef AlTables* t = &self.tables
        cdef int r, k, starts = 0, launches = 0
        cdef int resources[AL_RES]
        for k in range(AL_RES):
            resources[k] = 0
        for r in range(t.nregions):
            k = kinds[r]
            if not 0 <= k < len(REGION_KINDS):
                raise ValueError("region kind out of range")
            t.kind[r] = k
            if k == KR_LAUNCH:
                t.launch = r
                launches += 1
            elif k == KR_START:
                if starts < 2:
                    t.starts[starts] = r
                starts += 1
            elif k >= KR_RESOURCE:
                t.resource_region[k - KR_RESOURCE] = r
                resources[k - KR_RESOURCE] += 1
            # "Tribute must be paid only in the dark-green regions.  Those are the
            # regions with Picts at the beginning of the game": not the two starting
            # regions, which have none (A1; start_region_tribute, a house reading, adds
            # them); "not paid in the two light green and the four resource regions"
            t.tribute[r] = k == KR_DARK or (k == KR_START and start_region_tribute)
            t.droppable[r] = k == KR_DARK or k == KR_START
            if not 0 <= picts[r] <= 40 or not 0 <= printed[r] <= 40:
                raise ValueError("Pict counts out of range")
            if (picts[r] or printed[r]) and k != KR_DARK:
                raise ValueError("only dark-green regions have Picts")
            t.initial_picts[r] = picts[r]
            t.printed[r] = printed[r]
            t.laurel[r] = bool(laurel[r])
            if t.laurel[r]:
                t.laurel_mask |= bit(r)
        if launches != 1 or starts != 2 or any(resources[k] != 1 for k in range(AL_RES)):
            raise ValueError("one launching region, two start regions, one region of "
                             "each resource")
        if sum(picts) + AL_BOX_UNSEEN != (
                AL_PICTS_PEACE + AL_PICTS_ASSAULT - t.removed_peace - t.removed_assault):
            raise ValueError("the regions' Picts and the 2 in the box are all the Picts "
                             "in play")

    cdef _setup_distances(self, list borders):
        """Boundaries crossed on the shortest way between two regions (no sea crossing:
        only the board's borders join regions)."""
        cdef AlTables* t = &self.tables
        cdef int n = t.nregions
        cdef int a, b, c
        cdef int INF = 255
        for a in range(n):
            for b in range(n):
                t.dist[a][b] = 0 if a == b else INF
        for a, b in borders:
            if not (0 <= a < n and 0 <= b < n) or a == b:
                raise ValueError("bad border")
            t.dist[a][b] = 1
            t.dist[b][a] = 1
        for c in range(n):
            for a in range(n):
                for b in range(n):
                    if t.dist[a][c] + t.dist[c][b] < t.dist[a][b]:
                        t.dist[a][b] = t.dist[a][c] + t.dist[c][b]
        for a in range(n):
            for b in range(n):
                if t.dist[a][b] == INF:
                    raise ValueError("every region must be reachable from every other")

    cdef int _game_length_bound(self):
        """A true bound on the actions of a game.  Setup: one action a player.  A turn:
        ``resources`` alone, or at most 3 launches, 7 movement steps (each costs at
        least one of at most 7 points: the own marker and 6 neutral ones), and one build
        or removal per settler on the board at the turn's start (4; new settlers act next
        round), then ``end``.  A build is at most 14 actions: build, pay, 3 tribute picks,
        the Pict, 3 losers' decisions (an assault costs each loser one stage, so one
        decision), then the figure or the settlement III development with its own Pict
        and 3 decisions; a removal at most 3 (the removal and two figures: A9).
        3 + 7 + 4 x 14 + 1 = 67."""
        cdef AlTables* t = &self.tables
        return t.num_players + t.max_rounds * t.num_players * TURN_ACTIONS

    @property
    def layout(self):
        """Action-id offsets of each block (see the action layout in the .pxd)."""
        t = &self.tables
        return {
            "resources": ACT_RESOURCES, "end": ACT_END, "skip": ACT_SKIP,
            "take_settler": ACT_TAKE_SETTLER, "take_legion": ACT_TAKE_LEGION,
            "fortress": t.a_fortress, "launch": t.a_launch, "settler": t.a_settler,
            "legion": t.a_legion, "carry": t.a_carry, "build": t.a_build,
            "develop": t.a_develop, "remove": t.a_remove, "pay": t.a_pay,
            "tribute": t.a_tribute, "return": t.a_return, "reduce": t.a_reduce,
            "pict": t.a_pict, "end_of_actions": t.num_actions,
        }

    @property
    def pay_masks(self):
        """The resources (bit k: kind k) each ``pay`` action pays, in id order."""
        return [self.tables.pay_mask_of[i] for i in range(AL_PAY_SETS)]

    @property
    def distances(self):
        n = self.tables.nregions
        return [[self.tables.dist[a][b] for b in range(n)] for a in range(n)]

    @property
    def tribute_regions(self):
        return [bool(self.tables.tribute[r]) for r in range(self.tables.nregions)]

    def export(self, CoreState st):
        """The whole truth of a state as plain Python values (for views, JSON, SVG)."""
        self._check(st)
        cdef AlState* s = <AlState*>st.data
        cdef AlTables* t = &self.tables
        n = t.nregions
        players = t.num_players
        return {
            "btype": [[s.btype[r][p] for p in range(players)] for r in range(n)],
            "bstage": [[s.bstage[r][p] for p in range(players)] for r in range(n)],
            "settlers": [[s.settlers[r][p] for p in range(players)] for r in range(n)],
            "legions": [[s.legions[r][p] for p in range(players)] for r in range(n)],
            "face_down": [s.face_down[r] for r in range(n)],
            "face_up": [s.face_up[r] for r in range(n)],
            "res": [[s.res[p][k] for k in range(AL_RES)] for p in range(players)],
            "supply": [s.supply[k] for k in range(AL_RES)],
            "neutral": [s.neutral[p] for p in range(players)],
            "neutral_supply": s.neutral_supply,
            "pool_assault": s.pool_assault,
            "pool_peace": s.pool_peace,
            "box_peace": s.box_peace,
            "owe": [[s.owe[p][0], s.owe[p][1]] for p in range(players)],
            "phase": s.phase,
            "current": s.current,
            "turn_player": s.turn_player,
            "setup_done": s.setup_done,
            "started": bool(s.started),
            "moved": bool(s.moved),
            "points": s.points,
            "spent": s.spent,
            "launched": [r for r in range(n) if (s.launched >> r) & 1],
            "building": bool(building_pending(s)),
            "b_region": s.b_region,
            "b_type": s.b_type,
            "b_stage": s.b_stage,
            "b_free": bool(s.b_free),
            "b_lost": bool(s.b_lost),
            "b_paid": s.b_paid,
            "tribute_done": [s.trib[i] for i in range(s.itrib)],
            "tribute_takers": [s.trib[i] for i in range(s.itrib, s.ntrib)],
            "end_triggered": bool(s.end_triggered),
            "winners": [p for p in range(players) if (s.winners >> p) & 1],
            "end_reason": s.end_reason,
            "round": s.round,
            "count": [[s.count[p][k] for k in range(AL_TYPES)] for p in range(players)],
            "rampart_stages": [s.rampart_stages[p] for p in range(players)],
            "stage4": [s.stage4[p] for p in range(players)],
            "last_action": s.last_action,
            "move_count": s.move_count,
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (see CoreGame.load): every field's type
        and range, the contents' limits the move lists rely on (4 settlers, 3 legionnaires,
        6 neutral markers a colour), the buildings' types and stages, and the phase's
        coherence (who decides, the build record, the pending tribute and losses, a decision
        with at least one legal action).  The conservation of resources, Picts and markers
        is checked by the facade's invariants.  The derived counts are computed again.
        ``ValueError`` (``TypeError`` for a wrong type) ``"<field>: <why>"``; ``st`` is only
        written at the end."""
        self._check(st)
        cdef AlState tmp
        cdef AlTables* t = &self.tables
        cdef int n = t.nregions
        cdef int players = t.num_players
        cdef int r, p, k, i
        cdef int choices[2 * AL_MAX_REGIONS]
        memset(&tmp, 0, sizeof(AlState))
        btype = _grid(raw, "btype", n, players, 0, T_PLANT)
        bstage = _grid(raw, "bstage", n, players, 0, 4)
        settlers = _grid(raw, "settlers", n, players, 0, AL_SETTLERS)
        legions = _grid(raw, "legions", n, players, 0, AL_LEGIONS)
        face_down = _row(raw, "face_down", n, 0, 40)
        face_up = _row(raw, "face_up", n, 0, 40)
        res = _grid(raw, "res", players, AL_RES, 0, 84)
        supply = _row(raw, "supply", AL_RES, 0, 84)
        neutral = _row(raw, "neutral", players, 0, 6)
        owe = _grid(raw, "owe", players, 2, 0, 8)
        for r in range(n):
            for p in range(players):
                tmp.btype[r][p] = btype[r][p]
                tmp.bstage[r][p] = bstage[r][p]
                tmp.settlers[r][p] = settlers[r][p]
                tmp.legions[r][p] = legions[r][p]
            tmp.face_down[r] = face_down[r]
            tmp.face_up[r] = face_up[r]
        for p in range(players):
            for k in range(AL_RES):
                tmp.res[p][k] = res[p][k]
            tmp.neutral[p] = neutral[p]
            tmp.owe[p][0] = owe[p][0]
            tmp.owe[p][1] = owe[p][1]
        for k in range(AL_RES):
            tmp.supply[k] = supply[k]
        tmp.neutral_supply = _field_int(raw, "neutral_supply", 0, AL_NEUTRAL_MARKERS)
        tmp.pool_assault = _field_int(raw, "pool_assault", 0, AL_PICTS_ASSAULT)
        tmp.pool_peace = _field_int(raw, "pool_peace", 0, AL_PICTS_PEACE)
        tmp.box_peace = _field_int(raw, "box_peace", 0, AL_PICTS_PEACE)
        tmp.phase = _field_int(raw, "phase", 0, PH_OVER)
        tmp.current = _field_int(raw, "current", 0, players - 1)
        tmp.turn_player = _field_int(raw, "turn_player", 0, players - 1)
        tmp.setup_done = _field_int(raw, "setup_done", 0, players)
        tmp.started = _field_bool(raw, "started")
        tmp.moved = _field_bool(raw, "moved")
        tmp.points = _field_int(raw, "points", 0, 7)
        tmp.spent = _field_int(raw, "spent", 0, AL_SETTLERS)
        launched = raw.get("launched")
        if type(launched) is not list:
            raise TypeError("launched: a list of region indices")
        for i, r in enumerate(launched):
            r = field_int(r, f"launched[{i}]", 0, n - 1)
            if tmp.launched >> r:  # r or a higher region already there: not ascending
                raise ValueError(f"launched[{i}]: distinct region indices, ascending")
            tmp.launched |= bit(r)
        tmp.b_region = _field_int(raw, "b_region", 0, n - 1)
        tmp.b_type = _field_int(raw, "b_type", 0, T_PLANT)
        tmp.b_stage = _field_int(raw, "b_stage", 0, 4)
        tmp.b_free = _field_bool(raw, "b_free")
        tmp.b_lost = _field_bool(raw, "b_lost")
        tmp.b_paid = _field_int(raw, "b_paid", 0, 15)
        done = _row(raw, "tribute_done", len(raw.get("tribute_done") or ()), 0, players - 1)
        takers = _row(raw, "tribute_takers", len(raw.get("tribute_takers") or ()), 0,
                      players - 1)
        if len(done) + len(takers) > players - 1:
            raise ValueError("tribute_takers: at most one a player besides the builder")
        for i, p in enumerate(done + takers):
            tmp.trib[i] = p
        tmp.ntrib = len(done) + len(takers)
        tmp.itrib = len(done)
        tmp.end_triggered = _field_bool(raw, "end_triggered")
        winners = raw.get("winners")
        if type(winners) is not list:
            raise TypeError("winners: a list of players")
        for i, p in enumerate(winners):
            p = field_int(p, f"winners[{i}]", 0, players - 1)
            if (tmp.winners >> p) & 1:
                raise ValueError(f"winners[{i}]: distinct players")
            tmp.winners |= 1 << p
        tmp.end_reason = _field_int(raw, "end_reason", 0, END_ROUND_CAP)
        tmp.round = _field_int(raw, "round", 1, t.max_rounds)
        tmp.move_count = _field_int(raw, "move_count", 0, 0xFFFFFFFF)
        tmp.last_action = _field_int(raw, "last_action", -1, t.num_actions - 1)
        recount(&tmp, t)
        tmp.loss_from = tmp.turn_player if tmp.phase == PH_LOSS else 0
        self._check_pieces(&tmp)
        self._check_phase(&tmp, choices)
        st._replace_data(&tmp)

    cdef _check_pieces(self, AlState* s):
        """The buildings (type, stage, where) and the contents' limits."""
        cdef AlTables* t = &self.tables
        cdef int r, p, kind
        for p in range(t.num_players):
            if figures_on_board(s, t, p, False) > AL_SETTLERS:
                raise ValueError(f"settlers: player {p} has 4 settlers (Contents)")
            if figures_on_board(s, t, p, True) > AL_LEGIONS:
                raise ValueError(f"legions: player {p} has 3 legionnaires (Contents)")
            for kind in range(T_SETTLEMENT, T_PLANT + 1):
                if s.count[p][kind] > CAP_C[kind]:
                    raise ValueError(f"btype: player {p} has {CAP_C[kind]} "
                                     f"{TYPES[kind]} tokens (Contents)")
        for r in range(t.nregions):
            for p in range(t.num_players):
                kind = s.btype[r][p]
                where = f"btype[{r}][{p}]"
                if kind == T_NONE:
                    if s.bstage[r][p]:
                        raise ValueError(f"bstage[{r}][{p}]: a stage without a building")
                    continue
                if (kind == T_PLANT) != (t.kind[r] >= KR_RESOURCE):
                    raise ValueError(f"{where}: plants stand in resource regions, and "
                                     "only there (A16)")
                if s.bstage[r][p] > max_stage(kind):
                    raise ValueError(f"bstage[{r}][{p}]: settlements go up to IV, the "
                                     "others to III")
                if s.bstage[r][p] == 0 and not (
                        building_pending(s) and r == s.b_region and p == s.turn_player
                        and s.b_stage == 1):
                    raise ValueError(f"bstage[{r}][{p}]: a building without a face-up "
                                     "stage is only the one being built")
        if s.spent > s.settlers[t.launch][s.turn_player]:
            raise ValueError("spent: more spent settlers than in the launching region")

    cdef _check_phase(self, AlState* s, int* choices):
        """Who decides and what is pending fit the phase (so that play goes on from here
        as the rules would)."""
        cdef AlTables* t = &self.tables
        cdef int ph = s.phase, p, q, i, tp = s.turn_player
        if (ph == PH_SETUP) != (s.setup_done < t.num_players):
            raise ValueError("setup_done: the setup lasts until every starting fortress is "
                             "placed")
        if ph == PH_SETUP:
            if (s.turn_player != t.first_player
                    or s.current != (t.first_player + s.setup_done) % t.num_players):
                raise ValueError("current: the starting fortresses are placed in turn "
                                 "order from the start player")
        elif ph != PH_TRIBUTE and ph != PH_LOSS and s.current != tp:
            raise ValueError("current: the turn's player decides in this phase")
        if s.moved and not s.started:
            raise ValueError("moved: a movement step starts the turn's action A")
        if (ph == PH_OVER) != (s.end_reason != END_NONE):
            raise ValueError("end_reason: given exactly when the game is over")
        if s.winners and (ph != PH_OVER or s.end_reason != END_SETTLEMENTS):
            raise ValueError("winners: only at the end by three settlements")
        if ph == PH_OVER and s.end_reason == END_SETTLEMENTS and not s.winners:
            raise ValueError("winners: an end by three settlements has a winner")
        for p in range(t.num_players):
            if (s.owe[p][0] or s.owe[p][1]) and ph != PH_LOSS:
                raise ValueError(f"owe[{p}]: losses are owed only in the loss phase")
        if ph != PH_TRIBUTE and (s.ntrib or s.b_paid):
            raise ValueError("tribute_takers: a tribute is only pending in its phase")
        if ph in (PH_PAY, PH_TRIBUTE, PH_REVEAL, PH_FIGURE, PH_FREE) or (
                ph == PH_LOSS and s.b_stage):
            self._check_build(s)
        elif s.b_region or s.b_type or s.b_stage or s.b_free or s.b_lost:
            raise ValueError("b_stage: no build is in progress in this phase")
        if ph == PH_PAY and payment_options(s, t, NULL) == 0:
            raise ValueError("b_stage: the builder cannot pay the stage")
        if ph == PH_TRIBUTE:
            if s.itrib >= s.ntrib or s.b_paid == 0 or s.b_free:
                raise ValueError("tribute_takers: a taker picks one of the paid "
                                 "resources")
            for i in range(s.ntrib):
                q = s.trib[i]
                if q == tp or any(s.trib[j] == q for j in range(i)):
                    raise ValueError("tribute_takers: other players, once each")
            if s.current != s.trib[s.itrib]:
                raise ValueError("current: the next tribute taker picks")
        if ph == PH_REVEAL and (s.face_down[s.b_region] == 0
                                or s.pool_assault + s.pool_peace == 0):
            raise ValueError("face_down: a face-down Pict is turned over in the build's "
                             "region")
        if ph == PH_LOSS:
            for i in range(t.num_players):
                q = (tp + i) % t.num_players
                if q == s.current:
                    break
                if s.owe[q][0] or s.owe[q][1]:
                    raise ValueError(f"owe[{q}]: the losers decide clockwise from the "
                                     "builder")
            q = s.current
            if s.owe[q][OWE_REDUCE]:
                i = reduce_choices(s, t, q, choices, 0)
            elif s.owe[q][OWE_FIGURE]:
                i = figure_choices(s, t, q, choices, 0)
            else:
                raise ValueError(f"owe[{q}]: the deciding player owes a loss")
            if i == 0:
                raise ValueError(f"owe[{q}]: nothing to lose is left")
        if ph == PH_FIGURE and not (
                s.b_type == T_SETTLEMENT and s.b_stage <= 2
                and (figures_on_board(s, t, tp, False) < AL_SETTLERS
                     or figures_on_board(s, t, tp, True) < AL_LEGIONS)):
            raise ValueError("phase: a figure is taken after a settlement I or II, from "
                             "the figures in the supply")
        if ph == PH_FREE:
            if not (s.b_type == T_SETTLEMENT and s.b_stage == 3):
                raise ValueError("phase: the free development follows a settlement III")
            if not any(can_develop_free(s, r, tp) for r in range(t.nregions)):
                raise ValueError("phase: no building to develop for free")

    cdef _check_build(self, AlState* s):
        """The build record: a stage of the turn player's building in its region."""
        cdef int r = s.b_region, tp = s.turn_player
        if s.b_type == T_NONE or not 1 <= s.b_stage <= max_stage(s.b_type):
            raise ValueError("b_stage: a stage of a building type")
        if s.b_lost:
            if s.phase != PH_LOSS:
                raise ValueError("b_lost: a lost token only leaves losses to decide")
            return
        if s.btype[r][tp] != s.b_type or s.bstage[r][tp] + 1 != s.b_stage:
            if not (s.phase in (PH_FIGURE, PH_FREE) and s.btype[r][tp] == s.b_type
                    and s.bstage[r][tp] == s.b_stage):
                raise ValueError("b_stage: the build is the next stage of the turn "
                                 "player's building in b_region")
        if s.b_free and s.phase not in (PH_REVEAL, PH_LOSS):
            raise ValueError("b_free: the free development is built in one step")

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal).  Legality is the move generator's own answer;
        the key only explains it."""
        cdef int action
        key = self._known_legal(st, action_id, &action)
        if key is not None:
            return key
        return _illegal_reason(<AlState*>st.data, &self.tables, action)


cdef object _field_int(dict raw, str field, object lo, object hi):
    if field not in raw:
        raise KeyError(f"{field}: missing")
    return field_int(raw[field], field, lo, hi)


cdef bint _field_bool(dict raw, str field) except -1:
    if field not in raw:
        raise KeyError(f"{field}: missing")
    if type(raw[field]) is not bool:
        raise TypeError(f"{field}: a bool")
    return raw[field]


cdef list _row(dict raw, str field, int length, int lo, int hi):
    """raw[field]: a list of ``length`` ints in lo..hi."""
    if field not in raw:
        raise KeyError(f"{field}: missing")
    return _ints(raw[field], field, length, lo, hi)


cdef list _ints(object value, str field, int length, int lo, int hi):
    if type(value) is not list or len(value) != length:
        raise TypeError(f"{field}: a list of {length} ints")
    out = []
    for i, v in enumerate(value):
        out.append(field_int(v, f"{field}[{i}]", lo, hi))
    return out


cdef list _grid(dict raw, str field, int rows, int cols, int lo, int hi):
    """raw[field]: ``rows`` lists of ``cols`` ints in lo..hi."""
    if field not in raw:
        raise KeyError(f"{field}: missing")
    value = raw[field]
    if type(value) is not list or len(value) != rows:
        raise TypeError(f"{field}: a list of {rows} rows")
    return [_ints(row, f"{field}[{i}]", cols, lo, hi) for i, row in enumerate(value)]


cdef str _block_of(const AlTables* t, int action):
    if action < ACT_FIXED:
        return ("resources", "end", "skip", "take", "take")[action]
    for name, start in (("pict", t.a_pict), ("reduce", t.a_reduce),
                        ("return", t.a_return), ("tribute", t.a_tribute),
                        ("pay", t.a_pay), ("remove", t.a_remove),
                        ("develop", t.a_develop), ("build", t.a_build),
                        ("carry", t.a_carry), ("legion", t.a_legion),
                        ("settler", t.a_settler), ("launch", t.a_launch),
                        ("fortress", t.a_fortress)):
        if action >= start:
            return name
    return "unknown"


cdef str _illegal_reason(const AlState* s, const AlTables* t, int action):
    """Names the rule an illegal action breaks (only for explanations)."""
    block = _block_of(t, action)
    if s.phase == PH_OVER:
        return "game_over"
    if s.phase == PH_REVEAL:
        return "pict_pool_empty" if block == "pict" else "chance_expected"
    if block == "pict":
        return "not_chance"
    if s.phase == PH_SETUP:
        return "setup_fortress"
    if block == "fortress":
        return "setup_over"
    pending = {PH_PAY: "pay_pending", PH_TRIBUTE: "tribute_pending",
               PH_LOSS: "loss_pending", PH_FIGURE: "figure_pending",
               PH_FREE: "free_pending"}
    if s.phase in pending:
        expected = {PH_PAY: ("pay",), PH_TRIBUTE: ("tribute",),
                    PH_LOSS: ("return", "reduce"), PH_FIGURE: ("take",),
                    PH_FREE: ("develop", "skip")}[s.phase]
        if block not in expected:
            return pending[s.phase]
        if s.phase == PH_LOSS and (block == "reduce") != bool(s.owe[s.current][OWE_REDUCE]):
            return "loss_pending"      # the other debt is settled first
        return {"pay": "payment_not_allowed", "tribute": "tribute_not_paid",
                "return": "no_figure_there", "reduce": "reduce_not_allowed",
                "take": "figure_not_available",
                "develop": "free_development_not_allowed",
                "skip": "free_pending"}[block]
    if block in ("pay", "tribute", "return", "reduce", "take", "skip"):
        return "nothing_pending"
    if block == "resources":
        return "resources_not_now"
    if block == "launch":
        return "launch_not_allowed"
    if block in ("settler", "legion", "carry"):
        if s.phase == PH_BUILD:
            return "movement_over"
        x = action - {"settler": t.a_settler, "legion": t.a_legion,
                      "carry": t.a_carry}[block]
        a, b = x // t.nregions, x % t.nregions
        if block == "settler" and s.settlers[a][s.current] == 0:
            return "no_settler_there"
        if block != "settler" and s.legions[a][s.current] == 0:
            return "no_legion_there"
        if block == "carry" and s.face_down[a] == 0:
            return "no_pict_to_carry"
        if block == "carry" and not t.droppable[b]:
            return "pict_drop_forbidden"
        if a == b:
            return "move_nowhere"
        return "not_enough_points"
    if block == "build":
        x = action - t.a_build
        r, kind = x % t.nregions, 1 + x // t.nregions
        return _build_reason(s, t, r, kind)
    if block in ("develop", "remove"):
        r = action - (t.a_develop if block == "develop" else t.a_remove)
        if free_settlers(s, t, r, s.current) <= 0:
            return "no_free_settler"
        if s.btype[r][s.current] == T_NONE:
            return "no_building_there"
        if block == "remove":
            return "stage_four_permanent"
        if s.bstage[r][s.current] >= max_stage(s.btype[r][s.current]):
            return "fully_developed"
        return "cannot_pay"
    return "move_not_now"


cdef str _build_reason(const AlState* s, const AlTables* t, int r, int kind):
    cdef int p = s.current
    if free_settlers(s, t, r, p) <= 0:
        return "no_free_settler"
    if s.btype[r][p] != T_NONE:
        return "one_building_per_region"
    if (kind == T_PLANT) != (t.kind[r] >= KR_RESOURCE):
        return "wrong_region_for_building"
    if s.count[p][kind] >= CAP_C[kind]:
        return "no_token_left"
    if kinds_held(s, p) == 0:
        return "cannot_pay"
    return "laurel_required"
