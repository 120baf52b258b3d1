"""Figures of the record viewer (issue 37, 4): page size and write time of
``byzantium view`` for a long Belisarius game and a Sword of Orthodoxy game.

Each game is played from a seed (Belisarius by its ``sensible`` player on both
sides, up to ``--steps`` steps; Sword of Orthodoxy by its ``sensible`` player), and
its all-seeing page is written as ``byzantium view`` writes it; the figures are the
wall time of :func:`~byzantium.render.viewer.view_html` (the replay included), the
processor time it took (less moved by other jobs on the machine than the wall time)
and the size of the page in bytes. One JSON line per game. The machine's load
changes the times: run it alone where possible. From the repository root::

    python -m benchmarks.viewer_size --steps 1200
"""

from __future__ import annotations

import argparse
import json
import time

from byzantium.core.drivers import play
from byzantium.core.game import Game
from byzantium.core.records import GameRecord
from byzantium.core.registry import load_game
from byzantium.core.simulate import policy_for
from byzantium.render.viewer import view_html


def measure(game_id: str, seed: int, steps: int) -> dict[str, object]:
    """The size and write time of the viewer of one seeded game."""
    game: Game[object, object] = load_game(game_id)
    policy = policy_for(game, "sensible")
    record: GameRecord[object] = play(game, policy, seed=seed, max_steps=steps)
    start, used = time.perf_counter(), time.process_time()
    page = view_html(game, record)
    seconds, used = time.perf_counter() - start, time.process_time() - used
    return {
        "game": game_id,
        "seed": seed,
        "steps": len(record),
        "bytes": len(page.encode("utf-8")),
        "seconds": round(seconds, 2),
        "cpu_seconds": round(used, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--games", nargs="+", default=["belisarius", "sword-of-orthodoxy"])
    args = parser.parse_args()
    for game_id in args.games:
        print(json.dumps(measure(game_id, args.seed, args.steps)), flush=True)


if __name__ == "__main__":
    main()
