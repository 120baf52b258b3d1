"""Print the figures of issue 8 at the end of ``pytest benchmarks`` (``tox -e bench``)."""

from __future__ import annotations

import pytest

from benchmarks.report import Report, format_report

#: Where ``test_figures`` leaves its report for the terminal summary.
REPORT = pytest.StashKey[Report]()


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    """Print the figures measured by ``test_figures``, if it ran."""
    report = config.stash.get(REPORT, None)
    if report is not None:
        terminalreporter.section("byzantium figures (issue 8)")
        terminalreporter.write_line(format_report(report))
