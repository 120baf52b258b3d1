"""Test configuration: Hypothesis profiles, the ``rule`` marker and ``--rule``.

Profiles (``HYPOTHESIS_PROFILE``): ``ci`` (derandomised, no example database, no
deadline; what tox and CI use), ``dev`` (the default: random, with a database) and
``nightly`` (random and long).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

import tests.pig  # noqa: F401  (registers the test game and its rule book)
from byzantium.core.errors import RuleIndexError
from byzantium.core.rules import get_rulebook

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "nightly", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--rule",
        action="append",
        default=[],
        metavar="PREFIX",
        help="run only tests tagged with this rule or its sub-rules (e.g. --rule 10.6); "
        "GAME:PREFIX restricts to one game",
    )


def _marked_rules(item: pytest.Item) -> list[tuple[str, str]]:
    """(game, rule id) for every rule the item's markers name."""
    found: list[tuple[str, str]] = []
    module_game = getattr(getattr(item, "module", None), "RULEBOOK", None)
    for mark in item.iter_markers("rule"):
        game = mark.kwargs.get("game", module_game)
        if not isinstance(game, str):
            raise pytest.UsageError(f"{item.nodeid}: rule marker without a game")
        found.extend((game, str(rule_id)) for rule_id in mark.args)
    return found


def _selected(prefixes: list[str], rules: list[tuple[str, str]]) -> bool:
    for prefix in prefixes:
        game, sep, number = prefix.rpartition(":")
        for rule_game, rule_id in rules:
            if (not sep or game == rule_game) and get_rulebook(rule_game).matches(number, rule_id):
                return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    problems = []
    for item in items:
        for game, rule_id in _marked_rules(item):
            try:
                book = get_rulebook(game)
            except RuleIndexError:
                problems.append(f"{item.nodeid}: unknown rule book {game!r}")
                continue
            if rule_id not in book:
                problems.append(f"{item.nodeid}: {game} has no rule {rule_id!r}")
    if problems:
        raise pytest.UsageError("bad rule markers:\n" + "\n".join(problems))
    prefixes: list[str] = config.getoption("--rule")
    if prefixes:
        keep = [item for item in items if _selected(prefixes, _marked_rules(item))]
        dropped = [item for item in items if item not in keep]
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
