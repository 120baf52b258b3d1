"""Belisarius Recruiting Phase (10.3, 11.2-11.9): Mercenaries, markers, Justinian."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import SolidusItem, UnitKind
from byzantium.belisarius.engine import Context, push, settle
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.recruiting import (
    RecruitingPhase,
    public_works_sites,
    recruit_places,
    recruitable,
)
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    BelAction,
    BelState,
    Done,
    Markers,
    Place,
    Request,
    RequestKind,
    Roll,
    Select,
    Task,
)
from byzantium.belisarius.world import CONTROL_OF, controller, occupied_cities
from byzantium.core.game import Event
from tests.belisarius import support
from tests.belisarius.support import (
    CAT,
    GAME,
    Chooser,
    as_played,
    belisarius,
    blank_state,
    check_invariants,
    cities_of,
    city,
    first,
    options,
    put,
    random_game,
    through_draws,
)

RULEBOOK = "belisarius"

WORKS_GAME = belisarius(public_works=True)
POINTS = CAT.components.solidus_points
PERSIA_BOX = CAT.box_of(CAT.region("Persia"))


def blank(
    control: Mapping[str, int] | None = None, phasing: int = EMPIRE, solidus: int = 100
) -> BelState:
    """No counter on the map, every Region Neutral but those named, a full treasury."""
    owners = {name: CONTROL_OF[player] for name, player in (control or {}).items()}
    return blank_state("recruiting", phasing, control=owners, solidus=solidus)


def drive(
    state: BelState,
    choose: Chooser = first,
    rolls: Iterable[int] = (),
    game: Belisarius = GAME,
    task: Task | None = None,
) -> tuple[BelState, list[Event], list[Request]]:
    """Run the phase to its end: dice from ``rolls``, the first draw, ``choose``."""
    return support.drive(state, task or RecruitingPhase(), choose, rolls, game)


def script(*actions: BelAction) -> Chooser:
    """Answer the menus with ``actions`` in order, then Done."""
    queue = list(actions)

    def choose(request: Request) -> BelAction:
        if queue:
            action = queue.pop(0)
            assert action in request.options, (action, request.options)
            return action
        return Done()

    return choose


def menu(state: BelState, game: Belisarius = GAME) -> tuple[BelAction, ...]:
    """The first purchase menu of the phase (empty if the phase asks nothing)."""
    after = settle(Context(game, None), push(state, RecruitingPhase()))
    after = through_draws(after, game=game)
    return after.pending.options if after.pending is not None else ()


def items(options: Iterable[BelAction]) -> set[str]:
    return {o.item for o in options if isinstance(o, Select)}


def places_offered(state: BelState, item: str) -> list[int]:
    after = settle(Context(GAME, None), push(state, RecruitingPhase()))
    after = GAME.apply(after, Select(item))
    return [o.where for o in options(after) if isinstance(o, Place)]


# -- 11.221 and 11.222: control and occupation ----------------------------------------------------


@pytest.mark.rule("11.21", "11.221")
def test_11_221_first_example_thracian_recruits_only_in_thracian_cities_he_holds() -> None:
    state = blank({"Thracia": EMPIRE, "Lydia": EMPIRE})
    state = put(state, "thracia", UnitKind.GARRISON, CAT.capital)
    state = put(state, "lydia", UnitKind.GARRISON, city("Ephesus"))
    offered = items(menu(state))
    assert "recruit thracia garrison" in offered
    assert places_offered(state, "recruit thracia garrison") == [CAT.capital]
    assert places_offered(state, "recruit lydia garrison") == [city("Ephesus")]


@pytest.mark.rule("11.221", "5.1")
def test_11_221_second_example_no_thracian_recruits_once_thracia_is_lost() -> None:
    state = blank({"Thracia": BARBARIAN, "Lydia": EMPIRE})
    for hex_ in cities_of("Thracia"):
        state = put(state, "lydia", UnitKind.GARRISON, hex_)
    assert not any(i.startswith("recruit thracia") for i in items(menu(state)))
    # ... and the Barbarian, who controls Thracia, holds none of its cities.
    assert not any(
        i.startswith("recruit thracia") for i in items(menu(attrs.evolve(state, phasing=BARBARIAN)))
    )


@pytest.mark.rule("11.222")
def test_11_222_example_no_thracian_mercenaries_while_the_enemy_holds_its_cities() -> None:
    state = blank({"Thracia": EMPIRE, "Persia": BARBARIAN})
    for hex_ in cities_of("Thracia"):
        state = put(state, "persia", UnitKind.GARRISON, hex_)
    assert not any(i.startswith("recruit thracia") for i in items(menu(state)))
    for kind in (UnitKind.GARRISON, UnitKind.FIELD_ARMY, UnitKind.FLEET):
        assert recruit_places(CAT, state, EMPIRE, "thracia", kind) == []


@pytest.mark.rule("11.222", "11.224")
def test_no_recruits_in_pillaged_cities() -> None:
    state = blank({"Thracia": EMPIRE})
    for hex_ in cities_of("Thracia"):
        state = put(state, "thracia", UnitKind.GARRISON, hex_)
    pillaged = frozenset(cities_of("Thracia")[1:])
    state = attrs.evolve(state, markers=Markers(pillaged=pillaged))
    assert places_offered(state, "recruit thracia garrison") == cities_of("Thracia")[:1]
    everything = attrs.evolve(state, markers=Markers(pillaged=frozenset(cities_of("Thracia"))))
    assert not any(i.startswith("recruit thracia") for i in items(menu(everything)))


@pytest.mark.rule("11.5")
def test_neutral_regions_give_no_recruits() -> None:
    state = put(blank({"Lydia": EMPIRE}), "lydia", UnitKind.GARRISON, CAT.capital)
    assert all(n != "thracia" for n, _ in recruitable(CAT, state, EMPIRE))
    assert all(n != "thracia" for n, _ in recruitable(CAT, state, BARBARIAN))


@pytest.mark.rule("11.9")
def test_leaders_are_never_recruited() -> None:
    state = blank({r.name: EMPIRE for r in CAT.regions})
    assert all(kind is not UnitKind.LEADER for _, kind in recruitable(CAT, state, EMPIRE))
    assert not any("leader" in i for i in items(menu(state)))


@pytest.mark.rule("11.6", "11.61")
def test_the_counter_mix_limits_recruits_and_eliminated_counters_return() -> None:
    state = blank({"Cappadocia": EMPIRE})
    state = put(state, "cappadocia", UnitKind.GARRISON, city("Caesarea"))
    armies = list(CAT.of_nationality("cappadocia", UnitKind.FIELD_ARMY))
    busy = state.units
    for unit in armies:
        busy = busy.move(unit, 101 if CAT.is_land(101) else city("Caesarea"))
    exhausted = attrs.evolve(state, units=busy)
    assert "recruit cappadocia field-army" not in items(menu(exhausted))
    back = attrs.evolve(exhausted, units=exhausted.units.move(armies[0], AVAILABLE))
    assert "recruit cappadocia field-army" in items(menu(back))


# -- per hex, ports, boxes ----------------------------------------------------------------


@pytest.mark.rule("11.223", "11.62")
def test_one_recruit_per_hex_per_phase() -> None:
    state = blank({"Cappadocia": EMPIRE})
    state = put(state, "cappadocia", UnitKind.GARRISON, city("Caesarea"))
    caesarea = city("Caesarea")
    after, _, requests = drive(
        state, script(Select("recruit cappadocia garrison"), Place(caesarea))
    )
    assert len([u for u, w in enumerate(after.units.where) if w == caesarea]) == 2
    # After the recruit the menu offers no more Cappadocian recruits (the one city is used).
    last_menu = requests[-1]
    assert not any(i.startswith("recruit cappadocia") for i in items(last_menu.options))
    assert "recruit cappadocia garrison" in items(menu(after))  # a new phase may again


@pytest.mark.rule("11.63", "27.33")
def test_mercenary_fleets_only_in_ports() -> None:
    state = blank({"Thracia": EMPIRE})
    for hex_ in cities_of("Thracia"):
        state = put(state, "thracia", UnitKind.GARRISON, hex_)
    ports = [h for h in cities_of("Thracia") if CAT.map.city_at(h).port]  # type: ignore[union-attr]
    inland = [h for h in cities_of("Thracia") if h not in ports]
    assert ports and inland
    assert places_offered(state, "recruit thracia fleet") == ports
    assert set(places_offered(state, "recruit thracia garrison")) == set(cities_of("Thracia"))


@pytest.mark.rule("11.8", "18.3", "18.11", "11.63")
def test_peripheral_area_recruits_need_no_occupation_and_stop_at_ten() -> None:
    state = blank({"Persia": BARBARIAN}, phasing=BARBARIAN)
    assert recruit_places(CAT, state, BARBARIAN, "persia", UnitKind.GARRISON) == [PERSIA_BOX]
    # The Persian box has a port: a Persian Fleet may be bought into it.
    assert recruit_places(CAT, state, BARBARIAN, "persia", UnitKind.FLEET) == [PERSIA_BOX]
    limit = CAT.components.constant("peripheral-reinforcements")
    full = attrs.evolve(state, boxed=(PERSIA_BOX,) * limit)
    assert recruit_places(CAT, full, BARBARIAN, "persia", UnitKind.GARRISON) == []
    # Only Persian units go to the Persian box.
    assert PERSIA_BOX not in recruit_places(CAT, state, BARBARIAN, "armenia", UnitKind.GARRISON)

    def buy_into_box(request: Request) -> BelAction:
        for action in (Place(PERSIA_BOX), Select("recruit persia garrison")):
            if action in request.options:
                return action
        return Done()

    after, _, _ = drive(state, buy_into_box)
    in_box = [u for u, w in enumerate(after.units.where) if w == PERSIA_BOX]
    assert len(in_box) == limit


@pytest.mark.rule("11.7", "12.1")
def test_guard_units_in_any_held_city_of_an_empire_region() -> None:
    state = blank({"Thracia": EMPIRE, "Lydia": EMPIRE, "Armenia": BARBARIAN})
    state = put(state, "lydia", UnitKind.GARRISON, CAT.capital)
    state = put(state, "lydia", UnitKind.GARRISON, city("Theodosiopolis"))  # Barbarian Region
    state = put(state, "lydia", UnitKind.GARRISON, city("Ctesiphon"))  # Neutral Persia
    assert places_offered(state, "recruit guard guard") == [CAT.capital]
    pillaged = attrs.evolve(state, markers=Markers(pillaged=frozenset({CAT.capital})))
    assert "recruit guard guard" not in items(menu(pillaged))
    # The Barbarian never recruits Guard units.
    barbarian = put(
        blank({"Thracia": BARBARIAN}, BARBARIAN), "thracia", UnitKind.GARRISON, CAT.capital
    )
    assert recruit_places(CAT, barbarian, BARBARIAN, "guard", UnitKind.GUARD) == []


@pytest.mark.rule("11.2", "11.21")
def test_events_22_to_24_bar_recruits_in_their_regions() -> None:
    state = blank({"Thracia": EMPIRE, "Persia": EMPIRE})
    state = put(state, "thracia", UnitKind.GARRISON, CAT.capital)
    barred = attrs.evolve(state, barred=frozenset({"Thracia", "Persia"}))
    offered = items(menu(barred))
    assert not any(
        i.startswith(("recruit thracia", "recruit persia", "recruit guard")) for i in offered
    )
    assert "recruit persia garrison" in items(menu(state))


# -- spending ----------------------------------------------------------------------------------


@pytest.mark.rule("10.31", "11.21")
def test_a_recruit_costs_its_type_price() -> None:
    state = blank({"Cappadocia": EMPIRE}, solidus=10)
    state = put(state, "cappadocia", UnitKind.GARRISON, city("Caesarea"))
    price = CAT.components.unit_type(UnitKind.FIELD_ARMY).recruit
    assert price is not None
    after, events, _ = drive(
        state, script(Select("recruit cappadocia field-army"), Place(city("Caesarea")))
    )
    assert after.solidus[EMPIRE] == 10 - price
    assert any(e.rule == "10.31" for e in events)
    poor = attrs.evolve(state, solidus=(price - 1, 0))
    assert "recruit cappadocia field-army" not in items(menu(poor))


@pytest.mark.rule("10.32", "8.3")
def test_buying_a_stratagem_marker() -> None:
    state = blank(solidus=5)
    cost = POINTS(SolidusItem.BUY_STRATAGEM)
    after, _, requests = drive(state, script(Select("buy stratagem")))
    assert after.solidus[EMPIRE] == 5 - cost
    assert after.stratagems.held(EMPIRE) == 1
    assert sum(after.stratagems.pool) == sum(state.stratagems.pool) - 1
    assert any(r.rule == "10.32" for r in requests)
    assert "buy stratagem" not in items(menu(attrs.evolve(state, solidus=(cost - 1, 0))))


@pytest.mark.rule("10.36", "26.4")
def test_removing_a_pillaged_marker_needs_a_unit_there() -> None:
    state = blank({"Thracia": EMPIRE}, solidus=5)
    hadrianopolis = city("Hadrianopolis")
    state = attrs.evolve(state, markers=Markers(pillaged=frozenset({hadrianopolis, CAT.capital})))
    state = put(state, "thracia", UnitKind.GARRISON, hadrianopolis)
    offered = items(menu(state))
    assert f"remove pillage {hadrianopolis}" in offered
    assert f"remove pillage {CAT.capital}" not in offered
    after, _, _ = drive(state, script(Select(f"remove pillage {hadrianopolis}")))
    assert after.markers.pillaged == frozenset({CAT.capital})
    assert after.solidus[EMPIRE] == 5 - POINTS(SolidusItem.REMOVE_PILLAGE)


@pytest.mark.rule("10.35", "28.0", "28.1", "28.2", "18.0#2")
def test_public_works_only_with_the_option_once_per_hex_and_never_in_a_box() -> None:
    state = blank({"Thracia": EMPIRE, "Persia": EMPIRE}, solidus=20)
    state = put(state, "thracia", UnitKind.GARRISON, CAT.capital)
    state = put(state, "persia", UnitKind.GARRISON, PERSIA_BOX)
    assert not any(i.startswith("public works") for i in items(menu(state)))
    assert items(menu(state, WORKS_GAME)) >= {f"public works {CAT.capital}"}
    assert public_works_sites(CAT, state, EMPIRE) == [CAT.capital]
    after, _, _ = drive(state, script(Select(f"public works {CAT.capital}")), game=WORKS_GAME)
    assert after.markers.works == frozenset({CAT.capital})
    assert after.solidus[EMPIRE] == 20 - POINTS(SolidusItem.PUBLIC_WORKS)
    assert public_works_sites(CAT, after, EMPIRE) == []


# -- free markers --------------------------------------------------------------------------------


@pytest.mark.rule("8.2", "21.4")
def test_justinian_in_constantinopolis_brings_two_free_markers() -> None:
    state = blank({"Thracia": EMPIRE}, solidus=0)
    at_home = attrs.evolve(state, units=state.units.move(CAT.justinian, CAT.capital))
    after, events, _ = drive(at_home)
    assert after.stratagems.held(EMPIRE) == CAT.components.constant("justinian-stratagems") == 2
    assert any(e.rule == "21.4" for e in events)
    away = attrs.evolve(state, units=state.units.move(CAT.justinian, city("Hadrianopolis")))
    assert drive(away)[0].stratagems.held(EMPIRE) == 0
    barbarian_turn = attrs.evolve(at_home, phasing=BARBARIAN)
    assert drive(barbarian_turn)[0].stratagems.held(EMPIRE) == 0


def give(state: BelState, player: int, stratagem: str) -> BelState:
    kind = CAT.stratagem(stratagem)
    return attrs.evolve(state, stratagems=state.stratagems.transfer(kind, player, True))


@pytest.mark.rule("8.41", "8.42", "8.2")
def test_imperial_regalia_needs_constantinopolis_or_roma_and_picks_a_die_of_markers() -> None:
    state = give(
        blank({"Thracia": EMPIRE, "Ostrogoths": BARBARIAN}, solidus=0), EMPIRE, "imperial-regalia"
    )
    assert "play imperial-regalia" not in items(menu(state))
    held = put(state, "thracia", UnitKind.GARRISON, CAT.capital)
    assert "play imperial-regalia" in items(menu(held))
    after, _, _ = drive(held, script(Select("play imperial-regalia")), rolls=[3])
    kind = CAT.stratagem("imperial-regalia")
    assert after.stratagems.hands[EMPIRE][kind] == 0
    assert after.stratagems.held(EMPIRE) == 3
    assert after.stratagems.pool[kind] == state.stratagems.pool[kind] + 1
    barbarian = give(blank({"Ostrogoths": BARBARIAN}, BARBARIAN, 0), BARBARIAN, "imperial-regalia")
    in_roma = put(barbarian, "ostrogoths", UnitKind.GARRISON, city("Roma"))
    assert "play imperial-regalia" in items(menu(in_roma))


@pytest.mark.rule("8.41", "10.31")
def test_theodora_makes_the_next_recruit_free() -> None:
    state = blank({"Cappadocia": EMPIRE}, solidus=0)
    state = put(state, "cappadocia", UnitKind.GARRISON, city("Caesarea"))
    state = give(state, EMPIRE, "theodora-intervenes")
    assert "recruit cappadocia field-army" not in items(menu(state))
    after, _, _ = drive(
        state,
        script(
            Select("play theodora-intervenes"),
            Select("recruit cappadocia field-army"),
            Place(city("Caesarea")),
        ),
    )
    assert after.solidus[EMPIRE] == 0
    armies = list(CAT.of_nationality("cappadocia", UnitKind.FIELD_ARMY))
    assert any(after.units.where[u] == city("Caesarea") for u in armies)
    assert after.stratagems.held(EMPIRE) == 0


# -- properties ------------------------------------------------------------------------------------


def _legal_recruit_site(before: BelState, unit: int, where: int, player: int) -> bool:
    """Whether ``where`` was a legal place for ``unit`` given the board ``before``."""
    counter = CAT.counters[unit]
    if where < FIRST_HEX:
        region = CAT.box_region[where - 1]
        return region == CAT.home[unit]
    if where in before.markers.pillaged or where not in occupied_cities(CAT, before, player):
        return False
    region = CAT.region_of_hex(where)
    if counter.guard:
        return player == EMPIRE and before.control[region] is Control.EMPIRE
    return region == CAT.home[unit]


@pytest.mark.rule("10.31", "11.21", "11.221", "11.223", "11.6", "13.1")
@given(
    player=st.sampled_from([EMPIRE, BARBARIAN]),
    owned=st.sets(st.sampled_from([r.name for r in CAT.regions]), min_size=1),
    garrisoned=st.sets(st.sampled_from(sorted(c.hex for c in CAT.map.cities)), max_size=6),
    savings=st.integers(0, 40),
    picks=st.lists(st.integers(0, 1000), max_size=40),
)
def test_random_purchases_keep_the_treasury_and_the_counters_honest(
    player: int, owned: set[str], garrisoned: set[int], savings: int, picks: list[int]
) -> None:
    state = blank(dict.fromkeys(owned, player), player, savings)
    mine = sorted(owned)
    for i, hex_ in enumerate(sorted(garrisoned)):
        region = CAT.map.region_at(hex_)
        name = region.name if region is not None and region.name in owned else mine[i % len(mine)]
        stock = [
            u
            for u in CAT.of_nationality(name.lower())
            if CAT.counters[u].kind is not UnitKind.LEADER and state.units.where[u] == 0
        ]
        if stock:
            state = attrs.evolve(state, units=state.units.move(stock[0], hex_))
    choices = list(picks)

    def choose(request: Request) -> BelAction:
        return (
            request.options[choices.pop(0) % len(request.options)]
            if choices
            else request.options[0]
        )

    current = settle(Context(GAME, None), push(state, RecruitingPhase()))
    while current.pending is not None:
        request = current.pending
        if request.kind is RequestKind.ROLL:
            action: BelAction = Roll((1,) * request.dice)
        elif request.kind is RequestKind.DRAW:
            action = GAME.chance_outcomes(current)[0][0]
        else:
            action = choose(request)
        current = GAME.apply(current, action)
        assert current.solidus[player] >= 0
    assert current.solidus[1 - player] == state.solidus[1 - player]
    assert len(current.units.where) == len(state.units.where)
    new = [
        u
        for u, (a, b) in enumerate(zip(state.units.where, current.units.where, strict=True))
        if a != b
    ]
    for unit in new:
        where = current.units.where[unit]
        assert state.units.where[unit] == AVAILABLE
        assert CAT.counters[unit].kind is not UnitKind.LEADER
        assert controller(CAT, current, unit) == player
        assert _legal_recruit_site(state, unit, where, player)
    hexes = [current.units.where[u] for u in new if current.units.where[u] >= FIRST_HEX]
    assert len(hexes) == len(set(hexes))  # 11.223
    spent = state.solidus[player] - current.solidus[player]
    unit_costs = sum(CAT.components.unit_type(CAT.counters[u].kind).recruit or 0 for u in new)
    assert spent >= unit_costs


@pytest.mark.rule("10.3")
def test_a_state_waiting_for_a_recruit_place_round_trips_through_the_codec() -> None:
    state = put(blank({"Thracia": EMPIRE}), "thracia", UnitKind.GARRISON, CAT.capital)
    state = settle(Context(GAME, None), push(state, RecruitingPhase()))
    state = GAME.apply(state, Select("recruit thracia garrison"))
    assert state.pending is not None and state.pending.options == (Place(CAT.capital),)
    assert GAME.decode_state(GAME.encode_state(as_played(state))) == as_played(state)


@pytest.mark.rule("10.3", "10.14", "11.2")
@pytest.mark.parametrize(("scenario", "seed"), [(1, 1), (2, 2), (3, 3)])
def test_random_games_through_both_phases_keep_the_invariants(scenario: int, seed: int) -> None:
    game = belisarius(scenario, public_works=True, pillage=True)
    final, trail = random_game(game, seed, check=check_invariants)
    assert final.ending is not None
    rules = {event.rule for _, _, _, events in trail for event in events}
    assert {"10.11", "10.3"} <= rules
