"""Helpers for Belisarius tests: games, task runs, seeded random play, invariants.

Typical use::

    game = belisarius(scenario=2)              # capitulation off unless asked for
    state = game.initial_state()               # waiting for the first set-up placement
    state = start(game, state, SomeTask(...))  # run one task on its own
    state = answer(game, state, Roll((6,)))    # feed the roll it asked for
    final, trail = random_game(game, seed=7, check=check_invariants)

Rules tests of one phase build their boards by hand on Scenario 1 (:data:`GAME`)::

    state = blank_state("taxation", control={"Thracia": Control.EMPIRE})
    state = put(state, "thracia", UnitKind.GARRISON, city("Constantinopolis"))
    after, events, requests = drive(state, TaxationPhase())

Tests of control and placement start from a played set-up (:func:`set_up_state`) and
draw legal random positions from :func:`boards`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import TypeVar

import attrs
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import Context, push, settle
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.scenarios import CityVictory, Control, RegionVictory
from byzantium.belisarius.sequence import GameTurn
from byzantium.belisarius.setup import Deploy, initial_state
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    GONE,
    NOBODY,
    BelAction,
    BelState,
    Catalog,
    Draw,
    Ending,
    Markers,
    Place,
    Request,
    RequestKind,
    Roll,
    Select,
    Task,
    Units,
)
from byzantium.belisarius.stratagems import draw_outcomes, hand_limit
from byzantium.belisarius.validation import sequence_steps
from byzantium.belisarius.world import (
    CONTROL_OF,
    available,
    can_place,
    city_hexes,
    controller,
    in_play,
    units_at,
)
from byzantium.core.game import CHANCE, TERMINAL, Event
from byzantium.core.procedure import run_task

__all__ = [
    "CAT",
    "CTX",
    "GAME",
    "SCENARIOS",
    "Chooser",
    "Trail",
    "answer",
    "answer_unchecked",
    "as_played",
    "assert_legal",
    "attacks",
    "belisarius",
    "blank_state",
    "boards",
    "check_aboard",
    "check_invariants",
    "cities_of",
    "city",
    "context",
    "controllers_at",
    "controls",
    "crowded_board",
    "drive",
    "empty_board",
    "ended",
    "first",
    "give",
    "identity",
    "idle",
    "move",
    "non_leaders",
    "options",
    "pending",
    "pending_task",
    "places",
    "put",
    "random_answer",
    "random_game",
    "scored_game",
    "set_control",
    "set_up",
    "set_up_context",
    "set_up_game",
    "set_up_state",
    "start",
    "through_draws",
    "trail_of",
    "with_control",
]

#: The scenario numbers of 34.1-34.3.
SCENARIOS = (1, 2, 3)

#: Every step of a game: the state before, who acted, the action, the events.
Trail = list[tuple[BelState, int, BelAction, tuple[Event, ...]]]

T = TypeVar("T", bound=Task)


@cache
def _game(options: tuple[tuple[str, bool | int | str], ...]) -> Belisarius:
    return Belisarius(dict(options))


def belisarius(scenario: int = 1, **options: bool | int | str) -> Belisarius:
    """A (shared) game of a scenario; ``capitulation`` defaults to off here."""
    options.setdefault("capitulation", False)
    return _game(tuple(sorted({"scenario": scenario, **options}.items())))


def context(game: Belisarius, events: list[Event] | None = None) -> Context:
    """A task context for ``game``."""
    return Context(game, events)


def idle(state: BelState) -> BelState:
    """The same board with nothing scheduled and nothing asked."""
    return attrs.evolve(state, stack=(), pending=None)


def as_played(state: BelState, game: Belisarius | None = None) -> BelState:
    """``state``, whose phase procedure a harness ran on its own (:func:`start`,
    :func:`drive`), as a position of play: the steps of the sequence of play still to
    come in its game turn put under its stack, as validation wants (3.1). A board of
    game turn 0 (set-up) is put in the scenario's first game turn."""
    game = GAME if game is None else game
    turn = state.turn or game.catalog.scenario.first_turn
    steps = sequence_steps(game, turn, state.phase, state.phasing)
    return attrs.evolve(state, turn=turn, stack=steps + state.stack)


def start(game: Belisarius, state: BelState, *tasks: Task) -> BelState:
    """Run ``tasks`` (first one first) on an idle copy of ``state`` until they ask."""
    ctx = context(game)
    return settle(ctx, push(idle(state), *tasks))


def answer(game: Belisarius, state: BelState, action: BelAction) -> BelState:
    """Answer the pending request with ``action`` (checked to be legal) and settle."""
    return game.apply(state, action)


def answer_unchecked(game: Belisarius, state: BelState, action: BelAction) -> BelState:
    """Feed ``action`` to the pending task without the legality check (forced rolls)."""
    request = state.pending
    assert request is not None
    ctx = context(game)
    state = run_task(ctx, attrs.evolve(state, pending=None), request.task, action)
    return settle(ctx, state)


def set_control(state: BelState, region: int, player: int) -> BelState:
    """The state with a Region's control (by index) set directly (no 4.4-4.6 consequences)."""
    control = list(state.control)
    control[region] = CONTROL_OF[player]
    return attrs.evolve(state, control=tuple(control))


def with_control(game: Belisarius, state: BelState, region: str, player: int) -> BelState:
    """The state with a Region's control (by name) set directly (no 4.4-4.6 consequences)."""
    return set_control(state, game.catalog.region(region), player)


def ended(state: BelState, capitulated: int = NOBODY) -> BelState:
    """The state as a finished game: the scenario's end, or a capitulation."""
    if capitulated != NOBODY:
        ending = Ending("3.1", "a side capitulates", capitulated)
    else:
        ending = Ending("23.0", "the scenario ends")
    return attrs.evolve(state, stack=(), pending=None, ending=ending)


def scored_game(
    regions: dict[str, int], cities: dict[str, int] | None = None, **options: bool | int | str
) -> Belisarius:
    """A fresh game whose scenario scores only the given Regions (by name) and Cities.

    Victory Points in the data are provisional; tests of the scoring rules use their
    own values so that they do not move with the data.
    """
    options.setdefault("capitulation", False)
    game = Belisarius(dict(options))
    cat = game.catalog
    scenario = attrs.evolve(
        cat.scenario,
        region_victory=tuple(
            RegionVictory(cat.regions[cat.region(name)].code, points)
            for name, points in regions.items()
        ),
        city_victory=tuple(CityVictory(name, points) for name, points in (cities or {}).items()),
    )
    cat.scenario = scenario
    game.scenario = scenario
    return game


def check_invariants(game: Belisarius, state: BelState) -> None:
    """What holds in every state of a game.

    Every counter is somewhere: a hex of the map, a Peripheral Area box, the stock, or
    out of the game (11.6; only Justinian leaves for good, 21.4); only Guard counters
    in play show a Mutinying face; every Stratagem marker is in the Pool or a hand
    (8.0) and no hand passes the limit (8.3); treasuries are never negative; control
    is recorded for every Region.
    """
    cat = game.catalog
    where = state.units.where
    assert len(where) == len(state.units.mutiny) == len(cat.counters)
    hexes = set(cat.map.hexes())
    boxes = len(cat.peripherals)
    for unit, place in enumerate(where):
        assert place in (GONE, AVAILABLE) or 0 < place <= boxes or place in hexes, (unit, place)
        if state.units.mutiny[unit]:
            assert cat.counters[unit].guard and place > AVAILABLE, unit
        if place == GONE:
            assert unit == cat.justinian
    counts = tuple(s.count for s in cat.components.stratagems)
    pool, hands = state.stratagems.pool, state.stratagems.hands
    assert len(pool) == len(counts) == len(hands[0]) == len(hands[1])
    for kind, total in enumerate(counts):
        assert pool[kind] >= 0 and hands[0][kind] >= 0 and hands[1][kind] >= 0
        assert pool[kind] + hands[0][kind] + hands[1][kind] == total, cat.stratagem_ids[kind]
    limit = hand_limit(context(game))
    assert state.stratagems.held(0) <= limit and state.stratagems.held(1) <= limit
    assert min(state.solidus) >= 0, state.solidus
    assert len(state.control) == len(cat.regions)
    assert all(isinstance(c, Control) for c in state.control)
    check_aboard(game, state)
    if state.ending is None:
        assert state.pending is not None


def check_aboard(game: Belisarius, state: BelState) -> None:
    """Naval transport (19.5): each passenger is a land counter in play on one Fleet in
    play at the same location, at most three a Fleet (19.51); a Fleet stands on water
    (19.1; up a river only with optional rule 29), a land counter on land unless on
    board (16.32)."""
    cat = game.catalog
    units = state.units
    aboard = units.aboard
    assert list(aboard) == sorted(aboard)
    assert len({p for p, _ in aboard}) == len(aboard)
    loads: dict[int, int] = {}
    for passenger, fleet in aboard:
        assert cat.naval[fleet] and not cat.naval[passenger], (passenger, fleet)
        assert units.where[passenger] == units.where[fleet] > AVAILABLE, (passenger, fleet)
        loads[fleet] = loads.get(fleet, 0) + 1
    assert all(n <= cat.constant("fleet-capacity") for n in loads.values()), loads
    carried = units.embarked()
    rivers = game.options.get("river_movement") is True
    for unit in units.in_play():
        where = units.where[unit]
        if where < FIRST_HEX:
            continue
        if cat.naval[unit]:
            assert not cat.is_land(where) or cat.map.is_coastal(where) or rivers, (unit, where)
        else:
            assert cat.is_land(where) or unit in carried, (unit, where)


def random_game(
    game: Belisarius,
    seed: int,
    check: Callable[[Belisarius, BelState], None] | None = None,
    cap: int = 20_000,
    state: BelState | None = None,
) -> tuple[BelState, Trail]:
    """Seeded random play to the end (chance at its true odds), at most ``cap`` steps.

    ``check`` sees every state passed through, the final one included.
    """
    rng = random.Random(seed)
    state = game.initial_state() if state is None else state
    trail: Trail = []
    for _ in range(cap):
        if check is not None:
            check(game, state)
        actor = game.current_player(state)
        if actor == TERMINAL:
            return state, trail
        if actor == CHANCE:
            outcomes = game.chance_outcomes(state)
            weights = [float(p) for _, p in outcomes]
            action = rng.choices([a for a, _ in outcomes], weights)[0]
        else:
            action = rng.choice(game.legal_actions(state))
        step = game.step(state, action)
        trail.append((state, actor, action, step.events))
        state = step.state
    raise AssertionError(f"the game did not end within {cap} steps")


@cache
def trail_of(scenario: int, seed: int) -> tuple[BelState, Trail]:
    """A whole seeded random game of a scenario without capitulation (shared by tests)."""
    return random_game(belisarius(scenario), seed)


# -- Scenario 1 boards built by hand ----------------------------------------------------

#: The game most rules tests use (Scenario 1 without capitulation) and its catalogue.
GAME = belisarius()
CAT = GAME.catalog
#: A context of :data:`GAME` that keeps no events (it holds nothing else: safe to share).
CTX = context(GAME)

#: Picks the answer to a decision.
Chooser = Callable[[Request], BelAction]


def blank_state(
    phase: str,
    phasing: int = EMPIRE,
    *,
    turn: int = 1,
    control: Mapping[str, Control] | None = None,
    solidus: int | None = None,
    game: Belisarius = GAME,
) -> BelState:
    """The scenario's opening state with every counter in the stock, nothing scheduled
    and nothing asked, in ``phase`` of ``phasing``'s player turn of game turn ``turn``.

    With ``control``, the Regions named there have that control and every other one is
    Neutral (without it the scenario's control stays); with ``solidus``, both treasuries
    hold that much (without it, the scenario's treasuries).
    """
    state = idle(game.initial_state())
    n = len(game.catalog.counters)
    state = attrs.evolve(
        state,
        turn=turn,
        phasing=phasing,
        phase=phase,
        units=Units((AVAILABLE,) * n, (False,) * n),
    )
    if control is not None:
        owners = [Control.NEUTRAL] * len(game.catalog.regions)
        for name, status in control.items():
            owners[game.catalog.region(name)] = status
        state = attrs.evolve(state, control=tuple(owners))
    if solidus is not None:
        state = attrs.evolve(state, solidus=(solidus, solidus))
    return state


def put(state: BelState, nationality: str, kind: UnitKind, where: int, count: int = 1) -> BelState:
    """Move the first ``count`` counters of that nationality and type in the stock to
    ``where`` (Scenario 1's catalogue)."""
    units = available(CAT, state, nationality, kind)
    assert len(units) >= count, f"the stock has fewer than {count} {nationality} {kind}"
    return move(state, units[:count], where)


def move(state: BelState, units: Iterable[int], where: int) -> BelState:
    """The state with ``units`` (by index) moved to ``where``."""
    board = state.units
    for unit in units:
        board = board.move(unit, where)
    return attrs.evolve(state, units=board)


def give(state: BelState, player: int, *markers: str, game: Belisarius = GAME) -> BelState:
    """Move Stratagem markers of the given types (one each) from the Pool into a hand."""
    stratagems = state.stratagems
    for marker in markers:
        stratagems = stratagems.transfer(game.catalog.stratagem(marker), player, True)
    return attrs.evolve(state, stratagems=stratagems)


def city(name: str) -> int:
    """The hex of a City of Scenario 1's map."""
    return CAT.map.city(name).hex


def cities_of(region: str) -> list[int]:
    """The hexes of a Region's Cities (Scenario 1's map)."""
    return [c.hex for c in CAT.map.cities_in(region)]


def through_draws(
    state: BelState, events: list[Event] | None = None, game: Belisarius = GAME
) -> BelState:
    """Answer Stratagem draws in a row (8.2 after a result, 8.51) with their first outcome,
    each checked legal; their events go to ``events`` if given."""
    while state.pending is not None and state.pending.kind is RequestKind.DRAW:
        done = game.step(state, game.chance_outcomes(state)[0][0])
        if events is not None:
            events.extend(done.events)
        state = done.state
    return state


def pending(state: BelState) -> Request:
    """The request the state waits on (asserted to be there)."""
    assert state.pending is not None
    return state.pending


def options(state: BelState) -> tuple[BelAction, ...]:
    """The options of the pending request (asserted to be there)."""
    return pending(state).options


def pending_task(state: BelState, cls: type[T]) -> T:
    """The task of the pending request, asserted to be a ``cls``."""
    found = pending(state).task
    assert isinstance(found, cls), found
    return found


def places(state: BelState) -> set[int]:
    """The locations the pending request offers to place at."""
    return {o.where for o in options(state) if isinstance(o, Place)}


def attacks(state: BelState) -> set[int]:
    """The hexes the pending request offers to attack."""
    return {
        int(o.item.removeprefix("attack "))
        for o in options(state)
        if isinstance(o, Select) and o.item.startswith("attack ")
    }


def first(request: Request) -> BelAction:
    """The first option offered."""
    return request.options[0]


def drive(
    state: BelState,
    task: Task,
    choose: Chooser = first,
    rolls: Iterable[int] = (),
    game: Belisarius = GAME,
) -> tuple[BelState, list[Event], list[Request]]:
    """Run ``task`` to its end: dice from ``rolls`` (all of them used), draws the first
    outcome, choices by ``choose``. Returns the state, the events and the requests met
    on the way."""
    events: list[Event] = []
    requests: list[Request] = []
    dice = list(rolls)
    state = settle(Context(game, events), push(state, task))
    while state.pending is not None:
        request = state.pending
        requests.append(request)
        action: BelAction
        if request.kind is RequestKind.ROLL:
            action = Roll((dice.pop(0),))
        elif request.kind is RequestKind.DRAW:
            action = game.chance_outcomes(state)[0][0]
        else:
            action = choose(request)
        step = game.step(state, action)
        events.extend(step.events)
        state = step.state
    assert not dice, "unused rolls"
    return state, events, requests


# -- set-up (34.0) -----------------------------------------------------------------------


def random_answer(game: Belisarius, state: BelState, rng: random.Random) -> BelAction:
    """A random legal answer to the state's request (chance by its odds)."""
    request = state.pending
    assert request is not None
    if request.kind is RequestKind.CHOOSE:
        return rng.choice(request.options)
    if request.kind is RequestKind.ROLL:
        return Roll(tuple(rng.randint(1, 6) for _ in range(request.dice)))
    outcomes = draw_outcomes(state, request.hand)
    kinds = [k for k, _ in outcomes]
    kind = rng.choices(kinds, [n for _, n in outcomes])[0]
    return Draw(game.catalog.stratagem_ids[kind])


def set_up(scenario: int, seed: int) -> tuple[BelState, BelState]:
    """A scenario's set-up under seeded random decisions, the game turn after it taken
    off the stack: (the board once every counter is down, the state after the
    Stratagem draws)."""
    game = belisarius(scenario)
    ctx = context(game)
    raw = initial_state(ctx)
    assert isinstance(raw.stack[0], GameTurn)
    state = settle(ctx, attrs.evolve(raw, stack=raw.stack[1:]))
    rng = random.Random(seed)
    while state.pending is not None and isinstance(state.pending.task, Deploy):
        state = answer_unchecked(game, state, random_answer(game, state, rng))
    board = state
    while state.pending is not None:
        state = answer_unchecked(game, state, random_answer(game, state, rng))
    assert not state.stack
    return board, state


def crowded_board(seed: int, *, pillage: bool = False) -> BelState:
    """A seeded Scenario 1 set-up in a random side's Provisioning Phase, nothing scheduled:
    a random treasury each (0-12), with ``pillage`` Pillage markers on up to five occupied
    hexes, and up to three spare counters piled onto some occupied hexes (not Leaders' ones).
    """
    board, _ = set_up(1, seed)
    rng = random.Random(seed)
    state = attrs.evolve(
        board,
        stack=(),
        pending=None,
        phasing=rng.choice((EMPIRE, BARBARIAN)),
        solidus=(rng.randint(0, 12), rng.randint(0, 12)),
        phase="provisioning",
    )
    occupied = sorted({w for w in state.units.where if w >= FIRST_HEX})
    if pillage:
        pillaged = frozenset(rng.sample(occupied, min(5, len(occupied))))
        state = attrs.evolve(state, markers=Markers(pillaged=pillaged))
    # pile a few spare counters of each chosen hex's nationality onto it
    for where in rng.sample(occupied, min(8, len(occupied))):
        unit = next(u for u, w in enumerate(state.units.where) if w == where)
        counter = CAT.counters[unit]
        if counter.kind is UnitKind.LEADER:
            continue
        spare = available(CAT, state, counter.nationality, counter.kind)
        state = move(state, spare[: rng.randint(0, 3)], where)
    return state


@cache
def set_up_game(scenario: int = 1) -> Belisarius:
    """The game :func:`set_up_state` plays: capitulation offered (3.1)."""
    return belisarius(scenario, capitulation=True)


def set_up_context(events: list[Event] | None = None) -> Context:
    """A task context for Scenario 1's :func:`set_up_game`."""
    return context(set_up_game(), events)


@cache
def set_up_state(scenario: int = 1) -> BelState:
    """The state once set-up is over (first legal action each time), stack cleared."""
    game = set_up_game(scenario)
    state = game.initial_state()
    while state.turn < 1:
        state = game.apply(state, game.legal_actions(state)[0])
    return idle(state)


# -- legal random boards (13.1x) from Scenario 1's set-up -----------------------------------


def empty_board() -> BelState:
    """The set-up state with every counter back in the stock."""
    base = set_up_state()
    n = len(base.units.where)
    return attrs.evolve(base, units=Units((AVAILABLE,) * n, (False,) * n))


def non_leaders(nationality: str, n: int) -> list[int]:
    """The first ``n`` counters of a nationality that are not Leaders."""
    cat = set_up_game().catalog
    found = [
        u for u in cat.of_nationality(nationality) if cat.counters[u].kind is not UnitKind.LEADER
    ]
    assert len(found) >= n
    return found[:n]


def controls() -> st.SearchStrategy[tuple[Control, ...]]:
    """Any control of every Region."""
    n = len(set_up_game().catalog.regions)
    return st.lists(st.sampled_from(list(Control)), min_size=n, max_size=n).map(tuple)


@cache
def _spots() -> tuple[int, ...]:
    """Locations the random boards use: every City, every box, a few hexes a Region."""
    cat = set_up_game().catalog
    spots = {c.hex for c in cat.map.cities}
    spots |= set(range(1, len(cat.peripherals) + 1))
    for region in cat.regions:
        spots |= set(sorted(h for h in region.hexes if cat.is_land(h))[:2])
    return tuple(sorted(spots))


@cache
def _home_spots(region: int) -> tuple[int, ...]:
    """A Region's Cities, two of its land hexes and its box (none for the Guard)."""
    if region < 0:
        return ()
    cat = set_up_game().catalog
    name = cat.regions[region].name
    found = [c.hex for c in cat.map.cities_in(name)]
    found += sorted(h for h in cat.regions[region].hexes if cat.is_land(h))[:2]
    box = cat.box_of(region)
    return tuple(found + ([box] if box else []))


def _fits(cat: Catalog, state: BelState, unit: int, where: int, owner: int) -> bool:
    home = cat.home[unit]
    if where < FIRST_HEX and cat.box_region[where - 1] != home:
        return False  # a Peripheral Area box takes its own nationality only (18.2)
    if owner == NOBODY:
        # Neutrals do not move: in their Region, or holding a City (4.51), on their own.
        if cat.region_of(where) != home and where not in city_hexes(cat, state):
            return False
        if any(cat.home[other] != home for other in units_at(state, where)):
            return False
    return can_place(cat, state, unit, where, owner)


@st.composite
def boards(draw: st.DrawFn) -> BelState:
    """A legal position: random control, counters placed where the rules allow."""
    cat = set_up_game().catalog
    state = empty_board()
    state = attrs.evolve(state, control=draw(controls()))
    spots = draw(st.lists(st.sampled_from(_spots()), min_size=1, max_size=4, unique=True))
    units = draw(
        st.lists(st.integers(0, len(cat.counters) - 1), min_size=15, max_size=60, unique=True)
    )
    for unit in units:
        own = _home_spots(cat.home[unit])
        at_home: bool = draw(st.booleans())
        where: int = draw(st.sampled_from(own if own and at_home else tuple(spots)))
        counter = cat.counters[unit]
        rebel = counter.guard and unit != cat.justinian and draw(st.booleans())
        flipped = attrs.evolve(state, units=state.units.flip([unit], rebel))
        owner = controller(cat, flipped, unit)
        if _fits(cat, flipped, unit, where, owner):
            state = attrs.evolve(flipped, units=flipped.units.move(unit, where).flip([unit], rebel))
    return state


def controllers_at(cat: Catalog, state: BelState) -> dict[int, set[int]]:
    """Who controls the counters at each occupied location."""
    found: dict[int, set[int]] = {}
    for unit in in_play(state):
        found.setdefault(state.units.where[unit], set()).add(controller(cat, state, unit))
    return found


def identity(cat: Catalog, unit: int) -> str:
    """A counter's nationality, ``guard`` for the Guard."""
    counter = cat.counters[unit]
    return "guard" if counter.guard else counter.nationality


def assert_legal(cat: Catalog, state: BelState) -> None:
    """No location holds counters of two players, nor a Barbarian stack of two peoples."""
    for where, owners in controllers_at(cat, state).items():
        assert len(owners) == 1, f"counters of {owners} share {where}"
        if owners == {BARBARIAN}:
            idents = {identity(cat, u) for u in units_at(state, where)}
            assert len(idents) == 1, f"Barbarian stack of {idents} at {where}"
