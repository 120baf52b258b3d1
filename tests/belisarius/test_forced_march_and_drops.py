"""When a Forced March may be made (16.7, 16.72, 16.84), and counters dropped off a
force on its way or before an attack (13.21, 16.4, 17.24).

A Forced March is an item of the Operations menu, for the counters of a location that
have made an Operation this phase, whenever that was; dropped counters stay where
they are dropped and operate no more that phase, not even in a Forced March.
"""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import Battle
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    BelAction,
    BelState,
    Done,
    Place,
    RequestKind,
    Roll,
    Select,
)
from tests.belisarius.support import (
    CAT,
    GAME,
    answer,
    belisarius,
    blank_state,
    city,
    give,
    move,
    options,
    pending,
    pending_task,
    put,
    start,
)
from tests.belisarius.test_operations import begin, open_line, road
from tests.belisarius.test_reaction import boards, far_hex, play_phase

RULEBOOK = "belisarius"

CONTROL = {"Thracia": Control.EMPIRE, "Slavs": Control.BARBARIAN}
MARCH = CAT.stratagem("forced-march")
REACTING = belisarius(1, reaction=True)


def board() -> BelState:
    return blank_state("operations", EMPIRE, control=CONTROL)


def act(state: BelState, *actions: BelAction) -> BelState:
    for action in actions:
        state = answer(GAME, state, action)
    return state


def drop(unit: int) -> Select:
    return Select(f"drop {CAT.counters[unit].id}")


def marches_offered(state: BelState) -> set[str]:
    return {
        o.item
        for o in options(state)
        if isinstance(o, Select) and o.item.startswith("forced march ")
    }


# -- 16.72: a Forced March at any time after the force's first Operation ----------------------


@pytest.mark.rule("16.72", "16.84", "16.7", "14.1")
def test_the_rules_example_a_forced_march_after_another_force_has_operated() -> None:
    """16.72's example: a force operates, another force operates, then the first one
    Forced Marches; and it may do so again (16.84)."""
    a, b, c = open_line()
    elsewhere = road()[0]
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=2)
    state = put(state, "thracia", UnitKind.GARRISON, elsewhere)
    state = give(give(state, EMPIRE, "forced-march"), EMPIRE, "forced-march")
    first = state.units.at(a)
    (second,) = state.units.at(elsewhere)
    # The first force moves a -> b and stops: the phase goes on, no question of its own.
    state = act(begin(state, a, 1), Place(b), Done())
    asked = pending(state)
    assert asked.rule == "14.1" and asked.player == EMPIRE
    assert set(options(state)) == {
        Done(),
        Select(f"force {elsewhere}"),
        Select(f"forced march {b}"),
    }
    # The second force operates (it moves, so it may Forced March too afterwards).
    state = act(state, Select(f"force {elsewhere}"), Done(), Roll((1,)))
    step = next(o for o in options(state) if isinstance(o, Place))
    state = act(state, step, Done())
    assert marches_offered(state) == {f"forced march {b}", f"forced march {step.where}"}
    # Now the first force's Forced March (16.72's example).
    state = act(state, Select(f"forced march {b}"))
    assert state.stratagems.hands[EMPIRE][MARCH] == 1
    assert pending_task(state, OperationsPhase).force == first
    assert pending(state).rule == "16.71"  # alone in its hex: the attrition die at once
    state = act(state, Roll((5,)), Done(), Roll((2,)))
    assert pending_task(state, OperationsPhase).points == 8 + 2
    state = act(state, Place(c), Done())
    assert all(state.units.where[u] == c for u in first)
    assert state.units.where[second] == step.where
    # 16.84: no limit but the markers; the second marker is still in hand.
    assert f"forced march {c}" in marches_offered(state)
    state = act(state, Select(f"forced march {c}"))
    assert state.stratagems.hands[EMPIRE][MARCH] == 0


@pytest.mark.rule("16.72", "17.25")
def test_a_forced_march_after_an_operation_that_was_only_a_combat() -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a, count=2)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    state = give(state, EMPIRE, "forced-march")
    force = state.units.at(a)
    state = act(begin(state, a, 6), Select(f"attack {b}"), Select("stand"), Select("assault"))
    while pending(state).rule == "17.74":  # Military Advantage, asked of any hand (22.1)
        state = act(state, Done())
    state = act(state, Roll((6,)))
    while not isinstance(pending(state).task, OperationsPhase):
        request = pending(state)
        if request.kind is RequestKind.CHOOSE:
            state = act(state, request.options[0])
        else:
            state = GAME.apply(state, GAME.chance_outcomes(state)[0][0])
    assert any(state.units.where[u] == a for u in force)
    state = act(state, Done())  # it has not moved at all: only the combat
    assert marches_offered(state) == {f"forced march {a}"}


@pytest.mark.rule("16.72", "16.7")
def test_no_forced_march_for_a_force_that_made_no_operation_or_without_the_marker() -> None:
    a, b, _ = open_line()
    elsewhere = road()[0]
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = put(state, "thracia", UnitKind.GARRISON, elsewhere)
    idle = act(begin(give(state, EMPIRE, "forced-march"), a, 1), Done())
    assert options(idle) == (Done(), Select(f"force {elsewhere}"))
    moved = act(begin(state, a, 1), Place(b), Done())
    assert options(moved) == (Done(), Select(f"force {elsewhere}"))


@pytest.mark.rule("16.72", "25.1")
def test_with_reaction_the_forced_march_comes_after_the_chance_to_react() -> None:
    a, b, _ = open_line()
    far = far_hex(a)
    state = blank_state("operations", EMPIRE, control=CONTROL, game=REACTING)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, far)
    state = give(give(state, EMPIRE, "forced-march"), BARBARIAN, "forced-march")
    state = start(REACTING, state, OperationsPhase())
    for action in (Select(f"force {a}"), Done(), Roll((1,)), Place(b), Done()):
        state = REACTING.apply(state, action)
    assert pending(state).rule == "25.1" and pending(state).player == BARBARIAN
    state = REACTING.apply(state, Done())
    assert pending(state).player == EMPIRE
    assert options(state) == (Done(), Select(f"forced march {b}"))


@pytest.mark.rule("16.72", "16.7", "19.2")
def test_a_fleet_force_may_forced_march_later_too() -> None:
    alexandria = city("Alexandria")
    state = blank_state("operations", EMPIRE, control={"Aegyptus": Control.EMPIRE})
    state = put(state, "aegyptus", UnitKind.FLEET, alexandria)
    state = give(state, EMPIRE, "forced-march")
    (fleet,) = state.units.at(alexandria)
    state = act(start(GAME, state, OperationsPhase()), Select(f"fleet {alexandria}"))
    state = act(state, Done(), Roll((1,)))
    sea = next(o for o in options(state) if isinstance(o, Place))
    state = act(state, sea, Done())
    assert options(state) == (Done(), Select(f"forced march fleet {sea.where}"))
    state = act(state, Select(f"forced march fleet {sea.where}"))
    assert pending_task(state, OperationsPhase).force == (fleet,)
    assert pending(state).rule == "16.71"


@pytest.mark.rule("16.73", "16.72")
def test_re_forming_takes_counters_that_never_operated_but_not_dropped_ones() -> None:
    a, b, c = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=3)
    state = put(state, "thracia", UnitKind.GARRISON, b)
    state = give(state, EMPIRE, "forced-march")
    marching = state.units.at(a)
    (waiting,) = state.units.at(b)
    state = act(start(GAME, state, OperationsPhase()), Select(f"force {a}"), Done(), Roll((6,)))
    state = act(state, Place(b), drop(marching[2]), Done())
    assert state.units.at(b) == tuple(sorted((*marching, waiting)))
    # The Forced March takes the two that marched on; the one dropped off is not
    # offered, the one that was there and never operated is (16.73).
    state = act(state, Select(f"forced march {b}"))
    assert pending_task(state, OperationsPhase).force == marching[:2]
    assert options(state) == (Done(), Select(f"join {CAT.counters[waiting].id}"))
    state = act(state, Select(f"join {CAT.counters[waiting].id}"), Roll((6,)), Done())
    state = act(state, Roll((1,)), Place(c), Done())
    assert state.units.where[marching[2]] == b
    assert all(state.units.where[u] == c for u in (*marching[:2], waiting))


# -- 13.21, 16.4, 17.24: dropping counters off on the way ---------------------------------


@pytest.mark.rule("16.4", "13.21")
def test_a_force_drops_a_counter_where_it_passes_and_goes_on() -> None:
    a, b, c = open_line()
    elsewhere = road()[0]
    state = put(board(), "thracia", UnitKind.GARRISON, a, count=2)
    state = put(state, "thracia", UnitKind.GARRISON, elsewhere)
    keeper, marcher = state.units.at(a)
    state = act(begin(state, a, 1), Place(b))
    points = pending_task(state, OperationsPhase).points
    assert {drop(keeper), drop(marcher)} <= set(options(state))
    state = act(state, drop(keeper))
    task = pending_task(state, OperationsPhase)
    assert task.force == (marcher,) and task.points == points and task.where == b
    assert drop(marcher) not in options(state)  # the force keeps a counter
    state = act(state, Place(c), Done())
    assert state.units.where[keeper] == b and state.units.where[marcher] == c
    # Neither operates again this phase (13.21): only the other force is offered.
    assert options(state) == (Done(), Select(f"force {elsewhere}"))


@pytest.mark.rule("17.24", "13.21")
def test_counters_dropped_before_an_attack_take_no_part_in_it() -> None:
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    army, garrison = sorted(state.units.at(a), key=lambda u: CAT.counters[u].kind.value)
    state = act(begin(state, a, 6), drop(garrison), Select(f"attack {b}"))
    battle = pending_task(state, Battle)
    assert battle.force == (army,)
    assert state.units.where[garrison] == a


def _passing(others: int, nationality: str = "thracia") -> tuple[BelState, tuple[int, ...]]:
    """A force of two of the operating player's counters on its way through a hex
    that holds ``others`` more counters (of ``nationality``)."""
    _, b, _ = open_line()
    control = {**CONTROL, "Gepidae": Control.BARBARIAN}
    own = "slavs" if nationality != "thracia" else "thracia"
    side = BARBARIAN if own == "slavs" else EMPIRE
    state = blank_state("operations", side, control=control)
    kind = UnitKind.WARBAND if own == "slavs" else UnitKind.GARRISON
    state = put(state, own, kind, b, count=2)
    force = state.units.at(b)
    if nationality == "thracia":  # the Empire's own: Thracians and Guard counters
        friends = [
            c.index
            for c in CAT.counters
            if c.index not in force
            and state.units.where[c.index] == AVAILABLE
            and c.nationality in ("thracia", "guard")
            and c.index != CAT.justinian
        ]
        state = move(state, friends[:others], b)
        assert len(state.units.at(b)) == 2 + others
    else:
        state = put(state, nationality, UnitKind.WARBAND, b, count=others)
    task = OperationsPhase(
        stage="move",
        force=force,
        where=b,
        points=Fraction(6),
        moved=True,
        rolled=True,
        used=force,
    )
    return start(GAME, state, task), force


@pytest.mark.rule("13.21", "13.1", "13.132")
def test_a_drop_is_offered_only_where_the_counter_may_stay() -> None:
    # Ten in the hex once the force has gone on: the limit, a drop is fine (13.1).
    fits, force = _passing(8)
    assert {drop(u) for u in force} <= set(options(fits))
    # Eleven would be left with the dropped counter: no drop (13.1).
    crowded, force = _passing(9)
    assert not {drop(u) for u in force} & set(options(crowded))
    # A Barbarian counter may never be left with another Region's (13.132).
    mixed, force = _passing(1, "gepidae")
    assert not {drop(u) for u in force} & set(options(mixed))


# -- properties ------------------------------------------------------------------------------


@pytest.mark.rule("16.72", "16.84", "13.21", "16.4", "16.73")
@settings(max_examples=30)
@given(boards(game=GAME), st.integers(0, 2**32 - 1))
def test_forced_marches_and_drops_over_random_phases(state: BelState, seed: int) -> None:
    """Over random Operations Phases, told from the actions alone: a Forced March is
    offered exactly for the locations holding the player's counters that have made an
    Operation and were never dropped, and only while he holds the marker; a dropped
    counter stays where it was dropped and is never in a force again that phase."""
    operated: set[int] = set()
    dropped: dict[int, int] = {}
    for before, action in play_phase(GAME, state, seed):
        asked = pending(before)
        task = asked.task
        for unit, where in dropped.items():
            assert before.units.where[unit] in (where, AVAILABLE)
        if not isinstance(task, OperationsPhase) or asked.kind is not RequestKind.CHOOSE:
            continue
        assert not set(task.force) & set(dropped), "a dropped counter operates again"
        if task.stage == "pick":
            expected = set()
            if before.stratagems.hands[EMPIRE][MARCH]:
                expected = {
                    f"forced march {before.units.where[u]}"
                    for u in operated - set(dropped)
                    if before.units.where[u] > AVAILABLE
                }
            assert marches_offered(before) == expected
        if task.stage == "move":
            for option in asked.options:
                if isinstance(option, Select) and option.item.startswith("drop "):
                    assert CAT.counter(option.item.removeprefix("drop ")) in task.force
                    assert len(task.force) > 1
            if isinstance(action, Place) or (
                isinstance(action, Select) and action.item.startswith("attack ")
            ):
                operated |= set(task.force)
            if isinstance(action, Select) and action.item.startswith("drop "):
                dropped[CAT.counter(action.item.removeprefix("drop "))] = task.where


@pytest.mark.rule("16.72", "22.1", "14.1")
def test_the_forced_march_question_is_put_whatever_marker_the_hand_holds() -> None:
    """Once a force has operated and no other may, whether the player is asked again
    may not tell the other player that he holds a Forced March marker (22.1): any hand
    that is not empty is asked, and without the marker he may only end the phase."""
    a, b, _ = open_line()
    state = put(board(), "thracia", UnitKind.GARRISON, a)

    def after_moving(hand: tuple[str, ...]) -> BelState:
        ready = state
        for marker in hand:
            ready = give(ready, EMPIRE, marker)
        return act(begin(ready, a, 1), Place(b), Done())

    holding = after_moving(("forced-march",))
    assert pending(holding).rule == "14.1" and pending(holding).player == EMPIRE
    assert set(options(holding)) == {Done(), Select(f"forced march {b}")}
    other = after_moving(("military-advantage",))
    assert pending(other).rule == "14.1" and pending(other).player == EMPIRE
    assert options(other) == (Done(),)
    assert GAME.observation(other, BARBARIAN) == GAME.observation(
        attrs.evolve(holding, stratagems=other.stratagems), BARBARIAN
    )
    empty = after_moving(())  # an empty hand is public: no question
    assert empty.pending is None or pending(empty).rule != "14.1"
