"""Armada: options, the Game and State facades over the compiled core.

The rules themselves live in ``src_ext/boardrules/_ext/armada.pyx``; this module
translates between moves and action ids, checks options, builds views and JSON, and
explains rejected moves.  It re-implements no rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from boardrules._events import Event
from boardrules._ext.armada import (
    CARD_KINDS,
    COLOURS,
    END_REASONS,
    PHASES,
    PLACE_WHAT,
    ROUTE_KINDS,
    SHIP_PLACES,
    WINDOW_POLICIES,
    ArmadaCore,
)
from boardrules.api import CHANCE, TERMINAL, Game, Outcome, State, Termination
from boardrules.errors import BoardDataError, InvalidOptionError
from boardrules.games.armada import events as armada_events
from boardrules.games.armada import observation
from boardrules.games.armada.board import DEFAULT_BOARD, Board, load_board, shipped_boards
from boardrules.games.armada.deck import DEFAULT_DECK, Deck, load_deck, shipped_decks
from boardrules.games.armada.dice import DEFAULT_DICE, Dice, load_dice, shipped_dice
from boardrules.games.armada.moves import ArmadaMove, build_move_table, normalise
from boardrules.games.armada.position import Names
from boardrules.games.armada.position import parse as parse_position
from boardrules.games.armada.position import write as write_position
from boardrules.games.armada.views import (
    ArmadaView,
    ColourView,
    PlayerView,
    ShipView,
    TerritoryView,
)
from boardrules.games.board_files import refuse_board_paths
from boardrules.games.checks import check_int_option
from boardrules.observations import Observation, ObservationLayout

TERMINATIONS = {"victory": Termination.MASTERY, "round_cap": Termination.ROUND_CAP}
DEFAULT_MAX_ROUNDS = 60
#: Game Components: 50 bands a colour, 50 gold, 50 natives, 30 flags a colour, 8 ships.
BANDS, GOLD, NATIVES, FLAGS, SHIPS = 50, 50, 50, 30, 8
#: Preliminary Turn: 18 bands a colour; the Three-Player Rule: 15, and 5 more for the
#: player whose lair is farthest from the unassigned one.
START_BANDS, THREE_PLAYER_BANDS, FARTHEST_EXTRA = 18, 15, 5
DIE_FACES = 4          # effects 0 .. 3 (the core's AM_FACE)
NO_ONE = 255
BROWN = 4
DRAW_LOOK = 2          # the core's DR_LOOK: a Grand stratège's look

#: Why the core refused an action: rule key -> message citing the rulebook section.
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in this game",
    "legal": "the move is legal",
    "game_over": "the game is over (Object of the Game)",
    "chance_expected": "dice are being rolled or a card drawn: apply one of "
                       "state.chance_outcomes()",
    "outcome_impossible": "that outcome cannot happen here (the die has no such face, or "
                          "no such card is left in the pile)",
    "not_chance": "a die roll or a card drawn is a chance outcome, not a player's move",
    "setup_ship": "Preliminary Turn: place your 2 ships on cities of your lair (one ship a "
                  "city; the second on a city later in board order)",
    "setup_bands": "Preliminary Turn: place bands on the next territory of your lair "
                   "('deploy k')",
    "ship_city": "Preliminary Turn: a ship goes on a city of your lair without a ship",
    "setup_over": "the Preliminary Turn is over",
    "bands_pending": "a group move is being made: choose how many bands go ('bands k')",
    "gold_pending": "a group move is being made: choose how much gold they carry "
                    "('gold g')",
    "too_many_bands": "not that many bands (those standing there, within a ship's 10 "
                      "tokens)",
    "too_much_gold": "not that much gold (the gold there, within a ship's 10 tokens)",
    "attack_window": "the attacker may play an attack weapon now, or decline",
    "defence_window": "the defender may play a defence weapon now, or decline",
    "coup_window": "a Coup de main may be played now ('play coup_de_main <colour>'), or "
                   "decline",
    "card_not_held": "you hold no such card",
    "place_pending": "choose where the recruited bands, natives, gold or ship go "
                     "('place t')",
    "place_not_allowed": "not there: bands and gold on a territory you own, natives on an "
                         "explored, unoccupied territory of the central group, a ship on a "
                         "city of yours without a ship; recruited bands in the lair or on the "
                         "central group that raised them; a Large card's second roll on "
                         "another territory than the first's",
    "look_pending": "Grand stratège: take the card looked at or look at the next one",
    "no_look_left": "Grand stratège: each look costs an action and needs a card in the pile",
    "nothing_pending": "no window, move, placement or card is pending",
    "recruitment_off": "recruitment is an optional rule (option recruitment=True)",
    "recruited": "Only one recruitment is possible per turn: this colour has recruited "
                 "since its own turn began (a Coup de main brings no second one)",
    "no_recruits": "Recruitment: you own no lair (4 territories) and fewer than 4 "
                   "territories of the central group, or have no band left in reserve",
    "cards_off": "cards belong to the 3rd-edition variant (option cards=True)",
    "card_not_playable": "you hold no such card, or it cannot be played now (weapons and "
                         "Coup de main in their windows, Special discovery with 'explore t "
                         "special')",
    "no_actions_left": "Action Budget: no action left this turn ('end')",
    "move_not_allowed": "Moving Pirate Bands: your bands to an adjacent territory free of "
                        "enemy bands and natives (explored, on the central group), or onto "
                        "an adjacent ship of your colour or empty, with room",
    "attack_not_allowed": "Combat: at least 2 of your bands on one territory or ship "
                          "adjacent to enemy bands or natives",
    "launch_not_allowed": "Launching: your unlaunched ship onto a free coastal space next "
                          "to its city",
    "sail_not_allowed": "Ships: a ship with a crew of yours, to an adjacent free sea space",
    "explore_not_allowed": "Conditions for Exploration: an unexplored territory of the "
                           "central group, from your ship on an adjacent space or (central "
                           "island) from an adjacent explored territory you occupy",
    "scuttle_not_allowed": "a ship empty of bands, with one of your bands on an adjacent "
                           "space",
    "destroy_not_allowed": "Victory over the Forces Occupying a Territory: only an "
                           "unlaunched ship you captured with its city can be destroyed",
    "convert_not_allowed": "Conditions of Conversion: gold in a city (2 cities of its lair "
                           "yours) or trading post (3 trading posts yours) that you own, and "
                           "the 4 bands it becomes in your reserve",
    "buy_not_allowed": "3rd-Edition Variant: 2 gold where your bands stand, 2 actions and "
                       "a card in the pile",
    "move_not_now": "no such move now",
}

_NOTATION = ("see the notation: 'move a-b', 'bands 3', 'gold 0', 'attack a-b', "
             "'launch city-sea', 'sail s-s', 'explore t', 'convert t', 'recruit', "
             "'place t', 'buy t', 'play dope', 'decline', 'end', 'ship city', 'deploy 5'")


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if not isinstance(value, str) or value not in choices:
        raise InvalidOptionError(f"{name} must be one of {', '.join(choices)}")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidOptionError(f"{name} must be a bool")


def start_bands(players: int, neutral: str | None, board: Board) -> list[int]:
    """Each colour's bands for the preliminary turn (Two- and Three-Player Rules)."""
    if neutral is None:
        return [START_BANDS] * len(COLOURS)
    farthest = board.farthest(neutral)
    return [0 if c == neutral else THREE_PLAYER_BANDS + (FARTHEST_EXTRA if c == farthest else 0)
            for c in COLOURS]


def deck_counts(deck: Deck) -> list[int]:
    """The deck's copies of each card kind the rules core knows (CARD_KINDS order; the
    deck's parser refuses any other key)."""
    counts = [0] * len(CARD_KINDS)
    for card in deck.cards:
        counts[CARD_KINDS.index(card.key)] = card.count
    return counts


class ArmadaGame(Game["ArmadaState", ArmadaMove]):
    """Armada (Philippe des Pallières and Patrice Pillet; Jeux Descartes 1986), third
    edition, with its options fixed.

    Options:

    * ``players`` -- 2, 3 or 4 (default 4).  Four players: player ``p`` plays colour
      ``p`` (green, raspberry, blue, orange: the fixed turn order).  Two: player 0 plays
      green and blue, player 1 raspberry and orange.  Three: the players take the
      colours other than ``neutral`` in turn order.
    * ``neutral`` -- three players only: the unassigned colour ("drawn by lot": the
      caller draws it; default ``"orange"``).
    * ``recruitment`` -- the optional rule "Recruitment" (default ``False``).
    * ``cards`` -- the 3rd-edition card variant (default ``False``).
    * ``reaction_windows`` -- when a Coup de main may be played: ``"every_action"``
      (default; before the first action of each turn and after each action),
      ``"turn_start"`` (before the first action only) or ``"off"`` (reading M4).
    * ``max_rounds`` -- the library's round cap: the game ends after that round, a draw
      (default 60; the rule text does not guarantee an end).
    * ``board``, ``dice``, ``deck`` -- a shipped name (``"archipelago"``,
      ``"reconstructed"``, ``"third_edition"``), the path of a file, or its content as a
      mapping.
    """

    id: ClassVar[str] = "armada"
    name: ClassVar[str] = "Armada"
    rules_version: ClassVar[str] = "1.2"
    _core: ArmadaCore
    _names: Names            # the position format's keys, built when first needed
    max_move_text: ClassVar[int] = 48
    # random play never reaches a 2-turn victory, so rollouts follow the core's move
    # values (action_values: progress toward the targets the colour lacks) for 30 moves,
    # about a turn, then evaluate(): the one setting measured above 0.6.0's random
    # rollouts cut at once at equal CPU time (9-1-1, an unfinished match; 10 and 100
    # moves did less clearly: docs, "Search: informed rollouts").  A low exploration
    # constant because evaluate() separates the moves by small margins (docs' Figures).
    rollout_policy: ClassVar[Literal["random", "informed"]] = "informed"
    rollout_epsilon: ClassVar[float] = 0.1
    rollout_limit: ClassVar[int | None] = 30
    exploration: ClassVar[float | None] = 0.005
    # the iteration caps of suggest()'s strength levels: beside each level's CPU limit
    # (0.1 / 1 / 10 s) and its stop once the answer is sure, a cap the CPU limit reaches
    # first at the busy positions (docs: the search page's "Strength levels")
    search_levels: ClassVar[Mapping[str, int]] = {
        "fast": 30_000, "normal": 300_000, "strong": 3_000_000}
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    notation_hint: ClassVar[str] = _NOTATION
    # short games (a low round cap) keep the conformance kit fast
    # (the default every_action windows, and the turn_start policy once)
    example_options: ClassVar[tuple[dict[str, Any], ...]] = (
        {"players": 4, "max_rounds": 3},
        {"players": 2, "max_rounds": 3, "recruitment": True},
        {"players": 3, "max_rounds": 3, "cards": True, "neutral": "green"},
        {"players": 4, "max_rounds": 2, "cards": True, "recruitment": True},
        {"players": 2, "max_rounds": 2, "cards": True, "recruitment": True,
         "reaction_windows": "turn_start"},
    )

    def __init__(self, players: int = 4, *, neutral: str | None = None,
                 recruitment: bool = False, cards: bool = False,
                 reaction_windows: str = "every_action",
                 max_rounds: int = DEFAULT_MAX_ROUNDS,
                 board: str | os.PathLike[str] | Mapping[str, Any] = DEFAULT_BOARD,
                 dice: str | os.PathLike[str] | Mapping[str, Any] = DEFAULT_DICE,
                 deck: str | os.PathLike[str] | Mapping[str, Any] = DEFAULT_DECK) -> None:
        check_int_option("players", players, 2, 4)
        if players == 3:
            neutral = "orange" if neutral is None else neutral
            _check_choice("neutral", neutral, COLOURS)
        elif neutral is not None:
            raise InvalidOptionError("neutral is an option of the 3-player game only")
        _check_bool("recruitment", recruitment)
        _check_bool("cards", cards)
        _check_choice("reaction_windows", reaction_windows, WINDOW_POLICIES)
        check_int_option("max_rounds", max_rounds, 1, 10_000)
        self.board: Board = load_board(board)
        self.dice: Dice = load_dice(dice)
        self.deck: Deck = load_deck(deck)
        counts = deck_counts(self.deck)
        if cards and sum(counts) < 2 * players:
            raise InvalidOptionError("the deck must hold the 2 cards dealt to each player")
        options = {
            "players": players, "neutral": neutral, "recruitment": recruitment,
            "cards": cards, "reaction_windows": reaction_windows, "max_rounds": max_rounds,
            "board": _saved(board, shipped_boards(), self.board),
            "dice": _saved(dice, shipped_dice(), self.dice),
            "deck": _saved(deck, shipped_decks(), self.deck),
        }
        self.colour_players: tuple[int | None, ...]
        core = self._build_core(players, neutral, recruitment, cards, reaction_windows,
                                max_rounds, counts)
        self.colour_players = tuple(p if p >= 0 else None for p in core.colour_players)
        b = self.board
        keys = [t.key for t in b.territories]
        seas = [s.key for s in b.seas]
        self._install(core, options, lambda key: build_move_table(
            core.layout, keys, seas, core.routes, core.coast_pairs, core.sail_pairs,
            CARD_KINDS, COLOURS, DIE_FACES, BANDS, key))

    def _build_core(self, players: int, neutral: str | None, recruitment: bool,
                    cards: bool, reaction_windows: str, max_rounds: int,
                    counts: list[int]) -> ArmadaCore:
        b = self.board
        groups, lairs = [], []
        for t in b.territories:
            group = b.islands[t.island].group
            groups.append(0 if group == "central" else 1 if group == "neighbour" else 2)
            lairs.append(COLOURS.index(group) if group in COLOURS else -1)
        posts = [-1 if t.trading_post is None else
                 ("central", "north", "south", "east", "west").index(t.trading_post)
                 for t in b.territories]
        try:
            return ArmadaCore(
                players, groups, lairs, [t.island for t in b.territories],
                [t.city for t in b.territories], posts, len(b.seas),
                [list(p) for p in b.land], [list(p) for p in b.sea],
                [list(p) for p in b.coast], [list(f) for f in self.dice.combat],
                list(self.dice.gold), list(self.dice.tribes), counts,
                start_bands(players, neutral, b),
                COLOURS.index(neutral) if neutral is not None else -1, max_rounds,
                recruitment, cards, WINDOW_POLICIES.index(reaction_windows))
        except ValueError as exc:     # limits of the compiled tables (degrees, die faces)
            raise BoardDataError(f"{b.name}: {exc}") from exc

    # --- the observation tensor (observation.py) ---

    def _observation_layout(self) -> ObservationLayout:
        b = self.board
        return observation.observation_layout(self.num_players, len(b.territories),
                                              len(b.seas), sum(t.city for t in b.territories))

    def _observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        return observation.observation_from_view(view, player, self.board)

    def _normalise(self, text: str) -> str:
        return normalise(text)

    def _notation_hint(self) -> str:
        """The notation reminder with this game's moves only: ``recruit`` with the
        Recruitment rule, ``buy`` and ``play`` with the cards."""
        moves = ["'move a-b'", "'bands 3'", "'gold 0'", "'attack a-b'", "'launch city-sea'",
                 "'sail s-s'", "'explore t'", "'convert t'"]
        if self.options["recruitment"]:
            moves.append("'recruit'")
        if self.options["recruitment"] or self.options["cards"]:
            moves.append("'place t'")
        if self.options["cards"]:
            moves += ["'buy t'", "'play dope'", "'decline'"]
        moves += ["'end'", "'ship city'", "'deploy 5'"]
        return "see the notation: " + ", ".join(moves)

    # --- positions (docs: "Position format") ---

    def _position_names(self) -> Names:
        names: Names | None = getattr(self, "_names", None)
        if names is None:
            b = self.board
            groups = [b.islands[t.island].group for t in b.territories]
            names = Names([t.key for t in b.territories], [s.key for s in b.seas],
                          self._core.routes, self.num_players,
                          [COLOURS.index(g) if g in COLOURS else -1 for g in groups])
            self._names = names
        return names

    def _position_text(self, raw: dict[str, Any]) -> str:
        return write_position(raw, self._position_names())

    def _position_raw(self, text: str) -> dict[str, Any]:
        return parse_position(text, self._position_names())

    # --- events (docs: "Events") ---

    def _events(self, before: dict[str, Any], action: int, mover: int,
                after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        names = self._position_names()
        return armada_events.events(self._moves[action], before, after, names.territories,
                                    names.seas, names.routes)

    def _redact_event(self, event: Event, viewer: int | None) -> Event | None:
        return armada_events.redact(event, viewer)

    # --- where moves land, and pictures (render.py) ---

    def _locations(self, move: ArmadaMove) -> tuple[str, ...]:
        """The place acted on (a territory, or a sea space for the ship there); a
        route's start, then its end.  A deploy's territory follows from the position
        (the next of the lair): none."""
        return tuple(place for place in (move.at, move.to) if place is not None)

    def _redacted_locations(self, text: str) -> tuple[str, ...] | None:
        """A card drawn for another player, ``draw ?`` in a log: no location."""
        return () if text == "draw ?" else None

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        from boardrules.games.armada.render import render_svg

        return render_svg(self._check_view(view), self.board,
                          size=900 if size is None else size, highlight=highlight,
                          marks=marks, arrows=arrows)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules.games.armada.render import render_text

        return render_text(self._check_view(view), self.board)

    @classmethod
    def check_saved_options(cls, options: dict[str, Any]) -> None:
        """A saved state names shipped data files or carries them, never a path."""
        refuse_board_paths(options, DEFAULT_BOARD, shipped_boards())
        for name, default, shipped in (("dice", DEFAULT_DICE, shipped_dice()),
                                       ("deck", DEFAULT_DECK, shipped_decks())):
            refuse_board_paths(options, default, shipped, name)

    def player_of(self, colour: str) -> int | None:
        """The player who plays ``colour`` (``None``: the 3-player neutral colour)."""
        _check_choice("colour", colour, COLOURS)
        player: int | None = self.colour_players[COLOURS.index(colour)]
        return player


def _saved(spec: object, shipped: list[str], data: Board | Dice | Deck) -> Any:
    """How an option is saved: a shipped name as it is, anything else as its content."""
    return spec if isinstance(spec, str) and spec in shipped else data.to_json()


def _colour(value: int) -> str | None:
    return COLOURS[value] if value < len(COLOURS) else None


def _flag(value: int) -> str | None:
    if value == BROWN:
        return "brown"
    return _colour(value)


class ArmadaState(State[ArmadaMove]):
    """An Armada game in progress."""

    __slots__ = ()
    _game: ArmadaGame

    @property
    def game(self) -> ArmadaGame:
        """The game this is a state of, as its own class."""
        return self._game

    @property
    def phase(self) -> str:
        """``deal``, ``setup_ship``, ``setup_bands``, ``turn``, ``bands``, ``gold``,
        ``roll``, ``attack_weapon``, ``defence_weapon``, ``explore``, ``tribes``,
        ``place``, ``draw``, ``look``, ``coup`` or ``over``."""
        return str(PHASES[self._raw()["phase"]])

    # --- scoring ---

    def territories_owned(self) -> tuple[int, ...]:
        """Each player's territories (flags of his colours, printed circles included)."""
        raw = self._raw()
        owners = self._game.colour_players
        counts = [0] * self._game.num_players
        for flag in raw["flag"]:
            owner = owners[flag] if flag < len(COLOURS) else None
            if owner is not None:
                counts[owner] += 1
        return tuple(counts)

    def score(self) -> tuple[int, ...]:
        """Each player's territories owned (the game has no points: mastery wins)."""
        return self.territories_owned()

    def in_victory(self, colour: str) -> bool:
        """Whether ``colour`` is in a victory situation now (Object of the Game)."""
        _check_choice("colour", colour, COLOURS)
        return bool(self._raw()["in_victory"][COLOURS.index(colour)])

    def outcome(self) -> Outcome | None:
        if self._core.current_player != TERMINAL:
            return None
        raw = self._raw()
        n = self._game.num_players
        winners = tuple(raw["winners"])
        ranking = tuple(1 if not winners or p in winners else 2 for p in range(n))
        scores = self.score()
        return Outcome(
            winners=winners if winners else tuple(range(n)),
            ranking=ranking, scores=scores, team_scores=scores, returns=self.returns(),
            reason=TERMINATIONS[END_REASONS[raw["end_reason"]]],
        )

    # --- what each player sees ---

    def _sees_hand(self, viewer: int | None, player: int) -> bool:
        return viewer is not None and viewer == player

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> ArmadaView:
        """What ``player`` may see (``None``: a spectator), JSON-ready: everything on
        the board, the cards played, hand sizes and the pile's size; his own hand (and
        the cards he is looking at with a Grand stratège) only to him."""
        game = self._game
        self._check_viewer(player)
        raw = self._raw()
        phase = PHASES[raw["phase"]]
        terminal = phase == "over"
        return {
            "game": game.id,
            "options": game.options,
            "viewer": player,
            "phase": phase,
            "current_player": self.current_player,
            "turn_colour": COLOURS[raw["turn_colour"]],
            "acting_colour": COLOURS[raw["acting"]],
            "round": raw["round"],
            "max_rounds": game.options["max_rounds"],
            "actions_left": raw["ap"] if phase not in ("deal", "setup_ship", "setup_bands")
            else 0,
            "coup": ({"colour": COLOURS[raw["acting"]], "actions_left": raw["ap"],
                      "interrupted_actions_left": raw["saved_ap"]}
                     if raw["in_coup"] else None),
            "colours": [self._colour_view(raw, c) for c in range(len(COLOURS))],
            "players": [self._player_view(raw, p, player) for p in range(game.num_players)],
            "territories": self._territories_view(raw),
            "ships": self._ships_view(raw),
            "supply": {"gold": raw["supply_gold"], "natives": raw["supply_natives"]},
            "deck": sum(raw["deck"]),
            "set_aside": sum(raw["looked"]),
            "played": dict(zip(CARD_KINDS, raw["played"], strict=True)),
            "pending": self._pending(raw, player),
            "winners": raw["winners"] if terminal else None,
            "end_reason": END_REASONS[raw["end_reason"]] or None,
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }

    def _colour_view(self, raw: dict[str, Any], c: int) -> ColourView:
        game = self._game
        player = game.colour_players[c]
        on_ships = sum(b for b, crew in zip(raw["ship_bands"], raw["ship_crew"], strict=True)
                       if crew == c)
        return {
            "colour": COLOURS[c],
            "player": player,
            "in_play": player is not None,
            "neutral": game.options["neutral"] == COLOURS[c],
            "pool": raw["pool"][c],
            "bands": BANDS - raw["pool"][c],
            "bands_on_ships": on_ships,
            "flags": raw["flags_used"][c],
            "victory_option": raw["option"][c],
            "in_victory": raw["in_victory"][c],
        }

    def _player_view(self, raw: dict[str, Any], p: int, viewer: int | None) -> PlayerView:
        game = self._game
        hand = raw["hand"][p]
        return {
            "player": p,
            "colours": [COLOURS[c] for c in range(len(COLOURS)) if game.colour_players[c] == p],
            "hand_size": sum(hand),
            "hand": (dict(zip(CARD_KINDS, hand, strict=True))
                     if self._sees_hand(viewer, p) else None),
        }

    def _territories_view(self, raw: dict[str, Any]) -> list[TerritoryView]:
        return [{"territory": t.key, "flag": _flag(raw["flag"][r]),
                 "explored": raw["explored"][r], "colour": _colour(raw["occ"][r]),
                 "bands": raw["bands"][r], "gold": raw["gold"][r],
                 "natives": raw["natives"][r]}
                for r, t in enumerate(self._game.board.territories)]

    def _ships_view(self, raw: dict[str, Any]) -> list[ShipView]:
        board = self._game.board
        ships: list[ShipView] = []
        for i in range(SHIPS):
            where = SHIP_PLACES[raw["ship_where"][i]]
            pos = raw["ship_pos"][i]
            at = (board.seas[pos].key if where == "sea" else
                  board.territories[pos].key if where == "city" else None)
            ships.append({"ship": i, "owner": COLOURS[raw["ship_owner"][i]], "where": where,
                          "at": at, "crew": _colour(raw["ship_crew"][i]),
                          "bands": raw["ship_bands"][i], "gold": raw["ship_gold"][i],
                          "captured": raw["captured"][i]})
        return ships

    def _route(self, raw: dict[str, Any]) -> dict[str, str]:
        board = self._game.board
        kind, a, b = self._game._core.routes[raw["route"]]
        name = ROUTE_KINDS[kind]
        start = board.territories[a].key if name in ("land", "load") else board.seas[a].key
        end = board.territories[b].key if name in ("land", "unload") else board.seas[b].key
        return {"route": name, "from": start, "to": end}

    def _pending(self, raw: dict[str, Any], viewer: int | None) -> dict[str, Any] | None:
        phase = PHASES[raw["phase"]]
        board = self._game.board
        if phase == "setup_bands":
            lair = [r for r, t in enumerate(board.territories)
                    if board.islands[t.island].group == COLOURS[raw["turn_colour"]]]
            return {"kind": "deploy", "territory": board.territories[lair[raw["setup_index"]]].key,
                    "left": raw["setup_left"]}
        if phase in ("bands", "gold"):
            return {"kind": "move", **self._route(raw),
                    "bands": raw["move_bands"] if phase == "gold" else None}
        if phase in ("roll", "attack_weapon", "defence_weapon"):
            rolled = phase != "roll"
            return {"kind": "attack", **self._route(raw),
                    "defender": _flag(raw["target_colour"]),
                    "defenders_lost": raw["roll"][0] if rolled else None,
                    "attackers_lost": raw["roll"][1] if rolled else None}
        if phase == "explore":
            return {"kind": "explore", "territory": board.territories[raw["explore_t"]].key,
                    "multiplier": raw["multiplier"]}
        if phase in ("tribes", "place"):
            return {"kind": "place", "what": PLACE_WHAT[raw["place_what"]],
                    "amount": raw["place_amount"] if phase == "place" else None,
                    "rolls_left": raw["rolls_left"]}
        if phase in ("draw", "deal"):
            return {"kind": "draw", "for": raw["drawer"]}
        if phase == "look":
            seen = self._sees_hand(viewer, raw["drawer"])
            return {"kind": "look", "player": raw["drawer"],
                    "looked": sum(raw["looked"]),
                    "card": CARD_KINDS[raw["last_looked"]] if seen else None}
        return None

    def _viewer_chance_outcomes(self, viewer: int) -> list[tuple[int, float]]:
        """A card draw as ``viewer`` sees it: any card he has not seen -- the pile, the
        other players' hands, and the cards another player's Grand stratège sets aside
        while he looks -- uniformly (M28's unseen cards, as a world redraws them).  The
        dice do not depend on hidden cards: the engine's odds."""
        raw = self._raw()
        phase = PHASES[raw["phase"]]
        if phase not in ("deal", "draw"):
            return super()._viewer_chance_outcomes(viewer)
        unseen = list(raw["deck"])
        for p, hand in enumerate(raw["hand"]):
            if p != viewer:
                unseen = [n + h for n, h in zip(unseen, hand, strict=True)]
        if phase == "draw" and raw["draw_reason"] == DRAW_LOOK and raw["drawer"] != viewer:
            unseen = [n + h for n, h in zip(unseen, raw["looked"], strict=True)]
        total = sum(unseen)
        first = self._game._core.layout["draw"]
        return [(first + k, n / total) for k, n in enumerate(unseen) if n]

    def history_view(self, player: int | None) -> list[tuple[int, str]]:
        """The move log as ``player`` may see it: a card drawn for another player (dealt,
        bought or looked at with a Grand stratège) reads ``draw ?``."""
        self._check_viewer(player)
        log = super().history_view(None)
        drawers = self._game._core.drawers(self._core)
        for i, (mover, _) in enumerate(log):
            if mover == CHANCE and drawers[i] >= 0 and not self._sees_hand(player, drawers[i]):
                log[i] = (mover, "draw ?")
        return log

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Bands (50 a colour: on the board, on ships and in reserve), gold (50: on the
        board, on ships, in the supply), natives (50), flags (at most 30 a colour), ships
        (8, at most one a sea space), cards (the deck: hands, pile, played, set aside)."""
        raw = self._raw()
        result: dict[str, tuple[int, int]] = {}
        for c, colour in enumerate(COLOURS):
            on_board = sum(b for b, o in zip(raw["bands"], raw["occ"], strict=True) if o == c)
            aboard = sum(b for b, o in zip(raw["ship_bands"], raw["ship_crew"], strict=True)
                         if o == c)
            result[f"bands.{colour}"] = (on_board + aboard + raw["pool"][c], BANDS)
            result[f"flags.{colour}"] = (raw["flags_used"][c], min(raw["flags_used"][c], FLAGS))
        result["gold"] = (sum(raw["gold"]) + sum(raw["ship_gold"]) + raw["supply_gold"], GOLD)
        result["natives"] = (sum(raw["natives"]) + raw["supply_natives"], NATIVES)
        at_sea = [raw["ship_pos"][i] for i in range(SHIPS) if raw["ship_where"][i] == 2]
        result["ships_at_sea"] = (len(set(at_sea)), len(at_sea))
        totals = self._game._core.deck_totals
        for k, kind in enumerate(CARD_KINDS):
            held = sum(hand[k] for hand in raw["hand"])
            result[f"cards.{kind}"] = (held + raw["deck"][k] + raw["played"][k]
                                       + raw["looked"][k], totals[k])
        for i in range(SHIPS):
            load = raw["ship_bands"][i] + raw["ship_gold"][i]
            result[f"ship[{i}].tokens"] = (load, min(load, 10))
        return result

    # --- persistence ---

    def _snapshot(self) -> dict[str, Any]:
        raw = self._raw()
        return {key: raw[key] for key in (
            "phase", "current", "turn_colour", "acting", "ap", "round", "flag", "occ",
            "bands", "gold", "natives", "explored", "ship_where", "ship_pos", "ship_owner",
            "ship_crew", "ship_bands", "ship_gold", "pool", "option", "hand", "deck",
            "played", "winners")}

    # --- pictures ---

    def render_text(self, player: int | None = None) -> str:
        """The board as text (``print(state)`` shows it)."""
        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text += "\nlast: " + "; ".join(armada_events.describe(e) for e in last)
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 900) -> str:
        """An SVG picture of what ``player`` may see, with the overlays of
        :meth:`Game.render_view_svg` (territories and sea spaces by key)."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)

    def render_svg_truth(self, *, highlight: Sequence[str] = (),
                         marks: Sequence[tuple[str, str]] = (),
                         arrows: Sequence[tuple[str, str]] = (), size: int = 900) -> str:
        """The same picture with every hand shown (for a referee or a replay)."""
        view = self.view(None)
        raw = self._raw()
        for p, entry in enumerate(view["players"]):
            entry["hand"] = dict(zip(CARD_KINDS, raw["hand"][p], strict=True))
        return self._game.render_view_svg(view, highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)


ArmadaGame.state_class = ArmadaState

__all__ = ["CHANCE", "ArmadaGame", "ArmadaMove", "ArmadaState"]
