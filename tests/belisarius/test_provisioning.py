"""The Provisioning Phase (20.0-20.7, 10.33, 18.5): forage, pay or disband."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.provisioning import (
    ProvisioningPhase,
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
    NOBODY,
    BelAction,
    BelState,
    Done,
    Markers,
    RequestKind,
    Select,
)
from byzantium.belisarius.world import controller, in_play
from tests.belisarius.support import (
    CAT,
    CTX,
    GAME,
    answer_unchecked,
    as_played,
    belisarius,
    blank_state,
    boards,
    context,
    crowded_board,
    put,
)

RULEBOOK = "belisarius"


def blank(phasing: int = EMPIRE, solidus: int = 10, **control: Control) -> BelState:
    """No counter in play, every Region Neutral but those named, nothing scheduled."""
    return blank_state("provisioning", phasing, turn=0, control=control, solidus=solidus)


def start(state: BelState) -> BelState:
    return settle(CTX, push(state, ProvisioningPhase()))


def reply(state: BelState, action: BelAction) -> BelState:
    request = state.pending
    assert request is not None
    assert action in request.options
    return answer_unchecked(GAME, state, action)


def hex_with_forage(name: str, forage: int) -> int:
    return next(
        h for h in sorted(CAT.regions[CAT.region(name)].hexes) if CAT.forage(h, Markers()) == forage
    )


@pytest.mark.rule("20.0", "20.1")
def test_units_within_forage_cost_nothing() -> None:
    state = blank(Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 2)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 2)
    assert provisioning_bill(CTX, state, spot) == 0
    after = start(state)
    assert after.pending is None
    assert after == state


@pytest.mark.rule("20.1", "20.2", "10.33")
def test_paying_for_the_units_beyond_forage() -> None:
    state = blank(solidus=10, Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 2)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 2)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, spot, 2)
    costs = sorted(
        CAT.counters[u].provisioning for u in in_play(state) if state.units.where[u] == spot
    )
    bill = provisioning_bill(CTX, state, spot)
    # two extra units; the cheapest two are paid for, the dearest forage
    assert bill == costs[0] + costs[1]
    asked = start(state)
    assert asked.pending is not None
    assert asked.pending.options[0] == Done()
    paid = reply(asked, Done())
    assert paid.pending is None
    assert paid.solidus == (10 - bill, 10)
    assert paid.units == state.units


@pytest.mark.rule("20.2", "20.3")
def test_disbanding_until_the_rest_can_be_paid() -> None:
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 2)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 3)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, spot, 1)
    asked = start(state)
    assert asked.pending is not None
    assert Done() not in asked.pending.options  # nothing to pay with
    army = next(CAT.of_nationality("thracia", UnitKind.FIELD_ARMY))
    asked = reply(asked, Select(CAT.counters[army].id))
    assert asked.units.where[army] == AVAILABLE
    assert asked.pending is not None
    garrison = next(
        o for o in asked.pending.options if isinstance(o, Select) and "garrison" in o.item
    )
    done = reply(asked, garrison)
    assert done.pending is None
    assert len(feeders(CTX, done, spot)) == 2
    assert done.solidus == state.solidus


@pytest.mark.rule("20.3")
def test_a_player_may_disband_rather_than_pay() -> None:
    state = blank(solidus=10, Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 1)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 2)
    asked = start(state)
    assert asked.pending is not None
    option = next(o for o in asked.pending.options if isinstance(o, Select))
    done = reply(asked, option)
    assert done.pending is None
    assert done.solidus == (10, 10)
    assert len(feeders(CTX, done, spot)) == 1


@pytest.mark.rule("20.4")
def test_pillaged_hexes_feed_nobody() -> None:
    state = blank(solidus=10, Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 2)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 2)
    assert provisioning_bill(CTX, state, spot) == 0
    pillaged = attrs.evolve(state, markers=Markers(pillaged=frozenset({spot})))
    assert (
        provisioning_bill(CTX, pillaged, spot)
        == 2 * CAT.counters[next(CAT.of_nationality("thracia", UnitKind.GARRISON))].provisioning
    )
    assert underfed(CTX, pillaged) == [spot]


@pytest.mark.rule("18.5", "18.4")
def test_a_box_feeds_ten() -> None:
    state = blank(BARBARIAN, solidus=0, Persia=Control.BARBARIAN)
    box = CAT.box_of(CAT.region("Persia"))
    state = put(state, "persia", UnitKind.GARRISON, box, 10)
    assert provisioning_bill(CTX, state, box) == 0
    state = put(state, "persia", UnitKind.WARBAND, box, 1)
    assert provisioning_bill(CTX, state, box) > 0
    assert underfed(CTX, state) == [box]


@pytest.mark.rule("20.5", "20.6", "19.7")
def test_leaders_and_fleets_eat() -> None:
    state = blank(Thracia=Control.EMPIRE)
    coast = next(
        h
        for h in sorted(CAT.regions[CAT.region("Thracia")].hexes)
        if CAT.map.is_coastal(h) and CAT.forage(h, Markers()) == 1
    )
    state = put(state, "thracia", UnitKind.FLEET, coast, 1)
    assert provisioning_bill(CTX, state, coast) == 0
    belisarius = CAT.counter("belisarius")
    state = attrs.evolve(state, units=state.units.move(belisarius, coast))
    assert provisioning_bill(CTX, state, coast) == min(
        CAT.counters[belisarius].provisioning,
        CAT.counters[next(CAT.of_nationality("thracia", UnitKind.FLEET))].provisioning,
    )


@pytest.mark.rule("20.7", "4.31")
def test_neutral_and_enemy_counters_are_not_checked() -> None:
    state = blank(EMPIRE, solidus=0, Persia=Control.BARBARIAN)
    desert = hex_with_forage("Aegyptus", 0)
    persian = hex_with_forage("Persia", 1)
    state = put(state, "aegyptus", UnitKind.GARRISON, desert, 3)  # Aegyptus Neutral here
    state = put(state, "persia", UnitKind.GARRISON, persian, 3)  # the enemy's
    assert underfed(CTX, state) == []
    assert start(state) == state


@pytest.mark.rule("20.3", "21.4")
def test_disbanding_justinian_costs_the_empire_its_markers() -> None:
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    desert_free = hex_with_forage("Thracia", 1)
    state = put(state, "thracia", UnitKind.GARRISON, desert_free, 1)
    state = attrs.evolve(state, units=state.units.move(CAT.justinian, desert_free))
    state = attrs.evolve(
        state, stratagems=state.stratagems.transfer(CAT.stratagem("agent"), EMPIRE, True)
    )
    asked = start(state)
    done = reply(asked, Select("justinian"))
    assert done.units.where[CAT.justinian] == GONE
    assert done.stratagems.held(EMPIRE) == 0


# -- properties ----------------------------------------------------------------------------


@pytest.mark.rule("20.0", "20.1", "20.2", "20.3", "20.7", "10.33")
@settings(max_examples=25)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_after_provisioning_every_friendly_counter_is_fed(seed: int) -> None:
    before = crowded_board(seed, pillage=True)
    player = before.phasing
    rng = random.Random(seed + 1)
    state = start(before)
    paid = 0
    while state.pending is not None:
        request = state.pending
        assert request.kind is RequestKind.CHOOSE and request.player == player
        action = rng.choice(request.options)
        if isinstance(action, Done):
            task = request.task
            assert isinstance(task, ProvisioningPhase)
            where = next(w for w in underfed(CTX, state) if w not in task.settled)
            paid += provisioning_bill(CTX, state, where)
        state = reply(state, action)
        assert state.solidus[player] >= 0
    assert state.solidus[player] == before.solidus[player] - paid
    assert state.solidus[1 - player] == before.solidus[1 - player]
    # counters only leave play, only the phasing player's, and nobody else moves
    for unit, (a, b) in enumerate(zip(before.units.where, state.units.where, strict=True)):
        if a != b:
            assert b in (AVAILABLE, GONE)
            assert controller(CAT, before, unit) == player
    # what is left either forages or was paid for
    hungry = sum(provisioning_bill(CTX, state, w) for w in underfed(CTX, state))
    assert hungry == paid


def test_states_in_the_middle_of_provisioning_round_trip_through_the_codec() -> None:
    state = blank(solidus=10, Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 1)
    other = hex_with_forage("Thracia", 2)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 2)
    state = put(state, "thracia", UnitKind.GARRISON, other, 3)
    asked = reply(start(state), Done())
    assert asked.pending is not None
    assert isinstance(asked.pending.task, ProvisioningPhase)
    assert asked.pending.task.settled
    assert GAME.decode_state(GAME.encode_state(as_played(asked))) == as_played(asked)


# -- 20.7: Neutral counters ---------------------------------------------------------------------


@pytest.mark.rule("20.7")
def test_neutral_counters_use_up_no_forage() -> None:
    # A Neutral counter never shares a hex with belligerents (13.12); set one down among
    # Empire counters anyway: it neither eats the hex's Forage nor adds to the bill.
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 1)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 1)
    assert provisioning_bill(CTX, state, spot) == 0
    crowded = put(state, "lydia", UnitKind.GARRISON, spot, 2)  # Lydia is Neutral here
    assert controller(CAT, crowded, next(CAT.of_nationality("lydia"))) == NOBODY
    assert feeders(CTX, crowded, spot) == feeders(CTX, state, spot)
    assert provisioning_bill(CTX, crowded, spot) == 0
    assert underfed(CTX, crowded) == []
    assert start(crowded) == crowded


@pytest.mark.rule("20.7", "30.0")
def test_neutral_counters_are_never_offered_for_disbanding() -> None:
    game = belisarius(disbanding=True)
    state = blank(solidus=0, Thracia=Control.EMPIRE)
    spot = hex_with_forage("Thracia", 1)
    state = put(state, "thracia", UnitKind.GARRISON, spot, 1)
    state = put(state, "lydia", UnitKind.GARRISON, hex_with_forage("Lydia", 2), 3)
    asked = settle(context(game), push(state, ProvisioningPhase()))
    assert asked.pending is not None
    offered = {o.item for o in asked.pending.options if isinstance(o, Select)}
    assert offered == {CAT.counters[next(CAT.of_nationality("thracia", UnitKind.GARRISON))].id}


@pytest.mark.rule("20.7", "4.31")
@settings(max_examples=40)
@given(board=boards(), phasing=st.sampled_from((EMPIRE, BARBARIAN)))
def test_neutral_counters_change_no_bill(board: BelState, phasing: int) -> None:
    state = attrs.evolve(board, phasing=phasing)
    neutral = [u for u in in_play(state) if controller(CAT, state, u) == NOBODY]
    units = state.units
    for unit in neutral:
        units = units.move(unit, AVAILABLE)
    without = attrs.evolve(state, units=units)
    assert underfed(CTX, state) == underfed(CTX, without)
    for where in {state.units.where[u] for u in in_play(state)}:
        assert all(controller(CAT, state, u) == phasing for u in feeders(CTX, state, where))
        assert provisioning_bill(CTX, state, where) == provisioning_bill(CTX, without, where)
