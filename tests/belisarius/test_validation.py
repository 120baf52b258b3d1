"""A position of Belisarius that validates can be played on (issue 36).

Validation (``decode_state``) refuses, in one line naming the rule, the positions that
used to pass and then failed in play: a game not over with nothing left on its
procedure stack, a stack repeated or reversed, a ``phase`` that is unknown or that the
stack contradicts (the sequence of play, 3.1), and numbers out of all bounds (a treasury
of 10**30, 10.14; a force's Operations Points, 14.21). A component file's numbers are
bounded when it is read (a map Forage of 2**63 - 1).

The property tests take the states of whole random games of the three scenarios with
the optional rules off and all on: every one validates, and copies edited in their
structure (:mod:`tests.structural_edits`) are refused by validation or play on to the
end raising nothing but the library's errors.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, cast

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from byzantium.belisarius.engine import Context
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.negotiations import END_GAME, Negotiations, Proposal
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.sequence import CAPITULATE
from byzantium.belisarius.state import MAX_SOLIDUS, BelState, Select
from byzantium.core.codec import JSONValue
from byzantium.core.errors import ByzantiumError, InvalidStateError
from byzantium.core.procedure import run_task
from byzantium.core.provenance import ComponentError
from tests.belisarius.support import belisarius, idle
from tests.belisarius.test_whole_games import optional_rules
from tests.structural_edits import SHAPES, structurally_edited

RULEBOOK = "belisarius"
DATA = Path(__file__).resolve().parents[2] / "byzantium" / "belisarius" / "data"

#: The games played: each scenario with the optional rules off, and all on
#: (capitulation offered too).
GAMES = [(scenario, on) for scenario in (1, 2, 3) for on in (False, True)]
#: Steps a game edited in the middle may take to its end.
CAP = 30_000
EXAMPLES = int(os.environ.get("BYZANTIUM_FUZZ_EXAMPLES", "25"))


def game_of(scenario: int, on: bool) -> Belisarius:
    if on:
        return belisarius(scenario, **optional_rules(True), capitulation=True)
    return belisarius(scenario)


def play(game: Belisarius, state: BelState, rng: random.Random) -> BelState:
    """Random legal actions (chance at random too) until the game ends."""
    for _ in range(CAP):
        if game.is_terminal(state):
            return state
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    raise AssertionError(f"the game did not end within {CAP} steps")


#: The choices that end a game early, which the games of :func:`trail` never make.
EARLY_ENDS = (Select(CAPITULATE), Select(END_GAME))


@cache
def trail(scenario: int, on: bool, seed: int = 1) -> tuple[BelState, ...]:
    """Every state of a seeded random game played to its last turn, its end included."""
    game = game_of(scenario, on)
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        state = game.apply(state, rng.choice([a for a in actions if a not in EARLY_ENDS]))
        states.append(state)
    return tuple(states)


def state_where(predicate: Callable[[BelState], bool], scenario: int = 1, on: bool = False) -> Any:
    return next(s for s in trail(scenario, on) if predicate(s))


def refused(game: Belisarius, state: BelState, *words: str) -> str:
    """Validation of the encoded state refuses it in one line holding ``words``."""
    with pytest.raises(InvalidStateError) as caught:
        game.decode_state(game.encode_state(state))
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


def mid_game(state: BelState) -> bool:
    return state.turn >= 2 and state.phase == "taxation" and state.pending is not None


def stack_kinds(state: BelState) -> list[str]:
    return [type(task).__name__ for task in state.stack]


# -- the procedure stack as a whole (3.1) ---------------------------------------------------


@pytest.mark.rule("3.1", game="belisarius")
def test_a_game_not_over_with_an_empty_stack_is_refused() -> None:
    state = state_where(mid_game)
    refused(belisarius(), attrs.evolve(state, stack=()), "rule 3.1", "no step of the turn is left")


@pytest.mark.rule("3.1", game="belisarius")
@pytest.mark.parametrize(("scenario", "on"), GAMES)
def test_a_repeated_or_reversed_stack_is_refused(scenario: int, on: bool) -> None:
    game = game_of(scenario, on)
    for state in trail(scenario, on)[:: max(1, len(trail(scenario, on)) // 40)]:
        if game.is_terminal(state):
            continue
        refused(game, attrs.evolve(state, stack=state.stack + state.stack), "rule 3.1")
        if len(set(state.stack)) > 1:
            refused(game, attrs.evolve(state, stack=state.stack[::-1]), "rule 3.1")


@pytest.mark.rule("3.1", game="belisarius")
def test_a_stack_with_a_step_of_the_sequence_repeated_is_refused() -> None:
    state = state_where(mid_game)
    assert stack_kinds(state)[-1] == "EnterPhase"
    doubled = attrs.evolve(state, stack=(*state.stack, state.stack[-1]))
    refused(belisarius(), doubled, "rule 3.1", "in no order the sequence of play makes")


@pytest.mark.rule("3.1", game="belisarius")
def test_a_stack_without_the_end_of_the_turn_is_refused() -> None:
    state = state_where(mid_game)
    refused(belisarius(), attrs.evolve(state, stack=state.stack[1:]), "rule 3.1")


@pytest.mark.rule("3.1", game="belisarius")
@pytest.mark.parametrize("phase", ["", "lunch", "Taxation", "taxation " * 5])
def test_an_unknown_phase_is_refused(phase: str) -> None:
    state = state_where(mid_game)
    refused(belisarius(), attrs.evolve(state, phase=phase), "rule 3.1", "none of the game's")


@pytest.mark.rule("3.1", "23.0", game="belisarius")
def test_a_finished_game_in_an_unknown_phase_is_refused() -> None:
    final = trail(1, False)[-1]
    assert final.ending is not None
    belisarius().validate(final)
    refused(belisarius(), attrs.evolve(final, phase="lunch"), "rule 3.1", "none of the game's")


@pytest.mark.rule("3.1", game="belisarius")
@pytest.mark.parametrize("phase", ["random events", "levy", "provisioning", "setup"])
def test_a_phase_the_stack_contradicts_is_refused(phase: str) -> None:
    state = state_where(mid_game)
    refused(
        belisarius(),
        attrs.evolve(state, phase=phase),
        "rule 3.1",
        f"phase {phase!r} but the procedure stack is in the taxation phase",
    )


@pytest.mark.rule("3.1", game="belisarius")
def test_the_other_player_phasing_is_refused() -> None:
    state = state_where(mid_game)
    other = attrs.evolve(state, phasing=1 - state.phasing)
    refused(belisarius(), other, "rule 3.1", "the procedure is in the other's turn")


@pytest.mark.rule("3.1", "34.0", game="belisarius")
def test_a_turn_stack_during_set_up_or_a_set_up_stack_in_a_turn_is_refused() -> None:
    game = belisarius()
    state = state_where(mid_game)
    refused(game, attrs.evolve(state, turn=0), "rule 3.1", "game turn 0")
    setup = game.initial_state()
    refused(game, attrs.evolve(setup, turn=2), "rule 3.1", "game turn 2")


@pytest.mark.rule("3.1", game="belisarius")
def test_a_second_phase_procedure_is_refused() -> None:
    state = state_where(operating)
    assert state.pending is not None
    twice = attrs.evolve(state, stack=(*state.stack, state.pending.task))
    refused(belisarius(), twice, "rule 3.1", "in no order the sequence of play makes")


@pytest.mark.rule("3.1", "10.0", "17.0", game="belisarius")
def test_a_combat_step_in_the_taxation_phase_is_refused() -> None:
    battle = next(
        s.pending.task
        for s in trail(1, False)
        if s.pending is not None and type(s.pending.task).__name__ == "Battle"
    )
    state = state_where(mid_game)
    stray = attrs.evolve(state, stack=(*state.stack, battle))
    refused(belisarius(), stray, "rule 3.1", "a Battle step in the taxation phase")


@pytest.mark.rule("3.1", "24.0", game="belisarius")
def test_every_state_of_the_sequence_validates_with_every_option() -> None:
    """Sanity of the table of moments: the capitulation question, the negotiation
    windows and the end of the turn's promises are all moments play reaches."""
    game = game_of(1, True)
    seen = {(s.phase, type(s.pending.task).__name__) for s in trail(1, True) if s.pending}
    assert ("negotiations", "Negotiations") in seen
    assert any(kind == "PlayerTurn" for _, kind in seen)
    for state in trail(1, True):
        game.validate(state)


# -- numbers and names ------------------------------------------------------------------------


@pytest.mark.rule("10.14", game="belisarius")
@pytest.mark.parametrize("solidus", [10**30, 2**63 - 1, MAX_SOLIDUS + 1, -1])
def test_a_treasury_out_of_bounds_is_refused(solidus: int) -> None:
    state = state_where(mid_game)
    refused(belisarius(), attrs.evolve(state, solidus=(solidus, 3)), "rule 10.14", "treasury")


@pytest.mark.rule("10.14", game="belisarius")
def test_a_treasury_at_the_bound_is_accepted() -> None:
    state = state_where(mid_game)
    belisarius().validate(attrs.evolve(state, solidus=(MAX_SOLIDUS, 0)))


def operating(state: BelState) -> bool:
    """A force under way in an Operations Phase (its step asks where to go)."""
    task = state.pending.task if state.pending is not None else None
    return isinstance(task, OperationsPhase) and bool(task.force) and task.points > 0


def _asking(state: BelState, **changes: object) -> BelState:
    """The state with fields of the task that asks its request changed."""
    request = state.pending
    assert request is not None
    task = attrs.evolve(cast("Any", request.task), **changes)
    return attrs.evolve(state, pending=attrs.evolve(request, task=task))


@pytest.mark.rule("14.21", game="belisarius")
@pytest.mark.parametrize(
    "points", [Fraction(10**30), Fraction(43), Fraction(1, 7), Fraction(2**63 - 1)]
)
def test_operations_points_no_force_can_have_are_refused(points: Fraction) -> None:
    state = state_where(operating)
    refused(belisarius(), _asking(state, points=points), "rule 14.21", "Operations Points")


@pytest.mark.rule("11.8", game="belisarius")
def test_more_than_ten_reinforcements_in_a_box_is_refused() -> None:
    state = state_where(mid_game)
    refused(belisarius(), attrs.evolve(state, boxed=(2,) * 11), "rule 11.8", "box 2")


@pytest.mark.rule("24.1", game="belisarius")
@pytest.mark.parametrize(
    "proposal",
    [
        Proposal(0, solidus=(10**30, 0)),
        Proposal(0, markers=(("no-such-marker",), ())),
        Proposal(0, neutral=("Atlantis",)),
        Proposal(7),
    ],
)
def test_an_offer_of_what_does_not_exist_is_refused(proposal: Proposal) -> None:
    game = game_of(1, True)
    state = next(
        s
        for s in trail(1, True)
        if s.pending is not None
        and isinstance(s.pending.task, Negotiations)
        and s.pending.task.proposal is not None
    )
    edited = _asking(state, proposal=proposal)
    assert edited.pending is not None
    # The question the engine asks of that offer (where it can ask one), so that only
    # the offer is wrong.
    with contextlib.suppress(InvalidStateError):
        asked = run_task(Context(game, None), idle(edited), edited.pending.task, None)
        edited = attrs.evolve(edited, pending=asked.pending)
    refused(game, edited, "rule 24.1", "offer")


def _user_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    shutil.copytree(DATA, folder)
    return folder


def _replace_first(path: Path, start: str, line: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, text in enumerate(lines) if text.startswith(start))
    lines[number] = line
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.rule("20.1", "23.0", game="belisarius")
@pytest.mark.parametrize(
    ("file", "start", "value"),
    [
        ("map.toml", "forage = ", 2**63 - 1),
        ("map.toml", "forage = ", 10**4),
        ("scenarios.toml", "points = ", -(2**63)),
        ("counters.toml", "combat = ", 10**4),
        ("map.toml", "forage = ", "inf"),
    ],
)
def test_a_component_number_out_of_bounds_is_refused_when_read(
    tmp_path: Path, file: str, start: str, value: object
) -> None:
    folder = _user_copy(tmp_path)
    _replace_first(folder / file, start, f"{start}{value}")
    with pytest.raises(ComponentError) as caught:
        Belisarius({"components": str(folder)})
    message = str(caught.value)
    assert "\n" not in message and file in message and "beyond the bound" in message


# -- whole games ---------------------------------------------------------------------------------


@pytest.mark.rule("3.1", game="belisarius")
@pytest.mark.parametrize(("scenario", "on"), GAMES)
def test_every_state_of_whole_random_games_validates(scenario: int, on: bool) -> None:
    game = game_of(scenario, on)
    states = trail(scenario, on, seed=7)
    assert game.is_terminal(states[-1])
    for state in states:
        game.validate(state)


@cache
def _encoded(scenario: int, on: bool) -> tuple[JSONValue, ...]:
    game = game_of(scenario, on)
    states = trail(scenario, on)
    return tuple(game.encode_state(s) for s in states[:: max(1, len(states) // 60)])


@pytest.mark.rule("3.1", game="belisarius")
@pytest.mark.parametrize(("scenario", "on"), GAMES)
@settings(
    max_examples=max(1, EXAMPLES // 5),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_structurally_edited_states_are_refused_or_play_to_the_end(
    scenario: int, on: bool, data: st.DataObject
) -> None:
    game = game_of(scenario, on)
    positions = _encoded(scenario, on)
    original = data.draw(st.sampled_from(positions))
    edited, edits = data.draw(structurally_edited(original, positions, SHAPES["belisarius"]))
    try:
        state = game.decode_state(edited)
    except ByzantiumError as error:
        message = str(error)
    else:
        message = ""
    if message:
        assert "\n" not in message, edits
        return
    rng = random.Random(data.draw(st.integers(0, 1000)))
    try:
        play(game, state, rng)
    except ByzantiumError:
        pass
    except Exception as error:  # pragma: no cover - the failure reported
        raise AssertionError(f"{edits}: {type(error).__name__}: {error}") from error
