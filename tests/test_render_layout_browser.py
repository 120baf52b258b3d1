"""Where the Belisarius picture puts its labels, measured in headless Chromium
(issue 37, deliverable 1): with ``getBBox`` over every set-up (three scenarios, each
seat and the all-seeing view) and 50 random positions of each scenario, no label (a
Region's, a city's, a sea's) overlaps another label, a city marker, a stack of
counters or a hex marker, and no text leaves the picture (the legend included). In
the record viewer a click on a stack lists its counters.

Skipped without selenium and chromium, except under ``BYZANTIUM_REQUIRE_BROWSER``
(``tox -e browser``); one browser session for all the pictures.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import BelState
from byzantium.core.drivers import play
from byzantium.core.registry import load_game
from byzantium.render import after_setup, svg
from byzantium.render.viewer import view_html
from tests.browser import chromium, require_browser
from tests.test_render import _walk

#: Random positions drawn per scenario.
POSITIONS = 50

#: Tolerance of an overlap, in pixels each way (anti-aliasing, rounding).
SLACK = 0.5

# Measures the picture in the page: labels against labels, city markers, stacks and
# hex markers; every shown text against the picture's edges.
_MEASURE = """
const svg = document.querySelector("#pic svg");
const width = svg.width.baseVal.value, height = svg.height.baseVal.value;
const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
const name = (e) => (e.textContent || e.getAttribute("class") || e.tagName).trim().slice(0, 40);
const labels = [...svg.querySelectorAll("g.label > text")].map((e) => [name(e), box(e)]);
const things = [];
for (const e of svg.querySelectorAll("rect.city")) things.push(["city " + e.dataset.city, box(e)]);
for (const e of svg.querySelectorAll("g.stack")) things.push(["stack " + e.dataset.where, box(e)]);
for (const e of svg.querySelectorAll("g.marker")) things.push(["marker " + e.dataset.hex, box(e)]);
const slack = arguments[0];
const hit = (a, b) =>
  Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > slack &&
  Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > slack;
const found = [];
labels.forEach(([n, b], i) => {
  labels.slice(i + 1).forEach(([m, c]) => { if (hit(b, c)) found.push(n + " / " + m); });
  for (const [m, c] of things) if (hit(b, c)) found.push(n + " / " + m);
});
const outside = [];
for (const e of svg.querySelectorAll("text")) {
  if (e.closest("g.stack-open") || e.closest("defs")) continue;
  let b = e.getBBox();
  const m = e.getCTM(), root = svg.getCTM();
  const p = svg.createSVGPoint();
  const corners = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(([x, y]) => {
    p.x = x; p.y = y; return p.matrixTransform(root.inverse().multiply(m));
  });
  const [a, z] = corners;
  if (a.x < -slack || a.y < -slack || z.x > width + slack || z.y > height + slack)
    outside.push(name(e) + " at " + [a.x, a.y, z.x, z.y].map(Math.round).join(","));
}
return [labels.length, found, outside];
"""


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """One browser of 1400x1000 (the viewer's tests' size) for all the pictures."""
    require_browser()
    with chromium(window=(1400, 1000)) as browser:
        yield browser


def _pictures() -> Iterator[tuple[str, str]]:
    for scenario in (1, 2, 3):
        game = load_game("belisarius", scenario=scenario)
        assert isinstance(game, Belisarius)
        state = after_setup(game)
        for seat in (None, 0, 1):
            yield f"scenario {scenario} set-up, seat {seat}", svg(game, state, seat)
        states: list[tuple[int, BelState]] = []
        seed = 100 * scenario
        while len(states) < POSITIONS:
            walk = _walk(game, seed, 400)
            states += [(seed, s) for s in walk[10::13]][: POSITIONS - len(states)]
            seed += 1
        for k, (walked, position) in enumerate(states):
            seat = (None, 0, 1)[k % 3]
            title = f"scenario {scenario} random {k} (seed {walked}), seat {seat}"
            yield title, svg(game, position, seat)


def test_labels_cover_no_label_city_or_counter_and_text_stays_inside(driver: Any) -> None:
    driver.get("data:text/html;charset=utf-8,<!DOCTYPE html><div id=pic></div>")
    problems: list[str] = []
    measured = 0
    for title, picture in _pictures():
        driver.execute_script("document.getElementById('pic').innerHTML = arguments[0];", picture)
        count, overlaps, outside = driver.execute_script(_MEASURE, SLACK)
        assert count > 40, f"{title}: only {count} labels"
        problems += [f"{title}: {o}" for o in overlaps]
        problems += [f"{title}: outside: {o}" for o in outside]
        measured += 1
    assert measured == 3 * (3 + POSITIONS)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:30])


def test_a_click_on_a_stack_in_the_viewer_lists_its_counters(
    driver: Any,
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    game = load_game("belisarius")
    record = play(game, game.policies()["sensible"], seed=1, max_steps=150)
    page = tmp_path / "view.html"
    page.write_text(view_html(game, record), encoding="utf-8")
    driver.get(page.as_uri())
    ActionChains(driver).send_keys(Keys.END).perform()  # the set-up made
    stacks = driver.find_elements(By.CSS_SELECTOR, "#board g.stack[data-count]")
    several = [s for s in stacks if int(s.get_attribute("data-count")) > 1]
    assert several, "the deployed set-up has stacks of several counters"
    stack = several[0]
    where = stack.get_attribute("data-where")
    listing = f'#board g.stack-open[data-where="{where}"]'

    def shown() -> bool:
        return bool(
            driver.execute_script(
                f"return getComputedStyle(document.querySelector('{listing}')).display !== 'none';"
            )
        )

    assert not shown()
    driver.execute_script(
        "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", stack
    )
    assert shown()
    names = driver.execute_script(
        f"return [...document.querySelectorAll('{listing} g.counter')].map(g => g.dataset.counter);"
    )
    assert names == stack.get_attribute("data-counters").split()
    driver.execute_script(
        "document.getElementById('board').dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    )
    assert not shown()
