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

import attrs

from byzantium.core.errors import ByzantiumError
from byzantium.core.rules import RuleBook

__all__ = ["ComponentError", "Provenance", "Source", "parse_source"]


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
