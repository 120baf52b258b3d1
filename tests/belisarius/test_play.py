"""Whole games of the three scenarios under seeded random play.

Every game reaches its end through every phase of both player turns, every state
keeps the physical game's invariants (every counter somewhere, every Stratagem marker
in the Pool or a hand), and states, actions and records round-trip exactly.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.sequence import PHASES, first_player
from byzantium.belisarius.state import BARBARIAN, EMPIRE, NOBODY, BelState, Draw, Roll, opponent
from byzantium.belisarius.stratagems import draw_outcomes
from byzantium.belisarius.victory import victory_points
from byzantium.core.game import TERMINAL
from tests.belisarius.support import (
    SCENARIOS,
    belisarius,
    check_invariants,
    context,
    random_game,
    trail_of,
)

RULEBOOK = "belisarius"

SEEDS = range(3)
PHASE_TITLES = [f"{name.capitalize()} Phase" for name, _ in PHASES]


def check_end(game: Belisarius, final_state: BelState) -> None:
    """A finished game's result is consistent with its Victory Points (23.0-23.3)."""
    assert game.current_player(final_state) == TERMINAL
    result = game.result(final_state)
    points = victory_points(context(game), final_state)
    assert result.points == points
    for player, label in ((EMPIRE, "Empire: "), (BARBARIAN, "Barbarian: ")):
        mine = [p for text, p in result.breakdown if text.startswith(label)]
        assert sum(mine, Fraction(0)) == points[player]
    ending = final_state.ending
    assert ending is not None
    if ending.capitulated == NOBODY:
        assert result.rule == "23.3"
        if points[EMPIRE] == points[BARBARIAN]:
            assert result.winners == ()
        else:
            assert result.winners == (
                (EMPIRE,) if points[EMPIRE] > points[BARBARIAN] else (BARBARIAN,)
            )
    else:
        assert result.rule == "3.1" and result.winners == (opponent(ending.capitulated),)


@pytest.mark.rule("3.0", "3.1", "23.0", "8.0", "11.6", "8.3")
@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=3)
@given(seed=st.integers(0, 2**16))
def test_random_games_reach_the_end_with_every_invariant_kept(scenario: int, seed: int) -> None:
    game = belisarius(scenario)
    final, trail = random_game(game, seed, check=check_invariants)
    assert trail
    assert final.ending is not None and final.ending.rule == "23.0"
    assert final.turn == game.scenario.last_turn
    check_end(game, final)


@pytest.mark.rule("3.0", "3.1")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_game_turn_runs_every_phase_of_both_player_turns(scenario: int, seed: int) -> None:
    game = belisarius(scenario)
    final, trail = trail_of(scenario, seed)
    events = [event for _, _, _, step in trail for event in step]
    turns: list[list[str]] = []
    for event in events:
        if event.kind == "turn":
            turns.append([])
        elif event.kind == "phase":
            assert turns, "a phase before the first game turn"
            turns[-1].append(event.text)
    scenario_data = game.scenario
    assert len(turns) == scenario_data.turns
    for phases in turns:
        assert phases == PHASE_TITLES * 2
    # The phasing player: the scenario's first player, then the other, every turn.
    first = first_player(context(game))
    order: dict[int, list[int]] = {}
    for before, _, _, _ in trail:
        if before.turn >= 1 and before.phase in dict(PHASES):
            seen = order.setdefault(before.turn, [])
            if not seen or seen[-1] != before.phasing:
                seen.append(before.phasing)
    assert set(order) == set(range(scenario_data.first_turn, scenario_data.last_turn + 1))
    for sequence in order.values():
        assert sequence in ([first], [first, opponent(first)], [opponent(first)])
    assert final.phase == "end of turn"


@pytest.mark.rule("8.0", "8.1", "8.51")
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_chance_nodes_have_exact_odds(scenario: int, seed: int) -> None:
    game = belisarius(scenario)
    _, trail = trail_of(scenario, seed)
    kinds: Counter[str] = Counter()
    for before, _, action, _ in trail:
        outcomes = game.chance_outcomes(before)
        if not outcomes:
            continue
        assert sum(p for _, p in outcomes) == 1
        assert action in [a for a, _ in outcomes]
        kinds[type(action).__name__] += 1
        if isinstance(action, Draw):
            request = before.pending
            assert request is not None
            counts = dict(draw_outcomes(before, request.hand))
            total = sum(counts.values())
            for outcome, p in outcomes:
                assert isinstance(outcome, Draw)
                kind = game.catalog.stratagem(outcome.stratagem)
                assert p == Fraction(counts[kind], total)
        else:
            assert isinstance(action, Roll)
            assert all(1 <= face <= 6 for face in action.dice)
    assert kinds["Draw"] > 0 and kinds["Roll"] > 0


@pytest.mark.rule("3.1")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_states_and_actions_round_trip_through_json_at_every_step(scenario: int) -> None:
    game = belisarius(scenario)
    final, trail = trail_of(scenario, 0)
    for before, _, action, _ in [*trail, (final, 0, None, ())]:
        encoded = json.loads(json.dumps(game.encode_state(before)))
        assert game.decode_state(encoded) == before
        if action is not None:
            assert game.decode_action(json.loads(json.dumps(game.encode_action(action)))) == action


@pytest.mark.rule("3.1")
@settings(max_examples=4)
@given(st.sampled_from(SCENARIOS), st.integers(0, 2**16), st.booleans())
def test_seeded_games_replay_exactly_from_their_records(
    scenario: int, seed: int, capitulation: bool
) -> None:
    from byzantium import dumps_record, loads_record, play, replay

    game = belisarius(scenario, capitulation=capitulation)
    record = play(game, seed=seed)
    final = replay(game, record)
    assert game.is_terminal(final)
    assert game.state_digest(final) == record.final
    again_game, again = loads_record(dumps_record(game, record))
    assert again == record
    assert replay(again_game, again) == final
    assert play(game, seed=seed, digests=False).actions == record.actions
    check_end(game, final)


@pytest.mark.rule("3.1", "23.3")
@settings(max_examples=6)
@given(st.sampled_from(SCENARIOS), st.integers(0, 2**16))
def test_with_capitulation_offered_games_end_by_it_or_by_the_calendar(
    scenario: int, seed: int
) -> None:
    game = belisarius(scenario, capitulation=True)
    final, _ = random_game(game, seed, check=check_invariants)
    ending = final.ending
    assert ending is not None
    if ending.capitulated == NOBODY:
        assert ending.rule == "23.0" and final.turn == game.scenario.last_turn
    else:
        assert ending.rule == "3.1"
    check_end(game, final)
