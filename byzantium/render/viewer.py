"""One self-contained HTML file to step through a recorded game (``byzantium view``).

The file needs no server and no network: the pictures (SVG), the script and the
style are inline. For each step it holds the board, the action with who took it,
the events with their rule numbers (linked to the rule index of the docs), the exact
probability of a chance outcome, and the legal alternatives of a decision. The left
and right arrow keys step, Home and End jump to the ends. Pictures repeat across
steps, so each distinct one is stored once, and the Belisarius map layer only once.

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
from typing import TypeVar

from byzantium.core.errors import UnknownOptionError
from byzantium.core.game import CHANCE, Game
from byzantium.core.records import GameRecord
from byzantium.render import svg

__all__ = ["view_html"]

S = TypeVar("S")
A = TypeVar("A")

#: Legal alternatives listed per decision, at most.
MAX_ALTERNATIVES = 40


def _rule_link(docs_url: str, game: str, rule: str) -> str:
    anchor = f"rule-{game}-{rule.replace('#', '-')}"
    return f"{docs_url}games/{game}.html#{anchor}"


def view_html(
    game: Game[S, A], record: GameRecord[A], *, docs_url: str = "docs/", seat: int | None = None
) -> str:
    """The HTML viewer of a record (replayed here, so every fact is computed): all of
    it, or only what player ``seat`` may know."""
    seats: list[int | None]
    if seat is not None:
        if not 0 <= seat < game.NUM_PLAYERS:
            raise UnknownOptionError(f"{game.ID} has seats 0 to {game.NUM_PLAYERS - 1}, not {seat}")
        seats = [seat]
    elif game.NUM_PLAYERS < 2:
        seats = [None]
    else:
        seats = [None, *range(game.NUM_PLAYERS)]
    pictures: list[str] = []
    index: dict[str, int] = {}
    map_layer = ""
    if game.ID == "belisarius":
        import xml.etree.ElementTree as ET  # noqa: PLC0415

        from byzantium.belisarius.game import Belisarius  # noqa: PLC0415
        from byzantium.render import belisarius as bel  # noqa: PLC0415

        assert isinstance(game, Belisarius)
        map_layer = ET.tostring(bel.map_layer(game), encoding="unicode")

    def picture(state: S, seat: int | None) -> int:
        if game.ID == "belisarius":
            text = bel.draw(
                game,
                state,
                seat,
                highlight=set(),
                last_move=set(),
                reachable_for=None,
                zoc=False,
                with_map=False,
            )
        else:
            text = svg(game, state, seat)
        found = index.get(text)
        if found is None:
            found = index[text] = len(pictures)
            pictures.append(text)
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
        entry: dict[str, object] = {"rule": rule, "link": _rule_link(docs_url, game.ID, rule)}
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
        else:
            entry["who"] = game.player_name(actor)
            # Another player's options may show his secrets: a seat sees its own only.
            legal = game.legal_actions(state) if seat in (None, actor) else ()
            entry["alternatives"] = [
                game.describe_action(state, a) for a in legal[:MAX_ALTERNATIVES] if a != action
            ] + (
                [f"... and {len(legal) - MAX_ALTERNATIVES} more"]
                if len(legal) > MAX_ALTERNATIVES
                else []
            )
        step = game.step(state, action)
        state = step.state
        entry["title"] = f"Step {number}: {entry['who']}: {described}"
        seen = [e.seen_by(seat) for e in step.events]
        entry["events"] = [
            {"rule": e.rule, "text": e.text, "link": _rule_link(docs_url, game.ID, e.rule)}
            for e in seen
            if e is not None
        ]
        entry["boards"] = [picture(state, s) for s in seats]
        steps.append(entry)
    parts, shapes = _shared_parts(pictures)
    data = {
        "game": game.TITLE,
        "seats": ["everything" if s is None else game.player_name(s) for s in seats],
        "steps": steps,
        "parts": parts,
        "pictures": shapes,
    }
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
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


#: Where an SVG text is cut into its elements' tags.
_TAGS = re.compile(r"(?<=>)(?=<)")


def _shared_parts(pictures: list[str]) -> tuple[list[str], list[list[int]]]:
    """The pictures as lists of indexes into one table of distinct tags: from one step
    to the next most elements are unchanged, so each is stored once for the whole
    game and the page stays small (the script joins them back)."""
    parts: list[str] = []
    index: dict[str, int] = {}
    shapes: list[list[int]] = []
    for text in pictures:
        shape = []
        for tag in _TAGS.split(text):
            found = index.get(tag)
            if found is None:
                found = index[tag] = len(parts)
                parts.append(tag)
            shape.append(found)
        shapes.append(shape)
    return parts, shapes


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
#board {{ flex: 1; overflow: auto; height: 100vh; }}
#board svg {{ max-width: 100%; height: auto; }}
button {{ margin: 2px; }}
.rule {{ font-family: monospace; }}
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
<p>Keys: left/right step, Home/End jump.</p>
<h4 id="title"></h4>
<div id="decision"></div>
<h4>Events</h4><ol id="events"></ol>
<h4>Legal alternatives</h4><ul id="alternatives"></ul>
</div>
<div id="board"></div>
<script id="data" type="application/json">{payload}</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
let at = 0;
function picture(i) {{ return data.pictures[i].map((k) => data.parts[k]).join(""); }}
const seat = document.getElementById("seat");
data.seats.forEach((name, i) => {{
  const o = document.createElement("option");
  o.value = i; o.textContent = name; seat.appendChild(o);
}});
if (data.seats.length < 2) document.getElementById("seatbox").style.display = "none";
document.getElementById("game").textContent = data.game;
function link(rule, href) {{
  const a = document.createElement("a"); a.href = href; a.className = "rule";
  a.textContent = "[" + rule + "]"; return a;
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
  const alts = document.getElementById("alternatives"); alts.textContent = "";
  for (const a of step.alternatives) {{
    const li = document.createElement("li"); li.textContent = a; alts.appendChild(li);
  }}
}}
function go(n) {{ at = Math.max(0, Math.min(data.steps.length - 1, n)); show(); }}
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
  const stack = ev.target.closest("g.stack");
  for (const list of document.querySelectorAll("#board g.stack-open")) {{
    const mine = stack !== null && list.dataset.where === stack.dataset.where;
    const shut = list.getAttribute("display") === "none";
    list.setAttribute("display", mine && shut ? "inline" : "none");
  }}
}});
show();
</script></body></html>
"""
