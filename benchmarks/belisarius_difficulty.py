"""How often the Belisarius expert beats the sensible player, per seat and scenario.

Plays the expert (:mod:`byzantium.belisarius.expert`, default budget unless told)
against the sensible player in each seat of each scenario, seeds 0, 1, 2, ...
interleaved so that every (scenario, seat) has played about as many games whenever
the run is stopped, appending one JSON line per game to ``--games``; then (or with
``--summary`` alone) writes the figures: win rate with its 95% Wilson interval,
Victory Point distribution and victory levels (23.1-23.3).

Run from the repository root, e.g.::

    nice -n 10 python -m benchmarks.belisarius_difficulty --games /tmp/games.jsonl \\
        --out docs/_static/belisarius-expert-evidence.json --count 100 --minutes 60
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from byzantium.belisarius.expert import Budget, expert_policy
from byzantium.belisarius.game import Belisarius
from byzantium.core.drivers import play
from byzantium.core.simulate import wilson_interval

SIDES = ("Empire", "Barbarian")


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (nothing known of no game)."""
    return wilson_interval(wins, games) if games else (0.0, 1.0)


def one_game(game: Belisarius, seat: int, seed: int, budget: Budget) -> dict[str, object]:
    sensible = game.policies()["sensible"]
    table = [sensible, sensible]
    table[seat] = expert_policy(game, budget)
    started = time.process_time()
    record = play(game, table, seed=seed, digests=False)
    seconds = time.process_time() - started
    state = game.initial_state()
    for action in record.actions:
        state = game.apply(state, action)
    result = game.result(state)
    points = [float(p) for p in result.points]
    return {
        "scenario": int(game.options["scenario"]),
        "seat": SIDES[seat],
        "seed": seed,
        "winner": SIDES[result.winners[0]] if result.winners else "draw",
        "expert_won": result.winners == (seat,),
        "level": result.level,
        "rule": result.rule,
        "empire_vp": points[0],
        "barbarian_vp": points[1],
        "expert_vp": points[seat],
        "sensible_vp": points[1 - seat],
        "cpu_seconds": round(seconds, 2),
        "steps": len(record.actions),
        "budget": {
            "worlds": budget.worlds,
            "barbarian_worlds": budget.barbarian_worlds,
            "options": budget.options,
            "steps": budget.steps,
        },
    }


def summarise(rows: list[dict[str, object]]) -> dict[str, object]:
    by: dict[tuple[int, str], list[dict[str, object]]] = {}
    for row in rows:
        by.setdefault((int(row["scenario"]), str(row["seat"])), []).append(row)  # type: ignore[call-overload]
    cells = []
    for (scenario, seat), games in sorted(by.items()):
        wins = sum(bool(g["expert_won"]) for g in games)
        low, high = wilson(wins, len(games))
        expert_vp = [float(g["expert_vp"]) for g in games]  # type: ignore[arg-type]
        margin = [float(g["expert_vp"]) - float(g["sensible_vp"]) for g in games]  # type: ignore[arg-type]
        levels = Counter(str(g["level"]) for g in games if g["expert_won"])
        cells.append(
            {
                "scenario": scenario,
                "expert_seat": seat,
                "games": len(games),
                "seeds": sorted(int(g["seed"]) for g in games),  # type: ignore[call-overload]
                "expert_wins": wins,
                "draws": sum(g["winner"] == "draw" for g in games),
                "win_rate": round(wins / len(games), 4),
                "wilson95": [round(low, 4), round(high, 4)],
                "expert_vp": _spread(expert_vp),
                "sensible_vp": _spread([float(g["sensible_vp"]) for g in games]),  # type: ignore[arg-type]
                "vp_margin": _spread(margin),
                "expert_victory_levels_when_winning": dict(sorted(levels.items())),
                "result_levels": dict(sorted(Counter(str(g["level"]) for g in games).items())),
                "mean_cpu_seconds_per_game": round(
                    statistics.fmean(float(g["cpu_seconds"]) for g in games),  # type: ignore[arg-type]
                    2,
                ),
                "budget": games[0]["budget"],
            }
        )
    return {
        "what": "Belisarius: the expert policy against the sensible policy, per scenario and"
        " expert seat; a win is the higher Victory Point total at the end (23.3)",
        "opponent": "sensible",
        "interval": "95% Wilson score interval of the win rate",
        "cells": cells,
    }


def _spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else ordered * 3
    return {
        "mean": round(statistics.fmean(ordered), 2),
        "min": ordered[0],
        "q1": round(quartiles[0], 2),
        "median": round(statistics.median(ordered), 2),
        "q3": round(quartiles[2], 2),
        "max": ordered[-1],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, required=True, help="JSON lines, one per game")
    parser.add_argument("--out", type=Path, help="where to write the summary")
    parser.add_argument("--count", type=int, default=100, help="games per scenario and seat")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop starting games after")
    parser.add_argument("--scenarios", default="1,2,3")
    parser.add_argument("--worlds", type=int, default=Budget().worlds)
    parser.add_argument("--barbarian-worlds", type=int, default=Budget().barbarian_worlds)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--summary", action="store_true", help="only summarise --games")
    parser.add_argument("--note", action="append", default=[], help="a line for the summary")
    args = parser.parse_args(argv)
    if not args.summary:
        budget = Budget(worlds=args.worlds, barbarian_worlds=args.barbarian_worlds)
        games = {s: Belisarius({"scenario": s}) for s in map(int, args.scenarios.split(","))}
        deadline = time.monotonic() + 60 * args.minutes
        with args.games.open("a") as sink:
            for seed in range(args.first_seed, args.first_seed + args.count):
                for game in games.values():
                    for seat in (0, 1):
                        if time.monotonic() > deadline:
                            break
                        row = one_game(game, seat, seed, budget)
                        sink.write(json.dumps(row) + "\n")
                        sink.flush()
    rows = [json.loads(line) for line in args.games.read_text().splitlines() if line.strip()]
    summary = summarise(rows)
    if args.note:
        summary["notes"] = args.note
    text = json.dumps(summary, indent=1)
    if args.out:
        args.out.write_text(text + "\n")
    for cell in summary["cells"]:  # type: ignore[attr-defined]
        print(
            f"scenario {cell['scenario']} expert as {cell['expert_seat']}: "
            f"{cell['expert_wins']}/{cell['games']} = {cell['win_rate']:.2f} "
            f"[{cell['wilson95'][0]:.2f}, {cell['wilson95'][1]:.2f}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
