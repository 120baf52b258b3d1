"""The record viewer in a real headless browser (Debian's chromium and chromedriver,
driven by selenium): the page loads, the arrow keys step forward and back and change
the board, the seat switch changes the view, the rule links are well formed.

Skipped when selenium or chromium is missing, except when ``BYZANTIUM_REQUIRE_BROWSER``
is set (``tox -e browser`` and CI set it): then a missing browser fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from byzantium.core.drivers import play, random_policy
from byzantium.core.registry import load_game
from byzantium.core.rules import get_rulebook
from byzantium.render.viewer import view_html
from tests.browser import chromium, require_browser


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """One browser of 1400x1000 for all the tests of the file."""
    require_browser()
    with chromium(window=(1400, 1000)) as browser:
        yield browser


def _page(tmp_path: Path, game_id: str, seed: int, steps: int, docs_url: str | None = None) -> Path:
    game = load_game(game_id)
    record = play(game, random_policy, seed=seed, max_steps=steps)
    path = tmp_path / f"{game_id}.html"
    path.write_text(view_html(game, record, docs_url=docs_url), encoding="utf-8")
    return path


def _board(browser: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, "board").get_attribute("innerHTML"))


def _key(browser: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


def test_keys_step_through_a_belisarius_game_and_the_seat_switch_changes_the_view(
    driver: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver.get(_page(tmp_path, "belisarius", 2, 60).as_uri())
    assert driver.find_element(By.ID, "board").get_attribute("data-step") == "0"
    start = _board(driver)
    assert "<svg" in start
    boards = [start]
    for _ in range(40):
        _key(driver, Keys.ARROW_RIGHT)
        boards.append(_board(driver))
    assert driver.find_element(By.ID, "board").get_attribute("data-step") == "40"
    assert len(set(boards)) > 1, "stepping never changed the board"
    _key(driver, Keys.ARROW_LEFT)
    assert driver.find_element(By.ID, "board").get_attribute("data-step") == "39"
    assert _board(driver) == boards[39]
    _key(driver, Keys.HOME)
    assert _board(driver) == start
    _key(driver, Keys.END)
    last = int(driver.find_element(By.ID, "board").get_attribute("data-step"))
    assert last >= 40
    seat = Select(driver.find_element(By.ID, "seat"))
    views = set()
    for i in range(3):
        seat.select_by_index(i)
        views.add(_board(driver))
    assert len(views) == 3, "the Empire's, the Barbarian's and the full view differ"
    assert "treasury hidden" in _board(driver)


def test_rule_links_point_at_rule_index_anchors(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(_page(tmp_path, "sword-of-orthodoxy", 3, 40, docs_url="docs/").as_uri())
    known = get_rulebook("sword-of-orthodoxy")
    seen = 0
    for _ in range(20):
        _key(driver, Keys.ARROW_RIGHT)
        for a in driver.find_elements(By.CSS_SELECTOR, "a.rule"):
            href = a.get_attribute("href")
            rule = a.text.strip("[]")
            anchor = "rule-sword-of-orthodoxy-" + rule.replace("#", "-")
            assert href.endswith(f"docs/games/sword-of-orthodoxy.html#{anchor}")
            assert rule in known, f"{rule} is not in the rule index the docs render"
            assert re.fullmatch(r"[0-9A-Z][0-9A-Za-z.#-]*", rule)
            seen += 1
    assert seen > 0


def test_the_map_zooms_and_pans_with_buttons_keys_wheel_and_drag(
    driver: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(_page(tmp_path, "belisarius", 2, 30).as_uri())
    board = driver.find_element(By.ID, "board")

    def scale() -> float:
        return float(board.get_attribute("data-scale"))

    def moved() -> tuple[float, float]:
        box = driver.execute_script(
            "const r = document.querySelector('#board svg').getBoundingClientRect();"
            "return [r.left, r.top];"
        )
        return float(box[0]), float(box[1])

    assert scale() == 1
    driver.find_element(By.ID, "zoom-in").click()
    assert scale() > 1
    _key(driver, "+")
    bigger = scale()
    assert bigger > 1.25
    _key(driver, Keys.ARROW_RIGHT)  # stepping keeps the zoom
    assert scale() == bigger and board.get_attribute("data-step") == "1"
    _key(driver, "-")
    assert scale() < bigger
    _key(driver, "0")
    assert scale() == 1
    start = moved()
    _key(driver, "d")
    assert moved()[0] < start[0]
    _key(driver, "0")
    view = driver.find_element(By.ID, "view")
    driver.execute_script(
        "arguments[0].dispatchEvent(new WheelEvent('wheel', "
        "{deltaY: -100, clientX: 300, clientY: 300, bubbles: true, cancelable: true}));",
        view,
    )
    assert scale() > 1
    _key(driver, "0")
    before = moved()
    ActionChains(driver).move_to_element_with_offset(view, 0, 0).click_and_hold().move_by_offset(
        -80, -50
    ).release().perform()
    after = moved()
    assert after[0] < before[0] - 40 and after[1] < before[1] - 20


def test_rule_numbers_show_the_rule_index_summary_and_link_only_with_docs_url(
    driver: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    book = get_rulebook("belisarius")
    driver.get(_page(tmp_path, "belisarius", 2, 60).as_uri())
    shown = 0
    for _ in range(40):
        _key(driver, Keys.ARROW_RIGHT)
        assert driver.find_elements(By.CSS_SELECTOR, "a.rule") == []
        for rule in driver.find_elements(By.CSS_SELECTOR, "span.rule"):
            number = rule.text.strip("[]")
            summary = book[number].summary
            if summary:
                said = rule.find_element(By.XPATH, "following-sibling::span[@class='summary']")
                assert said.text == f"({summary})"
                assert said.is_displayed()
                shown += 1
    assert shown > 0, "no rule of 40 steps showed its summary"


def test_chance_steps_list_every_outcome_with_its_probability(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(_page(tmp_path, "belisarius", 2, 120).as_uri())
    chance = driver.find_element(By.ID, "chance")
    listed = 0
    for _ in range(120):
        _key(driver, Keys.ARROW_RIGHT)
        title = driver.find_element(By.ID, "title").text
        if ": chance:" not in title:
            assert not chance.is_displayed()
            continue
        items = driver.find_elements(By.CSS_SELECTOR, "#outcomes li")
        assert chance.is_displayed() and len(items) > 1
        odds = [Fraction(li.text.split(" = ")[0]) for li in items]
        assert all(0 < p <= 1 for p in odds)
        if len(items) < 40:
            assert sum(odds) == 1
        assert len(driver.find_elements(By.CSS_SELECTOR, "#outcomes li.taken")) == 1
        listed += 1
    assert listed > 0
