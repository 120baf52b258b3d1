"""``byzantium simulate GAME --games N``: many games and a designer's summary of them.

The games are those of :func:`byzantium.core.simulate.simulate`: game ``i`` is
seeded from ``--seed`` and ``i`` alone, so ``--jobs`` (worker processes) never
changes the result. ``--policy`` names the policy of every seat, or of seat 0 with
``--opponent`` playing the others, or of each seat (``--policy 0=expert,1=sensible``,
seats by index or player name); ``--swap-seats`` (or ``--both-seats``) plays
``--games`` games in each rotation of the seats, so that each policy is measured in
each seat. The summary gives the win rate of every seat and policy with its 95%
Wilson interval, the victory levels, the score quartiles and histogram, the causes
of the games each side did not win and the turns they ended in.

Progress goes to standard error as games finish: a bar with the rate and an
estimate of the time left on a terminal, a plain line every ten seconds otherwise;
``--quiet`` prints no progress and only the essential result (one line). ``--json
FILE`` (``-`` for standard output) writes the summary as data and ``--png DIR``
saves its histograms as pictures (needs ``byzantium[plot]``).

At scale: ``--cluster local:N`` runs the games on a Dask LocalCluster of N worker
processes and ``--cluster tcp://HOST:PORT`` on an existing Dask scheduler's workers
(needs ``byzantium[cluster]``); ``--shard K/N`` plays only the K-th of N equal runs
of the games and ``--part FILE`` saves what a run counted, for ``byzantium merge``;
``--checkpoint FILE`` saves the counts every second, so that an interrupted run
started again with the same arguments goes on where it stopped; ``--per-game FILE``
writes every game's summary to FILE as JSON lines as the games finish (without FILE,
they go into the ``--json`` summary, kept in memory: for small runs). The summary
itself holds counts only, so its memory does not grow with the number of games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import add_game_options, parse_option
from byzantium.core.game import OptionValue
from byzantium.core.registry import game_class, load_game
from byzantium.core.simulate import (
    CHECKPOINT_SECONDS,
    DEFAULT_MAX_STEPS,
    MAX_CHUNK,
    SimulationError,
    SimulationSummary,
    parse_cluster,
    parse_seating,
    parse_shard,
    save_histograms_png,
    shard_games,
    simulate_part,
    simulation_plan,
    write_atomically,
)

__all__ = ["Progress", "progress_bar", "register", "report", "run"]

#: Width of the progress bar, in characters.
PROGRESS_WIDTH = 30
#: Seconds between two progress lines when standard error is not a terminal.
PLAIN_INTERVAL = 10.0


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` command."""
    parser = commands.add_parser(
        "simulate",
        help="play many games (in parallel) and summarise them",
        description=__doc__.split("\n")[0] if __doc__ else None,
    )
    add_game_options(parser)
    parser.add_argument("--games", type=int, required=True, metavar="N", help="how many games")
    parser.add_argument("--seed", type=int, default=0, help="the simulation's seed (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)"
    )
    parser.add_argument(
        "--policy",
        default="random",
        help="random, first, or one of the game's own policies, for every seat (or seat 0 "
        "with --opponent); or one per seat: SEAT=NAME,... (SEAT an index or a player's name)",
    )
    parser.add_argument(
        "--opponent", metavar="POLICY", help="the policy of the seats --policy does not name"
    )
    parser.add_argument(
        "--swap-seats",
        "--both-seats",
        action="store_true",
        help="play --games games in every rotation of the seats (each policy in each seat)",
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        help="count a game as unfinished after this many steps",
    )
    parser.add_argument(
        "--json", metavar="FILE", help="also write the summary as JSON to FILE (- for stdout)"
    )
    parser.add_argument(
        "--per-game",
        nargs="?",
        const=True,
        default=None,
        metavar="FILE",
        help="write every game's summary to FILE as JSON lines; without FILE, put them in "
        "the --json summary (kept in memory: small runs only)",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run on Dask: local:N (a local cluster of N processes) or tcp://HOST:PORT "
        "(a running scheduler); needs byzantium[cluster]",
    )
    parser.add_argument(
        "--chunk",
        type=int,
        metavar="GAMES",
        help=f"games sent to a worker at once (default: an eighth of a worker's share, "
        f"at most {MAX_CHUNK})",
    )
    parser.add_argument(
        "--shard", metavar="K/N", help="play only the K-th of N equal shares of the games"
    )
    parser.add_argument(
        "--part", type=Path, metavar="FILE", help="save the run's counts for byzantium merge"
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        metavar="FILE",
        help="save progress to FILE; run again with the same arguments to resume",
    )
    parser.add_argument(
        "--checkpoint-every",
        type=float,
        default=CHECKPOINT_SECONDS,
        metavar="SECONDS",
        help=f"seconds between two checkpoints (default {CHECKPOINT_SECONDS:g})",
    )
    parser.add_argument(
        "--png", type=Path, metavar="DIR", help="save the histograms as PNG files (matplotlib)"
    )
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress; print only the essential result (one line)",
    )
    parser.set_defaults(run=run)


def _duration(seconds: float) -> str:
    """``1:05`` for 65 seconds, ``1:02:03`` past an hour."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


class Progress:
    """A ``progress(done, total)`` callback that tells how far a simulation is.

    On a terminal (``bar=True``) it redraws one line: a bar, the count, the rate in
    games per second, the time elapsed and an estimate of the time left. Otherwise
    (output redirected to a file or a pipe) it writes a plain line every
    ``interval`` seconds, and a last one at the end if it wrote any, so a short run
    writes nothing. ``clock`` is :func:`time.monotonic` unless a test gives another.
    """

    def __init__(
        self,
        stream: TextIO,
        *,
        bar: bool,
        interval: float = PLAIN_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.bar = bar
        self.interval = interval
        self.clock = clock
        self.start = clock()
        self.last = self.start
        self.lines = 0

    def status(self, done: int, total: int) -> str:
        """``5/12 games (41%), 2.5 games/s, 0:02 elapsed, about 0:03 left``."""
        elapsed = self.clock() - self.start
        text = f"{done}/{total} games ({100 * done // total}%)"
        if elapsed > 0 and done:
            rate = done / elapsed
            text += f", {rate:.2f} games/s, {_duration(elapsed)} elapsed"
            if done < total:
                text += f", about {_duration((total - done) / rate)} left"
        return text

    def __call__(self, done: int, total: int) -> None:
        if self.bar:
            filled = PROGRESS_WIDTH * done // total
            bar = "#" * filled + "." * (PROGRESS_WIDTH - filled)
            # Clear to the end of the line: the status can get shorter.
            self.stream.write(f"\r[{bar}] {self.status(done, total)}\x1b[K")
            if done == total:
                self.stream.write("\n")
            self.stream.flush()
            return
        now = self.clock()
        if (now - self.last >= self.interval and done < total) or (done == total and self.lines):
            self.last = now
            self.lines += 1
            self.stream.write(f"simulate: {self.status(done, total)}\n")
            self.stream.flush()


def progress_bar(stream: TextIO) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback drawing a bar on ``stream`` (a terminal)."""
    return Progress(stream, bar=True)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the simulation and print (and save) its summary."""
    options: dict[str, OptionValue] = dict(args.option)
    if args.scenario is not None:
        options["scenario"] = parse_option(f"scenario={args.scenario}")[1]
    if args.cluster is not None:
        parse_cluster(args.cluster)
        if args.jobs != 1:
            raise SimulationError("--jobs and --cluster do not go together: choose one")
    shard = None if args.shard is None else parse_shard(args.shard)
    if shard is not None and args.part is None:
        raise SimulationError("--shard needs --part FILE: the file byzantium merge reads")
    seating = parse_seating(load_game(args.game, **options), args.policy, args.opponent)
    plan = simulation_plan(
        args.game,
        options,
        games=args.games,
        seed=args.seed,
        policy=seating,
        swap_seats=args.swap_seats,
        max_steps=args.max_steps,
    )
    start, stop = (0, plan.total) if shard is None else shard_games(shard, plan.total)
    bar = None if args.quiet else Progress(sys.stderr, bar=sys.stderr.isatty())
    stream_to = None if args.per_game in (None, True) else Path(args.per_game)
    part, kept = simulate_part(
        plan,
        start=start,
        stop=stop,
        jobs=args.jobs,
        cluster=args.cluster,
        progress=bar,
        checkpoint=args.checkpoint,
        per_game=stream_to,
        keep_games=args.per_game is True,
        checkpoint_every=args.checkpoint_every,
        chunk_size=args.chunk,
    )
    if args.part is not None:
        write_atomically(args.part, json.dumps(part.to_json(), ensure_ascii=False) + "\n")
    summary = part.tally.summary(seed=args.seed, per_game=kept)
    return report(summary, args, out, title=game_class(args.game).TITLE)


def report(summary: SimulationSummary, args: argparse.Namespace, out: TextIO, *, title: str) -> int:
    """Print the summary (``--quiet``: one line), and save it as ``--json`` and ``--png``."""
    to_stdout = args.json == "-"
    data = json.dumps(
        summary.to_json(per_game=bool(summary.per_game)), indent=1, ensure_ascii=False
    )
    if to_stdout:
        out.write(data + "\n")
    else:
        text = [summary.brief(title)] if args.quiet else summary.lines(title)
        out.write("\n".join(text) + "\n")
        if args.json is not None:
            Path(args.json).write_text(data + "\n", encoding="utf-8")
            if not args.quiet:
                out.write(f"JSON summary written to {args.json}\n")
    if args.png is not None:
        written = save_histograms_png(summary, args.png)
        message = f"{len(written)} PNG histograms written to {args.png}\n"
        if not args.quiet:
            (sys.stderr if to_stdout else out).write(message)
    return 0
