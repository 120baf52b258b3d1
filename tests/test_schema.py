"""The published JSON Schemas agree with what the codec writes and reads."""

from __future__ import annotations

import enum
import io
import json
import typing
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import attrs
import jsonschema
import pytest

from byzantium.belisarius.observation import BelObservation
from byzantium.cli import main
from byzantium.core.codec import DecodeError, JSONValue, Tagged, codec_for
from byzantium.core.drivers import play
from byzantium.core.game import Game
from byzantium.core.records import record_to_json, state_to_json
from byzantium.core.registry import load_game
from byzantium.core.schema import DIALECT, KINDS, game_schemas, observation_type, schema_for

Validator = jsonschema.Draft202012Validator


def validator(schema: dict[str, JSONValue]) -> jsonschema.Draft202012Validator:
    Validator.check_schema(schema)
    return Validator(schema)


# -- small types: each codec form and its schema --------------------------------------


class Colour(enum.Enum):
    RED = 1
    GREEN = 2


@attrs.frozen
class Leaf:
    colour: Colour
    weight: Fraction
    tags: frozenset[str] = frozenset()


@attrs.frozen
class Node:
    name: str
    children: tuple[Node, ...]
    leaf: Leaf | None
    pair: tuple[int, bool]
    mode: Literal["a", "b"] = "a"
    ratio: float = 0.5


@attrs.frozen
class Cut:
    where: int


@attrs.frozen
class Join:
    left: int
    right: int


class Piece(Tagged):
    __slots__ = ()


@attrs.frozen
class Rook(Piece):
    square: str


@attrs.frozen
class Bishop(Piece):
    square: str
    colour: Colour


@attrs.frozen
class Board:
    pieces: tuple[Piece, ...]
    last: Cut | Join | None
    moves: tuple[Cut | Join, ...] = ()


SAMPLES: list[tuple[object, object]] = [
    (Fraction, Fraction(-7, 3)),
    (tuple[tuple[str, Fraction], ...], (("hit", Fraction(1, 3)), ("miss", Fraction(2)))),
    (frozenset[int], frozenset({3, 1, 2})),
    (
        Node,
        Node(
            "root",
            (Node("kid", (), Leaf(Colour.RED, Fraction(1, 2), frozenset({"x", "y"})), (1, True)),),
            None,
            (0, False),
            "b",
            2.0,
        ),
    ),
    (Board, Board((Rook("a1"), Bishop("c1", Colour.GREEN)), Join(1, 2), (Cut(3), Join(4, 5)))),
    (Board, Board((), None)),
]


@pytest.mark.parametrize(("hint", "value"), SAMPLES)
def test_encoded_values_validate_against_their_schema(hint: object, value: object) -> None:
    schema = schema_for(hint)
    assert schema["$schema"] == DIALECT
    validator(schema).validate(codec_for(hint).encode(value))


#: JSON that the codec refuses, and the schema must refuse too.
WRONG: list[tuple[object, object]] = [
    (Fraction, "3/0"),
    (Fraction, 3),
    (frozenset[int], [1, 1]),
    (tuple[int, bool], [1]),
    (tuple[int, bool], [1, True, 3]),
    (tuple[int, bool], [True, 1]),
    (tuple[int, ...], [1, "2"]),
    (Leaf, {"colour": "BLUE", "weight": "1", "tags": []}),
    (Leaf, {"colour": 1, "weight": "1", "tags": []}),
    (Leaf, {"colour": "RED", "weight": "1"}),
    (Leaf, {"colour": "RED", "weight": "1", "tags": [], "extra": 1}),
    (Node, {"name": "n", "children": [], "leaf": None, "pair": [1, True], "mode": "c", "ratio": 1}),
    (
        Node,
        {"name": "n", "children": [{}], "leaf": None, "pair": [1, True], "mode": "a", "ratio": 1},
    ),
    (Board, {"pieces": [{"type": "Queen", "square": "d1"}], "last": None, "moves": []}),
    (Board, {"pieces": [{"square": "a1"}], "last": None, "moves": []}),
    (Board, {"pieces": [], "last": {"where": 1}, "moves": []}),
    (Board, {"pieces": [], "last": {"type": "Rook", "square": "a1"}, "moves": []}),
]


@pytest.mark.parametrize(("hint", "data"), WRONG)
def test_json_the_codec_refuses_is_refused_by_the_schema(hint: object, data: Any) -> None:
    with pytest.raises(DecodeError):
        codec_for(hint).decode(data)
    assert not validator(schema_for(hint)).is_valid(data)


def test_named_types_go_under_defs_and_recursion_works() -> None:
    schema = schema_for(Board)
    defs = schema["$defs"]
    assert isinstance(defs, dict)
    assert {"Board", "Piece", "Rook", "Bishop", "Cut", "Join", "Colour"} <= set(defs)
    assert defs["Colour"] == {
        "title": "Colour",
        "type": "string",
        "enum": ["RED", "GREEN"],
    }
    node = schema_for(Node)
    assert node["$ref"] == "#/$defs/Node"
    assert "Node" in typing.cast(dict[str, Any], node["$defs"])


def test_classes_of_the_same_name_get_distinct_definitions() -> None:
    first = attrs.make_class("Item", {"value": attrs.field(type=int)}, frozen=True)
    second = attrs.make_class("Item", {"value": attrs.field(type=str)}, frozen=True)
    both = attrs.make_class(
        "Both", {"a": attrs.field(type=first), "b": attrs.field(type=second)}, frozen=True
    )
    schema = schema_for(both)
    v = validator(schema)
    v.validate(codec_for(both).encode(both(first(1), second("x"))))
    assert not v.is_valid({"a": {"value": "x"}, "b": {"value": "x"}})
    assert not v.is_valid({"a": {"value": 1}, "b": {"value": 1}})
    assert len(typing.cast(dict[str, Any], schema["$defs"])) == 3


def test_types_without_a_codec_have_no_schema() -> None:
    with pytest.raises(TypeError):
        schema_for(dict[str, int])
    with pytest.raises(TypeError):
        schema_for(int | str)


# -- the games: real records, actions, states and observations ------------------------


@pytest.fixture(scope="module", params=["sword-of-orthodoxy", "belisarius"])
def played(
    request: pytest.FixtureRequest,
) -> tuple[Game[object, object], dict[str, JSONValue], list[object]]:
    """A game, the JSON of a short played record, and states met along it."""
    name = request.param
    game = load_game(name, capitulation=False) if name == "belisarius" else load_game(name)
    record = play(game, seed=2, max_steps=250)
    states = [game.initial_state()]
    for action in record.actions:
        states.append(game.apply(states[-1], action))
    return game, record_to_json(game, record), states


def test_game_schemas_are_valid_documents(
    played: tuple[Game[object, object], dict[str, JSONValue], list[object]],
) -> None:
    game, _, _ = played
    schemas = game_schemas(game)
    assert tuple(schemas) == KINDS
    for kind, schema in schemas.items():
        Validator.check_schema(schema)
        assert game.TITLE in str(schema["title"]), kind


def test_real_records_actions_states_and_observations_validate(
    played: tuple[Game[object, object], dict[str, JSONValue], list[object]],
) -> None:
    game, record, states = played
    schemas = {kind: validator(schema) for kind, schema in game_schemas(game).items()}
    schemas["record"].validate(record)
    kinds = set()
    for state in [*states[:: max(1, len(states) // 12)], states[-1]]:
        schemas["state"].validate(game.encode_state(state))
        schemas["state-file"].validate(state_to_json(game, state))
        for player in range(game.NUM_PLAYERS):
            seen = game.observation(state, player)
            schemas["observation"].validate(codec_for(type(seen)).encode(seen))
        for action in game.legal_actions(state):
            schemas["action"].validate(game.encode_action(action))
            kinds.add(type(action).__name__)
    assert len(kinds) >= 2


def test_the_observation_schema_is_the_view_a_player_gets() -> None:
    assert observation_type(load_game("belisarius")) is BelObservation
    soo = load_game("sword-of-orthodoxy")
    assert observation_type(soo) is soo.STATE_TYPE


def edits(record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Records that the schema must refuse, each with what is wrong."""
    first = record["steps"][0]
    return [
        ("unknown action type", {**record, "steps": [{**first, "action": {"type": "Cheat"}}]}),
        (
            "extra action member",
            {**record, "steps": [{**first, "action": {**first["action"], "x": 1}}]},
        ),
        ("missing action", {**record, "steps": [{"actor": first["actor"]}]}),
        ("actor out of range", {**record, "steps": [{**first, "actor": 7}]}),
        ("bad digest", {**record, "steps": [{**first, "state": "xyz"}]}),
        ("unknown option", {**record, "options": {**record["options"], "dragons": True}}),
        ("option of the wrong type", {**record, "options": {**record["options"], "scenario": []}}),
        ("another game", {**record, "game": "pig"}),
        ("another format", {**record, "format": "byzantium-record/0"}),
        ("no steps", {k: v for k, v in record.items() if k != "steps"}),
        ("an extra member", {**record, "comment": "hi"}),
    ]


def test_wrong_records_are_refused(
    played: tuple[Game[object, object], dict[str, JSONValue], list[object]],
) -> None:
    game, record, _ = played
    check = validator(game_schemas(game)["record"])
    for what, data in edits(typing.cast(dict[str, Any], record)):
        assert not check.is_valid(data), what


def test_wrong_states_and_observations_are_refused(
    played: tuple[Game[object, object], dict[str, JSONValue], list[object]],
) -> None:
    game, _, states = played
    schemas = game_schemas(game)
    encoded = typing.cast(dict[str, Any], game.encode_state(states[-1]))
    check = validator(schemas["state"])
    assert check.is_valid(encoded)
    assert not check.is_valid({**encoded, "turn": "one"})
    assert not check.is_valid({k: v for k, v in encoded.items() if k != "turn"})
    assert not check.is_valid({**encoded, "spare": 0})
    pending = encoded["pending"]
    if pending is not None:
        assert not check.is_valid({**encoded, "pending": {**pending, "kind": "GUESS"}})
        task = pending["task"]
        assert not check.is_valid(
            {**encoded, "pending": {**pending, "task": {**task, "type": "NoSuchStep"}}}
        )
    seen = game.observation(states[-1], 0)
    view = typing.cast(dict[str, Any], codec_for(type(seen)).encode(seen))
    observation = validator(schemas["observation"])
    assert observation.is_valid(view)
    assert not observation.is_valid({**view, "secret": 1})


# -- the command line -----------------------------------------------------------------


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out)
    return status, out.getvalue()


def test_schema_command_prints_each_kind() -> None:
    game = load_game("belisarius")
    schemas = game_schemas(game)
    for kind in KINDS:
        status, text = run("schema", "belisarius", "--kind", kind)
        assert status == 0
        assert json.loads(text) == schemas[kind]
    status, text = run("schema", "sword-of-orthodoxy")
    assert status == 0
    assert json.loads(text)["title"] == "Sword of Orthodoxy record"


def test_schema_command_writes_every_kind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, text = run("schema", "sword-of-orthodoxy", "--out", str(tmp_path / "schemas"))
    assert status == 0
    written = sorted(p.name for p in (tmp_path / "schemas").iterdir())
    assert written == sorted(f"sword-of-orthodoxy.{kind}.schema.json" for kind in KINDS)
    assert text.count("\n") == len(KINDS)
    assert run("schema", "chess")[0] == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    # A bad choice is one line and exit status 2, as all bad input (issue 36).
    assert run("schema", "belisarius", "--kind", "nonsense")[0] == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--kind" in err and "nonsense" in err
