# Armadora rules core: the state struct, the lookup tables and the compiled game.
# Rule text: the Chinese rules sheet (the authority), summarised in English section by
# section in docs/armadora.rst; comments cite its sections (rule 三 = rule 3, play).

from libc.stdint cimport int32_t, uint8_t, uint32_t, uint64_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    AR_MAX_CELLS = 64        # cells are bits of a uint64_t (bitboards)
    AR_MAX_EDGES = 128       # internal edges are bits of two uint64_t
    AR_MAX_MINES = 16
    AR_MAX_STRENGTH = 5      # warriors have strength 1..5
    AR_GOLD_VALUES = 8       # a gold pile holds 0..7 gold
    AR_MIN_PILE = 3          # the smallest gold pile (rule 2.5: 3, 4, 4, 5, 5, 6, 6, 7)
    AR_RACES = 4
    AR_MIN_TERRITORY = 4     # rule 三 (3, palisades): no territory of fewer than 4 squares

# Races, in the order of the sheet's race-power list.
cdef enum:
    RACE_ORC = 0
    RACE_GOBLIN = 1
    RACE_ELF = 2
    RACE_MAGE = 3
    RACE_NONE = 255

# Where the game stands.  A turn is a sequence of small atomic decisions by one player:
# [race power] then one main action; a palisade action may add a second palisade.
cdef enum:
    PH_GOLD = 0              # chance: the next gold pile goes onto the next mine
    PH_RACE = 1              # chance: the next player's race is dealt (advanced game)
    PH_TURN = 2              # a fresh turn: main action, pass, or a race power that a
    #                          main action can follow (rule 七/(二)1, 7.2.1 advanced turn)
    PH_AFTER_POWER = 3       # the power was used: now a main action (never pass)
    PH_SECOND_PALISADE = 4   # one palisade placed: a second one, or done
    PH_OVER = 5

# Fixed action ids; the others start at the offsets in ArmadoraTables.
cdef enum:
    ACT_PASS = 0
    ACT_DONE = 1


ctypedef struct ArmadoraState:
    # ---- the position: hash() covers everything up to move_count ----
    uint64_t palisades[2]            # bit e: a palisade stands on internal edge e
    uint64_t known[4]                # cells whose face-down value player p saw (Mage power)
    uint8_t owner[AR_MAX_CELLS]      # 0: no warrior; else owning player + 1
    uint8_t strength[AR_MAX_CELLS]   # printed strength of the warrior
    uint8_t arrows[AR_MAX_CELLS]     # elf ability tokens lying on the warrior
    uint8_t reinforced[AR_MAX_CELLS]  # 1: a reinforcement token lies on the warrior
    uint8_t face_up[AR_MAX_CELLS]    # 1: placed face up (Goblin power)
    uint8_t gold[AR_MAX_CELLS]       # gold on a mine square once its pile is placed
    uint8_t pool[4][8]               # warriors behind each screen, by strength (1..5)
    uint8_t race[4]
    uint8_t power_tokens[4]
    uint8_t reinforcement_left[4]    # 1 while the player still holds his token
    uint8_t gold_left[AR_GOLD_VALUES]  # gold piles not yet placed, by size
    uint8_t race_dealt[AR_RACES]
    uint8_t palisades_left           # the common supply
    uint8_t current                  # player to move
    uint8_t phase
    uint8_t passed                   # bit p: player p has passed (ended) for the game
    uint8_t mines_filled
    uint8_t races_dealt_count
    uint8_t pad0[2]
    # ---- bookkeeping and caches derived from the position (not hashed) ----
    uint32_t move_count
    int32_t last_action              # the last action applied, -1 before any
    uint64_t pmask[4]                # warriors of each player
    uint64_t occupied                # all warriors
    uint64_t faceup_mask
    uint64_t reinf_mask
    uint64_t open_e                  # bit c: c's east edge is internal and free
    uint64_t open_w
    uint64_t open_s
    uint64_t open_n
    uint64_t pal_legal[2]            # bit e: a palisade may go on free edge e


ctypedef struct ArmadoraTables:
    int width
    int height
    int ncells
    int nedges
    int num_players
    bint advanced
    bint look_at_face_down           # option: a player may look at his own face-down warriors
    int edge_a[AR_MAX_EDGES]         # edge e joins cells edge_a[e] < edge_b[e]
    int edge_b[AR_MAX_EDGES]
    int edge_east[AR_MAX_CELLS]      # edge id of the cell's east / south side, or -1
    int edge_south[AR_MAX_CELLS]
    uint64_t all_cells
    uint64_t near[AR_MAX_CELLS]      # squares within 2 steps (palisade legality is local)
    uint64_t mine_mask
    int num_mines
    int mine_cells[AR_MAX_MINES]     # filled by the gold chance events in this order
    uint8_t gold_piles[AR_GOLD_VALUES]  # pile counts by size
    int total_gold
    uint8_t initial_pool[8]          # warriors per player by strength
    int warriors_per_player
    int palisades_total
    int team_of[4]
    int num_teams
    int race_tokens[AR_RACES]
    # action layout: [pass, done, palisade e, warrior (c, s), goblin (c, s), orc e,
    #                 peek c, arrow c, reinforce c, gold v, race r]
    int a_palisade
    int a_warrior
    int a_goblin
    int a_orc
    int a_peek
    int a_arrow
    int a_reinforce
    int a_gold
    int a_race
    int num_actions
    # observation layout (boardrules/games/armadora/observation.py): each field's offset,
    # -1 for a field of the advanced game in the basic one
    int o_warriors                   # (players, cells)
    int o_strength                   # (6, cells): unseen, strength 1..5
    int o_face_up                    # (cells), advanced
    int o_arrows                     # (cells), advanced
    int o_reinforced                 # (cells), advanced
    int o_mines                      # (cells)
    int o_gold                       # (cells)
    int o_palisades                  # (2, cells): east side, south side
    int o_territory_size             # (cells)
    int o_territory_empty            # (cells)
    int o_pool                       # (5)
    int o_warriors_left              # (players)
    int o_passed                     # (players)
    int o_race                       # (players, 4), advanced
    int o_power_tokens               # (players), advanced
    int o_reinforcement_left         # (players), advanced
    int o_palisades_left             # (1)
    int o_unplaced_gold              # (AR_GOLD_VALUES - AR_MIN_PILE): piles of 3..7
    int o_phase                      # (6)
    int o_to_move                    # (players)
    int observation_size


cdef class ArmadoraCore(CoreGame):
    cdef ArmadoraTables tables
