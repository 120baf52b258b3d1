"""Rules 10.1, 10.2, 10.5, 10.5.1: taking and abandoning Outposts, Greek Fire."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.action_phase import ActionPhase
from byzantium.sword_of_orthodoxy.combat import greek_fire_active
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.outposts import (
    AbandonOutpost,
    ActivateGreekFire,
    TakeOutpost,
    abandonable_outposts,
    can_activate_greek_fire,
    greek_fire_activated,
    greek_fire_lost,
    offers,
    outpost_cost,
)
from byzantium.sword_of_orthodoxy.state import Decline, RequestKind, Roll, Select, SooState
from byzantium.sword_of_orthodoxy.synopsis import OUTPOST_SPACES, DavidEvent
from byzantium.sword_of_orthodoxy.world import marker, remember, set_marker, zone_armies
from tests.sword_of_orthodoxy.support import (
    GAME,
    MILLENNIUM,
    answer,
    campaign,
    ctx,
    fill_zone,
    idle,
    millennium,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

C = ctx()
CAT = C.cat
BASE = idle(campaign())
OUTPOSTS = tuple(OUTPOST_SPACES)


def treasury(state: SooState, amount: int) -> SooState:
    return set_marker(C, state, "solidus", amount)


def schism(state: SooState, level: int) -> SooState:
    return set_marker(C, state, "schism", level)


def items(state: SooState) -> list[str]:
    return [offer.item for offer in offers(C, state)]


def held(state: SooState, *tile_ids: str) -> SooState:
    """These Outposts on their own map spaces, Roman side up."""
    for tile_id in tile_ids:
        state = put(state, tile_id, OUTPOST_SPACES[tile_id][0], back=False)
    return state


def quiet_paths(state: SooState) -> SooState:
    """Every Path able to take one more Advance without a Siege or a blocking roll."""
    for path in (Path.ALPHA, Path.BETA, Path.GAMMA):
        state = fill_zone(state, path, 2)
    state = put(state, "army-delta-persia", "lesser-armenia")
    state = put(state, "army-zeta-nomads", "damascus")
    return state


def drive(state: SooState, game: SwordOfOrthodoxy = GAME) -> SooState:
    """Answer every roll with 1s until a choice, the end, or nothing is left."""
    while state.pending is not None and state.pending.kind is RequestKind.ROLL:
        state = answer(state, Roll((1,) * state.pending.dice), game=game)
    return state


# -- 10.1 taking -----------------------------------------------------------------------


@pytest.mark.rule("10.1")
@pytest.mark.parametrize(("money", "offered"), [(0, False), (1, False), (2, True), (12, True)])
def test_an_available_outpost_is_offered_for_2_solidus(money: int, offered: bool) -> None:
    state = treasury(BASE, money)
    assert where(state, "outpost-lazica") == "available-outposts"
    assert ("take outpost-lazica" in items(state)) is offered


@pytest.mark.rule("10.1")
def test_a_sword_basileus_takes_an_outpost_for_1_solidus() -> None:
    justinian = put(treasury(BASE, 1), "basileus-theodosius", "basileus", back=True)
    assert outpost_cost(C, justinian) == 1
    assert "take outpost-lazica" in items(justinian)
    assert outpost_cost(C, BASE) == 2
    after = start(justinian, TakeOutpost("outpost-lazica"))
    assert marker(C, after, "solidus") == 0
    # Nothing else is recorded: the cheaper price is no use of the sword (10.6.8).
    assert after.done == justinian.done and after.counters == justinian.counters


@pytest.mark.rule("10.1")
@given(st.sampled_from(OUTPOSTS), st.integers(2, 12), st.booleans())
def test_taking_pays_the_price_and_places_the_outpost_on_its_space(
    outpost: str, money: int, sword: bool
) -> None:
    state = put(treasury(BASE, money), outpost, "available-outposts")
    state = put(state, "basileus-theodosius", "basileus", back=sword)
    assert f"take {outpost}" in items(state)
    after = start(state, TakeOutpost(outpost))
    assert where(after, outpost) == OUTPOST_SPACES[outpost][0]
    assert marker(C, after, "solidus") == money - (1 if sword else 2)
    assert CAT.tile(outpost) in abandonable_outposts(C, after)
    assert f"take {outpost}" not in items(after)
    changed = [i for i, w in enumerate(after.board.where) if w != state.board.where[i]]
    assert changed == [CAT.tile(outpost)]


@pytest.mark.rule("10.1", "10.5")
@pytest.mark.parametrize("how", ["on its space", "remembered, Lazica lost since"])
def test_no_outpost_is_taken_once_greek_fire_has_been_activated(how: str) -> None:
    state = put(treasury(BASE, 12), "outpost-rome", "available-outposts")
    if how == "on its space":
        state = put(state, "outpost-lazica", "greek-fire")
    else:
        state = remember(put(state, "outpost-lazica", "discarded"), "greek-fire")
    assert greek_fire_activated(C, state)
    assert not [item for item in items(state) if item.startswith("take")]


@pytest.mark.rule("10.1", "10.5", "E")
def test_the_millennium_starts_with_greek_fire_and_never_takes_outposts() -> None:
    context = ctx(MILLENNIUM)
    state = put(idle(millennium()), "outpost-rome", "available-outposts", game=MILLENNIUM)
    state = set_marker(context, state, "solidus", 12)
    assert greek_fire_activated(context, state)
    state = start(state, AbandonOutpost("outpost-lazica"), game=MILLENNIUM)
    state = drive(state, MILLENNIUM)
    assert not greek_fire_active(context, state)
    assert greek_fire_activated(context, state)
    assert not [o.item for o in offers(context, state) if o.item.startswith("take")]


# -- 10.2 abandoning -------------------------------------------------------------------


@pytest.mark.rule("10.2")
def test_example_abandoning_hispania() -> None:
    """10.2's example: 3 $, an Advance on Γ, one point of Schism, Hispania gone for good."""
    state = held(quiet_paths(treasury(schism(BASE, 4), 2)), "outpost-hispania")
    reserves = [
        t
        for t in CAT.tiles_of(TileKind.ARMY, Path.GAMMA)
        if t not in zone_armies(C, state, Path.GAMMA)
    ]
    strongest = max(reserves, key=lambda t: CAT.face(state.board, t).strength)
    assert "abandon outpost-hispania" in items(state)
    after = start(state, AbandonOutpost("outpost-hispania"))
    assert after.pending is None
    assert marker(C, after, "solidus") == 5
    assert strongest in zone_armies(C, after, Path.GAMMA)
    assert len(zone_armies(C, after, Path.GAMMA)) == 3
    assert marker(C, after, "schism") == 5
    assert where(after, "outpost-hispania") == "discarded"


@pytest.mark.rule("10.2", "2.6")
@given(st.sampled_from(OUTPOSTS), st.integers(0, 12), st.integers(0, 12))
def test_abandoning_gives_the_tiles_solidus_capped_at_12_then_advance_then_schism(
    outpost: str, money: int, level: int
) -> None:
    state = held(quiet_paths(treasury(schism(BASE, level), money)), outpost)
    face = CAT.tiles[CAT.tile(outpost)].front
    before = {p: _advance_measure(state, p) for p in Path}
    after = drive(start(state, AbandonOutpost(outpost)))
    assert where(after, outpost) == "discarded"
    assert marker(C, after, "solidus") == min(12, money + face.solidus)
    for path in Path:
        moved = _advance_measure(after, path) != before[path]
        assert moved is (path is face.advance)
    if level + face.schism > 12:
        assert after.ending is not None and after.ending.rule == "2.6"
    else:
        assert after.ending is None
        assert marker(C, after, "schism") == level + face.schism


def _advance_measure(state: SooState, path: Path) -> object:
    if path.western:
        return len(zone_armies(C, state, path))
    army = [
        t for t in CAT.tiles_of(TileKind.ARMY, path) if state.board.where[t] in CAT.themas(path)
    ]
    return [state.board.where[t] for t in army]


@pytest.mark.rule("10.2", "11.5")
def test_fallen_egypt_cannot_be_abandoned() -> None:
    fallen = put(BASE, "outpost-egypt", "egypt", back=True)
    assert "abandon outpost-egypt" in items(BASE)
    assert "abandon outpost-egypt" not in items(fallen)


@pytest.mark.rule("10.2")
def test_rome_prints_no_letter_and_costs_only_schism() -> None:
    state = held(schism(treasury(BASE, 0), 0), "outpost-rome")
    after = start(state, AbandonOutpost("outpost-rome"))
    assert after.pending is None
    assert marker(C, after, "solidus") == 3 and marker(C, after, "schism") == 2
    same = [w for i, w in enumerate(after.board.where) if i != CAT.tile("outpost-rome")]
    assert same == [w for i, w in enumerate(state.board.where) if i != CAT.tile("outpost-rome")]


@pytest.mark.rule("10.2", "2.6")
def test_abandoning_under_the_henotikon_adds_no_schism() -> None:
    state = held(schism(quiet_paths(BASE), 3), "outpost-hispania")
    state = put(state, "marker-schism", "turn-chit-mug", 3)
    after = start(state, AbandonOutpost("outpost-hispania"))
    assert marker(C, after, "schism") == 3


@pytest.mark.rule("10.2", "10.1")
def test_an_outpost_taken_this_turn_may_be_abandoned_through_the_menu() -> None:
    state = quiet_paths(treasury(BASE, 2))
    state = start(state, ActionPhase())
    assert state.pending is not None and state.pending.options[0] == Decline()
    state = answer(state, Select("take outpost-lazica"))
    assert where(state, "outpost-lazica") == "outpost-lazica"
    assert state.pending is not None
    assert Select("abandon outpost-lazica") in state.pending.options
    state = drive(answer(state, Select("abandon outpost-lazica")))
    assert where(state, "outpost-lazica") == "discarded"
    assert marker(C, state, "solidus") == 3
    assert state.pending is not None and state.pending.rule == "10.0"


@pytest.mark.rule("10.2", "9.6")
def test_an_abandonment_that_causes_a_siege_resolves_it_before_the_schism() -> None:
    state = held(fill_zone(schism(BASE, 2), Path.GAMMA, 5), "outpost-hispania")
    after = start(state, AbandonOutpost("outpost-hispania"))
    assert after.pending is not None and after.pending.rule == "12.1"
    assert marker(C, after, "schism") == 2


# -- 10.5 Greek Fire -------------------------------------------------------------------


REFORMED = put(BASE, "marker-reforms", "reforms")


@pytest.mark.rule("10.5")
@given(
    st.booleans(),
    st.sampled_from(["available-outposts", "outpost-lazica", "greek-fire", "discarded"]),
    st.booleans(),
)
def test_greek_fire_may_be_activated_only_with_reforms_lazica_held_and_not_yet(
    reforms: bool, lazica: str, remembered: bool
) -> None:
    state = REFORMED if reforms else BASE
    state = put(state, "outpost-lazica", lazica)
    if remembered:
        state = remember(state, "greek-fire")
    expected = reforms and lazica == "outpost-lazica" and not remembered
    assert can_activate_greek_fire(C, state) is expected
    assert ("activate greek-fire" in items(state)) is expected


@pytest.mark.rule("10.5")
def test_activating_greek_fire_moves_lazica_and_discards_the_outposts_not_taken() -> None:
    state = held(REFORMED, "outpost-lazica", "outpost-egypt")
    state = put(state, "outpost-rome", "available-outposts")
    state = put(state, "outpost-hispania", "counter-tray")
    state = put(state, "outpost-sicily", "counter-tray")
    state = put(treasury(state, 12), "outpost-holy-land", "counter-tray")
    after = start(state, ActivateGreekFire())
    assert where(after, "outpost-lazica") == "greek-fire"
    assert greek_fire_active(C, after)
    for gone in ("outpost-rome", "outpost-hispania", "outpost-sicily"):
        assert where(after, gone) == "discarded"
    assert where(after, "outpost-holy-land") == "counter-tray"
    assert where(after, "outpost-egypt") == "egypt"
    menu = items(after)
    assert "activate greek-fire" not in menu
    assert not [item for item in menu if item.startswith("take")]
    assert "abandon outpost-lazica" in menu


# -- 10.5.1 losing Lazica --------------------------------------------------------------


@pytest.mark.rule("10.5.1", "10.2")
def test_abandoning_lazica_loses_greek_fire_for_good() -> None:
    state = held(treasury(REFORMED, 0), "outpost-lazica")
    state = start(quiet_paths(state), ActivateGreekFire())
    assert greek_fire_active(C, state) and not greek_fire_lost(C, state)
    after = drive(start(state, AbandonOutpost("outpost-lazica")))
    assert greek_fire_lost(C, after)
    assert not greek_fire_active(C, after)
    assert not can_activate_greek_fire(C, after)
    assert marker(C, after, "solidus") == 3


@pytest.mark.rule("10.5.1", "8.4.1")
@pytest.mark.parametrize("lazica", ["greek-fire", "outpost-lazica", "available-outposts"])
def test_david_takes_lazica_and_greek_fire_with_it(lazica: str) -> None:
    state = put(REFORMED, "outpost-lazica", lazica)
    after = start(state, DavidEvent())
    assert greek_fire_lost(C, after)
    assert not greek_fire_active(C, after)
    assert not can_activate_greek_fire(C, after)
    assert "activate greek-fire" not in items(after)


@pytest.mark.rule("10.1", "10.2", "10.5")
def test_every_outpost_offer_uses_something_up() -> None:
    """Each offer costs money or moves a tile, so the menu cannot loop for ever."""
    state = held(treasury(REFORMED, 12), "outpost-lazica", "outpost-egypt", "outpost-rome")
    state = put(quiet_paths(state), "outpost-sicily", "available-outposts")
    for offer in offers(C, state):
        after = drive(start(state, offer.task))
        spent = marker(C, after, "solidus") < marker(C, state, "solidus")
        moved = after.board.where != state.board.where
        assert spent or moved, offer.item
