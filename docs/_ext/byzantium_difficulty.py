"""Sphinx extension: the figures of "How hard is each game?" from their data files.

``.. byzantium-difficulty:: GAME``
    every ``_static/difficulty-*.json`` of GAME (``sword-of-orthodoxy`` or
    ``belisarius``), as written by ``python -m benchmarks.difficulty`` (its docstring
    gives the schema): an overview table, what the losses have in common, and per run
    a section with where the figures come from (policies, budget, games, seed,
    command), the win rates with their 95% Wilson intervals, the scores, the turns
    and the causes of defeat. A file of another shape (a file named
    ``difficulty-sword*.json`` or ``difficulty-belisarius*.json`` without the schema)
    is shown as the values it holds, with a note; no file at all gives a sentence
    saying so. Nothing is typed by hand: rebuilding after a new measurement updates
    the page.

``.. byzantium-sword-expert::``
    ``_static/sword-expert-evidence.json`` (written by
    ``python -m benchmarks.sword_expert_games --evidence``): the expert's
    budget-versus-survival curve, its last stands (the last Action Phase before each
    fall, where every choice left was played out), and the reading of them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from html import escape as html_escape
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles
from sphinx.util.typing import ExtensionMetadata

from byzantium.core.errors import ByzantiumError
from byzantium.core.registry import game_class

SCHEMA = "byzantium-difficulty/1"
#: The short names files use, by game id.
SHORT = {"sword-of-orthodoxy": "sword", "belisarius": "belisarius"}
#: The most causes of defeat listed per side (the rest are summed as "other causes").
MAX_CAUSES = 6
#: The most values shown of a file of another shape.
MAX_VALUES = 80

_SPECIAL = re.compile(r"([\\`*|_])")


def _text(value: object) -> str:
    """Plain text made safe inside reStructuredText."""
    return _SPECIAL.sub(r"\\\1", str(value)).replace("\n", " ")


def _percent(value: object) -> str:
    return f"{100 * float(value):.1f}%" if isinstance(value, int | float) else "?"


def _num(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "?" if value is None else _text(value)
    return str(int(value)) if float(value).is_integer() else f"{value:.4g}"


def _turn(value: object) -> str:
    return f"{value:.1f}" if isinstance(value, int | float) and not isinstance(value, bool) else "?"


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], widths: str = "") -> list[str]:
    """A ``list-table`` (cells already escaped)."""
    lines = [".. list-table::", "   :header-rows: 1"]
    if widths:
        lines.append(f"   :widths: {widths}")
    lines.append("")
    for row in [headers, *rows]:
        lines.append(f"   * - {row[0] or ' '}")
        lines += [f"     - {cell or ' '}" for cell in row[1:]]
    return [*lines, ""]


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


# -- one run ----------------------------------------------------------------------------


def _options_label(game_id: str, options: Mapping[str, object]) -> str:
    """``Campaign``, ``Scenario 2``, and the options that differ from their default."""
    try:
        specs = {spec.name: spec.default for spec in game_class(game_id).OPTIONS}
    except ByzantiumError:
        specs = {}
    scenario = options.get("scenario", specs.get("scenario"))
    head = (
        f"Scenario {scenario}"
        if isinstance(scenario, int)
        else str(scenario).capitalize()
        if scenario
        else "Default set-up"
    )
    changed = [
        f"{name}={value}"
        for name, value in sorted(options.items())
        if name != "scenario" and name in specs and value != specs[name]
    ]
    return ", ".join([head, *changed])


def _seating_label(seating: Mapping[str, object], both: bool) -> str:
    names = set(map(str, seating.values()))
    if len(names) == 1:
        label = next(iter(names))
        return f"{label} in every seat" if len(seating) > 1 else label
    if both:
        return " v ".join(map(str, seating.values())) + ", each in each seat"
    return " v ".join(f"{policy} ({seat})" for seat, policy in seating.items())


def _sides(summary: Mapping[str, object]) -> list[dict[str, Any]]:
    rates = _dict(summary.get("win_rates"))
    sides = _list(rates.get("sides"))
    return [side for side in sides if isinstance(side, dict)]


def _side_label(side: Mapping[str, object]) -> str:
    seat, policy = side.get("seat"), side.get("policy")
    if seat and policy:
        return f"{seat} ({policy})"
    return str(seat or policy or "?")


def _interval(side: Mapping[str, object]) -> tuple[str, str]:
    rate = _dict(side.get("win_rate"))
    return _percent(
        rate.get("rate")
    ), f"{_percent(rate.get('low'))} to {_percent(rate.get('high'))}"


def _top_cause(side: Mapping[str, object]) -> str:
    defeats = _dict(side.get("defeats"))
    causes = [c for c in _list(defeats.get("causes")) if isinstance(c, dict)]
    lost = defeats.get("games")
    if not causes or not isinstance(lost, int) or not lost:
        return "none"
    top = causes[0]
    return f"{_text(top.get('cause'))} ({_percent(top.get('games', 0) / lost)})"


def _provenance(run: Mapping[str, object], name: str) -> list[str]:
    summary = _dict(run.get("summary"))
    seatings = _list(summary.get("seatings"))
    per = run.get("games")
    total = summary.get("games")
    budget = str(run.get("budget") or "") or "each policy's default"
    seats = "; ".join(
        ", ".join(
            f"{_text(seat)}: {_text(policy)}" for seat, policy in _dict(s.get("seats")).items()
        )
        + f" ({_num(s.get('games'))} game{'' if s.get('games') == 1 else 's'})"
        for s in seatings
        if isinstance(s, dict)
    )
    text = (
        f"{_num(total)} games ({_num(per)} per seating, seed {_num(run.get('seed'))}); "
        f"policies: {seats or '?'}; budget: {_text(budget)}. Measured with byzantium "
        f"{_text(run.get('byzantium', '?'))} on {_text(run.get('date', '?'))} "
        f"in {_num(run.get('seconds'))} s, from ``{name}``."
    )
    lines = [text, ""]
    command = run.get("command")
    if isinstance(command, str) and command:
        lines += [".. code-block:: text", "", f"    {command}", ""]
    return lines


def _run_section(game_id: str, run: Mapping[str, object], name: str) -> list[str]:
    summary = _dict(run.get("summary"))
    title = (
        f"{_options_label(game_id, _dict(run.get('options')))}: "
        f"{_seating_label(_dict(run.get('seating')), bool(run.get('both_seats')))}"
    )
    lines = [_text(title), "~" * len(_text(title)), "", *_provenance(run, name)]
    sides = _sides(summary)
    rows = []
    for side in sides:
        rate, interval = _interval(side)
        levels = ", ".join(f"{_text(k)} {_num(v)}" for k, v in _dict(side.get("levels")).items())
        rows.append(
            [_text(_side_label(side)), _num(side.get("games")), _num(side.get("wins")), rate,
             interval, levels or "none"]
        )  # fmt: skip
    if rows:
        lines += ["**Win rate** (the 95% interval is Wilson's):", ""]
        lines += _table(["Side", "Games", "Won", "Win rate", "95% interval", "Levels won"], rows)
    scored = [(side, _dict(side.get("scores"))) for side in sides if side.get("scores")]
    if scored:
        lines += ["**Score** (Victory Points at the end):", ""]
        lines += _table(
            ["Side", "Games", "Min", "Q1", "Median", "Q3", "Max", "Mean"],
            [
                [_text(_side_label(side))]
                + [_num(s.get(k)) for k in ("games", "min", "q1", "median", "q3", "max", "mean")]
                for side, s in scored
            ],
        )
    turns = _list(summary.get("turn_quartiles"))
    histogram = [row for row in _list(summary.get("turns")) if isinstance(row, dict)]
    if histogram:
        spread = ", ".join(
            f"Turn {_num(row.get('low'))}: {_num(row.get('count'))}"
            if row.get("low") == row.get("high")
            else f"{_num(row.get('low'))}-{_num(row.get('high'))}: {_num(row.get('count'))}"
            for row in histogram
            if row.get("count")
        )
        quartiles = " / ".join(_num(q) for q in turns) if turns else "?"
        lines += [
            f"**Turn at the end**: mean {_turn(summary.get('mean_turn'))}, quartiles "
            f"{quartiles}; games per turn: {spread}.",
            "",
        ]
    defeat_rows = []
    for side in sides:
        defeats = _dict(side.get("defeats"))
        lost = defeats.get("games")
        causes = [c for c in _list(defeats.get("causes")) if isinstance(c, dict)]
        if not isinstance(lost, int) or not lost:
            continue
        shown, rest = causes[:MAX_CAUSES], causes[MAX_CAUSES:]
        for cause in shown:
            games = cause.get("games", 0)
            defeat_rows.append(
                [_text(_side_label(side)), _text(cause.get("cause")), _num(games),
                 _percent(games / lost), _turn(cause.get("mean_turn"))]
            )  # fmt: skip
        if rest:
            games = sum(int(c.get("games", 0)) for c in rest)
            defeat_rows.append(
                [_text(_side_label(side)), f"{len(rest)} other causes", _num(games),
                 _percent(games / lost), ""]
            )  # fmt: skip
    if defeat_rows:
        lines += ["**Causes of defeat** (the games a side did not win, by ending):", ""]
        lines += _table(
            ["Side", "Cause (rule)", "Games", "Share of its defeats", "Mean turn"],
            defeat_rows,
            widths="15 45 10 15 15",
        )
    return lines


# -- one game --------------------------------------------------------------------------


def _overview(game_id: str, runs: Sequence[tuple[Mapping[str, object], str]]) -> list[str]:
    rows = []
    for run, _ in runs:
        summary = _dict(run.get("summary"))
        where = _text(_options_label(game_id, _dict(run.get("options"))))
        players = _text(_seating_label(_dict(run.get("seating")), bool(run.get("both_seats"))))
        for side in _sides(summary):
            rate, interval = _interval(side)
            rows.append(
                [where, players, _text(_side_label(side)), _num(side.get("games")), rate,
                 interval, _turn(summary.get("mean_turn")), _top_cause(side)]
            )  # fmt: skip
    if not rows:
        return []
    return _table(
        ["Set-up", "Players", "Side (policy)", "Games", "Win rate", "95% interval",
         "Mean end turn", "Most common cause of defeat"],
        rows,
    )  # fmt: skip


def _in_common(game_id: str, runs: Sequence[tuple[Mapping[str, object], str]]) -> list[str]:
    """The causes of defeat of each run, summed over its sides: what the losses share."""
    setups: dict[str, dict[str, list[float]]] = {}
    lost: dict[str, int] = {}
    for run, _ in runs:
        where = (
            f"{_options_label(game_id, _dict(run.get('options')))}, "
            f"{_seating_label(_dict(run.get('seating')), bool(run.get('both_seats')))}"
        )
        totals = setups.setdefault(where, {})
        for side in _sides(_dict(run.get("summary"))):
            defeats = _dict(side.get("defeats"))
            lost[where] = lost.get(where, 0) + int(defeats.get("games") or 0)
            for cause in _list(defeats.get("causes")):
                if isinstance(cause, dict):
                    games = int(cause.get("games", 0))
                    entry = totals.setdefault(str(cause.get("cause")), [0, 0.0])
                    entry[0] += games
                    entry[1] += games * float(cause.get("mean_turn") or 0)
    items = []
    for where, totals in setups.items():
        if not lost.get(where):
            continue
        ranked = sorted(totals.items(), key=lambda item: (-item[1][0], item[0]))[:3]
        causes = "; ".join(
            f"{_text(cause)}, {_percent(games / lost[where])} (mean turn {turn / games:.1f})"
            for cause, (games, turn) in ranked
            if games
        )
        items.append(f"* {_text(where)}, {lost[where]} games not won: {causes}.")
    if not items:
        return []
    return [
        "**What the losses have in common**: the most common endings of the games a side "
        "did not win (a defeat, a draw or a game cut short), in each set-up and with each "
        "set of players, with their share of those games and the mean turn they came in:",
        "",
        *items,
        "",
    ]


def _leaves(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, f"{path}[{index}]")
    else:
        yield path or "(value)", json.dumps(value, ensure_ascii=False)


def _other_shape(data: object, name: str) -> list[str]:
    title = f"Other figures: {name}"
    leaves = list(_leaves(data))
    lines = [
        _text(title),
        "~" * len(_text(title)),
        "",
        f"``{name}`` is not a ``{SCHEMA}`` file (see ``benchmarks/difficulty.py``), so it "
        f"is shown as the values it holds ({min(len(leaves), MAX_VALUES)} of {len(leaves)}); "
        "converting it, or measuring again with ``python -m benchmarks.difficulty``, gives "
        "the tables of the other runs.",
        "",
    ]
    rows = [[_text(path), _text(value)] for path, value in leaves[:MAX_VALUES]]
    return lines + (_table(["Key", "Value"], rows, widths="50 50") if rows else [])


# -- charts (SVG drawn here, at build time, from the same data files) ----------------------

#: Colours of the lines and bars, in order (distinguishable, and readable on dark too).
PALETTE = ("#3b6fb6", "#c0392b", "#2e8b57", "#b8860b", "#7d3c98", "#138d90", "#d35400")
#: The fewest games of a run drawn as a survival curve (when larger runs exist).
MIN_CURVE_GAMES = 30
CHART_FONT = "font-family:system-ui,sans-serif;font-size:13px"


def _esc(text: object) -> str:
    return html_escape(str(text), quote=True)


def _survival(run: Mapping[str, object]) -> tuple[list[tuple[int, float]], int] | None:
    """(Turn, share of the games still going when that Turn began), and the games."""
    summary = _dict(run.get("summary"))
    ends: dict[int, int] = {}
    for row in _list(summary.get("turns")):
        if isinstance(row, dict) and isinstance(row.get("low"), int):
            ends[row["low"]] = ends.get(row["low"], 0) + int(row.get("count") or 0)
    total = sum(ends.values())
    if not total:
        return None
    last = max(ends)
    points, left = [], total
    for turn in range(1, last + 1):
        points.append((turn, left / total))
        left -= ends.get(turn, 0)
    return points, total


def _survival_chart(game_id: str, runs: Sequence[tuple[Mapping[str, object], str]]) -> str:
    """Lines: the share of games still going at the start of each Turn, per run."""
    curves = []
    for run, _ in runs:
        found = _survival(run)
        if found is None:
            continue
        label = (
            f"{_options_label(game_id, _dict(run.get('options')))}, "
            f"{_seating_label(_dict(run.get('seating')), bool(run.get('both_seats')))} "
            f"({found[1]} games)"
        )
        curves.append((label, found[0]))
    if not curves:
        return ""
    turns = max(point[0] for _, points in curves for point in points)
    left, top, width, height = 48, 16, 560, 220
    legend_top = top + height + 40
    total_height = legend_top + 18 * len(curves) + 8

    def x(turn: float) -> float:
        return left + (turn - 1) / max(turns - 1, 1) * width

    def y(share: float) -> float:
        return top + (1 - share) * height

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="difficulty-chart" role="img" '
        f'viewBox="0 0 {left + width + 24} {total_height}" style="{CHART_FONT}">',
        f"<title>{_esc(game_id)}: share of games still going at the start of each Turn</title>",
    ]
    for share in (0, 0.25, 0.5, 0.75, 1):
        parts.append(
            f'<line x1="{left}" x2="{left + width}" y1="{y(share):.1f}" y2="{y(share):.1f}" '
            'stroke="#8888" stroke-width="0.5"/>'
            f'<text x="{left - 6}" y="{y(share) + 4:.1f}" text-anchor="end" '
            f'fill="currentColor">{int(share * 100)}%</text>'
        )
    step = 1 if turns <= 15 else 2 if turns <= 30 else 5
    for turn in range(1, turns + 1, step):
        parts.append(
            f'<text x="{x(turn):.1f}" y="{top + height + 16}" text-anchor="middle" '
            f'fill="currentColor">{turn}</text>'
        )
    parts.append(
        f'<text x="{left + width / 2}" y="{top + height + 32}" text-anchor="middle" '
        'fill="currentColor">Turn</text>'
    )
    for index, (label, points) in enumerate(curves):
        colour = PALETTE[index % len(PALETTE)]
        path = " ".join(
            f"{'M' if i == 0 else 'L'}{x(t):.1f},{y(s):.1f}" for i, (t, s) in enumerate(points)
        )
        parts.append(
            f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2">'
            f"<title>{_esc(label)}</title></path>"
        )
        row = legend_top + 18 * index
        parts.append(
            f'<rect x="{left}" y="{row - 9}" width="14" height="4" fill="{colour}"/>'
            f'<text x="{left + 20}" y="{row}" fill="currentColor">{_esc(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _win_rate_chart(game_id: str, runs: Sequence[tuple[Mapping[str, object], str]]) -> str:
    """Horizontal bars: each side's win rate, with its 95% interval, under a heading per
    run (the set-up and the players); the colour is the seat."""
    rows: list[tuple[str, tuple[float, float | None, float | None, str, object] | None]] = []
    for run, _ in runs:
        sides = _sides(_dict(run.get("summary")))
        if not sides:
            continue
        heading = (
            f"{_options_label(game_id, _dict(run.get('options')))}, "
            f"{_seating_label(_dict(run.get('seating')), bool(run.get('both_seats')))}"
        )
        budget = re.search(r"budget (\d+)", str(run.get("budget") or ""))
        if budget:
            heading += f", budget {budget.group(1)}"
        rows.append((f"{heading} ({_num(_dict(run.get('summary')).get('games'))} games)", None))
        for side in sides:
            rate = _dict(side.get("win_rate"))
            value = rate.get("rate")
            if not isinstance(value, int | float):
                continue
            low, high = rate.get("low"), rate.get("high")
            bar = (
                float(value),
                float(low) if isinstance(low, int | float) else None,
                float(high) if isinstance(high, int | float) else None,
                str(side.get("seat") or ""),
                side.get("games"),
            )
            rows.append((_side_label(side), bar))
    if not any(bar for _, bar in rows):
        return ""
    seats = list(dict.fromkeys(bar[3] for _, bar in rows if bar is not None))
    label_width, bar_width, row = 220, 380, 22
    top = 8
    bottom = top + row * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="difficulty-chart" role="img" '
        f'viewBox="0 0 {label_width + bar_width + 70} {bottom + 40}" style="{CHART_FONT}">',
        f"<title>{_esc(game_id)}: win rate of each side, with its 95% interval</title>",
    ]
    for share in (0, 0.25, 0.5, 0.75, 1):
        px = label_width + share * bar_width
        parts.append(
            f'<line x1="{px:.1f}" x2="{px:.1f}" y1="{top}" y2="{bottom}" '
            'stroke="#8888" stroke-width="0.5"/>'
            f'<text x="{px:.1f}" y="{bottom + 14}" text-anchor="middle" '
            f'fill="currentColor">{int(share * 100)}%</text>'
        )
    for index, (label, shown) in enumerate(rows):
        y = top + row * index
        if shown is None:  # the heading of a run
            parts.append(
                f'<text x="4" y="{y + 16}" font-weight="bold" '
                f'fill="currentColor">{_esc(label)}</text>'
            )
            continue
        won, low, high, seat, games = shown
        colour = PALETTE[seats.index(seat) % len(PALETTE)]
        tip = f"{label}: {_percent(won)} of {_num(games)} games won"
        if low is not None and high is not None:
            tip += f" (95% interval {_percent(low)} to {_percent(high)})"
        parts.append(
            f"<g><title>{_esc(tip)}</title>"
            f'<text x="{label_width - 8}" y="{y + 15}" text-anchor="end" '
            f'fill="currentColor">{_esc(label)}</text>'
            f'<rect x="{label_width}" y="{y + 4}" width="{won * bar_width:.1f}" '
            f'height="{row - 8}" fill="{colour}"/>'
        )
        if low is not None and high is not None:
            mid = y + row / 2
            parts.append(
                f'<line x1="{label_width + low * bar_width:.1f}" '
                f'x2="{label_width + high * bar_width:.1f}" y1="{mid}" y2="{mid}" '
                'stroke="currentColor" stroke-width="1.5"/>'
            )
        parts.append(
            f'<text x="{label_width + bar_width + 8}" y="{y + 15}" '
            f'fill="currentColor">{_percent(won)}</text></g>'
        )
    parts.append(
        f'<text x="{label_width + bar_width / 2}" y="{bottom + 32}" text-anchor="middle" '
        'fill="currentColor">games won (the line across each bar: its 95% interval)</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def _figure(svg: str, caption: str) -> list[nodes.Node]:
    """An inline SVG chart (HTML builders only) with a caption in words."""
    if not svg:
        return []
    figure = nodes.container(classes=["difficulty-figure"])
    figure += nodes.raw("", svg, format="html")
    figure += nodes.paragraph(text=caption, classes=["difficulty-caption"])
    return [figure]


def _charts(game_id: str, runs: Sequence[tuple[Mapping[str, object], str]]) -> list[nodes.Node]:
    charts = _figure(
        _win_rate_chart(game_id, runs),
        "Win rate of each side in each set-up, by seat (the colour) and player, with the "
        "95% interval of the measurement.",
    )
    # Survival by Turn: for a solitaire game, where the player wins by lasting (Sword
    # of Orthodoxy, 12.3); of the runs whose games end at different Turns, and of the
    # larger runs when there are some (a handful of games draws a noisy line).
    try:
        solitaire = game_class(game_id).NUM_PLAYERS == 1
    except ByzantiumError:
        solitaire = False
    lasting = []
    for run, name in runs:
        found = _survival(run)
        if solitaire and found is not None and len({share for _, share in found[0]}) > 1:
            lasting.append((run, name, found[1]))
    large = [(run, name) for run, name, games in lasting if games >= MIN_CURVE_GAMES]
    charts += _figure(
        _survival_chart(game_id, large or [(run, name) for run, name, _ in lasting]),
        "Survival by Turn: the share of games still going at the start of each Turn "
        f"(the runs of at least {MIN_CURVE_GAMES} games).",
    )
    return charts


class DifficultyDirective(SphinxDirective):
    """The figures of one game from ``_static/difficulty-*.json``."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        game_id = self.arguments[0]
        static = Path(self.env.srcdir) / "_static"
        runs: list[tuple[Mapping[str, object], str]] = []
        others: list[tuple[object, str]] = []
        for path in sorted(static.glob("difficulty-*.json")):
            try:
                data: object = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                data = {"error": f"unreadable: {exc}"}
            ours = isinstance(data, dict) and data.get("schema") == SCHEMA
            if ours and isinstance(data, dict) and data.get("game") == game_id:
                self.env.note_dependency(str(path))
                runs += [
                    (run, path.name) for run in _list(data.get("runs")) if isinstance(run, dict)
                ]
            elif not ours and path.stem.startswith(f"difficulty-{SHORT.get(game_id, game_id)}"):
                self.env.note_dependency(str(path))
                others.append((data, path.name))
        lines: list[str] = []
        if not runs and not others:
            lines += [
                f"No figures of {_text(game_id)} have been measured yet (no "
                "``docs/_static/difficulty-*.json`` file of it).",
                "",
            ]
        lines += _overview(game_id, runs) + _in_common(game_id, runs)
        for run, name in runs:
            lines += _run_section(game_id, run, name)
        for data, name in others:
            lines += _other_shape(data, name)
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="difficulty"), container)
        return _charts(game_id, runs) + list(container.children)


def _pair(value: object) -> str:
    """A ``[low, high]`` interval of shares as ``low%-high%``."""
    low, high = [*_list(value), None, None][:2]
    return f"{_percent(low)}-{_percent(high)}"


def _curve(data: Mapping[str, object]) -> list[str]:
    rows = []
    for row in _list(data.get("budget_curve")):
        if not isinstance(row, dict):
            continue
        rows.append(
            [_text(row.get("scenario")), _num(row.get("budget")), _num(row.get("games")),
             _text(row.get("seed_range", "")), _num(row.get("survived")),
             _percent(row.get("survival_rate")), _pair(row.get("survival_wilson95")),
             _turn(row.get("mean_end_turn")), _turn(row.get("cpu_seconds_per_game")),
             _num(row.get("transitions_per_decision"))]
        )  # fmt: skip
    if not rows:
        return []
    return [
        "**Budget against survival.** The same seeds at each budget (transitions of "
        "deeper search per decision; 0 is the one-step exact expectimax), Campaign "
        "unless said; CPU seconds per game as measured on the shared machine:",
        "",
        *_table(
            ["Scenario", "Budget", "Games", "Seeds", "Survived", "Rate", "95% interval",
             "Mean end Turn", "CPU s/game", "Transitions/decision"],
            rows,
        ),
    ]  # fmt: skip


def _tuning(data: Mapping[str, object]) -> list[str]:
    rows = []
    for row in _list(data.get("tuning")):
        if not isinstance(row, dict):
            continue
        changed = ", ".join(f"{_text(k)} {_text(v)}" for k, v in _dict(row.get("weights")).items())
        rows.append(
            [_text(row.get("label")), changed, _num(row.get("budget")),
             _text(row.get("seed_range")), _num(row.get("games")),
             f"{_num(row.get('survived'))} / {_num(row.get('default_survived'))}",
             f"{_turn(row.get('mean_end_turn'))} / {_turn(row.get('default_mean_end_turn'))}",
             f"{_num(row.get('longer'))} / {_num(row.get('as_long'))} / {_num(row.get('shorter'))}"]
        )  # fmt: skip
    if not rows:
        return []
    return [
        "**Tuning the evaluation.** Each line changes some weights of the evaluation "
        "(``byzantium.sword_of_orthodoxy.expert.Weights``) and plays the seeds the default "
        "weights played, Campaign unless said, so that both meet the same dice until "
        "their first different choice; the default's figures follow each slash:",
        "",
        *_table(
            ["Weights", "Changed", "Budget", "Seeds", "Games", "Survived / default",
             "Mean end Turn / default", "Longer / as long / shorter"],
            rows,
        ),
    ]  # fmt: skip


def _calibration(data: Mapping[str, object]) -> list[str]:
    found = _dict(data.get("calibration"))
    paths = [_dict(r) for r in _list(found.get("paths"))]
    if not paths:
        return []

    def checked(r: dict[str, object]) -> list[str]:  # checks, model, observed, interval
        return [_num(r.get("checks")), _percent(r.get("model")), _percent(r.get("observed")),
                _pair(r.get("observed_wilson95"))]  # fmt: skip

    by_path = [
        [_text(r.get("theatre")).capitalize(),
         f"{_num(r.get('distance'))}{' or more' if r.get('distance') == 4 else ''}", *checked(r)]
        for r in paths
    ]  # fmt: skip
    falls = [
        [f"{_percent(r.get('model_from'))}-{_percent(r.get('model_to'))}", *checked(r)]
        for r in (_dict(x) for x in _list(found.get("fall")))
    ]  # fmt: skip
    return [
        "**Is the model of a Siege right?** At the end of every Byzantine Action Phase "
        f"of {_num(found.get('games'))} of the expert's Campaign games "
        f"({_num(found.get('checks'))} ends of phase), the chance its evaluation gave "
        "each Path of bringing a Siege before the next Action Phase "
        "(``byzantium.sword_of_orthodoxy.expert.siege_chances``), against the share of "
        "those Paths that did; the distance is the advances the Path needs for a Siege "
        "(9.2, 9.3):",
        "",
        *_table(["Theatre", "Distance", "Checks", "Model", "Observed", "95% interval"],
                by_path),
        "",
        "And the chance of the Empire falling before the next Action Phase "
        "(``fall_chance``), by bands of the model's chance:",
        "",
        *_table(["Model's chance", "Checks", "Model (mean)", "Observed", "95% interval"],
                falls),
    ]  # fmt: skip


def _stands(data: Mapping[str, object]) -> list[str]:
    stands = [s for s in _list(data.get("last_stands")) if isinstance(s, dict)]
    if not stands:
        return []
    rows = []
    for stand in stands:
        last = _dict(stand.get("last_decision"))
        choices = [c for c in _list(last.get("choices")) if isinstance(c, dict)]
        rates = [float(c.get("fall_rate") or 0) for c in choices]
        near = ", ".join(
            f"{path} {d}" for path, d in _dict(last.get("distance")).items() if int(d) <= 2
        )
        best = choices[0] if choices else {}
        ending = next((c for c in choices if str(c.get("choice", "")).startswith("End the ")), {})
        rows.append(
            [_num(stand.get("seed")), _num(stand.get("end_turn")), _text(stand.get("cause")),
             f"{_num(last.get('factions'))}{' + Walls' if last.get('walls') else ', no Walls'}",
             _num(last.get("solidus")), _text(near or "none"), _num(len(choices)),
             _percent(ending.get("fall_rate")),
             f"{_text(best.get('choice', '?'))}: {_percent(best.get('fall_rate'))}",
             f"{_percent(min(rates) if rates else None)}-{_percent(max(rates) if rates else None)}"]
        )  # fmt: skip
    rollouts = next(
        (c.get("rollouts") for s in stands for c in _list(_dict(s.get("last_decision")).get(
            "choices")) if isinstance(c, dict)),
        "?",
    )  # fmt: skip
    return [
        "**The last stands.** Each lost game at the last decision of its last Action Phase "
        "(10.0) before the fall: the Factions in Constantinople (the Walls count among "
        f"them, 12.1), the solidus left, the Paths at most two advances from a Siege, and "
        f"every legal choice played out {_num(rollouts)} times to the Action Phase of the "
        "next Turn (dice sampled, play-out i of every choice on the same stream, the "
        "sensible player answering the questions on the way): the share of play-outs "
        "that fell after ending the phase (the expert's choice), the best choice with "
        "its share, and the range over all choices.",
        "",
        *_table(
            ["Seed", "Fell on Turn", "Cause", "Factions", "Solidus", "Paths near a Siege",
             "Choices", "Ending: falls", "Best choice: falls", "All choices: falls"],
            rows,
        ),
    ]  # fmt: skip


class SwordExpertDirective(SphinxDirective):
    """The Sword of Orthodoxy expert's evidence: budget curve and last stands."""

    def run(self) -> list[nodes.Node]:
        path = Path(self.env.srcdir) / "_static" / "sword-expert-evidence.json"
        self.env.note_dependency(str(path))
        try:
            data = _dict(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            data = {"reading": f"sword-expert-evidence.json is unreadable: {exc}"}
        lines = [*_curve(data), "", *_tuning(data), "", *_calibration(data), "", *_stands(data)]
        lines.append("")
        for key in ("reading", "method"):
            if data.get(key):
                lines += [_text(data[key]), ""]
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="difficulty"), container)
        return list(container.children)


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the directives."""
    app.add_directive("byzantium-difficulty", DifficultyDirective)
    app.add_directive("byzantium-sword-expert", SwordExpertDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
