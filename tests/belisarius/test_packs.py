"""Component packs: a folder, or an installed package registered under the entry point
group ``byzantium.components``, named by path or name; a record names its pack and
its digest, and ``verify``/``replay`` with another pack refuse with one line."""

from __future__ import annotations

import importlib
import io
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from byzantium.belisarius.template import write_template
from byzantium.cli import main
from byzantium.core.errors import UnknownOptionError
from byzantium.core.packs import PACK_GROUP, find_pack, installed_packs
from byzantium.core.registry import load_game

RULEBOOK = "belisarius"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Path]:
    """A directory on ``sys.path`` holding a tiny installed pack, ``our-belisarius``:
    the package ``our_pack`` (the template's files; importing it fails, so a test
    passes only if the pack is found without running its code) and its dist-info."""
    root = tmp_path / "site"
    package = root / "our_pack"
    write_template(package)
    (package / "__init__.py").write_text("raise RuntimeError('imported')\n", encoding="utf-8")
    info = root / "our_pack-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: our-pack\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{PACK_GROUP}]\nour-belisarius = our_pack\n", encoding="utf-8"
    )
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        importlib.invalidate_caches()


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_an_installed_pack_is_found_by_name_without_importing_it(site: Path) -> None:
    assert installed_packs()["our-belisarius"] == "our_pack"
    pack = find_pack("our-belisarius")
    assert pack.directory == site / "our_pack"
    assert "our_pack" not in sys.modules
    game = load_game("belisarius", components="our-belisarius", scenario=2)
    assert game.options["components"] == "our-belisarius"
    shipped = load_game("belisarius", scenario=2)
    assert game.initial_state() == shipped.initial_state()


def test_an_unknown_pack_is_one_line(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UnknownOptionError, match="installed packs: our-belisarius"):
        find_pack("their-belisarius")
    code, _ = run("play", "belisarius", "--option", "components=their-belisarius")
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "their-belisarius" in err


def test_a_record_names_its_pack_and_another_pack_is_refused(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    play = ["play", "belisarius", "--option", "components=our-belisarius", "--seed", "3"]
    assert run(*play, "--max-steps", "40", "--record", str(record), "--quiet")[0] == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["options"]["components"] == "our-belisarius"
    digest = load_game("belisarius", components="our-belisarius").components_digest()
    assert data["components"] == digest
    # By name, or the same files as a folder: the digest decides, and it agrees.
    folder = tmp_path / "copy"
    shutil.copytree(site / "our_pack", folder)
    for same in ("our-belisarius", str(folder)):
        code, text = run("verify", str(record), "--partial", "--components", same)
        assert code == 0, text
    # Another pack: one value entered differently.
    other = tmp_path / "other"
    shutil.copytree(folder, other)
    path = other / "scenarios.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("solidus = ", "solidus = 1", 1), encoding="utf-8"
    )
    for command in ("verify", "replay"):
        capsys.readouterr()
        code, text = run(command, str(record), "--partial", "--components", str(other))
        refusal = text + capsys.readouterr().err
        assert code != 0
        assert f"record made with component pack 'our-belisarius' (digest {digest})" in refusal
        assert refusal.count("record made with") == 1


def test_a_record_without_its_pack_names_the_pack(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    play = ["play", "belisarius", "--option", "components=our-belisarius", "--seed", "3"]
    assert run(*play, "--max-steps", "5", "--record", str(record), "--quiet")[0] == 0
    capsys.readouterr()
    code, _ = run("replay", str(record))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "component pack 'our-belisarius'" in err and "--components DIR" in err
