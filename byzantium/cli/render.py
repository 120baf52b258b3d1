"""``byzantium render STATE.json|RECORD.json [--step N] [--seat P] -o out.svg``: a picture.

The file is a saved position (``byzantium-state/1``) or a game record; of a record
the picture shows the state after ``--step N`` steps (the last by default); the record
is checked first, as ``byzantium verify --partial`` checks it, and refused with one
line when it does not check out. ``--seat``
draws the state as that player may see it. An output ending in ``.png`` is converted
with ``cairosvg`` or ``rsvg-convert`` when one is installed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path
from typing import TextIO

from byzantium.cli.common import add_components_option, read_json, shown
from byzantium.cli.verify import checked_record
from byzantium.core.codec import JSONValue
from byzantium.core.errors import ByzantiumError, RecordError
from byzantium.core.game import Game
from byzantium.core.records import state_from_json
from byzantium.render import svg

__all__ = ["load_position", "register", "run"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser("render", help="an SVG (or PNG) picture of a state or record")
    parser.add_argument("file", type=Path)
    parser.add_argument("--step", type=int, help="of a record: the state after N steps")
    parser.add_argument("--seat", type=int, help="draw the state as this player sees it")
    add_components_option(parser)
    parser.add_argument("--zoc", action="store_true", help="shade enemy Zones of Control")
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.set_defaults(run=run)


def load_position(
    path: Path, step: int | None, components: str | None = None
) -> tuple[Game[object, object], object]:
    """The game and state of a saved position, or of a record after ``step`` steps
    (``components``: the user's own component directory, given on the command line)."""
    data: JSONValue = read_json(path)
    if isinstance(data, dict) and data.get("format", "") != "byzantium-state/1" and "steps" in data:
        game, record = checked_record(data, components, shown(path, 120))
        count = len(record) if step is None else step
        if not 0 <= count <= len(record):
            raise RecordError(f"{path} has {len(record)} steps, not {step}")
        state = game.initial_state()
        for action in record.actions[:count]:
            state = game.apply(state, action)
        return game, state
    if step is not None:
        raise RecordError(f"{path} is a saved position: --step is for records")
    return state_from_json(data, components_dir=components)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Write the picture."""
    game, state = load_position(args.file, args.step, args.components)
    picture = svg(game, state, args.seat, zoc=args.zoc)
    target: Path = args.output
    if target.suffix.lower() != ".png":
        target.write_text(picture, encoding="utf-8")
        out.write(f"Picture written to {target}\n")
        return 0
    _png(picture, target)
    out.write(f"Picture written to {target}\n")
    return 0


def _png(picture: str, target: Path) -> None:
    try:
        import cairosvg  # type: ignore[import-not-found,import-untyped,unused-ignore]  # noqa: PLC0415
    except ImportError:
        pass
    else:
        cairosvg.svg2png(bytestring=picture.encode(), write_to=str(target))
        return
    tool = shutil.which("rsvg-convert")
    if tool is None:
        raise ByzantiumError(
            "PNG needs cairosvg (pip install cairosvg) or rsvg-convert; none is installed "
            "(write .svg instead)"
        )
    subprocess.run([tool, "-o", str(target)], input=picture.encode(), check=True)
