"""The figures of issues 8 and 16 as a table: ``python -m benchmarks.report`` (from the root).

Every game plays the same seeded random playouts in this process, ours and, when
``open_spiel`` is importable, OpenSpiel's ``backgammon`` (C++, through pyspiel) and
``python_tic_tac_toe`` (pure Python). Each figure is printed with its ratio to
backgammon's from the same run, so that the load of the machine cancels out, and the
targets of the issue are marked met or not met. ``--json PATH`` also writes the
figures as JSON. The script measures and prints; it never fails on a figure.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import platform
import sys
from collections.abc import Callable, Sequence

from benchmarks.action_phase import MenuFigures, measure_menus
from benchmarks.harness import (
    ANCHOR,
    PENDING,
    Figures,
    SomeSubject,
    measure,
    open_spiel_subject,
    open_spiel_version,
    our_subjects,
)
from benchmarks.operations import OperationsFigures, measure_operations

__all__ = ["Report", "Target", "collect", "format_report", "main", "targets"]

#: OpenSpiel games run beside ours: the anchor of every ratio, and a pure-Python game.
ANCHORS = (ANCHOR, "python_tic_tac_toe")
#: Issue 16's target for search: random playouts at least this ratio to backgammon's.
SEARCH_RATIO = 0.2


@dataclasses.dataclass(frozen=True)
class Report:
    """The figures of one run, and where and when they were measured."""

    when: str
    machine: str
    open_spiel: str | None
    seconds: float
    rounds: int
    figures: tuple[Figures, ...]
    #: Belisarius's Operations Phase figures (None when not measured).
    operations: OperationsFigures | None = None
    #: Sword of Orthodoxy's Action Phase menu figures (None when not measured).
    menus: MenuFigures | None = None

    def get(self, name: str) -> Figures | None:
        """The figures of one game, or None if it was not measured."""
        return next((f for f in self.figures if f.name == name), None)


def collect(
    seconds: float = 6.0,
    rounds: int = 3,
    anchors: bool = True,
    min_states: int = 600,
    memory_states: int = 1500,
    *,
    operations: bool = True,
    expert_seconds: float = 3.0,
) -> Report:
    """Measure every game (and the anchors, if wanted and importable).

    ``expert_seconds``: how long each game's expert decides fixed positions (0: not
    measured). ``operations``: whether Belisarius's Operations Phase figures and Sword
    of Orthodoxy's Action Phase menu figures are measured too.
    """
    subjects: list[SomeSubject] = list(our_subjects())
    version = open_spiel_version() if anchors else None
    if version is not None:
        for name in ANCHORS:
            subject = open_spiel_subject(name)
            if subject is not None:
                subjects.append(subject)
    machine = (
        f"Python {platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs"
    )
    return Report(
        when=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        machine=machine,
        open_spiel=version,
        seconds=seconds,
        rounds=rounds,
        figures=tuple(
            measure(
                subjects,
                seconds,
                rounds,
                min_states,
                memory_states,
                decision_seconds=expert_seconds,
            )
        ),
        operations=measure_operations() if operations else None,
        menus=measure_menus(seconds, rounds) if operations else None,
    )


# -- targets ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Target:
    """A target of issue 8: what it asks, what this run measured, and whether it is met
    (None when it could not be measured)."""

    text: str
    wanted: str
    measured: str
    met: bool | None
    #: Why it was not measured, when it was not.
    why: str = ""

    @property
    def status(self) -> str:
        """``met``, ``not met`` or why it was not measured."""
        if self.met is None:
            return f"not measured: {self.why}"
        return "met" if self.met else "not met"


def _ratio_target(report: Report, name: str, text: str, least: float) -> Target:
    ours = report.get(name)
    anchor = report.get(ANCHOR)
    wanted = f">= {least:g}"
    if ours is None or anchor is None:
        return Target(text, wanted, "—", None, "the anchors were skipped")
    ratio = ours.rate.transitions_per_second / anchor.rate.transitions_per_second
    return Target(text, wanted, f"{ratio:.3f}", ratio >= least)


def targets(report: Report) -> list[Target]:
    """The targets of issues 8 and 16, checked against this run."""
    found = [
        _ratio_target(
            report, "sword-of-orthodoxy", "Sword of Orthodoxy transitions/s ÷ backgammon's", 1.0
        ),
        _ratio_target(report, "belisarius", "Belisarius transitions/s ÷ backgammon's", 0.5),
    ]
    soo = report.get("sword-of-orthodoxy")
    text = "Sword of Orthodoxy serialise+deserialise per state"
    if soo is None:
        found.append(Target(text, "< 100 µs", "—", None, "the game was not measured"))
    else:
        cost = soo.probe.round_trip_us
        found.append(Target(text, "< 100 µs", f"{cost:.0f} µs", cost < 100))
    found += [
        _ratio_target(
            report,
            "sword-of-orthodoxy",
            "issue 16: Sword of Orthodoxy transitions/s ÷ backgammon's",
            SEARCH_RATIO,
        ),
        _ratio_target(
            report, "belisarius", "issue 16: Belisarius transitions/s ÷ backgammon's", SEARCH_RATIO
        ),
    ]
    return found


# -- the table ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Row:
    label: str
    value: Callable[[Figures], float | None]
    digits: int
    #: +1: more is better (ratio ours ÷ backgammon's); -1: less is better (the
    #: inverse, so that a ratio above 1 is always the better side); 0: no ratio.
    better: int


_ROWS = (
    _Row("transitions per second", lambda f: f.rate.transitions_per_second, 0, +1),
    _Row("whole games per second", lambda f: f.rate.games_per_second, 2, +1),
    _Row("transitions per game", lambda f: f.rate.transitions_per_game, 1, 0),
    _Row("children per second", lambda f: f.children.per_second if f.children else None, 0, +1),
    _Row("children per parent", lambda f: f.children.per_parent if f.children else None, 1, 0),
    _Row(
        "expert decisions per second",
        lambda f: f.decisions.per_second if f.decisions else None,
        1,
        0,
    ),
    _Row("legal_actions, µs per call", lambda f: f.probe.legal_actions_us, 2, -1),
    _Row("legal actions per decision", lambda f: f.probe.actions_per_decision, 1, 0),
    _Row("serialise+deserialise, µs/state", lambda f: f.probe.round_trip_us, 1, -1),
    _Row("serialised size, bytes/state", lambda f: f.probe.encoded_bytes, 0, -1),
    _Row("memory per state, chain kept, B", lambda f: f.memory_per_state, 0, -1),
    _Row("deep size of one state alone, B", lambda f: f.deep_size, 0, 0),
)

_LABEL = 31
_VALUE = 13
_RATIO = 9
_CELL = _VALUE + _RATIO


def _cell(row: _Row, figures: Figures, anchor: Figures | None) -> str:
    value = row.value(figures)
    if value is None:
        return "—".rjust(_VALUE) + " " * _RATIO
    text = f"{value:,.{row.digits}f}".rjust(_VALUE)
    base = row.value(anchor) if anchor is not None else None
    ratio = ""
    if row.better and base and value:
        ratio = f" ×{value / base if row.better > 0 else base / value:.3g}"
    return text + ratio.ljust(_RATIO)


def _table(report: Report) -> list[str]:
    anchor = report.get(ANCHOR)
    head = "".rjust(_LABEL) + "".join(f.name.rjust(_VALUE + 5).ljust(_CELL) for f in report.figures)
    lines = [head]
    for row in _ROWS:
        cells = "".join(_cell(row, f, anchor) for f in report.figures)
        lines.append((row.label.ljust(_LABEL) + cells).rstrip())
    return lines


def format_report(report: Report) -> str:
    """The report as text: the figures, their ratios, the targets and what is pending."""
    lines = [
        f"byzantium benchmarks, {report.when}: {report.machine}, "
        + (f"open_spiel {report.open_spiel}" if report.open_spiel else "without open_spiel"),
        "Seeded random playouts (seeds 0, 1, 2...): players pick uniformly among the legal",
        "actions, chance nodes are sampled with their probabilities; the same loop for every",
        f"game. Best of {report.rounds} rounds of {report.seconds / report.rounds:.1f} s a game,"
        " rounds interleaved between games.",
    ]
    if report.get(ANCHOR) is not None:
        lines += [
            "×n after a figure: the figure against backgammon's in this run, turned so that",
            "above 1 is always the better side (ours ÷ backgammon's for rates, backgammon's",
            "÷ ours for costs in time and bytes).",
        ]
    else:
        lines.append("The OpenSpiel anchors were skipped (open_spiel is not importable).")
    lines += ["", *_table(report), ""]
    lines.append("Transitions per second of each round:")
    for f in report.figures:
        rounds = ", ".join(f"{rate:,.0f}" for rate in f.rate.rounds)
        lines.append(f"  {f.name} ({f.kind}): {rounds}")
    expanded = [f for f in report.figures if f.children is not None]
    if expanded:
        lines += ["", "Children per second of each round (every legal child of sampled parents):"]
        for f in expanded:
            assert f.children is not None
            rounds = ", ".join(f"{rate:,.0f}" for rate in f.children.rounds)
            lines.append(f"  {f.name}: {rounds} ({f.children.parents} parents)")
    decided = [f for f in report.figures if f.decisions is not None]
    if decided:
        lines += [
            "",
            "Expert decisions per second: each game's built-in expert policy at its default",
            "budget, deciding fixed positions from seeded random games (at least two legal",
            "actions each) in order until its time is up. An absolute figure, no ratio:",
            "OpenSpiel's backgammon has no expert to compare with.",
        ]
        for f in decided:
            assert f.decisions is not None
            lines.append(
                f"  {f.name}: {f.decisions.per_second:,.1f} decisions/s "
                f"({f.decisions.decisions} of {f.decisions.positions} positions "
                f"in {f.decisions.seconds:.1f} s)"
            )
    methods = sorted({f.memory_method for f in report.figures})
    if len(methods) == 1:
        lines += ["", f"Memory counted with {methods[0]} for every game."]
    else:
        lines += ["", "Memory counted with:"]
        lines += [f"  {f.name}: {f.memory_method}" for f in report.figures]
    lines += ["", "Targets of issues 8 and 16 (one run):"]
    for target in targets(report):
        lines.append(
            f"  {target.text.ljust(61)} {target.wanted.rjust(9)} {target.measured.rjust(9)}"
            f"  {target.status}"
        )
    if report.operations is not None:
        lines += ["", *_operations_lines(report.operations)]
    if report.menus is not None:
        lines += ["", *_menu_lines(report.menus, report.get(ANCHOR))]
    if PENDING:
        lines += ["", "Not measured yet:"]
        lines += [f"  {game}: {figure}: {why}" for game, figure, why in PENDING]
    return "\n".join(lines)


def _operations_lines(ops: OperationsFigures) -> list[str]:
    return [
        "Belisarius, the Operations Phase (see benchmarks/operations.py):",
        f"  reachable hexes of a one-counter force at 3623 with 20 points: "
        f"{ops.reachable_us:,.0f} µs a call, {ops.reachable_places} places",
        f"  legal actions of an Operations Phase decision ({ops.menus} in random games):"
        f" {ops.menu_us:,.0f} µs to build a menu of {ops.menu_actions:.1f} actions on average",
        f"  the busiest tenth of those menus: {ops.busy_menu_us:,.0f} µs for"
        f" {ops.busy_menu_actions:.1f} actions on average",
    ]


def _menu_lines(menus: MenuFigures, anchor: Figures | None) -> list[str]:
    bound = f"{menus.without_menus:,.0f} transitions/s"
    if anchor is not None:
        bound += f" (x{menus.without_menus / anchor.rate.transitions_per_second:.3g} {ANCHOR})"
    return [
        "Sword of Orthodoxy, the Action Phase menu (see benchmarks/action_phase.py):",
        f"  {menus.menus:,} menus built in {menus.games} random games: {menus.menu_us:,.0f} µs"
        f" a menu, {100 * menus.share:.0f} % of the playout's time",
        f"  the playout with menus that cost nothing (the most a faster menu can give): {bound}",
    ]


def _as_json(report: Report) -> dict[str, object]:
    data = dataclasses.asdict(report)
    for entry, figures in zip(data["figures"], report.figures, strict=True):
        entry["rate"]["transitions_per_second"] = figures.rate.transitions_per_second
        entry["rate"]["games_per_second"] = figures.rate.games_per_second
        if figures.children is not None:
            entry["children"]["per_second"] = figures.children.per_second
        if figures.decisions is not None:
            entry["decisions"]["per_second"] = figures.decisions.per_second
    data["targets"] = [dataclasses.asdict(t) | {"status": t.status} for t in targets(report)]
    data["pending"] = [{"game": g, "figure": f, "why": w} for g, f, w in PENDING]
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """Measure, print the table and optionally write it as JSON."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__)
    parser.add_argument(
        "--seconds", type=float, default=6.0, help="playout time per game (default 6)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds, best counts (default 3)")
    parser.add_argument(
        "--expert-seconds",
        type=float,
        default=3.0,
        help="time each game's expert decides fixed positions (default 3, 0 to skip)",
    )
    parser.add_argument("--no-anchors", action="store_true", help="skip the OpenSpiel games")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    report = collect(
        args.seconds, args.rounds, anchors=not args.no_anchors, expert_seconds=args.expert_seconds
    )
    print(format_report(report))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(_as_json(report), out, indent=2, ensure_ascii=False)
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
