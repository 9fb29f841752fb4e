# The search core: MCTS, ISMCTS and the alpha-beta family, written against the C-level
# game contract (core.pxd) only -- it never cimports a game.

from libc.stdint cimport int8_t, int32_t, int64_t, uint16_t, uint64_t

from boardrules._ext.core cimport MAX_PLAYERS, GameContract, Rng


# Node.flags
cdef enum:
    NODE_POOLED = 1           # a pooled statistics node (see Node.first_pooled), no child
    NODE_DECOUPLED = 2        # its decision was searched with pooled (decoupled) statistics
    NODE_EXPANDED = 4         # MCTS: every move of the node has a child (no marks needed)
    NODE_PROVEN = 8           # MCTS-solver: its value is exact (value / visits per player)


# 64 bytes, in a 64-byte aligned array: a node is one cache line (selection reads a whole
# sibling list of them, scattered through the array)
ctypedef struct Node:
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int32_t action            # the action leading here from the parent
    # Decoupled selection: the statistics of a simultaneous decision taken at any child of
    # this node, pooled over the hidden commits (the child actions) that led there and
    # keyed by the mover's action -- a list of NODE_POOLED nodes through next_sibling (-1
    # none).  A pooled node's parent is this node and its action the mover's action.
    int32_t first_pooled
    int8_t player             # who moves at this node (or CHANCE / TERMINAL), -2 unknown
    int8_t flags              # NODE_POOLED, NODE_DECOUPLED, NODE_EXPANDED
    # NODE_EXPANDED with child runs: its children's indices, in list order, are
    # Tree.kids[Tree.run_of[node] ...] (nkids of them); 0: none, walk the list
    uint16_t nkids
    int64_t visits            # 64-bit: a long search passes 2**31 visits in minutes
    double value[MAX_PLAYERS]  # sum of the returns seen below, per player


# Regret-matching statistics of a node chosen at a simultaneous stage (SIM_REGRET only), in
# an array beside Tree.nodes with the same index: kept out of Node so that every other
# search pays nothing for them.
ctypedef struct RmStat:
    double regret             # cumulative regret of not having chosen this action
    double strategy           # cumulative probability the stage gave it (average strategy)
    int64_t seen              # Tree.rm_clock of the last stage at which it was available


ctypedef struct Tree:
    Node* nodes               # 64-byte aligned (tree_resize)
    # ISMCTS: per node, the iterations in which its action was available (else NULL)
    int64_t* avail
    RmStat* rm                # SIM_REGRET: one per node (else NULL)
    # MCTS with fixed moves: the children of each expanded node as a run of indices, so
    # that selection loads them side by side instead of chasing next_sibling one cache
    # miss after another (else NULL).  A node is in one run at most: kids_used <= size.
    int32_t* kids
    int32_t* run_of           # per node: where its run starts in kids
    int64_t kids_used
    int64_t rm_clock          # regret-matching stages so far (stamps RmStat.seen)
    int32_t size              # nodes in use, pooled statistics nodes included
    int32_t capacity
    int32_t max_nodes         # the cap: beyond it the tree stops growing (>= 1)
    bint full                 # the cap (or memory) stopped the tree from growing
    int32_t pooled            # how many of the nodes are pooled statistics nodes


# The stop flag every search loop reads (a relaxed atomic load: the optimizer may not hoist
# it out of the loop); another thread sets it.
cdef enum:
    STOP_NONE = 0
    STOP_SOFT = 1             # cancelled: stop after the guaranteed minimum, keep the result
    STOP_ABORT = 2            # an exception is on its way: stop at once


# MctsParams.root_selection: how the root's child is chosen in an iteration.
cdef enum:
    ROOT_UCT = 0              # UCT, as at every other node
    ROOT_LUCB = 1             # the best and its closest challenger, to tell them apart


# MctsParams.rollout_policy
cdef enum:
    ROLLOUT_RANDOM = 0        # uniformly random moves
    ROLLOUT_INFORMED = 1      # epsilon-greedy on the game's action_values (random without)


# MctsStats.stopped: what ended a tree's search
cdef enum:
    STOPPED_BUDGET = 0        # its iterations were used up
    STOPPED_CLOCK = 1         # the time limit (wall clock)
    STOPPED_CANCELLED = 2     # cancelled or aborted
    STOPPED_CPU = 3           # the CPU limit of its thread
    STOPPED_SURE = 4          # the root's answer was sure (until_sure)


# MctsParams.simultaneous: how a decision simultaneous with a hidden commit is searched.
cdef enum:
    SIM_SEQUENTIAL = 0        # plain SO-ISMCTS: as if its mover saw the commit
    SIM_DECOUPLED = 1         # pooled over the commits it cannot see (decoupled UCT)
    SIM_REGRET = 2            # pooled as decoupled, both sides chosen by regret matching


ctypedef struct MctsParams:
    int64_t iterations        # <= 0: no iteration limit (then time_limit must be set)
    double time_limit         # seconds; <= 0: none
    double exploration        # UCT constant c in q + c * sqrt(ln N / n)
    int rollout_limit         # moves of random rollout before evaluate(); < 0: to the end
    bint ismcts               # redraw the hidden information at every iteration
    bint determinize_once     # MCTS on a hidden-information game: one world per tree
    int observer              # whose knowledge the search may use
    uint64_t seed
    const int* stop           # STOP_* flag, set from another thread
    int64_t stamp_start       # first legal-move mark (tests start it near 2**31)
    int simultaneous          # SIM_DECOUPLED or SIM_SEQUENTIAL (see search.pyx)
    # monotonic clock time to stop at, shared by every tree of a search (taken at the
    # call's start); <= 0: time_limit seconds from this tree's own start
    double deadline
    # the root is the commit that the searching player's simultaneous decision answers,
    # taken back (take_back_commit): every iteration goes on from a root child to that
    # decision, whose pooled statistics are the answer
    bint from_commit
    # CPU seconds of this tree's thread to stop at (thread CPU time); <= 0: none
    double cpu_limit
    # stop once the root's answer is sure (root_verdict): every other move separated
    # below the best at the confidence of ``z``, or proven within tie_tolerance of it
    bint until_sure
    double z                  # the two-sided normal quantile of the confidence (1.96: 95%)
    double tie_tolerance      # values closer than this are equal for the answer
    double var_floor          # the least variance a move's returns are counted with
    int root_selection        # ROOT_UCT or ROOT_LUCB
    int rollout_policy        # ROLLOUT_RANDOM or ROLLOUT_INFORMED
    double rollout_epsilon    # informed rollouts: the chance of a uniformly random move
    # MCTS-solver (one state, no chance below the proofs, no simultaneous decisions): a
    # node that ends the game, whose mover has a winning move, or whose every move is
    # proven, is proven, and its exact value is backed up instead of a rollout's
    bint solver
    # this call's returns per answer action (keyed by action, num_distinct_actions long)
    # for the root's confidence intervals: their sum, sum of squares and count (the tree's
    # own statistics may include visits kept from an earlier search, without squares)
    double* root_sum
    double* root_sq
    int64_t* root_n


ctypedef struct MctsStats:
    int64_t iterations
    int64_t nodes
    int max_depth
    double seconds
    double started            # monotonic clock time the tree's search began
    double deadline           # the clock time it stopped at (0: no time limit)
    int status                # 0 ok, -1 out of memory, -2/-3 a state no search trusts
    int stopped               # STOPPED_* (0 budget used up)
    int64_t select_failures   # selections that found no child (0 unless a bug)
    int64_t simultaneous      # decisions the game marked simultaneous (selection steps)
    double cpu_seconds        # CPU time of the tree's thread in the search


cdef int mcts_search(const GameContract* c, const void* root, const MctsParams* params,
                     Tree* tree, MctsStats* stats) noexcept nogil


ctypedef struct TTEntry:
    uint64_t key
    double value
    int32_t best
    int8_t depth
    int8_t flag


ctypedef struct AbParams:
    int max_depth
    int depth_cap             # the deepest its buffers hold (<= max_depth; max_memory)
    double deadline           # monotonic clock time to stop at; <= 0: none
    int64_t max_nodes         # node budget of this search (one world, one thread); <= 0 none
    const int* stop           # STOP_* flag, set from another thread
    bint must_finish_depth1   # depth 1 is completed whatever the budget (a result always)
    int root_player           # values are for this player's side (paranoid beyond 2 sides)
    int tt_bits               # the table has 2**tt_bits entries
    int share                 # at most this many root moves per world (buffer sizes)
    bint huge_pages           # back the tables with huge pages where the OS offers them


ctypedef struct AbStats:
    int64_t nodes
    int depth_reached
    double seconds
    int status                # 0 ok, 1 stopped (clock, node budget or flag), -1 no memory
