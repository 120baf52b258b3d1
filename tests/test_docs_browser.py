"""The HTML documentation in a real headless browser (Debian's chromium, driven by
selenium, as in ``test_render_browser.py``): on the Furo theme, at 1280 and 800 pixels
wide, no rule page scrolls sideways, no field label of a rule entry wraps, the source
of the tests is not cut, code blocks have copy buttons, and the difficulty page has
its charts (issue 37, deliverable 7).

``BYZANTIUM_DOCS_HTML`` names the built HTML (``tox -e docs`` builds, then runs this
file on what it built); with ``BYZANTIUM_BUILD_DOCS=1`` instead, the documentation is
built once into a temporary directory (a few minutes); with neither, the tests are
skipped. Skipped without selenium, chromium or Sphinx, except
when ``BYZANTIUM_REQUIRE_BROWSER`` is set: then a missing browser fails the test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import REQUIRED, chromium, require_browser

ROOT = Path(__file__).resolve().parent.parent
#: What the tests need besides selenium, and the extras that bring it.
MODULES = (("sphinx", "docs"), ("furo", "docs"))
WIDTHS = (1280, 800)
#: The pages of the rule entries, and a page of test source they link to.
RULE_PAGES = ("games/sword-of-orthodoxy.html", "games/belisarius.html")


@pytest.fixture(scope="module")
def html() -> Iterator[Path]:
    require_browser(*MODULES)
    built = os.environ.get("BYZANTIUM_DOCS_HTML")
    if built:
        yield Path(built)
        return
    if not (REQUIRED or os.environ.get("BYZANTIUM_BUILD_DOCS")):
        pytest.skip(
            "the built docs are needed: set BYZANTIUM_DOCS_HTML to them, or "
            "BYZANTIUM_BUILD_DOCS=1 to build them here (minutes); tox -e docs does"
        )
    out = Path(tempfile.mkdtemp(prefix="byzantium-docs-"))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sphinx", "-q", "-b", "html", "docs", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        yield out
    finally:
        shutil.rmtree(out, ignore_errors=True)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    require_browser(*MODULES)
    with chromium(flags=["--hide-scrollbars"]) as chrome:
        yield chrome


def _open(driver: Any, page: Path, width: int) -> None:
    driver.set_window_size(width, 900)
    # The window's inner width is what the page lays out against.
    inner = driver.execute_script("return window.innerWidth")
    driver.set_window_size(width + (width - inner), 900)
    driver.get(page.as_uri())
    driver.execute_script("return document.fonts.ready")


#: Elements that scroll sideways, or stick out of the page: (tag.class, widths).
_OVERFLOW = """
const page = document.documentElement;
const found = [];
if (page.scrollWidth > page.clientWidth + 1) {
  found.push(['page', page.scrollWidth, page.clientWidth]);
}
for (const el of document.querySelectorAll('article *')) {
  const style = getComputedStyle(el);
  const scrolls = ['auto', 'scroll'].includes(style.overflowX);
  if (scrolls && el.scrollWidth > el.clientWidth + 1) {
    found.push([el.tagName + '.' + el.className, el.scrollWidth, el.clientWidth]);
  }
}
return found.slice(0, 10);
"""

#: The field labels of the rule entries that take more than one line.
_WRAPPED_LABELS = """
const wrapped = [];
const labels = document.querySelectorAll('div.rule-entry dl.field-list > dt');
for (const dt of labels) {
  const range = document.createRange();
  range.selectNodeContents(dt);
  const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
  if (tops.size > 1) wrapped.push(dt.textContent);
}
return [labels.length, wrapped.slice(0, 10)];
"""


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", RULE_PAGES)
def test_rule_pages_fit_the_width_and_field_labels_stay_on_one_line(
    html: Path, driver: Any, name: str, width: int
) -> None:
    _open(driver, html / name, width)
    assert driver.execute_script("return window.innerWidth") == width
    assert driver.execute_script("return document.querySelectorAll('div.rule-entry').length") > 50
    assert driver.execute_script(_OVERFLOW) == []
    count, wrapped = driver.execute_script(_WRAPPED_LABELS)
    assert count > 50
    assert wrapped == []
    # The labels sit beside their values, not above them, and read as words.
    labels = driver.execute_script(
        "return [...document.querySelectorAll('div.rule-entry dl.field-list > dt')]"
        ".slice(0, 40).map(dt => dt.textContent.trim())"
    )
    assert {label.rstrip(":") for label in labels} <= {"Code", "Tests", "Rulings"}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_source_of_the_tests_is_not_cut(html: Path, driver: Any, width: int) -> None:
    pages = sorted((html / "_tests").rglob("*.html"))
    assert pages
    widest = max(pages, key=lambda page: max(map(len, page.read_text().splitlines())))
    _open(driver, widest, width)
    assert driver.execute_script("return document.querySelectorAll('div.test-source').length") == 1
    assert driver.execute_script(_OVERFLOW) == []


def test_code_blocks_have_copy_buttons(html: Path, driver: Any) -> None:
    _open(driver, html / "getting-started.html", 1280)
    blocks = driver.execute_script("return document.querySelectorAll('div.highlight').length")
    buttons = driver.execute_script("return document.querySelectorAll('button.copybtn').length")
    assert blocks > 0
    assert buttons == blocks


def test_the_theme_is_furo(html: Path) -> None:
    text = (html / "index.html").read_text(encoding="utf-8")
    assert "furo" in text


@pytest.mark.parametrize("width", WIDTHS)
def test_the_difficulty_page_has_its_charts(html: Path, driver: Any, width: int) -> None:
    _open(driver, html / "difficulty.html", width)
    charts = driver.execute_script(
        "return [...document.querySelectorAll('svg.difficulty-chart')].map(svg => {"
        "  const box = svg.getBoundingClientRect();"
        "  return [svg.querySelector('title').textContent, box.width, box.height,"
        "          svg.querySelectorAll('rect, path').length]; })"
    )
    titles = [title for title, *_ in charts]
    # Win rate by seat for both games, survival by Turn for Sword of Orthodoxy.
    assert sum("win rate" in t for t in titles) == 2, titles
    assert any(t.startswith("sword-of-orthodoxy") and "still going" in t for t in titles)
    for _, box_width, box_height, marks in charts:
        assert 0 < box_width <= width and box_height > 50
        assert marks > 2
    # The page itself does not scroll sideways (its wide tables and commands may, in
    # their own boxes).
    assert driver.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
