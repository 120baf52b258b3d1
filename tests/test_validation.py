"""``Game.validate``: a state read from JSON is one the rules could have produced, or it
is refused with the first inconsistency named (issue 14).

The edited positions are those testers tried: negative treasuries, a counter on a hex
that does not exist, one unit aboard two Fleets, a decision for player 7, a chance
node with no outcome, pending options edited to make any action legal, and rolls of
9 or 40 dice. Every state along seeded whole games of both games validates.
"""

from __future__ import annotations

import copy
import io
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import RequestKind as BelRequestKind
from byzantium.cli import main
from byzantium.core.codec import JSONValue
from byzantium.core.errors import IllegalActionError, InvalidStateError
from byzantium.core.game import Game
from byzantium.core.records import state_to_json
from byzantium.core.registry import load_game
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import Pay, RequestKind, SooState

S = TypeVar("S")
A = TypeVar("A")

BEL: Game[Any, Any] = load_game("belisarius")
SOO: Game[Any, Any] = load_game("sword-of-orthodoxy")


def edited(game: Game[Any, Any], state: object, edit: Callable[[Any], None]) -> JSONValue:
    data = copy.deepcopy(game.encode_state(state))
    edit(data)
    return data


def refused(game: Game[Any, Any], data: JSONValue, *words: str) -> InvalidStateError:
    start = time.perf_counter()
    with pytest.raises(InvalidStateError) as caught:
        game.decode_state(data)
    assert time.perf_counter() - start < 1.0
    message = str(caught.value)
    for word in words:
        assert word in message, message
    return caught.value


def soo_state_where(predicate: Callable[[SooState], bool], seed: int = 1) -> SooState:
    """The first state of a seeded random game of Sword of Orthodoxy that matches."""
    for attempt in range(50):
        rng = random.Random(seed + attempt)
        state: SooState = SOO.initial_state()
        while not SOO.is_terminal(state):
            if predicate(state):
                return state
            state = SOO.apply(state, rng.choice(SOO.legal_actions(state)))
    raise AssertionError("no such state")  # pragma: no cover


# -- Belisarius --------------------------------------------------------------------


@pytest.mark.rule("10.14", game="belisarius")
def test_a_negative_treasury_is_refused() -> None:
    data = edited(BEL, BEL.initial_state(), lambda d: d["solidus"].__setitem__(0, -5))
    refused(BEL, data, "Empire treasury holds -5", "rule 10.14")


@pytest.mark.rule("11.6", game="belisarius")
def test_a_counter_on_hex_9999_is_refused() -> None:
    data = edited(BEL, BEL.initial_state(), lambda d: d["units"]["where"].__setitem__(3, 9999))
    refused(BEL, data, "at 9999, no place of the map")


@pytest.mark.rule("19.5", game="belisarius")
def test_one_unit_aboard_two_fleets_is_refused() -> None:
    game = BEL
    assert isinstance(game, Belisarius)
    cat = game.catalog
    fleets = [c.index for c in cat.counters if c.naval][:2]
    land = next(c.index for c in cat.counters if not c.naval)
    hex_number = next(iter(cat.map.hexes()))

    def edit(data: Any) -> None:
        for unit in (land, *fleets):
            data["units"]["where"][unit] = hex_number
        data["units"]["aboard"] = [[land, fleets[0]], [land, fleets[1]]]

    refused(BEL, edited(BEL, BEL.initial_state(), edit), "aboard two Fleets")


@pytest.mark.rule("8.1", game="belisarius")
def test_a_stratagem_marker_made_out_of_nothing_is_refused() -> None:
    data = edited(BEL, BEL.initial_state(), lambda d: d["stratagems"]["pool"].__setitem__(0, 99))
    refused(BEL, data, "markers", "rule 8.1")


@pytest.mark.rule("3.1", game="belisarius")
def test_a_decision_for_player_7_is_refused() -> None:
    data = edited(BEL, BEL.initial_state(), lambda d: d["pending"].__setitem__("player", 7))
    refused(BEL, data, "player 7")


@pytest.mark.rule("3.1", game="belisarius")
def test_edited_options_do_not_make_place_9999_legal() -> None:
    state = BEL.initial_state()
    assert state.pending is not None and state.pending.kind is BelRequestKind.CHOOSE

    def edit(data: Any) -> None:
        data["pending"]["options"].append({"type": "Place", "where": 9999})

    refused(BEL, edited(BEL, state, edit), "not the one the procedure asks")
    # Options left out, reordered or given another prompt are refused as well.
    refused(BEL, edited(BEL, state, lambda d: d["pending"]["options"].pop()))
    refused(BEL, edited(BEL, state, lambda d: d["pending"].__setitem__("prompt", "x")))


@pytest.mark.rule("6.1", game="belisarius")
@pytest.mark.parametrize("count", [9, 40, 10**6])
def test_a_roll_of_many_dice_is_refused_quickly(count: int) -> None:
    state = BEL.initial_state()

    def edit(data: Any) -> None:
        data["pending"].update(kind="ROLL", dice=count)

    refused(BEL, edited(BEL, state, edit), f"a roll of {count} dice")


# -- Sword of Orthodoxy -------------------------------------------------------------


@pytest.mark.rule("2.0", game="sword-of-orthodoxy")
def test_a_negative_treasury_marker_is_refused() -> None:
    game = SOO
    assert isinstance(game, SwordOfOrthodoxy)
    solidus = game.catalog.tile("marker-solidus")
    data = edited(SOO, SOO.initial_state(), lambda d: d["board"]["value"].__setitem__(solidus, -3))
    refused(SOO, data, "marker-solidus is at -3")


@pytest.mark.rule("2.0", game="sword-of-orthodoxy")
def test_a_tile_on_no_space_is_refused() -> None:
    data = edited(SOO, SOO.initial_state(), lambda d: d["board"]["where"].__setitem__(0, 9999))
    refused(SOO, data, "on space 9999")


@pytest.mark.rule("4.1", game="sword-of-orthodoxy")
def test_a_chance_node_with_no_outcome_is_refused() -> None:
    state = SOO.initial_state()
    assert state.pending is not None and state.pending.kind is RequestKind.DRAW

    def edit(data: Any) -> None:  # the Turn Chit mug emptied into the discards
        mug = data["pending"]["space"]
        game = SOO
        assert isinstance(game, SwordOfOrthodoxy)
        index = game.catalog.space(mug)
        discarded = game.catalog.space("discarded")
        data["board"]["where"] = [
            discarded if where == index else where for where in data["board"]["where"]
        ]

    refused(SOO, edited(SOO, state, edit))
    # A draw from a space that does not exist.
    refused(SOO, edited(SOO, state, lambda d: d["pending"].__setitem__("space", "nowhere")))


@pytest.mark.rule("10.6", game="sword-of-orthodoxy")
def test_edited_options_do_not_make_pay_1000_legal() -> None:
    state = soo_state_where(
        lambda s: s.pending is not None and any(isinstance(o, Pay) for o in s.pending.options)
    )
    assert SOO.decode_state(SOO.encode_state(state)) == state

    def edit(data: Any) -> None:
        data["pending"]["options"] = [{"type": "Pay", "amount": 1000}]

    refused(SOO, edited(SOO, state, edit), "not the one the procedure asks")


def test_a_foreign_object_is_an_illegal_action() -> None:
    for game in (BEL, SOO):
        state = game.initial_state()
        for foreign in (object(), "Roll", 3, None):
            with pytest.raises(IllegalActionError, match="not an action of"):
                game.apply(state, foreign)


# -- through the command line --------------------------------------------------------------


def test_explain_refuses_an_edited_position_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = state_to_json(BEL, BEL.initial_state())
    state = saved["state"]
    assert isinstance(state, dict) and isinstance(state["pending"], dict)
    options = state["pending"]["options"]
    assert isinstance(options, list)
    options.append({"type": "Place", "where": 9999})
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    start = time.perf_counter()
    status = main(["explain", str(path)], io.StringIO())
    assert time.perf_counter() - start < 2.0
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "not the one the procedure asks" in err


# -- every state of whole games validates ---------------------------------------------------


def _validate_game(game: Game[S, A], seed: int, cap: int) -> S:
    """Play a seeded random game, validating every state; the last state."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(cap):
        game.validate(state)
        if game.is_terminal(state):
            break
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return state


@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
@pytest.mark.parametrize("optional", [False, True])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_state_of_random_games_of_sword_of_orthodoxy_validates(
    scenario: str, optional: bool, seed: int
) -> None:
    flags = {"islam": optional, "round_letters": optional, "two_synopsis_rolls": optional}
    game = load_game("sword-of-orthodoxy", scenario=scenario, red_dice=not optional, **flags)
    assert game.is_terminal(_validate_game(game, seed, 20_000))


@pytest.mark.parametrize(("scenario", "optional"), [(1, True), (2, False), (3, True)])
@settings(max_examples=1, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_state_of_random_games_of_belisarius_validates(
    scenario: int, optional: bool, seed: int
) -> None:
    names = (
        "pillage",
        "public_works",
        "colonization",
        "disbanding",
        "additional_placement",
        "additional_attrition",
        "negotiations",
        "reaction",
        "personal_combat",
        "river_movement",
    )
    options = dict.fromkeys(names, optional)
    game = load_game("belisarius", scenario=scenario, capitulation=False, **options)
    assert game.is_terminal(_validate_game(game, seed, 20_000))


# -- every step of the procedure, not only the one that asks ---------------------------------


def _stack_task(data: Any, kind: str) -> Any:
    """The first task of an encoded state's stack whose type is ``kind`` (or the task
    that asked its request)."""
    asking = [data["pending"]["task"]] if data.get("pending") else []
    return next(task for task in [*data["stack"], *asking] if task["type"] == kind)


def _kinds(state: Any) -> set[str]:
    asking = [state.pending.task] if state.pending is not None else []
    return {type(task).__name__ for task in [*state.stack, *asking]}


def _bel_state_with(kind: str) -> Any:
    """The first state of a seeded random game of Belisarius with a ``kind`` task stacked."""
    game: Game[Any, Any] = load_game("belisarius", capitulation=False)
    rng = random.Random(4)
    state = game.initial_state()
    while kind not in _kinds(state):
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    return state


@pytest.mark.rule("3.1", game="belisarius")
def test_a_phase_step_deep_in_the_stack_for_player_7_is_refused() -> None:
    start = BEL.initial_state()
    data = edited(BEL, start, lambda d: _stack_task(d, "PickStratagems").__setitem__("player", 7))
    refused(BEL, data, "PickStratagems.player holds 7")


@pytest.mark.rule("11.6", game="belisarius")
def test_a_step_naming_hex_9999_or_counter_9999_is_refused() -> None:
    state = _bel_state_with("OperationsPhase")

    def where(d: Any) -> None:
        _stack_task(d, "OperationsPhase")["where"] = 9999

    def force(d: Any) -> None:
        _stack_task(d, "OperationsPhase")["force"] = [9999]

    refused(BEL, edited(BEL, state, where), "OperationsPhase.where holds 9999", "no place")
    refused(BEL, edited(BEL, state, force), "OperationsPhase.force holds 9999", "no counter")


@pytest.mark.rule("3.1", game="belisarius")
def test_a_phase_of_no_name_is_refused() -> None:
    state = _bel_state_with("EnterPhase")
    data = edited(BEL, state, lambda d: _stack_task(d, "EnterPhase").__setitem__("name", ""))
    refused(BEL, data, "a phase named ''", "rule 3.1")


@pytest.mark.rule("8.1", game="sword-of-orthodoxy")
def test_a_military_event_result_no_die_can_make_is_refused() -> None:
    state = SOO.initial_state()
    data = edited(SOO, state, lambda d: _stack_task(d, "SynopsisPhase").__setitem__("military", 40))
    refused(SOO, data, "SynopsisPhase.military holds 40")


@pytest.mark.rule("10.6", game="sword-of-orthodoxy")
def test_an_attack_step_on_an_army_that_does_not_exist_is_refused() -> None:
    state = soo_state_where(
        lambda s: any(type(task).__name__ == "Attack" for task in s.stack), seed=3
    )

    def edit(d: Any) -> None:
        _stack_task(d, "Attack")["target"] = "army-omega-9"

    refused(SOO, edited(SOO, state, edit), "Attack.target names 'army-omega-9'")


def test_every_number_a_task_may_hold_has_a_declared_meaning() -> None:
    """Validation knows what each whole-number field of every task stands for, so a
    new field cannot slip past it unchecked (Belisarius: FIELD_KINDS; Sword of
    Orthodoxy: NUMBER_RANGES, or a flag/enum/text field)."""
    import attrs

    from byzantium.belisarius import validation as bel_validation
    from byzantium.belisarius.state import Task as BelTask
    from byzantium.sword_of_orthodoxy import validation as soo_validation
    from byzantium.sword_of_orthodoxy.state import Task as SooTask

    def tasks(base: type) -> list[type]:
        found: list[type] = []
        todo: list[type] = [base]
        while todo:
            subclasses: list[type] = todo.pop().__subclasses__()
            for sub in subclasses:
                todo.append(sub)
                if attrs.has(sub):
                    found.append(sub)
        return found

    def numbers(cls: type) -> list[str]:
        return [
            f.name
            for f in attrs.fields(cls)
            if f.type in ("int", "tuple[int, ...]", "tuple[int, int]")
        ]

    bel = {
        f"{cls.__name__}.{name}"
        for cls in tasks(BelTask)
        for name in numbers(cls)
        if name not in bel_validation.FIELD_KINDS
        and f"{cls.__name__}.{name}" not in bel_validation.FIELD_KINDS
    }
    soo = {
        f"{cls.__name__}.{name}"
        for cls in tasks(SooTask)
        for name in numbers(cls)
        if name not in soo_validation.NUMBER_RANGES
    }
    assert len(tasks(BelTask)) > 40
    assert len(tasks(SooTask)) > 100
    assert bel == set()
    assert soo == set()


def test_a_step_that_cannot_go_on_is_an_invalid_state_not_a_crash() -> None:
    """The last line of defence: a task that fails on a position the rules never
    produce (here: a step whose answer contradicts its record) reports the position
    as invalid, naming the step, with the original error chained."""
    import attrs

    from byzantium.core.procedure import run_task

    @attrs.frozen
    class Broken:
        def run(self, ctx: object, state: object, answer: object) -> object:
            return {"the step": "fails"}["nothing"]

    with pytest.raises(InvalidStateError, match="the Broken step fails") as caught:
        run_task(None, SOO.initial_state(), Broken(), None)
    assert isinstance(caught.value.__cause__, KeyError)


def test_an_error_of_a_games_own_checks_is_reported_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 36: whatever a game's checks fail with, the refusal is one line."""

    def fails(state: object) -> None:
        raise ValueError("a value\nover two lines")

    game = load_game("sword-of-orthodoxy")
    monkeypatch.setattr(game, "_validate", fails)
    with pytest.raises(InvalidStateError) as caught:
        game.validate(game.initial_state())
    assert "\n" not in str(caught.value)
    assert "a value over two lines" in str(caught.value)


# -- the procedure as a whole (core.procedure.check_turn_stack) --------------------------


class _Opener:
    pass


class _First:
    pass


class _Second:
    pass


class _Third:
    pass


class _Work:
    pass


_SEQUENCE = (_First, _Second, _Third)


def _check(stack: list[type], asking: type | None) -> int:
    from byzantium.core.procedure import check_turn_stack

    return check_turn_stack(
        [kind() for kind in stack],
        asking() if asking is not None else None,
        _Opener,
        _SEQUENCE,
        game="test",
        rule="C",
    )


@pytest.mark.parametrize(
    ("stack", "asking", "current"),
    [
        ([_Opener, _Third, _Second], _First, 0),
        ([_Opener, _Third], _Second, 1),
        ([_Opener, _Third, _Work, _Work], _Work, 1),
        ([_Opener, _Third, _Second, _Work], _Work, 0),
        ([_Opener], _Third, 2),
        ([_Opener], _Work, 2),
    ],
)
def test_stacks_play_produces_are_accepted(
    stack: list[type], asking: type | None, current: int
) -> None:
    assert _check(stack, asking) == current


@pytest.mark.parametrize(
    ("stack", "asking", "words"),
    [
        ([], _Work, "procedure is empty"),
        ([_Third, _Opener], _Work, "does not rest on the _Opener"),
        ([_Opener, _Third, _Opener], _Work, "twice"),
        ([_Opener], _Opener, "twice"),
        ([_Opener, _Second, _Third], _Work, "out of order"),
        ([_Opener, _Third, _Third], _Work, "out of order"),
        ([_Opener, _Third, _Work, _Second], _Work, "_Second step lies above"),
        ([_Opener, _Third, _Second, _First], _Work, "none under way"),
        ([_Opener, _Third], _First, "asks out of its turn"),
        ([_Opener, _Third, _Work], _Second, "asks out of its turn"),
    ],
)
def test_stacks_play_cannot_produce_are_refused(
    stack: list[type], asking: type | None, words: str
) -> None:
    with pytest.raises(InvalidStateError, match=words) as caught:
        _check(stack, asking)
    assert caught.value.rule == "C"
