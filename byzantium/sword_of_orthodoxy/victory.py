"""Rule 12.3, victory: how well the Empire survived, in Victory Points.

A game that ends without a Defeat (after Turn 27, 11.11, or when the Turn Chit mug
runs dry, 4.1) is won; :func:`victory_points` then reads the final board into a
:class:`VictoryPoints` record, one field per line of 12.3:

* ① 30 minus the Barbarian presence (the Armies in the three Zones plus the
  eastern spaces in Barbarian hands, the three Homelands included);
* ② 2 per Outpost the Empire controls;
* ③ 1 per Faction in Constantinople;
* ④ 1 per solidus in the treasury;
* ⑤ 3 per Monastery, University and Hospital on the map;
* ⑥ 5 for each of Africa and Italy still held;
* ⑦ minus 10 while the Empires in Rubble tile is on the map.

:func:`victory_level` names the band of the total (:data:`LEVELS`, our own short
names for the six bands of 12.3). The rulings page records what "controlled",
"on the map" and "active" mean here.
"""

from __future__ import annotations

import attrs

from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.concepts import (
    RUINS,
    factions_in_constantinople,
    player_controls,
)
from byzantium.sword_of_orthodoxy.end_of_turn import on_the_map
from byzantium.sword_of_orthodoxy.engine import Context
from byzantium.sword_of_orthodoxy.state import SooState
from byzantium.sword_of_orthodoxy.synopsis import controlled_outposts
from byzantium.sword_of_orthodoxy.world import EASTERN, WESTERN, marker, zone_armies

__all__ = [
    "BASE_POINTS",
    "LEVELS",
    "VictoryPoints",
    "active_regions",
    "barbarian_presence",
    "buildings_on_the_map",
    "ruins_on_the_map",
    "victory_level",
    "victory_points",
]

#: ① starts from 30.
BASE_POINTS = 30
#: Points per item of lines ② to ⑦.
OUTPOST_POINTS = 2
FACTION_POINTS = 1
SOLIDUS_POINTS = 1
BUILDING_POINTS = 3
REGION_POINTS = 5
RUINS_PENALTY = -10

#: The bands of 12.3, best first: the lowest total of the band and our name for it.
LEVELS: tuple[tuple[int, str], ...] = (
    (75, "superpower"),
    (65, "great power"),
    (55, "faded glory"),
    (45, "Greek bastion"),
    (35, "rump state"),
)
#: 34 or fewer.
LOWEST_LEVEL = "city-state"

#: The blue tiles whose front shows a region still held (12.2): Africa on Α, Italy on Β.
REGIONS = {Path.ALPHA: "marker-zone-alpha", Path.BETA: "marker-zone-beta"}
UNIVERSITY = "patriarch-nestorius"


@attrs.frozen
class VictoryPoints:
    """What 12.3 counts on the final board; ``lines`` turns the counts into points.

    ``barbarians``: Armies in the Zones plus eastern spaces in Barbarian hands (①);
    ``outposts`` (②), ``factions`` (③), ``solidus`` (④), ``buildings`` (⑤: the
    Monasteries, the University and the Hospitals on the map), ``regions`` (⑥: Africa
    and Italy still held) are counts; ``ruins`` (⑦) whether the tile is on the map.
    """

    barbarians: int
    outposts: int
    factions: int
    solidus: int
    buildings: int
    regions: int
    ruins: bool

    @property
    def lines(self) -> tuple[tuple[str, int], ...]:
        """The points of each line of 12.3, labelled ① to ⑦, in order."""
        return (
            (
                f"① 30 minus {self.barbarians} Barbarian Armies and Themas",
                BASE_POINTS - self.barbarians,
            ),
            (f"② {self.outposts} Outposts", OUTPOST_POINTS * self.outposts),
            (f"③ {self.factions} Factions in Constantinople", FACTION_POINTS * self.factions),
            (f"④ {self.solidus} solidus", SOLIDUS_POINTS * self.solidus),
            (
                f"⑤ {self.buildings} Monasteries, University and Hospitals",
                BUILDING_POINTS * self.buildings,
            ),
            (f"⑥ {self.regions} of Italy and Africa", REGION_POINTS * self.regions),
            (
                "⑦ Empires in Rubble" if self.ruins else "⑦ no Ruins",
                RUINS_PENALTY if self.ruins else 0,
            ),
        )

    @property
    def total(self) -> int:
        """The final Victory Points: the sum of the lines."""
        return sum(points for _, points in self.lines)

    @property
    def level(self) -> str:
        """The band of 12.3 the total falls in (:func:`victory_level`)."""
        return victory_level(self.total)


@RULES.implements("12.3")
def victory_level(points: int) -> str:
    """Our name for the band of 12.3 that a total falls in (75 or more is the best)."""
    for lowest, name in LEVELS:
        if points >= lowest:
            return name
    return LOWEST_LEVEL


@RULES.implements("12.3")
def barbarian_presence(ctx: Context, state: SooState) -> int:
    """① The Armies in the three Zones plus the eastern spaces the Barbarians hold.

    An eastern space is in Barbarian hands when the player does not control it
    (:func:`~byzantium.sword_of_orthodoxy.concepts.player_controls`): the Army's
    space and every space behind it, and always the Homeland.
    """
    armies = sum(len(zone_armies(ctx, state, path)) for path in WESTERN)
    held = sum(
        1
        for path in EASTERN
        for space in ctx.cat.themas(path)
        if not player_controls(ctx, state, space)
    )
    return armies + held


@RULES.implements("12.3")
def buildings_on_the_map(ctx: Context, state: SooState) -> int:
    """⑤ The Monasteries and Hospitals on the map, and the University in Constantinople.

    Every face counts (an Isolated Monastery, a Used Hospital), wherever on the map
    it stands. The University is the back of Nestorius (10.7.12).
    """
    kinds = (TileKind.MONASTERY, TileKind.HOSPITAL)
    built = sum(
        1 for kind in kinds for tile in ctx.cat.tiles_of(kind) if on_the_map(ctx, state, tile)
    )
    university = ctx.cat.tile(UNIVERSITY)
    in_city = state.board.where[university] == ctx.cat.space("constantinople")
    return built + (1 if in_city and state.board.back[university] else 0)


@RULES.implements("12.3")
def active_regions(ctx: Context, state: SooState) -> int:
    """⑥ How many of Africa (Zone Α) and Italy (Zone Β) are still held.

    A region is held while its blue tile lies on its space showing the region's
    name, not Crete or the Balkans (12.2).
    """
    held = 0
    for path, tile_id in REGIONS.items():
        tile = ctx.cat.tile(tile_id)
        space = ctx.cat.space(f"zone-name-{path.slug}")
        if state.board.where[tile] == space and not state.board.back[tile]:
            held += 1
    return held


@RULES.implements("12.3")
def ruins_on_the_map(ctx: Context, state: SooState) -> bool:
    """⑦ Whether the Empires in Rubble tile is on the map (on the Omnibus Track)."""
    return on_the_map(ctx, state, ctx.cat.tile(RUINS))


@RULES.implements("12.3")
def victory_points(ctx: Context, state: SooState) -> VictoryPoints:
    """Count every line of 12.3 on the board as it stands at the end of the game.

    Outposts are those :func:`~byzantium.sword_of_orthodoxy.synopsis.controlled_outposts`
    lists (each on its own space, Lazica also on the Greek Fire space, Egypt not
    Fallen); the solidus are those left after the last banking (11.1).
    """
    return VictoryPoints(
        barbarians=barbarian_presence(ctx, state),
        outposts=len(controlled_outposts(ctx, state)),
        factions=len(factions_in_constantinople(ctx, state)),
        solidus=marker(ctx, state, "solidus"),
        buildings=buildings_on_the_map(ctx, state),
        regions=active_regions(ctx, state),
        ruins=ruins_on_the_map(ctx, state),
    )
