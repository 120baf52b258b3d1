"""Chapter 8 of Sword of Orthodoxy, the Chronicle Synopsis Phase: this Turn's random events.

One die plus the Turn number picks a row of the Synopsis of Histories (8.1,
Appendix D); with optional rule 8.2 a second roll picks the row of the Political
Events. The row's Military Event goes on the Strategikon (8.3), where it modifies
attacks all Turn (10.6.2); two of them act at once: the Yihad and War in the East.
Then the row's Political Events happen one after another (8.4, 8.4.1), each a task
below registered under 8.4.1; the circled optional events follow when optional
rule 5.3.8 is on.

Readings recorded on the rulings page: the Military Event comes before the
Political Events, which are taken in the order the row prints them; an event
marked ✹ is spent the first time it takes effect; the rest are noted on each
event.

Two events grant an attack "at any point this Turn", which belongs to the Byzantine
Action Phase: Kleidion and Tricameron only remember ``kleidion-turn-N`` or
``tricameron-turn-N`` here, and :func:`special_attack` gives that phase the attack
to offer while the condition holds.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from byzantium.core import dice
from byzantium.core.procedure import replace
from byzantium.sword_of_orthodoxy import RULES
from byzantium.sword_of_orthodoxy.barbarians import (
    Advance,
    muslim_barbarians,
    ravenna_to_holy_roman_empire,
)
from byzantium.sword_of_orthodoxy.combat import Attack, Repulse, reforms_achieved, weakest
from byzantium.sword_of_orthodoxy.components import (
    Icon,
    OttomanRow,
    Path,
    SpaceKind,
    SynopsisRow,
    TileKind,
    WarInTheEastRow,
)
from byzantium.sword_of_orthodoxy.concepts import (
    COLONISTS,
    RUINS,
    RiseOfIslam,
    basileus_has,
    change_schism,
    colonist_on,
    discard,
    egypt_religion,
    golden_basileus_ready,
    player_controls,
    replace_army,
    ruins_level,
    schism_in_play,
    schism_level,
)
from byzantium.sword_of_orthodoxy.engine import Context, ask_choice, ask_roll, push
from byzantium.sword_of_orthodoxy.infrastructure import usable
from byzantium.sword_of_orthodoxy.siege import retreat_fact
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Pay,
    Roll,
    Select,
    SooAction,
    SooState,
    Task,
)
from byzantium.sword_of_orthodoxy.turn_start import Carthage, CrusadesBegin, RoundLetter
from byzantium.sword_of_orthodoxy.world import (
    EASTERN,
    MAX_TRACK,
    WESTERN,
    change_tribe,
    eastern_army,
    is_muslim,
    marker,
    move,
    remember,
    set_counter,
    set_marker,
    tiles_on,
    tribe,
    zone_armies,
)

__all__ = [
    "ARMENIAN_REVOLT_DICE",
    "POLITICAL_EVENTS",
    "WAR_IN_THE_EAST_COUNTER",
    "ArabianTribesMove",
    "KleidionVictory",
    "ResolveMilitaryEvent",
    "ResolvePoliticalEvents",
    "SynopsisPhase",
    "TricameronVictory",
    "WarInTheEast",
    "controlled_outposts",
    "east_west_schism",
    "event_spent",
    "mountains_controlled",
    "ottoman_drms",
    "ottoman_paths",
    "ottoman_row",
    "place_military_event",
    "pope_nice",
    "ravenna_to_holy_roman_empire",
    "special_attack",
    "spend_event",
    "synopsis_row",
    "war_in_the_east_row",
    "yihad",
]

#: The peer app's option: the Muslims may crush the Armenian Revolt on the dice (8.4.1).
ARMENIAN_REVOLT_DICE = "armenian_revolt_dice"
#: The natural roll that crushes the Armenian Revolt under that option.
CRUSHING_ROLL = 6

#: The counter of how many times War in the East has come up (8.3).
WAR_IN_THE_EAST_COUNTER = "war-in-the-east"
WAR_IN_THE_EAST = "War in the East"
YIHAD = "Yihad"
MILITARY_EVENT_TILE = "marker-military-event"
#: The cost of the single "counterattack" reroll of War in the East (8.3).
COUNTERATTACK_COST = 4
#: At most three Mountains count for War in the East (8.3).
MAX_MOUNTAINS = 3
#: Greeks: all three Greek Themas pay 4 $ instead of 3 (8.4.1).
ALL_GREEKS_PAY = 4
#: The Persian Armies, which War in the East moves (8.3).
PERSIANS = ("army-delta-persia", "army-epsilon-persia", "army-zeta-persia")
#: Outposts and the map space where each is held (Lazica also on the Greek Fire space, 10.5).
OUTPOST_SPACES = {
    "outpost-egypt": ("egypt",),
    "outpost-holy-land": ("outpost-holy-land",),
    "outpost-lazica": ("outpost-lazica", "greek-fire"),
    "outpost-rome": ("outpost-rome",),
    "outpost-sicily": ("outpost-sicily",),
    "outpost-hispania": ("outpost-hispania",),
}
#: The eastern Army or the Tribe each Path's Ottomans use (8.4.1 "Ottomans").
OTTOMANS = {
    Path.BETA: "tribe-beta-ottomans",
    Path.GAMMA: "tribe-gamma-ottomans",
    Path.DELTA: "army-delta-ottomans",
    Path.EPSILON: "army-epsilon-ottomans",
    Path.ZETA: "army-zeta-ottomans",
}
SELJUKS = {
    Path.DELTA: "army-delta-seljuks",
    Path.EPSILON: "army-epsilon-seljuks",
    Path.ZETA: "army-zeta-seljuks",
}


# -- shared helpers ------------------------------------------------------------------


def _log(ctx: Context, text: str) -> None:
    ctx.log("8.4.1", text, "event")


def _gain(ctx: Context, state: SooState, amount: int, rule: str) -> SooState:
    """Add solidus to the treasury (the Omnibus Track stops at 12)."""
    total = marker(ctx, state, "solidus") + amount
    ctx.log(rule, f"+{amount} $: treasury {min(total, 12)}", "solidus")
    return set_marker(ctx, state, "solidus", total)


def _spend(ctx: Context, state: SooState, amount: int, rule: str) -> SooState:
    """Take solidus from the treasury."""
    total = marker(ctx, state, "solidus") - amount
    if amount:
        ctx.log(rule, f"-{amount} $: treasury {total}", "solidus")
    return set_marker(ctx, state, "solidus", total)


def _payments(ctx: Context, state: SooState) -> list[SooAction]:
    """What the player may spend on an event that takes "as many solidus as you like"."""
    return [Pay(n) for n in range(marker(ctx, state, "solidus") + 1)]


def _where(ctx: Context, state: SooState, tile_id: str) -> str:
    """The id of the space a tile lies on."""
    return ctx.cat.spaces[state.board.where[ctx.cat.tile(tile_id)]].id


def _is(ctx: Context, state: SooState, tile_id: str, space: str, *, back: bool = False) -> bool:
    """Whether a tile lies on a space with the given face up."""
    tile = ctx.cat.tile(tile_id)
    return _where(ctx, state, tile_id) == space and state.board.back[tile] is back


def _tribe_is(ctx: Context, state: SooState, path: Path, *tribe_ids: str) -> bool:
    current = tribe(ctx, state, path)
    return current is not None and ctx.cat.tiles[current].id in tribe_ids


def _army_is(ctx: Context, state: SooState, path: Path, army_id: str) -> bool:
    army = eastern_army(ctx, state, path)
    return army is not None and ctx.cat.tiles[army].id == army_id


def _on_path(ctx: Context, state: SooState, tile_id: str, path: Path) -> bool:
    """Whether a tile lies on one of a Path's map spaces (the Reserves are not on the map)."""
    space = ctx.cat.spaces[state.board.where[ctx.cat.tile(tile_id)]]
    return space.path is path and space.kind is not SpaceKind.RESERVES


def _themas_with(ctx: Context, icon: Icon) -> list[int]:
    """The eastern map spaces that print an icon."""
    return [i for i, space in enumerate(ctx.cat.spaces) if icon in space.icons and space.position]


def pope_nice(ctx: Context, state: SooState) -> bool:
    """Whether the Pope on the map is the Nice one (6.4)."""
    return _is(ctx, state, "marker-pope", "pope")


def east_west_schism(ctx: Context, state: SooState) -> bool:
    """Whether the Churches have split (5.3.3): it is remembered, or the Pope tile is gone."""
    return "east-west-schism" in state.done or _where(ctx, state, "marker-pope") != "pope"


def controlled_outposts(ctx: Context, state: SooState) -> list[int]:
    """The Outposts the player holds: each on its own map space (Egypt not Fallen)."""
    held = []
    board = state.board
    for tile_id, spaces in OUTPOST_SPACES.items():
        tile = ctx.cat.tile(tile_id)
        if ctx.cat.spaces[board.where[tile]].id in spaces and not board.back[tile]:
            held.append(tile)
    return held


# -- 8.4 once-only events --------------------------------------------------------------


def _event_fact(name: str) -> str:
    return f"event:{name}"


@RULES.implements("8.4")
def event_spent(ctx: Context, state: SooState, name: str) -> bool:
    """Whether a Political Event marked ✹ has already taken effect once (it never recurs)."""
    once = {event.name for event in ctx.cat.components.political_events if event.once}
    return name in once and _event_fact(name) in state.done


@RULES.implements("8.4")
def spend_event(state: SooState, name: str) -> SooState:
    """Remember that an event took effect (only ✹ events consult it)."""
    return remember(state, _event_fact(name))


# -- 8.1, 8.2, Appendix D ----------------------------------------------------------------


@RULES.implements("8.1", "D")
def synopsis_row(ctx: Context, result: int) -> SynopsisRow:
    """The row of the Synopsis of Histories for a result (one die plus the Turn number)."""
    for row in ctx.cat.components.synopsis:
        if row.low <= result <= row.high:
            return row
    raise ValueError(f"no Synopsis row for a result of {result}")


@attrs.frozen
class SynopsisPhase(Task):
    """The Chronicle Synopsis Phase (8.1): roll, read the row, resolve its events.

    With optional rule 8.2 (``two_synopsis_rolls``) the first roll gives the
    Military Event and a second the Political Events; ``military`` keeps the first
    result meanwhile (0 before it is rolled).
    """

    military: int = 0

    @RULES.implements("8.1", "8.2")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        two = ctx.option("two_synopsis_rolls")
        if answer is None:
            what = "the Military Event" if two else "the Synopsis of Histories"
            return ask_roll(state, self, "8.2" if two else "8.1", f"d6 + Turn for {what}")
        assert isinstance(answer, Roll)
        result = answer.dice[0] + state.turn
        if two and not self.military:
            ctx.log("8.2", f"Military Event roll: {answer.dice[0]} + Turn {state.turn} = {result}")
            return SynopsisPhase(military=result).reask(ctx, state)
        military = synopsis_row(ctx, self.military or result)
        political = synopsis_row(ctx, result)
        ctx.log("8.1", f"Synopsis: {answer.dice[0]} + Turn {state.turn} = {result}", "synopsis")
        return push(
            state,
            ResolveMilitaryEvent(military.military),
            ResolvePoliticalEvents(political.political, political.optional),
        )

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The first roll, or with optional rule 8.2 the second, again (validation)."""
        if not self.military:
            return self.run(ctx, state, None)
        if not ctx.option("two_synopsis_rolls"):
            return state
        return ask_roll(state, self, "8.2", "d6 + Turn for the Political Events")


# -- 8.3 Military Events ------------------------------------------------------------------


@RULES.implements("8.3")
def place_military_event(ctx: Context, state: SooState, name: str) -> SooState:
    """Put the Military Event tile on the event's space of the Strategikon track.

    The space is the event's 1-based place in the Strategikon. Without a Military
    Event the tile is not placed (it stays where it waits).
    """
    if not name:
        ctx.log("8.3", "no Military Event this Turn", "military")
        return state
    names = [event.name for event in ctx.cat.components.strategikon]
    tile = ctx.cat.tile(MILITARY_EVENT_TILE)
    board = state.board.move(tile, ctx.cat.space("strategikon"), names.index(name) + 1)
    ctx.log("8.3", f"Military Event: {name}", "military")
    return replace(state, "board", board.flip(tile, False))


@RULES.implements("8.3")
def yihad(ctx: Context, state: SooState) -> SooState:
    """Yihad: each Path whose Barbarians are Muslim (9.1.1) advances once more, now.

    The Paths go in order, Α to Ζ.
    """
    paths = [path for path in (*WESTERN, *EASTERN) if muslim_barbarians(ctx, state, path)]
    ctx.log("8.3", f"Yihad: one more advance on {''.join(p.letter for p in paths) or 'no Path'}")
    return push(state, *(Advance(path, "8.3") for path in paths))


@attrs.frozen
class ResolveMilitaryEvent(Task):
    """The Military Event of the row (8.3): on the Strategikon, and Yihad or War in the East."""

    name: str

    @RULES.implements("8.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        state = place_military_event(ctx, state, self.name)
        if self.name == YIHAD:
            return yihad(ctx, state)
        if self.name == WAR_IN_THE_EAST:
            return push(state, WarInTheEast())
        return state


@RULES.implements("8.3")
def mountains_controlled(ctx: Context, state: SooState) -> int:
    """The Taurus Mountain spaces the player holds on Paths ΔΕΖ, counting at most three."""
    held = sum(1 for space in _themas_with(ctx, Icon.TAURUS) if player_controls(ctx, state, space))
    return min(held, MAX_MOUNTAINS)


@RULES.implements("8.3", "Tables")
def war_in_the_east_row(ctx: Context, total: int) -> WarInTheEastRow:
    """The row of Table 2 (War in the East) for a total of 2d6 plus Mountains."""
    for row in ctx.cat.components.war_in_the_east_table:
        if row.low <= total <= row.high:
            return row
    raise ValueError(f"no War in the East row for {total}")  # pragma: no cover - open-ended


@attrs.frozen
class WarInTheEast(Task):
    """War in the East (8.3), each time it comes up.

    The first time Persia goes to war: the Nomads of Path Ζ give way to its Persian
    Army, then 2d6 plus the Mountains held are read on Table 2. With at least 4 $ the
    player may pay them for a single reroll and must keep the new result. The
    Ruins rise, every Persian Army advances or falls back (as ordinary Advances,
    9.3, or defeats, 10.6), and the Pagan tiles leave Arabia
    (:class:`ArabianTribesMove`). The second time, Islam rises (2.8) unless it
    already has. Later times have no effect beyond the tile on the Strategikon
    (see the rulings page).

    ``stage``: "" (start), "roll" (the first 2d6), "counter" (the reroll offer, with
    ``total`` the result to keep), "reroll" (the second 2d6).
    """

    stage: str = ""
    total: int = 0

    @RULES.implements("8.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.stage == "":
            return self._start(ctx, state)
        if self.stage == "roll":
            total = self._total(ctx, state, answer)
            if marker(ctx, state, "solidus") >= COUNTERATTACK_COST:
                return WarInTheEast("counter", total).reask(ctx, state)
            return self._result(ctx, state, total)
        if self.stage == "counter":
            if isinstance(answer, Pay):
                state = _spend(ctx, state, COUNTERATTACK_COST, "8.3")
                return WarInTheEast("reroll").reask(ctx, state)
            return self._result(ctx, state, self.total)
        return self._result(ctx, state, self._total(ctx, state, answer))

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The question of this stage (validation, and the stages after the first)."""
        if self.stage == "roll":
            prompt = "War in the East: 2d6 + Mountains held"
            return ask_roll(state, self, "8.3", prompt, dice=2)
        if self.stage == "counter":
            if marker(ctx, state, "solidus") < COUNTERATTACK_COST:
                return state
            prompt = f"War in the East: keep {self.total}, or pay 4 $ to roll again?"
            return ask_choice(state, self, "8.3", prompt, (Decline(), Pay(COUNTERATTACK_COST)))
        if self.stage == "reroll":
            return ask_roll(state, self, "8.3", "counterattack: 2d6", dice=2)
        return state

    def _start(self, ctx: Context, state: SooState) -> SooState:
        times = state.counter(WAR_IN_THE_EAST_COUNTER) + 1
        state = set_counter(state, WAR_IN_THE_EAST_COUNTER, times)
        if times == 1:
            ctx.log("8.3", "War in the East: Persia goes to war", "war")
            if _army_is(ctx, state, Path.ZETA, "army-zeta-nomads"):
                state = replace_army(ctx, state, Path.ZETA, "army-zeta-persia", "8.3")
            return WarInTheEast("roll").reask(ctx, state)
        if times == 2:
            ctx.log("8.3", "War in the East for the second time: the Rise of Islam", "war")
            return push(state, RiseOfIslam("8.3"))
        ctx.log("8.3", f"War in the East again (time {times}): no further effect", "war")
        return state

    def _total(self, ctx: Context, state: SooState, answer: SooAction | None) -> int:
        assert isinstance(answer, Roll)
        mountains = mountains_controlled(ctx, state)
        total = sum(answer.dice) + mountains
        ctx.log(
            "8.3", f"War in the East: {'+'.join(map(str, answer.dice))} + {mountains} = {total}"
        )
        return total

    def _result(self, ctx: Context, state: SooState, total: int) -> SooState:
        row = war_in_the_east_row(ctx, total)
        level = ruins_level(ctx, state) + row.ruins
        state = move(ctx, state, ctx.cat.tile(RUINS), "omnibus", min(level, 12))
        ctx.log("8.3", f"{row.ruins} Ruins: Empires in Rubble on {min(level, 12)}", "war")
        moves: list[Task] = []
        for path in EASTERN:
            army = eastern_army(ctx, state, path)
            if army is None or ctx.cat.tiles[army].id not in PERSIANS:
                continue
            step: Task = Advance(path, "8.3") if row.persians > 0 else Repulse(path, "8.3")
            moves.extend([step] * abs(row.persians))
        return push(state, *moves, ArabianTribesMove(row.victory))


@attrs.frozen
class ArabianTribesMove(Task):
    """After the first War in the East the two Pagan tiles leave Arabia (8.3).

    One goes to the Homeland of Path Ζ and one to that of Path Ε. A Persian victory
    turns the one on Ζ to its Colonist side, a Byzantine victory the one on Ε, and
    without a victory both show Colonists.
    """

    victory: str = ""

    @RULES.implements("8.3")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        pagans = [ctx.cat.tile(t) for t in COLONISTS if _where(ctx, state, t) == "arabia"]
        colonist = {
            "persian": {Path.ZETA},
            "byzantine": {Path.EPSILON},
        }.get(self.victory, {Path.EPSILON, Path.ZETA})
        board = state.board
        for tile, path in zip(pagans, (Path.ZETA, Path.EPSILON), strict=False):
            board = board.move(tile, ctx.cat.themas(path)[-1]).flip(tile, path not in colonist)
            side = "Colonist" if path in colonist else "Pagan"
            ctx.log("8.3", f"a {side} tile goes to the Homeland of Path {path}", "war")
        return attrs.evolve(state, board=board)


# -- 8.4 Political Events ------------------------------------------------------------------


@attrs.frozen
class ResolvePoliticalEvents(Task):
    """The Political Events of the row, in the order it prints them (8.4).

    An event marked ✹ that has already taken effect is skipped. The circled
    optional events follow, but only under optional rule 5.3.8 (``round_letters``).
    """

    names: tuple[str, ...]
    symbols: tuple[str, ...] = ()

    @RULES.implements("8.4")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        events: list[Task] = []
        for name in self.names:
            if event_spent(ctx, state, name):
                ctx.log("8.4", f"{name} has already happened: it does not recur", "event")
                continue
            events.append(POLITICAL_EVENTS[name]())
        if self.symbols and not ctx.option("round_letters"):
            ctx.log("8.4", f"optional events {' '.join(self.symbols)} ignored", "event")
        elif self.symbols:
            events.extend(RoundLetter(symbol, rule="8.4") for symbol in self.symbols)
        return push(state, *events)


# -- 8.4.1 the list of Political Events ------------------------------------------------------


@attrs.frozen
class AlexandriaEvent(Task):
    """Alexandria: holding the Egypt Outpost brings 1 $ of grain money."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if ctx.cat.tile("outpost-egypt") not in controlled_outposts(ctx, state):
            _log(ctx, "Alexandria: the Egypt Outpost is not held")
            return state
        _log(ctx, "Alexandria: Egyptian grain")
        return _gain(ctx, state, 1, "8.4.1")


@RULES.implements("8.4.1")
def armenian_revolt_dice(ctx: Context, state: SooState) -> int:
    """How many dice may crush the Armenian Revolt (peer option, off: none).

    With the option ``armenian_revolt_dice``, one die for each Thema of Paths Δ, Ε
    and Ζ in Muslim hands: where the Path's Army is Muslim, the Thema it stands on
    and every one behind it, the Homeland excepted.
    """
    if not ctx.option(ARMENIAN_REVOLT_DICE):
        return 0
    count = 0
    for path in EASTERN:
        army = eastern_army(ctx, state, path)
        if army is not None and is_muslim(ctx, state, army):
            homeland = len(ctx.cat.themas(path))
            count += homeland - ctx.cat.spaces[state.board.where[army]].position
    return count


@attrs.frozen
class ArmenianRevoltEvent(Task):
    """Armenian Revolt: Saracens on Path Δ are replaced by the Armenians.

    With the peer option Armenian Revolt Subject to Dice the Muslims may crush it
    first (:class:`CrushArmenianRevolt`).
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not _army_is(ctx, state, Path.DELTA, "army-delta-saracens"):
            _log(ctx, "Armenian Revolt: no Saracens on Path Δ")
            return state
        if armenian_revolt_dice(ctx, state):
            return push(state, CrushArmenianRevolt())
        return armenia_rises(ctx, state)


def armenia_rises(ctx: Context, state: SooState) -> SooState:
    """The Armenians replace the Saracens on Path Δ (8.4.1 Armenian Revolt)."""
    _log(ctx, "Armenian Revolt: Armenia throws off the Arabs")
    return replace_army(ctx, state, Path.DELTA, "army-delta-armenia", "8.4.1")


@attrs.frozen
class CrushArmenianRevolt(Task):
    """The dice of the peer option Armenian Revolt Subject to Dice (8.4.1).

    The dice of :func:`armenian_revolt_dice` are rolled one by one (``made`` rolled
    so far): the first natural 6 crushes the revolt and nothing changes; without a
    6 the revolt succeeds.
    """

    made: int = 0

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        made = self.made
        if isinstance(answer, Roll):
            if answer.dice[0] == CRUSHING_ROLL:
                _log(ctx, "Armenian Revolt: a 6, the Muslims crush the revolt")
                return state
            made += 1
        total = armenian_revolt_dice(ctx, state)
        if made < total:
            prompt = f"Armenian Revolt: die {made + 1} of {total}, a 6 crushes it"
            return ask_roll(state, attrs.evolve(self, made=made), "8.4.1", prompt)
        return armenia_rises(ctx, state)


@attrs.frozen
class BaptismOfTheRusEvent(Task):
    """Baptism of the Rus': with Kiev Pagan, pay what you like and roll a die.

    The roll gets -1 if the Basileus shows the Orthodox Cross (a natural 1 or 6
    stays as rolled, 1.1); a roll below the payment makes Kiev Orthodox. Paying
    nothing is not trying. ``paid`` is the payment once made.
    """

    paid: int = -1

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.paid < 0:
            if answer is None:
                if not _is(ctx, state, "marker-kiev", "kiev"):
                    _log(ctx, "Baptism of the Rus': Kiev is not Pagan")
                    return state
                prompt = "Baptism of the Rus': solidus for the missionaries"
                return ask_choice(state, self, "8.4.1", prompt, _payments(ctx, state))
            assert isinstance(answer, Pay)
            if answer.amount == 0:
                _log(ctx, "Baptism of the Rus': no mission is sent")
                return state
            state = _spend(ctx, state, answer.amount, "8.4.1")
            return BaptismOfTheRusEvent(answer.amount).reask(ctx, state)
        assert isinstance(answer, Roll)
        cross = (dice.Modifier(-1, "Orthodox Cross", "8.4.1"),)
        drms = cross if basileus_has(ctx, state, Icon.CROSS) else ()
        roll = dice.Roll(answer.dice[0], drms, natural_extremes=True)
        if roll.value >= self.paid:
            _log(ctx, f"Baptism of the Rus': {roll.describe()} is not below {self.paid}: no")
            return state
        _log(ctx, f"Baptism of the Rus': {roll.describe()}: Kiev turns Orthodox")
        kiev = ctx.cat.tile("marker-kiev")
        return attrs.evolve(state, board=state.board.flip(kiev, True))

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The offer, or once paid the roll, again (validation)."""
        if self.paid < 0:
            return self.run(ctx, state, None)
        if not 1 <= self.paid <= MAX_TRACK:
            return state
        return ask_roll(state, self, "8.4.1", "the mission")


@attrs.frozen
class BulgarsEvent(Task):
    """Bulgars: they replace the Slavs, Ostrogoths or Huns of Path Γ, then convert.

    The player pays what he likes and rolls a die: a roll no higher than the
    payment places the Bulgarian Church tile on its Orthodox (+1) side, otherwise
    on its Roman Catholic (-1) side. ``paid`` is the payment once made.
    """

    paid: int = -1

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.paid < 0 and answer is None:
            tribes = ("tribe-gamma-slavs", "tribe-gamma-ostrogoths", "tribe-gamma-huns")
            if not _tribe_is(ctx, state, Path.GAMMA, *tribes):
                _log(ctx, "Bulgars: no Slavs, Ostrogoths or Huns on Path Γ")
                return state
            state = change_tribe(ctx, state, Path.GAMMA, "tribe-gamma-bulgars", "8.4.1")
            if _where(ctx, state, "marker-bulgarian-church") == "discarded":
                return state
            prompt = "Bulgars: solidus for the Orthodox missionaries"
            return ask_choice(state, self, "8.4.1", prompt, _payments(ctx, state))
        if self.paid < 0:
            assert isinstance(answer, Pay)
            if answer.amount == 0:
                return self._church(ctx, state, orthodox=False)
            state = _spend(ctx, state, answer.amount, "8.4.1")
            return BulgarsEvent(answer.amount).reask(ctx, state)
        assert isinstance(answer, Roll)
        return self._church(ctx, state, orthodox=answer.dice[0] <= self.paid)

    def _church(self, ctx: Context, state: SooState, *, orthodox: bool) -> SooState:
        church = ctx.cat.tile("marker-bulgarian-church")
        board = state.board.move(church, ctx.cat.space("bulgarian-church")).flip(
            church, not orthodox
        )
        _log(ctx, f"Bulgars: they turn {'Orthodox' if orthodox else 'Roman Catholic'}")
        return attrs.evolve(state, board=board)

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The offer, or once paid the roll, again (validation)."""
        if self.paid < 0:  # the Bulgars have already replaced the tribe
            bulgars = _tribe_is(ctx, state, Path.GAMMA, "tribe-gamma-bulgars")
            if not bulgars or _where(ctx, state, "marker-bulgarian-church") == "discarded":
                return state
            prompt = "Bulgars: solidus for the Orthodox missionaries"
            return ask_choice(state, self, "8.4.1", prompt, _payments(ctx, state))
        if not 1 <= self.paid <= MAX_TRACK:
            return state
        return ask_roll(state, self, "8.4.1", "the Bulgars' conversion")


@attrs.frozen
class CarthageEvent(Task):
    """Carthage: the Migration Event of the same name (5.2.3) happens now."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        _log(ctx, "Carthage: the struggle for Carthage (5.2.3)")
        return push(state, Carthage("8.4.1"))


@attrs.frozen
class CatholicCharityEvent(Task):
    """Catholic Charity: the Catholic West sends a die's worth of solidus.

    Before the East-West Schism (5.3.3) the Pope must be Nice. After it there is
    no Pope tile, and only a Schism Level of zero lets the aid come (see the
    rulings page).
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if east_west_schism(ctx, state):
                allowed = schism_level(ctx, state) == 0
            else:
                allowed = pope_nice(ctx, state)
            if not allowed:
                _log(ctx, "Catholic Charity: the West sends nothing")
                return state
            return ask_roll(state, self, "8.4.1", "Catholic Charity: solidus sent")
        assert isinstance(answer, Roll)
        _log(ctx, "Catholic Charity: aid from the Latin West")
        return _gain(ctx, state, answer.dice[0], "8.4.1")


@attrs.frozen
class CopticRevoltEvent(Task):
    """Coptic Revolt: with Egypt Fallen, Egypt not an enemy and still Christian, pay and roll.

    A roll no higher than the payment turns the Egypt Outpost back to its held
    side. ``paid`` is the payment once made.
    """

    paid: int = -1

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.paid < 0 and answer is None:
            fallen = _is(ctx, state, "outpost-egypt", "egypt", back=True)
            egypt_active = _tribe_is(ctx, state, Path.ALPHA, "tribe-alpha-egypt") or _army_is(
                ctx, state, Path.ZETA, "army-zeta-egypt"
            )
            if not fallen or egypt_active or egypt_religion(ctx, state) != "christian":
                _log(ctx, "Coptic Revolt: no revolt")
                return state
            prompt = "Coptic Revolt: solidus for the rebels"
            return ask_choice(state, self, "8.4.1", prompt, _payments(ctx, state))
        if self.paid < 0:
            assert isinstance(answer, Pay)
            if answer.amount == 0:
                _log(ctx, "Coptic Revolt: the Copts are left alone")
                return state
            state = _spend(ctx, state, answer.amount, "8.4.1")
            return CopticRevoltEvent(answer.amount).reask(ctx, state)
        assert isinstance(answer, Roll)
        if answer.dice[0] > self.paid:
            _log(ctx, "Coptic Revolt: the revolt fails")
            return state
        _log(ctx, "Coptic Revolt: Egypt is held again")
        egypt = ctx.cat.tile("outpost-egypt")
        return attrs.evolve(state, board=state.board.flip(egypt, False))

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The offer, or once paid the roll, again (validation)."""
        if self.paid < 0:
            return self.run(ctx, state, None)
        if not 1 <= self.paid <= MAX_TRACK:
            return state
        return ask_roll(state, self, "8.4.1", "the revolt")


@attrs.frozen
class DavidEvent(Task):
    """David ✹: Georgia takes Lazica; its Outpost is discarded (and Greek Fire with it, 10.5.1)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if _where(ctx, state, "outpost-lazica") == "discarded":
            _log(ctx, "David: Lazica is already gone")
            return state
        _log(ctx, "David: the Georgians take Lazica")
        state = discard(ctx, state, ctx.cat.tile("outpost-lazica"), "8.4.1")
        return spend_event(state, "David")


@attrs.frozen
class FallOfRomeEvent(Task):
    """Fall of Rome ✹: the Rome, Hispania and Sicily Outposts become available to take.

    Only tiles still on the Counter Tray move (one already held or discarded stays).
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        moved = False
        for tile_id in ("outpost-rome", "outpost-hispania", "outpost-sicily"):
            if _where(ctx, state, tile_id) == "counter-tray":
                state = move(ctx, state, ctx.cat.tile(tile_id), "available-outposts")
                moved = True
        if not moved:
            _log(ctx, "Fall of Rome: no Outpost to make available")
            return state
        _log(ctx, "Fall of Rome: Rome, Hispania and Sicily may be taken")
        return spend_event(state, "Fall of Rome")


def _two_free_attacks(ctx: Context, state: SooState, name: str) -> SooState:
    _log(ctx, f"{name}: a free attack on Path Δ and one on Path Ε")
    return push(state, Attack("8.4.1", (Path.DELTA,)), Attack("8.4.1", (Path.EPSILON,)))


@attrs.frozen
class GokturksEvent(Task):
    """Göktürks: one free attack on Path Δ and one on Path Ε."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return _two_free_attacks(ctx, state, "Göktürks")


@attrs.frozen
class GreeksEvent(Task):
    """Greeks: with the Reforms, 1 $ per Greek-banner Thema held; all three pay 4 $."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not reforms_achieved(ctx, state):
            _log(ctx, "Greeks: the Reforms are not in effect")
            return state
        greek = _themas_with(ctx, Icon.GREEK_BANNER)
        held = sum(1 for space in greek if player_controls(ctx, state, space))
        amount = ALL_GREEKS_PAY if held == len(greek) else held
        _log(ctx, f"Greeks: {held} Greek Themas held")
        return _gain(ctx, state, amount, "8.4.1") if amount else state


@attrs.frozen
class HenotikonEvent(Task):
    """Henotikon: with a Nice Pope, a double six puts the Schism tile into the Turn Chit mug."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if not pope_nice(ctx, state) or not schism_in_play(ctx, state):
                _log(ctx, "Henotikon: no compromise is attempted")
                return state
            return ask_roll(state, self, "8.4.1", "Henotikon: 2d6", dice=2)
        assert isinstance(answer, Roll)
        if answer.dice != (6, 6):
            _log(ctx, "Henotikon: the theologians do not agree")
            return state
        _log(ctx, "Henotikon: the Churches are reconciled; the Schism tile goes into the mug")
        return move(ctx, state, ctx.cat.tile("marker-schism"), "turn-chit-mug")


@attrs.frozen
class KleidionEvent(Task):
    """Kleidion ✹: this Turn the last Bulgar Army of Zone Γ may be attacked (see special_attack)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        _log(ctx, "Kleidion: the Bulgars' last Army may be attacked this Turn")
        return remember(state, f"kleidion-turn-{state.turn}")


@attrs.frozen
class KievEvent(Task):
    """Kiev: Pagan, it raids (even Turns Δ advances, odd ones Γ deploys); Orthodox, it trades.

    Trade with an Orthodox Kiev brings 1 $; an empty Kiev space does nothing.
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if _where(ctx, state, "marker-kiev") != "kiev":
            _log(ctx, "Kiev: the Kiev space is empty")
            return state
        if state.board.back[ctx.cat.tile("marker-kiev")]:
            _log(ctx, "Kiev: trade with the Orthodox Rus'")
            return _gain(ctx, state, 1, "8.4.1")
        path = Path.DELTA if state.turn % 2 == 0 else Path.GAMMA
        _log(ctx, f"Kiev: the pagan Rus' raid; Path {path} advances")
        return push(state, Advance(path, "8.4.1"))


@attrs.frozen
class LombardsEvent(Task):
    """Lombards: Goths in Zone Β are conquered by the Lombards (2.4.1)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not _tribe_is(ctx, state, Path.BETA, "tribe-beta-goths"):
            _log(ctx, "Lombards: the Goths are not the Tribe of Path Β")
            return state
        return change_tribe(ctx, state, Path.BETA, "tribe-beta-lombards", "8.4.1")


@attrs.frozen
class MagyarPrincessEvent(Task):
    """Magyar Princess: Schism -1, or 1 $, as the player prefers."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            options = (Select("reduce-schism"), Select("gain-solidus"))
            return ask_choice(state, self, "8.4.1", "Magyar Princess: Schism -1 or 1 $", options)
        assert isinstance(answer, Select)
        if answer.item == "reduce-schism":
            return change_schism(ctx, state, -1, "8.4.1")
        return _gain(ctx, state, 1, "8.4.1")


def _support_unit(ctx: Context, state: SooState, tile_id: str, name: str) -> SooState | None:
    """Put a Support Unit in Zone Β if the Ottomans are its Tribe (None: it is not placed)."""
    if not _tribe_is(ctx, state, Path.BETA, OTTOMANS[Path.BETA]):
        _log(ctx, f"{name}: the Ottomans are not on Path Β")
        return None
    if _where(ctx, state, tile_id) == "zone-beta":
        _log(ctx, f"{name}: the Support Unit is already in Zone Β")
        return None
    _log(ctx, f"{name}: a Support Unit joins Zone Β")
    return move(ctx, state, ctx.cat.tile(tile_id), "zone-beta")


@attrs.frozen
class MagyarsEvent(Task):
    """Magyars: the Magyar Support Unit (9.5.3) goes to Zone Β if the Ottomans are there."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        placed = _support_unit(ctx, state, "support-magyars", "Magyars")
        return state if placed is None else placed


@attrs.frozen
class OstrogothsEvent(Task):
    """Ostrogoths: they replace the Huns as the Tribe of Path Γ (2.4.1)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not _tribe_is(ctx, state, Path.GAMMA, "tribe-gamma-huns"):
            _log(ctx, "Ostrogoths: the Huns are not the Tribe of Path Γ")
            return state
        return change_tribe(ctx, state, Path.GAMMA, "tribe-gamma-ostrogoths", "8.4.1")


@RULES.implements("8.4.1")
def ottoman_drms(ctx: Context, state: SooState) -> tuple[dice.Modifier, ...]:
    """The modifiers of the Ottoman roll (8.4.1 "Ottomans").

    -1 per Taurus Mountain space held, -1 per Zone with at most one hostile Army,
    +1 per Greek-banner Thema held by Muslim Barbarians, +1 per Zone with three or
    more hostile Armies.
    """
    drms: list[dice.Modifier] = []
    for space in _themas_with(ctx, Icon.TAURUS):
        if player_controls(ctx, state, space):
            drms.append(dice.Modifier(-1, ctx.cat.spaces[space].name, "8.4.1"))
    for path in WESTERN:
        armies = len(zone_armies(ctx, state, path))
        if armies <= 1:
            drms.append(dice.Modifier(-1, f"Zone {path} holds one Army", "8.4.1"))
        elif armies >= 3:
            drms.append(dice.Modifier(1, f"Zone {path} holds {armies} Armies", "8.4.1"))
    for space in _themas_with(ctx, Icon.GREEK_BANNER):
        holder = ctx.cat.spaces[space].path
        assert holder is not None
        if not player_controls(ctx, state, space) and muslim_barbarians(ctx, state, holder):
            drms.append(dice.Modifier(1, f"Muslims hold {ctx.cat.spaces[space].name}", "8.4.1"))
    return tuple(drms)


@RULES.implements("8.4.1", "Tables")
def ottoman_row(ctx: Context, result: int) -> OttomanRow:
    """The row of Table 3 (Ottoman Empire) for a modified roll."""
    for row in ctx.cat.components.ottoman_table:
        if row.low <= result <= row.high:
            return row
    raise ValueError(f"no Ottoman row for {result}")  # pragma: no cover - open-ended


@RULES.implements("8.4.1")
def ottoman_paths(ctx: Context, state: SooState, result: int) -> tuple[Path, ...]:
    """The Paths that turn Ottoman for a modified roll: Table 3, but Β only as the Balkans."""
    balkans = _is(ctx, state, "marker-zone-beta", "zone-name-beta", back=True)
    row = ottoman_row(ctx, result)
    return tuple(path for path in row.paths if path is not Path.BETA or balkans)


@attrs.frozen
class OttomansEvent(Task):
    """Ottomans ✹: a Muslim Path Δ and Il-Khans on Ε and Ζ let the Ottoman state form.

    One die, modified by :func:`ottoman_drms` (a natural 1 or 6 stays, 1.1), is
    read on Table 3. Each Path named becomes Ottoman (a new Tribe converts the
    Armies of a Zone, 2.4.1; in the East the Ottoman Army takes the old one's
    space) and at once advances one step. A roll that founds no Empire leaves the
    event unspent (see the rulings page).
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            il_khans = _army_is(ctx, state, Path.EPSILON, "army-epsilon-il-khan") and _army_is(
                ctx, state, Path.ZETA, "army-zeta-il-khan"
            )
            if not (muslim_barbarians(ctx, state, Path.DELTA) and il_khans):
                _log(ctx, "Ottomans: the conditions for an Ottoman state are not met")
                return state
            return ask_roll(state, self, "8.4.1", "Ottomans: the Ottoman Table")
        assert isinstance(answer, Roll)
        roll = dice.Roll(answer.dice[0], ottoman_drms(ctx, state), natural_extremes=True)
        paths = ottoman_paths(ctx, state, roll.value)
        _log(ctx, f"Ottomans: {roll.describe()}: {''.join(p.letter for p in paths) or 'no Empire'}")
        if not paths:
            return state
        for path in paths:
            if path.western:
                state = change_tribe(ctx, state, path, OTTOMANS[path], "8.4.1")
            else:
                state = replace_army(ctx, state, path, OTTOMANS[path], "8.4.1")
        state = spend_event(state, "Ottomans")
        return push(state, *(Advance(path, "8.4.1") for path in paths))


@attrs.frozen
class PechenegsEvent(Task):
    """Pechenegs: the Bulgarian Church is discarded, Γ advances, then a free attack on Γ."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        _log(ctx, "Pechenegs: a Turkic invasion of the Balkans")
        if _where(ctx, state, "marker-bulgarian-church") == "bulgarian-church":
            state = discard(ctx, state, ctx.cat.tile("marker-bulgarian-church"), "8.4.1")
        return push(state, Advance(Path.GAMMA, "8.4.1"), Attack("8.4.1", (Path.GAMMA,)))


@attrs.frozen
class PlagueEvent(Task):
    """Plague: the golden Basileus in Constantinople turns to his Plague side.

    If both Hospitals are on the map and unused the player may use them up for a
    roll: 4 to 6 turns him back.
    """

    stage: str = ""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        golden = ctx.cat.tile("basileus-golden")
        hospitals = ctx.cat.tiles_of(TileKind.HOSPITAL)
        if self.stage == "":
            if not golden_basileus_ready(ctx, state):
                _log(ctx, "Plague: the golden Basileus is not in Constantinople")
                return state
            _log(ctx, "Plague: the Basileus is busy with the plague")
            state = attrs.evolve(state, board=state.board.flip(golden, True))
            return PlagueEvent("hospitals").reask(ctx, state)
        if self.stage == "hospitals":
            if isinstance(answer, Decline):
                return state
            board = state.board
            for hospital in hospitals:
                board = board.flip(hospital, True)
            state = attrs.evolve(state, board=board)
            return PlagueEvent("roll").reask(ctx, state)
        assert isinstance(answer, Roll)
        if answer.dice[0] < 4:
            _log(ctx, "Plague: the Hospitals do not help")
            return state
        _log(ctx, "Plague: the Hospitals free the Basileus")
        return attrs.evolve(state, board=state.board.flip(golden, False))

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The question of this stage (validation, and the stages after the first)."""
        if self.stage == "hospitals":
            hospitals = ctx.cat.tiles_of(TileKind.HOSPITAL)
            if not all(usable(ctx, state, h) for h in hospitals):
                return state
            options = (Decline(), Select("use-hospitals"))
            return ask_choice(state, self, "8.4.1", "Plague: use both Hospitals?", options)
        if self.stage == "roll":
            return ask_roll(state, self, "8.4.1", "Plague: the Hospitals' roll")
        return state


@attrs.frozen
class PornocracyEvent(Task):
    """Pornocracy: the Pope turns to his Mean side."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if east_west_schism(ctx, state):
            _log(ctx, "Pornocracy: there is no Pope any more")
            return state
        _log(ctx, "Pornocracy: the Pope is Mean")
        pope = ctx.cat.tile("marker-pope")
        return attrs.evolve(state, board=state.board.flip(pope, True))


@attrs.frozen
class RavennaEvent(Task):
    """Ravenna ✹: the Ravenna tile goes to Path Β (+1 on attacks there, 10.6.6).

    Only while Path Β is Italy (see the rulings page). The Turn is remembered:
    from the next one on, :func:`ravenna_to_holy_roman_empire` may turn it.
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        italy = _is(ctx, state, "marker-zone-beta", "zone-name-beta")
        if not italy or _where(ctx, state, "marker-ravenna") != "counter-tray":
            _log(ctx, "Ravenna: Path Β is no longer Italy")
            return state
        _log(ctx, "Ravenna: the seat of Byzantine rule in Italy")
        state = move(ctx, state, ctx.cat.tile("marker-ravenna"), "zone-beta")
        state = set_counter(state, "ravenna-turn", state.turn)
        return spend_event(state, "Ravenna")


@attrs.frozen
class RiotsEvent(Task):
    """Riots: a Riot tile from the Counter Tray goes to Constantinople (10.6.3)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        riots = tiles_on(ctx, state, "counter-tray", TileKind.RIOT)
        if not riots:
            _log(ctx, "Riots: no Riot tile is available")
            return state
        _log(ctx, "Riots break out in Constantinople")
        board = state.board.move(riots[0], ctx.cat.space("constantinople")).flip(riots[0], False)
        return attrs.evolve(state, board=board)


@attrs.frozen
class RotrudeEvent(Task):
    """Rotrude ✹: before the East-West Schism, a 6 brings a Frankish bride.

    A second die then gives that many solidus, or with a Nice Pope lowers the
    Schism by as much. A roll other than 6 leaves the event unspent.
    """

    stage: str = ""
    amount: int = 0

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.stage == "":
            if east_west_schism(ctx, state):
                _log(ctx, "Rotrude: the Churches have split")
                return state
            return RotrudeEvent("marriage").reask(ctx, state)
        if self.stage == "marriage":
            assert isinstance(answer, Roll)
            if answer.dice[0] != 6:
                _log(ctx, "Rotrude: no marriage")
                return state
            _log(ctx, "Rotrude: the Basileus weds a Frankish bride")
            state = spend_event(state, "Rotrude")
            return RotrudeEvent("dowry").reask(ctx, state)
        if self.stage == "dowry":
            assert isinstance(answer, Roll)
            amount = answer.dice[0]
            if not pope_nice(ctx, state):
                return _gain(ctx, state, amount, "8.4.1")
            return RotrudeEvent("use", amount).reask(ctx, state)
        assert isinstance(answer, Select)
        if answer.item == "reduce-schism":
            return change_schism(ctx, state, -self.amount, "8.4.1")
        return _gain(ctx, state, self.amount, "8.4.1")

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The question of this stage (validation, and the stages after the first)."""
        if self.stage == "marriage":
            return ask_roll(state, self, "8.4.1", "Rotrude: the marriage")
        if self.stage == "dowry":
            return ask_roll(state, self, "8.4.1", "Rotrude: the dowry")
        if self.stage == "use":
            if not 1 <= self.amount <= 6 or not pope_nice(ctx, state):
                return state
            options = (Select("gain-solidus"), Select("reduce-schism"))
            prompt = f"Rotrude: {self.amount} $ or Schism -{self.amount}"
            return ask_choice(state, self, "8.4.1", prompt, options)
        return self.run(ctx, state, None)


@attrs.frozen
class EruditeEmperorEvent(Task):
    """Erudite Emperor: with the University in Constantinople, 1 $ per Outpost held."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not _is(ctx, state, "patriarch-nestorius", "constantinople", back=True):
            _log(ctx, "Erudite Emperor: there is no University")
            return state
        held = len(controlled_outposts(ctx, state))
        _log(ctx, f"Erudite Emperor: {held} Outposts feed Byzantine scholarship")
        return _gain(ctx, state, held, "8.4.1") if held else state


@attrs.frozen
class SeljuksEvent(Task):
    """Seljuks: if the Buyids hold Path Ε, the Seljuks replace every Muslim Army of ΔΕΖ.

    Each Seljuk Army advances once; then the Colonists of Ε and Ζ move up to the
    Seljuks' spaces if that is nearer Constantinople, and the Crusades begin if
    they have not yet (:class:`SeljukColonists`).
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not _army_is(ctx, state, Path.EPSILON, "army-epsilon-buyids"):
            _log(ctx, "Seljuks: the Buyids do not hold Path Ε")
            return state
        paths = [path for path in EASTERN if muslim_barbarians(ctx, state, path)]
        for path in paths:
            state = replace_army(ctx, state, path, SELJUKS[path], "8.4.1")
        _log(ctx, f"Seljuks: they take Paths {''.join(p.letter for p in paths)}")
        return push(state, *(Advance(path, "8.4.1") for path in paths), SeljukColonists())


@attrs.frozen
class SeljukColonists(Task):
    """The Seljuks' settlers (8.4.1 "Seljuks"): Colonists move up, and the Crusades may begin."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        for path in (Path.EPSILON, Path.ZETA):
            colonist = colonist_on(ctx, state, path)
            if colonist is None or not _army_is(ctx, state, path, SELJUKS[path]):
                continue
            target = ctx.cat.spaces[state.board.where[ctx.cat.tile(SELJUKS[path])]]
            if target.position < ctx.cat.spaces[state.board.where[colonist]].position:
                state = move(ctx, state, colonist, target.id)
                _log(ctx, f"Seljuks: Colonists settle in {target.name}")
        if "crusades" not in state.done:
            _log(ctx, "Seljuks: the Crusades begin")
            return push(state, CrusadesBegin("8.4.1"))
        return state


@attrs.frozen
class SerbsEvent(Task):
    """Serbs: unless on the map already, they become the Tribe of Path Β.

    Zone Β first keeps only its weakest Army (the others go to the Reserves);
    if Path Β is still Italy it turns to the Balkans, losing Ravenna or the Holy
    Roman Empire (12.2).
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if _tribe_is(ctx, state, Path.BETA, "tribe-beta-serbs"):
            _log(ctx, "Serbs: the Serbs are already on the map")
            return state
        armies = zone_armies(ctx, state, Path.BETA)
        if armies:
            keep = weakest(ctx, state, armies)
            for army in armies:
                if army != keep:
                    state = move(ctx, state, army, "reserves-beta")
        state = change_tribe(ctx, state, Path.BETA, "tribe-beta-serbs", "8.4.1")
        if _is(ctx, state, "marker-zone-beta", "zone-name-beta"):
            italy = ctx.cat.tile("marker-zone-beta")
            state = attrs.evolve(state, board=state.board.flip(italy, True))
            state = remember(state, retreat_fact(Path.BETA))
            _log(ctx, "Serbs: Italy is lost; Path Β is now the Balkans")
            if _where(ctx, state, "marker-ravenna") == "zone-beta":
                state = discard(ctx, state, ctx.cat.tile("marker-ravenna"), "8.4.1")
        return state


@attrs.frozen
class SicilyEvent(Task):
    """Sicily: on a 5 or 6 the Sicily Outpost is removed from the game."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            if _where(ctx, state, "outpost-sicily") == "discarded":
                _log(ctx, "Sicily: already lost")
                return state
            return ask_roll(state, self, "8.4.1", "Sicily: does it fall?")
        assert isinstance(answer, Roll)
        if answer.dice[0] < 5:
            _log(ctx, "Sicily holds")
            return state
        _log(ctx, "Sicily is lost")
        return discard(ctx, state, ctx.cat.tile("outpost-sicily"), "8.4.1")


@attrs.frozen
class SilkwormTheftEvent(Task):
    """The Silkworm Theft ✹: a die's worth of solidus from the new silk industry."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if answer is None:
            return ask_roll(state, self, "8.4.1", "The Silkworm Theft: solidus gained")
        assert isinstance(answer, Roll)
        _log(ctx, "The Silkworm Theft: Byzantium starts making silk")
        state = spend_event(state, "The Silkworm Theft")
        return _gain(ctx, state, answer.dice[0], "8.4.1")


@attrs.frozen
class SkanderbegEvent(Task):
    """Skanderbeg ✹: his Support Unit (9.5.3) goes to Zone Β if the Ottomans are there."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        placed = _support_unit(ctx, state, "support-skanderbeg", "Skanderbeg")
        return state if placed is None else spend_event(placed, "Skanderbeg")


@attrs.frozen
class SlavsEvent(Task):
    """Slavs: they replace the Ostrogoths or the Huns as the Tribe of Path Γ (2.4.1)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not _tribe_is(ctx, state, Path.GAMMA, "tribe-gamma-ostrogoths", "tribe-gamma-huns"):
            _log(ctx, "Slavs: no Ostrogoths or Huns on Path Γ")
            return state
        return change_tribe(ctx, state, Path.GAMMA, "tribe-gamma-slavs", "8.4.1")


def _put_stolos_on(ctx: Context, state: SooState, army: int) -> SooState:
    """Lay the Stolos on an Army, marking which one as combat.py documents.

    On a western Zone the tile's track value is the Army's 1-based place among its
    Path's Army tiles; on an eastern Path the value is 0 (it rides the only Army).
    """
    stolos = ctx.cat.tile("marker-stolos")
    path = ctx.cat.tiles[army].path
    value = 0
    if path is not None and path.western:
        value = ctx.cat.armies(path).index(army) + 1
    board = state.board.move(stolos, state.board.where[army], value)
    name = ctx.cat.spaces[state.board.where[army]].name
    _log(ctx, f"Stolos: the enemy fleet sails with the Army in {name}")
    return attrs.evolve(state, board=board)


@attrs.frozen
class StolosEvent(Task):
    """Stolos: a die picks a Path; the Stolos goes onto a hostile Army there.

    In a Zone the player picks which Army carries it (the weakest is offered first);
    in the East it rides the Path's only Army. Only a Stolos waiting on Lurking
    sails (one exiled to the Chronographia by 10.7.5, or already out, does not).
    """

    path: Path | None = None

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if self.path is None:
            if answer is None:
                if _where(ctx, state, "marker-stolos") != "lurking":
                    _log(ctx, "Stolos: the enemy fleet is not lurking")
                    return state
                if state.counter("porphyrios") == state.turn:
                    _log(ctx, "Stolos: Porphyrios the Whale keeps the fleets in port (F)")
                    return state
                return ask_roll(state, self, "8.4.1", "Stolos: which Path?")
            assert isinstance(answer, Roll)
            path = Path(answer.dice[0])
            if not path.western:
                army = eastern_army(ctx, state, path)
                if army is None:
                    _log(ctx, f"Stolos: no hostile Army on Path {path}")
                    return state
                return _put_stolos_on(ctx, state, army)
            armies = _stolos_armies(ctx, state, path)
            if not armies:
                _log(ctx, f"Stolos: no hostile Army in Zone {path}")
                return state
            if len(armies) == 1:
                return _put_stolos_on(ctx, state, armies[0])
            return StolosEvent(path).reask(ctx, state)
        assert isinstance(answer, Select)
        return _put_stolos_on(ctx, state, ctx.cat.tile(answer.item))

    def reask(self, ctx: Context, state: SooState) -> SooState:
        """The roll, or once the Path is known the choice of Army, again (validation)."""
        if self.path is None:
            return self.run(ctx, state, None)
        armies = _stolos_armies(ctx, state, self.path)
        if len(armies) < 2:
            return state
        options = [Select(ctx.cat.tiles[a].id) for a in armies]
        prompt = f"Stolos: the Army of Zone {self.path} it sails with"
        return ask_choice(state, self, "8.4.1", prompt, options)


def _stolos_armies(ctx: Context, state: SooState, path: Path) -> list[int]:
    """The hostile Armies of a Zone the Stolos may sail with, the weakest first."""
    return sorted(
        zone_armies(ctx, state, path),
        key=lambda a: (ctx.cat.face(state.board, a).strength, -a),
    )


@attrs.frozen
class TricameronEvent(Task):
    """Tricameron: this Turn the last Vandal Army of Zone Α may be attacked (see special_attack)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        _log(ctx, "Tricameron: the Vandals' last Army may be attacked this Turn")
        return remember(state, f"tricameron-turn-{state.turn}")


@attrs.frozen
class UprisingOfAsenAndPeterEvent(Task):
    """Uprising of Asen and Peter: the Bulgar Thema is discarded and the weaker Bulgars rise.

    Only if the Bulgar Thema lies on Path Γ (see the rulings page).
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if not _on_path(ctx, state, "marker-bulgar-thema", Path.GAMMA):
            _log(ctx, "Uprising of Asen and Peter: Bulgaria is not a Thema")
            return state
        _log(ctx, "Uprising of Asen and Peter: Bulgaria is independent again")
        state = discard(ctx, state, ctx.cat.tile("marker-bulgar-thema"), "8.4.1")
        return change_tribe(ctx, state, Path.GAMMA, "tribe-gamma-bulgars-weak", "8.4.1")


@attrs.frozen
class VeniceEvent(Task):
    """Venice: on Crete it becomes the Tribe of Path Α; in Africa only if it wins a roll.

    In Africa a die above the number of Barbarians in Zone Α makes Venice the
    Tribe and turns Africa to Crete.
    """

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        if _tribe_is(ctx, state, Path.ALPHA, "tribe-alpha-venice"):
            _log(ctx, "Venice: the Venetians already hold Path Α")
            return state
        africa = _is(ctx, state, "marker-zone-alpha", "zone-name-alpha")
        if answer is None:
            if africa:
                prompt = "Venice: against the Barbarians of Africa"
                return ask_roll(state, self, "8.4.1", prompt, path=Path.ALPHA)
            return change_tribe(ctx, state, Path.ALPHA, "tribe-alpha-venice", "8.4.1")
        assert isinstance(answer, Roll)
        if answer.dice[0] <= len(zone_armies(ctx, state, Path.ALPHA)):
            _log(ctx, "Venice: no effect in Africa")
            return state
        state = change_tribe(ctx, state, Path.ALPHA, "tribe-alpha-venice", "8.4.1")
        zone = ctx.cat.tile("marker-zone-alpha")
        state = attrs.evolve(state, board=state.board.flip(zone, True))
        _log(ctx, "Venice: Africa becomes Crete")
        return remember(state, retreat_fact(Path.ALPHA))


@attrs.frozen
class WhiteHunsEvent(Task):
    """White Huns: one free attack on Path Δ and one on Path Ε."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        return _two_free_attacks(ctx, state, "White Huns")


#: Each Political Event of 8.4.1, by the name the Synopsis table uses.
POLITICAL_EVENTS: dict[str, Callable[[], Task]] = {
    "Alexandria": AlexandriaEvent,
    "Armenian Revolt": ArmenianRevoltEvent,
    "Baptism of the Rus'": BaptismOfTheRusEvent,
    "Bulgars": BulgarsEvent,
    "Carthage": CarthageEvent,
    "Catholic Charity": CatholicCharityEvent,
    "Coptic Revolt": CopticRevoltEvent,
    "David": DavidEvent,
    "Fall of Rome": FallOfRomeEvent,
    "Göktürks": GokturksEvent,
    "Greeks": GreeksEvent,
    "Henotikon": HenotikonEvent,
    "Kleidion": KleidionEvent,
    "Kiev": KievEvent,
    "Lombards": LombardsEvent,
    "Magyar Princess": MagyarPrincessEvent,
    "Magyars": MagyarsEvent,
    "Ostrogoths": OstrogothsEvent,
    "Ottomans": OttomansEvent,
    "Pechenegs": PechenegsEvent,
    "Plague": PlagueEvent,
    "Pornocracy": PornocracyEvent,
    "Ravenna": RavennaEvent,
    "Riots": RiotsEvent,
    "Rotrude": RotrudeEvent,
    "Erudite Emperor": EruditeEmperorEvent,
    "Seljuks": SeljuksEvent,
    "Serbs": SerbsEvent,
    "Sicily": SicilyEvent,
    "The Silkworm Theft": SilkwormTheftEvent,
    "Skanderbeg": SkanderbegEvent,
    "Slavs": SlavsEvent,
    "Stolos": StolosEvent,
    "Tricameron": TricameronEvent,
    "Uprising of Asen and Peter": UprisingOfAsenAndPeterEvent,
    "Venice": VeniceEvent,
    "White Huns": WhiteHunsEvent,
}


# -- Kleidion and Tricameron in the Byzantine Action Phase -----------------------------------


@attrs.frozen
class KleidionVictory(Task):
    """The Battle of Kleidion is won: Zone Γ becomes the Bulgar Thema (10.6.6.1); spent."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        _log(ctx, "Kleidion: Bulgaria is reduced to a Thema")
        state = move(ctx, state, ctx.cat.tile("marker-bulgar-thema"), "zone-gamma")
        return spend_event(state, "Kleidion")


@attrs.frozen
class TricameronVictory(Task):
    """The Battle of Tricameron is won: the Moors replace the Vandals as Tribe of Α (2.4.1)."""

    @RULES.implements("8.4.1")
    def run(self, ctx: Context, state: SooState, answer: SooAction | None) -> SooState:
        _log(ctx, "Tricameron: the Vandals are beaten; the Moors take their place")
        return change_tribe(ctx, state, Path.ALPHA, "tribe-alpha-moors", "8.4.1")


_SPECIAL_BATTLES = {
    "kleidion": (Path.GAMMA, ("tribe-gamma-bulgars", "tribe-gamma-bulgars-weak"), KleidionVictory),
    "tricameron": (Path.ALPHA, ("tribe-alpha-vandals",), TricameronVictory),
}


@RULES.implements("8.4.1")
def special_attack(ctx: Context, state: SooState, battle: str) -> Attack | None:
    """The attack Kleidion or Tricameron allows now (``battle``: "kleidion", "tricameron").

    Available in the Turn the event came up, while a single Army of its Tribe (the
    Bulgars in Zone Γ, the Vandals in Zone Α) is left in the Zone: the normally
    forbidden attack on it (10.6) is allowed; won, the Army stays and the battle's
    consequence follows. The attack's cost, if any, is the Action Phase's business.
    """
    path, tribes, victory = _SPECIAL_BATTLES[battle]
    if f"{battle}-turn-{state.turn}" not in state.done or (
        battle == "kleidion" and event_spent(ctx, state, "Kleidion")
    ):
        return None
    if not _tribe_is(ctx, state, path, *tribes) or len(zone_armies(ctx, state, path)) != 1:
        return None
    return Attack("8.4.1", (path,), lone=True, on_success=(victory(),))
