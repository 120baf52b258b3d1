"""Typed actions and the fixed action space of Belisarius (:mod:`byzantium.belisarius.actions`).

Over whole seeded games of every scenario, the optional rules all off and all on,
played at random and by the sensible player: every legal action has a typed record
and a number below the space's size; the numbers of one state's actions are distinct;
the number goes back to the action and to the same record in any state; the JSON form
round-trips; applying the record is applying the action. The numbering is a bijection
between the numbers and the records, derived from the loaded map. A record shown to
the other player hides what he may not see (22.1), and the acting player's mask does
not depend on the other player's hidden hand and treasury.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.belisarius import actions as typed
from byzantium.belisarius.battle import Retreat
from byzantium.belisarius.components import UnitKind
from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.negotiations import ANY
from byzantium.belisarius.operations import OperationsPhase
from byzantium.belisarius.state import (
    BARBARIAN,
    EMPIRE,
    BelAction,
    BelState,
    Done,
    Draw,
    Place,
    Roll,
    Select,
)
from byzantium.belisarius.stratagems import PickStratagems, ReturnStratagem
from byzantium.core.codec import JSONValue
from byzantium.core.errors import IllegalActionError
from byzantium.core.game import CHANCE, TERMINAL
from tests.belisarius import test_combat_rules as combat
from tests.belisarius import test_events as events
from tests.belisarius import test_forced_march_and_drops as marches
from tests.belisarius import test_negotiations as negotiations
from tests.belisarius import test_personal_combat as duels
from tests.belisarius import test_stratagems as stratagems
from tests.belisarius.support import CAT, GAME, SCENARIOS, give, put, set_up_game, start
from tests.belisarius.test_fog_of_war import (
    OPTION_SETS,
    game_of,
    played,
    redeal,
    starts,
    twin_move,
)
from tests.belisarius.test_observation import reask
from tests.belisarius.test_operations import open_line

RULEBOOK = "belisarius"

#: One state of a game and the action played in it.
Step = tuple[BelState, BelAction]


@cache
def sensible_game(scenario: int, optional: str, seed: int) -> tuple[Step, ...]:
    """A whole seeded game between two sensible players."""
    game = game_of(scenario, optional)
    policy = game.policies()["sensible"]
    rng = random.Random(seed)
    state = game.initial_state()
    steps: list[Step] = []
    while game.current_player(state) != TERMINAL:
        assert len(steps) < 20_000, "the game does not end"
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = policy(game, state, rng)
        steps.append((state, action))
        state = game.apply(state, action)
    return tuple(steps)


def games() -> Iterator[tuple[Belisarius, tuple[Step, ...]]]:
    """Random games of every scenario with the options off and on, and sensible ones
    with the options on."""
    for scenario in SCENARIOS:
        for optional in sorted(OPTION_SETS):
            game = game_of(scenario, optional)
            yield game, played(scenario, optional, 0)[0]
        yield game_of(scenario, "on"), sensible_game(scenario, "on", 0)


def check_decision(game: Belisarius, state: BelState, inverses: bool = True) -> set[str]:
    """Every property of the space at one decision; the record kinds offered. The
    inverses (from a number or a record back to the action: a search of the legal
    actions) are checked when ``inverses`` is set."""
    space = game.action_space()
    numbers: dict[int, BelAction] = {}
    kinds: set[str] = set()
    for action in game.legal_actions(state):
        record = game.typed_action(state, action)
        assert type(record) in typed.VOCABULARY, (state.pending, action)
        number = space.index(state, action)
        assert 0 <= number < space.size
        assert number not in numbers, (action, numbers[number])
        numbers[number] = action
        assert space.record(number) == record  # the same number, the same record
        assert space.label(number) == typed.describe(game.catalog, record)
        assert typed.from_json(typed.to_json(record)) == record
        kinds.add(record.KIND)
        if isinstance(record, typed.Finish):
            kinds.add(f"finish {record.question}")
    if inverses:
        assert space.legal_indices(state) == sorted(numbers)
        for number, action in numbers.items():
            assert space.action(state, number) == action
            assert game.action_for(state, game.typed_action(state, action)) == action
    return kinds


@cache
def kinds_in_games() -> frozenset[str]:
    """Check every decision of :func:`games`; the record kinds they offer."""
    seen: set[str] = set()
    for game, steps in games():
        for step, (state, action) in enumerate(steps):
            if game.current_player(state) == CHANCE:
                record = game.typed_action(state, action)
                assert isinstance(record, typed.DiceRoll | typed.DrawMarker)
                with pytest.raises(typed.UnknownActionError):
                    game.action_space().index(state, action)
                continue
            seen |= check_decision(game, state, inverses=step % 5 == 0)
    return frozenset(seen)


@cache
def kinds_set_up_by_hand() -> frozenset[str]:
    """Check the decisions random games seldom reach, set up by hand; their kinds."""
    kinds: set[str] = set()
    # Personal Combat (33.1): a challenge, its acceptance, champions among several.
    state, a, b = duels.armies(("belisarius", "solomon"), ("kavadh", "mihr-mihroe"))
    state = duels.standing(state, a, b)
    kinds |= check_decision(duels.DUELS, state)
    state = duels.act(state, Select("challenge"))
    kinds |= check_decision(duels.DUELS, state)
    state = duels.act(state, Select("accept"))
    kinds |= check_decision(duels.DUELS, state)
    # Re-forming a force for a Forced March (16.73).
    a, b, _ = open_line()
    state = put(marches.board(), "thracia", UnitKind.GARRISON, a, count=3)
    state = put(state, "thracia", UnitKind.GARRISON, b)
    state = give(state, EMPIRE, "forced-march")
    state = marches.act(start(GAME, state, OperationsPhase()), Select(f"force {a}"), Done())
    state = marches.act(state, Roll((6,)), Place(b), marches.drop(state.units.at(a)[2]), Done())
    state = marches.act(state, Select(f"forced march {b}"))
    kinds |= check_decision(GAME, state)
    # The hand limit (8.3): making room, and returning a marker to the Pool.
    state = stratagems._start(
        stratagems._split(stratagems._hand_of(15)), ReturnStratagem(EMPIRE, 2)
    )
    kinds |= check_decision(set_up_game(), state)
    hand = stratagems._split(stratagems._hand_of(14))
    state = stratagems._start(hand, PickStratagems(EMPIRE, 3, "6.0"))
    kinds |= check_decision(set_up_game(), state)
    # Markers of the giver's choice handed over (24.1).
    state = give(negotiations.board(), BARBARIAN, "basileus", "leader", game=negotiations.NEG)
    state = negotiations.window(state)
    state = negotiations.offer(state, ("ask a marker", ANY))
    state = negotiations.accept(state)
    kinds |= check_decision(negotiations.NEG, state)
    # Forces Rally restoring a Mutinying Guard stack (11.4, 12.31).
    state = events.put(events.EMPTY, ("guard-guard-1", events.SIRMIUM), mutiny=True)
    kinds |= check_decision(GAME, events.force(state, 1, 1))
    # Region Resists with two candidates (4.41).
    slavs = events.land_hexes("Slavs")[0]
    placed = (("thracia-garrison-1", events.SIRMIUM), ("thracia-garrison-2", slavs))
    kinds |= check_decision(GAME, events.force(events.put(events.EMPTY, *placed), 3, 3))
    # Troops Rally (12.31), which the Empire may decline.
    state = events.put(events.EMPTY, ("guard-guard-1", events.SIRMIUM), mutiny=True)
    state = events.force(attrs.evolve(state, phasing=BARBARIAN), 4, 4)
    kinds |= check_decision(GAME, state)
    # A retreat the force may decline (17.9).
    _, beside = combat._by_tolosa()
    state = put(combat.board(), "franks", UnitKind.WARBAND, beside)
    retreat = Retreat(BARBARIAN, state.units.at(beside), 1, "17.9", may_ignore=True)
    kinds |= check_decision(GAME, start(GAME, state, retreat))
    return frozenset(kinds)


@pytest.mark.rule("3.1", "14.1", "16.1", "11.12", "10.3", "9.1", "8.41", "24.1")
def test_every_legal_action_of_whole_games_has_a_record_and_a_number() -> None:
    assert len(kinds_in_games()) >= 50  # the games cross most of the vocabulary


@pytest.mark.rule("33.1", "16.73", "8.3", "24.1", "12.31", "4.41", "17.9")
def test_the_rare_decisions_have_records_too() -> None:
    rare = {"challenge", "accept-challenge", "name-champion", "join-force", "restore-guard"}
    rare |= {"return-marker", "hand-over-marker", "return-markers-first", "region-resists"}
    assert rare <= kinds_set_up_by_hand()


def test_every_record_of_the_vocabulary_is_met() -> None:
    """No record class is dead, nor a question of Done: each is offered in the games
    or by hand above."""
    met = kinds_in_games() | kinds_set_up_by_hand()
    questions = {f"finish {key}" for key, _, _ in typed.QUESTIONS}
    assert {cls.KIND for cls in typed.VOCABULARY} | questions == met


def test_the_numbers_and_the_records_are_one_to_one() -> None:
    """Every number stands for one record and back; the blocks tile the space."""
    space = GAME.action_space()
    ends = 0
    for _, first, after in space.ranges():
        assert first == ends and after > first
        ends = after
    assert ends == space.size
    for number in range(space.size):
        record = space.record(number)
        assert space.number(record) == number
        assert typed.from_json(typed.to_json(record)) == record
    with pytest.raises(IndexError):
        space.record(space.size)


@pytest.mark.rule("2.1")
def test_the_numbering_is_stable_and_derives_from_the_loaded_map() -> None:
    """Two games on the same map number alike; the location blocks hold the boxes
    and every hex of the map, in increasing number."""
    space, again = GAME.action_space(), game_of(3, "on").action_space()
    assert space.size == again.size
    assert [space.label(n) for n in range(0, space.size, 997)] == [
        again.label(n) for n in range(0, again.size, 997)
    ]
    hexes = sorted(CAT.map.hexes())
    block = next(b for b in space.blocks if b.cls is typed.MoveForce)
    assert [v[0] for v in block.values] == [1, 2, 3, 4, *hexes]
    assert space.record(block.start + 4) == typed.MoveForce(hexes[0])


@pytest.mark.rule("2.1")
def test_a_users_map_directory_numbers_the_hexes_of_its_own_map(tmp_path: Path) -> None:
    data = Path(__file__).resolve().parents[2] / "byzantium" / "belisarius" / "data"
    folder = tmp_path / "mymap"
    folder.mkdir()
    for file in data.iterdir():
        if file.is_file():
            (folder / file.name).write_bytes(file.read_bytes())
    game = Belisarius({"components": str(folder)})
    space = game.action_space()
    block = next(b for b in space.blocks if b.cls is typed.Attack)
    assert [v[0] for v in block.values[4:]] == sorted(game.catalog.map.hexes())
    assert space.size == GAME.action_space().size  # the same map, the same numbers


def test_places_and_counters_are_named_for_people() -> None:
    capital = CAT.capital
    assert typed.describe(CAT, typed.MoveForce(capital)) == (
        "Move the force to hex 5624 Constantinopolis (capital City, clear, Thracia)"
    )
    assert "Belisarius (2-star Leader)" in typed.describe(CAT, typed.NameChampion("belisarius"))
    assert typed.describe(CAT, typed.Finish("end-operations")) == "End the Operations Phase"
    assert typed.describe(CAT, typed.PlayStratagem("leader", "gain")) == (
        "Play Leader (Leader Arises) to gain a Leader"
    )


@pytest.mark.parametrize(
    ("record", "data"),
    [
        (typed.MoveForce(5624), {"kind": "move-force", "where": 5624}),
        (
            typed.Recruit("thracia", "field-army"),
            {
                "kind": "recruit",
                "nationality": "thracia",
                "unit_type": "field-army",
            },
        ),
        (typed.PlayStratagem("agent"), {"kind": "play-stratagem", "marker": "agent", "use": ""}),
        (typed.DiceRoll((3, 4)), {"kind": "dice-roll", "faces": [3, 4]}),
        (typed.Capitulate(), {"kind": "capitulate"}),
    ],
)
def test_the_json_form_is_stable(record: typed.TypedAction, data: JSONValue) -> None:
    assert typed.to_json(record) == data
    assert typed.from_json(data) == record


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"kind": 3},
        {"kind": "teleport"},
        {"kind": "move-force"},
        {"kind": "move-force", "where": "5624"},
        {"kind": "move-force", "where": True},
        {"kind": "move-force", "where": 5624, "speed": 2},
        {"kind": "dice-roll", "faces": ["a"]},
        {"kind": "disband", "unit": 4},
    ],
)
def test_bad_json_is_refused_in_one_line(data: JSONValue) -> None:
    with pytest.raises(typed.UnknownActionError) as caught:
        typed.from_json(data)
    assert "\n" not in str(caught.value)


@pytest.mark.rule("3.1")
def test_apply_and_step_take_typed_records_and_a_record_replays_the_game() -> None:
    """A whole game replayed from the JSON of its typed records reaches the same end,
    and an action not offered is refused naming the rule of the question."""
    game = game_of(1, "on")
    steps, final = played(1, "on", 0)
    state = game.initial_state()
    for before, action in steps:
        assert before == state
        record = typed.from_json(typed.to_json(game.typed_action(state, action)))
        stepped = game.step(state, record)
        state = game.apply(state, record)
        assert stepped.state == state == game.apply(before, action)
    assert state == final
    opening = game.initial_state()
    with pytest.raises(IllegalActionError) as caught:
        game.apply(opening, typed.Capitulate())
    assert caught.value.rule == "34.0"


@pytest.mark.rule("22.1")
def test_records_shown_to_the_other_player_hide_his_secrets() -> None:
    """Wherever the action as a player may see it differs from the action, his record
    of it is the hidden one and tells nothing of the type; elsewhere it is the record."""
    hidden = 0
    for scenario in SCENARIOS:
        game = game_of(scenario, "on")
        steps, _ = played(scenario, "on", 0)
        for state, action in steps:
            record = game.typed_action(state, action)
            for viewer in (EMPIRE, BARBARIAN):
                seen = game.visible_typed_action(state, action, viewer)
                if game.visible_action(state, action, viewer) == action:
                    assert seen == record
                    continue
                hidden += 1
                assert seen in (typed.HiddenChoice(), typed.DrawMarker("hidden"))
                assert isinstance(action, Select | Draw)
    assert hidden > 0


def masks_follow(  # noqa: PLR0917 - the game, the twin's start and the observer
    game: Belisarius,
    steps: tuple[Step, ...],
    final: BelState,
    begin: int,
    observer: int,
    rng: random.Random,
) -> int:
    """Play a twin whose other player's secrets differ (as in the fog-of-war test)
    beside the game; at each of the observer's decisions both masks are the same.
    Returns how many masks were compared."""
    space = game.action_space()
    twin = redeal(steps, final, begin, observer, rng)
    if twin.pending is not None:
        twin = reask(game, twin)
    states = [s for s, _ in steps[begin:]] + [final]
    compared = 0
    for index, state in enumerate(states[:-1]):
        if state.revealed[observer]:
            break
        if game.current_player(state) == observer:
            assert space.legal_indices(twin) == space.legal_indices(state)
            compared += 1
        answer = twin_move(game, state, twin, steps[begin + index][1], observer)
        if answer is None:
            break
        twin = game.apply(twin, answer)
    return compared


@pytest.mark.rule("22.1")
@pytest.mark.parametrize("optional", sorted(OPTION_SETS))
@pytest.mark.parametrize("scenario", SCENARIOS)
@settings(max_examples=3, deadline=None)
@given(data=st.data())
def test_the_acting_players_mask_does_not_show_the_other_players_secrets(
    scenario: int, optional: str, data: st.DataObject
) -> None:
    game = game_of(scenario, optional)
    steps, final = played(scenario, optional, data.draw(st.sampled_from((0, 1)), label="seed"))
    observer = data.draw(st.sampled_from((EMPIRE, BARBARIAN)), label="observer")
    begin = data.draw(st.sampled_from(starts(steps, observer)), label="start")
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="deal"))
    masks_follow(game, steps, final, begin, observer, rng)


def test_the_twin_masks_are_compared_over_long_stretches() -> None:
    """Not vacuous: twins are compared at many of the observer's decisions."""
    game = game_of(1, "off")
    steps, final = played(1, "off", 1)
    rng = random.Random(0)
    total = 0
    for observer in (EMPIRE, BARBARIAN):
        for begin in starts(steps, observer)[::200]:
            total += masks_follow(game, steps, final, begin, observer, rng)
    assert total >= 200


def test_a_mask_has_one_flag_per_number() -> None:
    state = GAME.initial_state()
    space = GAME.action_space()
    flags = space.mask(state)
    assert len(flags) == space.size
    assert [n for n, on in enumerate(flags) if on] == space.legal_indices(state)
    assert all(isinstance(space.record(n), typed.DeployCounter) for n in space.legal_indices(state))


def test_the_docs_page_lists_every_record_with_its_numbers() -> None:
    """docs/games/belisarius-actions.rst shows the shipped numbering as it is."""
    page = Path(__file__).resolve().parents[2] / "docs" / "games" / "belisarius-actions.rst"
    text = page.read_text(encoding="utf-8")
    space = GAME.action_space()
    for kind, first, after in space.ranges():
        assert f"(``{kind}``)\n" in text
        assert f"     - {first}-{after - 1}\n" in text
    for key, rule, _ in typed.QUESTIONS:
        assert f"``{key}``\n     - :rule:`{rule}`" in text
    assert f"**{space.size}**" in text
    locations = [b for b in space.blocks if b.cls.DOMAIN == "location"]
    assert f"{sum(b.size for b in locations)} of them the {len(locations)}" in text
