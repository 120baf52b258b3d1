"""The measurements behind ``tox -e bench``: one playout loop for every game, and the figures.

A :class:`Subject` is a game as the loop sees it: functions for its initial state,
who is to act, the legal actions, the chance outcomes, a transition, a copy that
later transitions leave alone, and a serialise+deserialise round trip. Our games
are subjects through :func:`byzantium_subject`; OpenSpiel's games, when
``open_spiel`` is importable, through :func:`open_spiel_subject`, so that the same
loop runs on an anchor in the same process and every figure can be given as a
ratio to it (machine noise cancels out of a ratio).

Nothing here asserts anything about time: the functions measure and return numbers.
"""

from __future__ import annotations

import ctypes
import dataclasses
import enum
import gc
import importlib
import importlib.metadata
import json
import operator
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Generic, TypeVar

import attrs

from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, TERMINAL, Game
from byzantium.core.registry import load_game

__all__ = [
    "ANCHOR",
    "PENDING",
    "Children",
    "Decisions",
    "Figures",
    "Probe",
    "Rate",
    "SomeSubject",
    "Subject",
    "byzantium_subject",
    "decision_positions",
    "deep_size",
    "measure_memory",
    "open_spiel_subject",
    "open_spiel_version",
    "our_subjects",
    "parents",
    "playout",
    "probe",
    "time_children",
    "time_decisions",
    "time_playouts",
    "trajectory",
]

S = TypeVar("S")
A = TypeVar("A")
#: How a game gives the probability of a chance outcome (a Fraction, a float).
P = TypeVar("P")

#: The anchor every ratio is taken against.
ANCHOR = "backgammon"

#: Figures the issue asks for that need rules not yet written: (game, figure, why).
PENDING: tuple[tuple[str, str, str], ...] = ()


@dataclasses.dataclass(frozen=True)
class Subject(Generic[S, A, P]):
    """A game as the playout loop sees it.

    ``chance`` and ``terminal`` are the values ``current_player`` gives at chance
    nodes and at the end. ``apply`` returns the next state (it may be the same
    object, changed in place); ``keep`` returns a copy that later transitions leave
    alone (the state itself for immutable states). ``sample`` draws a chance
    outcome with its probability. ``memory`` names how :func:`measure_memory`
    counts this game's states: ``"tracemalloc"`` (states on the Python heap) or ``"malloc"``
    (states on the C++ heap, which only the C allocator sees). ``expert``, when the
    game has one, is its ``expert`` policy at its default budget, bound to the game:
    ``expert(state, rng)`` returns the action it chooses.
    """

    name: str
    kind: str
    new_state: Callable[[], S]
    current_player: Callable[[S], int]
    legal_actions: Callable[[S], Sequence[A]]
    chance_outcomes: Callable[[S], Sequence[tuple[A, P]]]
    sample: Callable[[Sequence[tuple[A, P]], random.Random], A]
    apply: Callable[[S, A], S]
    keep: Callable[[S], S]
    round_trip: Callable[[S], S]
    encoded_size: Callable[[S], int] | None
    chance: int
    terminal: int
    memory: str
    expert: Callable[[S, random.Random], A] | None = None


#: A subject of any game, in a list of several games (whose types differ).
SomeSubject = Subject[Any, Any, Any]


# -- the loop ------------------------------------------------------------------------


def playout(subject: Subject[S, A, P], rng: random.Random) -> int:
    """Play one game to its end and return how many transitions it took.

    Players pick uniformly among their legal actions; chance nodes are sampled with
    their probabilities. The same loop runs every game, ours and the anchors.
    """
    current_player = subject.current_player
    legal_actions = subject.legal_actions
    chance_outcomes = subject.chance_outcomes
    draw = subject.sample
    apply = subject.apply
    chance = subject.chance
    terminal = subject.terminal
    state = subject.new_state()
    steps = 0
    while True:
        player = current_player(state)
        if player == terminal:
            return steps
        if player == chance:
            action = draw(chance_outcomes(state), rng)
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        steps += 1


def trajectory(subject: Subject[S, A, P], rng: random.Random) -> list[S]:
    """The states of one game, first to last, each kept (the loop of :func:`playout`)."""
    state = subject.new_state()
    states = [subject.keep(state)]
    while True:
        player = subject.current_player(state)
        if player == subject.terminal:
            return states
        if player == subject.chance:
            action = subject.sample(subject.chance_outcomes(state), rng)
        else:
            action = rng.choice(subject.legal_actions(state))
        state = subject.apply(state, action)
        states.append(subject.keep(state))


# -- subjects --------------------------------------------------------------------------


def _same(state: S) -> S:
    return state


def _bound(
    policy: Callable[[Game[S, A], S, random.Random], A], game: Game[S, A]
) -> Callable[[S, random.Random], A]:
    def decide(state: S, rng: random.Random) -> A:
        return policy(game, state, rng)

    return decide


def byzantium_subject(name: str, game: Game[S, A]) -> Subject[S, A, Fraction]:
    """One of our games as a subject; its round trip is JSON text and back.

    The loop applies actions it took from the state's own lists, so it uses the
    fast path of search, :meth:`~byzantium.core.game.Game.apply_unchecked`.
    """

    def round_trip(state: S) -> S:
        return game.decode_state(json.loads(json.dumps(game.encode_state(state))))

    def encoded_size(state: S) -> int:
        return len(json.dumps(game.encode_state(state)).encode("utf-8"))

    policy = game.policies().get("expert")
    return Subject(
        name=name,
        kind="byzantium",
        new_state=game.initial_state,
        current_player=game.current_player,
        legal_actions=game.legal_actions,
        chance_outcomes=game.chance_outcomes,
        sample=sample,
        apply=game.apply_unchecked,
        keep=_same,
        round_trip=round_trip,
        encoded_size=encoded_size,
        chance=CHANCE,
        terminal=TERMINAL,
        memory="tracemalloc",
        expert=None if policy is None else _bound(policy, game),
    )


def our_subjects() -> list[SomeSubject]:
    """The games the issue benchmarks: the Sword of Orthodoxy campaign, and
    Belisarius scenario 1 without capitulation offers (so that random games run to
    their last turn)."""
    return [
        byzantium_subject("sword-of-orthodoxy", load_game("sword-of-orthodoxy")),
        byzantium_subject("belisarius", load_game("belisarius", scenario=1, capitulation=False)),
    ]


def open_spiel_version() -> str | None:
    """The installed open_spiel version, or None when ``pyspiel`` cannot be imported."""
    try:
        importlib.import_module("pyspiel")
    except ImportError:
        return None
    try:
        return importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        return "unknown version"


def _sample_float(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    point = rng.random()
    for action, probability in outcomes:
        point -= probability
        if point < 0:
            return action
    return outcomes[-1][0]


def open_spiel_subject(name: str) -> Subject[object, int, float] | None:
    """An OpenSpiel game (``backgammon``, ``python_tic_tac_toe``...) as a subject, or
    None when open_spiel is not installed.

    States are changed in place by ``apply`` (OpenSpiel's fastest way to play), and
    copied with ``clone`` where the harness keeps them. The round trip is OpenSpiel's
    own: ``State.serialize`` and ``Game.deserialize_state``.
    """
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games")  # registers the Python games
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    python_game = name.startswith("python_")

    def apply(state: object, action: int) -> object:
        state.apply_action(action)  # type: ignore[attr-defined]
        return state

    def round_trip(state: object) -> object:
        return game.deserialize_state(state.serialize())  # type: ignore[attr-defined]

    def encoded_size(state: object) -> int:
        text: str = state.serialize()  # type: ignore[attr-defined]
        return len(text.encode("utf-8"))

    return Subject(
        name=name,
        kind="OpenSpiel, Python game" if python_game else "OpenSpiel, C++ game",
        new_state=game.new_initial_state,
        current_player=operator.methodcaller("current_player"),
        legal_actions=operator.methodcaller("legal_actions"),
        chance_outcomes=operator.methodcaller("chance_outcomes"),
        sample=_sample_float,
        apply=apply,
        keep=operator.methodcaller("clone"),
        round_trip=round_trip,
        encoded_size=encoded_size,
        chance=int(pyspiel.PlayerId.CHANCE),
        terminal=int(pyspiel.PlayerId.TERMINAL),
        memory="malloc",
    )


# -- playouts --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Rate:
    """Random playouts of one game: its best round, and every round's rate."""

    transitions: int
    games: int
    seconds: float
    rounds: tuple[float, ...]
    #: The mean length of a game, in transitions, over every round.
    transitions_per_game: float

    @property
    def transitions_per_second(self) -> float:
        """Transitions (player actions and chance outcomes) per second."""
        return self.transitions / self.seconds

    @property
    def games_per_second(self) -> float:
        """Whole games per second."""
        return self.games / self.seconds


def time_playouts(subjects: Sequence[SomeSubject], seconds: float, rounds: int) -> dict[str, Rate]:
    """Seeded random playouts of every subject, rounds interleaved between subjects.

    Each round plays whole games with seeds 0, 1, 2... until ``seconds / rounds``
    have passed; a game's chance and choices come from ``random.Random(seed)``.
    The best round of each subject counts (the one the machine disturbed least), and
    interleaving makes a slow spell hit every subject alike.
    """
    budget = seconds / rounds
    found: dict[str, list[tuple[int, int, float]]] = {s.name: [] for s in subjects}
    for subject in subjects:  # warm up caches before anything is timed
        playout(subject, random.Random(0))
    for _ in range(rounds):
        for subject in subjects:
            gc.collect()
            steps = games = 0
            start = time.perf_counter()
            elapsed = 0.0
            while elapsed < budget:
                steps += playout(subject, random.Random(games))
                games += 1
                elapsed = time.perf_counter() - start
            found[subject.name].append((steps, games, elapsed))
    rates: dict[str, Rate] = {}
    for name, runs in found.items():
        steps, games, elapsed = max(runs, key=lambda run: run[0] / run[2])
        length = sum(run[0] for run in runs) / sum(run[1] for run in runs)
        rates[name] = Rate(steps, games, elapsed, tuple(run[0] / run[2] for run in runs), length)
    return rates


# -- children: every legal child of a parent, as a search expands a node ---------------------


@dataclasses.dataclass(frozen=True)
class Children:
    """Every legal child of sampled parents, built as a search expands its nodes.

    ``parents`` states were sampled from seeded random games; for each, every legal
    action (every outcome at a chance node) was applied to it, ``children`` in all.
    ``seconds`` is the best round's time for all of them; ``rounds`` every round's
    children per second.
    """

    parents: int
    children: int
    seconds: float
    rounds: tuple[float, ...]

    @property
    def per_second(self) -> float:
        """Children built per second."""
        return self.children / self.seconds

    @property
    def per_parent(self) -> float:
        """The mean number of children of a parent."""
        return self.children / self.parents


def parents(subject: Subject[S, A, P], count: int, per_game: int = 25) -> list[S]:
    """``count`` parents: up to ``per_game`` non-terminal states, evenly spaced, from
    each of the seeded random games 0, 1, 2... (each state kept with ``keep``)."""
    return _spaced_states(
        subject, count, per_game, lambda state: subject.current_player(state) != subject.terminal
    )


def _spaced_states(
    subject: Subject[S, A, P], count: int, per_game: int, wanted: Callable[[S], bool]
) -> list[S]:
    """``count`` states: up to ``per_game`` ``wanted`` states, evenly spaced, from each
    of the seeded random games 0, 1, 2..."""
    found: list[S] = []
    seed = 0
    while len(found) < count:
        states = [state for state in trajectory(subject, random.Random(seed)) if wanted(state)]
        found += states[:: max(1, len(states) // per_game)][:per_game]
        seed += 1
    return found[:count]


def _expand(subject: Subject[S, A, P], nodes: Sequence[S]) -> int:
    """Build every legal child of every node; the number of children."""
    legal_actions = subject.legal_actions
    apply = subject.apply
    keep = subject.keep
    built = 0
    for node in nodes:
        for action in legal_actions(node):
            apply(keep(node), action)
            built += 1
    return built


def time_children(
    subjects: Sequence[SomeSubject], count: int = 300, rounds: int = 3
) -> dict[str, Children]:
    """Children per second of every subject on ``count`` sampled parents (:func:`parents`).

    A child is built as a search builds it: our games apply the action to the
    immutable parent (:meth:`~byzantium.core.game.Game.apply_unchecked`, as in the
    playout loop); OpenSpiel's games copy the parent (``clone``) and apply the action
    to the copy, since ``apply_action`` changes a state in place. The best of
    ``rounds`` rounds counts, rounds interleaved between subjects.
    """
    nodes = {subject.name: parents(subject, count) for subject in subjects}
    found: dict[str, list[tuple[int, float]]] = {s.name: [] for s in subjects}
    for _ in range(rounds):
        for subject in subjects:
            gc.collect()
            start = time.perf_counter()
            built = _expand(subject, nodes[subject.name])
            found[subject.name].append((built, time.perf_counter() - start))
    result: dict[str, Children] = {}
    for name, runs in found.items():
        built, seconds = max(runs, key=lambda run: run[0] / run[1])
        rates = tuple(run[0] / run[1] for run in runs)
        result[name] = Children(len(nodes[name]), built, seconds, rates)
    return result


# -- expert decisions -----------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Decisions:
    """Decisions of a game's ``expert`` policy (default budget) on fixed seeded positions.

    ``decisions`` positions were decided, one after the other in a fixed order, in
    ``seconds``; ``positions`` were available (the run stops at its time budget, so
    a slower player decides fewer of them). There is no anchor to compare with:
    OpenSpiel's backgammon has no expert, so the figure is absolute.
    """

    decisions: int
    positions: int
    seconds: float

    @property
    def per_second(self) -> float:
        """Expert decisions per second."""
        return self.decisions / self.seconds


def decision_positions(subject: Subject[S, A, P], count: int, per_game: int = 10) -> list[S]:
    """``count`` decisions worth searching: up to ``per_game`` player-node states with at
    least two legal actions, evenly spaced, from each seeded random game 0, 1, 2..."""

    def wanted(state: S) -> bool:
        player = subject.current_player(state)
        return (
            player not in (subject.terminal, subject.chance)
            and len(subject.legal_actions(state)) > 1
        )

    return _spaced_states(subject, count, per_game, wanted)


def time_decisions(
    subjects: Sequence[SomeSubject], seconds: float = 3.0, count: int = 150
) -> dict[str, Decisions]:
    """Expert decisions per second of every subject that has an expert.

    The expert decides the positions of :func:`decision_positions` in order (the
    ``i``-th with ``random.Random(i)``), at least one, until ``seconds`` have passed or
    none is left; one decision first warms up what it keeps between calls.
    """
    found: dict[str, Decisions] = {}
    for subject in subjects:
        expert = subject.expert
        if expert is None:
            continue
        positions = decision_positions(subject, count)
        expert(positions[-1], random.Random(-1))  # warm-up, on a position timed last
        gc.collect()
        decided = 0
        start = time.perf_counter()
        elapsed = 0.0
        while decided < len(positions) and (not decided or elapsed < seconds):
            expert(positions[decided], random.Random(decided))
            decided += 1
            elapsed = time.perf_counter() - start
        found[subject.name] = Decisions(decided, len(positions), elapsed)
    return found


# -- legal actions and serialisation, measured in play ---------------------------------------


@dataclasses.dataclass(frozen=True)
class Probe:
    """Costs measured on the states of seeded random games, once per state.

    ``legal_actions_us``: microseconds of the first ``legal_actions`` call on each
    player-node state; ``actions_per_decision``: how many actions it offered on
    average; ``round_trip_us``: microseconds of a serialise+deserialise round trip
    of each state (any node type); ``encoded_bytes``: the mean serialised size.
    """

    decisions: int
    states: int
    legal_actions_us: float
    actions_per_decision: float
    round_trip_us: float
    encoded_bytes: float | None


def _timer_overhead() -> float:
    clock = time.perf_counter
    start = clock()
    for _ in range(10_000):
        clock()
    return (clock() - start) / 10_000


def probe(subject: Subject[S, A, P], min_states: int, max_games: int = 1000) -> Probe:
    """Time ``legal_actions`` and the round trip on the states of games with seeds 0, 1...

    Each call is timed on its own, on a state nobody has asked before (so a cache
    kept on a state would not flatter the figure); games are played until at least
    ``min_states`` player-node states have been seen.
    """
    clock = time.perf_counter
    overhead = _timer_overhead()
    legal_time = trip_time = 0.0
    decisions = states = actions = size = 0
    for seed in range(max_games):
        rng = random.Random(seed)
        state = subject.new_state()
        while True:
            player = subject.current_player(state)
            if player == subject.terminal:
                break
            if player == subject.chance:
                action = subject.sample(subject.chance_outcomes(state), rng)
            else:
                start = clock()
                legal = subject.legal_actions(state)
                legal_time += clock() - start
                decisions += 1
                actions += len(legal)
                action = rng.choice(legal)
            start = clock()
            subject.round_trip(state)
            trip_time += clock() - start
            if subject.encoded_size is not None:
                size += subject.encoded_size(state)
            states += 1
            state = subject.apply(state, action)
        if decisions >= min_states:
            break
    return Probe(
        decisions=decisions,
        states=states,
        legal_actions_us=1e6 * max(legal_time / decisions - overhead, 0.0),
        actions_per_decision=actions / decisions,
        round_trip_us=1e6 * max(trip_time / states - overhead, 0.0),
        encoded_bytes=size / states if subject.encoded_size is not None else None,
    )


# -- memory ------------------------------------------------------------------------------


def deep_size(root: object) -> int:
    """Bytes of every object reachable from ``root``, each counted once.

    Follows tuples, lists, sets, dicts and attrs records; classes and enum members
    (shared by every state) are left out. It is the size of one state alone, with
    nothing shared: the upper bound that structural sharing improves on.
    """
    seen: set[int] = set()
    pending: list[object] = [root]
    total = 0
    while pending:
        obj = pending.pop()
        if id(obj) in seen or obj is None or isinstance(obj, type | enum.Enum | bool):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, tuple | list | frozenset | set):
            pending.extend(obj)
        elif isinstance(obj, dict):
            pending.extend(obj.keys())
            pending.extend(obj.values())
        else:
            kind = type(obj)
            if attrs.has(kind):
                pending.extend(getattr(obj, field.name) for field in attrs.fields(kind))
    return total


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in [
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        ]
    ]


def _malloc_in_use() -> int | None:
    """Bytes the C allocator has handed out and not got back (glibc only, else None)."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = _MallInfo2
    info: _MallInfo2 = mallinfo2()
    return int(info.uordblks) + int(info.hblkhd)


#: Python serves requests up to this size from its own arenas, larger ones from malloc.
_SMALL_REQUEST = 512


def _traced_through_malloc(snapshot: tracemalloc.Snapshot) -> int:
    """Bytes of the traced blocks that came from malloc (so the C allocator saw them too)."""
    return sum(
        trace.size
        for trace in snapshot.traces
        if trace.domain != 0 or trace.size > _SMALL_REQUEST  # numpy data, or large blocks
    )


def _keep_games(subject: Subject[S, A, P], min_states: int) -> list[list[S]]:
    kept: list[list[S]] = []
    total = 0
    while total < min_states:
        chain = trajectory(subject, random.Random(len(kept)))
        kept.append(chain)
        total += len(chain)
    return kept


def _lists_size(kept: list[list[S]]) -> int:
    return sys.getsizeof(kept) + sum(sys.getsizeof(chain) for chain in kept)


def measure_memory(subject: Subject[S, A, P], min_states: int) -> tuple[float | None, str]:
    """Bytes per state of whole games kept alive, every state of their chains, and how
    they were counted.

    Successive states of our games share what did not change, so the chain of a
    game costs less than its length times the size of one state; this counts what
    the chain really costs. Games with seeds 0, 1... are kept until ``min_states``
    states, twice: once under :mod:`tracemalloc`, which sees the Python heap, and
    once without it, measuring what the C allocator handed out (glibc's
    ``mallinfo2``); the second pass adds what only C code allocated (C++ states)
    without counting twice the Python blocks that came from malloc, or tracemalloc's
    own tables. Without glibc only the Python heap is counted, and a game whose
    states live on the C++ heap gets None. A warm-up game first fills any caches.
    """
    trajectory(subject, random.Random(0))
    gc.collect()
    tracemalloc.start()
    try:
        traced_before = tracemalloc.get_traced_memory()[0]
        malloc_before = _traced_through_malloc(tracemalloc.take_snapshot())
        kept = _keep_games(subject, min_states)
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - traced_before - _lists_size(kept)
        through_malloc = _traced_through_malloc(tracemalloc.take_snapshot()) - malloc_before
        total = sum(len(chain) for chain in kept)
    finally:
        tracemalloc.stop()
    del kept
    gc.collect()
    before = _malloc_in_use()
    kept = _keep_games(subject, min_states)
    gc.collect()
    after = _malloc_in_use()
    if before is None or after is None:
        if subject.memory != "tracemalloc":
            return None, "not measurable without glibc"
        return max(traced, 0) / total, "tracemalloc"
    untraced = after - before - _lists_size(kept) - through_malloc
    del kept
    return max(traced + untraced, 0) / total, "tracemalloc + mallinfo2"


# -- all figures -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Figures:
    """Every figure of one game from one run."""

    name: str
    kind: str
    rate: Rate
    probe: Probe
    memory_per_state: float | None
    memory_method: str
    deep_size: float | None
    #: Every legal child of sampled parents (None when not measured).
    children: Children | None = None
    #: The expert's decisions on fixed positions (None for a game without an expert,
    #: or when not measured).
    decisions: Decisions | None = None


def measure(
    subjects: Iterable[SomeSubject],
    seconds: float = 6.0,
    rounds: int = 3,
    min_states: int = 600,
    memory_states: int = 2000,
    *,
    parent_states: int = 300,
    decision_seconds: float = 3.0,
) -> list[Figures]:
    """Measure every figure of every subject; see the module documentation."""
    subjects = list(subjects)
    rates = time_playouts(subjects, seconds, rounds)
    children = time_children(subjects, parent_states, rounds) if parent_states else {}
    decisions = time_decisions(subjects, decision_seconds) if decision_seconds else {}
    figures = []
    for subject in subjects:
        found = probe(subject, min_states)
        memory, method = measure_memory(subject, memory_states)
        size: float | None = None
        if subject.kind == "byzantium":
            states = trajectory(subject, random.Random(0))
            size = sum(deep_size(state) for state in states) / len(states)
        figures.append(
            Figures(
                name=subject.name,
                kind=subject.kind,
                rate=rates[subject.name],
                probe=found,
                memory_per_state=memory,
                memory_method=method,
                deep_size=size,
                children=children.get(subject.name),
                decisions=decisions.get(subject.name),
            )
        )
    return figures
