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
(``concurrent.futures`` with the *spawn* start method). Each worker re-creates the
game from its id and options, importing the module that registered it, so games
registered by third-party modules work as well as the built-in ones.

Clusters: the unit of work is a :class:`GameJob` and the worker function is
:func:`run_job` (or :func:`play_one` with plain arguments); both are picklable
module-level objects, so any executor with a ``map(fn, iterable)`` method that
returns the results in order can run them. Pass it as ``executor``; for example, with
Dask::

    from dask.distributed import Client
    with Client("scheduler:8786").get_executor() as pool:
        summary = simulate("sword-of-orthodoxy", games=100_000, seed=1, executor=pool)

or with Ray's process pool::

    from ray.util.multiprocessing import Pool
    summary = simulate("sword-of-orthodoxy", games=100_000, seed=1, executor=Pool())

The same can be done by hand: ``jobs = simulation_jobs(...)``, then
``summarise(list(pool.map(run_job, jobs)), seed=S)``. Neither Dask nor Ray is a
dependency of this package.

>>> import tests.pig
>>> summary = simulate("pig", {"target": 10}, games=3, seed=5)
>>> summary.games, sum(count for _, count in summary.outcomes)
(3, 3)
>>> summary == simulate("pig", {"target": 10}, games=3, seed=5, jobs=2)
True
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import math
import multiprocessing
import os
import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from fractions import Fraction
from pathlib import Path
from typing import Protocol, TypeVar

import attrs

from byzantium.core.codec import JSONValue
from byzantium.core.drivers import Policy, first_action_policy, play, random_policy
from byzantium.core.errors import ByzantiumError, UnknownOptionError
from byzantium.core.game import Event, Game, OptionValue, Step
from byzantium.core.registry import game_class, load_game

S = TypeVar("S")
A = TypeVar("A")

__all__ = [
    "DEFAULT_MAX_STEPS",
    "MAX_GAMES",
    "Bin",
    "CauseStats",
    "GameJob",
    "GameSummary",
    "Histogram",
    "MapExecutor",
    "ScoreStats",
    "Seating",
    "SideStats",
    "SimulationError",
    "SimulationSummary",
    "TallyStats",
    "WinRate",
    "ending_cause",
    "game_seed",
    "histogram",
    "parse_seating",
    "play_one",
    "policy_for",
    "quartiles",
    "run_job",
    "run_jobs",
    "save_histograms_png",
    "seatings",
    "simulate",
    "simulation_jobs",
    "summarise",
    "wilson_interval",
    "worker_count",
]

#: A game that has not ended after this many steps is counted as unfinished.
DEFAULT_MAX_STEPS = 1_000_000
#: The most games one simulation plays (each game's summary is kept until the end).
MAX_GAMES = 1_000_000
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
    Checks everything that can be checked before any game is played: the game and
    its options load, the policies exist, ``games`` and ``max_steps`` are positive.
    """
    job, total = _job_maker(
        game_id,
        options,
        games=games,
        seed=seed,
        policy=policy,
        swap_seats=swap_seats,
        max_steps=max_steps,
    )
    return tuple(job(i) for i in range(total))


def _job_maker(
    game_id: str,
    options: Mapping[str, OptionValue] | Options | None,
    *,
    games: int,
    seed: int,
    policy: str | Sequence[str],
    swap_seats: bool,
    max_steps: int,
) -> tuple[Callable[[int], GameJob], int]:
    """Check a simulation's arguments, then give the maker of its job ``i`` (so that
    a long simulation builds each job only when it is about to be played) and the
    number of jobs."""
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
    # A seating whose seats all play one policy travels as that policy's name.
    named: list[str | Seating] = [
        seating[0] if len(set(seating)) == 1 else seating for seating in plan
    ]

    def job(i: int) -> GameJob:
        return GameJob(game_id, opts, named[i // games], game_seed(seed, i), max_steps, module)

    return job, total


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
    they are all equal). No values, no rows.

    >>> [row.label for row in histogram([3, 1, 3]).rows]
    ['1', '2', '3']
    >>> [row.label for row in histogram([Fraction(3, 2), 3]).rows]
    ['1.5', '2', '2.5', '3']
    >>> len(histogram(list(range(100))).rows)
    10
    """
    if not values:
        return Histogram(())
    low, high = min(values), max(values)
    unit = _unit(values)
    if unit is not None and (high - low) / unit + 1 <= max_value_rows:
        counts = Counter(Fraction(v) for v in values)
        rows = int((high - low) / unit) + 1
        points = [Fraction(low) + unit * i for i in range(rows)]
        return Histogram(tuple(Bin(float(p), float(p), counts[p]) for p in points))
    if low == high:
        return Histogram((Bin(float(low), float(high), len(values)),))
    step = Fraction(high) / bins - Fraction(low) / bins
    tally = [0] * bins
    for value in values:
        index = min(int((Fraction(value) - Fraction(low)) / step), bins - 1)
        tally[index] += 1
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
    ordered = sorted(Fraction(v) for v in values)
    last = len(ordered) - 1

    def at(q: Fraction) -> Fraction:
        rank = q * last
        low = math.floor(rank)
        high = min(low + 1, last)
        return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)

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
        q1, median, q3 = quartiles(values)
        return cls(
            player=player,
            games=len(values),
            min=Fraction(min(values)),
            q1=q1,
            median=median,
            q3=q3,
            max=Fraction(max(values)),
            mean=_mean(values),
            histogram=histogram(values),
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


def _side(seat: str, policy: str, games: Sequence[tuple[GameSummary, str]]) -> SideStats:
    """The statistics of one side over its games, each with the player it was."""
    won = [(g, player) for g, player in games if player in g.winners]
    lost = [g for g, player in games if player not in g.winners]
    turns_by_cause: dict[str, list[int]] = defaultdict(list)
    for g in lost:
        turns_by_cause[g.cause].append(g.turn)
    causes = sorted(turns_by_cause.items(), key=lambda item: (-len(item[1]), item[0]))
    scores = [dict(g.scores)[player] for g, player in games if player in dict(g.scores)]
    label = f"{seat} ({policy})" if seat and policy else seat or policy
    return SideStats(
        seat=seat,
        policy=policy,
        record=WinRate(len(won), len(games)),
        levels=_ranked(Counter(g.level for g, _ in won)),
        defeats=tuple(CauseStats(cause, len(t), _mean(t), histogram(t)) for cause, t in causes),
        defeat_rules=_ranked(Counter(g.rule for g in lost)),
        scores=ScoreStats.of(label, scores) if scores else None,
    )


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
    per_game: tuple[GameSummary, ...] = attrs.field(repr=False)

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


def _ranked(counter: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def summarise(results: Sequence[GameSummary], *, seed: int | None = None) -> SimulationSummary:
    """Aggregate per-game summaries (all of one game, options and policy), in their order."""
    if not results:
        raise SimulationError("nothing to summarise: no games were played")
    first = results[0]
    mixed = {(r.game, r.options, len(r.seats)) for r in results}
    if len(mixed) > 1:
        raise SimulationError("the games to summarise differ in game or options")
    players: dict[str, list[Fraction]] = {}
    turns_by_cause: dict[str, list[int]] = defaultdict(list)
    tally_games: Counter[str] = Counter()
    tally_total: Counter[str] = Counter()
    for result in results:
        for name, score in result.scores:
            players.setdefault(name, []).append(score)
        turns_by_cause[result.cause].append(result.turn)
        for name, count in result.tallies:
            tally_total[name] += count
            tally_games[name] += 1 if count else 0
    causes = sorted(turns_by_cause.items(), key=lambda item: (-len(item[1]), item[0]))
    steps = [r.steps for r in results]
    turns = [r.turn for r in results]
    plan = Counter(r.seats for r in results)
    labels = list(dict.fromkeys(r.policy for r in results))
    names = list(dict.fromkeys(name for r in results for _, name in r.seats))
    by_seat: dict[str, list[tuple[GameSummary, str]]] = defaultdict(list)
    by_policy: dict[str, list[tuple[GameSummary, str]]] = defaultdict(list)
    by_side: dict[tuple[str, str], list[tuple[GameSummary, str]]] = defaultdict(list)
    for result in results:
        for player, name in result.seats:
            by_seat[player].append((result, player))
            by_policy[name].append((result, player))
            by_side[player, name].append((result, player))
    seat_order = [player for player, _ in first.seats]
    return SimulationSummary(
        game=first.game,
        options=first.options,
        policy=labels[0] if len(labels) == 1 else f"{' v '.join(names)} ({len(plan)} seatings)",
        seed=seed,
        games=len(results),
        finished=sum(1 for r in results if r.finished),
        outcomes=_ranked(Counter(r.outcome for r in results)),
        levels=_ranked(Counter(r.level for r in results)),
        scores=tuple(ScoreStats.of(name, v) for name, v in players.items()),
        causes=tuple(CauseStats(cause, len(t), _mean(t), histogram(t)) for cause, t in causes),
        turns=histogram(turns),
        mean_turn=_mean(turns),
        mean_steps=_mean(steps),
        min_steps=min(steps),
        max_steps=max(steps),
        tallies=tuple(
            TallyStats(name, tally_games[name], tally_total[name]) for name in sorted(tally_total)
        ),
        seatings=tuple(
            (seating, plan[seating]) for seating in dict.fromkeys(r.seats for r in results)
        ),
        seats=tuple(_side(player, "", by_seat[player]) for player in seat_order),
        policies=tuple(_side("", name, by_policy[name]) for name in by_policy),
        sides=tuple(
            _side(player, name, by_side[player, name])
            for player in seat_order
            for (seat, name) in by_side
            if seat == player
        ),
        turn_quartiles=quartiles(turns),
        per_game=tuple(results),
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
) -> SimulationSummary:
    """Play ``games`` whole games of ``game_id`` (per seating) and summarise them.

    ``policy`` names the policy every player uses (``random``, ``first`` or one of
    the game's own), or gives one name per seat (see :func:`parse_seating`); with
    ``swap_seats`` each distinct rotation of the seating plays ``games`` games
    (:func:`seatings`), so that every policy is measured in every seat. Game ``i``
    is seeded with :func:`game_seed` ``(seed, i)``, so the summary is the same
    whatever ``jobs`` is: with ``jobs > 1`` the games are spread over that many worker
    processes; ``executor`` (anything with ``map``, see :class:`MapExecutor`) runs
    them elsewhere instead, on a cluster say. ``progress(done, total)`` is called each
    time a game finishes (with ``jobs > 1``, in the order they finish, not the order
    of the games). A game still running after ``max_steps`` steps counts as
    unfinished.
    """
    if type(jobs) is not int:
        raise SimulationError(f"jobs must be an integer, not {repr(jobs)[:60]}")
    if jobs < 1:
        raise SimulationError(f"jobs must be at least 1, not {jobs}")
    job, games = _job_maker(
        game_id,
        options,
        games=games,
        seed=seed,
        policy=policy,
        swap_seats=swap_seats,
        max_steps=max_steps,
    )
    results: list[GameSummary | None] = [None] * games
    done = 0

    def finished(index: int, summary: GameSummary) -> None:
        nonlocal done
        results[index] = summary
        done += 1
        if progress is not None:
            progress(done, games)

    workers = worker_count(jobs, games)
    if executor is not None:
        for index, summary in enumerate(executor.map(run_job, map(job, range(games)))):
            finished(index, summary)
    elif workers == 1:
        for index in range(games):
            finished(index, run_job(job(index)))
    else:
        # Small chunks, collected as they finish (not in order), so that progress is
        # reported as games end; each result goes back to its game's place, so the
        # summary is the same as with one process. Only a few chunks per worker are
        # handed out at a time, each built when it is handed out.
        size = max(1, min(8, games // (workers * 8)))
        chunks = (range(start, min(start + size, games)) for start in range(0, games, size))
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            pending: dict[Future[list[GameSummary]], range] = {}
            for chunk in itertools.chain(chunks, [None]):
                if chunk is not None:
                    pending[pool.submit(run_jobs, tuple(map(job, chunk)))] = chunk
                    if len(pending) < workers * IN_FLIGHT_PER_WORKER:
                        continue
                while pending:
                    ended, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in ended:
                        for index, summary in zip(
                            pending.pop(future), future.result(), strict=True
                        ):
                            finished(index, summary)
                    if chunk is not None:
                        break
    ordered = [summary for summary in results if summary is not None]
    assert len(ordered) == games
    return summarise(ordered, seed=seed)


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
