# The C-level game contract.
#
# Every game implements the functions of ``GameContract`` over a fixed-size plain C struct
# (no pointers into the heap), so a state is copied with ``memcpy`` and a search keeps
# thousands of them in preallocated arrays.  Search (``search.pyx``), the generic state
# wrapper (``CoreState``) and the benchmarks call only what this file declares; they never
# cimport a game.
#
# Every contract function is ``noexcept nogil`` and allocates nothing.  ``tables`` is the
# game's read-only lookup data (board geometry, options, action layout), built once when the
# game is loaded.

from libc.stdint cimport int64_t, uint32_t, uint64_t

cdef enum:
    MAX_PLAYERS = 4
    # Values returned by current_player() besides a player id >= 0.  They equal the
    # OpenSpiel constants so that readers of both code bases are not surprised.
    CHANCE_PLAYER = -1
    TERMINAL_PLAYER = -4


# --- seeded random numbers usable without the GIL (xoshiro256**, seeded by splitmix64) ---

ctypedef struct Rng:
    uint64_t s[4]


cdef inline uint64_t splitmix64_next(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    cdef int i
    for i in range(4):
        rng.s[i] = splitmix64_next(&x)


cdef inline uint64_t rotl64(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t result = rotl64(rng.s[1] * 5, 7) * 9
    cdef uint64_t t = rng.s[1] << 17
    rng.s[2] ^= rng.s[0]
    rng.s[3] ^= rng.s[1]
    rng.s[1] ^= rng.s[2]
    rng.s[0] ^= rng.s[3]
    rng.s[2] ^= t
    rng.s[3] = rotl64(rng.s[3], 45)
    return result


cdef inline uint32_t rng_below(Rng* rng, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; bias < 2**-32)."""
    return <uint32_t>(((rng_next(rng) >> 32) * <uint64_t>n) >> 32)


cdef inline double rng_uniform(Rng* rng) noexcept nogil:
    """Uniform double in [0, 1)."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


# --- bit helpers shared by the games ---

cdef extern from *:
    """
    /* Without a popcnt instruction enabled at compile time, __builtin_popcountll is a
       call into libgcc; the inline bit-twiddling version is faster there. */
    static inline int br_popcount64(unsigned long long x) {
    #if defined(__POPCNT__) || defined(__ARM_NEON)
        return __builtin_popcountll(x);
    #else
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    #endif
    }
    /* Count of trailing zeros, x != 0.  MSVC has no __builtin_ctzll. */
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int br_ctz64(unsigned long long x) {
        unsigned long index;
        _BitScanForward64(&index, x);
        return (int)index;
    }
    #else
    static inline int br_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    """
    int popcount64 "br_popcount64"(uint64_t x) noexcept nogil
    int ctz64 "br_ctz64"(uint64_t x) noexcept nogil


cdef inline uint64_t hash_bytes(const void* data, size_t n) noexcept nogil:
    """64-bit hash of a byte range (word-wise multiply-xorshift; not cryptographic)."""
    cdef const unsigned char* p = <const unsigned char*>data
    cdef uint64_t h = <uint64_t>0x243F6A8885A308D3 ^ n
    cdef uint64_t w
    cdef size_t i = 0
    cdef size_t k
    while i + 8 <= n:
        w = 0
        for k in range(8):
            w |= (<uint64_t>p[i + k]) << (8 * k)
        h = (h ^ w) * <uint64_t>0x9E3779B97F4A7C15
        h ^= h >> 29
        i += 8
    w = 0
    k = 0
    while i < n:
        w |= (<uint64_t>p[i]) << (8 * k)
        i += 1
        k += 1
    h = (h ^ w) * <uint64_t>0xBF58476D1CE4E5B9
    h ^= h >> 31
    return h


# --- the contract ---

ctypedef void (*initial_state_fn)(void* state, const void* tables) noexcept nogil
ctypedef int (*current_player_fn)(const void* state, const void* tables) noexcept nogil
# Legal actions of the player to move, ascending and unique; 0 at chance and terminal nodes.
ctypedef int (*legal_actions_fn)(const void* state, const void* tables, int* out) noexcept nogil
# At a chance node: outcome actions (ascending) and their probabilities (summing to 1).
ctypedef int (*chance_outcomes_fn)(const void* state, const void* tables, int* out,
                                   double* probs) noexcept nogil
# Applies a legal action (a player's move or a chance outcome) in place.
ctypedef void (*apply_fn)(void* state, const void* tables, int action) noexcept nogil
# Terminal payoff per player, in [-1, 1]; partners get their team's value.
ctypedef void (*returns_fn)(const void* state, const void* tables, double* out) noexcept nogil
# Resamples everything ``observer`` cannot see, consistently with what he has seen.
ctypedef void (*determinize_fn)(void* state, const void* tables, int observer,
                                Rng* rng) noexcept nogil
# Heuristic value per player in [-1, 1], for cut-off search at non-terminal states.
ctypedef void (*evaluate_fn)(const void* state, const void* tables, double* out) noexcept nogil
# 64-bit key of the position (equal positions reached by different move orders agree).
ctypedef uint64_t (*hash_fn)(const void* state, const void* tables) noexcept nogil
# 1 when the player to move decides simultaneously with the previous action: that action
# was another player's hidden commit (say, battle cards laid face down), this decision
# cannot see it, and both are revealed together afterwards.  Search pools the statistics of
# such a decision over the commits it cannot tell apart (see search.pyx).  NULL: the game
# has no simultaneous choices.
ctypedef bint (*simultaneous_fn)(const void* state, const void* tables) noexcept nogil
# 1 when the decision at hand is a forced step: the player to move has exactly one legal
# action and the game takes it for him by default (``auto_forced``), so that every move
# asked of a player is a real choice.  Whether a step is forced must depend only on what
# every player sees (a forced step is shown to all).  NULL: the game has no forced steps.
ctypedef bint (*forced_fn)(const void* state, const void* tables) noexcept nogil
# Writes what ``player`` may see of the state as ``observation_size`` floats into ``out``
# (every one of them written: the caller's buffer may hold anything): the same information
# as the facade's ``view(player)`` and nothing more, laid out as the game's observation
# legend says (``boardrules/games/<game>/observation.py``, which also computes the same
# floats from a view: the conformance suite compares the two).  Seats are written relative
# to ``player`` (his own first, then the next in turn order).  NULL: no observation tensor.
ctypedef void (*observation_fn)(const void* state, const void* tables, int player,
                                float* out) noexcept nogil
# At a simultaneous decision (``simultaneous`` is 1): takes the hidden commit it answers
# back, in place -- the committed things return to where the commit took them from and
# the committer is to move again -- so that applying that commit (the last action) gives
# the same state byte for byte.  Search starts a simultaneous decision's search there: at
# the commit it answers, whose mover it then models (see search.pyx).  NULL: the game has
# no simultaneous choices, or cannot take a commit back.
ctypedef void (*take_back_commit_fn)(void* state, const void* tables) noexcept nogil
# A cheap heuristic value of each legal action ``acts[0 .. n)`` of the player to move (the
# list legal_actions gave), written to ``out[0 .. n)``: higher is better for him, on any
# scale -- search uses only their order and their ties.  Informed rollouts play the best
# (ties at random) where a uniformly random move would tell nothing, so it must cost
# about what ``apply`` does per action, not a search.  It reads only the state it is given
# (search gives it worlds, never a state holding what the mover may not know).  NULL: the
# game has none, and informed rollouts are uniformly random there.
ctypedef void (*action_values_fn)(const void* state, const void* tables, const int* acts,
                                  int n, double* out) noexcept nogil


ctypedef struct GameContract:
    size_t state_size
    int num_players
    int num_teams
    int team_of[MAX_PLAYERS]
    int num_distinct_actions      # action ids are 0 .. num_distinct_actions - 1
    int max_legal_actions         # bound on legal_actions() and chance_outcomes() counts
    int max_game_length           # bound on the number of actions (chance included)
    bint has_hidden_information
    const void* tables
    initial_state_fn initial_state
    current_player_fn current_player
    legal_actions_fn legal_actions
    chance_outcomes_fn chance_outcomes
    apply_fn apply
    returns_fn returns
    determinize_fn determinize
    evaluate_fn evaluate
    hash_fn hash
    simultaneous_fn simultaneous  # may be NULL (no simultaneous choices)
    forced_fn forced              # may be NULL (no forced steps)
    int observation_size          # floats written by observation (0 when it is NULL)
    observation_fn observation    # may be NULL (no observation tensor)
    take_back_commit_fn take_back_commit  # may be NULL (see take_back_commit_fn)
    action_values_fn action_values  # may be NULL (see action_values_fn)


cdef class CoreState

# How an action of the history was made (CoreState.drawn): asked of its mover, drawn from
# the state's RNG, or a forced step the engine took.
cdef enum:
    HOW_ASKED = 0
    HOW_DRAWN = 1
    HOW_FORCED = 2


cdef class CoreGame:
    """A loaded game: its contract (function table and lookup tables).

    Each game module subclasses this, fills ``contract`` and owns the table memory.
    """
    cdef GameContract contract

    cdef int _check_ready(self) except -1
    cdef int _check(self, CoreState st) except -1
    cdef int _action_id(self, object action) except -2
    cdef object _known_legal(self, CoreState st, object action_id, int* action)


cdef class CoreState:
    """One game state plus the seeded RNG beside it and an undo stack (generic over games)."""
    cdef readonly CoreGame game
    cdef const GameContract* c
    cdef char* data            # the game's state struct (contract.state_size bytes)
    cdef Rng rng               # chance draws for auto_chance / apply_random_chance
    cdef int* legal            # cached legal actions (or chance outcomes) of ``data``
    cdef double* probs         # their probabilities at a chance node
    cdef int n_legal
    cdef bint legal_valid
    cdef Rng rng_start         # the RNG when the game began (before any action)
    cdef char* undo_states     # one (state, rng) snapshot per applied action
    cdef int* actions          # the applied actions, in order
    # per action: HOW_DRAWN if drawn from ``rng`` (auto chance), HOW_FORCED if a forced
    # step the engine took (auto forced), else HOW_ASKED
    cdef unsigned char* drawn
    cdef int n_actions
    cdef int cap_actions

    cdef int _ensure_legal(self) except -1
    cdef void _fill_legal(self) noexcept
    cdef bint _is_legal(self, int action) noexcept
    cdef int _push(self, int action, unsigned char how, const Rng* rng_before) except -1
    cdef bint _at_forced(self) noexcept
    cdef int _auto_forced(self) except -1
    cdef int _auto_steps(self, bint auto_chance, bint auto_forced) except -1
    cdef int _replace_data(self, const void* src) except -1
    cdef int _push_drawn(self, int action, const Rng* before) except -1
    cdef int _chance_draw(self, Rng* rng) noexcept nogil
    cdef int _auto_chance(self) except -1
    cdef int _restore_snapshot(self, int index) noexcept
    cdef int _last_player_move(self, bint through_chance) noexcept


# A caller's int read by its value (int.__index__) before any comparison: an int subclass
# may lie in its comparisons, never in its value; a bool or a non-int is a TypeError.
# exact_int words it as an argument ("index must be an int"), field_int as a field of a
# position ("board[3]: ...", which Game.position reports as that field) in lo..hi.
cdef object exact_int(object value, str name)
cdef object field_int(object value, str field, object lo, object hi)


cdef int random_playouts_c(const GameContract* c, const void* start, int games,
                           uint64_t seed, int64_t* moves_out,
                           float* observation_out, int64_t* observations_out) noexcept nogil
