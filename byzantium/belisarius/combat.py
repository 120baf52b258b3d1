"""Pure combat arithmetic of Belisarius (17.5-17.8, 21.22, 21.4, 35.0).

These functions hold no game state: the Operations Phase (issue 6) gathers the forces,
asks for the rolls and choices, and calls them. In order of a Combat (17.11):

* :func:`withdrawal_allowed`: whether the defender's withdrawal roll beats the
  attacker's (17.51);
* :func:`force_multiplier` and :func:`leader_stars`: a force's single multiplier for
  Leaders, defensive terrain and Military Advantage (17.74, 21.22);
* :func:`combat_strength` and :func:`odds`: multiplied strengths and the CRT column
  (17.71-17.73);
* :func:`apply_result`: the units each side loses and the hexes it retreats (17.8,
  17.9, fractions rounded up per 35.0);
* :func:`stratagem_change`: the Stratagem markers each side draws or returns, the
  Empire's doubled when Justinian takes part (21.4).
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.components import CombatResult, OddsColumn, odds_column, units_lost
from byzantium.belisarius.state import Catalog

__all__ = [
    "MAX_MULTIPLIER",
    "CombatLosses",
    "StratagemChange",
    "apply_result",
    "combat_strength",
    "force_multiplier",
    "leader_stars",
    "odds",
    "stratagem_change",
    "withdrawal_allowed",
]

#: No force is ever more than quadrupled in one Combat (17.74).
MAX_MULTIPLIER = 4

#: Defensive terrain multipliers the Terrain Effects Chart may give (17.74).
_TERRAIN_FACTORS = (1, 2, 3)


@RULES.implements("17.74", "21.22#2")
def leader_stars(cat: Catalog, units: Iterable[int]) -> int:
    """Stars of the best Leader in a force (0 without one).

    A force is multiplied for one Leader only (17.74), so further Leaders add nothing
    beyond their own strength; the best one counts.
    """
    return max((cat.counters[u].stars for u in units), default=0)


@RULES.implements("17.74", "21.22#2")
def force_multiplier(
    leader_stars: int, terrain_factor: int, military_advantage: bool, *, constantinople: bool
) -> int:
    """The single multiplier of a force's total strength in one Combat (17.74).

    ``leader_stars`` is that of the force's best Leader (0, 1 or 2; see
    :func:`leader_stars`); ``terrain_factor`` the defender's terrain multiplier from the
    Terrain Effects Chart (1: none, 2: City, rough, pass, marsh or behind a river,
    3: Constantinopolis; always 1 for the attacker); ``military_advantage`` whether the
    side played that Stratagem for this Combat; ``constantinople`` whether the force
    defends in the capital (its terrain then triples whatever ``terrain_factor`` says).

    Each source applies once. One doubling source doubles, two triple, three quadruple;
    a tripling source (a two-star Leader, Constantinopolis) counts as two steps, so it
    allows just one more step; the total never exceeds :data:`MAX_MULTIPLIER`.

    >>> force_multiplier(1, 2, False, constantinople=False)
    3
    >>> force_multiplier(2, 1, True, constantinople=False)
    4
    """
    if not 0 <= leader_stars <= 2:
        raise ValueError(f"a Leader has 0-2 stars, not {leader_stars}")
    if terrain_factor not in _TERRAIN_FACTORS:
        raise ValueError(f"a terrain multiplier is 1, 2 or 3, not {terrain_factor}")
    terrain = 3 if constantinople else terrain_factor
    steps = leader_stars + (terrain - 1) + int(military_advantage)
    return min(MAX_MULTIPLIER, 1 + steps)


@RULES.implements("17.71", "21.2#2", "21.22#2")
def combat_strength(cat: Catalog, units: Iterable[int], multiplier: int) -> int:
    """A force's combat strength: the sum of its units' combat factors (Leaders
    included, 21.22) times its multiplier (17.71, 17.74)."""
    if not 1 <= multiplier <= MAX_MULTIPLIER:
        raise ValueError(f"a multiplier is 1-{MAX_MULTIPLIER}, not {multiplier}")
    return multiplier * sum(cat.counters[u].combat for u in units)


@RULES.implements("17.71", "17.72", "17.73")
def odds(attacker: int, defender: int) -> OddsColumn:
    """The CRT column of two multiplied strengths (17.71-17.73).

    A defender of no strength at all is attacked at the best column (its odds exceed
    4/1, 17.72); an attacker of no strength at the worst.
    """
    if attacker < 0 or defender < 0:
        raise ValueError(f"strengths are not negative: {attacker} against {defender}")
    if defender == 0:
        return OddsColumn.FOUR_ONE if attacker > 0 else OddsColumn.ONE_THREE
    return odds_column(attacker, defender)


@RULES.implements("17.51")
def withdrawal_allowed(
    attacker_ops: int, attacker_roll: int, defender_ops: int, defender_roll: int
) -> bool:
    """Whether the defender may withdraw (17.51).

    Each side adds a die to the Operations factor of one unit of its choice; the
    defender may withdraw only with the strictly greater total (a tie means Stand).
    """
    for roll in (attacker_roll, defender_roll):
        if not 1 <= roll <= 6:
            raise ValueError(f"a die roll is 1-6, not {roll}")
    if attacker_ops < 0 or defender_ops < 0:
        raise ValueError(f"Operations factors are not negative: {attacker_ops}, {defender_ops}")
    return defender_ops + defender_roll > attacker_ops + attacker_roll


@attrs.frozen
class CombatLosses:
    """What a combat result does to the two forces, in the order it is applied (17.8).

    Losses come first (whole units, fractions rounded up, 35.0), then retreats of the
    survivors (17.9): a force that lost every unit has nothing left to retreat.
    """

    attacker_lost: int
    defender_lost: int
    attacker_retreat: int
    defender_retreat: int
    #: Whether the whole attacking force is lost.
    attacker_eliminated: bool = False
    #: Whether the whole defending force is lost.
    defender_eliminated: bool = False


@RULES.implements("17.8", "17.9", "35.0")
def apply_result(result: CombatResult, attacking_units: int, defending_units: int) -> CombatLosses:
    """Units lost and hexes retreated by each force under ``result`` (17.8, 17.9).

    ``attacking_units`` and ``defending_units`` count every unit of the two forces,
    Leaders included (they are units, 21.2). Losses are applied first and rounded up
    (35.0: a half loss costs a three-unit force two units); a wiped-out force does not
    retreat. Whether a side in a City or Colony ignores its retreat (17.91) is the
    owner's later choice, not decided here.

    >>> from fractions import Fraction
    >>> apply_result(CombatResult("DD", defender_loss=Fraction(1, 2)), 4, 3).defender_lost
    2
    """
    if attacking_units < 1 or defending_units < 1:
        raise ValueError(f"both forces need units: {attacking_units}, {defending_units}")
    a_lost = units_lost(result.attacker_loss, attacking_units)
    d_lost = units_lost(result.defender_loss, defending_units)
    a_wiped = a_lost == attacking_units
    d_wiped = d_lost == defending_units
    return CombatLosses(
        attacker_lost=a_lost,
        defender_lost=d_lost,
        attacker_retreat=0 if a_wiped else result.attacker_retreat,
        defender_retreat=0 if d_wiped else result.defender_retreat,
        attacker_eliminated=a_wiped,
        defender_eliminated=d_wiped,
    )


@attrs.frozen
class StratagemChange:
    """Stratagem markers each side draws (positive) or returns (negative) after a Combat."""

    attacker: int
    defender: int


@RULES.implements("21.4")
def stratagem_change(
    result: CombatResult, justinian_involved: bool, *, empire_attacking: bool
) -> StratagemChange:
    """The Stratagem gains and losses of ``result`` (8.2, 8.5 via the CRT codes).

    When Justinian is in either force (he is always the Empire's), the Empire player's
    gain or loss is doubled (21.4); the Barbarian's is not. ``empire_attacking`` says
    which side is the Empire's.
    """
    attacker, defender = result.attacker_stratagems, result.defender_stratagems
    if justinian_involved:
        if empire_attacking:
            attacker *= 2
        else:
            defender *= 2
    return StratagemChange(attacker, defender)
