"""Whether a state of Belisarius is one the rules could have produced (``Game.validate``).

A state read from JSON may have been edited by hand or written by another program.
:func:`validate_state` checks it before the engine works with it, and names the first
inconsistency in an :class:`~byzantium.core.errors.InvalidStateError`:

* every counter of the mix is in exactly one place that exists: a hex of the map, a
  Peripheral Area box, the off-map stock, or out of the game (11.6); only a Guard
  counter in play shows its Mutinying face (12.2); a land counter is aboard at most
  one Fleet, in play in the Fleet's location (19.5);
* both treasuries, and any payment offered in a negotiation (24.1), are whole numbers
  of Solidus Points from 0 to :data:`~.state.MAX_SOLIDUS` (10.14 sets no limit; this
  is the library's); every Stratagem marker is in the Pool or in one hand, as many of
  each type as the components hold (8.1);
* the turn lies in the scenario's game turns, the phasing player is a player, every
  Region, hex and box named exists;
* every task of the procedure (the stack, the task that asked, and the tasks they
  hold) names only players, counters, hexes, boxes and Regions that exist, holds
  counts within the mix, and texts that mean something: a component's id or name, a
  rule of the index, or a word of the code of the task's module (its stages);
* a force's Operations Points lie between 0 and the most a force can have (14.21,
  21.21#2), in whole steps of the smallest printed cost; a Peripheral Area box took at
  most its limit of reinforcements this player turn (11.8);
* the procedure stack is one play makes (3.1): a game not over has one; at its
  bottom lie the steps of the sequence of play still to come in this game turn (or
  of set-up), in their order, found by running the sequence's own steps
  (:mod:`.sequence`); above them only the procedure of the step under way (at most
  one phase procedure, at the bottom of it, and only kinds of task the modules of
  that procedure use); the phase and the phasing player are those of that step, and
  the phase is one the game has;
* the pending request is the one the procedure asks in this position: the task that
  asked is run again without an answer and must ask exactly the same question (the
  same rule, prompt, player, dice, hand and options). The legal actions and chance
  outcomes of an accepted state are therefore those the engine computes for it.
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, cast

import attrs

from byzantium.belisarius.components import force_operations_points
from byzantium.belisarius.engine import Context
from byzantium.belisarius.movement import cost_scale
from byzantium.belisarius.negotiations import ANY, Proposal
from byzantium.belisarius.sequence import PHASES, EndOfGameTurn, EnterPhase, GameTurn, PlayerTurn
from byzantium.belisarius.state import (
    AVAILABLE,
    GONE,
    MAX_SOLIDUS,
    NOBODY,
    PLAYERS,
    BelState,
    Catalog,
    Done,
    Promise,
    PromiseKind,
    RequestKind,
    Task,
    per_catalog,
)
from byzantium.core.dice import MAX_OUTCOMES
from byzantium.core.errors import InvalidStateError
from byzantium.core.procedure import (
    code_words,
    data_words,
    is_word,
    replace,
    require_same_request,
    run_task,
    task_fields,
)
from byzantium.core.rules import get_rulebook

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = ["FIELD_KINDS", "sequence_steps", "validate_state"]

#: The most dice one roll asks for (6 ** MAX_DICE outcomes at most).
MAX_DICE = 6
assert 6**MAX_DICE <= MAX_OUTCOMES


@per_catalog
def _hexes(cat: Catalog) -> frozenset[int]:
    """Every hex number of the map."""
    return frozenset(cat.map.hexes())


#: What every whole number a task may carry stands for, by field name (``Class.field``
#: where one class uses the name otherwise): a player (``player``; ``player?`` may be
#: NOBODY), a side of a combat, a counter of the mix (``counter?`` may be NOBODY), a
#: place (a hex, a Peripheral Area box, or 0 before one is set), a hex, a Region
#: (``region?`` may be -1), a Plague area (a Region or a Peripheral Area, 6.2), a
#: count within the mix, or a signed modifier.
FIELD_KINDS: dict[str, str] = {
    "player": "player",
    "players": "player",
    "proposer": "player?",
    "attacker": "player?",
    "shunned": "side?",
    "asked": "side",
    "unit": "counter?",
    "leader": "counter?",
    "attacker_pick": "counter?",
    "defender_pick": "counter?",
    "champions": "counter?",
    "force": "counter",
    "units": "counter",
    "attackers": "counter",
    "defenders": "counter",
    "dropped": "counter",
    "disbanding": "counter",
    "operated": "counter",
    "reacted": "counter",
    "used": "counter",
    "LevyPhase.used": "hex",
    "RecruitingPhase.used": "hex",
    "where": "place",
    "origin": "place",
    "stack": "place",
    "stacks": "place",
    "settled": "place",
    "visited": "hex",
    "cities": "hex",
    "target": "hex",
    "region": "region?",
    "regions": "region",
    "raising": "region",
    "struck": "area",
    "area": "area",
    "cursor": "count?",
    "count": "count",
    "placed": "count",
    "entry": "count",
    "free": "count",
    "left": "count",
    "roll": "count",
    "turn": "count",
    "changes": "modifier",
    "differential": "modifier",
}


@per_catalog
def _words(cat: Catalog) -> frozenset[str]:
    """The component texts and rule ids a task's text may be."""
    rules = frozenset(entry.id for entry in get_rulebook("belisarius"))
    return data_words(cat.components) | data_words(cat.regions) | rules


def _number_fits(cat: Catalog, kind: str, value: int) -> bool:
    """Whether a task's number is one of what ``kind`` (of :data:`FIELD_KINDS`) stands for."""
    counters = len(cat.counters)
    if kind.endswith("?") and value == NOBODY:
        return True
    kind = kind.rstrip("?")
    if kind == "player":
        return value in PLAYERS
    if kind == "side":
        return value in (0, 1)
    if kind == "counter":
        return 0 <= value < counters
    if kind == "hex":
        return value in _hexes(cat)
    if kind == "place":
        return value in _hexes(cat) or 0 <= value <= len(cat.peripherals)
    if kind == "region":
        return 0 <= value < len(cat.regions)
    if kind == "area":  # the Plague's areas: every Region, then every Peripheral Area
        return 0 <= value <= len(cat.regions) + len(cat.peripherals)
    if kind == "count":
        return 0 <= value <= counters + len(cat.regions)
    return abs(value) <= counters  # a modifier


def _refuse(game: Belisarius, reason: str, rule: str = "") -> InvalidStateError:
    return InvalidStateError(reason, rule=rule, game=game.ID)


def validate_state(game: Belisarius, state: BelState) -> None:
    """Raise :class:`~byzantium.core.errors.InvalidStateError` at the first inconsistency."""
    cat = game.catalog
    _check_sequence(game, state)
    _check_units(game, cat, state)
    _check_treasuries(game, cat, state)
    _check_places(game, cat, state)
    _check_tasks(game, cat, state)
    _check_task_records(game, cat, state)
    _check_stack(game, state)
    _check_request(game, state)


def _check_sequence(game: Belisarius, state: BelState) -> None:
    scenario = game.catalog.scenario
    if state.turn != 0 and not scenario.first_turn <= state.turn <= scenario.last_turn:
        raise _refuse(
            game,
            f"game turn {state.turn} is not one of scenario {scenario.number}'s "
            f"turns {scenario.first_turn} to {scenario.last_turn}",
            "3.1",
        )
    if state.phasing not in PLAYERS:
        raise _refuse(game, f"the phasing player is {state.phasing}, not 0 or 1", "3.1")
    if state.ending is not None:
        if state.pending is not None or state.stack:
            raise _refuse(game, "the game is over but the procedure goes on")
        if state.ending.capitulated not in (NOBODY, *PLAYERS):
            raise _refuse(game, f"player {state.ending.capitulated} capitulated", "3.1")
    elif state.pending is None:
        raise _refuse(game, "the game is not over but nothing is asked")


def _check_units(game: Belisarius, cat: Catalog, state: BelState) -> None:
    units = state.units
    count = len(cat.counters)
    if len(units.where) != count or len(units.mutiny) != count:
        raise _refuse(
            game,
            f"{len(units.where)} counter places and {len(units.mutiny)} faces for the "
            f"{count} counters of the mix",
            "11.6",
        )
    hexes = _hexes(cat)
    boxes = len(cat.peripherals)
    for unit, where in enumerate(units.where):
        if where in (GONE, AVAILABLE) or 1 <= where <= boxes or where in hexes:
            continue
        raise _refuse(game, f"{cat.counters[unit].id} is at {where}, no place of the map", "11.6")
    for unit, mutinying in enumerate(units.mutiny):
        if mutinying and (not cat.counters[unit].guard or units.where[unit] <= AVAILABLE):
            raise _refuse(
                game, f"{cat.counters[unit].id} shows a Mutinying face out of play", "12.2"
            )
    seen: set[int] = set()
    for passenger, fleet in units.aboard:
        if not (0 <= passenger < count and 0 <= fleet < count):
            raise _refuse(game, f"no counter {passenger} aboard counter {fleet}", "19.5")
        name = cat.counters[passenger].id
        if passenger in seen:
            raise _refuse(game, f"{name} is aboard two Fleets", "19.5")
        seen.add(passenger)
        if cat.naval[passenger] or not cat.naval[fleet]:
            raise _refuse(game, f"{name} is aboard {cat.counters[fleet].id}, no Fleet", "19.5")
        if units.where[passenger] <= AVAILABLE or units.where[passenger] != units.where[fleet]:
            raise _refuse(
                game, f"{name} is aboard {cat.counters[fleet].id} but not in its place", "19.5"
            )
    if list(units.aboard) != sorted(units.aboard):
        raise _refuse(game, "the counters aboard Fleets are not in counter order", "19.5")


def _check_treasuries(game: Belisarius, cat: Catalog, state: BelState) -> None:
    for player, solidus in zip(PLAYERS, state.solidus, strict=True):
        if not 0 <= solidus <= MAX_SOLIDUS:
            side = game.player_name(player)
            raise _refuse(
                game,
                f"the {side} treasury holds {str(solidus)[:20]} Solidus Points, not 0 to "
                f"{MAX_SOLIDUS}",
                "10.14",
            )
    markers = state.stratagems
    kinds = cat.components.stratagems
    if len(markers.pool) != len(kinds) or any(len(hand) != len(kinds) for hand in markers.hands):
        raise _refuse(game, f"Stratagem counts for other than the {len(kinds)} types", "8.1")
    for i, kind in enumerate(kinds):
        held = (markers.pool[i], markers.hands[0][i], markers.hands[1][i])
        if min(held) < 0 or sum(held) != kind.count:
            raise _refuse(
                game,
                f"{kind.id} markers: {held[0]} in the Pool and {held[1]} and {held[2]} in "
                f"hand, not the {kind.count} of the components",
                "8.1",
            )


def _check_places(game: Belisarius, cat: Catalog, state: BelState) -> None:
    if len(state.control) != len(cat.regions):
        raise _refuse(game, f"control of {len(state.control)} Regions, not {len(cat.regions)}")
    hexes = _hexes(cat)
    for name, marked in (
        ("Pillaged", state.markers.pillaged),
        ("Colony", state.markers.colonies),
        ("Public Works", state.markers.works),
    ):
        off = sorted(marked - hexes)
        if off:
            raise _refuse(game, f"a {name} marker on hex {off[0]}, not on the map", "2.33")
    unknown = sorted(state.barred - set(cat.region_index))
    if unknown:
        raise _refuse(game, f"no Region {unknown[0]!r}")
    bad_boxes = [box for box in state.boxed if not 1 <= box <= len(cat.peripherals)]
    if bad_boxes:
        raise _refuse(game, f"a reinforcement in box {bad_boxes[0]}, no box", "11.8")
    limit = cat.constant("peripheral-reinforcements")
    crowded = [box for box in set(state.boxed) if state.boxed.count(box) > limit]
    if crowded:
        raise _refuse(game, f"more than {limit} reinforcements in box {crowded[0]}", "11.8")
    for agreement in state.agreements:
        if agreement.proposer not in PLAYERS:
            raise _refuse(game, f"an agreement proposed by player {agreement.proposer}", "24.1")
        _check_promises(game, cat, agreement.promises)


def _check_promises(game: Belisarius, cat: Catalog, promises: tuple[Promise, ...]) -> None:
    hexes = _hexes(cat)
    for promise in promises:
        if promise.player not in PLAYERS:
            raise _refuse(game, f"a promise of player {promise.player}", "24.1")
        if promise.kind is PromiseKind.LEAVE_HEX and promise.where not in hexes:
            raise _refuse(game, f"a promise to leave hex {promise.where}", "24.1")
        if promise.kind is PromiseKind.LEAVE_REGION and promise.region not in cat.region_index:
            raise _refuse(game, f"a promise to leave {promise.region[:40]!r}, no Region", "24.1")


def _check_tasks(game: Belisarius, cat: Catalog, state: BelState) -> None:
    words = _words(cat)
    for task, name, value in task_fields(state, Task):
        where = f"{type(task).__name__}.{name}"
        kind = FIELD_KINDS.get(where, FIELD_KINDS.get(name, ""))
        if where == "EnterPhase.name" and value not in dict(PHASES):
            raise _refuse(game, f"a phase named {str(value)[:40]!r}, none of 3.1's", "3.1")
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, str):
                if not is_word(item, words, code_words(type(task).__module__)):
                    raise _refuse(
                        game, f"the step {where} names {item[:40]!r}, nothing of the game"
                    )
            elif kind and isinstance(item, int) and not _number_fits(cat, kind, item):
                raise _refuse(
                    game, f"the step {where} holds {item}, which is no {kind.rstrip('?')}"
                )


@per_catalog
def _most_points(cat: Catalog) -> Fraction:
    """The most Operations Points a force can have: the highest Operations value of the
    mix plus a 6, tripled by the best Leader (14.21, 21.21#2)."""
    best = max(counter.operations for counter in cat.counters)
    return Fraction(force_operations_points([best], 6, cat.constant("max-stars")))


def _all_tasks(state: BelState) -> Iterator[Task]:
    """Every task of the state: its stack, the one that asked, and those they hold."""
    todo: list[object] = [*state.stack]
    if state.pending is not None:
        todo.append(state.pending.task)
    while todo:
        task = todo.pop()
        if not isinstance(task, Task) or not attrs.has(type(task)):
            continue
        yield task
        for field in attrs.fields(cast("type[attrs.AttrsInstance]", type(task))):
            value = getattr(task, field.name)
            if isinstance(value, Task):
                todo.append(value)
            elif isinstance(value, tuple):
                todo.extend(item for item in value if isinstance(item, Task))


def _check_task_records(game: Belisarius, cat: Catalog, state: BelState) -> None:
    """The fractions and records a task holds: a force's Operations Points (14.21, whole
    multiples of the smallest printed cost, 14.31) and an offer being made (24.1)."""
    most = _most_points(cat)
    scale = cost_scale(cat)
    for task in _all_tasks(state):
        name = type(task).__name__
        points = getattr(task, "points", None)
        if isinstance(points, Fraction) and (
            not 0 <= points <= most or (points * scale).denominator != 1
        ):
            shown = str(points)[:20]
            raise _refuse(game, f"the step {name} holds {shown} Operations Points", "14.21")
        proposal = getattr(task, "proposal", None)
        if isinstance(proposal, Proposal):
            _check_proposal(game, cat, proposal)


def _check_proposal(game: Belisarius, cat: Catalog, proposal: Proposal) -> None:
    if proposal.proposer not in PLAYERS:
        raise _refuse(game, f"an offer of player {proposal.proposer}", "24.1")
    if any(not 0 <= paid <= MAX_SOLIDUS for paid in proposal.solidus):
        raise _refuse(game, "an offer of Solidus Points no treasury can hold", "24.1")
    for marker in (*proposal.markers[0], *proposal.markers[1]):
        if marker != ANY and marker not in cat.stratagem_index:
            raise _refuse(game, f"an offer of a {marker[:40]!r} marker, no Stratagem", "24.1")
    for region in proposal.neutral:
        if region not in cat.region_index:
            raise _refuse(game, f"an offer to make {region[:40]!r} neutral, no Region", "24.1")
    _check_promises(game, cat, proposal.promises)


def _check_request(game: Belisarius, state: BelState) -> None:
    request = state.pending
    if request is None:
        return
    if request.kind is RequestKind.CHOOSE and request.player not in PLAYERS:
        raise _refuse(game, f"a decision for player {request.player}", request.rule)
    if request.kind is RequestKind.ROLL and not 1 <= request.dice <= MAX_DICE:
        raise _refuse(game, f"a roll of {request.dice} dice", request.rule)
    if request.kind is RequestKind.DRAW and request.hand not in (NOBODY, *PLAYERS):
        raise _refuse(game, f"a draw from the hand of player {request.hand}", request.rule)
    asked = run_task(Context(game, None), replace(state, "pending", None), request.task, None)
    require_same_request(game.ID, request, asked.pending)


# -- the procedure stack as a whole (3.0, 3.1) ------------------------------------------


@attrs.frozen
class _Moment:
    """A moment of the sequence of play at which the procedure may ask something.

    ``stack`` holds the sequence's own steps still to come (bottom first); ``running``
    is the sequence step whose procedure is under way (its own steps lie above
    ``stack``), or the step that asks itself when ``asks`` is set (a player turn
    offering capitulation, 3.1); ``phase`` and ``phasing`` are what the state says
    then (``phasing`` None: either player).
    """

    stack: tuple[Task, ...]
    running: Task | None
    phase: str
    phasing: int | None
    asks: bool = False
    #: The task the running step starts its procedure with (a phase's own procedure).
    starts: Task | None = None
    #: The kinds of task the procedure of the running step may stack (all: None).
    kinds: frozenset[type] | None = None


@attrs.frozen
class _Sequence:
    """Every moment of set-up or of one game turn, and the kinds of task they are made of."""

    moments: tuple[_Moment, ...]
    #: Every step the sequence of play stacks in the turn.
    steps: tuple[Task, ...]
    #: Kinds of task only the sequence of play stacks (never a phase's procedure).
    own: frozenset[type]
    #: Kinds of task that start a phase's procedure.
    openers: frozenset[type]
    #: Every phase a state of the game may be in.
    phases: frozenset[str]


def _task_kinds(root: type = Task) -> Iterator[type]:
    kind: type
    for kind in root.__subclasses__():
        yield kind
        yield from _task_kinds(kind)


@functools.cache
def _kinds(module_name: str) -> frozenset[type]:
    """The kinds of task a procedure written in the module ``module_name`` may stack:
    those of every module of the game that module uses, directly or through others
    (its imports, followed to the end). The engine's own structure, a little more than
    play needs, never less: a step of one phase's procedure found in another phase
    (a combat in the Taxation Phase) is refused."""
    package = module_name.rpartition(".")[0] + "."
    modules: set[str] = set()
    todo = [module_name]
    while todo:
        name = todo.pop()
        if name in modules or name not in sys.modules:
            continue
        modules.add(name)
        for value in vars(sys.modules[name]).values():
            used = value.__name__ if isinstance(value, types.ModuleType) else None
            used = used or getattr(value, "__module__", None)
            if isinstance(used, str) and used.startswith(package):
                todo.append(used)
    return frozenset(kind for kind in _task_kinds() if kind.__module__ in modules)


@functools.lru_cache(maxsize=64)
def _sequence(game: Belisarius, turn: int) -> _Sequence:
    """The moments of game turn ``turn`` (0: of set-up), found by running the
    sequence-of-play steps themselves (:mod:`.sequence`) on the board of set-up: a game
    turn's step stacks the player turns and the end of the turn; a player turn's stacks
    its phases (and negotiation windows, 24.0); everything any other step stacks is
    that step's own procedure. Kept for a few games and turns (validation of a record's
    states meets the same turns over and over)."""
    ctx = Context(game, None)
    opening = game.initial_state()
    blank = attrs.evolve(opening, stack=(), pending=None)
    first = game.catalog.scenario.first_turn
    played = turn
    turn = turn or first
    ending_turn = EndOfGameTurn().run(ctx, attrs.evolve(blank, turn=first), None)
    phases = {opening.phase, ending_turn.phase}
    before = opening.phase if turn == first else ending_turn.phase
    now = GameTurn(turn).run(ctx, attrs.evolve(blank, phase=before), None)
    stack = now.stack
    moments: list[_Moment] = []
    steps: list[Task] = [opening.stack[0], *stack]
    started: set[type] = set()
    openers: set[type] = set()
    while stack:
        task = stack[-1]
        stack = stack[:-1]
        if isinstance(task, EndOfGameTurn):
            break  # the end of the turn: the next turn begins without asking
        ran = run_task(ctx, attrs.evolve(now, stack=()), task, None)
        if isinstance(task, GameTurn | PlayerTurn):
            if ran.pending is not None:  # a player turn offering capitulation (3.1)
                moments.append(_Moment(stack, task, ran.phase, ran.phasing, asks=True))
                ran = run_task(ctx, attrs.evolve(ran, pending=None), task, Done())
            steps += ran.stack
            stack += ran.stack
        else:
            pushed = ran.stack
            started.update(type(t) for t in pushed)
            opener = pushed[0] if len(pushed) == 1 and isinstance(task, EnterPhase) else None
            if opener is not None:
                openers.add(type(opener))
            procedure = type(opener if opener is not None else task).__module__
            moments.append(
                _Moment(stack, task, ran.phase, ran.phasing, starts=opener, kinds=_kinds(procedure))
            )
        now = ran
        phases.add(ran.phase)
    if played == 0:  # set-up: what is left of its steps, in their order (34.0)
        moments = [
            _Moment(opening.stack[:k], None, opening.phase, None)
            for k in range(1, len(opening.stack) + 1)
        ]
    own = frozenset(type(t) for t in steps) - started
    return _Sequence(tuple(moments), tuple(steps), own, frozenset(openers), frozenset(phases))


def _fits(seq: _Sequence, moment: _Moment, state: BelState) -> str:
    """Why the state is not at ``moment`` (empty: it is)."""
    steps = state.stack[len(moment.stack) :]
    if state.stack[: len(moment.stack)] != moment.stack:
        return "stack"
    asking = state.pending.task if state.pending is not None else None
    if moment.running is None and steps:  # set-up: nothing but its own steps left
        return "stack"
    if moment.asks:
        if steps or asking != moment.running:
            return "stack"
    elif any(type(task) in seq.own or task in seq.steps for task in (*steps, asking)):
        return "stack"
    foreign = [
        t for t in (*steps, asking) if moment.kinds is not None and type(t) not in moment.kinds
    ]
    if foreign:
        return f"foreign {type(foreign[0]).__name__}"
    opening = [t for t in (*steps, asking) if type(t) in seq.openers]
    if opening and (
        len(opening) > 1
        or moment.starts is None
        or type(opening[0]) is not type(moment.starts)
        or (steps and opening[0] is not steps[0])
    ):
        return "stack"
    if moment.phasing is not None and state.phasing != moment.phasing:
        return "phasing"
    if state.phase != moment.phase:
        return f"phase {moment.phase}"
    return ""


def sequence_steps(game: Belisarius, turn: int, phase: str, phasing: int) -> tuple[Task, ...]:
    """The steps of the sequence of play that lie under the procedure of ``phase`` in
    ``phasing``'s player turn of game turn ``turn``, in a position play produces (bottom
    first): for a harness that runs one phase's procedure on its own and wants the
    position validation accepts. Raises ValueError for a phase the turn never has."""
    for moment in _sequence(game, turn).moments:
        if moment.phase == phase and moment.phasing == phasing and not moment.asks:
            return moment.stack
    raise ValueError(f"no {phase!r} phase of player {phasing} in game turn {turn}")


def _check_stack(game: Belisarius, state: BelState) -> None:
    """The procedure stack is one play makes: the steps of the sequence of play still to
    come of this game turn (or of set-up), in their order, with above them the
    procedure of the step under way; the phase and the phasing player agree (3.1)."""
    seq = _sequence(game, state.turn)
    if state.phase not in seq.phases:
        known = ", ".join(sorted(seq.phases))
        raise _refuse(game, f"phase {state.phase[:40]!r} is none of the game's ({known})", "3.1")
    if state.ending is not None:
        return
    if not state.stack:
        raise _refuse(game, "the game is not over but no step of the turn is left to run", "3.1")
    why = {_fits(seq, moment, state) for moment in seq.moments}
    if "" in why:
        return
    strays = sorted(reason[len("foreign ") :] for reason in why if reason.startswith("foreign "))
    if strays and not any(reason.startswith("phase") for reason in why):
        raise _refuse(
            game, f"a {strays[0]} step in the {state.phase} phase, no part of its procedure", "3.1"
        )
    meant = sorted(reason[len("phase ") :] for reason in why if reason.startswith("phase "))
    if meant:
        raise _refuse(
            game, f"phase {state.phase!r} but the procedure stack is in the {meant[0]} phase", "3.1"
        )
    if "phasing" in why:
        raise _refuse(
            game,
            f"player {state.phasing} is phasing but the procedure is in the other's turn",
            "3.1",
        )
    kinds = ", ".join(type(task).__name__ for task in state.stack[:12])
    raise _refuse(
        game,
        f"the procedure stack ({kinds}) is in no order the sequence of play makes "
        f"in game turn {state.turn}",
        "3.1",
    )
