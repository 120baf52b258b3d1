"""Victory (23.0-23.3): Victory Points at the end of the game, levels, the winner.

When the game ends each player adds up his Victory Points (23.0). The scenario says
what scores (23.1):

* every Region is worth its points to the player controlling it; a Region that ends
  the game Neutral is worth half its points to the Barbarian player (35.0: a Region
  worth 3 gives 1.5), so totals are exact :class:`~fractions.Fraction` values;
* every scenario City is worth its points to the player whose units occupy it (5.0);
  an empty City, or one held by Neutrals, scores for nobody;
* with the optional Public Works rule, each Public Works marker in a hex a player's
  units occupy scores for him (28.3, 28.4). The rulebook gives no value; we count
  :data:`PUBLIC_WORKS_POINTS` (provisional).

A total reaches the highest level of 23.2 whose lower bound it meets (a level is
reached, not rounded to: 19.5 is still Collapse). Both players may reach a level;
the higher total wins and equal totals are a draw (23.3). A player who capitulates
(3.1) loses whatever the points say.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.engine import Context
from byzantium.belisarius.state import BARBARIAN, EMPIRE, NOBODY, PLAYERS, BelState, opponent
from byzantium.belisarius.world import occupier, region_controller
from byzantium.core.game import Result

__all__ = [
    "PUBLIC_WORKS_POINTS",
    "VictoryLine",
    "breakdown",
    "game_result",
    "victory_level",
    "victory_lines",
    "victory_points",
]

#: Victory Points of one friendly-occupied Public Works marker (28.3). Provisional:
#: the rulebook says such markers may score but prints no value.
PUBLIC_WORKS_POINTS = Fraction(1)

_SIDE = {EMPIRE: "Empire", BARBARIAN: "Barbarian"}


@attrs.frozen
class VictoryLine:
    """Victory Points one thing earns one player: a Region, a City, a Public Works."""

    player: int
    #: "region", "neutral region", "city" or "public works".
    source: str
    #: The Region's or City's name, or the hex number of a Public Works marker.
    name: str
    points: Fraction

    @property
    def label(self) -> str:
        """A short description for a breakdown: side, what and why."""
        return f"{_SIDE[self.player]}: {self.name} ({self.source})"


@RULES.implements("23.0", "23.1", "28.3", "28.4")
def victory_lines(ctx: Context, state: BelState) -> tuple[VictoryLine, ...]:
    """Every Victory Point either player holds now, item by item (23.1).

    Regions in the scenario's order, then its Cities, then Public Works markers (only
    with the ``public_works`` option) by hex.
    """
    cat = ctx.cat
    scenario = cat.scenario
    lines: list[VictoryLine] = []
    for entry in scenario.region_victory:
        index = cat.region_by_code[entry.region]
        name = cat.regions[index].name
        holder = region_controller(state, index)
        if holder == NOBODY:
            lines.append(VictoryLine(BARBARIAN, "neutral region", name, entry.neutral_points))
        else:
            lines.append(VictoryLine(holder, "region", name, Fraction(entry.points)))
    for city in scenario.city_victory:
        where = cat.map.city(city.city).hex
        occupant = occupier(cat, state, where)
        if occupant is not None and occupant != NOBODY:
            lines.append(VictoryLine(occupant, "city", city.city, Fraction(city.points)))
    if ctx.option("public_works"):
        for where in sorted(state.markers.works):
            occupant = occupier(cat, state, where)
            if occupant is not None and occupant != NOBODY:
                lines.append(VictoryLine(occupant, "public works", str(where), PUBLIC_WORKS_POINTS))
    return tuple(line for line in lines if line.points)


def victory_points(ctx: Context, state: BelState) -> tuple[Fraction, Fraction]:
    """Both players' Victory Point totals (Empire, Barbarian), exact (23.0, 35.0)."""
    totals = [Fraction(0), Fraction(0)]
    for line in victory_lines(ctx, state):
        totals[line.player] += line.points
    return totals[EMPIRE], totals[BARBARIAN]


def breakdown(ctx: Context, state: BelState, player: int) -> tuple[tuple[str, Fraction], ...]:
    """How one player's total is made up, as (label, points) pairs."""
    return tuple(
        (line.label, line.points) for line in victory_lines(ctx, state) if line.player == player
    )


@RULES.implements("23.2")
def victory_level(ctx: Context, points: Fraction) -> str:
    """The level of victory a total reaches: the highest whose lower bound it meets."""
    levels = sorted(ctx.cat.components.victory_levels, key=lambda level: level.low)
    reached = [level.name for level in levels if points >= level.low]
    return reached[-1] if reached else levels[0].name


def _describe(ctx: Context, points: tuple[Fraction, Fraction]) -> str:
    return ", ".join(
        f"{_SIDE[p]} {_number(points[p])} VP ({victory_level(ctx, points[p])})" for p in PLAYERS
    )


def _number(points: Fraction) -> str:
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):g}"


@RULES.implements("23.3")
def game_result(ctx: Context, state: BelState) -> Result:
    """The result of a finished game: the higher total wins at its level (23.3).

    Equal totals are a draw. A capitulation (3.1) hands the win to the other player
    whatever the points (rule "3.1", level "capitulation"). ``points`` holds both
    exact totals; ``breakdown`` every scoring item of both players.
    """
    ending = state.ending
    if ending is None:
        raise ValueError("the game is not over")
    points = victory_points(ctx, state)
    lines = tuple((line.label, line.points) for line in victory_lines(ctx, state))
    if ending.capitulated != NOBODY:
        winner = opponent(ending.capitulated)
        return Result(
            (winner,),
            "capitulation",
            f"{ending.reason}; {_describe(ctx, points)}",
            "3.1",
            breakdown=lines,
            points=points,
        )
    reason = f"{ending.reason}; {_describe(ctx, points)}"
    if points[EMPIRE] == points[BARBARIAN]:
        level = victory_level(ctx, points[EMPIRE])
        return Result((), f"draw ({level})", reason, "23.3", breakdown=lines, points=points)
    winner = EMPIRE if points[EMPIRE] > points[BARBARIAN] else BARBARIAN
    level = victory_level(ctx, points[winner])
    return Result((winner,), level, reason, "23.3", breakdown=lines, points=points)
