"""Setting up a game (rules 3.1, 3.2; Appendix A, the Campaign; Appendix E, the Millennium).

Every tile starts on the Counter Tray (3.2: what no instruction moves stays there);
the scenario's placements, which are component data, then put tiles on the map, in
the Reserves, the mugs, the Chronographia and on the tracks.
"""

from __future__ import annotations

from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.leadership import (
    HISTORICAL_PATRIARCHS,
    seat_first_historical_patriarch,
)
from byzantium.sword_of_orthodoxy.state import Board, SooState
from byzantium.sword_of_orthodoxy.turn import NextTurn

__all__ = ["initial_state"]


@RULES.implements("3.1", "3.2", "A", "E")
def initial_state(ctx: Context, scenario_id: str) -> SooState:
    """The state before the first Turn Chit is drawn, for a scenario of the components.

    Sorting the tiles onto the Counter Tray (3.1) is the all-on-the-tray board;
    following the setup sheet (3.2) applies the scenario's placements. The first
    Turn is the scenario's (1 for the Campaign, 15 for the Millennium).
    """
    cat = ctx.cat
    scenario = next(s for s in cat.components.scenarios if s.id == scenario_id)
    tray = cat.space("counter-tray")
    where = [tray] * len(cat.tiles)
    back = [False] * len(cat.tiles)
    value = [0] * len(cat.tiles)
    for placement in scenario.placements:
        tile = cat.tile(placement.tile)
        where[tile] = cat.space(placement.space)
        back[tile] = placement.face == "back"
        value[tile] = placement.value
    state = SooState(
        turn=scenario.first_turn - 1,
        board=Board(tuple(where), tuple(back), tuple(value)),
        stack=(NextTurn(),),
        done=frozenset({f"scenario:{scenario.id}"}),
        counters=(("first-turn", scenario.first_turn),),
    )
    if ctx.option(HISTORICAL_PATRIARCHS):
        state = seat_first_historical_patriarch(ctx, state, scenario.first_turn)
    return state
