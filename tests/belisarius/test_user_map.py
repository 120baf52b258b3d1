"""A Belisarius owner's own map: ``byzantium data belisarius --check`` points at the
line of a problem, and a valid map directory plays a game (``--option components``)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from byzantium.cli import main

RULEBOOK = "belisarius"
DATA = Path(__file__).resolve().parents[2] / "byzantium" / "belisarius" / "data"


def user_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "mymap"
    shutil.copytree(DATA, folder)
    return folder


@pytest.mark.rule("2.1")
def test_a_valid_map_checks_ok(tmp_path: Path) -> None:
    out = io.StringIO()
    assert main(["data", "belisarius", "--check", str(user_copy(tmp_path) / "map.toml")], out) == 0
    assert "ok, a valid map" in out.getvalue()


@pytest.mark.rule("2.1")
def test_a_map_error_names_the_file_line_and_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = user_copy(tmp_path)
    path = folder / "map.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith("columns ="))
    lines[number - 1] = "columns = 999"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["data", "belisarius", "--check", str(folder)], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"map.toml, line {number}: map.columns: 999 is outside" in err


@pytest.mark.rule("2.1")
def test_a_users_valid_map_directory_plays_a_game(tmp_path: Path) -> None:
    folder = user_copy(tmp_path)
    out = io.StringIO()
    argv = ["play", "belisarius", "--option", f"components={folder}", "--policy", "sensible"]
    assert main([*argv, "--seed", "1", "--quiet"], out) == 0
    assert "\nResult: " in out.getvalue() and "\nCause [" in out.getvalue()


@pytest.mark.rule("2.1")
def test_a_users_map_is_drawn_from_the_users_files(tmp_path: Path) -> None:
    """The map guide's commands: a game played on the user's map, then its first
    position drawn with ``--components``, shows the user's own City names."""
    folder = user_copy(tmp_path)
    for name, old, new in (
        ("map.toml", 'name = "Sardes"', 'name = "Sardeis"'),
        ("scenarios.toml", 'city = "Sardes"', 'city = "Sardeis"'),
    ):
        path = folder / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    record = tmp_path / "first.json"
    picture = tmp_path / "mymap.svg"
    play = ["play", "belisarius", "--option", f"components={folder}", "--seed", "1"]
    assert main([*play, "--max-steps", "1", "--record", str(record)], io.StringIO()) == 0
    draw = ["render", str(record), "--step", "0", "--components", str(folder)]
    assert main([*draw, "-o", str(picture)], io.StringIO()) == 0
    text = picture.read_text(encoding="utf-8")
    assert "Sardeis" in text
    assert "Sardes<" not in text
