# Armada (1986) rules core: the state struct, the lookup tables and the compiled game.
# Rule text: the rulebook in shared/rules/armada_1986.txt, cited by its section names
# ("Moving Pirate Bands", "Conduct of Combat"); readings of unclear points are numbered
# M1, M2, ... as under "Rules clarifications" on the docs page (docs/armada.rst).

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t

from boardrules._ext.core cimport CoreGame

cdef enum:
    AM_MAX_T = 64            # territories (board.py MAX_TERRITORIES)
    AM_MAX_S = 128           # sea spaces (board.py MAX_SEAS)
    AM_MAX_DEG = 16          # links of one kind from one place
    AM_MAX_ROUTES = 2048     # directed land, load, unload and tranship links
    AM_COLOURS = 4
    AM_SHIPS = 8             # "8 metal two-masted ships", 2 a colour
    AM_KINDS = 12            # card kinds (the deck file's keys, in CARD_KINDS order)
    AM_BANDS = 50            # "The maximum number of pirate bands of one colour is 50"
    AM_GOLD = 50             # "50 golden-yellow pierced tokens"
    AM_NATIVES = 50          # "50 brown unpierced tokens"
    AM_FLAGS = 30            # "5 sets of 30 round tokens"
    AM_SHIP_TOKENS = 10      # "A ship can never hold more than 10 tokens"
    AM_ACTIONS = 10          # "a budget of 10 actions"
    AM_COUP_ACTIONS = 3      # Coup de main: "play three actions in a row"
    AM_FACE = 4              # die effects 0..3 (dice.py: faces show 0 to 3)

# Territory groups (tables.group): the central island, a neighbouring island, a lair.
cdef enum:
    G_CENTRAL = 0
    G_NEIGHBOUR = 1
    G_LAIR = 2

# Flags and colours: 0..3 the colours, FLAG_BROWN the natives', NOBODY none.
cdef enum:
    FLAG_BROWN = 4
    NOBODY = 255

# Route kinds (a directed link used by a group move or an attack).
cdef enum:
    R_LAND = 0               # territory -> adjacent territory
    R_LOAD = 1               # territory -> the ship on an adjacent coastal space
    R_UNLOAD = 2             # ship -> adjacent territory
    R_TRANSHIP = 3           # ship -> the ship on an adjacent sea space

# Ship places.
cdef enum:
    W_BOX = 0                # sunk, scuttled, destroyed or not in play
    W_CITY = 1               # unlaunched, on a city
    W_SEA = 2

# Card kinds, in the deck file's order (deck.py, decks/third_edition.json).
cdef enum:
    K_ATTACK = 0
    K_DEFENCE = 1
    K_SHIPYARD = 2
    K_COUP = 3
    K_DISCOVERY = 4
    K_RECRUIT = 5
    K_BIG_RECRUIT = 6
    K_MOBILISE = 7
    K_BIG_MOBILISE = 8
    K_STRATEGIST = 9
    K_GOLD_MINE = 10
    K_DOPE = 11

# Where the game stands; every decision is one small step.
cdef enum:
    PH_DEAL = 0              # chance: the 3rd-edition variant's 2 cards a player
    PH_SETUP_SHIP = 1        # Preliminary Turn: a ship on a city
    PH_SETUP_BANDS = 2       # Preliminary Turn: bands on the next territory of the lair
    PH_TURN = 3              # the acting colour's next action (or end)
    PH_BANDS = 4             # a group move: how many bands
    PH_GOLD = 5              # a group move: how much gold
    PH_ROLL = 6              # chance: the combat die
    PH_ATTACK_WINDOW = 7     # the attacker may play an attack weapon (M5)
    PH_DEFENCE_WINDOW = 8    # the defending player may play a defence weapon (M5)
    PH_EXPLORE = 9           # chance: the gold and tribes dice
    PH_SPEARS = 10           # chance: the tribes die of a recruitment/mobilisation card
    PH_PLACE = 11            # where recruited bands, natives, gold or a ship go
    PH_DRAW = 12             # chance: a card drawn (bought, dealt or looked at)
    PH_LOOK = 13             # Grand stratège: take the card looked at, or look again
    PH_COUP = 14             # a Coup de main window for one player (M4)
    PH_OVER = 15

# What a PH_PLACE step places.
cdef enum:
    PL_RECRUIT = 0           # optional rule "Recruitment": a band
    PL_CARD_BANDS = 1        # Recrutement de pirates: the bands of a roll
    PL_NATIVES = 2           # Mobilisation indigène: the natives of a roll
    PL_GOLD = 3              # Mine d'or: 3 gold
    PL_SHIP = 4              # Shipyard: a ship

# Why a card is drawn.
cdef enum:
    DR_DEAL = 0
    DR_BUY = 1
    DR_LOOK = 2

cdef enum:
    END_NONE = 0
    END_VICTORY = 1
    END_ROUND_CAP = 2

# Coup de main window policy (option reaction_windows, M4).
cdef enum:
    WIN_OFF = 0
    WIN_TURN_START = 1
    WIN_EVERY_ACTION = 2

# Fixed action ids; the other blocks start at the offsets in AmTables.
cdef enum:
    ACT_END = 0
    ACT_DECLINE = 1
    ACT_TAKE = 2
    ACT_LOOK = 3
    ACT_RECRUIT = 4
    ACT_FIXED = 5


# The fields of the observation tensor, in the order of its legend
# (boardrules/games/armada/observation.py); AmTables.obs_off holds their offsets.
cdef enum:
    OB_FLAG = 0
    OB_EXPLORED
    OB_BANDS
    OB_GOLD
    OB_NATIVES
    OB_CITY_SHIP
    OB_CITY_CAPTURED
    OB_SEA_SHIP
    OB_SEA_CREW
    OB_SEA_GOLD
    OB_BOX_SHIPS
    OB_COLOUR
    OB_COLOUR_OWNER
    OB_POOL
    OB_FLAGS_USED
    OB_VICTORY_OPTION
    OB_IN_VICTORY
    OB_TURN_COLOUR
    OB_ACTING_COLOUR
    OB_HAND_SIZE
    OB_HAND
    OB_PLAYED
    OB_PILE
    OB_SUPPLY
    OB_ROUNDS
    OB_ACTIONS_LEFT
    OB_COUP
    OB_PHASE
    OB_TO_MOVE
    OB_PENDING_KIND
    OB_PENDING_ROUTE
    OB_PENDING_FROM
    OB_PENDING_TO
    OB_PENDING_DEFENDER
    OB_PENDING_LOSSES
    OB_PENDING_PLACE
    OB_PENDING_PLAYER
    OB_PENDING_CARD
    OB_PENDING_COUNTS
    OB_WINNERS
    OB_END_REASON
    OB_OPTIONS
    OB_FIELDS

# The observation's pending kinds (observation.py PENDING_KINDS).
cdef enum:
    PK_DEPLOY = 0
    PK_MOVE = 1
    PK_ATTACK = 2
    PK_EXPLORE = 3
    PK_PLACE = 4
    PK_DRAW = 5
    PK_LOOK = 6


ctypedef struct AmState:
    # ---- the position: hash() covers everything up to move_count ----
    uint8_t flag[AM_MAX_T]            # owner: a colour, FLAG_BROWN or NOBODY
    uint8_t occ[AM_MAX_T]             # the colour of the bands there (NOBODY: none)
    uint8_t bands[AM_MAX_T]
    uint8_t gold[AM_MAX_T]
    uint8_t natives[AM_MAX_T]
    uint8_t explored[AM_MAX_T]
    int8_t at_sea[AM_MAX_S]           # the ship on a sea space, or -1
    uint8_t ship_where[AM_SHIPS]      # W_*
    uint8_t ship_pos[AM_SHIPS]        # its city (W_CITY) or sea space (W_SEA)
    uint8_t ship_owner[AM_SHIPS]
    uint8_t ship_crew[AM_SHIPS]       # the colour of the bands aboard (NOBODY: none)
    uint8_t ship_bands[AM_SHIPS]
    uint8_t ship_gold[AM_SHIPS]
    # bit i: ship i was taken with the city it stands on, not launched since (M23)
    uint8_t captured
    uint8_t pool[AM_COLOURS]          # bands of the colour off the board
    uint8_t supply_gold
    uint8_t supply_natives
    uint8_t flags_used[5]             # flag tokens on the board (printed circles aside)
    uint8_t option[AM_COLOURS]        # victory option placed (M1)
    uint8_t hand[AM_COLOURS][AM_KINDS]   # by player
    uint8_t deck[AM_KINDS]
    uint8_t played[AM_KINDS]
    uint8_t looked[AM_KINDS]          # Grand stratège: the cards looked at, set aside
    uint8_t phase
    uint8_t current                   # the player who decides (windows) or acts
    uint8_t turn_colour
    uint8_t acting                    # the colour acting (the turn's, or a Coup de main's)
    uint8_t ap                        # actions left to the acting colour
    uint8_t saved_ap                  # the interrupted turn's actions during a Coup de main
    uint8_t in_coup
    # "Only one recruitment is possible per turn": recruited since its own turn began (M27)
    uint8_t recruited[AM_COLOURS]
    uint8_t window_next               # the next seat asked in a Coup de main window
    uint8_t window_left               # seats still to ask
    # a pending group move or attack
    int16_t route
    uint8_t move_bands
    uint8_t roll_d                    # the combat result being resolved
    uint8_t roll_a
    uint8_t target_colour             # the defenders' colour (FLAG_BROWN: natives)
    # exploration, card rolls and placements
    uint8_t explore_t
    uint8_t multiplier
    uint8_t place_what                # PL_*
    uint8_t place_amount              # bands, natives or gold to place in one territory
    uint8_t place_queue[AM_COLOURS + 1]   # recruitment: bands still due per lair, central
    uint8_t place_min                 # recruitment: placements in non-decreasing order
    # a Large card: the first roll's territory (NOBODY: none), not the second's (M13)
    uint8_t place_first
    uint8_t rolls_left
    uint8_t draw_reason               # DR_*
    uint8_t drawer                    # the player a card is drawn for
    # Grand stratège: the card just looked at (phase look only, else 0: no trace, M28)
    uint8_t last_looked
    # the preliminary turn
    uint8_t setup_index               # the next lair territory (index into lair_terr)
    uint8_t setup_left                # bands still to place
    uint8_t first_ship_city           # index into the lair's cities of the first ship
    uint8_t winners                   # bit p: p won
    uint8_t end_reason
    uint16_t round
    # ---- bookkeeping (not hashed) ----
    uint32_t move_count
    int32_t last_action


ctypedef struct AmTables:
    int nterr
    int nseas
    int num_players
    int neutral                       # the 3-player rule's unassigned colour, or -1
    int max_rounds
    int recruitment
    int cards
    int windows                       # WIN_*
    int colour_player[AM_COLOURS]     # -1: not a player's (neutral or absent)
    int in_play[AM_COLOURS]           # takes turns
    int first_colour
    int start_bands[AM_COLOURS]
    # geography
    int group[AM_MAX_T]               # G_*
    int lair[AM_MAX_T]                # the colour whose lair it is, or -1
    int island[AM_MAX_T]
    bint city[AM_MAX_T]
    int post[AM_MAX_T]                # trading post index (0 the central one) or -1
    int land_n[AM_MAX_T]
    int land[AM_MAX_T][AM_MAX_DEG]
    int coast_n[AM_MAX_T]             # sea spaces adjoining a territory
    int coast[AM_MAX_T][AM_MAX_DEG]
    int shore_n[AM_MAX_S]             # territories adjoining a sea space
    int shore[AM_MAX_S][AM_MAX_DEG]
    int sea_n[AM_MAX_S]
    int sea[AM_MAX_S][AM_MAX_DEG]
    # the route (or launch / sail pair) id of each link above, for move generation in
    # ascending id order from the places a colour holds
    int land_route[AM_MAX_T][AM_MAX_DEG]
    int load_route[AM_MAX_T][AM_MAX_DEG]
    int coast_id[AM_MAX_T][AM_MAX_DEG]
    int unload_route[AM_MAX_S][AM_MAX_DEG]
    int tranship_route[AM_MAX_S][AM_MAX_DEG]
    int sail_id[AM_MAX_S][AM_MAX_DEG]
    # evaluate(): actions from a sea space to reach a territory (sail to one of its coast
    # spaces, then land or attack), and land steps between territories (255: none)
    uint8_t sea_dist[AM_MAX_S][AM_MAX_T]
    uint8_t land_dist[AM_MAX_T][AM_MAX_T]
    # action_values(): actions for a group of bands to reach a territory from a place
    # (territories, then sea spaces at AM_MAX_T + x) over land, coast and sea links
    # alike -- walking, loading, sailing and landing one action each (255: none)
    uint8_t goal_dist[AM_MAX_T + AM_MAX_S][AM_MAX_T]
    int lair_terr[AM_COLOURS][8]      # a lair's territories, board order
    int lair_n[AM_COLOURS]
    int lair_city[AM_COLOURS][3]
    int central_post
    # dice (effects, one entry a face) and the deck
    int combat_d[6]
    int combat_a[6]
    int gold_face[6]
    int tribes_face[6]
    double p_hits[AM_FACE * AM_FACE]  # chance of (defenders, attackers) lost
    double p_find[AM_FACE * AM_FACE]  # chance of (gold, tribes) found
    double p_spears[AM_FACE]
    int deck_total[AM_KINDS]
    int deck_cards
    # routes: the directed links, and the coast pairs (launch) and sea pairs (sail)
    int nroutes
    int route_kind[AM_MAX_ROUTES]
    int route_from[AM_MAX_ROUTES]
    int route_to[AM_MAX_ROUTES]
    int ncoast
    int coast_sea[AM_MAX_ROUTES]
    int coast_terr[AM_MAX_ROUTES]
    int nsail
    int sail_from[AM_MAX_ROUTES]
    int sail_to[AM_MAX_ROUTES]
    # action layout: [fixed, play card k, coup colour c, setup ship t, deploy k,
    #                 move route, attack route, bands k, gold g, launch coast pair,
    #                 sail pair, explore t, explore special t, scuttle s, destroy t,
    #                 convert t, buy t, buy s, place t, | chance: hits d a, find g n,
    #                 spears n, draw k]
    int a_play
    int a_coup
    int a_ship
    int a_deploy
    int a_move
    int a_attack
    int a_bands
    int a_gold
    int a_launch
    int a_sail
    int a_explore
    int a_special
    int a_scuttle
    int a_destroy
    int a_convert
    int a_buy_t
    int a_buy_s
    int a_place
    int a_hits
    int a_find
    int a_spears
    int a_draw
    int num_actions
    # the observation tensor: each observer's colour slots (his colours first, then the
    # next seat's, the neutral colour last), and the offsets of its fields
    int obs_colour[AM_COLOURS][AM_COLOURS]   # [observer][slot]: the colour
    int obs_slot[AM_COLOURS][AM_COLOURS]     # [observer][colour]: its slot
    int obs_off[OB_FIELDS + 1]               # the last: the tensor's size
    # branch-free writes: a flag or colour byte's plane (NOBODY: plane 0, written 0.0)
    uint8_t obs_plane[AM_COLOURS][256]
    int ncities                              # the cities, board order
    int city_index[AM_MAX_T]                 # a city's index among them (-1: none)


cdef class ArmadaCore(CoreGame):
    cdef AmTables tables
    cdef list _routes
    cdef list _coast
    cdef list _sail

    cdef _setup_geography(self, list groups, list lairs, list islands, list cities,
                          list posts, int nseas, list land, list sea, list coast)
    cdef _setup_distances(self, dict links)
    cdef _setup_dice(self, list combat, list gold, list tribes)
    cdef _setup_layout(self)
    cdef _setup_observation(self)
    cdef int _game_length_bound(self)
