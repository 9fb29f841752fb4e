"""MCTS, ISMCTS and the alpha-beta family against the C-level game contract.

Everything per simulation or per node runs without the GIL on preallocated buffers:
states are copied with memcpy, trees live in one growable array of nodes, and no Python
object is touched inside the loops.  The ``run_*`` functions at the bottom are the only
Python-facing entry points (used by ``boardrules.search``).
"""

import threading

from libc.math cimport log, sqrt
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc, qsort, realloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from boardrules._ext.core cimport (
    CHANCE_PLAYER,
    MAX_PLAYERS,
    TERMINAL_PLAYER,
    CoreState,
    GameContract,
    Rng,
    rng_below,
    rng_seed,
    rng_uniform,
)

cdef enum:
    TT_EXACT = 0
    TT_LOWER = 1
    TT_UPPER = 2

cdef double INF = 1e300


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int sample(const double* probs, int n, Rng* rng) noexcept nogil:
    """Index drawn with the given probabilities."""
    cdef double u = rng_uniform(rng)
    cdef int i = 0
    while i < n - 1 and u >= probs[i]:
        u -= probs[i]
        i += 1
    return i


# --------------------------------------------------------------------------------------
# MCTS / ISMCTS
# --------------------------------------------------------------------------------------

cdef int32_t new_node(Tree* tree, int32_t parent, int action) noexcept nogil:
    """Append a child of ``parent`` (or the root when parent < 0); -1 when out of memory."""
    cdef Node* grown
    cdef int32_t cap
    if tree.size == tree.capacity:
        cap = 1024 if tree.capacity == 0 else 2 * tree.capacity
        grown = <Node*>realloc(tree.nodes, sizeof(Node) * cap)
        if grown == NULL:
            return -1
        tree.nodes = grown
        tree.capacity = cap
    cdef int32_t idx = tree.size
    cdef Node* node = &tree.nodes[idx]
    tree.size += 1
    memset(node, 0, sizeof(Node))
    node.parent = parent
    node.action = action
    node.first_child = -1
    node.next_sibling = -1
    node.player = -2
    if parent >= 0:
        node.next_sibling = tree.nodes[parent].first_child
        tree.nodes[parent].first_child = idx
    return idx


cdef int32_t find_child(const Tree* tree, int32_t parent, int action) noexcept nogil:
    cdef int32_t ch = tree.nodes[parent].first_child
    while ch >= 0:
        if tree.nodes[ch].action == action:
            return ch
        ch = tree.nodes[ch].next_sibling
    return -1


cdef void rollout(const GameContract* c, void* s, int limit, int* acts, double* probs,
                  Rng* rng, double* out) noexcept nogil:
    """Uniformly random moves (chance by its probabilities) to the end, or ``limit``
    moves then the game's heuristic."""
    cdef int steps = 0
    cdef int p, n, i
    while True:
        p = c.current_player(s, c.tables)
        if p == TERMINAL_PLAYER:
            c.returns(s, c.tables, out)
            return
        if limit >= 0 and steps >= limit:
            c.evaluate(s, c.tables, out)
            return
        if p == CHANCE_PLAYER:
            n = c.chance_outcomes(s, c.tables, acts, probs)
            i = sample(probs, n, rng)
        else:
            n = c.legal_actions(s, c.tables, acts)
            i = rng_below(rng, n)
        c.apply(s, c.tables, acts[i])
        steps += 1


cdef int32_t select_child(const Tree* tree, int32_t node, int player, const int* mark,
                          int tried, double exploration, bint ismcts) noexcept nogil:
    """UCT among the children available in this world (``mark[action] == tried``).

    ISMCTS counts a child's availability instead of the parent's visits (SO-ISMCTS)."""
    cdef int32_t ch = tree.nodes[node].first_child
    cdef int32_t best = -1
    cdef double best_score = -INF
    cdef double score, parent_n
    cdef const Node* child
    cdef double log_parent = log(tree.nodes[node].visits + 1.0)
    while ch >= 0:
        child = &tree.nodes[ch]
        if mark[child.action] == tried:
            parent_n = log(child.avail + 1.0) if ismcts else log_parent
            score = (child.value[player] / child.visits
                     + exploration * sqrt(parent_n / child.visits))
            if score > best_score:
                best_score = score
                best = ch
        ch = child.next_sibling
    return best


cdef int mcts_search(const GameContract* c, const void* root, const MctsParams* params,
                     Tree* tree, MctsStats* stats) noexcept nogil:
    """Grow ``tree`` (empty or from an earlier call) by UCT iterations from ``root``."""
    cdef size_t size = c.state_size
    cdef char* s = <char*>malloc(size)
    cdef char* world = <char*>malloc(size)
    cdef int* acts = <int*>malloc(sizeof(int) * c.max_legal_actions)
    cdef double* probs = <double*>malloc(sizeof(double) * c.max_legal_actions)
    cdef int* mark = <int*>malloc(sizeof(int) * c.num_distinct_actions)
    cdef int32_t* path = <int32_t*>malloc(sizeof(int32_t) * (c.max_game_length + 2))
    cdef double out[MAX_PLAYERS]
    cdef Rng rng
    cdef int stamp = 0
    cdef int legal_mark, tried_mark
    cdef int32_t node, child, ch
    cdef int p, n, i, k, untried, npath, a
    cdef double t0 = now()
    cdef long it = 0
    stats.status = 0
    if s == NULL or world == NULL or acts == NULL or probs == NULL or mark == NULL or path == NULL:
        stats.status = -1
    elif tree.size == 0 and new_node(tree, -1, -1) < 0:
        stats.status = -1
    if stats.status == 0:
        memset(mark, 0, sizeof(int) * c.num_distinct_actions)
        rng_seed(&rng, params.seed)
        memcpy(world, root, size)
        if params.determinize_once:
            c.determinize(world, c.tables, params.observer, &rng)
    while stats.status == 0:
        if params.iterations > 0 and it >= params.iterations:
            break
        if params.time_limit > 0 and (it & 31) == 0 and now() - t0 >= params.time_limit:
            break
        memcpy(s, world, size)
        if params.ismcts:
            c.determinize(s, c.tables, params.observer, &rng)
        node = 0
        path[0] = 0
        npath = 1
        # selection and expansion
        while True:
            p = c.current_player(s, c.tables)
            tree.nodes[node].player = p
            if p == TERMINAL_PLAYER:
                break
            if p == CHANCE_PLAYER:
                n = c.chance_outcomes(s, c.tables, acts, probs)
                a = acts[sample(probs, n, &rng)]
                child = find_child(tree, node, a)
                if child < 0:
                    child = new_node(tree, node, a)
                    if child < 0:
                        stats.status = -1
                        break
                c.apply(s, c.tables, a)
                node = child
                path[npath] = node
                npath += 1
                continue
            n = c.legal_actions(s, c.tables, acts)
            stamp += 1
            legal_mark = 2 * stamp
            tried_mark = 2 * stamp + 1
            for i in range(n):
                mark[acts[i]] = legal_mark
            untried = n
            ch = tree.nodes[node].first_child
            while ch >= 0:
                if mark[tree.nodes[ch].action] == legal_mark:
                    mark[tree.nodes[ch].action] = tried_mark
                    untried -= 1
                    if params.ismcts:
                        tree.nodes[ch].avail += 1
                ch = tree.nodes[ch].next_sibling
            if untried > 0:
                k = rng_below(&rng, untried)
                for i in range(n):
                    if mark[acts[i]] == legal_mark:
                        if k == 0:
                            a = acts[i]
                            break
                        k -= 1
                child = new_node(tree, node, a)
                if child < 0:
                    stats.status = -1
                    break
                tree.nodes[child].avail = 1
                c.apply(s, c.tables, a)
                path[npath] = child
                npath += 1
                break
            child = select_child(tree, node, p, mark, tried_mark, params.exploration,
                                 params.ismcts)
            c.apply(s, c.tables, tree.nodes[child].action)
            node = child
            path[npath] = node
            npath += 1
        if stats.status != 0:
            break
        rollout(c, s, params.rollout_limit, acts, probs, &rng, out)
        for i in range(npath):
            tree.nodes[path[i]].visits += 1
            for k in range(c.num_players):
                tree.nodes[path[i]].value[k] += out[k]
        if npath - 1 > stats.max_depth:
            stats.max_depth = npath - 1
        it += 1
    stats.iterations += it
    stats.nodes = tree.size
    stats.seconds += now() - t0
    free(s)
    free(world)
    free(acts)
    free(probs)
    free(mark)
    free(path)
    return stats.status


cdef class _MctsJob:
    """One tree of a root-parallel search (owned memory, run without the GIL)."""
    cdef const GameContract* c
    cdef char* root
    cdef MctsParams params
    cdef Tree tree
    cdef MctsStats stats

    def __dealloc__(self):
        free(self.root)
        free(self.tree.nodes)

    def run(self):
        with nogil:
            mcts_search(self.c, self.root, &self.params, &self.tree, &self.stats)


cdef int check_search_arguments(const GameContract* c, int observer,
                                int threads) except -1:
    # A bad value here would index past the state's arrays or divide by zero in C.
    if not 0 <= observer < c.num_players:
        raise ValueError("observer must be a player of the game")
    if not 1 <= threads <= 64:
        raise ValueError("threads must be 1 to 64")
    return 0


def run_mcts(CoreState st, long iterations, double time_limit, double exploration,
             int rollout_limit, bint ismcts, bint determinize_once, int observer,
             uint64_t seed, int threads):
    """Root-parallel (IS)MCTS from ``st``: per root action (action, visits, mean value for
    the player to move), the principal variation and statistics."""
    cdef const GameContract* c = st.c
    cdef int mover = c.current_player(st.data, c.tables)
    if mover < 0:
        raise ValueError("search needs a player to move (not a chance node, not terminal)")
    check_search_arguments(c, observer, threads)
    if iterations < 0 or (iterations == 0 and not time_limit > 0):
        raise ValueError("give a positive iteration budget or a time limit")
    if not (exploration >= 0 and exploration < 1e300):
        raise ValueError("exploration must be a finite number >= 0")
    cdef list jobs = []
    cdef _MctsJob job
    cdef int t
    cdef long per_thread
    for t in range(threads):
        job = _MctsJob()
        job.c = c
        job.root = <char*>malloc(c.state_size)
        if job.root == NULL:
            raise MemoryError()
        memcpy(job.root, st.data, c.state_size)
        memset(&job.tree, 0, sizeof(Tree))
        memset(&job.stats, 0, sizeof(MctsStats))
        per_thread = iterations // threads + (1 if t < iterations % threads else 0)
        # the node pool: one node per iteration (plus the root); chance outcomes sampled
        # for the first time and time-limited searches grow it by doubling
        job.tree.capacity = min(per_thread + 2, 1 << 20) if iterations > 0 else 1 << 16
        job.tree.nodes = <Node*>malloc(sizeof(Node) * job.tree.capacity)
        if job.tree.nodes == NULL:
            raise MemoryError()
        job.params.iterations = per_thread if iterations > 0 else 0
        job.params.time_limit = time_limit
        job.params.exploration = exploration
        job.params.rollout_limit = rollout_limit
        job.params.ismcts = ismcts
        job.params.determinize_once = determinize_once
        job.params.observer = observer
        job.params.seed = seed + <uint64_t>0x9E3779B97F4A7C15 * t
        jobs.append(job)
    if threads == 1:
        jobs[0].run()
    else:
        workers = [threading.Thread(target=j.run) for j in jobs]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    totals = {}
    it = 0
    depth = 0
    seconds = 0.0
    nodes = 0
    for job in jobs:
        if job.stats.status != 0:
            raise MemoryError("search tree")
        it += job.stats.iterations
        nodes += job.stats.nodes
        depth = max(depth, job.stats.max_depth)
        seconds = max(seconds, job.stats.seconds)
        ch = job.tree.nodes[0].first_child
        while ch >= 0:
            v, val = totals.get(job.tree.nodes[ch].action, (0, 0.0))
            totals[job.tree.nodes[ch].action] = (v + job.tree.nodes[ch].visits,
                                                 val + job.tree.nodes[ch].value[mover])
            ch = job.tree.nodes[ch].next_sibling
    children = sorted(((a, n, val / n if n else 0.0) for a, (n, val) in totals.items()),
                      key=lambda x: (-x[1], -x[2], x[0]))
    pv = []
    if children:
        job = jobs[0]
        node = find_child(&job.tree, 0, children[0][0])
        while node >= 0:
            pv.append(job.tree.nodes[node].action)
            node = _most_visited_child(&job.tree, node)
    return {"children": children, "pv": pv, "iterations": it, "nodes": nodes,
            "max_depth": depth, "seconds": seconds}


cdef int32_t _most_visited_child(const Tree* tree, int32_t node) noexcept nogil:
    cdef int32_t ch = tree.nodes[node].first_child
    cdef int32_t best = -1
    cdef int best_visits = 0
    if tree.nodes[node].player < 0:
        return -1
    while ch >= 0:
        if tree.nodes[ch].visits > best_visits:
            best_visits = tree.nodes[ch].visits
            best = ch
        ch = tree.nodes[ch].next_sibling
    return best


# --------------------------------------------------------------------------------------
# Alpha-beta: iterative deepening, transposition table, hash move + history ordering;
# two sides (the root player's team against the rest: paranoid beyond two sides);
# expectimax at chance nodes.
# --------------------------------------------------------------------------------------

ctypedef struct AbCtx:
    const GameContract* c
    AbParams params
    TTEntry* tt
    uint64_t tt_mask
    int64_t* history
    char* states
    int* acts
    double* probs
    int64_t* keys
    long nodes
    double t0
    bint stop
    int root_team


cdef int compare_desc(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<const int64_t*>a)[0]
    cdef int64_t y = (<const int64_t*>b)[0]
    return (x < y) - (x > y)


cdef void sort_desc_small(int64_t* keys, int n) noexcept nogil:
    """Insertion sort, descending: faster than qsort for the few moves of most nodes."""
    cdef int i, j
    cdef int64_t v
    for i in range(1, n):
        v = keys[i]
        j = i - 1
        while j >= 0 and keys[j] < v:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = v


cdef void order_moves(AbCtx* x, int* acts, int n, int first, int64_t* keys) noexcept nogil:
    """Hash move first, then by history score (ties: ascending action id)."""
    cdef int i
    cdef int64_t h
    for i in range(n):
        if acts[i] == first:
            h = (<int64_t>1) << 40
        else:
            h = x.history[acts[i]]
            if h > ((<int64_t>1) << 39):
                h = (<int64_t>1) << 39
        keys[i] = (h << 20) | (0xFFFFF - acts[i])
    if n <= 24:
        sort_desc_small(keys, n)
    else:
        qsort(keys, n, sizeof(int64_t), compare_desc)
    for i in range(n):
        acts[i] = <int>(0xFFFFF - (keys[i] & 0xFFFFF))


cdef double alphabeta(AbCtx* x, int ply, int depth, double alpha, double beta) noexcept nogil:
    """Value of state ``ply`` for the root player's side, searched ``depth`` plies."""
    cdef const GameContract* c = x.c
    cdef size_t size = c.state_size
    cdef char* s = x.states + ply * size
    cdef char* child = s + size
    cdef int* acts = x.acts + ply * c.max_legal_actions
    cdef double* probs = x.probs + ply * c.max_legal_actions
    cdef double out[MAX_PLAYERS]
    cdef int p, n, i, best_action = -1, hash_move = -1
    cdef double v, best, alpha0 = alpha, beta0 = beta
    cdef bint maximizing
    cdef uint64_t key = 0
    cdef TTEntry* entry = NULL
    x.nodes += 1
    if (x.nodes & 4095) == 0 and x.params.time_limit > 0 and now() - x.t0 >= x.params.time_limit:
        x.stop = True
    if x.stop:
        return 0.0
    p = c.current_player(s, c.tables)
    if p == TERMINAL_PLAYER:
        c.returns(s, c.tables, out)
        # a result reached sooner counts a little more: quick wins, slow losses
        return out[x.params.root_player] * (1.0 - 0.001 * ply)
    if depth <= 0:
        c.evaluate(s, c.tables, out)
        return out[x.params.root_player] * 0.999
    if p == CHANCE_PLAYER:
        n = c.chance_outcomes(s, c.tables, acts, probs)
        v = 0.0
        for i in range(n):
            memcpy(child, s, size)
            c.apply(child, c.tables, acts[i])
            v += probs[i] * alphabeta(x, ply + 1, depth - 1, -INF, INF)
        return v
    key = c.hash(s, c.tables)
    entry = &x.tt[key & x.tt_mask]
    if entry.key == key:
        hash_move = entry.best
        if entry.depth >= depth:
            if entry.flag == TT_EXACT:
                return entry.value
            if entry.flag == TT_LOWER and entry.value > alpha:
                alpha = entry.value
            elif entry.flag == TT_UPPER and entry.value < beta:
                beta = entry.value
            if alpha >= beta:
                return entry.value
    n = c.legal_actions(s, c.tables, acts)
    order_moves(x, acts, n, hash_move, x.keys + ply * c.max_legal_actions)
    maximizing = c.team_of[p] == x.root_team
    best = -INF if maximizing else INF
    for i in range(n):
        memcpy(child, s, size)
        c.apply(child, c.tables, acts[i])
        v = alphabeta(x, ply + 1, depth - 1, alpha, beta)
        if x.stop:
            return 0.0
        if (maximizing and v > best) or (not maximizing and v < best):
            best = v
            best_action = acts[i]
        if maximizing and best > alpha:
            alpha = best
        elif not maximizing and best < beta:
            beta = best
        if alpha >= beta:
            x.history[acts[i]] += depth * depth
            break
    entry.key = key
    entry.value = best
    entry.best = best_action
    entry.depth = depth
    entry.flag = TT_UPPER if best <= alpha0 else (TT_LOWER if best >= beta0 else TT_EXACT)
    return best


cdef int ab_alloc(AbCtx* x, const GameContract* c, const AbParams* params) noexcept nogil:
    cdef int plies = params.max_depth + 2
    memset(x, 0, sizeof(AbCtx))
    x.c = c
    x.params = params[0]
    x.tt_mask = ((<uint64_t>1) << params.tt_bits) - 1
    x.tt = <TTEntry*>malloc(sizeof(TTEntry) * (x.tt_mask + 1))
    x.history = <int64_t*>malloc(sizeof(int64_t) * c.num_distinct_actions)
    x.states = <char*>malloc(c.state_size * (plies + 1))
    x.acts = <int*>malloc(sizeof(int) * c.max_legal_actions * plies)
    x.probs = <double*>malloc(sizeof(double) * c.max_legal_actions * plies)
    x.keys = <int64_t*>malloc(sizeof(int64_t) * c.max_legal_actions * plies)
    if (x.tt == NULL or x.history == NULL or x.states == NULL or x.acts == NULL
            or x.probs == NULL or x.keys == NULL):
        return -1
    x.root_team = c.team_of[params.root_player]
    return 0


cdef void ab_reset(AbCtx* x) noexcept nogil:
    memset(x.tt, 0, sizeof(TTEntry) * (x.tt_mask + 1))
    memset(x.history, 0, sizeof(int64_t) * x.c.num_distinct_actions)


cdef void ab_free(AbCtx* x) noexcept nogil:
    free(x.tt)
    free(x.history)
    free(x.states)
    free(x.acts)
    free(x.probs)
    free(x.keys)


cdef int ab_root(AbCtx* x, const void* root, int* root_acts, double* values, long* nodes,
                 int n, AbStats* stats) noexcept nogil:
    """Iterative deepening over the root moves (each searched with a full window, so
    every root value is exact).  ``values`` and ``nodes`` hold the last completed depth's
    value and node count per root move, best first."""
    cdef const GameContract* c = x.c
    cdef size_t size = c.state_size
    cdef double* current = <double*>malloc(sizeof(double) * n)
    cdef long* counted = <long*>malloc(sizeof(long) * n)
    cdef int depth, i, j, a
    cdef long before, tmpn
    cdef double tmpv
    if current == NULL or counted == NULL:
        free(current)
        free(counted)
        return -1
    stats.depth_reached = 0
    memcpy(x.states, root, size)
    for depth in range(1, x.params.max_depth + 1):
        for i in range(n):
            memcpy(x.states + size, root, size)
            c.apply(x.states + size, c.tables, root_acts[i])
            before = x.nodes
            current[i] = alphabeta(x, 1, depth - 1, -INF, INF)
            counted[i] = x.nodes - before
            if x.stop:
                break
        if x.stop:
            stats.status = 1
            break
        for i in range(n):
            values[i] = current[i]
            nodes[i] = counted[i]
        stats.depth_reached = depth
        # best first for the next iteration (stable insertion sort on the values)
        for i in range(1, n):
            a = root_acts[i]
            tmpv = values[i]
            tmpn = nodes[i]
            j = i - 1
            while j >= 0 and values[j] < tmpv:
                root_acts[j + 1] = root_acts[j]
                values[j + 1] = values[j]
                nodes[j + 1] = nodes[j]
                j -= 1
            root_acts[j + 1] = a
            values[j + 1] = tmpv
            nodes[j + 1] = tmpn
    free(current)
    free(counted)
    return 0


cdef int ab_principal_variation(AbCtx* x, const void* root, int first, int* out,
                                int max_len) noexcept nogil:
    """The best line from ``root``: ``first``, then the transposition table's best moves
    for as long as they are stored, legal, and the game goes on."""
    cdef const GameContract* c = x.c
    cdef char* s = x.states
    cdef int* acts = x.acts
    cdef int n = 0, count, i, best
    cdef bint legal
    cdef uint64_t key
    cdef TTEntry* entry
    memcpy(s, root, c.state_size)
    best = first
    while n < max_len:
        out[n] = best
        n += 1
        c.apply(s, c.tables, best)
        if c.current_player(s, c.tables) < 0:
            break
        key = c.hash(s, c.tables)
        entry = &x.tt[key & x.tt_mask]
        if entry.key != key or entry.best < 0:
            break
        best = entry.best
        count = c.legal_actions(s, c.tables, acts)
        legal = False
        for i in range(count):
            if acts[i] == best:
                legal = True
                break
        if not legal:
            break
    return n


cdef class _AbJob:
    """One thread's share of the root moves in a root-parallel alpha-beta (own table)."""
    cdef AbCtx x
    cdef int* acts
    cdef double* values
    cdef long* nodes
    cdef int n
    cdef const char* world
    cdef AbStats stats
    cdef int rc

    def __cinit__(self):
        memset(&self.x, 0, sizeof(AbCtx))
        self.acts = NULL
        self.values = NULL
        self.nodes = NULL

    def __dealloc__(self):
        ab_free(&self.x)
        free(self.acts)
        free(self.values)
        free(self.nodes)

    cdef int setup(self, const GameContract* c, const AbParams* params) except -1:
        self.acts = <int*>malloc(sizeof(int) * c.max_legal_actions)
        self.values = <double*>malloc(sizeof(double) * c.max_legal_actions)
        self.nodes = <long*>malloc(sizeof(long) * c.max_legal_actions)
        if (self.acts == NULL or self.values == NULL or self.nodes == NULL
                or ab_alloc(&self.x, c, params) < 0):
            raise MemoryError()
        return 0

    def run(self):
        with nogil:
            self.rc = ab_root(&self.x, self.world, self.acts, self.values, self.nodes,
                              self.n, &self.stats)


def run_alphabeta(CoreState st, int max_depth, double time_limit, int determinizations,
                  bint hidden, int observer, uint64_t seed, int tt_bits, int threads=1):
    """Alpha-beta from ``st`` (over ``determinizations`` worlds redrawn for ``observer``
    when ``hidden``): per root action (action, nodes, mean value for the player to move)
    and statistics.  With ``threads`` > 1 the root moves are dealt round-robin to that
    many threads, each searching its share with its own table (every root move is
    searched with a full window, so the values do not depend on the split)."""
    cdef const GameContract* c = st.c
    cdef int mover = c.current_player(st.data, c.tables)
    if mover < 0:
        raise ValueError("search needs a player to move (not a chance node, not terminal)")
    if not 1 <= max_depth <= 100:
        raise ValueError("depth must be 1 to 100")
    if not 10 <= tt_bits <= 28:
        raise ValueError("tt_bits must be 10 to 28")
    check_search_arguments(c, observer, threads)
    if determinizations < 1:
        raise ValueError("determinizations must be >= 1")
    cdef AbParams params
    cdef Rng rng
    cdef int n, i, t, depth
    cdef int worlds = determinizations if hidden else 1
    cdef int used = 0
    cdef int* acts = <int*>malloc(sizeof(int) * c.max_legal_actions)
    cdef char* world = <char*>malloc(c.state_size)
    cdef int pv[100]
    cdef int pv_len = 0
    cdef _AbJob job
    cdef double t0 = now()
    cdef bint stopped = False
    params.max_depth = max_depth
    params.time_limit = time_limit
    params.root_player = mover
    params.tt_bits = tt_bits
    totals = {}
    depth_reached = max_depth
    jobs = []
    try:
        if acts == NULL or world == NULL:
            raise MemoryError()
        for _ in range(threads):
            job = _AbJob()
            job.setup(c, &params)
            job.world = world
            jobs.append(job)
        rng_seed(&rng, seed)
        for _ in range(worlds):
            memcpy(world, st.data, c.state_size)
            if hidden:
                c.determinize(world, c.tables, observer, &rng)
            n = c.legal_actions(world, c.tables, acts)
            for t, job in enumerate(jobs):
                job.n = 0
                for i in range(t, n, threads):
                    job.acts[job.n] = acts[i]
                    job.n += 1
                ab_reset(&job.x)
                job.x.t0 = t0
                job.stats.depth_reached = 0
            busy = []
            for job in jobs:
                if job.n > 0:
                    busy.append(job)
            if len(busy) == 1:
                busy[0].run()
            else:
                workers = [threading.Thread(target=j.run) for j in busy]
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
            depth = max_depth
            any_stop = False
            for job in busy:
                if job.rc < 0:
                    raise MemoryError()
                depth = min(depth, job.stats.depth_reached)
                any_stop = any_stop or job.x.stop
            if depth == 0:
                break
            depth_reached = min(depth_reached, depth)
            used += 1
            best_job, best_value = None, -INF
            for job in busy:
                for i in range(job.n):
                    v, k = totals.get(job.acts[i], (0.0, 0))
                    totals[job.acts[i]] = (v + job.values[i], k + job.nodes[i])
                if job.values[0] > best_value:
                    best_job, best_value = job, job.values[0]
            # the line of the first world (hidden information: one sampled world's line)
            if used == 1:
                job = best_job
                pv_len = ab_principal_variation(&job.x, world, job.acts[0], pv,
                                                job.stats.depth_reached)
            if any_stop:
                stopped = True
                break
        total_nodes = 0
        for job in jobs:
            total_nodes += job.x.nodes
    finally:
        free(acts)
        free(world)
    children = sorted(((a, k, v / used) for a, (v, k) in totals.items()),
                      key=lambda item: (-item[2], item[0]))
    line = [pv[i] for i in range(pv_len)]
    if children and (not line or line[0] != children[0][0]):
        line = [children[0][0]]  # averaged over worlds, another move came out best
    return {"children": children, "pv": line, "nodes": total_nodes,
            "depth": depth_reached if used else 0, "seconds": now() - t0,
            "stopped": stopped, "worlds": used}
