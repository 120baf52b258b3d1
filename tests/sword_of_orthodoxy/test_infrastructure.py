"""Rules 10.3, 10.4, 10.4.1, 10.4.2, 10.14: Hospitals, Monasteries and Akritai."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium import play
from byzantium.core.game import Step
from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.combat import Attack
from byzantium.sword_of_orthodoxy.components import Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.concepts import player_controls
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.infrastructure import (
    AKRITAI_DOWN,
    AKRITAI_UP,
    Build,
    Rebuild,
    ReopenMonastery,
    akritai_intercept,
    akritai_options,
    behind_enemy_lines,
    build,
    build_cost,
    holds_position,
    hospital_defends,
    hospital_sites,
    infrastructure_spaces,
    monastery_sites,
    offers,
    rebuild_sites,
    usable,
)
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Request,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
)
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    WESTERN,
    eastern_army,
    marker,
    set_marker,
    zone_armies,
)
from tests.sword_of_orthodoxy.support import (
    GAME,
    MILLENNIUM,
    answer,
    campaign,
    ctx,
    fill_zone,
    idle,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

C = ctx()
CAT = C.cat
BASE = idle(campaign())
INFRASTRUCTURE = [
    CAT.tiles[t].id
    for kind in (TileKind.HOSPITAL, TileKind.MONASTERY, TileKind.AKRITAI)
    for t in CAT.tiles_of(kind)
]
#: The army each eastern Path uses in these tests, and its strength.
EAST_ARMY = {
    Path.DELTA: "army-delta-persia",
    Path.EPSILON: "army-epsilon-persia",
    Path.ZETA: "army-zeta-nomads",
}


# -- building states -------------------------------------------------------------------


def treasury(state: SooState, amount: int) -> SooState:
    return set_marker(C, state, "solidus", amount)


def thema(path: Path, position: int) -> str:
    return CAT.spaces[CAT.themas(path)[position - 1]].id


def zone(path: Path) -> str:
    return f"zone-{path.name.lower()}"


def east_at(state: SooState, path: Path, position: int) -> SooState:
    """The Path's test Army at a position (every other Army of the Path off the map)."""
    for army in CAT.tiles_of(TileKind.ARMY, path):
        state = put(state, CAT.tiles[army].id, "counter-tray")
    return put(state, EAST_ARMY[path], thema(path, position))


def army_position(state: SooState, path: Path) -> int:
    army = eastern_army(C, state, path)
    assert army is not None
    return CAT.spaces[state.board.where[army]].position


def items(state: SooState) -> list[str]:
    return [offer.item for offer in offers(C, state)]


def on_path(state: SooState, tile: int) -> Path | None:
    space = CAT.spaces[state.board.where[tile]]
    if space.kind in (SpaceKind.ZONE, SpaceKind.THEMA, SpaceKind.HOMELAND):
        return space.path
    return None


def of_kind(kind: TileKind) -> tuple[int, ...]:
    return CAT.tiles_of(kind)


def options(state: SooState) -> tuple[SooAction, ...]:
    assert state.pending is not None and state.pending.kind is RequestKind.CHOOSE
    return state.pending.options


@st.composite
def fronts(draw: st.DrawFn) -> SooState:
    """Zones of 1-5 Armies and eastern Armies anywhere, infrastructure still unbuilt."""
    state = treasury(BASE, draw(st.integers(0, 12)))
    for path in WESTERN:
        state = fill_zone(state, path, draw(st.integers(1, 5)))
    for path in EASTERN:
        state = east_at(state, path, draw(st.integers(1, 5)))
    return state


PATH_SPACES = [
    CAT.spaces[s].id
    for s in range(len(CAT.spaces))
    if CAT.spaces[s].kind in (SpaceKind.ZONE, SpaceKind.THEMA)
]


@st.composite
def boards(draw: st.DrawFn) -> SooState:
    """:func:`fronts` with the six Infrastructure tiles anywhere, either face up."""
    state = draw(fronts())
    for tile in INFRASTRUCTURE:
        space = draw(st.sampled_from(["counter-tray", *PATH_SPACES]))
        state = put(state, tile, space, back=draw(st.booleans()))
    return state


def check_infrastructure(ctx_: Context, state: SooState) -> None:
    """The building limits of 10.3 hold on the board."""
    cat = ctx_.cat
    for kind in (TileKind.HOSPITAL, TileKind.MONASTERY, TileKind.AKRITAI):
        paths = []
        for tile in cat.tiles_of(kind):
            space = cat.spaces[state.board.where[tile]]
            if space.kind in (SpaceKind.ZONE, SpaceKind.THEMA, SpaceKind.HOMELAND):
                paths.append(space.path)
                assert space.kind is not SpaceKind.HOMELAND
                if kind is TileKind.MONASTERY:
                    assert space.kind is SpaceKind.ZONE and space.path in (Path.BETA, Path.GAMMA)
                if kind is TileKind.AKRITAI:
                    assert space.kind is SpaceKind.THEMA
        assert len(paths) == len(set(paths)), f"two {kind.value} tiles on one Path"


# -- 10.3 where and for how much -------------------------------------------------------


@pytest.mark.rule("10.3", "2.2.1")
@given(boards())
def test_an_eastern_hospital_or_akritai_site_is_the_player_thema_next_to_the_army(
    state: SooState,
) -> None:
    for kind in (TileKind.HOSPITAL, TileKind.AKRITAI):
        sites = infrastructure_spaces(C, state, kind)
        for path in EASTERN:
            position = army_position(state, path)
            others = [t for t in of_kind(kind) if on_path(state, t) is path]
            expected = [CAT.themas(path)[position - 2]] if position >= 2 and not others else []
            found = [s for s in sites if CAT.spaces[s].path is path]
            assert found == expected
            for site in found:
                assert player_controls(C, state, site)
                assert CAT.spaces[site].position == position - 1


@pytest.mark.rule("10.3")
@given(boards())
def test_western_sites_need_at_most_four_barbarians_and_no_twin_on_the_path(
    state: SooState,
) -> None:
    for kind, paths in (
        (TileKind.HOSPITAL, WESTERN),
        (TileKind.MONASTERY, (Path.BETA, Path.GAMMA)),
        (TileKind.AKRITAI, ()),
    ):
        sites = {CAT.spaces[s].path for s in infrastructure_spaces(C, state, kind)}
        for path in WESTERN:
            twin = any(on_path(state, t) is path for t in of_kind(kind))
            room = len(zone_armies(C, state, path)) <= 4
            assert (path in sites) is (path in paths and room and not twin)


@pytest.mark.rule("10.3")
@pytest.mark.parametrize(
    ("kind", "basileus", "back", "price"),
    [
        ("hospital", "basileus-theodosius", False, 2),
        ("akritai", "basileus-theodosius", False, 2),
        ("monastery", "basileus-theodosius", False, 3),
        ("monastery", "basileus-basil-constantine", False, 2),  # Basil: the Cross
        ("monastery", "basileus-basil-constantine", True, 3),  # Constantine: no Cross
        ("hospital", "basileus-basil-constantine", False, 2),
    ],
)
def test_prices_of_infrastructure(kind: str, basileus: str, back: bool, price: int) -> None:
    state = put(BASE, "basileus-theodosius", "counter-tray")
    state = put(state, basileus, "basileus", back=back)
    assert build_cost(C, state, kind) == price


@pytest.mark.rule("10.3")
@given(fronts())
def test_a_build_is_offered_only_when_affordable_and_costs_its_price(state: SooState) -> None:
    money = marker(C, state, "solidus")
    for offer in offers(C, state):
        verb, kind, site = offer.item.split()
        assert verb == "build"
        assert money >= build_cost(C, state, kind)
        after = start(state, offer.task)
        assert marker(C, after, "solidus") == money - build_cost(C, state, kind)
        built = [t for t in CAT.tiles_of(TileKind(kind)) if where(after, CAT.tiles[t].id) == site]
        assert len(built) == 1 and not after.board.back[built[0]]
    for kind in ("hospital", "monastery", "akritai"):
        if money < build_cost(C, state, kind):
            assert not [item for item in items(state) if item.startswith(f"build {kind}")]


@pytest.mark.rule("10.3", "9.7")
@given(boards(), st.data())
def test_random_building_never_breaks_the_limits(state: SooState, data: st.DataObject) -> None:
    """Never two Monasteries in one Zone, nor two identical tiles on one Path."""
    state = treasury(state, 12)
    for tile in INFRASTRUCTURE:
        state = put(state, tile, "counter-tray")
    for _ in range(8):
        found = offers(C, state)
        if not found:
            break
        state = start(treasury(state, 12), data.draw(st.sampled_from(found)).task)
        check_infrastructure(C, state)
        # The Barbarians move on: an eastern Army steps forward or back.
        path = data.draw(st.sampled_from(EASTERN))
        state = east_at(state, path, data.draw(st.integers(1, 5)))


@pytest.mark.rule("10.3")
def test_only_one_monastery_per_zone_and_none_in_a_full_zone() -> None:
    state = fill_zone(fill_zone(treasury(BASE, 12), Path.BETA, 4), Path.GAMMA, 5)
    assert monastery_sites(C, state) == ["zone-beta"]
    state = start(state, Build("monastery", "zone-beta"))
    assert monastery_sites(C, state) == []
    assert not [item for item in items(state) if item.startswith("build monastery")]


# -- 10.3 rebuilding -------------------------------------------------------------------


@pytest.mark.rule("10.3", "10.4")
@pytest.mark.parametrize("kind", ["hospital", "akritai"])
def test_a_tile_behind_enemy_lines_may_be_rebuilt_at_the_building_price(kind: str) -> None:
    state = east_at(treasury(BASE, 5), Path.EPSILON, 3)  # the enemy in Melitene
    state = put(state, f"{kind}-1", "cappadocia", back=True)
    tile = CAT.tile(f"{kind}-1")
    assert not behind_enemy_lines(C, state, tile)
    assert rebuild_sites(C, state, tile) == []
    overrun = east_at(state, Path.EPSILON, 2)  # the enemy has taken Cappadocia
    assert behind_enemy_lines(C, overrun, tile)
    western = ["zone-alpha", "zone-beta", "zone-gamma"] if kind == "hospital" else []
    expected = [*western, "greater-armenia", "amorion", "damascus"]
    assert rebuild_sites(C, overrun, tile) == expected
    assert f"rebuild {kind}-1 amorion" in items(overrun)
    after = start(overrun, Rebuild(f"{kind}-1", "amorion"))
    assert where(after, f"{kind}-1") == "amorion"
    assert marker(C, after, "solidus") == 3
    assert after.board.back[tile]  # still used until the End of Turn
    assert not behind_enemy_lines(C, after, tile)
    assert not [item for item in items(after) if item.startswith("rebuild")]


@pytest.mark.rule("10.3")
def test_a_rebuild_is_not_offered_without_the_money() -> None:
    state = east_at(treasury(BASE, 1), Path.EPSILON, 2)
    state = put(state, "hospital-1", "cappadocia")
    assert not [item for item in items(state) if item.startswith("rebuild")]
    assert [item for item in items(treasury(state, 2)) if item.startswith("rebuild")]


@pytest.mark.rule("10.3")
def test_a_western_hospital_in_a_full_zone_may_be_rebuilt_elsewhere() -> None:
    state = fill_zone(fill_zone(treasury(BASE, 2), Path.ALPHA, 5), Path.BETA, 2)
    state = put(state, "hospital-1", "zone-alpha")
    assert "rebuild hospital-1 zone-beta" in items(state)
    assert "rebuild hospital-1 zone-alpha" not in items(state)


# -- 10.4 when a tile can be used ------------------------------------------------------


@pytest.mark.rule("10.4")
@given(st.sampled_from(EASTERN), st.integers(1, 5), st.integers(1, 4), st.booleans())
def test_an_eastern_tile_is_usable_only_on_the_players_side_and_unused(
    path: Path, army: int, position: int, used: bool
) -> None:
    state = put(east_at(BASE, path, army), "akritai-1", thema(path, position), back=used)
    tile = CAT.tile("akritai-1")
    assert holds_position(C, state, tile) is (position < army)
    assert usable(C, state, tile) is (position < army and not used)


@pytest.mark.rule("10.4")
@given(st.sampled_from(WESTERN), st.integers(1, 5), st.booleans())
def test_a_western_hospital_is_not_usable_in_a_zone_of_five(
    path: Path, count: int, used: bool
) -> None:
    state = put(fill_zone(BASE, path, count), "hospital-2", zone(path), back=used)
    assert usable(C, state, CAT.tile("hospital-2")) is (count < 5 and not used)


@pytest.mark.rule("10.4")
def test_a_tile_off_the_map_is_never_usable() -> None:
    assert not usable(C, BASE, CAT.tile("akritai-1"))
    assert not behind_enemy_lines(C, BASE, CAT.tile("akritai-1"))


# -- 10.4.1 Hospitals in the Barbarian Phase -------------------------------------------


def hospital_roll_asked(state: SooState) -> bool:
    """Answer rolls with 1 (no Army is thrown back by it) until a Hospital roll or a stop."""
    while state.pending is not None and state.pending.kind is RequestKind.ROLL:
        if state.pending.rule == "9.5.2":
            return True
        state = answer(state, Roll((1,) * state.pending.dice))
    return False


@pytest.mark.rule("10.4.1", "9.5.2", "10.4")
@given(st.sampled_from(EASTERN), st.integers(1, 5), st.integers(1, 4), st.booleans())
def test_the_barbarian_phase_rolls_for_a_hospital_exactly_when_10_4_allows(
    path: Path, army: int, position: int, used: bool
) -> None:
    state = put(east_at(BASE, path, army), "hospital-1", thema(path, position), back=used)
    entered = CAT.themas(path)[army - 2] if army >= 2 else None
    expected = entered is not None and hospital_defends(C, state, entered) is not None
    assert expected is (position == army - 1 and not used)
    assert hospital_roll_asked(start(state, Advance(path, "9.3"))) is expected


@pytest.mark.rule("10.4.1", "9.5.2", "10.4")
@given(st.sampled_from(WESTERN), st.integers(1, 5), st.booleans())
def test_a_western_hospital_rolls_exactly_when_10_4_allows(
    path: Path, count: int, used: bool
) -> None:
    state = put(fill_zone(BASE, path, count), "hospital-1", zone(path), back=used)
    expected = hospital_defends(C, state, CAT.zone(path)) is not None
    assert expected is (count < 5 and not used)
    assert hospital_roll_asked(start(state, Advance(path, "9.2"))) is expected


# -- 10.4.2 the Akritai ----------------------------------------------------------------


def epsilon_front(state: SooState, akritai_space: str = "cappadocia") -> SooState:
    """The Persians of Ε in Melitene, an Akritai at ``akritai_space``."""
    return put(east_at(BASE, Path.EPSILON, 3), "akritai-1", akritai_space)


def attack_roll(state: SooState) -> SooState:
    """A free attack on Path Ε, its target chosen: waiting for the die."""
    state = start(state, Attack("10.6", (Path.EPSILON,)))
    state = answer(state, Select("army-epsilon-persia"))
    assert state.pending is not None and state.pending.kind is RequestKind.ROLL
    assert state.pending.path is Path.EPSILON
    return state


@pytest.mark.rule("10.4.2")
@pytest.mark.parametrize(
    ("die", "expected"),
    [
        (1, (Decline(), Select(AKRITAI_UP))),
        (3, (Decline(), Select(AKRITAI_DOWN), Select(AKRITAI_UP))),
        (6, (Decline(), Select(AKRITAI_DOWN))),
    ],
)
def test_the_akritai_offers_keep_then_minus_then_plus_within_1_to_6(
    die: int, expected: tuple[SooAction, ...]
) -> None:
    assert akritai_options(die) == expected
    state = answer(attack_roll(epsilon_front(BASE)), Roll((die,)))
    assert state.pending is not None and state.pending.rule == "10.4.2"
    assert options(state) == expected


@pytest.mark.rule("10.4.2", "10.6")
@pytest.mark.parametrize(
    ("choice", "position", "used"),
    [(Decline(), 4, False), (Select(AKRITAI_DOWN), 3, True), (Select(AKRITAI_UP), 4, True)],
)
def test_the_adjusted_die_decides_the_roll_and_the_akritai_turns_used(
    choice: SooAction, position: int, used: bool
) -> None:
    """Strength 4: a 5 wins, a 4 does not."""
    state = answer(attack_roll(epsilon_front(BASE)), Roll((5,)), choice)
    assert state.pending is None
    assert army_position(state, Path.EPSILON) == position
    assert state.board.back[CAT.tile("akritai-1")] is used


@pytest.mark.rule("10.4.2", "1.1")
def test_an_akritai_six_is_a_natural_six() -> None:
    """-2 in modifiers: a 5 loses against strength 4, the 5 turned into a 6 wins (1.1)."""
    state = put(epsilon_front(BASE), "riot-1", "constantinople", back=False)
    state = put(state, "social-1", "persia", back=True)  # Dynatoi on Ε
    kept = answer(attack_roll(state), Roll((5,)), Decline())
    assert army_position(kept, Path.EPSILON) == 3
    raised = answer(attack_roll(state), Roll((5,)), Select(AKRITAI_UP))
    assert army_position(raised, Path.EPSILON) == 4


@pytest.mark.rule("10.4.2", "11.10")
def test_an_akritai_adjusts_at_most_once_per_turn() -> None:
    state = answer(attack_roll(epsilon_front(BASE)), Roll((3,)), Select(AKRITAI_UP))
    assert state.board.back[CAT.tile("akritai-1")]
    again = answer(attack_roll(state), Roll((3,)))
    assert again.pending is None  # the roll went straight to the attack


@pytest.mark.rule("10.4.2", "10.4")
@pytest.mark.parametrize("space", ["melitene", "nisibis", "paphlagonia", "counter-tray"])
def test_no_akritai_help_from_behind_enemy_lines_or_another_path(space: str) -> None:
    state = answer(attack_roll(epsilon_front(BASE, space)), Roll((3,)))
    assert state.pending is None


@pytest.mark.rule("10.4.2")
def test_two_dice_and_rolls_of_no_single_path_are_not_adjusted() -> None:
    state = epsilon_front(BASE)
    attack = Attack("10.6", (Path.EPSILON,), target="army-epsilon-persia")
    two = Request(RequestKind.ROLL, "12.1", "Siege", attack, dice=2, path=Path.EPSILON)
    assert akritai_intercept(C, state, two, Roll((3, 4))) is None
    none = Request(RequestKind.ROLL, "10.6", "attack", attack, dice=1, path=None)
    assert akritai_intercept(C, state, none, Roll((3,))) is None
    one = Request(RequestKind.ROLL, "10.6", "attack", attack, dice=1, path=Path.EPSILON)
    assert akritai_intercept(C, state, one, Roll((3,))) is not None


@pytest.mark.rule("10.4.2", "9.5.1", "9.5.2")
@pytest.mark.parametrize("rule", ["9.5.1", "9.5.2"])
def test_an_akritai_in_the_space_entered_may_adjust_the_entry_rolls(rule: str) -> None:
    """The Persians step from Nisibis into Melitene (Taurus), where the Akritai stand."""
    state = put(east_at(BASE, Path.EPSILON, 4), "akritai-1", "melitene")
    if rule == "9.5.2":
        state = put(state, "hospital-1", "melitene")
    state = start(state, Advance(Path.EPSILON, "9.3"))
    if rule == "9.5.2":  # the Taurus roll first: the Persians cross, the Akritai kept
        state = answer(state, Roll((1,)), Decline())
    assert state.pending is not None and state.pending.rule == rule
    state = answer(state, Roll((4,)))
    assert state.pending is not None and state.pending.rule == "10.4.2"
    state = answer(state, Select(AKRITAI_UP))  # 5 > 4: thrown back to Nisibis
    assert army_position(state, Path.EPSILON) == 4
    assert state.board.back[CAT.tile("akritai-1")]


@pytest.mark.rule("10.4.2", "9.5.4")
def test_an_akritai_may_adjust_a_tribute_roll() -> None:
    state = put(epsilon_front(BASE), "marker-tribute", "persia")
    state = start(state, Advance(Path.EPSILON, "9.3"))
    assert state.pending is not None and state.pending.rule == "9.5.4"
    state = answer(state, Roll((6,)), Select(AKRITAI_DOWN))  # a 5: the Tribute holds
    assert army_position(state, Path.EPSILON) == 3
    assert where(state, "marker-tribute") == "persia"


# -- 10.14 reopening -------------------------------------------------------------------


@pytest.mark.rule("10.14", "9.7")
@given(st.sampled_from([Path.BETA, Path.GAMMA]), st.integers(1, 5), st.booleans())
def test_an_isolated_monastery_reopens_for_free_when_the_zone_thins_out(
    path: Path, count: int, isolated: bool
) -> None:
    state = treasury(fill_zone(BASE, path, count), 0)
    state = put(state, "monastery-2", zone(path), back=isolated)
    offered = "reopen monastery-2" in items(state)
    assert offered is (isolated and count < 5)
    if offered:
        after = start(state, ReopenMonastery("monastery-2"))
        assert not after.board.back[CAT.tile("monastery-2")]
        assert marker(C, after, "solidus") == 0
        assert "reopen monastery-2" not in items(after)


# -- 10.7.9 the helpers Slavery uses ---------------------------------------------------


@pytest.mark.rule("10.3", "10.7.9")
def test_slavery_helpers_build_for_free_where_10_3_allows() -> None:
    state = east_at(fill_zone(treasury(BASE, 0), Path.GAMMA, 5), Path.DELTA, 3)
    state = east_at(east_at(state, Path.EPSILON, 1), Path.ZETA, 5)
    assert hospital_sites(C, state) == ["zone-alpha", "zone-beta", "paphlagonia", "damascus"]
    assert monastery_sites(C, state) == ["zone-beta"]
    state = build(C, state, "hospital", "paphlagonia")
    state = build(C, state, TileKind.MONASTERY, "zone-beta")
    assert where(state, "hospital-1") == "paphlagonia"
    assert where(state, "monastery-1") == "zone-beta"
    assert marker(C, state, "solidus") == 0
    assert "paphlagonia" not in hospital_sites(C, state)
    with pytest.raises(ValueError, match="zone-gamma"):
        build(C, state, "monastery", "zone-gamma")
    state = build(C, state, "hospital", "zone-alpha")
    assert hospital_sites(C, state) == []  # both Hospitals are on the map


@pytest.mark.rule("10.3", "E")
def test_the_millennium_monastery_and_akritai_count_against_their_paths() -> None:
    game_ctx = ctx(MILLENNIUM)
    state = idle(MILLENNIUM.initial_state())
    assert "zone-gamma" not in monastery_sites(game_ctx, state)
    akritai = [
        game_ctx.cat.spaces[s].path for s in infrastructure_spaces(game_ctx, state, "akritai")
    ]
    assert Path.EPSILON not in akritai and Path.ZETA not in akritai


# -- whole games -----------------------------------------------------------------------


def flips_to_used(before: SooState, after: SooState, tiles: Iterable[int]) -> list[int]:
    return [t for t in tiles if after.board.back[t] and not before.board.back[t]]


@pytest.mark.rule("10.0", "10.3", "10.4.2", "10.14")
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**16), st.sampled_from([GAME, MILLENNIUM]))
def test_random_games_keep_the_building_limits_and_one_akritai_use_per_turn(
    seed: int, game: SwordOfOrthodoxy
) -> None:
    context = Context(game, None)
    akritai = game.catalog.tiles_of(TileKind.AKRITAI)
    uses: list[tuple[int, int]] = []

    def check(state: SooState, player: int, action: SooAction, step: Step[SooState]) -> None:
        del player, action
        check_infrastructure(context, step.state)
        uses.extend((step.state.turn, t) for t in flips_to_used(state, step.state, akritai))

    record = play(game, seed=seed, on_step=check, digests=False, max_steps=20_000)
    assert len(uses) == len(set(uses))
    assert record.actions
