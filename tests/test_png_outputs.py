"""The PNG outputs of the optional extras: ``byzantium render -o x.png`` (the ``png``
extra, cairosvg) and ``byzantium simulate --png`` (the ``plot`` extra, matplotlib).

Skipped without them, except when ``BYZANTIUM_REQUIRE_PNG`` is set (``tox -e plots``,
part of the default ``tox`` run, sets it): then a missing extra fails the test.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import struct
from pathlib import Path

import pytest

from byzantium.cli import main
from byzantium.core.records import state_to_json
from byzantium.core.registry import load_game

REQUIRED = bool(os.environ.get("BYZANTIUM_REQUIRE_PNG"))
PNG = b"\x89PNG\r\n\x1a\n"


def _need(module: str, extra: str) -> None:
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed (pip install byzantium[{extra}])"
        if REQUIRED:
            pytest.fail(f"PNG test required but {message}")
        pytest.skip(message)


def _size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG)
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize("game_id", ["sword-of-orthodoxy", "belisarius"])
def test_render_writes_a_png_picture(tmp_path: Path, game_id: str) -> None:
    _need("cairosvg", "png")
    game = load_game(game_id)
    saved = tmp_path / "state.json"
    saved.write_text(json.dumps(state_to_json(game, game.initial_state())), encoding="utf-8")
    target = tmp_path / "board.png"
    out = io.StringIO()
    assert main(["render", str(saved), "-o", str(target)], out) == 0
    width, height = _size(target.read_bytes())
    assert width > 300 and height > 200
    assert str(target) in out.getvalue()


def test_simulate_writes_png_histograms(tmp_path: Path) -> None:
    _need("matplotlib", "plot")
    out = io.StringIO()
    status = main(
        ["--import", "tests.pig", "simulate", "pig", "--games", "4", "--png", str(tmp_path)],
        out,
    )
    assert status == 0
    pictures = sorted(tmp_path.glob("*.png"))
    assert pictures
    for picture in pictures:
        width, height = _size(picture.read_bytes())
        assert width > 100 and height > 100
