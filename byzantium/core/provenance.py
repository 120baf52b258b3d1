"""Where component data come from, and the error for bad component files.

Both games keep their printed components (maps, tiles, counters, tables, setups) as
TOML data. Every datum carries a :class:`Source`: a rule id of the game's index
(the rulebook states it, perhaps only in an example), the peer transcription (read
from an independent implementation), or a provisional value with its rationale.

>>> from byzantium.core.rules import RuleBook, RuleEntry, RuleStatus
>>> book = RuleBook("g", "G", [RuleEntry("1.1", "Dice", RuleStatus.PENDING)])
>>> str(parse_source("1.1", book, "f.toml", "k")), str(parse_source("peer", book, "f", "k"))
('rule 1.1', 'peer transcription')
>>> str(parse_source("provisional: no printed value", book, "f", "k"))
'provisional: no printed value'
"""

from __future__ import annotations

import enum
import os
import tomllib
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction

import attrs

from byzantium.core.errors import ByzantiumError
from byzantium.core.files import UnreadableFileError, read_bytes
from byzantium.core.rules import RuleBook

__all__ = [
    "ComponentError",
    "Provenance",
    "RecordReader",
    "Source",
    "field_sources",
    "parse_source",
    "read_component_file",
]


class ComponentError(ByzantiumError, ValueError):
    """A component file that is malformed or inconsistent: names file, key and reason."""

    def __init__(self, file: str, key: str, reason: str) -> None:
        self.file = file
        self.key = key
        self.reason = reason
        super().__init__(f"{file}: {key}: {reason}")


class Provenance(enum.Enum):
    """Where a component datum comes from."""

    RULEBOOK = "rulebook"
    PEER = "peer transcription"
    PROVISIONAL = "provisional"


@attrs.frozen
class Source:
    """The provenance of a datum: a rule id, the peer transcription, or a rationale."""

    kind: Provenance
    ref: str = ""

    def __str__(self) -> str:
        if self.kind is Provenance.RULEBOOK:
            return f"rule {self.ref}"
        if self.kind is Provenance.PEER:
            return "peer transcription"
        return f"provisional: {self.ref}"


def parse_source(
    text: object, rules: RuleBook, file: str, key: str, *, allow_peer: bool = True
) -> Source:
    """A provenance string: a rule id of ``rules``, ``"peer"`` or ``"provisional: why"``.

    Games without a peer transcription pass ``allow_peer=False``.
    """
    if not isinstance(text, str) or not text.strip():
        raise ComponentError(file, key, f"source must be a non-empty string, not {text!r}")
    if text == "peer" and allow_peer:
        return Source(Provenance.PEER)
    if text.startswith("provisional:"):
        why = text.removeprefix("provisional:").strip()
        if not why:
            raise ComponentError(file, key, "a provisional value needs its rationale")
        return Source(Provenance.PROVISIONAL, why)
    if text not in rules:
        peer = ", 'peer'" if allow_peer else ""
        raise ComponentError(
            file, key, f"source {text!r} is not a rule id of the index{peer} or 'provisional: why'"
        )
    return Source(Provenance.RULEBOOK, text)


R = typing.TypeVar("R", bound=attrs.AttrsInstance)


class RecordReader:
    """Builds typed attrs records from TOML tables, naming file and key on every error.

    Values are converted by the fields' annotations: booleans, integers, strings,
    fractions (an integer, a half-step float or ``"a/b"``), enums by value, optional
    values, ``tuple[X, ...]``, ``frozenset[X]`` and nested records. ``converters``
    adds game-specific types (a function from the raw TOML value, raising
    ``ValueError`` with a reason). A record's ``source`` and per-field ``sources``
    are parsed as provenance; ``sources`` may name a field of a nested record with a
    dotted key (``"front.solidus"``).
    """

    def __init__(
        self,
        rules: RuleBook,
        file: str,
        *,
        allow_peer: bool = True,
        require_source: bool = False,
        converters: Mapping[type, Callable[[object], object]] | None = None,
    ) -> None:
        self.rules = rules
        self.file = file
        self.allow_peer = allow_peer
        self.require_source = require_source
        self.converters = dict(converters or {})

    def fail(self, key: str, reason: str) -> ComponentError:
        """The error for ``key`` of this file."""
        return ComponentError(self.file, key, reason)

    def source(self, raw: object, key: str) -> Source:
        """A provenance string."""
        return parse_source(raw, self.rules, self.file, key, allow_peer=self.allow_peer)

    def value(self, hint: object, raw: object, key: str) -> object:
        """``raw`` converted to the annotated type ``hint``."""
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if isinstance(hint, type) and hint in self.converters:
            try:
                return self.converters[hint](raw)
            except ValueError as exc:
                raise self.fail(key, str(exc)) from None
        if hint is bool or hint is int or hint is str:
            assert isinstance(hint, type)
            if type(raw) is not hint:
                wanted = {bool: "true or false", int: "an integer", str: "a string"}[hint]
                raise self.fail(key, f"expected {wanted}, not {raw!r}")
            return raw
        if hint is Fraction:
            return self._fraction(raw, key)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            try:
                return hint(raw)
            except ValueError:
                allowed = ", ".join(repr(m.value) for m in hint)
                raise self.fail(key, f"{raw!r} is not one of {allowed}") from None
        if isinstance(hint, type) and attrs.has(hint):
            return self.record(hint, raw, key)
        if origin in (typing.Union, types.UnionType) and type(None) in args:
            inner = next(a for a in args if a is not type(None))
            return None if raw is None else self.value(inner, raw, key)
        if origin in (tuple, frozenset):
            if not isinstance(raw, list):
                raise self.fail(key, f"expected a list, not {raw!r}")
            if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
                raise TypeError(f"no TOML reader for {hint!r}")  # pragma: no cover
            items = [self.value(args[0], item, f"{key}[{i}]") for i, item in enumerate(raw)]
            if origin is tuple:
                return tuple(items)
            if len(set(items)) != len(items):
                raise self.fail(key, "lists a value twice")
            return frozenset(items)
        raise TypeError(f"no TOML reader for {hint!r}")  # pragma: no cover

    def _fraction(self, raw: object, key: str) -> Fraction:
        try:
            if isinstance(raw, int) and not isinstance(raw, bool):
                return Fraction(raw)
            if isinstance(raw, float) and (raw * 2).is_integer():
                return Fraction(raw)
            if isinstance(raw, str):
                return Fraction(raw)
        except (ValueError, ZeroDivisionError):
            pass
        raise self.fail(key, f"expected a number or a fraction like '1/2', not {raw!r}")

    def record(self, kind: type[R], raw: object, key: str) -> R:
        """One record of ``kind`` from a TOML table."""
        if not isinstance(raw, dict):
            raise self.fail(key, f"expected a table, not {raw!r}")
        hints = typing.get_type_hints(kind)
        fields = {f.name: f for f in attrs.fields(kind)}
        unknown = sorted(set(raw) - set(fields))
        if unknown:
            raise self.fail(key, f"unknown field(s) {', '.join(unknown)} for a {kind.__name__}")
        if self.require_source and "source" in fields and "source" not in raw:
            raise self.fail(key, "missing field 'source'")
        values: dict[str, object] = {}
        for name, field in fields.items():
            label = f"{key}.{name}"
            if name not in raw:
                if field.default is attrs.NOTHING:
                    raise self.fail(key, f"missing field {name!r}")
                continue
            if name == "source":
                values[name] = self.source(raw[name], label)
            elif name == "sources":
                values[name] = self._sources(kind, hints, raw[name], label)
            else:
                values[name] = self.value(hints[name], raw[name], label)
        try:
            return kind(**values)
        except (TypeError, ValueError) as exc:  # pragma: no cover - attrs validators
            raise self.fail(key, str(exc)) from exc

    def _sources(
        self, kind: type, hints: Mapping[str, object], table: object, label: str
    ) -> tuple[tuple[str, Source], ...]:
        if not isinstance(table, dict):
            raise self.fail(label, "expected a table of field = source")
        names = {f.name for f in attrs.fields(kind)} - {"source", "sources"}
        for field_name in table:
            head, _, tail = field_name.partition(".")
            if head not in names:
                raise self.fail(label, f"{field_name!r} is not a field of {kind.__name__}")
            nested = hints[head]
            if tail and not (
                isinstance(nested, type)
                and attrs.has(nested)
                and tail in {f.name for f in attrs.fields(nested)}
            ):
                raise self.fail(label, f"{field_name!r}: {tail!r} is not a field of {head}")
        return tuple(
            (name, self.source(text, f"{label}.{name}")) for name, text in sorted(table.items())
        )

    def records(
        self, data: Mapping[str, object], table: str, kind: type[R], *, required: bool = False
    ) -> tuple[R, ...]:
        """Every record of an array of tables (``[[table]]``)."""
        rows = data.get(table, [])
        if not isinstance(rows, list):
            raise self.fail(table, "expected an array of tables ([[...]])")
        if required and not rows:
            raise self.fail(table, "the table is missing or empty")
        return tuple(self.record(kind, row, f"{table}[{i}]") for i, row in enumerate(rows))


def field_sources(label: str, record: attrs.AttrsInstance) -> Iterator[tuple[str, str, Source]]:
    """Each field of a component record with its source, as (record, field, source).

    ``record`` is an attrs record with a ``source`` and per-field ``sources``
    overrides; fields holding lists of nested records are skipped (list those
    records separately).
    """
    default: Source = getattr(record, "source")  # noqa: B009
    overrides: dict[str, Source] = dict(getattr(record, "sources"))  # noqa: B009
    for field in attrs.fields(type(record)):
        if field.name in ("source", "sources"):
            continue
        value = getattr(record, field.name)
        if isinstance(value, tuple) and value and attrs.has(type(value[0])):
            continue
        yield label, field.name, overrides.get(field.name, default)


#: The largest component file read (bytes), and the deepest nesting of its arrays
#: and tables: component files are small and flat.
MAX_COMPONENT_FILE = 4_000_000
MAX_COMPONENT_DEPTH = 16


def read_component_file(
    path: str | os.PathLike[str], error: type[ComponentError] = ComponentError
) -> bytes:
    """The bytes of a user's component file, read by
    :func:`~byzantium.core.files.read_bytes` (a regular file of at most
    :data:`MAX_COMPONENT_FILE` bytes), or ``error`` naming the file."""
    try:
        return read_bytes(path, MAX_COMPONENT_FILE, kind="component file")
    except UnreadableFileError as exc:
        raise error(exc.file, "-", exc.reason) from None


def load_toml(
    blob: bytes, file: str, error: type[ComponentError] = ComponentError
) -> dict[str, object]:
    """The tables of a component file, or ``error`` (naming the file) when it is too
    large, not UTF-8, not TOML or nested deeper than :data:`MAX_COMPONENT_DEPTH`."""
    if len(blob) > MAX_COMPONENT_FILE:
        raise error(file, "-", f"{len(blob)} bytes, more than a component file holds")
    try:
        data: dict[str, object] = tomllib.loads(blob.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise error(file, "-", f"not valid TOML: {str(exc)[:200]}") from None
    except RecursionError:
        raise error(file, "-", "not valid TOML: nested too deeply") from None
    pending: list[tuple[object, int]] = [(data, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            if depth > MAX_COMPONENT_DEPTH:
                raise error(file, "-", f"tables or arrays nested deeper than {MAX_COMPONENT_DEPTH}")
            items = value.values() if isinstance(value, dict) else value
            pending.extend((item, depth + 1) for item in items)
    return data
