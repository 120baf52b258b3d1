"""Issue 36: a position of Sword of Orthodoxy that validates can be played on.

The positions testers found accepted and then failing in play (or ending wrongly) are
refused by validation itself, in one line naming the rule: a mid-game procedure
emptied, repeated or reversed; the Turn moved away from its procedure and
Chronographia; facts the rules never remember or that cannot have happened yet;
counters of no known name; numbers far beyond anything the box holds.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from byzantium.core.codec import JSONValue
from byzantium.core.errors import InvalidStateError
from byzantium.core.game import Game
from byzantium.core.registry import load_game
from byzantium.sword_of_orthodoxy.state import SooState
from byzantium.sword_of_orthodoxy.tensor import COUNTERS, TURN_FACTS

SOO: Game[Any, Any] = load_game("sword-of-orthodoxy")
HUGE = 10**30


def _state(predicate: Callable[[SooState], bool], game: Game[Any, Any] = SOO) -> SooState:
    """The first state of seeded random games that matches ``predicate``."""
    for seed in range(200):
        rng = random.Random(seed)
        state: SooState = game.initial_state()
        while not game.is_terminal(state):
            if predicate(state):
                return state
            state = game.apply(state, rng.choice(game.legal_actions(state)))
    raise AssertionError("no such state")  # pragma: no cover


def _action_phase_of_turn_2(state: SooState) -> bool:
    return (
        state.turn == 2
        and state.pending is not None
        and type(state.pending.task).__name__ == "ActionPhase"
    )


def _deep_in_a_turn(state: SooState) -> bool:
    return state.turn == 2 and len(state.stack) >= 5


def _edited(state: SooState, edit: Callable[[dict[str, Any]], object]) -> JSONValue:
    data = copy.deepcopy(SOO.encode_state(state))
    assert isinstance(data, dict)
    edit(data)
    return data


def _refused(data: JSONValue, *words: str) -> str:
    with pytest.raises(InvalidStateError) as caught:
        SOO.decode_state(data)
    message = str(caught.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


# -- the procedure as a whole (Appendix C) ------------------------------------------------


@pytest.mark.rule("C", game="sword-of-orthodoxy")
def test_a_mid_game_state_with_an_empty_procedure_is_refused() -> None:
    state = _state(_action_phase_of_turn_2)
    _refused(_edited(state, lambda d: d.__setitem__("stack", [])), "rule C", "procedure is empty")


@pytest.mark.rule("C", game="sword-of-orthodoxy")
def test_a_repeated_procedure_is_refused() -> None:
    state = _state(_deep_in_a_turn)
    data = _edited(state, lambda d: d.__setitem__("stack", d["stack"] + d["stack"]))
    _refused(data, "rule C", "NextTurn step is on the procedure twice")


@pytest.mark.rule("C", game="sword-of-orthodoxy")
def test_a_reversed_procedure_is_refused() -> None:
    state = _state(_deep_in_a_turn)
    _refused(_edited(state, lambda d: d["stack"].reverse()), "rule C", "does not rest on")


@pytest.mark.rule("C", game="sword-of-orthodoxy")
def test_phases_out_of_order_are_refused() -> None:
    state = _state(_deep_in_a_turn)

    def swap(data: dict[str, Any]) -> None:
        data["stack"][1], data["stack"][2] = data["stack"][2], data["stack"][1]

    _refused(_edited(state, swap), "rule C", "out of order")


@pytest.mark.rule("C", game="sword-of-orthodoxy")
def test_a_phase_asking_out_of_its_turn_is_refused() -> None:
    """The End of Turn Phase still waits on the stack while the Action Phase asks: the
    Tax Phase cannot be the one asking."""
    state = _state(_action_phase_of_turn_2)
    data = _edited(state, lambda d: d["pending"].__setitem__("task", {"type": "TaxPhase"}))
    _refused(data, "rule C")


@pytest.mark.rule("4.1", game="sword-of-orthodoxy")
@pytest.mark.rule("C", game="sword-of-orthodoxy")
def test_turn_27_on_a_turn_2_procedure_is_refused() -> None:
    """Played on, this position ended 'survived' a few steps later."""
    state = _state(_action_phase_of_turn_2)
    _refused(_edited(state, lambda d: d.__setitem__("turn", 27)), "rule 4.1", "Turn 27")


@pytest.mark.rule("4.1", game="sword-of-orthodoxy")
def test_a_turn_moved_back_is_refused() -> None:
    state = _state(lambda s: s.turn == 4)
    _refused(_edited(state, lambda d: d.__setitem__("turn", 2)), "rule ")


# -- facts and counters --------------------------------------------------------------------


@pytest.mark.rule("8.4", game="sword-of-orthodoxy")
def test_an_unknown_fact_is_refused() -> None:
    state = _state(_action_phase_of_turn_2)
    data = _edited(state, lambda d: d["done"].append("event:Nothing"))
    _refused(data, "'event:Nothing' is nothing the rules remember")


@pytest.mark.rule("8.1", game="sword-of-orthodoxy")
def test_a_once_only_event_no_synopsis_roll_can_give_yet_is_refused() -> None:
    """Skanderbeg is on no Synopsis row below 29: one die plus Turn 2 reaches 8."""
    rows = [r.low for r in SOO.components.synopsis if "Skanderbeg" in r.political]  # type: ignore[attr-defined]
    assert min(rows) - 6 > 2
    state = _state(_action_phase_of_turn_2)
    data = _edited(state, lambda d: d["done"].append("event:Skanderbeg"))
    _refused(data, "rule 8.1", "'event:Skanderbeg' cannot have happened before Turn")


@pytest.mark.rule("2.3", game="sword-of-orthodoxy")
@pytest.mark.parametrize("fact", [f"{TURN_FACTS[0]}-turn-9", "saint-turn-0", "saint-turn-02"])
def test_a_fact_of_a_turn_not_played_is_refused(fact: str) -> None:
    state = _state(_action_phase_of_turn_2)
    _refused(_edited(state, lambda d: d["done"].append(fact)), repr(fact))


@pytest.mark.rule("3.2", game="sword-of-orthodoxy")
def test_two_scenarios_are_refused() -> None:
    state = _state(_action_phase_of_turn_2)
    data = _edited(state, lambda d: d["done"].append("scenario:millennium"))
    _refused(data, "rule 3.2", "2 scenarios")


@pytest.mark.rule("3.2", game="sword-of-orthodoxy")
def test_a_first_turn_other_than_the_scenarios_is_refused() -> None:
    state = _state(_action_phase_of_turn_2)
    data = _edited(state, lambda d: d.__setitem__("counters", [["first-turn", 2]]))
    _refused(data, "rule 3.2", "begins on Turn 1")


@pytest.mark.rule("2.3", game="sword-of-orthodoxy")
def test_an_unknown_counter_is_refused() -> None:
    state = _state(_action_phase_of_turn_2)
    data = _edited(state, lambda d: d["counters"].append(["zzz-unknown", 1]))
    _refused(data, "'zzz-unknown' is none the rules keep")


@pytest.mark.rule("2.3", game="sword-of-orthodoxy")
@pytest.mark.parametrize("value", [HUGE, 3, -1])
def test_a_counter_beyond_the_turn_is_refused(value: int) -> None:
    """Every counter is a Turn or a number of Turns: at most the current Turn (2)."""
    state = _state(_action_phase_of_turn_2)
    assert "war-in-the-east" in COUNTERS
    pairs = sorted([*(list(pair) for pair in state.counters), ["war-in-the-east", value]])
    data = _edited(state, lambda d: d.__setitem__("counters", pairs))
    _refused(data, "'war-in-the-east'", "outside 0-2")


# -- every number bounded ------------------------------------------------------------------


def _set_treasury(data: dict[str, Any]) -> None:
    tile = SOO.catalog.tile("marker-solidus")  # type: ignore[attr-defined]
    data["board"]["value"][tile] = HUGE


def _set_task_number(data: dict[str, Any]) -> None:
    for task in data["stack"]:
        if task["type"] == "Attack":
            task["cost"] = HUGE
            return
    raise AssertionError("no Attack step")  # pragma: no cover


@pytest.mark.rule("2.0", game="sword-of-orthodoxy")
@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.__setitem__("turn", HUGE),
        _set_treasury,
        lambda d: d["board"]["where"].__setitem__(0, HUGE),
        lambda d: d["pending"].__setitem__("dice", HUGE),
        lambda d: d["counters"].append(["zzz", HUGE]),
        _set_task_number,
    ],
    ids=["turn", "treasury", "tile place", "dice", "counter", "task number"],
)
def test_numbers_far_beyond_the_box_are_refused(edit: Callable[[dict[str, Any]], None]) -> None:
    state = _state(lambda s: s.turn >= 2 and any(type(t).__name__ == "Attack" for t in s.stack))
    message = _refused(_edited(state, edit))
    assert len(message) < 300


# -- what play produces is accepted ----------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"scenario": "millennium"},
        {"islam": True, "two_synopsis_rolls": True, "round_letters": True, "red_dice": True},
    ],
    ids=["millennium", "options"],
)
def test_every_state_of_random_games_with_other_options_validates(
    options: dict[str, object],
) -> None:
    game: Game[Any, Any] = load_game("sword-of-orthodoxy", **options)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.initial_state()
        while True:
            game.validate(state)
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_actions(state)))
