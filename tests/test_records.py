"""Game records: JSON form, replay, and errors that name the first bad step."""

from __future__ import annotations

import enum
import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import pytest

from byzantium import RecordError, dumps_record, loads_record, play, replay
from byzantium.core.provenance import ComponentError, Provenance, RecordReader, parse_source
from byzantium.core.records import RECORD_FORMAT, GameRecord, record_from_json, record_to_json
from byzantium.core.rules import get_rulebook
from tests.pig import PigAction, PigGame

GAME = PigGame()


def saved(seed: int = 5) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps_record(GAME, play(GAME, seed=seed)))
    return data


def replay_json(data: dict[str, Any]) -> object:
    game, record = record_from_json(data)
    return replay(game, record)


def first_roll_step(data: dict[str, Any]) -> int:
    steps = data["steps"]
    assert isinstance(steps, list)
    return next(i for i, s in enumerate(steps) if s["actor"] == -1 and s["action"]["value"] != 1)


def test_record_json_has_the_documented_shape() -> None:
    data = saved()
    assert data["format"] == RECORD_FORMAT
    assert data["game"] == "pig"
    assert data["options"] == {"target": 20}
    assert isinstance(data["components"], str) and len(data["components"]) == 16
    assert data["seed"] == 5
    steps = data["steps"]
    assert isinstance(steps, list)
    assert {"actor", "action", "state"} <= set(steps[0])


def test_a_tampered_roll_is_caught_at_its_step() -> None:
    data = saved()
    i = first_roll_step(data)
    steps = data["steps"]
    assert isinstance(steps, list)
    face = steps[i]["action"]["value"]
    steps[i]["action"]["value"] = 3 if face == 2 else 2  # still a possible face
    with pytest.raises(RecordError) as error:
        replay_json(data)
    assert error.value.step == i


def test_an_impossible_roll_is_caught_at_its_step() -> None:
    data = saved()
    i = first_roll_step(data)
    steps = data["steps"]
    assert isinstance(steps, list)
    steps[i]["action"]["value"] = 9
    with pytest.raises(RecordError, match=rf"step {i}: .*rule 2\.2") as error:
        replay_json(data)
    assert error.value.step == i


def test_a_wrong_actor_is_caught_at_its_step() -> None:
    data = saved()
    steps = data["steps"]
    assert isinstance(steps, list)
    steps[0]["actor"] = 1
    with pytest.raises(RecordError) as error:
        replay_json(data)
    assert error.value.step == 0


def test_a_malformed_action_is_caught_at_its_step() -> None:
    data = saved()
    steps = data["steps"]
    assert isinstance(steps, list)
    steps[2]["action"] = {"type": "Teleport"}
    with pytest.raises(RecordError) as error:
        record_from_json(data)
    assert error.value.step == 2


def test_a_removed_step_is_caught() -> None:
    data = saved()
    steps = data["steps"]
    assert isinstance(steps, list)
    del steps[3]
    with pytest.raises(RecordError) as error:
        replay_json(data)
    assert error.value.step is not None and error.value.step <= 3


def test_a_tampered_final_digest_is_caught() -> None:
    data = saved()
    data["final"] = "0" * 16
    with pytest.raises(RecordError, match="final state"):
        replay_json(data)


def test_records_without_digests_still_replay_and_check_legality() -> None:
    game = GAME
    record = play(game, seed=11, digests=False)
    assert record.digests == ()
    data = record_to_json(game, record)
    steps = data["steps"]
    assert isinstance(steps, list) and isinstance(steps[0], dict)
    assert "state" not in steps[0]
    again_game, again = record_from_json(data)
    assert replay(again_game, again) == replay(game, record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other/9"), "unknown record format"),
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d.update(options={"target": 3}), "must be one of"),
        (lambda d: d.update(options={"speed": 3}), "no option"),
        (lambda d: d.update(components="ffff"), "component data differ"),
        (lambda d: d.update(seed="x"), "seed"),
        (lambda d: d.pop("steps"), "steps"),
    ],
)
def test_records_bad_as_a_whole_are_rejected(
    change: Callable[[dict[str, Any]], object], message: str
) -> None:
    data = saved()
    change(data)
    with pytest.raises(RecordError, match=message) as error:
        replay_json(data)
    assert error.value.step is None


def test_not_json_is_rejected() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        loads_record("{nope")
    with pytest.raises(RecordError, match="JSON object"):
        record_from_json([1, 2])


def test_replay_rejects_a_record_of_another_game_or_options() -> None:
    record = play(GAME, seed=1)
    other = PigGame({"target": 50})
    with pytest.raises(RecordError, match="options"):
        replay(other, record)
    renamed: GameRecord[PigAction] = GameRecord(
        "belisarius", record.options, record.components, 1, record.actors, record.actions
    )
    with pytest.raises(RecordError, match="not 'pig'"):
        replay(GAME, renamed)


class Colour(enum.Enum):
    RED = "red"


@attrs.frozen
class Item:
    name: str
    colour: Colour
    weight: Fraction
    tags: frozenset[str] = frozenset()


def test_provenance_strings_and_the_record_reader() -> None:
    book = get_rulebook("pig")
    assert parse_source("2.2", book, "f", "k").kind is Provenance.RULEBOOK
    assert parse_source("peer", book, "f", "k").kind is Provenance.PEER
    with pytest.raises(ComponentError, match="not a rule id"):
        parse_source("peer", book, "f", "k", allow_peer=False)
    with pytest.raises(ComponentError, match="rationale"):
        parse_source("provisional:  ", book, "f", "k")

    reader = RecordReader(book, "items.toml", require_source=False)
    item = reader.record(Item, {"name": "a", "colour": "red", "weight": 1.5, "tags": ["x"]}, "item")
    assert item == Item("a", Colour.RED, Fraction(3, 2), frozenset({"x"}))
    with pytest.raises(ComponentError) as error:
        reader.record(Item, {"name": "a", "colour": "blue", "weight": 1}, "item[3]")
    assert (error.value.file, error.value.key) == ("items.toml", "item[3].colour")
    with pytest.raises(ComponentError, match="lists a value twice"):
        reader.record(Item, {"name": "a", "colour": "red", "weight": 1, "tags": ["x", "x"]}, "i")
    with pytest.raises(ComponentError, match="unknown field"):
        reader.record(Item, {"name": "a", "colour": "red", "weight": 1, "size": 2}, "i")
