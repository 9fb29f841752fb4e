"""Suite-wide test configuration: the markers that skip a test only where it cannot run.

``needs_address_limit``: the test sets an address-space limit (``RLIMIT_AS``) on a child
interpreter.  Under AddressSanitizer (``.ci/sanitize.sh`` sets
``BOARDRULES_UNDER_SANITIZER=1``) the sanitizer reserves terabytes of shadow memory at start,
so any such limit kills the child before the test's code runs: it is skipped there, and
only there (the optimised and bounds-checked runs of the suite run it).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from typing import Any

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


# --- a failed child process shows why it failed ---

@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Iterator[Any]:
    """A test that ends in ``CalledProcessError`` (``subprocess.run(..., check=True,
    capture_output=True)``) reports the child's standard output and error beside the
    traceback: without them "returned non-zero exit status 1" hides the cause (a build
    tool missing from the ``test`` extra once failed that way, silently)."""
    report = yield
    error = call.excinfo.value if call.excinfo is not None else None
    if isinstance(error, subprocess.CalledProcessError):
        for stream, data in (("stdout", error.stdout), ("stderr", error.stderr)):
            if data:
                text = data.decode(errors="replace") if isinstance(data, bytes) else str(data)
                report.sections.append((f"the failed child process's {stream}",
                                        text[-20_000:]))
    return report


# --- a real browser: Debian's chromium driven by Selenium (chromium-driver) ---

#: ``.ci/run`` sets this: there a missing browser fails the browser tests; elsewhere (a
#: developer's machine without chromium) they are skipped with the reason.
REQUIRE_BROWSER = os.environ.get("BOARDRULES_REQUIRE_BROWSER", "0") == "1"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="session")
def browser() -> Any:
    """One headless Chromium for the session's browser tests (a Selenium ``WebDriver``).

    Each test loads its own page (``browser.get(url)``); the window is 1280 x 900 CSS
    pixels, a laptop screen."""
    import shutil

    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if shutil.which(path) is None]
    if missing:
        reason = (f"{', '.join(missing)} not installed "
                  "(Debian: apt-get install chromium chromium-driver)")
        if REQUIRE_BROWSER:
            pytest.fail(reason)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
