"""Albion: options, the Game and State facades over the compiled core.

The rules themselves live in ``src_ext/boardrules/_ext/albion.pyx``; this module
translates between moves and action ids, checks options, builds views and JSON, and
explains rejected moves.  It re-implements no rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from boardrules._ext.albion import (
    BUILDING_CAPS,
    END_REASONS,
    PHASES,
    PICTS_REMOVED,
    REGION_KINDS,
    RESOURCE_TOTALS,
    TYPES,
    AlbionCore,
)
from boardrules._ext.core import CoreState
from boardrules.api import CHANCE, TERMINAL, Game, Outcome, State, Termination
from boardrules.errors import InvalidOptionError
from boardrules.games.albion import observation
from boardrules.games.albion.board import DEFAULT_BOARD, Board, load_board, shipped_boards
from boardrules.games.albion.events import albion_events, describe
from boardrules.games.albion.moves import RESOURCES, AlbionMove, build_move_table, normalise
from boardrules.games.albion.position import check_figures, position_raw, position_text
from boardrules.games.albion.views import (
    AlbionView,
    BuildingView,
    BuildView,
    PlayerView,
    RegionView,
    ResourcesView,
)
from boardrules.games.board_files import refuse_board_paths
from boardrules.games.checks import check_index, check_int_option
from boardrules.observations import Observation, ObservationLayout

TERMINATIONS = {
    "three_settlements": Termination.THREE_SETTLEMENTS,
    "round_cap": Termination.ROUND_CAP,
}
DEFAULT_MAX_ROUNDS = 100
#: "Contents": 35 Picts (17 peace, 18 assault), 24 neutral movement markers, 4 settlers
#: and 3 legionnaires per colour.
PICTS_PEACE, PICTS_ASSAULT = 17, 18
NEUTRAL_MARKERS = 24
SETTLERS, LEGIONS = 4, 3
PLURALS = ("", "settlements", "fortresses", "ramparts", "plants")

#: Why the core refused an action: rule key -> message citing the rulebook section.
ILLEGAL_REASONS: dict[str, str] = {
    "unknown_action": "no such move in this game",
    "legal": "the move is legal",
    "game_over": "the game is over (Game End and Victory)",
    "chance_expected": "a face-down Pict is being turned over (3) Turn Over a Face-Down "
                       "Pict): apply one of state.chance_outcomes()",
    "pict_pool_empty": "no unrevealed Pict of that kind is left (35 Picts: 17 peace, 18 "
                       "assault)",
    "not_chance": "a Pict turned over is a chance outcome, not a player's move",
    "setup_fortress": "Preparation: each player places his stage I fortress in one of the "
                      "two dark-green regions without imprinted Picts, in turn order",
    "setup_over": "the starting fortresses are placed during the Preparation only",
    "pay_pending": "1) Pay Resources: choose the resources paid first",
    "tribute_pending": "Tribute Payment with the Building: the tribute taker picks a paid "
                       "resource first",
    "loss_pending": "Defending an Assault: the player who lost a settlement stage decides "
                    "what it costs first",
    "figure_pending": "Settlement Stage I and II: take a settler or a legionnaire first",
    "free_pending": "Settlement Stage III: develop one of your buildings (not a "
                    "settlement) or skip",
    "payment_not_allowed": "a stage I costs 1 of any resource, stage II 2 different, stage "
                           "III 3 different, stage IV one of each, from your own resources",
    "tribute_not_paid": "Tribute Payment: pick one of the resources just paid",
    "no_figure_there": "a reduced settlement returns one of its owner's figures on the board",
    "reduce_not_allowed": "Settlement Stage III reduced: take another stage II or III "
                          "building token from the board, but not a settlement",
    "figure_not_available": "Settlement Stage I and II: only figures still in your play area",
    "free_development_not_allowed": "Settlement Stage III: one of your buildings on the "
                                    "board, not a settlement, by one stage",
    "nothing_pending": "no payment, tribute, loss or ability is pending",
    "resources_not_now": "B - Take Resources is a whole turn: only at its start",
    "launch_not_allowed": "Fortress Stage III: at the beginning of the movement, one settler "
                          "from the launching region on each of your stage III fortresses",
    "movement_over": "A - Moving and Building: all movement comes before the building",
    "no_settler_there": "you have no settler in that region",
    "no_legion_there": "you have no legionnaire in that region",
    "no_pict_to_carry": "Legionnaires: a legionnaire carries a face-down Pict of its region",
    "pict_drop_forbidden": "Legionnaires: the Picts may not be transported to light green or "
                           "resource regions",
    "move_nowhere": "a move goes to another region",
    "not_enough_points": "Movement Rules: each boundary crossed costs one movement point, "
                         "and the sea is never crossed",
    "no_free_settler": "Building: with a settler of yours in the region that has not built "
                       "this round",
    "one_building_per_region": "Each player may have only 1 building in each region "
                               "(develop it instead)",
    "wrong_region_for_building": "a resource plant only in its resource region; no other "
                                 "building there",
    "no_token_left": "Contents: 3 settlements, 3 fortresses, 2 ramparts and one plant of "
                     "each kind per player",
    "cannot_pay": "you cannot pay it (stage II 2 different resources, III 3, IV one of each)",
    "laurel_required": "Each player must establish at least one of his three settlements in "
                       "one of the three regions with a laurel wreath",
    "no_building_there": "you have no building in that region",
    "stage_four_permanent": "a stage IV settlement cannot be reduced (or removed)",
    "fully_developed": "settlements go up to stage IV, other buildings to stage III",
    "move_not_now": "no such move now",
}

_NOTATION = ("see the notation: 'resources', 'settler a-b', 'legion a-b', 'carry a-b', "
             "'launch r', 'build settlement r', 'develop r', 'remove r', 'pay fish+wood', "
             "'tribute fish', 'take legion', 'return settler r', 'reduce r', 'skip', "
             "'end', 'fortress r', 'pict assault'")


class AlbionGame(Game["AlbionState", AlbionMove]):
    """Albion (Klaus-Jürgen Wrede; AMIGO 2009) with its options fixed.

    Options:

    * ``players`` -- 2, 3 or 4.
    * ``first_player`` -- the start player ("The players choose a starting player in any
      way they want"; default 0); the others follow clockwise (in seat order).
    * ``max_rounds`` -- the library's round cap: the game ends after that round, a draw
      (default 100; the rule text does not guarantee an end).
    * ``start_region_tribute`` -- a house reading: tribute is also paid in the two
      starting regions (default ``False``: "Tribute must be paid only in the dark-green
      regions.  Those are the regions with Picts at the beginning of the game", and the
      starting regions have none; reading A1).
    * ``board`` -- a shipped board name (``"albion"``, reconstructed), the path of a board
      file, or its content as a mapping.
    """

    id: ClassVar[str] = "albion"
    name: ClassVar[str] = "Albion"
    rules_version: ClassVar[str] = "1.2"
    _core: AlbionCore
    max_move_text: ClassVar[int] = 48
    # random moves tell nothing here (random play never builds three stage IV
    # settlements): search evaluates its leaves at once, with a low exploration constant
    # because evaluate() separates the moves by small margins; 0.05 measured best of
    # 0.005-0.3 against 0.5.0's 0.02 (the docs' Bots section).  rollout_policy stays
    # "random" (no rollout move is played at rollout_limit 0): informed rollouts on the
    # core's action_values make playouts that win, but cost 4 to 50 times the leaf's
    # simulations and did not beat this search at equal CPU time a move (the docs'
    # "Search: informed rollouts")
    rollout_limit: ClassVar[int | None] = 0
    exploration: ClassVar[float | None] = 0.05
    # the iteration caps of suggest()'s strength levels: beside each level's CPU limit
    # (0.1 / 1 / 10 s) and its stop once the answer is sure, a cap the CPU limit reaches
    # first at the busy positions (docs: the search page's "Strength levels")
    search_levels: ClassVar[Mapping[str, int]] = {
        "fast": 30_000, "normal": 300_000, "strong": 3_000_000}
    illegal_reasons: ClassVar[Mapping[str, str]] = ILLEGAL_REASONS
    notation_hint: ClassVar[str] = _NOTATION
    # short games (a low round cap) keep the conformance kit fast
    example_options: ClassVar[tuple[dict[str, Any], ...]] = (
        {"players": 2, "max_rounds": 6},
        {"players": 3, "max_rounds": 5, "first_player": 2},
        {"players": 4, "max_rounds": 4, "start_region_tribute": True},   # A1's house rule
    )

    def __init__(self, players: int = 2, *, first_player: int = 0,
                 max_rounds: int = DEFAULT_MAX_ROUNDS, start_region_tribute: bool = False,
                 board: str | os.PathLike[str] | Mapping[str, Any] = DEFAULT_BOARD) -> None:
        check_int_option("players", players, 2, 4)
        check_int_option("first_player", first_player, 0, players - 1)
        check_int_option("max_rounds", max_rounds, 1, 10_000)
        if not isinstance(start_region_tribute, bool):
            raise InvalidOptionError("start_region_tribute must be a bool")
        self.board: Board = load_board(board)
        shipped = isinstance(board, str) and board in shipped_boards()
        options = {
            "players": players, "first_player": first_player, "max_rounds": max_rounds,
            "start_region_tribute": start_region_tribute,
            "board": board if shipped else self.board.to_json(),
        }
        b = self.board
        core = AlbionCore(
            players, [REGION_KINDS.index(r.kind) for r in b.regions], [list(p) for p in b.borders],
            b.picts_for(players), [r.printed_assault for r in b.regions],
            [r.laurel for r in b.regions], first_player, max_rounds, start_region_tribute)
        keys = [r.key for r in b.regions]
        self._install(core, options,
                      lambda key: build_move_table(core.layout, keys, core.pay_masks, key))

    def _observation_layout(self) -> ObservationLayout:
        return observation.observation_layout(self.num_players, len(self.board.regions))

    def _observation_from_view(self, view: Mapping[str, Any], player: int) -> Observation:
        return observation.observation_from_view(view, player)

    def _normalise(self, text: str) -> str:
        return normalise(text)

    @classmethod
    def check_saved_options(cls, options: dict[str, Any]) -> None:
        """A saved state names a shipped board or carries the board itself, never a path."""
        refuse_board_paths(options, DEFAULT_BOARD, shipped_boards())

    # --- positions (boardrules/games/albion/position.py; docs: "Position format") ---

    def _position_text(self, raw: dict[str, Any]) -> str:
        return position_text(raw, [r.key for r in self.board.regions])

    def _position_raw(self, text: str) -> dict[str, Any]:
        return position_raw(text, [r.key for r in self.board.regions], self.num_players)

    def _position_core(self, text: object) -> CoreState:
        """The checked position (the base class's checks), and then each colour's figures
        on the board as play leaves them (A18), which no conservation count sees."""
        core = super()._position_core(text)
        check_figures(self._core.export(core), self.num_players)
        return core

    # --- events (boardrules/games/albion/events.py; docs: "Events") ---

    def _events(self, before: dict[str, Any], action: int, mover: int,
                after: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        board = self.board
        return albion_events(self._core.layout, [r.key for r in board.regions],
                             [r.printed_assault for r in board.regions], before, action,
                             after)

    def region_key(self, region: int) -> str:
        """The notation key of the region with board index ``region``."""
        check_index("region", region, len(self.board.regions))
        return self.board.regions[region].key

    # --- where moves land, and pictures (render.py) ---

    def _locations(self, move: AlbionMove) -> tuple[str, ...]:
        """The region acted on; a movement's start, then its end; a launch from the
        launching region onto the fortress's region."""
        if move.kind == "launch":
            return (self.board.regions[self.board.launch].key, str(move.region))
        return tuple(region for region in (move.region, move.to) if region is not None)

    def render_view_svg(self, view: Mapping[str, Any], *, highlight: Sequence[str] = (),
                        marks: Sequence[tuple[str, str]] = (),
                        arrows: Sequence[tuple[str, str]] = (),
                        size: int | None = None) -> str:
        from boardrules.games.albion.render import render_svg

        return render_svg(self._check_view(view), self.board,
                          size=900 if size is None else size, highlight=highlight,
                          marks=marks, arrows=arrows)

    def render_view_text(self, view: Mapping[str, Any]) -> str:
        from boardrules.games.albion.render import render_text

        return render_text(self._check_view(view), self.board)


def _resources(counts: list[int]) -> ResourcesView:
    fish, wood, stone, gold = counts
    return {"fish": fish, "wood": wood, "stone": stone, "gold": gold}


class AlbionState(State[AlbionMove]):
    """An Albion game in progress."""

    __slots__ = ()
    _game: AlbionGame

    @property
    def game(self) -> AlbionGame:
        """The game this is a state of, as its own class."""
        return self._game

    @property
    def phase(self) -> str:
        """``setup``, ``move`` (a turn's start, launches and movement), ``build``, ``pay``,
        ``tribute``, ``reveal`` (chance), ``loss``, ``figure``, ``free`` or ``over``."""
        return str(PHASES[self._raw()["phase"]])

    # --- scoring ---

    def stage_four_settlements(self) -> tuple[int, ...]:
        """Each player's stage IV settlements ("The player needs the stage IV settlement
        for the game victory")."""
        return tuple(self._raw()["stage4"])

    def score(self) -> tuple[int, ...]:
        """Each player's stage IV settlements (the game has no points: three win)."""
        return self.stage_four_settlements()

    def production(self, player: int) -> ResourcesView:
        """What ``player`` takes with "B - Take Resources" (his plants' stages)."""
        self._check_viewer(player, spectator=False)
        return self._production(self._raw(), player)

    def _production(self, raw: dict[str, Any], player: int) -> ResourcesView:
        board = self._game.board
        out = []
        for kind in RESOURCES:
            r = board.resource_region(kind)
            plant = raw["btype"][r][player] == TYPES.index("plant")
            out.append(raw["bstage"][r][player] if plant else 0)
        return _resources(out)

    def defence(self, player: int, region: str) -> int:
        """``player``'s defence against an assault in ``region`` ("Defending an Assault":
        his legionnaires there and the stages of all his ramparts on the board)."""
        self._check_viewer(player, spectator=False)
        raw = self._raw()
        r = self._game.board.index(region)
        return int(raw["legions"][r][player] + raw["rampart_stages"][player])

    def outcome(self) -> Outcome | None:
        if self._core.current_player != TERMINAL:
            return None
        raw = self._raw()
        game = self._game
        winners = tuple(raw["winners"])
        ranking = tuple(1 if not winners or p in winners else 2
                        for p in range(game.num_players))
        scores = self.score()
        return Outcome(
            winners=winners if winners else tuple(range(game.num_players)),
            ranking=ranking,
            scores=scores,
            team_scores=scores,
            returns=self.returns(),
            reason=TERMINATIONS[END_REASONS[raw["end_reason"]]],
        )

    # --- what each player sees (nothing is hidden) ---

    # The view's own TypedDict (views.py) narrows State.view's Mapping[str, Any].
    def view(self, player: int | None) -> AlbionView:
        """What ``player`` may see (``None``: a spectator), JSON-ready (docs: "The
        view", field by field).  Albion hides nothing: face-down Picts are unknown to
        everyone (counts are shown)."""
        game = self._game
        self._check_viewer(player)
        raw = self._raw()
        players = range(game.num_players)
        regions: list[RegionView] = []
        for r, region in enumerate(game.board.regions):
            buildings: list[BuildingView] = []
            for p in players:
                kind = raw["btype"][r][p]
                if kind == 0:
                    continue
                pending = (raw["building"] and raw["b_region"] == r
                           and p == raw["turn_player"])
                buildings.append({"player": p, "type": TYPES[kind],
                                  "stage": raw["bstage"][r][p] + (1 if pending else 0),
                                  "face_down": pending})
            regions.append({
                "region": region.key, "kind": region.kind, "face_down": raw["face_down"][r],
                "assault": raw["face_up"][r], "printed_assault": region.printed_assault,
                "laurel": region.laurel, "buildings": buildings,
                "settlers": [raw["settlers"][r][p] for p in players],
                "legions": [raw["legions"][r][p] for p in players],
            })
        return {
            "game": game.id,
            "options": game.options,
            "viewer": player,
            "phase": PHASES[raw["phase"]],
            "current_player": self.current_player,
            "turn_player": raw["turn_player"],
            "start_player": game.options["first_player"],
            "round": raw["round"],
            "max_rounds": game.options["max_rounds"],
            "regions": regions,
            "players": [self._player_view(raw, p) for p in players],
            "supply": _resources(raw["supply"]),
            "neutral_markers": raw["neutral_supply"],
            "picts": {"unrevealed": raw["pool_assault"] + raw["pool_peace"],
                      "assault_unrevealed": raw["pool_assault"],
                      "peace_unrevealed": raw["pool_peace"],
                      "in_box": self._box(raw)},
            "points_left": raw["points"] if raw["phase"] == PHASES.index("move") else 0,
            "build": self._build_view(raw),
            "end_triggered": raw["end_triggered"],
            "winners": raw["winners"] if raw["phase"] == PHASES.index("over") else None,
            "end_reason": END_REASONS[raw["end_reason"]] or None,
            "legal_moves": ([str(m) for m in self.legal_moves()]
                            if player is not None and player == self.current_player else []),
        }

    def _box(self, raw: dict[str, Any]) -> int:
        """Picts in the box: removed by player count, the 2 unused ones, peace Picts
        turned over."""
        peace, assault = PICTS_REMOVED[self._game.num_players]
        return peace + assault + 2 + int(raw["box_peace"])

    def _player_view(self, raw: dict[str, Any], p: int) -> PlayerView:
        game = self._game
        on_board = sum(row[p] for row in raw["settlers"])
        legions = sum(row[p] for row in raw["legions"])
        return {
            "player": p,
            "resources": _resources(raw["res"][p]),
            "movement": 1 + raw["neutral"][p],
            "settlers_in_supply": SETTLERS - on_board,
            "legions_in_supply": LEGIONS - legions,
            "defence": raw["rampart_stages"][p],
            "production": self._production(raw, p),
            "stage4": raw["stage4"][p],
            "start_player": p == game.options["first_player"],
        }

    def _build_view(self, raw: dict[str, Any]) -> BuildView | None:
        if not raw["building"]:
            return None
        return {"region": self._game.region_key(raw["b_region"]),
                "type": TYPES[raw["b_type"]], "stage": raw["b_stage"],
                "free": raw["b_free"],
                "paid_left": [k for b, k in enumerate(RESOURCES) if raw["b_paid"] >> b & 1],
                "tribute_takers": raw["tribute_takers"]}

    def invariants(self) -> dict[str, tuple[int, int]]:
        """Resources (84: 24 fish, 22 wood, 20 stone, 18 gold, in hands and the supply),
        Picts (35: on the board, face up, in the box), the unrevealed pool against the
        face-down Picts plus the 2 in the box, neutral markers (24, held = the fortress
        stages I and II on the board, A10), each colour's figures and building tokens."""
        raw = self._raw()
        game = self._game
        n = game.num_players
        result: dict[str, tuple[int, int]] = {}
        for k, kind in enumerate(RESOURCES):
            held = raw["supply"][k] + sum(raw["res"][p][k] for p in range(n))
            result[f"resources.{kind}"] = (held, RESOURCE_TOTALS[k])
        peace, assault = PICTS_REMOVED[n]
        unrevealed = raw["pool_assault"] + raw["pool_peace"]
        result["picts"] = (unrevealed + sum(raw["face_up"]) + raw["box_peace"] + peace
                           + assault, PICTS_PEACE + PICTS_ASSAULT)
        result["picts.unrevealed"] = (unrevealed, sum(raw["face_down"]) + 2)
        held = sum(raw["neutral"])
        result["neutral_markers"] = (held + raw["neutral_supply"], NEUTRAL_MARKERS)
        fortress = TYPES.index("fortress")
        for p in range(n):
            stages = sum(min(raw["bstage"][r][p], 2) for r in range(len(raw["btype"]))
                         if raw["btype"][r][p] == fortress)
            result[f"neutral_markers[{p}]"] = (raw["neutral"][p], stages)
            result[f"settlers[{p}]"] = (sum(row[p] for row in raw["settlers"]),
                                        min(sum(row[p] for row in raw["settlers"]), SETTLERS))
            result[f"legions[{p}]"] = (sum(row[p] for row in raw["legions"]),
                                       min(sum(row[p] for row in raw["legions"]), LEGIONS))
            for t in range(1, len(TYPES)):
                built = sum(1 for r in range(len(raw["btype"])) if raw["btype"][r][p] == t)
                result[f"{PLURALS[t]}[{p}]"] = (built, min(built, BUILDING_CAPS[t]))
        return result

    # --- persistence ---

    def _snapshot(self) -> dict[str, Any]:
        raw = self._raw()
        game = self._game
        keys = [r.key for r in game.board.regions]
        return {
            "phase": PHASES[raw["phase"]],
            "current_player": self.current_player,
            "turn_player": raw["turn_player"],
            "round": raw["round"],
            "buildings": [{"region": keys[r], "player": p, "type": TYPES[raw["btype"][r][p]],
                           "stage": raw["bstage"][r][p]}
                          for r in range(len(keys)) for p in range(game.num_players)
                          if raw["btype"][r][p]],
            "settlers": raw["settlers"],
            "legions": raw["legions"],
            "face_down": raw["face_down"],
            "face_up": raw["face_up"],
            "resources": raw["res"],
            "supply": raw["supply"],
            "neutral": raw["neutral"],
            "picts": [raw["pool_assault"], raw["pool_peace"], raw["box_peace"]],
            "points": raw["points"],
            "winners": raw["winners"],
        }

    # --- pictures ---

    def render_text(self, player: int | None = None) -> str:
        """The board as text (``print(state)`` shows it)."""
        text = self._game.render_view_text(self.view(player))
        last = self.last_events(player)
        if last:
            text = text.rstrip("\n") + "\nlast: " + "; ".join(
                describe(e.kind, dict(e.data)) for e in last) + "\n"
        return text

    def render_svg(self, player: int | None = None, *, highlight: Sequence[str] = (),
                   marks: Sequence[tuple[str, str]] = (),
                   arrows: Sequence[tuple[str, str]] = (), size: int = 900) -> str:
        """An SVG picture of the position, with the overlays of
        :meth:`Game.render_view_svg` (regions by key)."""
        return self._game.render_view_svg(self.view(player), highlight=highlight, marks=marks,
                                          arrows=arrows, size=size)

    def render_svg_truth(self, *, highlight: Sequence[str] = (),
                         marks: Sequence[tuple[str, str]] = (),
                         arrows: Sequence[tuple[str, str]] = (), size: int = 900) -> str:
        """The same picture: nothing is hidden in Albion."""
        return self.render_svg(None, highlight=highlight, marks=marks, arrows=arrows,
                               size=size)


AlbionGame.state_class = AlbionState

__all__ = ["CHANCE", "AlbionGame", "AlbionMove", "AlbionState"]
