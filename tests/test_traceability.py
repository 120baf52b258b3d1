"""The suite's own traceability gate: every rule book must be consistent.

A ``mechanics`` rule needs implementing code and a test; code and tests may only
name rules in the index. ``pending`` rules are tolerated here (``byzantium trace``
is stricter and fails on them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from byzantium.core.rules import registered_rulebooks
from byzantium.core.trace import check, scan_tests

TESTS = Path(__file__).parent
BOOKS = sorted(registered_rulebooks())


def test_every_builtin_game_and_the_test_game_have_a_rule_book() -> None:
    assert {"sword-of-orthodoxy", "belisarius", "pig"} <= set(BOOKS)


@pytest.mark.parametrize("game", BOOKS)
def test_rule_book_is_consistent_with_code_and_tests(game: str) -> None:
    report = check(registered_rulebooks()[game], scan_tests(TESTS))
    assert report.problems == ()


def test_the_test_game_is_completely_traced() -> None:
    report = check(registered_rulebooks()["pig"], scan_tests(TESTS))
    assert report.complete
