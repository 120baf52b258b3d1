"""The Sword of Orthodoxy picture measured in headless Chromium (issue 37, deliverable
2): in both set-ups (Campaign, Appendix A; Millennium, Appendix E), 50 positions
met in random games and three fuller ones from a game of the ``expert`` player,
every label lies inside the frame of its box (``getBBox``), no two labels overlap,
no tile overlaps another, and nothing leaves the picture.

One browser session for all the pictures (tests/browser.py: skipped without selenium
and chromium, failed when ``BYZANTIUM_REQUIRE_BROWSER`` is set).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from byzantium.core.registry import load_game
from byzantium.render import svg
from tests.browser import chromium, require_browser
from tests.test_render_sword import expert_positions, positions


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """One browser of 1400x1000 (the viewer's tests' size) for all the pictures."""
    require_browser()
    with chromium(window=(1400, 1000)) as browser:
        yield browser


#: Every text inside the ``rect.frame`` of its nearest framed group; no two texts
#: overlapping; every frame inside its parent frame; no two tiles overlapping. Returns
#: the problems found (at most 20), and how many texts were measured.
_MEASURE = """
const root = document.querySelector('#picture svg');
const problems = [];
const slack = 0.5;
function frameOf(node) {
  let group = node.parentNode;
  while (group) {
    for (const child of group.children) {
      if (child !== node && child.tagName === 'rect' && child.classList.contains('frame')) {
        return child;
      }
    }
    if (group === root) return null;
    group = group.parentNode;
  }
  return null;
}
function box(node) {
  // In the picture's coordinates: through the node's transforms (sections and tiles
  // are drawn at their origin and moved), which only translate and scale.
  const b = node.getBBox();
  const m = node.getCTM();
  return {x: b.x * m.a + m.e, y: b.y * m.d + m.f, w: b.width * m.a, h: b.height * m.d};
}
function inside(a, b) {
  return a.x >= b.x - slack && a.y >= b.y - slack
    && a.x + a.w <= b.x + b.w + slack && a.y + a.h <= b.y + b.h + slack;
}
function overlap(a, b) {
  return a.x < b.x + b.w - slack && b.x < a.x + a.w - slack
    && a.y < b.y + b.h - slack && b.y < a.y + a.h - slack;
}
function say(what, node, a, b) {
  if (problems.length < 20) {
    problems.push(what + ': ' + JSON.stringify(node.textContent || node.outerHTML.slice(0, 80))
      + ' ' + JSON.stringify(a) + ' ' + JSON.stringify(b || ''));
  }
}
const texts = [...root.querySelectorAll('text')];
const boxes = texts.map(box);
texts.forEach((node, i) => {
  const frame = frameOf(node);
  if (frame === null) { say('no frame', node, boxes[i]); return; }
  if (!(boxes[i].w > 0)) say('empty', node, boxes[i]);
  if (!inside(boxes[i], box(frame))) say('out of its box', node, boxes[i], box(frame));
});
for (let i = 0; i < texts.length; i++) {
  for (let j = i + 1; j < texts.length; j++) {
    if (overlap(boxes[i], boxes[j])) {
      say('overlaps ' + texts[j].textContent, texts[i], boxes[i], boxes[j]);
    }
  }
}
for (const frame of root.querySelectorAll('rect.frame')) {
  const outer = frameOf(frame);
  if (outer !== null && !inside(box(frame), box(outer))) {
    say('frame out of its box', frame.parentNode, box(frame), box(outer));
  }
}
const tiles = [...root.querySelectorAll('g.tile > rect.frame')].map(box);
for (let i = 0; i < tiles.length; i++) {
  for (let j = i + 1; j < tiles.length; j++) {
    if (overlap(tiles[i], tiles[j])) say('tiles overlap', root, tiles[i], tiles[j]);
  }
}
return [problems, texts.length];
"""


def _pictures() -> list[tuple[str, str]]:
    pictures = []
    for scenario in ("campaign", "millennium"):
        game = load_game("sword-of-orthodoxy", scenario=scenario)
        pictures.append((f"{scenario} set-up", svg(game, game.initial_state())))
    game = load_game("sword-of-orthodoxy")
    for seed in range(11, 16):
        for k, state in enumerate(positions(seed, 10)):
            pictures.append((f"seed {seed}, position {k}", svg(game, state)))
    for state in expert_positions(5, (6, 10, 14)):
        pictures.append((f"expert game, Turn {state.turn}", svg(game, state)))
    return pictures


@pytest.mark.rule("2.2", game="sword-of-orthodoxy")
def test_no_label_leaves_its_box_in_chromium(driver: Any, tmp_path: Path) -> None:
    page = tmp_path / "sword.html"
    page.write_text(
        '<!doctype html><meta charset="utf-8"><body><div id="picture"></div></body>',
        encoding="utf-8",
    )
    driver.get(page.as_uri())
    pictures = _pictures()
    assert len(pictures) == 55
    measured = 0
    for name, picture in pictures:
        problems, count = driver.execute_script(
            "document.getElementById('picture').innerHTML = arguments[0];" + _MEASURE,
            picture,
        )
        assert not problems, f"{name}: " + "\n".join(problems)
        measured += count
    assert measured > 55 * 150
