"""The record viewer's pictures are the pictures of their steps.

The viewer draws its Belisarius pictures from parts kept from the pictures before
(:class:`~byzantium.render.belisarius.Pieces`: stacks, labels, texts drawn once per
distinct input, labels kept up to the first one a changed box touches) and stores each
picture as its difference from the same seat's previous one. Both are ways of saving
time and room only: every picture the page rebuilds must be, byte for byte, the
picture drawn afresh for that step and seat; and a picture's difference must rebuild
it and be the one the simple tag-by-tag pass finds (the page's size depends on it).
"""

from __future__ import annotations

import bisect
import json
import re
from functools import cache

from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import BelAction
from byzantium.core.drivers import play, random_policy
from byzantium.core.records import GameRecord
from byzantium.core.registry import load_game
from byzantium.render import belisarius as bel
from byzantium.render.viewer import _difference, view_html

#: A random game long enough for stacks to move, merge and split, and control to change.
SEED, STEPS = 5, 400


@cache
def game_and_record() -> tuple[Belisarius, GameRecord[BelAction]]:
    game = load_game("belisarius")
    assert isinstance(game, Belisarius)
    return game, play(game, random_policy, seed=SEED, max_steps=STEPS)


def _payload(page: str) -> dict[str, object]:
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1).replace("<\\/", "</"))
    assert isinstance(data, dict)
    return data


def _rebuilt(data: dict[str, object]) -> list[str]:
    """Every picture of the page, rebuilt as the page's script rebuilds them."""
    parts = data["parts"]
    shapes = data["pictures"]
    assert isinstance(parts, list)
    assert isinstance(shapes, list)
    tags: list[list[int]] = []
    for shape in shapes:
        base = tags[shape[0]] if shape[0] >= 0 else []
        mine: list[int] = []
        for item in shape[1:]:
            if isinstance(item, int):
                mine.append(item)
            else:
                mine.extend(base[item[0] : item[0] + item[1]])
        tags.append(mine)
    return ["".join(parts[k] for k in picture) for picture in tags]


def test_every_picture_of_the_page_is_its_step_drawn_afresh() -> None:
    game, record = game_and_record()
    data = _payload(view_html(game, record))
    pictures = _rebuilt(data)
    steps = data["steps"]
    assert isinstance(steps, list)
    seats = [None, 0, 1]
    state = game.initial_state()
    compared = 0
    for number, action in enumerate([None, *record.actions]):
        if action is not None:
            state = game.step(state, action).state
        if number % 7:
            continue
        for k, seat in enumerate(seats):
            fresh = bel.draw(
                game,
                state,
                seat,
                highlight=set(),
                last_move=set(),
                reachable_for=None,
                zoc=False,
                with_map=False,
            )
            assert pictures[steps[number]["boards"][k]] == fresh, (number, seat)
            compared += 1
    assert compared > 100


def test_kept_parts_draw_every_step_as_a_fresh_drawing_does() -> None:
    """Pictures drawn one after another from one store of parts (each step's three
    views, as the viewer draws them) against the same pictures drawn each alone."""
    game, record = game_and_record()
    pieces = bel.Pieces()
    state = game.initial_state()
    changed_labels = 0
    last_labels = None
    for number, action in enumerate(record.actions[:240]):
        state = game.step(state, action).state
        for seat in (None, 0, 1):
            kept = bel.draw(
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
            if number % 4 == 0:
                fresh = bel.draw(
                    game,
                    state,
                    seat,
                    highlight=set(),
                    last_move=set(),
                    reachable_for=None,
                    zoc=False,
                    with_map=False,
                )
                assert kept == fresh, (number, seat)
        labels = pieces.last_labels
        if labels is not last_labels:
            changed_labels += 1
            last_labels = labels
    # The labels were placed again (wholly or in part) many times along the way.
    assert changed_labels > 20


def _simple_difference(base: list[int], mine: list[int], number: int) -> list[int | list[int]]:
    """The difference found tag by tag (as the viewer first did): a tag goes on the
    run before it when the base has it next, else starts a run at its first place in
    the base from the last run's start (else from the base's start), else stands alone."""
    places: dict[int, list[int]] = {}
    for k, tag in enumerate(base):
        places.setdefault(tag, []).append(k)
    shape: list[int | list[int]] = [number]
    start = count = 0
    for tag in mine:
        if count and start + count < len(base) and base[start + count] == tag:
            count += 1
            continue
        if count:
            shape.append([start, count])
            count = 0
        found = places.get(tag)
        if found is None:
            shape.append(tag)
            continue
        after = bisect.bisect_left(found, start)
        start, count = (found[after] if after < len(found) else found[0]), 1
    if count:
        shape.append([start, count])
    return shape


tag_lists = st.lists(st.integers(0, 12), max_size=120)


@given(tag_lists, tag_lists)
def test_a_difference_rebuilds_the_picture_and_is_the_tag_by_tag_one(
    base: list[int], mine: list[int]
) -> None:
    shape = _difference(base, mine, 7)
    assert shape == _simple_difference(base, mine, 7)
    rebuilt: list[int] = []
    for item in shape[1:]:
        if isinstance(item, int):
            rebuilt.append(item)
        else:
            rebuilt.extend(base[item[0] : item[0] + item[1]])
    assert rebuilt == mine


@given(tag_lists, st.lists(st.tuples(st.integers(0, 119), st.integers(0, 12)), max_size=6))
def test_a_picture_a_few_tags_from_its_base_is_a_few_runs(
    base: list[int], edits: list[tuple[int, int]]
) -> None:
    mine = list(base)
    for at, tag in edits:
        if at < len(mine):
            mine[at] = tag
    assert _difference(base, mine, 0) == _simple_difference(base, mine, 0)
