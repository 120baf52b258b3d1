"""``byzantium data GAME`` (also ``components GAME``): every component datum with its
source: a rule, a peer transcription, or provisional."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TextIO

from byzantium.belisarius.components import DATA_FILES, load_components
from byzantium.belisarius.hexmap import MAP_FILE, MapError, load_map
from byzantium.belisarius.scenarios import SCENARIO_FILE, load_scenarios
from byzantium.belisarius.template import (
    GAME_FILES,
    FileCount,
    provisional_counts,
    write_template,
)
from byzantium.cli.common import add_game_options, game_from_args
from byzantium.core.errors import ByzantiumError
from byzantium.core.files import read_text
from byzantium.core.provenance import MAX_COMPONENT_FILE, ComponentError
from byzantium.sword_of_orthodoxy.components import load_components as load_sword_components

#: The game id of Sword of Orthodoxy.
SWORD = "sword-of-orthodoxy"

__all__ = [
    "check_directory",
    "check_map",
    "check_sword_directory",
    "key_line",
    "problem_line",
    "register",
    "run",
]


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
            metavar="PATH",
            help="validate a component directory (each file's provisional values left and"
            " its problem with its line); belisarius: or a map file",
        )
        parser.add_argument(
            "--template",
            type=Path,
            metavar="DIR",
            help="write the component files an owner fills in, every value marked"
            " provisional, peer transcription or with its rule",
        )
        parser.set_defaults(run=run)


def key_line(text: str, key: str) -> int | None:
    r"""The line (from 1) of a TOML file where a dotted ``key`` of an error is: each
    ``name[i]`` part is the ``i``-th ``[[...name]]`` table after the previous part, the
    last part the first line written as ``name =`` or as a header ``[...name]`` there.

    >>> key_line("[map]\ncolumns = 3\nrows = 2\n", "map.rows")
    3
    >>> key_line("[[u]]\nc = 1\n[[u]]\nc = 2\n", "u[1].c")
    4
    """
    lines = text.splitlines()
    start = 0
    found: int | None = None
    for part in (p for p in key.split(".") if p):
        indexed = re.fullmatch(r"\"?([^\[\]\"]+)\"?((?:\[\d+\])*)", part)
        if indexed is None:
            break
        name = re.escape(indexed.group(1))
        numbers = [int(n) for n in re.findall(r"\d+", indexed.group(2))]
        if numbers:
            header = re.compile(rf"^\s*\[\[[^\]]*\b{name}\s*\]\]")
            hits = [i for i in range(start, len(lines)) if header.search(lines[i])]
            if numbers[0] >= len(hits):
                break
            start = hits[numbers[0]]
            found = start + 1
            continue
        value = re.compile(rf"^\s*\"?{name}\"?\s*=")
        table = re.compile(rf"^\s*\[+[^\]]*\b{name}\]+")
        hit = next(
            (i for i in range(start, len(lines)) if value.search(lines[i])),
            next((i for i in range(start, len(lines)) if table.search(lines[i])), None),
        )
        if hit is None:
            break
        start = hit
        found = hit + 1
    return found


def problem_line(exc: ComponentError) -> str:
    """A component file's problem as one line: file, line (where it can be found), key
    and reason."""
    file = Path(exc.file)
    text = read_text(file, MAX_COMPONENT_FILE, kind="component file") if file.is_file() else ""
    line = key_line(text, exc.key)
    if line is None:
        found = re.search(r"at line (\d+)", exc.reason)
        line = int(found.group(1)) if found else None
    where = f"{exc.file}, line {line}" if line else exc.file
    return f"{where}: {exc.key}: {exc.reason}"


def check_map(path: Path, out: TextIO) -> int:
    """Validate a user's Belisarius map: ``ok`` with its size, or the error with its line."""
    directory = path if path.is_dir() else path.parent
    if not path.is_dir() and path.name != MAP_FILE:
        raise ByzantiumError(f"{path}: a map file must be named {MAP_FILE}")
    try:
        hexmap = load_map(directory)
    except MapError as exc:
        raise ByzantiumError(problem_line(exc)) from None
    out.write(f"{directory / MAP_FILE}: ok, a valid map ({len(tuple(hexmap.hexes()))} hexes)\n")
    return 0


def check_directory(directory: Path, out: TextIO) -> int:
    """Check an owner's component directory: per file, the values still provisional and
    its problem (file, line, what is wrong); then whether every scenario can be set up.

    Counters and tables, the map, and the scenarios (against the owner's counters and
    map, once those load) are checked apart, so one file's problem hides no other's.
    Problems are listed on ``out``; the first is raised as one line, with their number.
    """
    problems: dict[str, str] = {}
    components = hexmap = None
    try:
        components = load_components(directory)
    except ComponentError as exc:
        problems[Path(exc.file).name] = problem_line(exc)
    try:
        hexmap = load_map(directory)
    except ComponentError as exc:
        problems[MAP_FILE] = problem_line(exc)
    if components is not None and hexmap is not None:
        try:
            load_scenarios(directory, components=components, hex_map=hexmap)
        except ComponentError as exc:
            problems[SCENARIO_FILE] = problem_line(exc)
    else:
        waiting = ", ".join(name for name in (*DATA_FILES, MAP_FILE) if name in problems)
        problems.setdefault(
            SCENARIO_FILE, f"{directory / SCENARIO_FILE}: not checked until {waiting} load"
        )
    counts = {Path(count.file).name: count for count in provisional_counts(directory)}
    for name in (*DATA_FILES, MAP_FILE, SCENARIO_FILE):
        left = _count_line(counts.get(name))
        problem = problems.get(name)
        out.write(f"{directory / name}: {left}; {'PROBLEM: ' + problem if problem else 'ok'}\n")
    real = [p for p in problems.values() if "not checked until" not in p]
    if real:
        more = f" ({len(real)} problems, listed above)" if len(real) > 1 else ""
        raise ByzantiumError(real[0] + more)
    total = sum(count.provisional for count in counts.values())
    out.write(f"{directory}: ok, every file valid; {total} values still provisional\n")
    return 0


def _count_line(count: FileCount | None) -> str:
    if count is None:
        return "missing"
    peer = f", {count.peer} from the peer transcription" if count.peer else ""
    return f"{count.provisional} of {count.values} values provisional{peer}"


def check_sword_directory(directory: Path, out: TextIO) -> int:
    """Check an owner's Sword of Orthodoxy component directory: per file, the values
    still provisional or from the peer transcription, and the first problem found."""
    if not directory.is_dir():
        raise ByzantiumError(f"{directory}: not a directory of component files")
    problem = ""
    try:
        load_sword_components(directory)
    except ComponentError as exc:
        problem = problem_line(exc)
    counts = {Path(c.file).name: c for c in provisional_counts(directory, SWORD)}
    for name in GAME_FILES[SWORD][1]:
        mine = problem if problem.startswith(f"{directory / name}") else ""
        verdict = f"PROBLEM: {mine}" if mine else "ok"
        out.write(f"{directory / name}: {_count_line(counts.get(name))}; {verdict}\n")
    if problem:
        raise ByzantiumError(problem)
    total = sum(count.provisional for count in counts.values())
    peer = sum(count.peer for count in counts.values())
    out.write(
        f"{directory}: ok, every file valid; {total} values still provisional,"
        f" {peer} from the peer transcription\n"
    )
    return 0


def _is_component_directory(path: Path) -> bool:
    return path.is_dir() and any((path / name).exists() for name in (*DATA_FILES, SCENARIO_FILE))


def run(args: argparse.Namespace, out: TextIO) -> int:
    """List the data (of one provenance), then the counts per provenance."""
    wants_files = args.template is not None or args.check is not None
    if wants_files and args.game not in GAME_FILES:
        raise ByzantiumError(
            f"--template and --check are for the component files of {', '.join(GAME_FILES)}"
        )
    if args.template is not None:
        for path in write_template(args.template, args.game):
            out.write(f"{path}: written\n")
        out.write(f"check your progress with: byzantium data {args.game} --check {args.template}\n")
        return 0
    if args.check is not None:
        if args.game == SWORD:
            return check_sword_directory(args.check, out)
        if _is_component_directory(args.check):
            return check_directory(args.check, out)
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
