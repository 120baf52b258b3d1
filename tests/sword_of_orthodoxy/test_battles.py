"""The battles of the Byzantine Action Phase (10.6, 10.6.5, 10.6.8, 10.6.9.1-2, 10.8, 10.13).

Boards come from the small descriptions of ``test_combat`` (:class:`Setup`), which
already say what the rulebook makes of them: legal targets and modifiers. Here the
properties add what the Action Phase adds: the price of each attack, who fights,
and that no sequence of battles goes on for ever.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import attrs
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy import missions
from byzantium.sword_of_orthodoxy.action_phase import ActionPhase
from byzantium.sword_of_orthodoxy.battles import (
    Hippodrome,
    attack_cost,
    magister_ready,
    offers,
    soldier_emperor_fact,
    stolos_affordable,
    stolos_payments,
    withdrawable_paths,
)
from byzantium.sword_of_orthodoxy.combat import stolos_carrier
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.end_of_turn import FlipUsedTiles
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, push
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
    GAME,
    answer,
    campaign,
    ctx,
    events_of,
    put,
    start,
    where,
)
from tests.sword_of_orthodoxy.test_combat import (
    Setup,
    armies,
    build,
    expected_drm,
    expected_targets,
    setups,
    thema,
)

RULEBOOK = "sword-of-orthodoxy"

CTX = ctx()
CAT = CTX.cat
WEST = (Path.ALPHA, Path.BETA, Path.GAMMA)
EAST = (Path.DELTA, Path.EPSILON, Path.ZETA)
#: Turn 3 names Belisarius as Magister Militum; Turn 2 names nobody.
GENERAL_TURN = 3
QUIET_TURN = 2


def tid(tile: int) -> str:
    return CAT.tiles[tile].id


def solidus(state: SooState) -> int:
    return marker(CTX, state, "solidus")


def nike(state: SooState) -> int:
    return marker(CTX, state, "nike")


def with_solidus(state: SooState, amount: int) -> SooState:
    return set_marker(CTX, state, "solidus", amount)


def on_turn(state: SooState, turn: int) -> SooState:
    return attrs.evolve(state, turn=turn)


def items(state: SooState) -> list[str]:
    return [offer.item for offer in offers(CTX, state)]


def take(state: SooState, item: str, *actions: SooAction) -> SooState:
    """Carry out one offered battle, answering its requests with ``actions``."""
    task = next(offer.task for offer in offers(CTX, state) if offer.item == item)
    return answer(start(state, task), *actions)


def unarmed(state: SooState) -> SooState:
    """Theodosius (no sword) rules; no Magister, no golden Basileus in the City."""
    state = put(state, "basileus-theodosius", "basileus", back=False)
    state = put(state, "magister-militum", "counter-tray")
    return put(state, "basileus-golden", "chronographia-9")


def quiet(s: Setup, money: int) -> SooState:
    """A board of the description with only paid attacks and withdrawals to offer.

    A Ravenna of the description counts as placed this Turn (8.4.1 leaves it alone).
    """
    state = set_counter(on_turn(build(s), QUIET_TURN), "ravenna-turn", QUIET_TURN)
    return with_solidus(unarmed(state), money)


def withdrawable(s: Setup) -> list[Path]:
    """10.13 read off the description: the West always has something to deploy."""
    return [*WEST, *(p for p in EAST if s.eastern(p) is not None)]


def cost_of(s: Setup, target: str) -> int:
    """10.6 and 10.6.5 read off the description."""
    if target == s.carrier and not s.protected(target):
        return 2
    return 1


def strength(state: SooState, target: str) -> int:
    return CAT.face(state.board, CAT.tile(target)).strength


def modified(natural: int, drm: int) -> int:
    return natural if natural in (1, 6) else natural + drm


def besieges(s: Setup, path: Path, advances: int) -> bool:
    """Whether ``advances`` advances on ``path`` would lay a Siege."""
    if path.western:
        return len(s.zone(path)) + advances > 5
    found = s.eastern(path)
    return found is not None and found[1] <= advances


# -- 10.6: the paid attack -------------------------------------------------------------------


@pytest.mark.rule("10.6", "10.6.5", "10.6.9.1", "10.6.9.2")
@given(setups(), st.integers(0, 12))
def test_a_paid_attack_is_offered_for_each_legal_target_that_can_be_paid_for(
    s: Setup, money: int
) -> None:
    state = quiet(s, money)
    paths = withdrawable(s)
    expected = []
    for target in expected_targets(s):
        cost = cost_of(s, target)
        if target == s.carrier:
            fleet = s.path_of(target)
            payable = money >= cost or any(p is not fleet for p in paths)
        else:
            payable = money >= cost
        if payable:
            expected.append(f"attack {target}")
    assert [i for i in items(state) if i.startswith("attack ")] == expected


@pytest.mark.rule("10.6", "1.1")
@given(setups(), st.integers(1, 12), st.data(), st.integers(1, 6))
def test_a_paid_attack_succeeds_exactly_when_the_modified_roll_beats_the_strength(
    s: Setup, money: int, data: st.DataObject, natural: int
) -> None:
    state = quiet(s, money)
    paid = [i for i in items(state) if i.startswith("attack ")]
    targets = [i.removeprefix("attack ") for i in paid if money >= cost_of(s, i.split()[1])]
    assume(targets)
    target = data.draw(st.sampled_from(targets))
    cost = cost_of(s, target)
    asked = take(state, f"attack {target}")
    if asked.pending is not None and asked.pending.kind is RequestKind.CHOOSE:
        asked = answer(asked, Select(f"pay {cost} $"))  # paying it all in solidus
    assert asked.pending is not None and asked.pending.kind is RequestKind.ROLL
    assert solidus(asked) == money - cost
    after = answer(asked, Roll((natural,)))
    won = modified(natural, expected_drm(s, target)) > strength(state, target)
    unchanged = with_solidus(after, money).board == state.board
    assert unchanged is not won
    assert solidus(after) == money - cost


@pytest.mark.rule("10.6", "10.6.5", "10.13")
@given(setups(), st.integers(0, 12), st.data())
def test_paid_attacks_take_exactly_their_cost(s: Setup, money: int, data: st.DataObject) -> None:
    """Every way offered to pay is worth the price: solidus plus 1 $ per withdrawal."""
    state = quiet(s, money)
    paid = [i.removeprefix("attack ") for i in items(state) if i.startswith("attack ")]
    assume(paid)
    target = data.draw(st.sampled_from(paid))
    cost = cost_of(s, target)
    assert attack_cost(CTX, state, CAT.tile(target)) == cost
    asked = take(state, f"attack {target}")
    if target != s.carrier:
        assert asked.pending is not None and asked.pending.kind is RequestKind.ROLL
        assert solidus(asked) == money - 1
        return
    fleet = s.path_of(target)
    others = [p for p in withdrawable(s) if p is not fleet]
    expected = [
        (money_part, combo)
        for k in range(cost + 1)
        for money_part in [cost - k]
        if money_part <= money
        for combo in combinations_with_replacement(others, k)
    ]
    payments = stolos_payments(CTX, state, CAT.tile(target))
    assert [(m, w) for _, m, w in payments] == expected
    assert all(m + len(w) == cost for _, m, w in payments)
    item, money_part, withdrawals = data.draw(st.sampled_from(payments))
    assume(not any(besieges(s, p, withdrawals.count(p)) for p in withdrawals))
    if len(payments) > 1:
        assert asked.pending is not None
        assert asked.pending.options == tuple(Select(p[0]) for p in payments)
        asked = answer(asked, Select(item))
    assert asked.pending is not None and asked.pending.kind is RequestKind.ROLL
    assert asked.pending.rule == "10.6"
    assert solidus(asked) == money - money_part
    for path in set(withdrawals):  # each withdrawal is one unopposed Advance
        moved = sum(1 for p in withdrawals if p is path)
        if path.western:
            zone = f"zone-{path.name.lower()}"
            assert sum(where(asked, a) == zone for a in armies(path)) == len(s.zone(path)) + moved
        else:
            found = s.eastern(path)
            assert found is not None
            assert where(asked, found[0]) == thema(path, found[1] - moved)


# -- 10.6.5: the Stolos ------------------------------------------------------------------------


def fleet_board(money: int) -> SooState:
    """Zone Α: strength-4 and strength-2 Armies, the Stolos on the strength-2 one."""
    state = put(campaign(), "army-alpha-4", "zone-alpha")
    state = put(state, "marker-stolos", "zone-alpha", 4)
    return with_solidus(unarmed(on_turn(state, QUIET_TURN)), money)


@pytest.mark.rule("10.6.5")
def test_two_solidus_against_a_stolos_army_defeat_both() -> None:
    state = fleet_board(2)
    assert stolos_carrier(CTX, state) == CAT.tile("army-alpha-4")
    asked = take(state, "attack army-alpha-4")
    assert asked.pending is not None
    assert asked.pending.options[0] == Select("pay 2 $")
    after = answer(asked, Select("pay 2 $"), Roll((6,)))
    assert solidus(after) == 0
    assert where(after, "army-alpha-4") == "reserves-alpha"
    assert where(after, "marker-stolos") == "lurking"
    assert nike(after) == 1
    failed = answer(asked, Select("pay 2 $"), Roll((1,)))
    assert solidus(failed) == 0
    assert stolos_carrier(CTX, failed) == CAT.tile("army-alpha-4")


@pytest.mark.rule("10.6.5")
def test_one_solidus_against_a_stolos_on_a_homeland_or_a_lone_army_beats_only_the_fleet() -> None:
    lone = put(campaign(), "marker-stolos", "zone-alpha", 1)
    homeland = put(campaign(), "marker-stolos", "persia")
    for board, target in ((lone, "army-alpha-1"), (homeland, "army-epsilon-persia")):
        state = with_solidus(unarmed(on_turn(board, QUIET_TURN)), 1)
        assert attack_cost(CTX, state, CAT.tile(target)) == 1
        before = where(state, target)
        after = take(state, f"attack {target}", Select("pay 1 $"), Roll((6,)))
        assert solidus(after) == 0
        assert where(after, target) == before
        assert where(after, "marker-stolos") == "lurking"


@pytest.mark.rule("10.6.5")
def test_greek_fire_helps_against_the_stolos_army() -> None:
    state = put(fleet_board(2), "outpost-lazica", "greek-fire")
    events = events_of(
        take(state, "attack army-alpha-4"), [Select("pay 2 $"), Roll((2,))]
    )  # 2 + 2 = 4 > 2
    assert any("+2 (Greek Fire)" in e.text and "victory" in e.text for e in events)


@pytest.mark.rule("10.6.5", "10.13")
def test_withdrawals_pay_for_the_stolos_and_win_no_nike() -> None:
    state = fleet_board(0)
    state = put(state, "marker-tribute", "zone-beta")  # an unopposed advance ignores it
    asked = take(state, "attack army-alpha-4")
    assert asked.pending is not None
    options = [o for o in asked.pending.options if isinstance(o, Select)]
    assert Select("withdraw beta, withdraw beta") in options
    assert Select("withdraw beta, withdraw gamma") in options
    assert not any("alpha" in o.item for o in options)  # never the fleet's own Path
    after = answer(asked, Select("withdraw beta, withdraw beta"))
    assert after.pending is not None and after.pending.rule == "10.6"
    zone_beta = [a for a in armies(Path.BETA) if where(after, a) == "zone-beta"]
    assert len(zone_beta) == 3
    won = answer(after, Roll((6,)))
    assert where(won, "marker-stolos") == "lurking"
    assert where(won, "army-alpha-4") == "reserves-alpha"
    assert nike(won) == 0
    assert solidus(won) == 0


@pytest.mark.rule("10.6.5", "10.13")
def test_one_solidus_and_one_withdrawal_pay_for_the_stolos() -> None:
    state = fleet_board(1)
    asked = take(state, "attack army-alpha-4")
    assert asked.pending is not None
    assert Select("pay 2 $") not in asked.pending.options
    assert asked.pending.options[0] == Select("pay 1 $, withdraw beta")
    after = answer(asked, Select("pay 1 $, withdraw gamma"))
    assert solidus(after) == 0
    assert len([a for a in armies(Path.GAMMA) if where(after, a) == "zone-gamma"]) == 2


# -- 10.6 worked examples -----------------------------------------------------------------


@pytest.mark.rule("10.6", "10.6.1")
def test_the_bulgarian_example_costs_one_solidus_per_attack() -> None:
    """10.6: five Bulgar Armies in Γ; 1 $ and a 4 beat the strength-2 one, 1 $ and a 3 fail."""
    state = change_tribe(CTX, campaign(), Path.GAMMA, "tribe-gamma-bulgars", "test")
    for army in armies(Path.GAMMA):
        state = put(state, army, "zone-gamma")
    state = with_solidus(unarmed(on_turn(state, QUIET_TURN)), 2)
    two, three = "army-gamma-4", "army-gamma-2"
    assert (strength(state, two), strength(state, three)) == (2, 3)
    menu = start(state, ActionPhase())
    assert menu.pending is not None and Select(f"attack {two}") in menu.pending.options
    state = answer(menu, Select(f"attack {two}"), Roll((4,)))
    assert where(state, two) == "reserves-gamma"
    assert solidus(state) == 1
    state = answer(state, Select(f"attack {three}"), Roll((3,)))
    assert where(state, three) == "zone-gamma"
    assert solidus(state) == 0
    assert nike(state) == 1
    assert state.pending is not None and state.pending.rule == "10.0"
    paid = [
        o for o in state.pending.options if isinstance(o, Select) and o.item.startswith("attack ")
    ]
    assert not paid


@pytest.mark.rule("10.6", "10.6.6.2")
def test_the_seljuk_example_spends_the_last_solidus() -> None:
    """10.6: the last 1 $ against strength-4 Seljuks in Ephesus; Patriots +1; a 2 (3) fails."""
    state = put(campaign(), "army-zeta-nomads", "counter-tray")
    state = put(state, "army-zeta-seljuks", "ephesus")
    state = put(state, "marker-reforms", "reforms")
    state = with_solidus(unarmed(on_turn(state, QUIET_TURN)), 1)
    assert "attack army-zeta-seljuks" in items(state)
    events = events_of(start(state, ActionPhase()), [Select("attack army-zeta-seljuks")])
    after = answer(start(state, ActionPhase()), Select("attack army-zeta-seljuks"))
    assert any(e.rule == "10.6" and "1 $ paid" in e.text for e in events)
    final = answer(after, Roll((2,)))
    assert where(final, "army-zeta-seljuks") == "ephesus"
    assert solidus(final) == 0
    assert not [i for i in items(final) if i.startswith("attack ")]


# -- 10.6.9.1 and 10.6.9.2: Latins and Riots ----------------------------------------------------


@pytest.mark.rule("10.6.9.1", "10.6.9.2")
def test_latins_and_riots_cost_one_solidus() -> None:
    state = put(campaign(), "riot-1", "constantinople", back=True)
    state = put(state, "riot-2", "constantinople", back=False)
    state = with_solidus(unarmed(on_turn(state, QUIET_TURN)), 1)
    assert {"attack riot-1", "attack riot-2"} <= set(items(state))
    latins = take(state, "attack riot-1", Roll((3,)))
    assert where(latins, "riot-1") == "counter-tray"
    assert (solidus(latins), nike(latins)) == (0, 1)
    riot = take(state, "attack riot-2", Roll((3,)))
    assert where(riot, "riot-2") == "counter-tray"
    assert (solidus(riot), nike(riot)) == (0, 0)
    assert riot.pending is not None and riot.pending.rule == "10.6.9.2"  # a Faction rioted
    assert not [i for i in items(with_solidus(state, 0)) if i.startswith("attack ")]


def hippodrome_board() -> SooState:
    state = put(campaign(), "riot-1", "constantinople", back=False)
    state = put(state, "riot-2", "constantinople", back=True)  # Latins: not in the Hippodrome
    state = unarmed(on_turn(state, QUIET_TURN))
    return put(state, "basileus-golden", "constantinople", back=False)


@pytest.mark.rule("10.6.9.2")
def test_the_hippodrome_is_offered_against_riots_while_the_golden_basileus_is_in_the_city() -> None:
    state = hippodrome_board()
    assert [i for i in items(state) if i.startswith("hippodrome")] == ["hippodrome riot-1"]
    away = put(state, "basileus-golden", "chronographia-5")
    assert not [i for i in items(away) if i.startswith("hippodrome")]


@pytest.mark.rule("10.6.9.2", "8.4.1", "11.10")
@given(st.integers(1, 6))
def test_a_plague_stricken_basileus_may_still_face_a_riot_in_the_hippodrome(natural: int) -> None:
    """The Plague bars the missions of 10.7, which alone ask for the golden side; the
    Hippodrome asks only that the golden Basileus be in Constantinople (see the rulings)."""
    state = with_solidus(put(hippodrome_board(), "basileus-golden", "constantinople", back=True), 3)
    assert [i for i in items(state) if i.startswith("hippodrome")] == ["hippodrome riot-1"]
    assert missions.offers(CTX, with_solidus(hippodrome_board(), 3))
    assert not missions.offers(CTX, state)  # but no mission (10.7)
    after = take(state, "hippodrome riot-1", Roll((natural,)))
    won = natural > strength(state, "riot-1")
    assert where(after, "riot-1") == ("counter-tray" if won else "constantinople")
    assert where(after, "basileus-golden") == "hippodrome"
    factions = CAT.tiles_of(TileKind.FACTION)
    assert [where(after, tid(f)) for f in factions] == [where(state, tid(f)) for f in factions]
    home = start(after, FlipUsedTiles())
    assert where(home, "basileus-golden") == "constantinople"
    assert not home.board.back[CAT.tile("basileus-golden")]


@pytest.mark.rule("10.6.9.2")
@given(st.integers(1, 6))
def test_the_hippodrome_roll_is_bloodless_and_keeps_the_basileus_there(natural: int) -> None:
    state = with_solidus(hippodrome_board(), 3)
    after = take(state, "hippodrome riot-1", Roll((natural,)))
    won = natural > strength(state, "riot-1")
    assert where(after, "riot-1") == ("counter-tray" if won else "constantinople")
    assert where(after, "basileus-golden") == "hippodrome"
    assert nike(after) == nike(state) and solidus(after) == 3
    factions = CAT.tiles_of(TileKind.FACTION)
    assert [where(after, tid(f)) for f in factions] == [where(state, tid(f)) for f in factions]
    assert after.pending is None  # no Faction is blamed
    assert not [i for i in items(after) if i.startswith("hippodrome")]


# -- 10.6.8: soldier emperors ----------------------------------------------------------------


def sword_board(money: int = 0) -> SooState:
    """Nikephoros (sword) rules; an Army in Paphlagonia to attack."""
    state = unarmed(on_turn(campaign(), QUIET_TURN))
    state = put(state, "basileus-theodosius", "basileus-mug")
    state = put(state, "basileus-nikephoros-michael", "basileus", back=False)
    state = put(state, "army-delta-persia", "paphlagonia")
    return with_solidus(state, money)


@pytest.mark.rule("10.6.8")
def test_a_soldier_emperor_attacks_once_per_turn_for_free() -> None:
    state = sword_board()
    assert [i for i in items(state) if i.startswith("emperor-")] == [
        "emperor-attack army-delta-persia"
    ]
    after = take(state, "emperor-attack army-delta-persia", Roll((6,)))
    assert where(after, "army-delta-persia") == "lesser-armenia"
    assert solidus(after) == 0 and nike(after) == 1
    assert soldier_emperor_fact(QUIET_TURN) in after.done
    assert not [i for i in items(after) if i.startswith("emperor-")]
    failed = take(state, "emperor-attack army-delta-persia", Roll((1,)))
    assert not [i for i in items(failed) if i.startswith("emperor-")]
    # The next Turn the sword may strike again.
    assert [i for i in items(on_turn(after, QUIET_TURN + 1)) if i.startswith("emperor-")]


@pytest.mark.rule("10.6.8")
def test_a_basileus_without_the_sword_has_no_free_attack() -> None:
    state = sword_board()
    michael = put(state, "basileus-nikephoros-michael", "basileus", back=True)
    assert not [i for i in items(michael) if i.startswith("emperor-")]


@pytest.mark.rule("10.6.8", "10.6.5")
def test_the_soldier_emperors_attack_is_free_even_against_the_stolos() -> None:
    state = put(sword_board(), "marker-stolos", "paphlagonia")
    assert "emperor-attack army-delta-persia" in items(state)
    after = take(state, "emperor-attack army-delta-persia", Roll((6,)))
    assert where(after, "marker-stolos") == "lurking"
    assert solidus(after) == 0


# -- 10.8: the Magister Militum ----------------------------------------------------------------


def magister_board(money: int = 0) -> SooState:
    state = unarmed(on_turn(campaign(), GENERAL_TURN))
    state = put(state, "magister-militum", "constantinople")
    state = put(state, "army-delta-persia", "paphlagonia")
    return with_solidus(state, money)


def magister_items(state: SooState) -> list[str]:
    return [i for i in items(state) if i.startswith("magister-")]


@pytest.mark.rule("10.8")
def test_the_magister_fights_only_on_a_turn_that_names_him() -> None:
    state = magister_board()
    assert magister_ready(CTX, state)
    assert magister_items(state) == ["magister-attack army-delta-persia"]
    assert not magister_items(on_turn(state, QUIET_TURN))
    assert not magister_items(put(state, "magister-militum", "counter-tray"))


@pytest.mark.rule("10.8")
def test_a_victorious_magister_fights_again_for_free_with_plus_one() -> None:
    state = magister_board()
    events = events_of(
        start(state, next(o.task for o in offers(CTX, state))), [Roll((4,))]
    )  # 4 +1 = 5 > 4
    assert any("+1 (Magister Militum)" in e.text and "victory" in e.text for e in events)
    after = take(state, "magister-attack army-delta-persia", Roll((4,)))
    assert where(after, "army-delta-persia") == "lesser-armenia"
    assert where(after, "magister-militum") == "constantinople"
    assert solidus(after) == 0 and nike(after) == 1
    assert magister_items(after) == ["magister-attack army-delta-persia"]


@pytest.mark.rule("10.8")
@given(
    st.sampled_from(["army-delta-persia", "army-epsilon-persia", "army-zeta-nomads"]),
    st.integers(0, 12),
    st.booleans(),
    st.sampled_from(["schism", "riot"]),
)
def test_a_beaten_magister_leaves_and_the_player_picks_schism_or_a_riot(
    target: str, schism: int, riot_free: bool, pick: str
) -> None:
    state = magister_board()
    path = CAT.tiles[CAT.tile(target)].path
    assert path is not None
    state = put(state, target, thema(path, 2))
    state = set_marker(CTX, state, "schism", schism)
    if not riot_free:
        for riot in CAT.tiles_of(TileKind.RIOT):
            state = put(state, tid(riot), "discarded")
    power = strength(state, target)
    lost = take(state, f"magister-attack {target}", Roll((1,)))
    assert where(lost, "magister-militum") == "counter-tray"
    assert not magister_items(lost)
    if riot_free:
        assert lost.pending is not None and lost.pending.rule == "10.8"
        assert lost.pending.options == (Select(f"schism +{power}"), Select("riot"))
        lost = answer(lost, Select(f"schism +{power}" if pick == "schism" else "riot"))
    else:
        pick = "schism"
    riots = [r for r in CAT.tiles_of(TileKind.RIOT) if where(lost, tid(r)) == "constantinople"]
    if pick == "riot":
        assert len(riots) == 1 and not lost.board.back[riots[0]]
        assert marker(CTX, lost, "schism") == schism
        return
    assert not riots
    if schism + power > 12:
        assert lost.ending is not None and lost.ending.rule == "2.6"
    else:
        assert marker(CTX, lost, "schism") == schism + power


@pytest.mark.rule("10.8", "10.6.5")
def test_the_magister_against_the_stolos_costs_one_solidus_with_greek_fire() -> None:
    state = put(magister_board(), "marker-stolos", "paphlagonia")
    assert not magister_items(state)  # the fleet needs 1 $
    rich = put(with_solidus(state, 1), "outpost-lazica", "greek-fire")
    assert magister_items(rich) == ["magister-attack army-delta-persia"]
    events = events_of(
        start(rich, next(o.task for o in offers(CTX, rich) if o.item.startswith("magister"))),
        [Roll((2,))],
    )
    assert any("+2 (Greek Fire)" in e.text and "+1 (Magister Militum)" in e.text for e in events)
    after = take(rich, "magister-attack army-delta-persia", Roll((2,)))  # 2+2+1 = 5 > 4
    assert solidus(after) == 0
    assert where(after, "marker-stolos") == "lurking"
    assert where(after, "army-delta-persia") == "lesser-armenia"


@pytest.mark.rule("10.8", "10.6.9.1", "10.6.9.2")
def test_the_magister_may_attack_latins_and_riots() -> None:
    state = put(magister_board(), "riot-1", "constantinople", back=True)
    state = put(state, "riot-2", "constantinople", back=False)
    assert {"magister-attack riot-1", "magister-attack riot-2"} <= set(magister_items(state))
    after = take(state, "magister-attack riot-1", Roll((2,)))  # 2 +1 = 3 > 2
    assert where(after, "riot-1") == "counter-tray"
    assert where(after, "magister-militum") == "constantinople"


# -- 10.13: shifting forces -------------------------------------------------------------------


@pytest.mark.rule("10.13")
def test_shifting_forces_withdraws_unopposed_then_attacks_another_path_without_nike() -> None:
    state = with_solidus(unarmed(on_turn(campaign(), QUIET_TURN)), 0)
    state = put(state, "army-delta-persia", "lesser-armenia")
    state = put(state, "army-epsilon-persia", "cappadocia")
    state = put(state, "marker-stolos", "cappadocia")  # its Army must be paid for
    state = put(state, "army-zeta-nomads", "jerusalem")
    state = put(state, "marker-kastron", "ephesus")
    state = put(state, "army-beta-4", "zone-beta")
    assert [i for i in items(state) if i.startswith("shift")] == [
        f"shift-forces {p.name.lower()}" for p in Path
    ]
    asked = take(state, "shift-forces zeta")
    # Neither the Kastron nor the Taurus of Cilicia rolled: the Nomads are there at once.
    assert where(asked, "army-zeta-nomads") == "cilicia"
    assert asked.pending is not None and asked.pending.rule == "10.6"
    beta = sorted(a for a in armies(Path.BETA) if where(state, a) == "zone-beta")
    assert asked.pending.options == (
        Decline(),
        *(Select(a) for a in beta),
        Select("army-delta-persia"),
    )
    won = answer(asked, Select("army-delta-persia"), Roll((6,)))
    assert where(won, "army-delta-persia") == "greater-armenia"
    assert nike(won) == 0 and solidus(won) == 0


@pytest.mark.rule("10.13")
def test_a_path_without_barbarians_cannot_be_withdrawn_from() -> None:
    state = unarmed(on_turn(campaign(), QUIET_TURN))
    state = put(state, "army-zeta-nomads", "counter-tray")
    state = put(state, "army-beta-4", "zone-beta")
    assert Path.ZETA not in withdrawable_paths(CTX, state)
    assert "shift-forces zeta" not in items(state)
    assert "shift-forces alpha" in items(state)


# -- 8.4.1 Kleidion and Tricameron -------------------------------------------------------------


@pytest.mark.rule("8.4.1", "10.6")
def test_kleidion_is_a_one_solidus_attack_on_the_last_bulgar_army() -> None:
    state = change_tribe(CTX, campaign(), Path.GAMMA, "tribe-gamma-bulgars", "test")
    state = remember(unarmed(on_turn(state, QUIET_TURN)), f"kleidion-turn-{QUIET_TURN}")
    state = with_solidus(state, 0)
    assert not [i for i in items(state) if i.startswith("kleidion")]  # no solidus
    state = with_solidus(state, 1)
    assert [i for i in items(state) if i.startswith("kleidion")] == ["kleidion army-gamma-1"]
    lost = take(state, "kleidion army-gamma-1", Roll((1,)))
    assert solidus(lost) == 0 and where(lost, "marker-bulgar-thema") != "zone-gamma"
    won = take(state, "kleidion army-gamma-1", Roll((6,)))
    assert solidus(won) == 0
    assert where(won, "army-gamma-1") == "zone-gamma"
    assert where(won, "marker-bulgar-thema") == "zone-gamma"
    assert not [i for i in items(with_solidus(won, 5)) if i.startswith("kleidion")]


@pytest.mark.rule("8.4.1", "10.6")
def test_tricameron_is_a_one_solidus_attack_on_the_last_vandal_army() -> None:
    state = remember(unarmed(on_turn(campaign(), QUIET_TURN)), f"tricameron-turn-{QUIET_TURN}")
    state = with_solidus(state, 2)
    assert [i for i in items(state) if i.startswith("tricameron")] == ["tricameron army-alpha-1"]
    won = take(state, "tricameron army-alpha-1", Roll((6,)))
    assert solidus(won) == 1
    assert where(won, "tribe-alpha-moors") == "tribe-alpha"
    assert where(won, "army-alpha-1") == "zone-alpha"
    assert not [i for i in items(won) if i.startswith("tricameron")]


# -- the phase ends ----------------------------------------------------------------------------


@attrs.frozen
class _Battles(Task):
    """The battles alone, as a menu without the choice to stop (a player who never stops)."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        found = offers(ctx, state)
        if answer is None:
            if not found:
                return state
            options = [Select(offer.item) for offer in found]
            return ask_choice(state, self, "10.0", "battles only", options)
        assert isinstance(answer, Select)
        chosen = next(offer for offer in found if offer.item == answer.item)
        return push(state, chosen.task, _Battles())


def armed(s: Setup, money: int) -> SooState:
    """A board with every kind of battle available: sword, Magister, golden Basileus."""
    state = with_solidus(on_turn(build(s), GENERAL_TURN), money)
    state = put(state, "basileus-theodosius", "basileus-mug")
    state = put(state, "basileus-nikephoros-michael", "basileus", back=False)
    state = put(state, "magister-militum", "constantinople")
    state = put(state, "basileus-golden", "constantinople", back=False)
    return remember(state, f"kleidion-turn-{GENERAL_TURN}")


@pytest.mark.rule("10.6", "10.6.8", "10.8", "10.13", "10.6.9.2")
@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 12), st.randoms(use_true_random=False))
def test_a_player_who_never_stops_runs_out_of_battles(
    s: Setup, money: int, rnd: random.Random
) -> None:
    """Every battle uses something up: the menu empties or the game ends.

    Along the way the soldier emperor strikes at most once, the Hippodrome is
    visited at most once, and the treasury never goes negative.
    """
    state = start(armed(s, money), _Battles())
    emperor = hippodrome = 0
    for _ in range(2000):
        if state.ending is not None or state.pending is None:
            break
        request = state.pending
        if request.kind is RequestKind.ROLL:
            faces = tuple(rnd.randint(1, 6) for _ in range(request.dice))
            action: SooAction = Roll(faces)
        else:
            options = GAME.legal_actions(state)
            action = rnd.choice(list(options))
            if request.rule == "10.0" and isinstance(action, Select):
                emperor += action.item.startswith("emperor-attack")
                hippodrome += action.item.startswith("hippodrome")
        state = answer(state, action)
        assert 0 <= solidus(state) <= 12
    else:
        raise AssertionError("the battles never ended")
    assert emperor <= 1
    assert hippodrome <= 1


@pytest.mark.rule("10.6.9.2")
def test_the_hippodrome_task_moves_the_basileus_before_the_roll() -> None:
    asked = start(hippodrome_board(), Hippodrome("riot-1"))
    assert asked.pending is not None and asked.pending.kind is RequestKind.ROLL
    assert where(asked, "basileus-golden") == "hippodrome"


@pytest.mark.rule("10.6.5", "10.13")
@given(setups(), st.integers(0, 12))
def test_the_stolos_is_affordable_exactly_when_a_way_to_pay_is_listed(s: Setup, money: int) -> None:
    """The menu's quick affordability check agrees with the list of ways to pay."""
    state = quiet(s, money)
    carrier = stolos_carrier(CTX, state)
    assume(carrier is not None)
    assert carrier is not None
    affordable = stolos_affordable(CTX, state, carrier)
    assert affordable == bool(stolos_payments(CTX, state, carrier))
