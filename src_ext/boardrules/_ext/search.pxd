# The search core: MCTS, ISMCTS and the alpha-beta family, written against the C-level
# game contract (core.pxd) only -- it never cimports a game.

from libc.stdint cimport int8_t, int32_t, uint64_t

from boardrules._ext.core cimport MAX_PLAYERS, GameContract, Rng


ctypedef struct Node:
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int32_t action            # the action leading here from the parent
    int32_t visits
    int32_t avail             # ISMCTS: iterations in which this action was available
    int8_t player             # who moves at this node (or CHANCE / TERMINAL), -2 unknown
    double value[MAX_PLAYERS]  # sum of the returns seen below, per player


ctypedef struct Tree:
    Node* nodes
    int32_t size
    int32_t capacity


ctypedef struct MctsParams:
    long iterations           # <= 0: no iteration limit (then time_limit must be set)
    double time_limit         # seconds; <= 0: none
    double exploration        # UCT constant c in q + c * sqrt(ln N / n)
    int rollout_limit         # moves of random rollout before evaluate(); < 0: to the end
    bint ismcts               # redraw the hidden information at every iteration
    bint determinize_once     # MCTS on a hidden-information game: one world per tree
    int observer              # whose knowledge the search may use
    uint64_t seed


ctypedef struct MctsStats:
    long iterations
    long nodes
    int max_depth
    double seconds
    int status                # 0 ok, -1 out of memory


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
    double time_limit
    int root_player           # values are for this player's side (paranoid beyond 2 sides)
    int tt_bits               # the table has 2**tt_bits entries


ctypedef struct AbStats:
    long nodes
    int depth_reached
    double seconds
    int status                # 0 ok, 1 stopped by the clock, -1 out of memory
