"""Hypothesis strategies for Sword of Orthodoxy states.

:func:`start_of_turn_states` builds valid states at the start of any Turn 1-27 (the
Turn Chit about to be drawn) without playing the earlier Turns: it starts from a
scenario's setup and redistributes tiles the way play could have left them. Every
tile stays somewhere (conservation holds by construction), tracks stay in range,
Zones hold 1-5 Armies with the rest in the Reserves, each eastern Path has its Army
somewhere between Constantinople's neighbour and its Homeland, and the ruling
Dynasty, Basileus and Patriarch come from their mugs. The next issue (the Byzantine
Action Phase) and the oracle reuse it.
"""

from __future__ import annotations

import attrs
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.engine import Context, settle
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.state import SooState
from byzantium.sword_of_orthodoxy.turn import NextTurn
from byzantium.sword_of_orthodoxy.world import move, set_marker, tiles_on
from tests.sword_of_orthodoxy.support import GAME, MILLENNIUM

GAMES = {"campaign": GAME, "millennium": MILLENNIUM}


def _army_order(ctx: Context, tiles: list[int]) -> list[int]:
    """Strongest first (by the strong side), as the western Advance deploys them."""
    return sorted(tiles, key=lambda t: -ctx.cat.tiles[t].front.strength)


def _campaign_history(draw: st.DrawFn, ctx: Context, state: SooState, target: int) -> SooState:
    cat = ctx.cat
    theodosius = cat.tile("basileus-theodosius")
    if target >= 2:
        # Turn 2 flipped Theodosius to Justinian onto Turn 3; Turn 4 discarded him.
        space = "chronographia-3" if target == 3 else "discarded"
        state = move(ctx, state, theodosius, space)
        state = attrs.evolve(state, board=state.board.flip(theodosius, True))
        grey = sorted(tiles_on(ctx, state, "basileus-mug"))
        state = move(ctx, state, draw(st.sampled_from(grey)), "basileus")
        nestorius = cat.tile("patriarch-nestorius")
        state = move(ctx, state, nestorius, "counter-tray")
        state = attrs.evolve(state, board=state.board.flip(nestorius, True))
        state = move(
            ctx,
            state,
            draw(st.sampled_from(sorted(tiles_on(ctx, state, "patriarch-mug")))),
            "patriarch",
        )
    if target >= 4:
        justinian = cat.tile("dynasty-justinian")
        if state.board.where[justinian] == cat.space("chronographia-3"):
            state = move(ctx, state, justinian, draw(st.sampled_from(["dynasty", "discarded"])))
            if state.board.where[justinian] == cat.space("dynasty"):
                state = move(ctx, state, cat.tile("dynasty-theodosian"), "discarded")
    if target >= 6:
        homeland = draw(
            st.sampled_from(["zone-alpha", "zone-beta", "zone-gamma", "iberia", "persia", "syria"])
        )
        state = move(ctx, state, cat.tile("marker-kan"), homeland)
    return state


@st.composite
def start_of_turn_states(
    draw: st.DrawFn, scenario: str | None = None, turn: int | None = None
) -> tuple[SwordOfOrthodoxy, SooState]:
    """A game and a valid state waiting for the Turn Chit draw of some Turn."""
    name = scenario or draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[name]
    ctx = Context(game, None)
    first = game.components.scenarios[[s.id for s in game.components.scenarios].index(name)]
    target = turn if turn is not None else draw(st.integers(first.first_turn, 27))
    state = settle(ctx, attrs.evolve(game.initial_state(), pending=None, stack=()))
    cat = ctx.cat

    # Turn Chits of the earlier Turns of this game are on the Chronographia.
    mug = sorted(tiles_on(ctx, state, "turn-chit-mug"), key=lambda t: cat.tiles[t].id)
    earlier = draw(st.permutations(mug))[: target - first.first_turn]
    for offset, chit in enumerate(earlier):
        state = move(ctx, state, chit, f"chronographia-{first.first_turn + offset}")

    # Western Zones: 1-5 Armies in the Zone, strongest deployed first.
    for path in (Path.ALPHA, Path.BETA, Path.GAMMA):
        armies = _army_order(ctx, list(cat.tiles_of(TileKind.ARMY, path)))
        count = draw(st.integers(1, 5))
        for i, army in enumerate(armies):
            state = move(
                ctx, state, army, cat.spaces[cat.zone(path) if i < count else cat.reserves(path)].id
            )

    # Eastern Paths: the Army stands somewhere from position 1 to its Homeland.
    for path in (Path.DELTA, Path.EPSILON, Path.ZETA):
        themas = cat.themas(path)
        current = [t for t in cat.tiles_of(TileKind.ARMY, path) if state.board.where[t] in themas]
        if current:
            position = draw(st.integers(1, 5))
            state = move(ctx, state, current[0], cat.spaces[themas[position - 1]].id)

    # The Campaign's early Turns move a few leaders off the Chronographia (5.1, 6.2, 6.3).
    if name == "campaign":
        state = _campaign_history(draw, ctx, state, target)

    # Tracks: Schism, treasury, Niké within their printed ranges.
    state = set_marker(ctx, state, "schism", draw(st.integers(0, 12)))
    state = set_marker(ctx, state, "solidus", draw(st.integers(0, 12)))
    state = set_marker(ctx, state, "nike", draw(st.integers(0, 5)))
    state = attrs.evolve(state, turn=target - 1, stack=(NextTurn(),), pending=None)
    return game, settle(ctx, state)
