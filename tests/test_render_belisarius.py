"""The Belisarius picture a player reads without hovering (issue 37, deliverable 1):
counters drawn as counters (nationality colour, side rim, unit-type symbol, printed
factors, Leaders named), a stack as its top counter with a count and a hidden list
of all its counters, a title in words, no component id and no chronicle markup in
any text, the legend inside the picture. Where labels land is measured in Chromium
(tests/test_render_layout_browser.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import AVAILABLE, FIRST_HEX, BelState
from byzantium.core.registry import load_game
from byzantium.render import after_setup, svg
from byzantium.render._text import text_width
from tests.test_render import _walk

NS = "{http://www.w3.org/2000/svg}"


def _game(scenario: int) -> Belisarius:
    game = load_game("belisarius", scenario=scenario)
    assert isinstance(game, Belisarius)
    return game


def _places(state: BelState) -> dict[str, list[int]]:
    places: dict[str, list[int]] = {}
    for unit, at in enumerate(state.units.where):
        if at > AVAILABLE:
            label = f"{at:04d}" if at >= FIRST_HEX else f"box {at}"
            places.setdefault(label, []).append(unit)
    return places


def _texts(node: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in node.iter(f"{NS}text")]


def _check_counter(game: Belisarius, counter: ET.Element) -> None:
    """A counter: a frame filled in a colour with a side rim, a type symbol (a
    Leader: his name and stars), the printed factors."""
    unit = next(c for c in game.catalog.counters if c.id == counter.get("data-counter"))
    frame = counter.find(f"{NS}rect")
    assert frame is not None and frame.get("fill") and frame.get("stroke")
    words = _texts(counter)
    assert f"{unit.combat}-{unit.operations}-{unit.provisioning}" in words
    if unit.leader:
        assert unit.leader.replace("-", " ").title() in words
        assert "\u2605" * unit.stars in words
    else:
        shapes = [c for c in counter if c.tag != f"{NS}text"][1:]
        assert shapes, f"{unit.id} has no symbol"
        assert unit.nationality[:3].title() in words


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_stacks_show_their_top_counter_a_count_and_a_hidden_list(scenario: int) -> None:
    game = _game(scenario)
    ids = [c.id for c in game.catalog.counters]
    for state in [after_setup(game), *_walk(game, scenario, 150)[::50]]:
        root = ET.fromstring(svg(game, state))
        places = _places(state)
        stacks = {g.get("data-where"): g for g in root.iter(f"{NS}g") if g.get("class") == "stack"}
        opened = {
            g.get("data-where"): g for g in root.iter(f"{NS}g") if g.get("class") == "stack-open"
        }
        on_map = {k: v for k, v in places.items() if not k.startswith("box")}
        assert set(stacks) == set(on_map)
        for where, units in on_map.items():
            stack = stacks[where]
            assert stack.get("data-count") == str(len(units))
            listed = (stack.get("data-counters") or "").split()
            assert sorted(listed) == sorted(ids[u] for u in units)
            shown = [c for c in stack.iter(f"{NS}g") if c.get("class") == "counter"]
            assert len(shown) == 1, "a stack shows its top counter only"
            assert shown[0].get("data-counter") == listed[0]
            _check_counter(game, shown[0])
            if len(units) == 1:
                assert where not in opened
                continue
            counts = [t.text for t in stack.iter(f"{NS}text") if t.get("class") == "count"]
            assert counts == [str(len(units))]
            panel = opened[where]
            assert panel.get("display") == "none"
            inside = [c for c in panel.iter(f"{NS}g") if c.get("class") == "counter"]
            assert [c.get("data-counter") for c in inside] == listed
            for counter in inside:
                _check_counter(game, counter)


def test_every_counter_in_a_peripheral_box_is_drawn_as_a_counter() -> None:
    game = _game(1)
    state = after_setup(game)
    root = ET.fromstring(svg(game, state))
    boxed = [
        c
        for c in root.iter(f"{NS}g")
        if c.get("class") == "counter" and (c.get("data-where") or "").startswith("box")
    ]
    expected = sum(len(v) for k, v in _places(state).items() if k.startswith("box"))
    assert expected > 0 and len(boxed) == expected
    for counter in boxed:
        _check_counter(game, counter)


ID_LIKE = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)+\b")


@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_no_text_shows_an_id_or_chronicle_markup(scenario: int) -> None:
    game = _game(scenario)
    cat = game.catalog
    ids = {c.id for c in cat.counters} | set(cat.stratagem_ids)
    for state in [game.initial_state(), after_setup(game), *_walk(game, scenario, 200)[::40]]:
        for seat in (None, 0, 1):
            root = ET.fromstring(svg(game, state, seat))
            for words in _texts(root):
                assert "==" not in words, words
                assert not (set(ID_LIKE.findall(words)) & ids), words


def test_the_title_is_in_words() -> None:
    game = _game(2)
    state = after_setup(game)
    root = ET.fromstring(svg(game, state, 1))
    titles = [t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == "title"]
    assert len(titles) == 1
    title = titles[0]
    assert title.startswith(f"Belisarius, scenario 2 ({game.scenario.name}): Game Turn ")
    assert "AD" in title and "player's turn" in title and "phase" in title
    seat = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "seat"]
    assert seat == ["As the Barbarian player sees it"]
    setup = ET.fromstring(svg(game, game.initial_state()))
    assert any((t.text or "").endswith(": set-up") for t in setup.iter(f"{NS}text"))


@pytest.mark.parametrize("scenario", [1, 3])
def test_every_text_lies_inside_the_picture(scenario: int) -> None:
    """By the font's widths (the browser test measures the real boxes): nothing,
    the legend included, runs past the right edge or the bottom."""
    game = _game(scenario)
    root = ET.fromstring(svg(game, after_setup(game), 0))
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"
    legend = [g for g in root.iter(f"{NS}g") if g.get("class") == "legend"]
    assert len(legend) == 1 and len(_texts(legend[0])) > 10
    for t in root.iter(f"{NS}text"):
        if t.get("x") is None:
            continue
        x, y = float(t.get("x") or 0), float(t.get("y") or 0)
        size = float(t.get("font-size") or 10)
        w = text_width("".join(t.itertext()), size, bold=t.get("font-weight") == "bold")
        left = {"middle": x - w / 2, "end": x - w}.get(t.get("text-anchor") or "", x)
        assert left >= 0 and left + w <= width, "".join(t.itertext())
        assert y <= height
