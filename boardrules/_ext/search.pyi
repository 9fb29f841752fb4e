# Type stubs of the compiled search core (src_ext/boardrules/_ext/search.pyx).
from typing import Any

from boardrules._ext.core import CoreState

def run_mcts(st: CoreState, iterations: int, time_limit: float, exploration: float,
             rollout_limit: int, ismcts: bool, determinize_once: bool, observer: int,
             seed: int, threads: int) -> dict[str, Any]: ...
def run_alphabeta(st: CoreState, max_depth: int, time_limit: float, determinizations: int,
                  hidden: bool, observer: int, seed: int, tt_bits: int,
                  threads: int = ...) -> dict[str, Any]: ...
