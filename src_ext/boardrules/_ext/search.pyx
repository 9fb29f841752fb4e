"""MCTS, ISMCTS and the alpha-beta family against the C-level game contract.

Everything per simulation or per node runs without the GIL on preallocated buffers:
states are copied with memcpy, trees live in one growable array of nodes, and no Python
object is touched inside the loops.  The ``run_*`` functions at the bottom are the only
Python-facing entry points (used by ``boardrules.search``).

Every search runs in worker threads, also with one thread, while the calling thread waits
in short timeouts: a signal handler (Ctrl-C) or ``should_stop`` can then stop it.  Each
job owns all the memory its thread reads; on any exception the jobs are told to stop at
once and every thread is waited for before the exception goes on and the jobs are freed.
MCTS runs one C thread per tree (mcts_worker_main), all of them stopping at one deadline
taken at the call's start; alpha-beta, which searches world after world, one C thread per
job for the whole search (ab_worker_main), handed each world through two locks, so that
its threads neither start per world nor wait for the GIL.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (
    NOWAIT_LOCK,
    PY_LOCK_ACQUIRED,
    WAIT_LOCK,
    PyLockStatus,
    PyThread_acquire_lock,
    PyThread_allocate_lock,
    PyThread_free_lock,
    PyThread_release_lock,
    PyThread_start_new_thread,
    PyThread_type_lock,
)
from libc.math cimport fabs, log, sqrt
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memcmp, memcpy, memset

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

from boardrules.errors import InvalidStateError

cdef enum:
    TT_EXACT = 0
    TT_LOWER = 1
    TT_UPPER = 2

cdef double INF = 1e300

# MctsStats.status besides 0 (searched) and -1 (out of memory).  No search trusts a state:
# a world determinize drew, or any state below it, that is not over and gives its player
# no move (or a chance node no outcome) is a rules core contradicting itself -- Rome &
# Carthage's worlds at a payment up to 0.5.0 -- and the search stops there and reports
# it (InvalidStateError, raise_state_errors) instead of applying a move that is not there.
cdef enum:
    SEARCH_NO_MOVE = -2       # a state not over with no move, or a chance node no outcome
    SEARCH_BAD_WORLD = -3     # a world with another player to move than the state searched
# How often the calling thread wakes to look at should_stop (and lets signal handlers run).
POLL_SECONDS = 0.02


cdef extern from *:
    """
    /* The stop flag is written by the calling thread and read in the search loops: a
       relaxed atomic access, so the compiler may neither hoist the read out of a loop nor
       tear it. */
    #if defined(_MSC_VER)
    static inline int br_load_flag(const int* p) { return *(volatile const int*)p; }
    static inline void br_store_flag(int* p, int v) { *(volatile int*)p = v; }
    #else
    static inline int br_load_flag(const int* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void br_store_flag(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    #endif
    """
    int load_flag "br_load_flag"(const int* p) noexcept nogil
    void store_flag "br_store_flag"(int* p, int v) noexcept nogil


cdef extern from *:
    """
    /* How many search worker threads run (ab_worker_main, mcts_worker_main): atomic. */
    static long br_live_workers = 0;
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline void br_add_live(long v) { _InterlockedExchangeAdd(&br_live_workers, v); }
    static inline long br_get_live(void) { return _InterlockedOr(&br_live_workers, 0); }
    #else
    static inline void br_add_live(long v) {
        __atomic_fetch_add(&br_live_workers, v, __ATOMIC_SEQ_CST);
    }
    static inline long br_get_live(void) {
        return __atomic_load_n(&br_live_workers, __ATOMIC_SEQ_CST);
    }
    #endif
    """
    void add_live "br_add_live"(long v) noexcept nogil
    long get_live "br_get_live"() noexcept nogil


cdef extern from *:
    """
    /* Zeroed memory straight from the OS, its pages mapped only when first touched: a
       transposition table costs what the search uses of it, never a memset (calloc from
       the heap clears it: glibc serves 1-24 MiB from the heap once a search has freed a
       larger block, and clearing 64 tables took longer than a 0.2 s search). */
    #if defined(_WIN32)
    #include <windows.h>
    static void* br_zero_pages(size_t n, int huge) {
        (void)huge;
        return VirtualAlloc(NULL, n, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    }
    static void br_free_pages(void* p, size_t n) { (void)n; if (p) VirtualFree(p, 0, MEM_RELEASE); }
    #else
    #include <sys/mman.h>
    static void* br_zero_pages(size_t n, int huge) {
        void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        /* Huge pages on request, where the system offers them: a table touched all over
           faults in 2 MiB pages, not 4 KiB ones (12,000 faults, a fifth of the CPU time
           of a 0.13 s Connect Four search, without); a refusal leaves the small pages. */
        if (huge && n >= ((size_t)2 << 20)) (void)madvise(p, n, MADV_HUGEPAGE);
    #endif
        return p;
    }
    static void br_free_pages(void* p, size_t n) { if (p) munmap(p, n); }
    #endif
    """
    void* zero_pages "br_zero_pages"(size_t n, int huge) noexcept nogil
    void free_pages "br_free_pages"(void* p, size_t n) noexcept nogil


cdef extern from *:
    """
    /* Memory aligned to a cache line, for the MCTS node array (a node is 64 bytes). */
    #if defined(_WIN32)
    #include <malloc.h>
    static void* br_aligned_alloc(size_t n) { return _aligned_malloc(n ? n : 64, 64); }
    static void br_aligned_free(void* p) { _aligned_free(p); }
    #else
    #include <stdlib.h>
    static void* br_aligned_alloc(size_t n) {
        void* p = NULL;
        return posix_memalign(&p, 64, n ? n : 64) == 0 ? p : NULL;
    }
    static void br_aligned_free(void* p) { free(p); }
    #endif
    """
    void* aligned_alloc "br_aligned_alloc"(size_t n) noexcept nogil
    void aligned_free "br_aligned_free"(void* p) noexcept nogil


cdef extern from "pythread.h":
    # Not in Cython's cpython/pythread.pxd; in CPython since 3.2 (PY_TIMEOUT_T is long long).
    PyLockStatus PyThread_acquire_lock_timed(PyThread_type_lock lock, long long microseconds,
                                             int intr_flag) nogil


cdef extern from *:
    """
    /* A monotonic clock in seconds: QueryPerformanceCounter on Windows, clock_gettime
       elsewhere (MSVC has no POSIX clocks). */
    #if defined(_WIN32)
    #include <windows.h>
    static double br_now(void) {
        LARGE_INTEGER count, frequency;
        QueryPerformanceCounter(&count);
        QueryPerformanceFrequency(&frequency);
        return (double)count.QuadPart / (double)frequency.QuadPart;
    }
    #else
    #include <time.h>
    static double br_now(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec * 1e-9;
    }
    #endif
    """
    double now "br_now"() noexcept nogil


cdef extern from *:
    """
    /* CPU seconds the calling thread has used: a search's CPU budget is its own thread's,
       so that on a busy machine it is not cut short by time it did not run. */
    #if defined(_WIN32)
    #include <windows.h>
    static double br_thread_cpu(void) {
        FILETIME created, exited, kernel, user;
        ULARGE_INTEGER k, u;
        if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user))
            return 0.0;
        k.LowPart = kernel.dwLowDateTime; k.HighPart = kernel.dwHighDateTime;
        u.LowPart = user.dwLowDateTime; u.HighPart = user.dwHighDateTime;
        return (double)(k.QuadPart + u.QuadPart) * 1e-7;
    }
    #else
    #include <time.h>
    static double br_thread_cpu(void) {
        struct timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return ts.tv_sec + ts.tv_nsec * 1e-9;
    }
    #endif
    """
    double thread_cpu "br_thread_cpu"() noexcept nogil


cdef inline int sample(const double* probs, int n, Rng* rng) noexcept nogil:
    """Index drawn with the given probabilities."""
    cdef double u = rng_uniform(rng)
    cdef int i = 0
    while i < n - 1 and u >= probs[i]:
        u -= probs[i]
        i += 1
    return i


# --------------------------------------------------------------------------------------
# Worker threads
# --------------------------------------------------------------------------------------

ctypedef struct MctsWorker:
    # What one MCTS worker thread reads: pointers into its _MctsJob, which outlives it
    # (the job waits for ``done`` before it is freed).
    const GameContract* c
    const char* root
    const MctsParams* params
    Tree* tree
    MctsStats* stats
    PyThread_type_lock done   # released by the worker: its tree is searched


cdef void mcts_worker_main(void* arg) noexcept nogil:
    """An MCTS worker thread: one tree, then it ends.  A plain C thread, like alpha-beta's
    (ab_worker_main): 64 threading.Thread starts took ~0.9 s on a loaded machine."""
    cdef MctsWorker* w = <MctsWorker*>arg
    mcts_search(w.c, w.root, w.params, w.tree, w.stats)
    add_live(-1)
    # its last touch of the job's memory: the caller may free it once done is acquired
    PyThread_release_lock(w.done)


# --------------------------------------------------------------------------------------
# MCTS / ISMCTS
# --------------------------------------------------------------------------------------

cdef int tree_resize(Tree* tree, int64_t cap) noexcept nogil:
    """Give the tree's arrays room for ``cap`` nodes (>= its size): 0, or -1 out of memory
    with the nodes as they were; a side array may have been resized already, so after a
    failed shrink the tree is only good for tree_free (a failed growth leaves it whole:
    a side array that grew only has room to spare).  The node array stays 64-byte
    aligned, so it is copied, not realloc'ed."""
    cdef Node* nodes
    cdef RmStat* rm
    cdef int64_t* avail
    cdef int32_t* kids
    if tree.kids != NULL:
        kids = <int32_t*>realloc(tree.kids, sizeof(int32_t) * cap)
        if kids == NULL:
            return -1
        tree.kids = kids
        kids = <int32_t*>realloc(tree.run_of, sizeof(int32_t) * cap)
        if kids == NULL:
            return -1
        tree.run_of = kids
    if tree.rm != NULL:
        rm = <RmStat*>realloc(tree.rm, sizeof(RmStat) * cap)
        if rm == NULL:
            return -1
        tree.rm = rm
    if tree.avail != NULL:
        avail = <int64_t*>realloc(tree.avail, sizeof(int64_t) * cap)
        if avail == NULL:
            return -1
        tree.avail = avail
    nodes = <Node*>aligned_alloc(sizeof(Node) * cap)
    if nodes == NULL:
        return -1
    if tree.nodes != NULL:
        memcpy(nodes, tree.nodes, sizeof(Node) * tree.size)
        aligned_free(tree.nodes)
    tree.nodes = nodes
    tree.capacity = <int32_t>cap
    return 0


cdef void tree_free(Tree* tree) noexcept nogil:
    aligned_free(tree.nodes)
    free(tree.rm)
    free(tree.avail)
    free(tree.kids)
    free(tree.run_of)
    tree.nodes = NULL
    tree.rm = NULL
    tree.avail = NULL
    tree.kids = NULL
    tree.run_of = NULL
    tree.kids_used = 0
    tree.capacity = 0
    tree.size = 0


cdef int32_t alloc_node(Tree* tree, int32_t parent, int action) noexcept nogil:
    """A fresh node from the pool, linked to nothing yet; -1 when the tree is at its cap or
    out of memory (then ``tree.full`` is set and the tree stops growing)."""
    cdef int64_t cap
    if tree.size >= tree.max_nodes:
        tree.full = True
        return -1
    if tree.size == tree.capacity:
        cap = 1024 if tree.capacity == 0 else 2 * <int64_t>tree.capacity
        if cap > tree.max_nodes:
            cap = tree.max_nodes
        if tree_resize(tree, cap) < 0:
            tree.full = True
            return -1
    cdef int32_t idx = tree.size
    cdef Node* node = &tree.nodes[idx]
    tree.size += 1
    memset(node, 0, sizeof(Node))
    if tree.rm != NULL:
        memset(&tree.rm[idx], 0, sizeof(RmStat))
    if tree.avail != NULL:
        tree.avail[idx] = 0
    node.parent = parent
    node.action = action
    node.first_child = -1
    node.next_sibling = -1
    node.first_pooled = -1
    node.player = -2
    return idx


cdef int32_t new_node(Tree* tree, int32_t parent, int action) noexcept nogil:
    """Append a child of ``parent`` (or the root when parent < 0); -1 when the tree is
    full."""
    cdef int32_t idx = alloc_node(tree, parent, action)
    if idx >= 0 and parent >= 0:
        tree.nodes[idx].next_sibling = tree.nodes[parent].first_child
        tree.nodes[parent].first_child = idx
    return idx


cdef int32_t new_pooled(Tree* tree, int32_t parent, int action, int player) noexcept nogil:
    """Add a pooled statistics node for ``action`` of ``player`` to ``parent``'s pooled
    list (from the same pool as the tree, so the cap bounds both); -1 when full."""
    cdef int32_t idx = alloc_node(tree, parent, action)
    if idx >= 0:
        tree.nodes[idx].flags = NODE_POOLED
        tree.nodes[idx].player = player
        if tree.avail != NULL:
            tree.avail[idx] = 1
        tree.nodes[idx].next_sibling = tree.nodes[parent].first_pooled
        tree.nodes[parent].first_pooled = idx
        tree.pooled += 1
    return idx


cdef int32_t find_child(const Tree* tree, int32_t parent, int action) noexcept nogil:
    cdef int32_t ch = tree.nodes[parent].first_child
    while ch >= 0:
        if tree.nodes[ch].action == action:
            return ch
        ch = tree.nodes[ch].next_sibling
    return -1


cdef int greedy_index(const GameContract* c, const void* s, const int* acts, int n,
                      double* values, Rng* rng) noexcept nogil:
    """The index of the action the game's action_values rate best (ties drawn uniformly)."""
    cdef int i, best = 0
    cdef uint32_t tied = 1
    c.action_values(s, c.tables, acts, n, values)
    for i in range(1, n):
        if values[i] > values[best]:
            best = i
            tied = 1
        elif values[i] == values[best]:
            tied += 1
            if rng_below(rng, tied) == 0:
                best = i
    return best


cdef int rollout(const GameContract* c, void* s, const MctsParams* params, int* acts,
                 double* probs, Rng* rng, double* out) noexcept nogil:
    """Moves to the end, or ``params.rollout_limit`` moves then the game's heuristic:
    chance by its probabilities, a player's move uniformly at random, or with
    ROLLOUT_INFORMED the game's best-valued action but for a uniformly random one with
    probability ``rollout_epsilon``.  Returns 0, or SEARCH_NO_MOVE (``out`` unset) at a
    state that is not over and has no move (see SEARCH_NO_MOVE)."""
    cdef int limit = params.rollout_limit
    cdef bint informed = (params.rollout_policy == ROLLOUT_INFORMED
                          and c.action_values != NULL)
    cdef double epsilon = params.rollout_epsilon
    cdef int steps = 0
    cdef int p, n, i
    while True:
        p = c.current_player(s, c.tables)
        if p == TERMINAL_PLAYER:
            c.returns(s, c.tables, out)
            return 0
        if limit >= 0 and steps >= limit:
            c.evaluate(s, c.tables, out)
            return 0
        if p == CHANCE_PLAYER:
            n = c.chance_outcomes(s, c.tables, acts, probs)
            if n <= 0:
                return SEARCH_NO_MOVE
            i = sample(probs, n, rng)
        else:
            n = c.legal_actions(s, c.tables, acts)
            if n <= 0:
                return SEARCH_NO_MOVE
            if informed and n > 1 and rng_uniform(rng) >= epsilon:
                i = greedy_index(c, s, acts, n, probs, rng)  # probs: free at a decision
            else:
                i = rng_below(rng, n)
        c.apply(s, c.tables, acts[i])
        steps += 1


cdef int32_t select_any(const Tree* tree, int32_t first, double log_parent, int player,
                        double exploration) noexcept nogil:
    """UCT among all the nodes of the list from ``first`` (a node whose every move has a
    child, MCTS): select_child without the availability test, the same choice."""
    cdef int32_t ch = first
    cdef int32_t best = first
    cdef double best_score = -INF
    cdef double score
    cdef const Node* child
    while ch >= 0:
        child = &tree.nodes[ch]
        score = (child.value[player] / child.visits
                 + exploration * sqrt(log_parent / child.visits))
        if score > best_score:
            best_score = score
            best = ch
        ch = child.next_sibling
    return best


cdef int32_t select_run(const Tree* tree, const int32_t* run, int n, double log_parent,
                        int player, double exploration) noexcept nogil:
    """select_any over a node's child run: the same nodes in the same order, so the same
    choice, but no load waits for the one before it."""
    cdef int32_t best = run[0]
    cdef double best_score = -INF
    cdef double score
    cdef const Node* child
    cdef int i
    for i in range(n):
        child = &tree.nodes[run[i]]
        score = (child.value[player] / child.visits
                 + exploration * sqrt(log_parent / child.visits))
        if score > best_score:
            best_score = score
            best = run[i]
    return best


cdef void make_run(Tree* tree, int32_t node, int n) noexcept nogil:
    """Record the ``n`` children of an expanded node as a run (when the tree keeps runs
    and they are all there)."""
    cdef int32_t ch = tree.nodes[node].first_child
    cdef int64_t at = tree.kids_used
    cdef int k = 0
    if tree.kids == NULL or n > 65535 or at + n > tree.capacity:
        return
    while ch >= 0 and k < n:
        tree.kids[at + k] = ch
        k += 1
        ch = tree.nodes[ch].next_sibling
    if ch >= 0 or k != n:
        return  # (cannot happen: the children are the moves) keep walking the list
    tree.run_of[node] = <int32_t>at
    tree.nodes[node].nkids = <uint16_t>n
    tree.kids_used = at + n


cdef int32_t select_child(const Tree* tree, int32_t first, double log_parent, int player,
                          const int64_t* mark, int64_t tried, double exploration,
                          bint ismcts, Rng* ties) noexcept nogil:
    """UCT among the nodes of the list from ``first`` (a node's children, or a pooled list)
    available in this world (``mark[action] == tried``); -1 only when none is available.

    ``log_parent`` is ln(N + 1) of the parent's visits N; ISMCTS counts each node's
    availability instead (SO-ISMCTS).  Equal scores go to the first in the list, or with
    ``ties`` to one drawn at random: the pooled choice at a simultaneous decision draws,
    lest it move in step with the committer's choice above it, whose children are listed
    in the same order (with deterministic payoffs the two could pick matching places in
    their lists for ever: a search from a commit taken back expands them in pairs)."""
    cdef int32_t ch = first
    cdef int32_t best = -1
    cdef int32_t head = -1
    cdef double best_score = -INF
    cdef double score, parent_n
    cdef uint32_t tied = 0
    cdef const Node* child
    while ch >= 0:
        child = &tree.nodes[ch]
        if mark[child.action] == tried:
            if head < 0:
                head = ch
            if child.visits <= 0:
                return ch  # never backed up (cannot happen today): look at it first
            parent_n = log(tree.avail[ch] + 1.0) if ismcts else log_parent
            score = (child.value[player] / child.visits
                     + exploration * sqrt(parent_n / child.visits))
            if score > best_score:
                best_score = score
                best = ch
                tied = 1
            elif score == best_score and ties != NULL:
                tied += 1
                if rng_below(ties, tied) == 0:
                    best = ch
        ch = child.next_sibling
    # a NaN score (it would take a broken game value) must not leave the node without a move
    return best if best >= 0 else head


# Regret matching at simultaneous stages (SIM_REGRET): each side of a stage -- the
# committer at the node whose children lead to a simultaneous reply, and the replier by the
# statistics pooled at that node -- draws its action from the regret-matching strategy
# mixed with exploration, sigma_j = (1 - g) R+_j / sum R+ + g / K over the K actions
# available (R+ uniform while no regret is positive), and after the iteration every
# available action's regret moves by the importance-weighted estimate of what it would
# have scored minus what the chosen one did (Lisy, Kovarik, Lanctot and Bosansky,
# "Convergence of Monte Carlo Tree Search in Simultaneous Move Games", NIPS 2013: regret
# matching is Hannan-consistent, so the average strategy approaches an equilibrium of the
# stage).  The exploration g = min(RM_MAX_EXPLORATION, sqrt(K / n)) fades as the stage is
# reached n times, so that the opponent the average answers is the one the search ends
# with; the average strategy accumulates the regret-matching part alone, each draw
# weighted by n, so that the uniform first draws weigh little (linear averaging, as in
# CFR+).  Of the settings tried on the battle positions of run_exploitability.py and the
# biased toy game of the tests (fixed exploration 0.05-0.2, plain or linear averaging,
# fading exploration of sqrt(K / n) times 0.3-3 capped at 0.35-1), this one was the
# least exploitable on both.
cdef double RM_MAX_EXPLORATION = 0.5


ctypedef struct RmStep:
    # one regret-matching choice on an iteration's path, updated after its rollout
    int32_t first             # the list chosen from (children or pooled nodes)
    int32_t chosen
    int player
    double sigma              # the probability the chosen action was drawn with
    int64_t clock             # the stage's Tree.rm_clock (RmStat.seen of the available)


cdef int32_t rm_select(Tree* tree, int32_t first, const int64_t* mark, int64_t tried,
                       int player, double weight, Rng* rng, RmStep* step) noexcept nogil:
    """Draw a node of the list from ``first`` available in this world (``mark[action] ==
    tried``) by regret matching, ``weight`` the times the stage was reached (>= 1), adding
    each available node's regret-matching probability times ``weight`` to its average
    strategy; ``step`` records the choice for rm_update.  -1 when none is available."""
    cdef int32_t ch = first
    cdef int32_t chosen = -1
    cdef int k = 0            # available actions
    cdef int left             # available actions not yet passed in the draw
    cdef double positive = 0.0
    cdef double sigma, u, r, pure
    cdef int64_t clock = tree.rm_clock + 1
    tree.rm_clock = clock
    while ch >= 0:
        if mark[tree.nodes[ch].action] == tried:
            k += 1
            r = tree.rm[ch].regret
            if r > 0:
                positive += r
            tree.rm[ch].seen = clock
        ch = tree.nodes[ch].next_sibling
    if k == 0:
        return -1
    cdef double gamma = sqrt(k / weight)
    if gamma > RM_MAX_EXPLORATION:
        gamma = RM_MAX_EXPLORATION
    u = rng_uniform(rng)
    step.sigma = 0.0
    left = k
    ch = first
    while ch >= 0:
        if tree.rm[ch].seen == clock:
            if positive > 0:
                r = tree.rm[ch].regret
                pure = r / positive if r > 0 else 0.0
                sigma = gamma / k + (1.0 - gamma) * pure
            else:
                pure = 1.0 / k
                sigma = pure
            tree.rm[ch].strategy += pure * weight
            if chosen < 0 and (u < sigma or left == 1):
                chosen = ch
                step.sigma = sigma
            u -= sigma
            left -= 1  # the last available node takes what rounding left over
        ch = tree.nodes[ch].next_sibling
    step.first = first
    step.chosen = chosen
    step.player = player
    step.clock = clock
    return chosen


cdef void rm_update(Tree* tree, const RmStep* step, const double* out) noexcept nogil:
    """Regret update of one stage after the iteration's result ``out``: every action that
    was available loses the mover's result x (in [0, 1]), and the chosen one gains its
    importance-weighted estimate x / sigma."""
    cdef double x = (out[step.player] + 1.0) * 0.5
    cdef int32_t ch = step.first
    while ch >= 0:
        if tree.rm[ch].seen == step.clock:
            tree.rm[ch].regret -= x
        ch = tree.nodes[ch].next_sibling
    tree.rm[step.chosen].regret += x / step.sigma


cdef int decoupled_choice(Tree* tree, int32_t node, int player, const int* acts, int n,
                          int64_t* mark, int64_t legal_mark, int64_t tried_mark,
                          const MctsParams* params, Rng* rng, int32_t* pooled,
                          RmStep* step) noexcept nogil:
    """The mover's action at ``node``, a decision simultaneous with the hidden commit that
    led to it from its parent (decoupled UCT): chosen by the statistics pooled at the
    parent over every commit, keyed by the mover's action, never by ``node``'s own --
    those are conditioned on a commit the mover cannot see.  An action no sibling tried
    yet comes first (its pooled node is made now); ``pooled`` gets the pooled node to back
    up.  Under SIM_REGRET the tried actions are drawn by regret matching (``step`` then
    records the draw, ``step.chosen`` >= 0; else it is -1).  -1: nothing tried and the
    tree is full (roll out from here); -2: no available pooled node (a selection failure,
    cannot happen)."""
    cdef int32_t parent = tree.nodes[node].parent
    cdef int32_t pn = tree.nodes[parent].first_pooled
    cdef int untried = n
    cdef int64_t total = 0
    cdef int i, k, a = -1
    cdef int32_t chosen
    step.chosen = -1
    tree.nodes[node].flags |= NODE_DECOUPLED
    # the legal actions someone tried from this parent, whatever commit preceded them
    while pn >= 0:
        if mark[tree.nodes[pn].action] == legal_mark:
            mark[tree.nodes[pn].action] = tried_mark
            untried -= 1
            total += tree.nodes[pn].visits
            if tree.avail != NULL:
                tree.avail[pn] += 1
        pn = tree.nodes[pn].next_sibling
    if untried > 0 and not tree.full:
        k = rng_below(rng, untried)
        for i in range(n):
            if mark[acts[i]] == legal_mark:
                if k == 0:
                    a = acts[i]
                    break
                k -= 1
        chosen = new_pooled(tree, parent, a, player)
        if chosen >= 0:
            pooled[0] = chosen
            return a
    if untried == n:
        return -1
    if params.simultaneous == SIM_REGRET:
        chosen = rm_select(tree, tree.nodes[parent].first_pooled, mark, tried_mark, player,
                           total + 1.0, rng, step)
    else:
        # ln of the visits of the pooled actions available now, not each one's own
        # availability count: the mover's own actions are available in every world of
        # his, and counts that grew with each node's age would break ties by age --
        # the same order as the committer's children, so the two would move in step
        chosen = select_child(tree, tree.nodes[parent].first_pooled, log(total + 1.0),
                              player, mark, tried_mark, params.exploration, False, rng)
    if chosen < 0:
        return -2
    pooled[0] = chosen
    return tree.nodes[chosen].action


# --------------------------------------------------------------------------------------
# How sure the root's answer is
# --------------------------------------------------------------------------------------
#
# Every answer move -- a root child, or (a search from a commit taken back) the searching
# player's pooled decision below it -- gets a normal confidence interval of its mean return
# for its mover, mean +- z * stderr with stderr = sqrt(var / visits): var is the sample
# variance of this call's returns through the move (the tree's visits may include some
# kept from an earlier search, whose squares are not known), or with fewer than two of
# them the largest variance a return in [-1, 1] of that mean can have, 1 - mean**2; never
# below the floor (a few equal returns are not an exact value: (0.01 s)**2 on a game whose
# values differ on the scale s), and a move with fewer than
# MIN_INTERVAL_VISITS visits has no interval (stderr infinite).  The answer is the move of
# the highest lower bound.  It is *separated* from another move when its lower bound is
# above that move's upper bound, and another move is *tied* with it when the interval of
# their difference, |mean_b - mean_o| + z * sqrt(se_b**2 + se_o**2), lies within the tie
# tolerance (an equivalence test: the two are proven equal for the answer's purpose).
# The answer is *sure* when every other move is separated from it or tied with it.
#
# The returns of a search are not independent draws of one value -- the tree below a move
# grows and its value drifts -- so the intervals measure the simulations' sampling noise,
# not the error of the search's model of the game; two 95% intervals that do not overlap
# put the difference of the means beyond about 2.8 standard errors.

cdef double VAR_FLOOR = 1e-4  # the floor on the scale of results, -1 to 1
cdef enum:
    MIN_INTERVAL_VISITS = 10
    SURE_CHECK_EVERY = 64     # iterations between two looks at the root's verdict
    # until_sure stops only once the answer rests on this many simulations: a move's value
    # after a handful is a shallow search's (on an empty connect four board, LUCB
    # "separated" the centre after 640 simulations, some moves seen 10 times)
    MIN_SURE_ANSWER_VISITS = 1000
    CPU_CHECK_EVERY = 16      # iterations between two looks at the thread's CPU clock
    VERDICT_UNSURE = 0
    VERDICT_SURE = 1          # every other move separated from the answer or tied with it
    VERDICT_SEPARATED = 2     # every other move separated from the answer


cdef double answer_stderr(double mean, int64_t visits, double total, double squares,
                          int64_t n, bint ends, bint worlds, double floor) noexcept nogil:
    """A move's standard error (INF: too few visits for an interval); ``total``,
    ``squares`` and ``n``: this call's returns through it.  A move that ends the game
    (``ends``) returns the game's own result, no search's estimate: on one state it is
    exact at once (0.0), over drawn ``worlds`` its sample variance counts without the
    floor."""
    cdef double m, var
    if ends and not worlds and visits >= 1:
        return 0.0
    if visits < MIN_INTERVAL_VISITS:
        return INF
    if n >= 2:
        m = total / n
        var = (squares - n * m * m) / (n - 1)
    else:
        var = 1.0 - mean * mean
    if ends and n >= 2 and var >= 0:
        return sqrt(var / visits)
    if not var >= floor:  # also a NaN
        var = floor
    return sqrt(var / visits)


cdef inline bint has_interval(double se) noexcept nogil:
    return se < INF


cdef int best_answer(int n, const double* mean, const double* se, const int64_t* visits,
                     double z) noexcept nogil:
    """The index of the highest lower bound (ties: more visits, then the first)."""
    cdef int i, best = 0
    cdef double low, best_low = -INF
    for i in range(n):
        low = lower_bound(mean[i], se[i], z)
        if low > best_low or (low == best_low and visits[i] > visits[best]):
            best_low = low
            best = i
    return best


cdef inline double lower_bound(double mean, double se, double z) noexcept nogil:
    """The interval's low end, within the results' range [-1, 1] (-1 without one)."""
    return max(mean - z * se, -1.0) if has_interval(se) else -1.0


cdef inline double upper_bound(double mean, double se, double z) noexcept nogil:
    return min(mean + z * se, 1.0) if has_interval(se) else 1.0


cdef bint separated_from(double mean_b, double se_b, double mean_o, double se_o,
                         double z) noexcept nogil:
    """The answer's interval lies above the other's -- or it is a proven best result (its
    low end at 1.0, the most any move can score) and the other is not tied with it."""
    cdef double low = lower_bound(mean_b, se_b, z)
    return upper_bound(mean_o, se_o, z) < low or low >= 1.0


cdef bint tied_with(double mean_b, double se_b, double mean_o, double se_o, double z,
                    double tolerance) noexcept nogil:
    if not (has_interval(se_b) and has_interval(se_o)):
        return False
    return fabs(mean_b - mean_o) + z * sqrt(se_b * se_b + se_o * se_o) <= tolerance


cdef int answer_verdict(int n, const double* mean, const double* se, int best, double z,
                        double tolerance) noexcept nogil:
    """VERDICT_SEPARATED, VERDICT_SURE or VERDICT_UNSURE for the answer ``best``."""
    cdef int i
    cdef int verdict = VERDICT_SEPARATED
    if n > 1 and not has_interval(se[best]):
        return VERDICT_UNSURE
    for i in range(n):
        if i == best:
            continue
        if tied_with(mean[best], se[best], mean[i], se[i], z, tolerance):
            verdict = VERDICT_SURE
        elif not separated_from(mean[best], se[best], mean[i], se[i], z):
            return VERDICT_UNSURE
    return verdict


cdef inline int32_t answer_list(const Tree* tree, const MctsParams* params) noexcept nogil:
    """The first node of the answer moves: the root's children, or from a commit taken
    back the pooled decision below it."""
    return tree.nodes[0].first_pooled if params.from_commit else tree.nodes[0].first_child


cdef inline int answer_player(const Tree* tree, int32_t node) noexcept nogil:
    """Whose return an answer node's values are: a pooled node's own mover, else the
    root's."""
    return tree.nodes[node].player if tree.nodes[node].flags & NODE_POOLED else \
        tree.nodes[0].player


cdef double answer_se(const Tree* tree, const MctsParams* params, int32_t node) noexcept nogil:
    cdef const Node* nd = &tree.nodes[node]
    cdef int a = nd.action
    cdef double mean = nd.value[answer_player(tree, node)] / nd.visits if nd.visits else 0.0
    cdef bint ends = nd.player == TERMINAL_PLAYER or (nd.flags & NODE_PROVEN) != 0
    cdef bint worlds = params.ismcts or params.determinize_once
    if params.root_n == NULL:  # no squares kept: the largest variance of that mean
        return answer_stderr(mean, nd.visits, 0.0, 0.0, 0, ends, worlds, params.var_floor)
    return answer_stderr(mean, nd.visits, params.root_sum[a], params.root_sq[a],
                         params.root_n[a], ends, worlds, params.var_floor)


cdef bint root_is_sure(const Tree* tree, const MctsParams* params, double* mean, double* se,
                       int64_t* visits, int cap) noexcept nogil:
    """The tree's answer is sure (answer_verdict), from its own statistics."""
    cdef int32_t ch = answer_list(tree, params)
    cdef int n = 0
    cdef int best
    while ch >= 0 and n < cap:
        visits[n] = tree.nodes[ch].visits
        mean[n] = (tree.nodes[ch].value[answer_player(tree, ch)] / visits[n]
                   if visits[n] else 0.0)
        se[n] = answer_se(tree, params, ch)
        n += 1
        ch = tree.nodes[ch].next_sibling
    if n == 0:
        return False
    best = best_answer(n, mean, se, visits, params.z)
    if visits[best] < MIN_SURE_ANSWER_VISITS and n > 1:
        return False
    return answer_verdict(n, mean, se, best, params.z, params.tie_tolerance) != VERDICT_UNSURE


cdef void record_answer(const Tree* tree, const MctsParams* params, const int32_t* path,
                        int npath, const int32_t* pool_path, int npool,
                        const double* out) noexcept nogil:
    """Count an iteration's return in the statistics of the answer move it went through."""
    cdef int32_t at = -1
    cdef int a
    cdef double v
    if params.from_commit:
        if npool > 0 and tree.nodes[pool_path[0]].parent == 0:
            at = pool_path[0]
    elif npath >= 2:
        at = path[1]
    if at < 0:
        return
    a = tree.nodes[at].action
    v = out[answer_player(tree, at)]
    params.root_sum[a] += v
    params.root_sq[a] += v * v
    params.root_n[a] += 1


cdef int32_t least_tried_root(const Tree* tree, const int64_t* mark, int64_t tried,
                              bint marks) noexcept nogil:
    """The available root child with the fewest visits when one has fewer than
    MIN_INTERVAL_VISITS, else -1: a search until sure gives every move the visits of an
    interval (UCT with a low exploration constant left moves of a 30,000-simulation
    Armada search at 8 visits, which no interval could separate)."""
    cdef int32_t ch = tree.nodes[0].first_child
    cdef int32_t fewest = -1
    while ch >= 0:
        if (tree.nodes[ch].visits < MIN_INTERVAL_VISITS
                and (not marks or mark[tree.nodes[ch].action] == tried)
                and (fewest < 0 or tree.nodes[ch].visits < tree.nodes[fewest].visits)):
            fewest = ch
        ch = tree.nodes[ch].next_sibling
    return fewest


cdef int32_t select_root_lucb(const Tree* tree, const MctsParams* params, int player,
                              const int64_t* mark, int64_t tried, bint marks) noexcept nogil:
    """The root child to search next under ROOT_LUCB (a best-arm identification rule, as
    LUCB of Kalyanakrishnan et al. 2012): while an available child has fewer than
    MIN_INTERVAL_VISITS visits, the least visited; then of the answer (the highest lower
    bound) and its closest challenger (the highest upper bound among the others) the one
    with the wider interval -- each simulation goes where it narrows the question of
    which move is best.  ``marks``: only children with ``mark[action] == tried`` are
    available (-1 only when none is)."""
    cdef int32_t ch = tree.nodes[0].first_child
    cdef int32_t best = -1, fewest = -1, challenger = -1
    cdef double mean, se, low, high
    cdef double best_low = -INF, best_high = -INF, best_se = INF
    cdef double challenger_high = -INF, challenger_se = INF
    cdef const Node* nd
    while ch >= 0:
        nd = &tree.nodes[ch]
        if not marks or mark[nd.action] == tried:
            if nd.visits < MIN_INTERVAL_VISITS:
                if fewest < 0 or nd.visits < tree.nodes[fewest].visits:
                    fewest = ch
            elif fewest < 0:
                mean = nd.value[player] / nd.visits
                se = answer_se(tree, params, ch)
                low = lower_bound(mean, se, params.z)
                high = upper_bound(mean, se, params.z)
                if best < 0 or low > best_low:
                    if best >= 0 and best_high > challenger_high:
                        challenger, challenger_high, challenger_se = best, best_high, best_se
                    best, best_low, best_high, best_se = ch, low, high, se
                elif high > challenger_high:
                    challenger, challenger_high, challenger_se = ch, high, se
        ch = nd.next_sibling
    if fewest >= 0:
        return fewest
    if challenger < 0 or best_se > challenger_se:
        return best
    return challenger


# --------------------------------------------------------------------------------------
# MCTS-solver: proven wins and losses
# --------------------------------------------------------------------------------------
#
# Winands, Bjornsson and Saito, "Monte-Carlo Tree Search Solver" (2008), for any number of
# players with values in [-1, 1]: a node whose state is over is proven with the game's
# result; a decision node is proven when one of its children is proven with the best
# result its mover can get (1.0: a win) -- the mover takes it -- or when every one of its
# moves has a proven child, with the child its mover values most.  A proven node's sums are
# set to its exact value times its visits, and an iteration that reaches it backs up that
# value instead of a rollout's, so the statistics above it move toward the proof.  Only
# where the proof holds: one state (no worlds), no simultaneous decisions, and never
# through a chance node (its outcomes are averaged, not chosen).

cdef double PROVEN_BEST = 1.0  # the most any result can be


cdef inline bint proven(const Tree* tree, int32_t node) noexcept nogil:
    return (tree.nodes[node].flags & NODE_PROVEN) != 0


cdef void prove(Tree* tree, int32_t node, const double* exact, int players) noexcept nogil:
    cdef int k
    for k in range(players):
        tree.nodes[node].value[k] = exact[k] * tree.nodes[node].visits
    tree.nodes[node].flags |= NODE_PROVEN


cdef bint try_prove(Tree* tree, int32_t node, int n_moves, int players) noexcept nogil:
    """Prove ``node`` (a decision of player ``tree.nodes[node].player`` with ``n_moves``
    legal moves, -1 when unknown) from its children when they allow it."""
    cdef int p = tree.nodes[node].player
    cdef int32_t ch = tree.nodes[node].first_child
    cdef int32_t best = -1
    cdef int children = 0
    cdef bint all_proven = True
    cdef double exact[MAX_PLAYERS]
    cdef int k
    if p < 0:
        return False
    while ch >= 0:
        children += 1
        if proven(tree, ch) and tree.nodes[ch].visits > 0:
            if tree.nodes[ch].value[p] >= PROVEN_BEST * tree.nodes[ch].visits:
                # a win decides, whatever the other moves are
                for k in range(players):
                    exact[k] = tree.nodes[ch].value[k] / tree.nodes[ch].visits
                prove(tree, node, exact, players)
                return True
            if best < 0 or (tree.nodes[ch].value[p] / tree.nodes[ch].visits
                            > tree.nodes[best].value[p] / tree.nodes[best].visits):
                best = ch
        else:
            all_proven = False
        ch = tree.nodes[ch].next_sibling
    if best < 0 or not all_proven or n_moves < 0 or children < n_moves:
        return False
    for k in range(players):
        exact[k] = tree.nodes[best].value[k] / tree.nodes[best].visits
    prove(tree, node, exact, players)
    return True


cdef void solve_path(const GameContract* c, Tree* tree, const int32_t* path, int npath,
                     bint leaf_ends, const double* out) noexcept nogil:
    """After an iteration's backup: prove its leaf when its state is over, then its
    ancestors upward while each becomes proven (an expanded node: its moves are its
    children; a chance node never)."""
    cdef int32_t leaf = path[npath - 1]
    cdef int32_t node
    cdef int i, n
    if not proven(tree, leaf):
        if not leaf_ends:
            return
        tree.nodes[leaf].player = TERMINAL_PLAYER
        prove(tree, leaf, out, c.num_players)  # the rollout from an ended state: its result
    for i in range(npath - 2, -1, -1):
        node = path[i]
        if proven(tree, node) or tree.nodes[node].player < 0:
            return
        n = tree.nodes[node].nkids if tree.nodes[node].flags & NODE_EXPANDED else -1
        if n == 0 and tree.nodes[node].flags & NODE_EXPANDED:
            n = count_children(tree, node)
        if not try_prove(tree, node, n, c.num_players):
            return


cdef int count_children(const Tree* tree, int32_t node) noexcept nogil:
    cdef int32_t ch = tree.nodes[node].first_child
    cdef int n = 0
    while ch >= 0:
        n += 1
        ch = tree.nodes[ch].next_sibling
    return n


cdef inline bint fixed_moves(const GameContract* c, bint ismcts) noexcept nogil:
    """One world and no simultaneous decisions: a node's moves never change."""
    return not ismcts and c.simultaneous == NULL


cdef inline int mcts_flag(const MctsParams* params) noexcept nogil:
    return load_flag(params.stop) if params.stop != NULL else STOP_NONE


cdef int mcts_search(const GameContract* c, const void* root, const MctsParams* params,
                     Tree* tree, MctsStats* stats) noexcept nogil:
    """Grow ``tree`` (empty or from an earlier call) by UCT iterations from ``root``.

    At least one iteration is always done (unless aborted), so a search that is given any
    budget has a move to offer.  When the tree is at its cap the iterations go on without
    adding nodes (selection among the existing children, rollouts from the leaves).

    With ``params.simultaneous == SIM_DECOUPLED`` a decision the game marks simultaneous
    (below the root) is chosen by ``decoupled_choice``, and the pooled node it chose
    through is backed up beside the path."""
    cdef size_t size = c.state_size
    cdef char* s = <char*>malloc(size)
    cdef char* world = <char*>malloc(size)
    cdef int* acts = <int*>malloc(sizeof(int) * c.max_legal_actions)
    cdef double* probs = <double*>malloc(sizeof(double) * c.max_legal_actions)
    cdef int64_t* mark = <int64_t*>malloc(sizeof(int64_t) * c.num_distinct_actions)
    cdef int32_t* path = <int32_t*>malloc(sizeof(int32_t) * (c.max_game_length + 2))
    # the pooled nodes chosen through (at most one per step of the path)
    cdef int32_t* pool_path = <int32_t*>malloc(sizeof(int32_t) * (c.max_game_length + 2))
    # the regret-matching draws (SIM_REGRET), at most two per step of the path
    cdef RmStep* rm_path = <RmStep*>malloc(sizeof(RmStep) * 2 * (c.max_game_length + 2))
    # the answer moves' figures when the root's verdict is looked at (until_sure)
    cdef int answers_cap = c.num_distinct_actions
    cdef double* answer_mean = <double*>malloc(sizeof(double) * answers_cap)
    cdef double* answer_se = <double*>malloc(sizeof(double) * answers_cap)
    cdef int64_t* answer_visits = <int64_t*>malloc(sizeof(int64_t) * answers_cap)
    cdef bint lucb = params.root_selection == ROOT_LUCB and not params.from_commit
    # until sure: every root move gets the visits of an interval first
    cdef bint floor_root = params.until_sure and not params.from_commit
    cdef bint solver = (params.solver and fixed_moves(c, params.ismcts)
                        and not params.determinize_once and not c.has_hidden_information)
    cdef bint exact_leaf, leaf_ends
    cdef int32_t leaf
    cdef double cpu0 = thread_cpu()
    cdef double out[MAX_PLAYERS]
    cdef Rng rng
    # 64-bit marks: 2**62 selection steps are out of reach of any search
    cdef int64_t stamp = params.stamp_start
    cdef int64_t legal_mark, tried_mark
    cdef int32_t node, child, ch, pooled
    cdef int p, n, i, k, untried, npath, npool, nrm, a, flag
    cdef bint grown
    cdef bint decoupled = params.simultaneous != SIM_SEQUENTIAL
    cdef bint regret = params.simultaneous == SIM_REGRET and tree.rm != NULL
    # one world, no simultaneous decisions: a node's moves never change, so once all are
    # tried its children are its moves and selection needs no legal-move marks
    cdef bint fixed = fixed_moves(c, params.ismcts)
    cdef int root_player = c.current_player(root, c.tables)
    cdef double t0 = now()
    # one deadline for every tree when the caller gives it: trees whose threads start late
    # must not time themselves from their own start (64 of them overran 0.2 s six times)
    cdef double deadline = params.deadline
    cdef int64_t it = 0
    if deadline <= 0 and params.time_limit > 0:
        deadline = t0 + params.time_limit
    stats.started = t0
    stats.deadline = deadline if deadline > 0 else 0.0
    stats.status = 0
    stats.stopped = STOPPED_BUDGET
    if (s == NULL or world == NULL or acts == NULL or probs == NULL or mark == NULL
            or path == NULL or pool_path == NULL or rm_path == NULL or answer_mean == NULL
            or answer_se == NULL or answer_visits == NULL):
        stats.status = -1
    elif tree.size == 0 and new_node(tree, -1, -1) < 0:
        stats.status = -1
    if stats.status == 0:
        memset(mark, 0, sizeof(int64_t) * c.num_distinct_actions)
        rng_seed(&rng, params.seed)
        memcpy(world, root, size)
        if params.determinize_once:
            c.determinize(world, c.tables, params.observer, &rng)
            if c.current_player(world, c.tables) != root_player:
                stats.status = SEARCH_BAD_WORLD
    while stats.status == 0:
        flag = mcts_flag(params)
        if flag == STOP_ABORT or (flag == STOP_SOFT and it > 0):
            stats.stopped = STOPPED_CANCELLED
            break
        if params.iterations > 0 and it >= params.iterations:
            break
        if deadline > 0 and it > 0 and now() >= deadline:
            stats.stopped = STOPPED_CLOCK
            break
        if solver and it > 0 and proven(tree, 0):
            stats.stopped = STOPPED_SURE  # solved: every further iteration ends at the root
            break
        if (params.until_sure and it > 0 and it % SURE_CHECK_EVERY == 0
                and root_is_sure(tree, params, answer_mean, answer_se, answer_visits,
                                 answers_cap)):
            stats.stopped = STOPPED_SURE
            break
        if (params.cpu_limit > 0 and it > 0 and it % CPU_CHECK_EVERY == 0
                and thread_cpu() - cpu0 >= params.cpu_limit):
            stats.stopped = STOPPED_CPU
            break
        memcpy(s, world, size)
        if params.ismcts:
            c.determinize(s, c.tables, params.observer, &rng)
            if c.current_player(s, c.tables) != root_player:
                stats.status = SEARCH_BAD_WORLD
                break
        node = 0
        path[0] = 0
        npath = 1
        npool = 0
        nrm = 0
        # selection and expansion
        exact_leaf = False
        while True:
            p = c.current_player(s, c.tables)
            tree.nodes[node].player = p
            if solver and proven(tree, node) and tree.nodes[node].visits > 0:
                exact_leaf = True  # its value is known: no rollout below it
                break
            if p == TERMINAL_PLAYER:
                break
            if p == CHANCE_PLAYER:
                n = c.chance_outcomes(s, c.tables, acts, probs)
                if n <= 0:
                    stats.status = SEARCH_NO_MOVE
                    break
                a = acts[sample(probs, n, &rng)]
                child = find_child(tree, node, a)
                if child < 0:
                    child = new_node(tree, node, a)
                    if child < 0:
                        break  # the tree is full: roll out from this chance node
                c.apply(s, c.tables, a)
                node = child
                path[npath] = node
                npath += 1
                continue
            if tree.nodes[node].flags & NODE_EXPANDED:
                # MCTS, every action tried: its children are all its moves
                child = -1
                if node == 0 and lucb:
                    child = select_root_lucb(tree, params, p, mark, 0, False)
                elif node == 0 and floor_root:
                    child = least_tried_root(tree, mark, 0, False)
                if child >= 0:
                    pass
                elif tree.nodes[node].nkids > 0:
                    child = select_run(tree, &tree.kids[tree.run_of[node]],
                                       tree.nodes[node].nkids,
                                       log(tree.nodes[node].visits + 1.0), p,
                                       params.exploration)
                else:
                    child = select_any(tree, tree.nodes[node].first_child,
                                       log(tree.nodes[node].visits + 1.0), p,
                                       params.exploration)
                c.apply(s, c.tables, tree.nodes[child].action)
                node = child
                path[npath] = node
                npath += 1
                continue
            n = c.legal_actions(s, c.tables, acts)
            if n <= 0:
                stats.status = SEARCH_NO_MOVE
                break
            stamp += 1
            legal_mark = 2 * stamp
            tried_mark = 2 * stamp + 1
            for i in range(n):
                mark[acts[i]] = legal_mark
            if c.simultaneous != NULL and c.simultaneous(s, c.tables):
                stats.simultaneous += 1
                # the root has no siblings to pool over: its own statistics are already
                # over every commit ISMCTS redraws for it (see "Simultaneous choices")
                if decoupled and tree.nodes[node].parent >= 0:
                    a = decoupled_choice(tree, node, p, acts, n, mark, legal_mark,
                                         tried_mark, params, &rng, &pooled, &rm_path[nrm])
                    if a == -2:
                        stats.select_failures += 1
                    if a < 0:
                        break  # full and nothing tried here: roll out from here
                    pool_path[npool] = pooled
                    npool += 1
                    if rm_path[nrm].chosen >= 0:
                        nrm += 1
                    child = find_child(tree, node, a)
                    grown = child < 0
                    if grown:  # this commit's branch meets the action for the first time
                        child = new_node(tree, node, a)
                        if child >= 0 and tree.avail != NULL:
                            tree.avail[child] = 1
                    c.apply(s, c.tables, a)
                    if child >= 0:
                        node = child
                        path[npath] = node
                        npath += 1
                    if grown:
                        break  # expanded (or the tree is full): roll out from here
                    continue
            untried = n
            ch = tree.nodes[node].first_child
            while ch >= 0:
                if mark[tree.nodes[ch].action] == legal_mark:
                    mark[tree.nodes[ch].action] = tried_mark
                    untried -= 1
                    if tree.avail != NULL:
                        tree.avail[ch] += 1
                ch = tree.nodes[ch].next_sibling
            if untried > 0 and not tree.full:
                k = rng_below(&rng, untried)
                for i in range(n):
                    if mark[acts[i]] == legal_mark:
                        if k == 0:
                            a = acts[i]
                            break
                        k -= 1
                child = new_node(tree, node, a)
                if child >= 0:
                    if tree.avail != NULL:
                        tree.avail[child] = 1
                    c.apply(s, c.tables, a)
                    path[npath] = child
                    npath += 1
                    if params.from_commit and node == 0:
                        node = child  # on to the searching player's pooled decision
                        continue
                    break
            if untried == n:
                break  # the tree is full and nothing here was tried: roll out from here
            if untried == 0 and fixed:
                tree.nodes[node].flags |= NODE_EXPANDED
                make_run(tree, node, n)
            if regret and tree.nodes[node].first_pooled >= 0:
                # a commit answered by a simultaneous decision: the committer's side of
                # the stage is drawn by regret matching too
                child = rm_select(tree, tree.nodes[node].first_child, mark, tried_mark, p,
                                  tree.nodes[node].visits + 1.0, &rng, &rm_path[nrm])
                if child >= 0:
                    nrm += 1
            else:
                child = -1
                if node == 0 and lucb:
                    child = select_root_lucb(tree, params, p, mark, tried_mark, True)
                elif node == 0 and floor_root:
                    child = least_tried_root(tree, mark, tried_mark, True)
                if child < 0:
                    child = select_child(tree, tree.nodes[node].first_child,
                                         log(tree.nodes[node].visits + 1.0), p, mark,
                                         tried_mark, params.exploration, params.ismcts,
                                         NULL)
            if child < 0:
                stats.select_failures += 1
                break
            c.apply(s, c.tables, tree.nodes[child].action)
            node = child
            path[npath] = node
            npath += 1
        if stats.status != 0:
            break
        leaf = path[npath - 1]
        leaf_ends = solver and c.current_player(s, c.tables) == TERMINAL_PLAYER
        if exact_leaf:
            for k in range(c.num_players):
                out[k] = tree.nodes[leaf].value[k] / tree.nodes[leaf].visits
        elif rollout(c, s, params, acts, probs, &rng, out) != 0:
            stats.status = SEARCH_NO_MOVE
            break
        if params.root_n != NULL:
            record_answer(tree, params, path, npath, pool_path, npool, out)
        for i in range(npath):
            tree.nodes[path[i]].visits += 1
            for k in range(c.num_players):
                tree.nodes[path[i]].value[k] += out[k]
        for i in range(npool):
            tree.nodes[pool_path[i]].visits += 1
            for k in range(c.num_players):
                tree.nodes[pool_path[i]].value[k] += out[k]
        for i in range(nrm):
            rm_update(tree, &rm_path[i], out)
        if solver:
            solve_path(c, tree, path, npath, leaf_ends, out)
        if npath - 1 > stats.max_depth:
            stats.max_depth = npath - 1
        it += 1
    stats.iterations += it
    stats.nodes = tree.size
    stats.seconds += now() - t0
    stats.cpu_seconds += thread_cpu() - cpu0
    free(s)
    free(world)
    free(acts)
    free(probs)
    free(mark)
    free(path)
    free(pool_path)
    free(rm_path)
    free(answer_mean)
    free(answer_se)
    free(answer_visits)
    return stats.status


# --------------------------------------------------------------------------------------
# Reuse between moves: the subtree of the position searched next, kept from the last tree
# --------------------------------------------------------------------------------------

cdef enum:
    # deepest a kept tree is walked for the next position (actions below its root)
    REUSE_MAX_DEPTH = 24
    # worlds of the observer's knowledge a hidden-information tree is replayed in: an
    # opponent's action drawn in some of the search's worlds may be illegal in others
    REUSE_WORLDS = 16
    # (node, world) steps the walk may take before it gives up (keeps a walk over a big
    # tree that does not hold the position to a few milliseconds)
    REUSE_MAX_STEPS = 100000
    # distinct nodes matching the next position (opponents' hidden choices and hidden
    # draws lead to as many nodes as the observer cannot tell apart)
    REUSE_MAX_FOUND = 4096


ctypedef struct ReuseWalk:
    const GameContract* c
    const Tree* tree
    const char* target        # the root of the next search
    const float* target_obs   # its observation by the observer (hidden information)
    float* obs                # scratch for a node's observation
    int observer
    int target_player
    const int* hints          # the observer's own actions since the tree's root, in order
    int n_hints
    char* states              # REUSE_MAX_DEPTH + 1 states, one per depth
    int* acts                 # REUSE_MAX_DEPTH + 1 legal-action lists
    double* probs
    int32_t* found            # the matching nodes
    int n_found
    int64_t steps
    bint overflow             # too many steps or matches: no reuse


cdef bint reuse_matches(ReuseWalk* w, const char* st) noexcept nogil:
    """The state is the next root as the observer knows it: the same state (nothing is
    hidden) or the same observation with the same player to move."""
    if w.c.current_player(st, w.c.tables) != w.target_player:
        return False
    if w.target_obs == NULL:
        return memcmp(st, w.target, w.c.state_size) == 0
    w.c.observation(st, w.c.tables, w.observer, w.obs)
    return memcmp(w.obs, w.target_obs, sizeof(float) * w.c.observation_size) == 0


cdef void reuse_found(ReuseWalk* w, int32_t node) noexcept nogil:
    cdef int i
    for i in range(w.n_found):
        if w.found[i] == node:
            return
    if w.n_found == REUSE_MAX_FOUND:
        w.overflow = True
        return
    w.found[w.n_found] = node
    w.n_found += 1


cdef bint action_in(int action, const int* acts, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if acts[i] == action:
            return True
    return False


cdef void reuse_walk(ReuseWalk* w, int32_t node, int depth, int hint) noexcept nogil:
    """Replay the tree below ``node`` (whose state is the walk's state at ``depth``),
    collecting the nodes that match the next root; a match is not walked below.  At the
    observer's own decisions only the actions he said he played are followed (all of
    them when he said none), except a forced step's one action (the engine takes it for
    him: he never notes it)."""
    cdef const GameContract* c = w.c
    cdef size_t size = c.state_size
    cdef const char* st = w.states + depth * size
    cdef char* child_state = w.states + (depth + 1) * size
    cdef int* acts = w.acts + depth * c.max_legal_actions
    cdef int p, n, a
    cdef int only = -1
    cdef int32_t ch
    w.steps += 1
    if w.overflow or w.steps > REUSE_MAX_STEPS:
        w.overflow = True
        return
    if reuse_matches(w, st):
        reuse_found(w, node)
        return
    p = c.current_player(st, c.tables)
    if depth >= REUSE_MAX_DEPTH or p == TERMINAL_PLAYER:
        return
    if p == CHANCE_PLAYER:
        n = c.chance_outcomes(st, c.tables, acts, w.probs)
    else:
        n = c.legal_actions(st, c.tables, acts)
    if p == w.observer and w.n_hints > 0:
        if n == 1 and (hint >= w.n_hints or w.hints[hint] != acts[0]):
            pass  # a forced step the engine took for him: not among the moves he noted
        elif hint >= w.n_hints:
            return  # a later decision of his own than the one searched next
        else:
            only = w.hints[hint]
            hint += 1
    ch = w.tree.nodes[node].first_child
    while ch >= 0 and not w.overflow:
        a = w.tree.nodes[ch].action
        if (only < 0 or a == only) and action_in(a, acts, n):
            memcpy(child_state, st, size)
            c.apply(child_state, c.tables, a)
            reuse_walk(w, ch, depth + 1, hint)
        ch = w.tree.nodes[ch].next_sibling


cdef int reuse_find(const GameContract* c, const Tree* tree, const char* old_root,
                    const char* new_root, int observer, bint hidden, const int* hints,
                    int n_hints, uint64_t seed, int32_t* found) noexcept nogil:
    """The nodes of ``tree`` (searched from ``old_root``) whose position is ``new_root``
    as ``observer`` knows it, into ``found``: how many, 0 when none or the walk gave up,
    -1 out of memory.  With hidden information the tree is replayed in REUSE_WORLDS
    worlds of the observer's knowledge of ``old_root`` and a node matches by the
    observer's observation: nothing he cannot see decides which nodes are kept."""
    cdef ReuseWalk w
    cdef Rng rng
    cdef int worlds = REUSE_WORLDS if hidden else 1
    cdef int found_count
    cdef float* target_obs = NULL
    memset(&w, 0, sizeof(ReuseWalk))
    w.c = c
    w.tree = tree
    w.target = new_root
    w.observer = observer
    w.target_player = c.current_player(new_root, c.tables)
    w.hints = hints
    w.n_hints = n_hints
    w.found = found
    w.states = <char*>malloc(c.state_size * (REUSE_MAX_DEPTH + 1))
    w.acts = <int*>malloc(sizeof(int) * c.max_legal_actions * (REUSE_MAX_DEPTH + 1))
    w.probs = <double*>malloc(sizeof(double) * c.max_legal_actions)
    if hidden:
        target_obs = <float*>malloc(sizeof(float) * c.observation_size)
        w.obs = <float*>malloc(sizeof(float) * c.observation_size)
    if (w.states == NULL or w.acts == NULL or w.probs == NULL
            or (hidden and (target_obs == NULL or w.obs == NULL))):
        found_count = -1
    else:
        if hidden:
            c.observation(new_root, c.tables, observer, target_obs)
            w.target_obs = target_obs
        rng_seed(&rng, seed)
        for _ in range(worlds):
            memcpy(w.states, old_root, c.state_size)
            if hidden:
                c.determinize(w.states, c.tables, observer, &rng)
            reuse_walk(&w, 0, 0, 0)
            if w.overflow:
                break
        found_count = 0 if w.overflow else w.n_found
    free(w.states)
    free(w.acts)
    free(w.probs)
    free(target_obs)
    free(w.obs)
    return found_count


cdef inline void add_statistics(Tree* tree, int32_t into, int32_t src) noexcept nogil:
    cdef int k
    cdef Node* d = &tree.nodes[into]
    cdef const Node* s = &tree.nodes[src]
    d.visits += s.visits
    if tree.avail != NULL:
        tree.avail[into] += tree.avail[src]
    for k in range(MAX_PLAYERS):
        d.value[k] += s.value[k]
    if tree.rm != NULL:
        tree.rm[into].regret += tree.rm[src].regret
        tree.rm[into].strategy += tree.rm[src].strategy


cdef int32_t find_pooled(const Tree* tree, int32_t owner, int action,
                         int player) noexcept nogil:
    cdef int32_t q = tree.nodes[owner].first_pooled
    while q >= 0:
        if tree.nodes[q].action == action and tree.nodes[q].player == player:
            return q
        q = tree.nodes[q].next_sibling
    return -1


cdef int merge_subtrees(Tree* tree, int32_t into, int32_t src) noexcept nogil:
    """Merge the subtree of ``src`` into that of ``into`` (two nodes the observer cannot
    tell apart): statistics of nodes reached by the same actions are added, a branch
    only ``src`` has is moved under ``into``; what is left of ``src`` is unreachable.
    -1 out of memory."""
    cdef int32_t* stack = <int32_t*>malloc(sizeof(int32_t) * 2 * (tree.size + 1))
    cdef int top
    cdef int32_t d, s, ch, nxt, e
    if stack == NULL:
        return -1
    stack[0] = into
    stack[1] = src
    top = 1
    while top > 0:
        top -= 1
        d = stack[2 * top]
        s = stack[2 * top + 1]
        add_statistics(tree, d, s)
        ch = tree.nodes[s].first_child
        while ch >= 0:
            nxt = tree.nodes[ch].next_sibling
            e = find_child(tree, d, tree.nodes[ch].action)
            if e < 0:  # a branch only src has: move it under d
                tree.nodes[ch].parent = d
                tree.nodes[ch].next_sibling = tree.nodes[d].first_child
                tree.nodes[d].first_child = ch
            else:
                stack[2 * top] = e
                stack[2 * top + 1] = ch
                top += 1
            ch = nxt
        ch = tree.nodes[s].first_pooled
        while ch >= 0:  # pooled nodes have no children: add or move
            nxt = tree.nodes[ch].next_sibling
            e = find_pooled(tree, d, tree.nodes[ch].action, tree.nodes[ch].player)
            if e < 0:
                tree.nodes[ch].parent = d
                tree.nodes[ch].next_sibling = tree.nodes[d].first_pooled
                tree.nodes[d].first_pooled = ch
            else:
                add_statistics(tree, e, ch)
            ch = nxt
    free(stack)
    return 0


cdef inline int32_t remapped(const int32_t* where, int32_t i) noexcept nogil:
    return where[i] if i >= 0 else -1


cdef int32_t compact_subtree(Tree* tree, int32_t root, bint ordered) noexcept nogil:
    """Make the subtree of ``root`` the whole tree, in place: its nodes keep their order
    (``root``, the lowest of them, becomes 0, and no node moves up over one not yet
    moved) and their links are renumbered.  ``ordered``: every node's index is above its
    parent's, as the search allocates them (not after merge_subtrees moved branches), so
    one pass in index order finds the subtree -- a node is in it when its parent is --
    instead of a walk from node to scattered node (keeping 154,000 nodes of a connect
    four tree took 15 ms with the walk, 5 ms with the pass).  The new size, or -1 out of
    memory."""
    cdef int32_t* where = <int32_t*>malloc(sizeof(int32_t) * tree.size)
    cdef int32_t* stack = <int32_t*>malloc(sizeof(int32_t) * tree.size)
    cdef int32_t i, j, n, ch, size = 0
    cdef int top = 0
    cdef Node* node
    if where == NULL or stack == NULL:
        free(where)
        free(stack)
        return -1
    for i in range(tree.size):
        where[i] = -1
    where[root] = 0
    stack[0] = root
    top = 0 if ordered else 1
    if ordered:
        for i in range(root + 1, tree.size):
            n = tree.nodes[i].parent
            if n >= root and where[n] == 0:
                where[i] = 0
    while top > 0:
        top -= 1
        n = stack[top]
        ch = tree.nodes[n].first_child
        while ch >= 0:
            where[ch] = 0
            stack[top] = ch
            top += 1
            ch = tree.nodes[ch].next_sibling
        ch = tree.nodes[n].first_pooled
        while ch >= 0:
            where[ch] = 0
            ch = tree.nodes[ch].next_sibling
    for i in range(tree.size):
        if where[i] == 0:
            where[i] = size
            size += 1
    tree.pooled = 0
    for i in range(tree.size):
        j = where[i]
        if j < 0:
            continue
        if j != i:
            tree.nodes[j] = tree.nodes[i]
            if tree.rm != NULL:
                tree.rm[j] = tree.rm[i]
            if tree.avail != NULL:
                tree.avail[j] = tree.avail[i]
        node = &tree.nodes[j]
        node.parent = remapped(where, node.parent)
        node.first_child = remapped(where, node.first_child)
        node.next_sibling = remapped(where, node.next_sibling)
        node.first_pooled = remapped(where, node.first_pooled)
        if node.flags & NODE_POOLED:
            tree.pooled += 1
        # a run holds the old indices: the node is marked expanded again (and its run
        # made anew) the next time a selection passes it
        node.flags &= ~NODE_EXPANDED
        node.nkids = 0
    # the new root: its old parent and siblings are gone
    tree.nodes[0].parent = -1
    tree.nodes[0].next_sibling = -1
    tree.nodes[0].action = -1
    tree.size = size
    tree.kids_used = 0
    free(where)
    free(stack)
    return size


NODE_BYTES = sizeof(Node)
MAX_TREE_NODES = 2**31 - 1


cdef class _MctsJob:
    """One tree of a root-parallel search: owns every byte its thread reads, and the thread
    (mcts_worker_main, started by ``start``; ``run`` searches in the calling thread)."""
    cdef const GameContract* c
    cdef char* root
    cdef MctsParams params
    cdef Tree tree
    cdef MctsStats stats
    cdef int stop
    cdef MctsWorker w
    cdef bint searching       # its worker thread runs (has not released done)
    cdef int64_t reused_nodes   # nodes of the tree kept from the last search
    cdef int64_t reused_visits  # simulations below its root, kept from the last search

    def __cinit__(self):
        self.root = NULL
        memset(&self.tree, 0, sizeof(Tree))
        memset(&self.stats, 0, sizeof(MctsStats))
        memset(&self.params, 0, sizeof(MctsParams))
        memset(&self.w, 0, sizeof(MctsWorker))
        self.stop = STOP_NONE
        self.params.stop = &self.stop
        self.searching = False
        self.reused_nodes = 0
        self.reused_visits = 0

    def __dealloc__(self):
        self.abort_and_wait()  # mcts_run_jobs has done it; never free under a running thread
        if self.w.done != NULL:
            PyThread_free_lock(self.w.done)
        free(self.root)
        free(self.params.root_sum)
        free(self.params.root_sq)
        free(self.params.root_n)
        tree_free(&self.tree)

    cdef int setup(self, CoreState st, int64_t per_tree, int64_t max_nodes,
                   bint regret, bint from_commit, bint ismcts) except -1:
        cdef bint runs = fixed_moves(st.c, ismcts)
        self.c = st.c
        self.root = <char*>malloc(st.c.state_size)
        if self.root == NULL:
            raise MemoryError()
        memcpy(self.root, st.data, st.c.state_size)
        self.params.root_sum = <double*>calloc(st.c.num_distinct_actions, sizeof(double))
        self.params.root_sq = <double*>calloc(st.c.num_distinct_actions, sizeof(double))
        self.params.root_n = <int64_t*>calloc(st.c.num_distinct_actions, sizeof(int64_t))
        if (self.params.root_sum == NULL or self.params.root_sq == NULL
                or self.params.root_n == NULL):
            raise MemoryError()
        if from_commit:
            st.c.take_back_commit(self.root, st.c.tables)
            self.params.from_commit = True
        # the node pool: one node per iteration (plus the root); chance outcomes sampled
        # for the first time and time-limited searches grow it by doubling, up to the cap
        self.tree.max_nodes = <int32_t>max_nodes
        # side arrays first (NULL ones are not resized): ISMCTS's availability counts and
        # regret matching's statistics; empty, then grown with the nodes
        if ismcts:
            self.tree.avail = <int64_t*>malloc(sizeof(int64_t))
            if self.tree.avail == NULL:
                raise MemoryError()
        if regret:
            self.tree.rm = <RmStat*>malloc(sizeof(RmStat))
            if self.tree.rm == NULL:
                raise MemoryError()
        if runs:
            self.tree.kids = <int32_t*>malloc(sizeof(int32_t))
            self.tree.run_of = <int32_t*>malloc(sizeof(int32_t))
            if self.tree.kids == NULL or self.tree.run_of == NULL:
                raise MemoryError()
        if tree_resize(&self.tree, min(per_tree + 2 if per_tree > 0 else 1 << 16,
                                       1 << 20, max_nodes)) < 0:
            raise MemoryError()
        return 0

    def run(self):
        with nogil:
            mcts_search(self.c, self.root, &self.params, &self.tree, &self.stats)

    cdef int take_subtree(self, _MctsJob old, const int* hints, int n_hints) except -1:
        """Start from the subtree of ``old``'s tree whose position is this job's root as
        its observer knows it (merged over the nodes he cannot tell apart), when there is
        one and it fits under this tree's cap; ``old`` is left without a tree either way.
        The number of nodes kept (0: none, this tree stays empty)."""
        cdef int32_t* found = <int32_t*>malloc(sizeof(int32_t) * REUSE_MAX_FOUND)
        cdef int n, i
        cdef int32_t best, size
        cdef Tree tree = old.tree
        cdef bint hidden = self.params.ismcts
        cdef int observer = self.params.observer
        cdef uint64_t seed = self.params.seed ^ <uint64_t>0x5DEECE66D
        if found == NULL:
            raise MemoryError()
        memset(&old.tree, 0, sizeof(Tree))  # the tree is this job's now, or freed below
        try:
            if tree.size == 0 or (hidden and self.c.observation == NULL):
                return 0
            with nogil:
                n = reuse_find(self.c, &tree, old.root, self.root, observer, hidden,
                               hints, n_hints, seed, found)
            if n < 0:
                raise MemoryError()
            if n == 0:
                return 0
            best = found[0]
            for i in range(1, n):
                if hidden:
                    best = min(best, found[i])
                elif tree.nodes[found[i]].visits > tree.nodes[best].visits:
                    best = found[i]  # one state reached by two move orders: the busier
            if hidden:
                for i in range(n):
                    if found[i] != best and merge_subtrees(&tree, best, found[i]) < 0:
                        raise MemoryError()
            with nogil:
                # a merge moves branches under nodes of higher index
                size = compact_subtree(&tree, best, n == 1 or not hidden)
            if size < 0:
                raise MemoryError()
            if size >= self.tree.max_nodes:
                return 0  # more than this search may hold: start afresh
            tree.max_nodes = self.tree.max_nodes
            tree.full = False
            # the last search may have had more memory: give back what this one may not use
            if tree.capacity > tree.max_nodes and tree_resize(&tree, tree.max_nodes) < 0:
                return 0
            tree_free(&self.tree)
            self.tree = tree
            memset(&tree, 0, sizeof(Tree))  # every array is this job's now
            self.reused_nodes = size
            self.reused_visits = self.tree.nodes[0].visits
            return size
        finally:
            free(found)
            tree_free(&tree)

    cdef int start(self) except -1:
        """Search the tree in a worker thread (wait for it with wait_done)."""
        if self.w.done == NULL:
            self.w.done = PyThread_allocate_lock()
            if self.w.done == NULL:
                raise MemoryError()
            PyThread_acquire_lock(self.w.done, NOWAIT_LOCK)  # closed until the tree is done
        self.w.c = self.c
        self.w.root = self.root
        self.w.params = &self.params
        self.w.tree = &self.tree
        self.w.stats = &self.stats
        add_live(1)
        if PyThread_start_new_thread(mcts_worker_main, &self.w) == -1:
            add_live(-1)
            raise RuntimeError("cannot start an MCTS search thread")
        self.searching = True
        return 0

    cdef bint wait_done(self, long long microseconds) noexcept:
        """True once the worker has searched the tree (waits at most ``microseconds``)."""
        cdef PyLockStatus status
        if not self.searching:
            return True
        with nogil:
            status = PyThread_acquire_lock_timed(self.w.done, microseconds, 0)
        if status == PY_LOCK_ACQUIRED:
            self.searching = False
        return not self.searching

    cdef void abort_and_wait(self) noexcept:
        """Abort a search under way and wait for its thread (an uninterruptible wait: the
        worker looks at the flag every iteration)."""
        if self.searching:
            store_flag(&self.stop, STOP_ABORT)
            with nogil:
                PyThread_acquire_lock(self.w.done, WAIT_LOCK)
            self.searching = False

    def cancel(self, int level):
        if level > load_flag(&self.stop):
            store_flag(&self.stop, level)


#: Own actions a TreeStore remembers between two searches (more: it forgets them all).
MAX_HINTS = 256


cdef class TreeStore:
    """The trees of the last MCTS / ISMCTS search, kept for the next one
    (``boardrules.search.SearchHandle`` wraps it): ``run_mcts`` given the store searches
    on from the subtree of the position it is asked about, then keeps its own trees."""
    cdef list jobs            # the last search's _MctsJob objects (empty: none)
    cdef object key           # what the trees were searched for (game, settings)
    cdef list hints           # the observer's actions since, in order (played)

    def __cinit__(self):
        self.jobs = []
        self.key = None
        self.hints = []

    def played(self, int action):
        """Note an action the searching player made since the last search: the next one
        walks his own decisions only along the actions noted."""
        if action < 0:
            raise ValueError("an action id is >= 0")
        if len(self.hints) >= MAX_HINTS:
            self.hints = []  # too many to walk along: the walk follows every action
            return
        self.hints.append(action)

    def clear(self):
        """Forget the trees (and their memory) and the actions noted."""
        self.jobs = []
        self.key = None
        self.hints = []

    @property
    def nodes(self):
        """Nodes of the kept trees."""
        return sum((<_MctsJob>j).tree.size for j in self.jobs)

    @property
    def bytes(self):
        """Memory of the kept trees' node arrays."""
        cdef _MctsJob job
        total = 0
        for job in self.jobs:
            total += job.tree.capacity * node_bytes(job.tree.avail != NULL,
                                                    job.tree.rm != NULL, job.tree.kids != NULL)
        return total


cdef int reuse_trees(TreeStore store, list jobs, object key) except -1:
    """Hand each job the subtree of the store's tree of the same rank (when the store's
    trees were searched for the same game and settings); the store is emptied."""
    cdef _MctsJob job
    cdef int* hints = NULL
    cdef int i, n_hints
    old_jobs, old_key, old_hints = store.jobs, store.key, store.hints
    store.jobs, store.key, store.hints = [], None, []
    if old_key != key or len(old_jobs) != len(jobs):
        return 0
    n_hints = len(old_hints)
    hints = <int*>malloc(sizeof(int) * (n_hints + 1))
    if hints == NULL:
        raise MemoryError()
    try:
        for i in range(n_hints):
            hints[i] = old_hints[i]
        for i in range(len(jobs)):
            job = jobs[i]
            job.take_subtree(old_jobs[i], hints, n_hints)
            old_jobs[i] = None  # its memory goes now, before the search grows its own
    finally:
        free(hints)
    return 0


cdef bint mcts_poll(list jobs, should_stop, bint cancelled) except -1:
    """Run signal handlers (Ctrl-C raises here) and poll ``should_stop`` (True: every job
    is told to stop, keeping its result).  True when the search is cancelled."""
    cdef _MctsJob job
    PyErr_CheckSignals()
    if not cancelled and should_stop is not None and should_stop():
        cancelled = True
        for job in jobs:
            job.cancel(STOP_SOFT)
    return cancelled


cdef bint mcts_run_jobs(list jobs, should_stop) except -1:
    """Search every job's tree in its own C thread and wait for all of them, waking every
    POLL_SECONDS to run signal handlers (Ctrl-C raises here) and to poll ``should_stop``;
    True when it asked to stop.  On any exception the jobs are aborted and their threads
    waited for before it propagates, so no memory a search thread reads is freed under
    it."""
    cdef _MctsJob job
    cdef long long poll = <long long>(POLL_SECONDS * 1e6)
    cdef double polled = now()
    cancelled = False
    try:
        for job in jobs:
            # starting 64 threads beside 63 searching ones can take 0.1-0.2 s on a loaded
            # machine: a stop asked meanwhile is heard within POLL_SECONDS too, and a
            # signal (Ctrl-C) before the next thread starts.  A thread is recorded
            # (job.searching) by the C statement after its start, with no Python code
            # between them to raise: an exception leaves no worker unrecorded, whatever
            # thread it came after (test_keyboard_interrupt_while_threads_start).
            if cancelled:
                job.cancel(STOP_SOFT)
            job.start()
            PyErr_CheckSignals()
            if now() - polled >= POLL_SECONDS:
                polled = now()
                cancelled = mcts_poll(jobs, should_stop, cancelled)
        for job in jobs:
            while not job.wait_done(poll):
                cancelled = mcts_poll(jobs, should_stop, cancelled)
    except BaseException:
        for job in jobs:
            job.cancel(STOP_ABORT)
        for job in jobs:
            job.abort_and_wait()
        raise
    return cancelled


cdef int check_search_arguments(const GameContract* c, int observer,
                                int threads) except -1:
    # A bad value here would index past the state's arrays or divide by zero in C.
    if not 0 <= observer < c.num_players:
        raise ValueError("observer must be a player of the game")
    if not 1 <= threads <= 64:
        raise ValueError("threads must be 1 to 64")
    return 0


cdef int check_mcts_arguments(const GameContract* c, int64_t iterations, double time_limit,
                              double exploration, int64_t max_nodes,
                              double cpu_limit) except -1:
    if iterations < 0 or (iterations == 0 and not time_limit > 0 and not cpu_limit > 0):
        raise ValueError("give a positive iteration budget, a time limit or a CPU limit")
    if not (exploration >= 0 and exploration < 1e300):
        raise ValueError("exploration must be a finite number >= 0")
    if not 2 <= max_nodes <= MAX_TREE_NODES:
        raise ValueError(f"max_nodes must be 2 to {MAX_TREE_NODES}")
    return 0


SIMULTANEOUS_MODES = {"decoupled": SIM_DECOUPLED, "sequential": SIM_SEQUENTIAL,
                      "regret": SIM_REGRET}
#: Bytes of a node's regret-matching statistics, beside the node (``"regret"`` only).
RM_NODE_BYTES = sizeof(RmStat)
#: Bytes of a node's availability count, beside the node (ISMCTS only).
AVAIL_NODE_BYTES = sizeof(int64_t)
#: Bytes of a node's place in the child runs, beside the node (MCTS without simultaneous
#: decisions: its index in its parent's run and where its own run starts).
RUN_NODE_BYTES = 2 * sizeof(int32_t)


cdef size_t node_bytes(bint avail, bint rm, bint runs) noexcept nogil:
    """Bytes a tree node takes with the side arrays its tree has."""
    return (sizeof(Node) + (sizeof(int64_t) if avail else 0) + (sizeof(RmStat) if rm else 0)
            + (2 * sizeof(int32_t) if runs else 0))


def tree_node_bytes(CoreState st, bint ismcts, bint regret):
    """Bytes a node of an MCTS tree takes on ``st``'s game, its side arrays included
    (what ``max_memory`` is divided by): those a job's setup gives its tree."""
    return node_bytes(ismcts, regret, fixed_moves(st.c, ismcts))


cdef int simultaneous_mode(object name) except -1:
    """SIM_* for a mode name ("decoupled" or "sequential")."""
    if not isinstance(name, str):
        raise TypeError(f"simultaneous must be a str, not {type(name).__name__}")
    if name not in SIMULTANEOUS_MODES:
        raise ValueError("simultaneous must be 'decoupled', 'sequential' or 'regret'")
    return SIMULTANEOUS_MODES[name]


cdef list mcts_jobs(CoreState st, int64_t iterations, double time_limit, double exploration,
                    int rollout_limit, bint ismcts, bint determinize_once, int observer,
                    uint64_t seed, int threads, int64_t max_nodes, int simultaneous,
                    bint from_commit=False):
    # Never more trees than iterations: a tree given a share of 0 would read it as
    # "no iteration limit" and never stop.
    cdef int trees = threads if iterations == 0 else <int>min(<int64_t>threads, iterations)
    cdef list jobs = []
    cdef _MctsJob job
    cdef int t
    cdef int64_t per_tree
    for t in range(trees):
        per_tree = 0
        if iterations > 0:
            per_tree = iterations // trees + (1 if t < iterations % trees else 0)
        job = _MctsJob()
        job.setup(st, per_tree, max_nodes, simultaneous == SIM_REGRET, from_commit, ismcts)
        job.params.iterations = per_tree
        job.params.time_limit = time_limit
        job.params.exploration = exploration
        job.params.rollout_limit = rollout_limit
        job.params.ismcts = ismcts
        job.params.determinize_once = determinize_once
        job.params.observer = observer
        job.params.simultaneous = simultaneous
        job.params.seed = seed + <uint64_t>0x9E3779B97F4A7C15 * t
        jobs.append(job)
    return jobs


ROOT_SELECTIONS = {"uct": ROOT_UCT, "lucb": ROOT_LUCB}
ROLLOUT_POLICIES = {"random": ROLLOUT_RANDOM, "informed": ROLLOUT_INFORMED}
#: The fewest visits a move needs for a confidence interval (fewer: none, unseparated).
MIN_ANSWER_VISITS = MIN_INTERVAL_VISITS
#: The fewest visits of the answer for ``until_sure`` to stop (more than one move).
MIN_SURE_VISITS = MIN_SURE_ANSWER_VISITS
#: The smallest variance a move's returns are counted with.
ANSWER_VARIANCE_FLOOR = VAR_FLOOR
#: The standard error of a move with too few visits for an interval.
INF_STDERR = INF


cdef int word_code(dict words, object value, str name) except -1:
    if not isinstance(value, str) or value not in words:
        raise ValueError(f"{name} must be one of {', '.join(words)}, not {value!r}")
    return words[value]


cdef int set_answer_params(list jobs, double cpu_limit, bint until_sure, double z,
                           double tie_tolerance, double var_floor, int root_selection,
                           int rollout_policy, double rollout_epsilon,
                           bint solver) except -1:
    cdef _MctsJob job
    if not (cpu_limit >= 0 and cpu_limit < 1e300):
        raise ValueError("cpu_limit must be a finite number >= 0")
    if not (z > 0 and z < 100):
        raise ValueError("the confidence quantile z must be > 0 and < 100")
    if not (tie_tolerance >= 0 and tie_tolerance <= 2):
        raise ValueError("tie_tolerance must be 0 to 2")
    if not (var_floor > 0 and var_floor <= 1):
        raise ValueError("var_floor must be > 0 and <= 1")
    if not (rollout_epsilon >= 0 and rollout_epsilon <= 1):
        raise ValueError("rollout_epsilon must be 0 to 1")
    for job in jobs:
        job.params.cpu_limit = cpu_limit
        job.params.until_sure = until_sure
        job.params.z = z
        job.params.tie_tolerance = tie_tolerance
        job.params.var_floor = var_floor
        job.params.root_selection = root_selection
        job.params.rollout_policy = rollout_policy
        job.params.rollout_epsilon = rollout_epsilon
        job.params.solver = solver
    return 0


def run_mcts(CoreState st, int64_t iterations, double time_limit, double exploration,
             int rollout_limit, bint ismcts, bint determinize_once, int observer,
             uint64_t seed, int threads, int64_t max_nodes=1 << 22, should_stop=None,
             simultaneous="decoupled", TreeStore store=None, game_key=None, *,
             double cpu_limit=0.0, bint until_sure=False, double z=1.959963984540054,
             double tie_tolerance=0.01, double var_floor=VAR_FLOOR, root_selection="uct",
             rollout_policy="random", double rollout_epsilon=0.0, bint solver=False):
    """Root-parallel (IS)MCTS from ``st``: per root action (action, visits, mean value for
    the player to move), the principal variation and statistics.  ``max_nodes`` caps each
    tree; ``should_stop()`` is polled while the threads run (True: stop, keep the result).
    ``simultaneous``: ``"decoupled"`` searches a decision the game marks simultaneous with
    a hidden commit by statistics pooled over the commits (decoupled UCT), ``"sequential"``
    as if its mover saw the commit (plain SO-ISMCTS), ``"regret"`` pooled as decoupled
    with both sides of the stage drawn by regret matching; then ``"strategy"`` and
    ``"reply_strategy"`` are the average strategies (action, probability) of the root
    commit and of its simultaneous reply, merged over the trees (empty when the root is
    no such commit).

    Outside ``"sequential"``, a root decision simultaneous with a hidden commit that the
    game can take back (``take_back_commit``) is searched from that commit, taken back:
    the tree models the committer's choice (over the worlds of ``observer``'s knowledge)
    and the root player's decision is the pooled one below it, so that he answers the
    committer's strategy rather than a commit drawn at random.  Then ``"children"`` are
    that decision's pooled statistics, ``"strategy"`` its average strategy and
    ``"from_commit"`` is true.

    With a ``store`` (a TreeStore), each tree starts from the subtree of the store's tree
    whose position is this root as ``observer`` knows it (MCTS on a game without hidden
    information: the same state; ISMCTS: the same observation, every node he cannot tell
    apart merged), and the store then keeps this search's trees: ``"reused_nodes"`` and
    ``"reused_visits"`` say what was kept.  ``iterations`` counts this call's only.
    ``game_key`` says which game the trees are of (equal keys: the same rules and tables;
    default the core game object itself).

    How sure the answer is (see "How sure the root's answer is"): ``"estimates"`` gives
    per answer move (action, visits, mean, standard error), in the order of
    ``"children"`` (the highest lower bound of the ``z`` interval first), ``"separated"``
    and ``"sure"`` the verdict, ``"tied"`` the actions tied with the answer within
    ``tie_tolerance``; no variance counts below ``var_floor``.  ``until_sure``: each
    tree stops once its own answer is sure
    (``"stopped"`` is ``"sure"``); ``cpu_limit``: CPU seconds of each tree's thread
    (``"cpu"``); ``root_selection``: ``"uct"`` or ``"lucb"`` (select_root_lucb);
    ``rollout_policy``: ``"random"`` or ``"informed"`` (epsilon-greedy on the game's
    action_values, a uniformly random move with probability ``rollout_epsilon``);
    ``solver``: MCTS-solver backups of proven results (MCTS on a game without hidden
    information or simultaneous decisions; elsewhere it does nothing)."""
    cdef int root_code = word_code(ROOT_SELECTIONS, root_selection, "root_selection")
    cdef int rollout_code = word_code(ROLLOUT_POLICIES, rollout_policy, "rollout_policy")
    # the call's start: every tree stops at time_limit seconds from here, however late its
    # thread starts (and whatever setting up the trees took)
    cdef double t0 = now()
    cdef const GameContract* c = st.c
    cdef int mover = c.current_player(st.data, c.tables)
    cdef _MctsJob job
    if mover < 0:
        raise ValueError("search needs a player to move (not a chance node, not terminal)")
    check_search_arguments(c, observer, threads)
    check_mcts_arguments(c, iterations, time_limit, exploration, max_nodes, cpu_limit)
    cdef int mode = simultaneous_mode(simultaneous)
    cdef bint from_commit = (mode != SIM_SEQUENTIAL and c.take_back_commit != NULL
                             and c.simultaneous != NULL and c.simultaneous(st.data, c.tables))
    cdef list jobs
    # whose knowledge matters to ISMCTS only: an MCTS tree of a game without hidden
    # information serves every player
    key = (st.game if game_key is None else game_key, ismcts, observer if ismcts else -1,
           mode, threads)
    while True:
        jobs = mcts_jobs(st, iterations, time_limit, exploration, rollout_limit, ismcts,
                         determinize_once, observer, seed, threads, max_nodes, mode,
                         from_commit)
        for job in jobs:
            job.params.deadline = t0 + time_limit if time_limit > 0 else 0.0
        set_answer_params(jobs, cpu_limit, until_sure, z, tie_tolerance, var_floor,
                          root_code, rollout_code, rollout_epsilon, solver)
        if store is not None:
            # one world per tree (determinize_once) draws a new world every search: its
            # tree is of no use after it
            reuse_trees(store, jobs, None if determinize_once else key)
        cancelled = mcts_run_jobs(jobs, should_stop)
        raise_state_errors([(<_MctsJob>j).stats.status for j in jobs], observer,
                           ismcts or determinize_once)
        replies = _pooled_replies(jobs)
        if from_commit and not replies:
            # a tree capped below three nodes holds no pooled decision: search the
            # decision itself (the deadline is the same; a budget this small is quick)
            from_commit = False
            continue
        break
    result = (mcts_from_commit_result(jobs, cancelled, replies) if from_commit
              else mcts_result(jobs, mover, cancelled, replies))
    result["from_commit"] = from_commit
    result["reused_nodes"] = sum((<_MctsJob>j).reused_nodes for j in jobs)
    result["reused_visits"] = sum((<_MctsJob>j).reused_visits for j in jobs)
    if store is not None and not determinize_once:
        store.jobs, store.key, store.hints = jobs, key, []
    result["deadline_seconds"] = time_limit if time_limit > 0 else None
    # per tree, from the call's start: when its search began and the deadline it kept
    result["tree_start_seconds"] = [(<_MctsJob>j).stats.started - t0 for j in jobs]
    result["tree_deadline_seconds"] = [
        (<_MctsJob>j).stats.deadline - t0 if (<_MctsJob>j).stats.deadline > 0 else None
        for j in jobs]
    result["simultaneous"] = simultaneous
    result["strategy"], result["reply_strategy"] = _average_strategies(jobs)
    if from_commit:  # the root player's decision is the reply
        result["strategy"], result["reply_strategy"] = result["reply_strategy"], []
    result["root_simultaneous"] = bool(c.simultaneous != NULL
                                       and c.simultaneous(st.data, c.tables))
    return result


def raise_state_errors(statuses, int observer, bint worlds):
    """InvalidStateError when a search met a state it cannot trust (SEARCH_NO_MOVE,
    SEARCH_BAD_WORLD); out-of-memory statuses are left to the caller."""
    whose = (f"a world determinize({observer}) drew (or a state below it)" if worlds
             else "the state searched (or a state below it)")
    if SEARCH_BAD_WORLD in statuses:
        raise InvalidStateError(
            f"a world determinize({observer}) drew has another player to move than the "
            f"state searched (or is over): no play of the rules reaches it, and the "
            f"search stopped")
    if SEARCH_NO_MOVE in statuses:
        raise InvalidStateError(
            f"{whose} is not over and gives the player to move no legal move (or a chance "
            f"event no outcome): no play of the rules reaches it, and the search stopped")


cdef dict merged_stats(list jobs, bint cancelled):
    """The trees' statistics together (a MemoryError if one ran out of memory)."""
    cdef _MctsJob job
    for job in jobs:
        if job.stats.status != 0:
            raise MemoryError("search tree")
    return {"iterations": sum((<_MctsJob>j).stats.iterations for j in jobs),
            "nodes": sum((<_MctsJob>j).stats.nodes for j in jobs),
            "max_depth": max((<_MctsJob>j).stats.max_depth for j in jobs),
            "seconds": max((<_MctsJob>j).stats.seconds for j in jobs),
            "trees": len(jobs),
            "tree_full": any((<_MctsJob>j).tree.full for j in jobs),
            "stopped": _stopped(jobs, cancelled),
            "cpu_seconds": sum((<_MctsJob>j).stats.cpu_seconds for j in jobs),
            "select_failures": sum((<_MctsJob>j).stats.select_failures for j in jobs),
            "pooled_nodes": sum((<_MctsJob>j).tree.pooled for j in jobs),
            "simultaneous_decisions": sum((<_MctsJob>j).stats.simultaneous for j in jobs)}


cdef object _stopped(list jobs, bint cancelled):
    """What ended the search, over its trees: a cancel, the clock, the CPU limit, the answer
    sure (every tree that stopped early stopped sure), or None (the iterations used up)."""
    codes = {(<_MctsJob>j).stats.stopped for j in jobs}
    if cancelled or STOPPED_CANCELLED in codes:
        return "cancelled"
    if STOPPED_CLOCK in codes:
        return "time"
    if STOPPED_CPU in codes:
        return "cpu"
    if STOPPED_SURE in codes:
        return "sure"
    return None


cdef dict answer_figures(list jobs, dict totals):
    """The answer moves ranked, with their confidence figures and the verdict, from
    ``totals`` (action: (visits, sum of the mover's returns, whether the move ends the
    game), merged over the trees) and
    the trees' squares of this call's returns."""
    cdef _MctsJob job
    cdef _MctsJob first = <_MctsJob>jobs[0]
    cdef double z = first.params.z if first.params.z > 0 else 1.959963984540054
    cdef double tolerance = first.params.tie_tolerance
    cdef double floor = first.params.var_floor if first.params.var_floor > 0 else VAR_FLOOR
    cdef double total, squares, mean, se, mean_b, se_b
    cdef int64_t n, visits
    cdef bint worlds = first.params.ismcts or first.params.determinize_once
    entries = []
    for a, (visits, value, ends) in totals.items():
        total = squares = 0.0
        n = 0
        for job in jobs:
            if job.params.root_n != NULL:
                total += job.params.root_sum[a]
                squares += job.params.root_sq[a]
                n += job.params.root_n[a]
        mean = value / visits if visits else 0.0
        entries.append((a, visits, mean, answer_stderr(mean, visits, total, squares, n,
                                                       ends, worlds, floor)))
    # the highest lower bound first; without intervals the most visited
    entries.sort(key=lambda e: (-lower_bound(e[2], e[3], z), -e[1], -e[2], e[0]))
    separated = sure = bool(entries)
    tied = []
    if entries:
        _, _, mean_b, se_b = entries[0]
        for a, _, mean, se in entries[1:]:
            if tied_with(mean_b, se_b, mean, se, z, tolerance):
                tied.append(a)
                separated = False
            elif not separated_from(mean_b, se_b, mean, se, z):
                separated = sure = False
    return {"children": [(a, v, m) for a, v, m, _ in entries],
            "estimates": entries, "separated": separated, "sure": sure, "tied": tied,
            "z": z, "tie_tolerance": tolerance}


cdef dict mcts_result(list jobs, int mover, bint cancelled, list replies):
    """Merge the trees' root statistics; the pv comes from the tree that visited the best
    move most (the merged best move may be missing from some trees).  ``replies``: the
    pooled decision below the root (_pooled_replies)."""
    cdef _MctsJob job
    cdef _MctsJob best_job = None
    cdef int32_t ch, node = -1
    cdef int64_t best_visits = -1
    result = merged_stats(jobs, cancelled)
    totals = {}
    for job in jobs:
        ch = job.tree.nodes[0].first_child
        while ch >= 0:
            v, val, exact = totals.get(job.tree.nodes[ch].action, (0, 0.0, True))
            # exact when every tree that holds the move proved it (or it ends the game)
            totals[job.tree.nodes[ch].action] = (
                v + job.tree.nodes[ch].visits, val + job.tree.nodes[ch].value[mover],
                exact and (job.tree.nodes[ch].player == TERMINAL_PLAYER
                           or (job.tree.nodes[ch].flags & NODE_PROVEN) != 0))
            ch = job.tree.nodes[ch].next_sibling
    answers = answer_figures(jobs, totals)
    children = answers["children"]
    pv = []
    if children:
        for job in jobs:
            ch = find_child(&job.tree, 0, children[0][0])
            if ch >= 0 and job.tree.nodes[ch].visits > best_visits:
                best_visits, best_job, node = job.tree.nodes[ch].visits, job, ch
        pv.append(children[0][0])
        _pv_tail(&best_job.tree, node, pv)
    result.update(answers)
    result.update(pv=pv, replies=replies)
    return result


cdef dict mcts_from_commit_result(list jobs, bint cancelled, list replies):
    """mcts_result for a search from a commit taken back: the moves are the pooled
    decision's (``replies``, not empty); the pv is its most visited action, then the line
    below it after the commit the tree visited most (the searcher's best guess of the
    hidden commit)."""
    cdef _MctsJob job
    cdef _MctsJob best_job = None
    cdef int32_t pn, commit
    cdef int64_t best_visits = -1
    result = merged_stats(jobs, cancelled)
    # a pooled decision's moves do not end the game (the commit's reveal follows)
    answers = answer_figures(jobs, {a: (n, mean * n, False) for a, n, mean in replies})
    best = answers["children"][0][0]
    for job in jobs:
        pn = job.tree.nodes[0].first_pooled
        while pn >= 0:
            if job.tree.nodes[pn].action == best and job.tree.nodes[pn].visits > best_visits:
                best_visits, best_job = job.tree.nodes[pn].visits, job
            pn = job.tree.nodes[pn].next_sibling
    pv = [best]
    commit = _most_visited(&best_job.tree, best_job.tree.nodes[0].first_child)
    if commit >= 0:
        _pv_tail(&best_job.tree, find_child(&best_job.tree, commit, best), pv)
    result.update(answers)
    result.update(pv=pv, replies=[])
    return result


cdef void _pv_tail(const Tree* tree, int32_t node, list pv):
    """Append the principal variation after ``node`` (nothing when it is -1)."""
    cdef int a
    while node >= 0:
        node = _pv_next(tree, node, &a)
        if a < 0:
            break
        pv.append(a)


cdef tuple _average_strategies(list jobs):
    """The regret-matching average strategies at the root's stage, merged over the trees
    (each tree's cumulative probabilities summed, then normalised): the root commit's over
    the root's children and the simultaneous reply's over the pooled nodes, each a list of
    (action, probability) in action order; empty without regret matching there."""
    cdef _MctsJob job
    cdef int32_t ch
    commit, reply = {}, {}
    for job in jobs:
        if job.tree.rm == NULL or job.tree.size == 0 or job.tree.nodes[0].first_pooled < 0:
            continue
        for first, sums in ((job.tree.nodes[0].first_child, commit),
                            (job.tree.nodes[0].first_pooled, reply)):
            ch = first
            while ch >= 0:
                a = job.tree.nodes[ch].action
                sums[a] = sums.get(a, 0.0) + job.tree.rm[ch].strategy
                ch = job.tree.nodes[ch].next_sibling
    return _normalised(commit), _normalised(reply)


cdef list _normalised(dict sums):
    total = sum(sums.values())
    if not total > 0:
        return []
    return [(a, sums[a] / total) for a in sorted(sums)]


cdef list _pooled_replies(list jobs):
    """The decoupled decision just below the root (a reply simultaneous with the root
    player's hidden commit), merged over the trees: per action (action, visits, mean value
    for its mover), most visited first; empty when there is none."""
    cdef _MctsJob job
    cdef int32_t pn
    cdef const Node* node
    totals = {}
    for job in jobs:
        if job.stats.status != 0 or job.tree.size == 0:
            continue  # out of memory before its root: merged_stats raises
        pn = job.tree.nodes[0].first_pooled
        while pn >= 0:
            node = &job.tree.nodes[pn]
            n, val = totals.get(node.action, (0, 0.0))
            totals[node.action] = (n + node.visits, val + node.value[node.player])
            pn = node.next_sibling
    return sorted(((a, n, val / n if n else 0.0) for a, (n, val) in totals.items()),
                  key=lambda x: (-x[1], -x[2], x[0]))


cdef int32_t _most_visited(const Tree* tree, int32_t first) noexcept nogil:
    """The most visited node of the list from ``first`` (-1 when none was visited)."""
    cdef int32_t ch = first
    cdef int32_t best = -1
    cdef int64_t best_visits = 0
    while ch >= 0:
        if tree.nodes[ch].visits > best_visits:
            best_visits = tree.nodes[ch].visits
            best = ch
        ch = tree.nodes[ch].next_sibling
    return best


cdef int32_t _pv_next(const Tree* tree, int32_t node, int* action) noexcept nogil:
    """The next step of the principal variation after ``node``: the action (-1: the line
    ends, at a chance node, the end or a leaf) and the node it leads to (-1 if that is not
    in the tree).  A decoupled decision plays the action its pooled statistics visited
    most (what its mover would choose not seeing the commit), not the most visited reply
    to the commit on the line."""
    cdef int32_t best
    action[0] = -1
    if tree.nodes[node].player < 0:
        return -1
    if tree.nodes[node].flags & NODE_DECOUPLED:
        best = _most_visited(tree, tree.nodes[tree.nodes[node].parent].first_pooled)
        if best >= 0:
            action[0] = tree.nodes[best].action
            return find_child(tree, node, action[0])
    best = _most_visited(tree, tree.nodes[node].first_child)
    if best >= 0:
        action[0] = tree.nodes[best].action
    return best


def _long_search_selftest(CoreState st, int64_t iterations, int64_t visits_offset,
                          int64_t stamp_start, uint64_t seed=1):
    """Test hook for counters past 32 bits without running for minutes: ``iterations`` of
    one-tree MCTS, then every node's visits (and availability) raised by ``visits_offset``
    with its value sums scaled to keep the means, then ``iterations`` more with the
    legal-move stamp starting at ``stamp_start``.  Returns the root's visits, the root
    children (action, visits, mean) and how many selections found no child."""
    cdef const GameContract* c = st.c
    cdef int mover = c.current_player(st.data, c.tables)
    if mover < 0:
        raise ValueError("search needs a player to move (not a chance node, not terminal)")
    if iterations < 1 or visits_offset < 0 or stamp_start < 0 or stamp_start > 2**60:
        raise ValueError("iterations >= 1, visits_offset >= 0, 0 <= stamp_start <= 2**60")
    cdef _MctsJob job = (<list>mcts_jobs(st, iterations, 0.0, 1.0, -1, False, False, mover,
                                         seed, 1, 1 << 20, SIM_DECOUPLED))[0]
    cdef int32_t i, ch
    cdef double scale
    job.run()
    for i in range(job.tree.size):
        if job.tree.nodes[i].visits > 0:
            scale = (job.tree.nodes[i].visits + visits_offset) / <double>job.tree.nodes[i].visits
            for k in range(c.num_players):
                job.tree.nodes[i].value[k] *= scale
        job.tree.nodes[i].visits += visits_offset
        if job.tree.avail != NULL:
            job.tree.avail[i] += visits_offset
    job.params.stamp_start = stamp_start
    job.run()
    children = []
    ch = job.tree.nodes[0].first_child
    while ch >= 0:
        children.append((job.tree.nodes[ch].action, job.tree.nodes[ch].visits,
                         job.tree.nodes[ch].value[mover] / job.tree.nodes[ch].visits))
        ch = job.tree.nodes[ch].next_sibling
    return {"root_visits": job.tree.nodes[0].visits, "children": children,
            "iterations": job.stats.iterations, "select_failures": job.stats.select_failures}


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
    # Entries hold ``hash ^ tt_salt``, with a fresh salt for every world (see ab_reset):
    # an entry of an earlier world matches with the odds of a 64-bit hash collision, so
    # the table never needs clearing -- it is zeroed pages from the OS (zero_pages),
    # touched only as used.
    uint64_t tt_salt
    uint64_t worlds_dealt     # how many salts were drawn (the next salt's seed)
    int64_t* history
    char* states              # per-ply buffers, depth_cap + 3 states
    int* acts                 # per ply, max_legal_actions each
    double* probs
    int64_t* keys
    double* current           # ab_root's values and node counts of the root moves
    int64_t* counted
    int64_t bytes             # what ab_alloc allocated (counted in the memory cap)
    int64_t nodes             # counted over every world this context searched
    int64_t node_limit        # stop when ``nodes`` reaches it; <= 0: no node budget
    bint must_finish          # searching the guaranteed depth 1: only an abort stops it
    bint stop
    int stop_reason           # STOP_REASON_*
    int root_team


# AbCtx.stop_reason: why a search ended before its depth (0: it did not).
cdef enum:
    STOP_REASON_CLOCK = 1
    STOP_REASON_NODES = 2
    STOP_REASON_FLAG = 3
    STOP_REASON_MEMORY = 4    # depth_cap completed below max_depth: stopped, not cut off
    STOP_REASON_NO_MOVE = 5   # a state not over with no move (see SEARCH_NO_MOVE)

# Searches with at most this many tables, and no time limit under HUGE_PAGE_MIN_SECONDS,
# back them with huge pages (run_alphabeta).
cdef enum:
    HUGE_PAGE_TABLES = 4
cdef double HUGE_PAGE_MIN_SECONDS = 1.0

# The smallest transposition table a thread gets (2**10 entries, 24 KiB).
cdef enum:
    AB_TT_MIN_BITS = 10
TT_MIN_BITS = AB_TT_MIN_BITS


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


cdef int ab_stop_reason(const AbCtx* x) noexcept nogil:
    """Why the search must stop now (0: it goes on); looked at every 64 nodes, so the node
    budget stops at a count that depends on the position only (reproducible)."""
    cdef int flag = load_flag(x.params.stop) if x.params.stop != NULL else STOP_NONE
    if flag == STOP_ABORT:
        return STOP_REASON_FLAG
    if x.must_finish:
        return 0
    if flag != STOP_NONE:
        return STOP_REASON_FLAG
    if x.node_limit > 0 and x.nodes >= x.node_limit:
        return STOP_REASON_NODES
    if x.params.deadline > 0 and now() >= x.params.deadline:
        return STOP_REASON_CLOCK
    return 0


cdef double ab_no_move(AbCtx* x) noexcept nogil:
    """alphabeta at a state not over with no move: the whole search stops (its value
    would be -INF or INF, a loss or win no rule gives) and ab_worlds reports it."""
    x.stop = True
    x.stop_reason = STOP_REASON_NO_MOVE
    return 0.0


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
    cdef uint64_t key = 0, tag = 0
    cdef TTEntry* entry = NULL
    x.nodes += 1
    if (x.nodes & 63) == 0 and not x.stop:
        x.stop_reason = ab_stop_reason(x)
        x.stop = x.stop_reason != 0
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
        if n <= 0:
            return ab_no_move(x)
        v = 0.0
        for i in range(n):
            memcpy(child, s, size)
            c.apply(child, c.tables, acts[i])
            v += probs[i] * alphabeta(x, ply + 1, depth - 1, -INF, INF)
        return v
    key = c.hash(s, c.tables)
    tag = key ^ x.tt_salt
    entry = &x.tt[key & x.tt_mask]
    if entry.key == tag:
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
    if n <= 0:
        return ab_no_move(x)
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
    entry.key = tag
    entry.value = best
    entry.best = best_action
    entry.depth = depth
    entry.flag = TT_UPPER if best <= alpha0 else (TT_LOWER if best >= beta0 else TT_EXACT)
    return best


cdef void* ab_malloc(AbCtx* x, size_t count, size_t size) noexcept nogil:
    """``malloc``, counted in ``x.bytes`` (the memory cap's accounting)."""
    x.bytes += <int64_t>(count * size)
    return malloc(count * size)


cdef int64_t ab_ctx_bytes(const GameContract* c, int depth_cap, int share,
                          int tt_bits) noexcept nogil:
    """What ab_alloc allocates for these sizes (``tt_bits`` < 0: without the table)."""
    cdef int64_t plies = depth_cap + 2
    cdef int64_t m = c.max_legal_actions
    cdef int64_t table = (<int64_t>sizeof(TTEntry)) << tt_bits if tt_bits >= 0 else 0
    return (table + <int64_t>sizeof(int64_t) * c.num_distinct_actions
            + <int64_t>c.state_size * (plies + 1)
            + <int64_t>(sizeof(int) + sizeof(double) + sizeof(int64_t)) * m * plies
            + <int64_t>(sizeof(double) + sizeof(int64_t)) * share)


cdef int ab_alloc(AbCtx* x, const GameContract* c, const AbParams* params) noexcept nogil:
    """The table and the buffers for ``params.depth_cap`` plies and ``params.share`` root
    moves (exactly ``ab_ctx_bytes``); -1 when out of memory."""
    cdef int plies = params.depth_cap + 2
    memset(x, 0, sizeof(AbCtx))
    x.c = c
    x.params = params[0]
    x.tt_mask = ((<uint64_t>1) << params.tt_bits) - 1
    x.tt = <TTEntry*>zero_pages(sizeof(TTEntry) * (x.tt_mask + 1), params.huge_pages)
    x.bytes += sizeof(TTEntry) * (x.tt_mask + 1)
    # the rest is written before it is read (the history is cleared for every world)
    x.history = <int64_t*>ab_malloc(x, c.num_distinct_actions, sizeof(int64_t))
    x.states = <char*>ab_malloc(x, plies + 1, c.state_size)
    x.acts = <int*>ab_malloc(x, <size_t>c.max_legal_actions * plies, sizeof(int))
    x.probs = <double*>ab_malloc(x, <size_t>c.max_legal_actions * plies, sizeof(double))
    x.keys = <int64_t*>ab_malloc(x, <size_t>c.max_legal_actions * plies, sizeof(int64_t))
    x.current = <double*>ab_malloc(x, params.share, sizeof(double))
    x.counted = <int64_t*>ab_malloc(x, params.share, sizeof(int64_t))
    if (x.tt == NULL or x.history == NULL or x.states == NULL or x.acts == NULL
            or x.probs == NULL or x.keys == NULL or x.current == NULL or x.counted == NULL):
        return -1
    x.root_team = c.team_of[params.root_player]
    return 0


cdef inline uint64_t splitmix64(uint64_t z) noexcept nogil:
    z += <uint64_t>0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef void ab_reset(AbCtx* x) noexcept nogil:
    """Ready for a new world: a fresh table salt instead of clearing the table (clearing
    64 tables of 24 MiB for each of 8 worlds, in the calling thread, was most of the
    time a 64-thread search took), the history cleared."""
    x.worlds_dealt += 1
    x.tt_salt = splitmix64(x.worlds_dealt)
    memset(x.history, 0, sizeof(int64_t) * x.c.num_distinct_actions)
    x.stop = False
    x.stop_reason = 0


cdef void ab_free(AbCtx* x) noexcept nogil:
    if x.tt != NULL:
        free_pages(x.tt, sizeof(TTEntry) * (x.tt_mask + 1))
    free(x.history)
    free(x.states)
    free(x.acts)
    free(x.probs)
    free(x.keys)
    free(x.current)
    free(x.counted)


cdef int ab_root(AbCtx* x, const void* root, int* root_acts, int* root_idx,
                 double* depth_values, int64_t* depth_nodes, int n,
                 AbStats* stats) noexcept nogil:
    """Iterative deepening over the root moves (each searched with a full window, so
    every root value is exact), up to ``depth_cap`` (the depth its buffers hold).
    Completed depth ``d`` leaves the value and node count of root move ``root_idx[i]``
    (its index before any reordering) at ``depth_values[(d - 1) * n + root_idx[i]]``; the
    moves are reordered best first.  ``n`` is at most ``params.share``."""
    cdef const GameContract* c = x.c
    cdef size_t size = c.state_size
    cdef double* current = x.current
    cdef int64_t* counted = x.counted
    cdef int depth, i, j, a, ix
    cdef int64_t before
    cdef double v
    if n > x.params.share:
        return -1  # cannot happen: run_alphabeta sizes the share for every world
    stats.depth_reached = 0
    stats.status = 0
    memcpy(x.states, root, size)
    for depth in range(1, x.params.depth_cap + 1):
        x.must_finish = x.params.must_finish_depth1 and depth == 1
        for i in range(n):
            memcpy(x.states + size, root, size)
            c.apply(x.states + size, c.tables, root_acts[i])
            before = x.nodes
            current[i] = alphabeta(x, 1, depth - 1, -INF, INF)
            counted[i] = x.nodes - before
            if x.stop:
                break
        x.must_finish = False
        if x.stop:
            stats.status = 1
            break
        for i in range(n):
            depth_values[(depth - 1) * n + root_idx[i]] = current[i]
            depth_nodes[(depth - 1) * n + root_idx[i]] = counted[i]
        stats.depth_reached = depth
        # best first for the next iteration (stable insertion sort on the values)
        for i in range(1, n):
            a = root_acts[i]
            ix = root_idx[i]
            v = current[i]
            j = i - 1
            while j >= 0 and current[j] < v:
                root_acts[j + 1] = root_acts[j]
                root_idx[j + 1] = root_idx[j]
                current[j + 1] = current[j]
                j -= 1
            root_acts[j + 1] = a
            root_idx[j + 1] = ix
            current[j + 1] = v
    if stats.depth_reached == x.params.depth_cap < x.params.max_depth:
        x.stop_reason = STOP_REASON_MEMORY  # the cap, not the budget, ended the deepening
    stats.nodes = x.nodes
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
        if entry.key != (key ^ x.tt_salt) or entry.best < 0:
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


ctypedef struct AbWorker:
    # Everything one alpha-beta worker thread reads.  The calling thread fills it (deal)
    # while the worker waits on ``go``, and reads the results once ``done`` is released.
    AbCtx x
    int n
    int* orig_acts            # its root moves in the order dealt
    int* acts                 # the same, reordered best first by ab_root
    int* idx
    double* depth_values
    int64_t* depth_nodes
    char* world
    AbStats stats
    int rc
    int stop                  # STOP_* flag, set by the calling thread (cancel)
    bint quit                 # set before go is released: the worker returns
    PyThread_type_lock go     # released by the caller: search the world dealt (or quit)
    PyThread_type_lock done   # released by the worker: searched (or quitting)


cdef void ab_worker_main(void* arg) noexcept nogil:
    """A worker thread: one world searched each time ``go`` opens, until told to quit.
    It never takes the GIL, so the threads of a search start and wake without waiting
    for each other (one threading.Thread per world and thread took 1-5 ms each to start
    on a loaded machine: 64 threads overran a 25 ms world several times over)."""
    cdef AbWorker* w = <AbWorker*>arg
    while True:
        PyThread_acquire_lock(w.go, WAIT_LOCK)
        if w.quit:
            break
        w.rc = ab_root(&w.x, w.world, w.acts, w.idx, w.depth_values, w.depth_nodes, w.n,
                       &w.stats)
        PyThread_release_lock(w.done)
    add_live(-1)
    # its last touch of the job's memory: the caller may free it once done is acquired
    PyThread_release_lock(w.done)


cdef class _AbJob:
    """One thread's share of the root moves in a root-parallel alpha-beta: its own table,
    its own copy of the world, every byte its thread reads, and the thread itself
    (started once per search; every world is handed to it through ``go`` / ``done``)."""
    cdef AbWorker w
    cdef int64_t bytes        # everything it allocated (exactly ab_job_bytes)
    cdef bint started         # its worker thread runs
    cdef bint searching       # its worker has a world it has not reported done

    def __cinit__(self):
        memset(&self.w, 0, sizeof(AbWorker))
        self.w.stop = STOP_NONE
        self.bytes = 0
        self.started = False
        self.searching = False

    def __dealloc__(self):
        self.stop_worker()  # ab_worlds has done it; never free under a running thread
        ab_free(&self.w.x)
        free(self.w.orig_acts)
        free(self.w.acts)
        free(self.w.idx)
        free(self.w.depth_values)
        free(self.w.depth_nodes)
        free(self.w.world)
        if self.w.go != NULL:
            PyThread_free_lock(self.w.go)
        if self.w.done != NULL:
            PyThread_free_lock(self.w.done)

    cdef int setup(self, const GameContract* c, const AbParams* params) except -1:
        cdef size_t share = params.share
        cdef size_t cells = share * params.depth_cap
        self.w.orig_acts = <int*>malloc(sizeof(int) * share)
        self.w.acts = <int*>malloc(sizeof(int) * share)
        self.w.idx = <int*>malloc(sizeof(int) * share)
        self.w.depth_values = <double*>malloc(sizeof(double) * cells)
        self.w.depth_nodes = <int64_t*>malloc(sizeof(int64_t) * cells)
        self.w.world = <char*>malloc(c.state_size)
        self.w.go = PyThread_allocate_lock()
        self.w.done = PyThread_allocate_lock()
        if (self.w.orig_acts == NULL or self.w.acts == NULL or self.w.idx == NULL
                or self.w.depth_values == NULL or self.w.depth_nodes == NULL
                or self.w.world == NULL or self.w.go == NULL or self.w.done == NULL
                or ab_alloc(&self.w.x, c, params) < 0):
            raise MemoryError()
        # both closed: the worker waits for go, the caller for done
        PyThread_acquire_lock(self.w.go, NOWAIT_LOCK)
        PyThread_acquire_lock(self.w.done, NOWAIT_LOCK)
        self.bytes = (self.w.x.bytes + <int64_t>(3 * sizeof(int)) * share
                      + <int64_t>(sizeof(double) + sizeof(int64_t)) * cells + c.state_size)
        self.w.x.params.stop = &self.w.stop
        return 0

    cdef int start(self) except -1:
        """Start the worker thread (it waits for go).  Counted live before it starts, as
        MCTS's: the count never misses a thread that runs."""
        add_live(1)
        if PyThread_start_new_thread(ab_worker_main, &self.w) == -1:
            add_live(-1)
            raise RuntimeError("cannot start an alpha-beta search thread")
        self.started = True
        return 0

    cdef int deal(self, const char* world, const int* acts, int n, int first, int step,
                  int64_t node_share, double deadline, bint must_finish) except -1:
        """Give this job the root moves ``first, first + step, ...`` of ``world`` (at most
        ``params.share`` of them: run_alphabeta sized the share for every world)."""
        cdef int i
        if (n - first + step - 1) // step > self.w.x.params.share:
            raise RuntimeError("a world has more root moves than the search was sized for")
        memcpy(self.w.world, world, self.w.x.c.state_size)
        self.w.n = 0
        for i in range(first, n, step):
            self.w.orig_acts[self.w.n] = acts[i]
            self.w.acts[self.w.n] = acts[i]
            self.w.idx[self.w.n] = self.w.n
            self.w.n += 1
        ab_reset(&self.w.x)
        self.w.x.node_limit = self.w.x.nodes + node_share if node_share > 0 else 0
        self.w.x.params.deadline = deadline
        self.w.x.params.must_finish_depth1 = must_finish
        self.w.stats.depth_reached = 0
        return 0

    cdef void go(self) noexcept:
        """Let the worker search the world dealt."""
        self.searching = True
        PyThread_release_lock(self.w.go)

    cdef bint wait_done(self, long long microseconds) noexcept:
        """True once the worker has searched its world (waits at most ``microseconds``)."""
        cdef PyLockStatus status
        if not self.searching:
            return True
        with nogil:
            status = PyThread_acquire_lock_timed(self.w.done, microseconds, 0)
        if status == PY_LOCK_ACQUIRED:
            self.searching = False
        return not self.searching

    cdef void stop_worker(self) noexcept:
        """Abort a search under way, wait for it, then let the thread end (uninterruptible
        waits: the worker stops within 64 nodes)."""
        if self.searching:
            store_flag(&self.w.stop, STOP_ABORT)
            with nogil:
                PyThread_acquire_lock(self.w.done, WAIT_LOCK)
            self.searching = False
        if self.started:
            self.w.quit = True
            PyThread_release_lock(self.w.go)
            with nogil:
                PyThread_acquire_lock(self.w.done, WAIT_LOCK)
            self.started = False

    def cancel(self, int level):
        if level > load_flag(&self.w.stop):
            store_flag(&self.w.stop, level)


def _ab_live_workers():
    """How many search worker threads (alpha-beta's and MCTS's C threads) run now (a test
    hook: 0 between searches)."""
    return get_live()


cdef bint ab_wait(list busy, should_stop, bint cancelled) except -1:
    """Wait until every busy job has searched its world, waking every POLL_SECONDS to run
    signal handlers (Ctrl-C raises here) and to poll ``should_stop`` (True: the jobs are
    told to stop, keeping what is complete).  True when the search is cancelled."""
    cdef _AbJob job, other
    cdef long long poll = <long long>(POLL_SECONDS * 1e6)
    for job in busy:
        while not job.wait_done(poll):
            PyErr_CheckSignals()
            if not cancelled and should_stop is not None and should_stop():
                cancelled = True
                for other in busy:
                    other.cancel(STOP_SOFT)
    return cancelled


cdef int64_t ab_job_bytes(const GameContract* c, int depth_cap, int share,
                          int tt_bits) noexcept nogil:
    """What one job allocates (its AbCtx and its root arrays; ``tt_bits`` < 0: without
    the table)."""
    return (ab_ctx_bytes(c, depth_cap, share, tt_bits)
            + <int64_t>(3 * sizeof(int)) * share
            + <int64_t>(sizeof(double) + sizeof(int64_t)) * share * depth_cap
            + <int64_t>c.state_size)


cdef int64_t ab_shared_bytes(const GameContract* c) noexcept nogil:
    """What the search allocates beside the jobs (root moves, a world, the start copy)."""
    return <int64_t>sizeof(int) * c.max_legal_actions + 2 * <int64_t>c.state_size


cdef int ab_plan(const GameContract* c, int64_t max_memory, int jobs, int share,
                 int max_depth, int max_bits, AbParams* params) except -1:
    """Size every job's table and buffers so that ``jobs`` of them and the shared buffers
    stay within ``max_memory``: ``params.tt_bits`` and ``params.depth_cap``.

    A thread's part is ``(max_memory - shared) // jobs``.  Its table is the larger of
    what fits beside the buffers for ``max_depth`` plies and half of what the buffers for
    one ply leave (at most 2**max_bits entries, at least 2**TT_MIN_BITS); the buffers
    take the rest, which caps the depth.  ValueError when even the smallest table and one
    ply do not fit."""
    cdef int64_t part = (max_memory - ab_shared_bytes(c)) // jobs
    cdef int64_t least = ab_shared_bytes(c) + jobs * ab_job_bytes(c, 1, share, AB_TT_MIN_BITS)
    cdef int64_t spare = part - ab_job_bytes(c, 1, share, -1)
    cdef int bits = max_bits
    cdef int depth = max_depth
    if max_memory < least:
        raise ValueError(f"max_memory must be at least {least} bytes for alpha-beta "
                         f"with {jobs} thread(s) on this game, not {max_memory}")
    while bits > AB_TT_MIN_BITS and not (
            ab_job_bytes(c, max_depth, share, bits) <= part
            or 2 * ((<int64_t>sizeof(TTEntry)) << bits) <= spare):
        bits -= 1
    while depth > 1 and ab_job_bytes(c, depth, share, bits) > part:
        depth -= 1
    params.tt_bits = bits
    params.depth_cap = depth
    params.share = share
    return 0


cdef int ab_root_moves(CoreState st, const char* start, int worlds, bint hidden,
                       int observer, uint64_t seed) except -1:
    """The most root moves any of the worlds ab_worlds will draw has (the same draws: the
    same seed, in the same order), so that no job is made that could get no move and
    each job's root arrays are sized for its largest share.  A world with no move, or
    with another player to move, is an InvalidStateError (raise_state_errors)."""
    cdef const GameContract* c = st.c
    cdef int* acts = <int*>malloc(sizeof(int) * c.max_legal_actions)
    cdef char* world = <char*>malloc(c.state_size)
    cdef Rng rng
    cdef int most = 0, n
    cdef int mover = c.current_player(start, c.tables)
    try:
        if acts == NULL or world == NULL:
            raise MemoryError()
        rng_seed(&rng, seed)
        for _ in range(worlds):
            memcpy(world, start, c.state_size)
            if hidden:
                c.determinize(world, c.tables, observer, &rng)
            n = c.legal_actions(world, c.tables, acts)
            if c.current_player(world, c.tables) != mover:
                raise_state_errors([SEARCH_BAD_WORLD], observer, hidden)
            if n <= 0:
                raise_state_errors([SEARCH_NO_MOVE], observer, hidden)
            most = max(most, n)
    finally:
        free(acts)
        free(world)
    return most


def run_alphabeta(CoreState st, int max_depth, double time_limit, int64_t max_nodes,
                  int determinizations, bint hidden, int observer, uint64_t seed, int tt_bits,
                  int threads=1, should_stop=None, int64_t max_memory=256 * 2**20):
    """Alpha-beta from ``st`` (over ``determinizations`` worlds redrawn for ``observer``
    when ``hidden``): per root action (action, nodes, mean value for the player to move)
    at the deepest depth every world completed, and statistics.

    The budget (``time_limit`` seconds, ``max_nodes`` nodes; 0: none) is shared out
    evenly among the worlds and the threads; depth 1 of the first world is always
    completed.  With ``threads`` > 1 the root moves are dealt round-robin to that many
    threads (never more than the root has moves), each searching its share with its own
    table (every root move is searched with a full window, so the values do not depend on
    the split).  Everything the search allocates -- tables of at most 2**tt_bits entries,
    per-ply buffers, root arrays -- stays within ``max_memory`` bytes (see ab_plan).
    ``should_stop()`` is polled while the threads run (True: stop, keep what is
    complete)."""
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
    if max_nodes < 0 or not time_limit >= 0:
        raise ValueError("max_nodes and time_limit must be >= 0")
    if max_memory < 1:
        raise ValueError("max_memory must be >= 1")
    cdef int worlds = determinizations if hidden else 1
    # The position as it is now: the worlds are drawn from this copy, never from the live
    # state, which another thread may change while this one waits for the search threads.
    cdef bytes start = (<char*>st.data)[:c.state_size]
    cdef int most = ab_root_moves(st, start, worlds, hidden, observer, seed)
    cdef int count = min(threads, most)
    cdef AbParams params
    memset(&params, 0, sizeof(AbParams))
    params.max_depth = max_depth
    params.root_player = mover
    ab_plan(c, max_memory, count, (most + count - 1) // count, max_depth, tt_bits, &params)
    # A table a search fills gains from huge pages (fewer page faults and TLB misses); one
    # it only touches here and there loses: its probes land all over it, each in a 2 MiB
    # page to clear, so memory and the time limit go to getting pages (tic-tac-toe, 64
    # threads, 0.2 s: +160 MiB and 39,000 nodes in 0.23 s, against the whole
    # 403,529-node search in 0.04 s with small pages; Connect Four, one thread, 0.01 s:
    # 64 nodes).  So huge pages only for few tables and no short time limit.
    params.huge_pages = (count <= HUGE_PAGE_TABLES
                         and not 0 < time_limit < HUGE_PAGE_MIN_SECONDS)
    cdef list jobs = []
    cdef _AbJob job
    for _ in range(count):
        job = _AbJob()
        job.setup(c, &params)
        jobs.append(job)
    result = ab_worlds(st, start, jobs, worlds, hidden, observer, seed, time_limit,
                       max_nodes, should_stop)
    result["table_bytes"] = sum(((<int64_t>sizeof(TTEntry)) << params.tt_bits)
                                for _ in jobs)
    result["memory_bytes"] = ab_shared_bytes(c) + sum((<_AbJob>j).bytes for j in jobs)
    result["tt_bits"] = params.tt_bits
    result["depth_cap"] = params.depth_cap
    result["tables"] = count
    return result


cdef dict ab_worlds(CoreState st, const char* start, list jobs, int worlds, bint hidden,
                    int observer, uint64_t seed, double time_limit, int64_t max_nodes,
                    should_stop):
    """Search each world in turn with every job (each world gets an equal share of the
    budget; a world whose share of the time is over before it starts is skipped) and
    merge the values.  The jobs' threads start first and are stopped before it returns,
    whatever happens (an exception aborts the world under way first)."""
    cdef const GameContract* c = st.c
    cdef _AbJob job
    cdef Rng rng
    cdef int n, i, t, w, d, depth, threads = len(jobs)
    cdef int* acts = <int*>malloc(sizeof(int) * c.max_legal_actions)
    cdef char* world = <char*>malloc(c.state_size)
    cdef double t0 = now()
    cdef double deadline
    cdef int64_t share
    sums = {}           # depth -> action -> [value sum, node sum]
    common = (<_AbJob>jobs[0]).w.x.params.max_depth
    used = 0
    cancelled = False
    reasons = set()
    last = []
    try:
        if acts == NULL or world == NULL:
            raise MemoryError()
        for job in jobs:
            # recorded (job.started) in the C statements after the start, no Python code
            # between; a signal (Ctrl-C) is heard before the next thread starts, and the
            # finally below stops the threads started so far
            job.start()
            PyErr_CheckSignals()
        rng_seed(&rng, seed)
        for w in range(worlds):
            memcpy(world, start, c.state_size)
            if hidden:
                c.determinize(world, c.tables, observer, &rng)
            deadline = t0 + time_limit * (w + 1) / worlds if time_limit > 0 else 0.0
            if w > 0 and deadline > 0 and now() >= deadline:
                reasons.add(STOP_REASON_CLOCK)
                continue  # no time left for it: its threads would only overrun
            n = c.legal_actions(world, c.tables, acts)
            busy = [jobs[t] for t in range(min(threads, n))]
            share = max_nodes // (worlds * len(busy)) if max_nodes > 0 else 0
            if max_nodes > 0 and share < 1:
                share = 1
            for t, job in enumerate(busy):
                job.deal(world, acts, n, t, len(busy), share, deadline, w == 0)
            for job in busy:
                job.go()
            cancelled = ab_wait(busy, should_stop, cancelled)
            depth = common
            raise_state_errors([SEARCH_NO_MOVE if (<_AbJob>j).w.x.stop_reason
                                == STOP_REASON_NO_MOVE else 0 for j in busy],
                               observer, hidden)
            for job in busy:
                if job.w.rc < 0:
                    raise MemoryError()
                depth = min(depth, job.w.stats.depth_reached)
                if job.w.x.stop or job.w.x.stop_reason == STOP_REASON_MEMORY:
                    reasons.add(job.w.x.stop_reason)
            if depth > 0:
                used += 1
                common = depth
                last = busy
                for job in busy:
                    for d in range(1, depth + 1):
                        level = sums.setdefault(d, {})
                        for i in range(job.w.n):
                            acc = level.setdefault(job.w.orig_acts[i], [0.0, 0])
                            acc[0] += job.w.depth_values[(d - 1) * job.w.n + i]
                            acc[1] += job.w.depth_nodes[(d - 1) * job.w.n + i]
            if cancelled:
                break
    finally:
        for job in jobs:
            job.stop_worker()
        free(acts)
        free(world)
    return ab_result(jobs, last, sums, common, used, cancelled, reasons, now() - t0)


cdef dict ab_result(list jobs, list last, dict sums, int common, int used, bint cancelled,
                    set reasons, double seconds):
    cdef _AbJob job
    cdef int pv[100]
    cdef int pv_len = 0
    cdef int i
    if used == 0:
        # only an abort can stop the guaranteed depth 1 of the first world
        raise RuntimeError("alpha-beta was aborted before depth 1")
    level = sums[common]
    children = sorted(((a, k, v / used) for a, (v, k) in level.items()),
                      key=lambda item: (-item[2], item[0]))
    best = children[0][0]
    # the line in the last world searched, from the job that searched the best move there
    for job in last:
        for i in range(job.w.n):
            if job.w.orig_acts[i] == best:
                pv_len = ab_principal_variation(&job.w.x, job.w.world, best, pv, common)
    line = [pv[i] for i in range(pv_len)] or [best]
    stopped = None
    if cancelled or STOP_REASON_FLAG in reasons:
        stopped = "cancelled"
    elif STOP_REASON_CLOCK in reasons:
        stopped = "time"
    elif STOP_REASON_NODES in reasons:
        stopped = "nodes"
    elif STOP_REASON_MEMORY in reasons:
        stopped = "memory"
    best_by_depth = [max(v / used for v, _ in sums[d].values()) for d in range(1, common + 1)]
    return {"children": children, "pv": line,
            "nodes": sum((<_AbJob>j).w.x.nodes for j in jobs),
            "depth": common, "seconds": seconds, "stopped": stopped, "worlds": used,
            "best_by_depth": best_by_depth}
