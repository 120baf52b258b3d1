"""The Diplomacy Phase (9.0-9.5, 7.1, 4.41, 4.6, 12.22, 12.32, 22.1)."""

from __future__ import annotations

import itertools
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.components import DiplomacyOutcome
from byzantium.belisarius.diplomacy import (
    ATTACK,
    DEFENCE,
    HIDDEN,
    ROLL,
    ROMAN_WORLD,
    DiplomacyAttempt,
    DiplomacyPhase,
    committable,
    conceal,
    differential,
    diplomacy_modifier,
    diplomacy_outcome,
    diplomacy_row,
    hidden_commitments,
    marker_value,
    resolve,
    target_options,
)
from byzantium.belisarius.engine import push, settle
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.sequence import EndOfGameTurn
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelAction,
    BelState,
    Done,
    Roll,
    Select,
)
from byzantium.belisarius.stratagems import LoseStratagems
from byzantium.belisarius.world import city_hexes, region_controller
from byzantium.core.game import Event
from tests.belisarius.support import (
    CAT,
    CTX,
    GAME,
    blank_state,
    context,
    give,
    move,
    options,
    with_control,
)

RULEBOOK = "belisarius"
COMPONENTS = CAT.components
DIPLOMATIC = tuple(s.id for s in COMPONENTS.stratagems if s.diplomacy > 0)
#: Every marker of the mix (and every Diplomacy marker), one entry per physical marker.
MIX = tuple(s.id for s in COMPONENTS.stratagems for _ in range(s.count))
DIPLOMATIC_MIX = tuple(m for m in MIX if m in DIPLOMATIC)
OTHER_MARKERS = tuple(s.id for s in COMPONENTS.stratagems if s.diplomacy == 0)
GUARDS = [c.index for c in CAT.counters if c.guard and c.index != CAT.justinian]
HEX_A = 5624  # Constantinopolis
HEX_B = 4826  # Thessalonica


# -- helpers ----------------------------------------------------------------------------


def board(phasing: int = EMPIRE) -> BelState:
    """Scenario 1's control and Pool, no counter on the map, nothing scheduled."""
    return blank_state("diplomacy", phasing)


def put(state: BelState, units: list[int], where: int, mutinying: bool = False) -> BelState:
    state = move(state, units, where)
    return attrs.evolve(state, units=state.units.flip(units, True)) if mutinying else state


def start(state: BelState, *tasks: object, events: list[Event] | None = None) -> BelState:
    return settle(context(GAME, events), push(state, *tasks))


def answer(state: BelState, *actions: BelAction) -> BelState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def region_attempt(
    attacker: int,
    region: str,
    attack: tuple[str, ...] = (),
    defence: tuple[str, ...] = (),
    stage: str = ATTACK,
) -> DiplomacyAttempt:
    return DiplomacyAttempt(
        attacker, region=CAT.region(region), attack=attack, defence=defence, stage=stage
    )


def roll_for(outcome: DiplomacyOutcome) -> tuple[int, int]:
    """A modified differential and a die face that give ``outcome`` on the table."""
    for row in COMPONENTS.diplomacy:
        for face, result in enumerate(row.results, start=1):
            if result is outcome:
                diff = row.high if row.high < 50 else row.low
                return diff, face
    pytest.skip(f"the Diplomacy Table has no {outcome.value} result")


def finish(state: BelState, attempt: DiplomacyAttempt, outcome: DiplomacyOutcome) -> BelState:
    """Run an attempt's die roll so that the table gives ``outcome``."""
    diff, face = roll_for(outcome)
    state = start(state, attrs.evolve(attempt, stage=ROLL, differential=diff))
    assert state.pending is not None and state.pending.rule == "9.1"
    return answer(state, Roll((face,)))


def totals(state: BelState) -> tuple[int, ...]:
    stock = state.stratagems
    return tuple(p + a + b for p, a, b in zip(stock.pool, *stock.hands, strict=True))


def modifier_value(keyword: str) -> int:
    return sum(m.value for m in COMPONENTS.modifiers_of("diplomacy") if keyword in m.name.lower())


# -- the phase and its targets ----------------------------------------------------------------


@pytest.mark.rule("9.0", "9.3", "22.1")
def test_no_diplomacy_marker_no_attempt() -> None:
    state = give(board(), EMPIRE, *OTHER_MARKERS[:3])
    after = start(state, DiplomacyPhase())
    # The player is still asked (22.1: the question must not show his hand), but he
    # may only end the phase.
    assert after.pending is not None and after.pending.options == (Done(),)
    after = answer(after, Done())
    assert after.pending is None
    assert after.stratagems == state.stratagems


@pytest.mark.rule("9.1", "9.3", "18.0#2")
def test_targets_are_neutral_and_enemy_regions_only() -> None:
    state = give(board(), EMPIRE, "agent")
    state = start(state, DiplomacyPhase())
    offered = options(state)
    assert offered[0] == Done()
    names = {a.item.removeprefix("region ") for a in offered if isinstance(a, Select)}
    for index, region in enumerate(CAT.regions):
        assert (region.name in names) == (region_controller(state, index) != EMPIRE)
    # Peripheral Area boxes are part of their Region, never targets of their own.
    assert not any(isinstance(a, Select) and a.item.startswith("guard") for a in offered)


@pytest.mark.rule("12.22", "12.32")
def test_guard_targets_by_side() -> None:
    state = put(board(), GUARDS[:2], HEX_A)
    state = put(state, GUARDS[2:4], HEX_B, mutinying=True)
    empire = {a.item for a in target_options(CTX, state, EMPIRE)}
    barbarian = {a.item for a in target_options(CTX, state, BARBARIAN)}
    assert f"guard {HEX_B}" in empire and f"guard {HEX_A}" not in empire
    assert f"guard {HEX_A}" in barbarian and f"guard {HEX_B}" not in barbarian


@pytest.mark.rule("9.3")
def test_attempts_repeat_on_the_same_region() -> None:
    state = give(board(), EMPIRE, "agent", "agent")
    state = start(state, DiplomacyPhase())
    for _ in range(2):
        state = answer(state, Select("region Vandals"), Select("agent"), Done(), Done())
        assert state.pending is not None and state.pending.dice == 1
        state = answer(state, Roll((3,)))
        while state.pending is not None and state.pending.player != EMPIRE:
            state = answer(state, GAME.chance_outcomes(state)[0][0])
        assert state.pending is None or state.pending.rule == "9.1"
    assert state.pending is None  # out of markers: the phase is over
    assert sum(state.stratagems.hands[EMPIRE]) == 0


# -- committing ---------------------------------------------------------------------------


@pytest.mark.rule("9.0", "9.1")
def test_attacker_commits_at_least_one_marker() -> None:
    state = give(board(), EMPIRE, "agent", "basileus", "forced-march")
    state = start(state, DiplomacyPhase())
    state = answer(state, Select("region Vandals"))
    first = options(state)
    assert Done() not in first
    assert set(first) == {Select("agent"), Select("basileus")}
    state = answer(state, Select("basileus"))
    assert options(state) == (Done(), Select("agent"))
    state = answer(state, Select("agent"))
    assert options(state) == (Done(),)
    # The markers stay in the hand, face down, until the reveal.
    assert state.stratagems.hands[EMPIRE][CAT.stratagem("basileus")] == 1


@pytest.mark.rule("9.5")
@pytest.mark.parametrize(
    ("first", "barred"), [("orthodoxy", "tolerance"), ("tolerance", "orthodoxy")]
)
@pytest.mark.parametrize("player", [EMPIRE, BARBARIAN])
def test_orthodoxy_and_tolerance_never_together(first: str, barred: str, player: int) -> None:
    state = give(board(), player, "orthodoxy", "tolerance", "agent")
    assert barred in committable(CTX, state, player, ())
    left = committable(CTX, state, player, (first,))
    assert barred not in left and "agent" in left


@pytest.mark.rule("9.5")
@given(st.lists(st.sampled_from(DIPLOMATIC), max_size=8))
def test_committable_never_mixes_religions(committed: list[str]) -> None:
    state = give(board(), EMPIRE, *DIPLOMATIC, *DIPLOMATIC)
    offer = committable(CTX, state, EMPIRE, committed)
    if "orthodoxy" in committed:
        assert "tolerance" not in offer
    if "tolerance" in committed:
        assert "orthodoxy" not in offer
    hand = state.stratagems.hands[EMPIRE]
    for marker in offer:
        assert hand[CAT.stratagem(marker)] > committed.count(marker)


@pytest.mark.rule("9.1", "9.4")
@given(st.data())
def test_defender_options_ignore_the_attackers_markers(data: st.DataObject) -> None:
    mix = data.draw(st.permutations(DIPLOMATIC_MIX))
    split = data.draw(st.integers(1, 6))
    attacker_hand = mix[:split]
    defender_hand = mix[split : split + data.draw(st.integers(0, 4))]
    state = give(board(), EMPIRE, *attacker_hand)
    state = give(state, BARBARIAN, *defender_hand)
    size = data.draw(st.integers(1, len(attacker_hand)))
    one = tuple(data.draw(st.permutations(attacker_hand))[:size])
    other = tuple(data.draw(st.permutations(attacker_hand))[:size])
    target = data.draw(st.sampled_from(["Vandals", "Persia", "Thracia"]))
    asked = [
        start(state, region_attempt(EMPIRE, target, attack=attack, stage=DEFENCE)).pending
        for attack in (one, other)
    ]
    assert asked[0] is not None and asked[1] is not None
    assert asked[0].player == BARBARIAN
    assert asked[0].options == asked[1].options
    assert asked[0].prompt == asked[1].prompt
    assert asked[0].options[0] == Done()


@pytest.mark.rule("9.4")
def test_defender_is_asked_even_with_an_empty_hand() -> None:
    state = give(board(), EMPIRE, "agent")
    state = start(state, DiplomacyPhase())
    state = answer(state, Select("region Vandals"), Select("agent"), Done())
    assert state.pending is not None and state.pending.player == BARBARIAN
    assert options(state) == (Done(),)


@pytest.mark.rule("9.4")
def test_defender_may_use_any_diplomacy_marker() -> None:
    state = give(board(), BARBARIAN, "basileus", "green-faction", "forced-march")
    offer = committable(CTX, state, BARBARIAN, ())
    assert set(offer) == {"basileus", "green-faction"}


# -- hidden commitments -----------------------------------------------------------------------


@pytest.mark.rule("9.1")
def test_commitments_hidden_until_the_reveal() -> None:
    attempt = region_attempt(EMPIRE, "Vandals", attack=("agent", "basileus"))
    assert hidden_commitments(attempt) == ((EMPIRE, ("agent", "basileus")),)
    seen = conceal(attempt, BARBARIAN)
    assert isinstance(seen, DiplomacyAttempt)
    assert seen.attack == (HIDDEN, HIDDEN)
    assert conceal(attempt, EMPIRE) == attempt
    defending = attrs.evolve(attempt, stage=DEFENCE, defence=("agent",))
    assert hidden_commitments(defending) == (
        (EMPIRE, ("agent", "basileus")),
        (BARBARIAN, ("agent",)),
    )
    seen = conceal(defending, EMPIRE)
    assert isinstance(seen, DiplomacyAttempt)
    assert seen.attack == ("agent", "basileus") and seen.defence == (HIDDEN,)
    spectator = conceal(defending, NOBODY)
    assert isinstance(spectator, DiplomacyAttempt)
    assert HIDDEN in spectator.attack and HIDDEN in spectator.defence
    assert hidden_commitments(attrs.evolve(defending, stage=ROLL)) == ()
    assert hidden_commitments(DiplomacyPhase()) == ()


@pytest.mark.rule("9.1")
def test_commit_events_do_not_name_the_marker() -> None:
    state = give(board(), EMPIRE, "basileus")
    state = start(state, DiplomacyPhase())
    state = answer(state, Select("region Vandals"))
    step = GAME.step(state, Select("basileus"))
    assert step.events
    assert all("basileus" not in e.text.lower() for e in step.events)


# -- values, modifiers, differential ---------------------------------------------------------


@pytest.mark.rule("9.0")
def test_printed_values() -> None:
    attempt = region_attempt(EMPIRE, "Vandals")
    state = board()
    assert marker_value(CTX, state, attempt, "agent") == 1
    assert marker_value(CTX, state, attempt, "basileus") == 3
    for marker in ("orthodoxy", "tolerance"):
        assert marker_value(CTX, state, attempt, marker) == COMPONENTS.stratagem(marker).diplomacy


@pytest.mark.rule("9.0", "9.4")
@pytest.mark.parametrize(
    ("owner", "blue", "green"),
    [(EMPIRE, 2, 2), (NOBODY, 0, 0), (BARBARIAN, 0, 0)],
)
def test_faction_values_for_regions(owner: int, blue: int, green: int) -> None:
    state = with_control(GAME, board(), "Achaea", owner)
    for attacker in (EMPIRE, BARBARIAN):
        attempt = region_attempt(attacker, "Achaea")
        assert marker_value(CTX, state, attempt, "blue-faction") == blue
        assert marker_value(CTX, state, attempt, "green-faction") == green


@pytest.mark.rule("9.0", "12.22", "12.32")
def test_faction_values_for_guard_stacks() -> None:
    state = put(board(), GUARDS[:2], HEX_A)
    attempt = DiplomacyAttempt(BARBARIAN, stack=HEX_A)
    assert marker_value(CTX, state, attempt, "blue-faction") == 2
    assert marker_value(CTX, state, attempt, "green-faction") == 0


@pytest.mark.rule("9.1", "9.4")
def test_differential_arithmetic() -> None:
    state = board()  # Slavs are Neutral and never were Roman: no modifier
    assert region_controller(state, CAT.region("Slavs")) == NOBODY
    attempt = region_attempt(EMPIRE, "Slavs", attack=("agent", "basileus"), defence=("agent",))
    assert diplomacy_modifier(CTX, state, attempt) == 0
    assert differential(CTX, state, attempt) == 1 + 3 - 1


@pytest.mark.rule("7.1")
def test_roman_world_modifier() -> None:
    assert {r.name for r in CAT.regions} >= ROMAN_WORLD
    state = board()
    bonus = modifier_value("roman")
    assert bonus > 0
    roman = region_attempt(EMPIRE, "Vandals", attack=("agent",))
    assert differential(CTX, state, roman) == 1 + bonus
    barbarian = region_attempt(BARBARIAN, "Vandals", attack=("agent",))
    assert differential(CTX, state, barbarian) == 1
    persia = region_attempt(EMPIRE, "Persia", attack=("agent",))
    assert "Persia" not in ROMAN_WORLD
    assert differential(CTX, state, persia) == 1


@pytest.mark.rule("9.3")
def test_occupying_every_city_modifier() -> None:
    region = CAT.region("Gepidae")
    cities = [h for h in city_hexes(CAT, board()) if CAT.region_of(h) == region]
    assert cities
    empire_units = [c.index for c in CAT.counters if c.nationality == "thracia"]
    state = board()
    attempt = DiplomacyAttempt(BARBARIAN, region=region, attack=("agent",))
    before = differential(CTX, state, attempt)
    for hex_, unit in zip(cities, empire_units, strict=False):
        state = put(state, [unit], hex_)
    empire = attrs.evolve(attempt, attacker=EMPIRE)
    occupation = modifier_value("occup")
    assert differential(CTX, state, empire) == 1 + occupation + modifier_value("roman")
    # The Barbarian occupies nothing there: no change for him.
    assert differential(CTX, state, attempt) == before


@pytest.mark.rule("12.22", "12.32")
def test_guard_modifiers() -> None:
    state = put(board(), GUARDS[:1], HEX_A)
    state = put(state, GUARDS[1:2], HEX_B, mutinying=True)
    mutiny = DiplomacyAttempt(BARBARIAN, stack=HEX_A, attack=("agent",))
    restore = DiplomacyAttempt(EMPIRE, stack=HEX_B, attack=("agent",))
    assert differential(CTX, state, mutiny) == 1 + modifier_value("loyal guard")
    assert differential(CTX, state, restore) == 1 + modifier_value("mutinying guard")
    # 12.32's note: restoring loyalty is the likelier of the two.
    assert diplomacy_modifier(CTX, state, restore) > diplomacy_modifier(CTX, state, mutiny)


TARGETS = st.sampled_from([r.name for r in CAT.regions])
OWNERS = st.sampled_from([EMPIRE, BARBARIAN, NOBODY])


@pytest.mark.rule("9.1", "9.4")
@given(
    st.tuples(TARGETS, OWNERS, st.sampled_from([EMPIRE, BARBARIAN]), st.booleans()),
    st.lists(st.sampled_from(DIPLOMATIC), max_size=5),
    st.lists(st.sampled_from(DIPLOMATIC), max_size=5),
)
def test_an_extra_agent_never_lowers_the_column(
    setting: tuple[str, int, int, bool], attack: list[str], defence: list[str]
) -> None:
    target, owner, attacker, guard = setting
    state = with_control(GAME, board(), target, owner)
    state = put(state, GUARDS[:2], HEX_A, mutinying=attacker == EMPIRE)
    attempt = (
        DiplomacyAttempt(attacker, stack=HEX_A, attack=tuple(attack), defence=tuple(defence))
        if guard
        else region_attempt(attacker, target, attack=tuple(attack), defence=tuple(defence))
    )
    more = attrs.evolve(attempt, attack=(*attempt.attack, "agent"))
    less = differential(CTX, state, attempt)
    assert differential(CTX, state, more) == less + 1
    assert diplomacy_row(CTX, differential(CTX, state, more)) >= diplomacy_row(CTX, less)
    # A defending Agent works the other way.
    defended = attrs.evolve(attempt, defence=(*attempt.defence, "agent"))
    assert differential(CTX, state, defended) == less - 1


@pytest.mark.rule("9.1")
def test_table_columns_are_ordered_and_cover_everything() -> None:
    rows = COMPONENTS.diplomacy
    assert all(a.high + 1 == b.low for a, b in itertools.pairwise(rows))
    for diff in range(-10, 11):
        for face in range(1, 7):
            assert diplomacy_outcome(CTX, diff, face) in DiplomacyOutcome


# -- the reveal and the Pool -----------------------------------------------------------------------


@pytest.mark.rule("9.1", "9.2")
def test_reveal_spends_both_sides_markers() -> None:
    state = give(board(), EMPIRE, "agent", "basileus", "agent")
    state = give(state, BARBARIAN, "agent", "tolerance")
    before = totals(state)
    events: list[Event] = []
    state = start(state, DiplomacyPhase(), events=events)
    for action in (Select("region Slavs"), Select("basileus"), Select("agent"), Done()):
        state = answer(state, action)
    state = answer(state, Select("tolerance"))
    step = GAME.step(state, Done())
    state = step.state
    hands = state.stratagems.hands
    assert hands[EMPIRE][CAT.stratagem("agent")] == 1
    assert hands[EMPIRE][CAT.stratagem("basileus")] == 0
    assert hands[BARBARIAN][CAT.stratagem("tolerance")] == 0
    assert hands[BARBARIAN][CAT.stratagem("agent")] == 1
    assert totals(state) == before
    reveal = [e for e in step.events if e.kind == "reveal"]
    assert reveal and "basileus" in reveal[0].text and "tolerance" in reveal[0].text
    assert state.pending is not None and state.pending.dice == 1
    task = state.pending.task
    assert isinstance(task, DiplomacyAttempt) and task.differential == 3 + 1 - 1


@pytest.mark.rule("9.2", "8.42")
@given(st.data())
def test_markers_are_conserved(data: st.DataObject) -> None:
    mix = list(data.draw(st.permutations(MIX)))
    first = next(i for i, m in enumerate(mix) if m in DIPLOMATIC)
    mix.insert(0, mix.pop(first))  # the Empire holds at least one Diplomacy marker
    split = data.draw(st.integers(1, 8))
    state = give(board(), EMPIRE, *mix[:split])
    state = give(state, BARBARIAN, *mix[split : split + data.draw(st.integers(0, 6))])
    before = totals(state)
    hands_before = state.stratagems.hands
    state = start(state, DiplomacyPhase())
    spent: Counter[tuple[int, str]] = Counter()
    while state.pending is not None and state.pending.dice == 0:
        request = state.pending
        if request.kind.value == "draw":
            break
        choices = request.options
        if request.rule == "9.1" and isinstance(request.task, DiplomacyPhase):
            pick = choices[1]  # always attempt once
        else:
            pick = data.draw(st.sampled_from(choices))
        if isinstance(pick, Select) and isinstance(request.task, DiplomacyAttempt):
            spent[(request.player, pick.item)] += 1
        state = answer(state, pick)
        assert totals(state) == before
        if state.pending is not None and state.pending.dice:
            break
    hands = state.stratagems.hands
    for player in (EMPIRE, BARBARIAN):
        for kind, marker in enumerate(CAT.stratagem_ids):
            assert hands[player][kind] == hands_before[player][kind] - spent[(player, marker)]


# -- results ---------------------------------------------------------------------------------------


@pytest.mark.rule("9.1", "4.41", "4.42")
def test_control_of_a_neutral_region() -> None:
    state = finish(board(), region_attempt(EMPIRE, "Vandals"), DiplomacyOutcome.CONTROL)
    assert state.control[CAT.region("Vandals")] is Control.EMPIRE


@pytest.mark.rule("9.1", "4.6", "21.31")
def test_control_of_an_enemy_region_is_defection() -> None:
    state = board()
    persians = list(CAT.of_nationality("persia"))
    assert persians
    state = put(state, persians[:1], CAT.box_of(CAT.region("Persia")))
    state = finish(state, region_attempt(EMPIRE, "Persia"), DiplomacyOutcome.CONTROL)
    assert state.control[CAT.region("Persia")] is Control.EMPIRE
    # The Region's counters follow it, even in its Peripheral Area box.
    assert state.units.where[persians[0]] == CAT.box_of(CAT.region("Persia"))


@pytest.mark.rule("9.1", "4.51")
def test_neutral_result() -> None:
    state = finish(board(), region_attempt(EMPIRE, "Persia"), DiplomacyOutcome.NEUTRAL)
    assert state.control[CAT.region("Persia")] is Control.NEUTRAL
    state = finish(board(), region_attempt(EMPIRE, "Vandals"), DiplomacyOutcome.NEUTRAL)
    assert state.control == board().control


@pytest.mark.rule("22.1")
def test_intelligence() -> None:
    state = finish(
        board(BARBARIAN), region_attempt(BARBARIAN, "Thracia"), DiplomacyOutcome.INTELLIGENCE
    )
    assert state.revealed == (False, True)
    assert state.control == board().control
    # ... until the end of the game turn.
    ended = start(attrs.evolve(state, turn=1), EndOfGameTurn())
    assert ended.revealed == (False, False)


@pytest.mark.rule("9.1")
def test_no_effect() -> None:
    state = board()
    after = finish(state, region_attempt(EMPIRE, "Vandals"), DiplomacyOutcome.NO_EFFECT)
    assert after.control == state.control and after.revealed == state.revealed


@pytest.mark.rule("9.1", "4.41")
def test_reaction_hands_a_neutral_to_the_defender() -> None:
    state = finish(board(), region_attempt(EMPIRE, "Vandals"), DiplomacyOutcome.REACTION)
    assert state.control[CAT.region("Vandals")] is Control.BARBARIAN
    state = finish(
        board(BARBARIAN), region_attempt(BARBARIAN, "Vandals"), DiplomacyOutcome.REACTION
    )
    assert state.control[CAT.region("Vandals")] is Control.EMPIRE


@pytest.mark.rule("9.1")
def test_reaction_against_an_enemy_region_changes_nothing() -> None:
    state = board()
    after = finish(state, region_attempt(EMPIRE, "Persia"), DiplomacyOutcome.REACTION)
    assert after.control == state.control


@pytest.mark.rule("9.5")
@pytest.mark.parametrize("side", ["attack", "defence"])
def test_tolerance_cancels_reaction(side: str) -> None:
    marker = ("tolerance",)
    attempt = (
        region_attempt(EMPIRE, "Vandals", attack=marker)
        if side == "attack"
        else region_attempt(EMPIRE, "Vandals", attack=("agent",), defence=marker)
    )
    state = finish(board(), attempt, DiplomacyOutcome.REACTION)
    assert state.control[CAT.region("Vandals")] is Control.NEUTRAL


@pytest.mark.rule("9.5", "8.51")
def test_orthodoxy_doubles_reaction() -> None:
    state = give(board(), EMPIRE, "agent", "forced-march")
    attempt = region_attempt(EMPIRE, "Vandals", attack=("orthodoxy",))
    state = finish(state, attempt, DiplomacyOutcome.REACTION)
    assert state.control[CAT.region("Vandals")] is Control.BARBARIAN
    assert state.pending is not None and state.pending.hand == EMPIRE
    assert isinstance(state.pending.task, LoseStratagems)
    state = answer(state, GAME.chance_outcomes(state)[0][0])
    assert state.stratagems.held(EMPIRE) == 1


@pytest.mark.rule("9.5")
def test_orthodoxy_plain_reaction_without_it() -> None:
    state = give(board(), EMPIRE, "agent")
    state = finish(state, region_attempt(EMPIRE, "Vandals"), DiplomacyOutcome.REACTION)
    assert state.pending is None
    assert state.stratagems.held(EMPIRE) == 1


# -- Guard stacks --------------------------------------------------------------------------------


@pytest.mark.rule("12.22", "21.32")
def test_barbarian_control_makes_a_guard_stack_mutiny() -> None:
    leaders = [c.index for c in CAT.counters if c.guard and c.leader and c.index != CAT.justinian]
    state = put(board(BARBARIAN), [*GUARDS[:2], *leaders[:1]], HEX_A)
    state = put(state, GUARDS[2:3], HEX_B)
    state = finish(state, DiplomacyAttempt(BARBARIAN, stack=HEX_A), DiplomacyOutcome.CONTROL)
    mutiny = state.units.mutiny
    assert all(mutiny[u] for u in [*GUARDS[:2], *leaders[:1]])
    assert not mutiny[GUARDS[2]]  # one stack per attempt


@pytest.mark.rule("12.3")
def test_justinians_stack_never_mutinies() -> None:
    state = put(board(BARBARIAN), [CAT.justinian, *GUARDS[:2]], HEX_A)
    offered = {a.item for a in target_options(CTX, state, BARBARIAN)}
    assert f"guard {HEX_A}" in offered
    state = finish(state, DiplomacyAttempt(BARBARIAN, stack=HEX_A), DiplomacyOutcome.CONTROL)
    assert not any(state.units.mutiny)


@pytest.mark.rule("12.32")
def test_empire_control_restores_a_mutinying_stack() -> None:
    state = put(board(), GUARDS[:2], HEX_B, mutinying=True)
    state = finish(state, DiplomacyAttempt(EMPIRE, stack=HEX_B), DiplomacyOutcome.CONTROL)
    assert not any(state.units.mutiny)


@pytest.mark.rule("12.22", "12.32")
@pytest.mark.parametrize(
    "outcome", [DiplomacyOutcome.NEUTRAL, DiplomacyOutcome.REACTION, DiplomacyOutcome.NO_EFFECT]
)
def test_other_results_leave_guard_stacks_alone(outcome: DiplomacyOutcome) -> None:
    state = put(board(BARBARIAN), GUARDS[:2], HEX_A)
    after = finish(state, DiplomacyAttempt(BARBARIAN, stack=HEX_A), outcome)
    assert after.units == state.units and after.control == state.control


@pytest.mark.rule("12.22")
def test_guard_attempt_end_to_end() -> None:
    state = put(board(BARBARIAN), GUARDS[:2], HEX_A)
    state = give(state, BARBARIAN, "basileus", "basileus")
    state = give(state, EMPIRE, "blue-faction")
    state = start(state, DiplomacyPhase())
    state = answer(state, Select(f"guard {HEX_A}"), Select("basileus"), Select("basileus"))
    state = answer(state, Done(), Select("blue-faction"), Done())
    assert state.pending is not None
    task = state.pending.task
    assert isinstance(task, DiplomacyAttempt) and task.stage == ROLL
    assert task.differential == 3 + 3 - 2 + modifier_value("loyal guard")
    column = [diplomacy_outcome(CTX, task.differential, f) for f in range(1, 7)]
    if DiplomacyOutcome.CONTROL not in column:
        pytest.skip("no control result in that column")
    face = column.index(DiplomacyOutcome.CONTROL) + 1
    state = answer(state, Roll((face,)))
    assert all(state.units.mutiny[u] for u in GUARDS[:2])


@pytest.mark.rule("9.1")
def test_resolve_is_a_pure_function_of_the_outcome() -> None:
    state = board()
    attempt = region_attempt(EMPIRE, "Vandals", stage=ATTACK)
    after = resolve(CTX, state, attempt, DiplomacyOutcome.CONTROL)
    assert after.control[CAT.region("Vandals")] is Control.EMPIRE
    assert state.control[CAT.region("Vandals")] is Control.NEUTRAL
