# Type stubs of the compiled toy commit game (src_ext/boardrules/_ext/toy_commit.pyx), a
# test fixture of the search core (not a registered game).
from collections.abc import Sequence
from typing import Any

from boardrules._ext.core import CoreGame, CoreState

RPS: tuple[float, ...]

class ToyCommitCore(CoreGame):
    def __init__(self, payoff: Sequence[float] | None = ..., rounds: int = ...) -> None: ...
    @property
    def payoff(self) -> tuple[float, ...]: ...
    @property
    def rounds(self) -> int: ...
    def export(self, st: CoreState) -> dict[str, Any]: ...
    def illegal_reason(self, st: CoreState, action: int) -> str: ...
