"""Reaction, an optional rule (25.0-25.2, and the exception to 17.21)."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.battle import Battle
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.hexmap import distance
from byzantium.belisarius.observation import BelObservation
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
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
    belisarius,
    blank_state,
    check_invariants,
    city,
    give,
    options,
    pending,
    pending_task,
    put,
    random_answer,
    random_game,
    start,
)
from tests.belisarius.test_operations import open_line, plain

RULEBOOK = "belisarius"

#: Scenario 1 with Reaction on.
REACTING = belisarius(1, reaction=True)
CONTROL = {"Thracia": Control.EMPIRE, "Slavs": Control.BARBARIAN}
FORCED_MARCH = "forced-march"
MARCH = CAT.stratagem(FORCED_MARCH)


def board(game: Belisarius = REACTING) -> BelState:
    return blank_state("operations", EMPIRE, control=CONTROL, game=game)


def marches(state: BelState, player: int) -> int:
    return state.stratagems.hands[player][MARCH]


def act(state: BelState, *actions: BelAction, game: Belisarius = REACTING) -> BelState:
    for action in actions:
        state = game.apply(state, action)
    return state


def empire_force_done(state: BelState, where: int, game: Belisarius = REACTING) -> BelState:
    """The Empire's force at ``where`` operates and stops without moving."""
    state = start(game, state, OperationsPhase())
    return act(state, Select(f"force {where}"), Done(), Roll((1,)), Done(), game=game)


def facing(adjacent: bool) -> tuple[BelState, int, int]:
    """An Empire Garrison at ``a``, a Slav Warband next to it (``adjacent``) or two
    hexes off; the Barbarian holds a Forced March marker."""
    a, b, c = open_line()
    there = b if adjacent else c
    state = put(board(), "thracia", UnitKind.GARRISON, a)
    state = put(state, "slavs", UnitKind.WARBAND, there)
    return give(state, BARBARIAN, FORCED_MARCH), a, there


@pytest.mark.rule("25.0", "25.1")
def test_the_non_phasing_player_is_offered_a_reaction_after_each_force() -> None:
    state, a, c = facing(adjacent=False)
    state = empire_force_done(state, a)
    asked = pending(state)
    assert asked.rule == "25.1" and asked.player == BARBARIAN
    assert asked.options == (Done(), Select(f"react {c}"))
    assert REACTING.current_player(state) == BARBARIAN


@pytest.mark.rule("25.1", "22.1")
def test_the_reacting_player_sees_the_question_and_the_phasing_player_only_who_decides() -> None:
    state, a, c = facing(adjacent=False)
    state = empire_force_done(state, a)
    mine = REACTING.observation(state, BARBARIAN)
    theirs = REACTING.observation(state, EMPIRE)
    assert isinstance(mine, BelObservation) and isinstance(theirs, BelObservation)
    assert mine.pending is not None and theirs.pending is not None
    assert mine.pending.player == theirs.pending.player == BARBARIAN
    assert mine.pending.options == (Done(), Select(f"react {c}"))
    assert theirs.pending.options == () and theirs.pending.prompt == ""
    assert theirs.phasing == EMPIRE


@pytest.mark.rule("25.1")
def test_a_reaction_spends_a_forced_march_and_is_a_standard_operation() -> None:
    state, a, c = facing(adjacent=False)
    (warband,) = state.units.at(c)
    state = empire_force_done(state, a)
    before_pool = state.stratagems.pool[MARCH]
    state = act(state, Select(f"react {c}"))
    assert marches(state, BARBARIAN) == 0
    assert state.stratagems.pool[MARCH] == before_pool + 1
    # The usual forming question (13.23), then the Operations Points roll (14.21).
    assert pending(state).rule == "13.21" and pending(state).player == BARBARIAN
    assert pending_task(state, OperationsPhase).reaction and pending_task(
        state, OperationsPhase
    ).force == (warband,)
    state = act(state, Done())
    assert pending(state).kind is RequestKind.ROLL
    state = act(state, Roll((2,)))
    task = pending_task(state, OperationsPhase)
    assert task.points == CAT.counters[warband].operations + 2
    assert pending(state).player == BARBARIAN and pending(state).rule == "16.1"
    # It moves in the Barbarian's own way: enemy Zones of Control are the Empire's.
    _, b, _ = open_line()
    assert Place(b) in options(state)
    state = act(state, Place(b))
    assert state.units.where[warband] == b


@pytest.mark.rule("25.1", "17.21", "17.11")
def test_a_reacting_force_attacks_and_the_phasing_player_defends() -> None:
    state, a, b = facing(adjacent=True)
    state = empire_force_done(state, a)
    state = act(state, Select(f"react {b}"), Done(), Roll((6,)))
    assert Select(f"attack {a}") in options(state)
    state = act(state, Select(f"attack {a}"))
    asked = pending(state)
    assert isinstance(asked.task, Battle)
    assert asked.task.attacking_player(state) == BARBARIAN
    # 17.5: the defender, here the phasing player, stands or withdraws.
    assert asked.rule == "17.5" and asked.player == EMPIRE
    state = act(state, Select("stand"))
    assert pending(state).player == BARBARIAN  # the attacker's table (17.6)


@pytest.mark.rule("25.1")
def test_declining_keeps_the_marker_and_the_phasing_player_goes_on() -> None:
    state, a, _ = facing(adjacent=False)
    d = far_hex(a)
    state = put(state, "thracia", UnitKind.GARRISON, d)
    state = act(empire_force_done(state, a), Done())
    assert marches(state, BARBARIAN) == 1
    asked = pending(state)
    assert asked.rule == "14.1" and asked.player == EMPIRE
    assert asked.options == (Done(), Select(f"force {d}"))


@pytest.mark.rule("25.1", "25.2")
def test_after_a_reaction_the_phasing_player_goes_on_and_it_is_not_repeated() -> None:
    state, a, c = facing(adjacent=False)
    state = give(state, BARBARIAN, FORCED_MARCH)
    d = far_hex(a)
    state = put(state, "thracia", UnitKind.GARRISON, d)
    state = empire_force_done(state, a)
    state = act(state, Select(f"react {c}"), Done(), Roll((1,)), Done())
    # Back to the phasing player: his spent force stays spent (13.21).
    asked = pending(state)
    assert asked.rule == "14.1" and asked.player == EMPIRE
    assert asked.options == (Done(), Select(f"force {d}"))
    # His next force done, the Slavs' only force has reacted already (25.2): no offer,
    # though the Barbarian still holds a Forced March marker; the phase is over.
    state = act(state, Select(f"force {d}"), Done(), Roll((1,)), Done())
    assert marches(state, BARBARIAN) == 1
    assert state.pending is None


@pytest.mark.rule("25.2")
def test_a_reacted_force_operates_normally_in_its_own_player_turn() -> None:
    state, a, c = facing(adjacent=False)
    state = empire_force_done(state, a)
    state = act(state, Select(f"react {c}"), Done(), Roll((1,)), Done())
    assert state.pending is None  # the Empire's phase is over
    own = blank_state("operations", BARBARIAN, control=CONTROL, game=REACTING)
    own = start(REACTING, attrs_units(own, state), OperationsPhase())
    assert Select(f"force {c}") in options(own)


@pytest.mark.rule("25.1", "16.71", "16.7")
def test_no_attrition_and_no_forced_march_in_a_reaction() -> None:
    """Rulings: the marker pays for the Reaction (no 16.71 attrition roll), and the
    Reaction is one operation (no Forced March after it)."""
    state, a, c = facing(adjacent=False)
    state = give(state, BARBARIAN, FORCED_MARCH)
    _, b, _ = open_line()
    state = empire_force_done(state, a)
    state = act(state, Select(f"react {c}"), Done())
    assert pending(state).rule == "14.21"  # straight to the Operations Points roll
    state = act(state, Roll((3,)), Place(b))
    # The force entered the Empire's Zone of Control and stops; no 16.7 question.
    assert Done() in options(state)
    state = act(state, Done())
    # The Reaction is over, and so is the Empire's phase (he has no force left).
    assert state.pending is None
    assert marches(state, BARBARIAN) == 1


@pytest.mark.rule("25.0")
def test_with_the_option_off_nobody_reacts() -> None:
    state, a, _ = facing(adjacent=False)
    d = far_hex(a)
    state = put(state, "thracia", UnitKind.GARRISON, d)
    plain_state = blank_state("operations", EMPIRE, control=CONTROL, game=GAME)
    plain_state = attrs_units(plain_state, state)
    assert marches(plain_state, BARBARIAN) == 1
    after = empire_force_done(plain_state, a, game=GAME)
    asked = pending(after)
    assert asked.rule == "14.1" and asked.player == EMPIRE
    assert marches(after, BARBARIAN) == 1


def far_hex(a: int) -> int:
    """A plain hex well away from ``a`` and the open line's hexes."""
    for hex_ in sorted(CAT.map.hexes()):
        if plain(hex_) and 4 <= distance(a, hex_) <= 6:
            return hex_
    raise AssertionError("no plain hex nearby")


def attrs_units(target: BelState, source: BelState) -> BelState:
    """``target`` with the counters and markers placed as in ``source``."""
    return attrs.evolve(target, units=source.units, stratagems=source.stratagems)


# -- properties ----------------------------------------------------------------------------

#: Plain hexes around the open line, for random boards.
NEAR = tuple(h for h in sorted(CAT.map.hexes()) if plain(h) and distance(open_line()[0], h) <= 3)


@st.composite
def boards(draw: st.DrawFn, least: int = 0, game: Belisarius = REACTING) -> BelState:
    """An Empire and a Barbarian side of one to three stacks each near the open line,
    with up to three Forced March markers each (at least ``least`` the Barbarian's)."""
    hexes = draw(st.lists(st.sampled_from(NEAR), min_size=2, max_size=6, unique=True))
    split = draw(st.integers(1, len(hexes) - 1))
    state = board(game)
    empire, barbarian = hexes[:split][:3], hexes[split:][:3]
    for hex_ in empire:
        state = put(state, "thracia", UnitKind.GARRISON, hex_, draw(st.integers(1, 2)))
    for hex_ in barbarian:
        state = put(state, "slavs", UnitKind.WARBAND, hex_, draw(st.integers(1, 2)))
    for player, fewest in ((EMPIRE, 0), (BARBARIAN, least)):
        for _ in range(draw(st.integers(fewest, 3))):
            state = give(state, player, FORCED_MARCH)
    return state


def play_phase(
    game: Belisarius, state: BelState, seed: int, cap: int = 400
) -> list[tuple[BelState, BelAction]]:
    """The Operations Phase played out with seeded random answers (going on, rather
    than Done, three times in four)."""
    rng = random.Random(seed)
    state = start(game, state, OperationsPhase())
    steps: list[tuple[BelState, BelAction]] = []
    while state.pending is not None and len(steps) < cap:
        offered = state.pending.options
        if len(offered) == 1:
            action = offered[0]  # no draw from the seed: a forced answer changes nothing
        elif len(offered) > 1 and offered[0] == Done() and rng.random() < 0.75:
            action = rng.choice(offered[1:])
        else:
            action = random_answer(game, state, rng)
        steps.append((state, action))
        state = game.apply(state, action)
    return steps


@pytest.mark.rule("25.1", "25.2")
@settings(max_examples=30)
@given(boards(least=1), st.integers(0, 2**32 - 1))
def test_reactions_are_paid_for_and_no_counter_reacts_twice(state: BelState, seed: int) -> None:
    reacted: set[int] = set()
    for before, action in play_phase(REACTING, state, seed):
        asked = pending(before)
        task = asked.task
        if asked.rule == "25.1":
            assert asked.player == BARBARIAN and asked.options[0] == Done()
            # Asked with or without a Forced March marker (22.1); without one, the
            # only answer is to let the enemy go on.
            if marches(before, BARBARIAN) == 0:
                assert asked.options == (Done(),)
            if isinstance(action, Select):
                after = REACTING.apply(before, action)
                assert marches(after, BARBARIAN) == marches(before, BARBARIAN) - 1
        if isinstance(task, OperationsPhase) and task.reaction:
            if asked.kind is RequestKind.CHOOSE and asked.rule in ("13.21", "16.1", "14.1"):
                assert asked.player == BARBARIAN
            if asked.kind is RequestKind.ROLL and task.stage == "roll":
                assert not reacted & set(task.force), "a counter reacts twice"
                reacted |= set(task.force)
            assert asked.rule not in ("16.7", "16.71")


@pytest.mark.rule("25.0", "25.1")
@settings(max_examples=20)
@given(boards(), st.integers(0, 2**32 - 1))
def test_without_a_forced_march_the_option_changes_nothing(state: BelState, seed: int) -> None:
    """While the Barbarian holds no Forced March marker, a phase with the option on
    asks exactly what it asks with the option off, whatever the choices, but for the
    Reaction questions that offer only Done (a hand with other markers is asked all
    the same, 22.1).

    He starts without one, but a combat result may hand him one during the phase
    (8.2): from that state on he may react and the two runs may part (25.1), so they
    are compared up to it (and to their ends if he never holds one).
    """
    while marches(state, BARBARIAN):
        stratagems = state.stratagems.transfer(MARCH, BARBARIAN, False)
        state = attrs.evolve(state, stratagems=stratagems)
    on = []
    for before, action in play_phase(REACTING, state, seed):
        if pending(before).rule == "25.1" and marches(before, BARBARIAN) == 0:
            assert pending(before).options == (Done(),)
            continue
        on.append((before, action))
    off = play_phase(GAME, state, seed)
    armed = next((i for i, (s, _) in enumerate(on) if marches(s, BARBARIAN)), None)
    if armed is None:
        assert len(on) == len(off)
    else:
        # The marker came from a result of the phase, in both runs alike.
        assert len(off) >= armed
        assert armed == len(off) or marches(off[armed][0], BARBARIAN)
    for (s_on, a_on), (s_off, a_off) in zip(on[:armed], off[:armed], strict=True):
        r_on, r_off = pending(s_on), pending(s_off)
        assert r_on.rule != "25.1"
        assert (r_on.kind, r_on.rule, r_on.player, r_on.options, r_on.prompt) == (
            r_off.kind,
            r_off.rule,
            r_off.player,
            r_off.options,
            r_off.prompt,
        )
        assert a_on == a_off
        assert s_on.units == s_off.units
    for s_on, _ in on:
        if pending(s_on).rule == "25.1":
            assert marches(s_on, BARBARIAN) >= 1


@pytest.mark.rule("25.1", "25.2")
@pytest.mark.parametrize("seed", [3, 11])
def test_whole_games_with_reaction(seed: int) -> None:
    """Random games with the option: every state keeps the invariants; no counter
    reacts twice in a game turn; a reaction is always the non-phasing player's."""
    game = belisarius(1, reaction=True)
    _, trail = random_game(game, seed, check=check_invariants)
    reacted: dict[int, set[int]] = {}
    for state, actor, _, _ in trail:
        asked = pending(state)
        task = asked.task
        if asked.rule == "25.1":
            assert actor == 1 - state.phasing
        if (
            isinstance(task, OperationsPhase)
            and task.reaction
            and asked.kind is RequestKind.ROLL
            and task.stage == "roll"
        ):
            turn = reacted.setdefault(state.turn, set())
            assert not turn & set(task.force)
            turn |= set(task.force)


@pytest.mark.rule("25.1", "19.2")
def test_a_fleet_force_may_react_too() -> None:
    alexandria, sea = city("Alexandria"), 5339
    control = {"Aegyptus": Control.EMPIRE, "Vandals": Control.BARBARIAN}
    state = blank_state("operations", EMPIRE, control=control, game=REACTING)
    state = put(state, "aegyptus", UnitKind.GARRISON, alexandria)
    state = put(state, "vandals", UnitKind.FLEET, sea)
    (fleet,) = state.units.at(sea)
    state = empire_force_done(give(state, BARBARIAN, FORCED_MARCH), alexandria)
    assert options(state) == (Done(), Select(f"react fleet {sea}"))
    state = act(state, Select(f"react fleet {sea}"), Done(), Roll((2,)))
    assert marches(state, BARBARIAN) == 0
    assert pending_task(state, OperationsPhase).reaction and pending_task(
        state, OperationsPhase
    ).force == (fleet,)
    assert pending(state).player == BARBARIAN
    assert any(isinstance(o, Place) for o in options(state))
