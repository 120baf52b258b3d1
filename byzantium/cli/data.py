"""``byzantium data GAME`` (also ``components GAME``): every component datum with its
source: a rule, a peer transcription, or provisional."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TextIO

from byzantium.belisarius.hexmap import MAP_FILE, MapError, load_map
from byzantium.cli.common import add_game_options, game_from_args
from byzantium.core.errors import ByzantiumError
from byzantium.core.files import read_text
from byzantium.core.provenance import MAX_COMPONENT_FILE

__all__ = ["check_map", "key_line", "register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command (and its alias ``components``) to the parser."""
    for name in ("data", "components"):
        parser = commands.add_parser(name, help="component data of a game, by provenance")
        add_game_options(parser)
        parser.add_argument(
            "--provenance",
            choices=["rulebook", "peer transcription", "provisional"],
            help="list only the data of this provenance",
        )
        parser.add_argument(
            "--check",
            type=Path,
            metavar="FILE",
            help="belisarius: validate a map file (map.toml, or a directory holding one)",
        )
        parser.set_defaults(run=run)


def key_line(text: str, key: str) -> int | None:
    r"""The line (from 1) of a TOML file where a dotted ``key`` of an error is, roughly:
    the line of its last part written as ``name =`` or as a table header ``[...name]``.

    >>> key_line("[map]\ncolumns = 3\nrows = 2\n", "map.rows")
    3
    """
    parts = [p for p in re.split(r"[.\[\]]", key) if p and not p.isdigit()]
    if not parts:
        return None
    last = re.escape(parts[-1].strip('"'))
    for pattern in (rf"^\s*\"?{last}\"?\s*=", rf"^\s*\[+[^\]]*\b{last}\]+"):
        for number, line in enumerate(text.splitlines(), start=1):
            if re.search(pattern, line):
                return number
    return None


def check_map(path: Path, out: TextIO) -> int:
    """Validate a user's Belisarius map: ``ok`` with its size, or the error with its line."""
    directory = path if path.is_dir() else path.parent
    if not path.is_dir() and path.name != MAP_FILE:
        raise ByzantiumError(f"{path}: a map file must be named {MAP_FILE}")
    try:
        hexmap = load_map(directory)
    except MapError as exc:
        file = Path(exc.file)
        text = read_text(file, MAX_COMPONENT_FILE, kind="component file") if file.is_file() else ""
        line = key_line(text, exc.key)
        where = f"{exc.file}, line {line}" if line else exc.file
        raise ByzantiumError(f"{where}: {exc.key}: {exc.reason}") from None
    out.write(f"{directory / MAP_FILE}: ok, a valid map ({len(tuple(hexmap.hexes()))} hexes)\n")
    return 0


def run(args: argparse.Namespace, out: TextIO) -> int:
    """List the data (of one provenance), then the counts per provenance."""
    if args.check is not None:
        if args.game != "belisarius":
            raise ByzantiumError("--check validates Belisarius maps: byzantium data belisarius")
        return check_map(args.check, out)
    game = game_from_args(args)
    data = game.data_provenance()
    counts: dict[str, int] = {}
    for datum in data:
        counts[datum.provenance] = counts.get(datum.provenance, 0) + 1
        if args.provenance in (None, datum.provenance):
            ref = f" ({datum.reference})" if datum.reference else ""
            out.write(f"{datum.record}.{datum.field}: {datum.provenance}{ref}\n")
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "no data"
    out.write(f"{game.ID}: {len(data)} data: {summary}\n")
    return 0
