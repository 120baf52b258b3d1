"""Text per reader (22.1): what a seated player reads tells nothing the rules hide from him.

Every text a seat reads is made from what that seat may know: the chronicle's
heading (:meth:`~byzantium.core.game.Game.chronicle_heading`), each action as he may
see it (:meth:`~byzantium.core.game.Game.describe_step`) and each event in the form
he may read (:meth:`~byzantium.core.game.Game.event_text`). An event that tells one
player's secret (his treasury after Taxation, what Corruption took from it) has that
player as its owner and a public form for the other.

The property, fog-of-war twins: through whole random games of every scenario, with
the optional rules all off and all on, take a state, give the observer's opponent
another hand of as many markers and a richer treasury (the twin of
:mod:`tests.belisarius.test_fog_of_war`), play the same public actions on both, and
the observer reads the very same text at every step.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.events import CorruptionEvent
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import BARBARIAN, EMPIRE, BelAction, BelState, Roll, opponent
from byzantium.belisarius.taxation import TaxationPhase
from byzantium.core.game import Event
from tests.belisarius.support import CAT, GAME, SCENARIOS, blank_state, drive, put, start
from tests.belisarius.test_fog_of_war import (
    OPTION_SETS,
    SEEDS,
    Step,
    game_of,
    played,
    redeal,
    starts,
    twin_move,
)
from tests.belisarius.test_observation import reask

RULEBOOK = "belisarius"


def reader_text(
    game: Belisarius, state: BelState, action: BelAction, events: Sequence[Event], reader: int
) -> list[str]:
    """Everything ``reader`` reads of one step: heading, action, events."""
    lines = [game.chronicle_heading(state, reader), game.describe_step(state, action, reader)]
    lines += [t for t in (game.event_text(e, reader) for e in events) if t is not None]
    return lines


def follow_text(  # noqa: PLR0917 - the game, the twin's start and the observer
    game: Belisarius,
    steps: tuple[Step, ...],
    final: BelState,
    begin: int,
    observer: int,
    rng: random.Random,
) -> tuple[int, set[str]]:
    """Play the twin from ``begin`` beside the game and compare what the observer reads
    of each step; returns how many steps were compared and the rules of the events
    the opponent owned in them (to show that the comparison met them)."""
    twin = redeal(steps, final, begin, observer, rng)
    if twin.pending is not None:
        twin = reask(game, twin)
    compared = 0
    owned: set[str] = set()
    for state, action in steps[begin:]:
        if state.revealed[observer] or twin.revealed[observer]:
            break  # the observer may now examine the other's secrets (22.1)
        answer = twin_move(game, state, twin, action, observer)
        if answer is None:
            break
        step, twin_step = game.step(state, action), game.step(twin, answer)
        assert reader_text(game, twin, answer, twin_step.events, observer) == (
            reader_text(game, state, action, step.events, observer)
        )
        owned |= {e.rule for e in step.events if e.owner == opponent(observer)}
        compared += 1
        twin = twin_step.state
    return compared, owned


@pytest.mark.rule("22.1", "10.11", "6.2", "24.0", game="belisarius")
@pytest.mark.parametrize("optional", sorted(OPTION_SETS))
@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_fog_of_war_twins_read_the_same_text(
    scenario: int, optional: str, data: st.DataObject
) -> None:
    game = game_of(scenario, optional)
    seed = data.draw(st.sampled_from(SEEDS), label="seed")
    steps, final = played(scenario, optional, seed)
    observer = data.draw(st.sampled_from((EMPIRE, BARBARIAN)), label="observer")
    begin = data.draw(st.sampled_from(starts(steps, observer)), label="start")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="deal"))
    follow_text(game, steps, final, begin, observer, rng)


@pytest.mark.rule("22.1", "10.11", game="belisarius")
@pytest.mark.parametrize("optional", sorted(OPTION_SETS))
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_twins_read_the_same_text_through_taxations(scenario: int, optional: str) -> None:
    """Not vacuous: the twins follow each other across the other side's Taxation Phases,
    whose treasury the old chronicle printed for everybody."""
    game = game_of(scenario, optional)
    steps, final = played(scenario, optional, 1)  # seed 0 with options on may end early
    rng = random.Random(scenario)
    for observer in (EMPIRE, BARBARIAN):
        candidates = starts(steps, observer)
        owned: set[str] = set()
        longest = 0
        for begin in candidates[:: max(1, len(candidates) // 12)]:
            compared, rules = follow_text(game, steps, final, begin, observer, rng)
            owned |= rules
            longest = max(longest, compared)
            if "10.11" in owned and longest >= 100:
                break
        assert "10.11" in owned
        assert longest >= 100


# -- the two events that told a treasury -------------------------------------------------


@pytest.mark.rule("10.11", "22.1", game="belisarius")
def test_the_taxation_text_shows_the_treasury_to_its_owner_only() -> None:
    state = blank_state("taxation", control={"Thracia": Control.EMPIRE})
    state = put(state, "thracia", UnitKind.GARRISON, CAT.capital)
    state = attrs.evolve(state, solidus=(29, 7))
    after, events, _ = drive(state, TaxationPhase())
    assert after.solidus == (33, 7)  # Constantinopolis pays 4 (10.11)
    (tax,) = [e for e in events if e.rule == "10.11"]
    assert (
        GAME.event_text(tax, EMPIRE) == "[10.11] the Empire collects 4 Solidus Points (treasury 33)"
    )
    assert GAME.event_text(tax, None) == GAME.event_text(tax, EMPIRE)
    seen = GAME.event_text(tax, BARBARIAN)
    assert seen == "[10.11] the Empire collects 4 Solidus Points"
    assert "33" not in seen and "treasury" not in seen


@pytest.mark.rule("6.2", "22.1", game="belisarius")
@pytest.mark.parametrize(("treasury", "die"), [(2, 5), (0, 3), (9, 4)])
def test_the_corruption_text_shows_the_loss_to_its_owner_only(treasury: int, die: int) -> None:
    def corruption(solidus: int) -> tuple[BelState, Event]:
        state = attrs.evolve(blank_state("events", BARBARIAN), solidus=(11, solidus))
        step = GAME.step(start(GAME, state, CorruptionEvent()), Roll((die,)))
        (lost,) = [e for e in step.events if e.rule == "6.2"]
        return step.state, lost

    after, lost = corruption(treasury)
    paid = min(die, treasury)
    assert after.solidus == (11, treasury - paid)
    mine = GAME.event_text(lost, BARBARIAN)
    assert mine == f"[6.2] Corruption costs the Barbarian {paid} Solidus Points"
    theirs = GAME.event_text(lost, EMPIRE)
    assert theirs == f"[6.2] Corruption costs the Barbarian up to {die} Solidus Points"
    # The same die on a treasury that pays all of it reads the same to the Empire.
    _, twin = corruption(30)
    assert GAME.event_text(twin, EMPIRE) == theirs
    assert GAME.event_text(twin, BARBARIAN) != mine or paid == die


@pytest.mark.rule("22.1", "10.11", game="belisarius")
def test_the_chronicle_heading_hides_the_other_treasury() -> None:
    game = game_of(1, "off")
    steps, _ = played(1, "off", 0)
    state = next(s for s, _ in steps if s.turn >= 1 and not any(s.revealed))
    everything = game.chronicle_heading(state)
    assert f"Empire {state.solidus[EMPIRE]}, Barbarian {state.solidus[BARBARIAN]}" in everything
    empire = game.chronicle_heading(state, EMPIRE)
    assert f"treasuries: Empire {state.solidus[EMPIRE]}, Barbarian hidden" in empire
    barbarian = game.chronicle_heading(state, BARBARIAN)
    assert f"treasuries: Empire hidden, Barbarian {state.solidus[BARBARIAN]}" in barbarian
