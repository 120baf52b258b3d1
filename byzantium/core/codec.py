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

How it is fast: every annotation is looked at once, when its codec is built, and
turned into functions that do no type introspection afterwards. Each record class
gets a generated encoder and decoder (as attrs generates ``__init__``) that name
its fields one by one and call a converter only for the fields whose values are not
their own JSON form; a tuple of ints is copied whole, its items' types checked in
one pass. Decoding runs a *quick* pass that knows nothing of paths and gives up
(raises anything) at the first thing it does not expect; only then does the
*checked* pass walk the data again with ``$.field[3]`` paths and raise the
:class:`DecodeError` that says what is wrong. The checked pass alone decides what
is an error, so messages never depend on the quick one, which only ever accepts
data the checked pass accepts and builds the same value from it.
"""

from __future__ import annotations

import enum
import json
import operator
import re
import threading
import types
import typing
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Generic, TypeVar, Union

import attrs

from byzantium.core.errors import ByzantiumError

__all__ = [
    "MAX_DEPTH",
    "MAX_JSON_TEXT",
    "MAX_NUMBER_DIGITS",
    "MAX_STRING",
    "Codec",
    "DecodeError",
    "JSONValue",
    "Tagged",
    "canonical_json",
    "codec_for",
    "loads_json",
]

#: A value ``json`` can write: objects, arrays, strings, numbers, booleans, null.
JSONValue = dict[str, "JSONValue"] | list["JSONValue"] | str | int | float | bool | None

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

_Encode = Callable[[object], JSONValue]
#: The checked decoder: data and the path to it (for messages).
_Decode = Callable[[JSONValue, str], object]
#: The quick decoder: data alone; it raises (anything) when the data is not as expected.
_Quick = Callable[[JSONValue], object]

#: What ``json.dumps(..., ensure_ascii=False)`` escapes inside a string.
_ESCAPED = re.compile(r'[\x00-\x1f\\"]')


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


#: The longest JSON text :func:`loads_json` reads (characters).
MAX_JSON_TEXT = 64_000_000
#: The deepest nesting of arrays and objects it accepts.
MAX_DEPTH = 64
#: The longest string it accepts (characters).
MAX_STRING = 100_000
#: The most digits of a number it accepts.
MAX_NUMBER_DIGITS = 40

_SURROGATE = re.compile("[\ud800-\udfff]")


def _no_duplicates(pairs: list[tuple[str, JSONValue]]) -> dict[str, JSONValue]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DecodeError(f"the key {key[:40]!r} appears twice in one object")
            seen.add(key)
    return result


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise DecodeError(f"a number of {len(text)} digits (at most {MAX_NUMBER_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise DecodeError(f"a number of {len(text)} characters (at most {MAX_NUMBER_DIGITS})")
    return float(text)


def _constant(text: str) -> float:
    raise DecodeError(f"{text} is not a JSON number")


def loads_json(text: str | bytes, what: str = "the file") -> JSONValue:
    """Parse JSON text from outside, with limits: :class:`DecodeError` (one line) for
    text that is not UTF-8 or not JSON, for nesting deeper than :data:`MAX_DEPTH`,
    strings longer than :data:`MAX_STRING` or holding lone surrogates, numbers of
    more than :data:`MAX_NUMBER_DIGITS` digits, ``NaN``/``Infinity``, and a key
    repeated in one object.

    >>> loads_json('{"a": [1, "1/2"]}')
    {'a': [1, '1/2']}
    >>> loads_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    byzantium.core.codec.DecodeError: the file: the key 'a' appears twice in one object
    """
    if not isinstance(text, str | bytes):
        raise DecodeError(f"{what}: JSON text is a string or bytes, not a {type(text).__name__}")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DecodeError(f"{what} is not UTF-8 text (byte {exc.start})") from None
    if len(text) > MAX_JSON_TEXT:
        raise DecodeError(f"{what} holds {len(text)} characters (at most {MAX_JSON_TEXT})")
    try:
        data: JSONValue = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=_int,
            parse_float=_float,
            parse_constant=_constant,
        )
    except DecodeError as exc:
        raise DecodeError(f"{what}: {exc}") from None
    except RecursionError:
        raise DecodeError(f"{what}: JSON nested too deeply") from None
    except ValueError as exc:  # json.JSONDecodeError among them
        raise DecodeError(f"{what} is not valid JSON: {str(exc)[:200]}") from None
    _check_limits(data, what)
    return data


def _check_limits(data: JSONValue, what: str) -> None:
    pending: list[tuple[JSONValue, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if len(value) > MAX_STRING:
                raise DecodeError(f"{what}: a string of {len(value)} characters")
            if _SURROGATE.search(value):
                raise DecodeError(f"{what}: a string with a lone surrogate")
            continue
        if isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise DecodeError(f"{what}: JSON nested deeper than {MAX_DEPTH}")
            items = list(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
            for key, item in items:
                if key is not None:
                    pending.append((key, depth + 1))
                pending.append((item, depth + 1))


class _GiveUp(Exception):
    """The quick decoder met something it does not expect (the checked one will say what)."""


@attrs.frozen
class _Parts:
    """The functions of one annotation's codec, and what its callers may skip.

    ``plain``: a value is its own JSON form, so ``encode`` need not be called.
    ``exact``: data of exactly this type is its own decoded value (``quick`` need
    not be called on it), and data of any other type is malformed.
    ``family``: for records of several classes told apart by ``"type"`` (a union
    without None, a :class:`Tagged` base), the encoders by class and the quick
    decoders by name, so that a list of them is dispatched without a call per item.
    """

    encode: _Encode
    decode: _Decode
    quick: _Quick
    plain: bool = False
    exact: type | None = None
    family: tuple[Mapping[type, _Encode], Mapping[str, _Quick]] | None = None


class Codec(Generic[T]):
    """Encoder and decoder for one annotated type (made by :func:`codec_for`)."""

    def __init__(self, hint: object, parts: _Parts) -> None:
        self.hint = hint
        self._parts = parts
        self._encode = parts.encode
        self._decode = parts.decode
        self._quick = parts.quick

    def encode(self, value: T) -> JSONValue:
        """The JSON form of ``value``."""
        return self._encode(value)

    def decode(self, data: JSONValue) -> T:
        """The value whose JSON form is ``data``; :class:`DecodeError` if malformed."""
        try:
            return typing.cast(T, self._quick(data))
        except Exception:  # the checked pass below reports what is wrong
            pass
        return typing.cast(T, self._decode(data, "$"))


_CACHE: dict[object, Codec[object]] = {}
#: Annotations whose codecs are being built (a record type may contain itself), by
#: the one thread that holds the lock.
_BUILDING: set[object] = set()
_BUILD_LOCK = threading.RLock()


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
        return Codec(hint, _build(hint))
    with _BUILD_LOCK:
        if hint in _CACHE:  # built by another thread meanwhile
            return _CACHE[hint]
        if hint in _BUILDING:
            return Codec(hint, _forward(hint))
        _BUILDING.add(hint)
        try:
            codec: Codec[object] = Codec(hint, _build(hint))
        finally:
            _BUILDING.discard(hint)
        _CACHE[hint] = codec
        return codec


def _forward(hint: object) -> _Parts:
    """Parts that call the codec of ``hint`` once it is built (for recursive types)."""

    def encode(value: object) -> JSONValue:
        return _CACHE[hint]._encode(value)

    def decode(data: JSONValue, path: str) -> object:
        return _CACHE[hint]._decode(data, path)

    def quick(data: JSONValue) -> object:
        return _CACHE[hint]._quick(data)

    return _Parts(encode, decode, quick)


def _parts_for(hint: object) -> _Parts:
    return codec_for(hint)._parts


def _fail(path: str, wanted: str, data: object) -> DecodeError:
    return DecodeError(f"{path}: expected {wanted}, got {data!r}"[:300])


def _all_of_type(data: list[JSONValue], kind: type) -> bool:
    """Whether every item of ``data`` is exactly of type ``kind``."""
    return operator.countOf(map(type, data), kind) == len(data)


def _build(hint: object) -> _Parts:
    if hint is type(None) or hint is None:
        return _build_none()
    if hint in (bool, int, str):
        assert isinstance(hint, type)
        return _build_scalar(hint)
    if hint is float:
        return _build_float()
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
            return _build_sequence(args[0], "a list")
        return _build_fixed_tuple(args)
    if origin is frozenset:
        return _build_frozenset(args[0])
    if origin in (Union, types.UnionType):
        return _build_union(args)
    if origin is typing.Literal:
        return _build_literal(args)
    raise TypeError(f"no JSON codec for type {hint!r}")


# -- scalars -----------------------------------------------------------------------------


def _build_none() -> _Parts:
    def encode(value: object) -> JSONValue:
        return None

    def decode(data: JSONValue, path: str) -> object:
        if data is not None:
            raise _fail(path, "null", data)
        return None

    def quick(data: JSONValue) -> object:
        if data is not None:
            raise _GiveUp
        return None

    return _Parts(encode, decode, quick, exact=type(None))


def _same(value: object) -> JSONValue:
    assert isinstance(value, int | str | float)
    return value


def _build_scalar(kind: type) -> _Parts:
    """``bool``, ``int`` or ``str``: the value is its JSON form, and the type must match."""

    def decode(data: JSONValue, path: str) -> object:
        if type(data) is not kind:
            raise _fail(path, kind.__name__, data)
        return data

    def quick(data: JSONValue) -> object:
        if type(data) is not kind:
            raise _GiveUp
        return data

    return _Parts(_same, decode, quick, plain=True, exact=kind)


def _build_float() -> _Parts:
    """``float``: an integer in the JSON is read as a float."""

    def decode(data: JSONValue, path: str) -> object:
        if type(data) is not float and type(data) is not int:
            raise _fail(path, "float", data)
        return float(data)

    def quick(data: JSONValue) -> object:
        if type(data) is not float and type(data) is not int:
            raise _GiveUp
        return float(data)

    return _Parts(_same, decode, quick, plain=True)


#: A fraction's one JSON form: ``str(Fraction)``, bounded in length.
_FRACTION = re.compile(r"-?(0|[1-9][0-9]{0,39})(/[1-9][0-9]{0,39})?")


def _canonical_fraction(data: str) -> Fraction | None:
    """The fraction whose canonical text (``"3/2"``, ``"-1"``) is ``data``, else None."""
    if _FRACTION.fullmatch(data) is None:
        return None
    value = Fraction(data)
    return value if str(value) == data else None


def _build_fraction() -> _Parts:
    def encode(value: object) -> JSONValue:
        assert isinstance(value, Fraction)
        return str(value)

    def decode(data: JSONValue, path: str) -> object:
        value = _canonical_fraction(data) if isinstance(data, str) else None
        if value is None:
            raise _fail(path, "a fraction in lowest terms such as '3/2'", data)
        return value

    def quick(data: JSONValue) -> object:
        if type(data) is not str:
            raise _GiveUp
        value = _canonical_fraction(data)
        if value is None:
            raise _GiveUp
        return value

    return _Parts(encode, decode, quick)


def _build_enum(kind: type[enum.Enum]) -> _Parts:
    members = dict(kind.__members__)
    # ``_name_`` holds what the ``name`` property gives; reading it directly spares
    # a Python-level property call per member encoded.
    name_of = typing.cast(_Encode, operator.attrgetter("_name_"))

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, str) or data not in members:
            raise _fail(path, f"a {kind.__name__} name", data)
        return members[data]

    # A name that is no member raises KeyError, an unhashable datum TypeError.
    quick = typing.cast(_Quick, members.__getitem__)
    return _Parts(name_of, decode, quick)


def _build_literal(values: tuple[object, ...]) -> _Parts:
    by_type_and_value = {(type(value), value): value for value in values}

    def decode(data: JSONValue, path: str) -> object:
        for value in values:
            if type(value) is type(data) and value == data:
                return value
        raise _fail(path, f"one of {values!r}", data)

    def quick(data: JSONValue) -> object:
        return by_type_and_value[type(data), data]

    return _Parts(_same, decode, quick, plain=True)


# -- collections ---------------------------------------------------------------------------


def _build_sequence(item: object, wanted: str) -> _Parts:
    inner = _parts_for(item)
    enc, dec, item_quick, exact = inner.encode, inner.decode, inner.quick, inner.exact

    def encode(value: object) -> JSONValue:
        assert isinstance(value, tuple)
        return list(map(enc, value))

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, list):
            raise _fail(path, wanted, data)
        return tuple(dec(v, f"{path}[{i}]") for i, v in enumerate(data))

    def quick(data: JSONValue) -> object:
        if type(data) is not list:
            raise _GiveUp
        return tuple(map(item_quick, data))

    def quick_exact(data: JSONValue) -> object:
        if type(data) is not list or not _all_of_type(data, typing.cast(type, exact)):
            raise _GiveUp
        return tuple(data)

    if inner.family is not None:
        encoders, quicks = inner.family

        def encode_family(value: object) -> JSONValue:
            assert isinstance(value, tuple)
            return [encoders[type(v)](v) for v in value]

        def quick_family(data: JSONValue) -> object:
            if type(data) is not list:
                raise _GiveUp
            return tuple([quicks[v["type"]](v) for v in data])  # type: ignore[call-overload,index]

        return _Parts(encode_family, decode, quick_family)
    return _Parts(
        typing.cast(_Encode, list) if inner.plain else encode,
        decode,
        quick if exact is None else quick_exact,
    )


def _build_fixed_tuple(items: tuple[object, ...]) -> _Parts:
    codecs = [codec_for(item) for item in items]
    parts = [codec._parts for codec in codecs]
    encoders = [p.encode for p in parts]
    quicks = [p.quick for p in parts]
    exact_types = tuple(p.exact for p in parts)
    size = len(codecs)

    def encode(value: object) -> JSONValue:
        assert isinstance(value, tuple)
        return [enc(v) for enc, v in zip(encoders, value, strict=True)]

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, list) or len(data) != len(codecs):
            raise _fail(path, f"a list of {len(codecs)}", data)
        return tuple(
            c._decode(v, f"{path}[{i}]") for i, (c, v) in enumerate(zip(codecs, data, strict=True))
        )

    def quick(data: JSONValue) -> object:
        if type(data) is not list or len(data) != size:
            raise _GiveUp
        return tuple(map(operator.call, quicks, data))

    def quick_exact(data: JSONValue) -> object:
        if type(data) is not list or tuple(map(type, data)) != exact_types:
            raise _GiveUp
        return tuple(data)

    all_plain = all(p.plain for p in parts)
    return _Parts(
        typing.cast(_Encode, list) if all_plain else encode,
        decode,
        quick_exact if None not in exact_types else quick,
    )


def _sorted_canonically(items: list[JSONValue]) -> list[JSONValue]:
    """``items`` in the order of their canonical JSON texts (a frozenset's order)."""
    kinds = set(map(type, items))
    if kinds == {str}:
        strings = typing.cast(list[str], items)
        if not _ESCAPED.search("".join(strings)):
            # Unescaped, the text of a string is the string between quotes, so the
            # order of the texts is the order of the strings with a closing quote.
            return sorted(items, key='{}"'.format)
    elif kinds == {int}:
        return sorted(items, key=str)  # an int's JSON text is its decimal form
    return sorted(items, key=canonical_json)


def _build_frozenset(item: object) -> _Parts:
    inner = _parts_for(item)
    enc, dec, item_quick, exact = inner.encode, inner.decode, inner.quick, inner.exact
    plain = inner.plain

    def encode(value: object) -> JSONValue:
        assert isinstance(value, frozenset)
        encoded: list[JSONValue] = list(value) if plain else list(map(enc, value))
        return _sorted_canonically(encoded)

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, list):
            raise _fail(path, "a list", data)
        items = [dec(v, f"{path}[{i}]") for i, v in enumerate(data)]
        result = frozenset(items)
        if len(result) != len(items):
            raise _fail(path, "a list without repeats", data)
        return result

    def quick(data: JSONValue) -> object:
        if type(data) is not list:
            raise _GiveUp
        if exact is None:
            result = frozenset(map(item_quick, data))
        elif _all_of_type(data, exact):
            result = frozenset(data)
        else:
            raise _GiveUp
        if len(result) != len(data):
            raise _GiveUp
        return result

    return _Parts(encode, decode, quick)


# -- records ---------------------------------------------------------------------------------


def _attrs_fields(kind: type) -> list[tuple[str, Codec[object]]]:
    hints = typing.get_type_hints(kind)
    return [(f.name, codec_for(hints[f.name])) for f in attrs.fields(kind) if f.init]


def _record_functions(
    kind: type, tag: bool, fields: list[tuple[str, Codec[object]]]
) -> tuple[_Encode, _Quick]:
    """The encoder and the quick decoder of a record class, written out as Python.

    Reading fields one by one in a loop costs more than the work itself, so the two
    functions are generated, as attrs generates ``__init__``. For a record
    ``Move(spaces: int, path: Path)`` in a :class:`Tagged` family they read::

        def encode(value):
            return {'type': 'Move', 'spaces': value.spaces, 'path': e1(value.path)}

        def quick(data):
            if type(data) is not dict or len(data) != 3 or 'type' not in data:
                raise GiveUp
            v0 = data['spaces']
            if type(v0) is not t0:
                raise GiveUp
            v1 = q1(data['path'])
            return kind(v0, v1)

    where ``e1``/``q1`` are the field's encoder and quick decoder, ``t0`` the exact
    type of a field whose JSON form is its value. A missing key raises KeyError;
    with the count of keys checked, the keys are then exactly the expected ones.
    """
    names = [field for field, _ in fields]
    namespace: dict[str, object] = {"kind": kind, "GiveUp": _GiveUp}
    items = [f"{'type'!r}: {kind.__name__!r}"] if tag else []
    checks = [
        "type(data) is not dict",
        f"len(data) != {len(set(names) | ({'type'} if tag else set()))}",
    ]
    if tag and "type" not in names:
        checks.append(f"{'type'!r} not in data")
    reads: list[str] = []
    for i, (field, codec) in enumerate(fields):
        parts = codec._parts
        if parts.plain:
            items.append(f"{field!r}: value.{field}")
        else:
            namespace[f"e{i}"] = parts.encode
            items.append(f"{field!r}: e{i}(value.{field})")
        if parts.exact is not None:
            namespace[f"t{i}"] = parts.exact
            reads.append(f"    v{i} = data[{field!r}]")
            reads.append(f"    if type(v{i}) is not t{i}:")
            reads.append("        raise GiveUp")
        else:
            namespace[f"q{i}"] = parts.quick
            reads.append(f"    v{i} = q{i}(data[{field!r}])")
    init = [f for f in attrs.fields(kind) if f.init]
    if all(f.alias == f.name and not f.kw_only for f in init):
        arguments = [f"v{i}" for i in range(len(names))]
    else:  # keyword arguments named as the fields are, as ``kind(**values)`` would pass
        arguments = [f"{field}=v{i}" for i, field in enumerate(names)]
    source = "\n".join(
        [
            "def encode(value):",
            f"    return {{{', '.join(items)}}}",
            "",
            "def quick(data):",
            f"    if {' or '.join(checks)}:",
            "        raise GiveUp",
            *reads,
            f"    return kind({', '.join(arguments)})",
        ]
    )
    exec(compile(source, f"<codec of {kind.__qualname__}>", "exec"), namespace)
    return typing.cast(_Encode, namespace["encode"]), typing.cast(_Quick, namespace["quick"])


def _build_attrs(kind: type, tag: bool = False) -> _Parts:
    fields = _attrs_fields(kind)
    encode, quick = _record_functions(kind, tag, fields)
    name = kind.__name__

    def decode(data: JSONValue, path: str) -> object:
        if not isinstance(data, dict):
            raise _fail(path, f"a {name} object", data)
        expected = {field for field, _ in fields} | ({"type"} if tag else set())
        if set(data) != expected:
            missing = sorted(expected - set(data))
            extra = sorted(set(data) - expected)
            raise DecodeError(f"{path}: {name} fields missing {missing}, unexpected {extra}")
        values = {field: codec._decode(data[field], f"{path}.{field}") for field, codec in fields}
        try:
            return kind(**values)
        except (TypeError, ValueError) as exc:
            raise DecodeError(f"{path}: invalid {name}: {exc}") from exc

    return _Parts(encode, decode, quick)


class _Table(dict[K, V]):
    """A dict that fills in a missing entry with ``make`` (which may raise KeyError)."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self._make(key)
        return value


def _subclasses(base: type) -> dict[str, type]:
    found: dict[str, type] = {}
    pending = [base]
    while pending:
        cls = pending.pop()
        if attrs.has(cls) and found.setdefault(cls.__name__, cls) is not cls:
            raise TypeError(f"two {base.__name__} classes are named {cls.__name__}")
        pending.extend(cls.__subclasses__())
    return found


def _build_tagged(base: type) -> _Parts:
    # Per concrete class, its (tagged) record codec; per class name, its quick decoder.
    # Names are looked up among the subclasses only when first met, so a subclass
    # defined after the first decode is still found.
    of = _Table[type, _Parts](lambda cls: _build_attrs(cls, tag=True))
    encoders = _Table[type, _Encode](lambda cls: of[cls].encode)

    def quick_of(name: str) -> _Quick:
        return of[_subclasses(base)[name]].quick

    quicks = _Table[str, _Quick](quick_of)

    def encode(value: object) -> JSONValue:
        return encoders[type(value)](value)

    def decode(data: JSONValue, path: str) -> object:
        name = data.get("type") if isinstance(data, dict) else None
        family = _subclasses(base)
        if not isinstance(name, str) or name not in family:
            raise _fail(path, f"a {base.__name__} object with a known type", data)
        return of[family[name]].decode(data, path)

    def quick(data: JSONValue) -> object:
        # Data that is no object fails to give a "type" (TypeError); a name that is no
        # class of the family is not in ``quicks`` (KeyError).
        return quicks[data["type"]](data)  # type: ignore[call-overload,index]

    return _Parts(encode, decode, quick, family=(encoders, quicks))


def _build_union(members: tuple[object, ...]) -> _Parts:
    optional = type(None) in members
    rest = tuple(m for m in members if m is not type(None))
    if optional and len(rest) == 1:
        inner = _parts_for(rest[0])
        inner_encode, inner_decode, inner_quick = inner.encode, inner.decode, inner.quick

        def encode_opt(value: object) -> JSONValue:
            return None if value is None else inner_encode(value)

        def decode_opt(data: JSONValue, path: str) -> object:
            return None if data is None else inner_decode(data, path)

        def quick_opt(data: JSONValue) -> object:
            return None if data is None else inner_quick(data)

        return _Parts(encode_opt, decode_opt, quick_opt, plain=inner.plain)
    if not all(isinstance(m, type) and attrs.has(m) for m in rest):
        raise TypeError(f"unions must be of attrs classes (and None), not {members!r}")
    classes = typing.cast(tuple[type, ...], rest)
    by_name = {cls.__name__: _build_attrs(cls, tag=True) for cls in classes}
    if len(by_name) != len(classes):
        raise TypeError(f"union members need distinct class names: {members!r}")
    by_class = {cls: by_name[cls.__name__].encode for cls in classes}
    quick_by_name = {name: parts.quick for name, parts in by_name.items()}

    def encode(value: object) -> JSONValue:
        if value is None and optional:
            return None
        return by_class[type(value)](value)

    def decode(data: JSONValue, path: str) -> object:
        if data is None and optional:
            return None
        name = data.get("type") if isinstance(data, dict) else None
        if not isinstance(name, str) or name not in by_name:
            raise _fail(path, f"an object with type in {sorted(by_name)}", data)
        return by_name[name].decode(data, path)

    def quick(data: JSONValue) -> object:
        if data is None and optional:
            return None
        return quick_by_name[data["type"]](data)  # type: ignore[call-overload,index]

    family = None if optional else (by_class, quick_by_name)
    return _Parts(encode, decode, quick, family=family)
