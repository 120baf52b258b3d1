"""What a newcomer trips on first (issue 37, deliverable 9): the version, the licence,
the extras, help texts in plain words."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import byzantium
from byzantium.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parent.parent


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_version_prints_the_package_version_and_exits_0() -> None:
    out = io.StringIO()
    assert main(["--version"], out) == 0
    assert out.getvalue() == f"byzantium {byzantium.__version__}\n"


def test_version_works_from_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "byzantium", "--version"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"byzantium {byzantium.__version__}"


def test_the_licence_file_is_the_mit_licence_pyproject_names() -> None:
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    assert project["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in text


def _extras() -> dict[str, list[str]]:
    project = _pyproject()["project"]
    assert isinstance(project, dict)
    extras = project["optional-dependencies"]
    assert isinstance(extras, dict)
    return extras


def _included(extras: dict[str, list[str]], name: str) -> set[str]:
    """The extras ``name`` pulls in, itself included (``byzantium[a,b]`` entries)."""
    seen = {name}
    for requirement in extras[name]:
        match = re.fullmatch(r"byzantium\[([a-z,]+)\]", requirement)
        if match:
            for inner in match.group(1).split(","):
                seen |= _included(extras, inner)
    return seen


def test_all_extra_holds_every_optional_feature() -> None:
    extras = _extras()
    features = {"plot", "png", "openspiel", "numpy", "gymnasium", "pettingzoo"}
    assert features <= _included(extras, "all")


def test_dev_extra_holds_what_the_tests_use() -> None:
    extras = _extras()
    # test, docs, lint, the browser tests, the PNG pictures and plots, the environments
    needed = {"test", "docs", "lint", "bench", "browser", "png", "plot", "gymnasium", "pettingzoo"}
    assert needed <= _included(extras, "dev")


def test_docs_extra_has_the_theme_and_copy_buttons() -> None:
    docs = " ".join(_extras()["docs"])
    assert "furo" in docs
    assert "sphinx-copybutton" in docs


@pytest.mark.parametrize("command", [None, *(m.__name__.rsplit(".", 1)[1] for m in COMMANDS)])
def test_help_texts_are_plain_words_without_markup(
    command: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--help"] if command is None else [command, "--help"]
    with pytest.raises(SystemExit) as stop:
        main(argv, io.StringIO())
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "usage: byzantium" in text
    assert "``" not in text
    assert not re.search(r":[a-z]+:`", text), text


def test_the_text_views_are_named_apart_from_the_pictures() -> None:
    from byzantium.belisarius import render as belisarius_text
    from byzantium.core.game import Game
    from byzantium.sword_of_orthodoxy import render as sword_text

    for doc in (Game.render.__doc__, belisarius_text.__doc__, sword_text.__doc__):
        assert doc is not None
        assert "The text view" in doc or "the text view" in doc.split(".")[0].lower()
        assert "byzantium.render.svg" in doc
    api = (ROOT / "docs" / "api.rst").read_text(encoding="utf-8")
    assert "Text views and pictures" in api
    assert "byzantium.core.game.Game.render" in api and "byzantium.render.svg" in api


def test_explain_help_names_the_text_view(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"], io.StringIO())
    assert "the text view of a saved state" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["explain", "--help"], io.StringIO())
    assert "--step N" in capsys.readouterr().out
