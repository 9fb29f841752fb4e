# Rome & Carthage rules core: the state struct, the lookup tables and the compiled game.
# Rule text: the rulebook in shared/rules/rome_and_carthage.txt, summarised section by
# section in docs/rome_and_carthage.rst; comments cite its sections by name ("Battle,
# ties", "Draw pile").  Rules clarifications (readings of unclear points) are numbered
# R1, R2, ... as on the docs page.

from libc.stdint cimport int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t

from boardrules._ext.core cimport CoreGame, CoreState

cdef enum:
    RC_MAX_CITIES = 64       # cities are bits of a uint64_t
    RC_EMPIRES = 4
    RC_KINDS = 4
    RC_VALUES = 12           # card values 0 .. 10 and 15 (index 11)
    RC_V15 = 11
    RC_PAIRS = 78            # unordered pairs of values, doubles included
    RC_MAX_PLAYERS = 4
    RC_TEAMS = 2
    RC_NONZERO_CARDS = 44    # 52 cards minus the 8 zeros: bounds every battle
    # every action id of the largest map (64 cities): rc_forced's move buffer
    RC_FORCED_BUFFER = 7 + 64 + 4 * 64 + 64 * 64 + 64 + 78 + 4 * 12

# Empires, in the board file's order; army kinds (7 armies an empire: 3 infantry,
# 2 galleys, 1 chariot, 1 elephant -- "Components").
cdef enum:
    EMP_ROME = 0
    EMP_CARTHAGE = 1
    EMP_BYZANTIUM = 2
    EMP_ALEXANDRIA = 3
    KIND_INFANTRY = 0
    KIND_GALLEY = 1
    KIND_CHARIOT = 2
    KIND_ELEPHANT = 3

# Where the game stands.  Every decision is one small atomic step (see the module docs).
cdef enum:
    PH_PLACE = 0             # turns 1 and 2: place one army on an own-colour city
    PH_DRAW = 1              # chance: the next card the turn player draws
    PH_MAIN = 2              # special cards, pass, or the (first) move
    PH_TREASON = 3           # General's Treason: the first enemy army's move
    PH_TREASON_SECOND = 4    # Treason moved an infantry: a second enemy infantry, or done
    PH_MOVED = 5             # one move made: a second infantry, a forced march, or done
    PH_PAY = 6               # paying a forced march, one card at a time
    PH_EXTRA = 7             # the forced march's extra simple move
    PH_BATTLE_ORDER = 8      # several battles: the turn player picks the next one
    PH_COMMIT = 9            # a side lays its battle card(s) face down
    PH_SPY = 10              # a lone spy: replay new cards or withdraw
    PH_OVER = 11
    PH_CONSENT = 12          # Rapid Conquest, explicit consent: the ally agrees or refuses
    PH_ALLY_MOVE = 13        # Rapid Conquest: the (paid) move of an ally's army
    PH_ALLY_MOVED = 14       # Rapid Conquest: pay again to move that army again, or done

# Battle rounds: the first (two cards, special advantages, spies), a spy's replay (two
# cards, advantages, no spy) and tie rounds (one card, no advantages, no spies).
cdef enum:
    ROUND_FULL = 0
    ROUND_REPLAY = 1
    ROUND_TIE = 2

# Battles of a General's Treason are fought at once and play returns to the special
# cards; battles of the turn's own move end the turn.
cdef enum:
    CTX_MOVE = 0
    CTX_TREASON = 1

cdef enum:
    END_NONE = 0
    END_CAPITALS = 1         # both enemy capitals held for a complete turn
    END_ELIMINATION = 2      # the other team has no army left
    END_NO_PROGRESS = 3      # library rule: the evasion draw made operational
    END_ROUND_CAP = 4        # library rule: the hard round cap
    END_ARMY_REDUCED = 5     # Rapid Conquest: the other team is down to 5 armies
    END_WEAK_AND_CAPITAL = 6  # Rapid Conquest: an opponent down to 3, his ally's capital
    #                          held for a complete turn

# Fixed action ids; the other blocks start at the offsets in RcTables.
cdef enum:
    ACT_PASS = 0
    ACT_DONE = 1
    ACT_TREASON = 2
    ACT_WITHDRAW = 3
    ACT_ALLY = 4             # Rapid Conquest: pay to move an ally's army
    ACT_AGREE = 5            # Rapid Conquest, explicit consent
    ACT_REFUSE = 6
    ACT_FIXED = 7

# What a payment (``pay v``) is for, and what a consent is asked for.
cdef enum:
    PAY_MARCH = 0            # the forced march of the player's own armies
    PAY_ALLY = 1             # Rapid Conquest: moving an ally's army
    PAY_ALLY_MARCH = 2       # Rapid Conquest: moving it again
    ASK_TREASON = 1
    ASK_ALLY = 2


# The fields of a player's observation tensor, in order (rc_observation; the legend is
# boardrules/games/rome_and_carthage/observation.py, the docs page's "Observation
# tensor").  RcTables.obs_at holds each field's first float: the sizes depend on the
# number of players and of cities.
cdef enum:
    OBS_SLOT_EMPIRE = 0      # (4 slots, 4 empires): the empires, the observer's first
    OBS_SLOT_SEAT            # (4 slots, seats): who plays each slot
    OBS_SEAT_ALLY            # (seats): the observer's team
    OBS_VARIANT              # (3): standard, equal_arms, rapid_conquest
    OBS_CONSENT              # (1): Rapid Conquest's explicit consent
    OBS_LIMITS               # (2): max_rounds, no_progress_rounds
    OBS_ARMY                 # (4 slots, cities): resident armies
    OBS_ARMY_KIND            # (4 kinds, cities)
    OBS_ATTACKER             # (4 slots, cities): attackers of pending battles
    OBS_ATTACKER_KIND
    OBS_PASSING              # (cities): where an army passes through a friend (R22)
    OBS_PASSING_SLOT         # (4 slots): that army's slot
    OBS_PASSING_KIND         # (4 kinds): its kind
    OBS_PHASE                # (15)
    OBS_ROUND                # (1)
    OBS_TURN_PLAYER          # (seats)
    OBS_TO_MOVE              # (seats)
    OBS_HAND                 # (seats, 12 values): the hands the observer may see
    OBS_HAND_VISIBLE         # (seats)
    OBS_HAND_SIZE            # (seats)
    OBS_KNOWN                # (seats, 12)
    OBS_UNKNOWN              # (seats)
    OBS_LOST                 # (seats)
    OBS_LOST_CARDS           # (seats, 12)
    OBS_ARMIES               # (seats)
    OBS_ELIMINATED           # (seats)
    OBS_CAPITAL_OCCUPIED     # (seats)
    OBS_TREASON              # (seats)
    OBS_UPRISING             # (seats)
    OBS_PILE_SIZE            # (2 piles)
    OBS_DISCARD              # (2 piles, 12)
    OBS_REMOVED              # (12)
    OBS_FIFTEENS             # (2): removed, set aside (R8)
    OBS_BATTLE_CITY          # (cities)
    OBS_BATTLE_ATTACKER      # (seats)
    OBS_BATTLE_DEFENDER      # (seats)
    OBS_BATTLE_ROUND         # (3): full, replay, tie
    OBS_BATTLE_TO_PLAY       # (2): attacker, defender
    OBS_FACE_DOWN            # (1): cards the attacker laid face down
    OBS_FACE_DOWN_CARDS      # (12): their values, to the attacker's side only
    OBS_SPY                  # (2): the lone spy's side
    OBS_BATTLE_TOTALS        # (2): the revealed totals while a spy decides
    OBS_MARCH_USED           # (1)
    OBS_MARCH_PAID           # (1)
    OBS_CLOCK_RUNNING        # (2 clocks, 2 teams): capitals (R4), weak and capital (R16)
    OBS_CLOCK_TURNS          # (2 clocks, 2 teams)
    OBS_PASS_BONUS           # (1)
    OBS_QUIET_TURNS          # (1)
    OBS_WINNER               # (2 teams)
    OBS_END_REASON           # (6)
    OBS_FIELDS
    # the set-up fields (OBS_SLOT_EMPIRE .. OBS_LIMITS) of a 4-player game: they are the
    # same at every step, so each player's are written once
    RC_OBS_SETUP_MAX = 16 + 16 + 4 + 3 + 1 + 2


ctypedef struct RcState:
    # ---- the position: hash() covers everything up to move_count ----
    uint8_t army[RC_MAX_CITIES]      # resident army: 0 none, else 1 + empire * 4 + kind
    uint8_t attacker[RC_MAX_CITIES]  # an army that entered to fight the resident
    uint8_t origin[RC_MAX_CITIES]    # 1 + city where the resident began this turn's move
    uint8_t att_origin[RC_MAX_CITIES]  # the same for the attacker
    uint8_t hand[RC_MAX_PLAYERS][RC_VALUES]
    uint8_t known[RC_MAX_PLAYERS][RC_VALUES]  # public knowledge of a hand (no zeros)
    uint8_t unknown[RC_MAX_PLAYERS]  # non-zero cards of the hand only its team has seen
    uint8_t pile[RC_TEAMS][RC_VALUES]     # counts, never an order (Equal Arms: per team)
    uint8_t discard[RC_TEAMS][RC_VALUES]  # spent cards, face down, waiting for a reshuffle
    uint8_t removed[RC_VALUES]       # out of the game, in sight (undealt zeros, 15s,
    #                                  the known cards of lost hands)
    uint8_t lost[RC_MAX_PLAYERS][RC_VALUES]  # out of the game face down: the cards of a
    #                                  lost hand only its side had seen (R8)
    uint8_t unplaced[RC_EMPIRES][RC_KINDS]
    uint8_t treason[RC_MAX_PLAYERS]  # per holder (a team; in Equal Arms a player)
    uint8_t uprising[RC_MAX_PLAYERS]
    uint8_t excluded[RC_MAX_PLAYERS]  # no army left: out of the game ("Victory")
    uint8_t placed[RC_EMPIRES]       # armies placed this placement turn
    uint8_t commit[2][2]             # battle cards on the table: [side][card]
    uint8_t ncommit[2]
    uint8_t clock_on[RC_TEAMS]       # the team holds both enemy capitals
    int16_t clock_turns[RC_TEAMS]    # turns ended since the capture (R4)
    uint8_t clock_played[RC_TEAMS]   # bit p: p ended a turn since the capture (R4)
    uint8_t clock2_played[RC_TEAMS]
    int16_t total[2]                 # battle totals of the last reveal, per side
    uint16_t round                   # 1, 2: placement; play from 3
    uint16_t quiet_turns             # turns without battle, elimination, capital change
    uint8_t fifteens_removed         # "Draw pile": the first two 15s played leave
    uint8_t fifteens_aside           # the last two wait until no hand holds a 15
    uint8_t phase
    uint8_t current                  # who decides now
    uint8_t turn_player
    uint8_t draws_left
    uint8_t moves_made               # simple moves made this turn (base and extra)
    uint8_t second_infantry          # 1 + city of the first infantry moved, 0: none
    uint8_t march_used
    uint8_t pay_sum
    uint8_t pay_last                 # payments go in non-increasing value order
    uint8_t context                  # CTX_MOVE or CTX_TREASON
    uint8_t bcity
    uint8_t b_kind
    uint8_t b_side                   # PH_COMMIT: 0 the attacker commits, 1 the defender
    uint8_t b_att                    # attacking and defending players
    uint8_t b_def
    uint8_t spy_side
    uint8_t cap_status               # bit e: an enemy army holds empire e's capital
    uint8_t winner                   # 0 none, 1 + team
    uint8_t end_reason
    uint8_t pay_for                  # PAY_*
    uint8_t ally_city                # Rapid Conquest: 1 + city of the ally's army moved
    uint8_t pass_bonus               # Rapid Conquest: passing draws one more card
    uint8_t pass_draw                # that extra card is being drawn: then the turn ends
    uint8_t asked                    # PH_CONSENT: ASK_TREASON or ASK_ALLY
    uint8_t refused                  # bits ASK_*: refused this turn, not asked again
    uint8_t clock2_on[RC_TEAMS]      # Rapid Conquest: an opponent at 3 armies or fewer
    int16_t clock2_turns[RC_TEAMS]   # and his ally's capital held (complete turns)
    uint8_t transit                  # R22: an army passing through a friendly city in
    uint8_t transit_city             # its forced march (code, 0 none), 1 + that city,
    uint8_t transit_origin           # 1 + the city where it began its move
    # ---- bookkeeping and caches derived from the position (not hashed) ----
    uint32_t move_count
    int32_t last_action
    uint8_t last_turn                # the turn player when it was applied (who drew a
    #                                  card, who gave one): determinize needs him
    uint64_t side_mask[RC_TEAMS]     # residents of each team
    uint64_t att_mask                # cities with a pending battle


ctypedef struct RcTables:
    int ncities
    int num_players
    bint equal_arms
    bint rapid                       # Rapid Conquest (4 players)
    bint explicit_consent            # Rapid Conquest: the ally agrees or refuses
    int max_rounds
    int no_progress_rounds
    int first_player
    int empire_player[RC_EMPIRES]    # who plays each empire
    int empire_team[RC_EMPIRES]
    int player_team[RC_MAX_PLAYERS]
    int player_empires[RC_MAX_PLAYERS]  # bit e: the player plays empire e
    int player_draws[RC_MAX_PLAYERS]
    int holder[RC_MAX_PLAYERS]       # whose special cards a player plays
    int team_pile[RC_TEAMS]          # which pile a team draws from
    int capital[RC_EMPIRES]
    int city_empire[RC_MAX_CITIES]
    uint64_t land[RC_MAX_CITIES]     # neighbour masks
    uint64_t sea[RC_MAX_CITIES]
    uint64_t empire_cities[RC_EMPIRES]
    double threat[RC_TEAMS][RC_MAX_CITIES]  # evaluate(): a team's army here, near the
    #                                        enemy capitals, is worth this much more
    uint8_t initial_hand[RC_MAX_PLAYERS][RC_VALUES]
    uint8_t initial_pile[RC_TEAMS][RC_VALUES]
    uint8_t initial_removed[RC_VALUES]
    uint8_t initial_treason[RC_MAX_PLAYERS]
    uint8_t initial_uprising[RC_MAX_PLAYERS]
    int pair_a[RC_PAIRS]             # pair p = values (pair_a[p] <= pair_b[p])
    int pair_b[RC_PAIRS]
    int pair_of[RC_VALUES][RC_VALUES]
    # action layout: [fixed, uprising c, place (kind, c), move (from, to), battle c,
    #                 pair, single v, pay v, give v, draw v]
    int a_uprising
    int a_place
    int a_move
    int a_battle
    int a_pair
    int a_single
    int a_pay
    int a_give
    int a_draw
    int num_actions
    # the observation tensor: each field's first float (OBS_*), and the floats in all
    int obs_at[OBS_FIELDS]
    int obs_size
    int obs_slot[RC_MAX_PLAYERS][RC_EMPIRES]   # each empire's slot, per observer
    float obs_setup[RC_MAX_PLAYERS][RC_OBS_SETUP_MAX]  # each observer's set-up fields


cdef class RomeCarthageCore(CoreGame):
    cdef RcTables tables

    cdef _setup_players(self, list empires, list empire_team)
    cdef _setup_cards(self)
    cdef _setup_threat(self)
    cdef _setup_observation(self)
    cdef int _game_length_bound(self)
    cdef _load_cards(self, RcState* s, dict raw)
    cdef _load_commit(self, RcState* s, dict raw)
    cdef _check_loaded(self, RcState* s, dict raw)
    cdef _check_phase(self, RcState* s)
