"""Pictures in notebooks and at any size (issue 37, deliverable 3): a
:class:`~byzantium.render.Picture` shows itself through ``_repr_svg_`` with the very
SVG :func:`~byzantium.render.svg` draws; ``byzantium render --width N`` and
``--scale X`` size the picture, PNG or SVG, and refuse bad values in one line."""

from __future__ import annotations

import importlib.util
import io
import re
import shutil
import struct
from pathlib import Path

import pytest

from byzantium.cli import main
from byzantium.cli.render import load_position
from byzantium.core.drivers import play, random_policy
from byzantium.core.errors import ByzantiumError
from byzantium.core.records import dumps_record
from byzantium.core.registry import load_game
from byzantium.render import MAX_PIXELS, Picture, after_setup, sized, svg

GAMES = ["sword-of-orthodoxy", "belisarius"]


def _root_size(picture: str) -> tuple[str, str, str]:
    root = re.search(r"<svg\b[^>]*>", picture)
    assert root is not None
    attrs = dict(re.findall(r'\s([\w-]+)="([^"]*)"', root.group(0)))
    return attrs["width"], attrs["height"], attrs["viewBox"]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_picture_shows_itself_in_a_notebook_with_the_svg_of_svg(game_id: str) -> None:
    game = load_game(game_id)
    state = after_setup(game)
    for seat in [None, *range(game.NUM_PLAYERS)]:
        picture = Picture(game, state, seat)
        assert picture._repr_svg_() == svg(game, state, seat)
        assert picture.svg == svg(game, state, seat)
        assert game_id in repr(picture)


def test_a_picture_of_a_seat_the_game_lacks_is_refused_at_once() -> None:
    game = load_game("belisarius")
    with pytest.raises(ByzantiumError, match="players 0 to 1"):
        Picture(game, game.initial_state(), 2)


@pytest.mark.parametrize("game_id", GAMES)
def test_width_and_scale_change_the_size_and_keep_the_view_box(game_id: str) -> None:
    game = load_game(game_id)
    picture = svg(game, game.initial_state())
    width, height, box = _root_size(picture)
    assert box == f"0 0 {width} {height}"
    w, h = float(width), float(height)
    assert _root_size(sized(picture, width=600)) == ("600", str(round(h * 600 / w)), box)
    assert _root_size(sized(picture, scale=2)) == (str(round(w * 2)), str(round(h * 2)), box)
    assert sized(picture) == picture
    notebook = Picture(game, game.initial_state(), width=400)
    assert notebook.size == (400, round(h * 400 / w))
    assert notebook.svg == sized(picture, width=400)


@pytest.mark.parametrize(
    ("width", "scale", "message"),
    [
        (600, 2.0, "not both"),
        (0, None, "from 1 to"),
        (MAX_PIXELS * 2, None, "from 1 to"),
        (None, 1e-9, "from 1 to"),
        (None, float("nan"), "a number"),
        (None, -1.0, "from 1 to"),
    ],
)
def test_bad_sizes_are_refused_in_one_line(
    width: float | None, scale: float | None, message: str
) -> None:
    game = load_game("sword-of-orthodoxy")
    with pytest.raises(ByzantiumError, match=message) as refused:
        sized(svg(game, game.initial_state()), width=width, scale=scale)
    assert "\n" not in str(refused.value)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = load_game("belisarius")
    path = tmp_path_factory.mktemp("render") / "game.json"
    path.write_text(dumps_record(game, play(game, random_policy, seed=2, max_steps=40)))
    return path


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def _render(*argv: str) -> int:
    return main(["render", *argv], io.StringIO())


def test_render_width_and_scale_size_the_png(record: Path, tmp_path: Path) -> None:
    if importlib.util.find_spec("cairosvg") is None and shutil.which("rsvg-convert") is None:
        pytest.skip("PNG needs cairosvg (pip install byzantium[png]) or rsvg-convert")
    game, state = load_position(record, None)
    picture = svg(game, state)
    w, h = (float(v) for v in _root_size(picture)[:2])
    narrow = tmp_path / "narrow.png"
    assert _render(str(record), "--width", "500", "-o", str(narrow)) == 0
    assert _png_size(narrow) == (500, round(h * 500 / w))
    double = tmp_path / "double.png"
    assert _render(str(record), "--scale", "2", "-o", str(double)) == 0
    assert _png_size(double) == (round(2 * w), round(2 * h))


def test_render_width_sizes_the_svg_too(record: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    assert _render(str(record), "--width", "640", "-o", str(out)) == 0
    width, _, box = _root_size(out.read_text(encoding="utf-8"))
    assert width == "640"
    assert box.startswith("0 0 ")


@pytest.mark.parametrize(
    "option",
    [
        ["--width", "abc"],
        ["--width", "0"],
        ["--width", "2.5"],
        ["--scale", "nan"],
        ["--scale", "-2"],
        ["--width", "99999"],
        ["--width", "300", "--scale", "2"],
    ],
)
def test_render_refuses_bad_sizes_in_one_line(
    record: Path, tmp_path: Path, option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bad.png"
    assert _render(str(record), *option, "-o", str(out)) == 2
    error = capsys.readouterr().err
    assert error.startswith("byzantium: ") and error.count("\n") == 1, error
    assert not out.exists()
