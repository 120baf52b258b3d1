"""Chapter 2's concepts (1.1, 2.2 to 2.8): the map, discarding and withdrawing, the
Basileus, the Schism, Egypt's religion and the Rise of Islam."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.components import Icon, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.concepts import (
    SARACEN_ATTACK_ORDER,
    CaliphToArabia,
    RiseOfIslam,
    SaracenAttacks,
    basileus_has,
    change_schism,
    convert_egypt,
    discard,
    egypt_religion,
    factions_in_constantinople,
    golden_basileus_ready,
    has_colonist,
    homeland,
    islam_has_risen,
    modified_roll,
    path_spaces,
    player_controls,
    replace_army,
    ruins_level,
    schism_in_play,
    schism_level,
    withdraw,
)
from byzantium.sword_of_orthodoxy.engine import run_task
from byzantium.sword_of_orthodoxy.state import Roll, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.world import eastern_army, marker, set_marker
from tests.sword_of_orthodoxy.support import (
    answer,
    campaign,
    ctx,
    idle,
    millennium,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

CTX = ctx()
CAT = CTX.cat
EAST = (Path.DELTA, Path.EPSILON, Path.ZETA)
BASE = idle(campaign())


def run(state: SooState, task: Task, action: SooAction | None = None) -> SooState:
    """Run one task on its own, leaving what it schedules on the stack."""
    return run_task(CTX, attrs.evolve(state, pending=None), task, action)


def scheduled(state: SooState) -> tuple[Task, ...]:
    """What a task pushed, first to run first."""
    return tuple(reversed(state.stack))


def army_id(state: SooState, path: Path) -> str:
    army = eastern_army(CTX, state, path)
    return "" if army is None else CAT.tiles[army].id


# -- 1.1 -------------------------------------------------------------------------------


@pytest.mark.rule("1.1")
@given(st.integers(1, 6), st.integers(-4, 4))
def test_a_natural_one_or_six_ignores_modifiers(natural: int, drm: int) -> None:
    value = modified_roll(natural, drm)
    assert value == (natural if natural in (1, 6) else natural + drm)


@pytest.mark.rule("1.1")
def test_modifiers_add_up_on_other_rolls() -> None:
    assert modified_roll(5, -1) == 4
    assert modified_roll(4, +1) == 5
    assert modified_roll(1, +3) == 1
    assert modified_roll(6, -3) == 6


# -- 2.2 -------------------------------------------------------------------------------


@pytest.mark.rule("2.2", "2.2.1")
def test_six_paths_zones_in_the_west_themas_in_the_east() -> None:
    for path in (Path.ALPHA, Path.BETA, Path.GAMMA):
        (zone,) = path_spaces(CTX, path)
        assert CAT.spaces[zone].kind is SpaceKind.ZONE
        with pytest.raises(ValueError, match="no Homeland"):
            homeland(CTX, path)
    for path in EAST:
        spaces = path_spaces(CTX, path)
        assert [CAT.spaces[s].position for s in spaces] == [1, 2, 3, 4, 5]
        assert spaces[-1] == homeland(CTX, path)
        assert CAT.spaces[homeland(CTX, path)].kind is SpaceKind.HOMELAND
    assert [CAT.spaces[homeland(CTX, p)].id for p in EAST] == ["iberia", "persia", "syria"]


@pytest.mark.rule("2.2.1")
@given(st.sampled_from(EAST), st.integers(1, 5))
def test_the_player_holds_the_themas_in_front_of_the_enemy(path: Path, position: int) -> None:
    army = CAT.tiles[eastern_army(CTX, BASE, path) or 0].id
    spaces = CAT.themas(path)
    state = put(BASE, army, CAT.spaces[spaces[position - 1]].id, back=False)
    held = [CAT.spaces[s].position for s in spaces if player_controls(CTX, state, s)]
    assert held == list(range(1, position))


@pytest.mark.rule("2.2.1")
def test_a_path_without_enemy_is_held_up_to_its_homeland() -> None:
    state = put(BASE, "army-delta-persia", "counter-tray", back=False)
    held = [player_controls(CTX, state, s) for s in CAT.themas(Path.DELTA)]
    assert held == [True, True, True, True, False]
    with pytest.raises(ValueError, match="not a Thema"):
        player_controls(CTX, state, CAT.zone(Path.ALPHA))


@pytest.mark.rule("2.2.2")
def test_constantinople_holds_nine_factions_at_the_start() -> None:
    factions = factions_in_constantinople(CTX, BASE)
    assert len(factions) == 9
    assert CAT.tile("faction-walls") not in factions
    state = put(BASE, "faction-walls", "constantinople", back=False)
    assert len(factions_in_constantinople(CTX, state)) == 10


# -- 2.4 -------------------------------------------------------------------------------


@pytest.mark.rule("2.4")
def test_discarding_removes_a_tile_for_good() -> None:
    state = discard(CTX, BASE, CAT.tile("outpost-lazica"))
    assert where(state, "outpost-lazica") == "discarded"


@pytest.mark.rule("2.4")
@given(st.sampled_from([t for t in range(len(CAT.tiles)) if CAT.tiles[t].kind is TileKind.ARMY]))
def test_withdrawing_an_army_returns_it_for_later_use(tile: int) -> None:
    path = CAT.tiles[tile].path
    assert path is not None
    state = withdraw(CTX, BASE, tile)
    expected = f"reserves-{path.name.lower()}" if path.western else "counter-tray"
    assert CAT.spaces[state.board.where[tile]].id == expected


@pytest.mark.rule("2.4")
def test_withdrawing_other_tiles_goes_to_the_counter_tray_or_the_reserves() -> None:
    state = put(BASE, "siege-4", "zone-beta", back=False)
    assert where(withdraw(CTX, state, CAT.tile("siege-4"), path=Path.BETA), "siege-4") == (
        "reserves-beta"
    )
    assert where(withdraw(CTX, state, CAT.tile("siege-4")), "siege-4") == "counter-tray"
    state = put(BASE, "marker-tribute", "persia", back=False)
    assert where(withdraw(CTX, state, CAT.tile("marker-tribute")), "marker-tribute") == (
        "counter-tray"
    )


@pytest.mark.rule("2.4")
def test_an_eastern_army_is_replaced_on_its_own_space() -> None:
    state = put(BASE, "army-zeta-nomads", "jerusalem", back=False)
    state = replace_army(CTX, state, Path.ZETA, "army-zeta-persia", "8.3")
    assert where(state, "army-zeta-persia") == "jerusalem"
    assert where(state, "army-zeta-nomads") == "counter-tray"
    assert army_id(state, Path.ZETA) == "army-zeta-persia"


# -- 2.5 -------------------------------------------------------------------------------


@pytest.mark.rule("2.5")
def test_the_grey_basileus_icons_and_the_golden_basileus() -> None:
    assert not basileus_has(CTX, BASE, Icon.CROSS)  # Theodosius
    state = put(BASE, "basileus-theodosius", "basileus-mug", back=False)
    state = put(state, "basileus-basil-constantine", "basileus", back=False)
    assert basileus_has(CTX, state, Icon.CROSS)
    assert basileus_has(
        CTX, put(state, "basileus-basil-constantine", "basileus", back=True), Icon.FIRE
    )
    # Zoe rules with her husband: either's icons count (6.2.1).
    state = put(state, "basileus-zoe-theodora", "basileus", back=False)
    assert basileus_has(CTX, state, Icon.SWORD)
    assert golden_basileus_ready(CTX, BASE)
    assert not golden_basileus_ready(CTX, put(BASE, "basileus-golden", "constantinople", back=True))
    assert not golden_basileus_ready(
        CTX, put(BASE, "basileus-golden", "chronographia-5", back=False)
    )


# -- 2.6 -------------------------------------------------------------------------------


@pytest.mark.rule("2.6")
@given(st.integers(0, 12), st.integers(-13, 13))
def test_the_schism_level_stays_between_zero_and_twelve(level: int, amount: int) -> None:
    state = set_marker(CTX, BASE, "schism", level)
    after = change_schism(CTX, state, amount, "5.3.1")
    if level + amount > 12:
        assert after.ending is not None and after.ending.defeat
        assert after.ending.rule == "2.6"
    else:
        assert after.ending is None
        assert schism_level(CTX, after) == max(0, level + amount)


@pytest.mark.rule("2.6")
def test_the_schism_plays_no_role_while_its_tile_is_in_the_mug() -> None:
    state = set_marker(CTX, BASE, "schism", 10)
    state = put(state, "marker-schism", "turn-chit-mug", value=10, back=False)
    assert not schism_in_play(CTX, state)
    assert schism_level(CTX, state) == 0
    after = change_schism(CTX, state, 6, "5.3.1")
    assert after.ending is None
    assert after.board == state.board


# -- 2.7 -------------------------------------------------------------------------------


@pytest.mark.rule("2.7")
def test_egypt_starts_christian_and_may_turn_muslim() -> None:
    assert egypt_religion(CTX, BASE) == "christian"
    state = convert_egypt(CTX, BASE, "11.4")
    assert egypt_religion(CTX, state) == "muslim"
    assert convert_egypt(CTX, state, "11.4") == state
    assert egypt_religion(CTX, idle(millennium())) == "muslim"
    gone = put(BASE, "army-zeta-egypt", "syria", back=False)
    assert egypt_religion(CTX, gone) == ""
    assert convert_egypt(CTX, gone, "11.4") == gone


# -- 2.8 -------------------------------------------------------------------------------


def after_war(epsilon: bool, zeta: bool, ruins: int) -> SooState:
    """The campaign after a first War in the East: Persians on ΔΕΖ, Colonist or Pagan tiles."""
    state = put(BASE, "army-zeta-nomads", "counter-tray", back=False)
    state = put(state, "army-zeta-persia", "jerusalem", back=False)
    state = put(state, "army-epsilon-persia", "melitene", back=False)
    state = put(state, "marker-colonist-1", "syria", back=not zeta)
    state = put(state, "marker-colonist-2", "persia", back=not epsilon)
    if ruins:
        state = put(state, "marker-ruins", "omnibus", value=ruins, back=False)
    return state


def saracen_attacks(state: SooState, remaining: int) -> tuple[SooState, list[Path]]:
    """Run the chain of Saracen attacks without carrying out the Advances they call for."""
    paths: list[Path] = []
    task: Task | None = SaracenAttacks(remaining)
    while task is not None:
        state = run(attrs.evolve(state, stack=()), task)
        pushed = scheduled(state)
        paths += [t.path for t in pushed if isinstance(t, Advance)]
        following = [t for t in pushed if isinstance(t, SaracenAttacks)]
        task = following[0] if following else None
    return attrs.evolve(state, stack=()), paths


@pytest.mark.rule("2.8")
def test_colonists_on_both_paths_bring_the_saracens_everywhere() -> None:
    state = run(after_war(epsilon=True, zeta=True, ruins=8), RiseOfIslam("8.3"))
    assert "islam" in state.done
    for path, army, space in (
        (Path.DELTA, "army-delta-saracens", "iberia"),
        (Path.EPSILON, "army-epsilon-saracens", "melitene"),
        (Path.ZETA, "army-zeta-saracens", "jerusalem"),
    ):
        assert army_id(state, path) == army
        assert where(state, army) == space
    assert scheduled(state) == (SaracenAttacks(8), CaliphToArabia(True))
    state, paths = saracen_attacks(state, 8)
    assert paths == list(SARACEN_ATTACK_ORDER[:8])
    assert where(state, "marker-ruins") == "discarded"
    state = run(state, CaliphToArabia(True))
    assert where(state, "marker-caliph") == "arabia"
    assert not state.board.back[CAT.tile("marker-caliph")]


@pytest.mark.rule("2.8")
def test_a_persian_victory_leaves_persia_persian_and_only_syria_attacks() -> None:
    state = run(after_war(epsilon=False, zeta=True, ruins=3), RiseOfIslam("8.3"))
    assert army_id(state, Path.DELTA) == "army-delta-persia"
    assert army_id(state, Path.EPSILON) == "army-epsilon-persia"
    assert army_id(state, Path.ZETA) == "army-zeta-saracens"
    state, paths = saracen_attacks(state, 3)
    assert paths == [Path.ZETA]  # Ε and Δ are skipped, but each still costs a Ruin
    assert ruins_level(CTX, state) == 0


@pytest.mark.rule("2.8")
def test_without_a_colonist_on_zeta_the_nomads_replace_the_persians() -> None:
    state = run(after_war(epsilon=True, zeta=False, ruins=9), RiseOfIslam("8.3"))
    assert army_id(state, Path.DELTA) == "army-delta-saracens"
    assert army_id(state, Path.EPSILON) == "army-epsilon-saracens"
    assert army_id(state, Path.ZETA) == "army-zeta-nomads"
    assert where(state, "army-zeta-nomads") == "jerusalem"
    state, paths = saracen_attacks(state, 9)
    assert paths == [Path.EPSILON, Path.DELTA] * 3


@pytest.mark.rule("2.8")
@given(st.booleans(), st.booleans(), st.integers(0, 9))
def test_each_saracen_attack_costs_a_ruin(epsilon: bool, zeta: bool, ruins: int) -> None:
    state = run(after_war(epsilon, zeta, ruins), RiseOfIslam("5.2.3"))
    assert scheduled(state) == (SaracenAttacks(ruins), CaliphToArabia(epsilon or zeta))
    state, paths = saracen_attacks(state, ruins)
    saracen = {Path.DELTA: epsilon, Path.EPSILON: epsilon, Path.ZETA: zeta}
    assert paths == [p for p in SARACEN_ATTACK_ORDER[:ruins] if saracen[p]]
    assert ruins_level(CTX, state) == 0
    assert where(state, "marker-ruins") == ("discarded" if ruins else "counter-tray")
    assert has_colonist(CTX, state, Path.EPSILON) is epsilon


@pytest.mark.rule("2.8")
def test_islam_rises_only_once() -> None:
    state = after_war(epsilon=True, zeta=True, ruins=4)
    once = run(state, RiseOfIslam("8.3"))
    assert islam_has_risen(CTX, once)
    twice = run(attrs.evolve(once, stack=()), RiseOfIslam("5.2.3"))
    assert twice.board == once.board
    assert twice.stack == ()
    assert islam_has_risen(CTX, idle(millennium()))
    assert not islam_has_risen(CTX, BASE)


@pytest.mark.rule("2.8")
def test_without_saracens_no_caliph_appears() -> None:
    state = run(BASE, CaliphToArabia(False))
    assert where(state, "marker-caliph") == "counter-tray"


@pytest.mark.rule("2.8")
def test_a_saracen_attack_is_an_ordinary_advance() -> None:
    state = after_war(epsilon=True, zeta=True, ruins=1)
    state = put(state, "army-epsilon-persia", "persia", back=False)
    state = start(state, RiseOfIslam("8.3"))
    # One attack, on Ε: the Saracens step from their Homeland to Nisibis (9.3).
    assert state.pending is None
    assert where(state, "army-epsilon-saracens") == "nisibis"
    assert where(state, "army-delta-saracens") == "iberia"
    assert where(state, "marker-caliph") == "arabia"
    assert marker(CTX, state, "ruins") == 0


@pytest.mark.rule("2.8")
def test_a_saracen_attack_into_the_mountains_rolls_for_the_taurus() -> None:
    state = after_war(epsilon=True, zeta=True, ruins=1)
    state = put(state, "army-epsilon-persia", "nisibis", back=False)
    state = start(state, RiseOfIslam("8.3"))
    assert state.pending is not None and state.pending.rule == "9.5.1"
    state = answer(state, Roll((6,)))  # 6 beats strength 3: thrown back to Nisibis
    assert where(state, "army-epsilon-saracens") == "nisibis"
