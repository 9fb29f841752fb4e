# Type stubs of the compiled search core (src_ext/boardrules/_ext/search.pyx).
from collections.abc import Callable
from typing import Any

from boardrules._ext.core import CoreState

NODE_BYTES: int
RM_NODE_BYTES: int
AVAIL_NODE_BYTES: int
RUN_NODE_BYTES: int
MAX_TREE_NODES: int
POLL_SECONDS: float
TT_MIN_BITS: int
SIMULTANEOUS_MODES: dict[str, int]
MAX_HINTS: int
ROOT_SELECTIONS: dict[str, int]
ROLLOUT_POLICIES: dict[str, int]
MIN_ANSWER_VISITS: int
MIN_SURE_VISITS: int
ANSWER_VARIANCE_FLOOR: float
INF_STDERR: float

def run_mcts(st: CoreState, iterations: int, time_limit: float, exploration: float,
             rollout_limit: int, ismcts: bool, determinize_once: bool, observer: int,
             seed: int, threads: int, max_nodes: int = ...,
             should_stop: Callable[[], bool] | None = ...,
             simultaneous: str = ..., store: TreeStore | None = ...,
             game_key: object = ..., *, cpu_limit: float = ..., until_sure: bool = ...,
             z: float = ..., tie_tolerance: float = ..., var_floor: float = ...,
             root_selection: str = ...,
             rollout_policy: str = ..., rollout_epsilon: float = ...,
             solver: bool = ...) -> dict[str, Any]: ...

class TreeStore:
    def played(self, action: int) -> None: ...
    def clear(self) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def bytes(self) -> int: ...

def tree_node_bytes(st: CoreState, ismcts: bool, regret: bool) -> int: ...
def run_alphabeta(st: CoreState, max_depth: int, time_limit: float, max_nodes: int,
                  determinizations: int, hidden: bool, observer: int, seed: int,
                  tt_bits: int, threads: int = ...,
                  should_stop: Callable[[], bool] | None = ...,
                  max_memory: int = ...) -> dict[str, Any]: ...
def _long_search_selftest(st: CoreState, iterations: int, visits_offset: int,
                          stamp_start: int, seed: int = ...) -> dict[str, Any]: ...
