"""Armadora rules core: the only implementation of the game's rules.

Rule text: the Chinese rules sheet of Armadora (the authority), summarised in English,
section by section, on the documentation page ``docs/armadora.rst``.  Comments cite the
sheet by its section number and the English name of the section: 一 1 components, 二 2
setup, 三 3 play (warriors, palisades), 四 4 end of the game, 五 5 scoring, 六 6 four
players, 七 7 advanced rules (七/(二)2 race powers, 七/(二)3 reinforcement); "rule
三/限制條件" is the restriction paragraph of rule 3, palisades.
Board geometry arrives as tables built from a board data file; nothing here knows the
printed board.

Cells are numbered ``c = y * width + x`` and held in uint64_t bitboards; internal edges
(palisade gaps) are numbered in cell order, each cell's east edge before its south edge.
"""

from libc.math cimport tanh
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

from boardrules._ext.core cimport (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    CoreState,
    Rng,
    ctz64,
    field_int,
    hash_bytes,
    popcount64,
    rng_below,
)

# Warrior sets per player count (rule 二/(三), 2.3 setup: the table): index = strength.
WARRIOR_SETS = {
    2: (0, 11, 2, 1, 1, 1),
    3: (0, 7, 2, 1, 1, 0),
    4: (0, 5, 1, 1, 1, 0),
}
# Ability tokens per race (rule 七/(一)2, 7.1.2 advanced setup): Elves and Mages 2, Orcs
# and Goblins 1.
RACE_TOKENS = (1, 1, 2, 2)
# Gold piles (rule 二/(五), 2.5 setup): one of 3, two of 4, two of 5, two of 6, one of 7.
GOLD_PILES = (3, 4, 4, 5, 5, 6, 6, 7)
PALISADES = 35  # rule 一 (1, components): 35 palisades, one supply (rule 二/(七), 2.7)


cdef inline uint64_t bit(int c) noexcept nogil:
    return (<uint64_t>1) << c


# --------------------------------------------------------------------------------------
# Territories
# --------------------------------------------------------------------------------------

cdef inline uint64_t flood(uint64_t reach, uint64_t oe, uint64_t ow, uint64_t os,
                           uint64_t on, int w) noexcept nogil:
    """Cells connected to ``reach`` through free edges (bitboard flood fill)."""
    cdef uint64_t nxt
    while True:
        nxt = (reach | ((reach & oe) << 1) | ((reach & ow) >> 1)
               | ((reach & os) << w) | ((reach & on) >> w))
        if nxt == reach:
            return reach
        reach = nxt


cdef inline uint64_t territory_of(const ArmadoraState* s, const ArmadoraTables* t,
                                  int c) noexcept nogil:
    """The territory (cells enclosed by palisades and the board edge) holding cell c."""
    return flood(bit(c), s.open_e, s.open_w, s.open_s, s.open_n, t.width)


cdef inline uint64_t grow(uint64_t reach, uint64_t oe, uint64_t ow, uint64_t os,
                          uint64_t on, int w) noexcept nogil:
    """``reach`` and its neighbours through free edges (one step of flood)."""
    return (reach | ((reach & oe) << 1) | ((reach & ow) >> 1)
            | ((reach & os) << w) | ((reach & on) >> w))


cdef inline bint fewer_than_four(uint64_t cells) noexcept nogil:
    """popcount64(cells) < AR_MIN_TERRITORY (= 4), cheaper: three lowest bits cleared leave
    nothing."""
    cells &= cells - 1
    cells &= cells - 1
    return (cells & (cells - 1)) == 0


cdef inline bint closes_small_side(uint64_t start, uint64_t other, uint64_t oe,
                                   uint64_t ow, uint64_t os, uint64_t on,
                                   int w) noexcept nogil:
    """With a palisade's gap already shut in oe..on: is ``start``'s side, cut off from
    ``other`` (the square across the gap), a territory of fewer than 4 squares?

    A flood that has reached 4 squares can stop: the side is big enough whether or not it
    is cut off.  So only squares within two steps of ``start`` are ever read -- which is
    why a palisade changes the legality of gaps near it only (place_palisade)."""
    cdef uint64_t nxt
    while fewer_than_four(start):
        if start & other:
            return False  # the two squares still meet: the palisade closes nothing
        nxt = grow(start, oe, ow, os, on, w)
        if nxt == start:
            return True
        start = nxt
    return False


cdef bint palisade_keeps_territories(const ArmadoraState* s, const ArmadoraTables* t,
                                     int e) noexcept nogil:
    """rule 三/限制條件 (3, palisades, the restriction): a palisade may not form a territory
    of 1, 2 or 3 squares.  It forms one exactly when the squares on either side of it are
    cut apart and one of the two sides has fewer than 4 squares."""
    cdef int a = t.edge_a[e]
    cdef int b = t.edge_b[e]
    cdef uint64_t oe = s.open_e, ow = s.open_w, os = s.open_s, on = s.open_n
    if b == a + 1:
        oe &= ~bit(a)
        ow &= ~bit(b)
    else:
        os &= ~bit(a)
        on &= ~bit(b)
    return not (closes_small_side(bit(a), bit(b), oe, ow, os, on, t.width)
                or closes_small_side(bit(b), bit(a), oe, ow, os, on, t.width))


cdef void refresh_palisade_legality(ArmadoraState* s, const ArmadoraTables* t,
                                    uint64_t region) noexcept nogil:
    """Recompute pal_legal for the free gaps with a square in ``region``.

    A gap on a side of a free 2 x 2 block of squares (no palisade inside it) never cuts
    anything apart, so it is legal without a flood: early in the game that is most gaps.
    """
    cdef uint64_t block = (s.open_e & s.open_s & (s.open_s >> 1)
                           & (s.open_e >> t.width))  # bit c: the block with c top left
    # gaps east and south of their square c: c or the square across it in region
    cdef uint64_t east = (region | (region >> 1)) & s.open_e
    cdef uint64_t south = (region | (region >> t.width)) & s.open_s
    cdef uint64_t sure_east = east & (block | (block << t.width))
    cdef uint64_t sure_south = south & (block | (block << 1))
    cdef int c, e
    while east:
        c = ctz64(east)
        east &= east - 1
        e = t.edge_east[c]
        set_palisade_legal(s, e, (sure_east >> c) & 1
                           or palisade_keeps_territories(s, t, e))
    while south:
        c = ctz64(south)
        south &= south - 1
        e = t.edge_south[c]
        set_palisade_legal(s, e, (sure_south >> c) & 1
                           or palisade_keeps_territories(s, t, e))


cdef inline void set_palisade_legal(ArmadoraState* s, int e, bint ok) noexcept nogil:
    if ok:
        s.pal_legal[e >> 6] |= bit(e & 63)
    else:
        s.pal_legal[e >> 6] &= ~bit(e & 63)


cdef inline bint edge_has_palisade(const ArmadoraState* s, int e) noexcept nogil:
    return (s.palisades[e >> 6] >> (e & 63)) & 1


cdef inline bint palisade_legal(const ArmadoraState* s, int e) noexcept nogil:
    return s.palisades_left > 0 and ((s.pal_legal[e >> 6] >> (e & 63)) & 1)


cdef inline bint any_palisade_legal(const ArmadoraState* s) noexcept nogil:
    return s.palisades_left > 0 and (s.pal_legal[0] | s.pal_legal[1]) != 0


cdef inline uint64_t empty_squares(const ArmadoraState* s, const ArmadoraTables* t) noexcept nogil:
    """rule 三 (3, warriors): an empty square holds neither a warrior nor gold."""
    return t.all_cells & ~s.occupied & ~t.mine_mask


cdef inline int team_of(const ArmadoraTables* t, int p) noexcept nogil:
    return t.team_of[p]


cdef inline uint64_t opponents_warriors(const ArmadoraState* s, const ArmadoraTables* t,
                                        int p) noexcept nogil:
    cdef uint64_t m = 0
    cdef int q
    for q in range(t.num_players):
        if t.team_of[q] != t.team_of[p]:
            m |= s.pmask[q]
    return m


cdef inline bint pool_empty(const ArmadoraState* s, int p) noexcept nogil:
    cdef int k
    for k in range(1, AR_MAX_STRENGTH + 1):
        if s.pool[p][k]:
            return False
    return True


# --------------------------------------------------------------------------------------
# Targets of the advanced actions (shared by move generation and the illegal-move reasons)
# --------------------------------------------------------------------------------------

cdef uint64_t elf_arrow_targets(const ArmadoraState* s, const ArmadoraTables* t,
                                int p) noexcept nogil:
    """rule 七/(二)2 精靈 (7.2.2, Elf): an opponent warrior in a territory shared with one of the elf
    player's own warriors, the territory still having an empty square."""
    cdef uint64_t own = s.pmask[p], comp, targets = 0
    cdef uint64_t empties = empty_squares(s, t)
    cdef uint64_t opponents = opponents_warriors(s, t, p)
    while own:
        comp = territory_of(s, t, ctz64(own))
        own &= ~comp
        if comp & empties:
            targets |= comp & opponents
    return targets


cdef uint64_t reinforcement_targets(const ArmadoraState* s, const ArmadoraTables* t,
                                    int p) noexcept nogil:
    """rule 七/(二)3 (7.2.3, reinforcement): on one of the player's own warriors (1, 5), in
    a full territory (2), at most one reinforcement token per territory (3)."""
    cdef uint64_t own = s.pmask[p], comp, targets = 0
    cdef uint64_t empties = empty_squares(s, t)
    while own:
        comp = territory_of(s, t, ctz64(own))
        own &= ~comp
        if (comp & empties) == 0 and (comp & s.reinf_mask) == 0:
            targets |= comp & s.pmask[p]
    return targets


cdef inline uint64_t mage_peek_targets(const ArmadoraState* s, int p) noexcept nogil:
    """rule 七/(二)2 法師 (7.2.2, Mage): a face-down warrior of another player (4 players: the
    teammate's too)."""
    return s.occupied & ~s.faceup_mask & ~s.pmask[p]


cdef inline bint can_use_power(const ArmadoraState* s, const ArmadoraTables* t,
                               int p) noexcept nogil:
    """rule 七/(二)2 (7.2.2, race powers): once per turn, before the action, while ability
    tokens remain."""
    return t.advanced and s.phase == PH_TURN and s.power_tokens[p] > 0


cdef inline int warriors_left(const ArmadoraState* s, int p) noexcept nogil:
    cdef int k, n = 0
    for k in range(1, AR_MAX_STRENGTH + 1):
        n += s.pool[p][k]
    return n


cdef bint has_main_action(const ArmadoraState* s, const ArmadoraTables* t,
                          int p) noexcept nogil:
    """rule 七/(二)1 (7.2.1, advanced turn): one of the three actions is possible -- a
    warrior, a palisade or the reinforcement token ('pass' is not one of them: by rule 四,
    4 end of the game, it ends the player's game)."""
    if not pool_empty(s, p) and empty_squares(s, t):
        return True
    if any_palisade_legal(s):
        return True
    return (t.advanced and s.reinforcement_left[p]
            and reinforcement_targets(s, t, p) != 0)


# A race power is offered only when one of the three main actions can still follow it
# (rule 七/(二)1, 7.2.1 advanced turn: "first decide whether to use the race power, then
# do one of the three actions"; rule 四, 4 end of the game: a player with nothing left to
# place ends, he does not go on using powers).  The Mage's peek and the Elf's arrow change
# nothing a main action depends on, so for them the test is has_main_action() before the
# power.  The Goblin's warrior and the Orc's palisade do change it; the functions below
# say exactly where they may go.  Two facts keep them cheap: a warrior never changes
# palisade legality (the limit of rule 三 counts squares, not warriors), and neither a
# warrior nor a palisade ever removes a reinforcement target (a full territory stays full;
# splitting it leaves full parts).

cdef uint64_t goblin_squares(const ArmadoraState* s, const ArmadoraTables* t,
                             int p) noexcept nogil:
    """rule 七/(二)2 哥布林 with 七/(二)1: the empty squares where the Goblin's extra warrior
    leaves a main action to follow (any strength left behind his screen may go there)."""
    cdef uint64_t empties = empty_squares(s, t)
    cdef uint64_t rest, comp, room, out = 0
    if pool_empty(s, p) or empties == 0:
        return 0
    if (any_palisade_legal(s)
            or (warriors_left(s, p) >= 2 and popcount64(empties) >= 2)
            or (s.reinforcement_left[p] and reinforcement_targets(s, t, p))):
        return empties
    if not s.reinforcement_left[p]:
        return 0
    # only a warrior that fills its territory leaves something to do: the reinforcement
    # token on that territory (the warrior itself is a target), if it holds none yet
    rest = empties
    while rest:
        comp = territory_of(s, t, ctz64(rest))
        rest &= ~comp
        room = comp & empties
        if popcount64(room) == 1 and (comp & s.reinf_mask) == 0:
            out |= room
    return out


cdef bint orc_palisade_followed(const ArmadoraState* s, const ArmadoraTables* t, int p,
                                int e, bint sure) noexcept nogil:
    """rule 七/(二)2 獸人 with 七/(二)1: after the Orc's extra palisade on free, legal edge
    ``e`` a main action can still follow.  ``sure`` is orc_always_followed(s, t, p)."""
    cdef ArmadoraState after
    if sure:
        return True
    after = s[0]
    place_palisade(&after, t, e)
    return has_main_action(&after, t, p)


cdef inline bint orc_always_followed(const ArmadoraState* s, const ArmadoraTables* t,
                                     int p) noexcept nogil:
    """A warrior to place or a reinforcement target now: no palisade takes them away."""
    return ((not pool_empty(s, p) and empty_squares(s, t) != 0)
            or (s.reinforcement_left[p] and reinforcement_targets(s, t, p) != 0))


# --------------------------------------------------------------------------------------
# The contract
# --------------------------------------------------------------------------------------

cdef void ar_initial_state(void* state, const void* tables) noexcept nogil:
    cdef ArmadoraState* s = <ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef int p, k, c
    memset(s, 0, sizeof(ArmadoraState))
    for p in range(t.num_players):
        for k in range(8):
            s.pool[p][k] = t.initial_pool[k]
        s.race[p] = RACE_NONE
        # rule 七/(一)4 (7.1.4, advanced setup): each player keeps the reinforcement token
        # of his colour
        s.reinforcement_left[p] = t.advanced
    for k in range(AR_GOLD_VALUES):
        s.gold_left[k] = t.gold_piles[k]
    s.palisades_left = t.palisades_total
    s.phase = PH_GOLD
    s.last_action = -1
    for c in range(t.ncells):
        if t.edge_east[c] >= 0:
            s.open_e |= bit(c)
            s.open_w |= bit(c + 1)
        if t.edge_south[c] >= 0:
            s.open_s |= bit(c)
            s.open_n |= bit(c + t.width)
    refresh_palisade_legality(s, t, t.all_cells)


cdef int ar_current_player(const void* state, const void* tables) noexcept nogil:
    cdef const ArmadoraState* s = <const ArmadoraState*>state
    if s.phase == PH_GOLD or s.phase == PH_RACE:
        return CHANCE_PLAYER
    if s.phase == PH_OVER:
        return TERMINAL_PLAYER
    return s.current


cdef inline int emit_cells(int* out, int n, uint64_t cells, int base) noexcept nogil:
    while cells:
        out[n] = base + ctz64(cells)
        cells &= cells - 1
        n += 1
    return n


cdef inline int emit_palisades(const ArmadoraState* s, int* out, int n, int base) noexcept nogil:
    cdef uint64_t w
    cdef int half
    if s.palisades_left == 0:
        return n
    for half in range(2):
        w = s.pal_legal[half]
        while w:
            out[n] = base + 64 * half + ctz64(w)
            w &= w - 1
            n += 1
    return n


cdef inline int emit_warriors(const ArmadoraState* s, int p, uint64_t cells,
                              int* out, int n, int base) noexcept nogil:
    """A warrior of each strength left behind p's screen on each of ``cells``."""
    cdef int ks[AR_MAX_STRENGTH]
    cdef int nk = 0, c, k, first
    for k in range(1, AR_MAX_STRENGTH + 1):
        if s.pool[p][k]:
            ks[nk] = k - 1
            nk += 1
    while cells:
        c = ctz64(cells)
        cells &= cells - 1
        first = base + c * AR_MAX_STRENGTH
        for k in range(nk):
            out[n + k] = first + ks[k]
        n += nk
    return n


cdef inline int emit_orc_palisades(const ArmadoraState* s, const ArmadoraTables* t, int p,
                                   int* out, int n) noexcept nogil:
    cdef bint sure = orc_always_followed(s, t, p)
    cdef uint64_t w
    cdef int half, e
    if s.palisades_left == 0:
        return n
    for half in range(2):
        w = s.pal_legal[half]
        while w:
            e = 64 * half + ctz64(w)
            w &= w - 1
            if orc_palisade_followed(s, t, p, e, sure):
                out[n] = t.a_orc + e
                n += 1
    return n


cdef int ar_legal_actions(const void* state, const void* tables, int* out) noexcept nogil:
    """Ascending by construction: the blocks are emitted in action-id order."""
    cdef const ArmadoraState* s = <const ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef int p = s.current
    cdef int n = 0
    cdef bint main = s.phase == PH_TURN or s.phase == PH_AFTER_POWER
    cdef bint power
    if s.phase < PH_TURN or s.phase == PH_OVER:
        return 0
    # rule 七/(二)1 (7.2.1, advanced turn): a power only when a main action can follow it
    # (a necessary condition for every race; the Goblin's and the Orc's are refined per
    # target below)
    power = can_use_power(s, t, p) and has_main_action(s, t, p)
    if s.phase == PH_TURN:
        out[n] = ACT_PASS  # rule 四 (4, end of the game): one may end at any turn
        n += 1
    if s.phase == PH_SECOND_PALISADE:
        out[n] = ACT_DONE  # rule 三 (3, palisades): "up to 2 palisades": one is enough
        n += 1
    n = emit_palisades(s, out, n, t.a_palisade)
    if main and not pool_empty(s, p):
        n = emit_warriors(s, p, empty_squares(s, t), out, n, t.a_warrior)
    if power and s.race[p] == RACE_GOBLIN:
        n = emit_warriors(s, p, goblin_squares(s, t, p), out, n, t.a_goblin)
    if power and s.race[p] == RACE_ORC:
        n = emit_orc_palisades(s, t, p, out, n)
    if power and s.race[p] == RACE_MAGE:
        n = emit_cells(out, n, mage_peek_targets(s, p), t.a_peek)
    if power and s.race[p] == RACE_ELF:
        n = emit_cells(out, n, elf_arrow_targets(s, t, p), t.a_arrow)
    if main and t.advanced and s.reinforcement_left[p]:
        n = emit_cells(out, n, reinforcement_targets(s, t, p), t.a_reinforce)
    return n


cdef int ar_chance_outcomes(const void* state, const void* tables, int* out,
                            double* probs) noexcept nogil:
    cdef const ArmadoraState* s = <const ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef int n = 0
    cdef int v, r, remaining = 0
    if s.phase == PH_GOLD:
        # rule 二/(六) (2.6, setup): the piles go onto the mines at random
        for v in range(AR_GOLD_VALUES):
            remaining += s.gold_left[v]
        for v in range(AR_GOLD_VALUES):
            if s.gold_left[v]:
                out[n] = t.a_gold + v
                probs[n] = s.gold_left[v] / <double>remaining
                n += 1
    elif s.phase == PH_RACE:
        # rule 七/(一)1 (7.1.1, advanced setup): races are dealt at random
        remaining = AR_RACES - s.races_dealt_count
        for r in range(AR_RACES):
            if not s.race_dealt[r]:
                out[n] = t.a_race + r
                probs[n] = 1.0 / remaining
                n += 1
    return n


cdef void start_play(ArmadoraState* s) noexcept nogil:
    s.phase = PH_TURN
    s.current = 0


cdef void end_turn(ArmadoraState* s, const ArmadoraTables* t) noexcept nogil:
    """rule 三 (3, play): clockwise; rule 四 (4, end of the game): players who ended are
    skipped, the game ends when every player has ended."""
    cdef int k, q
    for k in range(1, t.num_players + 1):
        q = (s.current + k) % t.num_players
        if not (s.passed >> q) & 1:
            s.current = q
            s.phase = PH_TURN
            return
    s.phase = PH_OVER


cdef void after_power(ArmadoraState* s, const ArmadoraTables* t) noexcept nogil:
    """rule 七/(二)1 (7.2.1, advanced turn): after the power the player does one of the
    three actions.  Move generation offers a power only when one can follow (see
    goblin_squares); the check below is a guard that never fires in a game played by the
    rules (a test checks)."""
    s.power_tokens[s.current] -= 1
    s.phase = PH_AFTER_POWER
    if not has_main_action(s, t, s.current):
        end_turn(s, t)


cdef void place_palisade(ArmadoraState* s, const ArmadoraTables* t, int e) noexcept nogil:
    cdef int a = t.edge_a[e]
    cdef int b = t.edge_b[e]
    s.palisades[e >> 6] |= bit(e & 63)
    s.palisades_left -= 1
    if b == a + 1:
        s.open_e &= ~bit(a)
        s.open_w &= ~bit(b)
    else:
        s.open_s &= ~bit(a)
        s.open_n &= ~bit(b)
    set_palisade_legal(s, e, False)
    # only the gaps with a square within two steps of a or b read this one
    # (closes_small_side): the others keep their legality
    refresh_palisade_legality(s, t, t.near[a] | t.near[b])


cdef void place_warrior(ArmadoraState* s, int p, int c, int k, bint face_up) noexcept nogil:
    s.owner[c] = p + 1
    s.strength[c] = k
    s.face_up[c] = face_up
    s.pool[p][k] -= 1
    s.pmask[p] |= bit(c)
    s.occupied |= bit(c)
    if face_up:
        s.faceup_mask |= bit(c)


cdef void ar_apply(void* state, const void* tables, int action) noexcept nogil:
    cdef ArmadoraState* s = <ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef int p = s.current
    cdef int x
    s.move_count += 1
    s.last_action = action
    if s.phase == PH_GOLD:
        x = action - t.a_gold
        s.gold[t.mine_cells[s.mines_filled]] = x
        s.gold_left[x] -= 1
        s.mines_filled += 1
        if s.mines_filled == t.num_mines:
            if t.advanced:
                s.phase = PH_RACE
            else:
                start_play(s)
        return
    if s.phase == PH_RACE:
        x = action - t.a_race
        s.race[s.races_dealt_count] = x
        s.race_dealt[x] = 1
        s.power_tokens[s.races_dealt_count] = t.race_tokens[x]
        s.races_dealt_count += 1
        if s.races_dealt_count == t.num_players:
            start_play(s)
        return
    if action == ACT_PASS:
        s.passed |= <uint8_t>(1 << p)
        end_turn(s, t)
    elif action == ACT_DONE:
        end_turn(s, t)
    elif action < t.a_warrior:
        place_palisade(s, t, action - t.a_palisade)
        if s.phase == PH_SECOND_PALISADE or not any_palisade_legal(s):
            end_turn(s, t)
        else:
            s.phase = PH_SECOND_PALISADE
    elif action < t.a_goblin:
        x = action - t.a_warrior
        place_warrior(s, p, x // AR_MAX_STRENGTH, x % AR_MAX_STRENGTH + 1, False)
        end_turn(s, t)
    elif action < t.a_orc:
        # rule 七/(二)2 哥布林 (7.2.2, Goblin): one extra warrior, face up
        x = action - t.a_goblin
        place_warrior(s, p, x // AR_MAX_STRENGTH, x % AR_MAX_STRENGTH + 1, True)
        after_power(s, t)
    elif action < t.a_peek:
        # rule 七/(二)2 獸人 (7.2.2, Orc): one extra palisade
        place_palisade(s, t, action - t.a_orc)
        after_power(s, t)
    elif action < t.a_arrow:
        # rule 七/(二)2 法師 (7.2.2, Mage): the value becomes known to this player only
        s.known[p] |= bit(action - t.a_peek)
        after_power(s, t)
    elif action < t.a_reinforce:
        # rule 七/(二)2 精靈 (7.2.2, Elf): the token stays on the target, strength - 1
        s.arrows[action - t.a_arrow] += 1
        after_power(s, t)
    else:
        # rule 七/(二)3 (7.2.3): the reinforcement token, strength + 1
        x = action - t.a_reinforce
        s.reinforced[x] = 1
        s.reinf_mask |= bit(x)
        s.reinforcement_left[p] = 0
        end_turn(s, t)


# --------------------------------------------------------------------------------------
# Scoring (rule 五 5 scoring, 六 6 four players, 七/(二)3(6) reinforcement tie-break)
# --------------------------------------------------------------------------------------

ctypedef struct Scoring:
    int gold[4]             # gold per player
    int piles[4][AR_MAX_CELLS]  # each player's piles, one per territory won
    int npiles[4]


cdef inline int warrior_strength(const ArmadoraState* s, int c) noexcept nogil:
    """rule 五 (5, scoring) with 七/(二)2 精靈 (7.2.2 Elf: -1 per arrow) and 七/(二)3(1)
    (7.2.3 reinforcement: +1): the tokens lying on a warrior are counted together at
    scoring, and only their sum is floored at 0 -- a 1 with two arrows and the token is
    1 - 2 + 1 = 0 (docs/armadora.rst, clarification 21)."""
    cdef int v = s.strength[c] - s.arrows[c] + s.reinforced[c]
    return v if v > 0 else 0


cdef inline int territory_gold(const ArmadoraState* s, const ArmadoraTables* t,
                               uint64_t comp) noexcept nogil:
    cdef int pile = 0
    cdef uint64_t cells = comp & t.mine_mask
    while cells:
        pile += s.gold[ctz64(cells)]
        cells &= cells - 1
    return pile


cdef inline void player_strengths(const ArmadoraState* s, const ArmadoraTables* t,
                                  uint64_t comp, int* totals) noexcept nogil:
    """rule 五 (5, scoring): each player's total strength in a territory."""
    cdef int p, c
    cdef uint64_t cells
    for p in range(t.num_players):
        totals[p] = 0
        cells = comp & s.pmask[p]
        while cells:
            c = ctz64(cells)
            cells &= cells - 1
            totals[p] += warrior_strength(s, c)


cdef int territory_shares(const ArmadoraState* s, const ArmadoraTables* t, uint64_t comp,
                          int* shares) noexcept nogil:
    """rule 五 (5, scoring): the highest total strength takes the territory's gold; a tie shares it
    equally, the remainder lost, unless a tied player holds the territory's reinforcement
    token (rule 七/(二)3(6), 7.2.3 reinforcement).  Every player with a warrior there takes
    part.  Fills each player's share; returns the territory's gold."""
    cdef int totals[4]
    cdef int p, best = -1, ntied = 0, taker = -1
    cdef int pile = territory_gold(s, t, comp)
    for p in range(t.num_players):
        shares[p] = 0
    if pile == 0 or (comp & s.occupied) == 0:
        return pile
    player_strengths(s, t, comp, totals)
    for p in range(t.num_players):
        if (comp & s.pmask[p]) and totals[p] > best:
            best = totals[p]
    for p in range(t.num_players):
        if (comp & s.pmask[p]) and totals[p] == best:
            ntied += 1
            if comp & s.reinf_mask & s.pmask[p]:
                taker = p
    for p in range(t.num_players):
        if (comp & s.pmask[p]) and totals[p] == best:
            if ntied == 1:
                shares[p] = pile
            elif taker >= 0:
                shares[p] = pile if p == taker else 0
            else:
                shares[p] = pile // ntied
    return pile


cdef void score_territories(const ArmadoraState* s, const ArmadoraTables* t,
                            Scoring* out) noexcept nogil:
    """rule 五 (5, scoring): each territory's gold goes by territory_shares; the gold of each
    territory is kept as a separate pile."""
    cdef uint64_t rest = t.all_cells, comp
    cdef int shares[4]
    cdef int p
    memset(out, 0, sizeof(Scoring))
    while rest:
        comp = territory_of(s, t, ctz64(rest))
        rest &= ~comp
        territory_shares(s, t, comp, shares)
        for p in range(t.num_players):
            if shares[p]:
                out.gold[p] += shares[p]
                out.piles[p][out.npiles[p]] = shares[p]
                out.npiles[p] += 1


cdef void sort_desc(int* a, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] < v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


ctypedef struct TeamKey:
    int gold
    int npiles
    int piles[AR_MAX_CELLS * 2]


cdef void team_keys(const ArmadoraTables* t, const Scoring* sc, TeamKey* keys) noexcept nogil:
    """rule 五 + 六 (5 scoring, 6 four players): a team's gold is its members' gold, its
    piles theirs together."""
    cdef int p, i, k
    for k in range(t.num_teams):
        keys[k].gold = 0
        keys[k].npiles = 0
    for p in range(t.num_players):
        k = t.team_of[p]
        keys[k].gold += sc.gold[p]
        for i in range(sc.npiles[p]):
            keys[k].piles[keys[k].npiles] = sc.piles[p][i]
            keys[k].npiles += 1
    for k in range(t.num_teams):
        sort_desc(keys[k].piles, keys[k].npiles)


cdef int compare_keys(const TeamKey* a, const TeamKey* b) noexcept nogil:
    """rule 五 (5, scoring): most gold; on a tie the piles compared one by one from the largest."""
    cdef int i, x, y
    if a.gold != b.gold:
        return 1 if a.gold > b.gold else -1
    for i in range(max(a.npiles, b.npiles)):
        x = a.piles[i] if i < a.npiles else 0
        y = b.piles[i] if i < b.npiles else 0
        if x != y:
            return 1 if x > y else -1
    return 0


cdef void team_values(const ArmadoraTables* t, const TeamKey* keys,
                      double* team_value) noexcept nogil:
    """Each team: (teams it beats - teams that beat it) / (teams - 1), in [-1, 1]."""
    cdef int a, b, cmp
    for a in range(t.num_teams):
        team_value[a] = 0.0
        for b in range(t.num_teams):
            if a != b:
                cmp = compare_keys(&keys[a], &keys[b])
                team_value[a] += cmp
        team_value[a] /= (t.num_teams - 1)


cdef void ar_returns(const void* state, const void* tables, double* out) noexcept nogil:
    cdef const ArmadoraState* s = <const ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef Scoring sc
    cdef TeamKey keys[4]
    cdef double tv[4]
    cdef int p
    if s.phase != PH_OVER:
        for p in range(t.num_players):
            out[p] = 0.0
        return
    score_territories(s, t, &sc)
    team_keys(t, &sc, keys)
    team_values(t, keys, tv)
    for p in range(t.num_players):
        out[p] = tv[t.team_of[p]]


cdef inline int strength_behind_screen(const ArmadoraState* s, int p) noexcept nogil:
    cdef int k, total = 0
    for k in range(1, AR_MAX_STRENGTH + 1):
        total += k * s.pool[p][k]
    return total


cdef void estimate_team_gold(const ArmadoraState* s, const ArmadoraTables* t,
                             double* team_gold) noexcept nogil:
    """Expected gold per team were play to go on (rule 五, 5 scoring, on the final board).

    A territory that is full, or that nobody can still add to, is decided: its gold goes
    as scoring gives it.  Into an open territory the players who have not passed (rule 四,
    4: a player who passed places nothing more) are expected to bring warriors in
    proportion to its share of the empty squares, each bringing his average strength
    behind the screen; the gold is then shared by the square of each team's expected
    strength there -- the stronger side usually takes all.  Passing early is therefore
    valued as what it is: the others go on placing."""
    cdef uint64_t rest = t.all_cells, comp
    cdef uint64_t empties = empty_squares(s, t)
    cdef int shares[4]
    cdef int totals[4]
    cdef double strength[4]
    cdef double screen[4]          # strength a player still has to place, if he plays on
    cdef double weight, total, fill
    cdef int p, k, pile, open_squares, warriors = 0
    for p in range(t.num_players):
        screen[p] = 0.0
        if not (s.passed >> p) & 1:
            warriors += warriors_left(s, p)
            screen[p] = strength_behind_screen(s, p)
    # the share of the empty squares that warriors can still fill, spread over each of them
    fill = 0.0
    if warriors and empties:
        fill = min(<double>warriors, <double>popcount64(empties)) / popcount64(empties)
    for k in range(t.num_teams):
        team_gold[k] = 0.0
    while rest:
        comp = territory_of(s, t, ctz64(rest))
        rest &= ~comp
        open_squares = popcount64(comp & empties)
        if open_squares == 0 or warriors == 0:
            territory_shares(s, t, comp, shares)
            for p in range(t.num_players):
                team_gold[t.team_of[p]] += shares[p]
            continue
        pile = territory_gold(s, t, comp)
        if pile == 0:
            continue
        player_strengths(s, t, comp, totals)
        for k in range(t.num_teams):
            strength[k] = 0.0
        for p in range(t.num_players):
            # open_squares * fill of p's warriors-to-come land here, each of his average
            strength[t.team_of[p]] += totals[p] + open_squares * fill * screen[p] / warriors
        total = 0.0
        for k in range(t.num_teams):
            total += strength[k] * strength[k]
        if total == 0.0:
            continue
        for k in range(t.num_teams):
            weight = strength[k] * strength[k]
            team_gold[k] += pile * weight / total


cdef void ar_evaluate(const void* state, const void* tables, double* out) noexcept nogil:
    """Heuristic: each team against each other team, as returns compares them (rule 五, 5
    scoring: most gold wins) but softly: tanh of the difference in expected gold
    (estimate_team_gold) over an eighth of all gold, averaged over the other teams.  In
    [-1, 1], the teams' values sum to zero, and partners share theirs, like the returns."""
    cdef const ArmadoraState* s = <const ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef double team_gold[4]
    cdef double team_value[4]
    cdef double scale = 0.125 * t.total_gold
    cdef int p, k, q
    if s.phase == PH_OVER:
        ar_returns(state, tables, out)
        return
    estimate_team_gold(s, t, team_gold)
    for k in range(t.num_teams):
        team_value[k] = 0.0
        for q in range(t.num_teams):
            if q != k:
                team_value[k] += tanh((team_gold[k] - team_gold[q]) / scale)
        team_value[k] /= t.num_teams - 1
    for p in range(t.num_players):
        out[p] = team_value[t.team_of[p]]


cdef void ar_determinize(void* state, const void* tables, int observer, Rng* rng) noexcept nogil:
    """Redraw every value ``observer`` cannot see: the face-down warriors of the other
    players that he has not peeked at, together with the warriors behind their screens
    (each player's unseen values are shuffled among his own unseen places).  Once the
    game is over the board's warriors are all turned over (rule 5): only the screens'
    contents are redrawn then.

    The result depends only on what the observer knows and on ``rng``: the unseen values
    are first put in a canonical order (by strength), so two states that differ only in
    hidden values give the same worlds for the same random numbers.
    """
    cdef ArmadoraState* s = <ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef int values[AR_MAX_CELLS + 32]
    cdef int counts[AR_MAX_STRENGTH + 1]
    cdef int q, k, c, n, i, j, tmp, nboard
    cdef uint64_t hidden, cells
    for q in range(t.num_players):
        if q == observer:
            continue
        hidden = s.pmask[q] & ~s.faceup_mask & ~s.known[observer]
        if s.phase == PH_OVER:
            hidden = 0  # rule 5, victory: every warrior on the board is turned over
        nboard = popcount64(hidden)
        for k in range(AR_MAX_STRENGTH + 1):
            counts[k] = s.pool[q][k]
        cells = hidden
        while cells:
            counts[s.strength[ctz64(cells)]] += 1
            cells &= cells - 1
        n = 0
        for k in range(1, AR_MAX_STRENGTH + 1):
            for _ in range(counts[k]):
                values[n] = k
                n += 1
        for i in range(n - 1, 0, -1):  # Fisher-Yates
            j = rng_below(rng, i + 1)
            tmp = values[i]
            values[i] = values[j]
            values[j] = tmp
        i = 0
        cells = hidden
        while cells:
            c = ctz64(cells)
            cells &= cells - 1
            s.strength[c] = values[i]
            i += 1
        for k in range(1, AR_MAX_STRENGTH + 1):
            s.pool[q][k] = 0
        for i in range(nboard, n):
            s.pool[q][values[i]] += 1
    # the last action may be another player's hidden placement: make it agree with the
    # redrawn strength so that no byte of the world keeps the truth
    if t.a_warrior <= s.last_action < t.a_goblin:
        c = (s.last_action - t.a_warrior) // AR_MAX_STRENGTH
        s.last_action = t.a_warrior + c * AR_MAX_STRENGTH + s.strength[c] - 1


cdef uint64_t ar_hash(const void* state, const void* tables) noexcept nogil:
    cdef const ArmadoraState* s = <const ArmadoraState*>state
    return hash_bytes(state, <size_t>(<const char*>&s.move_count - <const char*>s))


# --------------------------------------------------------------------------------------
# The observation tensor: what one player may see (layout in ArmadoraTables.o_*, legend in
# boardrules/games/armadora/observation.py; the same as ArmadoraState.view(player))
# --------------------------------------------------------------------------------------

cdef inline int relative_seat(const ArmadoraTables* t, int player, int q) noexcept nogil:
    """Where seat q is listed in player's per-seat fields (his own seat first)."""
    return (q - player + t.num_players) % t.num_players


cdef inline uint64_t peek_shown(const ArmadoraState* s, const ArmadoraTables* t,
                                int player) noexcept nogil:
    """Without look_at_face_down (rule 三 3, warriors: the players must remember), the
    value the Mage just looked at (rule 七/(二)2 法師, 7.2.2 Mage) is shown to him right
    after the peek only -- the view's ``peek``."""
    if (not t.look_at_face_down and t.a_peek <= s.last_action < t.a_arrow
            and s.race[player] == RACE_MAGE):
        return bit(s.last_action - t.a_peek)
    return 0


cdef inline uint64_t strengths_shown(const ArmadoraState* s, const ArmadoraTables* t,
                                     int player) noexcept nogil:
    """The warriors whose printed strength ``player`` sees: all once the game is over
    (rule 五 5, scoring: every warrior is turned over), the face-up ones (rule 七/(二)2
    哥布林, 7.2.2 Goblin), and with look_at_face_down his own and those his Mage looked at
    (rule 三 3, warriors; 7.2.2 Mage).  Every other face-down strength is hidden."""
    if s.phase == PH_OVER:
        return s.occupied
    cdef uint64_t shown = s.faceup_mask | peek_shown(s, t, player)
    if t.look_at_face_down:
        shown |= s.pmask[player] | s.known[player]
    return shown & s.occupied


cdef void observe_board(const ArmadoraState* s, const ArmadoraTables* t, int player,
                        float* out) noexcept nogil:
    """The squares, all public but the hidden strengths: each warrior's seat, strength
    (one-hot, index 0 when unseen), and in the advanced game the face-up flag, the elf
    arrows and the reinforcement token (rule 7.2.2, 7.2.3: tokens lie on the board in
    view); mines, the gold on them (rule 2.6: placed face up) and the palisades."""
    cdef int n = t.ncells
    cdef uint64_t shown = strengths_shown(s, t, player)
    cdef uint64_t cells = s.occupied
    cdef int c, e
    while cells:
        c = ctz64(cells)
        cells &= cells - 1
        out[t.o_warriors + relative_seat(t, player, s.owner[c] - 1) * n + c] = 1.0
        if (shown >> c) & 1:
            out[t.o_strength + s.strength[c] * n + c] = 1.0
        else:
            out[t.o_strength + c] = 1.0
        if t.advanced:
            out[t.o_face_up + c] = s.face_up[c]
            out[t.o_arrows + c] = s.arrows[c]
            out[t.o_reinforced + c] = s.reinforced[c]
    cells = t.mine_mask
    while cells:
        c = ctz64(cells)
        cells &= cells - 1
        out[t.o_mines + c] = 1.0
        out[t.o_gold + c] = s.gold[c]
    for c in range(n):
        e = t.edge_east[c]
        if e >= 0 and edge_has_palisade(s, e):
            out[t.o_palisades + c] = 1.0
        e = t.edge_south[c]
        if e >= 0 and edge_has_palisade(s, e):
            out[t.o_palisades + n + c] = 1.0


cdef void observe_territories(const ArmadoraState* s, const ArmadoraTables* t,
                              float* out) noexcept nogil:
    """Per square, the size of its territory and its empty squares (rule 三 3: the
    territories the palisades enclose, public like the palisades)."""
    cdef uint64_t rest = t.all_cells, comp, cells
    cdef uint64_t empties = empty_squares(s, t)
    cdef int size, room, c
    while rest:
        comp = territory_of(s, t, ctz64(rest))
        rest &= ~comp
        size = popcount64(comp)
        room = popcount64(comp & empties)
        cells = comp
        while cells:
            c = ctz64(cells)
            cells &= cells - 1
            out[t.o_territory_size + c] = size
            out[t.o_territory_empty + c] = room


cdef void observe_players(const ArmadoraState* s, const ArmadoraTables* t, int player,
                          float* out) noexcept nogil:
    """His own screen by strength (rule 二 2.3: behind his screen; the others' screens
    show only how many warriors are left), then per seat the warriors left and whether he
    has ended (rule 四 4); in the advanced game the races, ability tokens (in front of the
    screens, rule 7.1.2) and whether the reinforcement token is still held."""
    cdef int q, k, seat
    for k in range(AR_MAX_STRENGTH):
        out[t.o_pool + k] = s.pool[player][k + 1]
    for q in range(t.num_players):
        seat = relative_seat(t, player, q)
        out[t.o_warriors_left + seat] = warriors_left(s, q)
        out[t.o_passed + seat] = (s.passed >> q) & 1
        if t.advanced:
            if s.race[q] != RACE_NONE:
                out[t.o_race + seat * AR_RACES + s.race[q]] = 1.0
            out[t.o_power_tokens + seat] = s.power_tokens[q]
            out[t.o_reinforcement_left + seat] = s.reinforcement_left[q]


cdef void ar_observation(const void* state, const void* tables, int player,
                         float* out) noexcept nogil:
    """What ``player`` sees, as ``observation_size`` floats, seats relative to him: the
    board planes, the territories, the players, the palisades in the supply, the gold
    piles not yet placed (by size 3..7), the phase and who is to move (0 at chance and at
    the end).  Layout: ``boardrules/games/armadora/observation.py``."""
    cdef const ArmadoraState* s = <const ArmadoraState*>state
    cdef const ArmadoraTables* t = <const ArmadoraTables*>tables
    cdef int v
    cdef int mover = ar_current_player(state, tables)
    memset(out, 0, sizeof(float) * t.observation_size)
    observe_board(s, t, player, out)
    observe_territories(s, t, out)
    observe_players(s, t, player, out)
    out[t.o_palisades_left] = s.palisades_left
    for v in range(AR_MIN_PILE, AR_GOLD_VALUES):
        out[t.o_unplaced_gold + v - AR_MIN_PILE] = s.gold_left[v]
    out[t.o_phase + s.phase] = 1.0
    if mover >= 0:
        out[t.o_to_move + relative_seat(t, player, mover)] = 1.0


cdef int observation_offsets(ArmadoraTables* t) noexcept nogil:
    """Lay the fields end to end (the order of observation.py's legend); returns the
    size.  Fields of the advanced game take no room in the basic one."""
    cdef int n = t.ncells, players = t.num_players, o = 0
    t.o_warriors = o
    o += players * n
    t.o_strength = o
    o += (AR_MAX_STRENGTH + 1) * n
    t.o_face_up = t.o_arrows = t.o_reinforced = -1
    if t.advanced:
        t.o_face_up = o
        t.o_arrows = o + n
        t.o_reinforced = o + 2 * n
        o += 3 * n
    t.o_mines = o
    t.o_gold = o + n
    t.o_palisades = o + 2 * n
    t.o_territory_size = o + 4 * n
    t.o_territory_empty = o + 5 * n
    o += 6 * n
    t.o_pool = o
    o += AR_MAX_STRENGTH
    t.o_warriors_left = o
    t.o_passed = o + players
    o += 2 * players
    t.o_race = t.o_power_tokens = t.o_reinforcement_left = -1
    if t.advanced:
        t.o_race = o
        t.o_power_tokens = o + AR_RACES * players
        t.o_reinforcement_left = o + (AR_RACES + 1) * players
        o += (AR_RACES + 2) * players
    t.o_palisades_left = o
    t.o_unplaced_gold = o + 1
    o += 1 + AR_GOLD_VALUES - AR_MIN_PILE
    t.o_phase = o
    o += PH_OVER + 1
    t.o_to_move = o
    o += players
    t.observation_size = o
    return o


# --------------------------------------------------------------------------------------
# The compiled game and its Python-facing helpers (used by boardrules.games.armadora)
# --------------------------------------------------------------------------------------

cdef class ArmadoraCore(CoreGame):
    """Armadora for one board and one set of options.

    ``mines`` lists the mine cells in the order the gold chance events fill them.
    """

    def __cinit__(self, int width, int height, mines, int num_players, bint advanced,
                  bint look_at_face_down=True):
        cdef ArmadoraTables* t = &self.tables
        cdef int c, x, y, e, k, v
        if not (2 <= width <= 8 and 2 <= height <= 8 and width * height <= AR_MAX_CELLS):
            raise ValueError("board size out of range")
        if num_players not in WARRIOR_SETS:
            raise ValueError("Armadora is for 2, 3 or 4 players")
        mines = list(mines)
        if len(mines) != len(GOLD_PILES) or len(set(mines)) != len(mines):
            raise ValueError("the board needs one distinct mine per gold pile")
        memset(t, 0, sizeof(ArmadoraTables))
        t.width = width
        t.height = height
        t.ncells = width * height
        t.num_players = num_players
        t.advanced = advanced
        t.look_at_face_down = look_at_face_down
        t.all_cells = (<uint64_t>-1) if t.ncells == 64 else (bit(t.ncells) - 1)
        e = 0
        for c in range(t.ncells):
            x = c % width
            y = c // width
            t.edge_east[c] = -1
            t.edge_south[c] = -1
            if x < width - 1:
                t.edge_east[c] = e
                t.edge_a[e] = c
                t.edge_b[e] = c + 1
                e += 1
            if y < height - 1:
                t.edge_south[c] = e
                t.edge_a[e] = c
                t.edge_b[e] = c + width
                e += 1
        t.nedges = e
        for c in range(t.ncells):
            for k in range(t.ncells):
                if abs(k % width - c % width) + abs(k // width - c // width) <= 2:
                    t.near[c] |= bit(k)
        t.num_mines = len(mines)
        for k, c in enumerate(mines):
            if not 0 <= c < t.ncells:
                raise ValueError("mine outside the board")
            t.mine_cells[k] = c
            t.mine_mask |= bit(c)
        for v in GOLD_PILES:
            t.gold_piles[v] += 1
            t.total_gold += v
        for k, v in enumerate(WARRIOR_SETS[num_players]):
            t.initial_pool[k] = v
            t.warriors_per_player += v
        t.palisades_total = PALISADES
        for k in range(num_players):
            # rule 六 (6, four players): in the 4-player game partners alternate, order
            # A-C-B-D: players are numbered in turn order, so partners are 0 and 2 (A, B),
            # 1 and 3 (C, D).
            t.team_of[k] = k % 2 if num_players == 4 else k
        t.num_teams = 2 if num_players == 4 else num_players
        for k in range(AR_RACES):
            t.race_tokens[k] = RACE_TOKENS[k]
        t.a_palisade = 2
        t.a_warrior = t.a_palisade + t.nedges
        t.a_goblin = t.a_warrior + t.ncells * AR_MAX_STRENGTH
        t.a_orc = t.a_goblin + t.ncells * AR_MAX_STRENGTH
        t.a_peek = t.a_orc + t.nedges
        t.a_arrow = t.a_peek + t.ncells
        t.a_reinforce = t.a_arrow + t.ncells
        t.a_gold = t.a_reinforce + t.ncells
        t.a_race = t.a_gold + AR_GOLD_VALUES
        t.num_actions = t.a_race + AR_RACES

        self.contract.state_size = sizeof(ArmadoraState)
        self.contract.num_players = num_players
        self.contract.num_teams = t.num_teams
        for k in range(num_players):
            self.contract.team_of[k] = t.team_of[k]
        self.contract.num_distinct_actions = t.num_actions
        self.contract.max_legal_actions = t.num_actions
        self.contract.max_game_length = (
            t.num_mines + num_players                       # chance: gold, races
            + num_players * t.warriors_per_player           # warriors (Goblin's included)
            + 2 * t.palisades_total                         # palisades and "done"
            + num_players * 4                               # reinforcement, 2 powers, pass
        )
        self.contract.has_hidden_information = True
        self.contract.tables = t
        self.contract.initial_state = ar_initial_state
        self.contract.current_player = ar_current_player
        self.contract.legal_actions = ar_legal_actions
        self.contract.chance_outcomes = ar_chance_outcomes
        self.contract.apply = ar_apply
        self.contract.returns = ar_returns
        self.contract.determinize = ar_determinize
        self.contract.evaluate = ar_evaluate
        self.contract.hash = ar_hash
        self.contract.simultaneous = NULL   # no simultaneous choices
        self.contract.observation_size = observation_offsets(t)
        self.contract.observation = ar_observation

    @property
    def layout(self):
        """Action-id offsets of each block (see the action layout in armadora.pxd)."""
        t = &self.tables
        return {
            "pass": ACT_PASS, "done": ACT_DONE, "palisade": t.a_palisade,
            "warrior": t.a_warrior, "goblin": t.a_goblin, "orc": t.a_orc,
            "peek": t.a_peek, "arrow": t.a_arrow, "reinforce": t.a_reinforce,
            "gold": t.a_gold, "race": t.a_race, "end": t.num_actions,
        }

    @property
    def edges(self):
        """[(a, b)] cells joined by each internal edge, in edge-id order."""
        return [(self.tables.edge_a[e], self.tables.edge_b[e]) for e in range(self.tables.nedges)]

    def export(self, CoreState st):
        """The whole truth of a state as plain Python values (for views, JSON, SVG)."""
        self._check(st)
        cdef ArmadoraState* s = <ArmadoraState*>st.data
        cdef ArmadoraTables* t = &self.tables
        n = t.ncells
        players = t.num_players
        return {
            "owner": [s.owner[c] - 1 for c in range(n)],
            "strength": [s.strength[c] for c in range(n)],
            "arrows": [s.arrows[c] for c in range(n)],
            "reinforced": [bool(s.reinforced[c]) for c in range(n)],
            "face_up": [bool(s.face_up[c]) for c in range(n)],
            "gold": [s.gold[c] for c in range(n)],
            "palisades": [e for e in range(t.nedges) if edge_has_palisade(s, e)],
            "pool": [[s.pool[p][k] for k in range(1, AR_MAX_STRENGTH + 1)]
                     for p in range(players)],
            "race": [None if s.race[p] == RACE_NONE else s.race[p] for p in range(players)],
            "power_tokens": [s.power_tokens[p] for p in range(players)],
            "reinforcement_left": [bool(s.reinforcement_left[p]) for p in range(players)],
            "known": [[c for c in range(n) if (s.known[p] >> c) & 1] for p in range(players)],
            "gold_left": [s.gold_left[v] for v in range(AR_GOLD_VALUES)],
            "palisades_left": s.palisades_left,
            "current": s.current,
            "phase": s.phase,
            "passed": [bool((s.passed >> p) & 1) for p in range(players)],
            "mines_filled": s.mines_filled,
            "races_dealt": s.races_dealt_count,
            "last_action": s.last_action,
            "move_count": s.move_count,
        }

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked (see ``CoreGame.load``): every field is
        read by value and range-checked, the pieces must be what play could have made (rules
        二 2 setup, 三 3 play, 七 7 advanced), and the caches (bitboards, free edges, palisade
        legality) are computed again.  ``ValueError`` (``TypeError`` for a wrong type)
        ``"<field>: <why>"`` otherwise, ``st`` untouched."""
        self._check(st)
        cdef ArmadoraState tmp
        memset(&tmp, 0, sizeof(ArmadoraState))
        _load_position(&tmp, &self.tables, raw)
        st._replace_data(&tmp)

    def territories(self, CoreState st):
        """Territories as sorted lists of cells, ordered by their first cell."""
        self._check(st)
        cdef ArmadoraState* s = <ArmadoraState*>st.data
        cdef uint64_t rest = self.tables.all_cells, comp
        out = []
        while rest:
            comp = territory_of(s, &self.tables, ctz64(rest))
            rest &= ~comp
            out.append([c for c in range(self.tables.ncells) if (comp >> c) & 1])
        return out

    def territory_results(self, CoreState st):
        """Each territory as scoring (rule 五, 5) would see it now: (cells, gold, each
        player's total strength there, each player's share of the gold), territories
        ordered by their first cell.  The whole truth: it reads face-down warriors."""
        self._check(st)
        cdef ArmadoraState* s = <ArmadoraState*>st.data
        cdef uint64_t rest = self.tables.all_cells, comp
        cdef int totals[4]
        cdef int shares[4]
        cdef int pile
        players = self.tables.num_players
        out = []
        while rest:
            comp = territory_of(s, &self.tables, ctz64(rest))
            rest &= ~comp
            pile = territory_shares(s, &self.tables, comp, shares)
            player_strengths(s, &self.tables, comp, totals)
            out.append(([c for c in range(self.tables.ncells) if (comp >> c) & 1], pile,
                        [totals[p] for p in range(players)],
                        [shares[p] for p in range(players)]))
        return out

    def scoring(self, CoreState st):
        """(gold per player, piles per player largest first) if the game were scored now."""
        self._check(st)
        cdef Scoring sc
        score_territories(<ArmadoraState*>st.data, &self.tables, &sc)
        gold = [sc.gold[p] for p in range(self.tables.num_players)]
        piles = [sorted((sc.piles[p][i] for i in range(sc.npiles[p])), reverse=True)
                 for p in range(self.tables.num_players)]
        return gold, piles

    def team_places(self, CoreState st):
        """Each team's place (1 = first, equal on a full tie) by the ranking of rule 五
        (5, scoring)."""
        self._check(st)
        cdef Scoring sc
        cdef TeamKey keys[4]
        cdef int a, b, better
        score_territories(<ArmadoraState*>st.data, &self.tables, &sc)
        team_keys(&self.tables, &sc, keys)
        places = []
        for a in range(self.tables.num_teams):
            better = 0
            for b in range(self.tables.num_teams):
                if b != a and compare_keys(&keys[b], &keys[a]) > 0:
                    better += 1
            places.append(1 + better)
        return places

    def illegal_reason(self, CoreState st, action_id):
        """Why ``action`` is not legal here, as a key of the facade's message table
        (``"legal"`` when it is legal)."""
        self._check(st)
        cdef int action = self._action_id(action_id)
        return _illegal_reason(<ArmadoraState*>st.data, &self.tables, action)


cdef str _illegal_reason(const ArmadoraState* s, const ArmadoraTables* t, int action):
    """Names the rule a rejected action breaks, using the same predicates as move
    generation (a test checks the two agree on every action id)."""
    cdef int p = s.current
    cdef int x, c
    if action < 0 or action >= t.num_actions:
        return "unknown_action"
    if s.phase == PH_OVER:
        return "game_over"
    if s.phase == PH_GOLD:
        if not (t.a_gold <= action < t.a_race):
            return "chance_expected"
        return "legal" if s.gold_left[action - t.a_gold] else "gold_pile_unavailable"
    if s.phase == PH_RACE:
        if not (t.a_race <= action < t.num_actions):
            return "chance_expected"
        return "race_unavailable" if s.race_dealt[action - t.a_race] else "legal"
    if action >= t.a_gold:
        return "not_chance"
    if action == ACT_PASS:
        return "legal" if s.phase == PH_TURN else "pass_mid_turn"
    if action == ACT_DONE:
        return "legal" if s.phase == PH_SECOND_PALISADE else "done_without_palisade"
    if action < t.a_warrior or (t.a_orc <= action < t.a_peek):
        # a palisade (main action, second palisade, or the Orc's extra one)
        if action >= t.a_orc:
            x = power_reason(s, t, p, RACE_ORC)
            if x:
                return POWER_REASONS[x]
            x = action - t.a_orc
        else:
            x = action - t.a_palisade
        if edge_has_palisade(s, x):
            return "edge_taken"
        if s.palisades_left == 0:
            return "no_palisades_left"
        if not palisade_legal(s, x):
            return "territory_too_small"
        if action >= t.a_orc and not orc_palisade_followed(
                s, t, p, x, orc_always_followed(s, t, p)):
            return "power_without_action"
        return "legal"
    if action < t.a_orc:
        if action >= t.a_goblin:
            x = power_reason(s, t, p, RACE_GOBLIN)
            if x:
                return POWER_REASONS[x]
            x = action - t.a_goblin
        else:
            if s.phase == PH_SECOND_PALISADE:
                return "second_palisade_only"
            x = action - t.a_warrior
        c = x // AR_MAX_STRENGTH
        if not (empty_squares(s, t) >> c) & 1:
            return "square_not_empty"
        if not s.pool[p][x % AR_MAX_STRENGTH + 1]:
            return "no_such_warrior"
        if action >= t.a_goblin and not (goblin_squares(s, t, p) >> c) & 1:
            return "power_without_action"
        return "legal"
    if action < t.a_arrow:
        x = power_reason(s, t, p, RACE_MAGE)
        if x:
            return POWER_REASONS[x]
        c = action - t.a_peek
        if not (mage_peek_targets(s, p) >> c) & 1:
            return "peek_target"
        return "legal" if has_main_action(s, t, p) else "power_without_action"
    if action < t.a_reinforce:
        x = power_reason(s, t, p, RACE_ELF)
        if x:
            return POWER_REASONS[x]
        c = action - t.a_arrow
        if not (opponents_warriors(s, t, p) >> c) & 1:
            return "arrow_not_opponent"
        if not (elf_arrow_targets(s, t, p) >> c) & 1:
            if (territory_of(s, t, c) & s.pmask[p]) == 0:
                return "arrow_no_elf_warrior"
            return "arrow_territory_full"
        return "legal" if has_main_action(s, t, p) else "power_without_action"
    # reinforcement
    if not t.advanced:
        return "basic_game"
    if s.phase == PH_SECOND_PALISADE:
        return "second_palisade_only"
    if not s.reinforcement_left[p]:
        return "no_reinforcement_left"
    c = action - t.a_reinforce
    if not (s.pmask[p] >> c) & 1:
        return "reinforce_not_own"
    if territory_of(s, t, c) & empty_squares(s, t):
        return "reinforce_not_full"
    if not (reinforcement_targets(s, t, p) >> c) & 1:
        return "reinforce_territory_taken"
    return "legal"


POWER_REASONS = ("", "basic_game", "wrong_race", "power_not_now", "no_power_tokens")


cdef int power_reason(const ArmadoraState* s, const ArmadoraTables* t, int p,
                      int race) noexcept:
    if not t.advanced:
        return 1
    if s.race[p] != race:
        return 2
    if s.phase != PH_TURN:
        return 3
    if s.power_tokens[p] == 0:
        return 4
    return 0


# --------------------------------------------------------------------------------------
# Positions: ArmadoraCore.load, the checked inverse of export
# --------------------------------------------------------------------------------------

PHASE_NAMES = ("gold", "race", "turn", "after_power", "second_palisade", "over")


cdef bint _bool_field(object value, str field) except -1:
    if not isinstance(value, bool):
        raise ValueError(f"{field}: true or false, not {type(value).__name__}")
    return value is True


cdef list _list_field(object value, str field, object length):
    """A list (of ``length`` items when it is not None), copied: its items are read once."""
    if not isinstance(value, list):
        raise ValueError(f"{field}: a list, not {type(value).__name__}")
    value = list.copy(value)
    if length is not None and len(value) != length:
        raise ValueError(f"{field}: {len(value)} items, not {length}")
    return value


cdef str _square(const ArmadoraTables* t, int c):
    return f"{'abcdefgh'[c % t.width]}{c // t.width + 1}"


cdef int _load_position(ArmadoraState* s, const ArmadoraTables* t, dict raw) except -1:
    """Fill ``s`` (zeroed) from the export dict ``raw``, checking every field and the
    consistency the rules and the struct rely on."""
    cdef int n = t.ncells, players = t.num_players
    cdef int c, p, q, k, e, v, r, phase, mines_filled, races, placed, actions_min
    cdef int arrows_total = 0
    cdef uint64_t rest, comp
    expected = {"owner", "strength", "arrows", "reinforced", "face_up", "gold", "palisades",
                "pool", "race", "power_tokens", "reinforcement_left", "known", "gold_left",
                "palisades_left", "current", "phase", "passed", "mines_filled",
                "races_dealt", "last_action", "move_count"}
    keys = set(raw)
    if keys != expected:
        extra = sorted(map(str, keys - expected))
        missing = sorted(expected - keys)
        raise ValueError(f"{(extra or missing)[0]}: " + ("not a field of an Armadora "
                         "position" if extra else "missing"))
    phase = field_int(raw["phase"], "phase", 0, PH_OVER)
    # --- gold (rule 二/(五)(六), 2.5-2.6 setup): the mines fill in their order ---
    gold = _list_field(raw["gold"], "gold", n)
    mines_filled = field_int(raw["mines_filled"], "mines_filled", 0, t.num_mines)
    left = [t.gold_piles[v] for v in range(AR_GOLD_VALUES)]
    for c in range(n):
        v = field_int(gold[c], f"gold[{_square(t, c)}]", 0, AR_GOLD_VALUES - 1)
        if v and not (t.mine_mask >> c) & 1:
            raise ValueError(f"gold[{_square(t, c)}]: gold lies only on a mine")
    for k in range(t.num_mines):
        c = t.mine_cells[k]
        v = gold[c]
        if (v != 0) != (k < mines_filled):
            raise ValueError(f"gold[{_square(t, c)}]: the piles go onto the mines in the "
                             f"board's order, {mines_filled} of them so far")
        if v:
            if left[v] == 0:
                raise ValueError(f"gold[{_square(t, c)}]: no pile of {v} is left "
                                 "(piles: 3, 4, 4, 5, 5, 6, 6, 7)")
            left[v] -= 1
            s.gold[c] = v
    gold_left = _list_field(raw["gold_left"], "gold_left", AR_GOLD_VALUES)
    for v in range(AR_GOLD_VALUES):
        if field_int(gold_left[v], f"gold_left[{v}]", 0, 8) != left[v]:
            raise ValueError(f"gold_left[{v}]: {left[v]} piles of {v} are not on the mines")
        s.gold_left[v] = left[v]
    s.mines_filled = mines_filled
    if (phase == PH_GOLD) != (mines_filled < t.num_mines):
        raise ValueError("phase: the gold phase lasts until every mine has its pile")
    # --- races (rule 七/(一)1, 7.1.1): dealt in player order, each race once ---
    race_list = _list_field(raw["race"], "race", players)
    races = field_int(raw["races_dealt"], "races_dealt", 0, players)
    for p in range(players):
        r = RACE_NONE
        if race_list[p] is not None:
            r = field_int(race_list[p], f"race[{p}]", 0, AR_RACES - 1)
            if not t.advanced:
                raise ValueError(f"race[{p}]: races belong to the advanced game")
            if s.race_dealt[r]:
                raise ValueError(f"race[{p}]: each race is dealt once")
            s.race_dealt[r] = 1
        if (r != RACE_NONE) != (p < races):
            raise ValueError(f"race[{p}]: races are dealt in player order, {races} so far")
        s.race[p] = r
    s.races_dealt_count = races
    if t.advanced and phase > PH_RACE and races != players:
        raise ValueError("phase: play starts once every player has his race")
    if phase == PH_RACE and not (t.advanced and mines_filled == t.num_mines
                                 and races < players):
        raise ValueError("phase: races are dealt in the advanced game, after the gold")
    if not t.advanced and phase in (PH_RACE, PH_AFTER_POWER):
        raise ValueError(f"phase: no {PHASE_NAMES[phase]} phase in the basic game")
    # --- warriors (rule 三, 3 warriors; 七/(二) race powers and reinforcement) ---
    owner = _list_field(raw["owner"], "owner", n)
    strength = _list_field(raw["strength"], "strength", n)
    arrows = _list_field(raw["arrows"], "arrows", n)
    reinforced = _list_field(raw["reinforced"], "reinforced", n)
    face_up = _list_field(raw["face_up"], "face_up", n)
    counts = [[0] * (AR_MAX_STRENGTH + 1) for _ in range(players)]
    for c in range(n):
        sq = _square(t, c)
        p = field_int(owner[c], f"owner[{sq}]", -1, players - 1)
        k = field_int(strength[c], f"strength[{sq}]", 0, AR_MAX_STRENGTH)
        v = field_int(arrows[c], f"arrows[{sq}]", 0, 2)
        up = _bool_field(face_up[c], f"face_up[{sq}]")
        reinf = _bool_field(reinforced[c], f"reinforced[{sq}]")
        if p < 0:
            if k or v or up or reinf:
                raise ValueError(f"owner[{sq}]: strength, arrows, face up and reinforcement "
                                 "belong to a warrior, and none stands here")
            continue
        if (t.mine_mask >> c) & 1:
            raise ValueError(f"owner[{sq}]: a warrior never stands on a mine (rule 3)")
        if phase < PH_TURN:
            raise ValueError(f"owner[{sq}]: no warrior is placed before play starts")
        if k == 0:
            raise ValueError(f"strength[{sq}]: a warrior has strength 1 to 5")
        if up and s.race[p] != RACE_GOBLIN:
            raise ValueError(f"face_up[{sq}]: only the Goblin's power places a warrior face "
                             "up (rule 7.2.2)")
        if reinf and not t.advanced:
            raise ValueError(f"reinforced[{sq}]: reinforcement is in the advanced game")
        if v:
            for q in range(players):
                if s.race[q] == RACE_ELF and t.team_of[q] != t.team_of[p]:
                    break
            else:
                raise ValueError(f"arrows[{sq}]: arrows come from an opposing Elf "
                                 "(rule 7.2.2)")
        counts[p][k] += 1
        s.owner[c] = p + 1
        s.strength[c] = k
        s.arrows[c] = v
        arrows_total += v
        s.face_up[c] = up
        s.reinforced[c] = reinf
        s.pmask[p] |= bit(c)
        s.occupied |= bit(c)
        if up:
            s.faceup_mask |= bit(c)
        if reinf:
            if s.reinf_mask & s.pmask[p]:
                raise ValueError(f"reinforced[{sq}]: each player has one reinforcement "
                                 "token (rule 7.1.4)")
            s.reinf_mask |= bit(c)
    pool = _list_field(raw["pool"], "pool", players)
    for p in range(players):
        screen = _list_field(pool[p], f"pool[{p}]", AR_MAX_STRENGTH)
        for k in range(1, AR_MAX_STRENGTH + 1):
            v = field_int(screen[k - 1], f"pool[{p}][{k - 1}]", 0, t.initial_pool[k])
            if v + counts[p][k] != t.initial_pool[k]:
                raise ValueError(f"pool[{p}][{k - 1}]: {v} warriors of strength {k} behind "
                                 f"the screen and {counts[p][k]} on the board make not "
                                 f"the {t.initial_pool[k]} of the set (rule 2.3)")
            s.pool[p][k] = v
    # --- palisades (rule 三, 3 palisades: no territory of fewer than 4 squares) ---
    palisades = _list_field(raw["palisades"], "palisades", None)
    for c in range(t.ncells):
        if t.edge_east[c] >= 0:
            s.open_e |= bit(c)
            s.open_w |= bit(c + 1)
        if t.edge_south[c] >= 0:
            s.open_s |= bit(c)
            s.open_n |= bit(c + t.width)
    placed = 0
    prev = -1
    for i in range(len(palisades)):
        e = field_int(palisades[i], f"palisades[{i}]", 0, t.nedges - 1)
        if e <= prev:
            raise ValueError(f"palisades[{i}]: edge ids ascending, each once")
        if phase < PH_TURN:
            raise ValueError(f"palisades[{i}]: no palisade is placed before play starts")
        s.palisades[e >> 6] |= bit(e & 63)
        placed += 1
        prev = e
        c = t.edge_a[e]
        if t.edge_b[e] == c + 1:
            s.open_e &= ~bit(c)
            s.open_w &= ~bit(c + 1)
        else:
            s.open_s &= ~bit(c)
            s.open_n &= ~bit(c + t.width)
    if placed > t.palisades_total:
        raise ValueError(f"palisades: there are {t.palisades_total} palisades")
    if field_int(raw["palisades_left"], "palisades_left", 0,
                 t.palisades_total) != t.palisades_total - placed:
        raise ValueError(f"palisades_left: {t.palisades_total} palisades, {placed} on the "
                         "board")
    s.palisades_left = t.palisades_total - placed
    rest = t.all_cells
    while rest:
        comp = territory_of(s, t, ctz64(rest))
        rest &= ~comp
        if popcount64(comp) < AR_MIN_TERRITORY:
            raise ValueError(f"palisades: the territory of {_square(t, ctz64(comp))} has "
                             f"{popcount64(comp)} squares, fewer than 4 (rule 3)")
        if comp & s.reinf_mask and comp & empty_squares(s, t):
            raise ValueError(f"reinforced[{_square(t, ctz64(comp & s.reinf_mask))}]: the "
                             "token goes into a full territory (rule 7.2.3(2))")
        if popcount64(comp & s.reinf_mask) > 1:
            raise ValueError(f"reinforced[{_square(t, ctz64(comp & s.reinf_mask))}]: one "
                             "token per territory (rule 7.2.3(3))")
    refresh_palisade_legality(s, t, t.all_cells)
    # --- players: tokens, peeks, passes ---
    tokens = _list_field(raw["power_tokens"], "power_tokens", players)
    reinf_left = _list_field(raw["reinforcement_left"], "reinforcement_left", players)
    known = _list_field(raw["known"], "known", players)
    passed = _list_field(raw["passed"], "passed", players)
    for p in range(players):
        r = s.race[p]
        full = 0 if r == RACE_NONE else t.race_tokens[r]
        s.power_tokens[p] = field_int(tokens[p], f"power_tokens[{p}]", 0, full)
        if phase < PH_TURN and s.power_tokens[p] != full:
            raise ValueError(f"power_tokens[{p}]: no power is used before play starts")
        # the Elf's and the Goblin's tokens leave their mark: an arrow, a face-up warrior
        if r == RACE_ELF and s.power_tokens[p] + arrows_total != full:
            raise ValueError(f"power_tokens[{p}]: the Elf has {full} tokens, and "
                             f"{arrows_total} arrows lie on the board (rule 7.2.2)")
        if r == RACE_GOBLIN and s.power_tokens[p] + popcount64(s.faceup_mask) != full:
            raise ValueError(f"power_tokens[{p}]: the Goblin has {full} token, and "
                             f"{popcount64(s.faceup_mask)} face-up warriors stand on the "
                             "board (rule 7.2.2)")
        left_flag = _bool_field(reinf_left[p], f"reinforcement_left[{p}]")
        if left_flag != (t.advanced and not (s.reinf_mask & s.pmask[p])):
            raise ValueError(f"reinforcement_left[{p}]: the token is behind the screen "
                             "until it is on one of the player's warriors (rule 7.1.4)")
        s.reinforcement_left[p] = left_flag
        cells = _list_field(known[p], f"known[{p}]", None)
        prev = -1
        for i in range(len(cells)):
            c = field_int(cells[i], f"known[{p}][{i}]", 0, n - 1)
            if c <= prev:
                raise ValueError(f"known[{p}][{i}]: squares ascending, each once")
            if r != RACE_MAGE:
                raise ValueError(f"known[{p}][{i}]: only a Mage looks at face-down "
                                 "warriors (rule 7.2.2)")
            if not (mage_peek_targets(s, p) >> c) & 1:
                raise ValueError(f"known[{p}][{i}]: the Mage looks at another player's "
                                 "face-down warrior (rule 7.2.2)")
            s.known[p] |= bit(c)
            prev = c
        if _bool_field(passed[p], f"passed[{p}]"):
            if phase < PH_TURN:
                raise ValueError(f"passed[{p}]: nobody passes before play starts")
            s.passed |= <uint8_t>(1 << p)
    # --- whose turn, which step (rule 三 3 play, 四 4 end of the game) ---
    s.phase = phase
    s.current = field_int(raw["current"], "current", 0, players - 1)
    all_passed = s.passed == (1 << players) - 1
    if (phase == PH_OVER) != all_passed:
        raise ValueError("phase: the game is over exactly when every player has passed "
                         "(rule 4)")
    if phase < PH_TURN and s.current != 0:
        raise ValueError("current: player 0 is to move when play starts")
    if PH_TURN <= phase < PH_OVER and (s.passed >> s.current) & 1:
        raise ValueError(f"current: player {s.current} has passed for the game (rule 4)")
    if phase == PH_AFTER_POWER and not has_main_action(s, t, s.current):
        raise ValueError("phase: after a power one of the three actions follows, and "
                         f"player {s.current} has none (rule 7.2.1)")
    if phase == PH_AFTER_POWER and s.power_tokens[s.current] == t.race_tokens[
            s.race[s.current]]:
        raise ValueError(f"power_tokens[{s.current}]: after a power the player has used "
                         "a token")
    if phase == PH_SECOND_PALISADE and not (placed and any_palisade_legal(s)):
        raise ValueError("phase: a second palisade follows a first one, and needs a free "
                         "gap (rule 3)")
    # --- the counters: how many actions led here, and the last one ---
    actions_min = (mines_filled + races + popcount64(s.occupied) + placed
                   + popcount64(s.reinf_mask) + arrows_total + popcount64(s.passed))
    s.move_count = field_int(raw["move_count"], "move_count", actions_min, 1 << 24)
    s.last_action = field_int(raw["last_action"], "last_action", -1, t.num_actions - 1)
    if (s.last_action < 0) != (s.move_count == 0):
        raise ValueError("last_action: -1 exactly before the first action")
    _check_last_action(s, t)
    return 0


cdef int _check_last_action(const ArmadoraState* s, const ArmadoraTables* t) except -1:
    """The last action left its mark on the position: it is one play could have ended
    with here (a placed warrior on its square, a palisade on its gap, a pile on the last
    filled mine...)."""
    cdef int a = s.last_action, x, c
    cdef bint ok = True
    if a < 0:
        return 0
    if a >= t.a_race:
        ok = s.races_dealt_count > 0 and s.race[s.races_dealt_count - 1] == a - t.a_race
        ok = ok and s.phase <= PH_TURN and s.occupied == 0 and s.palisades_left == \
            t.palisades_total
    elif a >= t.a_gold:
        ok = (s.mines_filled > 0 and s.races_dealt_count == 0
              and s.gold[t.mine_cells[s.mines_filled - 1]] == a - t.a_gold)
        ok = ok and s.occupied == 0 and s.palisades_left == t.palisades_total
    elif s.phase < PH_TURN:
        ok = False  # a player's action before the setup is done
    elif a == ACT_PASS:
        ok = s.passed != 0
    elif a == ACT_DONE:
        ok = s.palisades_left < t.palisades_total
    elif a < t.a_warrior or t.a_orc <= a < t.a_peek:
        ok = edge_has_palisade(s, a - (t.a_orc if a >= t.a_orc else t.a_palisade))
    elif a < t.a_orc:
        x = a - (t.a_goblin if a >= t.a_goblin else t.a_warrior)
        c = x // AR_MAX_STRENGTH
        ok = (s.owner[c] and s.strength[c] == x % AR_MAX_STRENGTH + 1
              and s.face_up[c] == (a >= t.a_goblin))
    elif a < t.a_arrow:
        ok = ((s.known[0] | s.known[1] | s.known[2] | s.known[3]) >> (a - t.a_peek)) & 1
    elif a < t.a_reinforce:
        ok = s.arrows[a - t.a_arrow] > 0
    else:
        ok = s.reinforced[a - t.a_reinforce]
    if not ok:
        raise ValueError("last_action: the position does not show it (the last action "
                         "leaves its mark: a warrior, a palisade, a pile...)")
    return 0
