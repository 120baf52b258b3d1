"""An owner's Belisarius components: ``data belisarius --template DIR`` writes the files
to fill in, every value marked provisional or with its rule; ``--check DIR`` counts what
is left per file and names every problem with its file and line."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.template import TEMPLATE_FILES, annotate, provisional_counts
from byzantium.cli import main
from byzantium.cli.data import key_line
from tests.belisarius.support import random_game

RULEBOOK = "belisarius"


def template(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    out = io.StringIO()
    assert main(["data", "belisarius", "--template", str(folder)], out) == 0
    return folder


def edit(path: Path, pattern: str, new: str) -> int:
    """Replace the first line matching ``pattern``; its number (from 1)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if re.search(pattern, line))
    lines[number] = new
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return number + 1


def test_the_template_marks_every_value(tmp_path: Path) -> None:
    folder = template(tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == sorted(TEMPLATE_FILES)
    for name in TEMPLATE_FILES:
        in_string = False
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            outside = not in_string
            if line.count('"""') % 2:
                in_string = not in_string
            key = re.match(r"^\s*([A-Za-z0-9_-]+)\s*=", line)
            if not outside or key is None or key.group(1) in ("source", "sources"):
                continue
            if line.rstrip().endswith('"""'):  # the hex layers: marked on the line above
                continue
            assert "  # PROVISIONAL: " in line or "  # rule " in line, (name, line)
    counters = (folder / "counters.toml").read_text(encoding="utf-8")
    assert "operations = 24  # rule 14.21" in counters
    assert re.search(r"^combat = 4  # PROVISIONAL: \S", counters, re.M)
    hexes = (folder / "map.toml").read_text(encoding="utf-8")
    assert re.search(r"# PROVISIONAL: .*\(terrain\)\nterrain = \"\"\"", hexes)


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_the_template_unchanged_plays_the_shipped_game(tmp_path: Path, scenario: int) -> None:
    folder = template(tmp_path)
    shipped = Belisarius({"scenario": scenario, "capitulation": False})
    owners = Belisarius({"scenario": scenario, "capitulation": False, "components": str(folder)})
    end, trail = random_game(shipped, 7)
    again, trail_again = random_game(owners, 7)
    assert again == end
    assert [action for _, _, action, _ in trail_again] == [action for _, _, action, _ in trail]


def test_a_template_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = template(tmp_path)
    before = (folder / "map.toml").read_bytes()
    assert main(["data", "belisarius", "--template", str(folder)], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already exists" in err
    assert (folder / "map.toml").read_bytes() == before


def test_check_counts_what_is_left_per_file(tmp_path: Path) -> None:
    folder = template(tmp_path)
    before = {Path(c.file).name: c for c in provisional_counts(folder)}
    assert all(c.provisional > 0 for c in before.values())
    # The owner enters one printed factor: that value is no longer provisional.
    edit(
        folder / "counters.toml",
        r"^combat = 4\b",
        "combat = 5",
    )
    text = (folder / "counters.toml").read_text(encoding="utf-8")
    text = text.replace(
        'sources = { name = "2.31", sides = "2.31", operations = "14.21", levy = "11.131" }',
        'sources = { name = "2.31", sides = "2.31", operations = "14.21", levy = "11.131",'
        ' combat = "2.31" }',
        1,
    )
    (folder / "counters.toml").write_text(text, encoding="utf-8")
    out = io.StringIO()
    assert main(["data", "belisarius", "--check", str(folder)], out) == 0
    lines = out.getvalue().splitlines()
    left = before["counters.toml"].provisional - 1
    assert (
        f"counters.toml: {left} of {before['counters.toml'].values} values provisional; ok"
        in (lines[0])
    )
    for name, line in zip(TEMPLATE_FILES, lines, strict=False):
        assert name in line and line.endswith("; ok")
    assert lines[-1].endswith("values still provisional")


def test_check_names_every_problem_with_its_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = template(tmp_path)
    columns = edit(folder / "map.toml", r"^columns =", "columns = 999")
    # The second unit type's combat factor, not the first line that sets a combat factor.
    text = (folder / "counters.toml").read_text(encoding="utf-8").splitlines()
    second = [i for i, line in enumerate(text) if line.startswith("[[unit_types]]")][1]
    combat = next(i for i in range(second, len(text)) if text[i].startswith("combat ="))
    text[combat] = "combat = -4"
    (folder / "counters.toml").write_text("\n".join(text) + "\n", encoding="utf-8")
    out = io.StringIO()
    assert main(["data", "belisarius", "--check", str(folder)], out) == 2
    listing = out.getvalue()
    assert f"counters.toml, line {combat + 1}: unit_types[1].combat: -4 is negative" in listing
    assert f"map.toml, line {columns}: map.columns: 999 is outside" in listing
    assert "scenarios.toml: not checked until counters.toml, map.toml load" in listing
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "(2 problems, listed above)" in err


def test_a_toml_syntax_error_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = template(tmp_path)
    number = edit(folder / "tables.toml", r"^\[\[crt\]\]", "[[crt")
    assert main(["data", "belisarius", "--check", str(folder)], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"tables.toml, line {number}: -: not valid TOML" in err


def test_key_line_follows_indexed_tables() -> None:
    text = "[[u]]\nc = 1\n[[u]]\nname = 'x'\nc = 2\n[[v]]\nc = 3\n"
    assert key_line(text, "u[1].c") == 5
    assert key_line(text, "v[0].c") == 7
    assert key_line(text, "u[5].c") is None


def test_annotate_leaves_strings_alone_and_extends_comments() -> None:
    text = '[x]\na = 1 # own note\nb = """\nc = 2\n"""\nsource = "provisional: why"\n'
    assert annotate(text) == (
        '[x]\na = 1 # own note  # PROVISIONAL: why\n# PROVISIONAL: why (b)\nb = """\nc = 2\n"""\n'
        'source = "provisional: why"\n'
    )
