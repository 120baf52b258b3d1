"""Chapter 6, the Leadership Phase: who rules, who preaches, and what the people do.

:class:`LeadershipPhase` pushes the steps of Appendix C's part C in order, each a
task of its own: the Dynasty's survival or a Civil War (6.1, 6.1.1), a new grey
Basileus with Zoe and Theodora's husbands (6.2-6.2.2), the optional mutilation
(6.2.3), the new Patriarch (6.3) and Pope (6.4), Tribute and the Kastron bought
with last Turn's savings (6.5, 6.6), the Social Events (6.7-6.7.3.1) and the
Niké reset (6.8). The whole phase is skipped on a scenario's first Turn (6.0;
special rule 1 of Appendix E), and on the Turn Justinian is deployed (5.1) no
other Dynasty or Basileus is chosen.

Where the rulebook leaves a question open, the reading taken is on the rulings
page (Rulings: Sword of Orthodoxy) under the rule's number.
"""

from __future__ import annotations

import enum

import attrs

from byzantium.core.dice import modified
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.barbarians import Advance
from byzantium.sword_of_orthodoxy.combat import (
    FactionRiots,
    Repulse,
    reforms_achieved,
    weakest,
)
from byzantium.sword_of_orthodoxy.components import (
    HistoricalPatriarch,
    Icon,
    Path,
    SpaceKind,
    TileKind,
)
from byzantium.sword_of_orthodoxy.concepts import change_schism
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, ask_draw, ask_roll, push
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Draw,
    Pay,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    WESTERN,
    current_chit,
    eastern_army,
    flip,
    marker,
    move,
    remember,
    reserve_armies,
    set_marker,
    tile_name,
    tiles_on,
    zone_armies,
)

__all__ = [
    "NIKE_PRESTIGE",
    "BuildKastron",
    "CivilWar",
    "DrawDynasty",
    "DynastySurvival",
    "JustinianAftermath",
    "LeadershipPhase",
    "Mutilation",
    "NewBasileus",
    "NewPatriarch",
    "NewPope",
    "PayTribute",
    "ResetNike",
    "SchemingEmpress",
    "SocialEvent",
    "SocialEvents",
    "SocialVictory",
    "Standing",
    "barbarian_count",
    "basileis",
    "civil_war_this_turn",
    "civil_war_winner",
    "die_space",
    "dynasty_survives",
    "first_turn",
    "historical_patriarch",
    "hostile_pope",
    "is_anarchy",
    "is_empress",
    "justinian_turn",
    "kastron_sites",
    "may_mutilate",
    "patriarch",
    "place_social",
    "refill_dynasty_mug",
    "riots_in_constantinople",
    "ruling_dynasty",
    "seat_first_historical_patriarch",
    "social_event_count",
    "standing",
]

#: Niké on this space or higher gives the ruling Dynasty +1 (6.1, 10.6.1).
NIKE_PRESTIGE = 3
#: Civil War icons on these Turns have no effect (6.1.1).
NO_CIVIL_WAR_TURNS = (1, 3)
#: The Turn Justinian reigns (5.1, 6.2).
JUSTINIAN_TURN = 3
#: The peer app's option that lets a Civil War challenge Justinian on his Turn (6.1.1, 5.1).
JUSTINIAN_CIVIL_WAR = "justinian_civil_war"
#: Turn-dependent Patriarch rules (6.3).
TRIUMPH_OF_ORTHODOXY = 11
#: The peer app's option that fixes each Turn's Patriarch (6.3 modified; not in our book).
HISTORICAL_PATRIARCHS = "historical_patriarchs"
#: The tile that is Theodosius on its front and Justinian on its back (6.2).
THEODOSIUS = "basileus-theodosius"
GOLDEN = "basileus-golden"
#: Where Justinian waits for his Turn (6.2, Appendix A.10).
JUSTINIAN_SPACE = "chronographia-3"
EMPRESSES = ("Zoe", "Theodora")
ANARCHY = "Anarchy"
#: Mutilation raises Schism by 3, by 4 with a Hostile Pope (6.2.3).
MUTILATION_SCHISM = 3
#: The player pays these from the treasury (6.2.2, 6.5, 6.6).
HUSBAND_SWAP_COST = 1
TRIBUTE_COST = 2
KASTRON_COST = 1
#: A toss of a drawn Basileus is played as a die: 1-3 front, 4-6 back (6.2).
TOSS_BACK_FROM = 4
#: Pope roll: 5 or 6 is the Mean (Hostile) Pope (6.4).
MEAN_POPE_FROM = 5
#: Social tie roll: 4-6 is winning (6.7.2).
TIE_WINNING_FROM = 4

#: The fact (and counter: its Turn) the Turn Start Phase remembers when Justinian reigns.
JUSTINIAN_FACT = "justinian-turn"

_TRAY = "counter-tray"
_DISCARDED = "discarded"


# -- who is where -----------------------------------------------------------------------


def first_turn(state: SooState) -> int:
    """The scenario's first Turn (1 for the Campaign, 15 for the Millennium)."""
    return state.counter("first-turn") or 1


def justinian_turn(state: SooState) -> bool:
    """Whether Justinian took the throne from the Chronographia this Turn (5.1).

    The Turn Start Phase remembers the fact ``justinian-turn`` and keeps the Turn
    it happened in the counter of the same name.
    """
    return JUSTINIAN_FACT in state.done and state.counter(JUSTINIAN_FACT) == state.turn


def ruling_dynasty(ctx: Context, state: SooState) -> int | None:
    """The Dynasty tile on the Dynasty space of the map."""
    found = tiles_on(ctx, state, "dynasty", TileKind.DYNASTY)
    return found[0] if found else None


def basileis(ctx: Context, state: SooState) -> list[int]:
    """The grey Basileus tiles on the Basileus space: one, or an empress and her husband."""
    return tiles_on(ctx, state, "basileus", TileKind.BASILEUS)


def patriarch(ctx: Context, state: SooState) -> int | None:
    """The Patriarch tile on the Patriarch space."""
    found = tiles_on(ctx, state, "patriarch", TileKind.PATRIARCH)
    return found[0] if found else None


def is_anarchy(ctx: Context, state: SooState, tile: int) -> bool:
    """Whether a Dynasty tile shows Anarchy (no survival die, no income)."""
    return tile_name(ctx, state, tile) == ANARCHY


def is_empress(ctx: Context, state: SooState, tile: int) -> bool:
    """Whether a Basileus tile shows Zoe or Theodora (6.2.1)."""
    return tile_name(ctx, state, tile) in EMPRESSES


def riots_in_constantinople(ctx: Context, state: SooState) -> list[int]:
    """Riot tiles in Constantinople on their Riot side (their back is the Latins)."""
    return [
        r for r in tiles_on(ctx, state, "constantinople", TileKind.RIOT) if not state.board.back[r]
    ]


def hostile_pope(ctx: Context, state: SooState) -> bool:
    """Whether the Pope on the Pope space shows his Mean (Hostile) side."""
    pope = ctx.cat.tile("marker-pope")
    return state.board.where[pope] == ctx.cat.space("pope") and state.board.back[pope]


@RULES.implements("6.7.1", "7.2", "7.3")
def die_space(ctx: Context, die: int) -> str:
    """The Zone or Homeland whose printed die matches a roll (6.7.1, 7.2, 7.3)."""
    for space in ctx.cat.spaces:
        if space.die == die and space.kind in (SpaceKind.ZONE, SpaceKind.HOMELAND):
            return space.id
    raise KeyError(die)


def _treasury(ctx: Context, state: SooState) -> int:
    return marker(ctx, state, "solidus")


def _spend(ctx: Context, state: SooState, amount: int) -> SooState:
    return set_marker(ctx, state, "solidus", _treasury(ctx, state) - amount)


def _mug(ctx: Context, state: SooState, mug: str) -> list[int]:
    return ctx.cat.on(state.board, ctx.cat.space(mug))


def _id(ctx: Context, tile: int) -> str:
    return ctx.cat.tiles[tile].id


# -- 6.0 the phase ----------------------------------------------------------------------


@attrs.frozen
class LeadershipPhase(Task):
    """The Leadership Phase (6.0, Appendix C part C), step by step."""

    @RULES.implements("6.0")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if state.turn == first_turn(state):
            ctx.log("6.0", f"Turn {state.turn} is the first Turn: no Leadership Phase", "phase")
            return state
        steps: list[Task] = []
        if justinian_turn(state) and civil_war_this_turn(ctx, state):
            # Peer option Justinian and Civil War: his Dynasty may be challenged.
            ctx.log("5.1", "Justinian reigns, but a Civil War challenges his Dynasty", "phase")
            steps += [CivilWar(incumbent=True), JustinianAftermath()]
        elif justinian_turn(state):
            ctx.log("5.1", "Justinian reigns: no other Dynasty or Basileus this Turn", "phase")
        else:
            steps += [DynastySurvival(), NewBasileus(), Mutilation()]
        steps += [
            NewPatriarch(),
            NewPope(),
            PayTribute(),
            BuildKastron(),
            SocialEvents(),
            ResetNike(),
        ]
        return push(state, *steps)


@RULES.implements("6.0")
def refill_dynasty_mug(ctx: Context, state: SooState) -> SooState:
    """When the Dynasty Mug has run out, all the Dynasties go back in, black side up.

    Every Dynasty tile returns (from the discards, the Counter Tray or wherever it
    lies), except one ruling on the Dynasty space: from now on Dynasties are used
    on their black sides (6.0; Appendix E).
    """
    ruling = set(tiles_on(ctx, state, "dynasty", TileKind.DYNASTY))
    for tile in ctx.cat.tiles_of(TileKind.DYNASTY):
        if tile not in ruling:
            state = flip(ctx, move(ctx, state, tile, "dynasty-mug"), tile, True)
    ctx.log("6.0", "the Dynasties have run out: all return to the Mug, black side up", "dynasty")
    return remember(state, "black-dynasties")


def _draw_dynasty(ctx: Context, state: SooState, task: Task, rule: str, prompt: str) -> SooState:
    """Ask for a Dynasty from the Mug, refilling it first if it is empty."""
    if not _mug(ctx, state, "dynasty-mug"):
        state = refill_dynasty_mug(ctx, state)
    return ask_draw(state, task, rule, prompt, "dynasty-mug")


def _discard(ctx: Context, state: SooState, tile: int, rule: str, why: str) -> SooState:
    ctx.log(rule, f"{tile_name(ctx, state, tile)} {why}: discarded", "discard")
    return move(ctx, state, tile, _DISCARDED)


# -- 6.1 and 6.1.1: the Dynasty -----------------------------------------------------------


@RULES.implements("6.1", "1.1")
def dynasty_survives(natural: int, survival: int, nike: int) -> bool:
    """Whether a ruling Dynasty stays in power after its survival roll.

    The roll gets +1 when Niké stands on 3 or more; the Dynasty stays if the
    modified roll reaches its die icon. A natural 1 or 6 is never modified (1.1).
    """
    drm = 1 if nike >= NIKE_PRESTIGE else 0
    return modified(natural, drm, natural_extremes=True) >= survival


@RULES.implements("6.1.1")
def civil_war_this_turn(ctx: Context, state: SooState) -> bool:
    """Whether the current Turn Chit's crossed swords bring a Civil War (5.3.5, 6.1.1).

    Not on Turns 1 and 3; with the peer option Justinian and Civil War, on Turn 3 too.
    """
    chit = current_chit(ctx, state)
    if chit is None:
        return False
    justinian_challenged = state.turn == JUSTINIAN_TURN and ctx.option(JUSTINIAN_CIVIL_WAR)
    if state.turn in NO_CIVIL_WAR_TURNS and not justinian_challenged:
        return False
    return ctx.cat.chits[chit].civil_war


@attrs.frozen
class DynastySurvival(Task):
    """Does the ruling Dynasty survive? (6.1; a Civil War replaces the roll, 6.1.1)."""

    @RULES.implements("6.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        current = ruling_dynasty(ctx, state)
        civil_war = civil_war_this_turn(ctx, state)
        if answer is None:
            riots = riots_in_constantinople(ctx, state)
            if current is None or is_anarchy(ctx, state, current) or riots:
                if current is not None:
                    why = "falls to the Riots" if riots else "ends"
                    state = _discard(ctx, state, current, "6.1", why)
                then: list[Task] = [CivilWar(incumbent=False) if civil_war else DrawDynasty()]
                if riots:
                    for riot in riots:
                        state = move(ctx, state, riot, _TRAY)
                    ctx.log("6.1", f"{len(riots)} Riot(s) leave Constantinople", "riot")
                    then.append(FactionRiots(rule="6.1"))
                return push(state, *then)
            if civil_war:
                return push(state, CivilWar(incumbent=True))
            survival = ctx.cat.face(state.board, current).survival
            prompt = f"survival roll for the {tile_name(ctx, state, current)} (needs {survival})"
            return ask_roll(state, self, "6.1", prompt)
        assert isinstance(answer, Roll) and current is not None
        (natural,) = answer.dice
        survival = ctx.cat.face(state.board, current).survival
        nike = marker(ctx, state, "nike")
        if dynasty_survives(natural, survival, nike):
            ctx.log("6.1", f"the {tile_name(ctx, state, current)} stay in power", "dynasty")
            return state
        state = _discard(ctx, state, current, "6.1", "are overthrown")
        return push(state, DrawDynasty())


@attrs.frozen
class DrawDynasty(Task):
    """Draw the new ruling Dynasty from the Mug and place it on the Dynasty space (6.1)."""

    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            return _draw_dynasty(ctx, state, self, "6.1", "draw a new Dynasty")
        assert isinstance(answer, Draw)
        tile = ctx.cat.tile(answer.tile)
        ctx.log("6.1", f"the {tile_name(ctx, state, tile)} come to power", "dynasty")
        return move(ctx, state, tile, "dynasty")


@RULES.implements("6.1.1")
def civil_war_winner(first: int, second: int, *, incumbent: bool) -> int | None:
    """Which of two modified Civil War rolls wins: 0 (the first) or 1 (the second).

    The higher roll wins; a tie goes to the incumbent, who is always the first.
    Without an incumbent a tie decides nothing (``None``: roll again).
    """
    if first != second:
        return 0 if first > second else 1
    return 0 if incumbent else None


@attrs.frozen
class CivilWar(Task):
    """Two Dynasties fight for the throne (6.1.1).

    ``rivals`` are the two Dynasty tile ids, the incumbent first when there is one
    (otherwise both come from the Mug); ``paid`` is what the player spent (-1: not
    asked yet) and ``backed`` the Dynasty it backs; ``rolls`` the natural rolls.
    While they fight, both tiles stand on the Dynasty space.
    """

    incumbent: bool
    rivals: tuple[str, ...] = ()
    paid: int = -1
    backed: str = ""
    rolls: tuple[int, ...] = ()

    @RULES.implements("6.1.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        task = self
        if answer is None and task.incumbent and not task.rivals:
            current = ruling_dynasty(ctx, state)
            if current is None:
                task = attrs.evolve(task, incumbent=False)
            else:
                task = attrs.evolve(task, rivals=(_id(ctx, current),))
        match answer:
            case Draw(tile):
                state = move(ctx, state, ctx.cat.tile(tile), "dynasty")
                task = attrs.evolve(task, rivals=(*task.rivals, tile))
            case Pay(amount):
                state = _spend(ctx, state, amount)
                task = attrs.evolve(task, paid=amount)
                if amount:
                    ctx.log("6.1.1", f"{amount} $ spent on the Civil War", "pay")
            case Select(item):
                task = attrs.evolve(task, backed=item)
            case Roll(dice):
                task = attrs.evolve(task, rolls=(*task.rolls, dice[0]))
        return task._next(ctx, state)

    def _next(self, ctx: Context, state: SooState) -> SooState:
        if len(self.rivals) < 2:
            who = "the rival Dynasty" if self.rivals else "a Dynasty for the Civil War"
            return _draw_dynasty(ctx, state, self, "6.1.1", f"draw {who}")
        names = [ctx.cat.face(state.board, ctx.cat.tile(r)).name for r in self.rivals]
        if self.paid < 0:
            treasury = _treasury(ctx, state)
            if treasury == 0:
                return attrs.evolve(self, paid=0)._next(ctx, state)
            prompt = f"Civil War, {names[0]} against {names[1]}: solidus to spend backing one"
            options = [Pay(n) for n in range(treasury + 1)]
            return ask_choice(state, self, "6.1.1", prompt, options)
        if self.paid and not self.backed:
            prompt = f"the Dynasty your {self.paid} $ back"
            return ask_choice(state, self, "6.1.1", prompt, [Select(r) for r in self.rivals])
        if len(self.rolls) < 2:
            name = names[len(self.rolls)]
            return ask_roll(state, self, "6.1.1", f"Civil War roll for the {name}")
        return self._resolve(ctx, state, names)

    def _resolve(self, ctx: Context, state: SooState, names: list[str]) -> SooState:
        nike = 1 if self.incumbent and marker(ctx, state, "nike") >= NIKE_PRESTIGE else 0
        drms = [
            (self.paid if self.backed == rival else 0) + (nike if i == 0 else 0)
            for i, rival in enumerate(self.rivals)
        ]
        values = [
            modified(natural, drm, natural_extremes=True)
            for natural, drm in zip(self.rolls, drms, strict=True)
        ]
        ctx.log("6.1.1", f"{names[0]} {values[0]}, {names[1]} {values[1]}", "roll")
        winner = civil_war_winner(values[0], values[1], incumbent=self.incumbent)
        if winner is None:
            ctx.log("6.1.1", "a tie without an incumbent: both roll again", "roll")
            return attrs.evolve(self, rolls=())._next(ctx, state)
        loser = ctx.cat.tile(self.rivals[1 - winner])
        ctx.log("6.1.1", f"the {names[winner]} win the Civil War", "dynasty")
        if self.incumbent and winner == 1:
            return _discard(ctx, state, loser, "6.1.1", "lose the throne")
        ctx.log("6.1.1", f"the {names[1 - winner]} return to the Mug", "dynasty")
        return move(ctx, state, loser, "dynasty-mug")


@attrs.frozen
class JustinianAftermath(Task):
    """After a Civil War on Justinian's Turn (peer option Justinian and Civil War).

    The Riots in Constantinople, which did not unseat Justinian, go back with a
    Faction of the player's choice, as in 6.1 (see the rulings page). If his
    Dynasty lost, Justinian leaves the throne with it and a Basileus is drawn
    (6.2), who may be mutilated (6.2.3).
    """

    @RULES.implements("6.1.1", "5.1", "6.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        then: list[Task] = []
        riots = riots_in_constantinople(ctx, state)
        if riots:
            for riot in riots:
                state = move(ctx, state, riot, _TRAY)
            ctx.log("6.1", f"after the Civil War {len(riots)} Riot(s) leave Constantinople", "riot")
            then.append(FactionRiots(rule="6.1"))
        justinians = ctx.cat.tile("dynasty-justinian")
        if state.board.where[justinians] != ctx.cat.space("dynasty"):
            ctx.log("6.2", "Justinian falls with his Dynasty: a new Basileus is drawn", "basileus")
            then += [NewBasileus(), Mutilation()]
        return push(state, *then)


# -- 6.2: the Basileus ------------------------------------------------------------------


@RULES.implements("6.2")
def retire_basileus(ctx: Context, state: SooState) -> SooState:
    """The grey Basileus (and an empress's husband) leave the Basileus space.

    They go back into the Mug, except the Theodosius tile: on Turn 2 Theodosius is
    turned over to Justinian and waits on the Turn 3 space; Justinian himself is
    discarded (Turn 4).
    """
    for tile in basileis(ctx, state):
        name = tile_name(ctx, state, tile)
        if _id(ctx, tile) == THEODOSIUS:
            if not state.board.back[tile]:
                state = flip(ctx, move(ctx, state, tile, JUSTINIAN_SPACE), tile, True)
                ctx.log("6.2", "Theodosius becomes Justinian, who waits for Turn 3", "basileus")
            else:
                state = _discard(ctx, state, tile, "6.2", "leaves the throne")
            continue
        ctx.log("6.2", f"{name} returns to the Basileus Mug", "basileus")
        state = move(ctx, state, tile, "basileus-mug")
    return state


@attrs.frozen
class NewBasileus(Task):
    """Draw a new grey Basileus and toss it for its side (6.2).

    If it is Zoe or Theodora, she takes the throne and a husband is drawn too
    (6.2.1; ``husband``). ``drawn`` is the tile waiting for its toss.
    """

    husband: bool = False
    drawn: str = ""

    @RULES.implements("6.2", "6.2.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        match answer:
            case None:
                if not self.husband:
                    state = retire_basileus(ctx, state)
                if not _mug(ctx, state, "basileus-mug"):
                    ctx.log("6.2", "the Basileus Mug is empty", "basileus")
                    return state
                who = "her husband" if self.husband else "a new Basileus"
                return ask_draw(state, self, "6.2", f"draw {who}", "basileus-mug")
            case Draw(drawn):
                return attrs.evolve(self, drawn=drawn).reask(ctx, state)
        assert isinstance(answer, Roll)
        tile = ctx.cat.tile(self.drawn)
        state = move(ctx, state, tile, "basileus")
        state = flip(ctx, state, tile, answer.dice[0] >= TOSS_BACK_FROM)
        name = tile_name(ctx, state, tile)
        if self.husband:
            ctx.log("6.2.1", f"{name} marries the empress and reigns beside her", "basileus")
            return state
        ctx.log("6.2", f"{name} is the new Basileus", "basileus")
        if is_empress(ctx, state, tile):
            ctx.log("6.2.1", f"{name} inherits the throne: a husband is drawn", "basileus")
            return push(state, NewBasileus(husband=True), SchemingEmpress())
        return state

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The draw (the old Basileus already retired) or the toss again (validation)."""
        if not self.drawn:
            who = "her husband" if self.husband else "a new Basileus"
            return ask_draw(state, self, "6.2", f"draw {who}", "basileus-mug")
        record = ctx.cat.tiles[ctx.cat.tile(self.drawn)]
        back = record.back.name if record.back else record.name
        prompt = f"toss {record.name}/{back}: 1-3 {record.name}, 4-6 {back}"
        return ask_roll(state, self, "6.2", prompt)


@attrs.frozen
class SchemingEmpress(Task):
    """Zoe or Theodora may pay 1 $ to turn her husband over (6.2.2)."""

    @RULES.implements("6.2.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        tiles = basileis(ctx, state)
        husbands = [t for t in tiles if not is_empress(ctx, state, t)]
        if len(husbands) != 1 or len(tiles) != 2 or _treasury(ctx, state) < HUSBAND_SWAP_COST:
            return state
        husband = husbands[0]
        if answer is None:
            record = ctx.cat.tiles[husband]
            other = record.front if state.board.back[husband] else record.back
            other_name = other.name if other else record.name
            prompt = f"pay 1 $ to exchange {tile_name(ctx, state, husband)} for {other_name}?"
            return ask_choice(state, self, "6.2.2", prompt, [Decline(), Pay(HUSBAND_SWAP_COST)])
        if isinstance(answer, Decline):
            return state
        state = _spend(ctx, state, HUSBAND_SWAP_COST)
        state = flip(ctx, state, husband, not state.board.back[husband])
        ctx.log("6.2.2", f"the empress prefers {tile_name(ctx, state, husband)}", "basileus")
        return state


@RULES.implements("6.2.3")
def may_mutilate(ctx: Context, state: SooState) -> bool:
    """Whether the new Basileus may be mutilated: a lone male grey Basileus.

    Neither Zoe nor Theodora nor a husband of theirs may be; with an empress on
    the throne her husband stands beside her, so nobody may.
    """
    tiles = basileis(ctx, state)
    if len(tiles) != 1:
        return False
    tile = tiles[0]
    return _id(ctx, tile) != THEODOSIUS and not is_empress(ctx, state, tile)


@attrs.frozen
class Mutilation(Task):
    """The optional mutilation of the new Basileus (6.2.3).

    ``step``: ``""`` (offer), ``"draw"`` (the replacement is drawn), ``"side"``
    (the player picks its side), ``"golden"`` (bring back the golden Basileus?).
    """

    step: str = ""

    @RULES.implements("6.2.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not self.step:
            return self._offer(ctx, state, answer)
        if self.step == "draw":
            assert isinstance(answer, Draw)
            tile = ctx.cat.tile(answer.tile)
            state = move(ctx, state, tile, "basileus")
            return attrs.evolve(self, step="side").reask(ctx, state)
        if self.step == "side":
            assert isinstance(answer, Select)
            (tile,) = basileis(ctx, state)
            state = flip(ctx, state, tile, answer.item == "back")
            name = tile_name(ctx, state, tile)
            if is_empress(ctx, state, tile):
                ctx.log("6.2.3", f"{name} rules alone, without a husband", "basileus")
                return state
            ctx.log("6.2.3", f"{name} is the new Basileus", "basileus")
            return attrs.evolve(self, step="golden").reask(ctx, state)
        if isinstance(answer, Select):
            ctx.log("6.2.3", "the golden Basileus returns to Constantinople", "basileus")
            return move(ctx, state, ctx.cat.tile(GOLDEN), "constantinople")
        return state

    def _offer(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not may_mutilate(ctx, state):
            return state
        (tile,) = basileis(ctx, state)
        if answer is None:
            prompt = f"mutilate {tile_name(ctx, state, tile)}?"
            options: list[SooAction] = [Decline(), Select(_id(ctx, tile))]
            return ask_choice(state, self, "6.2.3", prompt, options)
        if isinstance(answer, Decline):
            return state
        ctx.log("6.2.3", f"{tile_name(ctx, state, tile)} is mutilated and deposed", "basileus")
        schism = MUTILATION_SCHISM + (1 if hostile_pope(ctx, state) else 0)
        state = change_schism(ctx, state, schism, "6.2.3")
        if state.ending is not None:
            return state
        state = move(ctx, state, tile, "basileus-mug")
        return attrs.evolve(self, step="draw").reask(ctx, state)

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The question of this step (validation, and the steps after the offer)."""
        if self.step == "draw":
            return ask_draw(state, self, "6.2.3", "draw the new Basileus", "basileus-mug")
        if self.step == "side":
            tiles = basileis(ctx, state)
            if len(tiles) != 1:
                return state
            record = ctx.cat.tiles[tiles[0]]
            back = record.back.name if record.back else record.name
            prompt = f"choose the side of the new Basileus: front {record.name}, back {back}"
            options: list[SooAction] = [Select("front"), Select("back")]
            return ask_choice(state, self, "6.2.3", prompt, options)
        if self.step == "golden":
            tiles = basileis(ctx, state)
            if len(tiles) != 1 or is_empress(ctx, state, tiles[0]):
                return state
            golden = ctx.cat.tile(GOLDEN)
            if not ctx.cat.spaces[state.board.where[golden]].id.startswith("chronographia-"):
                return state
            prompt = "bring the golden Basileus back to Constantinople now?"
            return ask_choice(state, self, "6.2.3", prompt, [Decline(), Select(GOLDEN)])
        return self.run(ctx, state, None)


# -- 6.3 and 6.4: the Church ----------------------------------------------------------


def _retire_patriarch(ctx: Context, state: SooState, tile: int) -> SooState:
    """The outgoing Patriarch: back to the Mug from Turn 12, discarded before.

    Nestorius is not lost: his back is the University, which goes to the Counter
    Tray to be built later (10.7.12).
    """
    name = tile_name(ctx, state, tile)
    if state.turn > TRIUMPH_OF_ORTHODOXY:
        ctx.log("6.3", f"Patriarch {name} returns to the Mug", "patriarch")
        return move(ctx, state, tile, "patriarch-mug")
    if _id(ctx, tile) == "patriarch-nestorius" and not state.board.back[tile]:
        ctx.log("6.3", "Nestorius is deposed: his tile becomes the University", "patriarch")
        return flip(ctx, move(ctx, state, tile, _TRAY), tile, True)
    return _discard(ctx, state, tile, "6.3", "is deposed")


def _triumph_of_orthodoxy(ctx: Context, state: SooState) -> SooState:
    """Turn 11: the discarded Patriarchs without the Σ go back into the Mug."""
    discarded = ctx.cat.space(_DISCARDED)
    orthodox = [
        t
        for t in ctx.cat.tiles_of(TileKind.PATRIARCH)
        if state.board.where[t] == discarded and Icon.SIGMA not in ctx.cat.tiles[t].front.icons
    ]
    for tile in orthodox:
        state = flip(ctx, move(ctx, state, tile, "patriarch-mug"), tile, False)
    ctx.log(
        "6.3", f"Triumph of Orthodoxy: {len(orthodox)} Patriarchs return to the Mug", "patriarch"
    )
    return state


@RULES.implements("6.3", "7.1", "10.9.1")
def historical_patriarch(ctx: Context, state: SooState) -> HistoricalPatriarch | None:
    """This Turn's fixed Patriarch under the peer option Historical Patriarchs, else None.

    With the option on, no Patriarch is drawn: the component table names, for every
    Turn, the Patriarch, the printed tile shown for him, his income (7.1) and his
    heresy; he is never a Saint (10.9.1).
    """
    if not ctx.option(HISTORICAL_PATRIARCHS):
        return None
    table = ctx.cat.components.historical_patriarchs
    return table[state.turn - 1] if 1 <= state.turn <= len(table) else None


@RULES.implements("6.3", "E")
def seat_first_historical_patriarch(ctx: Context, state: SooState, turn: int) -> SooState:
    """Historical Patriarchs: the scenario's first Turn shows that Turn's Patriarch tile.

    The set-up's Patriarch and the table's tile for the first Turn change places, so
    that the tile shown and the table's values agree (the Millennium's Turn 15; the
    Campaign's Nestorius already agrees). See the rulings page, 6.3.
    """
    fixed = historical_patriarch(ctx, attrs.evolve(state, turn=turn))
    current = patriarch(ctx, state)
    if fixed is None or current is None or _id(ctx, current) == fixed.tile:
        return state
    tile = ctx.cat.tile(fixed.tile)
    previous = ctx.cat.spaces[state.board.where[tile]].id
    state = move(ctx, move(ctx, state, current, previous), tile, "patriarch")
    return flip(ctx, state, tile, False)


def _seat_historical_patriarch(
    ctx: Context, state: SooState, fixed: HistoricalPatriarch
) -> SooState:
    """Historical Patriarchs (peer option): this Turn's Patriarch takes office, undrawn."""
    tile = ctx.cat.tile(fixed.tile)
    state = flip(ctx, move(ctx, state, tile, "patriarch"), tile, False)
    shown = tile_name(ctx, state, tile)
    ctx.log("6.3", f"{fixed.name} is the new Patriarch (the {shown} tile)", "patriarch")
    if fixed.heretic:
        return change_schism(ctx, state, 1, "6.3")
    return state


@attrs.frozen
class NewPatriarch(Task):
    """A new Patriarch is drawn (6.3); a heretic (Σ) raises Schism by 1.

    With the peer option Historical Patriarchs the mug is handled as usual but no
    Patriarch is drawn: the Turn's historical one takes office, and his heresy is
    the table's, on any Turn (:func:`historical_patriarch`).
    """

    @RULES.implements("6.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            current = patriarch(ctx, state)
            if current is not None:
                state = _retire_patriarch(ctx, state, current)
            if state.turn == TRIUMPH_OF_ORTHODOXY:
                state = _triumph_of_orthodoxy(ctx, state)
            fixed = historical_patriarch(ctx, state)
            if fixed is not None:
                return _seat_historical_patriarch(ctx, state, fixed)
            if not _mug(ctx, state, "patriarch-mug"):
                ctx.log("6.3", "the Patriarch Mug is empty: no new Patriarch", "patriarch")
                return state
            return ask_draw(state, self, "6.3", "draw a new Patriarch", "patriarch-mug")
        assert isinstance(answer, Draw)
        tile = ctx.cat.tile(answer.tile)
        state = flip(ctx, move(ctx, state, tile, "patriarch"), tile, False)
        ctx.log("6.3", f"{tile_name(ctx, state, tile)} is the new Patriarch", "patriarch")
        if ctx.cat.has(state.board, tile, Icon.SIGMA):
            return change_schism(ctx, state, 1, "6.3")
        return state


@attrs.frozen
class NewPope(Task):
    """Roll for the Pope: 1-4 Nice, 5-6 Mean (6.4); none after the East-West Schism."""

    @RULES.implements("6.4")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        pope = ctx.cat.tile("marker-pope")
        if state.board.where[pope] == ctx.cat.space(_DISCARDED):
            ctx.log("6.4", "there is no Pope since the Schism of East and West", "pope")
            return state
        if answer is None:
            return ask_roll(state, self, "6.4", "roll for the Pope: 1-4 Nice, 5-6 Mean")
        assert isinstance(answer, Roll)
        state = move(ctx, state, pope, "pope")
        state = flip(ctx, state, pope, answer.dice[0] >= MEAN_POPE_FROM)
        ctx.log("6.4", f"the {tile_name(ctx, state, pope)} reigns in Rome", "pope")
        return state


# -- 6.5 and 6.6: buying peace and castles -------------------------------------------


def _on_tray(ctx: Context, state: SooState, tile_id: str) -> bool:
    return state.board.where[ctx.cat.tile(tile_id)] == ctx.cat.space(_TRAY)


@attrs.frozen
class PayTribute(Task):
    """Optionally pay 2 $ of last Turn's savings for Tribute on a Homeland or Zone (6.5)."""

    @RULES.implements("6.5")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if _treasury(ctx, state) < TRIBUTE_COST or not _on_tray(ctx, state, "marker-tribute"):
                return state
            options: list[SooAction] = [Decline()]
            options += [Select(die_space(ctx, path.value)) for path in Path]
            prompt = "pay 2 $ Tribute to the Barbarians of a Path?"
            return ask_choice(state, self, "6.5", prompt, options)
        if not isinstance(answer, Select):
            return state
        state = _spend(ctx, state, TRIBUTE_COST)
        ctx.log("6.5", f"Tribute paid: 2 $, placed on {answer.item}", "tribute")
        return move(ctx, state, ctx.cat.tile("marker-tribute"), answer.item)


@RULES.implements("6.6")
def kastron_sites(ctx: Context) -> list[str]:
    """Where a Kastron may be built: a Zone, or a Thema (not a Homeland) of an eastern Path."""
    sites = [ctx.cat.spaces[ctx.cat.zone(path)].id for path in WESTERN]
    for path in EASTERN:
        sites += [ctx.cat.spaces[s].id for s in ctx.cat.themas(path)[:-1]]
    return sites


@attrs.frozen
class BuildKastron(Task):
    """With the Reforms achieved, optionally build the Kastron for 1 $ of savings (6.6)."""

    @RULES.implements("6.6")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if (
                not reforms_achieved(ctx, state)
                or _treasury(ctx, state) < KASTRON_COST
                or not _on_tray(ctx, state, "marker-kastron")
            ):
                return state
            options: list[SooAction] = [Decline()]
            options += [Select(site) for site in kastron_sites(ctx)]
            return ask_choice(state, self, "6.6", "build the Kastron for 1 $?", options)
        if not isinstance(answer, Select):
            return state
        state = _spend(ctx, state, KASTRON_COST)
        ctx.log("6.6", f"a Kastron is built in {answer.item}", "kastron")
        return move(ctx, state, ctx.cat.tile("marker-kastron"), answer.item)


# -- 6.7: Social Events ----------------------------------------------------------------


@RULES.implements("6.7")
def social_event_count(ctx: Context, state: SooState) -> int:
    """How many Social Events this Turn: the fires on the chit, Dynasty and Basileus.

    With an empress and her husband both reigning, each of their tiles counts.
    """
    count = 0
    chit = current_chit(ctx, state)
    if chit is not None:
        count += ctx.cat.chits[chit].fires
    tiles = basileis(ctx, state)
    dynasty = ruling_dynasty(ctx, state)
    if dynasty is not None:
        tiles.append(dynasty)
    return count + sum(1 for tile in tiles if ctx.cat.has(state.board, tile, Icon.FIRE))


def _available_socials(ctx: Context, state: SooState) -> list[int]:
    tray = ctx.cat.space(_TRAY)
    return [s for s in ctx.cat.tiles_of(TileKind.SOCIAL) if state.board.where[s] == tray]


@attrs.frozen
class SocialEvents(Task):
    """Generate this Turn's Social Events, one after the other (6.7)."""

    @RULES.implements("6.7")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        count = social_event_count(ctx, state)
        ctx.log("6.7", f"{count} Social Event(s) this Turn", "social")
        return push(state, *(SocialEvent() for _ in range(count)))


class Standing(enum.Enum):
    """How the war goes on a Path (6.7.2)."""

    WINNING = "winning"
    LOSING = "losing"
    TIED = "tied"


@RULES.implements("6.7.2")
def barbarian_count(ctx: Context, state: SooState, path: Path) -> int:
    """Armies in a western Zone, or spaces the Barbarians hold on an eastern Path.

    In the East the Barbarians hold every space from their Army back to their
    Homeland, the Homeland included.
    """
    if path.western:
        return len(zone_armies(ctx, state, path))
    army = eastern_army(ctx, state, path)
    if army is None:
        return 0
    return len(ctx.cat.themas(path)) + 1 - ctx.cat.spaces[state.board.where[army]].position


@RULES.implements("6.7.2")
def standing(count: int) -> Standing:
    """1-2 Barbarians (or fewer): winning; 4-5: losing; exactly 3: a tie to roll off."""
    if count < 3:
        return Standing.WINNING
    if count > 3:
        return Standing.LOSING
    return Standing.TIED


@RULES.implements("6.7.3", "6.7.3.1")
def place_social(ctx: Context, state: SooState, path: Path, *, winning: bool) -> SooState:
    """Place a Social on a Path's Zone or Homeland: Dynatoi (-1) if winning, else Christians.

    A second Social on the same Path (6.7.3.1): if it agrees with the one there, the
    new one stays on the Counter Tray and the Barbarians suffer a defeat (two
    Christians) or win a victory (two Dynatoi); if they disagree both go back to the
    Counter Tray.
    """
    christians = not winning
    label = "Christians +1" if christians else "Dynatoi -1"
    box = die_space(ctx, path.value)
    present = tiles_on(ctx, state, box, TileKind.SOCIAL)
    if present:
        other = present[0]
        if state.board.back[other] is not christians:
            if christians:
                ctx.log(
                    "6.7.3.1", f"a second Christians on Path {path}: a Barbarian defeat", "social"
                )
                return push(state, Repulse(path, "6.7.3.1"))
            ctx.log("6.7.3.1", f"a second Dynatoi on Path {path}: a Barbarian victory", "social")
            return push(state, SocialVictory(path))
        ctx.log("6.7.3.1", f"{label} cancels the Social on Path {path}", "social")
        return move(ctx, state, other, _TRAY)
    tile = _available_socials(ctx, state)[0]
    state = flip(ctx, move(ctx, state, tile, box), tile, winning)
    ctx.log("6.7.3", f"{label} placed on Path {path}", "social")
    return state


@attrs.frozen
class SocialEvent(Task):
    """One Social Event: roll its Path (6.7.1), its standing (6.7.2), place it (6.7.3).

    ``path`` is set once the Path roll is made and a tie roll is awaited.
    """

    path: Path | None = None

    @RULES.implements("6.7.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if not _available_socials(ctx, state):
                ctx.log("6.7", "no Social on the Counter Tray: no event", "social")
                return state
            return ask_roll(state, self, "6.7.1", "roll the Path of the Social Event")
        assert isinstance(answer, Roll)
        (natural,) = answer.dice
        if self.path is not None:
            winning = natural >= TIE_WINNING_FROM
            verdict = "winning" if winning else "losing"
            ctx.log("6.7.2", f"tie on Path {self.path}: roll {natural}, {verdict}", "social")
            return place_social(ctx, state, self.path, winning=winning)
        path = Path(natural)
        result = standing(barbarian_count(ctx, state, path))
        ctx.log("6.7.1", f"the Social Event strikes Path {path}: {result.value}", "social")
        if result is Standing.TIED:
            return attrs.evolve(self, path=path).reask(ctx, state)
        return place_social(ctx, state, path, winning=result is Standing.WINNING)

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The Path roll, or the tie roll of a tied Path, again (validation)."""
        path = self.path
        if path is None:
            return self.run(ctx, state, None)
        if standing(barbarian_count(ctx, state, path)) is not Standing.TIED:
            return state
        prompt = f"tie on Path {path}: 1-3 losing, 4-6 winning"
        return ask_roll(state, self, "6.7.2", prompt, path=path)


@attrs.frozen
class SocialVictory(Task):
    """Two Dynatoi on a Path: the Barbarians win (6.7.3.1).

    In the East the Barbarian advances one space (a normal Advance, with its
    Taurus roll and any Siege). In the West the weakest Army of the Reserves is
    deployed into the Zone; when only the Siege tile is left there, it is the
    Siege that enters, and it is resolved at once. Either way the movement meets
    what blocks a hostile movement or deployment on its Path (9.5): Tribute and
    the Kastron (9.5.4, 9.5.5 name deployments), and a Hospital in the Zone, whose
    roll is the Taurus roll 6.7.3.1 asks to resolve (9.5.2).
    """

    path: Path

    @RULES.implements("6.7.3.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        path = self.path
        if not path.western:
            return push(state, Advance(path, "6.7.3.1"))
        armies = reserve_armies(ctx, state, path)
        if armies:
            army = weakest(ctx, state, armies)
            strength = ctx.cat.face(state.board, army).strength
            ctx.log("6.7.3.1", f"a strength-{strength} Army deploys into Zone {path}", "advance")
            return Advance(path, "6.7.3.1").of(ctx, state, army)
        reserves = ctx.cat.spaces[ctx.cat.reserves(path)].id
        sieges = tiles_on(ctx, state, reserves, TileKind.SIEGE)
        if not sieges:
            ctx.log("6.7.3.1", f"Path {path}: no Barbarian is left to deploy", "advance")
            return state
        return Advance(path, "6.7.3.1").of(ctx, state, sieges[0])


# -- 6.8 --------------------------------------------------------------------------------


@attrs.frozen
class ResetNike(Task):
    """The Leadership Phase ends with Niké back on 0 (6.8)."""

    @RULES.implements("6.8")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        ctx.log("6.8", "Niké returns to 0", "nike")
        return set_marker(ctx, state, "nike", 0)
