"""Sieges of Constantinople: the fall of the City (12.1) and the strategic retreats (12.2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.combat import Attack
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.siege import (
    Siege,
    movable_factions,
    retreat_due,
    retreat_fact,
    siege_tile,
)
from byzantium.sword_of_orthodoxy.state import Decline, RequestKind, Roll, Select, SooState
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    WESTERN,
    flip,
    move,
    reserve_armies,
    tiles_on,
    tribe,
    zone_armies,
)
from tests.sword_of_orthodoxy.support import answer, campaign, ctx, idle, put, start, where

RULEBOOK = "sword-of-orthodoxy"

BASE = idle(campaign())
C = ctx()
CAT = C.cat
FACTIONS = CAT.tiles_of(TileKind.FACTION)
WALLS = CAT.tile("faction-walls")


def tile(tile_id: str) -> int:
    return CAT.tile(tile_id)


def no_retreats(state: SooState) -> SooState:
    state = put(state, "marker-zone-alpha", "zone-name-alpha", back=True)
    return put(state, "marker-zone-beta", "zone-name-beta", back=True)


def city(state: SooState, factions: int, walls: bool) -> SooState:
    """``factions`` Factions in Constantinople (the Walls among them if ``walls``)."""
    others = [f for f in FACTIONS if f != WALLS]
    inside = ([WALLS] if walls else []) + others[: factions - (1 if walls else 0)]
    for faction in FACTIONS:
        if faction in inside:
            state = move(C, state, faction, "constantinople")
        else:
            state = move(C, state, faction, "omnibus", 5)
    return state


def besieged(state: SooState, path: Path) -> SooState:
    """A Siege tile of ``path`` where an advance would have put it (9.2, 9.3)."""
    if path.western:
        siege = {Path.ALPHA: "siege-1", Path.BETA: "siege-2", Path.GAMMA: "siege-3"}[path]
        return put(state, siege, f"zone-{path.name.lower()}")
    return put(state, "siege-4", CAT.spaces[CAT.themas(path)[0]].id)


paths = st.sampled_from(list(Path))


# -- 9.6 and 12.1 -------------------------------------------------------------------


@pytest.mark.rule("9.6")
@given(paths)
def test_a_siege_tile_calls_for_the_two_dice_roll(path: Path) -> None:
    state = besieged(no_retreats(BASE), path)
    assert siege_tile(C, state, path) is not None
    asked = start(state, Siege(path))
    assert asked.pending is not None and asked.pending.rule == "12.1"
    assert asked.pending.kind is RequestKind.ROLL and asked.pending.dice == 2


@pytest.mark.rule("12.1")
@given(paths, st.integers(1, 6), st.integers(1, 6), st.integers(1, 11), st.booleans())
def test_defeat_when_the_roll_beats_the_factions(
    path: Path, a: int, b: int, factions: int, walls: bool
) -> None:
    factions = min(factions, 11 if walls else 10)  # ten Factions besides the Walls
    state = besieged(city(no_retreats(BASE), factions, walls), path)
    assert len(tiles_on(C, state, "constantinople", TileKind.FACTION)) == factions
    after = answer(start(state, Siege(path)), Roll((a, b)))
    total = a + b + (0 if walls else 3)
    if total > factions:
        assert after.ending is not None and after.ending.defeat and after.ending.rule == "12.1"
    else:
        assert after.ending is None
        assert siege_tile(C, after, path) is None
        home = f"reserves-{path.name.lower()}" if path.western else "counter-tray"
        siege = {Path.ALPHA: "siege-1", Path.BETA: "siege-2", Path.GAMMA: "siege-3"}
        assert where(after, siege.get(path, "siege-4")) == home


@pytest.mark.rule("12.1")
def test_campaign_start_needs_six_or_less() -> None:
    """Campaign setup: nine Factions inside, the Walls outside (+3)."""
    state = besieged(BASE, Path.GAMMA)
    assert start(state, Siege(Path.GAMMA)).pending is not None
    held = answer(start(state, Siege(Path.GAMMA)), Roll((3, 3)))
    assert held.ending is None
    fell = answer(start(state, Siege(Path.GAMMA)), Roll((3, 4)))
    assert fell.ending is not None and fell.ending.defeat


@pytest.mark.rule("12.1")
def test_the_barbarians_stay_where_they_are() -> None:
    state = besieged(BASE, Path.DELTA)
    state = put(state, "army-delta-persia", "nicaea")
    after = answer(start(state, Siege(Path.DELTA)), Roll((1, 1)))
    assert where(after, "army-delta-persia") == "nicaea"
    gamma = besieged(put(BASE, "army-gamma-2", "zone-gamma"), Path.GAMMA)
    after = answer(start(gamma, Siege(Path.GAMMA)), Roll((1, 1)))
    assert len(zone_armies(C, after, Path.GAMMA)) == 2


@pytest.mark.rule("12.1")
def test_at_least_one_faction_but_never_the_walls() -> None:
    state = besieged(city(BASE, 11, True), Path.EPSILON)
    asked = answer(start(state, Siege(Path.EPSILON)), Roll((2, 2)))
    assert asked.pending is not None and asked.pending.kind is RequestKind.CHOOSE
    first = list(asked.pending.options)
    assert Decline() not in first  # at least one must go
    assert Select("faction-walls") not in first
    assert first == [Select(CAT.tiles[f].id) for f in movable_factions(C, asked)]
    assert len(first) == 10
    after = answer(asked, Select("faction-hagia-sophia"))
    assert after.pending is not None
    assert after.pending.options[0] == Decline()  # now the player may stop
    assert Select("faction-hagia-sophia") not in after.pending.options


def with_target(state: SooState) -> SooState:
    """Two Armies in Zone Γ, so that a free Attack has a legal target (10.6)."""
    return put(state, "army-gamma-2", "zone-gamma")


def free_attacks(state: SooState) -> int:
    """Count the free Attacks granted by 12.1, declining each as it asks for a target."""
    count = 0
    while state.pending is not None:
        task = state.pending.task
        assert isinstance(task, Attack) and task.rule == "12.1"
        count += 1
        state = answer(state, Decline())
    return count


@pytest.mark.rule("12.1")
@given(st.sampled_from(list(EASTERN) + list(WESTERN)), st.integers(1, 10))
def test_each_faction_sent_away_buys_one_free_attack(path: Path, count: int) -> None:
    state = besieged(city(no_retreats(with_target(BASE)), 11, True), path)
    state = answer(start(state, Siege(path)), Roll((1, 1)))
    sent = [f for f in FACTIONS if f != WALLS][:count]
    for faction in sent:
        state = answer(state, Select(CAT.tiles[faction].id))
    if count < 10:
        state = answer(state, Decline())
    for faction in sent:
        assert where(state, CAT.tiles[faction].id) == "omnibus"
        assert state.board.value[faction] == 4
    assert where(state, "faction-walls") == "constantinople"
    assert len(tiles_on(C, state, "constantinople", TileKind.FACTION)) == 11 - count
    assert free_attacks(state) == count


@pytest.mark.rule("12.1")
def test_the_faction_choice_ends_when_none_is_left() -> None:
    state = besieged(city(no_retreats(with_target(BASE)), 3, True), Path.ZETA)
    state = answer(start(state, Siege(Path.ZETA)), Roll((1, 1)))
    state = answer(state, Select("faction-hagia-sophia"), Select("faction-3"))
    # Only the Walls remain: no more choice, the two Attacks follow.
    assert list(tiles_on(C, state, "constantinople", TileKind.FACTION)) == [WALLS]
    assert free_attacks(state) == 2


# -- 12.2 -------------------------------------------------------------------------


def five_in(state: SooState, path: Path) -> SooState:
    name = path.name.lower()
    for army in CAT.tiles_of(TileKind.ARMY, path):
        state = move(C, state, army, f"zone-{name}")
    return state


@pytest.mark.rule("12.2")
def test_africa_retreats_to_crete_once() -> None:
    state = besieged(five_in(BASE, Path.ALPHA), Path.ALPHA)
    assert retreat_due(C, state, Path.ALPHA)
    after = start(state, Siege(Path.ALPHA))
    assert after.pending is None and after.ending is None  # no dice, no Faction lost
    assert after.board.back[tile("marker-zone-alpha")]  # Crete
    assert [CAT.tiles[a].id for a in zone_armies(C, after, Path.ALPHA)] == ["army-alpha-5"]
    assert len(reserve_armies(C, after, Path.ALPHA)) == 4
    assert where(after, "siege-1") == "reserves-alpha"
    assert retreat_fact(Path.ALPHA) in after.done
    assert len(tiles_on(C, after, "constantinople", TileKind.FACTION)) == 9
    # The next Siege on Α is an ordinary one.
    again = besieged(five_in(after, Path.ALPHA), Path.ALPHA)
    assert not retreat_due(C, again, Path.ALPHA)
    asked = start(again, Siege(Path.ALPHA))
    assert asked.pending is not None and asked.pending.rule == "12.1"


@pytest.mark.rule("12.2")
def test_the_retreat_is_made_once_even_if_the_tile_showed_africa_again() -> None:
    state = besieged(BASE, Path.ALPHA)
    after = start(state, Siege(Path.ALPHA))
    reset = besieged(flip(C, after, tile("marker-zone-alpha"), False), Path.ALPHA)
    asked = start(reset, Siege(Path.ALPHA))
    assert asked.pending is not None and asked.pending.rule == "12.1"


@pytest.mark.rule("12.2")
def test_italy_retreats_to_the_balkans_and_the_normans_come() -> None:
    state = besieged(five_in(BASE, Path.BETA), Path.BETA)
    state = put(state, "marker-ravenna", "zone-beta", back=True)  # the Holy Roman Empire
    after = start(state, Siege(Path.BETA))
    assert after.pending is None and after.ending is None
    assert after.board.back[tile("marker-zone-beta")]  # Balkans
    normans = tribe(C, after, Path.BETA)
    assert normans is not None and CAT.tiles[normans].id == "tribe-beta-normans"
    assert len(zone_armies(C, after, Path.BETA)) == 1
    (kept,) = zone_armies(C, after, Path.BETA)
    strengths = [CAT.face(after.board, a).strength for a in CAT.tiles_of(TileKind.ARMY, Path.BETA)]
    assert CAT.face(after.board, kept).strength == min(strengths)
    assert where(after, "siege-2") == "reserves-beta"
    assert where(after, "marker-ravenna") == "discarded"
    assert retreat_fact(Path.BETA) in after.done


@pytest.mark.rule("12.2")
@given(st.integers(1, 5))
def test_the_retreat_leaves_one_army_whatever_the_zone_held(inside: int) -> None:
    state = BASE
    armies = CAT.tiles_of(TileKind.ARMY, Path.ALPHA)
    for i, army in enumerate(armies):
        state = move(C, state, army, "zone-alpha" if i < inside else "reserves-alpha")
    after = start(besieged(state, Path.ALPHA), Siege(Path.ALPHA))
    assert len(zone_armies(C, after, Path.ALPHA)) == 1
    assert len(reserve_armies(C, after, Path.ALPHA)) == 4


@pytest.mark.rule("12.2")
@given(paths)
def test_no_retreat_elsewhere_or_after_abandoning(path: Path) -> None:
    state = besieged(BASE, path)
    due = retreat_due(C, state, path)
    assert due == (path in (Path.ALPHA, Path.BETA))
    assert not retreat_due(C, besieged(no_retreats(BASE), path), path)
    asked = start(state, Siege(path))
    assert (asked.pending is None) == due
