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
    assert "Result [" in out.getvalue()
