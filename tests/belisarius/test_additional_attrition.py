"""Optional rule 32, Additional Attrition: Hordes and Warbands abroad disband worse."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import DisbandingOutcome, UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.provisioning import (
    DisbandingCheck,
    ProvisioningPhase,
    disbanding_modifier,
    disbanding_outcome,
    far_from_home,
)
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    BelState,
    Markers,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.world import units_at
from tests.belisarius.support import (
    CAT,
    answer_unchecked,
    belisarius,
    blank_state,
    context,
    move,
)

RULEBOOK = "belisarius"

#: Disbanding with and without Additional Attrition, and Attrition alone.
BOTH = belisarius(disbanding=True, additional_attrition=True)
CHECKS = belisarius(disbanding=True)
ALONE = belisarius(additional_attrition=True)


def blank(**control: Control) -> BelState:
    return blank_state("provisioning", BARBARIAN, control=control, solidus=0, game=BOTH)


def land(region: str, forage: int = 2) -> int:
    return next(
        h
        for h in sorted(CAT.regions[CAT.region(region)].hexes)
        if CAT.forage(h, Markers()) == forage
    )


def counters(nationality: str, kind: UnitKind, n: int) -> list[int]:
    found = list(CAT.of_nationality(nationality, kind))[:n]
    assert len(found) == n
    return found


def modifier(game: Belisarius, state: BelState, where: int, force: list[int]) -> int:
    return disbanding_modifier(context(game), state, where, force)


def attrition(state: BelState, where: int, force: list[int]) -> int:
    """What rule 32 adds to the check of ``force`` at ``where``."""
    return modifier(BOTH, state, where, force) - modifier(CHECKS, state, where, force)


ABROAD = land("Lombards")  # a Lombard hex: foreign to the Franks, Scythians and Persians
HOME = land("Franks")
FRANKS = counters("franks", UnitKind.WARBAND, 2)
HORDES = counters("scythia", UnitKind.NOMAD_HORDE, 2)
BARBARIANS = {"Franks": Control.BARBARIAN, "Scythia": Control.BARBARIAN}


@pytest.mark.rule("32.0", "32.1")
def test_a_force_of_warbands_abroad_subtracts_two() -> None:
    state = move(blank(**BARBARIANS), FRANKS, ABROAD)
    assert all(far_from_home(CAT, state, u) for u in FRANKS)
    assert attrition(state, ABROAD, FRANKS) == -2
    assert attrition(state, ABROAD, FRANKS[:1]) == -2


@pytest.mark.rule("32.0", "32.1")
def test_a_force_of_nomad_hordes_abroad_subtracts_two() -> None:
    state = move(blank(**BARBARIANS), HORDES, ABROAD)
    assert attrition(state, ABROAD, HORDES) == -2


@pytest.mark.rule("32.1")
def test_warbands_at_home_disband_as_usual() -> None:
    state = move(blank(**BARBARIANS), FRANKS, HOME)
    assert not any(far_from_home(CAT, state, u) for u in FRANKS)
    assert attrition(state, HOME, FRANKS) == 0


@pytest.mark.rule("32.1")
def test_the_home_regions_box_is_home() -> None:
    box = CAT.box_of(CAT.region("Franks"))
    state = move(blank(**BARBARIANS), FRANKS, box)
    assert attrition(state, box, FRANKS) == 0


@pytest.mark.rule("32.1")
def test_other_types_abroad_do_not_count() -> None:
    garrisons = counters("franks", UnitKind.GARRISON, 2)
    state = move(blank(**BARBARIANS), garrisons, ABROAD)
    assert not any(far_from_home(CAT, state, u) for u in garrisons)
    assert attrition(state, ABROAD, garrisons) == 0


@pytest.mark.rule("32.2")
def test_a_mixed_force_subtracts_one() -> None:
    garrisons = counters("franks", UnitKind.GARRISON, 1)
    state = move(blank(**BARBARIANS), [*FRANKS, *garrisons], ABROAD)
    assert attrition(state, ABROAD, [*FRANKS, *garrisons]) == -1
    # a Leader in the force makes it mixed too (Leaders are units, 21.0)
    buccelin = CAT.counter("buccelin")
    led = move(state, [buccelin], ABROAD)
    assert attrition(led, ABROAD, [*FRANKS, buccelin]) == -1


@pytest.mark.rule("32.2", "30.5")
def test_units_staying_in_the_hex_do_not_count() -> None:
    garrisons = counters("franks", UnitKind.GARRISON, 2)
    state = move(blank(**BARBARIANS), [*FRANKS, *garrisons], ABROAD)
    # only the garrisons disband: the Warbands staying abroad change nothing
    assert attrition(state, ABROAD, garrisons) == 0
    # only the Warbands disband: the garrisons staying do not make the force mixed
    assert attrition(state, ABROAD, FRANKS) == -2


@pytest.mark.rule("32.0", "32.1", "32.2")
@given(
    warbands=st.integers(0, 3),
    garrisons=st.integers(0, 3),
    away=st.booleans(),
    leader=st.booleans(),
)
def test_attrition_is_minus_two_all_abroad_minus_one_mixed_else_nothing(
    warbands: int, garrisons: int, away: bool, leader: bool
) -> None:
    force = [
        *counters("franks", UnitKind.WARBAND, warbands),
        *counters("franks", UnitKind.GARRISON, garrisons),
        *([CAT.counter("buccelin")] if leader else []),
    ]
    if not force:
        return
    where = ABROAD if away else HOME
    state = move(blank(**BARBARIANS), force, where)
    irregulars_abroad = warbands if away else 0
    expected = 0
    if irregulars_abroad == len(force):
        expected = -2
    elif irregulars_abroad:
        expected = -1
    assert attrition(state, where, force) == expected


@pytest.mark.rule("32.0", "32.1")
def test_a_roll_that_would_disband_runs_amok_abroad() -> None:
    # find a roll that disbands quietly without rule 32 and not with it
    roll = next(
        r
        for r in range(1, 7)
        if disbanding_outcome(context(CHECKS), r, 0) is DisbandingOutcome.DISBAND
        and disbanding_outcome(context(BOTH), r, -2) is not DisbandingOutcome.DISBAND
    )
    one = FRANKS[:1]
    state = move(blank(**BARBARIANS), one, ABROAD)

    def check(game: Belisarius) -> BelState:
        asked = settle(context(game), push(state, ProvisioningPhase()))
        assert asked.pending is not None and asked.pending.rule == "30.3"
        asked = answer_unchecked(game, asked, Select(CAT.counters[one[0]].id))
        assert asked.pending is not None and asked.pending.kind is RequestKind.ROLL
        assert isinstance(asked.pending.task, DisbandingCheck)
        return answer_unchecked(game, asked, Roll((roll,)))

    quiet, wild = check(CHECKS), check(BOTH)
    assert quiet.units.where[one[0]] == wild.units.where[one[0]] == AVAILABLE
    assert ABROAD not in quiet.markers.pillaged
    assert ABROAD in wild.markers.pillaged


@pytest.mark.rule("32.0", "30.0")
def test_attrition_alone_changes_nothing_without_disbanding() -> None:
    # no check is ever made, so rule 32 has nothing to modify: units simply leave (20.3)
    state = move(blank(**BARBARIANS), counters("franks", UnitKind.WARBAND, 3), ABROAD)
    asked = settle(context(ALONE), push(state, ProvisioningPhase()))
    assert asked.pending is not None and asked.pending.rule == "20.2"
    pick = next(o for o in asked.pending.options if isinstance(o, Select))
    done = answer_unchecked(ALONE, asked, pick)
    assert done.pending is None
    assert len(units_at(done, ABROAD)) == 2
