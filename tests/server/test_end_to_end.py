"""Whole games against a real server process (``python3 -m byzantium serve`` on a free
port, a temporary SQLite file), over HTTP and WebSocket as any frontend would play."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.server.serving import ROOT, Served
from tests.server.support import Json, bearer, server_process, settled_view

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def play(
    client: httpx.Client,
    game_id: str,
    tokens: dict[str, str],
    rng: random.Random,
    *,
    until: Json = None,
    most: int = 5000,
) -> Json:
    """Play the person seats by choosing offered actions until the game is over (or
    ``until(view)`` holds); returns the last view."""
    view = settled_view(client, game_id, None, picture="false")
    for _ in range(most):
        if view["status"] == "over" or (until is not None and until(view)):
            return view
        token = tokens[str(view["to_act"])]
        mine = settled_view(client, game_id, token, picture="false")
        assert mine["question"]["seat"] == view["to_act"]
        menu = [
            a
            for a in mine["question"]["actions"]
            if a["action"] != {"type": "Select", "item": "capitulate"}
        ]
        choice = rng.choice(menu or mine["question"]["actions"])
        acted = client.post(
            f"/api/games/{game_id}/act",
            json={"seq": mine["seq"], "index": choice["index"]},
            headers=bearer(token),
        )
        assert acted.status_code == 200, acted.text
        view = settled_view(client, game_id, None, picture="false")
    raise AssertionError("the game did not end")


def test_a_sword_game_played_to_its_end_over_http_passes_verify(tmp_path: Path) -> None:
    with server_process(tmp_path / "games.db") as server, server.client() as client:
        made = client.post(
            "/api/games", json={"game": "sword-of-orthodoxy", "seats": [{"player": "person"}]}
        )
        assert made.status_code == 201
        game = made.json()
        final = play(client, game["game_id"], game["tokens"], random.Random(1))
        assert final["result"]["level"]
        record = client.get(f"/api/games/{game['game_id']}/record")
        assert record.status_code == 200
        path = tmp_path / "game.json"
        path.write_bytes(record.content)
        assert len(record.json()["steps"]) == final["seq"]
    checked = subprocess.run(
        [sys.executable, "-m", "byzantium", "verify", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_belisarius_two_people_for_a_few_game_turns_with_a_live_socket(tmp_path: Path) -> None:
    """Two person seats (one created, one joined): into the second game turn; a spectator's
    socket follows the game live."""
    with server_process(tmp_path / "games.db") as server, server.client() as client:
        made = client.post(
            "/api/games",
            json={
                "game": "belisarius",
                "options": {"scenario": 1},
                "seats": [{"player": "person"}, {"player": "open"}],
            },
        ).json()
        joined = client.post(f"/api/games/{made['game_id']}/join", json={"seat": 1}).json()
        tokens = {"0": made["tokens"]["0"], "1": joined["token"]}
        seen: list[Json] = []

        async def watch() -> None:
            import websockets

            url = server.url.replace("http", "ws") + f"/api/games/{made['game_id']}/socket"
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None, "picture": False}))
                while len(seen) < 5:
                    seen.append(json.loads(await ws.recv()))

        loop = asyncio.new_event_loop()
        watcher = loop.create_task(watch())
        loop.run_until_complete(asyncio.sleep(0.5))
        view = play(
            client,
            made["game_id"],
            tokens,
            random.Random(2),
            until=lambda v: v["observation"]["turn"] >= 2,
        )
        loop.run_until_complete(asyncio.wait_for(watcher, 30))
        loop.close()
        assert view["status"] == "over" or view["observation"]["turn"] >= 2
        assert all(m["type"] == "view" and m["seat"] is None for m in seen)
        assert [m["seq"] for m in seen] == sorted({m["seq"] for m in seen})
        assert seen[-1]["seq"] > seen[0]["seq"]
        info = client.get(f"/api/games/{made['game_id']}").json()
        assert [s["taken"] for s in info["seats"]] == [True, True]
        assert server.alive()


def test_belisarius_against_a_built_in_player_and_a_restart(tmp_path: Path) -> None:
    """A person against the sensible player; the server is stopped and started again
    in the middle, and the game goes on where it was."""
    database = tmp_path / "games.db"
    rng = random.Random(3)
    with server_process(database) as server, server.client() as client:
        made = client.post(
            "/api/games",
            json={
                "game": "belisarius",
                "options": {"scenario": 2},
                "seats": [{"player": "sensible"}, {"player": "person"}],
            },
        ).json()
        view = play(client, made["game_id"], made["tokens"], rng, until=lambda v: v["seq"] >= 150)
        before = view["seq"]
    with server_process(database) as server, server.client() as client:
        again = settled_view(client, made["game_id"], made["tokens"]["1"], picture="false")
        assert again["seq"] >= before
        view = play(
            client,
            made["game_id"],
            made["tokens"],
            rng,
            until=lambda v: v["observation"]["turn"] >= 2,
        )
        assert view["status"] == "over" or view["observation"]["turn"] >= 2
        steps = client.get(
            f"/api/games/{made['game_id']}/view", params={"since": 0, "picture": "false"}
        ).json()["chronicle"]
        assert any(entry["actor"] == 0 for entry in steps)  # the built-in player played


def test_the_server_refuses_bad_arguments_in_one_line(tmp_path: Path) -> None:
    for arguments, said in (
        (["--port", "70000"], "port"),
        (["--database", str(tmp_path)], "directory"),
        (["--database", "postgresql://nobody@127.0.0.1:1/none"], ""),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "byzantium", "serve", "--port", "0", *arguments],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            timeout=60,
            check=False,
        )
        assert done.returncode == 2
        assert done.stderr.startswith("byzantium: ") and done.stderr.count("\n") == 1, done.stderr
        assert said in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "byzantium-games.db").exists()


def test_a_busy_port_is_one_line(tmp_path: Path) -> None:
    server = Served(str(tmp_path / "games.db"), tmp_path)
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "byzantium",
                "serve",
                "--port",
                str(server.port),
                "--database",
                str(tmp_path / "other.db"),
            ],
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            timeout=60,
            check=False,
        )
        assert done.returncode == 2
        assert "cannot listen" in done.stderr and done.stderr.count("\n") == 1
    finally:
        server.stop()
