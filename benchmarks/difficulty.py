"""The figures of "How hard is each game?" (``docs/difficulty.rst``), measured and written.

Run from the repository root, one game at a time::

    python -m benchmarks.difficulty --game sword --games 200 --policy expert \\
        --scenario campaign --scenario millennium --budget "expert: default budget"
    python -m benchmarks.difficulty --game belisarius --games 100 --policy expert \\
        --opponent sensible --both-seats --scenario 1 --scenario 2 --scenario 3

Each ``--scenario`` (or, without one, the game's default set-up) is one *run*: a
:func:`byzantium.core.simulate.simulate` of ``--games`` games per seating with the
seating of ``--policy``/``--opponent`` (and both seatings with ``--both-seats``),
``--option K=V`` applied to every run. The results are independent of ``--jobs``.
The runs are written to ``--out`` (by default ``docs/_static/difficulty-GAME.json``,
GAME ``sword`` or ``belisarius``); a run already in the file with the same options
and seating is replaced, the others are kept, so that figures of several policies
build up in one file. A file that is not of this schema is never overwritten.
The Sphinx extension ``docs/_ext/byzantium_difficulty.py`` renders every
``docs/_static/difficulty-*.json`` into the page.

The schema (``"schema": "byzantium-difficulty/1"``)::

    {
      "schema": "byzantium-difficulty/1",
      "game": "belisarius",              # the game id
      "title": "Belisarius",
      "runs": [
        {
          "options": {"scenario": 1, ...},    # every option of the game, resolved
          "seating": {"Empire": "sensible", "Barbarian": "random"},  # the first one
          "both_seats": true,                 # every rotation of the seating played
          "games": 40,                        # games per seating
          "seed": 1,
          "budget": "",                       # the policies' budgets, in words ("" = defaults)
          "seconds": 123.4,                   # wall-clock time of the run
          "byzantium": "0.1.0",               # the package version that played
          "date": "2026-12-02",
          "command": "python -m benchmarks.difficulty ...",
          "summary": { ... }                  # SimulationSummary.to_json() (no per-game data)
        }
      ]
    }

``summary`` is exactly what ``byzantium simulate --json`` writes: among others
``games``, ``seatings``, ``levels``, ``outcomes``, ``turns`` (histogram rows),
``mean_turn``, ``turn_quartiles``, ``causes``, and ``win_rates`` with ``seats``,
``policies`` and ``sides``, each side a ``seat`` and/or ``policy`` with ``games``,
``wins``, ``win_rate`` (``rate``, and ``low``/``high``, the 95% Wilson interval),
``levels`` of its wins, ``scores`` (``min``, ``q1``, ``median``, ``q3``, ``max``,
``mean``, ``histogram``) and ``defeats`` (``games``, ``causes`` with ``cause``,
``games``, ``mean_turn``, and ``rules``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import byzantium
from byzantium.cli.common import parse_option
from byzantium.core.codec import JSONValue
from byzantium.core.errors import ByzantiumError
from byzantium.core.game import OptionValue
from byzantium.core.registry import game_class, load_game
from byzantium.core.simulate import parse_seating, simulate

__all__ = ["GAMES", "SCHEMA", "main", "merge_runs", "run_key"]

SCHEMA = "byzantium-difficulty/1"
#: Short names of the games, as in the files' names.
GAMES = {"sword": "sword-of-orthodoxy", "belisarius": "belisarius"}
STATIC = Path(__file__).resolve().parent.parent / "docs" / "_static"


def run_key(run: dict[str, JSONValue]) -> str:
    """What makes two runs the same measurement: options, seating, both seats."""
    return json.dumps([run.get("options"), run.get("seating"), run.get("both_seats")])


def merge_runs(
    old: Sequence[dict[str, JSONValue]], new: Sequence[dict[str, JSONValue]]
) -> list[dict[str, JSONValue]]:
    """The runs of a file after new ones: a new run replaces the old one of its key."""
    fresh = {run_key(run): run for run in new}
    kept = [run for run in old if run_key(run) not in fresh]
    return kept + list(new)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.difficulty", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--games", type=int, required=True, metavar="N", help="games per seating")
    parser.add_argument("--policy", default="sensible", help="as for byzantium simulate")
    parser.add_argument("--opponent", help="the policy of the seats --policy does not name")
    parser.add_argument("--both-seats", action="store_true", help="every rotation of the seats")
    parser.add_argument(
        "--scenario", action="append", default=[], help="one run per scenario (repeatable)"
    )
    parser.add_argument(
        "--option", action="append", default=[], metavar="K=V", help="for every run"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", default="", help="the policies' budgets, in words")
    parser.add_argument("--out", type=Path, help="default docs/_static/difficulty-GAME.json")
    return parser


def _load(path: Path, game_id: str) -> list[dict[str, JSONValue]]:
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or data.get("game") != game_id:
        raise SystemExit(
            f"{path} is not a {SCHEMA} file of {game_id}; not overwriting it (use --out)"
        )
    runs = data.get("runs")
    return [run for run in runs if isinstance(run, dict)] if isinstance(runs, list) else []


def main(argv: Sequence[str] | None = None) -> int:
    """Run the simulations asked for and write (merge) the file."""
    args = _parser().parse_args(argv)
    game_id = GAMES[args.game]
    out: Path = args.out or STATIC / f"difficulty-{args.game}.json"
    old = _load(out, game_id)
    common: dict[str, OptionValue] = dict(parse_option(text) for text in args.option)
    scenarios: list[OptionValue | None] = [
        parse_option(f"scenario={text}")[1] for text in args.scenario
    ] or [None]
    command = "python -m benchmarks.difficulty " + shlex.join(
        sys.argv[1:] if argv is None else list(argv)
    )
    runs: list[dict[str, JSONValue]] = []
    for scenario in scenarios:
        options = dict(common) if scenario is None else {**common, "scenario": scenario}
        game = load_game(game_id, **options)
        seating = parse_seating(game, args.policy, args.opponent)
        began = time.monotonic()
        summary = simulate(
            game_id,
            options,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            policy=seating,
            swap_seats=args.both_seats,
        )
        seconds = time.monotonic() - began
        run: dict[str, JSONValue] = {
            "options": dict(game.options),
            "seating": {game.player_name(p): name for p, name in enumerate(seating)},
            "both_seats": bool(args.both_seats),
            "games": args.games,
            "seed": args.seed,
            "budget": args.budget,
            "seconds": round(seconds, 1),
            "byzantium": byzantium.__version__,
            "date": datetime.datetime.now(datetime.UTC).date().isoformat(),
            "command": command,
            "summary": summary.to_json(),
        }
        runs.append(run)
        print(summary.brief(f"{game.TITLE} {options}") + f" ({seconds:.0f} s)", flush=True)
        # Written after every run, so that an interrupted session keeps what it measured.
        document: dict[str, JSONValue] = {
            "schema": SCHEMA,
            "game": game_id,
            "title": game_class(game_id).TITLE,
            "runs": list(merge_runs(old, runs)),
        }
        out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{len(runs)} runs written to {out}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ByzantiumError as exc:
        sys.exit(f"difficulty: {exc}")
