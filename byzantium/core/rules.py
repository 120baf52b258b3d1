"""Rule indices and the registry that ties rule numbers to code.

Every game ships a *rule index*: a TOML file that lists every numbered rule of its
rulebook, in rulebook order, with a short title in our own words and a status:

``mechanics``
    the rule is implemented; at least one function is registered for it and at
    least one test is tagged with it.
``no mechanics``
    nothing to implement (an introduction, a heading, a component list); the entry
    says why in ``reason``.
``pending``
    not built yet. Tolerated by the test suite so that work lands chapter by
    chapter, but ``byzantium trace`` exits non-zero while any rule is pending.

Some rulebooks print the same number twice for two different rules. The index
keeps both: the second occurrence gets the id ``"12.3#2"``, a third ``"12.3#3"``.

A game module registers its implementing functions with the decorator of its
:class:`RuleBook`::

    >>> book = RuleBook("doc-example", "Doc example", [
    ...     RuleEntry("1.0", "Dice", RuleStatus.MECHANICS),
    ... ])
    >>> @book.implements("1.0")
    ... def roll_die(natural: int) -> int:
    ...     return natural
    >>> [impl.qualname for impl in book.implementations("1.0")]
    ['roll_die']
"""

from __future__ import annotations

import enum
import importlib
import pkgutil
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import TypeVar

import attrs

from byzantium.core import files
from byzantium.core.errors import RuleIndexError

__all__ = [
    "MAX_RULE_INDEX_FILE",
    "Implementation",
    "RuleBook",
    "RuleEntry",
    "RuleStatus",
    "get_rulebook",
    "register_rulebook",
    "registered_rulebooks",
    "rule_matches",
    "split_rule_id",
]

#: The largest rule index file :meth:`RuleBook.from_file` reads (bytes).
MAX_RULE_INDEX_FILE = 4_000_000

F = TypeVar("F", bound=Callable[..., object])


class RuleStatus(enum.Enum):
    """How far a rule is built (see the module documentation)."""

    MECHANICS = "mechanics"
    NO_MECHANICS = "no mechanics"
    PENDING = "pending"


@attrs.frozen
class RuleEntry:
    """One numbered rule of a rulebook's index."""

    id: str
    title: str
    status: RuleStatus
    reason: str = ""
    #: Line of the rulebook text where the number is printed (0 when unknown).
    line: int = 0
    #: What the rule says, in our own words (a sentence or two; empty if not written).
    summary: str = ""

    @property
    def number(self) -> str:
        """The printed number, without the ``#2`` suffix of a repeated number."""
        return split_rule_id(self.id)[0]

    @property
    def occurrence(self) -> int:
        """1 for the first rule printed with this number, 2 for the second..."""
        return split_rule_id(self.id)[1]


@attrs.frozen
class Implementation:
    """A function (or class) registered as implementing some rules."""

    game: str
    rules: tuple[str, ...]
    module: str
    qualname: str
    obj: Callable[..., object] = attrs.field(eq=False, repr=False)

    @property
    def name(self) -> str:
        """Dotted import path of the implementing object."""
        return f"{self.module}.{self.qualname}"


def split_rule_id(rule_id: str) -> tuple[str, int]:
    """Split a rule id into its printed number and its occurrence.

    >>> split_rule_id("12.3#2")
    ('12.3', 2)
    >>> split_rule_id("10.6.5")
    ('10.6.5', 1)
    """
    number, sep, occurrence = rule_id.partition("#")
    if not number or (sep and not occurrence.isdigit()) or (sep and int(occurrence) < 2):
        raise RuleIndexError(f"malformed rule id {rule_id!r}")
    return number, int(occurrence) if sep else 1


#: Numbering styles. ``dotted``: each level adds ``.n`` (10.6 -> 10.6.5, as in Sword of
#: Orthodoxy). ``decimal``: after the chapter's point each digit is a level (21.2 ->
#: 21.21 -> 21.211, as in Belisarius).
NUMBERING_STYLES = ("dotted", "decimal")


def rule_matches(prefix: str, rule_id: str, numbering: str = "dotted") -> bool:
    """Whether ``rule_id`` is the rule ``prefix`` or one of its sub-rules.

    >>> rule_matches("10.6", "10.6.5"), rule_matches("10.1", "10.10")
    (True, False)
    >>> rule_matches("12.3", "12.3#2")
    True
    >>> rule_matches("21.2", "21.21#2", "decimal"), rule_matches("21", "21.3", "decimal")
    (True, True)
    """
    number = split_rule_id(rule_id)[0]
    if rule_id == prefix or number == prefix or number.startswith(prefix + "."):
        return True
    if numbering == "decimal" and "." in prefix and number.startswith(prefix):
        return number[len(prefix) :].isdigit()
    return False


class RuleBook:
    """The rule index of one game plus the code registered against it."""

    def __init__(
        self,
        game: str,
        title: str,
        entries: Iterable[RuleEntry],
        *,
        package: str | None = None,
        numbering: str = "dotted",
    ) -> None:
        if numbering not in NUMBERING_STYLES:
            raise RuleIndexError(f"{game}: numbering must be one of {NUMBERING_STYLES}")
        self.game = game
        self.title = title
        #: How sub-rules are numbered (see :func:`rule_matches`).
        self.numbering = numbering
        #: Dotted name of the package whose modules implement the rules; imported
        #: by :meth:`load_implementations` so that every decorator has run.
        self.package = package
        self._entries: dict[str, RuleEntry] = {}
        for entry in entries:
            split_rule_id(entry.id)
            if entry.id in self._entries:
                raise RuleIndexError(f"{game}: rule {entry.id} is listed twice in the index")
            if entry.status is RuleStatus.NO_MECHANICS and not entry.reason.strip():
                raise RuleIndexError(f"{game}: rule {entry.id} has no mechanics but no reason")
            self._entries[entry.id] = entry
        self._implementations: list[Implementation] = []

    # -- construction -----------------------------------------------------------

    @classmethod
    def from_toml_text(cls, text: str, *, package: str | None = None) -> RuleBook:
        """Build a rule book from the text of a rule index file."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RuleIndexError(f"rule index is not valid TOML: {exc}") from exc
        game = data.get("game")
        title = data.get("title", game)
        numbering = data.get("numbering", "dotted")
        rows = data.get("rule", [])
        if not isinstance(game, str) or not isinstance(title, str) or not isinstance(rows, list):
            raise RuleIndexError("rule index needs string 'game' and 'title' and [[rule]] tables")
        entries = []
        for row in rows:
            try:
                entries.append(
                    RuleEntry(
                        id=str(row["id"]),
                        title=str(row["title"]),
                        status=RuleStatus(row["status"]),
                        reason=str(row.get("reason", "")),
                        line=int(row.get("line", 0)),
                        summary=str(row.get("summary", "")),
                    )
                )
            except (KeyError, ValueError, TypeError) as exc:
                raise RuleIndexError(f"{game}: bad rule index row {row!r}: {exc}") from exc
        return cls(game, title, entries, package=package, numbering=str(numbering))

    @classmethod
    def from_file(cls, path: str | Path, *, package: str | None = None) -> RuleBook:
        """Load a rule index file from disk (read by :func:`~byzantium.core.files.read_text`:
        a regular UTF-8 file of at most :data:`MAX_RULE_INDEX_FILE` bytes)."""
        text = files.read_text(path, MAX_RULE_INDEX_FILE, kind="rule index file")
        return cls.from_toml_text(text, package=package)

    @classmethod
    def from_package(cls, package: str, resource: str = "rules.toml") -> RuleBook:
        """Load the rule index shipped inside a game package."""
        text = resources.files(package).joinpath(resource).read_text(encoding="utf-8")
        return cls.from_toml_text(text, package=package)

    # -- the index --------------------------------------------------------------

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._entries

    def __iter__(self) -> Iterator[RuleEntry]:
        return iter(self._entries.values())

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, rule_id: str) -> RuleEntry:
        try:
            return self._entries[rule_id]
        except KeyError:
            raise RuleIndexError(f"{self.game} has no rule {rule_id!r}") from None

    def matches(self, prefix: str, rule_id: str) -> bool:
        """Whether ``rule_id`` is ``prefix`` or below it, in this book's numbering."""
        return rule_matches(prefix, rule_id, self.numbering)

    def select(self, prefix: str) -> list[RuleEntry]:
        """The rules numbered ``prefix`` or below it (``"10.6"`` gives 10.6, 10.6.1...)."""
        return [entry for entry in self if self.matches(prefix, entry.id)]

    # -- registration -----------------------------------------------------------

    def implements(self, *rule_ids: str) -> Callable[[F], F]:
        """Decorator: register the decorated function as implementing ``rule_ids``.

        The ids are checked against the index by the traceability check rather than
        here, so that a typo shows up as a failing test, not as an import error.
        """
        if not rule_ids:
            raise RuleIndexError("implements() needs at least one rule id")
        for rule_id in rule_ids:
            split_rule_id(rule_id)

        def register(obj: F) -> F:
            self._implementations.append(
                Implementation(
                    game=self.game,
                    rules=tuple(rule_ids),
                    module=obj.__module__,
                    qualname=getattr(obj, "__qualname__", repr(obj)),
                    obj=obj,
                )
            )
            return obj

        return register

    def load_implementations(self) -> None:
        """Import every module of the game package so that all registrations ran."""
        if self.package is None:
            return
        root = importlib.import_module(self.package)
        paths = getattr(root, "__path__", None)
        if paths is None:
            return
        for info in pkgutil.walk_packages(paths, prefix=self.package + "."):
            importlib.import_module(info.name)

    def all_implementations(self) -> tuple[Implementation, ...]:
        """Every registration, in registration order."""
        return tuple(self._implementations)

    def implementations(self, rule_id: str) -> list[Implementation]:
        """The code registered for one rule."""
        return [impl for impl in self._implementations if rule_id in impl.rules]

    def implementation_map(self) -> Mapping[str, list[Implementation]]:
        """Rule id -> implementations, for every rule that has any (unknown ids too)."""
        table: dict[str, list[Implementation]] = {}
        for impl in self._implementations:
            for rule_id in impl.rules:
                table.setdefault(rule_id, []).append(impl)
        return table


_RULEBOOKS: dict[str, RuleBook] = {}

#: Game packages shipped with the library; imported on demand so that looking up a
#: rule book does not import every game.
BUILTIN_RULEBOOK_PACKAGES: dict[str, str] = {
    "sword-of-orthodoxy": "byzantium.sword_of_orthodoxy",
    "belisarius": "byzantium.belisarius",
}


def register_rulebook(book: RuleBook) -> RuleBook:
    """Make a rule book known to :func:`get_rulebook`, ``byzantium trace`` and the docs."""
    existing = _RULEBOOKS.get(book.game)
    if existing is not None and existing is not book:
        raise RuleIndexError(f"a rule book for {book.game!r} is already registered")
    _RULEBOOKS[book.game] = book
    return book


def _import_builtin(game: str) -> None:
    package = BUILTIN_RULEBOOK_PACKAGES.get(game)
    if package is not None and game not in _RULEBOOKS:
        try:
            importlib.import_module(package)
        except ModuleNotFoundError as exc:
            if exc.name != package:
                raise


def get_rulebook(game: str) -> RuleBook:
    """The registered rule book of ``game`` (built-in games are imported on demand)."""
    if not isinstance(game, str):
        raise RuleIndexError(f"a game id is a string, not {repr(game)[:60]}")
    _import_builtin(game)
    try:
        return _RULEBOOKS[game]
    except KeyError:
        known = ", ".join(sorted(registered_rulebooks())) or "none"
        raise RuleIndexError(f"no rule book for {game!r}; known: {known}") from None


def registered_rulebooks() -> dict[str, RuleBook]:
    """Every rule book: the built-in games' and any registered by plugins."""
    for game in BUILTIN_RULEBOOK_PACKAGES:
        _import_builtin(game)
    return dict(_RULEBOOKS)
