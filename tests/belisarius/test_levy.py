"""The Levy Phase (11.1-11.9, 18.3) and the Leader Stratagem marker (11.3, 21.2)."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.levy import (
    GAIN_LEADER,
    LEADER_STRATAGEM,
    REMOVE_LEADER,
    LevyPhase,
    leader_places,
    levy_kinds,
    levy_places,
    levy_size,
)
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    GONE,
    BelAction,
    BelState,
    Done,
    Markers,
    Place,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.world import (
    CONTROL_OF,
    available,
    can_place,
    controller,
    enemy_zoc,
    units_at,
)
from tests.belisarius.support import (
    CAT,
    CTX,
    GAME,
    answer_unchecked,
    as_played,
    blank_state,
    give,
    random_answer,
    set_up,
)

RULEBOOK = "belisarius"


def region(name: str) -> int:
    return CAT.region(name)


def blank(phasing: int = EMPIRE, **control: Control) -> BelState:
    """No counter in play, every Region Neutral but those named, nothing scheduled."""
    return blank_state("levy", phasing, turn=0, control=control)


def put(state: BelState, unit: int, where: int) -> BelState:
    return attrs.evolve(state, units=state.units.move(unit, where))


def stock(state: BelState, nationality: str, kind: UnitKind) -> int:
    return available(CAT, state, nationality, kind)[0]


def holding(state: BelState, player: int, stratagem: str, count: int = 1) -> BelState:
    return give(state, player, *[stratagem] * count)


def start(state: BelState, task: LevyPhase | None = None) -> BelState:
    return settle(CTX, push(state, task or LevyPhase()))


def reply(state: BelState, action: BelAction) -> BelState:
    request = state.pending
    assert request is not None
    assert action in request.options or request.kind is not RequestKind.CHOOSE
    return answer_unchecked(GAME, state, action)


def hexes_of(name: str) -> list[int]:
    return sorted(CAT.regions[region(name)].hexes)


def inland(name: str) -> int:
    return next(h for h in hexes_of(name) if not CAT.map.is_coastal(h))


def levy_all(state: BelState, rng: random.Random) -> BelState:
    """Levy with random choices, never stopping early, until the phase is over."""
    while state.pending is not None:
        options = state.pending.options
        keep: list[BelAction] = [o for o in options if not isinstance(o, Done)]
        keep = keep or list(options)
        state = reply(state, rng.choice(keep))
    return state


# -- how many, and where -------------------------------------------------------------------


@pytest.mark.rule("11.1", "11.11", "11.12", "4.2")
def test_a_controlled_region_levies_its_value_in_distinct_hexes() -> None:
    state = blank(Thracia=Control.EMPIRE)
    thracia = region("Thracia")
    assert levy_size(CTX, state, thracia) == CAT.regions[thracia].levy == 2
    asked = start(state)
    assert asked.pending is not None
    assert asked.pending.options[0] == Done()
    done = levy_all(asked, random.Random(0))
    moved = [u for u in range(len(CAT.counters)) if done.units.where[u] != AVAILABLE]
    assert len(moved) == 2
    assert all(CAT.counters[u].nationality == "thracia" for u in moved)
    places = [done.units.where[u] for u in moved]
    assert len(set(places)) == 2
    assert all(CAT.region_of(w) == thracia for w in places)


@pytest.mark.rule("11.5", "4.2", "11.11")
def test_neutral_enemy_and_barred_regions_levy_nothing() -> None:
    state = blank(Thracia=Control.BARBARIAN, Aegyptus=Control.EMPIRE)
    state = attrs.evolve(state, barred=frozenset({"Aegyptus"}))
    for name in ("Thracia", "Lydia", "Aegyptus"):
        assert levy_size(CTX, state, region(name)) == 0
    after = start(state)
    assert after.pending is None
    assert after.units == state.units


@pytest.mark.rule("11.11")
def test_done_stops_a_region_and_moves_to_the_next() -> None:
    state = blank(Thracia=Control.EMPIRE, Lydia=Control.EMPIRE)
    asked = start(state)
    assert asked.pending is not None and "Thracia" in asked.pending.prompt
    following = reply(asked, Done())
    assert following.pending is not None and "Lydia" in following.pending.prompt
    assert following.units == state.units


@pytest.mark.rule("11.12", "11.62")
def test_one_levied_unit_a_hex_but_other_reinforcements_do_not_count() -> None:
    state = blank(Thracia=Control.EMPIRE)
    recruit_hex = inland("Thracia")
    state = put(state, stock(state, "thracia", UnitKind.GARRISON), recruit_hex)
    asked = start(state)
    asked = reply(asked, Select(UnitKind.GARRISON.value))
    assert asked.pending is not None
    assert Place(recruit_hex) in asked.pending.options  # 11.62: a recruit is there
    placed = reply(asked, Place(recruit_hex))
    placed = reply(placed, Select(UnitKind.GARRISON.value))
    assert placed.pending is not None
    assert Place(recruit_hex) not in placed.pending.options  # 11.12
    assert len(units_at(placed, recruit_hex)) == 2


@pytest.mark.rule("11.13", "15.11")
def test_no_levy_with_enemies_neutrals_in_enemy_zoc_or_on_pillage() -> None:
    state = blank(Thracia=Control.EMPIRE, Persia=Control.BARBARIAN)
    hexes = hexes_of("Thracia")
    enemy_hex = inland("Thracia")
    neutral_hex = next(h for h in hexes if CAT.map.is_coastal(h))
    pillaged = next(
        h for h in hexes if h not in {enemy_hex, neutral_hex, *CAT.map.neighbours(enemy_hex)}
    )
    state = put(state, stock(state, "persia", UnitKind.GARRISON), enemy_hex)
    state = put(state, stock(state, "gepidae", UnitKind.WARBAND), neutral_hex)
    state = attrs.evolve(state, markers=Markers(pillaged=frozenset({pillaged})))
    zoc = enemy_zoc(CAT, state, EMPIRE)
    places = levy_places(CTX, state, region("Thracia"), UnitKind.GARRISON)
    assert places
    for bad in (enemy_hex, neutral_hex, pillaged):
        assert bad not in places
    assert not zoc & set(places)
    near = [h for h in CAT.map.neighbours(enemy_hex) if h in hexes and h in zoc]
    assert near  # the test means something: the Persian's zone reaches Thracian hexes
    free = [h for h in hexes if h not in zoc and h not in {enemy_hex, neutral_hex, pillaged}]
    assert set(free) == set(places)


@pytest.mark.rule("11.13")
def test_deserts_take_levies() -> None:
    state = blank(Aegyptus=Control.EMPIRE)
    deserts = [h for h in hexes_of("Aegyptus") if CAT.forage(h, state.markers) == 0]
    assert deserts
    places = levy_places(CTX, state, region("Aegyptus"), UnitKind.GARRISON)
    assert set(deserts) <= set(places)


@pytest.mark.rule("11.63")
def test_levied_fleets_only_on_coastal_hexes() -> None:
    state = blank(Aegyptus=Control.EMPIRE)
    aegyptus = region("Aegyptus")
    fleets = levy_places(CTX, state, aegyptus, UnitKind.FLEET)
    land = levy_places(CTX, state, aegyptus, UnitKind.GARRISON)
    assert fleets
    assert all(CAT.map.is_coastal(h) for h in fleets)
    assert set(fleets) < set(land)


@pytest.mark.rule("11.131", "11.9", "11.7")
def test_field_armies_leaders_and_guard_are_never_levied() -> None:
    state = blank(BARBARIAN, Persia=Control.BARBARIAN)
    kinds = levy_kinds(CTX, state, region("Persia"))
    assert UnitKind.GARRISON in kinds
    for kind in (UnitKind.FIELD_ARMY, UnitKind.LEADER, UnitKind.GUARD):
        assert kind not in kinds
    asked = start(state)
    assert asked.pending is not None
    items = {o.item for o in asked.pending.options if isinstance(o, Select)}
    assert UnitKind.FIELD_ARMY.value not in items


@pytest.mark.rule("11.6", "11.61")
def test_the_counter_mix_limits_the_levy() -> None:
    state = blank(Thracia=Control.EMPIRE)
    spots = iter(hexes_of("Thracia"))
    for kind in (UnitKind.GARRISON, UnitKind.FLEET):
        for unit in list(available(CAT, state, "thracia", kind)):
            state = put(state, unit, GONE if kind is UnitKind.FLEET else next(spots))
    assert levy_kinds(CTX, state, region("Thracia")) == []
    assert start(state).pending is None
    # an eliminated garrison is back in the stock and may be levied again (11.61)
    unit = next(CAT.of_nationality("thracia", UnitKind.GARRISON))
    again = put(state, unit, AVAILABLE)
    assert levy_kinds(CTX, again, region("Thracia")) == [UnitKind.GARRISON]


@pytest.mark.rule("13.1", "13.132", "11.13")
def test_stacking_limits_hold_for_levies() -> None:
    state = blank(BARBARIAN, Persia=Control.BARBARIAN, Armenia=Control.BARBARIAN)
    persia = hexes_of("Persia")
    full, mixed = persia[0], persia[1]
    for unit in list(available(CAT, state, "persia", UnitKind.GARRISON))[:10]:
        state = put(state, unit, full)
    state = put(state, stock(state, "armenia", UnitKind.GARRISON), mixed)
    places = levy_places(CTX, state, region("Persia"), UnitKind.GARRISON)
    assert full not in places
    assert mixed not in places
    assert persia[2] in places


@pytest.mark.rule("11.8", "18.3", "18.4", "11.63")
def test_levies_may_go_to_the_regions_box_up_to_ten_a_turn() -> None:
    state = blank(BARBARIAN, Persia=Control.BARBARIAN, Franks=Control.BARBARIAN)
    persia, franks = region("Persia"), region("Franks")
    box = CAT.box_of(persia)
    assert box in levy_places(CTX, state, persia, UnitKind.GARRISON)
    assert box in levy_places(CTX, state, persia, UnitKind.FLEET)  # Persia's box has a port
    full = attrs.evolve(state, boxed=(box,) * 10)
    assert box not in levy_places(CTX, full, persia, UnitKind.GARRISON)
    almost = attrs.evolve(state, boxed=(box,) * 9)
    assert box in levy_places(CTX, almost, persia, UnitKind.GARRISON)
    frank_box = CAT.box_of(franks)
    assert frank_box in levy_places(CTX, state, franks, UnitKind.WARBAND)
    # a box only takes its own Region's levy (18.3)
    assert frank_box not in levy_places(CTX, state, persia, UnitKind.GARRISON)
    # place one in the box through the phase
    asked = start(state)
    while asked.pending is not None and "Persia" not in asked.pending.prompt:
        asked = reply(asked, Done())
    asked = reply(asked, Select(UnitKind.GARRISON.value))
    after = reply(asked, Place(box))
    assert len(units_at(after, box)) == 1
    assert after.pending is not None
    assert Select(UnitKind.GARRISON.value) in after.pending.options


# -- the Leader marker -------------------------------------------------------------------


@pytest.mark.rule("11.3", "21.2", "21.21", "8.42")
def test_the_empire_gains_a_leader_on_any_empire_unit() -> None:
    state = blank(Thracia=Control.EMPIRE, Ostrogoths=Control.EMPIRE)
    thracian, gothic = hexes_of("Thracia")[0], hexes_of("Ostrogoths")[0]
    state = put(state, stock(state, "thracia", UnitKind.GARRISON), thracian)
    state = put(state, stock(state, "ostrogoths", UnitKind.GARRISON), gothic)
    state = holding(state, EMPIRE, LEADER_STRATAGEM)
    belisarius = CAT.counter("belisarius")
    assert leader_places(CTX, state, belisarius, EMPIRE) == sorted([thracian, gothic])
    asked = start(state)
    assert asked.pending is not None
    assert asked.pending.options == (Done(), Select(GAIN_LEADER))
    asked = reply(asked, Select(GAIN_LEADER))
    assert asked.stratagems.held(EMPIRE) == 0  # spent to the Pool
    assert asked.pending is not None
    assert Select("belisarius") in asked.pending.options
    assert Select("vitiges") in asked.pending.options  # an Ostrogoth Leader is the Empire's
    assert Select("kavadh") not in asked.pending.options  # Persia is Neutral (11.5)
    asked = reply(asked, Select("belisarius"))
    assert asked.pending is not None
    assert set(asked.pending.options) == {Place(thracian), Place(gothic)}
    after = reply(asked, Place(gothic))
    assert after.units.where[belisarius] == gothic


@pytest.mark.rule("21.22", "11.3")
def test_a_barbarian_leader_joins_only_its_own_nationality() -> None:
    state = blank(BARBARIAN, Persia=Control.BARBARIAN, Armenia=Control.BARBARIAN)
    persian, armenian = hexes_of("Persia")[0], hexes_of("Armenia")[0]
    state = put(state, stock(state, "persia", UnitKind.GARRISON), persian)
    state = put(state, stock(state, "armenia", UnitKind.GARRISON), armenian)
    assert leader_places(CTX, state, CAT.counter("kavadh"), BARBARIAN) == [persian]


@pytest.mark.rule("21.4", "11.3")
@pytest.mark.parametrize(("roll", "returns"), [(1, True), (3, True), (4, False), (6, False)])
def test_justinian_returns_only_on_one_to_three(roll: int, returns: bool) -> None:
    state = blank(Thracia=Control.EMPIRE)
    spot = hexes_of("Thracia")[0]
    state = put(state, stock(state, "thracia", UnitKind.GARRISON), spot)
    for leader in ("belisarius", "solomon"):
        state = put(state, CAT.counter(leader), GONE)
    state = holding(state, EMPIRE, LEADER_STRATAGEM)
    asked = reply(start(state), Select(GAIN_LEADER))
    asked = reply(asked, Select("justinian"))
    assert asked.pending is not None and asked.pending.kind is RequestKind.ROLL
    after = reply(asked, Roll((roll,)))
    if returns:
        after = reply(after, Place(spot))
    assert (after.units.where[CAT.justinian] == spot) is returns
    assert after.stratagems.held(EMPIRE) == 0


@pytest.mark.rule("21.4", "11.61")
def test_a_dead_justinian_is_not_offered() -> None:
    state = blank(Thracia=Control.EMPIRE)
    state = put(state, stock(state, "thracia", UnitKind.GARRISON), hexes_of("Thracia")[0])
    state = put(state, CAT.justinian, GONE)
    state = holding(state, EMPIRE, LEADER_STRATAGEM)
    asked = reply(start(state), Select(GAIN_LEADER))
    assert asked.pending is not None
    assert Select("justinian") not in asked.pending.options


@pytest.mark.rule("11.3", "21.3")
@pytest.mark.parametrize(("roll", "removed"), [(1, True), (3, True), (4, False)])
def test_an_enemy_leader_is_removed_on_one_to_three(roll: int, removed: bool) -> None:
    state = blank(BARBARIAN, Thracia=Control.EMPIRE, Persia=Control.BARBARIAN)
    spot = hexes_of("Thracia")[0]
    state = put(state, stock(state, "thracia", UnitKind.GARRISON), spot)
    state = put(state, CAT.counter("belisarius"), spot)
    state = put(state, CAT.justinian, spot)
    state = holding(state, BARBARIAN, LEADER_STRATAGEM)
    asked = start(state)
    assert asked.pending is not None
    assert Select(REMOVE_LEADER) in asked.pending.options
    asked = reply(asked, Select(REMOVE_LEADER))
    assert asked.pending is not None
    # the Barbarian may not aim the marker at Justinian
    assert asked.pending.options == (Select("belisarius"),)
    asked = reply(asked, Select("belisarius"))
    after = reply(asked, Roll((roll,)))
    assert (after.units.where[CAT.counter("belisarius")] == AVAILABLE) is removed
    assert after.units.where[CAT.justinian] == spot


@pytest.mark.rule("8.43", "11.3")
def test_several_leader_markers_may_be_played_in_one_phase() -> None:
    state = blank(Thracia=Control.EMPIRE)
    spot = hexes_of("Thracia")[0]
    state = put(state, stock(state, "thracia", UnitKind.GARRISON), spot)
    state = put(state, CAT.justinian, GONE)
    state = holding(state, EMPIRE, LEADER_STRATAGEM, 2)
    asked = start(state)
    for leader in ("belisarius", "solomon"):
        asked = reply(asked, Select(GAIN_LEADER))
        asked = reply(asked, Select(leader))
        asked = reply(asked, Place(spot))
    assert asked.stratagems.held(EMPIRE) == 0
    assert {CAT.counter("belisarius"), CAT.counter("solomon")} <= set(units_at(asked, spot))


@pytest.mark.rule("11.3")
def test_the_marker_is_offered_again_after_the_levies() -> None:
    state = blank(Thracia=Control.EMPIRE)
    state = holding(state, EMPIRE, LEADER_STRATAGEM)
    # no friendly unit on the map yet: nothing to offer before the levy
    asked = start(state)
    assert asked.pending is not None and "Thracia" in asked.pending.prompt
    asked = reply(asked, Select(UnitKind.GARRISON.value))
    asked = reply(asked, Place(inland("Thracia")))
    asked = reply(asked, Done())
    assert asked.pending is not None
    assert asked.pending.options == (Done(), Select(GAIN_LEADER))
    assert reply(asked, Done()).pending is None


# -- properties ----------------------------------------------------------------------------


def _random_board(seed: int) -> BelState:
    """A scenario 1 set-up with random control, pillage, phasing player and markers."""
    board, _ = set_up(1, seed)
    rng = random.Random(seed)
    statuses = (Control.EMPIRE, Control.BARBARIAN, Control.NEUTRAL)
    control = tuple(rng.choice(statuses) for _ in CAT.regions)
    hexes = [w for w in range(FIRST_HEX, 10000) if w in CAT.map]
    pillaged = frozenset(rng.sample(hexes, 40))
    phasing = rng.choice((EMPIRE, BARBARIAN))
    barred = frozenset(r.name for r in CAT.regions if rng.random() < 0.1)
    state = attrs.evolve(
        board,
        stack=(),
        pending=None,
        control=control,
        phasing=phasing,
        markers=Markers(pillaged=pillaged),
        barred=barred,
        phase="levy",
    )
    return holding(state, phasing, LEADER_STRATAGEM, rng.randint(0, 2))


@pytest.mark.rule("11.1", "11.11", "11.12", "11.13", "11.6", "11.8", "11.3")
@settings(max_examples=25)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_levies_respect_every_restriction(seed: int) -> None:
    state = _random_board(seed)
    before = state
    player = state.phasing
    rng = random.Random(seed + 1)
    state = start(state)
    levied: Counter[int] = Counter()
    hexes_used: list[int] = []
    while state.pending is not None:
        request = state.pending
        action = random_answer(GAME, state, rng)
        zoc = enemy_zoc(CAT, state, player)
        task = request.task
        after = reply(state, action)
        moved = [
            u
            for u, (a, b) in enumerate(zip(state.units.where, after.units.where, strict=True))
            if a != b
        ]
        if isinstance(action, Place) and isinstance(task, LevyPhase) and task.kind:
            (unit,) = moved
            where = after.units.where[unit]
            assert state.units.where[unit] == AVAILABLE
            assert CAT.home[unit] == task.cursor == CAT.region_of(where)
            assert CAT.counters[unit].kind.value == task.kind
            if where >= FIRST_HEX:
                assert where not in zoc  # 11.13
                assert where not in state.markers.pillaged
                assert where not in hexes_used  # 11.12
                assert all(controller(CAT, state, u) == player for u in units_at(state, where))
                hexes_used.append(where)
            assert can_place(CAT, state, unit, where, player)
            levied[task.cursor] += 1
        else:
            # only Leaders move otherwise, by the Leader marker
            assert all(CAT.counters[u].kind is UnitKind.LEADER for u in moved)
        state = after
    for index, count in levied.items():
        record = CAT.regions[index]
        assert CONTROL_OF[player] is before.control[index]
        assert record.name not in before.barred
        assert count <= record.levy
    # conservation: every counter is still somewhere, the in-play count changed only by
    # the levies and the Leaders that came or went
    came = sum(1 for a, b in zip(before.units.where, state.units.where, strict=True) if a <= 0 < b)
    went = sum(1 for a, b in zip(before.units.where, state.units.where, strict=True) if b <= 0 < a)
    leaders_in = sum(
        1
        for u, (a, b) in enumerate(zip(before.units.where, state.units.where, strict=True))
        if a <= 0 < b and CAT.counters[u].kind is UnitKind.LEADER
    )
    assert came == sum(levied.values()) + leaders_in
    assert all(
        CAT.counters[u].kind is UnitKind.LEADER
        for u, (a, b) in enumerate(zip(before.units.where, state.units.where, strict=True))
        if b <= 0 < a
    )
    assert went <= before.stratagems.held(player)
    assert len(state.units.where) == len(before.units.where)


def test_states_in_the_middle_of_a_levy_round_trip_through_the_codec() -> None:
    state = blank(Thracia=Control.EMPIRE)
    state = put(state, stock(state, "thracia", UnitKind.GARRISON), hexes_of("Thracia")[0])
    state = holding(state, EMPIRE, LEADER_STRATAGEM)
    asked = start(state)
    seen = 0
    for action in (Select(GAIN_LEADER), Select("belisarius")):
        assert GAME.decode_state(GAME.encode_state(as_played(asked))) == as_played(asked)
        asked = reply(asked, action)
        seen += 1
    asked = reply(asked, Place(hexes_of("Thracia")[0]))
    asked = reply(asked, Select(UnitKind.GARRISON.value))
    assert GAME.decode_state(GAME.encode_state(as_played(asked))) == as_played(asked)
    assert seen == 2
