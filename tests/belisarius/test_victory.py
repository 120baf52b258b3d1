"""Victory (23.0-23.3): Victory Points, levels, the winner, capitulation.

The scenario data's Victory Points are provisional, so the scoring tests give the
scenario points of their own (:func:`tests.belisarius.support.scored_game`).
"""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.belisarius.game import Belisarius
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    NOBODY,
    BelState,
    Done,
    Select,
)
from byzantium.belisarius.victory import (
    PUBLIC_WORKS_POINTS,
    breakdown,
    game_result,
    victory_level,
    victory_lines,
    victory_points,
)
from byzantium.belisarius.world import controller, units_at
from byzantium.core.game import TERMINAL
from tests.belisarius.support import (
    belisarius,
    context,
    ended,
    idle,
    random_game,
    scored_game,
    with_control,
)

RULEBOOK = "belisarius"

REGIONS = (
    "Franks",
    "Burgundy",
    "Lombards",
    "Visigoths",
    "Ostrogoths",
    "Vandals",
    "Aegyptus",
    "Persia",
    "Armenia",
    "Thracia",
    "Syria",
)


def board(game: Belisarius) -> BelState:
    """Scenario 1's set-up board with nothing pending."""
    return idle(game.initial_state())


def occupy(game: Belisarius, state: BelState, city: str, nationality: str | None) -> BelState:
    """Empty a City's hex, then put one counter of ``nationality`` there (None: leave it empty)."""
    cat = game.catalog
    where = cat.map.city(city).hex
    units = state.units
    for unit in units_at(state, where):
        units = units.move(unit, AVAILABLE)
    if nationality is not None:
        unit = next(u for u in cat.of_nationality(nationality) if units.where[u] == AVAILABLE)
        units = units.move(unit, where)
    return attrs.evolve(state, units=units)


# -- Victory Points (23.0, 23.1, 35.0) ----------------------------------------------------


@pytest.mark.rule("23.1", "35.0")
def test_a_neutral_region_worth_3_gives_the_barbarian_one_and_a_half() -> None:
    game = scored_game({"Franks": 3})
    state = with_control(game, board(game), "Franks", NOBODY)
    ctx = context(game)
    assert victory_points(ctx, state) == (Fraction(0), Fraction(3, 2))
    line = ("Barbarian: Franks (neutral region)", Fraction(3, 2))
    assert breakdown(ctx, state, BARBARIAN) == (line,)
    assert breakdown(ctx, state, EMPIRE) == ()
    result = game.result(ended(state))
    assert result.points == (Fraction(0), Fraction(3, 2))
    assert result.breakdown == (line,)
    assert "1.5 VP" in result.reason


@pytest.mark.rule("23.0", "23.1", "35.0")
@given(
    st.dictionaries(st.sampled_from(REGIONS), st.integers(0, 12), min_size=1),
    st.data(),
)
def test_each_region_scores_for_its_controller_and_a_neutral_one_half_for_the_barbarian(
    points: dict[str, int], data: st.DataObject
) -> None:
    game = scored_game(points)
    state = board(game)
    holders = {
        name: data.draw(st.sampled_from((EMPIRE, BARBARIAN, NOBODY)), label=name) for name in points
    }
    for name, holder in holders.items():
        state = with_control(game, state, name, holder)
    expected = [Fraction(0), Fraction(0)]
    for name, value in points.items():
        if holders[name] == NOBODY:
            expected[BARBARIAN] += Fraction(value, 2)
        else:
            expected[holders[name]] += value
    ctx = context(game)
    assert victory_points(ctx, state) == tuple(expected)
    for player in (EMPIRE, BARBARIAN):
        assert sum(p for _, p in breakdown(ctx, state, player)) == expected[player]
    # Handing one Region to the other player moves exactly its points.
    name = data.draw(st.sampled_from(sorted(points)), label="flipped")
    if holders[name] != NOBODY:
        other = 1 - holders[name]
        after = victory_points(ctx, with_control(game, state, name, other))
        assert after[other] - expected[other] == points[name]
        assert expected[holders[name]] - after[holders[name]] == points[name]


@pytest.mark.rule("23.1", "5.0")
@pytest.mark.parametrize(
    ("nationality", "scorer"),
    [("thracia", EMPIRE), ("persia", BARBARIAN), ("franks", NOBODY), (None, NOBODY)],
    ids=["empire", "barbarian", "neutral", "empty"],
)
def test_a_city_scores_for_the_player_whose_units_occupy_it(
    nationality: str | None, scorer: int
) -> None:
    game = scored_game({}, {"Roma": 5})
    state = occupy(game, board(game), "Roma", nationality)
    if nationality is not None:
        held = units_at(state, game.catalog.map.city("Roma").hex)
        assert controller(game.catalog, state, held[0]) == scorer
    expected = [Fraction(0), Fraction(0)]
    if scorer != NOBODY:
        expected[scorer] = Fraction(5)
    assert victory_points(context(game), state) == tuple(expected)


@pytest.mark.rule("28.3", "28.4")
@pytest.mark.parametrize("option", [True, False])
def test_friendly_occupied_public_works_score_only_with_the_optional_rule(option: bool) -> None:
    game = scored_game({}, public_works=option)
    roma = game.catalog.map.city("Roma").hex
    athenae = game.catalog.map.city("Athenae").hex
    state = occupy(game, board(game), "Roma", "persia")
    state = occupy(game, state, "Athenae", None)
    state = attrs.evolve(
        state, markers=attrs.evolve(state.markers, works=frozenset({roma, athenae}))
    )
    lines = victory_lines(context(game), state)
    if option:
        assert [(line.player, line.source, line.name) for line in lines] == [
            (BARBARIAN, "public works", str(roma))
        ]
        assert victory_points(context(game), state) == (Fraction(0), PUBLIC_WORKS_POINTS)
    else:
        assert lines == ()
    # The marker has no nationality: whoever occupies the hex scores it (28.4).
    state = occupy(game, state, "Roma", "thracia")
    expected = (PUBLIC_WORKS_POINTS, Fraction(0)) if option else (Fraction(0), Fraction(0))
    assert victory_points(context(game), state) == expected


# -- levels (23.2) -------------------------------------------------------------------------


@pytest.mark.rule("23.2")
@pytest.mark.parametrize(
    ("points", "level"),
    [
        (Fraction(0), "Collapse"),
        (Fraction(19), "Collapse"),
        (Fraction(39, 2), "Collapse"),
        (Fraction(20), "Decline"),
        (Fraction(39), "Decline"),
        (Fraction(40), "Stalemate"),
        (Fraction(59), "Stalemate"),
        (Fraction(119, 2), "Stalemate"),
        (Fraction(60), "Triumphant Victory"),
        (Fraction(79), "Triumphant Victory"),
        (Fraction(159, 2), "Triumphant Victory"),
        (Fraction(80), "Imperial Victory"),
        (Fraction(500), "Imperial Victory"),
    ],
)
def test_levels_of_victory_at_their_boundaries(points: Fraction, level: str) -> None:
    assert victory_level(context(belisarius()), points) == level


@pytest.mark.rule("23.2")
@given(st.fractions(min_value=0, max_value=200), st.fractions(min_value=0, max_value=200))
def test_a_higher_total_never_reaches_a_lower_level(a: Fraction, b: Fraction) -> None:
    ctx = context(belisarius())
    order = [level.name for level in sorted(ctx.cat.components.victory_levels, key=lambda v: v.low)]
    low, high = sorted((a, b))
    assert order.index(victory_level(ctx, low)) <= order.index(victory_level(ctx, high))


# -- the winner (23.3) ------------------------------------------------------------------------


def duel(empire: int, barbarian: int, neutral: int = 0) -> tuple[Belisarius, BelState]:
    """A finished game where the Empire holds Thracia worth ``empire``, the Barbarian Persia
    worth ``barbarian``, and Franks worth ``neutral`` is Neutral."""
    game = scored_game({"Thracia": empire, "Persia": barbarian, "Franks": neutral})
    state = with_control(game, board(game), "Thracia", EMPIRE)
    state = with_control(game, state, "Persia", BARBARIAN)
    state = with_control(game, state, "Franks", NOBODY)
    return game, ended(state)


@pytest.mark.rule("23.2", "23.3")
@pytest.mark.parametrize(
    ("empire", "barbarian", "neutral", "winner", "level"),
    [
        (20, 19, 0, EMPIRE, "Decline"),
        (19, 20, 0, BARBARIAN, "Decline"),
        (79, 80, 0, BARBARIAN, "Imperial Victory"),
        (80, 79, 0, EMPIRE, "Imperial Victory"),
        (60, 40, 0, EMPIRE, "Triumphant Victory"),
        (1, 0, 3, BARBARIAN, "Collapse"),
        (20, 19, 3, BARBARIAN, "Decline"),
        (20, 18, 3, EMPIRE, "Decline"),
    ],
)
def test_the_higher_total_wins_at_its_own_level(
    empire: int, barbarian: int, neutral: int, winner: int, level: str
) -> None:
    game, state = duel(empire, barbarian, neutral)
    result = game.result(state)
    assert result.rule == "23.3"
    assert result.points == (Fraction(empire), Fraction(barbarian) + Fraction(neutral, 2))
    assert result.winners == (winner,)
    assert result.level == level
    assert game.returns(state) == tuple(1.0 if p == winner else -1.0 for p in (EMPIRE, BARBARIAN))


@pytest.mark.rule("23.3")
@pytest.mark.parametrize(("empire", "barbarian", "neutral"), [(19, 19, 0), (45, 40, 10), (0, 0, 0)])
def test_equal_totals_are_a_draw(empire: int, barbarian: int, neutral: int) -> None:
    game, state = duel(empire, barbarian, neutral)
    result = game.result(state)
    assert result.winners == ()
    assert result.points[EMPIRE] == result.points[BARBARIAN]
    assert result.level.startswith("draw")
    assert game.returns(state) == (0.0, 0.0)


@pytest.mark.rule("23.3")
def test_half_a_point_decides() -> None:
    game, state = duel(20, 18, 3)
    assert game.result(state).points == (Fraction(20), Fraction(39, 2))
    game, state = duel(19, 18, 3)
    result = game.result(state)
    assert result.points == (Fraction(19), Fraction(39, 2))
    assert result.winners == (BARBARIAN,) and result.level == "Collapse"


@pytest.mark.rule("23.0")
def test_the_result_of_a_game_in_progress_is_refused() -> None:
    game = belisarius()
    state = game.initial_state()
    with pytest.raises(ValueError, match="not over"):
        game.result(state)
    with pytest.raises(ValueError, match="not over"):
        game_result(context(game), state)


# -- capitulation (3.1) -------------------------------------------------------------------------


@pytest.mark.rule("3.1", "23.3")
@pytest.mark.parametrize("loser", [EMPIRE, BARBARIAN])
def test_a_capitulation_hands_the_game_to_the_other_player_whatever_the_points(
    loser: int,
) -> None:
    game, state = duel(80, 0) if loser == EMPIRE else duel(0, 80)
    state = ended(state, capitulated=loser)
    result = game.result(state)
    assert result.winners == (1 - loser,)
    assert result.rule == "3.1"
    assert result.level == "capitulation"
    assert result.points[loser] == 80


@pytest.mark.rule("3.1")
@pytest.mark.parametrize("scenario", [1, 2, 3])
def test_capitulating_at_the_first_player_turn_ends_the_game(scenario: int) -> None:
    game = belisarius(scenario, capitulation=True)
    state = game.initial_state()
    steps = 0
    while Select("capitulate") not in game.legal_actions(state):
        actions = game.legal_actions(state)
        state = game.apply(state, actions[0])
        steps += 1
        assert steps < 5000
    request = state.pending
    assert request is not None and request.rule == "3.1"
    assert game.legal_actions(state) == (Done(), Select("capitulate"))
    loser = request.player
    final = game.apply(state, Select("capitulate"))
    assert game.current_player(final) == TERMINAL
    assert final.ending is not None and final.ending.capitulated == loser
    assert game.result(final).winners == (1 - loser,)


@pytest.mark.rule("3.1")
def test_without_the_capitulation_option_nobody_is_offered_it() -> None:
    game = belisarius(1)
    _, trail = random_game(game, seed=5)
    assert all(Select("capitulate") not in game.legal_actions(before) for before, _, _, _ in trail)
