"""Menus built with warm caches are the menus built from nothing (a differential check).

The fast path keeps work from one state to the next: the enemy's Zones of Control of
the last state asked (land and Fleets' zones), reused while only counters that are not
the enemy's have moved (each board remembers which counters it moved,
:meth:`~byzantium.belisarius.state.Units.moved_since`), the controllers table, the
board's index by place, and tables per catalogue (set-up hexes, step costs, the
Assault price), and the facts of the moving force's steps kept while only its own
counters move (the places it may enter, stop in and attack from, its drop-offs).
Seeded random games are played on that path, and at every decision
the request the state holds (built incrementally) is compared with the request its
task asks again on a copy with no cache at all: a new board object and a second game
whose per-catalogue memories are emptied first. A cache that goes stale (a zone kept
after an enemy counter moved, say) makes some menu differ.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius import operations, world
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.engine import Context
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.naval import fleet_zoc
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    BelState,
    RequestKind,
    Units,
)
from byzantium.belisarius.world import enemy_zoc
from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.core.procedure import run_task
from tests.belisarius.support import CAT, blank_state, boards, put

RULEBOOK = "belisarius"

#: Every boolean option on but ``capitulation``.
ALL_ON = {
    spec.name: True
    for spec in Belisarius.OPTIONS
    if isinstance(spec.default, bool) and spec.name != "capitulation"
}

#: Decisions checked per game (each from scratch costs a full menu build).
DECISIONS = 600


def bare(state: BelState) -> BelState:
    """The same position on a new board object: no index by place, no memory of moves."""
    units = state.units
    return attrs.evolve(state, units=Units(units.where, units.mutiny, units.aboard))


def forget(game: Belisarius) -> None:
    """Empty ``game``'s per-catalogue memories of zones, controllers and the moving
    force's step facts."""
    world._last_zones(game.catalog).clear()
    world._last_controllers(game.catalog).clear()
    operations._last_force_steps(game.catalog).clear()


def asked_from_scratch(reference: Belisarius, state: BelState) -> object:
    """The request the pending task of ``state`` asks on a bare copy, with the memories
    of ``reference`` (another game, so that the played game's stay warm) emptied."""
    request = state.pending
    assert request is not None
    forget(reference)
    again = attrs.evolve(bare(state), pending=None)
    return run_task(Context(reference, None), again, request.task, None).pending


def first_stale_menu(scenario: int, options: dict[str, bool], seed: int) -> int | None:
    """Play a seeded random game on the fast path and give the number of the first
    decision whose request differs from the one asked from nothing (None if none of
    the first :data:`DECISIONS` does)."""
    played = Belisarius({"scenario": scenario, **options})
    reference = Belisarius({"scenario": scenario, **options})
    rng = random.Random(seed)
    state = played.initial_state()
    checked = 0
    while checked < DECISIONS:
        player = played.current_player(state)
        if player == TERMINAL:
            break
        request = state.pending
        assert request is not None
        if request.kind is RequestKind.CHOOSE:
            asked = asked_from_scratch(reference, state)
            # Equality of requests leaves the menu out: it is compared on its own.
            if asked != request or getattr(asked, "options", None) != request.options:
                return checked
            checked += 1
        if player == CHANCE:
            action = sample(played.chance_outcomes(state), rng)
        else:
            action = rng.choice(played.legal_actions(state))
        state = played.apply_unchecked(state, action)
    assert checked > 100
    return None


@pytest.mark.parametrize(
    ("scenario", "options", "seed"),
    [
        (1, {"capitulation": False}, 11),
        (2, {"capitulation": False}, 12),
        (3, {"capitulation": False}, 13),
        (1, ALL_ON, 14),
        (2, ALL_ON, 15),
        (3, ALL_ON, 16),
    ],
)
def test_every_menu_of_a_seeded_game_is_the_menu_built_from_nothing(
    scenario: int, options: dict[str, bool], seed: int
) -> None:
    assert first_stale_menu(scenario, options, seed) is None


def test_a_force_step_memory_kept_too_long_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above sees a stale memory of a force's step facts: kept for the same
    force and player whatever moved or changed since, some menu differs."""
    fresh = operations._force_steps

    def stale(
        ctx: Context, state: BelState, force: tuple[int, ...], player: int
    ) -> operations._ForceSteps:
        known = operations._last_force_steps(ctx.cat).get(0)
        if known is not None and known.force == force and known.player == player:
            return known
        return fresh(ctx, state, force, player)

    monkeypatch.setattr(operations, "_force_steps", stale)
    assert first_stale_menu(2, {"capitulation": False}, 12) is not None


def test_zones_of_every_state_of_a_seeded_game_are_zones_worked_out_afresh() -> None:
    """The zones kept from one state to the next (land units', everyone's, Fleets')
    against zones of a bare board in a game with no memory."""
    played = Belisarius({"scenario": 2, "capitulation": False})
    reference = Belisarius({"scenario": 2, "capitulation": False})
    rng = random.Random(5)
    state = played.initial_state()
    for _ in range(2500):
        player = played.current_player(state)
        if player == TERMINAL:
            break
        for side in (EMPIRE, BARBARIAN):
            warm = (
                enemy_zoc(played.catalog, state, side, naval=False),
                enemy_zoc(played.catalog, state, side),
                fleet_zoc(played.catalog, state, side),
            )
            forget(reference)
            cold = bare(state)
            assert warm == (
                enemy_zoc(reference.catalog, cold, side, naval=False),
                enemy_zoc(reference.catalog, cold, side),
                fleet_zoc(reference.catalog, cold, side),
            )
        if player == CHANCE:
            action = sample(played.chance_outcomes(state), rng)
        else:
            action = rng.choice(played.legal_actions(state))
        state = played.apply_unchecked(state, action)


@pytest.mark.rule("15.0", "15.11", "15.13", "15.12#2", "19.4")
@settings(max_examples=40)
@given(boards(), st.data())
def test_zones_after_forces_move_at_once_match_zones_worked_out_afresh(
    state: BelState, data: st.DataObject
) -> None:
    """Forces of either side moved with :meth:`Units.move_all` (the step of a force,
    which the board remembers) never leave a stale zone of any kind."""
    fresh_cat = Belisarius().catalog
    playing = sorted(state.units.in_play())
    hexes = {w for w in state.units.where if w >= FIRST_HEX}
    spots = sorted({*CAT.cities, *(h for w in hexes for h in CAT.map.neighbours(w))})
    player = data.draw(st.sampled_from((EMPIRE, BARBARIAN)))
    for _ in range(4):
        zones = (
            enemy_zoc(CAT, state, player, naval=False),
            enemy_zoc(CAT, state, player),
            fleet_zoc(CAT, state, player),
        )
        world._last_zones(fresh_cat).clear()
        cold = bare(state)
        assert zones == (
            enemy_zoc(fresh_cat, cold, player, naval=False),
            enemy_zoc(fresh_cat, cold, player),
            fleet_zoc(fresh_cat, cold, player),
        )
        if not playing:  # a drawn board may hold no counter: nothing to move
            break
        force = data.draw(st.lists(st.sampled_from(playing), min_size=1, max_size=4, unique=True))
        to = data.draw(st.sampled_from(spots))
        state = attrs.evolve(state, units=state.units.move_all(force, to))


def _city_between() -> tuple[int, int, int]:
    """A land City hex with two land neighbours that are not neighbours of each other,
    one of which projects a land unit's zone into the City (Scenario 1's map)."""
    for city_hex in CAT.cities:
        near = [h for h in CAT.map.neighbours(city_hex) if CAT.is_land(h)]
        for enemy_hex in near:
            if city_hex not in CAT.zoc_reach(enemy_hex, False):
                continue
            for own_hex in near:
                if own_hex != enemy_hex and own_hex not in CAT.map.neighbours(enemy_hex):
                    return city_hex, enemy_hex, own_hex
    raise AssertionError("no such City on the map")


@pytest.mark.rule("15.0", "15.11", "15.12#2")
def test_zones_kept_as_a_force_steps_into_and_out_of_a_city_follow_the_city() -> None:
    """The player's own force stepping into a City the enemy's zone reaches lifts the
    zone there (15.12#2) and stepping out brings it back: the zones kept from step to
    step (the enemy's projection, and the Cities' exception only where a counter came
    or went) are those worked out afresh at every step."""
    city_hex, enemy_hex, own_hex = _city_between()
    control = {"Persia": Control.BARBARIAN, "Thracia": Control.EMPIRE}
    state = blank_state("operations", EMPIRE, control=control)
    state = put(state, "persia", UnitKind.GARRISON, enemy_hex)
    state = put(state, "thracia", UnitKind.GARRISON, own_hex)
    force = state.units.at(own_hex)
    fresh_cat = Belisarius().catalog
    seen = []
    for to in (own_hex, city_hex, own_hex, city_hex):
        state = attrs.evolve(state, units=state.units.move_all(force, to))
        kept = enemy_zoc(CAT, state, EMPIRE, naval=False)
        world._last_zones(fresh_cat).clear()
        assert kept == enemy_zoc(fresh_cat, bare(state), EMPIRE, naval=False)
        seen.append(city_hex in kept)
    assert seen == [True, False, True, False]
