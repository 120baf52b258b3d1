"""Belisarius Taxation Phase (10.0-10.2): what pays, Neutral Regions, Raising Taxes."""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import SolidusItem, UnitKind
from byzantium.belisarius.engine import Context, push, settle
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    BelAction,
    BelState,
    Done,
    Markers,
    Request,
    Select,
)
from byzantium.belisarius.taxation import (
    TaxationPhase,
    city_value,
    paying_cities,
    raising_taxes_row,
    tax_income,
)
from byzantium.belisarius.world import CONTROL_OF
from tests.belisarius.support import (
    CAT,
    GAME,
    Chooser,
    as_played,
    belisarius,
    blank_state,
    cities_of,
    city,
    drive,
    put,
)

RULEBOOK = "belisarius"

POINTS = CAT.components.solidus_points


def blank(control: Mapping[str, int] | None = None, phasing: int = EMPIRE) -> BelState:
    """No counter on the map, every Region Neutral but those named, empty treasuries."""
    owners = {name: CONTROL_OF[player] for name, player in (control or {}).items()}
    return blank_state("taxation", phasing, control=owners, solidus=0)


def picking(*items: str) -> Chooser:
    """Select the named items in turn when offered, then Done."""
    wanted = list(items)

    def choose(request: Request) -> BelAction:
        for item in list(wanted):
            if Select(item) in request.options:
                wanted.remove(item)
                return Select(item)
        return Done()

    return choose


def taxed(state: BelState, player: int = EMPIRE, **kwargs: object) -> int:
    after, _, _ = drive(attrs.evolve(state, phasing=player), TaxationPhase(), **kwargs)  # type: ignore[arg-type]
    return after.solidus[player] - state.solidus[player]


# -- the chart's values --------------------------------------------------------------


@pytest.mark.rule("10.11", "10.12")
def test_constantinopolis_pays_4() -> None:
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    assert city_value(CAT, state, CAT.capital) == 4
    assert taxed(state) == 4


@pytest.mark.rule("10.11")
def test_treasury_city_2_other_city_1_colony_1() -> None:
    syria = blank({"Syria": EMPIRE})
    antiochia, hierosolyma = city("Antiochia"), city("Hierosolyma")
    assert CAT.map.city_at(antiochia).treasury  # type: ignore[union-attr]
    assert city_value(CAT, syria, antiochia) == 2
    assert city_value(CAT, syria, hierosolyma) == 1
    state = put(
        put(syria, "syria", UnitKind.GARRISON, antiochia), "syria", UnitKind.GARRISON, hierosolyma
    )
    assert taxed(state) == 3
    colony = next(
        h
        for h in sorted(CAT.regions[CAT.region("Syria")].hexes)
        if CAT.map.city_at(h) is None and CAT.is_land(h)
    )
    state = attrs.evolve(state, markers=Markers(colonies=frozenset({colony})))
    assert city_value(CAT, state, colony) == 1
    assert taxed(put(state, "syria", UnitKind.GARRISON, colony)) == 4


@pytest.mark.rule("10.11", "28.3")
def test_public_works_add_one() -> None:
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    state = attrs.evolve(state, markers=Markers(works=frozenset({CAT.capital})))
    assert city_value(CAT, state, CAT.capital) == 5
    assert taxed(state) == 5


@pytest.mark.rule("10.12", "5.0")
def test_an_unoccupied_city_pays_nothing_even_to_its_controller() -> None:
    assert taxed(blank({"Thracia": EMPIRE})) == 0


@pytest.mark.rule("10.121")
def test_a_pillaged_city_pays_nothing() -> None:
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    state = attrs.evolve(state, markers=Markers(pillaged=frozenset({CAT.capital})))
    assert taxed(state, game=belisarius(pillage=True)) == 0  # an optional rule (10.121)


@pytest.mark.rule("10.11", "10.13", "18.1", "18.11")
def test_persian_box_pays_6_and_frank_box_3_without_units() -> None:
    state = blank({"Persia": BARBARIAN})
    assert taxed(state, BARBARIAN) == POINTS(SolidusItem.PERSIAN_PERIPHERAL_AREA) == 6
    assert taxed(state, EMPIRE) == 0
    state = blank({"Persia": BARBARIAN, "Franks": BARBARIAN})
    assert taxed(state, BARBARIAN) == 6 + 3
    state = blank({"Franks": EMPIRE})
    assert taxed(state, EMPIRE) == POINTS(SolidusItem.FRANK_PERIPHERAL_AREA) == 3
    # Boxes without income pay nothing; a Neutral box pays nobody.
    assert taxed(blank({"Lombards": EMPIRE, "Scythia": EMPIRE})) == 0
    assert taxed(blank(), BARBARIAN) == 0


@pytest.mark.rule("10.14")
def test_the_treasury_carries_over() -> None:
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    state = attrs.evolve(state, solidus=(7, 3))
    after, _, _ = drive(state, TaxationPhase())
    assert after.solidus == (11, 3)


# -- occupation versus control ------------------------------------------------------------


@pytest.mark.rule("5.1", "11.221", "10.12")
def test_11_221_example_the_empire_taxes_thracian_cities_of_a_barbarian_thracia() -> None:
    state = blank({"Thracia": BARBARIAN, "Lydia": EMPIRE})
    for hex_ in cities_of("Thracia"):
        state = put(state, "lydia", UnitKind.GARRISON, hex_)
    after, _, requests = drive(state, TaxationPhase())
    assert after.solidus[EMPIRE] == 4 + 1 + 1
    assert after.control[CAT.region("Thracia")] is Control.BARBARIAN
    # The collection in an enemy Region needs no decision (only raising taxes is offered).
    assert all(
        not (isinstance(o, Select) and o.item.startswith("tax "))
        for r in requests
        for o in r.options
    )


@pytest.mark.rule("4.41", "4.42", "10.12")
def test_taxing_a_neutral_region_is_a_choice_that_hands_it_to_the_enemy() -> None:
    state = put(blank({"Lydia": EMPIRE}), "lydia", UnitKind.GARRISON, CAT.capital)
    declined, _, requests = drive(state, TaxationPhase())
    assert Select("tax Thracia") in requests[0].options
    assert declined.solidus[EMPIRE] == 0
    assert declined.control[CAT.region("Thracia")] is Control.NEUTRAL
    taken, events, _ = drive(state, TaxationPhase(), picking("tax Thracia"))
    assert taken.solidus[EMPIRE] == 4
    assert taken.control[CAT.region("Thracia")] is Control.BARBARIAN
    assert any(e.rule == "4.41" for e in events)
    # The Barbarian taxing a Neutral Region hands it to the Empire.
    barbarian = put(
        blank({"Persia": BARBARIAN}, BARBARIAN), "persia", UnitKind.GARRISON, city("Theodosiopolis")
    )
    after, _, _ = drive(barbarian, TaxationPhase(), picking("tax Armenia"))
    assert after.control[CAT.region("Armenia")] is Control.EMPIRE
    assert after.solidus[BARBARIAN] == 6 + 1


@pytest.mark.rule("4.41", "10.121")
def test_a_neutral_region_with_only_pillaged_cities_is_not_offered() -> None:
    state = put(blank({"Lydia": EMPIRE}), "lydia", UnitKind.GARRISON, CAT.capital)
    state = attrs.evolve(state, markers=Markers(pillaged=frozenset({CAT.capital})))
    _, _, requests = drive(state, TaxationPhase(), game=belisarius(pillage=True))
    assert requests == []


@pytest.mark.rule("10.0")
def test_events_22_to_24_bar_taxes_in_their_regions() -> None:
    state = put(
        blank({"Thracia": EMPIRE, "Persia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital
    )
    assert taxed(state) == 4 + 6
    barred = attrs.evolve(state, barred=frozenset({"Persia"}))
    assert taxed(barred) == 4
    barred = attrs.evolve(state, barred=frozenset({"Thracia"}))
    assert taxed(barred) == 6
    # A barred Neutral Region is not offered either.
    neutral = attrs.evolve(
        put(blank({"Lydia": EMPIRE}), "lydia", UnitKind.GARRISON, CAT.capital),
        barred=frozenset({"Thracia"}),
    )
    _, _, requests = drive(neutral, TaxationPhase())
    assert requests == []


# -- Raising Taxes ------------------------------------------------------------------------------


@pytest.mark.rule("10.2", "10.21", "10.22")
@pytest.mark.parametrize("roll", range(1, 7))
def test_raising_taxes_changes_every_occupied_city_of_the_region(roll: int) -> None:
    state = blank({"Thracia": EMPIRE, "Syria": EMPIRE})
    for hex_ in cities_of("Thracia") + cities_of("Syria"):
        state = put(state, "thracia", UnitKind.GARRISON, hex_)
    base = taxed(state)
    row = raising_taxes_row(CAT, roll)
    extra_rolls = [6] if row.revolt_check else []  # a quiet Revolt check
    after, events, requests = drive(
        state, TaxationPhase(), picking("raise taxes Thracia"), [roll, *extra_rolls]
    )
    thracian = len(cities_of("Thracia"))
    assert after.solidus[EMPIRE] == base + row.per_city * thracian
    revolt = [r for r in requests if r.rule == "4.71"]
    assert len(revolt) == (1 if row.revolt_check else 0)
    assert any(e.rule == "10.21" for e in events)


@pytest.mark.rule("10.22", "4.71")
def test_a_raising_taxes_revolt_check_can_turn_the_region_neutral_before_collection() -> None:
    rows = [r for r in range(1, 7) if raising_taxes_row(CAT, r).revolt_check]
    if not rows:  # pragma: no cover - the table has revolt rows
        pytest.skip("no Raising Taxes result calls a Revolt check")
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    after, _, _ = drive(state, TaxationPhase(), picking("raise taxes Thracia"), [rows[0], 1])
    assert after.control[CAT.region("Thracia")] is not Control.EMPIRE
    # The Thracian garrison is Neutral now: the capital no longer pays the Empire.
    assert after.solidus[EMPIRE] == 0


@pytest.mark.rule("10.22")
def test_raising_taxes_is_offered_only_where_the_player_has_paying_cities() -> None:
    state = put(
        blank({"Thracia": EMPIRE, "Syria": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital
    )
    _, _, requests = drive(state, TaxationPhase())
    assert requests[0].options == (Done(), Select("raise taxes Thracia"))


# -- Currency Reform ------------------------------------------------------------------------


@pytest.mark.rule("8.41", "8.42", "10.11")
def test_currency_reform_adds_one_per_paying_city_and_returns_to_the_pool() -> None:
    kind = CAT.stratagem("currency-reform")
    state = blank({"Thracia": EMPIRE})
    for hex_ in cities_of("Thracia"):
        state = put(state, "thracia", UnitKind.GARRISON, hex_)
    state = attrs.evolve(state, stratagems=state.stratagems.transfer(kind, EMPIRE, True))
    pool = state.stratagems.pool[kind]
    after, _, requests = drive(state, TaxationPhase(), picking("play currency-reform"))
    assert requests[0].rule == "8.41"
    assert after.solidus[EMPIRE] == 4 + 1 + 1 + 3
    assert after.stratagems.hands[EMPIRE][kind] == 0
    assert after.stratagems.pool[kind] == pool + 1
    kept, _, _ = drive(state, TaxationPhase())
    assert kept.solidus[EMPIRE] == 6
    assert kept.stratagems.hands[EMPIRE][kind] == 1


# -- properties ------------------------------------------------------------------------------

CITY_HEXES = sorted(c.hex for c in CAT.map.cities)
GUARDS = len(list(CAT.of_nationality("guard", UnitKind.GUARD)))


@pytest.mark.rule("10.11", "10.12", "10.121", "10.13", "5.1")
@given(
    occupied=st.sets(st.sampled_from(CITY_HEXES), max_size=GUARDS),
    pillaged=st.sets(st.sampled_from(CITY_HEXES)),
    works=st.sets(st.sampled_from(CITY_HEXES)),
    controlled=st.sets(st.sampled_from([r.name for r in CAT.regions])),
    savings=st.integers(0, 50),
    pillage=st.booleans(),
)
def test_income_is_the_sum_of_paying_cities_and_boxes(  # noqa: PLR0917 - drawn arguments
    occupied: set[int],
    pillaged: set[int],
    works: set[int],
    controlled: set[str],
    savings: int,
    pillage: bool,
) -> None:
    state = blank(dict.fromkeys(controlled, EMPIRE))
    state = attrs.evolve(
        state,
        solidus=(savings, 0),
        markers=Markers(pillaged=frozenset(pillaged), works=frozenset(works)),
    )
    for hex_ in occupied:
        state = put(state, "guard", UnitKind.GUARD, hex_)
    after, _, _ = drive(state, TaxationPhase(), game=belisarius(pillage=pillage))
    expected = 0
    for hex_ in occupied:
        if CAT.map.region_at(hex_).name not in controlled:  # type: ignore[union-attr]
            continue
        if pillage and hex_ in pillaged:
            continue  # 10.121, an optional rule
        expected += city_value(CAT, state, hex_)
    expected += sum(p.solidus for p in CAT.peripherals if p.region in controlled)
    assert after.solidus[EMPIRE] == savings + expected
    assert after.solidus[EMPIRE] >= savings >= 0
    regions = [CAT.region(name) for name in controlled]
    assert tax_income(CAT, state, EMPIRE, regions, pillage=pillage) == expected


@pytest.mark.rule("10.21", "10.22", "10.14")
@given(roll=st.integers(1, 6), reform=st.booleans(), savings=st.integers(0, 5))
def test_the_treasury_never_falls_below_what_was_saved(
    roll: int, reform: bool, savings: int
) -> None:
    state = blank({"Thracia": EMPIRE})
    for hex_ in cities_of("Thracia"):
        state = put(state, "thracia", UnitKind.GARRISON, hex_)
    state = attrs.evolve(state, solidus=(savings, 0))
    region = CAT.region("Thracia")
    income = tax_income(
        CAT,
        state,
        EMPIRE,
        [region],
        raised=((region, raising_taxes_row(CAT, roll).per_city),),
        reform=reform,
        pillage=True,
    )
    assert income >= 0
    worst = tax_income(CAT, state, EMPIRE, [region], raised=((region, -99),), pillage=True)
    assert worst == 0


@pytest.mark.rule("10.0")
def test_a_state_waiting_in_the_taxation_phase_round_trips_through_the_codec() -> None:
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    state = settle(Context(GAME, None), push(state, TaxationPhase()))
    state = GAME.apply(state, Select("raise taxes Thracia"))
    assert state.pending is not None
    assert GAME.decode_state(GAME.encode_state(as_played(state))) == as_played(state)


@pytest.mark.rule("10.121", "26.0", "10.12")
def test_a_pillaged_city_pays_nothing_only_with_the_optional_pillage_rule() -> None:
    """10.121 is an optional rule: with ``pillage`` off a City Pillaged by Plague still
    pays its value (and counts for Currency Reform); with it on it pays nothing."""
    kind = CAT.stratagem("currency-reform")
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    state = attrs.evolve(state, markers=Markers(pillaged=frozenset({CAT.capital})))
    assert taxed(state) == 4
    assert taxed(state, game=belisarius(pillage=True)) == 0
    held = attrs.evolve(state, stratagems=state.stratagems.transfer(kind, EMPIRE, True))
    assert taxed(held, choose=picking("play currency-reform")) == 5
    region = CAT.region("Thracia")
    assert paying_cities(CAT, state, EMPIRE, region, pillage=False) == [CAT.capital]
    assert paying_cities(CAT, state, EMPIRE, region, pillage=True) == []
