"""Move suggestions and bots: the Python front of the compiled search core
(``src_ext/boardrules/_ext/search.pyx``), which knows only the C-level game contract."""

from boardrules.search.bots import (
    AlphaBetaBot,
    Bot,
    GreedyBot,
    ISMCTSBot,
    MCTSBot,
    RandomBot,
)
from boardrules.search.suggest import (
    MoveEstimate,
    SearchHandle,
    SearchOptions,
    Suggestion,
    check_options,
    suggest,
)

__all__ = ["AlphaBetaBot", "Bot", "GreedyBot", "ISMCTSBot", "MCTSBot", "MoveEstimate",
           "RandomBot", "SearchHandle", "SearchOptions", "Suggestion", "check_options",
           "suggest"]
