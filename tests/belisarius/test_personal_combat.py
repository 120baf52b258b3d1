"""Personal Combat, an optional rule (33.0, 33.1)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import Battle
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.personal import PersonalCombat, duel_loser
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    GONE,
    NOBODY,
    BelAction,
    BelState,
    Done,
    RequestKind,
    Roll,
    Select,
)
from tests.belisarius.support import (
    CAT,
    GAME,
    belisarius,
    blank_state,
    give,
    move,
    options,
    pending,
    put,
    start,
)
from tests.belisarius.test_operations import open_line

RULEBOOK = "belisarius"

#: Scenario 1 with Personal Combat on.
DUELS = belisarius(1, personal_combat=True)
CONTROL = {"Thracia": Control.EMPIRE, "Persia": Control.BARBARIAN}


def unit(counter_id: str) -> int:
    return CAT.counter(counter_id)


def act(state: BelState, *actions: BelAction, game: Belisarius = DUELS) -> BelState:
    for action in actions:
        state = game.apply(state, action)
    return state


def armies(
    empire: tuple[str, ...] = ("belisarius",),
    persia: tuple[str, ...] = ("kavadh",),
    game: Belisarius = DUELS,
) -> tuple[BelState, int, int]:
    """Empire Leaders with a Field Army at ``a``, Persian Leaders with a Warband at
    ``b`` next to it; the Empire's Operations Phase."""
    a, b, _ = open_line()
    state = blank_state("operations", EMPIRE, control=CONTROL, game=game)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, a)
    state = move(state, [unit(i) for i in empire], a)
    state = put(state, "persia", UnitKind.WARBAND, b)
    state = move(state, [unit(i) for i in persia], b)
    return state, a, b


def standing(state: BelState, a: int, b: int, game: Belisarius = DUELS) -> BelState:
    """The Empire's force at ``a`` attacks ``b`` (6 rolled) and the defender stands."""
    state = start(game, state, OperationsPhase())
    state = act(state, Select(f"force {a}"), Done(), Roll((6,)), game=game)
    return act(state, Select(f"attack {b}"), Select("stand"), game=game)


def in_play(state: BelState, counter_id: str) -> bool:
    return state.units.where[unit(counter_id)] > AVAILABLE


@pytest.mark.rule("33.1")
def test_an_accepted_challenge_kills_the_lower_total() -> None:
    state, a, b = armies()
    state = standing(state, a, b)
    asked = pending(state)
    assert isinstance(asked.task, PersonalCombat)
    assert asked.rule == "33.1" and asked.player == EMPIRE
    assert asked.options == (Done(), Select("challenge"))
    state = act(state, Select("challenge"))
    assert pending(state).player == BARBARIAN
    assert options(state) == (Done(), Select("accept"))
    state = act(state, Select("accept"))
    # One Leader a side: the champions are named without asking; one die each.
    assert pending(state).kind is RequestKind.ROLL and pending(state).dice == 2
    state = act(state, Roll((1, 6)))  # belisarius 2 + 1 < kavadh 1 + 6
    assert not in_play(state, "belisarius") and in_play(state, "kavadh")
    # The battle goes on to its table (17.6), the attacker now without his Leader.
    asked = pending(state)
    assert isinstance(asked.task, Battle) and asked.rule == "17.6"
    assert unit("belisarius") not in asked.task._attackers(state)


@pytest.mark.rule("33.1")
def test_a_tie_kills_nobody() -> None:
    state, a, b = armies()
    state = act(standing(state, a, b), Select("challenge"), Select("accept"))
    state = act(state, Roll((3, 4)))  # 2 + 3 == 1 + 4
    assert in_play(state, "belisarius") and in_play(state, "kavadh")
    assert pending(state).rule == "17.6"


@pytest.mark.rule("33.1")
def test_a_refusal_costs_nothing() -> None:
    state, a, b = armies()
    before = standing(state, a, b)
    state = act(before, Select("challenge"), Done())
    assert state.units == before.units
    assert state.stratagems == before.stratagems
    assert pending(state).rule == "17.6"


@pytest.mark.rule("33.1")
def test_the_defender_may_challenge_when_the_attacker_does_not() -> None:
    state, a, b = armies()
    state = act(standing(state, a, b), Done())
    asked = pending(state)
    assert asked.rule == "33.1" and asked.player == BARBARIAN
    assert asked.options == (Done(), Select("challenge"))
    state = act(state, Select("challenge"))
    assert pending(state).player == EMPIRE and options(state) == (Done(), Select("accept"))
    state = act(state, Select("accept"), Roll((6, 1)))
    assert in_play(state, "belisarius") and not in_play(state, "kavadh")
    # Nobody challenges: straight to the table.
    state, a, b = armies()
    state = act(standing(state, a, b), Done(), Done())
    assert pending(state).rule == "17.6"


@pytest.mark.rule("33.1")
def test_each_player_names_a_champion_among_several_leaders() -> None:
    state, a, b = armies(("belisarius", "solomon"), ("kavadh", "mihr-mihroe"))
    state = act(standing(state, a, b), Select("challenge"), Select("accept"))
    asked = pending(state)
    assert asked.player == EMPIRE
    assert asked.options == (Select("champion belisarius"), Select("champion solomon"))
    state = act(state, Select("champion solomon"))
    asked = pending(state)
    assert asked.player == BARBARIAN
    assert set(asked.options) == {Select("champion kavadh"), Select("champion mihr-mihroe")}
    state = act(state, Select("champion kavadh"), Roll((1, 2)))  # 1 + 1 < 1 + 2
    assert not in_play(state, "solomon")
    assert in_play(state, "belisarius") and in_play(state, "kavadh")
    assert in_play(state, "mihr-mihroe")


@pytest.mark.rule("33.1")
def test_no_personal_combat_without_a_leader_on_each_side() -> None:
    state, a, b = armies(persia=())
    state = standing(state, a, b)
    assert pending(state).rule == "17.6"


@pytest.mark.rule("33.1")
def test_with_the_option_off_the_battle_goes_straight_to_the_table() -> None:
    state, a, b = armies(game=GAME)
    state = standing(state, a, b, game=GAME)
    assert pending(state).rule == "17.6"


@pytest.mark.rule("33.1", "21.4")
def test_justinian_killed_in_personal_combat_costs_the_empire_its_markers() -> None:
    state, a, b = armies(("justinian",))
    state = give(state, EMPIRE, "forced-march", "military-advantage")
    state = act(standing(state, a, b), Select("challenge"), Select("accept"))
    state = act(state, Roll((1, 5)))
    assert state.units.where[unit("justinian")] == GONE
    assert state.stratagems.held(EMPIRE) == 0


@pytest.mark.rule("33.1", "17.61")
def test_a_lone_leader_killed_ends_the_battle_and_the_attacker_pays_the_assault() -> None:
    a, b, _ = open_line()
    state, a, b = armies()
    state = move(state, [u for u in state.units.at(b) if CAT.counters[u].leader == ""], AVAILABLE)
    assert state.units.at(b) == (unit("kavadh"),)
    points = CAT.counters[unit("thracia-field-army-1")].operations
    points = min(points, CAT.counters[unit("belisarius")].operations) + 3 * 6
    state = act(standing(state, a, b), Select("challenge"), Select("accept"), Roll((6, 1)))
    assert not in_play(state, "kavadh") and state.units.at(b) == ()
    task = pending(state).task
    assert isinstance(task, OperationsPhase)
    assert task.stage == "move" and task.points == Fraction(points - 4)


@pytest.mark.rule("33.1")
@given(st.integers(0, 2), st.integers(1, 6), st.integers(0, 2), st.integers(1, 6))
def test_the_lower_total_loses_and_a_tie_spares_both(
    a_stars: int, a_roll: int, d_stars: int, d_roll: int
) -> None:
    loser = duel_loser(a_stars, a_roll, d_stars, d_roll)
    a_total, d_total = a_stars + a_roll, d_stars + d_roll
    if a_total == d_total:
        assert loser == -1
    else:
        assert loser == (0 if a_total < d_total else 1)


EMPIRE_LEADERS = ("justinian", "belisarius", "solomon")
PERSIAN_LEADERS = ("kavadh", "mihr-mihroe")


@pytest.mark.rule("33.1")
@settings(max_examples=40)
@given(
    st.lists(st.sampled_from(EMPIRE_LEADERS), min_size=0, max_size=3, unique=True),
    st.lists(st.sampled_from(PERSIAN_LEADERS), min_size=0, max_size=2, unique=True),
    st.data(),
)
def test_personal_combat_kills_at_most_the_one_lower_champion(
    empire: list[str], persia: list[str], data: st.DataObject
) -> None:
    state, a, b = armies(tuple(empire), tuple(persia))
    state = standing(state, a, b)
    before = state
    champions: list[int] = []
    totals: list[int] = []
    while isinstance(pending(state).task, PersonalCombat):
        asked = pending(state)
        task = asked.task
        assert isinstance(task, PersonalCombat)
        if asked.kind is RequestKind.ROLL:
            rolls = (data.draw(st.integers(1, 6)), data.draw(st.integers(1, 6)))
            champions = list(task.champions)
            totals = [CAT.counters[c].stars + r for c, r in zip(champions, rolls, strict=True)]
            state = act(state, Roll(rolls))
        else:
            state = act(state, data.draw(st.sampled_from(asked.options)))
    if not (empire and persia):
        assert not champions and state.units == before.units
    lost = [u for u in before.units.in_play() if state.units.where[u] <= AVAILABLE]
    assert len(lost) <= 1
    if lost:
        (fallen,) = lost
        assert fallen in champions
        mine, other = totals[champions.index(fallen)], totals[1 - champions.index(fallen)]
        assert mine < other
    elif champions:
        assert totals[0] == totals[1]


#: Personal Combat with the 35.0 variant: refusing costs the Leaders' value.
PENALTY = belisarius(1, personal_combat=True, personal_combat_refusal=True)


def _strengths(state: BelState, game: Belisarius) -> tuple[int, int, int, int]:
    """Fight the battle at its table (Assault, no Military Advantage, die 3): the
    strengths and multipliers of the 17.71 line."""
    state = act(state, Select("assault"), game=game)
    while pending(state).rule == "17.74":
        state = act(state, Done(), game=game)
    events = game.step(state, Roll((3,))).events
    (line,) = [e.text for e in events if e.rule == "17.71"]
    numbers = re.search(r"strength (\d+) \(x(\d+)\) against (\d+) \(x(\d+)\)", line)
    assert numbers is not None
    a, am, d, dm = (int(n) for n in numbers.groups())
    return a, am, d, dm


@pytest.mark.rule("35.0", "33.1")
def test_under_the_variant_a_refusing_side_fights_without_its_leaders() -> None:
    kavadh = CAT.counters[unit("kavadh")]
    warband = CAT.unit_types[UnitKind.WARBAND]
    for game, shunned in ((DUELS, False), (PENALTY, True)):
        state, a, b = armies(game=game)
        state = act(standing(state, a, b, game), Select("challenge"), Done(), game=game)
        assert pending(state).rule == "17.6"
        task = pending(state).task
        assert isinstance(task, Battle)
        assert task.shunned == (1 if shunned else NOBODY)
        _, _, d_str, d_mult = _strengths(state, game)
        if shunned:  # the Warband alone, unmultiplied
            assert (d_str, d_mult) == (warband.combat, 1)
        else:  # Kavadh's strength and his multiplier count
            assert d_mult == min(2, kavadh.stars) + 1
            assert d_str == d_mult * (warband.combat + kavadh.combat)


@pytest.mark.rule("35.0")
def test_under_the_variant_an_accepted_duel_or_no_challenge_costs_nothing() -> None:
    state, a, b = armies(game=PENALTY)
    state = act(standing(state, a, b, PENALTY), Done(), Done(), game=PENALTY)
    task = pending(state).task
    assert isinstance(task, Battle) and task.shunned == NOBODY
    state, a, b = armies(game=PENALTY)
    state = act(standing(state, a, b, PENALTY), Select("challenge"), game=PENALTY)
    state = act(state, Select("accept"), Roll((3, 4)), game=PENALTY)  # a tie
    task = pending(state).task
    assert isinstance(task, Battle) and task.shunned == NOBODY
