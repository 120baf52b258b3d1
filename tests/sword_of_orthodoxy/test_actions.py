"""Typed actions and the fixed action space of Sword of Orthodoxy (actions.py).

Random and sensible games visit every kind of question; in each decision state every
legal action must have a typed record and a number below the space's size, the
numbers of one state must be distinct, and number, record and engine action must
turn into one another both ways. The item forms that random play rarely reaches are
classified from requests built by hand, one per ``Select`` the engine constructs.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.core.codec import DecodeError, JSONValue
from byzantium.core.drivers import chance_policy, play
from byzantium.core.errors import IllegalActionError
from byzantium.core.game import CHANCE
from byzantium.core.records import dumps_record, loads_record
from byzantium.sword_of_orthodoxy.actions import (
    KINDS,
    AbandonOutpost,
    ActivateGreekFire,
    AdjustDie,
    Attack,
    BackDynasty,
    Build,
    BuildFaction,
    BuildKastron,
    ChooseSide,
    ClearRuins,
    Decision,
    EndActionPhase,
    EventBoon,
    ExploitDivisions,
    FreeAttack,
    FreeHospital,
    ImposeOrthodoxy,
    Keep,
    LoseHeart,
    MagisterDefeat,
    Mission,
    Mutilate,
    Pass,
    PayTribute,
    Rebuild,
    RecallGoldenBasileus,
    RemoveSocials,
    ReopenMonastery,
    RiotingFaction,
    SendFaction,
    SendHunHome,
    ShiftForces,
    SooActionSpace,
    Spend,
    SpendNike,
    StolosArmy,
    StolosPayment,
    SupportUnit,
    TakeOutpost,
    UseHospitals,
    decision_from_json,
)
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Draw,
    Pay,
    Request,
    RequestKind,
    Roll,
    Select,
    SooAction,
    SooState,
)
from tests.sword_of_orthodoxy.support import GAME, MILLENNIUM

RULEBOOK = "sword-of-orthodoxy"


OPTIONS: list[dict[str, object]] = [
    {},
    {"scenario": "millennium"},
    {"islam": True, "red_dice": True, "round_letters": True, "two_synopsis_rolls": True},
    {"scenario": "millennium", "round_letters": True},
]


def decision_states(
    game: SwordOfOrthodoxy, seed: int, limit: int
) -> list[tuple[SooState, SooAction]]:
    """Up to ``limit`` decision states of a game played partly sensibly, partly at
    random (seeded), each with the action taken there."""
    rng = random.Random(seed)
    sensible = game.policies()["sensible"]
    state = game.initial_state()
    found: list[tuple[SooState, SooAction]] = []
    while not game.is_terminal(state) and len(found) < limit:
        if game.is_chance_node(state):
            action = chance_policy(game, state, rng)
        else:
            legal = game.legal_actions(state)
            action = sensible(game, state, rng) if rng.random() < 0.6 else rng.choice(legal)
            found.append((state, action))
        state = game.apply(state, action)
    return found


def _check_state(game: SwordOfOrthodoxy, space: SooActionSpace, state: SooState) -> None:
    legal = game.legal_actions(state)
    numbers = [space.index(state, action) for action in legal]
    assert all(0 <= n < space.size for n in numbers)
    assert len(set(numbers)) == len(numbers), [game.describe_action(state, a) for a in legal]
    assert space.legal_indices(state) == sorted(numbers)
    mask = space.mask(state)
    assert [i for i, flag in enumerate(mask) if flag] == sorted(numbers)
    for action, number in zip(legal, numbers, strict=True):
        decision = game.typed_action(state, action)
        assert space.decision(number) == decision
        assert space.label(number) == decision.words(game.catalog)
        assert space.action(state, number) == action
        assert game.action_for(state, decision) == action
        assert decision_from_json(decision.to_json()) == decision
        assert decision.rule in decision.RULES or type(decision) in (Spend, Pass)


@pytest.mark.rule("10.0", "C")
@settings(max_examples=4)
@given(st.integers(0, 2**32 - 1), st.sampled_from(range(len(OPTIONS))))
def test_every_legal_action_of_random_games_has_a_typed_record_and_a_number(
    seed: int, variant: int
) -> None:
    game = SwordOfOrthodoxy(OPTIONS[variant])
    space = game.action_space()
    for state, _ in decision_states(game, seed, 400):
        _check_state(game, space, state)


@pytest.mark.rule("10.0", "C")
@settings(max_examples=3)
@given(st.integers(0, 2**32 - 1))
def test_a_typed_record_applies_like_the_engine_action(seed: int) -> None:
    game = MILLENNIUM
    for state, action in decision_states(game, seed, 150):
        decision = game.typed_action(state, action)
        assert game.apply(state, decision) == game.apply(state, action)
        assert game.step(state, decision) == game.step(state, action)


@pytest.mark.rule("10.0")
def test_the_numbering_is_the_same_for_every_game_instance_and_pinned() -> None:
    one, other = GAME.action_space(), SwordOfOrthodoxy({"scenario": "millennium"}).action_space()
    assert one.size == other.size == 937
    assert [one.label(i) for i in range(one.size)] == [other.label(i) for i in range(other.size)]
    assert one.records == other.records
    # The documented numbers (docs/games/sword-of-orthodoxy-actions.rst).
    assert one.number(EndActionPhase()) == 0
    assert one.number(TakeOutpost("outpost-egypt")) == 1
    assert one.number(Build("hospital", "nicaea")) == 14
    assert one.number(Attack("attack", "army-alpha-1")) == 151
    assert one.number(Mission("battle-sword", "army-alpha-1")) == 403
    assert one.number(StolosPayment(1)) == 558
    assert one.number(Pass("12.1")) == 936
    assert {kind: (r.start, r.stop) for kind, r in one.ranges.items()}[Spend] == (819, 923)


@pytest.mark.rule("10.0")
def test_labels_are_distinct_and_numbers_out_of_range_are_refused() -> None:
    space = GAME.action_space()
    labels = [space.label(i) for i in range(space.size)]
    assert len(set(labels)) == len(labels)
    state, _ = decision_states(GAME, 1, 1)[0]
    with pytest.raises(IllegalActionError):
        space.action(state, space.size)
    illegal = next(i for i in range(space.size) if i not in space.legal_indices(state))
    with pytest.raises(IllegalActionError):
        space.action(state, illegal)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, space.decision(illegal))


def _asked(rule: str, action: SooAction) -> SooState:
    """A state that asks a question of ``rule`` offering ``action`` (for classifying)."""
    base = GAME.initial_state()
    assert base.pending is not None
    request = Request(RequestKind.CHOOSE, rule, "", base.pending.task, options=(action,))
    return attrs.evolve(base, pending=request)


#: Every form of ``Select`` (and the Decline and Pay) the engine constructs, by the rule
#: that asks: the menus of 10.0, and the questions of the other modules.
FORMS: list[tuple[str, SooAction, Decision]] = [
    ("10.0", Decline(), EndActionPhase()),
    ("10.0", Select("take outpost-rome"), TakeOutpost("outpost-rome")),
    ("10.0", Select("abandon outpost-lazica"), AbandonOutpost("outpost-lazica")),
    ("10.0", Select("activate greek-fire"), ActivateGreekFire()),
    ("10.0", Select("build akritai nicaea"), Build("akritai", "nicaea")),
    ("10.0", Select("rebuild hospital-1 zone-beta"), Rebuild("hospital-1", "zone-beta")),
    ("10.0", Select("reopen monastery-2"), ReopenMonastery("monastery-2")),
    ("10.0", Select("attack riot-3"), Attack("attack", "riot-3")),
    ("10.0", Select("kleidion army-gamma-2"), Attack("kleidion", "army-gamma-2")),
    ("10.0", Select("tricameron army-alpha-1"), Attack("tricameron", "army-alpha-1")),
    ("10.0", Select("emperor-attack army-zeta-egypt"), Attack("emperor-attack", "army-zeta-egypt")),
    ("10.0", Select("magister-attack riot-1"), Attack("magister-attack", "riot-1")),
    ("10.0", Select("hippodrome riot-2"), Attack("hippodrome", "riot-2")),
    ("10.0", Select("shift-forces epsilon"), ShiftForces("epsilon")),
    ("10.0", Select("mission battle army-beta-1"), Mission("battle", "army-beta-1")),
    (
        "10.0",
        Select("mission battle-sword army-delta-persia"),
        Mission("battle-sword", "army-delta-persia"),
    ),
    ("10.0", Select("mission confront marker-kan"), Mission("confront", "marker-kan")),
    ("10.0", Select("mission orator faction-5"), Mission("orator", "faction-5")),
    ("10.0", Select("mission naval-reforms"), Mission("naval-reforms")),
    ("10.0", Select("mission taxation"), Mission("taxation")),
    ("10.0", Select("mission ecclesiastical-policy"), Mission("ecclesiastical-policy")),
    ("10.0", Select("mission legislate social-2"), Mission("legislate", "social-2")),
    (
        "10.0",
        Select("mission slavery monastery zone-gamma"),
        Mission("slavery", "monastery", "zone-gamma"),
    ),
    ("10.0", Select("mission reformer"), Mission("reformer")),
    ("10.0", Select("mission expel marker-colonist-2"), Mission("expel", "marker-colonist-2")),
    ("10.0", Select("mission pandidakterion"), Mission("pandidakterion")),
    ("10.0", Select("orthodoxy"), ImposeOrthodoxy()),
    ("10.0", Select("orthodoxy saint-ignore"), ImposeOrthodoxy("ignore")),
    ("10.0", Select("orthodoxy saint-free"), ImposeOrthodoxy("free")),
    ("10.0", Select("divisions"), ExploitDivisions()),
    ("10.0", Select("ruins"), ClearRuins()),
    ("10.0", Select("faction faction-walls"), BuildFaction("faction-walls")),
    ("10.0", Select("nike"), SpendNike()),
    ("10.6.5", Select("pay 2 $"), StolosPayment(2)),
    ("10.6.5", Select("pay 1 $, withdraw zeta"), StolosPayment(1, ("zeta",))),
    ("10.6.5", Select("withdraw alpha, withdraw alpha"), StolosPayment(0, ("alpha", "alpha"))),
    ("10.6", Select("army-alpha-2"), FreeAttack("army-alpha-2")),
    ("10.6", Decline(), Pass("10.6")),
    ("10.4.2", Select("akritai -1"), AdjustDie(-1)),
    ("10.4.2", Select("akritai +1"), AdjustDie(1)),
    ("10.4.2", Decline(), AdjustDie(0)),
    ("9.5.3", Select("sacrifice support-magyars"), SupportUnit("sacrifice", "support-magyars")),
    ("9.5.3", Select("prop support-skanderbeg"), SupportUnit("prop", "support-skanderbeg")),
    ("9.5.3", Decline(), Pass("9.5.3")),
    ("10.8", Select("schism +3"), MagisterDefeat(riot=False)),
    ("10.8", Select("riot"), MagisterDefeat(riot=True)),
    ("6.1", Select("faction-3"), RiotingFaction("faction-3")),
    ("10.6.9.2", Select("faction-hagia-sophia"), RiotingFaction("faction-hagia-sophia")),
    ("11.1", Select("keep 4"), Keep(4)),
    ("11.5", Pay(1), Spend("11.5", 1)),
    ("11.6", Select("faction-7"), LoseHeart("faction-7")),
    ("11.9", Select("remove socials"), RemoveSocials()),
    ("12.1", Select("faction-9"), SendFaction("faction-9")),
    ("12.1", Decline(), Pass("12.1")),
    ("6.1.1", Pay(5), Spend("6.1.1", 5)),
    ("6.1.1", Select("dynasty-laskarid"), BackDynasty("dynasty-laskarid")),
    ("6.2.2", Pay(1), Spend("6.2.2", 1)),
    ("6.2.3", Select("basileus-alexios-leo"), Mutilate("basileus-alexios-leo")),
    ("6.2.3", Select("front"), ChooseSide("front")),
    ("6.2.3", Select("back"), ChooseSide("back")),
    ("6.2.3", Select("basileus-golden"), RecallGoldenBasileus()),
    ("6.5", Select("persia"), PayTribute("persia")),
    ("6.6", Select("cilicia"), BuildKastron("cilicia")),
    ("5.3.4", Pay(1), Spend("5.3.4", 1)),
    ("8.3", Pay(1), Spend("8.3", 1)),
    ("8.4.1", Pay(0), Spend("8.4.1", 0)),
    ("8.4.1", Select("army-beta-3"), StolosArmy("army-beta-3")),
    ("8.4.1", Select("reduce-schism"), EventBoon("reduce-schism")),
    ("8.4.1", Select("gain-solidus"), EventBoon("gain-solidus")),
    ("8.4.1", Select("use-hospitals"), UseHospitals()),
    ("5.3.8", Select("ephesus"), FreeHospital("ephesus")),
    ("8.4", Select("army-gamma-4"), SendHunHome("army-gamma-4")),
    ("5.3.8", Pay(3), Spend("5.3.8", 3)),
    ("8.4", Decline(), Pass("8.4")),
]


@pytest.mark.rule("10.0")
@pytest.mark.parametrize(("rule", "action", "decision"), FORMS)
def test_every_item_form_the_engine_builds_classifies(
    rule: str, action: SooAction, decision: Decision
) -> None:
    state = _asked(rule, action)
    assert GAME.typed_action(state, action) == decision
    space = GAME.action_space()
    assert space.decision(space.index(state, action)) == decision
    assert space.action(state, space.number(decision)) == action


def test_every_kind_of_decision_is_among_the_forms() -> None:
    assert {type(decision) for _, _, decision in FORMS} == set(KINDS)


@pytest.mark.rule("10.0")
def test_forms_no_rule_offers_are_refused() -> None:
    for rule, action in [
        ("10.0", Select("fly away")),
        ("10.6.5", Select("pay lots $")),
        ("9.5.3", Select("bribe support-magyars")),
        ("6.5", Select("atlantis")),
    ]:
        with pytest.raises(ValueError, match=f"rule {rule}"):
            GAME.typed_action(_asked(rule, action), action)


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"type": 3},
        {"type": "teleport"},
        {"type": "attack", "target": "army-alpha-1"},
        {"type": "attack", "how": "attack", "kind": "attack", "target": "army-alpha-1"},
        {"type": "keep", "amount": "3"},
        {"type": "keep", "amount": True},
        {"type": "stolos-payment", "solidus": 1, "withdrawals": "alpha"},
    ],
)
def test_bad_json_is_refused_in_one_line(data: JSONValue) -> None:
    with pytest.raises(DecodeError):
        decision_from_json(data)


def test_the_json_form_is_plain() -> None:
    assert Mission("slavery", "hospital", "amorion").to_json() == {
        "type": "mission",
        "kind": "slavery",
        "target": "hospital",
        "space": "amorion",
    }


def test_the_documented_table_of_numbers_is_the_code_s() -> None:
    page = Path(__file__).parents[2] / "docs" / "games" / "sword-of-orthodoxy-actions.rst"
    rows = re.findall(
        r"\* - :class:`~byzantium\.sword_of_orthodoxy\.actions\.(\w+)`\n"
        r"     - ``(.*)``\n     - (.*)\n     - .*\n     - (\d+)(?:-(\d+))?\n",
        page.read_text(encoding="utf-8"),
    )
    space = GAME.action_space()
    documented = {
        name: (json.loads(data), label, int(first), int(last or first))
        for name, data, label, first, last in rows
    }
    actual = {
        kind.__name__: (
            space.decision(r.start).to_json(),
            space.label(r.start),
            r.start,
            r.stop - 1,
        )
        for kind, r in space.ranges.items()
    }
    assert documented == actual


@pytest.mark.rule("C")
def test_a_recorded_game_in_the_string_forms_replays_through_typed_records() -> None:
    record = play(GAME, GAME.policies()["sensible"], seed=11, max_steps=600)
    loaded, again = loads_record(dumps_record(GAME, record))
    assert isinstance(loaded, SwordOfOrthodoxy)
    assert again.actions == record.actions  # the old Select texts load unchanged
    state = loaded.initial_state()
    for actor, action in zip(again.actors, again.actions, strict=True):
        assert isinstance(action, Roll | Draw | Pay | Decline | Select)
        if actor != CHANCE:
            decision = loaded.typed_action(state, action)
            assert loaded.action_for(state, decision_from_json(decision.to_json())) == action
            state = loaded.apply(state, decision)
        else:
            state = loaded.apply(state, action)
    assert loaded.state_digest(state) == record.final
