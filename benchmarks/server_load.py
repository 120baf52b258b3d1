"""The game server under load: acts per second and the latency of an act.

Starts ``byzantium serve`` (a fresh database each time: an SQLite file, or a
PostgreSQL database, on a server of its own started like the tests' unless ``--url``
names one), creates N Belisarius games whose seats are all persons, and plays them
all at once over loopback from this process (asyncio and httpx). The driver chooses
the actions itself, at random among the question's legal ones, so the server's own
built-in players never think; chance is drawn by the server, as in any game. A game
that ends is replaced by a new one. With ``--processes K`` (PostgreSQL), K servers
share the database and the tables are spread over them. ``--think S`` has each player
think for a random time, S seconds on average, before each decision (without it the
tables act as fast as they are answered: the server's capacity); ``--no-picture``
acts with ``?picture=false``, as a program that draws nothing would. After a warm-up
it counts, for a fixed time, the acts answered and how long each took (from sending
``POST .../act`` to the whole answer, which carries the seat's new view), and prints,
for each N, acts per second and the 50th and 99th percentiles; ``--json`` also
appends them to a file.

Run from the repository root, e.g.::

    nohup python -m benchmarks.server_load --database sqlite --games 1,10,100 \\
        --seconds 60 --json /tmp/load.jsonl > /tmp/load.txt 2>&1 &
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tests.pg import PostgresServer, start_postgres
from tests.server.serving import Served

Json = Any


class Load:
    """The counters of one measurement."""

    def __init__(self) -> None:
        self.measuring = False
        self.act_times: list[float] = []
        self.view_times: list[float] = []
        self.refused = 0
        self.games_ended = 0


async def new_game(client: httpx.AsyncClient, rng: random.Random, scenario: int) -> Json:
    answer = await client.post(
        "/api/games",
        json={
            "game": "belisarius",
            "options": {"scenario": scenario},
            "seats": [{"player": "person"}, {"player": "person"}],
            "seed": rng.randrange(2**31),
        },
    )
    answer.raise_for_status()
    return answer.json()


async def play(
    client: httpx.AsyncClient,
    rng: random.Random,
    load: Load,
    stop: asyncio.Event,
    *,
    think: float = 0.0,
    picture: bool = True,
) -> None:
    """One table: play games to their end, one after another, until told to stop."""
    while not stop.is_set():
        created = await new_game(client, rng, rng.choice((1, 2, 3)))
        game_id = created["game_id"]
        tokens = {int(seat): token for seat, token in created["tokens"].items()}
        seat, known = 0, 0
        while not stop.is_set():
            started = time.perf_counter()
            answer = await client.get(
                f"/api/games/{game_id}/view",
                headers={"Authorization": f"Bearer {tokens[seat]}"},
                params={"picture": "false", "since": str(known)},
            )
            if load.measuring:
                load.view_times.append(time.perf_counter() - started)
            view = answer.json()
            known = view["seq"]
            if view["status"] == "over":
                load.games_ended += 1
                break
            if view["to_act"] is None:
                await asyncio.sleep(0.005)  # the server draws chance
                continue
            if view["to_act"] != seat or view["question"] is None:
                seat = view["to_act"]
                continue
            choice = rng.choice(view["question"]["actions"])
            if think > 0:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            started = time.perf_counter()
            answer = await client.post(
                f"/api/games/{game_id}/act",
                params=None if picture else {"picture": "false"},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
                json={"seq": view["seq"], "number": choice["number"]}
                if choice["number"] is not None
                else {"seq": view["seq"], "action": choice["action"]},
            )
            took = time.perf_counter() - started
            if answer.status_code != 200:
                load.refused += 1
                continue
            if load.measuring:
                load.act_times.append(took)
            after = answer.json()["view"]
            if after["to_act"] is not None:
                seat = after["to_act"]


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(
    urls: list[str],
    games: int,
    *,
    seconds: float,
    warmup: float,
    seed: int,
    think: float = 0.0,
    picture: bool = True,
) -> dict[str, Json]:
    """Play ``games`` tables at once, spread over the servers at ``urls``."""
    load = Load()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=games + 4, max_keepalive_connections=games + 4)
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(
                httpx.AsyncClient(base_url=url, timeout=120, limits=limits)
            )
            for url in urls
        ]
        tables = [
            asyncio.create_task(
                play(
                    clients[k % len(clients)],
                    random.Random(seed * 1000 + k),
                    load,
                    stop,
                    think=think,
                    picture=picture,
                )
            )
            for k in range(games)
        ]
        await asyncio.sleep(warmup)
        load.measuring = True
        began = time.perf_counter()
        await asyncio.sleep(seconds)
        load.measuring = False
        window = time.perf_counter() - began
        stop.set()
        await asyncio.gather(*tables, return_exceptions=True)
    acts = load.act_times
    return {
        "games": games,
        "seconds": round(window, 1),
        "acts": len(acts),
        "acts_per_second": round(len(acts) / window, 1),
        "act_p50_ms": round(1000 * percentile(acts, 0.5), 1),
        "act_p99_ms": round(1000 * percentile(acts, 0.99), 1),
        "act_mean_ms": round(1000 * statistics.fmean(acts), 1) if acts else None,
        "view_p50_ms": round(1000 * percentile(load.view_times, 0.5), 1),
        "view_p99_ms": round(1000 * percentile(load.view_times, 0.99), 1),
        "refused": load.refused,
        "games_ended": load.games_ended,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--url", help="an empty PostgreSQL database to use (default: start a server of its own)"
    )
    parser.add_argument("--games", default="1,10,100", help="concurrent games, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time per level")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--workers", default="2", help="the server's --workers")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes on the one database (more than one: PostgreSQL only)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a player thinks (default 0)"
    )
    parser.add_argument(
        "--no-picture",
        action="store_true",
        help="act with ?picture=false (an answer without the overlay, as a bot would ask)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="append each level's figures to this file")
    args = parser.parse_args(argv)
    if args.processes > 1 and args.database != "postgres":
        parser.error("several processes share a PostgreSQL database, not an SQLite file")
    directory = Path(tempfile.mkdtemp(prefix="byzantium-load-"))
    postgres: PostgresServer | None = None
    try:
        if args.database == "postgres" and args.url is None:
            postgres = start_postgres(fsync=True)
        for level, games in enumerate(int(n) for n in args.games.split(",")):
            if args.database == "sqlite":
                database = str(directory / f"games-{level}.db")
            elif postgres is not None:
                database = postgres.new_database()
            else:
                database = args.url
            servers: list[Served] = []
            try:
                for _ in range(args.processes):
                    servers.append(Served(database, directory, "--workers", args.workers))
                figures = asyncio.run(
                    measure(
                        [s.url for s in servers],
                        games,
                        seconds=args.seconds,
                        warmup=args.warmup,
                        seed=args.seed,
                        think=args.think,
                        picture=not args.no_picture,
                    )
                )
            finally:
                for served in servers:
                    served.stop()
            figures["database"] = args.database
            figures["processes"] = args.processes
            figures["think"] = args.think
            figures["picture"] = not args.no_picture
            print(json.dumps(figures), flush=True)
            if args.json is not None:
                with args.json.open("a") as out:
                    out.write(json.dumps(figures) + "\n")
    finally:
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
