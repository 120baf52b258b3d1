"""The built-in ``sensible`` player of Belisarius (:mod:`byzantium.belisarius.policy`).

Its answers are always among the options offered and do not depend on the random
stream; over every decision met in seeded random games its rules of thumb hold
(never tax a Neutral Region, pay the Provisioning bill when it can, lose the weakest
counter, attack only at good odds and never Neutrals, cover empty Cities in the
set-up, no Orthodoxy in its own attempts); decisions it does not know get a safe
default; and the main job's Belisarius mode plays a whole scenario with it.
"""

from __future__ import annotations

import io
import random
from collections import Counter
from fractions import Fraction

import attrs
import pytest

from byzantium.belisarius.battle import Battle, LoseCounters
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.diplomacy import ORTHODOXY, TOLERANCE, DiplomacyAttempt
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.policy import SensiblePlayer
from byzantium.belisarius.recruiting import RegaliaReturn
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.sequence import PlayerTurn
from byzantium.belisarius.setup import Deploy
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    NOBODY,
    PLAYERS,
    BelAction,
    BelState,
    Done,
    Place,
    Request,
    RequestKind,
    Select,
)
from byzantium.belisarius.world import city_hexes, controller
from byzantium.cli import main
from byzantium.cli.common import policy_named
from tests.belisarius.support import (
    GAME,
    SCENARIOS,
    belisarius,
    blank_state,
    options,
    put,
    set_up_game,
    set_up_state,
    start,
    trail_of,
)
from tests.belisarius.test_operations import open_line

RULEBOOK = "belisarius"


def sensible(game: Belisarius, state: BelState, seed: int = 0) -> BelAction:
    return game.policies()["sensible"](game, state, random.Random(seed))


def asking(state: BelState, rule: str, prompt: str, *options: BelAction) -> BelState:
    """``state`` waiting for a decision the policy knows nothing about."""
    task = RegaliaReturn(EMPIRE)  # a step that never asks: no handler of its own
    request = Request(RequestKind.CHOOSE, rule, prompt, task, EMPIRE, options=options)
    return attrs.evolve(state, pending=request)


# -- what it may answer ---------------------------------------------------------------------


def test_the_game_and_the_command_line_offer_the_sensible_policy() -> None:
    game = belisarius()
    assert set(game.policies()) == {"sensible", "expert"}
    assert callable(policy_named(game, "sensible"))  # type: ignore[arg-type]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_over_random_games_every_answer_is_offered_and_follows_the_rules_of_thumb(
    scenario: int,
) -> None:
    game = belisarius(scenario)
    player = SensiblePlayer(game)
    cat = game.catalog
    _, trail = trail_of(scenario, 0)
    met: Counter[str] = Counter()
    for step, (state, actor, _, _) in enumerate(trail):
        if actor not in PLAYERS:
            continue
        request = state.pending
        assert request is not None
        choice = sensible(game, state)
        assert choice in game.legal_actions(state)
        if step % 10 == 0:
            assert sensible(game, state, seed=99) == choice  # the random stream is unused
        task, options = request.task, request.options
        if request.rule == "10.2":  # never tax a Neutral Region, never raise taxes
            met["taxes"] += 1
            assert choice == Done()
        elif request.rule == "20.2":  # pay when the treasury allows, else the weakest
            met["provisioning"] += 1
            if Done() in options:
                assert choice == Done()
            else:
                assert isinstance(choice, Select)
                worth = [
                    player.worth(cat.counter(o.item)) for o in options if isinstance(o, Select)
                ]
                assert player.worth(cat.counter(choice.item)) == min(worth)
        elif isinstance(task, LoseCounters) and len(options) > 1:
            met["losses"] += 1
            assert isinstance(choice, Select)
            worth = [
                player.worth(cat.counter(o.item.removeprefix("lose ")))
                for o in options
                if isinstance(o, Select)
            ]
            assert player.worth(cat.counter(choice.item.removeprefix("lose "))) == min(worth)
        elif isinstance(task, OperationsPhase) and request.rule == "16.1":
            met["moves"] += 1
            if isinstance(choice, Select) and choice.item.startswith("attack "):
                target = int(choice.item.removeprefix("attack "))
                defenders = state.units.at(target)
                assert all(controller(cat, state, u) != NOBODY for u in defenders)
        elif isinstance(task, DiplomacyAttempt) and isinstance(choice, Select):
            met["diplomacy"] += 1
            avoid = ORTHODOXY if request.player == task.attacker else TOLERANCE
            assert choice.item != avoid or set(options) == {Select(avoid)}
        elif isinstance(task, Deploy):
            met["set-up"] += 1
            unit = cat.counter(request.prompt.split(" ")[1])
            empty = [
                o.where
                for o in options
                if isinstance(o, Place)
                and o.where in set(city_hexes(cat, state))
                and not state.units.at(o.where)
            ]
            if empty and cat.counters[unit].kind is not UnitKind.LEADER:
                assert isinstance(choice, Place) and choice.where in empty
    assert met["taxes"] and met["provisioning"] and met["moves"] and met["set-up"]


def test_a_decision_it_does_not_know_gets_a_safe_default() -> None:
    game, state = set_up_game(), set_up_state()
    cat = game.catalog
    offer = asking(state, "24.1", "accept the agreement?", Select("accept"), Done())
    assert sensible(game, offer) == Done()
    refuse = asking(state, "24.2", "the offer", Select("accept offer"), Select("refuse offer"))
    assert sensible(game, refuse) == Select("refuse offer")
    ids = [
        next(c.id for c in cat.counters if c.kind is kind)
        for kind in (UnitKind.LEADER, UnitKind.FIELD_ARMY, UnitKind.GARRISON)
    ]
    loss = asking(state, "30.2", "eliminate a counter", *(Select(f"lose {i}") for i in ids))
    assert sensible(game, loss) == Select(f"lose {ids[2]}")
    other = asking(state, "99.9", "pick one", Select("north"), Select("south"))
    assert sensible(game, other) == Select("north")


@pytest.mark.parametrize("player", PLAYERS)
def test_it_never_capitulates(player: int) -> None:
    game = set_up_game()
    state = start(game, set_up_state(), PlayerTurn(player))
    assert state.pending is not None and state.pending.rule == "3.1"
    assert Select("capitulate") in state.pending.options
    assert sensible(game, state) == Done()


# -- combat ------------------------------------------------------------------------------------

CONTROL = {"Thracia": Control.EMPIRE, "Slavs": Control.BARBARIAN, "Gepidae": Control.NEUTRAL}


def battle_board(attackers: int, defender: str, kind: UnitKind, count: int) -> BelState:
    """``attackers`` Guard units at a, ``count`` of ``defender``'s ``kind`` next to it
    at b, on open ground."""
    a, b, _ = open_line()
    state = blank_state("operations", EMPIRE, control=CONTROL)
    state = put(state, "guard", UnitKind.GUARD, a, attackers)
    return put(state, defender, kind, b, count)


def moving(state: BelState) -> BelState:
    """The Guard force at a about to move with 10 points left."""
    a, _, _ = open_line()
    force = tuple(state.units.at(a))
    task = OperationsPhase(
        stage="move", force=force, where=a, points=Fraction(10), moved=False, rolled=True
    )
    return start(GAME, state, task)


def attack_options(state: BelState) -> list[BelAction]:
    return [o for o in options(state) if isinstance(o, Select) and "attack" in o.item]


def test_it_attacks_at_good_odds_only_and_never_neutrals() -> None:
    _, b, _ = open_line()
    strong = moving(battle_board(6, "slavs", UnitKind.WARBAND, 1))
    assert attack_options(strong)
    assert sensible(GAME, strong) == Select(f"attack {b}")
    weak = moving(battle_board(1, "slavs", UnitKind.WARBAND, 3))
    assert attack_options(weak)
    assert sensible(GAME, weak) != Select(f"attack {b}")
    neutral = moving(battle_board(6, "gepidae", UnitKind.WARBAND, 1))
    assert attack_options(neutral)
    assert sensible(GAME, neutral) != Select(f"attack {b}")


@pytest.mark.parametrize(
    ("attackers", "defenders", "answer"), [(1, 2, "stand"), (2, 2, "stand"), (8, 1, "withdraw")]
)
def test_a_defender_stands_unless_the_odds_are_crushing(
    attackers: int, defenders: int, answer: str
) -> None:
    a, b, _ = open_line()
    state = battle_board(attackers, "slavs", UnitKind.WARBAND, defenders)
    force = tuple(state.units.at(a))
    resume = OperationsPhase(stage="move", force=force, where=a, points=Fraction(10))
    state = start(GAME, state, Battle(force, a, b, Fraction(10), resume))
    assert state.pending is not None and state.pending.player == BARBARIAN
    assert state.pending.rule == "17.5"
    assert sensible(GAME, state) == Select(answer)


def test_combat_losses_take_the_weakest_counter_and_leaders_last() -> None:
    a, _, _ = open_line()
    state = blank_state("operations", EMPIRE, control=CONTROL)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    leader = next(c.index for c in GAME.catalog.counters if c.id == "belisarius")
    state = attrs.evolve(state, units=state.units.move(leader, a))
    units = tuple(state.units.at(a))
    state = start(GAME, state, LoseCounters(EMPIRE, units, 2))
    garrison = next(u for u in units if GAME.catalog.counters[u].kind is UnitKind.GARRISON)
    assert sensible(GAME, state) == Select(f"lose {GAME.catalog.counters[garrison].id}")


# -- the main job -----------------------------------------------------------------------------


def test_the_main_job_plays_a_whole_scenario_and_prints_its_chronicle() -> None:
    out = io.StringIO()
    assert main(["play", "belisarius", "--policy", "sensible", "--seed", "1"], out) == 0
    text = out.getvalue()
    assert "== Set-up ==" in text
    last = belisarius().scenario.last_turn
    for turn in range(1, last + 1):
        assert f"== Game turn {turn} " in text
    assert "Victory Points now: Empire" in text
    assert "Diplomacy Phase" in text and "Operations Phase" in text
    assert "[17.71] strength" in text  # battles are fought
    assert "capitulates" not in text
    assert "\nCause [23.3]:" in text and " VP (" in text


@pytest.mark.rule("17.51")
def test_each_side_rolls_off_with_its_unit_of_the_highest_operations_value() -> None:
    a, b, _ = open_line()
    state = blank_state("operations", EMPIRE, control=CONTROL)
    state = put(state, "thracia", UnitKind.GARRISON, a)
    state = put(state, "thracia", UnitKind.FIELD_ARMY, a)
    state = put(state, "slavs", UnitKind.WARBAND, b)
    state = put(state, "slavs", UnitKind.NOMAD_HORDE, b)
    cat = GAME.catalog
    force = tuple(state.units.at(a))
    resume = OperationsPhase(stage="move", force=force, where=a, points=Fraction(10))
    state = start(GAME, state, Battle(force, a, b, Fraction(10), resume))
    state = GAME.apply(state, Select("withdraw"))
    for player, kind in ((EMPIRE, UnitKind.FIELD_ARMY), (BARBARIAN, UnitKind.NOMAD_HORDE)):
        request = state.pending
        assert request is not None and request.rule == "17.51" and request.player == player
        pick = sensible(GAME, state)
        assert isinstance(pick, Select)
        assert cat.counters[cat.counter(pick.item.removeprefix("roll-off "))].kind is kind
        state = GAME.apply(state, pick)
    assert state.pending is not None and state.pending.kind is RequestKind.ROLL
