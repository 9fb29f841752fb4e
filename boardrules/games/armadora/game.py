"""Armadora: options, the Game and State facades over the compiled core.

The rules themselves live in ``src_ext/boardrules/_ext/armadora.pyx``; this module
translates between moves and action ids, checks options, builds views and JSON, and
explains rejected moves.  It re-implements no rule.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from boardrules._events import Event
from boardrules._ext.armadora import ArmadoraCore
from boardrules.api import CHANCE, TERMINAL, Game, Outcome, State, Termination
from boardrules.errors import InvalidMoveError, InvalidOptionError
from boardrules.games.armadora import observation
from boardrules.games.armadora.board import DEFAULT_BOARD, Board, load_board, shipped_boards
from boardrules.games.armadora.events import armadora_events, redact_armadora_event
from boardrules.games.armadora.moves import (
    RACES,
    ArmadoraMove,
    build_move_table,
    edge_aliases,
    normalise,
    square_name,
)
from boardrules.games.armadora.position import position_raw, position_text
from boardrules.games.armadora.views import (
    ArmadoraPlayerView,
    ArmadoraSquareView,
    ArmadoraView,
    ArmadoraWarriorView,
)
from boardrules.games.board_files import refuse_board_paths
from boardrules.observations import Observation, ObservationLayout

Variant = Literal["basic", "advanced"]
#: A square's name in a redacted warrior move (``?@c2``).
_REDACTED_SQUARE = re.compile(r"[a-h][1-8]")
PHASES = ("gold", "race", "turn", "after_power", "second_palisade", "over")

#: Why the core refused an action: rule key -> message citing the rule by the number and
#: English name of its section of the rules sheet (see the rules summary in the docs).
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in this game",
    "game_over": "the game is over (rule 4, end of the game: it ends when every player has "
                 "ended)",
    "chance_expected": "a chance event is pending (rule 2.6, setup: the gold piles go onto "
                       "the mines at random; rule 7.1.1, advanced setup: races are dealt at "
                       "random): apply one of state.chance_outcomes()",
    "gold_pile_unavailable": "no gold pile of that size is left to place (rule 2.5, setup: "
                             "piles of 3, 4, 4, 5, 5, 6, 6 and 7 gold)",
    "race_unavailable": "that race has already been dealt (rule 7.1.1, advanced setup)",
    "not_chance": "a chance outcome is not a player's move",
    "pass_mid_turn": "rule 4, end of the game: a player ends (passes) instead of a turn, "
                     "not in the middle of one",
    "done_without_palisade": "'done' only ends a palisade action after its first palisade "
                             "(rule 3, palisades: place up to 2 palisades)",
    "edge_taken": "rule 3, palisades: a palisade goes into an empty gap, and one already "
                  "stands there",
    "no_palisades_left": "all 35 palisades are on the board (rule 1, components; rule 2.7, "
                         "setup: one common supply)",
    "territory_too_small": "rule 3, palisades: a palisade may not form a territory of fewer "
                           "than 4 squares",
    "second_palisade_only": "rule 3, play: one action per turn -- after a first palisade "
                            "only a second palisade or 'done'",
    "square_not_empty": "rule 3, warriors: a warrior goes on an empty square (neither "
                        "warrior nor gold)",
    "no_such_warrior": "rule 2.3, setup: no warrior of that strength is left behind the "
                       "player's screen",
    "peek_target": "rule 7.2.2, race powers (Mage): he looks at a face-down warrior of "
                   "another player",
    "arrow_not_opponent": "rule 7.2.2, race powers (Elf): the arrow targets an opponent's "
                          "warrior",
    "arrow_no_elf_warrior": "rule 7.2.2, race powers (Elf): the target must share a "
                            "territory with one of the elf player's own warriors",
    "arrow_territory_full": "rule 7.2.2, race powers (Elf): no archery into a full territory "
                            "(every square holds a warrior or gold)",
    "basic_game": "race powers and reinforcement tokens belong to the advanced game (rule 7, "
                  "advanced rules)",
    "wrong_race": "that power belongs to another race (rule 7.2.2, race powers)",
    "power_not_now": "rule 7.2.1, advanced turn: a race power is used at most once a turn, "
                     "before the action",
    "power_without_action": "rule 7.2.1, advanced turn: a race power comes before one of "
                            "the three actions (a warrior, palisades, the reinforcement "
                            "token), and none could follow this one",
    "no_power_tokens": "no ability token left (rule 7.2.2, race powers: each use removes "
                       "one)",
    "no_reinforcement_left": "rule 7.2.3, reinforcement token: the player's token is "
                             "already on the board",
    "reinforce_not_own": "rule 7.2.3(1)(5), reinforcement token: it goes on one of the "
                         "player's own warriors (not a partner's)",
    "reinforce_not_full": "rule 7.2.3(2), reinforcement token: only in a full territory",
    "reinforce_territory_taken": "rule 7.2.3(3), reinforcement token: a territory holds at "
                                 "most one",
    "legal": "the move is legal",
}


class ArmadoraGame(Game["ArmadoraState", ArmadoraMove]):
    """Armadora (Christwart Conrad, 2013) with its options fixed.

    Options:

    * ``players`` -- 2, 3 or 4 (4: two teams, players 0 and 2 against 1 and 3, turn order
      A-C-B-D of the sheet).
    * ``variant`` -- ``"basic"`` or ``"advanced"`` (race powers and reinforcement tokens).
    * ``look_at_face_down`` -- whether a player may look at his own face-down warriors;
      when ``False`` his view hides them and he must remember (rule 3, warriors).
    * ``board`` -- a shipped board name (``"printed"``, the default, or ``"sheet-7x5"``),
      the path of a board file, or its content as a mapping.
    """

    id: ClassVar[str] = "armadora"
    name: ClassVar[str] = "Armadora"
    rules_version: ClassVar[str] = "1.1"
    _core: ArmadoraCore
    pass_action: ClassVar[int | None] = 0
    # the iteration caps of suggest()'s strength levels: beside each level's CPU limit
    # (0.1 / 1 / 10 s) and its stop once the answer is sure, a cap the CPU limit reaches
    # first at the busy positions (docs: the search page's "Strength levels")
    search_levels: ClassVar[Mapping[str, int]] = {
        "fast": 10_000, "normal": 100_000, "strong": 1_000_000}
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    notation_hint: ClassVar[str] = (
        "see the notation: 'pass', '3@c2', 'c2-d2', 'done', 'goblin 3@c2', 'orc c2-d2', "
        "'peek c2', 'arrow c2', 'reinforce c2', 'gold 5', 'race elf'")
    #: The basic game's reminder: no race powers, reinforcement tokens nor races (rule 7).
    basic_notation_hint: ClassVar[str] = (
        "see the notation: 'pass', '3@c2', 'c2-d2', 'done', 'gold 5'")
    example_options: ClassVar[tuple[dict[str, Any], ...]] = (
        {"players": 2, "variant": "basic"},
        {"players": 2, "variant": "advanced"},
        {"players": 3, "variant": "advanced"},
        {"players": 4, "variant": "basic"},
        {"players": 4, "variant": "advanced", "look_at_face_down": False},
        {"players": 3, "variant": "basic", "board": "sheet-7x5"},
    )

    def _notation_hint(self) -> str:
        if self._options["variant"] == "basic":
            return self.basic_notation_hint
        return self.notation_hint

    def __init__(self, players: int = 2, variant: Variant = "basic",
                 look_at_face_down: bool = True,
                 board: str | os.PathLike[str] | Mapping[str, Any] = DEFAULT_BOARD) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptionError("players must be an integer")
        if players not in (2, 3, 4):
            raise InvalidOptionError(f"Armadora is for 2, 3 or 4 players, not {players}")
        if not isinstance(variant, str) or variant not in ("basic", "advanced"):
            raise InvalidOptionError("variant must be 'basic' or 'advanced'")
        if not isinstance(look_at_face_down, bool):
            raise InvalidOptionError("look_at_face_down must be true or false")
        self.board: Board = load_board(board)
        shipped = isinstance(board, str) and board in shipped_boards()
        options = {
            "players": players,
            "variant": variant,
            "look_at_face_down": look_at_face_down,
            "board": board if shipped else self.board.to_json(),
        }
        core = ArmadoraCore(self.board.width, self.board.height, self.board.mine_cells,
                            players, variant == "advanced", look_at_face_down)
        ncells = self.board.width * self.board.height
        self._install(
            core, options,
            lambda key: build_move_table(core.layout, core.edges, self.board.width, ncells, key),
            edge_aliases,
        )

    @property
    def advanced(self) -> bool:
        return bool(self._options["variant"] == "advanced")

    def _normalise(self, text: str) -> str:
        return normalise(text)

    # --- the observation tensor (observation.py) ---

    def _observation_layout(self) -> ObservationLayout:
        return observation.observation_layout(self.num_players, self.advanced,
                                              self.board.width, self.board.height)

    def _observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        return observation.observation_from_view(view, player)

    @classmethod
    def check_saved_options(cls, options: dict[str, Any]) -> None:
        """A saved state names a shipped board or carries the board itself, never a path."""
        refuse_board_paths(options, DEFAULT_BOARD, shipped_boards())

    def _redact(self, move: ArmadoraMove, mover: int, viewer: int | None) -> str:
        """rule 3, warriors: a warrior is placed face down -- others see where, not its strength
        (nor does its owner's log show it when he may not look at his own warriors)."""
        own = mover == viewer and self._options["look_at_face_down"]
        if move.kind == "warrior" and not own:
            return f"?@{move.square}"
        return str(move)

    def square(self, cell: int) -> str:
        return square_name(cell, self.board.width)

    def _square_cell(self, name: str | None) -> int:
        """The cell number of a square's name (``c2`` -> 10 on the printed board)."""
        assert name is not None
        return (int(name[1:]) - 1) * self.board.width + "abcdefgh".index(name[0])

    # --- positions and events (position.py, events.py) ---

    def _position_text(self, raw: dict[str, Any]) -> str:
        return position_text(self, raw)

    def _position_raw(self, text: str) -> dict[str, Any]:
        return position_raw(self, text)

    def _events(self, before: dict[str, Any], action: int, mover: int,
                after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        return armadora_events(self, before, action, mover, after)

    def _redact_event(self, event: Event, viewer: int | None) -> Event | None:
        return redact_armadora_event(self, event, viewer)

    # --- where moves land, and pictures (render.py) ---

    def _locations(self, move: ArmadoraMove) -> tuple[str, ...]:
        """The square of a warrior, a power's target or the reinforcement token; the
        gap of a palisade, named as the notation writes it (``"c2-d2"``)."""
        if move.edge is not None:
            return (f"{move.edge[0]}-{move.edge[1]}",)
        return (move.square,) if move.square is not None else ()

    def _redacted_locations(self, text: str) -> tuple[str, ...] | None:
        """Another player's warrior, ``?@c2`` in a log: its square."""
        if not text.startswith("?@"):
            return None
        square = text[2:]
        board = self.board
        if _REDACTED_SQUARE.fullmatch(square) and "abcdefgh".index(square[0]) < board.width \
                and int(square[1:]) <= board.height:
            return (square,)
        raise InvalidMoveError(f"not an Armadora move: {text!r} (a hidden warrior is "
                               "written '?@' and its square, '?@c2')", "not_notation")

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        from boardrules.games.armadora.render import render_svg

        return render_svg(self._check_view(view), size=56 if size is None else size,
                          highlight=highlight, marks=marks, arrows=arrows)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules.games.armadora.render import render_text

        return render_text(self._check_view(view))


class ArmadoraState(State[ArmadoraMove]):
    """An Armadora game in progress."""

    __slots__ = ()
    _game: ArmadoraGame

    @property
    def game(self) -> ArmadoraGame:
        """The game this is a state of, as its own class."""
        return self._game

    @property
    def phase(self) -> str:
        """``gold``/``race`` (setup chance), ``turn``, ``after_power``,
        ``second_palisade`` or ``over``."""
        return PHASES[self._raw()["phase"]]

    # --- scoring ---

    def score(self) -> tuple[int, ...]:
        """Each player's gold were the game scored now (rule 5, scoring).  It reads every
        face-down warrior: show a player :meth:`view` instead."""
        gold, _ = self._game._core.scoring(self._core)
        return tuple(gold)

    def piles(self) -> tuple[tuple[int, ...], ...]:
        """Each player's gold piles, largest first, were the game scored now."""
        _, piles = self._game._core.scoring(self._core)
        return tuple(tuple(p) for p in piles)

    def gold_by_territory(self) -> list[dict[str, Any]]:
        """Where the gold lies and who takes it, were the game scored now (rule 5): for
        each territory (ordered by its first square) its ``squares``, its ``mines`` with
        their gold, its ``gold``, each player's total ``strength`` there and each
        player's ``share``.  Like :meth:`score` it reads every face-down warrior (at the
        end of the game they are revealed)."""
        game = self._game
        raw_gold = self._raw()["gold"]
        return [
            {"squares": [game.square(c) for c in cells],
             "mines": {game.square(c): raw_gold[c] for c in cells
                       if c in game.board.mine_cells},
             "gold": gold, "strength": strength, "share": share}
            for cells, gold, strength, share in game._core.territory_results(self._core)
        ]

    def team_scores(self) -> tuple[int, ...]:
        gold = self.score()
        return tuple(sum(gold[p] for p in team) for team in self._game.teams)

    def outcome(self) -> Outcome | None:
        if self._core.current_player != TERMINAL:
            return None
        game = self._game
        places = game._core.team_places(self._core)
        team_of = game._core.team_of
        ranking = tuple(places[team_of[p]] for p in range(game.num_players))
        return Outcome(
            winners=tuple(p for p in range(game.num_players) if ranking[p] == 1),
            ranking=ranking,
            scores=self.score(),
            team_scores=self.team_scores(),
            returns=self.returns(),
            reason=Termination.ALL_PASSED,
        )

    # --- what each player sees ---

    def _last_peek_cell(self, raw: dict[str, Any]) -> int | None:
        last = raw["last_action"]
        layout = self._game._core.layout
        if layout["peek"] <= last < layout["arrow"]:
            return int(last - layout["peek"])
        return None

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> ArmadoraView:
        """What ``player`` may see (``None``: a spectator), JSON-ready.

        Face-down warriors show their strength only to their owner (unless the
        ``look_at_face_down`` option is off) and to a Mage who peeked at them; everyone
        else sees ``"strength": null``.  Once the game is over every strength on the
        board shows, to spectators too (rule 5, victory: the face-down warriors are turned
        over to score).  Only the viewer's own screen (``pool``) is shown.
        """
        game = self._game
        self._check_viewer(player)
        raw = self._raw()
        look = game._options["look_at_face_down"]
        # rule 5, victory: every face-down warrior is turned over when the game is scored
        revealed = self.is_terminal()
        known = set(raw["known"][player]) if player is not None else set()
        squares: list[ArmadoraSquareView] = []
        for c in range(game.board.width * game.board.height):
            owner = raw["owner"][c]
            warrior: ArmadoraWarriorView | None = None
            if owner >= 0:
                visible = (revealed or raw["face_up"][c]
                           or (look and (owner == player or c in known)))
                warrior = {
                    "owner": owner,
                    "strength": raw["strength"][c] if visible else None,
                    "face_up": raw["face_up"][c],
                    "arrows": raw["arrows"][c],
                    "reinforced": raw["reinforced"][c],
                }
            is_mine = c in game.board.mine_cells
            squares.append({
                "square": game.square(c),
                "mine": is_mine,
                "gold": raw["gold"][c] if is_mine and raw["gold"][c] else None,
                "warrior": warrior,
            })
        view: ArmadoraView = {
            "game": game.id,
            "options": dict(game.options),
            "viewer": player,
            "phase": PHASES[raw["phase"]],
            "current_player": self.current_player,
            "width": game.board.width,
            "height": game.board.height,
            "squares": squares,
            "palisades": [str(game._moves[game._core.layout["palisade"] + e])
                          for e in raw["palisades"]],
            "palisades_left": raw["palisades_left"],
            "territories": [[game.square(c) for c in t]
                            for t in game._core.territories(self._core)],
            "unplaced_gold": _unplaced(raw["gold_left"]),
            "players": [self._player_view(raw, q, player) for q in range(game.num_players)],
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }
        peek = self._last_peek_cell(raw)
        if (not look and player is not None and peek is not None
                and raw["race"][player] == RACES.index("mage")):
            view["peek"] = {"square": game.square(peek), "strength": raw["strength"][peek]}
        return view

    def _player_view(self, raw: dict[str, Any], q: int,
                     viewer: int | None) -> ArmadoraPlayerView:
        race = raw["race"][q]
        return {
            "player": q,
            "team": self._game._core.team_of[q],
            "race": None if race is None else RACES[race],
            "power_tokens": raw["power_tokens"][q],
            "reinforcement_left": raw["reinforcement_left"][q],
            "passed": raw["passed"][q],
            "warriors_left": sum(raw["pool"][q]),
            "pool": list(raw["pool"][q]) if q == viewer else None,
        }

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Gold (on the mines plus unplaced: 40), palisades (on the board plus in the
        supply: 35), each player's warriors (on the board plus behind his screen), and in
        the advanced game the reinforcement tokens and the ability tokens whose use leaves
        a mark (elf arrows on the board, goblin warriors face up)."""
        from boardrules._ext.armadora import GOLD_PILES, PALISADES, RACE_TOKENS, WARRIOR_SETS

        game = self._game
        raw = self._raw()
        n = game.num_players
        result = {
            "gold": (sum(raw["gold"]) + sum(_unplaced(raw["gold_left"])), sum(GOLD_PILES)),
            "palisades": (len(raw["palisades"]) + raw["palisades_left"], PALISADES),
        }
        for q in range(n):
            on_board = sum(1 for owner in raw["owner"] if owner == q)
            result[f"warriors[{q}]"] = (on_board + sum(raw["pool"][q]), sum(WARRIOR_SETS[n]))
        if game.advanced and raw["phase"] >= PHASES.index("turn"):
            result["reinforcement"] = (
                sum(raw["reinforced"]) + sum(raw["reinforcement_left"]), n)
            marks = {"elf": sum(raw["arrows"]), "goblin": sum(raw["face_up"])}
            for q in range(n):
                race = RACES[raw["race"][q]]
                if race in marks:
                    result[f"{race}_tokens"] = (raw["power_tokens"][q] + marks[race],
                                                RACE_TOKENS[RACES.index(race)])
        return result

    # --- persistence ---

    def _snapshot(self) -> dict[str, Any]:
        game = self._game
        raw = self._raw()
        ncells = game.board.width * game.board.height
        return {
            "phase": PHASES[raw["phase"]],
            "current_player": self.current_player,
            "palisades_left": raw["palisades_left"],
            "passed": raw["passed"],
            "warriors": [
                {"square": game.square(c), "owner": raw["owner"][c],
                 "strength": raw["strength"][c], "face_up": raw["face_up"][c],
                 "arrows": raw["arrows"][c], "reinforced": raw["reinforced"][c]}
                for c in range(ncells) if raw["owner"][c] >= 0
            ],
            "gold": [{"square": game.square(c), "gold": raw["gold"][c]}
                     for c in game.board.mine_cells if raw["gold"][c]],
            "palisades": [str(game._moves[game._core.layout["palisade"] + e])
                          for e in raw["palisades"]],
            "unplaced_gold": _unplaced(raw["gold_left"]),
            "players": [
                {"race": None if raw["race"][q] is None else RACES[raw["race"][q]],
                 "power_tokens": raw["power_tokens"][q],
                 "reinforcement_left": raw["reinforcement_left"][q],
                 "pool": raw["pool"][q],
                 "peeked": [game.square(c) for c in raw["known"][q]]}
                for q in range(game.num_players)
            ],
        }

    # --- pictures ---

    def render_text(self, player: int | None = None) -> str:
        """The board as text (``print(state)`` shows it for a spectator): ``player=None``
        a spectator's view, every face-down strength a ``?``; ``player=p`` what p may see
        (his own strengths, the ones he peeked at, his screen).  See the docs' Text board
        section for the symbols."""
        from boardrules.games.armadora.events import describe

        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text += "\nlast: " + "; ".join(describe(event) for event in last)
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 56) -> str:
        """An SVG picture of what ``player`` may see (``None``: a spectator, every
        face-down strength hidden); :meth:`render_svg_truth` shows them all.  The
        overlays are :meth:`Game.render_view_svg`'s (squares ``c2``, gaps ``c2-d2``)."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)

    def render_svg_truth(self, *, highlight: Sequence[str] = (),
                         marks: Sequence[tuple[str, str]] = (),
                         arrows: Sequence[tuple[str, str]] = (), size: int = 56) -> str:
        """An SVG picture of the whole truth: every strength shown (for analysis and
        docs, never for a player)."""
        view = self.view(None)
        raw = self._raw()
        for c, sq in enumerate(view["squares"]):
            if sq["warrior"] is not None:
                sq["warrior"]["strength"] = raw["strength"][c]
        return self._game.render_view_svg(view, highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)


def _unplaced(gold_left: list[int]) -> list[int]:
    return [v for v in range(len(gold_left)) for _ in range(gold_left[v])]


ArmadoraGame.state_class = ArmadoraState

__all__ = ["CHANCE", "ArmadoraGame", "ArmadoraMove", "ArmadoraState"]
