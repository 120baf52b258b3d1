"""Rule-tagged tests of the test game Pig: a fully traced rule book in miniature."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium import CHANCE, TERMINAL, IllegalActionError, load_game
from tests.pig import Face, Hold, PigGame, PigState, RollDie
from tests.strategies import reachable_states

RULEBOOK = "pig"

GAME = PigGame()


def player_nodes() -> st.SearchStrategy[PigState]:
    return st.builds(
        PigState,
        scores=st.tuples(st.integers(0, 19), st.integers(0, 19)),
        turn_total=st.integers(0, 30),
        to_move=st.integers(0, 1),
    ) | reachable_states(GAME).filter(lambda s: GAME.current_player(s) in (0, 1))


def chance_nodes() -> st.SearchStrategy[PigState]:
    """States where the die is about to be rolled: a player node after RollDie."""
    return player_nodes().map(lambda s: GAME.apply(s, RollDie()))


@pytest.mark.rule("1.1")
def test_two_players_start_level_and_player_zero_moves_first() -> None:
    state = GAME.initial_state()
    assert GAME.NUM_PLAYERS == 2
    assert state.scores == (0, 0)
    assert GAME.current_player(state) == 0


@pytest.mark.rule("2.1")
@given(player_nodes())
def test_a_player_may_always_hold_or_roll(state: PigState) -> None:
    assert GAME.legal_actions(state) == (Hold(), RollDie())


@pytest.mark.rule("2.1")
@given(player_nodes())
def test_rolling_hands_the_decision_to_the_die(state: PigState) -> None:
    after = GAME.apply(state, RollDie())
    assert GAME.current_player(after) == CHANCE
    assert [a for a, _ in GAME.chance_outcomes(after)] == [Face(n) for n in range(1, 7)]


@pytest.mark.rule("2.2")
@given(chance_nodes())
def test_a_one_loses_the_turn_total_and_passes_the_turn(state: PigState) -> None:
    after = GAME.apply(state, Face(1))
    assert after.turn_total == 0
    assert after.scores == state.scores
    assert after.to_move == 1 - state.to_move


@pytest.mark.rule("2.3")
@given(chance_nodes(), st.integers(2, 6))
def test_other_faces_add_to_the_turn_total(state: PigState, face: int) -> None:
    after = GAME.apply(state, Face(face))
    assert after.turn_total == state.turn_total + face
    assert after.to_move == state.to_move
    assert GAME.current_player(after) == state.to_move


@pytest.mark.rule("2.4")
@given(player_nodes())
def test_holding_banks_the_turn_total_and_passes(state: PigState) -> None:
    after = GAME.apply(state, Hold())
    mover = state.to_move
    assert after.scores[mover] == state.scores[mover] + state.turn_total
    assert after.scores[1 - mover] == state.scores[1 - mover]
    assert after.turn_total == 0
    assert after.to_move == 1 - mover or GAME.is_terminal(after)


@pytest.mark.rule("3.1")
def test_reaching_the_target_ends_the_game_with_that_winner() -> None:
    state = PigState(scores=(14, 3), turn_total=6, to_move=0)
    final = GAME.apply(state, Hold())
    assert GAME.current_player(final) == TERMINAL
    result = GAME.result(final)
    assert result.winners == (0,)
    assert result.scores == (20, 3)
    assert GAME.returns(final) == (1.0, -1.0)
    with pytest.raises(IllegalActionError) as error:
        GAME.apply(final, RollDie())
    assert error.value.rule == "3.1"


@pytest.mark.rule("3.1")
def test_one_point_short_of_the_target_plays_on() -> None:
    state = GAME.apply(PigState(scores=(14, 3), turn_total=5, to_move=0), Hold())
    assert GAME.current_player(state) == 1
    with pytest.raises(ValueError, match="not over"):
        GAME.result(state)


@pytest.mark.rule("3.1#2")
@pytest.mark.parametrize("target", [10, 20, 50, 100])
def test_the_target_option_sets_the_winning_score(target: int) -> None:
    game = load_game("pig", target=target)
    below = PigState(scores=(target - 1, 0), to_move=1)
    assert not game.is_terminal(below)
    assert game.is_terminal(PigState(scores=(target, 0), to_move=1))
