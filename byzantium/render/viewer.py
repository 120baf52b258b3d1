"""One self-contained HTML file to step through a recorded game (``byzantium view``).

The file needs no server and no network: the pictures (SVG), the script and the
style are inline. For each step it holds the board, the action with who took it,
the events with their rule numbers, each followed by the rule index's summary of the
rule (linked into the built docs only given their address), every outcome of a chance
step with its exact probability, and the legal alternatives of a decision. The left
and right arrow keys step, Home and End jump to the ends; the map zooms and pans (its
buttons, + - 0 and W A S D, the wheel, a drag). Pictures change little from step to
step, so each is stored as its difference from the same seat's previous one, over one
table of the distinct tags; the Belisarius map layer is stored once. For the same
reason the Belisarius pictures are drawn from the parts of the ones before
(:class:`~byzantium.render.belisarius.Pieces`): a part is drawn once per distinct input
and each distinct part is cut into tags once.

Without a seat the page shows everything: every player's board, secrets and
choices, with a seat switch for the boards; in a game of several players it says so
at its top, for it must not be handed to a player during a game. With ``seat`` it
holds only what that player may know: his own boards, each action as he may see
it (:meth:`~byzantium.core.game.Game.describe_step`), each event in his form
(:meth:`~byzantium.core.game.Event.seen_by`), the alternatives of his own decisions
only, and odds only where he may know them; nothing of the others' views is in the
file at all.
"""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from typing import TypeVar

from byzantium.core.errors import RuleIndexError, UnknownOptionError
from byzantium.core.game import CHANCE, Game
from byzantium.core.records import GameRecord
from byzantium.core.rules import get_rulebook
from byzantium.render import svg

__all__ = ["view_html"]

S = TypeVar("S")
A = TypeVar("A")

#: Legal alternatives listed per decision, at most.
MAX_ALTERNATIVES = 40


def _rule_link(docs_url: str | None, game: str, rule: str) -> str:
    """The address of a rule in the built docs' rule index ("" without ``docs_url``)."""
    if docs_url is None:
        return ""
    anchor = f"rule-{game}-{rule.replace('#', '-')}"
    return f"{docs_url}games/{game}.html#{anchor}"


def view_html(
    game: Game[S, A],
    record: GameRecord[A],
    *,
    docs_url: str | None = None,
    seat: int | None = None,
) -> str:
    """The HTML viewer of a record (replayed here, so every fact is computed): all of
    it, or only what player ``seat`` may know. Each rule number shows the rule index's
    summary of the rule; it links into the built docs only given ``docs_url``."""
    seats: list[int | None]
    if seat is not None:
        if not 0 <= seat < game.NUM_PLAYERS:
            raise UnknownOptionError(f"{game.ID} has seats 0 to {game.NUM_PLAYERS - 1}, not {seat}")
        seats = [seat]
    elif game.NUM_PLAYERS < 2:
        seats = [None]
    else:
        seats = [None, *range(game.NUM_PLAYERS)]
    # Pictures drawn before, by their parts (as the same parts make the same text, and
    # the parts' hashes are kept, this is quicker than by the whole text).
    index: dict[tuple[str, ...], int] = {}
    store = _Store()
    # Each new picture is stored against the same seat's previous picture.
    last: dict[int | None, int] = {}
    map_layer = ""
    if game.ID == "belisarius":
        from byzantium.belisarius.game import Belisarius  # noqa: PLC0415
        from byzantium.render import belisarius as bel  # noqa: PLC0415

        assert isinstance(game, Belisarius)
        map_layer = ET.tostring(_hoisted(bel.map_layer(game)), encoding="unicode")
    pieces = bel.Pieces() if game.ID == "belisarius" else None

    def picture(state: S, seat: int | None) -> int:
        parts: list[str]
        if game.ID == "belisarius":
            parts = bel.draw_parts(
                game,
                state,
                seat,
                highlight=set(),
                last_move=set(),
                reachable_for=None,
                zoc=False,
                with_map=False,
                pieces=pieces,
            )
        else:
            parts = [svg(game, state, seat)]
        key = tuple(parts)
        found = index.get(key)
        if found is None:
            found = index[key] = store.add(parts, last.get(seat, -1))
        last[seat] = found
        return found

    # Repeated texts (alternatives above all) are stored once, as indexes.
    texts: list[str] = []
    text_index: dict[str, int] = {}

    def shared(line: str) -> int:
        found = text_index.get(line)
        if found is None:
            found = text_index[line] = len(texts)
            texts.append(line)
        return found

    state = game.initial_state()
    steps: list[dict[str, object]] = [
        {
            "title": "Set-up",
            "events": [],
            "alternatives": [],
            "boards": [picture(state, s) for s in seats],
        }
    ]
    for number, action in enumerate(record.actions, 1):
        actor = game.current_player(state)
        rule = game.decision_rule(state)
        entry: dict[str, object] = {"rule": rule}
        if docs_url is not None:
            entry["link"] = _rule_link(docs_url, game.ID, rule)
        if seat is None:
            described = game.describe_action(state, action)
        else:
            described = game.describe_step(state, action, seat)
        if actor == CHANCE:
            odds = dict(game.chance_outcomes(state))
            p = odds.get(action)
            if seat is not None and not game.odds_visible(state, seat):
                p = None
            entry["who"] = "chance"
            entry["probability"] = "" if p is None else f"{p} = {float(p):.4f}"
            entry["alternatives"] = []
            # Every outcome with its odds, where the reader may know them; the one
            # taken is marked only where he may see it.
            seen_taken = seat is None or game.visible_action(state, action, seat) == action
            if seat is None or game.odds_visible(state, seat):
                entry["outcomes"] = [
                    [
                        shared(game.describe_action(state, o)),
                        f"{q} = {float(q):.4f}",
                        int(seen_taken and o == action),
                    ]
                    for o, q in list(odds.items())[:MAX_ALTERNATIVES]
                ]
        else:
            entry["who"] = game.player_name(actor)
            # Another player's options may show his secrets: a seat sees its own only.
            legal = game.legal_actions(state) if seat in (None, actor) else ()
            entry["alternatives"] = [
                shared(game.describe_action(state, a))
                for a in legal[:MAX_ALTERNATIVES]
                if a != action
            ] + (
                [shared(f"... and {len(legal) - MAX_ALTERNATIVES} more")]
                if len(legal) > MAX_ALTERNATIVES
                else []
            )
        step = game.step(state, action)
        state = step.state
        entry["title"] = f"Step {number}: {entry['who']}: {described}"
        seen = [e.seen_by(seat) for e in step.events]
        entry["events"] = [
            {"rule": e.rule, "text": e.text}
            | ({} if docs_url is None else {"link": _rule_link(docs_url, game.ID, e.rule)})
            for e in seen
            if e is not None
        ]
        entry["boards"] = [picture(state, s) for s in seats]
        steps.append(entry)
    data = {
        "texts": texts,
        "summaries": _summaries(game.ID, steps),
        "game": game.TITLE,
        "seats": ["everything" if s is None else game.player_name(s) for s in seats],
        "steps": steps,
        "parts": store.tags,
        "pictures": store.shapes,
    }
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    if seat is not None:
        notice = (
            f'<p id="notice" class="seat">As the {html.escape(game.player_name(seat))} '
            "may see it: only what this player may know.</p>"
        )
        whose = f" as {game.player_name(seat)} sees it"
    elif game.NUM_PLAYERS > 1:
        notice = _EVERYTHING
        whose = " (everything)"
    else:
        notice = whose = ""
    return _PAGE.format(
        title=html.escape(f"{game.TITLE}: {len(record)} steps{whose}"),
        notice=notice,
        map_layer=(
            '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" '
            'style="position:absolute">'
            f"<defs>{map_layer}</defs></svg>"
            if map_layer
            else ""
        ),
        payload=payload,
    )


def _summaries(game_id: str, steps: list[dict[str, object]]) -> dict[str, str]:
    """The rule index's summary (our words) of each rule the steps name."""
    try:
        book = get_rulebook(game_id)
    except RuleIndexError:  # a game without a rule index: numbers only
        return {}
    named: set[str] = set()
    for step in steps:
        rule = step.get("rule")
        if isinstance(rule, str):
            named.add(rule)
        events = step.get("events")
        if isinstance(events, list):
            named.update(e["rule"] for e in events if isinstance(e, dict))
    found: dict[str, str] = {}
    for rule in sorted(named):
        if rule in book and book[rule].summary:
            found[rule] = book[rule].summary
    return found


#: Presentation attributes a child inherits from its group (SVG 1.1, 6.1).
_INHERITED = ("fill", "stroke", "stroke-width", "stroke-linecap", "stroke-dasharray")


def _hoisted(layer: ET.Element) -> ET.Element:
    """``layer`` with an inherited attribute that every child of a group gives the
    same value set once on the group instead (the same picture, a smaller page)."""
    for group in layer.iter("g"):
        children = list(group)
        if len(children) < 2:
            continue
        for name in _INHERITED:
            values = {child.get(name) for child in children}
            value = values.pop() if len(values) == 1 else None
            if value is not None and name not in group.attrib:
                group.set(name, value)
                for child in children:
                    del child.attrib[name]
    return layer


#: Where an SVG text is cut into its elements' tags.
_TAGS = re.compile(r"(?<=>)(?=<)")


class _Store:
    """The pictures as indexes into one table of distinct tags, each stored as its
    difference from an earlier picture: from one step to the next most elements are
    unchanged, so the page holds each tag once and each picture as a few runs (the
    script rebuilds them).

    A picture's list starts with its base (-1 for none); then an int is a tag of the
    table and a pair ``[start, count]`` the base's tags ``start`` to
    ``start + count - 1``.
    """

    def __init__(self) -> None:
        #: The distinct tags, in the order first met.
        self.tags: list[str] = []
        self._index: dict[str, int] = {}
        #: Each picture as a base and runs.
        self.shapes: list[list[int | list[int]]] = []
        self._pictures: list[list[int]] = []
        # The tags of each part met (a part of a picture is whole elements): the
        # drawing hands over the same string objects for unchanged parts.
        self._parts: dict[str, list[int]] = {}

    def add(self, parts: list[str], base: int) -> int:
        """Store the picture drawn as ``parts`` against picture ``base``; its number."""
        mine: list[int] = []
        for part in parts:
            found = self._parts.get(part)
            if found is None:
                found = self._parts[part] = [self._tag(tag) for tag in _TAGS.split(part)]
            mine.extend(found)
        self._pictures.append(mine)
        self.shapes.append(_difference(self._pictures[base] if base >= 0 else [], mine, base))
        return len(self.shapes) - 1

    def _tag(self, tag: str) -> int:
        found = self._index.get(tag)
        if found is None:
            found = self._index[tag] = len(self.tags)
            self.tags.append(tag)
        return found


def _difference(base: list[int], mine: list[int], number: int) -> list[int | list[int]]:
    """``mine`` as runs ``[start, count]`` of ``base`` and tags of its own, after the
    base's ``number``: found in one pass (a tag that starts a run is looked for in the
    base from where the last run started, else from the base's start; one that the
    base lacks stands alone; a run goes on as far as base and picture agree)."""
    shape: list[int | list[int]] = [number]
    present = set(base)
    start = count = 0
    at = 0
    while at < len(mine):
        tag = mine[at]
        if count:
            shape.append([start, count])
            count = 0
        if tag not in present:
            shape.append(tag)
            at += 1
            continue
        try:
            start = base.index(tag, start)
        except ValueError:
            start = base.index(tag)
        count = 1 + _agreeing(base, start + 1, mine, at + 1)
        at += count
    if count:
        shape.append([start, count])
    return shape


def _agreeing(first: list[int], i: int, second: list[int], j: int) -> int:
    """How many items ``first`` from ``i`` and ``second`` from ``j`` have in common
    before they differ (compared in growing slices, so a long run costs few steps)."""
    most = min(len(first) - i, len(second) - j)
    agreed = 0
    step = 8
    while agreed < most:
        size = min(step, most - agreed)
        if first[i + agreed : i + agreed + size] == second[j + agreed : j + agreed + size]:
            agreed += size
            step *= 2
        elif size == 1:
            break
        else:
            step = size // 2
    return agreed


#: The top of the all-seeing page of a game of several players.
_EVERYTHING = (
    '<p id="notice" class="everything"><strong>This page shows everything</strong>: '
    "every player's secrets (hidden markers, treasuries, hidden choices) and every "
    "board. Do not hand it to a player during a game: <code>byzantium view --seat "
    "N</code> writes the page of one player.</p>"
)

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: DejaVu Sans, Arial, sans-serif; margin: 0; display: flex; }}
#side {{ width: 380px; padding: 8px; height: 100vh; overflow-y: auto; box-sizing: border-box;
  border-right: 1px solid #ccc; font-size: 13px; }}
#view {{ flex: 1; overflow: hidden; height: 100vh; position: relative; cursor: grab; }}
#board svg {{ max-width: 100%; height: auto; }}
#board {{ transform-origin: 0 0; }}
#zoom {{ position: absolute; right: 8px; top: 8px; z-index: 1; }}
li.taken {{ font-weight: bold; }}
button {{ margin: 2px; }}
.rule {{ font-family: monospace; }}
.summary {{ color: #444; font-style: italic; }}
li {{ margin-bottom: 3px; }}
#notice {{ padding: 6px; border: 2px solid; }}
#notice.everything {{ background: #fde2e2; border-color: #b00000; }}
#notice.seat {{ background: #e6f0fa; border-color: #2a5d8f; }}
</style></head>
<body>
{map_layer}
<div id="side">
{notice}
<h3 id="game"></h3>
<div><button id="first">&laquo;</button><button id="prev">&#x25C0;</button>
<span id="counter"></span><button id="next">&#x25B6;</button>
<button id="last">&raquo;</button></div>
<div id="seatbox">View: <select id="seat"></select></div>
<p>Keys: left/right step, Home/End jump; + and - zoom the map, 0 fits it,
W A S D (or the wheel and a drag) move it.</p>
<h4 id="title"></h4>
<div id="decision"></div>
<h4>Events</h4><ol id="events"></ol>
<div id="chance"><h4>Chance outcomes</h4><ul id="outcomes"></ul></div>
<h4>Legal alternatives</h4><ul id="alternatives"></ul>
</div>
<div id="view"><div id="zoom"><button id="zoom-in" title="zoom in (+)">+</button>
<button id="zoom-out" title="zoom out (-)">&minus;</button>
<button id="zoom-fit" title="fit (0)">fit</button></div>
<div id="board"></div></div>
<script id="data" type="application/json">{payload}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
let at = 0;
// Each picture is a base picture's tags with runs kept and new tags put in.
const tags = [];
for (const shape of data.pictures) {{
  const base = shape[0] < 0 ? [] : tags[shape[0]];
  const mine = [];
  for (let i = 1; i < shape.length; i++) {{
    const item = shape[i];
    if (typeof item === "number") mine.push(item);
    else for (let k = item[0]; k < item[0] + item[1]; k++) mine.push(base[k]);
  }}
  tags.push(mine);
}}
function picture(i) {{ return tags[i].map((k) => data.parts[k]).join(""); }}
const seat = document.getElementById("seat");
data.seats.forEach((name, i) => {{
  const o = document.createElement("option");
  o.value = i; o.textContent = name; seat.appendChild(o);
}});
if (data.seats.length < 2) document.getElementById("seatbox").style.display = "none";
document.getElementById("game").textContent = data.game;
// A rule number (a link into the docs only when the page was given their address)
// followed by the rule index's summary of the rule, in our words.
function link(rule, href) {{
  const box = document.createElement("span");
  const a = document.createElement(href ? "a" : "span");
  if (href) a.href = href;
  a.className = "rule"; a.textContent = "[" + rule + "]"; box.appendChild(a);
  const said = data.summaries[rule];
  if (said) {{
    const s = document.createElement("span"); s.className = "summary";
    s.textContent = " (" + said + ")"; box.appendChild(s);
  }}
  return box;
}}
function show() {{
  const step = data.steps[at];
  document.getElementById("counter").textContent = " " + at + " / " + (data.steps.length - 1) + " ";
  document.getElementById("title").textContent = step.title;
  document.getElementById("board").innerHTML = picture(step.boards[Number(seat.value)]);
  document.getElementById("board").dataset.step = at;
  const decision = document.getElementById("decision");
  decision.textContent = "";
  if (step.rule) {{
    decision.appendChild(document.createTextNode("Rule "));
    decision.appendChild(link(step.rule, step.link));
    if (step.probability) {{
      decision.appendChild(document.createTextNode(" probability " + step.probability));
    }}
  }}
  const events = document.getElementById("events"); events.textContent = "";
  for (const e of step.events) {{
    const li = document.createElement("li"); li.appendChild(link(e.rule, e.link));
    li.appendChild(document.createTextNode(" " + e.text)); events.appendChild(li);
  }}
  const outcomes = document.getElementById("outcomes"); outcomes.textContent = "";
  document.getElementById("chance").style.display = step.outcomes ? "" : "none";
  for (const [text, odds, taken] of step.outcomes || []) {{
    const li = document.createElement("li");
    li.textContent = odds + ": " + data.texts[text] + (taken ? " (this step)" : "");
    if (taken) li.className = "taken";
    outcomes.appendChild(li);
  }}
  const alts = document.getElementById("alternatives"); alts.textContent = "";
  for (const a of step.alternatives) {{
    const li = document.createElement("li"); li.textContent = data.texts[a]; alts.appendChild(li);
  }}
}}
function go(n) {{ at = Math.max(0, Math.min(data.steps.length - 1, n)); show(); }}
// Zoom and pan: the board is scaled and moved by one CSS transform, kept from step
// to step; the wheel zooms about the pointer, a drag moves the map.
const view = document.getElementById("view");
const board = document.getElementById("board");
const zoom = {{ scale: 1, x: 0, y: 0 }};
function place() {{
  board.style.transform = "translate(" + zoom.x + "px," + zoom.y + "px) scale(" + zoom.scale + ")";
  board.dataset.scale = zoom.scale.toFixed(3);
}}
function zoomBy(factor, cx, cy) {{
  const scale = Math.max(0.5, Math.min(8, zoom.scale * factor));
  if (cx === undefined) {{ cx = view.clientWidth / 2; cy = view.clientHeight / 2; }}
  zoom.x = cx - (cx - zoom.x) * scale / zoom.scale;
  zoom.y = cy - (cy - zoom.y) * scale / zoom.scale;
  zoom.scale = scale; place();
}}
function pan(dx, dy) {{ zoom.x += dx; zoom.y += dy; place(); }}
view.addEventListener("wheel", (ev) => {{
  ev.preventDefault();
  const box = view.getBoundingClientRect();
  zoomBy(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ev.clientX - box.left, ev.clientY - box.top);
}}, {{ passive: false }});
let drag = null;
view.addEventListener("mousedown", (ev) => {{
  if (ev.target.closest("#zoom")) return;
  drag = {{ x: ev.clientX, y: ev.clientY, moved: false }};
}});
window.addEventListener("mousemove", (ev) => {{
  if (!drag) return;
  const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
  if (drag.moved) {{ pan(dx, dy); drag.x = ev.clientX; drag.y = ev.clientY; }}
}});
window.addEventListener("mouseup", () => {{
  if (drag && drag.moved) board.dataset.dragged = "1";
  drag = null;
}});
document.getElementById("zoom-in").onclick = () => zoomBy(1.25);
document.getElementById("zoom-out").onclick = () => zoomBy(1 / 1.25);
function fit() {{ zoom.scale = 1; zoom.x = zoom.y = 0; place(); }}
document.getElementById("zoom-fit").onclick = fit;
document.addEventListener("keydown", (ev) => {{
  if (ev.key === "+" || ev.key === "=") zoomBy(1.25);
  else if (ev.key === "-") zoomBy(1 / 1.25);
  else if (ev.key === "0") fit();
  else if (ev.key === "w") pan(0, 60);
  else if (ev.key === "s") pan(0, -60);
  else if (ev.key === "a") pan(60, 0);
  else if (ev.key === "d") pan(-60, 0);
}});
document.addEventListener("keydown", (ev) => {{
  if (ev.key === "ArrowRight") go(at + 1);
  else if (ev.key === "ArrowLeft") go(at - 1);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(data.steps.length - 1);
}});
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(at - 1);
document.getElementById("next").onclick = () => go(at + 1);
document.getElementById("last").onclick = () => go(data.steps.length - 1);
seat.onchange = () => {{ show(); seat.blur(); }};
// A click on a stack of the map lists its counters (the picture's hidden
// g.stack-open of the same data-where); a click on the list or elsewhere closes it.
document.getElementById("board").addEventListener("click", (ev) => {{
  if (board.dataset.dragged) {{ delete board.dataset.dragged; return; }}
  const stack = ev.target.closest("g.stack");
  for (const list of document.querySelectorAll("#board g.stack-open")) {{
    const mine = stack !== null && list.dataset.where === stack.dataset.where;
    const shut = list.getAttribute("display") === "none";
    list.setAttribute("display", mine && shut ? "inline" : "none");
  }}
}});
place();
show();
</script></body></html>
"""
