"""Optional rule 30, Disbanding: unpaid or unwanted units make a Disbanding check."""

from __future__ import annotations

import random
from collections.abc import Iterable

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import DisbandingOutcome, UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.provisioning import (
    DisbandingCheck,
    ProvisioningPhase,
    apply_disbanding,
    disbanding_modifier,
    disbanding_outcome,
    feeders,
    provisioning_bill,
    underfed,
)
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    GONE,
    BelAction,
    BelState,
    Done,
    Markers,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.world import controller
from tests.belisarius.support import (
    CAT,
    answer_unchecked,
    as_played,
    belisarius,
    blank_state,
    check_invariants,
    context,
    crowded_board,
    move,
    put,
    random_game,
)

RULEBOOK = "belisarius"

#: Scenario 1 with optional rule 30.
GAME = belisarius(disbanding=True)
CTX = context(GAME)
#: Scenario 1 without it.
PLAIN = belisarius()

MODIFIERS = CAT.components.modifiers_of("disbanding")
LEADER_DRM = next(m.value for m in MODIFIERS if m.source.ref == "30.5")
PER_THREE_DRM = next(m.value for m in MODIFIERS if "three" in m.name)


def blank(phasing: int = EMPIRE, solidus: int = 10, **control: Control) -> BelState:
    """No counter in play, every Region Neutral but those named, nothing scheduled."""
    return blank_state("provisioning", phasing, turn=1, control=control, solidus=solidus, game=GAME)


def hex_with_forage(name: str, forage: int) -> int:
    return next(
        h for h in sorted(CAT.regions[CAT.region(name)].hexes) if CAT.forage(h, Markers()) == forage
    )


def start(state: BelState, game: Belisarius = GAME) -> BelState:
    return settle(context(game), push(state, ProvisioningPhase()))


def reply(state: BelState, action: BelAction, game: Belisarius = GAME) -> BelState:
    request = state.pending
    assert request is not None
    assert action in request.options or request.kind is RequestKind.ROLL
    return answer_unchecked(game, state, action)


def ids(units: Iterable[int]) -> list[str]:
    return [CAT.counters[u].id for u in units]


def at(state: BelState, where: int) -> list[int]:
    return list(state.units.at(where))


def stock(nationality: str, kind: UnitKind) -> list[int]:
    return list(CAT.of_nationality(nationality, kind))


SPOT = hex_with_forage("Thracia", 2)


# -- 30.0, 20.3: the unpaid make a check ----------------------------------------------------------


@pytest.mark.rule("30.0", "30.1", "30.11", "20.3")
def test_unpaid_units_make_a_check_instead_of_leaving_at_once() -> None:
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 3)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, SPOT, 1)
    army = stock("thracia", UnitKind.FIELD_ARMY)[0]
    asked = start(state)
    assert asked.pending is not None and Done() not in asked.pending.options
    asked = reply(asked, Select(CAT.counters[army].id))
    # still on the map, bound for the check: the bill now leaves it out
    assert asked.units.where[army] == SPOT
    assert asked.pending is not None
    task = asked.pending.task
    assert isinstance(task, ProvisioningPhase) and task.disbanding == (army,)
    assert provisioning_bill(CTX, asked, SPOT, task.disbanding) > 0  # still 3 garrisons on 2
    garrison = next(
        o for o in asked.pending.options if isinstance(o, Select) and "garrison" in o.item
    )
    asked = reply(asked, garrison)
    # every bill settled: the voluntary step (30.3), then the check, in this phase (30.11)
    assert asked.pending is not None and asked.pending.rule == "30.3"
    assert asked.pending.options[0] == Done()
    rolled = reply(asked, Done())
    assert rolled.pending is not None and rolled.pending.kind is RequestKind.ROLL
    assert rolled.pending.rule == "30.1"
    assert isinstance(rolled.pending.task, DisbandingCheck)
    assert rolled.phase == "provisioning"
    done = reply(rolled, Roll((6,)))
    assert done.pending is None
    assert done.units.where[army] == AVAILABLE
    assert len(feeders(CTX, done, SPOT)) == 2
    assert done.solidus == state.solidus
    assert SPOT not in done.markers.pillaged


@pytest.mark.rule("30.0", "20.3")
def test_without_the_option_unpaid_units_simply_leave() -> None:
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 3)
    asked = start(state, PLAIN)
    first = (
        next(o for o in asked.pending.options if isinstance(o, Select)) if asked.pending else None
    )
    assert first is not None
    done = reply(asked, first, PLAIN)
    assert done.pending is None  # no voluntary step and no roll
    assert len(feeders(CTX, done, SPOT)) == 2


@pytest.mark.rule("30.0", "30.3", "30.2")
def test_a_fed_unit_may_be_put_into_a_check_all_the_same() -> None:
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 2)  # fed by forage
    belisarius_ = CAT.counter("belisarius")
    state = move(state, [belisarius_], hex_with_forage("Thracia", 3))
    assert underfed(CTX, state) == []
    asked = start(state)
    assert asked.pending is not None and asked.pending.rule == "30.3"
    offered = {o.item for o in asked.pending.options if isinstance(o, Select)}
    # one choice per kind and location: the two garrisons are interchangeable
    assert offered == {ids(at(state, SPOT))[0], "belisarius"}
    # none: Done at once, nothing happens
    assert reply(asked, Done()) == attrs.evolve(state, pending=None)


@pytest.mark.rule("30.2", "30.1")
def test_some_none_or_all_of_a_hex_and_one_roll_per_hex() -> None:
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    other = hex_with_forage("Thracia", 3)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 2)
    state = put(state, "thracia", UnitKind.GARRISON, other, 3)
    asked = start(state)
    chosen: list[int] = []
    for where, count in ((SPOT, 2), (other, 1)):
        for _ in range(count):
            pick = next(
                o
                for o in asked.pending.options  # type: ignore[union-attr]
                if isinstance(o, Select) and CAT.counter(o.item) in at(state, where)
            )
            chosen.append(CAT.counter(pick.item))
            asked = reply(asked, pick)
    asked = reply(asked, Done())
    rolls = []
    while asked.pending is not None:
        assert asked.pending.kind is RequestKind.ROLL
        task = asked.pending.task
        assert isinstance(task, DisbandingCheck)
        rolls.append((task.where, task.units))
        asked = reply(asked, Roll((6,)))
    # one combined check per location, in location order, with every unit chosen there
    assert rolls == [
        (w, tuple(sorted(u for u in chosen if state.units.where[u] == w)))
        for w in sorted((SPOT, other))
    ]
    assert at(asked, SPOT) == []
    assert len(at(asked, other)) == 2


# -- 30.1: the results ---------------------------------------------------------------------------


def _force(state: BelState, where: int) -> list[int]:
    return at(state, where)


@pytest.mark.rule("30.1")
def test_disband_result_removes_the_force_quietly() -> None:
    state = put(blank(Thracia=Control.EMPIRE), "thracia", UnitKind.GARRISON, SPOT, 2)
    force = _force(state, SPOT)
    after = apply_disbanding(CTX, state, SPOT, force, DisbandingOutcome.DISBAND)
    assert all(after.units.where[u] == AVAILABLE for u in force)
    assert after.markers == state.markers


@pytest.mark.rule("30.0", "30.1")
def test_amok_result_removes_the_force_and_pillages_the_hex() -> None:
    state = put(blank(Thracia=Control.EMPIRE), "thracia", UnitKind.GARRISON, SPOT, 3)
    force = _force(state, SPOT)[:2]
    after = apply_disbanding(CTX, state, SPOT, force, DisbandingOutcome.AMOK)
    assert all(after.units.where[u] == AVAILABLE for u in force)
    assert after.markers.pillaged == {SPOT}
    # the unit that stayed is untouched (30.5)
    assert len(at(after, SPOT)) == 1


@pytest.mark.rule("30.1", "18.5")
def test_amok_in_a_box_pillages_nothing() -> None:
    state = blank(BARBARIAN, Persia=Control.BARBARIAN)
    box = CAT.box_of(CAT.region("Persia"))
    state = put(state, "persia", UnitKind.GARRISON, box, 2)
    after = apply_disbanding(CTX, state, box, _force(state, box), DisbandingOutcome.AMOK)
    assert at(after, box) == []
    assert after.markers == state.markers


@pytest.mark.rule("30.1", "12.4")
def test_a_mutiny_put_down_by_stronger_comrades() -> None:
    state = blank(Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 2)  # mutineers: 2 strength
    state = put(state, "thracia", UnitKind.FIELD_ARMY, SPOT, 1)  # stays: 4
    force = stock("thracia", UnitKind.GARRISON)[:2]
    after = apply_disbanding(CTX, state, SPOT, force, DisbandingOutcome.MUTINY)
    assert all(after.units.where[u] == AVAILABLE for u in force)
    assert ids(at(after, SPOT)) == ["thracia-field-army-1"]
    assert after.markers.pillaged == frozenset()


@pytest.mark.rule("30.1", "12.4")
def test_mutineers_as_strong_as_their_comrades_destroy_them_and_pillage() -> None:
    state = blank(Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 4)  # mutineers: 4 strength
    state = put(state, "thracia", UnitKind.FIELD_ARMY, SPOT, 1)  # stays: 4 (a tie)
    force = stock("thracia", UnitKind.GARRISON)[:4]
    after = apply_disbanding(CTX, state, SPOT, force, DisbandingOutcome.MUTINY)
    assert at(after, SPOT) == []
    assert after.markers.pillaged == {SPOT}


@pytest.mark.rule("30.1", "12.2")
def test_mutinying_guard_turns_to_the_barbarian() -> None:
    state = blank(Thracia=Control.EMPIRE)
    guards = stock("guard", UnitKind.GUARD)[:2]
    state = move(state, guards, SPOT)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 1)
    force = [*guards, *stock("thracia", UnitKind.GARRISON)[:1]]
    after = apply_disbanding(CTX, state, SPOT, force, DisbandingOutcome.MUTINY)
    assert at(after, SPOT) == guards
    assert all(after.units.mutiny[u] for u in guards)
    assert {controller(CAT, after, u) for u in guards} == {BARBARIAN}
    assert after.markers.pillaged == {SPOT}


@pytest.mark.rule("30.1", "12.3", "21.4")
def test_a_guard_force_with_justinian_does_not_change_sides() -> None:
    state = blank(Thracia=Control.EMPIRE)
    guards = stock("guard", UnitKind.GUARD)[:1]
    state = move(state, [*guards, CAT.justinian], SPOT)
    after = apply_disbanding(CTX, state, SPOT, [*guards, CAT.justinian], DisbandingOutcome.MUTINY)
    assert at(after, SPOT) == []
    assert not any(after.units.mutiny)
    assert after.units.where[CAT.justinian] == GONE


@pytest.mark.rule("30.1")
def test_the_table_reads_the_modified_roll() -> None:
    rows = CAT.components.disbanding
    for roll in range(1, 7):
        for modifier in range(-4, 3):
            total = roll + modifier
            expected = next(r.outcome for r in rows if r.low <= total <= r.high)
            assert disbanding_outcome(CTX, roll, modifier) is expected


# -- 30.1, 30.5: modifiers ------------------------------------------------------------------------


@pytest.mark.rule("30.5", "30.1")
def test_a_leader_in_the_hex_modifies_the_roll_even_if_he_stays() -> None:
    state = put(blank(Thracia=Control.EMPIRE), "thracia", UnitKind.GARRISON, SPOT, 2)
    force = at(state, SPOT)
    assert disbanding_modifier(CTX, state, SPOT, force) == 0
    led = move(state, [CAT.counter("belisarius")], SPOT)
    assert disbanding_modifier(CTX, led, SPOT, force) == LEADER_DRM
    # a disbanding Leader too, counted once however many Leaders stand there
    both = move(led, [CAT.counter("solomon")], SPOT)
    pair = [force[0], CAT.counter("solomon")]
    assert disbanding_modifier(CTX, both, SPOT, pair) == LEADER_DRM


@pytest.mark.rule("30.5", "30.1")
def test_other_staying_units_do_not_modify_the_roll() -> None:
    state = put(blank(Thracia=Control.EMPIRE), "thracia", UnitKind.GARRISON, SPOT, 1)
    force = at(state, SPOT)
    crowded = put(state, "thracia", UnitKind.FIELD_ARMY, SPOT, 2)
    assert disbanding_modifier(CTX, crowded, SPOT, force) == disbanding_modifier(
        CTX, state, SPOT, force
    )


@pytest.mark.rule("30.1")
@given(size=st.integers(1, 10))
def test_the_size_of_the_force_counts_leaders_included(size: int) -> None:
    state = blank(Thracia=Control.EMPIRE)
    units = [*stock("thracia", UnitKind.GARRISON)[: size - 1], CAT.counter("belisarius")]
    state = move(state, units, SPOT)
    assert disbanding_modifier(CTX, state, SPOT, units) == LEADER_DRM + PER_THREE_DRM * (size // 3)


@pytest.mark.rule("30.1", "30.5")
def test_a_roll_through_the_phase_uses_the_modifiers() -> None:
    # three garrisons (-1 per full three) roll a 1: total 0, a mutiny on our table
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 3)
    asked = start(state)
    for _ in range(3):
        pick = next(o for o in asked.pending.options if isinstance(o, Select))  # type: ignore[union-attr]
        asked = reply(asked, pick)
    rolled = reply(asked, Done()) if asked.pending and Done() in asked.pending.options else asked
    total = 1 + PER_THREE_DRM
    expected = disbanding_outcome(CTX, 1, PER_THREE_DRM)
    assert expected is next(
        r.outcome for r in CAT.components.disbanding if r.low <= total <= r.high
    )
    done = reply(rolled, Roll((1,)))
    assert at(done, SPOT) == []
    pillaged = expected is not DisbandingOutcome.DISBAND
    assert (SPOT in done.markers.pillaged) is pillaged


# -- properties -----------------------------------------------------------------------------------


@pytest.mark.rule("30.0", "30.1", "30.2", "30.3", "30.11", "20.2", "10.33")
@settings(max_examples=20)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_provisioning_with_disbanding(seed: int) -> None:
    before = crowded_board(seed)
    player = before.phasing
    rng = random.Random(seed + 1)
    state = start(before)
    checks: list[DisbandingCheck] = []
    chosen: set[int] = set()
    while state.pending is not None:
        request = state.pending
        if request.kind is RequestKind.ROLL:
            assert isinstance(request.task, DisbandingCheck)
            checks.append(request.task)
            action: BelAction = Roll((rng.randint(1, 6),))
        else:
            assert request.player == player
            action = rng.choice(request.options)
            if isinstance(action, Select):
                unit = CAT.counter(action.item)
                assert controller(CAT, state, unit) == player
                assert unit not in chosen
                chosen.add(unit)
        state = reply(state, action)
        if state.pending is not None:
            check_invariants(GAME, state)
    # one check per location with chosen units, holding exactly those units
    places = sorted({before.units.where[u] for u in chosen})
    assert [c.where for c in checks] == places
    for check in checks:
        assert set(check.units) == {u for u in chosen if before.units.where[u] == check.where}
    # only the phasing player's counters at a checked location changed; the chosen left
    # play or turned Mutinying Guard
    for unit, (a, b) in enumerate(zip(before.units.where, state.units.where, strict=True)):
        if a != b:
            assert b in (AVAILABLE, GONE) and a in places
            assert controller(CAT, before, unit) == player
        if unit in chosen:
            assert b in (AVAILABLE, GONE) or state.units.mutiny[unit]
    # new Pillaged markers only where a check was made
    assert state.markers.pillaged - before.markers.pillaged <= set(places)
    assert state.solidus[1 - player] == before.solidus[1 - player]
    assert state.solidus[player] >= 0


@pytest.mark.rule("30.0", "20.3")
@settings(max_examples=10)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_with_the_option_off_the_phase_is_the_same_as_ever(seed: int) -> None:
    # the attrition option alone changes nothing: it only modifies disbanding checks
    before = crowded_board(seed)
    attrition = belisarius(additional_attrition=True, additional_placement=True)
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    a, b = start(before, PLAIN), start(before, attrition)
    while a.pending is not None:
        assert b.pending is not None
        assert a.pending.options == b.pending.options
        action = rng_a.choice(a.pending.options)
        assert action == rng_b.choice(b.pending.options)
        a, b = reply(a, action, PLAIN), reply(b, action, attrition)
    assert b.pending is None
    assert a == b


def test_states_in_the_middle_of_a_check_round_trip_through_the_codec() -> None:
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    state = put(state, "thracia", UnitKind.GARRISON, SPOT, 3)
    asked = start(state)
    asked = reply(asked, next(o for o in asked.pending.options if isinstance(o, Select)))  # type: ignore[union-attr]
    assert GAME.decode_state(GAME.encode_state(as_played(asked))) == as_played(asked)
    rolled = reply(asked, Done())
    assert rolled.pending is not None and rolled.pending.kind is RequestKind.ROLL
    assert GAME.decode_state(GAME.encode_state(as_played(rolled))) == as_played(rolled)


@pytest.mark.rule("30.0", "31.1", "31.2", "32.1")
def test_whole_random_games_with_the_optional_rules() -> None:
    game = belisarius(disbanding=True, additional_placement=True, additional_attrition=True)
    final, trail = random_game(game, seed=3, check=check_invariants)
    assert final.ending is not None
    rolled = [
        step
        for step in trail
        if step[0].pending is not None and isinstance(step[0].pending.task, DisbandingCheck)
    ]
    assert rolled, "random play made no disbanding check"
    for before, _, _, events in rolled:
        task = before.pending.task  # type: ignore[union-attr]
        assert isinstance(task, DisbandingCheck) and task.where > AVAILABLE
        assert any(e.rule == "30.1" and "Disbanding check" in e.text for e in events)
