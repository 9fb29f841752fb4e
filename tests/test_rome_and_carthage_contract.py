"""Rome & Carthage passes the integrator contract's conformance checks of positions,
events and forced steps (boardrules.testing.CONTRACT_CHECKS) for every example option
set."""

from __future__ import annotations

import pytest

from boardrules.games.rome_and_carthage import RomeCarthageGame
from boardrules.testing import CONTRACT_CHECKS


@pytest.mark.parametrize("name", sorted(CONTRACT_CHECKS))
@pytest.mark.parametrize("options", RomeCarthageGame.example_options,
                         ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_contract_checks(options: dict[str, object], name: str) -> None:
    CONTRACT_CHECKS[name](RomeCarthageGame(**options), games=1)  # type: ignore[arg-type]
