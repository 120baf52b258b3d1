"""Helpers for the server's tests: an in-process client, a real server process, and
waiting for the worker.

:func:`app_client` gives a Starlette ``TestClient`` over an in-memory SQLite store:
the bytes of each response are the application's own. :class:`ServerProcess` starts
``python3 -m byzantium serve`` on a free port (``--port 0``: the first line of its
output names the port) with a temporary SQLite file, for the end-to-end tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from byzantium.server.app import create_app
from byzantium.server.store import SQLiteStore

ROOT = Path(__file__).resolve().parents[2]

#: JSON as the tests read it.
Json = Any


@contextmanager
def app_client(path: str | Path = ":memory:") -> Iterator[TestClient]:
    """A client of a fresh application over an SQLite store (in memory by default)."""
    store = SQLiteStore(path)
    app = create_app(store, own_store=True)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_until(check: Callable[[], bool], seconds: float = 60.0) -> None:
    """Poll ``check`` until it holds (the worker takes chance and bots' steps)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the server did not get there in time")
        time.sleep(0.02)


def settled_view(
    client: TestClient | httpx.Client, game_id: str, token: str | None, **params: Any
) -> Json:
    """The view once the game waits for a person (or is over)."""
    headers = {} if token is None else bearer(token)
    found: list[Json] = []

    def ready() -> bool:
        info = client.get(f"/api/games/{game_id}").json()
        if info["status"] == "playing" and info["to_act"] is None:
            return False  # chance: the worker draws it
        if info["status"] == "playing":
            seat = info["seats"][info["to_act"]]
            if seat["player"] not in ("person", "open"):
                return False  # a built-in player thinks
        response = client.get(f"/api/games/{game_id}/view", headers=headers, params=params)
        assert response.status_code == 200, response.text
        view = response.json()
        if view["seq"] != info["seq"]:
            return False
        found.append(view)
        return True

    wait_until(ready)
    return found[-1]


class ServerProcess:
    """``byzantium serve`` in a subprocess on a free port, with its own database."""

    def __init__(self, database: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "byzantium",
                "serve",
                "--database",
                str(database),
                "--port",
                "0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=database.parent,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/api", line)
        if found is None:
            self.stop()
            raise AssertionError(f"the server did not start: {line!r}")
        self.port = int(found.group(1))
        self.url = f"http://127.0.0.1:{self.port}"

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> str:
        """Stop the server (SIGTERM, then SIGKILL); its standard error."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        assert self.process.stderr is not None
        err = self.process.stderr.read()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
        return err


@contextmanager
def server_process(database: Path) -> Iterator[ServerProcess]:
    server = ServerProcess(database)
    try:
        yield server
    finally:
        server.stop()
