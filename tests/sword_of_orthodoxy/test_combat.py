"""Byzantine attacks and Barbarian defeats (1.1, 10.6 to 10.6.9.2).

The properties build boards from a small description (:class:`Setup`) and check
the engine against what the rulebook says of that description: which targets
are legal, which modifiers apply, and what a victory or a defeat does.
"""

from __future__ import annotations

from dataclasses import dataclass

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.core.game import Event
from byzantium.core.provenance import Provenance
from byzantium.sword_of_orthodoxy.combat import (
    Attack,
    Repulse,
    attack_drms,
    attack_succeeds,
    bulgar_thema_drm,
    bulgarian_church_drm,
    gain_nike,
    greek_fire_drm,
    greek_patriots_drm,
    latins_and_riots_drm,
    legal_targets,
    military_event_drm,
    ravenna_drm,
    social_drm,
    stolos_carrier,
)
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.outposts import greek_fire_activated
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.world import (
    change_tribe,
    marker,
    remember,
    set_counter,
    set_marker,
)
from tests.sword_of_orthodoxy.support import (
    MILLENNIUM,
    answer,
    campaign,
    ctx,
    events_of,
    millennium,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

CTX = ctx()
CAT = CTX.cat
WEST = (Path.ALPHA, Path.BETA, Path.GAMMA)
EAST = (Path.DELTA, Path.EPSILON, Path.ZETA)
EVENTS = CAT.components.strategikon


def tid(tile: int) -> str:
    return CAT.tiles[tile].id


def armies(path: Path) -> list[str]:
    return [tid(t) for t in CAT.tiles_of(TileKind.ARMY, path)]


def homeland(path: Path) -> str:
    return CAT.spaces[CAT.themas(path)[4]].id


def thema(path: Path, position: int) -> str:
    return CAT.spaces[CAT.themas(path)[position - 1]].id


# -- boards from a description ----------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What matters to an attack, per the rulebook's own terms."""

    #: Per western Path: the numbers (1-5) of the Armies in the Zone; and the face.
    zones: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    strong: tuple[bool, bool, bool]
    #: Per eastern Path: (army tile id, position 1-5) or None.
    east: tuple[tuple[str, int] | None, tuple[str, int] | None, tuple[str, int] | None]
    #: Colonist tiles: (Path, position, pagan side up) or None (off the map).
    colonists: tuple[tuple[Path, int, bool] | None, tuple[Path, int, bool] | None]
    #: The Army carrying the Stolos (tile id), or "" (Stolos lurking).
    carrier: str
    #: Per Path Α..Ζ: 0 no Social, +1 Christians, -1 Dynatoi.
    socials: tuple[int, ...]
    #: 0: Military Event waiting; else its 1-based Strategikon index.
    event: int
    reforms: bool
    greek_fire: bool
    #: Riot tiles in Constantinople: True for a Latins face.
    riots: tuple[bool, ...]
    bulgar_thema: bool
    #: 0 absent, +1 Orthodox, -1 Roman Catholic.
    church: int
    #: 0 absent, +1 Ravenna, -1 Holy Roman Empire.
    ravenna: int

    def zone(self, path: Path) -> list[str]:
        ids = armies(path)
        return [ids[n - 1] for n in self.zones[path.value - 1]]

    def eastern(self, path: Path) -> tuple[str, int] | None:
        return self.east[path.value - 4]

    def path_of(self, target: str) -> Path | None:
        for path in WEST:
            if target in self.zone(path):
                return path
        for path in EAST:
            found = self.eastern(path)
            if found is not None and found[0] == target:
                return path
        return None

    def colonised(self, path: Path, position: int) -> bool:
        return any(
            c is not None and c[0] is path and not c[2] and c[1] <= position for c in self.colonists
        )

    def protected(self, target: str) -> bool:
        path = self.path_of(target)
        assert path is not None
        if path.western:
            return len(self.zone(path)) == 1
        found = self.eastern(path)
        assert found is not None
        return found[1] == 5 or self.colonised(path, found[1])


def build(s: Setup) -> SooState:
    state = campaign()
    for path in WEST:
        letter = path.name.lower()
        for army in armies(path):
            space = f"zone-{letter}" if army in s.zone(path) else f"reserves-{letter}"
            state = put(state, army, space, back=not s.strong[path.value - 1])
    for path in EAST:
        for army in armies(path):
            state = put(state, army, "counter-tray")
        found = s.eastern(path)
        if found is not None:
            state = put(state, found[0], thema(path, found[1]))
    for i, colonist in enumerate(s.colonists, start=1):
        if colonist is None:
            state = put(state, f"marker-colonist-{i}", "arabia", back=True)
        else:
            state = put(
                state, f"marker-colonist-{i}", thema(colonist[0], colonist[1]), back=colonist[2]
            )
    if s.carrier:
        fleet = s.path_of(s.carrier)
        assert fleet is not None
        if fleet.western:
            number = armies(fleet).index(s.carrier) + 1
            state = put(state, "marker-stolos", f"zone-{fleet.name.lower()}", number)
        else:
            state = put(state, "marker-stolos", where(state, s.carrier))
    socials = iter(t for t in CAT.tiles_of(TileKind.SOCIAL))
    for path, social in zip(Path, s.socials, strict=True):
        if social:
            space = f"zone-{path.name.lower()}" if path.western else homeland(path)
            state = put(state, tid(next(socials)), space, back=social < 0)
    if s.event:
        state = put(state, "marker-military-event", "strategikon", s.event)
    if s.reforms:
        state = put(state, "marker-reforms", "reforms")
    if s.greek_fire:
        state = put(state, "outpost-lazica", "greek-fire")
    for riot, latins in zip(CAT.tiles_of(TileKind.RIOT), s.riots, strict=False):
        state = put(state, tid(riot), "constantinople", back=latins)
    if s.bulgar_thema:
        state = put(state, "marker-bulgar-thema", "zone-gamma")
    if s.church:
        state = put(state, "marker-bulgarian-church", "bulgarian-church", back=s.church < 0)
    if s.ravenna:
        state = put(state, "marker-ravenna", "zone-beta", back=s.ravenna < 0)
        # placed this Turn, so 8.4.1 does not turn it yet, however crowded Zone Β is
        state = set_counter(state, "ravenna-turn", state.turn)
    return state


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    zones = tuple(
        tuple(sorted(draw(st.sets(st.integers(1, 5), min_size=0, max_size=5)))) for _ in WEST
    )
    east = tuple(
        draw(st.none() | st.tuples(st.sampled_from(armies(path)), st.integers(1, 5)))
        for path in EAST
    )
    colonist = st.none() | st.tuples(st.sampled_from(EAST), st.integers(1, 5), st.booleans())
    carriers = [
        a for path, z in zip(WEST, zones, strict=True) for a in (armies(path)[n - 1] for n in z)
    ]
    carriers += [e[0] for e in east if e is not None]
    return Setup(
        zones=(zones[0], zones[1], zones[2]),
        strong=(draw(st.booleans()), draw(st.booleans()), draw(st.booleans())),
        east=(east[0], east[1], east[2]),
        colonists=(draw(colonist), draw(colonist)),
        carrier=draw(st.sampled_from(["", *carriers])),
        socials=tuple(draw(st.sampled_from((0, 1, -1))) for _ in Path),
        event=draw(st.integers(0, len(EVENTS))),
        reforms=draw(st.booleans()),
        greek_fire=draw(st.booleans()),
        riots=tuple(draw(st.lists(st.booleans(), max_size=3))),
        bulgar_thema=draw(st.booleans()),
        church=draw(st.sampled_from((0, 1, -1))),
        ravenna=draw(st.sampled_from((0, 1, -1))),
    )


def expected_targets(s: Setup, paths: tuple[Path, ...] = ()) -> list[str]:
    """10.6, 10.6.5, 10.6.7, 10.6.9.1-2 read off the description."""
    found: list[str] = []
    for path in paths or tuple(Path):
        if path.western:
            candidates = s.zone(path)
        else:
            e = s.eastern(path)
            candidates = [] if e is None else [e[0]]
        found += [a for a in candidates if a == s.carrier or not s.protected(a)]
    if not paths:
        found += [tid(r) for r in CAT.tiles_of(TileKind.RIOT)[: len(s.riots)]]
    return found


def expected_drm(s: Setup, target: str) -> int:
    """10.6.2 to 10.6.6.2 read off the description."""
    path = s.path_of(target)
    if path is None:  # Latins or Riot: none of the modifiers concerns them
        return 0
    total = 0
    if s.event and path in EVENTS[s.event - 1].paths:
        total += EVENTS[s.event - 1].drm
    if s.riots:
        total -= 1
    total += s.socials[path.value - 1]
    if s.greek_fire and target == s.carrier:
        total += 2
    if path is Path.GAMMA:
        total += (1 if s.bulgar_thema else 0) + s.church
    if path is Path.BETA:
        total += s.ravenna
    if s.reforms:
        if path.western and len(s.zone(path)) == 5:
            total += 1
        e = s.eastern(path)
        if not path.western and e is not None and e[1] == 1:
            total += 1
    return total


# -- 1.1 and 10.6: the roll ----------------------------------------------------------------


@pytest.mark.rule("10.6", "1.1")
@given(st.integers(1, 6), st.lists(st.integers(-3, 3), max_size=4), st.integers(0, 6))
def test_success_iff_the_modified_roll_beats_the_strength(
    natural: int, values: list[int], strength: int
) -> None:
    from byzantium.core.dice import Modifier

    drms = tuple(Modifier(v, f"m{i}") for i, v in enumerate(values))
    value = natural if natural in (1, 6) else natural + sum(values)
    assert attack_succeeds(natural, drms, strength) is (value > strength)


@pytest.mark.rule("1.1")
@given(st.lists(st.integers(-5, 5), max_size=4), st.integers(1, 5))
def test_a_natural_1_always_fails_and_a_natural_6_always_wins(
    values: list[int], strength: int
) -> None:
    from byzantium.core.dice import Modifier

    drms = tuple(Modifier(v, "x") for v in values)
    assert not attack_succeeds(1, drms, strength)
    assert attack_succeeds(6, drms, strength)


# -- 10.6, 10.6.5, 10.6.7, 10.6.9: targets ------------------------------------------------


@pytest.mark.rule("10.6", "10.6.5", "10.6.7", "10.6.9.1", "10.6.9.2")
@given(setups())
def test_exactly_the_legal_targets_are_offered(s: Setup) -> None:
    state = build(s)
    assert [tid(t) for t in legal_targets(CTX, state)] == expected_targets(s)
    asked = start(state, Attack("12.1"))
    if expected_targets(s):
        assert asked.pending is not None
        assert asked.pending.options == (
            Decline(),
            *(Select(t) for t in expected_targets(s)),
        )
    else:
        assert asked.pending is None


@pytest.mark.rule("10.6", "10.6.7")
@given(setups(), st.sets(st.sampled_from(tuple(Path)), min_size=1))
def test_targets_on_given_paths_exclude_constantinople(s: Setup, chosen: set[Path]) -> None:
    paths = tuple(sorted(chosen))
    state = build(s)
    offered = [tid(t) for t in legal_targets(CTX, state, paths)]
    assert offered == expected_targets(s, paths)
    assert not any(t.startswith("riot-") for t in offered)


@pytest.mark.rule("10.6")
@given(setups())
def test_never_the_last_army_of_a_zone_nor_a_homeland_army_without_a_stolos(s: Setup) -> None:
    state = build(s)
    offered = {tid(t) for t in legal_targets(CTX, state)}
    for path in WEST:
        zone = s.zone(path)
        if len(zone) == 1 and zone[0] != s.carrier:
            assert zone[0] not in offered
    for path in EAST:
        e = s.eastern(path)
        if e is not None and e[1] == 5 and e[0] != s.carrier:
            assert e[0] not in offered


@pytest.mark.rule("10.6.7")
def test_colonist_on_cilicia_protects_cilicia_jerusalem_and_damascus_not_ephesus() -> None:
    """The 10.6.7 example."""
    base = put(campaign(), "marker-colonist-1", "cilicia", back=False)
    seljuks = "army-zeta-seljuks"
    base = put(base, "army-zeta-nomads", "counter-tray")
    for space, attackable in (
        ("ephesus", True),
        ("cilicia", False),
        ("jerusalem", False),
        ("damascus", False),
    ):
        state = put(base, seljuks, space)
        assert (CAT.tile(seljuks) in legal_targets(CTX, state, (Path.ZETA,))) is attackable
    # A Pagan tile colonises nothing.
    state = put(put(base, seljuks, "jerusalem"), "marker-colonist-1", "cilicia", back=True)
    assert legal_targets(CTX, state, (Path.ZETA,)) == [CAT.tile(seljuks)]


@pytest.mark.rule("10.6.5", "10.6.7")
def test_a_stolos_makes_a_colonised_thema_attackable() -> None:
    state = put(campaign(), "marker-colonist-1", "cilicia", back=False)
    state = put(state, "army-zeta-nomads", "jerusalem")
    assert legal_targets(CTX, state, (Path.ZETA,)) == []
    state = put(state, "marker-stolos", "jerusalem")
    assert legal_targets(CTX, state, (Path.ZETA,)) == [CAT.tile("army-zeta-nomads")]
    # Treated as a Homeland: a victory sinks the fleet, the Army holds Jerusalem.
    after = attack(state, "army-zeta-nomads", 6)
    assert where(after, "army-zeta-nomads") == "jerusalem"
    assert where(after, "marker-stolos") == "lurking"


# -- 10.6.2 to 10.6.6.2: modifiers -----------------------------------------------------------


@pytest.mark.rule("10.6", "10.6.2", "10.6.3", "10.6.4", "10.6.5", "10.6.6", "10.6.6.1", "10.6.6.2")
@given(setups())
def test_modifiers_sum_as_the_rules_list_them(s: Setup) -> None:
    state = build(s)
    for target in legal_targets(CTX, state):
        drms = attack_drms(CTX, state, target)
        assert sum(m.value for m in drms) == expected_drm(s, tid(target))
        assert all(m.value != 0 and m.rule for m in drms)


@pytest.mark.rule("10.6.2")
def test_cataphracts_help_in_zone_alpha() -> None:
    """The 10.6.2 example: Cataphracts, a strength-3 Saracen Army in Zone Α, a roll of 3."""
    cataphracts = next(i for i, e in enumerate(EVENTS, start=1) if e.name == "Cataphracts")
    state = change_tribe(CTX, campaign(), Path.ALPHA, "tribe-alpha-saracens", "test")
    state = put(state, "army-alpha-2", "zone-alpha")
    state = put(state, "marker-military-event", "strategikon", cataphracts)
    target = CAT.tile("army-alpha-1")
    assert CAT.face(state.board, target).strength == 3
    drms = military_event_drm(CTX, state, target)
    assert [(m.value, m.source) for m in drms] == [(1, "Cataphracts")]
    state = answer(start(state, Attack("test")), Select("army-alpha-1"), Roll((3,)))
    assert where(state, "army-alpha-1") == "reserves-alpha"
    # Elsewhere the Cataphracts do nothing; on the waiting space no event applies.
    assert military_event_drm(CTX, state, CAT.tile("army-beta-1")) == ()
    parked = put(state, "marker-military-event", "strategikon-waiting")
    assert military_event_drm(CTX, parked, CAT.tile("army-alpha-2")) == ()


@pytest.mark.rule("10.6.3", "10.6.9.1")
def test_latins_hinder_attacks_elsewhere_but_not_on_themselves() -> None:
    state = put(campaign(), "riot-1", "constantinople", back=True)
    state = put(state, "riot-2", "constantinople", back=False)
    persia = CAT.tile("army-delta-persia")
    state = put(state, "army-delta-persia", "nicaea")
    assert [m.value for m in latins_and_riots_drm(CTX, state, persia)] == [-1]
    assert latins_and_riots_drm(CTX, state, CAT.tile("riot-1")) == ()
    assert attack_drms(CTX, state, CAT.tile("riot-2")) == ()


@pytest.mark.rule("10.6.4")
@given(st.sampled_from(tuple(Path)), st.booleans())
def test_a_social_counts_on_its_whole_path_only(path: Path, dynatoi: bool) -> None:
    space = f"zone-{path.name.lower()}" if path.western else homeland(path)
    state = put(campaign(), "social-1", space, back=dynatoi)
    targets = {
        Path.ALPHA: "army-alpha-1",
        Path.BETA: "army-beta-1",
        Path.GAMMA: "army-gamma-1",
        Path.DELTA: "army-delta-persia",
        Path.EPSILON: "army-epsilon-persia",
        Path.ZETA: "army-zeta-nomads",
    }
    for other, target in targets.items():
        values = [m.value for m in social_drm(CTX, state, CAT.tile(target))]
        assert values == ([-1 if dynatoi else 1] if other is path else [])


@pytest.mark.rule("10.6.5")
def test_greek_fire_adds_two_against_the_stolos_carrier_only_when_active() -> None:
    state = put(campaign(), "army-delta-persia", "paphlagonia")
    state = put(state, "marker-stolos", "paphlagonia")
    persia = CAT.tile("army-delta-persia")
    assert greek_fire_drm(CTX, state, persia) == ()
    lit = put(state, "outpost-lazica", "greek-fire")
    assert [m.value for m in greek_fire_drm(CTX, lit, persia)] == [2]
    other = put(lit, "army-epsilon-persia", "cappadocia")
    assert greek_fire_drm(CTX, other, CAT.tile("army-epsilon-persia")) == ()


@pytest.mark.rule("10.5", "10.5.1", "10.6.5")
def test_greek_fire_helps_while_lazica_lies_on_its_space_and_not_once_lost() -> None:
    """The +2 is printed in 10.6.5; it comes from Lazica on the Greek Fire space (10.5),
    not from having activated it once: Lazica lost (10.5.1), it helps no more."""
    state = put(campaign(), "army-delta-persia", "paphlagonia")
    state = put(state, "marker-stolos", "paphlagonia")
    lit = put(state, "outpost-lazica", "greek-fire")
    lost = remember(put(state, "outpost-lazica", "discarded"), "greek-fire")
    assert greek_fire_activated(CTX, lit) and greek_fire_activated(CTX, lost)
    # Strength 4: a natural 3 wins only with the +2 (3 + 2 = 5 > 4).
    won = attack(lit, "army-delta-persia", 3)
    assert where(won, "army-delta-persia") == "lesser-armenia"
    assert where(won, "marker-stolos") == "lurking"
    failed = attack(lost, "army-delta-persia", 3)
    assert where(failed, "army-delta-persia") == "paphlagonia"
    assert where(failed, "marker-stolos") == "paphlagonia"


@pytest.mark.rule("10.6.5", "E")
def test_the_millennium_has_greek_fire_against_the_stolos_from_its_setup() -> None:
    context = ctx(MILLENNIUM)
    state = put(millennium(), "marker-stolos", "melitene", game=MILLENNIUM)
    buyids = context.cat.tile("army-epsilon-buyids")
    assert [(m.value, m.rule) for m in greek_fire_drm(context, state, buyids)] == [(2, "10.6.5")]


@pytest.mark.rule("10.6.9.1", "10.6.9.2")
@pytest.mark.parametrize("latins", [False, True])
@pytest.mark.parametrize("riot", [f"riot-{n}" for n in range(1, 7)])
def test_riots_and_latins_fight_with_strength_two(riot: str, latins: bool) -> None:
    """Provisional data (the peer app's 2): an unmodified 2 fails, a 3 wins."""
    state = put(campaign(), riot, "constantinople", back=latins)
    assert attack_drms(CTX, state, CAT.tile(riot)) == ()
    assert where(attack(state, riot, 2), riot) == "constantinople"
    assert where(attack(state, riot, 3), riot) == "counter-tray"
    sources = {
        field: source
        for record, field, source in CAT.components.provenance()
        if record == f"tile {riot}" and field.endswith(".strength")
    }
    assert {field: source.kind for field, source in sources.items()} == {
        "front.strength": Provenance.PROVISIONAL,
        "back.strength": Provenance.PROVISIONAL,
    }


@pytest.mark.rule("10.6.6", "10.6.6.1")
def test_bulgar_thema_and_church_count_in_zone_gamma_only() -> None:
    state = put(campaign(), "marker-bulgar-thema", "zone-gamma")
    state = put(state, "marker-bulgarian-church", "bulgarian-church", back=True)
    gamma, alpha = CAT.tile("army-gamma-1"), CAT.tile("army-alpha-1")
    assert [m.value for m in bulgar_thema_drm(CTX, state, gamma)] == [1]
    assert [m.value for m in bulgarian_church_drm(CTX, state, gamma)] == [-1]
    assert bulgar_thema_drm(CTX, state, alpha) == bulgarian_church_drm(CTX, state, alpha) == ()
    orthodox = put(state, "marker-bulgarian-church", "bulgarian-church", back=False)
    assert [m.value for m in bulgarian_church_drm(CTX, orthodox, gamma)] == [1]
    assert bulgarian_church_drm(CTX, campaign(), gamma) == ()


@pytest.mark.rule("10.6.6")
def test_ravenna_helps_and_the_holy_roman_empire_hinders_on_path_beta() -> None:
    beta = CAT.tile("army-beta-1")
    state = put(campaign(), "marker-ravenna", "zone-beta")
    assert [m.value for m in ravenna_drm(CTX, state, beta)] == [1]
    hre = put(state, "marker-ravenna", "zone-beta", back=True)
    assert [(m.value, m.source) for m in ravenna_drm(CTX, hre, beta)] == [(-1, "Holy Roman Empire")]
    assert ravenna_drm(CTX, hre, CAT.tile("army-gamma-1")) == ()
    assert ravenna_drm(CTX, campaign(), beta) == ()


@pytest.mark.rule("10.6.6.2")
def test_greek_patriots_need_the_reforms_and_a_close_thema_or_a_full_zone() -> None:
    state = put(campaign(), "army-epsilon-persia", "amorion")
    persia = CAT.tile("army-epsilon-persia")
    assert greek_patriots_drm(CTX, state, persia) == ()
    reformed = put(state, "marker-reforms", "reforms")
    assert [m.value for m in greek_patriots_drm(CTX, reformed, persia)] == [1]
    farther = put(reformed, "army-epsilon-persia", "cappadocia")
    assert greek_patriots_drm(CTX, farther, persia) == ()
    full = reformed
    for army in armies(Path.BETA)[:4]:
        full = put(full, army, "zone-beta")
    assert greek_patriots_drm(CTX, full, CAT.tile("army-beta-1")) == ()
    full = put(full, "army-beta-5", "zone-beta")
    assert [m.value for m in greek_patriots_drm(CTX, full, CAT.tile("army-beta-1"))] == [1]


# -- resolution -------------------------------------------------------------------------------


def attack(state: SooState, target: str, natural: int, task: Task | None = None) -> SooState:
    return answer(start(state, task or Attack("test")), Select(target), Roll((natural,)))


@pytest.mark.rule("10.6", "10.6.1", "10.6.5", "10.6.9.1", "10.6.9.2")
@given(setups(), st.data(), st.integers(1, 6))
def test_an_attack_resolves_as_the_rules_say(s: Setup, data: st.DataObject, natural: int) -> None:
    state = build(s)
    targets = expected_targets(s)
    if not targets:
        return
    target = data.draw(st.sampled_from(targets))
    tile = CAT.tile(target)
    strength = CAT.face(state.board, tile).strength
    drm = expected_drm(s, target)
    won = (natural if natural in (1, 6) else natural + drm) > strength
    after = attack(state, target, natural)
    nike = marker(CTX, after, "nike") - marker(CTX, state, "nike")
    if not won:
        assert after.board == state.board
        assert after.pending is None
        return
    path = s.path_of(target)
    if path is None:  # Latins or Riot: back to the Counter Tray
        assert where(after, target) == "counter-tray"
        latins = state.board.back[tile]
        assert nike == (1 if latins else 0)
        if not latins:
            assert after.pending is not None and after.pending.kind is RequestKind.CHOOSE
        return
    assert nike == 1
    if target == s.carrier:
        assert where(after, "marker-stolos") == "lurking"
    else:
        assert where(after, "marker-stolos") == where(state, "marker-stolos")
    if s.protected(target):  # only the Stolos was beaten
        assert where(after, target) == where(state, target)
    elif path.western:
        assert where(after, target) == f"reserves-{path.name.lower()}"
    else:
        position = CAT.spaces[state.board.where[tile]].position
        assert where(after, target) == thema(path, position + 1)


@pytest.mark.rule("10.6", "10.6.1")
def test_the_bulgarian_example() -> None:
    """10.6: five Bulgar Armies in Γ; a 4 beats the strength-2 one, a 3 fails the strength-3 one."""
    state = change_tribe(CTX, campaign(), Path.GAMMA, "tribe-gamma-bulgars", "test")
    for army in armies(Path.GAMMA):
        state = put(state, army, "zone-gamma")
    two, three = "army-gamma-4", "army-gamma-2"
    assert CAT.face(state.board, CAT.tile(two)).strength == 2
    assert CAT.face(state.board, CAT.tile(three)).strength == 3
    state = attack(state, two, 4)
    assert where(state, two) == "reserves-gamma"
    assert marker(CTX, state, "nike") == 1
    state = attack(state, three, 3)
    assert where(state, three) == "zone-gamma"
    assert marker(CTX, state, "nike") == 1


@pytest.mark.rule("10.6", "10.6.6.2")
def test_the_seljuk_example() -> None:
    """10.6: strength-4 Seljuks in Ephesus; Greek Patriots +1; a 2 (3) fails, a 4 (5) wins."""
    state = put(campaign(), "army-zeta-nomads", "counter-tray")
    state = put(state, "army-zeta-seljuks", "ephesus")
    state = put(state, "marker-reforms", "reforms")
    seljuks = CAT.tile("army-zeta-seljuks")
    assert [m.source for m in attack_drms(CTX, state, seljuks)] == ["Greek Patriots"]
    events = events_of(start(state, Attack("test")), [Select("army-zeta-seljuks"), Roll((2,))])
    assert any("2 +1 (Greek Patriots) = 3" in e.text and e.rule == "10.6" for e in events)
    assert where(attack(state, "army-zeta-seljuks", 2), "army-zeta-seljuks") == "ephesus"
    assert where(attack(state, "army-zeta-seljuks", 4), "army-zeta-seljuks") == "cilicia"


@pytest.mark.rule("10.6")
def test_every_roll_is_logged_with_its_modifiers() -> None:
    state = put(campaign(), "army-delta-persia", "nicaea")
    state = put(state, "social-1", "iberia", back=True)
    state = put(state, "riot-1", "constantinople")
    events: list[Event] = events_of(
        start(state, Attack("test")), [Select("army-delta-persia"), Roll((5,))]
    )
    texts = [e.text for e in events if e.rule == "10.6"]
    assert any("5 -1 (Latins or Riots in Constantinople) -1 (Dynatoi) = 3" in t for t in texts)


@pytest.mark.rule("10.6")
def test_declining_changes_nothing_and_a_forced_single_target_is_not_asked() -> None:
    state = put(campaign(), "army-delta-persia", "nicaea")
    asked = start(state, Attack("test", (Path.DELTA,)))
    assert asked.pending is not None
    assert asked.pending.options == (Decline(), Select("army-delta-persia"))
    declined = answer(asked, Decline())
    assert declined.board == state.board and declined.pending is None
    forced = start(state, Attack("test", (Path.DELTA,), optional=False))
    assert forced.pending is not None and forced.pending.kind is RequestKind.ROLL


@pytest.mark.rule("10.6", "10.6.1")
def test_options_no_nike_and_no_modifiers() -> None:
    state = put(campaign(), "army-delta-persia", "nicaea")
    state = put(state, "riot-1", "constantinople")
    # With the Latins' -1 a 5 against strength 4 fails; ignoring modifiers it wins.
    assert where(attack(state, "army-delta-persia", 5), "army-delta-persia") == "nicaea"
    won = attack(state, "army-delta-persia", 5, Attack("test", ignore_drms=True, nike=False))
    assert where(won, "army-delta-persia") == "paphlagonia"
    assert marker(CTX, won, "nike") == 0


@pytest.mark.rule("10.6.1")
def test_nike_moves_one_space_and_stops_at_twelve() -> None:
    state = campaign()
    assert marker(CTX, gain_nike(CTX, state, "test"), "nike") == marker(CTX, state, "nike") + 1
    top = set_marker(CTX, state, "nike", 12)
    assert marker(CTX, gain_nike(CTX, top, "test"), "nike") == 12


@pytest.mark.rule("10.6.5")
def test_the_stolos_alone_is_beaten_on_a_lone_zone_army_or_a_homeland() -> None:
    state = put(campaign(), "marker-stolos", "zone-alpha", 1)
    assert stolos_carrier(CTX, state) == CAT.tile("army-alpha-1")
    after = attack(state, "army-alpha-1", 6)
    assert where(after, "army-alpha-1") == "zone-alpha"
    assert where(after, "marker-stolos") == "lurking"
    assert marker(CTX, after, "nike") == 1
    state = put(campaign(), "marker-stolos", "persia")
    after = attack(state, "army-epsilon-persia", 6)
    assert where(after, "army-epsilon-persia") == "persia"
    assert where(after, "marker-stolos") == "lurking"


@pytest.mark.rule("10.6.5")
def test_beating_a_stolos_carrier_defeats_both_and_a_failure_leaves_the_stolos() -> None:
    state = put(campaign(), "army-alpha-4", "zone-alpha")
    state = put(state, "marker-stolos", "zone-alpha", 4)
    after = attack(state, "army-alpha-4", 6)
    assert where(after, "army-alpha-4") == "reserves-alpha"
    assert where(after, "marker-stolos") == "lurking"
    failed = attack(state, "army-alpha-4", 1)
    assert where(failed, "marker-stolos") == "zone-alpha"
    assert stolos_carrier(CTX, failed) == CAT.tile("army-alpha-4")


@pytest.mark.rule("10.6.9.1", "10.6.1")
def test_defeated_latins_go_to_the_tray_and_give_nike() -> None:
    state = put(campaign(), "riot-1", "constantinople", back=True)
    after = attack(state, "riot-1", 3)
    assert where(after, "riot-1") == "counter-tray"
    assert marker(CTX, after, "nike") == 1
    assert after.pending is None


@pytest.mark.rule("10.6.9.2")
def test_a_defeated_riot_gives_no_nike_and_sends_a_chosen_faction_to_space_two() -> None:
    state = put(campaign(), "riot-1", "constantinople")
    state = put(state, "faction-walls", "constantinople")
    after = attack(state, "riot-1", 3)
    assert where(after, "riot-1") == "counter-tray"
    assert marker(CTX, after, "nike") == 0
    assert after.pending is not None
    offered = [o for o in after.pending.options if isinstance(o, Select)]
    assert Select("faction-walls") not in offered
    assert Select("faction-7") in offered
    assert len(offered) == len(after.pending.options) == 9
    chosen = answer(after, Select("faction-7"))
    assert where(chosen, "faction-7") == "omnibus"
    assert chosen.board.value[CAT.tile("faction-7")] == 2
    assert where(chosen, "faction-walls") == "constantinople"


@pytest.mark.rule("10.6.9.2")
def test_with_one_faction_besides_the_walls_no_choice_is_asked() -> None:
    state = put(campaign(), "riot-1", "constantinople")
    for n in range(3, 11):
        state = put(state, f"faction-{n}", "omnibus", 3)
    after = attack(state, "riot-1", 3)
    assert after.pending is None
    assert where(after, "faction-11") == "omnibus"
    assert after.board.value[CAT.tile("faction-11")] == 2


# -- Repulse -----------------------------------------------------------------------------------


@pytest.mark.rule("10.6")
@given(st.sampled_from(EAST), st.integers(1, 5), st.booleans())
def test_repulse_keeps_an_eastern_army_on_its_path_never_past_the_homeland(
    path: Path, position: int, stolos: bool
) -> None:
    army = armies(path)[0]
    state = campaign()
    for other in armies(path):
        state = put(state, other, "counter-tray")
    state = put(state, army, thema(path, position))
    if stolos:
        state = put(state, "marker-stolos", thema(path, position))
    after = start(state, Repulse(path, "test"))
    assert where(after, army) == thema(path, min(position + 1, 5))
    if stolos:  # not an attack: the fleet rides on with its Army
        assert stolos_carrier(CTX, after) == CAT.tile(army)


@pytest.mark.rule("10.6")
@given(st.sampled_from(WEST), st.sets(st.integers(1, 5), min_size=1), st.booleans())
def test_repulse_withdraws_the_weakest_western_army_but_never_the_last(
    path: Path, numbers: set[int], strong: bool
) -> None:
    ids = armies(path)
    zone = [ids[n - 1] for n in sorted(numbers)]
    state = campaign()
    for army in ids:
        space = f"zone-{path.name.lower()}" if army in zone else f"reserves-{path.name.lower()}"
        state = put(state, army, space, back=not strong)
    after = start(state, Repulse(path, "test"))
    left = [a for a in ids if where(after, a) == f"zone-{path.name.lower()}"]
    if len(zone) == 1:
        assert left == zone
        return
    assert len(left) == len(zone) - 1
    (gone,) = set(zone) - set(left)
    assert where(after, gone) == f"reserves-{path.name.lower()}"
    strengths = [CAT.face(state.board, CAT.tile(a)).strength for a in zone]
    assert CAT.face(state.board, CAT.tile(gone)).strength == min(strengths)


@pytest.mark.rule("10.6")
def test_repulse_of_a_named_army_and_a_stolos_left_in_the_zone() -> None:
    state = put(campaign(), "army-alpha-2", "zone-alpha")
    state = put(state, "army-alpha-5", "zone-alpha")
    state = put(state, "marker-stolos", "zone-alpha", 1)
    after = start(state, Repulse(Path.ALPHA, "6.7.3.1", "army-alpha-1"))
    assert where(after, "army-alpha-1") == "reserves-alpha"
    # Only a won attack sinks the fleet; it now rides the weakest Army left.
    assert stolos_carrier(CTX, after) == CAT.tile("army-alpha-5")


@pytest.mark.rule("10.6")
def test_the_mongols_can_be_attacked_and_pushed_back() -> None:
    state = put(campaign(), "army-epsilon-persia", "counter-tray")
    state = put(state, "marker-mongols-epsilon", "cappadocia")
    assert CAT.tile("marker-mongols-epsilon") in legal_targets(CTX, state, (Path.EPSILON,))
    after = attack(state, "marker-mongols-epsilon", 6)
    assert where(after, "marker-mongols-epsilon") == "melitene"


# -- lone-army attacks (8.4.1 Tricameron, Kleidion) -------------------------------------------


@attrs.frozen
class _Mark(Task):
    """A follow-up that records it ran."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return attrs.evolve(state, done=state.done | {"marked"})


@pytest.mark.rule("10.6")
def test_a_lone_attack_targets_only_a_lone_army_and_leaves_it_in_place() -> None:
    state = put(campaign(), "army-beta-2", "zone-beta", back=True)
    task = Attack("8.4.1", (Path.ALPHA, Path.BETA), lone=True, on_success=(_Mark(),))
    assert legal_targets(CTX, state, task.paths, lone=True) == [CAT.tile("army-alpha-1")]
    after = attack(state, "army-alpha-1", 6, task)
    assert where(after, "army-alpha-1") == "zone-alpha"
    assert "marked" in after.done
    assert marker(CTX, after, "nike") == 1
    lost = attack(state, "army-alpha-1", 1, task)
    assert "marked" not in lost.done


# -- what the paid attacks of the Action Phase use (battles.py) -------------------------------


@pytest.mark.rule("10.6")
@given(setups(), st.data(), st.integers(0, 12))
def test_a_given_target_is_attacked_without_asking_and_paid_for_before_the_roll(
    s: Setup, data: st.DataObject, money: int
) -> None:
    targets = expected_targets(s)
    if not targets:
        return
    target = data.draw(st.sampled_from(targets))
    cost = data.draw(st.integers(0, money))
    state = set_marker(CTX, build(s), "solidus", money)
    asked = start(state, Attack("test", target=target, cost=cost, optional=False))
    assert asked.pending is not None and asked.pending.kind is RequestKind.ROLL
    assert marker(CTX, asked, "solidus") == money - cost
    assert set_marker(CTX, asked, "solidus", money).board == state.board


@pytest.mark.rule("10.6")
def test_paying_more_than_the_treasury_holds_is_refused() -> None:
    state = set_marker(CTX, put(campaign(), "army-delta-persia", "nicaea"), "solidus", 1)
    with pytest.raises(ValueError, match="treasury"):
        start(state, Attack("test", target="army-delta-persia", cost=2))


@pytest.mark.rule("10.6")
def test_a_given_target_out_of_reach_is_not_attacked_nor_paid_for() -> None:
    state = set_marker(CTX, campaign(), "solidus", 3)  # Persia is on its Homeland
    after = start(state, Attack("test", target="army-delta-persia", cost=1))
    assert after.pending is None
    assert after.board == state.board


@pytest.mark.rule("10.6", "10.8")
@given(st.integers(1, 6), st.integers(-2, 3))
def test_the_attackers_own_modifiers_count_and_a_defeat_runs_its_consequences(
    natural: int, extra: int
) -> None:
    from byzantium.core.dice import Modifier

    state = put(campaign(), "army-delta-persia", "paphlagonia")
    mods = (Modifier(extra, "general", "10.8"),) if extra else ()
    task = Attack("test", target="army-delta-persia", extra=mods, on_failure=(_Mark(),))
    after = answer(start(state, task), Roll((natural,)))
    won = (natural if natural in (1, 6) else natural + extra) > 4
    assert (where(after, "army-delta-persia") == "lesser-armenia") is won
    assert ("marked" in after.done) is not won


@pytest.mark.rule("10.6.5", "10.13")
@given(setups(), st.sets(st.sampled_from(tuple(Path))))
def test_an_attack_that_may_not_pay_for_the_fleet_leaves_its_army_out(
    s: Setup, chosen: set[Path]
) -> None:
    paths = tuple(sorted(chosen))
    state = build(s)
    offered = [tid(t) for t in legal_targets(CTX, state, paths, fleet=False)]
    assert offered == [t for t in expected_targets(s, paths) if t != s.carrier]
