"""Whole Turns from both setups and from start-of-turn states of any Turn.

Random play runs chapters 4-9 to the Byzantine Action Phase, or to a correct end,
and the invariants of the physical game hold in every state it passes through.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from byzantium.core.game import TERMINAL
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import Select, SooState
from byzantium.sword_of_orthodoxy.world import eastern_army, marker
from tests.sword_of_orthodoxy.strategies import start_of_turn_states
from tests.sword_of_orthodoxy.support import GAME, MILLENNIUM

RULEBOOK = "sword-of-orthodoxy"

OPTIONS = [
    {},
    {"scenario": "millennium"},
    {"islam": True, "red_dice": True, "round_letters": True, "two_synopsis_rolls": True},
    {"scenario": "millennium", "round_letters": True, "two_synopsis_rolls": True},
]


def check_invariants(game: SwordOfOrthodoxy, state: SooState) -> None:
    """What must hold in every state: conservation, ranges, Paths, Constantinople."""
    ctx = Context(game, None)
    cat = ctx.cat
    board = state.board
    assert len(board.where) == len(board.back) == len(board.value) == len(cat.tiles) == 176
    assert all(0 <= where < len(cat.spaces) for where in board.where)
    assert 0 <= marker(ctx, state, "solidus") <= 12
    assert 0 <= marker(ctx, state, "schism") <= 12
    for path in Path:
        armies = cat.tiles_of(TileKind.ARMY, path)
        if path.western:
            zone, reserves = cat.zone(path), cat.reserves(path)
            placed = [t for t in armies if board.where[t] in (zone, reserves)]
            assert len(placed) == 5, f"Path {path}: Zone plus Reserves hold {len(placed)} Armies"
        else:
            themas = set(cat.themas(path))
            on_path = [t for t in armies if board.where[t] in themas]
            assert len(on_path) <= 1
    constantinople = cat.space("constantinople")
    assert not [t for t in cat.tiles_of(TileKind.ARMY) if board.where[t] == constantinople]


def at_action_phase(state: SooState) -> bool:
    return state.pending is not None and state.pending.rule == "10.0"


def play_to_action_phase(game: SwordOfOrthodoxy, state: SooState, data: st.DataObject) -> SooState:
    for _ in range(2000):
        check_invariants(game, state)
        if game.current_player(state) == TERMINAL or at_action_phase(state):
            return state
        actions = game.legal_actions(state)
        state = game.apply(state, actions[data.draw(st.integers(0, len(actions) - 1))])
    raise AssertionError("the Turn did not reach the Byzantine Action Phase")


@pytest.mark.rule("3.1", "3.2", "A", "E", "C")
@pytest.mark.parametrize("game", [GAME, MILLENNIUM], ids=["campaign", "millennium"])
def test_setup_places_every_tile_and_waits_for_the_first_chit(game: SwordOfOrthodoxy) -> None:
    state = game.initial_state()
    check_invariants(game, state)
    first = 1 if game is GAME else 15
    assert state.turn == first
    assert state.pending is not None and state.pending.rule == "4.1"


@pytest.mark.rule("A")
def test_campaign_setup_matches_appendix_a() -> None:
    ctx = Context(GAME, None)
    state = GAME.initial_state()
    cat = ctx.cat

    def where(tile: str) -> str:
        return cat.spaces[state.board.where[cat.tile(tile)]].id

    assert where("army-delta-persia") == "iberia"
    assert where("army-epsilon-persia") == "persia"
    assert where("army-zeta-nomads") == "syria"
    assert where("outpost-egypt") == "egypt"
    assert where("outpost-lazica") == "available-outposts"
    assert where("dynasty-theodosian") == "dynasty"
    assert where("dynasty-justinian") == "chronographia-3"
    assert where("basileus-theodosius") == "basileus"
    assert where("patriarch-nestorius") == "patriarch"
    assert where("marker-kan") == "chronographia-5"
    zone_alpha = [
        t
        for t in cat.tiles_of(TileKind.ARMY, Path.ALPHA)
        if state.board.where[t] == cat.zone(Path.ALPHA)
    ]
    assert [cat.face(state.board, t).strength for t in zone_alpha] == [4]
    factions = [
        t
        for t in cat.tiles_of(TileKind.FACTION)
        if state.board.where[t] == cat.space("constantinople")
    ]
    assert len(factions) == 9
    assert eastern_army(ctx, state, Path.ZETA) == cat.tile("army-zeta-nomads")


@pytest.mark.rule("4.1", "C")
@settings(max_examples=30)
@given(st.sampled_from(OPTIONS), st.data())
def test_random_turns_from_both_setups_reach_the_action_phase(
    options: dict[str, object], data: st.DataObject
) -> None:
    game = SwordOfOrthodoxy(options)
    state = play_to_action_phase(game, game.initial_state(), data)
    if game.current_player(state) == TERMINAL:
        assert game.result(state).level == "defeat"
    else:
        assert state.turn == (15 if options.get("scenario") == "millennium" else 1)


@pytest.mark.rule("4.1", "C")
@settings(max_examples=40)
@given(start_of_turn_states(), st.data())
def test_random_turns_from_any_start_of_turn_state_reach_the_action_phase(
    built: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    game, state = built
    turn = state.turn
    state = play_to_action_phase(game, state, data)
    if game.current_player(state) != TERMINAL:
        assert state.turn == turn
        chit = [
            t
            for t in game.catalog.tiles_of(TileKind.TURN_CHIT)
            if state.board.where[t] == game.catalog.space(f"chronographia-{turn}")
        ]
        assert len(chit) == 1
    else:
        result = game.result(state)
        assert result.level == "defeat"
        assert result.rule in ("2.6", "5.3.1", "12.1")


@pytest.mark.rule("C")
@settings(max_examples=10)
@given(st.integers(0, 2**16), st.sampled_from(OPTIONS))
def test_seeded_games_replay_exactly_and_states_round_trip_through_json(
    seed: int, options: dict[str, object]
) -> None:
    import json

    from byzantium import dumps_record, loads_record, play, replay

    game = SwordOfOrthodoxy(options)
    record = play(game, seed=seed)
    final = replay(game, record)
    assert game.state_digest(final) == record.final
    again_game, again = loads_record(dumps_record(game, record))
    assert again == record
    assert replay(again_game, again) == final
    assert game.decode_state(json.loads(json.dumps(game.encode_state(final)))) == final
    assert game.is_terminal(final)
    assert play(game, seed=seed) == record


def play_to_end(game: SwordOfOrthodoxy, state: SooState, data: st.DataObject) -> SooState:
    """Random legal play to the end, checking the invariants in every state."""
    ctx = Context(game, None)
    bank_limit: int | None = None
    for _ in range(20_000):
        check_invariants(game, state)
        if game.current_player(state) == TERMINAL:
            return state
        request = state.pending
        assert request is not None
        actions = game.legal_actions(state)
        action = actions[data.draw(st.integers(0, len(actions) - 1))]
        if request.rule == "11.1":
            kept = [int(a.item.split()[-1]) for a in actions if isinstance(a, Select)]
            bank_limit = max(kept)
            assert bank_limit <= marker(ctx, state, "solidus")
            assert bank_limit in (0, 1, 3, 12) or bank_limit == marker(ctx, state, "solidus")
        state = game.apply(state, action)
    del bank_limit
    raise AssertionError("the game did not end")


@pytest.mark.rule("11.1", "11.11", "12.3", "2.1")
@settings(max_examples=60)
@given(st.sampled_from(OPTIONS), st.data())
def test_whole_random_games_from_both_setups_end_with_every_invariant_kept(
    options: dict[str, object], data: st.DataObject
) -> None:
    game = SwordOfOrthodoxy(options)
    final = play_to_end(game, game.initial_state(), data)
    result = game.result(final)
    if result.level == "defeat":
        assert result.rule in ("2.6", "5.3.1", "12.1", "6.2.3", "10.2", "10.8")
        assert result.winners == ()
    else:
        assert result.rule == "12.3"
        assert result.scores == (sum(points for _, points in result.breakdown),)


@pytest.mark.rule("11.11", "12.3")
@settings(max_examples=40)
@given(start_of_turn_states(), st.data())
def test_whole_random_games_from_any_start_of_turn_state_end(
    built: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    game, state = built
    final = play_to_end(game, state, data)
    assert game.is_terminal(final)
    assert final.turn >= state.turn


ALL_OPTIONS = [
    {
        "scenario": scenario,
        "islam": islam,
        "red_dice": red,
        "round_letters": letters,
        "two_synopsis_rolls": two,
    }
    for scenario in ("campaign", "millennium")
    for islam in (False, True)
    for red in (False, True)
    for letters in (False, True)
    for two in (False, True)
]


@pytest.mark.rule("11.11", "5.2.3", "5.3.6", "5.3.8", "8.2")
@pytest.mark.parametrize("options", ALL_OPTIONS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_every_option_combination_plays_to_an_end(options: dict[str, object]) -> None:
    from byzantium import play, replay

    game = SwordOfOrthodoxy(options)
    for seed in range(3):
        final = replay(game, play(game, seed=seed, digests=False))
        assert game.is_terminal(final)
        assert game.result(final).level


@pytest.mark.rule("C")
@settings(max_examples=20)
@given(start_of_turn_states(), st.data())
def test_states_and_actions_are_hashable_and_compare_by_value(
    built: tuple[SwordOfOrthodoxy, SooState], data: st.DataObject
) -> None:
    import copy

    game, state = built
    twin = copy.deepcopy(state)
    assert twin == state
    assert hash(twin) == hash(state)
    actions = game.legal_actions(state)
    assert len(set(actions)) == len(actions)
    action = actions[data.draw(st.integers(0, len(actions) - 1))]
    assert {game.apply(state, action): "seen"}[game.apply(twin, copy.deepcopy(action))] == "seen"
