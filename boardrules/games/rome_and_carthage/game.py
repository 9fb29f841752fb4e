"""Rome & Carthage: options, the Game and State facades over the compiled core.

The rules themselves live in ``src_ext/boardrules/_ext/rome_and_carthage.pyx``; this
module translates between moves and action ids, checks options, builds views and JSON,
and explains rejected moves.  It re-implements no rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from boardrules._events import Event
from boardrules._ext.rome_and_carthage import END_REASONS, KINDS, PHASES, RomeCarthageCore
from boardrules.api import CHANCE, TERMINAL, Game, Outcome, State, Termination
from boardrules.errors import InvalidOptionError
from boardrules.games.board_files import refuse_board_paths
from boardrules.games.checks import check_index, check_int_option
from boardrules.games.rome_and_carthage import observation
from boardrules.games.rome_and_carthage.board import (
    DEFAULT_BOARD,
    EMPIRES,
    Board,
    load_board,
    shipped_boards,
)
from boardrules.games.rome_and_carthage.events import describe, rc_events, redact, sees_hand
from boardrules.games.rome_and_carthage.moves import (
    CARD_VALUES,
    RomeCarthageMove,
    build_move_table,
    normalise,
)
from boardrules.games.rome_and_carthage.position import position_raw, position_text
from boardrules.games.rome_and_carthage.refusals import (
    MOVE_REASONS,
    PLACEMENT_REASONS,
    move_refusal,
    placement_refusal,
)
from boardrules.games.rome_and_carthage.views import (
    ArmyView,
    BattleView,
    CityView,
    PlayerView,
    RomeCarthageView,
    SpecialsView,
)
from boardrules.observations import Observation, ObservationLayout

Variant = Literal["standard", "equal_arms", "rapid_conquest"]
Consent = Literal["implicit", "explicit"]
TERMINATIONS = {
    "capitals": Termination.CAPITALS,
    "elimination": Termination.ELIMINATION,
    "no_progress": Termination.NO_PROGRESS,
    "round_cap": Termination.ROUND_CAP,
    "army_reduced": Termination.ARMY_REDUCED,
    "weak_and_capital": Termination.WEAK_AND_CAPITAL,
}
DEFAULT_MAX_ROUNDS = 200
DEFAULT_NO_PROGRESS_ROUNDS = 20

#: Why the core refused an action: rule key -> message citing the rulebook section.
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in this game",
    "legal": "the move is legal",
    "game_over": "the game is over (Victory Conditions)",
    "chance_expected": "a card is being drawn (1. Draw a card): apply one of "
                       "state.chance_outcomes()",
    "card_not_in_pile": "no card of that value is in the draw pile (Draw pile)",
    "not_chance": "a drawn card is a chance outcome, not a player's move",
    "placement_turn": "turns 1 and 2 place the armies (Turns 1 and 2: placing the armies)",
    "place_not_allowed": "Turns 1 and 2: an army goes on an empty city of its own colour, "
                         "4 an empire in the first turn and the 3 others in the second",
    "placement_over": "the armies are placed in turns 1 and 2 only",
    "withdraw_not_spy": "only a lone spy may withdraw (Battle, Spies)",
    "cards_not_allowed": "Battle: two cards in the first round (one for a player whose "
                         "capital is occupied), one in tie rounds, and only cards in hand",
    "battle_pending": "a battle is being fought (4. Carry out a battle): lay cards down",
    "choose_battle": "several battles are pending: the attacker chooses which one is "
                     "fought first (4. Carry out a battle)",
    "no_battle_there": "no battle is pending in that city",
    "no_battle": "no battle is being fought",
    "pass_not_now": "a player passes after drawing, before moving (1. Draw a card)",
    "done_not_now": "'done' ends a move of two infantry, a forced march offer or a "
                    "General's Treason, and nothing is pending",
    "special_not_now": "special cards are played before the move (2. Play one or two "
                       "special cards)",
    "treason_used": "the General's Treason card is single-use and already played",
    "treason_no_move": "no enemy army can move (General's Treason)",
    "uprising_used": "the Popular Uprising card is single-use and already played",
    "uprising_not_occupied": "Popular Uprising: only when one's own capital is occupied "
                             "by an enemy army, and on that capital",
    "march_not_now": "a forced march is paid after the move (Forced march)",
    "march_used": "at most one forced march a turn (Forced march)",
    "march_payment": "Forced march: cards of at least 3 points, paid in non-increasing "
                     "value order, zeros pay nothing",
    "march_payment_pending": "finish paying the forced march first (Forced march)",
    "move_not_now": "no move now",
    "no_army_there": "no army stands on that city",
    "treason_own_army": "General's Treason moves an army of the OPPONENT",
    "not_your_army": "a player moves the armies of his own empire(s)",
    "second_move_infantry": "3. Move a piece: a second move is another infantry (or, "
                            "after paying, the forced march's move)",
    "army_in_battle": "an army that entered an enemy city stops there for the battle",
    "consent_pending": "Rapid Conquest: the ally agrees or refuses first",
    "no_consent_asked": "agree / refuse answer a request for the ally's agreement (Rapid "
                        "Conquest, explicit consent)",
    "rapid_conquest_only": "moving an ally's army and giving a card belong to the Rapid "
                           "Conquest variant",
    "ally_move_not_available": "Rapid Conquest, 3. Move a piece: moving an ally's piece "
                               "costs cards of at least 3 points, instead of one's own "
                               "move, and needs an ally's army that can move",
    "give_not_allowed": "Rapid Conquest, 3. Move a piece: give one card (not a zero) to "
                        "the ally instead of moving",
    "not_ally_army": "Rapid Conquest: the paid move is of an allied player's piece",
    "ally_same_army": "Rapid Conquest: the second paid move moves the same piece again",
    "unreachable": "3. Move a piece: elephant and infantry one land city, galley one city "
                   "by sea, chariot one or two land cities; never stopping on a friendly "
                   "army (a forced march may pass through one, if paid for and able to "
                   "move on), never through an enemy, never three armies in a city",
    "passing_army_moves_on": "Forced march: the army passing through a friendly city "
                             "moves on; it may not stop there",
    # the causes of place_not_allowed and unreachable, told apart in Python (refusals.py)
    **PLACEMENT_REASONS,
    **MOVE_REASONS,
}

_NOTATION = ("see the notation: 'infantry@roma', 'pass', 'treason', 'uprising roma', "
             "'roma-capua', 'done', 'pay 5', 'battle capua', 'play 10+4', 'play 7', "
             "'withdraw', 'draw 7', 'ally', 'give 5', 'agree', 'refuse'")
_STANDARD_MOVES = ("'infantry@roma'", "'pass'", "'treason'", "'uprising roma'",
                   "'roma-capua'", "'done'", "'pay 5'", "'battle capua'", "'play 10+4'",
                   "'play 7'", "'withdraw'", "'draw 7'")


def default_empires(players: int, ally: str) -> list[list[str]]:
    """Who plays which empires, in turn order, by default: 2 players, Rome's team against
    the other; 3 players, the other team's lone player first, then Rome, then its ally;
    4 players, the teams alternate (Rome, first other, Rome's ally, second other)."""
    others = [e for e in EMPIRES if e not in ("rome", ally)]
    if players == 2:
        return [["rome", ally], others]
    if players == 3:
        return [others, ["rome"], [ally]]
    return [["rome"], [others[0]], [ally], [others[1]]]


class RomeCarthageGame(Game["RomeCarthageState", RomeCarthageMove]):
    """Rome & Carthage (Jean-René Vernes, 1954; Grosso Modo 2012) with its options fixed.

    Options:

    * ``players`` -- 2, 3 or 4.
    * ``ally`` -- the empire allied with Rome (``"alexandria"``, the default, as seen in
      play; ``"carthage"`` or ``"byzantium"``).  The other two empires form the other team.
    * ``empires`` -- who plays which empires, one list per player in turn order (names
      from ``rome``, ``carthage``, ``byzantium``, ``alexandria``); by default see
      :func:`default_empires`.  A player's empires must be allies.
    * ``first_player`` -- who starts ("Players decide who starts"; default 0).
    * ``variant`` -- ``"standard"``, ``"equal_arms"`` ("A armes égales!") or
      ``"rapid_conquest"`` ("Conquête rapide", 4 players).
    * ``consent`` -- Rapid Conquest: ``"implicit"`` (the default: partners share their
      result, so the ally's agreement is taken as given) or ``"explicit"`` (the ally
      answers ``agree`` or ``refuse``).
    * ``max_rounds`` -- the library's hard round cap: a draw once that many rounds are
      played (default 200; turns 1 and 2 count).
    * ``no_progress_rounds`` -- the evasion draw made operational: a draw after that many
      rounds without a battle, an elimination, an Uprising or a change in who holds a
      capital (default 20).
    * ``board`` -- a shipped map name (``"mediterranean"``, reconstructed), the path of a
      map file, or its content as a mapping.
    """

    id: ClassVar[str] = "rome_and_carthage"
    name: ClassVar[str] = "Rome & Carthage"
    rules_version: ClassVar[str] = "1.2"
    _core: RomeCarthageCore
    pass_action: ClassVar[int | None] = 0
    # random games last some 900 actions: search rolls out 30, then evaluate() (armies,
    # capitals held, armies near the enemy capitals, cards); measured 100 of 100 games
    # against random play at 2,000 ISMCTS iterations, 0.02 s a move (the docs page's
    # Figures)
    rollout_limit: ClassVar[int | None] = 30
    # the iteration caps of suggest()'s strength levels: beside each level's CPU limit
    # (0.1 / 1 / 10 s) and its stop once the answer is sure, a cap the CPU limit reaches
    # first at the busy positions (docs: the search page's "Strength levels")
    search_levels: ClassVar[Mapping[str, int]] = {
        "fast": 30_000, "normal": 300_000, "strong": 3_000_000}
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    notation_hint: ClassVar[str] = _NOTATION
    # short games (a low round cap) keep the conformance kit fast
    example_options: ClassVar[tuple[dict[str, Any], ...]] = (
        {"players": 2, "max_rounds": 12},
        {"players": 3, "max_rounds": 10},
        {"players": 4, "max_rounds": 10, "first_player": 1},
        {"players": 4, "max_rounds": 10, "variant": "equal_arms", "ally": "carthage"},
        {"players": 3, "max_rounds": 10, "variant": "equal_arms"},
        {"players": 4, "max_rounds": 10, "variant": "rapid_conquest"},
        {"players": 4, "max_rounds": 10, "variant": "rapid_conquest", "consent": "explicit"},
    )

    def __init__(self, players: int = 2, *, ally: str = "alexandria",
                 empires: Sequence[Sequence[str]] | None = None, first_player: int = 0,
                 variant: Variant = "standard", consent: Consent = "implicit",
                 max_rounds: int = DEFAULT_MAX_ROUNDS,
                 no_progress_rounds: int = DEFAULT_NO_PROGRESS_ROUNDS,
                 board: str | os.PathLike[str] | Mapping[str, Any] = DEFAULT_BOARD) -> None:
        check_int_option("players", players, 2, 4)
        if not isinstance(ally, str) or ally not in EMPIRES[1:]:
            raise InvalidOptionError("ally must be 'carthage', 'byzantium' or 'alexandria'")
        seats = _check_empires(empires, players, ally)
        check_int_option("first_player", first_player, 0, players - 1)
        if not isinstance(variant, str) or variant not in (
                "standard", "equal_arms", "rapid_conquest"):
            raise InvalidOptionError(
                "variant must be 'standard', 'equal_arms' or 'rapid_conquest'")
        if variant == "rapid_conquest" and players != 4:
            raise InvalidOptionError("Rapid Conquest is for 4 players")
        if not isinstance(consent, str) or consent not in ("implicit", "explicit"):
            raise InvalidOptionError("consent must be 'implicit' or 'explicit'")
        if consent == "explicit" and variant != "rapid_conquest":
            raise InvalidOptionError("consent applies to the Rapid Conquest variant only")
        check_int_option("max_rounds", max_rounds, 3, 10_000)
        check_int_option("no_progress_rounds", no_progress_rounds, 1, 10_000)
        self.board: Board = load_board(board)
        shipped = isinstance(board, str) and board in shipped_boards()
        team_of_empire = [0 if e in ("rome", ally) else 1 for e in EMPIRES]
        options = {
            "players": players, "ally": ally, "empires": seats,
            "first_player": first_player, "variant": variant, "consent": consent,
            "max_rounds": max_rounds,
            "no_progress_rounds": no_progress_rounds,
            "board": board if shipped else self.board.to_json(),
        }
        b = self.board
        core = RomeCarthageCore(
            [c.empire for c in b.cities], [b.capital(e) for e in range(4)],
            [list(p) for p in b.land], [list(p) for p in b.sea],
            [[EMPIRES.index(e) for e in seat] for seat in seats], team_of_empire,
            first_player, variant == "equal_arms", max_rounds, no_progress_rounds,
            variant == "rapid_conquest", consent == "explicit")
        keys = [c.key for c in b.cities]
        self._install(core, options,
                      lambda key: build_move_table(core.layout, keys, core.pairs, key))

    @property
    def equal_arms(self) -> bool:
        return bool(self._options["variant"] == "equal_arms")

    def _normalise(self, text: str) -> str:
        return normalise(text)

    def _explain(self, core: Any, action: int) -> tuple[str, str]:
        """The core's rule key, and where it covers several causes (a placement, a
        move), the cause this position shows (refusals.py)."""
        key, message = super()._explain(core, action)
        refine = {"place_not_allowed": placement_refusal, "unreachable": move_refusal}
        if key in refine:
            found = refine[key](self, self._core.export(core), self._moves[action])
            if found is not None:
                return found
        return key, message

    def _notation_hint(self) -> str:
        """The notation of this game's moves only: Rapid Conquest removes the Popular
        Uprising and adds ``ally`` and ``give``, its explicit consent ``agree`` and
        ``refuse``."""
        moves = list(_STANDARD_MOVES)
        if self._options["variant"] == "rapid_conquest":
            moves.remove("'uprising roma'")
            moves += ["'ally'", "'give 5'"]
            if self._options["consent"] == "explicit":
                moves += ["'agree'", "'refuse'"]
        return "see the notation: " + ", ".join(moves)

    # --- the observation tensor (observation.py) ---

    def _observation_layout(self) -> ObservationLayout:
        return observation.observation_layout(self.num_players, len(self.board.cities))

    def _observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        return observation.observation_from_view(view, player)

    # --- positions (the docs page's "Position format"; the checks are the core's load) ---

    def _position_text(self, raw: dict[str, Any]) -> str:
        return position_text(self, raw)

    def _position_raw(self, text: str) -> dict[str, Any]:
        return position_raw(self, text)

    # --- events (the docs page's "Events") ---

    def _events(self, before: dict[str, Any], action: int, mover: int,
                after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return rc_events(self, before, action, mover, after)

    def _redact_event(self, event: Event, viewer: int | None) -> Event | None:
        return redact(self, event, viewer)

    # --- where moves land, and pictures (render.py) ---

    def _locations(self, move: RomeCarthageMove) -> tuple[str, ...]:
        """The city of a placement, an uprising or a battle; a move's city, then where
        it goes."""
        return tuple(city for city in (move.city, move.to) if city is not None)

    def _redacted_locations(self, text: str) -> tuple[str, ...] | None:
        """A card drawn, played or given as a log hides it (``draw ?``, ``play ?``,
        ``give ?``): no location."""
        return () if text in ("draw ?", "play ?", "give ?") else None

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        from boardrules.games.rome_and_carthage.render import render_svg

        return render_svg(self._check_view(view), self.board,
                          size=900 if size is None else size, highlight=highlight,
                          marks=marks, arrows=arrows)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules.games.rome_and_carthage.render import render_text

        return render_text(self._check_view(view), self.board)

    @classmethod
    def check_saved_options(cls, options: dict[str, Any]) -> None:
        """A saved state names a shipped board or carries the board itself, never a path."""
        refuse_board_paths(options, DEFAULT_BOARD, shipped_boards())

    def empires_of(self, player: int) -> list[str]:
        """The empires ``player`` plays."""
        check_index("player", player, self.num_players)
        return list(self._options["empires"][player])

    def city_key(self, city: int) -> str:
        """The notation key of the city with board index ``city``."""
        check_index("city", city, len(self.board.cities))
        return self.board.cities[city].key


def _check_empires(empires: object, players: int, ally: str) -> list[list[str]]:
    """"Forming teams": 4 players one empire each; 3 players, one plays two allied
    empires alone and the others one each; 2 players two allied empires each."""
    if empires is None:
        return default_empires(players, ally)
    if isinstance(empires, str | bytes) or not isinstance(empires, Sequence):
        raise InvalidOptionError("empires must be a list of lists of empire names")
    seats: list[list[str]] = []
    for seat in empires:
        if isinstance(seat, str | bytes) or not isinstance(seat, Sequence):
            raise InvalidOptionError("empires must be a list of lists of empire names")
        if not all(isinstance(e, str) and e in EMPIRES for e in seat):
            raise InvalidOptionError(f"empire names are {', '.join(EMPIRES)}")
        seats.append(list(seat))
    if len(seats) != players:
        raise InvalidOptionError(f"empires must list {players} players")
    if sorted(e for seat in seats for e in seat) != sorted(EMPIRES):
        raise InvalidOptionError("each empire is played by exactly one player")
    sizes = sorted(len(seat) for seat in seats)
    if sizes != {2: [2, 2], 3: [1, 1, 2], 4: [1, 1, 1, 1]}[players]:
        raise InvalidOptionError(
            "Forming teams: with 4 players one empire each, with 3 one player plays two "
            "and the others one, with 2 two empires each")
    team = {e: 0 if e in ("rome", ally) else 1 for e in EMPIRES}
    for seat in seats:
        if len({team[e] for e in seat}) != 1:
            raise InvalidOptionError("a player who plays two empires plays two allies")
    return seats


class RomeCarthageState(State[RomeCarthageMove]):
    """A Rome & Carthage game in progress."""

    __slots__ = ()
    _game: RomeCarthageGame

    @property
    def game(self) -> RomeCarthageGame:
        """The game this is a state of, as its own class."""
        return self._game

    @property
    def phase(self) -> str:
        """``place``, ``draw`` (chance), ``main``, ``treason``, ``treason_second``,
        ``moved``, ``pay``, ``extra``, ``battle_order``, ``commit``, ``spy`` or ``over``;
        in Rapid Conquest also ``consent`` (the ally answers), ``ally_move`` and
        ``ally_moved`` (the paid move of an ally's army)."""
        return str(PHASES[self._raw()["phase"]])

    # --- scoring ---

    def armies(self) -> tuple[int, ...]:
        """Each player's armies (on the board, in a battle, or still to place)."""
        raw = self._raw()
        game = self._game
        counts = [0] * game.num_players
        owner = _empire_player(game)
        for code in raw["army"] + raw["attacker"] + [raw["transit"]]:
            if code >= 0:
                counts[owner[code // 4]] += 1
        for e, left in enumerate(raw["unplaced"]):
            counts[owner[e]] += sum(left)
        return tuple(counts)

    def score(self) -> tuple[int, ...]:
        """Each player's armies left (the game has no points: it is won or drawn)."""
        return self.armies()

    def outcome(self) -> Outcome | None:
        if self._core.current_player != TERMINAL:
            return None
        raw = self._raw()
        game = self._game
        team_of = game._core.team_of
        winner = raw["winner"]
        ranking = tuple(1 if winner < 0 or team_of[p] == winner else 2
                        for p in range(game.num_players))
        scores = self.score()
        return Outcome(
            winners=tuple(p for p in range(game.num_players) if ranking[p] == 1),
            ranking=ranking,
            scores=scores,
            team_scores=tuple(sum(scores[p] for p in team) for team in game.teams),
            returns=self.returns(),
            reason=TERMINATIONS[END_REASONS[raw["end_reason"]]],
        )

    def capital_occupied(self, player: int) -> bool:
        """Whether an enemy army holds one of ``player``'s capitals ("Occupied capital":
        he then plays one card in his battles)."""
        self._check_viewer(player, spectator=False)
        return bool(self._game._core.capital_occupied(self._core, player))

    # --- odds as a player sees them ---

    def _viewer_chance_outcomes(self, viewer: int) -> list[tuple[int, float]]:
        """A draw as ``viewer`` sees it: uniform over the cards he has not seen -- the
        drawer's pile and the cards of the hands he may not see that everyone does not
        know (drawn ones, a lost hand's face-down cards), as ``determinize`` redraws
        them.  So the outcomes are every value he cannot rule out, not only the pile's
        (which would tell him what the hidden hands hold)."""
        game = self._game
        raw = self._raw()
        team_of = game._core.team_of
        pile = team_of[raw["turn_player"]] if game.equal_arms else 0
        pool = list(raw["pile"][pile])
        for q in range(game.num_players):
            if sees_hand(game, viewer, q) or (game.equal_arms and team_of[q] != pile):
                continue
            for v in range(1, len(CARD_VALUES)):
                pool[v] += raw["hand"][q][v] - raw["known"][q][v] + raw["lost"][q][v]
        total = sum(pool)
        first = game._core.layout["draw"]
        return [(first + v, n / total) for v, n in enumerate(pool) if n]

    # --- what each player sees ---

    def _sees_hand(self, viewer: int | None, q: int) -> bool:
        """Allies show each other their cards, except in Equal Arms."""
        if viewer is None:
            return False
        team_of = self._game._core.team_of
        return viewer == q or (not self._game.equal_arms and team_of[viewer] == team_of[q])

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> RomeCarthageView:
        """What ``player`` may see (``None``: a spectator), JSON-ready.

        Everyone sees the board, every hand's size, the cards everyone knows a hand holds
        (the public starting hands minus the cards seen played: ``known``), the spent and
        removed cards and the pile's size -- never its order or content.  A hand itself
        shows to its owner and, except in Equal Arms, his ally.  Cards laid face down in a
        battle show only to their owner's side until the reveal.
        """
        game = self._game
        self._check_viewer(player)
        raw = self._raw()
        phase = PHASES[raw["phase"]]
        cities: list[CityView] = [{"city": c.key, "army": _army(game, raw["army"][i]),
                   "attacker": _army(game, raw["attacker"][i]),
                   "passing": (_army(game, raw["transit"]) if raw["transit_city"] == i
                               else None)}
                  for i, c in enumerate(game.board.cities)]
        equal = game.equal_arms
        view: RomeCarthageView = {
            "game": game.id,
            "options": game.options,
            "viewer": player,
            "phase": phase,
            "current_player": self.current_player,
            "turn_player": raw["turn_player"],
            "round": raw["round"],
            "cities": cities,
            "players": [self._player_view(raw, q, player) for q in range(game.num_players)],
            "pile_size": [sum(p) for p in raw["pile"]] if equal else sum(raw["pile"][0]),
            "discard": ([_cards(d) for d in raw["discard"]] if equal
                        else _cards(raw["discard"][0])),
            "discard_size": ([sum(d) for d in raw["discard"]] if equal
                             else sum(raw["discard"][0])),
            "removed": _cards(raw["removed"]),
            "fifteens_removed": raw["fifteens_removed"],
            "fifteens_aside": raw["fifteens_aside"],
            "specials": self._specials(raw),
            "battle": self._battle_view(raw, player),
            "forced_march": {"used": raw["march_used"], "paid": raw["pay_sum"]},
            "capitals_clock": [{"team": k, "running": raw["clock_on"][k],
                                "turns": max(raw["clock_turns"][k], 0)}
                               for k in range(2)],
            "weak_and_capital_clock": [{"team": k, "running": raw["clock2_on"][k],
                                        "turns": max(raw["clock2_turns"][k], 0)}
                                       for k in range(2)],
            "pass_bonus": raw["pass_bonus"],
            "quiet_turns": raw["quiet_turns"],
            "winner_team": raw["winner"] if raw["winner"] >= 0 else None,
            "end_reason": END_REASONS[raw["end_reason"]] or None,
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }
        return view

    def _player_view(self, raw: dict[str, Any], q: int, viewer: int | None) -> PlayerView:
        game = self._game
        hand = raw["hand"][q]
        return {
            "player": q,
            "team": game._core.team_of[q],
            "empires": game.empires_of(q),
            "hand_size": sum(hand),
            "hand": _cards(hand) if self._sees_hand(viewer, q) else None,
            "known": _cards(raw["known"][q]),
            "unknown": raw["unknown"][q],
            "lost": sum(raw["lost"][q]),
            "lost_cards": _cards(raw["lost"][q]) if self._sees_hand(viewer, q) else None,
            "armies": self.armies()[q],
            "eliminated": raw["excluded"][q],
            "capital_occupied": self.capital_occupied(q),
        }

    def _specials(self, raw: dict[str, Any]) -> list[SpecialsView]:
        """Special cards lie face up: who may still play which."""
        holder = self._game._core.holder
        return [{"player": q, "treason": bool(raw["treason"][holder[q]]),
                 "uprising": bool(raw["uprising"][holder[q]])}
                for q in range(self._game.num_players)]

    def _battle_view(self, raw: dict[str, Any], viewer: int | None) -> BattleView | None:
        if raw["battle_city"] < 0:
            return None
        game = self._game
        attacker, defender = raw["attacker_player"], raw["defender_player"]
        pending = raw["phase"] == PHASES.index("commit") and raw["commit_side"] == 1
        face_down = None
        if pending:
            face_down = (_values(raw["commit"][0]) if self._sees_hand(viewer, attacker)
                         else None)
        return {
            "city": game.city_key(raw["battle_city"]),
            "attacker": attacker,
            "defender": defender,
            "round": ("full", "replay", "tie")[raw["round_kind"]],
            "to_play": ("attacker", "defender")[raw["commit_side"]]
            if raw["phase"] == PHASES.index("commit") else None,
            "face_down": len(raw["commit"][0]) if pending else 0,
            "face_down_cards": face_down,
            "spy": ("attacker", "defender")[raw["spy_side"]]
            if raw["phase"] == PHASES.index("spy") else None,
            "totals": raw["total"] if raw["phase"] == PHASES.index("spy") else None,
        }

    def history_view(self, player: int | None) -> list[tuple[int, str]]:
        """The move log as ``player`` may see it: a card another player drew reads
        ``draw ?`` (1. Draw a card: "He looks at its value secretly"; an ally's draw
        stays readable, except in Equal Arms), the attacker's cards still face down read
        ``play ?``, and in Rapid Conquest a card given to the ally reads ``give ?`` to the
        opponents."""
        self._check_viewer(player)
        log = super().history_view(None)
        drawers = self._game._core.turn_players(self._core)   # who drew each card
        raw = self._raw()
        for i, (mover, text) in enumerate(log):
            if mover == CHANCE:
                if not self._sees_hand(player, drawers[i]):
                    log[i] = (mover, "draw ?")
            elif text.startswith("give ") and not self._sees_hand(player, mover):
                log[i] = (mover, "give ?")
        pending = raw["phase"] == PHASES.index("commit") and raw["commit_side"] == 1
        if pending and log and not self._sees_hand(player, raw["attacker_player"]):
            log[-1] = (log[-1][0], "play ?")
        return log

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Cards (52 in hands, on the table, in the piles, spent, set aside or out of the
        game), the four 15s among them, and each player's two zeros (they always come
        back, "Battle"; an excluded player's are lost with his hand)."""
        raw = self._raw()
        total = [0] * len(CARD_VALUES)
        sources = (raw["hand"] + raw["lost"] + raw["pile"] + raw["discard"]
                   + [raw["removed"]])
        for counts in sources:
            for v, n in enumerate(counts):
                total[v] += n
        for side in raw["commit"]:
            for v in side:
                total[v] += 1
        total[11] += raw["fifteens_aside"]
        result = {"cards": (sum(total), 52), "fifteens": (total[11], 4),
                  "zeros": (total[0], 8)}
        for q in range(self._game.num_players):
            full = list(raw["hand"][q])
            for side in _sides_of(raw, q):
                for v in side:
                    full[v] += 1
            if not raw["excluded"][q]:
                result[f"zeros[{q}]"] = (full[0], 2)
            result[f"known_in_hand[{q}]"] = (
                sum(1 for k, h in zip(raw["known"][q], full, strict=True) if k <= h),
                len(full))
            result[f"unknown[{q}]"] = (sum(full[1:]) - sum(raw["known"][q][1:]),
                                       raw["unknown"][q])
        return result

    # --- persistence ---

    def _snapshot(self) -> dict[str, Any]:
        raw = self._raw()
        game = self._game
        return {
            "phase": PHASES[raw["phase"]],
            "current_player": self.current_player,
            "turn_player": raw["turn_player"],
            "round": raw["round"],
            "armies": [{"city": game.city_key(i), "army": _army(game, code)}
                       for i, code in enumerate(raw["army"]) if code >= 0],
            "attackers": [{"city": game.city_key(i), "army": _army(game, code)}
                          for i, code in enumerate(raw["attacker"]) if code >= 0],
            "passing": ({"city": game.city_key(raw["transit_city"]),
                         "army": _army(game, raw["transit"])}
                        if raw["transit"] >= 0 else None),
            "hands": [_cards(h) for h in raw["hand"]],
            "known": [_cards(h) for h in raw["known"]],
            "pile": [_cards(p) for p in raw["pile"]],
            "discard": [_cards(d) for d in raw["discard"]],
            "removed": _cards(raw["removed"]),
            "lost": [_cards(h) for h in raw["lost"]],
            "table": [_values(side) for side in raw["commit"]],
            "excluded": raw["excluded"],
            "specials": self._specials(raw),
            "quiet_turns": raw["quiet_turns"],
            "winner": raw["winner"],
        }

    # --- pictures ---

    def render_text(self, player: int | None = None) -> str:
        """The map as text (``print(state)`` shows it for a spectator)."""
        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text += ("" if text.endswith("\n") else "\n") + "last: " + "; ".join(
                describe(event) for event in last)
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 900) -> str:
        """An SVG picture of what ``player`` may see (``None``: a spectator), with the
        overlays of :meth:`Game.render_view_svg` (cities by key)."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)

    def render_svg_truth(self, *, highlight: Sequence[str] = (),
                         marks: Sequence[tuple[str, str]] = (),
                         arrows: Sequence[tuple[str, str]] = (), size: int = 900) -> str:
        """An SVG picture with every hand shown (for analysis, never for a player)."""
        view = self.view(None)
        raw = self._raw()
        for q, entry in enumerate(view["players"]):
            entry["hand"] = _cards(raw["hand"][q])
        return self._game.render_view_svg(view, highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)


def _empire_player(game: RomeCarthageGame) -> list[int]:
    owner = [0] * len(EMPIRES)
    for p, seat in enumerate(game.options["empires"]):
        for e in seat:
            owner[EMPIRES.index(e)] = p
    return owner


def _army(game: RomeCarthageGame, code: int) -> ArmyView | None:
    if code < 0:
        return None
    empire = code // 4
    return {"empire": EMPIRES[empire], "kind": KINDS[code % 4],
            "player": _empire_player(game)[empire]}


def _cards(counts: Sequence[int]) -> list[int]:
    """Card values of a count vector, lowest first."""
    return [CARD_VALUES[v] for v in range(len(counts)) for _ in range(counts[v])]


def _values(indices: Sequence[int]) -> list[int]:
    return [CARD_VALUES[v] for v in indices]


def _sides_of(raw: dict[str, Any], q: int) -> list[list[int]]:
    """The battle cards face down on the table that belong to player q."""
    sides = []
    if raw["phase"] == PHASES.index("commit"):
        if raw["attacker_player"] == q:
            sides.append(raw["commit"][0])
        if raw["defender_player"] == q:
            sides.append(raw["commit"][1])
    return sides


RomeCarthageGame.state_class = RomeCarthageState

__all__ = ["CHANCE", "RomeCarthageGame", "RomeCarthageMove", "RomeCarthageState",
           "default_empires"]
