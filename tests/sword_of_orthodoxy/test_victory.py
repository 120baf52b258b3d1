"""Victory Points and victory levels (12.3); whole games end with a result.

The Victory Points are recomputed here straight from the board, without the
library's helpers, and compared with the result the game reports.
"""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium import play, replay
from byzantium.core.game import TERMINAL
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import Ending, SooState
from byzantium.sword_of_orthodoxy.victory import LEVELS, VictoryPoints, victory_level
from tests.sword_of_orthodoxy.strategies import start_of_turn_states
from tests.sword_of_orthodoxy.support import GAME, MILLENNIUM, campaign, idle, millennium, put

RULEBOOK = "sword-of-orthodoxy"

CAT = GAME.catalog
OFF_MAP = {"counter-tray", "discarded", "turn-chit-mug", "dynasty-mug", "basileus-mug"}
OFF_MAP |= {"patriarch-mug", "reserves-alpha", "reserves-beta", "reserves-gamma"}
OUTPOST_SPACES = {
    "outpost-egypt": {"egypt"},
    "outpost-holy-land": {"outpost-holy-land"},
    "outpost-lazica": {"outpost-lazica", "greek-fire"},
    "outpost-rome": {"outpost-rome"},
    "outpost-sicily": {"outpost-sicily"},
    "outpost-hispania": {"outpost-hispania"},
}
SURVIVED = Ending(defeat=False, rule="11.11", reason="Turn 27 is over")


def space_of(state: SooState, tile_id: str) -> str:
    return CAT.spaces[state.board.where[CAT.tile(tile_id)]].id


def shows_back(state: SooState, tile_id: str) -> bool:
    return state.board.back[CAT.tile(tile_id)]


def expected_lines(state: SooState) -> list[int]:
    """12.3 counted by hand from the board: the points of lines ① to ⑦."""
    board = state.board
    armies = 0
    for path in (Path.ALPHA, Path.BETA, Path.GAMMA):
        zone = CAT.zone(path)
        armies += sum(1 for t in CAT.tiles_of(TileKind.ARMY, path) if board.where[t] == zone)
    themas = 0
    for path in (Path.DELTA, Path.EPSILON, Path.ZETA):
        spaces = CAT.themas(path)
        hostile = [
            t
            for t in (*CAT.tiles_of(TileKind.ARMY, path), *CAT.tiles_of(TileKind.MARKER, path))
            if board.where[t] in spaces and (CAT.tiles[t].front.strength > 0)
        ]
        if hostile:
            themas += 5 - spaces.index(board.where[hostile[0]])
        else:
            themas += 1  # the Homeland is never the Empire's
    outposts = sum(
        1
        for outpost, spaces in OUTPOST_SPACES.items()
        if space_of(state, outpost) in spaces and not shows_back(state, outpost)
    )
    factions = sum(
        1
        for t in CAT.tiles_of(TileKind.FACTION)
        if space_of(state, CAT.tiles[t].id) == "constantinople"
    )
    solidus = board.value[CAT.tile("marker-solidus")]
    buildings = sum(
        1
        for kind in (TileKind.MONASTERY, TileKind.HOSPITAL)
        for t in CAT.tiles_of(kind)
        if space_of(state, CAT.tiles[t].id) not in OFF_MAP
    )
    if space_of(state, "patriarch-nestorius") == "constantinople" and shows_back(
        state, "patriarch-nestorius"
    ):
        buildings += 1
    regions = sum(
        1
        for blue, space in (
            ("marker-zone-alpha", "zone-name-alpha"),
            ("marker-zone-beta", "zone-name-beta"),
        )
        if space_of(state, blue) == space and not shows_back(state, blue)
    )
    ruins = space_of(state, "marker-ruins") not in OFF_MAP
    return [
        30 - armies - themas,
        2 * outposts,
        factions,
        solidus,
        3 * buildings,
        5 * regions,
        -10 if ruins else 0,
    ]


def expected_level(total: int) -> str:
    bands = [(75, 999), (65, 74), (55, 64), (45, 54), (35, 44), (-999, 34)]
    names = [name for _, name in LEVELS] + ["city-state"]
    return next(
        name for (low, high), name in zip(bands, names, strict=True) if low <= total <= high
    )


def check_survived(game: SwordOfOrthodoxy, state: SooState) -> None:
    """The result of a survived game is 12.3 counted on its final board."""
    result = game.result(state)
    lines = expected_lines(state)
    assert result.winners == (0,) and result.rule == "12.3"
    assert result.scores == (sum(lines),)
    assert [points for _, points in result.breakdown] == lines
    assert [label[0] for label, _ in result.breakdown] == list("①②③④⑤⑥⑦")
    assert sum(points for _, points in result.breakdown) == result.scores[0]
    assert result.level == expected_level(sum(lines))
    assert game.returns(state) == (sum(lines) / 100,)


# -- end boards --------------------------------------------------------------------------

ON_OR_OFF = ["counter-tray", "discarded"]


@st.composite
def end_boards(draw: st.DrawFn) -> SooState:
    """A survived game's last board: any Zones, eastern fronts, Outposts, buildings..."""
    state = idle(draw(st.sampled_from([campaign(), millennium()])))
    for path in (Path.ALPHA, Path.BETA, Path.GAMMA):
        count = draw(st.integers(1, 5))
        for i, army in enumerate(CAT.tiles_of(TileKind.ARMY, path)):
            space = f"zone-{path.name.lower()}" if i < count else f"reserves-{path.name.lower()}"
            state = put(state, CAT.tiles[army].id, space)
    for path in (Path.DELTA, Path.EPSILON, Path.ZETA):
        themas = CAT.themas(path)
        space = CAT.spaces[themas[draw(st.integers(0, 4))]].id
        for army in CAT.tiles_of(TileKind.ARMY, path):
            if state.board.where[army] in themas:
                state = put(state, CAT.tiles[army].id, space)
        if path is not Path.DELTA and draw(st.booleans()):  # the Mongols replace the Army
            for army in CAT.tiles_of(TileKind.ARMY, path):
                if state.board.where[army] in themas:
                    state = put(state, CAT.tiles[army].id, "counter-tray")
            state = put(state, f"marker-mongols-{path.name.lower()}", space)
    for outpost, spaces in OUTPOST_SPACES.items():
        choices = sorted(spaces) + ON_OR_OFF + ["available-outposts"]
        state = put(
            state,
            outpost,
            draw(st.sampled_from(choices)),
            back=draw(st.booleans()) and outpost == "outpost-egypt",
        )
    for faction in CAT.tiles_of(TileKind.FACTION):
        inside = draw(st.booleans())
        state = put(
            state,
            CAT.tiles[faction].id,
            "constantinople" if inside else "omnibus",
            0 if inside else 3,
        )
    state = put(state, "marker-solidus", "omnibus", draw(st.integers(0, 12)))
    building_spaces = ["zone-beta", "zone-gamma", "cappadocia", "nisibis", *ON_OR_OFF]
    for building in ("monastery-1", "monastery-2", "hospital-1", "hospital-2"):
        state = put(
            state, building, draw(st.sampled_from(building_spaces)), back=draw(st.booleans())
        )
    nestorius = draw(st.sampled_from(["constantinople", "patriarch", "counter-tray", "discarded"]))
    state = put(state, "patriarch-nestorius", nestorius, back=draw(st.booleans()))
    for blue in ("marker-zone-alpha", "marker-zone-beta"):
        state = put(state, blue, f"zone-name-{blue.split('-')[-1]}", back=draw(st.booleans()))
    ruins = draw(st.sampled_from(["omnibus", *ON_OR_OFF]))
    state = put(state, "marker-ruins", ruins, draw(st.integers(1, 9)) if ruins == "omnibus" else 0)
    return attrs.evolve(state, ending=SURVIVED)


@pytest.mark.rule("12.3")
@given(end_boards())
def test_victory_points_are_12_3_counted_on_the_final_board(state: SooState) -> None:
    check_survived(GAME, state)


@pytest.mark.rule("12.3")
def test_the_campaign_setup_would_score_46() -> None:
    """① 30-6 ② Egypt 2 ③ 9 Factions ④ 1 $ ⑤ nothing ⑥ Africa and Italy 10 ⑦ no Ruins."""
    state = attrs.evolve(idle(campaign()), ending=SURVIVED)
    result = GAME.result(state)
    assert [points for _, points in result.breakdown] == [24, 2, 9, 1, 0, 10, 0]
    assert result.scores == (46,) and result.level == "Greek bastion"


@pytest.mark.rule("12.3")
def test_the_millennium_setup_would_score_34() -> None:
    """① 30-17 ② Sicily, Lazica 4 ③ 11 ④ 3 $ ⑤ the Monastery 3 ⑥ Crete, Balkans 0 ⑦ 0."""
    state = attrs.evolve(idle(millennium()), ending=SURVIVED)
    result = MILLENNIUM.result(state)
    assert [points for _, points in result.breakdown] == [13, 4, 11, 3, 3, 0, 0]
    assert result.scores == (34,) and result.level == "city-state"


@pytest.mark.rule("12.3")
def test_fallen_egypt_a_used_hospital_and_the_ruins() -> None:
    state = idle(campaign())
    base = VictoryPoints(6, 1, 9, 1, 0, 2, False)
    assert GAME.result(attrs.evolve(state, ending=SURVIVED)).scores == (base.total,)
    state = put(state, "outpost-egypt", "egypt", back=True)  # Fallen: not controlled
    state = put(state, "hospital-1", "iberia", back=True)  # behind enemy lines, used: counts
    state = put(state, "marker-ruins", "omnibus", 4)
    result = GAME.result(attrs.evolve(state, ending=SURVIVED))
    assert result.scores == (base.total - 2 + 3 - 10,)


@pytest.mark.rule("12.3")
@given(st.integers(-10, 90))
def test_the_levels_follow_the_bands_of_12_3(points: int) -> None:
    assert victory_level(points) == expected_level(points)


@pytest.mark.rule("12.3")
def test_the_band_edges() -> None:
    names = [victory_level(p) for p in (75, 74, 65, 64, 55, 54, 45, 44, 35, 34)]
    assert names == [
        "superpower",
        "great power",
        "great power",
        "faded glory",
        "faded glory",
        "Greek bastion",
        "Greek bastion",
        "rump state",
        "rump state",
        "city-state",
    ]


@pytest.mark.rule("12.3", "12.1")
def test_a_defeat_keeps_its_cause_and_is_worth_less_than_any_victory() -> None:
    state = attrs.evolve(
        idle(campaign()), ending=Ending(defeat=True, rule="12.1", reason="Constantinople falls")
    )
    result = GAME.result(state)
    assert (result.winners, result.level, result.rule) == ((), "defeat", "12.1")
    assert result.reason == "Constantinople falls"
    assert GAME.returns(state) == (-1.0,)
    worst = VictoryPoints(30, 0, 0, 0, 0, 0, True)
    assert worst.total / 100 > -1.0


# -- whole games -------------------------------------------------------------------------

DEFEATS = {"2.6", "5.3.1", "12.1"}


def check_terminal(game: SwordOfOrthodoxy, state: SooState) -> None:
    assert game.current_player(state) == TERMINAL
    assert state.ending is not None
    if state.ending.defeat:
        result = game.result(state)
        assert result.level == "defeat" and result.rule in DEFEATS
        assert game.returns(state) == (-1.0,)
    else:
        assert state.ending.rule == "11.11"
        check_survived(game, state)


@pytest.mark.rule("11.11", "12.3", "C")
@pytest.mark.parametrize("game", [GAME, MILLENNIUM], ids=["campaign", "millennium"])
@pytest.mark.parametrize("seed", range(8))
def test_random_games_from_both_setups_reach_their_end(game: SwordOfOrthodoxy, seed: int) -> None:
    record = play(game, seed=seed, max_steps=200_000, digests=False)
    check_terminal(game, replay(game, record))


@pytest.mark.rule("11.11", "12.3", "C")
@settings(max_examples=25)
@given(start_of_turn_states(turn=27), st.data())
def test_random_play_of_the_last_turn_ends_the_game(
    built: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    game, state = built
    for _ in range(5000):
        if game.current_player(state) == TERMINAL:
            break
        actions = game.legal_actions(state)
        state = game.apply(state, actions[data.draw(st.integers(0, len(actions) - 1))])
    check_terminal(game, state)
    assert state.turn == 27
