"""What the codec's fast paths must keep: the JSON, the values, and the error messages.

The codec encodes records with generated functions and decodes in a quick pass
that gives up at anything unexpected, falling back to a checked pass with paths.
These tests pin that down against a plain reference encoder and the checked pass,
on the states of real games and on damaged copies of their JSON.
"""

from __future__ import annotations

import enum
import functools
import json
import random
import typing
from fractions import Fraction
from typing import Literal

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.core.codec import DecodeError, JSONValue, Tagged, canonical_json, codec_for
from byzantium.core.drivers import random_policy, sample
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.core.registry import load_game

# -- a plain reference encoder ------------------------------------------------------------


def _is_family(hint: object) -> bool:
    """Whether values of ``hint`` carry their class name under ``"type"``."""
    if isinstance(hint, type):
        return issubclass(hint, Tagged)
    members = [m for m in typing.get_args(hint) if m is not type(None)]
    return typing.get_origin(hint) in (typing.Union, type(int | str)) and len(members) > 1


def reference_encode(hint: object, value: object) -> JSONValue:
    """The JSON form of ``value`` as the annotation ``hint`` describes it, the slow way."""
    if value is None:
        return None
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, bool | int | str | float):
        return value
    if attrs.has(type(value)):
        hints = typing.get_type_hints(type(value))
        out: dict[str, JSONValue] = {"type": type(value).__name__} if _is_family(hint) else {}
        for field in attrs.fields(typing.cast(type[attrs.AttrsInstance], type(value))):
            if field.init:
                out[field.name] = reference_encode(hints[field.name], getattr(value, field.name))
        return out
    args = typing.get_args(hint)
    if typing.get_origin(hint) in (typing.Union, type(int | str)):
        (inner,) = [m for m in args if m is not type(None)]
        return reference_encode(inner, value)
    if isinstance(value, frozenset):
        items = [reference_encode(args[0], v) for v in value]
        return sorted(items, key=canonical_json)
    assert isinstance(value, tuple)
    if len(args) == 2 and args[1] is Ellipsis:
        return [reference_encode(args[0], v) for v in value]
    return [reference_encode(h, v) for h, v in zip(args, value, strict=True)]


# -- states of real games -------------------------------------------------------------------


def _states(name: str, seed: int, **options: object) -> list[object]:
    game = load_game(name, **options)
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    while (actor := game.current_player(state)) != TERMINAL:
        if actor == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            action = random_policy(game, state, rng)
        state = game.apply(state, action)
        states.append(state)
    return states


@functools.cache
def _game_states() -> tuple[object, ...]:
    """States along random games: Sword of Orthodoxy (two) and Belisarius scenario 1."""
    return (
        *_states("sword-of-orthodoxy", 0),
        *_states("sword-of-orthodoxy", 1),
        *_states("belisarius", 0, scenario=1, capitulation=False)[::4],
    )


def test_game_states_encode_as_the_reference_and_decode_on_the_quick_path() -> None:
    for state in _game_states():
        codec = codec_for(type(state))
        encoded = codec.encode(state)
        assert json.dumps(encoded) == json.dumps(reference_encode(type(state), state))
        data = json.loads(json.dumps(encoded))
        # The quick pass alone decodes valid data: the checked pass is for errors.
        assert codec._quick(data) == state
        assert codec.decode(data) == state


# -- damaged JSON: the quick pass accepts nothing the checked one refuses ---------------------


def _children(node: JSONValue) -> list[str | int]:
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


_REPLACEMENTS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 300),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.sampled_from(["ROLL", "CHOOSE", "1/0", "3/2"]),
    st.lists(st.integers(0, 2), max_size=2),
    st.just({}),
)


def _damage(data: JSONValue, draw: st.DataObject, tags: list[str]) -> JSONValue:
    """A copy of ``data`` with one node replaced, a key of an object removed or added,
    or an item of a list repeated."""
    root: list[JSONValue] = [json.loads(json.dumps(data))]
    parent: typing.Any = root
    key: str | int = 0
    # Walk down from the top, stopping at some node on the way.
    while _children(parent[key]) and draw.draw(st.integers(0, 3)) > 0:
        parent, key = parent[key], draw.draw(st.sampled_from(_children(parent[key])))
    node = parent[key]
    replacement = draw.draw(st.one_of(_REPLACEMENTS, st.sampled_from(tags or ["x"])))
    damage = draw.draw(st.sampled_from(["replace", "remove", "add", "repeat"]))
    if isinstance(node, list) and node and damage == "repeat":
        node.append(node[draw.draw(st.integers(0, len(node) - 1))])
    elif isinstance(node, dict) and node and damage == "remove":
        del node[draw.draw(st.sampled_from(sorted(node)))]
    elif isinstance(node, dict) and damage == "add":
        node[draw.draw(st.sampled_from(["extra", "type"]))] = replacement
    else:
        parent[key] = replacement
    return root[0]


def _tags(data: JSONValue) -> list[str]:
    found: set[str] = set()
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if isinstance(node.get("type"), str):
                found.add(typing.cast(str, node["type"]))
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    return sorted(found)


def _checked(codec: typing.Any, data: JSONValue) -> object:
    """The checked pass alone, as the codec falls back to it."""
    return codec._decode(data, "$")


def _checked_error(codec: typing.Any, data: JSONValue) -> str | None:
    """The message of the checked pass's DecodeError, or None if it accepts ``data``."""
    try:
        _checked(codec, data)
    except DecodeError as error:
        return str(error)
    return None


def _error(codec: typing.Any, data: JSONValue) -> str | None:
    """The message of the codec's DecodeError, or None if it decodes ``data``."""
    try:
        codec.decode(data)
    except DecodeError as error:
        return str(error)
    return None


@given(st.data())
def test_damaged_json_is_judged_by_the_checked_pass(draw: st.DataObject) -> None:
    states = _game_states()
    state = states[draw.draw(st.integers(0, len(states) - 1))]
    codec = codec_for(type(state))
    data = json.loads(json.dumps(codec.encode(state)))
    damaged = _damage(data, draw, _tags(data))
    message = _checked_error(codec, damaged)
    assert _error(codec, damaged) == message
    if message is not None:
        with pytest.raises(Exception):  # noqa: B017, PT011 - the quick pass gives up somehow
            codec._quick(damaged)
    else:
        assert codec.decode(damaged) == _checked(codec, damaged)


# -- frozensets keep the canonical order ------------------------------------------------------


@given(st.frozensets(st.text(max_size=4)))
def test_string_sets_are_listed_in_canonical_order(value: frozenset[str]) -> None:
    assert codec_for(frozenset[str]).encode(value) == sorted(value, key=canonical_json)


@given(st.frozensets(st.integers()))
def test_integer_sets_are_listed_in_canonical_order(value: frozenset[int]) -> None:
    assert codec_for(frozenset[int]).encode(value) == sorted(value, key=canonical_json)


@pytest.mark.parametrize(
    ("hint", "data"),
    [
        (frozenset[str], ["a", "b", "a"]),
        (frozenset[int], [1, 1]),
        (frozenset[tuple[int, str]], [[1, "a"], [1, "a"]]),
        (frozenset[str], ["a", 1]),
    ],
)
def test_sets_with_repeats_or_strays_fail_as_the_checked_pass_says(
    hint: object, data: JSONValue
) -> None:
    codec = codec_for(hint)
    assert _error(codec, data) == _checked_error(codec, data) is not None


def test_strings_that_json_escapes_are_ordered_by_their_escaped_text() -> None:
    value = frozenset({"a", "a b", 'a"', "a\\", "a\n", "ab"})
    assert codec_for(frozenset[str]).encode(value) == sorted(value, key=canonical_json)


# -- shapes the games do not use ------------------------------------------------------------


@attrs.frozen
class Chain:
    label: str
    rest: Chain | None


@attrs.frozen
class Private:
    _hidden: int


@attrs.frozen
class Keyword:
    first: int
    second: Fraction = attrs.field(kw_only=True)


@attrs.frozen
class Mixed:
    pair: tuple[int, Fraction]
    flags: tuple[bool, ...]
    weight: float
    mode: Literal["a", 1]
    chain: Chain | None


def test_recursive_records_round_trip() -> None:
    codec = codec_for(Chain)
    value = Chain("a", Chain("b", None))
    assert codec.encode(value) == {"label": "a", "rest": {"label": "b", "rest": None}}
    assert codec.decode(codec.encode(value)) == value


def test_keyword_only_fields_decode() -> None:
    codec = codec_for(Keyword)
    value = Keyword(1, second=Fraction(1, 2))
    assert codec.decode(json.loads(json.dumps(codec.encode(value)))) == value


def test_private_fields_fail_as_the_checked_pass_says() -> None:
    codec = codec_for(Private)
    assert codec.encode(Private(3)) == {"_hidden": 3}
    with pytest.raises(DecodeError, match=r"^\$: invalid Private"):
        codec.decode({"_hidden": 3})


def test_floats_accept_integers_and_literals_their_exact_values() -> None:
    codec = codec_for(Mixed)
    data: dict[str, JSONValue] = {
        "pair": [1, "1/2"],
        "flags": [True, False],
        "weight": 2,
        "mode": 1,
        "chain": None,
    }
    value = codec.decode(data)
    assert value == Mixed((1, Fraction(1, 2)), (True, False), 2.0, 1, None)
    assert type(value.weight) is float
    bads: list[tuple[str, JSONValue]] = [
        ("mode", True),
        ("flags", [1]),
        ("pair", [True, "1"]),
        ("weight", "2"),
    ]
    for field, bad in bads:
        damaged: dict[str, JSONValue] = {**data, field: bad}
        assert _error(codec, damaged) == _checked_error(codec, damaged) is not None
