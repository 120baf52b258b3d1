"""An owner's Sword of Orthodoxy components: ``data sword-of-orthodoxy --template DIR``
marks every value with its rule, as provisional, or as taken from the peer
transcription; ``--check DIR`` counts both kinds per file and names a problem's line."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

from byzantium.cli import main
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState

RULEBOOK = "sword-of-orthodoxy"
FILES = ("map.toml", "tiles.toml", "tables.toml", "scenarios.toml")


def template(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    assert main(["data", "sword-of-orthodoxy", "--template", str(folder)], io.StringIO()) == 0
    return folder


def played(game: SwordOfOrthodoxy, seed: int) -> tuple[SooState, list[object]]:
    rng = random.Random(seed)
    state = game.initial_state()
    actions: list[object] = []
    while game.current_player(state) != TERMINAL:
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(game.legal_actions(state))
        actions.append(action)
        state = game.step(state, action).state
    return state, actions


def test_the_template_marks_every_value(tmp_path: Path) -> None:
    folder = template(tmp_path)
    marks = {"rule": 0, "peer": 0, "provisional": 0}
    for name in FILES:
        in_string = False
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            outside = not in_string
            if line.count('"""') % 2:
                in_string = not in_string
            key = re.match(r"^\s*([A-Za-z0-9_-]+)\s*=", line)
            if not outside or key is None or key.group(1) in ("source", "sources"):
                continue
            if line.rstrip().endswith('"""'):
                continue
            kinds = {
                "rule": "  # rule " in line,
                "peer": "  # PEER TRANSCRIPTION: " in line,
                "provisional": "  # PROVISIONAL: " in line,
            }
            assert any(kinds.values()), (name, line)
            for kind, found in kinds.items():
                marks[kind] += found
    assert all(marks.values()), marks


@pytest.mark.parametrize("seed", [1, 2])
def test_the_template_unchanged_plays_the_shipped_game(tmp_path: Path, seed: int) -> None:
    folder = template(tmp_path)
    shipped = SwordOfOrthodoxy()
    owners = SwordOfOrthodoxy({"components": str(folder)})
    assert played(owners, seed) == played(shipped, seed)


def test_check_counts_provisional_and_peer_values(tmp_path: Path) -> None:
    folder = template(tmp_path)
    out = io.StringIO()
    assert main(["data", "sword-of-orthodoxy", "--check", str(folder)], out) == 0
    lines = out.getvalue().splitlines()
    assert [Path(line.split(":")[0]).name for line in lines[:4]] == list(FILES)
    assert re.search(r"tiles\.toml: \d+ of \d+ values provisional, \d+ from the peer", lines[1])
    assert all(line.endswith("; ok") for line in lines[:4])
    assert re.fullmatch(
        rf"{re.escape(str(folder))}: ok, every file valid; \d+ values still provisional,"
        r" \d+ from the peer transcription",
        lines[-1],
    )


def test_check_names_the_problem_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = template(tmp_path)
    path = folder / "tables.toml"
    text = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(text) if line.startswith("[["))
    text[number] = text[number].replace("[[", "[[[", 1)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    out = io.StringIO()
    assert main(["data", "sword-of-orthodoxy", "--check", str(folder)], out) == 2
    assert "tables.toml: " in out.getvalue() and "PROBLEM:" in out.getvalue()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"tables.toml, line {number + 1}: -: not valid TOML" in err
