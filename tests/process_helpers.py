"""What the tests that start a real process and send it Ctrl-C share."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """In the child before it runs Python: SIGINT as a terminal's program has it (a suite
    started in the background or under nohup passes it on ignored, and Python then
    installs no handler: the child would play on through the test's Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
