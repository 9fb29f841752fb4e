# Type stubs of the compiled Albion rules core (src_ext/boardrules/_ext/albion.pyx).
from typing import Any

from boardrules._ext.core import CoreGame, CoreState

RESOURCES: tuple[str, ...]
TYPES: tuple[str, ...]
REGION_KINDS: tuple[str, ...]
PHASES: tuple[str, ...]
END_REASONS: tuple[str, ...]
RESOURCE_TOTALS: tuple[int, ...]
BUILDING_CAPS: tuple[int, ...]
PICTS_REMOVED: dict[int, tuple[int, int]]

class AlbionCore(CoreGame):
    def __init__(self, players: int, kinds: list[int], borders: list[list[int]],
                 picts: list[int], printed: list[int], laurel: list[bool],
                 first_player: int = 0, max_rounds: int = 100,
                 start_region_tribute: bool = False) -> None: ...
    @property
    def layout(self) -> dict[str, int]: ...
    @property
    def pay_masks(self) -> list[int]: ...
    @property
    def distances(self) -> list[list[int]]: ...
    @property
    def tribute_regions(self) -> list[bool]: ...
    def export(self, st: CoreState) -> dict[str, Any]: ...
    def illegal_reason(self, st: CoreState, action: int) -> str: ...
    def load(self, st: CoreState, raw: dict[str, Any]) -> None: ...
