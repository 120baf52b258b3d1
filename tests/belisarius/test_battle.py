"""Land Combat in the Operations Phase (17.0-17.93, 21.4, 35.0)."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from byzantium.belisarius.battle import Battle
from byzantium.belisarius.combat import force_multiplier, withdrawal_allowed
from byzantium.belisarius.components import UnitKind, units_lost
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelState,
    Done,
    RequestKind,
    Roll,
    Select,
)
from tests.belisarius.support import (
    GAME,
    SCENARIOS,
    answer,
    blank_state,
    give,
    options,
    pending_task,
    put,
    random_game,
    start,
    trail_of,
)
from tests.belisarius.test_operations import open_line

RULEBOOK = "belisarius"

CONTROL = {"Thracia": Control.EMPIRE, "Slavs": Control.BARBARIAN}


def board() -> BelState:
    return blank_state("operations", EMPIRE, control=CONTROL)


def attack(state: BelState, where: int, target: int, roll: int) -> BelState:
    state = start(GAME, state, OperationsPhase())
    state = answer(GAME, state, Select(f"force {where}"))
    state = answer(GAME, state, Done())
    state = answer(GAME, state, Roll((roll,)))
    assert Select(f"attack {target}") in options(state)
    return answer(GAME, state, Select(f"attack {target}"))


def two_armies() -> tuple[BelState, int, int]:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    return state, a, b


@pytest.mark.rule("17.11", "17.5", "17.6", "17.71", "17.8")
def test_an_assault_against_a_weaker_defender_applies_a_result() -> None:
    state, a, b = two_armies()
    (defender,) = state.units.at(b)
    state = attack(state, a, b, 1)
    assert options(state) == (Select("stand"), Select("withdraw"))
    state = answer(GAME, state, Select("stand"))
    state = answer(GAME, state, Select("assault"))
    assert pending_task(state, Battle).stage == "fight"
    before = state
    state = answer(GAME, state, Roll((6,)))
    # Whatever the die, the lone defender at high odds either dies or the attacker
    # gets to move on; the battle is over and the force's points paid.
    assert not isinstance(state.pending and state.pending.task, Battle) or state != before
    events_state = state
    while state.pending is not None and not isinstance(state.pending.task, OperationsPhase):
        outcomes = GAME.chance_outcomes(state)
        state = GAME.apply(state, outcomes[0][0] if outcomes else options(state)[0])
    task = pending_task(state, OperationsPhase)
    if task.stage == "move":
        assert task.points <= Fraction(8 + 1 - 4)
    assert events_state is not None
    lost_or_moved = state.units.where[defender] != b
    assert lost_or_moved or any(state.units.where[u] == AVAILABLE for u in task.used)


@pytest.mark.rule("17.61", "17.62")
def test_maneuver_needs_eight_points() -> None:
    state, a, b = two_armies()
    force = tuple(state.units.at(a))
    resume = OperationsPhase(stage="move", force=force, where=a, points=Fraction(7))
    poor = start(GAME, state, Battle(force, a, b, Fraction(7), resume))
    poor = answer(GAME, poor, Select("stand"))
    assert (
        pending_task(poor, Battle).stage == "fight"
        and pending_task(poor, Battle).table.value == "assault"
    )
    rich = answer(GAME, attack(state, a, b, 6), Select("stand"))
    assert options(rich) == (Select("assault"), Select("maneuver"))


@pytest.mark.rule("17.51")
def test_a_tied_roll_off_means_stand() -> None:
    assert not withdrawal_allowed(8, 3, 8, 3)
    assert withdrawal_allowed(8, 3, 8, 4)
    state, a, b = two_armies()
    state = pick_roll_off_units(answer(GAME, attack(state, a, b, 3), Select("withdraw")))
    attacker_ops = max(GAME.catalog.counters[u].operations for u in state.units.at(a))
    defender_ops = max(GAME.catalog.counters[u].operations for u in state.units.at(b))
    a_die = 3
    d_die = attacker_ops + a_die - defender_ops
    if not 1 <= d_die <= 6:
        pytest.skip("operation values too far apart for a tie")
    state = answer(GAME, state, Roll((a_die, d_die)))
    assert pending_task(state, Battle).stage in {"table", "advantage", "defence", "fight"}


@pytest.mark.rule("17.54", "17.56", "17.61")
def test_a_withdrawal_moves_the_defender_and_the_attacker_pays() -> None:
    state, a, b = two_armies()
    (defender,) = state.units.at(b)
    state = pick_roll_off_units(answer(GAME, attack(state, a, b, 6), Select("withdraw")))
    state = answer(GAME, state, Roll((1, 6)))  # defender wins the roll-off?
    if pending_task(state, Battle).stage != "withdraw":
        pytest.skip("the defender's Operations value cannot beat the attacker's")
    state = answer(GAME, state, Roll((1,)))
    places = [o for o in options(state) if not isinstance(o, (Done, Select))]
    assert places
    state = answer(GAME, state, places[0])
    assert state.units.where[defender] not in (b, AVAILABLE)
    task = pending_task(state, OperationsPhase)
    assert task.points == 8 + 6 - 4


@pytest.mark.rule("17.74")
def test_military_advantage_doubles() -> None:
    assert force_multiplier(0, 1, True, constantinople=False) == 2
    state, a, b = two_armies()
    state = give(state, EMPIRE, "military-advantage")
    state = answer(GAME, attack(state, a, b, 1), Select("stand"))
    state = answer(GAME, state, Select("assault"))
    assert options(state) == (Done(), Select("military advantage"))
    state = answer(GAME, state, Select("military advantage"))
    assert pending_task(state, Battle).attacker_advantage
    assert state.stratagems.hands[EMPIRE][GAME.catalog.stratagem("military-advantage")] == 0


@pytest.mark.rule("35.0", "17.8")
def test_losses_round_up() -> None:
    assert units_lost(Fraction(1, 2), 3) == 2
    assert units_lost(Fraction(1, 3), 1) == 1


@pytest.mark.rule("17.25", "14.0", "3.1")
# Seeds whose random game has battles (seed 0's has none since the placement and
# stacking fixes of issue 13 changed its course).
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_with_battles_still_end(seed: int) -> None:
    began = time.perf_counter()
    final, trail = random_game(GAME, seed, cap=20_000)
    assert final.ending is not None
    assert time.perf_counter() - began < 10
    assert any(e.rule == "17.11" for *_, events in trail for e in events)


# -- 17.51: each player picks the unit that rolls off ---------------------------------------


def pick_roll_off_units(state: BelState, game: Belisarius = GAME) -> BelState:
    """Answer the roll-off picks of 17.51 (the attacker's, then the defender's) with
    the unit of the highest Operations value, as :func:`max` over each side did."""
    while state.pending is not None and state.pending.rule == "17.51":
        request = state.pending
        if request.kind is not RequestKind.CHOOSE:
            break
        cat = game.catalog
        best = max(
            request.options,
            key=lambda o: (
                cat.counters[cat.counter(o.item.removeprefix("roll-off "))].operations
                if isinstance(o, Select)
                else -1
            ),
        )
        state = answer(game, state, best)
    return state


def _mixed_fronts() -> tuple[BelState, int, int]:
    """An Empire Field Army (20) and Garrison (8) next to a Slav Warband (16) and Nomad
    Horde (24)."""
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    state = put(state, "slavs", UnitKind.NOMAD_HORDE, b)
    return state, a, b


def _roll_off_item(unit: int) -> Select:
    return Select(f"roll-off {GAME.catalog.counters[unit].id}")


@pytest.mark.rule("17.51", "17.5")
def test_each_player_picks_any_one_unit_for_the_roll_off_attacker_first() -> None:
    state, a, b = _mixed_fronts()
    cat = GAME.catalog
    army, garrison = sorted(state.units.at(a), key=lambda u: -cat.counters[u].operations)
    horde, warband = sorted(state.units.at(b), key=lambda u: -cat.counters[u].operations)
    assert cat.counters[garrison].operations < cat.counters[warband].operations
    state = answer(GAME, attack(state, a, b, 6), Select("withdraw"))
    # The attacker picks first, among his force's units.
    asked = state.pending
    assert asked is not None and asked.rule == "17.51"
    assert asked.kind is RequestKind.CHOOSE and asked.player == EMPIRE
    assert set(asked.options) == {_roll_off_item(army), _roll_off_item(garrison)}
    state = answer(GAME, state, _roll_off_item(garrison))
    # Then the defender, among the defending hex's units.
    asked = state.pending
    assert asked is not None and asked.rule == "17.51" and asked.player == BARBARIAN
    assert set(asked.options) == {_roll_off_item(horde), _roll_off_item(warband)}
    state = answer(GAME, state, _roll_off_item(warband))
    assert state.pending is not None and state.pending.kind is RequestKind.ROLL
    # Garrison 8 + 6 against Warband 16 + 1: the picked units count, so the defender
    # withdraws (with each side's best, 20 + 6 against 24 + 1, he would stand).
    step = GAME.step(state, Roll((6, 1)))
    text = next(e.text for e in step.events if e.rule == "17.51")
    assert "attacker 8+6, defender 16+1: it withdraws" in text
    assert pending_task(step.state, Battle).stage == "withdraw"


@pytest.mark.rule("17.51")
def test_a_player_with_only_one_unit_is_not_asked_and_the_log_names_it() -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    (garrison,) = state.units.at(a)
    (warband,) = state.units.at(b)
    state = attack(state, a, b, 6)
    step = GAME.step(state, Select("withdraw"))
    assert step.state.pending is not None and step.state.pending.kind is RequestKind.ROLL
    picks = [e.text for e in step.events if e.rule == "17.51"]
    assert picks == [
        f"the attacker rolls off with {GAME.catalog.counters[garrison].id}",
        f"the defender rolls off with {GAME.catalog.counters[warband].id}",
    ]


@pytest.mark.rule("17.51", "17.11")
def test_in_random_games_the_roll_off_picks_are_each_sides_own() -> None:
    """Every roll-off question goes to the attacker for his force's units, then to the
    defender for his hex's units, and the roll that follows uses the picked units."""
    met = 0
    for scenario, seed in ((s, n) for s in SCENARIOS for n in range(2)):
        _, trail = trail_of(scenario, seed)
        for state, actor, action, _ in trail:
            request = state.pending
            if request is None or request.rule != "17.51":
                continue
            task = request.task
            assert isinstance(task, Battle)
            if request.kind is not RequestKind.CHOOSE:
                assert task.attacker_pick in task.force
                assert state.units.where[task.defender_pick] == task.target
                continue
            met += 1
            first = task.attacker_pick == NOBODY
            player = task.attacking_player(state) if first else task.defending_player(state)
            assert actor == request.player == player
            side = (
                tuple(u for u in task.force if state.units.where[u] > AVAILABLE)
                if first
                else state.units.at(task.target)
            )
            assert set(request.options) == {_roll_off_item(u) for u in side}
            assert action in request.options
    assert met
