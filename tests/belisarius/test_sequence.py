"""The Sequence of Play (3.0, 3.1): game turns, player turns, phases, the end of the game.

The phases' own procedures belong to other chapters; :func:`_skeleton` runs the
sequence's tasks and records, without running it, each phase procedure that would
start, so these tests do not depend on what the phases do.
"""

from __future__ import annotations

import functools

import attrs
import pytest

from byzantium.belisarius.engine import Context, push
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.sequence import (
    PHASES,
    EndOfGameTurn,
    EnterPhase,
    GameTurn,
    PlayerTurn,
    first_player,
)
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelState,
    Done,
    RequestKind,
    Select,
    Task,
)
from byzantium.core.procedure import run_task

RULEBOOK = "belisarius"

#: The phases of 3.1, in order.
PHASE_NAMES = (
    "random events",
    "diplomacy",
    "taxation",
    "recruiting",
    "levy",
    "operations",
    "provisioning",
)

#: First player and number of game turns per scenario (34.1-34.3).
SCENARIOS = {1: (BARBARIAN, 4), 2: (EMPIRE, 5), 3: (BARBARIAN, 10)}


@functools.cache
def _game(scenario: int = 1, capitulation: bool = False) -> Belisarius:
    return Belisarius({"scenario": scenario, "capitulation": capitulation})


@functools.cache
def _base(scenario: int = 1) -> BelState:
    game = _game(scenario, True)
    state = game.initial_state()
    while state.turn < 1:
        state = game.apply(state, game.legal_actions(state)[0])
    return attrs.evolve(state, stack=(), pending=None)


PHASE_TASKS = tuple(task for _, task in PHASES)


def _skeleton(
    game: Belisarius, state: BelState, limit: int = 10_000
) -> tuple[BelState, list[tuple[int, int, str]]]:
    """Run the stack, skipping phase procedures; (turn, phasing, phase) of each skipped one."""
    ctx = Context(game, None)
    seen: list[tuple[int, int, str]] = []
    for _ in range(limit):
        if state.pending is not None or not state.stack or state.ending is not None:
            return state, seen
        task = state.stack[-1]
        state = attrs.evolve(state, stack=state.stack[:-1])
        if isinstance(task, PHASE_TASKS):
            seen.append((state.turn, state.phasing, state.phase))
            continue
        state = run_task(ctx, state, task, None)
    raise AssertionError("the sequence does not end")


@pytest.mark.rule("3.1")
def test_the_phases_are_those_of_3_1_in_order() -> None:
    assert tuple(name for name, _ in PHASES) == PHASE_NAMES
    assert all(issubclass(task, Task) for task in PHASE_TASKS)


@pytest.mark.rule("3.0", "3.1")
@pytest.mark.parametrize("player", [EMPIRE, BARBARIAN])
def test_a_player_turn_runs_every_phase_in_order(player: int) -> None:
    game = _game()
    state = push(attrs.evolve(_base(), phasing=1 - player), PlayerTurn(player))
    after, seen = _skeleton(game, state)
    assert after.pending is None
    assert seen == [(_base().turn, player, name) for name in PHASE_NAMES]
    assert after.phasing == player


@pytest.mark.rule("3.1", "34.1", "34.2", "34.3")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_the_scenarios_first_player_opens_every_game_turn(scenario: int) -> None:
    game = _game(scenario)
    first, _ = SCENARIOS[scenario]
    assert first_player(Context(game, None)) == first
    state = push(_base(scenario), GameTurn(game.scenario.first_turn))
    after, seen = _skeleton(game, state)
    assert after.ending is not None
    turns = sorted({turn for turn, _, _ in seen})
    for turn in turns:
        order = [player for t, player, _ in seen if t == turn]
        assert order == [first] * len(PHASE_NAMES) + [1 - first] * len(PHASE_NAMES)


@pytest.mark.rule("3.0", "3.1", "34.1", "34.2", "34.3")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_game_turns_run_from_the_first_to_the_last_then_the_game_ends(scenario: int) -> None:
    game = _game(scenario)
    _, length = SCENARIOS[scenario]
    first_turn, last_turn = game.scenario.first_turn, game.scenario.last_turn
    assert last_turn - first_turn + 1 == length
    state = push(attrs.evolve(_base(scenario), turn=0), GameTurn(first_turn))
    after, seen = _skeleton(game, state)
    assert sorted({turn for turn, _, _ in seen}) == list(range(first_turn, last_turn + 1))
    assert len(seen) == 2 * len(PHASE_NAMES) * length
    assert after.ending is not None
    assert after.ending.capitulated == NOBODY
    assert after.turn == last_turn
    assert after.stack == ()
    assert game.is_terminal(after)


@pytest.mark.rule("3.1")
def test_the_end_of_a_turn_before_the_last_starts_the_next() -> None:
    game = _game()
    ctx = Context(game, None)
    state = attrs.evolve(_base(), turn=game.scenario.last_turn - 1)
    after = run_task(ctx, state, EndOfGameTurn(), None)
    assert after.ending is None
    assert after.stack == (GameTurn(game.scenario.last_turn),)
    final = run_task(ctx, attrs.evolve(state, turn=game.scenario.last_turn), EndOfGameTurn(), None)
    assert final.ending is not None


@pytest.mark.rule("3.1")
@pytest.mark.parametrize("player", [EMPIRE, BARBARIAN])
def test_with_the_option_each_player_turn_opens_with_a_capitulation_choice(player: int) -> None:
    game = _game(1, True)
    ctx = Context(game, None)
    state = run_task(ctx, _base(), PlayerTurn(player), None)
    request = state.pending
    assert request is not None
    assert request.kind is RequestKind.CHOOSE
    assert request.player == player
    assert request.options == (Done(), Select("capitulate"))
    assert game.current_player(state) == player
    play_on = game.apply(state, Done())
    assert play_on.ending is None
    assert play_on.phasing == player
    gives_up = game.step(state, Select("capitulate"))
    assert gives_up.state.ending is not None
    assert gives_up.state.ending.capitulated == player
    assert gives_up.state.ending.rule == "3.1"
    assert game.is_terminal(gives_up.state)
    assert any(e.kind == "end" for e in gives_up.events)


@pytest.mark.rule("3.1")
def test_without_the_option_nobody_is_asked_to_capitulate() -> None:
    game = _game(1, False)
    state = push(_base(), PlayerTurn(EMPIRE))
    after, seen = _skeleton(game, state)
    assert after.pending is None
    assert len(seen) == len(PHASE_NAMES)


@pytest.mark.rule("3.1", "34.1")
def test_the_first_request_of_turn_one_is_the_first_players_capitulation_choice() -> None:
    game = _game(1, True)
    state = game.initial_state()
    while state.turn < 1:
        state = game.apply(state, game.legal_actions(state)[0])
    assert state.turn == game.scenario.first_turn
    assert state.pending is not None
    assert state.pending.rule == "3.1"
    assert state.pending.player == BARBARIAN == state.phasing


@pytest.mark.rule("22.1")
def test_a_look_at_the_enemys_secrets_lasts_until_the_end_of_the_game_turn() -> None:
    game = _game()
    ctx = Context(game, None)
    seen = attrs.evolve(_base(), revealed=(True, True), turn=1)
    during = run_task(ctx, seen, PlayerTurn(BARBARIAN), None)
    assert during.revealed == (True, True)
    phase = run_task(ctx, seen, EnterPhase("diplomacy"), None)
    assert phase.revealed == (True, True)
    assert phase.phase == "diplomacy"
    after = run_task(ctx, seen, EndOfGameTurn(), None)
    assert after.revealed == (False, False)


@pytest.mark.rule("3.1")
def test_a_player_turn_clears_last_turns_bars_and_marks_the_phasing_player() -> None:
    game = _game()
    ctx = Context(game, None)
    state = attrs.evolve(_base(), barred=frozenset({"Thracia"}), phasing=EMPIRE)
    after = run_task(ctx, state, PlayerTurn(BARBARIAN), None)
    assert after.barred == frozenset()
    assert after.phasing == BARBARIAN
