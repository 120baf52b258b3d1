"""Exact JSON round trips for typed, immutable attrs records.

The codec is driven by type annotations, so a state encodes to plain, readable JSON
(enums by name, fractions as ``"3/2"``, tuples and frozensets as lists) and decodes
back to an equal object. Where a field may hold one of several record classes (a
union of actions, say), the encoded object carries its class name under ``"type"``.

>>> codec = codec_for(tuple[tuple[str, Fraction], ...])
>>> codec.encode((("hit", Fraction(1, 3)), ("miss", Fraction(2, 3))))
[['hit', '1/3'], ['miss', '2/3']]
>>> codec.decode([['hit', '1/3']])
(('hit', Fraction(1, 3)),)
"""

from __future__ import annotations

import enum
import json
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from typing import Generic, TypeVar, Union

import attrs

from byzantium.core.errors import ByzantiumError

__all__ = ["Codec", "DecodeError", "JSONValue", "Tagged", "canonical_json", "codec_for"]

#: A value ``json`` can write: objects, arrays, strings, numbers, booleans, null.
JSONValue = dict[str, "JSONValue"] | list["JSONValue"] | str | int | float | bool | None

T = TypeVar("T")

_Encode = Callable[[object], JSONValue]
_Decode = Callable[[JSONValue, str], object]


def canonical_json(value: JSONValue) -> str:
    """The one textual form of a JSON value: sorted keys, no spaces (digests use it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Tagged:
    """Base of an open family of attrs records (a game's procedure steps, say).

    A field annotated with a ``Tagged`` base class holds any of its attrs subclasses;
    the encoded object carries the concrete class name under ``"type"``. Subclasses
    are looked up when a value is decoded, so families may grow across modules.
    """

    __slots__ = ()


class DecodeError(ByzantiumError, ValueError):
    """JSON that does not describe a value of the expected type."""


class Codec(Generic[T]):
    """Encoder and decoder for one annotated type."""

    def __init__(self, hint: object, encode: _Encode, decode: _Decode) -> None:
        self.hint = hint
        self._encode = encode
        self._decode = decode

    def encode(self, value: T) -> JSONValue:
        """The JSON form of ``value``."""
        return self._encode(value)

    def decode(self, data: JSONValue) -> T:
        """The value whose JSON form is ``data``; :class:`DecodeError` if malformed."""
        return typing.cast(T, self._decode(data, "$"))


_CACHE: dict[object, Codec[object]] = {}


@typing.overload
def codec_for(hint: type[T]) -> Codec[T]: ...
@typing.overload
def codec_for(hint: object) -> Codec[object]: ...
def codec_for(hint: object) -> Codec[typing.Any]:
    """The (cached) codec of a type annotation."""
    try:
        return _CACHE[hint]
    except KeyError:
        pass
    except TypeError:  # unhashable annotation
        return Codec(hint, *_build(hint))
    codec: Codec[object] = Codec(hint, *_build(hint))
    _CACHE[hint] = codec
    return codec


def _fail(path: str, wanted: str, data: object) -> DecodeError:
    return DecodeError(f"{path}: expected {wanted}, got {data!r}"[:300])


def _build(hint: object) -> tuple[_Encode, _Decode]:
    if hint is type(None) or hint is None:
        return _build_none()
    if hint in (bool, int, str, float):
        assert isinstance(hint, type)
        return _build_scalar(hint)
    if hint is Fraction:
        return _build_fraction()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _build_enum(hint)
    if isinstance(hint, type) and issubclass(hint, Tagged):
        return _build_tagged(hint)
    if isinstance(hint, type) and attrs.has(hint):
        return _build_attrs(hint)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _build_sequence(args[0], tuple, "a list")
        return _build_fixed_tuple(args)
    if origin is frozenset:
        return _build_frozenset(args[0])
    if origin in (Union, types.UnionType):
        return _build_union(args)
    if origin is typing.Literal:
        return _build_literal(args)
    raise TypeError(f"no JSON codec for type {hint!r}")


def _build_none() -> tuple[_Encode, _Decode]:
    def encode(value: object) -> JSONValue:
        return None

    def decode(data: JSONValue, path: str) -> object:
        if data is not None:
            raise _fail(path, "null", data)
        return None

    return encode, decode


def _build_scalar(kind: type) -> tuple[_Encode, _Decode]:
    def encode(value: object) -> JSONValue:
        assert isinstance(value, int | str | float)
        return value

    def decode(data: JSONValue, path: str) -> object:
        ok = type(data) is kind or (kind is float and type(data) is int)
        if not ok:
            raise _fail(path, kind.__name__, data)
        return kind(data)

    return encode, decode


def _build_fraction() -> tuple[_Encode, _Decode]:
    def encode(value: object) -> JSONValue:
        assert isinstance(value, Fraction)
        return str(value)

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, str):
            raise _fail(path, "a fraction string", data)
        try:
            return Fraction(data)
        except (ValueError, ZeroDivisionError):
            raise _fail(path, "a fraction string", data) from None

    return encode, decode


def _build_enum(kind: type[enum.Enum]) -> tuple[_Encode, _Decode]:
    members = kind.__members__

    def encode(value: object) -> JSONValue:
        assert isinstance(value, enum.Enum)
        return value.name

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, str) or data not in members:
            raise _fail(path, f"a {kind.__name__} name", data)
        return members[data]

    return encode, decode


def _build_sequence(item: object, make: type, wanted: str) -> tuple[_Encode, _Decode]:
    inner = codec_for(item)
    enc, dec = inner._encode, inner._decode

    def encode(value: object) -> JSONValue:
        assert isinstance(value, tuple)
        return [enc(v) for v in value]

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, list):
            raise _fail(path, wanted, data)
        return make(dec(v, f"{path}[{i}]") for i, v in enumerate(data))

    return encode, decode


def _build_fixed_tuple(items: tuple[object, ...]) -> tuple[_Encode, _Decode]:
    codecs = [codec_for(item) for item in items]

    def encode(value: object) -> JSONValue:
        assert isinstance(value, tuple)
        return [c._encode(v) for c, v in zip(codecs, value, strict=True)]

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, list) or len(data) != len(codecs):
            raise _fail(path, f"a list of {len(codecs)}", data)
        return tuple(
            c._decode(v, f"{path}[{i}]") for i, (c, v) in enumerate(zip(codecs, data, strict=True))
        )

    return encode, decode


def _build_frozenset(item: object) -> tuple[_Encode, _Decode]:
    inner = codec_for(item)

    def encode(value: object) -> JSONValue:
        assert isinstance(value, frozenset)
        encoded = [inner._encode(v) for v in value]
        return sorted(encoded, key=canonical_json)

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, list):
            raise _fail(path, "a list", data)
        items = [inner._decode(v, f"{path}[{i}]") for i, v in enumerate(data)]
        result = frozenset(items)
        if len(result) != len(items):
            raise _fail(path, "a list without repeats", data)
        return result

    return encode, decode


def _build_literal(values: tuple[object, ...]) -> tuple[_Encode, _Decode]:
    def encode(value: object) -> JSONValue:
        assert isinstance(value, int | str | bool)
        return value

    def decode(data: JSONValue, path: str) -> object:
        for value in values:
            if type(value) is type(data) and value == data:
                return value
        raise _fail(path, f"one of {values!r}", data)

    return encode, decode


def _attrs_fields(kind: type) -> list[tuple[str, Codec[object]]]:
    hints = typing.get_type_hints(kind)
    return [(f.name, codec_for(hints[f.name])) for f in attrs.fields(kind) if f.init]


def _build_attrs(kind: type, tag: bool = False) -> tuple[_Encode, _Decode]:
    # Field codecs are built lazily so that recursive record types work.
    fields: list[tuple[str, Codec[object]]] = []

    def ready() -> list[tuple[str, Codec[object]]]:
        if not fields:
            fields.extend(_attrs_fields(kind))
        return fields

    name = kind.__name__

    def encode(value: object) -> JSONValue:
        out: dict[str, JSONValue] = {"type": name} if tag else {}
        for field, codec in ready():
            out[field] = codec._encode(getattr(value, field))
        return out

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, dict):
            raise _fail(path, f"a {name} object", data)
        expected = {field for field, _ in ready()} | ({"type"} if tag else set())
        if set(data) != expected:
            missing = sorted(expected - set(data))
            extra = sorted(set(data) - expected)
            raise DecodeError(f"{path}: {name} fields missing {missing}, unexpected {extra}")
        values = {field: codec._decode(data[field], f"{path}.{field}") for field, codec in fields}
        try:
            return kind(**values)
        except (TypeError, ValueError) as exc:
            raise DecodeError(f"{path}: invalid {name}: {exc}") from exc

    return encode, decode


def _subclasses(base: type) -> dict[str, type]:
    found: dict[str, type] = {}
    pending = [base]
    while pending:
        cls = pending.pop()
        if attrs.has(cls) and found.setdefault(cls.__name__, cls) is not cls:
            raise TypeError(f"two {base.__name__} classes are named {cls.__name__}")
        pending.extend(cls.__subclasses__())
    return found


def _build_tagged(base: type) -> tuple[_Encode, _Decode]:
    codecs: dict[type, tuple[_Encode, _Decode]] = {}

    def of(cls: type) -> tuple[_Encode, _Decode]:
        if cls not in codecs:
            codecs[cls] = _build_attrs(cls, tag=True)
        return codecs[cls]

    def encode(value: object) -> JSONValue:
        return of(type(value))[0](value)

    def decode(data: JSONValue, path: str) -> object:
        name = data.get("type") if isinstance(data, dict) else None
        family = _subclasses(base)
        if not isinstance(name, str) or name not in family:
            raise _fail(path, f"a {base.__name__} object with a known type", data)
        return of(family[name])[1](data, path)

    return encode, decode


def _build_union(members: tuple[object, ...]) -> tuple[_Encode, _Decode]:
    optional = type(None) in members
    rest = tuple(m for m in members if m is not type(None))
    if optional and len(rest) == 1:
        inner = codec_for(rest[0])

        def encode_opt(value: object) -> JSONValue:
            return None if value is None else inner._encode(value)

        def decode_opt(data: JSONValue, path: str) -> object:
            return None if data is None else inner._decode(data, path)

        return encode_opt, decode_opt
    if not all(isinstance(m, type) and attrs.has(m) for m in rest):
        raise TypeError(f"unions must be of attrs classes (and None), not {members!r}")
    classes = typing.cast(tuple[type, ...], rest)
    by_name = {cls.__name__: _build_attrs(cls, tag=True) for cls in classes}
    if len(by_name) != len(classes):
        raise TypeError(f"union members need distinct class names: {members!r}")
    by_class = {cls: by_name[cls.__name__][0] for cls in classes}

    def encode(value: object) -> JSONValue:
        if value is None and optional:
            return None
        return by_class[type(value)](value)

    def decode(data: JSONValue, path: str) -> object:
        if data is None and optional:
            return None
        if not isinstance(data, dict) or data.get("type") not in by_name:
            raise _fail(path, f"an object with type in {sorted(by_name)}", data)
        name = data["type"]
        assert isinstance(name, str)
        return by_name[name][1](data, path)

    return encode, decode
