"""Byzantine Action Phase, rule 10.7: the missions of the golden Basileus (10.7.1-10.7.12).

While the golden Basileus stands in Constantinople on his golden side
(:func:`may_commit`), the player may send him on one mission
(:class:`BasileusMission`). The common procedure (10.7): one die, a success on
2 to 5 (:func:`mission_succeeds`), and, success or failure, the tile goes to
the Chronographia as many Turns ahead as the die shows (:func:`exile`); the Turn
Start Phase brings him back on his Turn (5.1). Battles are the exceptions: with a
sword (10.7.1) two dice are rolled, the higher fights an ordinary attack and the
lower sets the exile; without one (10.7.2) a 2 to 5 wins whatever the enemy's
strength.

Each mission has a function listing its offers (what it may act on now) and a
function carrying out its success, both registered under its rule number:

======== ==================== ===================================================
rule     offer item           on a success
======== ==================== ===================================================
10.7.1   battle-sword ARMY    the higher die attacks ARMY (:class:`combat.Attack`)
10.7.2   battle ARMY          ARMY is defeated (:func:`defeat`)
10.7.3   confront LEADER      the Kan or the Caliph goes to the Chronographia
10.7.4   orator FACTION       the Faction moves left on the Omnibus Track
10.7.5   naval-reforms        the Stolos goes to the Chronographia
10.7.6   taxation             the treasury gains the roll
10.7.7   ecclesiastical-...   the Schism Level falls by the roll
10.7.8   legislate SOCIAL     the Dynatoi goes to the Chronographia
10.7.9   slavery KIND SPACE   a free Hospital or Monastery
10.7.10  reformer             the Reforms tile moves right by the roll
10.7.11  expel COLONIST       the Colonist moves one space away from the City
10.7.12  pandidakterion       the University stands in Constantinople
======== ==================== ===================================================

Every offer item starts with ``"mission "``. The rulings page records the
readings made here: an exile past Turn 27, exile after a failure, the cost of a
mission battle, what "present" means for the Kan and the Caliph, which Stolos
may be sent away, and which mission rolls an Akritai may adjust (10.4.2).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from byzantium.sword_of_orthodoxy import RULES, infrastructure
from byzantium.sword_of_orthodoxy.battles import attack_cost
from byzantium.sword_of_orthodoxy.combat import (
    Attack,
    Repulse,
    gain_nike,
    legal_targets,
    only_the_stolos,
    pay,
    reforms_achieved,
    stolos_carrier,
)
from byzantium.sword_of_orthodoxy.components import Icon, Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.concepts import (
    basileus_has,
    change_schism,
    colonist_on,
    golden_basileus_ready,
    player_controls,
)
from byzantium.sword_of_orthodoxy.engine import (
    Context,
    Offer,
    ask_roll,
    make_offer,
    push,
    run_task,
)
from byzantium.sword_of_orthodoxy.state import Roll, SooAction, SooState, Task
from byzantium.sword_of_orthodoxy.turn_start import advance_reforms
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    MAX_TRACK,
    WESTERN,
    marker,
    move,
    set_marker,
    tile_name,
    tiles_on,
)

__all__ = [
    "GOLDEN",
    "LAST_TURN",
    "BasileusMission",
    "battle_cost",
    "confront_leader",
    "defeat",
    "ecclesiastical_policy",
    "exile",
    "expel_colonists",
    "legendary_orator",
    "legislate",
    "may_commit",
    "mission_succeeds",
    "naval_reforms",
    "offers",
    "pandidakterion",
    "ruinous_taxation",
    "slavery",
    "sword_battle",
    "visionary_reformer",
]

#: The golden Basileus tile (its back is the Plague side).
GOLDEN = "basileus-golden"
#: The last Turn of the game: the Chronographia has no space beyond it (11.11).
LAST_TURN = 27
#: The die faces on which a mission succeeds (10.7's general rule).
SUCCESS = range(2, 6)
#: Slavery may build only on these Turns (10.7.9).
SLAVERY_TURNS = range(1, 12)
#: The University may be built from this Turn, once Nestorius has left office (10.7.12).
UNIVERSITY_FROM = 2
NESTORIUS = "patriarch-nestorius"
WALLS = "faction-walls"
STOLOS = "marker-stolos"
KAN = "marker-kan"
CALIPH = "marker-caliph"
#: The spaces of a Path on the map (the Reserves lie on the Counter Tray).
PATH_SPACES = (SpaceKind.ZONE, SpaceKind.THEMA, SpaceKind.HOMELAND)
ALL_PATHS = (*WESTERN, *EASTERN)


# -- 10.7: committing the golden Basileus ---------------------------------------------------


@RULES.implements("10.7")
def may_commit(ctx: Context, state: SooState) -> bool:
    """Whether the golden Basileus can go on a mission: in Constantinople, not plagued."""
    return golden_basileus_ready(ctx, state)


@RULES.implements("10.7")
def mission_succeeds(roll: int) -> bool:
    """The general rule: a mission succeeds on 2, 3, 4 or 5 and fails on 1 or 6."""
    return roll in SUCCESS


@RULES.implements("10.7")
def exile(ctx: Context, state: SooState, tile: int, turns: int, rule: str) -> SooState:
    """Put a tile on the Chronographia ``turns`` Turns ahead; it comes back then (5.1).

    The Chronographia ends with Turn 27 and so does the game (11.11): a tile whose
    exile would end later never comes back, and is removed from the game (see the
    rulings).
    """
    name = tile_name(ctx, state, tile)
    due = state.turn + turns
    if due > LAST_TURN:
        ctx.log(rule, f"{name} is sent {turns} Turns ahead, past Turn {LAST_TURN}: gone", "exile")
        return move(ctx, state, tile, "discarded")
    ctx.log(rule, f"{name} goes to the Chronographia until Turn {due}", "exile")
    return move(ctx, state, tile, f"chronographia-{due}")


def _space(state: SooState, tile: int) -> int:
    return state.board.where[tile]


def _path_of(ctx: Context, state: SooState, tile: int) -> Path | None:
    """The Path whose map space a tile lies on (None off the Paths)."""
    space = ctx.cat.spaces[_space(state, tile)]
    return space.path if space.kind in PATH_SPACES else None


def _id(ctx: Context, tile: int) -> str:
    return ctx.cat.tiles[tile].id


# -- 10.7.1, 10.7.2: to battle ----------------------------------------------------------


@RULES.implements("10.7.1", "10.7.2", "10.6.5")
def battle_cost(ctx: Context, state: SooState, army: int) -> int:
    """What the Basileus's attack costs: an ordinary attack's price, paid in solidus.

    1 $; 2 $ against an Army carrying the Stolos, unless that attack can only sink
    the fleet (10.6.5). The price is the paid attacks' own
    (:func:`~byzantium.sword_of_orthodoxy.battles.attack_cost`); see the rulings.
    """
    return attack_cost(ctx, state, army)


def _battle_offers(ctx: Context, state: SooState, verb: str, rule: str) -> list[Offer]:
    """An attack on every Barbarian Army the player may attack and afford."""
    treasury = marker(ctx, state, "solidus")
    return [
        make_offer(f"mission {verb} {_id(ctx, army)}", BasileusMission, rule, _id(ctx, army))
        for army in legal_targets(ctx, state, ALL_PATHS)
        if battle_cost(ctx, state, army) <= treasury
    ]


@RULES.implements("10.7.1")
def sword_battle_offers(ctx: Context, state: SooState) -> list[Offer]:
    """A Basileus with a sword may lead any attack on the Barbarians (10.6)."""
    if not basileus_has(ctx, state, Icon.SWORD):
        return []
    return _battle_offers(ctx, state, "battle-sword", "10.7.1")


@RULES.implements("10.7.1")
def sword_battle(ctx: Context, state: SooState, army: str, battle_roll: int) -> SooState:
    """The higher die is the die of an ordinary attack on the Army (10.6).

    Its modifiers, the natural 1 and 6 (1.1), Niké and the Stolos all work as in any
    attack: :class:`~byzantium.sword_of_orthodoxy.combat.Attack` is handed the
    battle roll as its die.
    """
    attack = attrs.evolve(Attack("10.7.1", optional=False), target=army)
    return run_task(ctx, state, attack, Roll((battle_roll,)))


@RULES.implements("10.7.2")
def battle_offers(ctx: Context, state: SooState) -> list[Offer]:
    """A Basileus without a sword may still lead any attack on the Barbarians (10.6)."""
    if basileus_has(ctx, state, Icon.SWORD):
        return []
    return _battle_offers(ctx, state, "battle", "10.7.2")


@RULES.implements("10.7.2", "10.6", "10.6.1", "10.6.5")
def defeat(ctx: Context, state: SooState, army: str, rule: str) -> SooState:
    """The Army is beaten whatever its strength, with an attack's consequences.

    Niké moves (10.6.1); a Stolos on the Army is sunk; the Army falls back (10.6)
    unless only the fleet could be fought (10.6.5).
    """
    tile = ctx.cat.tile(army)
    path = ctx.cat.tiles[tile].path
    assert path is not None
    ctx.log(rule, f"the Basileus defeats {tile_name(ctx, state, tile)}", "attack")
    stays = only_the_stolos(ctx, state, tile)
    if stolos_carrier(ctx, state) == tile:
        ctx.log("10.6.5", "the Stolos is defeated and returns to Lurking", "stolos")
        state = move(ctx, state, ctx.cat.tile(STOLOS), "lurking")
    state = gain_nike(ctx, state, "10.6.1")
    if stays:
        return state
    return push(state, Repulse(path, rule, army if path.western else ""))


# -- 10.7.3: the Kan and the Caliph -------------------------------------------------------


@RULES.implements("10.7.3")
def leaders_present(ctx: Context, state: SooState) -> list[int]:
    """The Kan (either face) and the Caliph (not his inert Fitna side) on a Path."""
    found = []
    for leader in (KAN, CALIPH):
        tile = ctx.cat.tile(leader)
        if _path_of(ctx, state, tile) is None:
            continue
        if leader == CALIPH and state.board.back[tile]:
            continue
        found.append(tile)
    return found


@RULES.implements("10.7.3")
def confront_offers(ctx: Context, state: SooState) -> list[Offer]:
    """The player picks the leader to confront on the Path where it stands."""
    return [
        Offer(f"mission confront {_id(ctx, t)}", BasileusMission("10.7.3", _id(ctx, t)))
        for t in leaders_present(ctx, state)
    ]


@RULES.implements("10.7.3")
def confront_leader(ctx: Context, state: SooState, leader: str, roll: int) -> SooState:
    """The Kan or the Caliph goes to the Chronographia for as many Turns as the roll."""
    return exile(ctx, state, ctx.cat.tile(leader), roll, "10.7.3")


# -- 10.7.4: the legendary orator -------------------------------------------------------


@RULES.implements("10.7.4", "12.1")
def orator_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Each Faction on the Omnibus Track except the Walls of Theodosius."""
    walls = ctx.cat.tile(WALLS)
    return [
        Offer(f"mission orator {_id(ctx, f)}", BasileusMission("10.7.4", _id(ctx, f)))
        for f in tiles_on(ctx, state, "omnibus", TileKind.FACTION)
        if f != walls
    ]


@RULES.implements("10.7.4")
def legendary_orator(ctx: Context, state: SooState, faction: str, roll: int) -> SooState:
    """The Faction moves left by the roll; at 0 or below it is back in Constantinople."""
    tile = ctx.cat.tile(faction)
    name = tile_name(ctx, state, tile)
    level = state.board.value[tile] - roll
    if level <= 0:
        ctx.log("10.7.4", f"{name} return to Constantinople", "faction")
        return move(ctx, state, tile, "constantinople")
    ctx.log("10.7.4", f"{name} move to space {level} of the Omnibus Track", "faction")
    return move(ctx, state, tile, "omnibus", level)


# -- 10.7.5: naval reforms ----------------------------------------------------------------


@RULES.implements("10.7.5")
def naval_reform_offers(ctx: Context, state: SooState) -> list[Offer]:
    """The Stolos may be sent away while it rides an Army or waits on Lurking."""
    tile = ctx.cat.tile(STOLOS)
    lurking = _space(state, tile) == ctx.cat.space("lurking")
    if not lurking and _path_of(ctx, state, tile) is None:
        return []
    return [Offer("mission naval-reforms", BasileusMission("10.7.5"))]


@RULES.implements("10.7.5")
def naval_reforms(ctx: Context, state: SooState, roll: int) -> SooState:
    """The Stolos goes to the Chronographia for as many Turns as the roll."""
    return exile(ctx, state, ctx.cat.tile(STOLOS), roll, "10.7.5")


# -- 10.7.6: ruinous taxation ---------------------------------------------------------------


@RULES.implements("10.7.6")
def taxation_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Always possible while the Basileus may be committed."""
    del ctx, state
    return [Offer("mission taxation", BasileusMission("10.7.6"))]


@RULES.implements("10.7.6", "7.1")
def ruinous_taxation(ctx: Context, state: SooState, roll: int) -> SooState:
    """The treasury gains the roll in solidus, never above 12 (7.1)."""
    before = marker(ctx, state, "solidus")
    state = set_marker(ctx, state, "solidus", min(MAX_TRACK, before + roll))
    after = marker(ctx, state, "solidus")
    ctx.log("10.7.6", f"ruinous taxation: solidus {before} -> {after}", "solidus")
    return state


# -- 10.7.7: ecclesiastical policy -----------------------------------------------------------


@RULES.implements("10.7.7")
def policy_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Only a Basileus with the Orthodox Cross may try."""
    if not basileus_has(ctx, state, Icon.CROSS):
        return []
    return [Offer("mission ecclesiastical-policy", BasileusMission("10.7.7"))]


@RULES.implements("10.7.7", "2.6")
def ecclesiastical_policy(ctx: Context, state: SooState, roll: int) -> SooState:
    """The Schism Level falls by the roll (never below 0; 2.6)."""
    return change_schism(ctx, state, -roll, "10.7.7")


# -- 10.7.8: legislate ------------------------------------------------------------------------


@RULES.implements("10.7.8", "6.7.3")
def dynatoi(ctx: Context, state: SooState) -> list[int]:
    """The Social tiles on the map showing their Dynatoi side."""
    return [
        t
        for t in ctx.cat.tiles_of(TileKind.SOCIAL)
        if state.board.back[t] and _path_of(ctx, state, t) is not None
    ]


@RULES.implements("10.7.8")
def legislate_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Each Dynatoi on the map."""
    return [
        Offer(f"mission legislate {_id(ctx, t)}", BasileusMission("10.7.8", _id(ctx, t)))
        for t in dynatoi(ctx, state)
    ]


@RULES.implements("10.7.8")
def legislate(ctx: Context, state: SooState, social: str, roll: int) -> SooState:
    """The Dynatoi goes to the Chronographia for as many Turns as the roll."""
    return exile(ctx, state, ctx.cat.tile(social), roll, "10.7.8")


# -- 10.7.9: slavery ----------------------------------------------------------------------------


#: The kinds of Infrastructure slaves may build, in offer order.
SLAVE_WORKS = ("hospital", "monastery")


def _sites(ctx: Context, state: SooState, kind: str) -> list[str]:
    """Adapter: where the infrastructure rules (10.3) allow a building of a kind now."""
    if kind == "hospital":
        return list(infrastructure.hospital_sites(ctx, state))
    return list(infrastructure.monastery_sites(ctx, state))


@RULES.implements("10.7.9")
def slavery_offers(ctx: Context, state: SooState) -> list[Offer]:
    """On Turns 1 to 11: every place a Hospital or a Monastery may be built (10.3)."""
    if state.turn not in SLAVERY_TURNS:
        return []
    return [
        make_offer(f"mission slavery {kind} {site}", BasileusMission, "10.7.9", kind, site)
        for kind in SLAVE_WORKS
        for site in _sites(ctx, state, kind)
    ]


@RULES.implements("10.7.9", "10.3")
def slavery(ctx: Context, state: SooState, kind: str, site: str) -> SooState:
    """The chosen Infrastructure is built where chosen, for nothing."""
    if site not in _sites(ctx, state, kind):  # pragma: no cover - offered only where legal
        ctx.log("10.7.9", f"a {kind} can no longer be built in {site}", "build")
        return state
    ctx.log("10.7.9", f"slaves build a {kind} in {ctx.cat.components.space(site).name}", "build")
    return infrastructure.build(ctx, state, kind, site)


# -- 10.7.10: the visionary reformer ------------------------------------------------------------


@RULES.implements("10.7.10")
def reformer_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Possible until the Reforms are achieved."""
    if reforms_achieved(ctx, state):
        return []
    return [Offer("mission reformer", BasileusMission("10.7.10"))]


@RULES.implements("10.7.10", "5.3.4")
def visionary_reformer(ctx: Context, state: SooState, roll: int) -> SooState:
    """The Reforms tile moves right by the roll; past 12 the Reforms are achieved (5.3.4)."""
    return advance_reforms(ctx, state, roll, "10.7.10")


# -- 10.7.11: expelling the Colonists -----------------------------------------------------------


@RULES.implements("10.7.11")
def expellable(ctx: Context, state: SooState) -> list[int]:
    """Colonists on a Thema next to one the player holds (or next to Constantinople).

    A Colonist on its Homeland cannot go any farther.
    """
    found = []
    for path in EASTERN:
        tile = colonist_on(ctx, state, path)
        if tile is None:
            continue
        themas = ctx.cat.themas(path)
        position = themas.index(_space(state, tile)) + 1
        if position == len(themas):
            continue
        if position == 1 or player_controls(ctx, state, themas[position - 2]):
            found.append(tile)
    return found


@RULES.implements("10.7.11")
def expel_offers(ctx: Context, state: SooState) -> list[Offer]:
    """Each Colonist the player stands next to."""
    return [
        Offer(f"mission expel {_id(ctx, t)}", BasileusMission("10.7.11", _id(ctx, t)))
        for t in expellable(ctx, state)
    ]


@RULES.implements("10.7.11", "10.6.7")
def expel_colonists(ctx: Context, state: SooState, colonist: str) -> SooState:
    """The Colonist moves one space farther from Constantinople."""
    tile = ctx.cat.tile(colonist)
    path = _path_of(ctx, state, tile)
    assert path is not None
    themas = ctx.cat.themas(path)
    farther = themas[themas.index(_space(state, tile)) + 1]
    where = ctx.cat.spaces[farther].name
    ctx.log("10.7.11", f"the Colonists are pushed back to {where}", "colonist")
    return attrs.evolve(state, board=state.board.move(tile, farther))


# -- 10.7.12: the Pandidakterion ----------------------------------------------------------------


@RULES.implements("10.7.12", "6.3")
def university_buildable(ctx: Context, state: SooState) -> bool:
    """From Turn 2, with Nestorius out of office and his University not standing.

    Deposed Nestorius waits on the Counter Tray (6.3), where a University that was
    removed (5.4.2, Appendix F Ⓖ) also goes.
    """
    tray = _space(state, ctx.cat.tile(NESTORIUS)) == ctx.cat.space("counter-tray")
    return state.turn >= UNIVERSITY_FROM and tray


@RULES.implements("10.7.12")
def pandidakterion_offers(ctx: Context, state: SooState) -> list[Offer]:
    """The University, if it can be built."""
    if not university_buildable(ctx, state):
        return []
    return [Offer("mission pandidakterion", BasileusMission("10.7.12"))]


@RULES.implements("10.7.12")
def pandidakterion(ctx: Context, state: SooState) -> SooState:
    """The University (the back of Nestorius) is placed in Constantinople."""
    ctx.log("10.7.12", "the Pandidakterion opens in Constantinople", "university")
    tile = ctx.cat.tile(NESTORIUS)
    state = move(ctx, state, tile, "constantinople")
    return attrs.evolve(state, board=state.board.flip(tile, True))


# -- the mission task -----------------------------------------------------------------------


#: Each mission's offers, in rule order.
OFFERS: tuple[Callable[[Context, SooState], list[Offer]], ...] = (
    sword_battle_offers,
    battle_offers,
    confront_offers,
    orator_offers,
    naval_reform_offers,
    taxation_offers,
    policy_offers,
    legislate_offers,
    slavery_offers,
    reformer_offers,
    expel_offers,
    pandidakterion_offers,
)


@attrs.frozen
class BasileusMission(Task):
    """The golden Basileus goes on a mission (10.7): pay, roll, succeed or fail, exile.

    ``rule`` names the mission (``"10.7.1"`` ... ``"10.7.12"``); ``target`` the tile
    it acts on (an Army, a leader, a Faction, a Dynatoi, a Colonist) or, for
    Slavery, the kind of building; ``site`` where Slavery builds.
    """

    rule: str
    target: str = ""
    site: str = ""

    @RULES.implements("10.7")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if isinstance(answer, Roll):
            return self._resolve(ctx, state, answer.dice)
        return self._commit(ctx, state)

    def _commit(self, ctx: Context, state: SooState) -> SooState:
        """Pay for a battle, then roll: two dice for a Basileus with a sword (10.7.1)."""
        ctx.log(self.rule, "the golden Basileus is committed to a mission", "mission")
        if self.rule in ("10.7.1", "10.7.2"):
            cost = battle_cost(ctx, state, ctx.cat.tile(self.target))
            state = pay(ctx, state, cost, self.rule, f"the Basileus's attack on {self.target}")
        return self.reask(ctx, state)

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The mission's roll (once committed and paid for), again (validation)."""
        count = 2 if self.rule == "10.7.1" else 1
        prompt = f"the golden Basileus's mission ({self.rule})"
        return ask_roll(state, self, self.rule, prompt, count, path=self._path(ctx, state))

    def _path(self, ctx: Context, state: SooState) -> Path | None:
        """The one Path a single-die mission roll applies to, if any (10.4.2)."""
        if self.rule == "10.7.1":
            return None
        if self.rule == "10.7.9":
            return ctx.cat.components.space(self.site).path
        if self.rule in ("10.7.2", "10.7.3", "10.7.8", "10.7.11"):
            return _path_of(ctx, state, ctx.cat.tile(self.target))
        return None

    def _resolve(self, ctx: Context, state: SooState, faces: tuple[int, ...]) -> SooState:
        golden = ctx.cat.tile(GOLDEN)
        if self.rule == "10.7.1":
            battle, turns = max(faces), min(faces)
            ctx.log("10.7.1", f"dice {faces}: battle roll {battle}, exile {turns}", "mission")
            state = sword_battle(ctx, state, self.target, battle)
            return exile(ctx, state, golden, turns, "10.7.1")
        roll = faces[0]
        if mission_succeeds(roll):
            ctx.log(self.rule, f"roll {roll}: the mission succeeds", "mission")
            state = self._succeed(ctx, state, roll)
        else:
            ctx.log(self.rule, f"roll {roll}: the mission fails", "mission")
        return exile(ctx, state, golden, roll, self.rule)

    def _succeed(self, ctx: Context, state: SooState, roll: int) -> SooState:
        match self.rule:
            case "10.7.2":
                return defeat(ctx, state, self.target, "10.7.2")
            case "10.7.3":
                return confront_leader(ctx, state, self.target, roll)
            case "10.7.4":
                return legendary_orator(ctx, state, self.target, roll)
            case "10.7.5":
                return naval_reforms(ctx, state, roll)
            case "10.7.6":
                return ruinous_taxation(ctx, state, roll)
            case "10.7.7":
                return ecclesiastical_policy(ctx, state, roll)
            case "10.7.8":
                return legislate(ctx, state, self.target, roll)
            case "10.7.9":
                return slavery(ctx, state, self.target, self.site)
            case "10.7.10":
                return visionary_reformer(ctx, state, roll)
            case "10.7.11":
                return expel_colonists(ctx, state, self.target)
            case "10.7.12":
                return pandidakterion(ctx, state)
        raise ValueError(f"no mission {self.rule}")  # pragma: no cover


@RULES.implements("10.7")
def offers(ctx: Context, state: SooState) -> list[Offer]:
    """The missions the golden Basileus may undertake now, in rule order.

    None unless he stands in Constantinople on his golden side (:func:`may_commit`).
    """
    if not may_commit(ctx, state):
        return []
    return [offer for listing in OFFERS for offer in listing(ctx, state)]
