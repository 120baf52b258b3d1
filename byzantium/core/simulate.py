"""Many games at once, and the summary a designer reads: ``byzantium simulate``.

:func:`simulate` plays ``games`` whole games of one game with one policy and sums
them up in a :class:`SimulationSummary`: who won, at which victory level, the score
distribution, why games ended and in which turn, the mean number of steps, and the
game's own tallies (:meth:`~byzantium.core.game.Game.tallies`, for example how often
an event came up).

Seats: ``policy`` is one policy name for every player, or a *seating*, one name per
seat (:func:`parse_seating` reads ``"expert"``, ``"0=expert,1=sensible"`` or
``"Empire=expert"`` with an opponent). With ``swap_seats`` every distinct rotation of
the seating is played in turn, ``games`` games each, so that each policy is measured
in each seat. The summary gives the win rate of every seat, every policy and every
policy in every seat with its 95% Wilson interval (:func:`wilson_interval`), the
victory levels, the score distribution (quartiles and histogram), the causes of the
games each side did not win and the turns in which games ended.

Reproducibility: game ``i`` of a simulation with seed ``S`` is played with the seed
:func:`game_seed` ``(S, i)``, a stable hash of the two, exactly as :func:`byzantium.play
<byzantium.core.drivers.play>` plays that seed; with ``swap_seats`` games ``0`` to
``games - 1`` use the first seating, the next ``games`` the second, and so on. The
results therefore do not depend on how many processes share the work, and any single
game can be watched again with ``byzantium play GAME --seed SEED --policy POLICY``
(its seed and seating are in the summary's per-game data).

Parallel runs: with ``jobs=J`` the games are spread over ``J`` worker processes
(``concurrent.futures`` with the *spawn* start method); with ``cluster`` over the
workers of a Dask cluster (``"local:N"``, a LocalCluster of N processes, or
``"tcp://HOST:PORT"``, a running scheduler; the ``byzantium[cluster]`` extra). Games
travel in chunks (:class:`Chunk`, played by :func:`run_chunk`), a few per worker at
a time, and come back as they finish. Each worker re-creates the game from its id
and options, importing the module that registered it, so games registered by
third-party modules work as well as the built-in ones.

Summaries that add up: a chunk comes back as a :class:`Tally`, counts, sums and
histograms of exact values (turns, scores as fractions), never the games
themselves; tallies add up into the tally of the whole run, in any order, and the
:class:`SimulationSummary` is made from it at the end. The memory of a run does not
grow with its games. Every game's own summary can be streamed to a file as JSON
lines (``per_game``) or kept for small runs (``keep_games``).

Runs in parts: a :class:`SimulationPlan` fixes what a simulation plays;
:func:`simulate_part` plays games ``start`` to ``stop - 1`` of it (a *shard*, see
:func:`shard_games`) and gives a :class:`SimulationPart`, which saves as JSON and
:func:`merge_parts` adds up with the other shards into the whole, refusing parts of
another plan, overlapping or missing games. A ``checkpoint`` file, rewritten
atomically as chunks finish, is such a part: an interrupted run resumes from it.

Any executor with a ``map(fn, iterable)`` method that returns the results in order
can also run the games, one :class:`GameJob` per task (:func:`run_job`): pass it as
``executor``, for instance Ray's ``ray.util.multiprocessing.Pool()``. Neither Dask
nor Ray is a dependency of the core.

>>> import tests.pig
>>> summary = simulate("pig", {"target": 10}, games=3, seed=5)
>>> summary.games, sum(count for _, count in summary.outcomes)
(3, 3)
>>> summary == simulate("pig", {"target": 10}, games=3, seed=5, jobs=2)
True
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import itertools
import json
import logging
import math
import multiprocessing
import os
import re
import textwrap
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, TypeVar

import attrs

from byzantium.core.codec import JSONValue
from byzantium.core.drivers import Policy, first_action_policy, play, random_policy
from byzantium.core.errors import ByzantiumError, UnknownOptionError
from byzantium.core.game import Event, Game, OptionValue, Step
from byzantium.core.registry import game_class, load_game

S = TypeVar("S")
A = TypeVar("A")

__all__ = [
    "CHECKPOINT_SECONDS",
    "CONNECT_SECONDS",
    "DEFAULT_MAX_STEPS",
    "MAX_CHUNK",
    "MAX_GAMES",
    "MAX_PART_BYTES",
    "PART_FORMAT",
    "Bin",
    "CauseStats",
    "Chunk",
    "ChunkResult",
    "GameJob",
    "GameSummary",
    "Histogram",
    "MapExecutor",
    "ScoreStats",
    "Seating",
    "SideStats",
    "SimulationError",
    "SimulationPart",
    "SimulationPlan",
    "SimulationSummary",
    "Tally",
    "TallyStats",
    "WinRate",
    "ending_cause",
    "game_seed",
    "histogram",
    "histogram_of",
    "merge_parts",
    "parse_cluster",
    "parse_seating",
    "parse_shard",
    "play_one",
    "policy_for",
    "quartiles",
    "quartiles_of",
    "read_part",
    "run_chunk",
    "run_job",
    "run_jobs",
    "save_histograms_png",
    "seatings",
    "shard_games",
    "simulate",
    "simulate_part",
    "simulation_jobs",
    "simulation_plan",
    "summarise",
    "wilson_interval",
    "worker_count",
    "write_atomically",
]

#: A game that has not ended after this many steps is counted as unfinished.
DEFAULT_MAX_STEPS = 1_000_000
#: The most games one simulation plays (a summary keeps counts only, not the games).
MAX_GAMES = 1_000_000_000
#: The most games handed to the worker processes at once, per worker.
IN_FLIGHT_PER_WORKER = 4
#: Integer data spanning at most this many values get one histogram row per value.
MAX_VALUE_ROWS = 20
#: Otherwise the histogram has this many equal-width bins.
DEFAULT_BINS = 10
#: Width of the longest bar of a text histogram, in characters.
BAR_WIDTH = 40
#: Outcome, level and cause of a game that hit the step limit.
UNFINISHED = "unfinished"

#: The normal quantile of a two-sided 95% confidence interval.
Z95 = 1.959963984540054

Options = tuple[tuple[str, OptionValue], ...]
#: One policy name per seat, in seat order.
Seating = tuple[str, ...]


class SimulationError(ByzantiumError, ValueError):
    """A simulation that cannot run (no games, no workers) or a game that failed in it."""


# -- one game ------------------------------------------------------------------------------


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation seeded ``seed``: a stable hash of both.

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    digest = hashlib.sha256(f"byzantium:simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def policy_for(game: Game[S, A], name: str) -> Policy[S, A]:
    """A policy by name: ``random``, ``first`` or one of the game's own (``Game.policies``)."""
    policies: dict[str, Policy[S, A]] = {
        "random": random_policy,
        "first": first_action_policy,
        **game.policies(),
    }
    if name not in policies:
        known = ", ".join(sorted(policies))
        raise UnknownOptionError(f"{game.ID} has no policy {name!r}; policies: {known}")
    return policies[name]


def _seat_index(game: Game[S, A], text: str) -> int:
    """A seat named by its index (``0``) or its player's name (``Empire``, any case)."""
    names = {game.player_name(p).casefold(): p for p in range(game.NUM_PLAYERS)}
    key = text.strip()
    if key.isdigit() and int(key) < game.NUM_PLAYERS:
        return int(key)
    if key.casefold() in names:
        return names[key.casefold()]
    seats = ", ".join(f"{p} ({game.player_name(p)})" for p in range(game.NUM_PLAYERS))
    raise UnknownOptionError(f"{game.ID} has no seat {key!r}; its seats: {seats}")


def parse_seating(game: Game[S, A], policy: str, opponent: str | None = None) -> Seating:
    """The seating a command line asks for: one policy name per seat.

    ``policy`` is a name for every seat (``"sensible"``), or for seat 0 when an
    ``opponent`` plays the others; or a list of ``SEAT=NAME`` pairs, a seat named by
    its index or its player's name (``"0=expert,1=sensible"``, ``"Barbarian=expert"``),
    the seats left out playing ``opponent``. Every name must be a policy of the game.

    >>> import tests.pig
    >>> from byzantium.core.registry import load_game
    >>> parse_seating(load_game("pig"), "random", "first")
    ('random', 'first')
    >>> parse_seating(load_game("pig"), "1=first,0=random")
    ('random', 'first')
    """
    seats: list[str | None] = [None] * game.NUM_PLAYERS
    if opponent is not None and game.NUM_PLAYERS < 2:
        raise UnknownOptionError(f"{game.ID} is a one-player game: there is no opponent")
    if "=" in policy:
        for pair in policy.split(","):
            seat_text, sep, named = pair.partition("=")
            if not sep or not named.strip():
                raise UnknownOptionError(
                    f"a policy per seat is SEAT=NAME, comma separated, not {pair.strip()!r}"
                )
            seat = _seat_index(game, seat_text)
            if seats[seat] is not None:
                raise UnknownOptionError(f"seat {seat_text.strip()!r} is given two policies")
            seats[seat] = named.strip()
    else:
        seats[0] = policy.strip()
    rest = opponent if opponent is not None else (None if "=" in policy else policy.strip())
    chosen: list[str] = []
    for seat, given in enumerate(seats):
        name = given if given is not None else rest
        if name is None:
            raise UnknownOptionError(
                f"no policy for seat {seat} ({game.player_name(seat)}): name it "
                f"({seat}=NAME) or give an opponent"
            )
        policy_for(game, name)
        chosen.append(name)
    return tuple(chosen)


def seatings(seating: Seating, *, swap_seats: bool = False) -> tuple[Seating, ...]:
    """The seatings a simulation plays: ``seating`` alone, or with ``swap_seats`` each
    of its distinct rotations (``(a, b)`` then ``(b, a)``; a seating whose seats all
    play one policy has only itself).

    >>> seatings(("expert", "sensible"), swap_seats=True)
    (('expert', 'sensible'), ('sensible', 'expert'))
    >>> seatings(("sensible", "sensible"), swap_seats=True)
    (('sensible', 'sensible'),)
    """
    if not swap_seats:
        return (seating,)
    rotations = (seating[i:] + seating[:i] for i in range(len(seating)))
    return tuple(dict.fromkeys(rotations))


def _seating_label(seats: Sequence[tuple[str, str]]) -> str:
    """``sensible`` when every seat plays it, else ``Empire=expert, Barbarian=sensible``."""
    names = {policy for _, policy in seats}
    if len(names) == 1:
        return next(iter(names))
    return ", ".join(f"{player}={policy}" for player, policy in seats)


_SHORTEN = re.compile(r";|: | \(")
_NUMBER = re.compile(r"\d+")


def ending_cause(rule: str, reason: str) -> str:
    """A game's ending reason with the details that vary from game to game removed.

    The reason is cut at its first ``;``, ``": "`` or ``" ("`` and every number
    becomes ``#``, so that games that ended the same way share one cause; the rule
    that decided it comes first.

    >>> ending_cause("12.1", "Constantinople falls to the Siege from Path Ζ (13 > 9)")
    '[12.1] Constantinople falls to the Siege from Path Ζ'
    >>> ending_cause("2.6", "the Schism Level reached 13")
    '[2.6] the Schism Level reached #'
    """
    short = _SHORTEN.split(reason, maxsplit=1)[0].strip()
    return f"[{rule}] {_NUMBER.sub('#', short)}"


@attrs.frozen
class GameSummary:
    """What a simulation keeps of one game.

    ``policy`` labels the seating (the policy's name when every seat plays it) and
    ``seats`` gives every seat's player name and policy name, in seat order.
    ``winners`` are player names (empty: nobody won), ``scores`` each player's score
    by name (empty when the result counts none: a Sword of Orthodoxy Defeat), ``turn``
    the game turn at the end (:meth:`~byzantium.core.game.Game.turn_of`), ``steps`` the
    number of actions and chance outcomes applied, ``tallies`` the game's own counts.
    A game stopped by the step limit has ``finished`` false and level, reason and
    cause ``"unfinished"``.
    """

    game: str
    options: Options
    policy: str
    seats: tuple[tuple[str, str], ...]
    seed: int
    finished: bool
    winners: tuple[str, ...]
    level: str
    reason: str
    rule: str
    cause: str
    scores: tuple[tuple[str, Fraction], ...]
    turn: int
    steps: int
    tallies: tuple[tuple[str, int], ...]

    @property
    def outcome(self) -> str:
        """The winners' names joined, ``"nobody"`` or ``"unfinished"``."""
        if not self.finished:
            return UNFINISHED
        return ", ".join(self.winners) or "nobody"

    def to_json(self) -> dict[str, JSONValue]:
        """The game's summary as plain JSON values (scores as numbers)."""
        return {
            "seed": self.seed,
            "seats": dict(self.seats),
            "finished": self.finished,
            "outcome": self.outcome,
            "winners": list(self.winners),
            "level": self.level,
            "reason": self.reason,
            "rule": self.rule,
            "cause": self.cause,
            "scores": {name: _number(score) for name, score in self.scores},
            "turn": self.turn,
            "steps": self.steps,
            "tallies": dict(self.tallies),
        }


def _options(options: Mapping[str, OptionValue] | Options | None) -> Options:
    if options is None:
        return ()
    pairs = options.items() if isinstance(options, Mapping) else options
    return tuple(sorted(pairs))


# One game instance per process and configuration: building a game may load files.
_GAMES: dict[tuple[str, Options], Game[object, object]] = {}


def _game(game_id: str, options: Options) -> Game[object, object]:
    key = (game_id, options)
    if key not in _GAMES:
        _GAMES[key] = load_game(game_id, **dict(options))
    return _GAMES[key]


def _seating(game: Game[object, object], policy: str | Sequence[str]) -> Seating:
    if isinstance(policy, str):
        return (policy,) * game.NUM_PLAYERS
    seating = tuple(policy)
    if len(seating) != game.NUM_PLAYERS:
        raise SimulationError(
            f"{game.ID} has {game.NUM_PLAYERS} seats, not {len(seating)}: one policy per seat"
        )
    return seating


def play_one(
    game_id: str,
    options: Mapping[str, OptionValue] | Options | None = None,
    policy: str | Sequence[str] = "random",
    seed: int = 0,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> GameSummary:
    """Play one whole game and summarise it.

    ``policy`` is one policy name for every seat or a seating (one name per seat);
    each seat gets its own policy object, so that nothing one seat's policy works out
    can reach another seat. The game is played exactly as ``byzantium.play(game,
    policies, seed=seed)`` plays it; a failure inside the game is raised as a
    :class:`SimulationError` naming the seed, so that the game can be replayed.
    """
    opts = _options(options)
    game = _game(game_id, opts)
    seating = _seating(game, policy)
    chosen = [policy_for(game, name) for name in seating]
    seats = tuple((game.player_name(p), name) for p, name in enumerate(seating))
    label = _seating_label(seats)
    events: list[Event] = []
    last: list[object] = []

    def collect(before: object, actor: int, action: object, step: Step[object]) -> None:
        del before, actor, action
        events.extend(step.events)
        last[:] = [step.state]

    try:
        record = play(game, chosen, seed=seed, max_steps=max_steps, digests=False, on_step=collect)
        state = last[0] if last else game.initial_state()
        tallies = tuple(sorted(game.tallies(state, events)))
        turn = game.turn_of(state)
        finished = game.is_terminal(state)
        result = game.result(state) if finished else None
    except ByzantiumError:
        raise
    except Exception as exc:
        raise SimulationError(
            f"{game_id} with policy {label!r} and seed {seed} failed: {type(exc).__name__}: {exc}"
        ) from exc
    if result is None:
        winners: tuple[str, ...] = ()
        level = reason = rule = cause = UNFINISHED
        scores: tuple[tuple[str, Fraction], ...] = ()
    else:
        winners = tuple(game.player_name(p) for p in result.winners)
        level, reason, rule = result.level, result.reason, result.rule
        cause = ending_cause(rule, reason)
        points = result.points or tuple(Fraction(s) for s in result.scores)
        scores = tuple((game.player_name(p), Fraction(v)) for p, v in enumerate(points))
    return GameSummary(
        game=game_id,
        options=opts,
        policy=label,
        seats=seats,
        seed=seed,
        finished=finished,
        winners=winners,
        level=level,
        reason=reason,
        rule=rule,
        cause=cause,
        scores=scores,
        turn=turn,
        steps=len(record),
        tallies=tallies,
    )


@attrs.frozen
class GameJob:
    """One game of a simulation, as a picklable unit of work for :func:`run_job`.

    ``policy`` is one policy name for every seat or a seating (one per seat);
    ``module`` is the module that registers the game (imported first, so that a
    fresh worker process knows games registered outside the package).
    """

    game: str
    options: Options
    policy: str | Seating
    seed: int
    max_steps: int = DEFAULT_MAX_STEPS
    module: str = ""


def run_job(job: GameJob) -> GameSummary:
    """Play the game of a job: the worker function for any map-style executor."""
    if job.module:
        importlib.import_module(job.module)
    return play_one(job.game, job.options, job.policy, job.seed, max_steps=job.max_steps)


def run_jobs(jobs: Sequence[GameJob]) -> list[GameSummary]:
    """Play several jobs in a row (one chunk of a parallel simulation)."""
    return [run_job(job) for job in jobs]


def simulation_jobs(
    game_id: str,
    options: Mapping[str, OptionValue] | Options | None = None,
    *,
    games: int,
    seed: int = 0,
    policy: str | Sequence[str] = "random",
    swap_seats: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> tuple[GameJob, ...]:
    """The jobs of a simulation, game ``i`` seeded with :func:`game_seed` ``(seed, i)``.

    ``games`` games per seating (see :func:`seatings`), one seating after the other.
    Checks everything that can be checked before any game is played (see
    :func:`simulation_plan`).
    """
    plan = simulation_plan(
        game_id,
        options,
        games=games,
        seed=seed,
        policy=policy,
        swap_seats=swap_seats,
        max_steps=max_steps,
    )
    return tuple(plan.job(i) for i in range(plan.total))


def worker_count(jobs: int, games: int) -> int:
    """The worker processes a simulation of ``games`` games with ``jobs`` asked for
    really starts: never more than the games, nor than the machine's processors
    (more would only share the same processors; the results do not depend on it)."""
    return max(1, min(jobs, games, os.cpu_count() or 1))


# -- statistics ------------------------------------------------------------------------------


def _number(value: Fraction | float) -> int | float:
    """A JSON number: an integer when the value is whole."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    number = float(value)
    return int(number) if number.is_integer() else round(number, 6)


def _label(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.4g}"


@attrs.frozen
class Bin:
    """A histogram row: how many values lie in ``[low, high]`` (``low == high``: one value).

    Equal-width bins include their lower bound and exclude their upper one, except
    the last, which includes both.
    """

    low: float
    high: float
    count: int

    @property
    def label(self) -> str:
        """The value, or the range ``low-high``."""
        if self.low == self.high:
            return _label(self.low)
        return f"{_label(self.low)}-{_label(self.high)}"


@attrs.frozen
class Histogram:
    """A distribution as rows (see :func:`histogram`)."""

    rows: tuple[Bin, ...]

    def lines(self, width: int = BAR_WIDTH) -> list[str]:
        """One text line per row: label, a bar scaled to the largest count, the count."""
        if not self.rows:
            return []
        label_width = max(len(row.label) for row in self.rows)
        peak = max(row.count for row in self.rows) or 1
        return [
            f"{row.label:>{label_width}} | {'#' * math.ceil(width * row.count / peak):<{width}} "
            f"{row.count}"
            for row in self.rows
        ]

    def to_json(self) -> list[JSONValue]:
        """The rows as ``{"low", "high", "count"}`` objects."""
        return [
            {"low": _number(row.low), "high": _number(row.high), "count": row.count}
            for row in self.rows
        ]


def histogram(
    values: Sequence[Fraction | int | float],
    *,
    max_value_rows: int = MAX_VALUE_ROWS,
    bins: int = DEFAULT_BINS,
) -> Histogram:
    """The distribution of ``values`` as histogram rows.

    Whole numbers (or exact fractions, such as half points, in steps of their common
    denominator) spanning at most ``max_value_rows`` values get one row per value
    from the least to the greatest (empty rows included); anything else gets
    ``bins`` equal-width bins between the least and the greatest value (one row when
    they are all equal). No values, no rows. :func:`histogram_of` does the same
    from a count of every value.

    >>> [row.label for row in histogram([3, 1, 3]).rows]
    ['1', '2', '3']
    >>> [row.label for row in histogram([Fraction(3, 2), 3]).rows]
    ['1.5', '2', '2.5', '3']
    >>> len(histogram(list(range(100))).rows)
    10
    """
    counts: Counter[Fraction | int | float] = Counter(values)
    return histogram_of(counts, max_value_rows=max_value_rows, bins=bins)


def histogram_of(
    counts: Mapping[Fraction | int | float, int] | Mapping[Fraction, int] | Mapping[int, int],
    *,
    max_value_rows: int = MAX_VALUE_ROWS,
    bins: int = DEFAULT_BINS,
) -> Histogram:
    """The histogram of :func:`histogram` from how often each value occurred, so that
    a distribution over any number of games needs only one count per distinct value.

    >>> [(row.label, row.count) for row in histogram_of({1: 2, 3: 1}).rows]
    [('1', 2), ('2', 0), ('3', 1)]
    """
    present: list[tuple[Fraction | int | float, int]] = [(v, n) for v, n in counts.items() if n]
    if not present:
        return Histogram(())
    values = [v for v, _ in present]
    low, high = min(values), max(values)
    unit = _unit(values)
    if unit is not None and (high - low) / unit + 1 <= max_value_rows:
        exact: Counter[Fraction] = Counter()
        for value, n in present:
            exact[Fraction(value)] += n
        rows = int((high - low) / unit) + 1
        points = [Fraction(low) + unit * i for i in range(rows)]
        return Histogram(tuple(Bin(float(p), float(p), exact[p]) for p in points))
    if low == high:
        return Histogram((Bin(float(low), float(high), sum(n for _, n in present)),))
    step = Fraction(high) / bins - Fraction(low) / bins
    tally = [0] * bins
    for value, n in present:
        index = min(int((Fraction(value) - Fraction(low)) / step), bins - 1)
        tally[index] += n
    return Histogram(
        tuple(
            Bin(float(low + step * i), float(low + step * (i + 1)), count)
            for i, count in enumerate(tally)
        )
    )


def _unit(values: Sequence[Fraction | int | float]) -> Fraction | None:
    """The step every value is a whole multiple of (1, or 1/2 for half points...), if exact."""
    denominators = []
    for value in values:
        if isinstance(value, float) and not value.is_integer():
            return None
        denominators.append(Fraction(value).denominator)
    return Fraction(1, math.lcm(*denominators))


def _mean(values: Sequence[Fraction | int]) -> float:
    return float(sum(Fraction(v) for v in values) / len(values)) if values else 0.0


def _mean_of(counts: Mapping[Fraction, int] | Mapping[int, int]) -> float:
    """The mean of the values counted, exactly, as a float (0 for none)."""
    total = sum(counts.values())
    if not total:
        return 0.0
    return float(sum((Fraction(v) * n for v, n in counts.items()), Fraction(0)) / total)


def quartiles(values: Sequence[Fraction | int]) -> tuple[Fraction, Fraction, Fraction]:
    """The first quartile, the median and the third quartile of ``values``, exactly.

    Each is interpolated linearly between the two nearest ranks (the *inclusive*
    method: the quartile ``q`` of ``n`` sorted values lies at rank ``q (n - 1)``).

    >>> [str(q) for q in quartiles([1, 2, 3, 4])]
    ['7/4', '5/2', '13/4']
    >>> [str(q) for q in quartiles([5])]
    ['5', '5', '5']
    """
    if not values:
        raise ValueError("no values have quartiles")
    counts: Counter[Fraction] = Counter(Fraction(v) for v in values)
    return quartiles_of(counts)


def quartiles_of(
    counts: Mapping[Fraction, int] | Mapping[int, int],
) -> tuple[Fraction, Fraction, Fraction]:
    """The :func:`quartiles` of the values counted (value: how many times), exactly.

    >>> [str(q) for q in quartiles_of({1: 1, 2: 1, 3: 1, 4: 1})]
    ['7/4', '5/2', '13/4']
    """
    ordered = sorted((Fraction(v), n) for v, n in counts.items() if n)
    if not ordered:
        raise ValueError("no values have quartiles")
    last = sum(n for _, n in ordered) - 1

    def value_at(rank: int) -> Fraction:
        seen = 0
        for value, n in ordered:
            seen += n
            if rank < seen:
                return value
        return ordered[-1][0]

    def at(q: Fraction) -> Fraction:
        rank = q * last
        low = math.floor(rank)
        high = min(low + 1, last)
        below, above = value_at(low), value_at(high)
        return below + (above - below) * (rank - low)

    return at(Fraction(1, 4)), at(Fraction(1, 2)), at(Fraction(3, 4))


@attrs.frozen
class ScoreStats:
    """One player's scores over the games that counted them: the five-number summary
    (least, quartiles, greatest), the mean and the histogram. ``player`` labels the
    scores (a player's name, with its policy where seatings vary)."""

    player: str
    games: int
    min: Fraction
    q1: Fraction
    median: Fraction
    q3: Fraction
    max: Fraction
    mean: float
    histogram: Histogram

    @classmethod
    def of(cls, player: str, values: Sequence[Fraction | int]) -> ScoreStats:
        """The statistics of some (at least one) values."""
        counts: Counter[Fraction] = Counter(Fraction(v) for v in values)
        return cls.of_counts(player, counts)

    @classmethod
    def of_counts(cls, player: str, counts: Mapping[Fraction, int]) -> ScoreStats:
        """The statistics of the values counted (value: how many times; at least one)."""
        q1, median, q3 = quartiles_of(counts)
        present = [value for value, n in counts.items() if n]
        return cls(
            player=player,
            games=sum(counts.values()),
            min=Fraction(min(present)),
            q1=q1,
            median=median,
            q3=q3,
            max=Fraction(max(present)),
            mean=_mean_of(counts),
            histogram=histogram_of(counts),
        )

    def text(self) -> str:
        """``min 20, quartiles 23 / 25 / 29.5, max 62, mean 26.30``."""
        q = " / ".join(_label(float(v)) for v in (self.q1, self.median, self.q3))
        return (
            f"min {_label(float(self.min))}, quartiles {q}, max {_label(float(self.max))}, "
            f"mean {self.mean:.2f}"
        )

    def to_json(self) -> dict[str, JSONValue]:
        """As plain JSON values."""
        return {
            "player": self.player,
            "games": self.games,
            "min": _number(self.min),
            "q1": _number(self.q1),
            "median": _number(self.median),
            "q3": _number(self.q3),
            "max": _number(self.max),
            "mean": round(self.mean, 6),
            "histogram": self.histogram.to_json(),
        }


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion of ``wins`` in ``games`` (95% by
    default): unlike the normal approximation it stays within 0 to 1 and does not
    shrink to nothing when no game (or every game) is won.

    >>> [round(x, 4) for x in wilson_interval(0, 200)]
    [0.0, 0.0188]
    >>> [round(x, 4) for x in wilson_interval(65, 100)]
    [0.5525, 0.7364]
    """
    if games < 1 or not 0 <= wins <= games:
        raise ValueError(f"no proportion of {wins} in {games} games")
    p = wins / games
    spread = z * z / games
    centre = (p + spread / 2) / (1 + spread)
    half = z * math.sqrt(p * (1 - p) / games + spread / (4 * games)) / (1 + spread)
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


@attrs.frozen
class WinRate:
    """Games won of games played, with the 95% Wilson interval of the rate."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        """The share of games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the rate (:func:`wilson_interval`)."""
        return wilson_interval(self.wins, self.games)

    def text(self) -> str:
        """``12 of 40, 30.0% (95% CI 17.9-45.8%)``."""
        low, high = self.interval
        return (
            f"{self.wins} of {self.games}, {100 * self.rate:.1f}% "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%)"
        )

    def to_json(self) -> dict[str, JSONValue]:
        """``{"wins", "games", "rate", "low", "high"}`` (the interval's bounds)."""
        low, high = self.interval
        return {
            "wins": self.wins,
            "games": self.games,
            "rate": round(self.rate, 6),
            "low": round(low, 6),
            "high": round(high, 6),
        }


@attrs.frozen
class CauseStats:
    """How many games ended one way, and the turns in which they did."""

    cause: str
    games: int
    mean_turn: float
    turns: Histogram

    def to_json(self) -> dict[str, JSONValue]:
        """As plain JSON values."""
        return {
            "cause": self.cause,
            "games": self.games,
            "mean_turn": round(self.mean_turn, 6),
            "turns": self.turns.to_json(),
        }


@attrs.frozen
class TallyStats:
    """A tally over the simulation: in how many games it occurred, and its sum."""

    name: str
    games: int
    total: int


@attrs.frozen
class SideStats:
    """How one side fared: a seat (``policy`` empty: whatever played it), a policy
    (``seat`` empty: in whichever seat) or a policy in a seat, over the games it
    played. ``levels`` are the victory levels of the games it won; ``defeats`` the
    games it did not win (lost, drawn or unfinished) by ending cause, with their
    turns, and ``defeat_rules`` the same by the rule that decided them; ``scores``
    its scores where the games counted them (``None`` if none did)."""

    seat: str
    policy: str
    record: WinRate
    levels: tuple[tuple[str, int], ...]
    defeats: tuple[CauseStats, ...]
    defeat_rules: tuple[tuple[str, int], ...]
    scores: ScoreStats | None

    @property
    def label(self) -> str:
        """``Empire (expert)``, ``Empire`` or ``expert``."""
        if self.seat and self.policy:
            return f"{self.seat} ({self.policy})"
        return self.seat or self.policy

    def to_json(self) -> dict[str, JSONValue]:
        """As plain JSON values (``seat`` or ``policy`` null when the side is not one)."""
        return {
            "seat": self.seat or None,
            "policy": self.policy or None,
            "games": self.record.games,
            "wins": self.record.wins,
            "win_rate": self.record.to_json(),
            "levels": dict(self.levels),
            "scores": None if self.scores is None else self.scores.to_json(),
            "defeats": {
                "games": self.record.games - self.record.wins,
                "causes": [c.to_json() for c in self.defeats],
                "rules": dict(self.defeat_rules),
            },
        }


@attrs.frozen
class SimulationSummary:
    """What :func:`simulate` found, in a form both printable and serialisable.

    Distributions are name/count pairs, most frequent first (ties by name); ``seed``
    is the simulation's seed (``None`` when :func:`summarise` was not told it);
    ``seatings`` each seating played (player and policy names, in seat order) with
    its number of games; ``seats``, ``policies`` and ``sides`` how every seat, every
    policy and every policy in every seat fared (:class:`SideStats`);
    ``turn_quartiles`` the quartiles of the turn at the end; ``per_game`` keeps every
    :class:`GameSummary` in game order.
    """

    game: str
    options: Options
    policy: str
    seed: int | None
    games: int
    finished: int
    outcomes: tuple[tuple[str, int], ...]
    levels: tuple[tuple[str, int], ...]
    scores: tuple[ScoreStats, ...]
    causes: tuple[CauseStats, ...]
    turns: Histogram
    mean_turn: float
    mean_steps: float
    min_steps: int
    max_steps: int
    tallies: tuple[TallyStats, ...]
    seatings: tuple[tuple[tuple[tuple[str, str], ...], int], ...]
    seats: tuple[SideStats, ...]
    policies: tuple[SideStats, ...]
    sides: tuple[SideStats, ...]
    turn_quartiles: tuple[Fraction, Fraction, Fraction]
    per_game: tuple[GameSummary, ...] = attrs.field(default=(), repr=False, eq=False)

    def to_json(self, *, per_game: bool = False) -> dict[str, JSONValue]:
        """The summary as plain JSON values; with ``per_game`` every game's summary too."""
        data: dict[str, JSONValue] = {
            "game": self.game,
            "options": dict(self.options),
            "policy": self.policy,
            "seed": self.seed,
            "games": self.games,
            "finished": self.finished,
            "outcomes": dict(self.outcomes),
            "levels": dict(self.levels),
            "scores": [s.to_json() for s in self.scores],
            "causes": [c.to_json() for c in self.causes],
            "turns": self.turns.to_json(),
            "mean_turn": round(self.mean_turn, 6),
            "turn_quartiles": [_number(q) for q in self.turn_quartiles],
            "seatings": [
                {"seats": dict(seating), "games": count} for seating, count in self.seatings
            ],
            "win_rates": {
                "seats": [side.to_json() for side in self.seats],
                "policies": [side.to_json() for side in self.policies],
                "sides": [side.to_json() for side in self.sides],
            },
            "steps": {
                "min": self.min_steps,
                "mean": round(self.mean_steps, 6),
                "max": self.max_steps,
            },
            "tallies": {t.name: {"games": t.games, "total": t.total} for t in self.tallies},
        }
        if per_game:
            data["per_game"] = [g.to_json() for g in self.per_game]
        return data

    def brief(self, title: str = "") -> str:
        """The essential result in one line: games, finished, and who won how often."""
        outcomes = ", ".join(f"{name} {100 * n / self.games:.1f}%" for name, n in self.outcomes)
        levels = ", ".join(f"{name} {100 * n / self.games:.1f}%" for name, n in self.levels)
        rates = ", ".join(
            f"{side.label} {100 * side.record.rate:.1f}% "
            f"[{100 * side.record.interval[0]:.1f}-{100 * side.record.interval[1]:.1f}]"
            for side in self.sides
        )
        return (
            f"{title or self.game}: {self.games} games ({self.finished} finished); "
            f"outcome: {outcomes}; level: {levels}; win rate (95% CI): {rates}"
        )

    def lines(self, title: str = "") -> list[str]:
        """The summary as text lines for a terminal, with text histograms."""
        out: list[str] = []
        options = ", ".join(f"{k}={v}" for k, v in self.options) or "defaults"
        seed = "" if self.seed is None else f", seed {self.seed}"
        out.append(
            f"{title or self.game}: {self.games} games, policy {self.policy}{seed}; "
            f"options: {options}"
        )
        out.append(
            f"Finished: {self.finished} of {self.games}; steps: min {self.min_steps}, "
            f"mean {self.mean_steps:.1f}, max {self.max_steps}"
        )
        if len(self.seatings) > 1:
            out.append("Seatings:")
            out += [
                f"  {count} games: " + ", ".join(f"{player}={policy}" for player, policy in seating)
                for seating, count in self.seatings
            ]
        out += ["", "Outcome (winners)", *_shares(self.outcomes, self.games)]
        out += ["", "Victory level", *_shares(self.levels, self.games)]
        out += ["", "Win rate (games won, with the 95% Wilson interval)"]
        groups: list[tuple[str, tuple[SideStats, ...]]] = [("", self.sides)]
        if len(self.seatings) > 1:
            groups = [
                ("by seat", self.seats),
                ("by policy", self.policies),
                ("by seat and policy", self.sides),
            ]
        for heading, sides in groups:
            indent = "    " if heading else "  "
            width = max(len(side.label) for side in sides)
            out += [f"  {heading}"] if heading else []
            out += [f"{indent}{side.label:<{width}}  {side.record.text()}" for side in sides]
        scored = [side for side in self.sides if side.scores is not None]
        shown = [s.scores for s in scored] if len(self.seatings) > 1 else list(self.scores)
        for score in shown:
            assert score is not None
            out += [
                "",
                f"Score of {score.player} ({score.games} games): {score.text()}",
                *("  " + line for line in score.histogram.lines()),
            ]
        q = " / ".join(_label(float(v)) for v in self.turn_quartiles)
        out += ["", f"Turn at the end: mean {self.mean_turn:.2f}, quartiles {q}"]
        out += ["  " + line for line in self.turns.lines()]
        out += ["", "Causes of defeat (games not won)"]
        for side in self.sides:
            lost = side.record.games - side.record.wins
            out.append(f"  {side.label}: {lost} of {side.record.games}")
            out += [
                f"    {c.cause}: {c.games} ({100 * c.games / lost:.1f}%), "
                f"mean turn {c.mean_turn:.2f}"
                for c in side.defeats
            ]
            if side.defeat_rules:
                out.append(
                    "    by rule: " + ", ".join(f"{rule} {n}" for rule, n in side.defeat_rules)
                )
        out += ["", "Ending causes"]
        for cause in self.causes:
            share = 100 * cause.games / self.games
            out.append(
                f"  {cause.cause}: {cause.games} ({share:.1f}%), mean turn {cause.mean_turn:.2f}"
            )
            out += ["      " + line for line in cause.turns.lines()]
        if self.tallies:
            width = max(len(t.name) for t in self.tallies)
            out += ["", "Tallies (games in which it occurred, total count)"]
            out += [f"  {t.name:<{width}} {t.games:>7} {t.total:>8}" for t in self.tallies]
        return out


def _shares(pairs: Sequence[tuple[str, int]], total: int) -> list[str]:
    if not pairs:
        return []
    width = max(len(name) for name, _ in pairs)
    return [f"  {name:<{width}} {n:>7} {100 * n / total:5.1f}%" for name, n in pairs]


# -- summaries that add up -----------------------------------------------------------------

Turns = Counter[int]
Seats = tuple[tuple[str, str], ...]


def _turns_json(counts: Mapping[int, int]) -> list[JSONValue]:
    return [[value, n] for value, n in sorted(counts.items()) if n]


def _names_json(counts: Mapping[str, int]) -> list[JSONValue]:
    return [[name, n] for name, n in sorted(counts.items()) if n]


def _causes_json(causes: Mapping[str, Turns]) -> dict[str, JSONValue]:
    return {cause: _turns_json(turns) for cause, turns in sorted(causes.items())}


def _fail(what: str) -> SimulationError:
    return SimulationError(f"not a simulation part: {what}")


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{what} is not a whole number")
    return value


def _count(value: object, what: str) -> int:
    number = _int(value, what)
    if number < 0:
        raise _fail(f"{what} is negative")
    return number


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise _fail(f"{what} is not a string")
    return value


def _list(value: object, what: str) -> list[object]:
    if not isinstance(value, list):
        raise _fail(f"{what} is not a list")
    return value


def _dict(value: object, what: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise _fail(f"{what} is not an object")
    return value


def _pair(value: object, what: str) -> tuple[object, object]:
    items = _list(value, what)
    if len(items) != 2:
        raise _fail(f"{what} is not a pair")
    return items[0], items[1]


def _names_of(value: object, what: str) -> Counter[str]:
    counts: Counter[str] = Counter()
    for item in _list(value, what):
        name, n = _pair(item, what)
        counts[_str(name, what)] += _count(n, what)
    return counts


def _turns_of(value: object, what: str) -> Turns:
    counts: Turns = Counter()
    for item in _list(value, what):
        turn, n = _pair(item, what)
        counts[_int(turn, what)] += _count(n, what)
    return counts


def _causes_of(value: object, what: str) -> dict[str, Turns]:
    return {cause: _turns_of(turns, what) for cause, turns in _dict(value, what).items()}


def _fraction(value: object, what: str) -> Fraction:
    try:
        return Fraction(_str(value, what))
    except (ValueError, ZeroDivisionError):
        raise _fail(f"{what} is not a fraction") from None


def _seats_of(value: object, what: str) -> Seats:
    return tuple(
        (_str(player, what), _str(policy, what))
        for player, policy in (_pair(item, what) for item in _list(value, what))
    )


def _add_turns(into: dict[str, Turns], other: Mapping[str, Turns]) -> None:
    for cause, turns in other.items():
        into.setdefault(cause, Counter()).update(turns)


def _cause_stats(causes: Mapping[str, Turns]) -> tuple[CauseStats, ...]:
    ranked = sorted(causes.items(), key=lambda item: (-item[1].total(), item[0]))
    return tuple(
        CauseStats(cause, turns.total(), _mean_of(turns), histogram_of(turns))
        for cause, turns in ranked
    )


@attrs.define
class _Side:
    """How one policy in one seat fared, in counts that add up (see :class:`Tally`)."""

    games: int = 0
    wins: int = 0
    levels: Counter[str] = attrs.Factory(Counter)
    defeats: dict[str, Turns] = attrs.Factory(dict)
    rules: Counter[str] = attrs.Factory(Counter)
    scores: Counter[Fraction] = attrs.Factory(Counter)

    def add(self, game: GameSummary, player: str) -> None:
        self.games += 1
        if player in game.winners:
            self.wins += 1
            self.levels[game.level] += 1
        else:
            self.defeats.setdefault(game.cause, Counter())[game.turn] += 1
            self.rules[game.rule] += 1
        for name, score in game.scores:
            if name == player:
                self.scores[score] += 1

    def update(self, other: _Side) -> None:
        self.games += other.games
        self.wins += other.wins
        self.levels.update(other.levels)
        _add_turns(self.defeats, other.defeats)
        self.rules.update(other.rules)
        self.scores.update(other.scores)

    def stats(self, seat: str, policy: str) -> SideStats:
        label = f"{seat} ({policy})" if seat and policy else seat or policy
        return SideStats(
            seat=seat,
            policy=policy,
            record=WinRate(self.wins, self.games),
            levels=_ranked(self.levels),
            defeats=_cause_stats(self.defeats),
            defeat_rules=_ranked(self.rules),
            scores=ScoreStats.of_counts(label, self.scores) if self.scores.total() else None,
        )

    def to_json(self) -> dict[str, JSONValue]:
        return {
            "games": self.games,
            "wins": self.wins,
            "levels": _names_json(self.levels),
            "defeats": _causes_json(self.defeats),
            "rules": _names_json(self.rules),
            "scores": [[str(v), n] for v, n in sorted(self.scores.items()) if n],
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> _Side:
        scores: Counter[Fraction] = Counter()
        for item in _list(data.get("scores"), "a side's scores"):
            value, n = _pair(item, "a side's score")
            scores[_fraction(value, "a score")] += _count(n, "a score's count")
        side = cls(
            games=_count(data.get("games"), "a side's games"),
            wins=_count(data.get("wins"), "a side's wins"),
            levels=_names_of(data.get("levels"), "a side's levels"),
            defeats=_causes_of(data.get("defeats"), "a side's defeats"),
            rules=_names_of(data.get("rules"), "a side's rules"),
            scores=scores,
        )
        if side.wins > side.games:
            raise _fail("a side won more games than it played")
        return side


@attrs.define
class Tally:
    """A simulation's games summed up in counts that add up, from which
    :meth:`summary` makes the :class:`SimulationSummary`.

    Every statistic of the summary is kept as a count (games, wins, finished games),
    a sum (steps), a least and greatest value, or a histogram of exact values (turns;
    scores as fractions, so half points stay exact): the tally of a million games
    takes no more memory than that of a hundred, and tallies of parts of a simulation
    :meth:`update` one another into the tally of the whole, the same whatever the
    order or the grouping. ``seatings`` also keeps each seating's first game, so that
    the summary lists seatings and policies in the order of the games.

    >>> import tests.pig
    >>> games = [run_job(job) for job in simulation_jobs("pig", games=4, seed=2)]
    >>> whole, left, right = Tally(), Tally(), Tally()
    >>> for index, game in enumerate(games):
    ...     whole.add(index, game)
    ...     (left if index < 2 else right).add(index, game)
    >>> right.update(left)
    >>> right == whole and right.summary(seed=2) == summarise(games, seed=2)
    True
    """

    game: str = ""
    options: Options = ()
    games: int = 0
    finished: int = 0
    outcomes: Counter[str] = attrs.Factory(Counter)
    levels: Counter[str] = attrs.Factory(Counter)
    causes: dict[str, Turns] = attrs.Factory(dict)
    turns: Turns = attrs.Factory(Counter)
    steps: int = 0
    min_steps: int = 0
    max_steps: int = 0
    tallies: dict[str, tuple[int, int]] = attrs.Factory(dict)
    seatings: dict[Seats, tuple[int, int]] = attrs.Factory(dict)
    sides: dict[tuple[str, str], _Side] = attrs.Factory(dict)

    def _same_game(self, game: str, options: Options, players: int) -> None:
        if not self.games:
            self.game, self.options = game, options
            return
        known = len(next(iter(self.seatings))) if self.seatings else players
        if (game, options, players) != (self.game, self.options, known):
            raise SimulationError("the games to summarise differ in game or options")

    def add(self, index: int, game: GameSummary) -> None:
        """Count game number ``index`` of the simulation."""
        self._same_game(game.game, game.options, len(game.seats))
        self.min_steps = game.steps if not self.games else min(self.min_steps, game.steps)
        self.max_steps = game.steps if not self.games else max(self.max_steps, game.steps)
        self.games += 1
        self.finished += 1 if game.finished else 0
        self.outcomes[game.outcome] += 1
        self.levels[game.level] += 1
        self.causes.setdefault(game.cause, Counter())[game.turn] += 1
        self.turns[game.turn] += 1
        self.steps += game.steps
        for name, count in game.tallies:
            games, total = self.tallies.get(name, (0, 0))
            self.tallies[name] = (games + (1 if count else 0), total + count)
        count, first = self.seatings.get(game.seats, (0, index))
        self.seatings[game.seats] = (count + 1, min(first, index))
        for player, policy in game.seats:
            self.sides.setdefault((player, policy), _Side()).add(game, player)

    def update(self, other: Tally) -> None:
        """Add the games of ``other`` (of the same game and options) to this tally."""
        if not other.games:
            return
        if self.games:
            players = len(next(iter(other.seatings)))
            self._same_game(other.game, other.options, players)
            self.min_steps = min(self.min_steps, other.min_steps)
            self.max_steps = max(self.max_steps, other.max_steps)
        else:
            self.game, self.options = other.game, other.options
            self.min_steps, self.max_steps = other.min_steps, other.max_steps
        self.games += other.games
        self.finished += other.finished
        self.outcomes.update(other.outcomes)
        self.levels.update(other.levels)
        _add_turns(self.causes, other.causes)
        self.turns.update(other.turns)
        self.steps += other.steps
        for name, (games, total) in other.tallies.items():
            mine = self.tallies.get(name, (0, 0))
            self.tallies[name] = (mine[0] + games, mine[1] + total)
        for seats, (count, first) in other.seatings.items():
            mine = self.seatings.get(seats, (0, first))
            self.seatings[seats] = (mine[0] + count, min(mine[1], first))
        for key, side in other.sides.items():
            self.sides.setdefault(key, _Side()).update(side)

    def summary(
        self, *, seed: int | None = None, per_game: Sequence[GameSummary] = ()
    ) -> SimulationSummary:
        """The summary of the games counted (at least one)."""
        if not self.games:
            raise SimulationError("nothing to summarise: no games were played")
        plan = sorted(self.seatings.items(), key=lambda item: item[1][1])
        seat_order = [player for player, _ in plan[0][0]]
        labels = list(dict.fromkeys(_seating_label(seats) for seats, _ in plan))
        keys = list(dict.fromkeys(pair for seats, _ in plan for pair in seats))
        names = list(dict.fromkeys(policy for _, policy in keys))

        def merged(chosen: Iterable[tuple[str, str]]) -> _Side:
            total = _Side()
            for key in chosen:
                total.update(self.sides[key])
            return total

        seats = tuple(
            merged(k for k in keys if k[0] == player).stats(player, "") for player in seat_order
        )
        return SimulationSummary(
            game=self.game,
            options=self.options,
            policy=labels[0] if len(labels) == 1 else f"{' v '.join(names)} ({len(plan)} seatings)",
            seed=seed,
            games=self.games,
            finished=self.finished,
            outcomes=_ranked(self.outcomes),
            levels=_ranked(self.levels),
            scores=tuple(seat.scores for seat in seats if seat.scores is not None),
            causes=_cause_stats(self.causes),
            turns=histogram_of(self.turns),
            mean_turn=_mean_of(self.turns),
            mean_steps=self.steps / self.games,
            min_steps=self.min_steps,
            max_steps=self.max_steps,
            tallies=tuple(TallyStats(name, *self.tallies[name]) for name in sorted(self.tallies)),
            seatings=tuple((seating, count) for seating, (count, _) in plan),
            seats=seats,
            policies=tuple(
                merged(k for k in keys if k[1] == name).stats("", name) for name in names
            ),
            sides=tuple(
                self.sides[player, name].stats(player, name)
                for player in seat_order
                for (seat, name) in keys
                if seat == player
            ),
            turn_quartiles=quartiles_of(self.turns),
            per_game=tuple(per_game),
        )

    def to_json(self) -> dict[str, JSONValue]:
        """The tally as plain JSON values (scores as fraction strings such as ``"3/2"``)."""
        return {
            "game": self.game,
            "options": [[name, value] for name, value in self.options],
            "games": self.games,
            "finished": self.finished,
            "outcomes": _names_json(self.outcomes),
            "levels": _names_json(self.levels),
            "causes": _causes_json(self.causes),
            "turns": _turns_json(self.turns),
            "steps": {"sum": self.steps, "min": self.min_steps, "max": self.max_steps},
            "tallies": {name: list(pair) for name, pair in sorted(self.tallies.items())},
            "seatings": [
                {"seats": [list(pair) for pair in seats], "games": count, "first": first}
                for seats, (count, first) in sorted(self.seatings.items(), key=lambda i: i[1][1])
            ],
            "sides": [
                {"seat": seat, "policy": policy, **side.to_json()}
                for (seat, policy), side in self.sides.items()
            ],
        }

    @classmethod
    def from_json(cls, value: object) -> Tally:
        """A tally from :meth:`to_json`; anything else is a :class:`SimulationError`."""
        data = _dict(value, "the tally")
        steps = _dict(data.get("steps"), "the steps")
        options: list[tuple[str, OptionValue]] = []
        for item in _list(data.get("options"), "the options"):
            name, option = _pair(item, "an option")
            if not isinstance(option, bool | int | str):
                raise _fail("an option's value is not a boolean, number or string")
            options.append((_str(name, "an option's name"), option))
        tallies: dict[str, tuple[int, int]] = {}
        for name, pair in _dict(data.get("tallies"), "the tallies").items():
            games, total = _pair(pair, "a tally")
            tallies[name] = (_count(games, "a tally"), _int(total, "a tally"))
        seatings: dict[Seats, tuple[int, int]] = {}
        for item in _list(data.get("seatings"), "the seatings"):
            entry = _dict(item, "a seating")
            seatings[_seats_of(entry.get("seats"), "a seating")] = (
                _count(entry.get("games"), "a seating's games"),
                _count(entry.get("first"), "a seating's first game"),
            )
        sides: dict[tuple[str, str], _Side] = {}
        for item in _list(data.get("sides"), "the sides"):
            entry = _dict(item, "a side")
            key = (_str(entry.get("seat"), "a side's seat"), _str(entry.get("policy"), "policy"))
            sides[key] = _Side.from_json(entry)
        tally = cls(
            game=_str(data.get("game"), "the game"),
            options=tuple(options),
            games=_count(data.get("games"), "the games"),
            finished=_count(data.get("finished"), "the finished games"),
            outcomes=_names_of(data.get("outcomes"), "the outcomes"),
            levels=_names_of(data.get("levels"), "the levels"),
            causes=_causes_of(data.get("causes"), "the causes"),
            turns=_turns_of(data.get("turns"), "the turns"),
            steps=_count(steps.get("sum"), "the steps"),
            min_steps=_count(steps.get("min"), "the least steps"),
            max_steps=_count(steps.get("max"), "the most steps"),
            tallies=tallies,
            seatings=seatings,
            sides=sides,
        )
        counted = (
            tally.outcomes.total(),
            tally.levels.total(),
            tally.turns.total(),
            sum(count for count, _ in seatings.values()),
        )
        if any(n != tally.games for n in counted) or tally.finished > tally.games:
            raise _fail("its counts do not add up to its games")
        if tally.games and (not seatings or any(key not in sides for s in seatings for key in s)):
            raise _fail("a seat of a seating has no side")
        return tally


def _ranked(counter: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(((k, n) for k, n in counter.items() if n), key=lambda i: (-i[1], i[0])))


def summarise(results: Sequence[GameSummary], *, seed: int | None = None) -> SimulationSummary:
    """Aggregate per-game summaries (all of one game, options and policy), in their order
    (game ``i`` of a simulation at place ``i``); the summary keeps them as ``per_game``."""
    tally = Tally()
    for index, result in enumerate(results):
        tally.add(index, result)
    return tally.summary(seed=seed, per_game=results)


# -- plans, chunks and parts -------------------------------------------------------------------


@attrs.frozen
class SimulationPlan:
    """What a simulation plays: ``games`` games of each seating in turn, game ``i``
    seeded with :func:`game_seed` ``(seed, i)``. Two runs of one plan play the same
    games, wherever they run; ``module`` (the module that registers the game, imported
    first by a worker) is not part of the plan's identity."""

    game: str
    options: Options
    seatings: tuple[Seating, ...]
    games: int
    seed: int
    max_steps: int
    module: str = attrs.field(default="", eq=False)

    @property
    def total(self) -> int:
        """The number of games of the plan: ``games`` per seating."""
        return self.games * len(self.seatings)

    def job(self, index: int) -> GameJob:
        """The job of game ``index`` (a seating whose seats all play one policy travels
        as that policy's name)."""
        seating = self.seatings[index // self.games]
        named: str | Seating = seating[0] if len(set(seating)) == 1 else seating
        return GameJob(
            self.game,
            self.options,
            named,
            game_seed(self.seed, index),
            self.max_steps,
            self.module,
        )

    def to_json(self) -> dict[str, JSONValue]:
        """The plan as plain JSON values."""
        return {
            "game": self.game,
            "options": [[name, value] for name, value in self.options],
            "seatings": [list(seating) for seating in self.seatings],
            "games": self.games,
            "seed": self.seed,
            "max_steps": self.max_steps,
            "module": self.module,
        }

    @classmethod
    def from_json(cls, value: object) -> SimulationPlan:
        """A plan from :meth:`to_json`; anything else is a :class:`SimulationError`."""
        data = _dict(value, "the plan")
        options = Tally.from_json({**Tally().to_json(), "options": data.get("options")}).options
        seatings = tuple(
            tuple(_str(name, "a policy") for name in _list(seating, "a seating"))
            for seating in _list(data.get("seatings"), "the seatings")
        )
        plan = cls(
            game=_str(data.get("game"), "the game"),
            options=options,
            seatings=seatings,
            games=_count(data.get("games"), "the games"),
            seed=_int(data.get("seed"), "the seed"),
            max_steps=_count(data.get("max_steps"), "max_steps"),
            module=_str(data.get("module", ""), "the module"),
        )
        if not seatings or plan.games < 1 or plan.total > MAX_GAMES:
            raise _fail("its plan plays no games or too many")
        return plan

    def describe(self) -> str:
        """``pig (target=10), policy random, 5 games, seed 3, max 1000000 steps``."""
        options = ", ".join(f"{k}={v}" for k, v in self.options)
        seats = " / ".join(",".join(seating) for seating in self.seatings)
        return (
            f"{self.game}{f' ({options})' if options else ''}, policy {seats}, "
            f"{self.games} games, seed {self.seed}, max {self.max_steps} steps"
        )


def simulation_plan(
    game_id: str,
    options: Mapping[str, OptionValue] | Options | None = None,
    *,
    games: int,
    seed: int = 0,
    policy: str | Sequence[str] = "random",
    swap_seats: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> SimulationPlan:
    """The plan of a simulation, once everything that can be checked before any game
    is played has been: the game and its options load, the policies exist, ``games``
    and ``max_steps`` are positive and the games at most :data:`MAX_GAMES`."""
    for name, value in (("games", games), ("seed", seed), ("max_steps", max_steps)):
        if type(value) is not int:
            raise SimulationError(f"{name} must be an integer, not {repr(value)[:60]}")
    if not isinstance(game_id, str):
        raise SimulationError(f"a game id is a string, not {repr(game_id)[:60]}")
    if games < 1:
        raise SimulationError(f"a simulation needs at least one game, not {games}")
    if max_steps < 1:
        raise SimulationError(f"max_steps must be at least 1, not {max_steps}")
    if games > MAX_GAMES:
        raise SimulationError(f"a simulation plays at most {MAX_GAMES:,} games, not {games:,}")
    opts = _options(options)
    game = _game(game_id, opts)
    if swap_seats and game.NUM_PLAYERS < 2:
        raise SimulationError(f"{game_id} is a one-player game: there are no seats to swap")
    plan = seatings(_seating(game, policy), swap_seats=swap_seats)
    for name in dict.fromkeys(itertools.chain.from_iterable(plan)):
        policy_for(game, name)
    total = games * len(plan)
    if total > MAX_GAMES:
        raise SimulationError(f"a simulation plays at most {MAX_GAMES:,} games, not {total:,}")
    module = game_class(game_id).__module__
    return SimulationPlan(game_id, opts, plan, games, seed, max_steps, module)


@attrs.frozen
class Chunk:
    """Games ``start`` to ``stop - 1`` of a plan: one task for a worker (:func:`run_chunk`).
    With ``detail`` the result also carries every game's summary."""

    plan: SimulationPlan
    start: int
    stop: int
    detail: bool = False


@attrs.frozen
class ChunkResult:
    """The tally of a chunk's games (and, asked for, their summaries in order)."""

    start: int
    stop: int
    tally: Tally = attrs.field(eq=False)
    games: tuple[GameSummary, ...] = ()


def run_chunk(chunk: Chunk) -> ChunkResult:
    """Play a chunk's games in a row and tally them: the task a worker runs."""
    if chunk.plan.module:
        importlib.import_module(chunk.plan.module)
    tally = Tally()
    kept: list[GameSummary] = []
    for index in range(chunk.start, chunk.stop):
        summary = run_job(chunk.plan.job(index))
        tally.add(index, summary)
        if chunk.detail:
            kept.append(summary)
    return ChunkResult(chunk.start, chunk.stop, tally, tuple(kept))


PART_FORMAT = "byzantium-simulation-part"
#: The largest part or checkpoint file read (a part holds counts only: kilobytes).
MAX_PART_BYTES = 64 * 1024 * 1024


@attrs.frozen
class SimulationPart:
    """The tally of games ``start`` to ``stop - 1`` of a plan: what a shard, or an
    interrupted run, has done. Parts of one plan that cover all its games once
    :func:`merge_parts` into the whole, whose :meth:`summary` is that of one run."""

    plan: SimulationPlan
    start: int
    stop: int
    tally: Tally

    def summary(self) -> SimulationSummary:
        """The summary of the part's games."""
        return self.tally.summary(seed=self.plan.seed)

    def to_json(self) -> dict[str, JSONValue]:
        """The part as plain JSON values (read back by :func:`read_part`)."""
        return {
            "format": PART_FORMAT,
            "version": 1,
            "plan": self.plan.to_json(),
            "games": [self.start, self.stop],
            "tally": self.tally.to_json(),
        }

    @classmethod
    def from_json(cls, value: object) -> SimulationPart:
        """A part from :meth:`to_json`; anything else is a :class:`SimulationError`."""
        data = _dict(value, "the file")
        if data.get("format") != PART_FORMAT or data.get("version") != 1:
            raise _fail(f"its format is not {PART_FORMAT} version 1")
        plan = SimulationPlan.from_json(data.get("plan"))
        start, stop = _pair(data.get("games"), "its games")
        part = cls(plan, _count(start, "its first game"), _count(stop, "its end"), Tally())
        tally = Tally.from_json(data.get("tally"))
        if not part.start <= part.stop <= plan.total or tally.games != part.stop - part.start:
            raise _fail("its games do not fit its plan")
        if tally.games and (tally.game, tally.options) != (plan.game, plan.options):
            raise _fail("its tally is of another game or options")
        return attrs.evolve(part, tally=tally)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it, so that a
    run killed while writing leaves the old file or the new one, never half of one.

    A path that names something other than a regular file (``/dev/null``, a pipe) is
    written straight to: renaming over it would replace the device with a file."""
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as stream:
            stream.write(text)
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with temporary.open("w", encoding="utf-8") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temporary, path)


def _read_json(path: Path) -> object:
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_PART_BYTES + 1)
    except OSError as exc:
        raise SimulationError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_PART_BYTES:
        raise SimulationError(
            f"{path}: not a simulation part: larger than {MAX_PART_BYTES:,} bytes"
        )
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise SimulationError(f"{path}: not a simulation part: not JSON ({exc})") from None


def read_part(path: Path) -> SimulationPart:
    """The part saved in ``path`` (by ``simulate --part``, ``--checkpoint`` or
    :meth:`SimulationPart.to_json`); anything else is one :class:`SimulationError`."""
    try:
        return SimulationPart.from_json(_read_json(path))
    except SimulationError as exc:
        message = str(exc)
        raise SimulationError(
            message if message.startswith(str(path)) else f"{path}: {message}"
        ) from None


def merge_parts(
    parts: Sequence[SimulationPart], names: Sequence[str] | None = None
) -> SimulationPart:
    """The whole simulation from its parts: they must share one plan and cover every
    game of it exactly once (parts of a plan, a shard run again, missing or
    overlapping games are refused, naming the parts by ``names``)."""
    if not parts:
        raise SimulationError("nothing to merge: no parts")
    labels = list(names) if names is not None else [f"part {i + 1}" for i in range(len(parts))]
    first = parts[0].plan
    for label, part in zip(labels, parts, strict=True):
        if part.plan != first:
            raise SimulationError(
                f"{label} is of another simulation ({part.plan.describe()}) than "
                f"{labels[0]} ({first.describe()})"
            )
    ordered = sorted(zip(parts, labels, strict=True), key=lambda item: item[0].start)
    reached, previous = 0, ""
    for part, label in ordered:
        if part.start < reached:
            raise SimulationError(f"{label} and {previous} overlap: both hold game {part.start}")
        if part.start > reached:
            raise SimulationError(
                f"games {reached} to {part.start - 1} are in no part (shards missing?)"
            )
        reached, previous = max(reached, part.stop), label
    if reached < first.total:
        raise SimulationError(
            f"games {reached} to {first.total - 1} are in no part (shards missing?)"
        )
    tally = Tally()
    for part, _ in ordered:
        tally.update(part.tally)
    return SimulationPart(first, 0, first.total, tally)


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` as ``(K, N)``: the K-th of N shards (1 <= K <= N).

    >>> parse_shard("2/8")
    (2, 8)
    """
    match = re.fullmatch(r"\s*(\d{1,9})\s*/\s*(\d{1,9})\s*", text)
    if match is None or not 1 <= int(match[1]) <= int(match[2]):
        raise SimulationError(f"a shard is K/N with 1 <= K <= N, not {text[:40]!r}")
    return int(match[1]), int(match[2])


def shard_games(shard: tuple[int, int], total: int) -> tuple[int, int]:
    """The games ``(start, stop)`` of shard ``K/N`` of ``total``: the K-th of N runs of
    nearly equal length, one after the other.

    >>> [shard_games((k, 3), 10) for k in (1, 2, 3)]
    [(0, 3), (3, 6), (6, 10)]
    """
    k, n = shard
    if n > total:
        raise SimulationError(f"{n} shards of {total} games: some shards would have none")
    return (k - 1) * total // n, k * total // n


_LOCAL = re.compile(r"local:(\d{1,4})")
_REMOTE = re.compile(r"(tcp|tls)://(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")


def parse_cluster(spec: str) -> tuple[str, int]:
    """A ``--cluster`` address: ``("local", N)`` for ``local:N`` (a Dask LocalCluster
    of N worker processes) or ``(address, 0)`` for ``tcp://HOST:PORT`` (a scheduler).

    >>> parse_cluster("local:2"), parse_cluster("tcp://10.0.0.5:8786")
    (('local', 2), ('tcp://10.0.0.5:8786', 0))
    """
    local = _LOCAL.fullmatch(spec)
    if local is not None and 1 <= int(local[1]) <= 1024:
        return "local", int(local[1])
    remote = _REMOTE.fullmatch(spec)
    if remote is not None and 1 <= int(remote[3]) <= 65535:
        return spec, 0
    raise SimulationError(
        f"a cluster is local:N (1 to 1024 workers) or tcp://HOST:PORT, not {spec[:80]!r}"
    )


# -- running -----------------------------------------------------------------------------------


class MapExecutor(Protocol):
    """Anything that maps a function over jobs and yields the results in order.

    ``concurrent.futures`` executors, ``multiprocessing`` pools, Dask's
    ``Client.get_executor()`` and Ray's ``ray.util.multiprocessing.Pool`` all qualify.
    """

    def map(
        self, fn: Callable[[GameJob], GameSummary], iterable: Iterable[GameJob], /
    ) -> Iterable[GameSummary]:
        """Apply ``fn`` to every job; results in the jobs' order."""
        ...


#: Seconds a ``tcp://`` scheduler has to answer.
CONNECT_SECONDS = 20
#: The most games in one chunk sent to a worker.
MAX_CHUNK = 50
#: Seconds between two checkpoints (one is also written at the end).
CHECKPOINT_SECONDS = 1.0


def _chunks(
    plan: SimulationPlan, start: int, stop: int, size: int, detail: bool
) -> Iterator[Chunk]:
    for first in range(start, stop, size):
        yield Chunk(plan, first, min(first + size, stop), detail)


def _chunk_size(games: int, workers: int) -> int:
    return max(1, min(MAX_CHUNK, games // (workers * 8)))


def _in_processes(chunks: Iterator[Chunk], workers: int) -> Iterator[ChunkResult]:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: set[Future[ChunkResult]] = set()
        for chunk in itertools.islice(chunks, workers * IN_FLIGHT_PER_WORKER):
            pending.add(pool.submit(run_chunk, chunk))
        while pending:
            ended, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ended:
                following = next(chunks, None)
                if following is not None:
                    pending.add(pool.submit(run_chunk, following))
                yield future.result()


def _distributed() -> ModuleType:
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise SimulationError(
            "a cluster needs Dask: pip install 'byzantium[cluster]' (dask[distributed])"
        ) from None


@contextlib.contextmanager
def _dask_client(spec: str) -> Iterator[tuple[Any, int]]:
    """A Dask client of the cluster ``spec`` (see :func:`parse_cluster`) and its workers."""
    address, workers = parse_cluster(spec)
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        if address == "local":
            # No dashboard, so no use for the workers' statistical profiler either: it
            # samples the running game's stack a hundred times a second.
            config = importlib.import_module("dask.config")
            stack.enter_context(config.set({"distributed.worker.profile.enabled": False}))
            try:
                cluster = stack.enter_context(
                    distributed.LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        silence_logs=logging.ERROR,
                    )
                )
            except (OSError, RuntimeError, TimeoutError) as exc:
                reason = " ".join(str(exc).split())[:160]
                raise SimulationError(f"cannot start a local Dask cluster: {reason}") from None
            client = stack.enter_context(distributed.Client(cluster))
        else:
            try:
                client = stack.enter_context(distributed.Client(address, timeout=CONNECT_SECONDS))
            except (OSError, TimeoutError) as exc:
                reason = " ".join(str(exc).split())[:160]
                raise SimulationError(
                    f"cannot reach the Dask scheduler at {address}: {reason}"
                ) from None
            workers = max(1, len(client.scheduler_info().get("workers", {})))
        yield client, workers


def _on_cluster(client: Any, chunks: Iterator[Chunk], workers: int) -> Iterator[ChunkResult]:
    distributed = _distributed()
    submit = client.submit
    finished = distributed.as_completed()
    for chunk in itertools.islice(chunks, workers * IN_FLIGHT_PER_WORKER):
        finished.add(submit(run_chunk, chunk, pure=False))
    for future in finished:
        following = next(chunks, None)
        if following is not None:
            finished.add(submit(run_chunk, following, pure=False))
        result: ChunkResult = future.result()
        yield result


def _mapped(
    executor: MapExecutor, plan: SimulationPlan, start: int, stop: int
) -> Iterator[ChunkResult]:
    jobs = map(plan.job, range(start, stop))
    for index, summary in enumerate(executor.map(run_job, jobs), start):
        tally = Tally()
        tally.add(index, summary)
        yield ChunkResult(index, index + 1, tally, (summary,))


def _checkpoint(path: Path, part: SimulationPart, per_game_bytes: int | None) -> None:
    data = part.to_json()
    data["per_game_bytes"] = per_game_bytes
    write_atomically(path, json.dumps(data, ensure_ascii=False) + "\n")


def _resume(
    path: Path, plan: SimulationPlan, start: int, stop: int
) -> tuple[SimulationPart, int | None]:
    part = read_part(path)
    if part.plan != plan or part.start != start or not start <= part.stop <= stop:
        raise SimulationError(
            f"checkpoint {path} is of another run ({part.plan.describe()}, games "
            f"{part.start}-{part.stop - 1}): remove it or give its run's arguments"
        )
    data = _read_json(path)
    assert isinstance(data, dict)
    written = data.get("per_game_bytes")
    if written is not None and (
        isinstance(written, bool) or not isinstance(written, int) or written < 0
    ):
        raise SimulationError(f"{path}: not a simulation part: per_game_bytes is not a count")
    return part, written


def simulate_part(
    plan: SimulationPlan,
    *,
    start: int = 0,
    stop: int | None = None,
    jobs: int = 1,
    cluster: str | None = None,
    executor: MapExecutor | None = None,
    progress: Callable[[int, int], None] | None = None,
    checkpoint: Path | None = None,
    per_game: Path | None = None,
    keep_games: bool = False,
    chunk_size: int | None = None,
    checkpoint_every: float = CHECKPOINT_SECONDS,
) -> tuple[SimulationPart, tuple[GameSummary, ...]]:
    """Play games ``start`` to ``stop - 1`` of ``plan`` and tally them.

    The games run in this process (``jobs=1``), in ``jobs`` worker processes, on a
    Dask cluster (``cluster``, see :func:`parse_cluster`) or through a map-style
    ``executor``, in chunks of games sent out a few per worker at a time; results come
    back as chunks finish and are counted in game order, so the tally is the same
    whichever runs them. ``progress(done, total)`` is called for every game as its
    chunk finishes. A chunk holds ``chunk_size`` games (by default an eighth of a
    worker's share, at most :data:`MAX_CHUNK`; one in this process, so that progress
    counts every game). ``per_game`` streams every game's summary to a file as JSON lines
    (with its ``index``) and ``keep_games`` keeps them for the caller; otherwise
    nothing of a game outlives its chunk. ``checkpoint`` names a file rewritten
    atomically every ``checkpoint_every`` seconds (at most once per chunk) and at the
    end with the tally so far; if it exists at the start, the run goes on from where
    it stopped, and the per-game file is cut back to the games the checkpoint holds.
    """
    end = plan.total if stop is None else stop
    if not 0 <= start < end <= plan.total:
        raise SimulationError(f"games {start} to {end - 1} are not games of the plan")
    if type(jobs) is not int:
        raise SimulationError(f"jobs must be an integer, not {repr(jobs)[:60]}")
    if jobs < 1:
        raise SimulationError(f"jobs must be at least 1, not {jobs}")
    if chunk_size is not None and chunk_size < 1:
        raise SimulationError(f"a chunk holds at least one game, not {chunk_size}")
    if not checkpoint_every >= 0:
        raise SimulationError(f"checkpoints are at least 0 seconds apart, not {checkpoint_every}")
    for path in (checkpoint, per_game):
        if path is not None and not path.absolute().parent.is_dir():
            raise SimulationError(f"{path}: no such directory to write in")
    if sum(x is not None for x in (cluster, executor)) + (jobs > 1) > 1:
        raise SimulationError("choose one of jobs, a cluster and an executor")
    tally, done_to, written = Tally(), start, None
    if checkpoint is not None and checkpoint.exists():
        part, written = _resume(checkpoint, plan, start, end)
        tally, done_to = part.tally, part.stop
        if (written is None) != (per_game is None):
            raise SimulationError(
                f"checkpoint {checkpoint} was written {'without' if written is None else 'with'}"
                " a per-game file: resume it the same way"
            )
        if keep_games and done_to > start:
            raise SimulationError(
                "games kept in memory cannot be resumed from a checkpoint: write them to a file"
            )
        if per_game is not None and written is not None and per_game.stat().st_size < written:
            raise SimulationError(
                f"{per_game} is shorter than checkpoint {checkpoint} says: it is not that run's"
            )
    kept: list[GameSummary] = []
    detail = keep_games or per_game is not None
    total = end - done_to
    with contextlib.ExitStack() as stack:
        rows = None
        if per_game is not None:
            rows = stack.enter_context(per_game.open("r+b" if written is not None else "wb"))
            if written is not None:
                rows.truncate(written)
                rows.seek(written)
        if cluster is not None:
            client, workers = stack.enter_context(_dask_client(cluster))
            size = chunk_size or _chunk_size(total, workers)
            results = _on_cluster(client, _chunks(plan, done_to, end, size, detail), workers)
        elif executor is not None:
            results = _mapped(executor, plan, done_to, end)
        elif (workers := worker_count(jobs, total)) > 1:
            size = chunk_size or _chunk_size(total, workers)
            results = _in_processes(_chunks(plan, done_to, end, size, detail), workers)
        else:
            results = map(run_chunk, _chunks(plan, done_to, end, chunk_size or 1, detail))

        def save() -> None:
            if checkpoint is None:
                return
            offset = None
            if rows is not None:
                rows.flush()
                os.fsync(rows.fileno())
                offset = rows.tell()
            _checkpoint(checkpoint, SimulationPart(plan, start, done_to, tally), offset)

        waiting: dict[int, ChunkResult] = {}
        arrived, saved = 0, time.monotonic()
        for result in results:
            if progress is not None:
                for _ in range(result.start, result.stop):
                    arrived += 1
                    progress(arrived, total)
            # Counted in game order (a chunk that finishes early waits for those
            # before it), so that a checkpoint and the per-game file always hold the
            # games from the first up to some game, and nothing else.
            waiting[result.start] = result
            while done_to in waiting:
                ready = waiting.pop(done_to)
                tally.update(ready.tally)
                for index, summary in enumerate(ready.games, ready.start):
                    if rows is not None:
                        line = {"index": index, **summary.to_json()}
                        rows.write((json.dumps(line, ensure_ascii=False) + "\n").encode())
                    if keep_games:
                        kept.append(summary)
                done_to = ready.stop
                if time.monotonic() - saved >= checkpoint_every:
                    save()
                    saved = time.monotonic()
        assert done_to == end and not waiting
        save()
    return SimulationPart(plan, start, end, tally), tuple(kept)


def simulate(
    game_id: str,
    options: Mapping[str, OptionValue] | Options | None = None,
    *,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    policy: str | Sequence[str] = "random",
    swap_seats: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    executor: MapExecutor | None = None,
    progress: Callable[[int, int], None] | None = None,
    cluster: str | None = None,
    checkpoint: Path | None = None,
    per_game: Path | None = None,
    keep_games: bool = False,
    chunk_size: int | None = None,
) -> SimulationSummary:
    """Play ``games`` whole games of ``game_id`` (per seating) and summarise them.

    ``policy`` names the policy every player uses (``random``, ``first`` or one of
    the game's own), or gives one name per seat (see :func:`parse_seating`); with
    ``swap_seats`` each distinct rotation of the seating plays ``games`` games
    (:func:`seatings`), so that every policy is measured in every seat. Game ``i``
    is seeded with :func:`game_seed` ``(seed, i)``, so the summary is the same
    wherever the games run: in this process, in ``jobs`` worker processes, on a Dask
    ``cluster`` (``"local:N"`` or ``"tcp://HOST:PORT"``) or through ``executor``
    (anything with ``map``, see :class:`MapExecutor`; one game per task).
    ``progress(done, total)`` is called each time a game finishes (in the order
    they finish with workers). A game still running after ``max_steps`` steps counts
    as unfinished. The summary holds counts only; ``per_game`` streams every game's
    summary to a file (JSON lines) and ``keep_games`` keeps them in the summary's
    ``per_game``. ``checkpoint`` lets an interrupted run resume and ``chunk_size``
    sets the games sent to a worker at once (see :func:`simulate_part`).
    """
    plan = simulation_plan(
        game_id,
        options,
        games=games,
        seed=seed,
        policy=policy,
        swap_seats=swap_seats,
        max_steps=max_steps,
    )
    part, kept = simulate_part(
        plan,
        jobs=jobs,
        cluster=cluster,
        executor=executor,
        progress=progress,
        checkpoint=checkpoint,
        per_game=per_game,
        keep_games=keep_games,
        chunk_size=chunk_size,
    )
    return part.tally.summary(seed=seed, per_game=kept)


# -- pictures ----------------------------------------------------------------------------------


def save_histograms_png(summary: SimulationSummary, directory: Path) -> list[Path]:
    """Save the summary's histograms as PNG files in ``directory``; returns their paths.

    Needs matplotlib (``pip install 'byzantium[plot]'``); without it an
    :class:`ImportError` says so in one line.
    """
    try:
        figure_module = importlib.import_module("matplotlib.figure")
        agg = importlib.import_module("matplotlib.backends.backend_agg")
        ticker = importlib.import_module("matplotlib.ticker")
    except ImportError:
        raise ImportError(
            "saving histograms as PNG needs matplotlib: pip install 'byzantium[plot]'"
        ) from None
    directory.mkdir(parents=True, exist_ok=True)
    charts: list[tuple[str, str, Histogram]] = [("turns", "Turn at the end", summary.turns)]
    charts += [
        (f"score-{_slug(s.player)}", f"Score of {s.player}", s.histogram) for s in summary.scores
    ]
    charts += [
        (f"cause-{i + 1}", f"Turn at the end: {c.cause}", c.turns)
        for i, c in enumerate(summary.causes)
    ]
    written: list[Path] = []
    for stem, title, chart in charts:
        figure = figure_module.Figure(figsize=(7, 4.2), layout="constrained")
        agg.FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        # Bars on a numeric axis (one per value, or one per bin spanning it), so that
        # matplotlib chooses ticks that never overlap, however many rows there are.
        rows = chart.rows
        single = all(row.low == row.high for row in rows)
        if single:
            gaps = [b.low - a.low for a, b in itertools.pairwise(rows)]
            width = 0.8 * (min(gaps) if gaps else 1.0)
            axes.bar([row.low for row in rows], [row.count for row in rows], width=width)
        else:
            axes.bar(
                [row.low for row in rows],
                [row.count for row in rows],
                width=[row.high - row.low for row in rows],
                align="edge",
                edgecolor="white",
            )
        if single and len(rows) <= 12:
            axes.set_xticks([row.low for row in rows], [row.label for row in rows])
            axes.set_xlim(rows[0].low - width, rows[-1].low + width)
        else:
            axes.xaxis.set_major_locator(ticker.MaxNLocator(nbins=10, integer=single))
        heading = "\n".join(textwrap.wrap(title, width=60))
        axes.set_title(f"{heading}\n{summary.game}, {summary.games} games", fontsize=11)
        axes.set_xlabel(title.split(":", 1)[0])
        axes.set_ylabel("games")
        axes.yaxis.set_major_locator(ticker.MaxNLocator(integer=True))
        path = directory / f"{_slug(summary.game)}-{stem}.png"
        figure.savefig(path, dpi=100)
        written.append(path)
    return written


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"
