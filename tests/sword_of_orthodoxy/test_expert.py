"""The ``expert`` player of Sword of Orthodoxy (:mod:`byzantium.sword_of_orthodoxy.expert`).

Small budgets keep these tests quick; the figures of the default budget are
simulations (``byzantium simulate sword-of-orthodoxy --policy expert``), not tests.
"""

from __future__ import annotations

import random
from fractions import Fraction

import attrs
import pytest

from byzantium.core.drivers import play
from byzantium.core.game import CHANCE, TERMINAL
from byzantium.sword_of_orthodoxy.action_phase import ActionPhase
from byzantium.sword_of_orthodoxy.combat import Attack
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import ISLAM, SaracenAttacks
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.expert import (
    DEATH,
    Expert,
    Weights,
    assess,
    expert_policy,
    fall_chance,
    siege_chances,
    siege_loss,
)
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.siege import Siege
from byzantium.sword_of_orthodoxy.state import Select, SooAction, SooState
from byzantium.sword_of_orthodoxy.synopsis import WAR_IN_THE_EAST_COUNTER
from byzantium.sword_of_orthodoxy.world import (
    current_chit,
    flip,
    move,
    set_counter,
    set_marker,
    tiles_on,
)
from tests.sword_of_orthodoxy.support import GAME, MILLENNIUM, campaign


def _play_until(
    game: SwordOfOrthodoxy, expert: Expert, seed: int, last_turn: int
) -> tuple[SooState, list[SooAction], list[tuple[int, int]]]:
    """Play with the expert (chance from ``seed``) until Turn ``last_turn`` is over.

    Returns the final state, the expert's actions, and per decision the number of
    choices and the transitions its deeper search made.
    """
    chance = random.Random(f"test:{seed}")
    state = game.initial_state()
    chosen: list[SooAction] = []
    spent: list[tuple[int, int]] = []
    while game.current_player(state) != TERMINAL and state.turn <= last_turn:
        if game.current_player(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            action = chance.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            legal = game.legal_actions(state)
            action = expert(game, state, random.Random(0))
            assert action in legal
            chosen.append(action)
            spent.append((len(legal), expert.deep))
        state = game.apply(state, action)
    return state, chosen, spent


def test_the_game_and_the_command_line_offer_the_expert_policy() -> None:
    assert {"sensible", "expert"} <= set(GAME.policies())
    assert isinstance(GAME.policies()["expert"], Expert)


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        Expert(GAME, -1)


def test_the_same_seed_gives_the_same_game() -> None:
    first = play(GAME, expert_policy(GAME, budget=20), seed=3, max_steps=45)
    again = play(GAME, expert_policy(GAME, budget=20), seed=3, max_steps=45)
    assert first.actions == again.actions
    assert first.final == again.final


def test_choices_are_legal_and_the_budget_holds() -> None:
    expert = Expert(GAME, budget=40)
    _, chosen, spent = _play_until(GAME, expert, seed=5, last_turn=2)
    assert chosen
    assert all(deep <= 40 for _, deep in spent)
    # The budget was used where there was something to choose.
    assert any(deep > 0 for options, deep in spent if options > 1)


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_siege_loss_is_two_dice_plus_three_without_walls_above_the_factions() -> None:
    assert siege_loss(11, walls=True) == Fraction(1, 36)  # only 6+6 beats 11
    assert siege_loss(12, walls=True) == 0
    assert siege_loss(9, walls=False) == Fraction(21, 36)  # 2d6 > 6
    assert siege_loss(1, walls=True) == 1


def _factions_away(state: SooState, count: int) -> SooState:
    ctx = Context(GAME, None)
    away = [
        t
        for t in tiles_on(ctx, state, "constantinople", TileKind.FACTION)
        if t != ctx.cat.tile("faction-walls")
    ][:count]
    for tile in away:
        state = move(ctx, state, tile, "omnibus", 4)
    return state


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_fewer_factions_in_constantinople_is_a_worse_position() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    assert assess(ctx, _factions_away(state, 3)) < assess(ctx, state)


def _gamma_zone_full(ctx: Context, state: SooState) -> SooState:
    """``state`` with every Army of Path Γ in its Zone, one advance from a Siege."""
    for tile in ctx.cat.armies(Path.GAMMA):
        state = move(ctx, state, tile, "zone-gamma")
    return state


@pytest.mark.rule("9.2", game="sword-of-orthodoxy")
def test_a_zone_one_advance_from_a_siege_is_a_worse_position() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    crowded = _gamma_zone_full(ctx, state)
    assert assess(ctx, crowded) < assess(ctx, state) - 50


@pytest.mark.rule("2.6", game="sword-of-orthodoxy")
def test_a_schism_near_twelve_is_a_worse_position() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    schism = ctx.cat.tile("marker-schism")
    high = attrs.evolve(state, board=state.board.set_value(schism, 10))
    assert assess(ctx, high) < assess(ctx, state)


def test_the_expert_plays_the_millennium_scenario() -> None:
    state, chosen, _ = _play_until(MILLENNIUM, Expert(MILLENNIUM, budget=10), seed=2, last_turn=15)
    assert chosen and (state.turn > 15 or state.ending is not None)


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_the_fall_chance_grows_with_a_zone_one_advance_from_a_siege() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    crowded = _gamma_zone_full(ctx, state)
    assert 0.0 <= fall_chance(ctx, state) < fall_chance(ctx, crowded) <= 1.0


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_the_fall_chance_weighs_in_the_evaluation_by_the_danger_weight() -> None:
    ctx = Context(GAME, None)
    state = _gamma_zone_full(ctx, campaign())
    danger = fall_chance(ctx, state)
    assert danger > 0
    default, lighter = assess(ctx, state), assess(ctx, state, Weights(danger=400.0))
    assert lighter - default == pytest.approx((DEATH - 400.0) * danger)


def _drawn(state: SooState, letters: frozenset[Path]) -> SooState:
    """``state`` (waiting for a Turn Chit) after drawing a chit with exactly ``letters``."""
    ctx = Context(GAME, None)
    for outcome, _ in GAME.chance_outcomes(state):
        after = GAME.apply(state, outcome)
        chit = current_chit(ctx, after)
        if chit is not None and frozenset(ctx.cat.chits[chit].paths) == letters:
            return after
    raise AssertionError(f"no chit with the letters {sorted(letters)}")


def _delta_at_nicaea(ctx: Context, state: SooState) -> SooState:
    """``state`` with the Persians of Path Δ one advance from a Siege."""
    return move(ctx, state, ctx.cat.tile("army-delta-persia"), "nicaea")


@pytest.mark.rule("9.1", game="sword-of-orthodoxy")
def test_once_the_chit_is_drawn_its_letters_are_the_coming_advances() -> None:
    ctx = Context(GAME, None)
    state = _delta_at_nicaea(ctx, campaign())
    with_delta = _drawn(state, frozenset(Path))
    without = _drawn(state, frozenset({Path.ALPHA, Path.BETA}))
    # In the mug the Δ letter is a chance; on the drawn chit it is certain or absent.
    assert fall_chance(ctx, without) < fall_chance(ctx, state) < fall_chance(ctx, with_delta)
    assert fall_chance(ctx, with_delta) > 0.1


@pytest.mark.rule("9.5.4", game="sword-of-orthodoxy")
def test_tribute_on_the_path_of_a_coming_advance_lowers_the_fall_chance() -> None:
    ctx = Context(GAME, None)
    state = _drawn(_delta_at_nicaea(ctx, campaign()), frozenset(Path))
    paid = move(ctx, state, ctx.cat.tile("marker-tribute"), "iberia")
    assert fall_chance(ctx, paid) < fall_chance(ctx, state) / 2
    assert assess(ctx, paid) > assess(ctx, state)


@pytest.mark.rule("9.5.5", game="sword-of-orthodoxy")
def test_a_kastron_counts_in_a_zone_but_not_behind_the_eastern_army() -> None:
    ctx = Context(GAME, None)
    state = _drawn(_gamma_zone_full(ctx, _delta_at_nicaea(ctx, campaign())), frozenset(Path))
    kastron = ctx.cat.tile("marker-kastron")
    guarded = move(ctx, state, kastron, "zone-gamma")
    assert fall_chance(ctx, guarded) < fall_chance(ctx, state)
    # Nothing lies between the Persians in Nicaea and the City: a Kastron behind
    # them, in Paphlagonia, blocks nothing.
    behind = move(ctx, state, kastron, "paphlagonia")
    assert fall_chance(ctx, behind) == fall_chance(ctx, state)


@pytest.mark.rule("10.7", game="sword-of-orthodoxy")
def test_the_longer_the_golden_basileus_is_exiled_the_worse_the_position() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    golden = ctx.cat.tile("basileus-golden")
    soon = move(ctx, state, golden, "chronographia-3")
    late = move(ctx, state, golden, "chronographia-6")
    assert assess(ctx, late) < assess(ctx, soon) < assess(ctx, state)


@pytest.mark.rule("10.6.9.2", game="sword-of-orthodoxy")
def test_the_hippodrome_costs_the_basileus_nothing_beyond_the_turn() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    crowd = move(ctx, state, ctx.cat.tile("basileus-golden"), "hippodrome")
    assert assess(ctx, crowd) == assess(ctx, state)


@pytest.mark.rule("8.3", game="sword-of-orthodoxy")
def test_a_war_in_the_east_still_to_come_threatens_a_near_persian_army() -> None:
    ctx = Context(GAME, None)
    near = move(ctx, campaign(), ctx.cat.tile("army-delta-persia"), "paphlagonia")
    # On Turn 4 the next Synopsis roll (die + 5) gives War in the East on a 4 or 5.
    coming = attrs.evolve(near, turn=4)
    over = set_counter(coming, WAR_IN_THE_EAST_COUNTER, 1)
    assert fall_chance(ctx, coming) > fall_chance(ctx, over) + 0.02
    # Turn 1's roll cannot reach the War (1 + 6 < 9).
    assert fall_chance(ctx, near) == pytest.approx(
        fall_chance(ctx, set_counter(near, WAR_IN_THE_EAST_COUNTER, 1))
    )


@pytest.mark.rule("9.3", game="sword-of-orthodoxy")
def test_the_siege_chances_are_those_the_fall_chance_weighs() -> None:
    ctx = Context(GAME, None)
    state = campaign()
    near = _delta_at_nicaea(ctx, state)
    chances = siege_chances(ctx, near)
    assert set(chances) == set(Path)
    assert all(0.0 <= chance <= 1.0 for chance in chances.values())
    # One advance from a Siege, Path Δ is besieged if the next chit carries its letter.
    assert chances[Path.DELTA] > siege_chances(ctx, state)[Path.DELTA]
    assert chances[Path.DELTA] > 0.2
    # Drawn without a Δ (4.1), the chit brings Path Δ no Siege; drawn with it, surely.
    assert siege_chances(ctx, _drawn(near, frozenset({Path.ALPHA, Path.BETA})))[Path.DELTA] == 0.0
    assert siege_chances(ctx, _drawn(near, frozenset(Path)))[Path.DELTA] == 1.0


def _islam_ahead(ctx: Context, ruins: int, *, colonist: bool = True) -> SooState:
    """Turn 5 before its Synopsis, after the first War in the East (8.3): the Persians
    of Path Ε in Amorion, ``ruins`` Ruins, a Colonist on Path Ε's Homeland if asked."""
    state = set_counter(attrs.evolve(campaign(), turn=5), WAR_IN_THE_EAST_COUNTER, 1)
    state = move(ctx, state, ctx.cat.tile("army-epsilon-persia"), "amorion")
    if ruins:
        state = move(ctx, state, ctx.cat.tile("marker-ruins"), "omnibus", ruins)
    if colonist:
        pioneer = ctx.cat.tile("marker-colonist-1")
        state = flip(ctx, move(ctx, state, pioneer, "persia"), pioneer, False)
    return state


@pytest.mark.rule("2.8", game="sword-of-orthodoxy")
def test_the_ruins_before_a_rise_of_islam_threaten_a_near_saracen_path() -> None:
    ctx = Context(GAME, None)
    # Seven Ruins are seven Saracen attacks, three of them on Path Ε (the 1st, 4th
    # and 7th): from Amorion, three Sieges if the Synopsis gives the second War.
    seven = fall_chance(ctx, _islam_ahead(ctx, 7))
    none = fall_chance(ctx, _islam_ahead(ctx, 0))
    assert seven > none + 0.1
    # Clearing one (10.11) takes away the third attack on Ε, one Siege fewer.
    six = fall_chance(ctx, _islam_ahead(ctx, 6))
    assert none < six < seven
    # Worth its 2 $ in the evaluation.
    cleared = set_marker(ctx, _islam_ahead(ctx, 6), "solidus", 3)
    assert assess(ctx, cleared) > assess(ctx, set_marker(ctx, _islam_ahead(ctx, 7), "solidus", 5))
    # Without a Colonist on Path Ε its Persians stay Persians: the Ruins bring no attack.
    pagan = _islam_ahead(ctx, 7, colonist=False)
    assert fall_chance(ctx, pagan) == pytest.approx(
        fall_chance(ctx, _islam_ahead(ctx, 0, colonist=False))
    )
    # Islam rises once: after it, the Ruins bring no attack either.
    risen = attrs.evolve(_islam_ahead(ctx, 7), done=_islam_ahead(ctx, 7).done | {ISLAM})
    assert fall_chance(ctx, risen) == pytest.approx(none)


def _saracens_in_amorion(ctx: Context) -> SooState:
    """The Campaign set-up with the Saracens of Path Ε, not its Persians, in Amorion."""
    state = move(ctx, campaign(), ctx.cat.tile("army-epsilon-persia"), "counter-tray")
    return move(ctx, state, ctx.cat.tile("army-epsilon-saracens"), "amorion")


@pytest.mark.rule("2.8", game="sword-of-orthodoxy")
def test_saracen_attacks_under_way_are_sieges_to_come() -> None:
    ctx = Context(GAME, None)
    state = _saracens_in_amorion(ctx)
    # The 4th, 5th and 6th attacks still to make: Ε, Ζ, Δ, one Siege from Amorion.
    coming = attrs.evolve(state, stack=(*state.stack, SaracenAttacks(3, 3)))
    # Only the 5th and 6th: none on Path Ε.
    past = attrs.evolve(state, stack=(*state.stack, SaracenAttacks(2, 4)))
    assert fall_chance(ctx, past) == pytest.approx(fall_chance(ctx, state))
    # The Siege comes for sure, against the 9 Factions without the Walls (12.1),
    # before the next Barbarian Phase's chance.
    loss = float(siege_loss(9, False))
    assert fall_chance(ctx, coming) == pytest.approx(1 - (1 - fall_chance(ctx, past)) * (1 - loss))


@pytest.mark.rule("12.1", game="sword-of-orthodoxy")
def test_a_siege_under_way_counts_where_the_search_stops() -> None:
    ctx = Context(GAME, None)
    state = _delta_at_nicaea(ctx, campaign())
    # Its roll still to come is a Siege for sure: 9 Factions without the Walls.
    rolling = Siege(Path.EPSILON, "roll").reask(ctx, state)
    assert fall_chance(ctx, rolling) >= float(siege_loss(9, False)) > fall_chance(ctx, state)
    # The City held: one Faction at least must go (a worse position than before)...
    held = Siege(Path.EPSILON, "factions").reask(ctx, state)
    assert fall_chance(ctx, held) > fall_chance(ctx, state)
    assert assess(ctx, held) < assess(ctx, state)
    # ...and once one has gone, the choice to send more costs nothing more.
    sent = _factions_away(state, 1)
    gone = next(
        t
        for t in tiles_on(ctx, state, "constantinople", TileKind.FACTION)
        if t not in tiles_on(ctx, sent, "constantinople", TileKind.FACTION)
    )
    more = Siege(Path.EPSILON, "factions", (ctx.cat.tiles[gone].id,)).reask(ctx, sent)
    assert fall_chance(ctx, more) == pytest.approx(fall_chance(ctx, sent))


@pytest.mark.rule("2.8", game="sword-of-orthodoxy")
def test_a_free_attack_throws_back_the_saracens_whose_next_attack_besieges() -> None:
    ctx = Context(GAME, None)
    state = _saracens_in_amorion(ctx)
    # Other targets: the Persians of Path Δ two spaces out, two Armies in Zone Β.
    state = move(ctx, state, ctx.cat.tile("army-delta-persia"), "paphlagonia")
    for army in ctx.cat.armies(Path.BETA)[:2]:
        state = move(ctx, state, army, "zone-beta")
    # The Saracens' 4th attack, on Path Ε, comes next: from Amorion, a Siege.
    state = attrs.evolve(state, stack=(*state.stack, SaracenAttacks(3, 3)))
    asking = Attack("12.1").reask(ctx, state)
    assert asking.pending is not None and len(GAME.legal_actions(asking)) > 2
    choice = Expert(GAME, budget=0)(GAME, asking, random.Random(0))
    assert choice == Select("army-epsilon-saracens")


@pytest.mark.rule("10.11", game="sword-of-orthodoxy")
def test_the_expert_clears_the_ruins_before_the_rise_of_islam() -> None:
    ctx = Context(GAME, None)
    # The Action Phase of Turn 4 with 2 $: seven Ruins would bring three attacks
    # on Path Ε, two of them Sieges from the Persians in Cappadocia, if Turn 5's
    # Synopsis gives the second War in the East (a chance in three).
    state = _islam_ahead(ctx, 7)
    state = move(ctx, state, ctx.cat.tile("army-epsilon-persia"), "cappadocia")
    state = attrs.evolve(set_marker(ctx, state, "solidus", 2), turn=4, stack=state.stack[:2])
    asking = ActionPhase().run(ctx, state, None)
    assert Select("ruins") in GAME.legal_actions(asking)
    assert Expert(GAME, budget=0)(GAME, asking, random.Random(0)) == Select("ruins")


def _a_decision(seed: int) -> SooState:
    """The first player-node state with two choices or more of a random game."""
    rng = random.Random(seed)
    state = GAME.initial_state()
    while GAME.current_player(state) == CHANCE or len(GAME.legal_actions(state)) < 2:
        if GAME.current_player(state) == CHANCE:
            outcomes = GAME.chance_outcomes(state)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, action)
    return state


def test_a_deeper_look_may_lower_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 41: the deeper value of a choice replaces its shallow one. Here every
    # choice looks good at first (10) and worse deeper (1): the node is worth 1.
    root = _a_decision(1)
    expert = Expert(GAME, budget=1_000, beam=1_000)
    searched = Expert._value

    def value(self: Expert, state: SooState, depth: int, run: int = 0) -> float:
        if state is root:
            return searched(self, state, depth, run)
        return 10.0 if depth == 0 else 1.0

    monkeypatch.setattr(Expert, "_value", value)
    expert._left = -1
    assert expert._value(root, 2) == 1.0
    assert expert._value(root, 1) == 10.0


def test_a_state_works_its_hash_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 41: the expert's memo hashes states; hashing one again costs nothing.
    state = _a_decision(2)
    board = type(state.board)
    hashes: list[object] = []
    own = board.__hash__

    def counted(self: object) -> int:
        hashes.append(self)
        return own(self)

    monkeypatch.setattr(board, "__hash__", counted)
    first = hash(state)
    assert hash(state) == first
    assert hash(attrs.evolve(state)) == first
    assert len(hashes) <= 2
