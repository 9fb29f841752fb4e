# Type stubs of the compiled Rome & Carthage rules core
# (src_ext/boardrules/_ext/rome_and_carthage.pyx).
from typing import Any

from boardrules._ext.core import CoreGame, CoreState

CARD_VALUE: tuple[int, ...]
DECK: tuple[int, ...]
ONE_EMPIRE_HAND: tuple[int, ...]
TWO_EMPIRE_HAND: tuple[int, ...]
ARMY_SET: tuple[int, ...]
KINDS: tuple[str, ...]
PHASES: tuple[str, ...]
END_REASONS: tuple[str, ...]
PLACE_QUOTA: tuple[int, ...]

class RomeCarthageCore(CoreGame):
    def __init__(self, city_empire: list[int], capitals: list[int],
                 land: list[list[int]], sea: list[list[int]], empires: list[list[int]],
                 empire_team: list[int], first_player: int, equal_arms: bool,
                 max_rounds: int, no_progress_rounds: int, rapid: bool = False,
                 explicit_consent: bool = False) -> None: ...
    @property
    def layout(self) -> dict[str, int]: ...
    @property
    def pairs(self) -> list[tuple[int, int]]: ...
    @property
    def holder(self) -> list[int]: ...
    @property
    def initial_pile(self) -> list[list[int]]: ...
    def export(self, st: CoreState) -> dict[str, Any]: ...
    def turn_players(self, st: CoreState) -> list[int]: ...
    def capital_occupied(self, st: CoreState, player: int) -> bool: ...
    def cards_needed(self, st: CoreState) -> int: ...
    def illegal_reason(self, st: CoreState, action: int) -> str: ...

def equal_arms_split(pile: list[int]) -> list[list[int]]: ...
