"""JSON Schemas (draft 2020-12) of the JSON the library writes and reads.

The schemas are generated from the same type annotations that drive
:mod:`byzantium.core.codec`, so they describe exactly what the codec emits:

* an attrs record is an object with every field (defaults included) and no other
  member; one that is a member of a union or of a :class:`~byzantium.core.codec.Tagged`
  family also carries its class name under ``"type"``;
* an enum member is its name; a fraction the string ``"n/d"`` (or ``"n"``);
* ``tuple[X, ...]`` is an array, ``tuple[X, Y]`` an array of two, ``frozenset[X]`` an
  array without repeats; ``X | None`` is ``X`` or ``null``; ``Literal`` its values.

Named types (records, enums, families) go under ``$defs`` by class name (the module
is added where two classes share a name). A Tagged family lists the subclasses known
when the schema is made, so make it after importing the game.

>>> from fractions import Fraction
>>> schema_for(tuple[tuple[str, Fraction], ...])["items"]["prefixItems"][1]["pattern"]
'^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$'

:func:`game_schemas` gives a game's five documents: ``record`` (a game record, see
:mod:`byzantium.core.records`), ``action``, ``state``, ``observation`` (what one
player sees; the state itself in a game of perfect information) and ``state-file``
(a saved position, as ``byzantium verify --state`` writes it). ``byzantium schema
GAME --kind KIND`` prints them.
"""

from __future__ import annotations

import enum
import types
import typing
from fractions import Fraction
from typing import Union

import attrs

from byzantium.core.codec import JSONValue, Tagged, _subclasses
from byzantium.core.game import Game, OptionSpec
from byzantium.core.records import RECORD_FORMAT, STATE_FORMAT

__all__ = [
    "DIALECT",
    "DIGEST_PATTERN",
    "FRACTION_PATTERN",
    "KINDS",
    "game_schemas",
    "observation_type",
    "record_schema",
    "schema_for",
    "state_file_schema",
]

S = typing.TypeVar("S")
A = typing.TypeVar("A")

#: The JSON Schema dialect of every schema made here.
DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: How the codec writes a fraction: ``str(Fraction)``.
FRACTION_PATTERN = "^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$"
#: A state or component digest (``Game.state_digest``, ``Game.components_digest``).
DIGEST_PATTERN = "^[0-9a-f]{16}$"
#: The documents :func:`game_schemas` makes for a game, in order.
KINDS = ("record", "action", "state", "observation", "state-file")

Schema = dict[str, JSONValue]

_PLAIN, _TAGGED, _FAMILY = "plain", "tagged", "family"


class _Builder:
    """Builds one schema document; named types are collected under ``$defs``."""

    def __init__(self) -> None:
        self.defs: dict[tuple[type, str], Schema] = {}
        self.refs: list[tuple[Schema, tuple[type, str]]] = []

    def ref(self, cls: type, kind: str) -> Schema:
        key = (cls, kind)
        ref: Schema = {"$ref": ""}
        self.refs.append((ref, key))
        if key not in self.defs:
            self.defs[key] = {}  # placeholder: recursive types refer to it
            made = self._named(cls, kind)
            self.defs[key] = made
        return ref

    def _named(self, cls: type, kind: str) -> Schema:
        if kind == _FAMILY:
            members: list[JSONValue] = [
                self.ref(sub, _TAGGED) for _, sub in sorted(_subclasses(cls).items())
            ]
            out: Schema = {"title": cls.__name__, "oneOf": members}
        elif issubclass(cls, enum.Enum):
            names: list[JSONValue] = list(cls.__members__)
            out = {"title": cls.__name__, "type": "string", "enum": names}
        else:
            out = self._attrs(cls, tagged=kind == _TAGGED)
        doc = cls.__dict__.get("__doc__")
        if isinstance(doc, str) and doc.strip():
            out["description"] = doc.strip().split("\n\n")[0].replace("\n", " ")
        return out

    def _attrs(self, cls: type, *, tagged: bool) -> Schema:
        hints = typing.get_type_hints(cls)
        properties: dict[str, JSONValue] = {}
        if tagged:
            properties["type"] = {"const": cls.__name__}
        for field in attrs.fields(cls):
            if field.init:
                properties[field.name] = self.build(hints[field.name])
        required: list[JSONValue] = list(properties)
        return {
            "title": cls.__name__,
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }

    def build(self, hint: object) -> Schema:
        """The schema of a type annotation, as the codec encodes it."""
        if hint is type(None) or hint is None:
            return {"type": "null"}
        if hint is bool:
            return {"type": "boolean"}
        if hint is int:
            return {"type": "integer"}
        if hint is str:
            return {"type": "string"}
        if hint is float:
            return {"type": "number"}
        if hint is Fraction:
            return {"type": "string", "pattern": FRACTION_PATTERN}
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return self.ref(hint, _PLAIN)
        if isinstance(hint, type) and issubclass(hint, Tagged):
            return self.ref(hint, _FAMILY)
        if isinstance(hint, type) and attrs.has(hint):
            return self.ref(hint, _PLAIN)
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.build(args[0])}
            items: list[JSONValue] = [self.build(arg) for arg in args]
            fixed: Schema = {"type": "array", "minItems": len(args), "maxItems": len(args)}
            if items:
                fixed["prefixItems"] = items
            return fixed
        if origin is frozenset:
            return {"type": "array", "items": self.build(args[0]), "uniqueItems": True}
        if origin in (Union, types.UnionType):
            return self._union(args)
        if origin is typing.Literal:
            values: list[JSONValue] = [typing.cast(JSONValue, value) for value in args]
            return {"enum": values}
        raise TypeError(f"no JSON schema for type {hint!r}")

    def _union(self, members: tuple[object, ...]) -> Schema:
        optional = type(None) in members
        rest = [m for m in members if m is not type(None)]
        null: Schema = {"type": "null"}
        if optional and len(rest) == 1:
            return {"anyOf": [self.build(rest[0]), null]}
        choices: list[JSONValue] = []
        for member in rest:
            if not (isinstance(member, type) and attrs.has(member)):
                raise TypeError(f"unions must be of attrs classes (and None), not {members!r}")
            choices.append(self.ref(member, _TAGGED))
        if optional:
            choices.append(null)
        return {"oneOf": choices}

    def document(self, root: Schema, title: str) -> Schema:
        """The root schema with its ``$defs``, every reference resolved to a name."""
        names = self._names()
        for ref, key in self.refs:
            ref["$ref"] = f"#/$defs/{names[key]}"
        out: Schema = {"$schema": DIALECT, "title": title, **root}
        if self.defs:
            out["$defs"] = {names[key]: self.defs[key] for key in sorted(self.defs, key=_order)}
        return out

    def _names(self) -> dict[tuple[type, str], str]:
        names: dict[tuple[type, str], str] = {}
        taken: set[str] = set()
        for key in sorted(self.defs, key=_order):
            cls, kind = key
            qualified = f"{cls.__module__.removeprefix('byzantium.')}.{cls.__qualname__}"
            suffix = "" if kind == _PLAIN else f"-{kind}"
            candidates = [cls.__name__, cls.__name__ + suffix, qualified, qualified + suffix]
            name = next((c for c in candidates if c not in taken), "")
            number = 2
            while not name:  # classes made at run time may share even their module and name
                name = f"{qualified}{suffix}-{number}"
                name = "" if name in taken else name
                number += 1
            names[key] = name
            taken.add(name)
        return names


def _order(key: tuple[type, str]) -> tuple[str, str, str, str]:
    cls, kind = key
    return (cls.__name__, cls.__module__, cls.__qualname__, kind)


def schema_for(hint: object, *, title: str = "") -> dict[str, JSONValue]:
    """A JSON Schema document for the JSON that ``codec_for(hint)`` emits and reads.

    Raises :class:`TypeError` for an annotation the codec cannot encode either.
    """
    builder = _Builder()
    root = builder.build(hint)
    return builder.document(root, title or _title(hint))


def _title(hint: object) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint)


def _option_schema(spec: OptionSpec) -> Schema:
    kind = {bool: "boolean", int: "integer", str: "string"}[type(spec.default)]
    out: Schema = {"type": kind, "default": spec.default, "description": spec.help}
    if spec.choices:
        out["enum"] = list(spec.choices)
    return out


def _options_schema(game: Game[S, A]) -> Schema:
    properties: dict[str, JSONValue] = {spec.name: _option_schema(spec) for spec in game.OPTIONS}
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _header(game: Game[S, A], format_tag: str) -> dict[str, JSONValue]:
    return {
        "format": {"const": format_tag},
        "game": {"const": game.ID},
        "options": _options_schema(game),
        "components": {"type": "string", "pattern": DIGEST_PATTERN},
    }


def record_schema(game: Game[S, A]) -> dict[str, JSONValue]:
    """The JSON Schema of a record of ``game`` (see :mod:`byzantium.core.records`)."""
    builder = _Builder()
    step: Schema = {
        "type": "object",
        "properties": {
            "actor": {"type": "integer", "minimum": -1, "maximum": game.NUM_PLAYERS - 1},
            "action": builder.build(game.ACTION_TYPE),
            "state": {"type": "string", "pattern": DIGEST_PATTERN},
        },
        "required": ["actor", "action"],
        "additionalProperties": False,
    }
    root: Schema = {
        "type": "object",
        "properties": {
            **_header(game, RECORD_FORMAT),
            "seed": {"type": ["integer", "null"]},
            "steps": {"type": "array", "items": step},
            "final": {"type": "string", "pattern": "^([0-9a-f]{16})?$"},
        },
        "required": ["format", "game", "options", "components", "steps"],
        "additionalProperties": False,
    }
    return builder.document(root, f"{game.TITLE} record")


def state_file_schema(game: Game[S, A]) -> dict[str, JSONValue]:
    """The JSON Schema of a saved position of ``game`` (``records.state_to_json``)."""
    builder = _Builder()
    root: Schema = {
        "type": "object",
        "properties": {**_header(game, STATE_FORMAT), "state": builder.build(game.STATE_TYPE)},
        "required": ["format", "game", "options", "components", "state"],
        "additionalProperties": False,
    }
    return builder.document(root, f"{game.TITLE} saved position")


def observation_type(game: Game[S, A]) -> object:
    """The type of ``game.observation``: the game's ``OBSERVATION_TYPE`` if it sets one,
    otherwise the type of an observation of its initial state."""
    declared: object = getattr(type(game), "OBSERVATION_TYPE", None)
    if declared is not None:
        return declared
    return type(game.observation(game.initial_state(), 0))


def game_schemas(game: Game[S, A]) -> dict[str, dict[str, JSONValue]]:
    """The JSON Schemas of ``game``'s record, action, state, observation and saved position."""
    return {
        "record": record_schema(game),
        "action": schema_for(game.ACTION_TYPE, title=f"{game.TITLE} action"),
        "state": schema_for(game.STATE_TYPE, title=f"{game.TITLE} state"),
        "observation": schema_for(observation_type(game), title=f"{game.TITLE} observation"),
        "state-file": state_file_schema(game),
    }
