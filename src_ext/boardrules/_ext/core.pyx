"""Generic state wrapper over the C-level game contract (see core.pxd).

``CoreState`` knows nothing of any game: it holds the game's state struct as raw bytes, the
seeded RNG beside it (never inside the rules struct, so search cannot peek at future
dice) and an undo stack of snapshots.  The Python facade in ``boardrules/api.py`` builds
on it; per-move work stays in C.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

CHANCE = CHANCE_PLAYER
TERMINAL = TERMINAL_PLAYER


cdef class CoreGame:
    """Base class of the compiled games; subclasses fill ``contract`` in ``__cinit__``."""

    @property
    def num_players(self):
        return self.contract.num_players

    @property
    def num_teams(self):
        return self.contract.num_teams

    @property
    def team_of(self):
        return tuple(self.contract.team_of[p] for p in range(self.contract.num_players))

    @property
    def num_distinct_actions(self):
        return self.contract.num_distinct_actions

    @property
    def max_game_length(self):
        return self.contract.max_game_length

    @property
    def has_hidden_information(self):
        return bool(self.contract.has_hidden_information)

    @property
    def state_size(self):
        return self.contract.state_size

    def new_state(self):
        """A fresh CoreState at the game's initial state (before any chance event)."""
        return CoreState(self)

    def export(self, CoreState st):
        """The whole truth of a state as plain Python values (for views, JSON, pictures).
        Each game overrides this."""
        raise NotImplementedError

    def load(self, CoreState st, dict raw):
        """The inverse of :meth:`export`, checked: write the position ``raw`` (the
        dict ``export`` returns) into ``st``, a state without history.  Every field is
        checked -- types, ranges, and the consistency the rules rely on -- and the derived
        parts of the struct are computed again, so that ``load(export(s))`` is ``s`` byte
        for byte; anything else raises ``ValueError("<field>: <why>")`` (``TypeError`` for a
        value of the wrong type) and leaves ``st`` as it was.  This is the one way into a
        state other than play.  Each game with positions overrides this."""
        raise NotImplementedError

    def illegal_reason(self, CoreState st, int action):
        """Why ``action`` is not legal in ``st``: a rule key (``"legal"`` if it is).
        Each game overrides this with the same predicates its move generator uses."""
        raise NotImplementedError

    cdef int _check_ready(self) except -1:
        # The bare base class has no rules: calling through its empty function table
        # would crash the interpreter, so refuse it.
        if self.contract.initial_state == NULL or self.contract.state_size == 0:
            raise TypeError("CoreGame is abstract: load a game with boardrules.load()")
        return 0

    cdef object _known_legal(self, CoreState st, object action_id, int* action):
        """The start of a game's ``illegal_reason``: the rule key when the move generator
        alone answers it -- ``"unknown_action"`` (no such id) or ``"legal"`` (listed) --
        else ``None``, with the checked id in ``action[0]`` for the game to explain."""
        self._check(st)
        action[0] = self._action_id(action_id)
        if action[0] < 0:
            return "unknown_action"
        if st._is_legal(action[0]):
            return "legal"
        return None

    cdef int _check(self, CoreState st) except -1:
        """A state passed to this game's helpers must be one of its own (its struct is
        read as this game's)."""
        if st.game is not self:
            raise ValueError("state belongs to another game")
        return 0

    cdef int _action_id(self, object action) except -2:
        """An action id passed from Python (to CoreState and the games' helpers): the int,
        or -1 when it is out of range (TypeError if not an int; never an OverflowError)."""
        action = exact_int(action, "an action id")
        if not 0 <= action < self.contract.num_distinct_actions:
            return -1
        return <int>action

    @property
    def observation_size(self):
        """Floats in a player's observation tensor (0: the game has none)."""
        return self.contract.observation_size if self.contract.observation != NULL else 0

    def random_playouts(self, games, seed, observe=False):
        """Play ``games`` uniformly random games from the initial state, entirely in C.

        Returns the number of actions applied (chance outcomes included).  With ``observe``
        true, the mover's observation tensor is also written before each decision (a
        ``ValueError`` for a game without observations).
        """
        return self._playouts(games, seed, observe)[0]

    def observed_playouts(self, games, seed):
        """``random_playouts(games, seed, observe=True)``, returning ``(actions,
        observations)``: the same games as without observations (the same seed), and the
        number of tensors written (one per decision)."""
        return self._playouts(games, seed, True)

    def _playouts(self, games, seed, observe):
        cdef int64_t moves = 0
        cdef int64_t observed = 0
        cdef float* observation = NULL
        cdef uint64_t rng_seed_value = _u64_arg(seed, "seed")
        self._check_ready()
        games = exact_int(games, "games")  # by its value: an int subclass may lie
        if not 0 <= games <= 2**31 - 1:
            raise ValueError("games must be 0 to 2**31 - 1")
        cdef int n_games = games
        cdef char* start = <char*>PyMem_Malloc(self.contract.state_size)
        if start == NULL:
            raise MemoryError()
        cdef int rc
        try:
            if observe:
                if self.observation_size == 0:
                    raise ValueError("this game has no observation tensor")
                observation = <float*>PyMem_Malloc(sizeof(float) * self.contract.observation_size)
                if observation == NULL:
                    raise MemoryError()
            memset(start, 0, self.contract.state_size)
            self.contract.initial_state(start, self.contract.tables)
            with nogil:
                rc = random_playouts_c(&self.contract, start, n_games, rng_seed_value, &moves,
                                       observation, &observed)
            if rc != 0:
                raise MemoryError()
        finally:
            PyMem_Free(start)
            PyMem_Free(observation)
        return moves, observed


cdef int random_playouts_c(const GameContract* c, const void* start, int games,
                           uint64_t seed, int64_t* moves_out,
                           float* observation_out, int64_t* observations_out) noexcept nogil:
    """Uniformly random playouts through the contract only (the engine benchmark).

    With ``observation_out`` (``observation_size`` floats), the observation of the player
    to move is also written there before each of his decisions: what an agent trained on
    the tensors pays per step (the observation benchmark); their number goes to
    ``observations_out`` (may be NULL)."""
    cdef char* s = <char*>malloc(c.state_size)
    cdef int* acts = <int*>malloc(sizeof(int) * c.max_legal_actions)
    cdef double* probs = <double*>malloc(sizeof(double) * c.max_legal_actions)
    cdef Rng rng
    cdef int p, n, i
    cdef double u
    cdef int64_t moves = 0
    cdef int64_t observed = 0
    if s == NULL or acts == NULL or probs == NULL:
        free(s)
        free(acts)
        free(probs)
        return -1
    rng_seed(&rng, seed)
    for _ in range(games):
        memcpy(s, start, c.state_size)
        while True:
            p = c.current_player(s, c.tables)
            if p == TERMINAL_PLAYER:
                break
            if p == CHANCE_PLAYER:
                n = c.chance_outcomes(s, c.tables, acts, probs)
                u = rng_uniform(&rng)
                i = 0
                while i < n - 1 and u >= probs[i]:
                    u -= probs[i]
                    i += 1
            else:
                if observation_out != NULL:
                    c.observation(s, c.tables, p, observation_out)
                    observed += 1
                n = c.legal_actions(s, c.tables, acts)
                i = rng_below(&rng, n)
            c.apply(s, c.tables, acts[i])
            moves += 1
    free(s)
    free(acts)
    free(probs)
    moves_out[0] = moves
    if observations_out != NULL:
        observations_out[0] = observed
    return 0


# A blank CoreState (an all-zero struct, not a state of the game) is only ever made here,
# as the target of a copy: the marker is module-private, so no caller can make one.
cdef object _BLANK = object()
cdef object _U64_END = 2 ** 64
cdef uint64_t WORLD_SEED_SALT = <uint64_t>0xD1B54A32D192ED03


cdef object exact_int(object value, str name):
    """``value`` as a plain int, read through ``int.__index__`` before any comparison: an
    int subclass may lie in its comparisons, never in its value (TypeError for a bool or
    a non-int)."""
    if type(value) is int:  # a plain int (the common case) is its value
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return int.__index__(value)


cdef object field_int(object value, str field, object lo, object hi):
    """A position's field ``value``, an int in [lo, hi] read by value as by
    :func:`exact_int`; the error names the field first (``"field: why"``), which
    ``Game.position`` turns into InvalidPositionError(field, why)."""
    if type(value) is not int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{field}: an int, not {type(value).__name__}")
        value = int.__index__(value)
    if not lo <= value <= hi:
        raise ValueError(f"{field}: {value} is not in {lo}..{hi}")
    return value


cdef object _writable(object out, str dtype):
    """``out`` as itself, checked to be a buffer: a read-only one (bytes) is a ValueError
    and no buffer at all (None, a list) a TypeError, as for every other bad argument,
    not the BufferError a typed memoryview raises (its dtype and shape are checked by the
    memoryview and the caller)."""
    if out is None:
        raise TypeError(f"out must be a writable {dtype} buffer (a numpy array), not None")
    try:
        view = memoryview(out)
    except TypeError:
        raise TypeError(f"out must be a writable {dtype} buffer (a numpy array), not "
                        f"{type(out).__name__}") from None
    if view.readonly:
        raise ValueError(f"out must be a writable {dtype} buffer: this one is read-only")
    return out


cdef uint64_t _u64_arg(object value, str name) except? 0:
    """A Python int in [0, 2**64) (TypeError / ValueError otherwise, never OverflowError)."""
    value = exact_int(value, name)
    if not 0 <= value < _U64_END:
        raise ValueError(f"{name} must be in [0, 2**64)")
    return <uint64_t>value


cdef class CoreState:
    """A game state as the C core sees it, with its RNG and undo stack.

    This is the low-level object under :class:`boardrules.State`; every argument of its
    methods is checked, so nothing passed here can read or write outside the state.
    """

    def __cinit__(self, CoreGame game not None, *blank):
        game._check_ready()
        if blank and (len(blank) != 1 or blank[0] is not _BLANK):
            raise TypeError("CoreState(game) takes only the game")
        self.game = game
        self.c = &game.contract
        self.data = <char*>PyMem_Malloc(self.c.state_size)
        self.legal = <int*>PyMem_Malloc(sizeof(int) * self.c.max_legal_actions)
        self.probs = <double*>PyMem_Malloc(sizeof(double) * self.c.max_legal_actions)
        if self.data == NULL or self.legal == NULL or self.probs == NULL:
            raise MemoryError()
        memset(self.data, 0, self.c.state_size)
        if not blank:
            self.c.initial_state(self.data, self.c.tables)
        rng_seed(&self.rng, 0)
        self.rng_start = self.rng
        self.legal_valid = False
        self.n_actions = 0
        self.cap_actions = 0
        self.undo_states = NULL
        self.actions = NULL
        self.drawn = NULL

    def __dealloc__(self):
        PyMem_Free(self.data)
        PyMem_Free(self.legal)
        PyMem_Free(self.probs)
        PyMem_Free(self.undo_states)
        PyMem_Free(self.actions)
        PyMem_Free(self.drawn)

    # --- RNG beside the state ---
    #
    # The RNG at any point of a game is a function of ``rng_start`` and of which actions
    # were drawn from it (``drawn``): a restored state replays exactly those draws, so its
    # undo snapshots hold the RNG the game really had.

    def seed(self, seed):
        """Seed the RNG of a new state (before any action)."""
        cdef uint64_t value = _u64_arg(seed, "seed")
        if self.n_actions:
            raise ValueError("only a state without history can be seeded")
        rng_seed(&self.rng, value)
        self.rng_start = self.rng

    @property
    def rng_state(self):
        """The RNG's four words now."""
        return tuple(int(self.rng.s[i]) for i in range(4))

    @property
    def rng_start(self):
        """The RNG's four words when the game began."""
        return tuple(int(self.rng_start.s[i]) for i in range(4))

    @rng_start.setter
    def rng_start(self, value):
        cdef tuple words = tuple(value)
        cdef int i
        cdef Rng r
        if self.n_actions:
            raise ValueError("the starting RNG of a state with history cannot change")
        if len(words) != 4:
            raise ValueError("rng state needs 4 words")
        for i in range(4):
            r.s[i] = _u64_arg(words[i], "rng word")
        if r.s[0] == 0 and r.s[1] == 0 and r.s[2] == 0 and r.s[3] == 0:
            raise ValueError("rng state may not be all zero")
        self.rng = r
        self.rng_start = r

    # --- queries ---

    @property
    def current_player(self):
        return self.c.current_player(self.data, self.c.tables)

    cdef int _ensure_legal(self) except -1:
        """Fill the cache: legal actions, or the outcomes (with probs) at a chance node."""
        self._fill_legal()
        return 0

    cdef void _fill_legal(self) noexcept:
        if not self.legal_valid:
            if self.c.current_player(self.data, self.c.tables) == CHANCE_PLAYER:
                self.n_legal = self.c.chance_outcomes(self.data, self.c.tables, self.legal,
                                                      self.probs)
            else:
                self.n_legal = self.c.legal_actions(self.data, self.c.tables, self.legal)
            self.legal_valid = True

    cdef bint _is_legal(self, int action) noexcept:
        # binary search: legal_actions() is ascending
        cdef int lo = 0
        cdef int hi = self.n_legal - 1
        cdef int mid
        while lo <= hi:
            mid = (lo + hi) >> 1
            if self.legal[mid] == action:
                return True
            if self.legal[mid] < action:
                lo = mid + 1
            else:
                hi = mid - 1
        return False

    def legal_actions(self):
        self._ensure_legal()
        return [self.legal[i] for i in range(self.n_legal)]

    def legal_moves(self, list table not None):
        """The legal actions mapped through ``table`` (a list indexed by action id)."""
        if len(table) < self.c.num_distinct_actions:
            raise ValueError(f"table needs an entry per action id "
                             f"({self.c.num_distinct_actions}), got {len(table)}")
        self._ensure_legal()
        cdef int i
        return [table[self.legal[i]] for i in range(self.n_legal)]

    def is_legal(self, action):
        cdef int a = self.game._action_id(action)
        self._ensure_legal()
        return a >= 0 and self._is_legal(a)

    def observation_into(self, player, out):
        """Write ``player``'s observation tensor into ``out`` (a writable, contiguous
        float32 buffer of exactly ``observation_size`` floats: a numpy array), in C."""
        cdef float[::1] buffer = _writable(out, "float32")
        cdef int size = self.game.observation_size
        if size == 0:
            raise ValueError("this game has no observation tensor")
        player = exact_int(player, "player")
        if not 0 <= player < self.c.num_players:
            raise ValueError(f"player must be 0 to {self.c.num_players - 1}, not {player}")
        if buffer.shape[0] != size:
            raise ValueError(f"the buffer holds {buffer.shape[0]} floats, the observation "
                             f"{size}")
        cdef int p = player
        with nogil:
            self.c.observation(self.data, self.c.tables, p, &buffer[0])

    def action_mask_into(self, out):
        """Write the legal-action mask into ``out`` (a writable, contiguous int8 buffer of
        ``num_distinct_actions`` entries): 1 at each legal action of the player to move, 0
        elsewhere (all 0 at a chance node and at the end)."""
        cdef signed char[::1] buffer = _writable(out, "int8")
        cdef int i
        if buffer.shape[0] != self.c.num_distinct_actions:
            raise ValueError(f"the buffer holds {buffer.shape[0]} entries, the actions "
                             f"{self.c.num_distinct_actions}")
        self._ensure_legal()
        memset(&buffer[0], 0, buffer.shape[0])
        if self.c.current_player(self.data, self.c.tables) < 0:
            return
        for i in range(self.n_legal):
            buffer[self.legal[i]] = 1

    def chance_outcomes(self):
        """[(action, probability)] at a chance node, else []."""
        if self.c.current_player(self.data, self.c.tables) != CHANCE_PLAYER:
            return []
        self._ensure_legal()
        return [(self.legal[i], self.probs[i]) for i in range(self.n_legal)]

    def returns(self):
        cdef double out[MAX_PLAYERS]
        self.c.returns(self.data, self.c.tables, out)
        return [out[i] for i in range(self.c.num_players)]

    def evaluate(self):
        cdef double out[MAX_PLAYERS]
        self.c.evaluate(self.data, self.c.tables, out)
        return [out[i] for i in range(self.c.num_players)]

    def action_values(self):
        """The contract's ``action_values`` of the legal actions, in ``legal_actions()``
        order (None when the game has none, or at a chance node or the end)."""
        if self.c.action_values == NULL:
            return None
        self._ensure_legal()
        if self.c.current_player(self.data, self.c.tables) < 0 or self.n_legal == 0:
            return None
        cdef double* values = <double*>PyMem_Malloc(sizeof(double) * self.n_legal)
        if values == NULL:
            raise MemoryError()
        try:
            self.c.action_values(self.data, self.c.tables, self.legal, self.n_legal, values)
            return [values[i] for i in range(self.n_legal)]
        finally:
            PyMem_Free(values)

    def hash(self):
        return self.c.hash(self.data, self.c.tables)

    def state_bytes(self):
        """The raw state struct (for byte-identity checks)."""
        return self.data[:self.c.state_size]

    @property
    def actions(self):
        return [self.actions[i] for i in range(self.n_actions)]

    def simultaneous(self):
        """Whether the player to move decides simultaneously with the previous action (a
        hidden commit he cannot see): the contract's ``simultaneous`` (False without one)."""
        if self.c.simultaneous == NULL:
            return False
        return bool(self.c.simultaneous(self.data, self.c.tables))

    def can_take_back_commit(self):
        """Whether the decision at hand is simultaneous and the game can take back the
        commit it answers (the contract's ``take_back_commit``)."""
        return self.c.take_back_commit != NULL and bool(self.simultaneous())

    def taken_back(self):
        """A copy, without history, of this state with the hidden commit that the
        simultaneous decision at hand answers taken back (its mover to commit again); a
        ValueError where :meth:`can_take_back_commit` is false."""
        if not self.can_take_back_commit():
            raise ValueError("no hidden commit to take back here")
        cdef CoreState other = CoreState(self.game, _BLANK)
        memcpy(other.data, self.data, self.c.state_size)
        other.rng = self.rng
        other.rng_start = self.rng
        self.c.take_back_commit(other.data, self.c.tables)
        return other

    def actions_from(self, start):
        """The actions of the history from index ``start`` on (the new ones since a read)."""
        cdef int first = <int>max(0, min(exact_int(start, "start"), self.n_actions))
        return [self.actions[i] for i in range(first, self.n_actions)]

    @property
    def drawn(self):
        """Indices in the history of the actions drawn from this state's own RNG."""
        return [i for i in range(self.n_actions) if self.drawn[i] == HOW_DRAWN]

    @property
    def forced(self):
        """Indices in the history of the forced steps the engine took (auto forced)."""
        return [i for i in range(self.n_actions) if self.drawn[i] == HOW_FORCED]

    def is_forced(self):
        """Whether the decision at hand is a forced step (the contract's ``forced``)."""
        return bool(self._at_forced())

    cdef bint _at_forced(self) noexcept:
        if self.c.forced == NULL:
            return False
        if self.c.current_player(self.data, self.c.tables) < 0:
            return False
        # A forced step has exactly one legal action: the cached list answers most
        # decisions without the game's own test, which would generate the moves once more
        # (the caller's legal_moves() then reads the same cache).
        self._fill_legal()
        if self.n_legal != 1:
            return False
        return self.c.forced(self.data, self.c.tables)

    def state_at(self, index):
        """A copy, without history, of the state before action ``index`` of the history
        (``num_actions``: the state now): what an event log compares move by move."""
        index = exact_int(index, "index")
        if not 0 <= index <= self.n_actions:
            raise IndexError("history index out of range")
        cdef int i = index
        cdef CoreState other = CoreState(self.game, _BLANK)
        cdef size_t entry = self.c.state_size + sizeof(Rng)
        if i == self.n_actions:
            memcpy(other.data, self.data, self.c.state_size)
        else:
            memcpy(other.data, self.undo_states + entry * i, self.c.state_size)
        return other

    cdef int _replace_data(self, const void* src) except -1:
        """Install a whole state struct (a position a game's ``load`` has checked) in a
        state without history."""
        if self.n_actions:
            raise ValueError("only a state without history takes a position")
        memcpy(self.data, src, self.c.state_size)
        self.legal_valid = False
        return 0

    @property
    def num_actions(self):
        return self.n_actions

    # --- changes ---

    cdef int _push(self, int action, unsigned char how, const Rng* rng_before) except -1:
        """Record a snapshot of the state and ``rng_before`` -- the RNG before this action,
        so before the draw of a chance outcome drawn from it -- and the action, growing the
        stack as needed."""
        cdef size_t entry = self.c.state_size + sizeof(Rng)
        cdef int new_cap
        cdef char* new_states
        cdef int* new_actions
        cdef unsigned char* new_drawn
        if self.n_actions == self.cap_actions:
            new_cap = 64 if self.cap_actions == 0 else 2 * self.cap_actions
            new_states = <char*>PyMem_Realloc(self.undo_states, entry * new_cap)
            if new_states == NULL:
                raise MemoryError()
            self.undo_states = new_states
            new_actions = <int*>PyMem_Realloc(self.actions, sizeof(int) * new_cap)
            if new_actions == NULL:
                raise MemoryError()
            self.actions = new_actions
            new_drawn = <unsigned char*>PyMem_Realloc(self.drawn, new_cap)
            if new_drawn == NULL:
                raise MemoryError()
            self.drawn = new_drawn
            self.cap_actions = new_cap
        memcpy(self.undo_states + entry * self.n_actions, self.data, self.c.state_size)
        memcpy(self.undo_states + entry * self.n_actions + self.c.state_size,
               rng_before, sizeof(Rng))
        self.actions[self.n_actions] = action
        self.drawn[self.n_actions] = how
        self.n_actions += 1
        return 0

    cdef int _push_drawn(self, int action, const Rng* before) except -1:
        """Push an outcome just drawn from ``self.rng``; if the push fails the draw is
        taken back too, so the RNG stays in step with the recorded draws."""
        try:
            self._push(action, HOW_DRAWN, before)
        except MemoryError:
            self.rng = before[0]
            raise
        return 0

    def apply(self, action, bint auto_chance=False, bint auto_forced=False):
        """Apply a legal action; ValueError (state untouched) when it is not legal.

        With ``auto_chance`` the chance events that follow are drawn from the state's RNG
        in the same call (so no other thread sees the state stopped between them); with
        ``auto_forced`` the forced steps that follow are taken too."""
        cdef int a = self.game._action_id(action)
        self._ensure_legal()
        if a < 0 or not self._is_legal(a):
            raise ValueError("illegal action")
        self._push(a, HOW_ASKED, &self.rng)
        self.c.apply(self.data, self.c.tables, a)
        self.legal_valid = False
        self._auto_steps(auto_chance, auto_forced)

    cdef int _chance_draw(self, Rng* rng) noexcept nogil:
        """Draw one outcome at the current chance node with its probability."""
        cdef int n = self.c.chance_outcomes(self.data, self.c.tables, self.legal, self.probs)
        cdef double u = rng_uniform(rng)
        cdef int i = 0
        self.legal_valid = False
        while i < n - 1 and u >= self.probs[i]:
            u -= self.probs[i]
            i += 1
        return self.legal[i]

    cdef int _auto_chance(self) except -1:
        cdef int action
        cdef Rng before
        while self.c.current_player(self.data, self.c.tables) == CHANCE_PLAYER:
            before = self.rng
            action = self._chance_draw(&self.rng)
            self._push_drawn(action, &before)
            self.c.apply(self.data, self.c.tables, action)
        self.legal_valid = False
        return 0

    def run_auto_chance(self):
        self._auto_chance()

    cdef int _auto_forced(self) except -1:
        """Take the forced step at hand (its one legal action), recorded as forced."""
        self._ensure_legal()
        cdef int action = self.legal[0]
        self._push(action, HOW_FORCED, &self.rng)
        self.c.apply(self.data, self.c.tables, action)
        self.legal_valid = False
        return 0

    cdef int _auto_steps(self, bint auto_chance, bint auto_forced) except -1:
        """Draw the chance events (``auto_chance``) and take the forced steps
        (``auto_forced``) that come next, in any order, until a decision is asked."""
        cdef int player
        while True:
            player = self.c.current_player(self.data, self.c.tables)
            if player == CHANCE_PLAYER and auto_chance:
                self._auto_chance()
            elif auto_forced and self._at_forced():
                self._auto_forced()
            else:
                return 0

    def run_auto(self, bint auto_chance, bint auto_forced):
        """The automatic steps due now (a new game or a position may start with some)."""
        self._auto_steps(auto_chance, auto_forced)

    def apply_forced(self, expected):
        """Replay a forced step the engine took: ValueError, nothing changed, unless the
        decision at hand is forced and ``expected`` is its one legal action."""
        cdef int a = self.game._action_id(expected)
        if not self._at_forced():
            raise ValueError("not a forced step")
        self._ensure_legal()
        if self.n_legal != 1 or self.legal[0] != a:
            raise ValueError("not the forced step's action")
        self._auto_forced()
        return a

    def apply_random_chance(self, seed=None, bint auto_forced=False):
        """Draw and apply one chance outcome (own RNG, or a throw-away one from ``seed``);
        with ``auto_forced`` the forced steps that follow are taken in the same call."""
        if self.c.current_player(self.data, self.c.tables) != CHANCE_PLAYER:
            raise ValueError("not a chance node")
        cdef Rng tmp
        cdef int action
        cdef Rng before = self.rng
        if seed is None:
            action = self._chance_draw(&self.rng)
            self._push_drawn(action, &before)
        else:
            rng_seed(&tmp, _u64_arg(seed, "seed"))
            action = self._chance_draw(&tmp)
            self._push(action, HOW_ASKED, &self.rng)
        self.c.apply(self.data, self.c.tables, action)
        self.legal_valid = False
        self._auto_steps(False, auto_forced)
        return action

    def redraw(self, expected):
        """Replay a chance outcome that was drawn from this state's RNG: draw again and
        apply it if it is ``expected`` (ValueError, nothing changed, otherwise).  This is
        how a restored game gets the RNG it really had."""
        cdef int a = self.game._action_id(expected)
        cdef Rng before = self.rng
        if self.c.current_player(self.data, self.c.tables) != CHANCE_PLAYER:
            raise ValueError("not a chance node")
        cdef int action = self._chance_draw(&self.rng)
        if action != a:
            self.rng = before
            raise ValueError("the RNG draws another outcome")
        self._push_drawn(action, &before)
        self.c.apply(self.data, self.c.tables, action)
        self.legal_valid = False
        return action

    cdef int _restore_snapshot(self, int index) noexcept:
        """Back to the state (and RNG) before action ``index``; the history ends there."""
        cdef size_t entry = self.c.state_size + sizeof(Rng)
        memcpy(self.data, self.undo_states + entry * index, self.c.state_size)
        memcpy(&self.rng, self.undo_states + entry * index + self.c.state_size, sizeof(Rng))
        self.n_actions = index
        self.legal_valid = False
        return 0

    def undo(self):
        """Restore the state (and RNG) before the last action; returns that action."""
        if self.n_actions == 0:
            raise IndexError("nothing to undo")
        cdef int action = self.actions[self.n_actions - 1]
        self._restore_snapshot(self.n_actions - 1)
        return action

    def undo_move(self, bint through_chance=True):
        """Take back the last move asked of a player and every forced step and (with
        ``through_chance``) chance outcome after it, in one step (IndexError, nothing
        changed, when nothing was asked); returns that move."""
        cdef int i = self._last_player_move(through_chance)
        if i < 0:
            raise IndexError("nothing to undo")
        cdef int action = self.actions[i]
        self._restore_snapshot(i)
        return action

    def movers(self):
        """Who made each action of the history: a player, or CHANCE."""
        cdef size_t entry = self.c.state_size + sizeof(Rng)
        return [self.c.current_player(self.undo_states + entry * i, self.c.tables)
                for i in range(self.n_actions)]

    def last_move_index(self, bint through_chance=True):
        """The history index of the last move asked (as :meth:`undo_move` counts), -1
        if none: the events from there on are what that move caused."""
        return self._last_player_move(through_chance)

    cdef int _last_player_move(self, bint through_chance) noexcept:
        cdef size_t entry = self.c.state_size + sizeof(Rng)
        cdef int i = self.n_actions - 1
        while i >= 0:
            if self.drawn[i] != HOW_FORCED and (
                    not through_chance
                    or self.c.current_player(self.undo_states + entry * i, self.c.tables) >= 0):
                return i
            i -= 1
        return -1

    def copy(self, bint with_history=True):
        """An independent copy (state, RNG and, unless told otherwise, the undo stack)."""
        cdef CoreState other = CoreState(self.game, _BLANK)
        cdef size_t entry = self.c.state_size + sizeof(Rng)
        memcpy(other.data, self.data, self.c.state_size)
        other.rng = self.rng
        if not with_history:
            other.rng_start = self.rng
            return other
        other.rng_start = self.rng_start
        if self.n_actions:
            other.undo_states = <char*>PyMem_Malloc(entry * self.n_actions)
            other.actions = <int*>PyMem_Malloc(sizeof(int) * self.n_actions)
            other.drawn = <unsigned char*>PyMem_Malloc(self.n_actions)
            if other.undo_states == NULL or other.actions == NULL or other.drawn == NULL:
                raise MemoryError()
            memcpy(other.undo_states, self.undo_states, entry * self.n_actions)
            memcpy(other.actions, self.actions, sizeof(int) * self.n_actions)
            memcpy(other.drawn, self.drawn, self.n_actions)
            other.n_actions = self.n_actions
            other.cap_actions = self.n_actions
        return other

    def determinized(self, observer, seed):
        """A copy (without undo history) whose unseen parts are resampled for ``observer``.

        The world gets an RNG of its own, drawn from ``seed``: a world given to search
        must not predict the real game's next chance outcome."""
        observer = exact_int(observer, "observer")
        if not 0 <= observer < self.c.num_players:
            raise ValueError("observer out of range")
        cdef CoreState other = self.copy(False)
        cdef uint64_t world_seed = _u64_arg(seed, "seed")
        cdef Rng tmp
        rng_seed(&tmp, world_seed)
        self.c.determinize(other.data, self.c.tables, <int>observer, &tmp)
        # Domain-separated from new_game's seeding, so a world made with seed s never
        # shares its RNG with a game that was started with seed s.
        rng_seed(&other.rng, world_seed ^ WORLD_SEED_SALT)
        other.rng_start = other.rng
        return other
