"""The missions of the golden Basileus (rules 10.7, 10.7.1-10.7.12).

The properties draw boards of any Turn (:func:`mission_states`: the start-of-Turn
boards of the strategies module, with the golden Basileus, the grey Basileus and
the tiles missions act on scattered about) and check each mission against what
the rulebook says: when it is offered, when it succeeds, what it does, and where
the golden Basileus goes afterwards.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy import infrastructure
from byzantium.sword_of_orthodoxy.action_phase import ActionPhase
from byzantium.sword_of_orthodoxy.combat import (
    attack_drms,
    attack_succeeds,
    only_the_stolos,
    stolos_carrier,
)
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import golden_basileus_ready, schism_level
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.missions import (
    LAST_TURN,
    BasileusMission,
    battle_cost,
    exile,
    mission_succeeds,
    offers,
)
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    RequestKind,
    Roll,
    Select,
    SooState,
)
from byzantium.sword_of_orthodoxy.tax import CaliphRoll, KanRoll
from byzantium.sword_of_orthodoxy.turn_start import ChronographiaDeployments
from byzantium.sword_of_orthodoxy.world import marker, set_marker
from tests.sword_of_orthodoxy.strategies import start_of_turn_states
from tests.sword_of_orthodoxy.support import (
    GAME,
    answer,
    campaign,
    ctx,
    idle,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"

C = ctx()
CAT = C.cat
GOLDEN = "basileus-golden"
GREY = [
    "basileus-john-andronikos",
    "basileus-basil-constantine",
    "basileus-alexios-leo",
    "basileus-constantine-romanos",
    "basileus-nikephoros-michael",
]
#: (tile, face) of a grey Basileus with and without a sword or a cross.
SWORD = ("basileus-nikephoros-michael", False)
NO_SWORD = ("basileus-nikephoros-michael", True)
CROSS = ("basileus-constantine-romanos", False)
NO_CROSS = ("basileus-constantine-romanos", True)
PATH_SPACES = ["zone-alpha", "zone-beta", "zone-gamma", "iberia", "persia", "syria"]
DIE = st.integers(1, 6)
#: The missions' offer verbs in rule order, 10.7.1 to 10.7.12.
VERBS = [
    "battle-sword",
    "battle",
    "confront",
    "orator",
    "naval-reforms",
    "taxation",
    "ecclesiastical-policy",
    "legislate",
    "slavery",
    "reformer",
    "expel",
    "pandidakterion",
]


def tid(tile: int) -> str:
    return CAT.tiles[tile].id


def value(state: SooState, tile_id: str) -> int:
    return state.board.value[CAT.tile(tile_id)]


def back(state: SooState, tile_id: str) -> bool:
    return state.board.back[CAT.tile(tile_id)]


def thema(path: Path, position: int) -> str:
    return CAT.spaces[CAT.themas(path)[position - 1]].id


def items(state: SooState, game: SwordOfOrthodoxy = GAME) -> list[str]:
    return [offer.item for offer in offers(Context(game, None), state)]


def ruler(state: SooState, grey: tuple[str, bool]) -> SooState:
    """The board with one grey Basileus ruling, the others in the mug."""
    for tile in CAT.tiles_of(TileKind.BASILEUS):
        if state.board.where[tile] == CAT.space("basileus"):
            state = put(state, tid(tile), "basileus-mug")
    return put(state, grey[0], "basileus", back=grey[1])


def board(turn: int = 5, solidus: int = 0, grey: tuple[str, bool] = NO_SWORD) -> SooState:
    """The Campaign's setup on ``turn``, idle in the Action Phase, with a chosen Basileus."""
    state = attrs.evolve(idle(campaign()), turn=turn)
    state = ruler(put(state, "basileus-theodosius", "discarded"), grey)
    return set_marker(C, state, "solidus", solidus)


def offer_task(state: SooState, item: str, game: SwordOfOrthodoxy = GAME) -> BasileusMission:
    found = [o.task for o in offers(Context(game, None), state) if o.item == item]
    assert len(found) == 1, f"{item} offered {len(found)} times in {items(state, game)}"
    task = found[0]
    assert isinstance(task, BasileusMission)
    return task


def run(state: SooState, item: str, *faces: int, game: SwordOfOrthodoxy = GAME) -> SooState:
    """Choose an offered mission and roll ``faces`` for it."""
    state = start(state, offer_task(state, item, game), game=game)
    assert state.pending is not None and state.pending.kind is RequestKind.ROLL
    assert state.pending.dice == len(faces)
    return answer(state, Roll(tuple(faces)), game=game)


def exiled_to(state: SooState, turns: int) -> str:
    due = state.turn + turns
    return f"chronographia-{due}" if due <= LAST_TURN else "discarded"


# -- boards for the properties -----------------------------------------------------------


@st.composite
def mission_states(
    draw: st.DrawFn, turn: int | None = None, ready: bool | None = None
) -> tuple[SwordOfOrthodoxy, SooState]:
    """A board of some Turn in the Action Phase, with mission material scattered about."""
    game, state = draw(start_of_turn_states(turn=turn))
    state = idle(state)
    # No Akritai: their adjustments (10.4.2) are tested with the infrastructure.
    for akritai in ("akritai-1", "akritai-2"):
        state = put(state, akritai, "counter-tray")
    state = ruler(state, (draw(st.sampled_from(GREY)), draw(st.booleans())))
    state = set_marker(C, state, "solidus", draw(st.integers(0, 12)))
    # The golden Basileus: ready in Constantinople, plagued there, or away.
    if ready is None:
        ready = draw(st.booleans())
    if ready:
        state = put(state, GOLDEN, "constantinople", back=False)
    else:
        away = draw(
            st.sampled_from(
                ["constantinople", "hippodrome", "discarded"]
                + [f"chronographia-{t}" for t in range(state.turn + 1, LAST_TURN + 1)]
            )
        )
        state = put(state, GOLDEN, away, back=away == "constantinople" or draw(st.booleans()))
    # Leaders, the Stolos, Socials, a Colonist, Factions, the Reforms.
    state = put(state, "marker-kan", draw(st.sampled_from([*PATH_SPACES, "counter-tray"])))
    state = put(
        state,
        "marker-caliph",
        draw(st.sampled_from([*PATH_SPACES, "counter-tray"])),
        back=draw(st.booleans()),
    )
    stolos = draw(st.sampled_from(["lurking", "counter-tray", *PATH_SPACES]))
    state = put(state, "marker-stolos", stolos)
    for social in draw(st.lists(st.sampled_from(["social-1", "social-2", "social-3"]))):
        state = put(state, social, draw(st.sampled_from(PATH_SPACES)), back=draw(st.booleans()))
    path = draw(st.sampled_from([Path.EPSILON, Path.ZETA]))
    state = put(
        state, "marker-colonist-1", thema(path, draw(st.integers(1, 5))), back=draw(st.booleans())
    )
    for faction in draw(st.lists(st.sampled_from(["faction-3", "faction-4", "faction-walls"]))):
        state = put(state, faction, "omnibus", draw(st.integers(1, 12)))
    if draw(st.booleans()):
        state = put(state, "marker-reforms", "reforms")
    else:
        state = put(state, "marker-reforms", "omnibus", draw(st.integers(0, 12)))
    return game, state


# -- 10.7: committing the golden Basileus ------------------------------------------------


@pytest.mark.rule("10.7", "2.5")
@given(mission_states())
def test_missions_are_offered_only_while_the_basileus_is_golden_in_constantinople(
    drawn: tuple[SwordOfOrthodoxy, SooState],
) -> None:
    game, state = drawn
    found = items(state, game)
    ready = where(state, GOLDEN) == "constantinople" and not back(state, GOLDEN)
    assert bool(found) == ready
    if ready:
        assert "mission taxation" in found


@pytest.mark.rule("10.7", "8.4.1")
@pytest.mark.parametrize("away", ["hippodrome", "chronographia-9", "discarded"])
def test_a_plagued_or_absent_basileus_goes_on_no_mission(away: str) -> None:
    plagued = put(board(solidus=12, grey=CROSS), GOLDEN, "constantinople", back=True)
    assert not golden_basileus_ready(C, plagued)
    assert items(plagued) == []
    assert items(put(board(solidus=12, grey=CROSS), GOLDEN, away)) == []
    cured = put(plagued, GOLDEN, "constantinople", back=False)
    assert "mission ecclesiastical-policy" in items(cured)


@pytest.mark.rule("10.7")
@given(mission_states(ready=True))
def test_offer_items_are_unique_missions_and_every_one_uses_up_the_basileus(
    drawn: tuple[SwordOfOrthodoxy, SooState],
) -> None:
    game, state = drawn
    found = items(state, game)
    assert len(found) == len(set(found))
    assert all(item.startswith("mission ") for item in found)
    assert found == items(state, game)
    order = [VERBS.index(item.split()[1]) for item in found]
    assert order == sorted(order)


@pytest.mark.rule("10.7")
@given(DIE)
def test_success_is_a_roll_of_2_to_5(roll: int) -> None:
    assert mission_succeeds(roll) == (2 <= roll <= 5)


@pytest.mark.rule("10.7", "10.7.1")
@given(mission_states(ready=True), st.data())
def test_win_or_lose_the_basileus_is_exiled_for_the_roll(
    drawn: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    game, state = drawn
    chosen = data.draw(st.sampled_from(items(state, game)))
    faces = (data.draw(DIE), data.draw(DIE)) if "battle-sword" in chosen else (data.draw(DIE),)
    after = run(state, chosen, *faces, game=game)
    assert where(after, GOLDEN) == exiled_to(state, min(faces))
    assert not back(after, GOLDEN)
    assert items(after, game) == []


@pytest.mark.rule("10.7", "11.11")
@pytest.mark.parametrize(("turn", "roll", "space"), [(24, 3, "chronographia-27"), (25, 3, "")])
def test_an_exile_past_turn_27_never_ends(turn: int, roll: int, space: str) -> None:
    after = run(board(turn=turn), "mission taxation", roll)
    assert where(after, GOLDEN) == (space or "discarded")


@pytest.mark.rule("10.7", "5.1")
def test_the_exiled_basileus_comes_back_on_his_turn() -> None:
    after = run(board(turn=5), "mission taxation", 6)
    assert where(after, GOLDEN) == "chronographia-11"
    for turn in range(6, 11):
        assert where(start(attrs.evolve(after, turn=turn), ChronographiaDeployments()), GOLDEN) == (
            "chronographia-11"
        )
    back_home = start(attrs.evolve(after, turn=11), ChronographiaDeployments())
    assert where(back_home, GOLDEN) == "constantinople"
    assert "mission taxation" in items(back_home)


@pytest.mark.rule("10.7")
def test_exile_moves_any_tile_forward_on_the_chronographia() -> None:
    state = board(turn=20)
    assert where(exile(C, state, CAT.tile("marker-kan"), 7, "10.7.3"), "marker-kan") == (
        "chronographia-27"
    )
    assert where(exile(C, state, CAT.tile("marker-kan"), 8, "10.7.3"), "marker-kan") == (
        "discarded"
    )


@pytest.mark.rule("10.7", "10.0")
def test_the_action_phase_lists_the_missions_and_runs_the_chosen_one() -> None:
    state = start(board(turn=5, solidus=2), ActionPhase())
    assert state.pending is not None
    listed = [o.item for o in state.pending.options if isinstance(o, Select)]
    assert "mission taxation" in listed
    state = answer(state, Select("mission taxation"), Roll((4,)))
    assert marker(C, state, "solidus") == 6
    assert where(state, GOLDEN) == "chronographia-9"
    assert state.pending is not None and state.pending.rule == "10.0"
    assert not [o for o in state.pending.options if isinstance(o, Select) and "mission" in o.item]
    assert answer(state, Decline()).pending is None


# -- 10.7.1, 10.7.2: battles -------------------------------------------------------------


def battle_board(grey: tuple[str, bool], solidus: int = 3) -> SooState:
    """Three Armies in Zone Β, the Persians of Ε in Cappadocia."""
    state = board(turn=6, solidus=solidus, grey=grey)
    for army in ("army-beta-2", "army-beta-3"):
        state = put(state, army, "zone-beta")
    return put(state, "army-epsilon-persia", "cappadocia")


def expected_defeat(state: SooState, army: str) -> str:
    """Where an Army ends up when the Basileus beats it."""
    tile = CAT.tile(army)
    if only_the_stolos(C, state, tile):
        return where(state, army)
    path = CAT.tiles[tile].path
    assert path is not None
    if path.western:
        return f"reserves-{path.name.lower()}"
    themas = CAT.themas(path)
    return CAT.spaces[themas[themas.index(state.board.where[tile]) + 1]].id


@pytest.mark.rule("10.7.1", "10.7.2")
def test_a_sword_decides_which_battle_mission_is_offered() -> None:
    armed = items(battle_board(SWORD))
    unarmed = items(battle_board(NO_SWORD))
    targets = {"army-beta-1", "army-beta-2", "army-beta-3", "army-epsilon-persia"}
    assert {i.removeprefix("mission battle-sword ") for i in armed if "battle" in i} == targets
    assert {i.removeprefix("mission battle ") for i in unarmed if "battle" in i} == targets
    assert not [i for i in armed if i.startswith("mission battle ")]
    assert not [i for i in unarmed if i.startswith("mission battle-sword")]
    assert not [i for i in items(battle_board(SWORD, solidus=0)) if "battle" in i]


@pytest.mark.rule("10.7.1", "10.6", "10.6.1", "1.1")
@given(mission_states(ready=True), st.data())
def test_the_higher_die_of_a_sword_basileus_fights_an_ordinary_attack(
    drawn: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    game, state = drawn
    state = ruler(state, SWORD)
    battles = [i for i in items(state, game) if i.startswith("mission battle-sword ")]
    if not battles:
        return
    chosen = data.draw(st.sampled_from(battles))
    army = chosen.removeprefix("mission battle-sword ")
    tile = CAT.tile(army)
    faces = (data.draw(DIE), data.draw(DIE))
    strength = CAT.face(state.board, tile).strength
    won = attack_succeeds(max(faces), attack_drms(C, state, tile), strength)
    cost = battle_cost(C, state, tile)
    after = run(state, chosen, *faces, game=game)
    assert marker(C, after, "solidus") == marker(C, state, "solidus") - cost
    assert where(after, GOLDEN) == exiled_to(state, min(faces))
    assert where(after, army) == (expected_defeat(state, army) if won else where(state, army))
    nike = marker(C, state, "nike") + (1 if won else 0)
    assert marker(C, after, "nike") == min(nike, 12)


@pytest.mark.rule("10.7.1")
def test_two_dice_a_6_and_a_1_win_and_send_the_basileus_away_for_one_turn() -> None:
    state = battle_board(SWORD)
    after = run(state, "mission battle-sword army-epsilon-persia", 1, 6)
    assert where(after, "army-epsilon-persia") == "melitene"
    assert where(after, GOLDEN) == "chronographia-7"
    assert marker(C, after, "solidus") == 2
    lost = run(state, "mission battle-sword army-epsilon-persia", 2, 3)  # 3 beats no 4
    assert where(lost, "army-epsilon-persia") == "cappadocia"
    assert where(lost, GOLDEN) == "chronographia-8"


@pytest.mark.rule("10.7.2", "10.6", "10.6.1")
@given(mission_states(ready=True), st.data())
def test_a_basileus_without_a_sword_wins_on_2_to_5_whatever_the_strength(
    drawn: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    game, state = drawn
    state = ruler(state, NO_SWORD)
    battles = [i for i in items(state, game) if i.startswith("mission battle ")]
    if not battles:
        return
    chosen = data.draw(st.sampled_from(battles))
    army = chosen.removeprefix("mission battle ")
    roll = data.draw(DIE)
    won = 2 <= roll <= 5
    carried = stolos_carrier(C, state) == CAT.tile(army)
    cost = battle_cost(C, state, CAT.tile(army))
    after = run(state, chosen, roll, game=game)
    assert marker(C, after, "solidus") == marker(C, state, "solidus") - cost
    assert where(after, army) == (expected_defeat(state, army) if won else where(state, army))
    assert marker(C, after, "nike") == min(marker(C, state, "nike") + won, 12)
    if carried:
        assert (where(after, "marker-stolos") == "lurking") == won
    assert where(after, GOLDEN) == exiled_to(state, roll)


@pytest.mark.rule("10.7.2")
def test_a_swordless_basileus_beats_a_strength_4_army_on_a_2() -> None:
    state = battle_board(NO_SWORD)
    assert CAT.face(state.board, CAT.tile("army-epsilon-persia")).strength == 4
    after = run(state, "mission battle army-epsilon-persia", 2)
    assert where(after, "army-epsilon-persia") == "melitene"
    assert marker(C, after, "solidus") == 2
    assert where(after, GOLDEN) == "chronographia-8"
    sixth = run(state, "mission battle army-beta-3", 6)
    assert where(sixth, "army-beta-3") == "zone-beta"
    assert where(sixth, GOLDEN) == "chronographia-12"


@pytest.mark.rule("10.7.2", "10.4.2")
def test_the_swordless_battle_roll_applies_to_the_target_path_alone() -> None:
    state = start(
        battle_board(NO_SWORD), offer_task(battle_board(NO_SWORD), "mission battle army-beta-2")
    )
    assert state.pending is not None and state.pending.path is Path.BETA
    sword = battle_board(SWORD)
    state = start(sword, offer_task(sword, "mission battle-sword army-beta-2"))
    assert state.pending is not None and state.pending.dice == 2 and state.pending.path is None


@pytest.mark.rule("10.7.1", "10.7.2", "10.6.5")
def test_the_basileus_pays_two_solidus_to_fight_the_stolos() -> None:
    state = put(battle_board(NO_SWORD, solidus=1), "marker-stolos", "cappadocia")
    assert battle_cost(C, state, CAT.tile("army-epsilon-persia")) == 2
    assert "mission battle army-epsilon-persia" not in items(state)
    assert "mission battle army-beta-2" in items(state)
    rich = set_marker(C, state, "solidus", 2)
    after = run(rich, "mission battle army-epsilon-persia", 3)
    assert marker(C, after, "solidus") == 0
    assert where(after, "marker-stolos") == "lurking"
    assert where(after, "army-epsilon-persia") == "melitene"
    # On its Homeland the Army is protected: 1 $, and only the fleet is sunk.
    home = put(put(state, "army-epsilon-persia", "persia"), "marker-stolos", "persia")
    assert battle_cost(C, home, CAT.tile("army-epsilon-persia")) == 1
    after = run(home, "mission battle army-epsilon-persia", 5)
    assert where(after, "army-epsilon-persia") == "persia"
    assert where(after, "marker-stolos") == "lurking"


@pytest.mark.rule("10.7.1", "10.7.2")
def test_the_basileus_fights_no_riot_and_no_latins() -> None:
    state = put(battle_board(SWORD), "riot-1", "constantinople")
    assert not [i for i in items(state) if "riot" in i]


# -- 10.7.3: the Kan and the Caliph ------------------------------------------------------


@pytest.mark.rule("10.7.3")
@given(st.sampled_from(PATH_SPACES), st.booleans(), st.booleans(), DIE)
def test_confronting_the_kan_or_the_caliph(space: str, fitna: bool, kan: bool, roll: int) -> None:
    state = put(board(turn=9), "marker-kan", space)
    state = put(state, "marker-caliph", space, back=fitna)
    found = [i for i in items(state) if i.startswith("mission confront")]
    expected = ["mission confront marker-kan"] + (
        [] if fitna else ["mission confront marker-caliph"]
    )
    assert found == expected
    leader = "marker-kan" if kan or fitna else "marker-caliph"
    after = run(state, f"mission confront {leader}", roll)
    assert where(after, leader) == (f"chronographia-{9 + roll}" if 2 <= roll <= 5 else space)
    assert where(after, GOLDEN) == f"chronographia-{9 + roll}"


@pytest.mark.rule("10.7.3")
def test_no_leader_to_confront_off_the_paths() -> None:
    state = put(put(board(), "marker-kan", "chronographia-7"), "marker-caliph", "counter-tray")
    assert not [i for i in items(state) if i.startswith("mission confront")]


@pytest.mark.rule("10.7.3", "7.2", "7.3", "5.1")
def test_an_exiled_leader_makes_no_roll_until_it_comes_back() -> None:
    state = put(put(board(turn=9), "marker-kan", "persia"), "marker-caliph", "syria")
    state = run(state, "mission confront marker-kan", 3)
    state = run(put(state, GOLDEN, "constantinople"), "mission confront marker-caliph", 2)
    assert start(attrs.evolve(state, turn=10), KanRoll(), CaliphRoll()).pending is None
    assert start(attrs.evolve(state, turn=11), KanRoll()).pending is None
    home = start(attrs.evolve(state, turn=11), ChronographiaDeployments())
    assert where(home, "marker-caliph") == "arabia"
    rolled = start(home, CaliphRoll())
    assert rolled.pending is not None and rolled.pending.rule == "7.3"
    home = start(attrs.evolve(state, turn=12), ChronographiaDeployments())
    assert where(home, "marker-kan") == "arabia"


# -- 10.7.4: the legendary orator --------------------------------------------------------


@pytest.mark.rule("10.7.4", "12.1")
@given(st.integers(1, 12), DIE)
def test_the_orator_brings_a_faction_back_by_the_roll(level: int, roll: int) -> None:
    state = put(put(board(), "faction-7", "omnibus", level), "faction-walls", "omnibus", 4)
    found = [i for i in items(state) if i.startswith("mission orator")]
    assert found == ["mission orator faction-hagia-sophia", "mission orator faction-7"]
    after = run(state, "mission orator faction-7", roll)
    if not 2 <= roll <= 5:
        assert (where(after, "faction-7"), value(after, "faction-7")) == ("omnibus", level)
    elif roll >= level:
        assert where(after, "faction-7") == "constantinople"
    else:
        assert (where(after, "faction-7"), value(after, "faction-7")) == ("omnibus", level - roll)
    assert (where(after, "faction-walls"), value(after, "faction-walls")) == ("omnibus", 4)


@pytest.mark.rule("10.7.4")
def test_no_orator_when_only_the_walls_are_out() -> None:
    state = put(board(), "faction-hagia-sophia", "constantinople")
    assert not [i for i in items(state) if i.startswith("mission orator")]


# -- 10.7.5: naval reforms ---------------------------------------------------------------


@pytest.mark.rule("10.7.5", "5.1")
@given(st.sampled_from(["lurking", "zone-alpha", "persia"]), DIE)
def test_naval_reforms_send_the_stolos_away_and_it_lurks_again_afterwards(
    space: str, roll: int
) -> None:
    state = put(board(turn=4), "marker-stolos", space)
    after = run(state, "mission naval-reforms", roll)
    if 2 <= roll <= 5:
        assert where(after, "marker-stolos") == f"chronographia-{4 + roll}"
        home = start(attrs.evolve(after, turn=4 + roll), ChronographiaDeployments())
        assert where(home, "marker-stolos") == "lurking"
    else:
        assert where(after, "marker-stolos") == space


@pytest.mark.rule("10.7.5")
@pytest.mark.parametrize("space", ["counter-tray", "discarded", "chronographia-8"])
def test_no_naval_reforms_without_a_stolos_in_play(space: str) -> None:
    assert "mission naval-reforms" not in items(put(board(), "marker-stolos", space))


# -- 10.7.6: ruinous taxation ------------------------------------------------------------


@pytest.mark.rule("10.7.6", "7.1")
@given(st.integers(0, 12), DIE)
def test_ruinous_taxation_gains_the_roll_up_to_12(solidus: int, roll: int) -> None:
    after = run(board(solidus=solidus), "mission taxation", roll)
    gain = roll if 2 <= roll <= 5 else 0
    assert marker(C, after, "solidus") == min(12, solidus + gain)


# -- 10.7.7: ecclesiastical policy -------------------------------------------------------


@pytest.mark.rule("10.7.7", "2.6")
@given(st.integers(0, 12), DIE)
def test_ecclesiastical_policy_lowers_the_schism_by_the_roll(schism: int, roll: int) -> None:
    state = set_marker(C, board(grey=CROSS), "schism", schism)
    assert "mission ecclesiastical-policy" not in items(ruler(state, NO_CROSS))
    after = run(state, "mission ecclesiastical-policy", roll)
    drop = roll if 2 <= roll <= 5 else 0
    assert schism_level(C, after) == max(0, schism - drop)


# -- 10.7.8: legislate -------------------------------------------------------------------


@pytest.mark.rule("10.7.8", "5.1")
@given(st.sampled_from(PATH_SPACES), DIE)
def test_legislating_sends_a_dynatoi_away(space: str, roll: int) -> None:
    state = put(board(turn=12), "social-4", space, back=True)
    state = put(state, "social-5", space, back=False)
    found = [i for i in items(state) if i.startswith("mission legislate")]
    assert found == ["mission legislate social-4"]
    after = run(state, "mission legislate social-4", roll)
    if 2 <= roll <= 5:
        assert where(after, "social-4") == f"chronographia-{12 + roll}"
        home = start(attrs.evolve(after, turn=12 + roll), ChronographiaDeployments())
        assert where(home, "social-4") == "counter-tray" and not back(home, "social-4")
    else:
        assert where(after, "social-4") == space


# -- 10.7.9: slavery ---------------------------------------------------------------------


@pytest.mark.rule("10.7.9")
@given(mission_states(ready=True))
def test_slavery_is_offered_only_on_turns_1_to_11(drawn: tuple[SwordOfOrthodoxy, SooState]) -> None:
    game, state = drawn
    slavery = [i for i in items(state, game) if i.startswith("mission slavery")]
    if state.turn > 11:
        assert slavery == []
    else:
        context = Context(game, None)
        expected = [
            f"mission slavery hospital {s}" for s in infrastructure.hospital_sites(context, state)
        ]
        expected += [
            f"mission slavery monastery {s}" for s in infrastructure.monastery_sites(context, state)
        ]
        assert slavery == expected


@pytest.mark.rule("10.7.9", "10.3")
@given(st.sampled_from(["hospital", "monastery"]), DIE)
def test_slaves_build_for_nothing(kind: str, roll: int) -> None:
    state = board(turn=7, solidus=0)
    offered = [i for i in items(state) if i.startswith(f"mission slavery {kind} ")]
    assert offered
    site = offered[0].split()[-1]
    after = run(state, offered[0], roll)
    built = [
        t
        for t in CAT.tiles_of(TileKind.HOSPITAL if kind == "hospital" else TileKind.MONASTERY)
        if where(after, tid(t)) == site
    ]
    assert bool(built) == (2 <= roll <= 5)
    assert marker(C, after, "solidus") == 0


# -- 10.7.10: the visionary reformer -----------------------------------------------------


@pytest.mark.rule("10.7.10", "5.3.4")
@given(st.integers(0, 12), DIE)
def test_the_reformer_advances_the_reforms(level: int, roll: int) -> None:
    state = put(board(), "marker-reforms", "omnibus", level)
    after = run(state, "mission reformer", roll)
    if not 2 <= roll <= 5:
        assert value(after, "marker-reforms") == level
    elif level + roll > 12:
        assert where(after, "marker-reforms") == "reforms"
    else:
        assert (where(after, "marker-reforms"), value(after, "marker-reforms")) == (
            "omnibus",
            level + roll,
        )


@pytest.mark.rule("10.7.10")
def test_no_reformer_once_the_reforms_are_achieved() -> None:
    assert "mission reformer" not in items(put(board(), "marker-reforms", "reforms"))


# -- 10.7.11: expelling the Colonists ----------------------------------------------------


@pytest.mark.rule("10.7.11", "2.2.1")
@given(st.sampled_from([Path.EPSILON, Path.ZETA]), st.integers(1, 5), st.integers(1, 5), DIE)
def test_expelling_colonists_next_to_byzantine_land(
    path: Path, colonist: int, army: int, roll: int
) -> None:
    armies = {Path.EPSILON: "army-epsilon-persia", Path.ZETA: "army-zeta-nomads"}
    state = put(board(), armies[path], thema(path, army))
    state = put(state, "marker-colonist-2", thema(path, colonist), back=False)
    adjacent = colonist < 5 and (colonist == 1 or army >= colonist)
    offered = "mission expel marker-colonist-2" in items(state)
    assert offered == adjacent
    assert "mission expel marker-colonist-1" not in items(state)
    if offered:
        after = run(state, "mission expel marker-colonist-2", roll)
        moved = colonist + (1 if 2 <= roll <= 5 else 0)
        assert where(after, "marker-colonist-2") == thema(path, moved)


@pytest.mark.rule("10.7.11")
def test_a_pagan_tile_is_not_expelled() -> None:
    state = put(board(), "marker-colonist-2", "melitene", back=True)
    assert not [i for i in items(state) if i.startswith("mission expel")]


# -- 10.7.12: the Pandidakterion ---------------------------------------------------------


@pytest.mark.rule("10.7.12", "6.3")
def test_the_university_is_built_from_turn_2_once_nestorius_has_gone() -> None:
    assert "mission pandidakterion" not in items(board(turn=5))  # Nestorius in office
    deposed = put(board(turn=1), "patriarch-nestorius", "counter-tray", back=True)
    assert "mission pandidakterion" not in items(deposed)
    state = attrs.evolve(deposed, turn=2)
    assert "mission pandidakterion" in items(state)
    failed = run(state, "mission pandidakterion", 1)
    assert where(failed, "patriarch-nestorius") == "counter-tray"
    built = run(state, "mission pandidakterion", 4)
    assert where(built, "patriarch-nestorius") == "constantinople"
    assert back(built, "patriarch-nestorius")
    standing = put(built, GOLDEN, "constantinople")
    assert "mission pandidakterion" not in items(standing)
