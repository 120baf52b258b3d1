"""Scale-out on PostgreSQL (issue 38): two ``byzantium serve`` processes on one database
serve the same games. A player connected (WebSocket) to each sees the other's moves
live, told through the database's notifications; acts sent at once through both
processes on one game are serialised: exactly one succeeds per ``seq``."""

from __future__ import annotations

import functools
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from byzantium.server.postgres import PostgresStore
from tests.pg import PostgresServer
from tests.server.serving import Served

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
Json = Any


@pytest.fixture
def two_servers(tmp_path: Path, postgres: PostgresServer) -> Iterator[tuple[Served, Served, str]]:
    url = postgres.new_database()
    first = Served(url, tmp_path)
    try:
        second = Served(url, tmp_path)
    except BaseException:
        first.stop()
        raise
    yield first, second, url
    first.stop()
    second.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def socket(served: Served, game_id: str, token: str) -> ClientConnection:
    ws = connect(f"ws://127.0.0.1:{served.port}/api/games/{game_id}/socket", open_timeout=30)
    ws.send(json.dumps({"type": "hello", "token": token, "picture": False}))
    return ws


def seen_up_to(ws: ClientConnection, seq: int, seconds: float = 30.0) -> Json:
    """Views pushed on the socket until one is at ``seq`` or later; that one."""
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        assert message["type"] == "view", message
        if message["seq"] >= seq:
            return message


def settled(client: httpx.Client, game_id: str, tokens: dict[int, str]) -> tuple[int, Json]:
    """The seat asked and its view, once chance has been drawn."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        info = client.get(f"/api/games/{game_id}").json()
        seat = info["to_act"]
        if seat in tokens:
            view = client.get(
                f"/api/games/{game_id}/view",
                headers=bearer(tokens[seat]),
                params={"picture": "false", "since": info["seq"]},
            ).json()
            if view["seq"] == info["seq"] and view["question"] is not None:
                return seat, view
        time.sleep(0.01)
    raise AssertionError("the game never asked a person")


def at_once(calls: list[Callable[[], httpx.Response]]) -> list[httpx.Response]:
    """Make the requests at the same moment, one thread each; their answers."""
    start = threading.Barrier(len(calls))
    answers: list[httpx.Response | None] = [None] * len(calls)

    def send(k: int) -> None:
        start.wait(timeout=30)
        answers[k] = calls[k]()

    senders = [threading.Thread(target=send, args=(k,)) for k in range(len(calls))]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=120)
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


def test_players_on_two_processes_see_each_others_moves(
    two_servers: tuple[Served, Served, str],
) -> None:
    *servers, _ = two_servers
    with servers[0].client() as first, servers[1].client() as second:
        clients = (first, second)
        created = first.post(
            "/api/games",
            json={
                "game": "belisarius",
                "options": {"scenario": 1},
                "seats": [{"player": "person"}, {"player": "person"}],
                "seed": 5,
            },
        ).json()
        game_id = created["game_id"]
        tokens = {int(s): t for s, t in created["tokens"].items()}
        # Seat k plays through process k; its socket is there too.
        sockets = [socket(servers[k], game_id, tokens[k]) for k in (0, 1)]
        try:
            for ws in sockets:
                assert seen_up_to(ws, 0)["game_id"] == game_id
            rng = random.Random(3)
            moves = {0: 0, 1: 0}
            while min(moves.values()) < 3:
                seat, view = settled(first, game_id, tokens)
                choice = rng.choice(view["question"]["actions"])
                answer = clients[seat].post(
                    f"/api/games/{game_id}/act",
                    headers=bearer(tokens[seat]),
                    json={"seq": view["seq"], "action": choice["action"]},
                )
                assert answer.status_code == 200, answer.text
                moves[seat] += 1
                # The other seat's socket, on the other process, is told of the move.
                other = sockets[1 - seat]
                pushed = seen_up_to(other, view["seq"] + 1)
                assert pushed["seat"] == 1 - seat
                mine = [c for c in pushed["chronicle"] if c["seq"] == view["seq"] + 1]
                assert mine and mine[0]["actor"] == seat
        finally:
            for ws in sockets:
                ws.close()


def test_concurrent_acts_through_two_processes_one_wins(
    two_servers: tuple[Served, Served, str],
) -> None:
    *servers, url = two_servers
    with servers[0].client() as first, servers[1].client() as second:
        clients = (first, second)
        created = first.post(
            "/api/games",
            json={
                "game": "belisarius",
                "options": {"scenario": 2},
                "seats": [{"player": "person"}, {"player": "person"}],
                "seed": 8,
            },
        ).json()
        game_id = created["game_id"]
        tokens = {int(s): t for s, t in created["tokens"].items()}
        rng = random.Random(4)
        for _ in range(8):
            seat, view = settled(first, game_id, tokens)
            actions = view["question"]["actions"]
            picks = [rng.choice(actions), rng.choice(actions)]
            answers = at_once(
                [
                    functools.partial(
                        client.post,
                        f"/api/games/{game_id}/act",
                        headers=bearer(tokens[seat]),
                        json={"seq": view["seq"], "action": pick["action"]},
                    )
                    for client, pick in zip(clients, picks, strict=True)
                ]
            )
            codes = sorted(a.status_code for a in answers)
            assert codes == [200, 409], [a.text for a in answers]
            winner = next(k for k in (0, 1) if answers[k].status_code == 200)
            assert answers[1 - winner].json()["code"] == "stale"
            # Both processes agree on what was done: the winner's action.
            for client in clients:
                assert client.get(f"/api/games/{game_id}").json()["seq"] >= view["seq"] + 1
            store = PostgresStore(url)
            try:
                done = store.steps(game_id, after=view["seq"])[0]
            finally:
                store.close()
            assert (done.actor, json.loads(done.action)) == (seat, picks[winner]["action"])
