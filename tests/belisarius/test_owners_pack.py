"""An owner's pack with every provisional Belisarius value entered: the template's
provisional quantities changed to other valid values and every ``provisional`` source
replaced by a rule, as an owner who entered his printed components would leave them.
It plays whole games of the three scenarios, nothing is reported provisional any more,
and a malformed pack is refused with one line naming the file and the line."""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.template import TEMPLATE_FILES, write_template
from byzantium.cli import main
from byzantium.core.game import TERMINAL
from tests.belisarius.support import check_invariants, random_game

RULEBOOK = "belisarius"

#: Numbers that are positions or ranges, not printed quantities: kept as they are (a
#: die roll range of a table, a hex number, the size of the grid, a loss fraction).
KEPT = frozenset(
    {"hex", "low", "high", "roll", "rows", "columns", "attacker_loss", "defender_loss"}
)
_MARKED_NUMBER = re.compile(r"^(\s*)([A-Za-z0-9_-]+)(\s*=\s*)(-?\d+)(\s*# PROVISIONAL.*)$")


def _entered(value: int, key: str) -> int:
    """Another valid value: a Leader's stars swap 1 and 2, other quantities grow by 1."""
    return 3 - value if key == "stars" else value + 1


def owners_pack(folder: Path) -> tuple[Path, int]:
    """The template written into ``folder`` with every provisional value entered;
    with the number of values changed."""
    write_template(folder)
    changed = 0
    for name in TEMPLATE_FILES:
        lines = []
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            match = _MARKED_NUMBER.match(line)
            if match and match.group(2) not in KEPT:
                indent, key, equals, value, note = match.groups()
                lines.append(f"{indent}{key}{equals}{_entered(int(value), key)}{note}")
                changed += 1
            else:
                lines.append(line)
        text = re.sub(r'"provisional[^"]*"', '"2.1"', "\n".join(lines) + "\n")
        (folder / name).write_text(text, encoding="utf-8")
    return folder, changed


@cache
def _shared(root: str) -> tuple[Path, int]:
    return owners_pack(Path(root) / "entered")


@pytest.fixture
def pack(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    return _shared(str(tmp_path_factory.getbasetemp()))


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_the_pack_changes_the_provisional_quantities(pack: tuple[Path, int]) -> None:
    folder, changed = pack
    assert changed > 300
    shipped = Belisarius({"scenario": 1})
    entered = Belisarius({"scenario": 1, "components": str(folder)})
    assert entered.components_digest() != shipped.components_digest()
    assert entered.components.unit_types != shipped.components.unit_types


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_no_value_is_provisional_any_more(pack: tuple[Path, int], scenario: int) -> None:
    folder, _ = pack
    code, text = run(
        "data",
        "belisarius",
        "--option",
        f"components={folder}",
        "--scenario",
        str(scenario),
        "--provenance",
        "provisional",
    )
    assert code == 0
    *listed, summary = text.splitlines()
    assert listed == []
    assert "provisional" not in summary and "rulebook" in summary
    code, text = run("data", "belisarius", "--check", str(folder))
    assert code == 0 and text.splitlines()[-1].endswith("; 0 values still provisional")


@pytest.mark.parametrize("scenario", [1, 2, 3])
@pytest.mark.parametrize("capitulation", [False, True])
def test_the_pack_plays_whole_games(
    pack: tuple[Path, int], scenario: int, capitulation: bool
) -> None:
    folder, _ = pack
    game = Belisarius(
        {"scenario": scenario, "capitulation": capitulation, "components": str(folder)}
    )
    end, trail = random_game(game, 11, check=check_invariants)
    assert game.current_player(end) == TERMINAL and trail
    code, text = run(
        "play",
        "belisarius",
        "--option",
        f"components={folder}",
        "--scenario",
        str(scenario),
        "--policy",
        "sensible",
        "--seed",
        "1",
    )
    assert code == 0 and "\nResult: " in text and "Cause [" in text
    assert "provisional" not in text


#: A file of the pack, the line broken (a pattern), what it becomes, what is said.
BREAKS = {
    "factor": ("counters.toml", r"^combat = 5 ", "combat = -5", "unit_types[1].combat: -5 is"),
    "syntax": ("tables.toml", r"^\[\[crt\]\]", "[[crt", "-: not valid TOML"),
    "map": ("map.toml", r"^columns = ", "columns = 999", "map.columns: 999 is outside"),
}


@pytest.mark.parametrize("broken", sorted(BREAKS))
def test_a_malformed_pack_is_one_line_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    name, pattern, new, says = BREAKS[broken]
    folder, _ = owners_pack(tmp_path / "broken")
    path = folder / name
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if re.search(pattern, line))
    lines[number] = new
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    code, _ = run("play", "belisarius", "--option", f"components={folder}", "--seed", "1")
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert f"{path}, line {number + 1}: {says}" in err, err
