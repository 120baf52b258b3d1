"""The traceability check, on fixture rule books and fixture test files."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from byzantium.core.errors import RuleIndexError
from byzantium.core.rules import RuleBook, RuleEntry, RuleStatus
from byzantium.core.trace import check, format_report, scan_tests

M, N, P = RuleStatus.MECHANICS, RuleStatus.NO_MECHANICS, RuleStatus.PENDING


def fixture_book(*entries: RuleEntry) -> RuleBook:
    return RuleBook("fixture", "Fixture", entries)


def write_tests(tmp_path: Path, source: str) -> Path:
    directory = tmp_path / "tests"
    directory.mkdir()
    (directory / "test_fixture.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return directory


TESTS = """
    import pytest

    RULEBOOK = "fixture"

    @pytest.mark.rule("1.1")
    def test_one() -> None: ...

    @pytest.mark.rule("1.2", "1.2#2")
    class TestTwo:
        def test_a(self) -> None: ...

    @pytest.mark.parametrize("x", [pytest.param(1, marks=pytest.mark.rule("2.1"))])
    def test_param(x: int) -> None: ...

    @pytest.mark.rule("1.1", game="other")
    def test_other_game() -> None: ...

    def helper_not_a_test() -> None: ...
"""


def test_scanner_reads_functions_classes_params_and_games(tmp_path: Path) -> None:
    refs = scan_tests(write_tests(tmp_path, TESTS))
    found = {(r.nodeid, r.game, r.rules) for r in refs}
    assert found == {
        ("tests/test_fixture.py::test_one", "fixture", ("1.1",)),
        ("tests/test_fixture.py::TestTwo::test_a", "fixture", ("1.2", "1.2#2")),
        ("tests/test_fixture.py::test_param", "fixture", ("2.1",)),
        ("tests/test_fixture.py::test_other_game", "other", ("1.1",)),
    }


def test_module_pytestmark_applies_to_every_test(tmp_path: Path) -> None:
    source = """
        import pytest
        pytestmark = [pytest.mark.rule("3.0", game="fixture")]
        def test_x() -> None: ...
        def test_y() -> None: ...
    """
    refs = scan_tests(write_tests(tmp_path, source))
    assert sorted(r.nodeid for r in refs if r.rules == ("3.0",)) == [
        "tests/test_fixture.py::test_x",
        "tests/test_fixture.py::test_y",
    ]


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("import pytest\nX='1.1'\n@pytest.mark.rule(X, game='g')\ndef test_a(): ...\n", "literals"),
        ("import pytest\n@pytest.mark.rule('1.1')\ndef test_a(): ...\n", "RULEBOOK"),
        ("import pytest\n@pytest.mark.rule(game='g')\ndef test_a(): ...\n", "names no rule"),
        ("import pytest\n@pytest.mark.rule('1', g='g')\ndef test_a(): ...\n", "only game="),
    ],
)
def test_scanner_rejects_markers_it_cannot_read(tmp_path: Path, source: str, message: str) -> None:
    with pytest.raises(RuleIndexError, match=message):
        scan_tests(write_tests(tmp_path, source))


def test_a_fully_traced_book_is_complete(tmp_path: Path) -> None:
    book = fixture_book(
        RuleEntry("1.0", "Intro", N, "introduction"),
        RuleEntry("1.1", "One", M),
        RuleEntry("1.2", "Two", M),
        RuleEntry("1.2#2", "Two again", M),
        RuleEntry("2.1", "Param", M),
    )
    for rule_id in ("1.1", "1.2", "1.2#2", "2.1"):
        book.implements(rule_id)(lambda: None)
    report = check(book, scan_tests(write_tests(tmp_path, TESTS)))
    assert report.problems == ()
    assert report.ok and report.complete
    assert report.summary() == (
        "fixture: 5 rules: 4 mechanics, 1 no mechanics, 0 pending; 0 inconsistencies"
    )


def test_the_check_fails_when_a_rule_lacks_code_or_a_test(tmp_path: Path) -> None:
    book = fixture_book(
        RuleEntry("1.1", "One", M),  # tested, no code
        RuleEntry("1.2", "Two", M),  # tested, has code
        RuleEntry("1.2#2", "Two again", P),  # pending: tolerated
        RuleEntry("2.1", "Param", N, "heading"),  # no mechanics but code: flagged
        RuleEntry("3.1", "Untested", M),  # code, no test
    )
    book.implements("1.2")(lambda: None)
    book.implements("2.1")(lambda: None)
    book.implements("3.1", "9.9")(lambda: None)
    report = check(book, scan_tests(write_tests(tmp_path, TESTS)))
    assert not report.ok and not report.complete
    text = "\n".join(report.problems)
    assert "rule 1.1 has mechanics but no implementing code" in text
    assert "rule 3.1 has mechanics but no test" in text
    assert "rule 2.1 is marked 'no mechanics' but has code registered" in text
    assert "names rule 9.9, not in the index" in text
    assert "1.2#2" not in text
    assert len(report.problems) == 4
    assert report.count(P) == 1


def test_tests_naming_unknown_rules_are_flagged(tmp_path: Path) -> None:
    book = fixture_book(RuleEntry("1.1", "One", P))
    report = check(book, scan_tests(write_tests(tmp_path, TESTS)))
    assert any(
        "test tests/test_fixture.py::test_param names rule 2.1" in p for p in report.problems
    )


def test_pending_alone_is_ok_but_not_complete(tmp_path: Path) -> None:
    book = fixture_book(RuleEntry("1.1", "One", P))
    report = check(book, [])
    assert report.ok and not report.complete
    assert "1 pending" in format_report(report)


def test_the_report_lists_code_and_tests_per_rule(tmp_path: Path) -> None:
    book = fixture_book(RuleEntry("1.1", "One", M), RuleEntry("1.0", "Intro", N, "intro"))

    def resolve() -> None: ...

    book.implements("1.1")(resolve)
    text = format_report(check(book, scan_tests(write_tests(tmp_path, TESTS))))
    assert (
        "code: tests.test_trace.test_the_report_lists_code_and_tests_per_rule.<locals>.resolve"
        in text
    )
    assert "test: tests/test_fixture.py::test_one" in text
    assert "why: intro" in text
