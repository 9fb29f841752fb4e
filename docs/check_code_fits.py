"""Check that every code block and picture of the built docs fits its page.

Usage (after the HTML build)::

    python docs/check_code_fits.py BUILD_DIR

Opens every HTML page of ``BUILD_DIR`` in headless Chromium (Selenium, with Debian's
``/usr/bin/chromium`` and ``/usr/bin/chromedriver``) at a 1280 x 900 window and at 800 px
wide, and fails (exit status 1) listing each page, width and offender when a code block
(``pre``) needs a horizontal scroll (``scrollWidth > clientWidth``: part of it is clipped
until the reader scrolls), when a picture is wider than the block that holds it, or when
the page itself scrolls sideways.  Exit status 2: no browser, or no pages to check.
``tests/test_docs_fit.py`` holds the static half: no code line of the pages' sources over
88 characters.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: (width, height) of the windows the pages are read in: a laptop screen, and a narrow
#: window (a tablet, or a browser beside an editor).
WINDOWS = ((1280, 900), (800, 900))
#: Sub-pixel rounding: a block 0.5 px too wide is not clipped.
TOLERANCE_PX = 1

#: Runs in the page: each visible ``pre`` that scrolls sideways, each picture wider than
#: the block around it (an ``a`` around an image is inline: the block is further up), and
#: the page itself when anything else makes it scroll sideways (a table scrolls in its own
#: box, which is not counted).
FIND_OFFENDERS = """
const tolerance = arguments[0];
const found = [];
const shown = (el) => el.getClientRects().length > 0;
for (const pre of document.querySelectorAll("pre")) {
  if (shown(pre) && pre.scrollWidth > pre.clientWidth + tolerance) {
    const first = pre.textContent.split("\\n").find((line) => line.trim()) || "";
    found.push({kind: "code", what: first.trim().slice(0, 100),
                needs: pre.scrollWidth, has: pre.clientWidth});
  }
}
const blockAround = (el) => {
  let box = el.parentElement;
  while (box && getComputedStyle(box).display.startsWith("inline")) {
    box = box.parentElement;
  }
  return box;
};
for (const img of document.querySelectorAll("img")) {
  const box = blockAround(img);
  if (!shown(img) || !box) continue;
  const style = getComputedStyle(box);
  const room = box.clientWidth - parseFloat(style.paddingLeft)
               - parseFloat(style.paddingRight);
  const width = img.getBoundingClientRect().width;
  if (width > room + tolerance) {
    found.push({kind: "image", what: img.getAttribute("src"),
                needs: Math.round(width), has: Math.round(room)});
  }
}
const page = document.documentElement;
if (page.scrollWidth > page.clientWidth + tolerance) {
  found.push({kind: "page", what: "the page itself scrolls sideways",
              needs: page.scrollWidth, has: page.clientWidth});
}
return found;
"""


@dataclass(frozen=True)
class Offender:
    page: str
    window: int
    kind: str      # "code", "image" or "page"
    what: str      # the block's first line, or the image's address
    needs: int     # px
    has: int       # px

    def __str__(self) -> str:
        return (f"{self.page} at {self.window} px: {self.kind} {self.needs} px wide in "
                f"{self.has} px: {self.what}")


def pages_of(build_dir: Path) -> list[Path]:
    """The HTML pages of a Sphinx build (not the copies of sources and static files)."""
    return sorted(page for page in build_dir.rglob("*.html")
                  if not {"_sources", "_static", "_images"} & set(page.parts))


def start_browser() -> Any:
    """Headless Chromium, configured as tests/conftest.py's ``browser`` fixture."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--disable-gpu", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


def set_viewport(driver: Any, width: int, height: int) -> None:
    """The page's viewport at exactly ``width`` CSS px (a window's size includes its
    frame, and headless Chromium's differs from one version to the next)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def check_pages(driver: Any, build_dir: Path, pages: list[Path]) -> list[Offender]:
    """Every offender of ``pages`` (under ``build_dir``) at each of :data:`WINDOWS`; the
    browser's own window size is restored afterwards (a test session shares it)."""
    offenders: list[Offender] = []
    try:
        for page in pages:
            # Loaded once, measured at each width: the page lays itself out again for
            # the new viewport (its media queries included) before the script reads it.
            set_viewport(driver, *WINDOWS[0])
            driver.get(page.resolve().as_uri())
            for width, height in WINDOWS:
                set_viewport(driver, width, height)
                for found in driver.execute_script(FIND_OFFENDERS, TOLERANCE_PX):
                    offenders.append(Offender(str(page.relative_to(build_dir)), width,
                                              found["kind"], found["what"],
                                              int(found["needs"]), int(found["has"])))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return sorted(offenders, key=lambda o: (o.window != WINDOWS[0][0], o.page))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir", type=Path, help="a Sphinx HTML build")
    args = parser.parse_args(argv)
    pages = pages_of(args.build_dir)
    if not pages:
        print(f"no HTML pages in {args.build_dir}", file=sys.stderr)
        return 2
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if shutil.which(path) is None]
    if missing:
        print(f"{', '.join(missing)} not installed "
              "(Debian: apt-get install chromium chromium-driver)", file=sys.stderr)
        return 2
    started = time.monotonic()
    driver = start_browser()
    try:
        offenders = check_pages(driver, args.build_dir, pages)
    finally:
        driver.quit()
    elapsed = time.monotonic() - started
    for offender in offenders:
        print(offender)
    windows = " and ".join(f"{width} px" for width, _ in WINDOWS)
    verdict = (f"{len(offenders)} offenders" if offenders
               else "every code block, picture and page fits")
    print(f"{len(pages)} pages at {windows} in {elapsed:.0f} s: {verdict}")
    return 1 if offenders else 0


if __name__ == "__main__":
    sys.exit(main())
