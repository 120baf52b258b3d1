"""The OpenSpiel adapter (:mod:`byzantium.openspiel`); skipped without OpenSpiel.

Run with ``tox -e openspiel``, which installs the ``openspiel`` extra.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from collections.abc import Mapping
from fractions import Fraction

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel")

from byzantium import openspiel  # noqa: E402  (needs pyspiel, checked above)
from byzantium.belisarius.diplomacy import HIDDEN  # noqa: E402
from byzantium.belisarius.observation import draw_recipient  # noqa: E402
from byzantium.belisarius.state import BelState, Draw, RequestKind, Stratagems  # noqa: E402
from byzantium.core.codec import canonical_json  # noqa: E402
from byzantium.core.errors import UnknownOptionError  # noqa: E402
from byzantium.core.game import CHANCE, Game  # noqa: E402
from byzantium.core.registry import game_class  # noqa: E402

SOO = "byzantium_sword_of_orthodoxy"
BEL = "byzantium_belisarius"
#: Short Belisarius games: scenario 1, where a random player soon capitulates.
QUICK_BEL = {"scenario": 1, "capitulation": True}


def playthrough(name: str, params: dict[str, object], seed: int) -> list[openspiel.SpielState]:
    """Every state of one game played through OpenSpiel with random choices."""
    rng = random.Random(seed)
    state = pyspiel.load_game(name, params).new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.fixture(scope="module")
def soo_game() -> list[openspiel.SpielState]:
    return playthrough(SOO, {}, seed=3)


@pytest.fixture(scope="module")
def bel_game() -> list[openspiel.SpielState]:
    # A whole game (no capitulation), so that markers are bought and drawn.
    return playthrough(BEL, {"scenario": 1, "capitulation": False}, seed=5)


# -- registration -----------------------------------------------------------------------


def test_both_games_are_registered_with_their_options_as_parameters() -> None:
    names = pyspiel.registered_names()
    assert SOO in names
    assert BEL in names
    game = pyspiel.load_game(BEL, {"scenario": 2, "pillage": True})
    assert game.byzantium_game.options["scenario"] == 2
    assert game.byzantium_game.options["pillage"] is True
    assert game.get_parameters()["scenario"] == 2
    text = pyspiel.load_game("byzantium_sword_of_orthodoxy(scenario=millennium)")
    assert text.byzantium_game.options["scenario"] == "millennium"
    assert game.num_players() == 2
    assert pyspiel.load_game(SOO).num_players() == 1


def test_game_types_declare_chance_and_information() -> None:
    soo = pyspiel.load_game(SOO).get_type()
    bel = pyspiel.load_game(BEL).get_type()
    assert soo.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert soo.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert bel.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert bel.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_registering_again_does_nothing() -> None:
    openspiel.register_games()
    assert pyspiel.registered_names().count(BEL) == 1


def test_without_openspiel_the_module_imports_and_registering_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['pyspiel'] = None\n"
        "import byzantium.openspiel as m\n"
        "try:\n    m.register_games()\n"
        "except ModuleNotFoundError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'byzantium[openspiel]'" in out.stdout


# -- OpenSpiel's own consistency checks ---------------------------------------------------


def test_random_sim_test_sword_of_orthodoxy() -> None:
    game = pyspiel.load_game(SOO)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_random_sim_test_belisarius() -> None:
    game = pyspiel.load_game(BEL, QUICK_BEL)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    whole_game = pyspiel.load_game(BEL, {"scenario": 1, "capitulation": False})
    pyspiel.random_sim_test(whole_game, num_sims=1, serialize=False, verbose=False)


# -- the action encoding ------------------------------------------------------------------


def test_action_ids_round_trip_along_played_games(
    soo_game: list[openspiel.SpielState], bel_game: list[openspiel.SpielState]
) -> None:
    for spiel_state in (*soo_game, *bel_game):
        game: Game[object, object] = spiel_state.byzantium_game
        state = spiel_state.byzantium_state
        if spiel_state.is_terminal():
            assert spiel_state.legal_actions() == []
            continue
        ids = spiel_state.legal_actions()
        actions = game.legal_actions(state)
        in_order = openspiel.legal_ids(game, state)
        assert ids == sorted(in_order)
        assert len(set(ids)) == len(ids) == len(actions)
        names = [spiel_state.action_to_string(spiel_state.current_player(), i) for i in ids]
        assert len(set(names)) == len(names)
        for i, action in zip(in_order, actions, strict=True):
            assert openspiel.action_for_id(game, state, i) == action
            assert openspiel.id_for_action(game, state, action) == i
            data = openspiel.action_json(game, state, i)
            assert openspiel.id_for_json(game, state, json.loads(json.dumps(data))) == i
            name = spiel_state.action_to_string(spiel_state.current_player(), i)
            assert name.startswith(game.describe_action(state, action))


def test_sword_of_orthodoxy_decisions_are_numbered_by_its_fixed_action_space(
    soo_game: list[openspiel.SpielState],
) -> None:
    spiel_game = pyspiel.load_game(SOO)
    game = spiel_game.byzantium_game
    space = game.action_space()
    assert spiel_game.num_distinct_actions() == space.size == 937
    assert spiel_game.max_chance_outcomes() == openspiel.SPIEL_GAMES[SOO].max_chance_outcomes
    meaning: dict[int, object] = {}
    for spiel_state in soo_game:
        state = spiel_state.byzantium_state
        if spiel_state.is_terminal():
            continue
        if spiel_state.is_chance_node():
            # Chance outcomes stay positional.
            assert [i for i, _ in spiel_state.chance_outcomes()] == list(
                range(len(game.chance_outcomes(state)))
            )
            continue
        assert spiel_state.legal_actions() == space.legal_indices(state)
        for i in spiel_state.legal_actions():
            decision = game.typed_action(state, openspiel.action_for_id(game, state, i))
            assert meaning.setdefault(i, decision) == decision  # one id, one decision
        illegal = next(i for i in range(space.size) if i not in spiel_state.legal_actions())
        assert spiel_state.action_to_string(0, illegal) == space.label(illegal)
        with pytest.raises(ValueError, match="actions are legal"):
            openspiel.action_for_id(game, state, illegal)
    assert len(meaning) > 20


def _pig_spiel_game(
    target: int = 10, short_name: str = "byzantium_pig_test", num_distinct_actions: int = 8
) -> openspiel.SpielGame:
    """Pig (the kernel's test game) as an OpenSpiel game, not registered with OpenSpiel.

    Each target makes another instance of our game (instances are shared per options,
    and so is what the adapter learns of their action space).
    """
    spec = openspiel.SpielSpec(
        game="pig",
        short_name=short_name,
        long_name="Pig (byzantium tests)",
        num_distinct_actions=num_distinct_actions,
        max_chance_outcomes=6,
        max_game_length=10_000,
        min_utility=-1.0,
        max_utility=1.0,
        zero_sum=True,
        perfect_information=True,
    )
    maker: type[openspiel.SpielGame] = type("PigSpiel", (openspiel.SpielGame,), {"spec": spec})
    return maker({"target": target})


def test_a_game_with_an_action_space_uses_it_and_chance_stays_positional() -> None:
    spiel_game = _pig_spiel_game()
    assert spiel_game.num_distinct_actions() == 2  # Pig's space: 0 holds, 1 rolls
    state = spiel_game.new_initial_state()
    assert state.legal_actions() == [0, 1]
    assert state.action_to_string(0, 0) == "hold"
    state.apply_action(1)
    assert state.is_chance_node()
    assert [i for i, _ in state.chance_outcomes()] == [0, 1, 2, 3, 4, 5]
    pyspiel.random_sim_test(spiel_game, num_sims=5, serialize=False, verbose=False)


def test_a_game_without_an_action_space_falls_back_to_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pig = game_class("pig")
    monkeypatch.setattr(pig, "action_space", Game.action_space)
    spiel_game = _pig_spiel_game(50, short_name="byzantium_pig_positional_test")
    assert spiel_game.num_distinct_actions() == 8  # the spec's bound
    state = spiel_game.new_initial_state()
    assert state.legal_actions() == [0, 1]
    assert openspiel.action_space_of(spiel_game.byzantium_game) is None
    pyspiel.random_sim_test(spiel_game, num_sims=3, serialize=False, verbose=False)


def test_each_transition_is_our_game_applying_the_action(
    soo_game: list[openspiel.SpielState], bel_game: list[openspiel.SpielState]
) -> None:
    for states in (soo_game, bel_game):
        for before, after in itertools.pairwise(states):
            game = before.byzantium_game
            action_id = after.history()[-1]
            action = openspiel.action_for_id(game, before.byzantium_state, action_id)
            assert game.apply(before.byzantium_state, action) == after.byzantium_state
        assert states[-1].is_terminal()
        assert states[-1].returns() == list(game.returns(states[-1].byzantium_state))


def test_ids_out_of_range_are_refused(soo_game: list[openspiel.SpielState]) -> None:
    state = soo_game[0]
    game = state.byzantium_game
    with pytest.raises(ValueError, match="actions are legal"):
        openspiel.action_for_id(game, state.byzantium_state, len(state.legal_actions()))


def test_a_bound_too_small_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bounds matter for positional ids: Pig without its action space offers two choices.
    monkeypatch.setattr(game_class("pig"), "action_space", Game.action_space)
    tiny = _pig_spiel_game(100, short_name="byzantium_pig_tiny_test", num_distinct_actions=1)
    state = tiny.new_initial_state()
    with pytest.raises(openspiel.LimitExceededError, match="num_distinct_actions=1"):
        state.legal_actions()


def test_clones_share_our_immutable_state(bel_game: list[openspiel.SpielState]) -> None:
    state = bel_game[len(bel_game) // 2]
    clone = state.clone()
    assert clone.byzantium_state is state.byzantium_state
    assert clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[0] if not clone.is_chance_node() else 0)
    assert clone.byzantium_state is not state.byzantium_state


def test_serialisation_replays_the_actions(bel_game: list[openspiel.SpielState]) -> None:
    state = bel_game[len(bel_game) // 3]
    text = pyspiel.serialize_game_and_state(state.get_game(), state)
    _, copy = pyspiel.deserialize_game_and_state(text)
    assert copy.byzantium_state == state.byzantium_state
    assert copy.history() == state.history()
    assert copy.information_state_string(0) == state.information_state_string(0)


# -- chance ----------------------------------------------------------------------------


def test_chance_probabilities_are_ours_as_floats(
    soo_game: list[openspiel.SpielState], bel_game: list[openspiel.SpielState]
) -> None:
    chance_nodes = [s for s in (*soo_game, *bel_game) if s.is_chance_node()]
    assert chance_nodes
    for spiel_state in chance_nodes:
        exact = spiel_state.byzantium_game.chance_outcomes(spiel_state.byzantium_state)
        outcomes = spiel_state.chance_outcomes()
        assert [i for i, _ in outcomes] == list(range(len(exact)))
        assert [p for _, p in outcomes] == [float(p) for _, p in exact]
        assert sum(p for _, p in exact) == Fraction(1)
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0, abs_tol=1e-12)


# -- observations --------------------------------------------------------------------------


def test_sword_of_orthodoxy_observes_the_whole_state(
    soo_game: list[openspiel.SpielState],
) -> None:
    for spiel_state in soo_game[:: max(1, len(soo_game) // 20)]:
        game = spiel_state.byzantium_game
        whole = canonical_json(game.encode_state(spiel_state.byzantium_state))
        assert spiel_state.observation_string(0) == whole
        assert spiel_state.information_state_string(0).endswith(whole)


def _with_other_secrets_changed(state: BelState, other: int) -> BelState:
    """The state with the other player's treasury and the types of his markers changed
    (the number of his markers, which is public, kept)."""
    hands = list(state.stratagems.hands)
    hand = hands[other]
    hands[other] = hand[1:] + hand[:1]
    solidus = list(state.solidus)
    solidus[other] += 7
    return attrs.evolve(
        state,
        stratagems=Stratagems(state.stratagems.pool, (hands[0], hands[1])),
        solidus=(solidus[0], solidus[1]),
    )


def test_belisarius_observations_hide_the_other_players_secrets(
    bel_game: list[openspiel.SpielState],
) -> None:
    hidden_views = 0
    for spiel_state in bel_game:
        game = spiel_state.byzantium_game
        state = spiel_state.byzantium_state
        assert isinstance(state, BelState)
        for player in (0, 1):
            other = 1 - player
            seen = spiel_state.observation_string(player)
            assert seen == openspiel.observation_string(game, state, player)
            view = json.loads(seen)
            if state.revealed[player]:
                continue
            hidden_views += 1
            assert view["other_hand"] is None
            assert view["other_treasury"] is None
            changed = _with_other_secrets_changed(state, other)
            assert openspiel.observation_string(game, changed, player) == seen
            assert openspiel.observation_string(game, changed, other) != (
                spiel_state.observation_string(other)
            )
    assert hidden_views > 0


def test_belisarius_information_states_mask_the_other_players_draws(
    bel_game: list[openspiel.SpielState],
) -> None:
    final = bel_game[-1]
    masked = 0
    for player in (0, 1):
        lines = final.information_state_string(player).split("\n")
        assert lines[0] == f"player {player}"
        assert len(lines) == len(bel_game) + 1  # a line per action, then the observation
        for before, line in zip(bel_game[:-1], lines[1:-1], strict=True):
            state = before.byzantium_state
            assert isinstance(state, BelState)
            action = openspiel.action_for_id(
                before.byzantium_game, state, final.history()[len(before.history())]
            )
            request = state.pending
            assert request is not None
            secret = (
                isinstance(action, Draw)
                and request.kind is RequestKind.DRAW
                and draw_recipient(request) == 1 - player
                and not state.revealed[player]
            )
            if secret:
                masked += 1
                assert line == "chance: " + canonical_json({"type": "Draw", "stratagem": HIDDEN})
            elif before.current_player() == CHANCE:
                encoded = canonical_json(before.byzantium_game.encode_action(action))
                assert line == f"chance: {encoded}"
    assert masked > 0


def test_information_states_differ_by_player_and_grow_with_the_game(
    bel_game: list[openspiel.SpielState],
) -> None:
    middle = bel_game[len(bel_game) // 2]
    assert middle.information_state_string(0) != middle.information_state_string(1)
    earlier = bel_game[len(bel_game) // 4].information_state_string(0).split("\n")[:-1]
    assert middle.information_state_string(0).split("\n")[: len(earlier)] == earlier


def test_unsupported_observation_types_are_refused() -> None:
    game = pyspiel.load_game(BEL)
    public_only = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="one player's view"):
        game.make_py_observer(public_only)


# -- observation tensors ---------------------------------------------------------------------


def test_both_games_declare_observation_tensors_of_their_layouts_shape() -> None:
    for name in (SOO, BEL):
        game = pyspiel.load_game(name)
        assert game.get_type().provides_observation_tensor
        ours = openspiel.SPIEL_GAMES[name]
        layout = openspiel._game(ours.game, ()).observation_tensor_layout()
        assert game.observation_tensor_shape() == [layout.size]
        assert game.observation_tensor_size() == layout.size


def test_observation_tensors_are_the_games_own(
    soo_game: list[openspiel.SpielState], bel_game: list[openspiel.SpielState]
) -> None:
    for states, players in ((soo_game, (0,)), (bel_game, (0, 1))):
        for spiel_state in states[:: max(1, len(states) // 15)]:
            game = spiel_state.byzantium_game
            for player in players:
                ours = game.observation_tensor(spiel_state.byzantium_state, player)
                assert spiel_state.observation_tensor(player) == pytest.approx(ours)


def test_belisarius_observation_tensors_hide_the_other_players_secrets(
    bel_game: list[openspiel.SpielState],
) -> None:
    hidden = 0
    for spiel_state in bel_game[::10]:
        game = spiel_state.byzantium_game
        state = spiel_state.byzantium_state
        assert isinstance(state, BelState)
        for player in (0, 1):
            if state.revealed[player]:
                continue
            hidden += 1
            changed = _with_other_secrets_changed(state, 1 - player)
            assert game.observation_tensor(changed, player) == game.observation_tensor(
                state, player
            )
            assert spiel_state.observation_tensor(player) == pytest.approx(
                game.observation_tensor(changed, player)
            )
    assert hidden > 0


def test_an_observer_has_a_view_per_segment() -> None:
    game = pyspiel.load_game(BEL)
    observer = game.make_py_observer()
    state = game.new_initial_state()
    observer.set_from(state, 1)
    layout = state.byzantium_game.observation_tensor_layout()
    assert list(observer.dict) == [segment.name for segment in layout.segments]
    assert observer.dict["observer"].tolist() == [0.0, 1.0]
    assert observer.dict["counter place"].shape == layout.segment("counter place").shape
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor is None


# -- built-in policies as bots ----------------------------------------------------------------


def _bot_game(
    name: str, params: Mapping[str, object], bots: list[openspiel.PolicyBot], seed: int
) -> list[int]:
    """The ids a game played by ``bots`` takes (chance from ``seed``), restarting them."""
    for bot in bots:
        bot.restart()
    rng = random.Random(seed)
    state = pyspiel.load_game(name, params).new_initial_state()
    ids = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = rng.choices(outcomes, probs)[0]
        else:
            action = bots[state.current_player()].step(state)
        ids.append(action)
        state.apply_action(action)
    return ids


def test_a_policy_bot_plays_the_policy_on_the_state_it_wraps() -> None:
    game = pyspiel.load_game(BEL, QUICK_BEL)
    ours = game.byzantium_game
    bots = [openspiel.policy_bot(game, "sensible", player=p) for p in (0, 1)]
    sensible = ours.policies()["sensible"]
    state = game.new_initial_state()
    rng = random.Random(2)
    decisions = 0
    while not state.is_terminal() and decisions < 60:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        chosen = bots[state.current_player()].step(state)
        # The sensible player is deterministic: the bot's id is the policy's action.
        expected = sensible(ours, state.byzantium_state, random.Random())
        assert openspiel.action_for_id(ours, state.byzantium_state, chosen) == expected
        state.apply_action(chosen)
        decisions += 1
    assert decisions > 10


def test_a_policy_bot_is_deterministic_for_its_seed() -> None:
    game = pyspiel.load_game(BEL, QUICK_BEL)

    def bots(seed: int) -> list[openspiel.PolicyBot]:
        return [openspiel.policy_bot(game, "random", seed=seed, player=p) for p in (0, 1)]

    first = _bot_game(BEL, QUICK_BEL, bots(5), seed=1)
    assert _bot_game(BEL, QUICK_BEL, bots(5), seed=1) == first
    same = bots(5)
    assert _bot_game(BEL, QUICK_BEL, same, seed=1) == _bot_game(BEL, QUICK_BEL, same, seed=1)
    others = {tuple(_bot_game(BEL, QUICK_BEL, bots(seed), seed=1)) for seed in range(6, 10)}
    assert len(others | {tuple(first)}) > 1


def test_policy_bots_play_through_evaluate_bots() -> None:
    game = pyspiel.load_game(BEL, QUICK_BEL)
    sensible = openspiel.policy_bot(game, "sensible", player=0)
    rand = openspiel.policy_bot(game, "random", seed=3, player=1)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [sensible, rand], 7)
    assert returns == pyspiel.evaluate_bots(game.new_initial_state(), [sensible, rand], 7)
    assert sorted(returns) == [-1.0, 1.0]
    soo = pyspiel.load_game(SOO)
    assert pyspiel.evaluate_bots(
        soo.new_initial_state(), [openspiel.policy_bot(soo, "first")], 1
    ) == [-1.0]


def test_policy_bots_refuse_what_they_cannot_do() -> None:
    game = pyspiel.load_game(BEL, QUICK_BEL)
    with pytest.raises(UnknownOptionError, match=r"no policy 'clever'.*sensible"):
        openspiel.policy_bot(game, "clever")
    with pytest.raises(UnknownOptionError, match="players 0 to 1, not 2"):
        openspiel.policy_bot(game, "random", player=2)
    with pytest.raises(TypeError, match=r"not a game of byzantium\.openspiel"):
        openspiel.policy_bot(pyspiel.load_game("tic_tac_toe"), "random")
    state = game.new_initial_state()
    while state.is_chance_node() or state.current_player() != 0:
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="bot of Barbarian was asked to act where Empire"):
        openspiel.policy_bot(game, "random", player=1).step(state)
    soo_state = pyspiel.load_game(SOO).new_initial_state()
    with pytest.raises(ValueError, match="not a state of belisarius"):
        openspiel.policy_bot(game, "random").step(soo_state)


def test_the_documented_bot_example_runs() -> None:
    # docs/openspiel.rst, "Built-in players as bots".
    from byzantium.openspiel import policy_bot

    game = pyspiel.load_game("byzantium_belisarius", {"scenario": 1})
    bots = [
        policy_bot(game, "sensible", seed=1, player=0),
        policy_bot(game, "random", seed=1, player=1),
    ]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert len(returns) == 2 and sum(returns) == 0


# -- the adapter at the library's own speed (issue 41) -------------------------------------


def test_action_numbers_are_worked_out_once_per_state(monkeypatch: pytest.MonkeyPatch) -> None:
    state = pyspiel.load_game(SOO).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    space = openspiel.action_space_of(state.byzantium_game)
    assert space is not None
    calls: list[object] = []
    number = type(space).index

    def counted(self: object, at: object, action: object) -> int:
        calls.append(action)
        return number(self, at, action)  # type: ignore[arg-type]

    monkeypatch.setattr(type(space), "index", counted)
    ids = state.legal_actions()
    state.legal_actions()
    state.action_to_string(ids[-1])
    state.apply_action(ids[-1])
    assert len(calls) == len(ids)


def test_legal_ids_are_applied_without_a_second_check(monkeypatch: pytest.MonkeyPatch) -> None:
    state = pyspiel.load_game(BEL, QUICK_BEL).new_initial_state()
    game = state.byzantium_game

    def refused(*args: object) -> None:
        raise AssertionError("the adapter checked an action it took from legal_actions")

    monkeypatch.setattr(game, "check_action", refused)
    monkeypatch.setattr(game, "apply", refused)
    rng = random.Random(2)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history()) == 60


def test_the_history_keeps_no_earlier_state_alive() -> None:
    import gc
    import weakref

    state = pyspiel.load_game(SOO).new_initial_state()
    rng = random.Random(4)
    early: weakref.ref[object] | None = None
    for step in range(60):
        if step == 5:
            early = weakref.ref(state.byzantium_state)
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(ids, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    gc.collect()
    assert early is not None
    assert early() is None
    # the information state still reads the whole history, as before
    assert state.information_state_string(0).count("\n") >= 2


def test_a_serialised_state_is_still_replayed_with_checks() -> None:
    state = pyspiel.load_game(SOO).new_initial_state()
    game = state.byzantium_game
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    played = openspiel.action_json(game, state.byzantium_state, legal[0])
    options = tuple(sorted(game.options.items()))
    # the first decision's action again, at the chance node that follows it
    text = canonical_json(played)
    with pytest.raises(ValueError, match="not legal"):
        openspiel._replay(
            SOO,
            options,
            [canonical_json(game.encode_action(a)) for a in _played(state)] + [text, text],
        )


def _played(state: openspiel.SpielState) -> list[object]:
    """Our actions behind the ids of ``state``'s history, replayed from the start."""
    game = state.byzantium_game
    ours = game.initial_state()
    actions = []
    for action_id in state.history():
        action = openspiel.action_for_id(game, ours, action_id)
        actions.append(action)
        ours = game.apply(ours, action)
    return actions
