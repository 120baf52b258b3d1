"""Land Combat stated as rules (17.0-17.93, 21.2#2).

Each test names the rules it checks. Properties run over forces and rolls built on
the map (Hypothesis), or over the positions met in whole seeded random games; the
rest are worked cases on boards built by hand.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import Battle, Retreat, attack_targets, fortified, retreat_steps
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.hexmap import HexsideFeature, Terrain, distance
from byzantium.belisarius.movement import exceeds_stacking, land_zoc, may_end_at, step_cost
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    BelAction,
    BelState,
    Done,
    Place,
    Request,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.world import available, controller
from byzantium.core.game import Event
from tests.belisarius.support import (
    CAT,
    GAME,
    SCENARIOS,
    answer,
    attacks,
    blank_state,
    move,
    options,
    pending_task,
    places,
    put,
    random_answer,
    start,
    through_draws,
    trail_of,
)
from tests.belisarius.test_battle import pick_roll_off_units
from tests.belisarius.test_operations import begin, open_line

RULEBOOK = "belisarius"

MAP = CAT.map
CONTROL = {
    "Thracia": Control.EMPIRE,
    "Lydia": Control.EMPIRE,
    "Slavs": Control.BARBARIAN,
    "Franks": Control.BARBARIAN,
    "Vandals": Control.BARBARIAN,
}
#: The 17.71 log line: multiplied strengths, multipliers, column, die and result.
RESULT = re.compile(r"strength (\d+) \(x(\d+)\) against (\d+) \(x(\d+)\): .*: (\w+)$")


def board(phasing: int = EMPIRE) -> BelState:
    """An empty map in ``phasing``'s Operations Phase; Regions not named are Neutral."""
    return blank_state("operations", phasing, control=CONTROL)


def step(state: BelState, action: BelAction, events: list[Event]) -> BelState:
    """Apply ``action`` (checked legal) and keep the events."""
    done = GAME.step(state, action)
    events.extend(done.events)
    return done.state


def fight(state: BelState, table: str, roll: int, events: list[Event]) -> BelState:
    """The defender stands, the attacker takes ``table``, nobody plays a marker, ``roll``."""
    state = step(state, Select("stand"), events)
    if pending_task(state, Battle).stage == "table":
        state = step(state, Select(table), events)
    assert (
        pending_task(state, Battle).stage == "fight"
        and pending_task(state, Battle).table.value == table
    )
    return step(state, Roll((roll,)), events)


def result_of(events: list[Event]) -> tuple[int, int, int, int, str]:
    (line,) = [e.text for e in events if e.rule == "17.71"]
    found = RESULT.search(line)
    assert found is not None, line
    a, am, d, dm, code = found.groups()
    return int(a), int(am), int(d), int(dm), code


def try_put(state: BelState, nationality: str, kind: UnitKind, where: int) -> BelState:
    """Put one more such counter at ``where`` if the stock still has one."""
    if not available(CAT, state, nationality, kind):
        return state
    return put(state, nationality, kind, where)


def ids(units: tuple[int, ...] | list[int]) -> list[str]:
    return [CAT.counters[u].id for u in units]


# -- 17.11, 17.12, 17.4, 17.93: a declared attack runs to its end ------------------------


@pytest.mark.rule("17.12", "17.4", "17.11", "17.93", "17.61")
@settings(max_examples=40)
@given(
    attackers=st.integers(1, 3),
    defenders=st.integers(1, 3),
    roll=st.integers(1, 6),
    seed=st.integers(0, 2**16),
)
def test_a_declared_attack_always_ends_in_a_result_or_a_withdrawal(
    attackers: int, defenders: int, roll: int, seed: int
) -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=attackers)
    state = put(state, "slavs", UnitKind.WARBAND, b, count=defenders)
    force, defending = state.units.at(a), state.units.at(b)
    state = begin(state, a, roll)
    points = pending_task(state, OperationsPhase).points
    events: list[Event] = []
    state = step(state, Select(f"attack {b}"), events)
    rng = random.Random(seed)
    while state.pending is not None and not isinstance(state.pending.task, OperationsPhase):
        state = step(state, random_answer(GAME, state, rng), events)
    # Both forces are shown in full the moment the attack is declared (17.4) ...
    declared = [e.text for e in events if e.rule == "17.11" and e.kind == "battle"]
    assert len(declared) == 1
    assert all(name in declared[0] for name in ids(force) + ids(defending))
    # ... and the combat is carried through: a result, or the defender's withdrawal,
    # never a cancellation (17.12), and the attacker always pays for it.
    results = [e for e in events if e.rule == "17.71"]
    withdrawals = [e for e in events if e.rule == "17.54" and "no combat" in e.text]
    assert len(results) + len(withdrawals) == 1
    maneuver = any(e.rule == "17.6" and "maneuver" in e.text for e in events)
    cost = 8 if maneuver else 4
    survivors = [u for u in force if state.units.where[u] > AVAILABLE]
    if state.pending is not None and pending_task(state, OperationsPhase).stage == "move":
        assert pending_task(state, OperationsPhase).points == points - cost
        assert pending_task(state, OperationsPhase).force == tuple(survivors)
    # No advance after combat: unless a result drove them back, the survivors are
    # still where they attacked from (17.93).
    retreated = bool(results) and result_of(events)[4].startswith("AR")
    if not retreated:
        assert all(state.units.where[u] == a for u in survivors)


@pytest.mark.rule("17.93", "17.25")
def test_after_wiping_out_the_defender_the_attacker_pays_to_move_in() -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a, count=2)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    state = begin(state, a, 6)
    events: list[Event] = []
    state = step(state, Select(f"attack {b}"), events)
    state = through_draws(fight(state, "assault", 6, events))  # 8 against 3: 2/1, DE
    assert result_of(events)[4] == "DE" and not state.units.at(b)
    assert pending_task(state, OperationsPhase).where == a and len(state.units.at(a)) == 2
    assert pending_task(state, OperationsPhase).points == 26 - 4
    assert b in places(state)
    price = step_cost(CAT, state, a, b)
    state = answer(GAME, state, Place(b))
    assert price is not None and pending_task(state, OperationsPhase).points == 22 - price


# -- 17.21, 17.23, 15.31: who attacks when ----------------------------------------------


def _offers(scenario: int, seed: int) -> Iterator[tuple[BelState, int, BelAction, list[Event]]]:
    _, trail = trail_of(scenario, seed)
    for state, actor, action, events in trail:
        yield state, actor, action, list(events)


def _attack_offered(request: Request | None) -> bool:
    return (
        request is not None
        and request.kind is RequestKind.CHOOSE
        and any(isinstance(o, Select) and o.item.startswith("attack ") for o in request.options)
    )


@pytest.mark.rule("17.21")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_attacks_come_only_in_the_attackers_own_operations_phase(scenario: int) -> None:
    battles = 0
    for seed in range(3):
        for state, actor, _, events in _offers(scenario, seed):
            request = state.pending
            if _attack_offered(request):
                assert request is not None
                assert state.phase == "operations" and request.player == state.phasing
            for event in events:
                if event.kind == "attack":
                    battles += 1
                    assert state.phase == "operations" and actor == state.phasing
            if request is not None and isinstance(request.task, Battle):
                assert state.phase == "operations"
    assert battles


@pytest.mark.rule("17.23", "15.31")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_an_attack_is_always_one_choice_among_others(scenario: int) -> None:
    for seed in range(3):
        for state, _, _, _ in _offers(scenario, seed):
            request = state.pending
            if _attack_offered(request):
                assert request is not None
                assert any(
                    not (isinstance(o, Select) and o.item.startswith("attack "))
                    for o in request.options
                )


# -- 17.22, 17.26, 17.28: what may be attacked --------------------------------------------


@cache
def _centres() -> tuple[int, ...]:
    """Land hexes of a Region, coastal or by a river, road or rough ground."""
    found = []
    for h in sorted(MAP.hexes()):
        if not CAT.is_land(h) or CAT.region_of_hex(h) < 0:
            continue
        around = MAP.neighbours(h)
        if any(
            MAP.features(h, n) or not CAT.is_land(n) or MAP.terrain_at(n) is Terrain.ROUGH
            for n in around
        ):
            found.append(h)
    return tuple(found)


#: What may stand on a neighbour: nothing, an enemy, a Neutral, a friend, an enemy Fleet
#: (land forces reach Fleets on a coast but never at sea: 35.0, 19.62).
OCCUPANTS = ("none", "enemy", "neutral", "friend", "fleet")
STOCK = {
    "enemy": ("slavs", UnitKind.WARBAND),
    "neutral": ("achaea", UnitKind.GARRISON),
    "friend": ("thracia", UnitKind.GARRISON),
    "fleet": ("vandals", UnitKind.FLEET),
}


@pytest.mark.rule("17.22", "17.26", "17.28")
@settings(max_examples=80)
@given(
    centre=st.sampled_from(_centres()),
    around=st.lists(st.sampled_from(OCCUPANTS), min_size=6, max_size=6),
)
def test_a_force_may_attack_each_adjacent_hex_it_could_enter_held_by_others(
    centre: int, around: list[str]
) -> None:
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, centre)
    force = state.units.at(centre)
    for hex_, who in zip(MAP.neighbours(centre), around, strict=False):
        if who == "none" or (who != "fleet" and not CAT.is_land(hex_)):
            continue
        if who == "fleet" and CAT.is_land(hex_) and not MAP.is_coastal(hex_):
            continue
        nationality, kind = STOCK[who]
        state = try_put(state, nationality, kind, hex_)
    targets = attack_targets(CAT, state, force, centre)
    expected = [
        n
        for n in MAP.neighbours(centre)
        if state.units.at(n)
        and step_cost(CAT, state, centre, n) is not None
        and all(controller(CAT, state, u) != EMPIRE for u in state.units.at(n))
    ]
    assert targets == expected
    for target in targets:
        assert distance(centre, target) == 1  # 17.22
        features = MAP.features(centre, target)
        # 17.28: never across water the force could not cross on land.
        assert CAT.is_land(target)
        assert HexsideFeature.SEA not in features or HexsideFeature.STRAIT in features


@pytest.mark.rule("17.26", "17.3")
def test_a_force_attacks_one_hex_at_a_time() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, b, count=2)
    state = put(state, "slavs", UnitKind.WARBAND, a)
    state = put(state, "slavs", UnitKind.WARBAND, c, count=2)
    beyond = state.units.at(c)
    state = begin(state, b, 6)
    assert attacks(state) == {a, c}
    events: list[Event] = []
    state = step(state, Select(f"attack {a}"), events)
    assert pending_task(state, Battle).target == a
    state = through_draws(fight(state, "assault", 6, events), events)
    (declared,) = [e.text for e in events if e.rule == "17.11" and e.kind == "battle"]
    assert not any(name in declared for name in ids(beyond))
    # Only the hex attacked fought: 8 against the lone warband's 3.
    assert result_of(events)[:4] == (8, 1, 3, 1)
    assert state.units.at(c) == beyond
    assert c in attacks(state)


# -- 17.24, 17.27, 13.22: which units attack ------------------------------------------------


@pytest.mark.rule("17.24", "17.27", "13.22")
def test_only_the_operating_force_attacks_and_all_of_it() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, c)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    army, garrison = state.units.at(a)
    (other,) = state.units.at(c)
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"force {a}"))
    state = answer(GAME, state, Select(f"drop {CAT.counters[garrison].id}"))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((1,)))
    events: list[Event] = []
    state = step(state, Select(f"attack {b}"), events)
    # The force is the whole attacker: neither the counter left out in its hex nor
    # the other force beside the target takes part.
    assert pending_task(state, Battle).force == (army,)
    state = through_draws(fight(state, "assault", 1, events), events)  # 4 vs 3: 1/1, AD
    assert result_of(events)[:4] == (4, 1, 3, 1)
    assert state.units.where[army] == AVAILABLE
    assert state.units.where[garrison] == a and state.units.where[other] == c
    # The other force attacks the same hex in a combat of its own (17.27, 17.3).
    assert pending_task(state, OperationsPhase).stage == "pick"
    state = answer(GAME, state, Select(f"force {c}"))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((1,)))
    events = []
    state = step(state, Select(f"attack {b}"), events)
    assert pending_task(state, Battle).force == (other,)


# -- 17.3: every defender fights -------------------------------------------------------------


@pytest.mark.rule("17.3", "17.71", "17.8")
@settings(max_examples=40)
@given(warbands=st.integers(1, 4), hordes=st.integers(0, 2), roll=st.integers(1, 6))
def test_every_counter_in_the_hex_defends_together(warbands: int, hordes: int, roll: int) -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a, count=2)
    state = put(state, "slavs", UnitKind.WARBAND, b, count=warbands)
    if hordes:
        state = put(state, "slavs", UnitKind.NOMAD_HORDE, b, count=hordes)
    defending = state.units.at(b)
    state = begin(state, a, 6)
    events: list[Event] = []
    state = step(state, Select(f"attack {b}"), events)
    state = step(state, Select("stand"), events)
    state = step(state, Select("assault"), events)
    state = step(state, Roll((roll,)), events)
    a_str, _, d_str, d_mult, _ = result_of(events)
    assert a_str == 8
    assert d_str == d_mult * sum(CAT.counters[u].combat for u in defending)
    # Losses are picked among all the defenders alike.
    while state.pending is not None and state.pending.rule == "17.8":
        chooser = state.pending.player
        offered = {o.item.removeprefix("lose ") for o in options(state) if isinstance(o, Select)}
        if chooser == BARBARIAN:
            left = [u for u in defending if state.units.where[u] == b]
            assert offered == set(ids(left))
        state = step(state, options(state)[0], events)
    state = through_draws(state, events)
    # A hex may be attacked again in the same phase while the force has the points.
    if (
        state.units.at(b)
        and state.pending is not None
        and pending_task(state, OperationsPhase).stage == "move"
    ):
        assert b in attacks(state)


# -- 17.52, 17.55: withdrawing ---------------------------------------------------------------


@pytest.mark.rule("17.52", "17.5", "17.54")
def test_the_defenders_withdraw_together() -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, b, count=2)
    defending = state.units.at(b)
    state = begin(state, a, 6)
    state = answer(GAME, state, Select(f"attack {b}"))
    # One choice for the whole stack: no way to stand with some and go with others.
    assert options(state) == (Select("stand"), Select("withdraw"))
    state = pick_roll_off_units(answer(GAME, state, Select("withdraw")))
    state = answer(GAME, state, Roll((1, 6)))  # 8 + 1 against 16 + 6: it withdraws
    state = answer(GAME, state, Roll((3,)))
    path = [b]
    while state.pending is not None and isinstance(state.pending.task, Retreat):
        state = answer(GAME, state, options(state)[-1])
        spots = {state.units.where[u] for u in defending}
        assert len(spots) == 1
        path.append(spots.pop())
    assert len(path) == 4 and len(set(path)) == 4
    assert all(distance(x, y) == 1 for x, y in pairwise(path))


@cache
def _by_tolosa() -> tuple[int, int]:
    """Tolosa (a City of open country all round) and a hex beside it."""
    city_hex = MAP.city("Tolosa").hex
    return city_hex, MAP.neighbours(city_hex)[0]


@pytest.mark.rule("17.55", "17.54")
def test_a_withdrawal_may_end_early_in_a_city_after_one_hex() -> None:
    city_hex, beside = _by_tolosa()
    state = put(board(), "franks", UnitKind.WARBAND, beside)
    stack = state.units.at(beside)
    state = start(GAME, state, Retreat(BARBARIAN, stack, 3, "17.54"))
    assert Done() not in options(state) and city_hex in places(state)
    state = answer(GAME, state, Place(city_hex))
    assert options(state)[0] == Done()
    state = answer(GAME, state, Done())
    assert state.pending is None and state.units.where[stack[0]] == city_hex


@pytest.mark.rule("17.55")
def test_a_withdrawal_from_a_city_goes_at_least_one_hex() -> None:
    city_hex, _ = _by_tolosa()
    state = put(board(), "franks", UnitKind.WARBAND, city_hex)
    stack = state.units.at(city_hex)
    state = start(GAME, state, Retreat(BARBARIAN, stack, 2, "17.54"))
    assert Done() not in options(state)
    state = answer(GAME, state, options(state)[0])
    assert state.units.where[stack[0]] != city_hex
    assert Done() not in options(state)  # open ground: the second hex is due too


# -- 15.32, 17.58: where a retreat may go ------------------------------------------------------


@cache
def _rugged() -> tuple[int, ...]:
    """Land hexes with six neighbours, some across a river, road or pass, or rough."""
    return tuple(
        h
        for h in _centres()
        if len(MAP.neighbours(h)) == 6
        and any(
            HexsideFeature.RIVER in MAP.features(h, n)
            or MAP.terrain_at(n) is Terrain.ROUGH
            or HexsideFeature.ROAD in MAP.features(h, n)
            for n in MAP.neighbours(h)
        )
    )


@cache
def _nearby(centre: int) -> tuple[int, ...]:
    ring = {h for n in MAP.neighbours(centre) for h in MAP.neighbours(n)}
    return tuple(sorted((ring | set(MAP.neighbours(centre))) - {centre}))


#: Who may stand near a retreating Slav stack: an enemy, a Neutral, Slav friends, or
#: friends of another people (a Barbarian stack holds one people only, 13.132).
NEIGHBOURS = {
    "enemy": ("thracia", UnitKind.GARRISON),
    "enemy2": ("lydia", UnitKind.GARRISON),
    "neutral": ("achaea", UnitKind.GARRISON),
    "friend": ("slavs", UnitKind.WARBAND),
    "other people": ("franks", UnitKind.WARBAND),
}


def _may_enter(state: BelState, stack: tuple[int, ...], here: int, there: int, last: bool) -> bool:
    """17.58 and 15.32 read off the rulebook, hex by hex."""
    features = MAP.features(here, there)
    road = HexsideFeature.ROAD in features
    return (
        step_cost(CAT, state, here, there) is not None  # terrain it could enter
        and all(controller(CAT, state, u) == BARBARIAN for u in state.units.at(there))
        and there not in land_zoc(CAT, state, BARBARIAN)
        and (HexsideFeature.RIVER not in features or road)
        and (MAP.terrain_at(there) is not Terrain.ROUGH or road or HexsideFeature.PASS in features)
        and may_end_at(CAT, state, stack, there)  # 13.1 at any time, not only the last
    )


@pytest.mark.rule("17.58", "15.32", "17.9", "17.54", "13.1")
@settings(max_examples=80)
@given(
    centre=st.sampled_from(_rugged()),
    crowd=st.lists(st.tuples(st.integers(0, 17), st.sampled_from(sorted(NEIGHBOURS))), max_size=8),
    size=st.integers(1, 2),
    hexes=st.integers(1, 4),
    seed=st.integers(0, 2**16),
)
def test_a_retreat_keeps_to_the_hexes_the_rules_allow_or_the_force_is_lost(
    centre: int, crowd: list[tuple[int, str]], size: int, hexes: int, seed: int
) -> None:
    state = put(board(), "slavs", UnitKind.WARBAND, centre, count=size)
    stack = state.units.at(centre)
    spots = _nearby(centre)
    for index, who in crowd:
        where = spots[index % len(spots)]
        nationality, kind = NEIGHBOURS[who]
        if CAT.is_land(where) and not state.units.at(where):
            state = try_put(state, nationality, kind, where)
    state = start(GAME, state, Retreat(BARBARIAN, stack, hexes, "17.9"))
    rng = random.Random(seed)
    here, visited, left = centre, [centre], hexes
    while state.pending is not None:
        offered = places(state)
        legal = {
            n
            for n in MAP.neighbours(here)
            if n not in visited and _may_enter(state, stack, here, n, left == 1)
        }
        assert offered == legal
        assert offered == set(
            retreat_steps(CAT, state, BARBARIAN, stack, here, tuple(visited), left == 1)
        )
        # The whole way, unless it has come at least one hex into a City (17.55).
        assert (Done() in options(state)) == (len(visited) > 1 and fortified(CAT, state, here))
        there = rng.choice(sorted(offered))
        state = answer(GAME, state, Place(there))
        here, left = there, left - 1
        visited.append(here)
    final = {state.units.where[u] for u in stack}
    if left:
        # No legal hex was left before the end: the force is eliminated (15.32, 17.54).
        assert final == {AVAILABLE}
        assert not any(
            n not in visited and _may_enter(state, stack, here, n, left == 1)
            for n in MAP.neighbours(here)
        )
    else:
        assert final == {here} and not exceeds_stacking(CAT, state, stack, here)
        assert len(set(visited)) == hexes + 1


# -- 17.91, 17.92: ignoring a retreat, and operating on after one -----------------------------


@pytest.mark.rule("17.91", "17.9")
@pytest.mark.parametrize("in_city", [True, False])
def test_a_defender_in_a_city_may_ignore_a_retreat(in_city: bool) -> None:
    city_hex, beside = _by_tolosa()
    # Two armies attack from beside Tolosa into it, or from Tolosa out to beside it.
    attack_from, target = (beside, city_hex) if in_city else (city_hex, beside)
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, attack_from, count=2)
    state = put(state, "franks", UnitKind.WARBAND, target)
    (defender,) = state.units.at(target)
    state = begin(state, attack_from, 6)
    events: list[Event] = []
    state = step(state, Select(f"attack {target}"), events)
    # 8 against 3 doubled in the City: 1/1, where a 4 on Maneuver is DR1; in the open
    # 8 against 3 is 2/1, where a 4 is DR2.
    state = fight(state, "maneuver", 4, events)
    code = result_of(events)[4]
    assert code.startswith("DR")
    assert isinstance(state.pending and state.pending.task, Retreat)
    assert state.pending is not None and state.pending.player == BARBARIAN
    if in_city:
        assert options(state)[0] == Done()
        state = answer(GAME, state, Done())
        assert state.units.where[defender] == city_hex
    else:
        assert Done() not in options(state)


@pytest.mark.rule("17.91", "17.92", "17.9")
@pytest.mark.parametrize("out_of_city", [True, False])
def test_an_attacker_driven_back_may_stay_in_its_city_or_retreats_and_operates_on(
    out_of_city: bool,
) -> None:
    city_hex, beside = _by_tolosa()
    origin, target = (city_hex, beside) if out_of_city else (beside, city_hex)
    state = put(board(), "thracia", UnitKind.GARRISON, origin)
    state = put(state, "franks", UnitKind.WARBAND, target, count=2)
    (attacker,) = state.units.at(origin)
    state = begin(state, origin, 6)  # 8 + 6 = 14 points
    events: list[Event] = []
    state = step(state, Select(f"attack {target}"), events)
    state = fight(state, "maneuver", 3, events)  # 1 against 6 or 12: 1/3, a 3 is AR2
    assert result_of(events)[4] == "AR2"
    assert isinstance(state.pending and state.pending.task, Retreat)
    if out_of_city:
        assert options(state)[0] == Done()
        state = answer(GAME, state, Done())
        assert state.units.where[attacker] == city_hex
    else:
        assert Done() not in options(state)
        for _ in range(2):
            state = answer(GAME, state, options(state)[0])
        assert distance(state.units.where[attacker], target) > 1
    state = through_draws(state)
    # The force goes on operating with what is left after the Maneuver price (17.92).
    assert pending_task(state, OperationsPhase).stage == "move"
    assert pending_task(state, OperationsPhase).where == state.units.where[attacker]
    assert pending_task(state, OperationsPhase).points == 14 - 8
    assert places(state)


# -- 21.2#2: Leaders are combat units ------------------------------------------------------------


@pytest.mark.rule("21.2#2", "21.22#2", "17.74", "17.8", "21.3")
def test_a_leader_fights_and_falls_like_any_unit_and_doubles_its_force() -> None:
    a, b, _ = open_line()
    leader = CAT.counter("solomon")
    assert CAT.counters[leader].stars == 1
    state = move(board(), [leader], a)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "slavs", UnitKind.WARBAND, b, count=2)
    state = begin(state, a, 1)
    events: list[Event] = []
    state = step(state, Select(f"attack {b}"), events)
    state = fight(state, "assault", 1, events)
    # (1 + 4) doubled by the Leader against 6: 1.5/1, a 1 is AD, half of two units.
    assert result_of(events) == (10, 2, 6, 1, "AD")
    assert state.pending is not None and state.pending.rule == "17.8"
    assert Select("lose solomon") in options(state)
    state = answer(GAME, state, Select("lose solomon"))
    assert state.units.where[leader] == AVAILABLE
    assert pending_task(state, OperationsPhase).force == tuple(u for u in state.units.at(a))


@pytest.mark.rule("21.2#2", "13.11")
def test_a_leader_alone_is_a_force_that_may_attack() -> None:
    a, b, _ = open_line()
    leader = CAT.counter("solomon")
    state = move(board(), [leader], a)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    state = begin(state, a, 1)  # 24 + 2 x 1
    assert (
        pending_task(state, OperationsPhase).force == (leader,)
        and pending_task(state, OperationsPhase).points == 26
    )
    events: list[Event] = []
    state = step(state, Select(f"attack {b}"), events)
    fight(state, "assault", 1, events)
    assert result_of(events)[:4] == (2, 2, 3, 1)
    # It takes a place in the stack like any unit (13.11).
    crowd = put(board(), "thracia", UnitKind.GARRISON, a, count=8)
    crowd = put(crowd, "lydia", UnitKind.GARRISON, a, count=2)
    assert exceeds_stacking(CAT, move(crowd, [leader], b), [leader], a)
