"""Every ``byzantium X`` that the README and the docs name is a real command, and
every ``--option`` they give it is one of that command's options."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from byzantium.cli import _parser

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.rst"))]
# "byzantium" as a command (not the package name, a module path or a title).
MENTION = re.compile(r"(?<![\w./\[-])byzantium((?:\s+--import\s+\S+)?)\s+([a-z][a-z-]+)([^\n`]*)")


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = _parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the parser has no subcommands")


def _mentions() -> list[tuple[str, str, list[str]]]:
    found = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"``(.+?)``|`([^`\n]+)`|^\s*\$?\s*(byzantium .+)$", text, re.M):
            snippet = next(part for part in block if part)
            for match in MENTION.finditer(snippet):
                options = re.findall(r"(?<!\S)(--[a-z][a-z-]*)", match.group(3))
                found.append((path.name, match.group(2), options))
    return found


def test_the_documents_name_commands() -> None:
    assert len(_mentions()) > 20


def test_every_documented_command_and_option_exists() -> None:
    commands = _commands()
    # Words after "byzantium" in prose that are not meant as commands.
    prose = {"is", "has", "does", "and", "package", "library", "rules", "documentation", "referees"}
    problems = []
    for where, command, options in _mentions():
        if command in prose:
            continue
        if command not in commands:
            problems.append(f"{where}: no command 'byzantium {command}'")
            continue
        known = {s for a in commands[command]._actions for s in a.option_strings}
        problems += [
            f"{where}: 'byzantium {command}' has no option {o}" for o in options if o not in known
        ]
    assert problems == []
