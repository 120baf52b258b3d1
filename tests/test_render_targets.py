"""Choosing on the board (issue 39): :func:`byzantium.render.targets.action_targets`
names, for the offered actions of both games, at least one element of the picture of
the player asked (so a web client can outline them and pick the action on a click), and
the actions that place, move, build or attack name something."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from byzantium.core.drivers import chance_policy, random_policy
from byzantium.core.registry import load_game
from byzantium.render import svg
from byzantium.render.targets import action_targets

#: The selectors action_targets writes: tag.class[data-x="value"] or tag[data-x="value"].
SELECTOR = re.compile(r'^(\w+)(?:\.([\w-]+))?\[(data-[\w-]+)="([^"]*)"\]$')


def _matches(root: ET.Element, selector: str) -> bool:
    parsed = SELECTOR.match(selector)
    assert parsed, f"an unexpected selector {selector!r}"
    tag, klass, attr, value = parsed.groups()
    for node in root.iter():
        if node.tag.rsplit("}", 1)[-1] != tag or node.get(attr) != value:
            continue
        if klass is None or klass in (node.get("class") or "").split():
            return True
    return False


def _decisions(game_id: str, seed: int, steps: int) -> list[tuple[Any, Any, int]]:
    game = load_game(game_id)
    state = game.initial_state()
    rng = random.Random(seed)
    found = []
    for _ in range(steps):
        if game.is_terminal(state):
            break
        if not game.is_chance_node(state):
            found.append((game, state, game.current_player(state)))
        policy = chance_policy if game.is_chance_node(state) else random_policy
        state = game.apply(state, policy(game, state, rng))
    return found


@pytest.mark.parametrize(("game_id", "seed"), [("sword-of-orthodoxy", 1), ("belisarius", 2)])
def test_every_target_is_an_element_of_the_seat_s_picture(game_id: str, seed: int) -> None:
    named = 0
    decisions = _decisions(game_id, seed, 300)
    for game, state, player in decisions[:: max(1, len(decisions) // 25)]:
        root = ET.fromstring(svg(game, state, player))
        for action in game.legal_actions(state):
            selectors = action_targets(game, state, action)
            if selectors:
                # A stack is drawn only where counters stand: one element named is enough.
                named += 1
                assert any(_matches(root, s) for s in selectors), (
                    game.describe_choice(state, action),
                    selectors,
                )
    assert named > 20


def test_placing_and_taking_name_their_hex_space_or_tile() -> None:
    [(game, state, _)] = _decisions("belisarius", 2, 1)
    place = game.legal_actions(state)[0]
    hex_number = game.encode_action(place)["where"]
    assert f'polygon[data-hex="{hex_number:04d}"]' in action_targets(game, state, place)
    sword = load_game("sword-of-orthodoxy")
    for game, state, _ in _decisions("sword-of-orthodoxy", 1, 60):
        for action in game.legal_actions(state):
            item = game.encode_action(action).get("item", "")
            if isinstance(item, str) and item.startswith("take outpost-"):
                tile = item.removeprefix("take ")
                assert action_targets(game, state, action) == (f'g.tile[data-tile="{tile}"]',)
                return
    pytest.fail(f"no outpost was offered to take in {sword.ID}")


def test_an_action_naming_nothing_drawn_has_no_target() -> None:
    for game, state, _ in _decisions("sword-of-orthodoxy", 1, 60):
        for action in game.legal_actions(state):
            if game.encode_action(action) == {"type": "Decline"}:
                assert action_targets(game, state, action) == ()
                return
    pytest.fail("no decline was offered")
