"""The web client of ``byzantium serve`` in real headless Chromium (issue 39).

A real server runs as a subprocess (``python3 -m byzantium serve`` on a free port with a
temporary SQLite file) and selenium drives Debian's chromium through the page at ``/``,
as a person would: the lobby creates the game, the choices are clicked (on the board
where the server names what an action is about, in the menu otherwise) or reached with
Tab and Enter.

- a whole game of Sword of Orthodoxy to its end, its record downloadable;
- two browser profiles play Belisarius against each other through two game turns, and
  at every step neither page's DOM nor anything it received (every fetch answer and
  WebSocket message, captured in the page) holds the other side's hidden Stratagems or
  treasury (22.1);
- a game against the built-in ``expert``;
- a reload mid-game comes back to the same position;
- at 1280x800 the page fits, and a game is played with the keyboard alone.

``BYZANTIUM_SCREENSHOTS=DIR`` writes the pictures of both games in play that the docs
show (docs/_static/client-*.png). ``BYZANTIUM_CLIENT_SERVER=URL`` runs the tests against
a server already running there instead of starting one. Skipped when selenium, chromium
or the server's extra is missing, except when ``BYZANTIUM_REQUIRE_BROWSER`` is set
(``tox -e browser`` and CI set it): then that fails the test.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from byzantium.core.rules import get_rulebook
from tests.browser import chromium, require_browser

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = os.environ.get("BYZANTIUM_SCREENSHOTS", "")
WAIT = 30.0

#: Put into every page before its own scripts: a copy of every fetch answer's body and
#: of every WebSocket message the page receives, for the secrecy checks to read.
CAPTURE = r"""
window.__received = [];
const keep = (what, text) => window.__received.push(what + "\n" + text);
const realFetch = window.fetch.bind(window);
window.fetch = async (...args) => {
  const response = await realFetch(...args);
  try { keep("fetch " + String(args[0]), await response.clone().text()); } catch (e) {}
  return response;
};
const RealSocket = window.WebSocket;
window.WebSocket = class extends RealSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (ev) => keep("socket", String(ev.data)));
  }
};
"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The address of a running ``byzantium serve`` (started here, stopped after)."""
    require_browser(("starlette", "server"), ("uvicorn", "server"))
    given = os.environ.get("BYZANTIUM_CLIENT_SERVER")
    if given:
        yield given.rstrip("/")
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = Path(tempfile.mkdtemp(prefix="byzantium-serve-"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "byzantium",
            "serve",
            "--port",
            str(port),
            "--database",
            str(folder / "games.db"),
        ],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(folder / "stderr").open("wb"),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/catalogue", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = (folder / "stderr").read_text(errors="replace")[-2000:]
                    pytest.fail(f"byzantium serve did not start: {log}")
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


Browser = Callable[[], Any]


@pytest.fixture
def browser(server: str) -> Iterator[Browser]:
    """Opens Chromium windows of 1280x800, each with its own profile (its own
    localStorage: another person), each capturing what its pages receive."""
    opened: list[Any] = []
    with ExitStack() as windows:

        def open_one() -> Any:
            driver = windows.enter_context(
                chromium(window=(1280, 800), capabilities={"goog:loggingPrefs": {"browser": "ALL"}})
            )
            opened.append(driver)
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False},
            )
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE})
            driver.set_script_timeout(WAIT)
            return driver

        yield open_one
        # What each page said on its console that was an error (read before the
        # windows close).
        errors = [
            e["message"]
            for driver in opened
            for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and "favicon" not in e["message"]
        ]
    assert not errors, errors


# -- driving the page ----------------------------------------------------------------------


def wait(driver: Any, condition: Callable[[Any], Any], what: str) -> Any:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(condition)
    except TimeoutException:
        problem = driver.execute_script(
            "const g = document.getElementById('game');"
            "return [document.getElementById('problem').textContent, g.dataset.seq,"
            " document.getElementById('waiting').textContent,"
            " document.activeElement.outerHTML.slice(0, 200)]"
        )
        pytest.fail(f"waited {WAIT:g}s for {what}; the page shows: {problem!r}")


def create(driver: Any, server: str, game: str, seats: list[str], **options: object) -> str:
    """Creates a game from the lobby; returns its id (the page then shows the game, or
    the invitations when some seat is an invited person)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(f"{server}/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#create-game option"), "the lobby")
    Select(driver.find_element(By.ID, "create-game")).select_by_value(game)
    for name, value in options.items():
        field = driver.find_element(By.ID, f"option-{name}")
        if field.get_attribute("type") == "checkbox":
            driver.execute_script("arguments[0].checked = arguments[1]", field, bool(value))
        elif field.tag_name == "select":
            Select(field).select_by_value(str(value))
        else:
            field.clear()
            field.send_keys(str(value))
    for seat, who in enumerate(seats):
        Select(driver.find_element(By.ID, f"seat-{seat}")).select_by_value(who)
    before = driver.current_url
    driver.find_element(By.ID, "create-button").click()
    if "invite" in seats:
        wait(driver, lambda d: d.find_element(By.ID, "invitations").is_displayed(), "invitations")
        href = driver.find_element(By.ID, "invitation-open").get_attribute("href")
        return str(href).rsplit("/", 1)[1]
    wait(driver, lambda d: d.current_url != before and "#/game/" in d.current_url, "the game")
    return str(driver.current_url).rsplit("/", 1)[1]


def invitations(driver: Any) -> dict[int, str]:
    from selenium.webdriver.common.by import By

    return {
        int(field.get_attribute("data-seat")): str(field.get_attribute("value"))
        for field in driver.find_elements(By.CSS_SELECTOR, "#invitation-list input")
    }


#: The page's state as a test reads it: None while it waits (no question of its own
#: shown, the game not over), else its seq, status and choices.
STATE = """
const game = document.getElementById("game");
if (game.hidden || !game.dataset.seq) return null;
const buttons = [...document.querySelectorAll("#choices button")];
const asked = !document.getElementById("question").hidden && buttons.length
  && buttons.every((b) => !b.disabled);
if (game.dataset.status !== "over" && !asked) return null;
return {seq: Number(game.dataset.seq), status: game.dataset.status,
        choices: asked ? buttons.map((b) => b.textContent) : [],
        targets: asked ? buttons.map((b) => b.dataset.targets || "") : [],
        careful: asked ? buttons.map((b) => b.classList.contains("careful")) : [],
        first: asked ? buttons.findIndex((b) => b.dataset.index === "0") : -1};
"""


def ready(driver: Any, after: int = -1) -> dict[str, Any]:
    """Waits until the page asks its seat something (at a seq past ``after``) or shows
    the end of the game."""

    def check(d: Any) -> dict[str, Any] | None:
        state = d.execute_script(STATE)
        if state and (state["status"] == "over" or state["seq"] > after):
            return dict(state)
        return None

    return dict(wait(driver, check, f"a question after seq {after} or the end"))


def choose(driver: Any, index: int, *, on_board: bool = False) -> bool:
    """Picks the ``index``-th choice: a click on its button, or (``on_board``) on an
    element of the board that it alone names; True when the board was clicked."""
    from selenium.webdriver.common.by import By

    button = driver.find_elements(By.CSS_SELECTOR, "#choices button")[index]
    if not on_board:
        button.click()
        return False
    # The element to click: a drawn one that this choice names and no other choice does.
    element = driver.execute_script(
        """
        const [index] = arguments;
        const named = (b) => JSON.parse(b.dataset.targets || "[]")
          .flatMap((s) => [...document.querySelectorAll('#board ' + s)]);
        const buttons = [...document.querySelectorAll('#choices button')];
        const others = new Set(buttons.filter((_, i) => i !== index).flatMap(named));
        for (const node of named(buttons[index])) {
          const r = node.getBoundingClientRect();
          if (r.width > 0 && r.height > 0 && !others.has(node)) return node;
        }
        return null;
        """,
        index,
    )
    if element is None:  # every element it names is named by another choice too
        button.click()
        return False
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).move_to_element(element).click().perform()
    return True


def received(driver: Any) -> list[str]:
    """What the page received since the last call (fetch bodies and socket messages)."""
    return list(driver.execute_script("return window.__received.splice(0)"))


def shoot(driver: Any, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(SCREENSHOTS) / name))


def http_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


# -- the tests -------------------------------------------------------------------------------


def test_a_whole_sword_game_is_played_by_clicking_its_choices(
    server: str, browser: Browser
) -> None:
    from selenium.webdriver.common.by import By

    driver = browser()
    game_id = create(driver, server, "sword-of-orthodoxy", ["me"])
    seq, clicks, on_board = -1, 0, 0
    while True:
        state = ready(driver, seq)
        if state["status"] == "over":
            break
        seq = state["seq"]
        if clicks == 5:
            shoot(driver, "client-sword.png")
        # A choice the game cautions against (ending the phase, keeping less money)
        # is never the first one shown, which takes the keyboard's focus.
        careful = state["careful"]
        assert not careful or not careful[0] or all(careful), state["choices"]
        # The board where a choice names something drawn (every other time), else the
        # menu: the library's first choice (ending a phase, declining) keeps the game
        # short, the others now and then make it a game.
        named = [i for i, t in enumerate(state["targets"]) if t]
        if named and clicks % 2 == 0:
            on_board += choose(driver, named[clicks % len(named)], on_board=True)
        else:
            choose(driver, state["first"] if clicks % 4 else clicks % len(state["choices"]))
        clicks += 1
        assert clicks < 400, "the game did not end"
    assert on_board >= 1
    result = driver.find_element(By.ID, "result")
    assert result.is_displayed()
    assert driver.find_element(By.ID, "result-text").text.strip()
    link = driver.find_element(By.ID, "record-link").get_attribute("href")
    assert link.endswith(f"/api/games/{game_id}/record")
    record = http_json(link)
    assert record["game"] == "sword-of-orthodoxy"
    # The record it offers is the library's: byzantium verify replays it.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "record.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        verified = subprocess.run(
            [sys.executable, "-m", "byzantium", "verify", str(path)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=False,
        )
        assert verified.returncode == 0, verified.stdout + verified.stderr
    # The chronicle names rules and gives our summary of each (the rule index's words).
    book = get_rulebook("sword-of-orthodoxy")
    rules = driver.find_elements(By.CSS_SELECTOR, "#chronicle .rule[data-rule]")
    assert rules
    summaries = [s.text for s in driver.find_elements(By.CSS_SELECTOR, "#chronicle .summary")]
    known = {e.id: e.summary for e in book if e.summary}
    assert any(f"({known[r.get_attribute('data-rule')]})" in summaries for r in rules[:50])
    # Chance steps list their outcomes with their odds (issue 39), the one drawn marked.
    odds = driver.find_elements(By.CSS_SELECTOR, "#chronicle .odds")
    assert odds
    for listing in odds[:20]:
        items = [li.text for li in listing.find_elements(By.CSS_SELECTOR, "li")]
        assert all(re.match(r"\d+(/\d+)?: \S", t) for t in items), items
        drawn = listing.find_elements(By.CSS_SELECTOR, "li.drawn")
        assert len(drawn) == 1 and drawn[0].text.endswith("(drawn)")


#: The visible forms of a side's treasury and hand in the texts and pictures of the
#: library (a reader who may not examine them reads "hidden" and a count): JavaScript
#: regular expressions, ``SIDE`` for the side's name.
SECRET_FORMS = (
    r"SIDE: \d+ Solidus",  # the picture's treasury line
    r"SIDE: [^;<\"]*; \d+ Stratagems: ",  # ... and the hand it lists
    r"treasuries: (?:\w+ \w+, )?SIDE \d",  # the chronicle's heading
)

#: Run in a page: drains what it received, and reports the observations in it, where
#: the secret forms of the other side occur in it and in the page, and the page's
#: chronicle lines of marker draws. Done in the page, for the pictures are large.
INSPECT = """
const [forms, parts] = arguments;
const texts = window.__received.splice(0);
const observations = [];
for (const text of texts) {
  let data;
  try { data = JSON.parse(text.slice(text.indexOf("\\n") + 1)); } catch (e) { continue; }
  for (const view of [data, data && data.view]) {
    if (view && typeof view === "object" && view.observation) {
      const o = view.observation;
      observations.push({revealed: o.revealed, other_hand: o.other_hand,
                         other_treasury: o.other_treasury});
    }
  }
}
const dom = parts.map((id) => document.getElementById(id).outerHTML).join("\\n");
const hits = [];
for (const form of forms) {
  const re = new RegExp(form);
  for (const text of [dom, ...texts]) {
    const m = re.exec(text);
    if (m) hits.push([form, text.slice(Math.max(0, m.index - 80), m.index + 80)]);
  }
}
const draws = {};
for (const li of document.querySelectorAll("#chronicle > li")) {
  const lines = [...li.querySelectorAll(":scope > span:not(.actor), :scope > ul > li")]
    .map((x) => x.textContent);
  draws[li.dataset.seq] = lines;
}
return {observations, hits, chronicle: draws, received: texts.length};
"""


def check_secrecy(pages: dict[str, Any], seen: dict[str, Any]) -> int:
    """Neither page, nor anything it received since the last check, tells the other
    side's secrets; returns for how many pages the check was whole (a side that may
    examine the other's secrets, 22.1, is checked for nothing else)."""
    names = list(pages)
    reports: dict[str, dict[str, Any]] = {}
    whole = 0
    for side, driver in pages.items():
        other = names[1 - names.index(side)]
        mine = seen.setdefault(side, {"revealed": False, "examined": False})
        # The page as it stands (its chronicle too unless an examination once showed
        # the secrets there), and everything received since the last check.
        parts = ["heading", "status-line", "question", "board-pane", "result"]
        if not mine["examined"]:
            parts.append("chronicle")
        forms = [f.replace("SIDE", other) for f in SECRET_FORMS]
        report = dict(driver.execute_script(INSPECT, forms, parts))
        reports[side] = report
        was_revealed = mine["revealed"]
        for observation in report["observations"]:
            mine["revealed"] = any(observation["revealed"] or ())
            mine["examined"] = mine["examined"] or mine["revealed"]
            if not mine["revealed"]:
                assert observation["other_hand"] is None, (side, observation)
                assert observation["other_treasury"] is None, (side, observation)
        if mine["revealed"] or was_revealed:
            continue
        whole += 1
        assert not report["hits"], (side, report["hits"][:3])
    # A Stratagem marker one side drew is named in his chronicle, never in the other
    # page's line for the same step.
    for side in names:
        other = names[1 - names.index(side)]
        mine_lines = reports[side]["chronicle"]
        for seq, lines in reports[other]["chronicle"].items():
            drawn = re.match(r"draw (.+?) \(", lines[0]) if lines else None
            if drawn and seq in mine_lines and lines[0] not in mine_lines[seq]:
                seen["draws"] = seen.get("draws", 0) + 1
                assert not any(f"draw {drawn.group(1)} " in x for x in mine_lines[seq]), (
                    side,
                    seq,
                    mine_lines[seq],
                )
    return whole


def test_two_people_play_belisarius_and_neither_sees_the_other_s_secrets(
    server: str, browser: Browser
) -> None:
    from selenium.webdriver.common.by import By

    empire = browser()
    game_id = create(empire, server, "belisarius", ["me", "invite"], scenario=1, capitulation=False)
    link = invitations(empire)[1]
    assert "token=" in link
    barbarian = browser()
    barbarian.get(link)
    pages = {"Empire": empire, "Barbarian": barbarian}
    empire.find_element(By.ID, "invitation-open").click()
    seen: dict[str, Any] = {}
    checked = 0
    shot = False
    # The invitation's token left the address bar for the browser's storage.
    wait(barbarian, lambda d: "token=" not in d.current_url, "the token to leave the address")
    turns: set[int] = set()
    steps = 0
    while True:
        # Whoever is asked: both pages wait for the other, one of them is asked.
        def someone_asked(_: Any) -> tuple[str, dict[str, Any]] | None:
            for side, driver in pages.items():
                state = driver.execute_script(STATE)
                if state:
                    return side, dict(state)
            return None

        side, state = wait(empire, someone_asked, "a question to either side")
        checked += check_secrecy(pages, seen)
        heading = str(pages[side].find_element(By.ID, "heading").text)
        turn = re.search(r"Game turn (\d+)", heading)
        if turn:
            turns.add(int(turn.group(1)))
        if state["status"] == "over" or max(turns, default=0) >= 3:
            break
        if not shot and side == "Empire" and 2 in turns:
            shoot(empire, "client-belisarius.png")
            shot = True
        named = [i for i, t in enumerate(state["targets"]) if t]
        if named and steps % 7 == 0:
            choose(pages[side], named[0], on_board=True)
        else:
            choose(pages[side], state["first"])
        asked_at = int(state["seq"])

        def answered(d: Any, asked_at: int = asked_at) -> bool:
            return _seq(d) > asked_at

        wait(pages[side], answered, "the answer to the choice")
        steps += 1
        assert steps < 1500, "two game turns took too long"
    assert {1, 2} <= turns, turns
    checked += check_secrecy(pages, seen)
    # Both pages were checked whole at most steps (all but while one may examine).
    assert checked > steps, (checked, steps)
    # ... and the other side's hidden draws were met (the page reads them unnamed).
    assert seen.get("draws", 0) > 0
    assert game_id in str(empire.current_url)


def _seq(driver: Any) -> int:
    from selenium.webdriver.common.by import By

    return int(driver.find_element(By.ID, "game").get_attribute("data-seq"))


def test_a_game_against_the_expert(server: str, browser: Browser) -> None:
    """The Empire is the built-in expert, I am the Barbarian (who sets up first): the
    expert's turns are taken on the server and the page, waiting meanwhile, shows
    them as they come."""
    from selenium.webdriver.common.by import By

    driver = browser()
    create(driver, server, "belisarius", ["expert", "me"], scenario=2, capitulation=False)
    seq = -1

    def actors() -> list[str]:
        return list(
            driver.execute_script(
                "return [...document.querySelectorAll('#chronicle .actor')]"
                ".map((a) => a.textContent.trim())"
            )
        )

    def answered(newest_first: list[str]) -> bool:
        return (
            "Barbarian:" in newest_first
            and "Empire:" in newest_first[: newest_first.index("Barbarian:")]
        )

    # Play until the expert has answered my moves (its steps after mine, shown while
    # the page waits for it).
    for _ in range(400):
        state = ready(driver, seq)
        if state["status"] == "over":
            break
        seq = state["seq"]
        choose(driver, state["first"])
        asked_at = int(seq)

        def moved(d: Any, asked_at: int = asked_at) -> bool:
            return answered(actors()) or bool(
                (d.execute_script(STATE) or {}).get("seq", -1) > asked_at
            )

        wait(driver, moved, "my next question or the expert's move")
        if answered(actors()):
            break
    assert answered(actors()), actors()
    waiting = driver.find_element(By.ID, "status-line").text
    assert waiting


def test_a_reload_comes_back_to_the_same_position(server: str, browser: Browser) -> None:
    from selenium.webdriver.common.by import By

    driver = browser()
    game_id = create(driver, server, "sword-of-orthodoxy", ["me"])
    seq = -1
    for k in range(5):
        state = ready(driver, seq)
        assert state["status"] == "playing"
        seq = state["seq"]
        choose(driver, k % 2 and len(state["choices"]) - 1)
    before = ready(driver, seq)

    def position(d: Any) -> tuple[object, ...]:
        return (
            _seq(d),
            d.find_element(By.ID, "question-text").text,
            tuple(b.text for b in d.find_elements(By.CSS_SELECTOR, "#choices button")),
            d.find_element(By.ID, "heading").text,
            # The picture as the server sent it (the page's outlines of the choices'
            # targets and of the one in focus set aside).
            d.execute_script(
                "const copy = document.getElementById('overlay-layer').cloneNode(true);"
                "for (const n of copy.querySelectorAll('.target, .pointed')) {"
                "  n.classList.remove('target', 'pointed');"
                "  if (!n.classList.length) n.removeAttribute('class'); }"
                "return copy.innerHTML"
            ),
            len(d.find_elements(By.CSS_SELECTOR, "#chronicle > li")),
        )

    was = position(driver)
    driver.refresh()
    after = ready(driver)
    assert after["seq"] == before["seq"]
    assert position(driver) == was
    assert game_id in driver.current_url
    # The game goes on from there.
    choose(driver, 0)
    ready(driver, after["seq"])


def test_at_1280x800_a_game_is_played_with_the_keyboard(server: str, browser: Browser) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = browser()
    create(driver, server, "belisarius", ["me", "sensible"], scenario=1, capitulation=False)
    state = ready(driver)
    assert driver.execute_script("return [innerWidth, innerHeight]") == [1280, 800]
    # Everything fits: nothing scrolls sideways, the board and the question are in view.
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), (
        "the page scrolls sideways"
    )
    for part in ("view", "question", "zoom-in"):
        box = driver.find_element(By.ID, part).rect
        assert box["width"] > 0, part
        assert box["x"] + box["width"] <= 1280, part
        assert box["y"] < 800, part
    board = driver.find_element(By.ID, "view").rect
    assert board["width"] >= 700, board
    assert board["height"] >= 600, board
    # Tab walks through the choices; Enter takes the one in focus.
    for k in range(12):
        seq = state["seq"]
        count = len(state["choices"])
        driver.execute_script("document.activeElement.blur()")
        # From the page's start, Tab reaches the choices (the zoom buttons first).
        found = None
        for _ in range(count + 12):
            ActionChains(driver).send_keys(Keys.TAB).perform()
            focused = driver.switch_to.active_element
            if "choice" in (focused.get_attribute("class") or ""):
                found = focused
                break
        assert found is not None, "Tab never reached a choice"
        at = int(found.get_attribute("data-index"))
        if at + 1 < count and k % 2:
            ActionChains(driver).send_keys(Keys.TAB).perform()
            assert driver.switch_to.active_element.get_attribute("data-index") == str(at + 1)
        ActionChains(driver).send_keys(Keys.ENTER).perform()
        state = ready(driver, seq)
        if state["status"] == "over":
            break
    # Zoom from the keyboard too: + doubles nothing of the page but the board.
    scale = float(driver.find_element(By.ID, "board").get_attribute("data-scale"))
    driver.find_element(By.TAG_NAME, "body").send_keys("+")
    assert float(driver.find_element(By.ID, "board").get_attribute("data-scale")) > scale
