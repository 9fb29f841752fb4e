"""Suite-wide test configuration: the markers that skip a test only where it cannot run.

``needs_address_limit``: the test sets an address-space limit (``RLIMIT_AS``) on a child
interpreter.  Under AddressSanitizer (``.ci/sanitize.sh`` sets
``BOARDRULES_UNDER_SANITIZER=1``) the sanitizer reserves terabytes of shadow memory at start,
so any such limit kills the child before the test's code runs: it is skipped there, and
only there (the optimised and bounds-checked runs of the suite run it).
"""

from __future__ import annotations

import os

import pytest

UNDER_SANITIZER = os.environ.get("BOARDRULES_UNDER_SANITIZER", "0") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not UNDER_SANITIZER:
        return
    skip = pytest.mark.skip(
        reason="sets RLIMIT_AS, which AddressSanitizer's shadow memory cannot live within "
               "(run by the suite's other CI runs)")
    for item in items:
        if item.get_closest_marker("needs_address_limit") is not None:
            item.add_marker(skip)
