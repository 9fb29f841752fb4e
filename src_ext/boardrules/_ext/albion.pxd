# Albion rules core: the state struct, the lookup tables and the compiled game.
# Rule text: the rulebook in shared/rules/albion.txt, summarised section by section in
# docs/albion.rst; comments cite its sections by name ("Tribute Payment with the
# Building", "Defending an Assault").  Readings of unclear points are numbered A1, A2, ...
# as under "Rules clarifications" on the docs page.

from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    AL_MAX_REGIONS = 40
    AL_MAX_PLAYERS = 4
    AL_RES = 4               # fish, wood, stone, gold
    AL_TYPES = 5             # 0 none, then the four building types
    AL_SETTLERS = 4          # "Contents": per colour
    AL_LEGIONS = 3
    AL_NEUTRAL_MARKERS = 24
    AL_PICTS_PEACE = 17
    AL_PICTS_ASSAULT = 18
    AL_BOX_UNSEEN = 2        # "There will be 2 unused Picts ... face-down to the box"
    AL_PAY_SETS = 15         # non-empty subsets of the four resources
    AL_KINDS = 8             # region kinds (KR_*)
    AL_STATIC_PER_REGION = 10    # observation: kind one-hot, laurel, printed Picts

# Resources and building types, in the index order used everywhere.
cdef enum:
    RES_FISH = 0
    RES_WOOD = 1
    RES_STONE = 2
    RES_GOLD = 3
    T_NONE = 0
    T_SETTLEMENT = 1
    T_FORTRESS = 2
    T_RAMPART = 3
    T_PLANT = 4

# Region kinds (the board file's "kind"): the resource regions are KR_RESOURCE + resource.
cdef enum:
    KR_LAUNCH = 0            # the light-green launching region at the south end
    KR_LIGHT = 1             # the second light-green region
    KR_START = 2             # dark green without printed Picts (starting fortresses)
    KR_DARK = 3              # dark green with Picts
    KR_RESOURCE = 4          # 4 fish, 5 wood, 6 stone, 7 gold

# Where the game stands.  Every decision is one small atomic step.
cdef enum:
    PH_SETUP = 0             # Preparation: starting fortresses, in turn order
    PH_MOVE = 1              # a turn: "resources" (before anything else), launches (before
    #                          any movement step), movement, a build or removal, or "end"
    PH_BUILD = 2             # building with the settlers after the movement
    PH_PAY = 3               # 1) the resources paid for the stage being built
    PH_TRIBUTE = 4           # a tribute taker picks one of the paid resources
    PH_REVEAL = 5            # chance: 3) the face-down Pict turned over
    PH_LOSS = 6              # a player who lost a settlement stage decides what it costs
    PH_FIGURE = 7            # 4) settlement I/II: the builder takes a settler or legionnaire
    PH_FREE = 8              # 4) settlement III: the free development, or skip
    PH_OVER = 9

cdef enum:
    END_NONE = 0
    END_SETTLEMENTS = 1      # "Game End and Victory": three stage IV settlements
    END_ROUND_CAP = 2        # library rule: the round cap (a draw)

# Fixed action ids; the other blocks start at the offsets in AlTables.
cdef enum:
    ACT_RESOURCES = 0        # action B, "Take Resources"
    ACT_END = 1
    ACT_SKIP = 2
    ACT_TAKE_SETTLER = 3
    ACT_TAKE_LEGION = 4
    ACT_FIXED = 5

# What a pending loss decision is: the reduced settlement III's other building
# (a region), or the reduced settlement I/II's figure (kind and region).
cdef enum:
    OWE_REDUCE = 0
    OWE_FIGURE = 1


ctypedef struct AlState:
    # ---- the position: hash() covers everything up to move_count ----
    uint8_t btype[AL_MAX_REGIONS][AL_MAX_PLAYERS]    # T_*: a player's building in a region
    uint8_t bstage[AL_MAX_REGIONS][AL_MAX_PLAYERS]   # its face-up stages (0 while new)
    uint8_t settlers[AL_MAX_REGIONS][AL_MAX_PLAYERS]
    uint8_t legions[AL_MAX_REGIONS][AL_MAX_PLAYERS]
    uint8_t face_down[AL_MAX_REGIONS]                # face-down Picts
    uint8_t face_up[AL_MAX_REGIONS]                  # face-up assault Picts (printed ones
    #                                                  are in the tables)
    uint8_t res[AL_MAX_PLAYERS][AL_RES]
    uint8_t supply[AL_RES]
    uint8_t neutral[AL_MAX_PLAYERS]                  # neutral movement markers held
    uint8_t neutral_supply
    uint8_t pool_assault                             # unrevealed Picts (board and box)
    uint8_t pool_peace
    uint8_t box_peace                                # peace Picts turned over (to the box)
    uint8_t owe[AL_MAX_PLAYERS][2]                   # pending loss decisions (OWE_*)
    uint8_t phase
    uint8_t current                                  # who decides now
    uint8_t turn_player
    uint8_t setup_done                               # starting fortresses placed
    uint8_t started                                  # action A chosen this turn
    uint8_t moved                                    # a movement step made this turn
    uint8_t points                                   # movement points left
    uint8_t spent                                    # settlers in the launching region that
    #                                                  built or are new: no action this round
    uint64_t launched                                # fortress III regions launched from
    uint8_t b_region                                 # the building being built
    uint8_t b_type
    uint8_t b_stage                                  # the stage being built (face down)
    uint8_t b_free                                   # settlement III's free development
    uint8_t b_lost                                   # the token was lost in its assault
    uint8_t b_paid                                   # resources paid, still to share (mask)
    uint8_t trib[3]                                  # tribute takers, in the rule's order
    uint8_t ntrib
    uint8_t itrib
    uint8_t loss_from                                # whose loss decisions come first
    uint8_t end_triggered                            # someone has three stage IV settlements
    uint8_t winners                                  # bit p: p won
    uint8_t end_reason
    uint16_t round                                   # 1 .. max_rounds
    # ---- bookkeeping and caches derived from the position (not hashed) ----
    uint32_t move_count
    int32_t last_action
    uint8_t count[AL_MAX_PLAYERS][AL_TYPES]          # buildings of each type (new included)
    uint8_t rampart_stages[AL_MAX_PLAYERS]           # defence from ramparts (face up)
    uint8_t stage4[AL_MAX_PLAYERS]                   # stage IV settlements


ctypedef struct AlTables:
    int nregions
    int num_players
    int first_player
    int max_rounds
    int launch
    int starts[2]
    int kind[AL_MAX_REGIONS]
    bint tribute[AL_MAX_REGIONS]                     # tribute is paid in this region
    bint droppable[AL_MAX_REGIONS]                   # a carried Pict may be dropped here
    bint laurel[AL_MAX_REGIONS]
    int printed[AL_MAX_REGIONS]                      # printed assault Picts
    int initial_picts[AL_MAX_REGIONS]
    int resource_region[AL_RES]
    uint8_t dist[AL_MAX_REGIONS][AL_MAX_REGIONS]     # boundaries crossed, shortest
    uint64_t laurel_mask
    int removed_peace                                # "Remove Picts based on the number
    int removed_assault                              # of players"
    int pay_mask_of[AL_PAY_SETS]                     # pay action i pays these resources
    # action layout: [fixed, fortress r, launch r, settler (a, b), legion (a, b),
    #                 carry (a, b), build (type, r), develop r, remove r, pay set,
    #                 tribute k, return (kind, r), reduce r, pict assault/peace]
    int a_fortress
    int a_launch
    int a_settler
    int a_legion
    int a_carry
    int a_build
    int a_develop
    int a_remove
    int a_pay
    int a_tribute
    int a_return
    int a_reduce
    int a_pict
    int num_actions
    # the board's part of every observation tensor (region kinds, laurels, printed
    # assault Picts: fill_observation_static), copied at its start
    float obs_static[AL_STATIC_PER_REGION * AL_MAX_REGIONS]


cdef class AlbionCore(CoreGame):
    cdef AlTables tables

    cdef _setup_regions(self, list kinds, list picts, list printed, list laurel,
                        bint start_region_tribute)
    cdef _setup_distances(self, list borders)
    cdef int _game_length_bound(self)
    cdef _check_pieces(self, AlState* s)
    cdef _check_phase(self, AlState* s, int* choices)
    cdef _check_build(self, AlState* s)
