# Type stubs of the compiled Armada rules core (src_ext/boardrules/_ext/armada.pyx).
from typing import Any

from boardrules._ext.core import CoreGame, CoreState

COLOURS: tuple[str, ...]
CARD_KINDS: tuple[str, ...]
PHASES: tuple[str, ...]
PLACE_WHAT: tuple[str, ...]
END_REASONS: tuple[str, ...]
WINDOW_POLICIES: tuple[str, ...]
ROUTE_KINDS: tuple[str, ...]
SHIP_PLACES: tuple[str, ...]
GROUPS: tuple[str, ...]
TWO_PLAYER_SEATS: tuple[int, ...]

class ArmadaCore(CoreGame):
    def __init__(self, players: int, groups: list[int], lairs: list[int],
                 islands: list[int], cities: list[bool], posts: list[int], nseas: int,
                 land: list[list[int]], sea: list[list[int]], coast: list[list[int]],
                 combat: list[list[int]], gold: list[int], tribes: list[int],
                 deck: list[int], start_bands: list[int], neutral: int = -1,
                 max_rounds: int = 60, recruitment: bool = False, cards: bool = False,
                 windows: int = 1) -> None: ...
    @property
    def layout(self) -> dict[str, int]: ...
    @property
    def routes(self) -> list[tuple[int, int, int]]: ...
    @property
    def coast_pairs(self) -> list[tuple[int, int]]: ...
    @property
    def sail_pairs(self) -> list[tuple[int, int]]: ...
    @property
    def colour_players(self) -> list[int]: ...
    @property
    def deck_totals(self) -> list[int]: ...
    def export(self, st: CoreState) -> dict[str, Any]: ...
    def drawers(self, st: CoreState) -> list[int]: ...
    def illegal_reason(self, st: CoreState, action: int) -> str: ...
    def load(self, st: CoreState, raw: dict[str, Any]) -> None: ...
