"""The owner's template of the Belisarius component files, and the count of what is left.

:func:`write_template` writes the four component files (counters, charts and tables,
map, scenario set-ups) with every value line annotated: ``# PROVISIONAL: ...`` with
what the value stands for where our rulebook copy does not print it, ``# rule X``
where it does. Comments change nothing TOML reads, so the template, unchanged, loads
as a component directory and plays the same game as the shipped data.

:func:`provisional_counts` counts, per file, the values still provisional, read from
the same ``source``/``sources`` fields the loaders read.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import attrs

from byzantium.core.errors import ByzantiumError
from byzantium.core.files import read_text
from byzantium.core.provenance import MAX_COMPONENT_FILE

__all__ = [
    "GAME_FILES",
    "TEMPLATE_FILES",
    "FileCount",
    "annotate",
    "file_count",
    "provisional_counts",
    "write_template",
]

#: The component files of a Belisarius directory, in the order an owner reads his
#: components: counter sheet, charts and tables, map, scenario set-ups.
TEMPLATE_FILES = ("counters.toml", "tables.toml", "map.toml", "scenarios.toml")

#: Per game with a template: the package holding its shipped data and its files, in
#: the order an owner works (Sword of Orthodoxy: map, tiles, charts, scenarios).
GAME_FILES: dict[str, tuple[str, tuple[str, ...]]] = {
    "belisarius": ("byzantium.belisarius", TEMPLATE_FILES),
    "sword-of-orthodoxy": (
        "byzantium.sword_of_orthodoxy",
        ("map.toml", "tiles.toml", "tables.toml", "scenarios.toml"),
    ),
}

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=\s*(.*)$")
_PROVISIONAL = "provisional"


@attrs.frozen
class FileCount:
    """How many values of one component file are provisional, of how many."""

    file: str
    provisional: int
    values: int
    #: Values taken from the peer transcription (Sword of Orthodoxy), to be confirmed.
    peer: int = 0


@attrs.frozen
class _Value:
    line: int  # index in the file's lines
    key: str
    source: str
    opens_string: bool


def _block_sources(header: str, body: list[str]) -> tuple[str, dict[str, str]]:
    """The ``source`` and ``sources`` of one table block, parsed on its own."""
    try:
        doc: object = tomllib.loads("\n".join([header, *body]))
    except tomllib.TOMLDecodeError:
        return "", {}
    match = _HEADER.match(header)
    path = match.group(1).split(".") if match else []
    for part in path:
        if isinstance(doc, dict):
            doc = doc.get(part.strip().strip('"'), {})
        if isinstance(doc, list):
            doc = doc[-1] if doc else {}
    if not isinstance(doc, dict):
        return "", {}
    source = doc.get("source", "")
    sources = doc.get("sources", {})
    return (
        source if isinstance(source, str) else "",
        {k: v for k, v in sources.items() if isinstance(v, str)}
        if isinstance(sources, dict)
        else {},
    )


def _values(lines: list[str]) -> Iterator[_Value]:
    """Every value line of a component file with the source that covers it."""
    blocks: list[tuple[int, list[int]]] = []  # header line, body lines
    in_string = False
    for index, line in enumerate(lines):
        starts_outside = not in_string
        if line.count('"""') % 2:
            in_string = not in_string
        if starts_outside and _HEADER.match(line):
            blocks.append((index, []))
        elif blocks and starts_outside:
            blocks[-1][1].append(index)
    inherited = ""
    ends = [start for start, _ in blocks[1:]] + [len(lines)]
    for (header, body), end in zip(blocks, ends, strict=True):
        text = [lines[i] for i in body]
        # The body as TOML reads it: the continuation lines of strings and arrays too.
        whole = lines[header + 1 : end]
        source, sources = _block_sources(lines[header], whole)
        # A block without sources (the map's hex layers) shares the file's first one.
        inherited = inherited or source
        source = source or inherited
        if not source and not sources:
            continue
        for index, line in zip(body, text, strict=True):
            match = _KEY.match(line)
            if not match or match.group(1) in ("source", "sources"):
                continue
            key = match.group(1)
            yield _Value(
                index,
                key,
                sources.get(key, source),
                match.group(2).count('"""') % 2 == 1,
            )


def _note(source: str) -> str:
    if source == "peer":
        return "# PEER TRANSCRIPTION: confirm it from your copy"
    if source.startswith(_PROVISIONAL):
        reason = source[len(_PROVISIONAL) :].lstrip(": ")
        return f"# PROVISIONAL: {reason}" if reason else "# PROVISIONAL"
    return f"# rule {source}" if source else ""


def annotate(text: str) -> str:
    """A component file's text with every value line marked by its provenance."""
    lines = text.splitlines()
    notes = {value.line: value for value in _values(lines)}
    out: list[str] = []
    for index, line in enumerate(lines):
        value = notes.get(index)
        # After a comment of the file's own, the mark is part of that comment.
        if value is None or not value.source:
            out.append(line)
        elif value.opens_string:
            # A comment after an opening triple quote would be part of the string.
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}{_note(value.source)} ({value.key})")
            out.append(line)
        else:
            out.append(f"{line}  {_note(value.source)}")
    return "\n".join(out) + "\n"


def file_count(name: str, text: str) -> FileCount:
    """The provisional values of one component file's text."""
    values = list(_values(text.splitlines()))
    provisional = sum(1 for v in values if v.source.startswith(_PROVISIONAL))
    peer = sum(1 for v in values if v.source == "peer")
    return FileCount(name, provisional, len(values), peer)


_GUIDE = """\
# Template of your own components (byzantium data {game} --template).
# Each value line ends with its mark: "# rule X" (our rulebook copy gives it),
# "# PROVISIONAL: ..." (what the value stands for; our copy does not print it) or
# "# PEER TRANSCRIPTION: ..." (to confirm). Type your printed value, then cite where
# it comes from in the record's source, or for one field in sources = {{ field = ... }}.
# Progress and problems: byzantium data {game} --check DIRECTORY

"""


def _files(game: str) -> tuple[str, tuple[str, ...]]:
    if game not in GAME_FILES:
        raise ByzantiumError(f"no component template for {game!r}; games: {', '.join(GAME_FILES)}")
    return GAME_FILES[game]


def _shipped(package: str, name: str) -> str:
    return resources.files(package).joinpath("data", name).read_text(encoding="utf-8")


def write_template(directory: str | Path, game: str = "belisarius") -> tuple[Path, ...]:
    """Write the annotated component files into ``directory`` (created if needed).

    Existing component files there are never overwritten: the owner's work is kept.
    """
    target = Path(directory)
    if target.exists() and not target.is_dir():
        raise ByzantiumError(f"{target}: not a directory")
    package, files = _files(game)
    taken = [name for name in files if (target / name).exists()]
    if taken:
        raise ByzantiumError(f"{target / taken[0]}: already exists; a template never overwrites")
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in files:
        path = target / name
        with path.open("x", encoding="utf-8") as handle:
            handle.write(_GUIDE.format(game=game) + annotate(_shipped(package, name)))
        written.append(path)
    return tuple(written)


def provisional_counts(directory: str | Path, game: str = "belisarius") -> tuple[FileCount, ...]:
    """Per component file of ``directory``, the values still provisional."""
    counts = []
    for name in _files(game)[1]:
        path = Path(directory) / name
        if path.is_file():
            text = read_text(path, MAX_COMPONENT_FILE, kind="component file")
            counts.append(file_count(str(path), text))
    return tuple(counts)
