"""``byzantium serve`` as a real process on any database (an SQLite file or a PostgreSQL
URL), for the durability and scale-out tests: started on a free port (``--port 0``,
the first line of output names it), stopped gently or killed with SIGKILL."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


class Served:
    """One ``byzantium serve`` process."""

    def __init__(self, database: str, directory: Path, *extra: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        self.log = (directory / f"serve-{time.monotonic_ns()}.log").open("w")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "byzantium",
                "serve",
                "--database",
                database,
                "--port",
                "0",
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
            cwd=directory,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/api", line)
        if found is None:
            self.kill()
            raise AssertionError(f"the server did not start: {line!r}")
        self.port = int(found.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60)

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no chance to finish anything."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)
        self._close()

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self._close()

    def _close(self) -> None:
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.log.close()
