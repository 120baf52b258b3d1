"""Helpers for the server's tests: an in-process client, a real server process, and
waiting for the worker.

:func:`app_client` gives a Starlette ``TestClient`` over an in-memory SQLite store:
the bytes of each response are the application's own. :func:`server_process` starts
``python3 -m byzantium serve`` (:class:`~tests.server.serving.Served`) with a
temporary SQLite file, for the end-to-end tests.
"""

from __future__ import annotations

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
from tests.server.serving import Served

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


@contextmanager
def server_process(database: Path) -> Iterator[Served]:
    """``byzantium serve`` on a free port with this SQLite file, stopped at the end."""
    server = Served(str(database), database.parent)
    try:
        yield server
    finally:
        server.stop()
