"""The server as a real process on a loopback port, for tests and the load benchmark.

>>> with ServerProcess(Path("/tmp/t.sqlite")) as server:      # doctest: +SKIP
...     httpx.get(server.url + "/games").status_code
200

:meth:`ServerProcess.kill` is ``kill -9``: no shutdown code runs, which is what the
restart test needs to show that nothing acknowledged is lost.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

import httpx

SERVE = Path(__file__).with_name("serve.py")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``serve.py`` on ``db`` at ``127.0.0.1:<port>`` (a free port unless given), its
    output in ``log``; ``log_level`` None runs it at its default log level."""

    def __init__(self, db: Path, *, port: int | None = None,
                 args: tuple[str, ...] = (), log: Path | None = None,
                 log_level: str | None = "warning") -> None:
        self.db = db
        self.port = port or free_port()
        self.args = args
        self.log_level = log_level
        self.log = log or db.with_name(db.name + ".log")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        """Start the process and wait until it answers (its tables are loaded by then)."""
        env = dict(os.environ)  # serve.py finds the examples package itself
        level = [] if self.log_level is None else ["--log-level", self.log_level]
        command = [sys.executable, str(SERVE), "--db", str(self.db), "--port", str(self.port),
                   *level, *self.args]
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: "
                                   f"{self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/games", timeout=2.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"the server did not answer within {timeout} s")
            time.sleep(0.1)

    def kill(self) -> None:
        """``kill -9``: the process ends at once, mid-whatever it was doing."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 15.0) -> None:
        """A clean stop (SIGTERM: uvicorn's shutdown), ``kill -9`` if it takes too long."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()
