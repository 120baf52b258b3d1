"""The JSON codec: exact round trips for every supported annotation, strict decoding."""

from __future__ import annotations

import enum
import json
from fractions import Fraction
from typing import Literal

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.core.codec import DecodeError, Tagged, canonical_json, codec_for


class Path(enum.IntEnum):
    ALPHA = 1
    BETA = 2


@attrs.frozen
class Army:
    path: Path
    strength: int
    name: str
    horse: bool


@attrs.frozen
class Advance:
    army: Army
    spaces: int


@attrs.frozen
class Retreat:
    army: Army


@attrs.frozen
class Everything:
    armies: tuple[Army, ...]
    pair: tuple[int, str]
    tags: frozenset[str]
    ratio: Fraction
    leader: Army | None
    order: Advance | Retreat | None
    mode: Literal["campaign", "millennium"]
    weight: float


armies = st.builds(
    Army, st.sampled_from(Path), st.integers(-5, 9), st.text(max_size=5), st.booleans()
)
orders = st.one_of(
    st.none(), st.builds(Advance, armies, st.integers(0, 3)), st.builds(Retreat, armies)
)
everything = st.builds(
    Everything,
    st.lists(armies, max_size=4).map(tuple),
    st.tuples(st.integers(), st.text(max_size=3)),
    st.frozensets(st.text(max_size=3), max_size=4),
    st.fractions(),
    st.one_of(st.none(), armies),
    orders,
    st.sampled_from(["campaign", "millennium"]),
    st.floats(allow_nan=False, allow_infinity=False),
)


@given(everything)
def test_round_trip_through_json_text_is_exact(value: Everything) -> None:
    codec = codec_for(Everything)
    text = json.dumps(codec.encode(value))
    assert codec.decode(json.loads(text)) == value


@given(everything)
def test_encoding_is_canonical(value: Everything) -> None:
    codec = codec_for(Everything)
    assert canonical_json(codec.encode(value)) == canonical_json(codec.encode(attrs.evolve(value)))


def test_readable_forms() -> None:
    codec = codec_for(Advance | Retreat)
    army = Army(Path.BETA, 3, "Avars", True)
    assert codec.encode(Retreat(army)) == {
        "type": "Retreat",
        "army": {"path": "BETA", "strength": 3, "name": "Avars", "horse": True},
    }
    assert codec_for(Fraction).encode(Fraction(3, 2)) == "3/2"
    assert codec_for(frozenset[int]).encode(frozenset({3, 1, 2})) == [1, 2, 3]


@pytest.mark.parametrize(
    ("hint", "data"),
    [
        (int, "3"),
        (int, True),
        (bool, 1),
        (str, None),
        (Path, "GAMMA"),
        (Fraction, "1/0"),
        (Fraction, 3),
        (tuple[int, ...], {"a": 1}),
        (tuple[int, str], [1]),
        (frozenset[int], [1, 1]),
        (Army, {"path": "ALPHA", "strength": 1, "name": "x"}),
        (Army, {"path": "ALPHA", "strength": 1, "name": "x", "horse": False, "extra": 0}),
        (Advance | Retreat, {"type": "Charge"}),
        (Advance | Retreat, None),
        (Literal["a", "b"], "c"),
        (type(None), 0),
    ],
)
def test_malformed_json_is_rejected_with_a_path(hint: object, data: object) -> None:
    with pytest.raises(DecodeError, match=r"^\$"):
        codec_for(hint).decode(data)  # type: ignore[arg-type]


def test_unsupported_annotations_are_refused() -> None:
    with pytest.raises(TypeError):
        codec_for(dict[str, int])
    with pytest.raises(TypeError):
        codec_for(int | str)


class Step(Tagged):
    __slots__ = ()


@attrs.frozen
class Move(Step):
    spaces: int


@attrs.frozen
class Wait(Step):
    pass


@attrs.frozen
class Plan:
    steps: tuple[Step, ...]


def test_tagged_families_round_trip_by_concrete_class() -> None:
    codec = codec_for(Plan)
    plan = Plan((Move(2), Wait(), Move(0)))
    encoded = codec.encode(plan)
    assert encoded == {
        "steps": [{"type": "Move", "spaces": 2}, {"type": "Wait"}, {"type": "Move", "spaces": 0}]
    }
    assert codec.decode(json.loads(json.dumps(encoded))) == plan
    with pytest.raises(DecodeError, match="known type"):
        codec.decode({"steps": [{"type": "Fly"}]})
    with pytest.raises(DecodeError, match="known type"):
        codec.decode({"steps": [{"spaces": 1}]})


def test_a_union_member_tagged_with_an_unhashable_type_is_a_decode_error() -> None:
    """Found by the fuzz suite: ``{"type": [1]}`` raised TypeError (issue 14)."""
    from byzantium.sword_of_orthodoxy.state import SooAction

    with pytest.raises(DecodeError):
        codec_for(SooAction).decode({"type": [1]})
