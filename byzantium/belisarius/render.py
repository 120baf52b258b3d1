"""The text view of a state of Belisarius, for a terminal (``Game.render``); the SVG
picture of the board is drawn by :func:`byzantium.render.svg` instead.

The view has the game turn, the phasing player and the phase; both players'
treasuries and Stratagem markers as far as the viewer may know them; the Region
Control Chart (2.12), each Region with its levy, its control and the stacks in it
(per location, how many counters each side controls); the markers on the map, and
what the game waits for.

Given a ``player``, everything shown comes from his
:func:`~byzantium.belisarius.observation.observe` view (22.0, 22.1): his own hand
and treasury, only the size of the other's hand and never the other's treasury
unless he may examine them, and the prompt of a choice only when it is his.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import TYPE_CHECKING

from byzantium.belisarius.battle import Battle, combat_odds
from byzantium.belisarius.combat import (
    apply_result,
    withdrawal_allowed,
)
from byzantium.belisarius.components import (
    CombatResult,
    CombatTable,
    Operation,
    SolidusItem,
    UnitKind,
    crt_cost,
    crt_result,
)
from byzantium.belisarius.diplomacy import HIDDEN
from byzantium.belisarius.engine import Context
from byzantium.belisarius.hexmap import Terrain, column_of, row_of
from byzantium.belisarius.levy import GAIN_LEADER, REMOVE_LEADER
from byzantium.belisarius.naval import DEBARK, EMBARK, FLEET, is_naval
from byzantium.belisarius.negotiations import promise_text
from byzantium.belisarius.observation import BelObservation, PendingView, observe
from byzantium.belisarius.operations import FORCED_ITEM, OperationsPhase, land_steps
from byzantium.belisarius.recruiting import BUY, RECRUIT, UNPILLAGE, WORKS, recruit_cost
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.sequence import CAPITULATE
from byzantium.belisarius.special import COLONIZE, PILLAGE
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    NOBODY,
    PLAYERS,
    BelAction,
    BelState,
    Catalog,
    Done,
    Draw,
    Place,
    Request,
    RequestKind,
    Roll,
    Select,
)
from byzantium.belisarius.taxation import RAISE, TAX
from byzantium.belisarius.world import controller, region_chart
from byzantium.core.game import SPECTATOR, Event

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = [
    "LOOKS",
    "battle_odds",
    "combat_odds",
    "describe_action",
    "describe_decision",
    "describe_event",
    "hex_map",
    "look",
    "own_stacks",
    "place_name",
    "render_state",
    "stack_text",
    "unit_name",
]

_SIDE = {EMPIRE: "E", BARBARIAN: "B", NOBODY: "N"}
_CONTROL = {Control.EMPIRE: "Empire", Control.BARBARIAN: "Barbarian", Control.NEUTRAL: "Neutral"}
_NAME = {EMPIRE: "Empire", BARBARIAN: "Barbarian"}
#: Stacks listed on a Region's line, at most.
_MAX_STACKS = 8


def _controller(cat: Catalog, view: BelObservation, unit: int) -> int:
    """Who controls a counter, from what the view shows (4.2, 4.3, 12.2)."""
    home = cat.home[unit]
    if home < 0:
        return BARBARIAN if view.units.mutiny[unit] else EMPIRE
    control = view.control[home]
    return {Control.EMPIRE: EMPIRE, Control.BARBARIAN: BARBARIAN}.get(control, NOBODY)


def _location(cat: Catalog, where: int) -> str:
    if where < FIRST_HEX:
        return f"box {cat.peripherals[where - 1].name}"
    return f"{where:04d}"


def _stacks(cat: Catalog, view: BelObservation) -> dict[int, list[str]]:
    """Per Region index (-1 for none, at sea), the stacks in it as ``location E2B1``."""
    counts: dict[int, dict[int, int]] = {}
    for unit, where in enumerate(view.units.where):
        if where > AVAILABLE:
            side = _controller(cat, view, unit)
            at = counts.setdefault(where, {})
            at[side] = at.get(side, 0) + 1
    by_region: dict[int, list[str]] = {}
    for where in sorted(counts):
        sides = "".join(
            f"{_SIDE[s]}{counts[where][s]}"
            for s in (EMPIRE, BARBARIAN, NOBODY)
            if s in counts[where]
        )
        by_region.setdefault(cat.region_of(where), []).append(f"{_location(cat, where)} {sides}")
    return by_region


def _hand(cat: Catalog, hand: tuple[int, ...]) -> str:
    held = [
        name if n == 1 else f"{name} x{n}"
        for name, n in zip(cat.stratagem_ids, hand, strict=True)
        if n
    ]
    return ", ".join(held) or "none"


def _player_lines(
    cat: Catalog,
    view: BelObservation,
    secrets: dict[int, tuple[int | None, tuple[int, ...] | None]],
) -> list[str]:
    lines = []
    for p in PLAYERS:
        treasury, hand = secrets[p]
        money = "treasury hidden" if treasury is None else f"{treasury} solidus"
        size = view.hand_sizes[p]
        markers = f"{size} Stratagems" + ("" if hand is None else f": {_hand(cat, hand)}")
        lines.append(f"{_NAME[p]}: {money}; {markers}")
    return lines


def _pending_line(request: Request | PendingView | None) -> str:
    if request is None:
        return "nothing pending"
    if request.kind is RequestKind.CHOOSE:
        what = f"{_NAME.get(request.player, 'nobody')} chooses"
    elif request.kind is RequestKind.ROLL:
        what = f"roll {request.dice} {'die' if request.dice == 1 else 'dice'}"
    else:
        source = "the Pool" if request.hand == NOBODY else f"{_NAME[request.hand]}'s hand"
        what = f"draw a Stratagem from {source}"
    prompt = f": {request.prompt}" if request.prompt else ""
    return f"Pending [{request.rule}]: {what}{prompt}"


def _markers(view: BelObservation) -> list[str]:
    parts = [
        f"{label} {' '.join(f'{h:04d}' for h in sorted(hexes))}"
        for label, hexes in (
            ("Pillaged", view.markers.pillaged),
            ("Colonies", view.markers.colonies),
            ("Public Works", view.markers.works),
        )
        if hexes
    ]
    if view.barred:
        parts.append(f"barred this turn: {', '.join(sorted(view.barred))}")
    return ["Markers: " + "; ".join(parts)] if parts else []


def render_state(game: Belisarius, state: BelState, player: int | None) -> str:
    """The state as text, as ``player`` may see it (everything when None).

    About 35 lines; a given ``player`` sees only what 22.0 and 22.1 let him see.
    """
    ctx = Context(game, None)
    cat = game.catalog
    view = observe(ctx, state, EMPIRE if player is None else player)
    secrets: dict[int, tuple[int | None, tuple[int, ...] | None]]
    if player is None:
        secrets = {p: (state.solidus[p], state.stratagems.hands[p]) for p in PLAYERS}
        pending = _pending_line(state.pending)
    elif player == SPECTATOR:
        secrets = dict.fromkeys(PLAYERS, (None, None))
        pending = _pending_line(view.pending)
    else:
        other = 1 - player
        secrets = {
            player: (view.treasury, view.hand),
            other: (view.other_treasury, view.other_hand),
        }
        pending = _pending_line(view.pending)
    heading = game.chronicle_heading(state).split("\n", 1)[0]
    lines = [f"{heading} phase: {view.phase}"]
    if player == SPECTATOR:
        lines.append("(as a spectator sees it: neither player's secrets)")
    elif player is not None:
        lines.append(f"(as the {_NAME[player]} player sees it)")
    lines += _player_lines(cat, view, secrets)
    lines.append(f"Pool: {view.pool_size} Stratagems")
    lines.append("Regions (levy, control: stacks as location and counters per side E/B/N):")
    stacks = _stacks(cat, view)
    chart = region_chart(cat, state)
    for index, row in enumerate(chart):
        control = _CONTROL[view.control[index]]
        here = stacks.get(index, [])
        shown = ", ".join(here[:_MAX_STACKS])
        if len(here) > _MAX_STACKS:
            shown += f", +{len(here) - _MAX_STACKS} more"
        lines.append(f"  {row.name} {row.levy} {control}" + (f": {shown}" if shown else ""))
    if -1 in stacks:
        lines.append(f"  (no Region): {', '.join(stacks[-1][:_MAX_STACKS])}")
    lines += _markers(view)
    if view.agreements:
        promises = [promise_text(p) for a in view.agreements for p in a.promises]
        lines.append(f"Agreements this turn (24.1): {'; '.join(promises)}")
    if view.ending is not None:
        lines.append(f"Game over [{view.ending.rule}]: {view.ending.reason}")
    else:
        lines.append(pending)
    return "\n".join(lines)


# -- words for a person at a terminal (names, costs and effects) ------------------------

#: What ``Done`` means, per rule that offers it (the last word of its question).
_DONE = {
    "3.1": "Play on (do not capitulate)",
    "9.1": "End the Diplomacy Phase",
    "10.2": "Done with taxes",
    "10.3": "Done spending",
    "11.11": "Stop levying",
    "11.3": "Play no Leader marker",
    "13.21": "Go with this force",
    "14.1": "End the Operations Phase",
    "16.1": "Stop here",
    "16.7": "Move on without a Forced March",
    "17.74": "Play no Military Advantage",
    "20.2": "Pay the forage cost",
    "8.41": "Do not play Currency Reform",
    "9.4": "Stop: commit no more defending markers",
}
#: What choosing a counter does, per rule that asks for one.
_COUNTER_VERB = {"20.2": "Disband", "6.2": "Eliminate", "17.8": "Eliminate"}
_TERRAIN_SYMBOL = {
    Terrain.CLEAR: ".",
    Terrain.ROUGH: "^",
    Terrain.MARSH: '"',
    Terrain.DESERT: ":",
    Terrain.SEA: "~",
}
_COUNTER_ID = re.compile(r"\b[a-z]+(?:-[a-z0-9]+)*\b")
_HEX_NUMBER = re.compile(r"(?<![\d.])\d{4}(?![\d.])")


def unit_name(cat: Catalog, unit: int, *, factors: bool = False) -> str:
    """A counter's name: ``Belisarius (2-star Leader)``, ``Thracia Field Army 1``;
    with ``factors`` its combat and Operations factors too (``(4-6)``)."""
    counter = cat.counters[unit]
    comps = cat.components
    if counter.kind is UnitKind.LEADER:
        try:
            name = comps.leader(counter.leader).name
        except KeyError:
            name = counter.leader or counter.id
        text = f"{name} ({counter.stars}-star Leader)"
    else:
        nations = {n.id: n.name for n in comps.nationalities}
        nation = nations.get(counter.nationality, counter.nationality.title())
        kind = cat.unit_types[counter.kind].name
        number = counter.id.rsplit("-", 1)[-1]
        label = kind if kind.startswith(nation) else f"{nation} {kind}"
        text = f"{label} {number}" if number.isdigit() else label
    return f"{text} ({counter.combat}-{counter.operations})" if factors else text


def place_name(cat: Catalog, where: int) -> str:
    """A location in words: ``hex 5624 Constantinopolis (capital City, clear, Thracia)``,
    ``hex 6523 (rough, Armenia)`` or ``the Persia box``."""
    if AVAILABLE < where < FIRST_HEX:
        return f"the {cat.peripherals[where - 1].name} box"
    if where not in cat.map:
        return f"{where}"
    terrain = cat.map.terrain_at(where).value
    city = cat.map.city_at(where)
    region = cat.map.region_at(where)
    parts = [terrain] if city is None else [f"{'capital ' if city.capital else ''}City", terrain]
    parts.append(region.name if region is not None else "sea")
    named = f" {city.name}" if city is not None else ""
    return f"hex {where:04d}{named} ({', '.join(parts)})"


def _side_counts(cat: Catalog, state: BelState, units: tuple[int, ...]) -> str:
    counts: dict[int, int] = {}
    for unit in units:
        side = controller(cat, state, unit)
        counts[side] = counts.get(side, 0) + 1
    names = {EMPIRE: "Empire", BARBARIAN: "Barbarian", NOBODY: "Neutral"}
    return ", ".join(f"{counts[s]} {names[s]}" for s in (EMPIRE, BARBARIAN, NOBODY) if s in counts)


def stack_text(cat: Catalog, state: BelState, where: int) -> str:
    """What stands at a location: each counter by name, with its factors and side."""
    units = state.units.at(where)
    if not units:
        return f"{place_name(cat, where)}: nothing"
    names = {EMPIRE: "Empire", BARBARIAN: "Barbarian", NOBODY: "Neutral"}
    lines = [f"{place_name(cat, where)}: {len(units)} counters ({_side_counts(cat, state, units)})"]
    for unit in units:
        side = names[controller(cat, state, unit)]
        mutiny = ", mutinying" if state.units.mutiny[unit] else ""
        lines.append(f"  {unit_name(cat, unit, factors=True)}, {side}{mutiny}")
    return "\n".join(lines)


def _here(cat: Catalog, state: BelState, where: int) -> str:
    units = state.units.at(where) if where > AVAILABLE else ()
    return f"; there: {_side_counts(cat, state, units)}" if units else ""


def _translate(cat: Catalog, text: str) -> str:
    """Free text with counter and Stratagem ids as names, and hex numbers with their
    terrain and Region."""
    stratagems = {s.id: s.name for s in cat.components.stratagems}

    def word(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in cat.counter_index and "-" in token:
            return unit_name(cat, cat.counter_index[token])
        if token in cat.counter_index:
            return unit_name(cat, cat.counter_index[token]).split(" (")[0]
        return stratagems.get(token, token.replace("-", " ")) if "-" in token else token

    def hex_number(match: re.Match[str]) -> str:
        number = int(match.group(0))
        return place_name(cat, number) if number in cat.map else match.group(0)

    return _HEX_NUMBER.sub(hex_number, _COUNTER_ID.sub(word, text))


def is_setup_placement(state: BelState) -> bool:
    """Whether the pending request places a counter of the set-up (34.0), a step a
    short chronicle folds into :func:`setup_digest`."""
    request = state.pending
    return (
        state.turn < 1
        and request is not None
        and request.kind is RequestKind.CHOOSE
        and request.rule == "34.0"
    )


def setup_digest(game: Belisarius, state: BelState) -> str:
    """The counters on the map and in the boxes, by Region, with who controls them:
    the set-up of 34.0 in a few lines (``Armenia: Barbarian 2 (Field Army, Garrison)``)."""
    cat = game.catalog
    sides = {EMPIRE: "Empire", BARBARIAN: "Barbarian", NOBODY: "Neutral"}
    regions: dict[str, dict[str, list[str]]] = {}
    for unit, where in enumerate(state.units.where):
        if where >= FIRST_HEX and where in cat.map:
            region = cat.map.region_at(where)
            name = region.name if region is not None else "at sea"
        elif AVAILABLE < where < FIRST_HEX:
            name = f"the {cat.peripherals[where - 1].name} box"
        else:
            continue
        side = sides[controller(cat, state, unit)]
        counter = cat.counters[unit]
        kind = "Leader" if counter.kind is UnitKind.LEADER else cat.unit_types[counter.kind].name
        regions.setdefault(name, {}).setdefault(side, []).append(kind)
    lines = ["Set-up by Region:"]
    for name in sorted(regions):
        parts = []
        for side, kinds in sorted(regions[name].items()):
            counted = sorted({k: kinds.count(k) for k in kinds}.items())
            what = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in counted)
            parts.append(f"{side} {len(kinds)} ({what})")
        lines.append(f"  {name}: {'; '.join(parts)}")
    return "\n".join(lines)


def describe_event(game: Belisarius, event: Event) -> str:
    """An event with the counters and Stratagem markers in it by name."""
    cat = game.catalog
    stratagems = {s.id: s.name for s in cat.components.stratagems}

    def word(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in cat.counter_index:
            return unit_name(cat, cat.counter_index[token]).split(" (")[0]
        if "-" not in token:
            return token
        return stratagems.get(token, token.replace("-", " "))

    def hex_number(match: re.Match[str]) -> str:
        number = int(match.group(0))
        return _short_place(cat, number) if number in cat.map else match.group(0)

    text = _HEX_NUMBER.sub(hex_number, _COUNTER_ID.sub(word, event.text))
    return f"[{event.rule}] {text}"


def _short_place(cat: Catalog, where: int) -> str:
    """A hex in an event: its City's name, or its Region, with the number after."""
    city = cat.map.city_at(where)
    if city is not None:
        return f"{city.name} (hex {where:04d})"
    region = cat.map.region_at(where)
    return f"hex {where:04d} in {region.name if region is not None else 'the sea'}"


def _force_line(cat: Catalog, state: BelState, units: tuple[int, ...]) -> str:
    shown = [unit_name(cat, u) for u in units[:6]]
    more = f" and {len(units) - 6} more" if len(units) > 6 else ""
    return ", ".join(shown) + more


def _select_text(game: Belisarius, state: BelState, item: str) -> str:
    cat = game.catalog
    rule = state.pending.rule if state.pending is not None else ""
    word, _, rest = item.partition(" ")
    if item == HIDDEN:
        return "(a hidden choice)"
    if word == "force" and rest.isdigit():
        where = int(rest)
        units = state.units.at(where)
        return f"Operate the force at {place_name(cat, where)}: {_force_line(cat, state, units)}"
    if item.startswith(FLEET) and rest.isdigit():
        where = int(rest)
        units = state.units.at(where)
        return f"Operate the fleets at {place_name(cat, where)}: {_force_line(cat, state, units)}"
    if word == "attack" and rest.isdigit():
        where = int(rest)
        units = state.units.at(where)
        task = state.pending.task if state.pending is not None else None
        chances = ""
        if isinstance(task, OperationsPhase) and task.force and not is_naval(cat, task.force):
            a_str, a_mult, d_str, d_mult, _, column = combat_odds(
                cat, state, task.force, task.where, where
            )
            chances = f"; odds {column.value}: {a_str} (x{a_mult}) against {d_str} (x{d_mult})"
        return (
            f"Attack {place_name(cat, where)}: {len(units)} counters "
            f"({_force_line(cat, state, units)}){chances}"
        )
    if word in ("drop", "join", "lose") and rest in cat.counter_index:
        verb = {"drop": "Leave behind", "join": "Take along", "lose": "Eliminate"}[word]
        return f"{verb} {unit_name(cat, cat.counter_index[rest], factors=True)}"
    if item.startswith(EMBARK) and rest in cat.counter_index:
        return f"Embark on {unit_name(cat, cat.counter_index[rest])}"
    if item.startswith(RECRUIT):
        nation, _, kind_id = rest.partition(" ")
        try:
            kind = UnitKind(kind_id)
        except ValueError:
            return _translate(cat, item)
        nations = {n.id: n.name for n in cat.components.nationalities}
        cost = recruit_cost(cat, kind)
        price = f" (cost {cost} Solidus)" if cost is not None else ""
        name = cat.unit_types[kind].name
        people = nations.get(nation, nation)
        label = name if name.startswith(people) else f"{people} {name}"
        return f"Recruit a Mercenary {label}{price}"
    if item == BUY:
        cost = cat.components.solidus_points(SolidusItem.BUY_STRATAGEM)
        return f"Buy a Stratagem marker (cost {cost} Solidus)"
    if item.startswith(UNPILLAGE) and item[len(UNPILLAGE) :].isdigit():
        cost = cat.components.solidus_points(SolidusItem.REMOVE_PILLAGE)
        where = int(item[len(UNPILLAGE) :])
        return f"Remove the Pillaged marker of {place_name(cat, where)} (cost {cost} Solidus)"
    if item.startswith(WORKS) and item[len(WORKS) :].isdigit():
        cost = cat.components.solidus_points(SolidusItem.PUBLIC_WORKS)
        where = int(item[len(WORKS) :])
        return f"Build Public Works at {place_name(cat, where)} (cost {cost} Solidus)"
    if item.startswith(RAISE):
        return (
            f"Raise taxes in {item[len(RAISE) :]} (a die on the Raising Taxes Table for its"
            " occupied Cities)"
        )
    if item.startswith(TAX):
        return f"Collect taxes in the Neutral Region {item[len(TAX) :]}"
    if word == "region" and rule == "9.1":
        index = cat.region_index.get(rest)
        if index is None:
            return f"Attempt Diplomacy on {rest}"
        region = cat.regions[index]
        control = _CONTROL[state.control[index]]
        return f"Attempt Diplomacy on {rest} ({control}, levy {region.levy})"
    if item == "stand":
        return "Stand and fight"
    if item == "withdraw":
        return "Try to withdraw (a roll-off; a tie means you stand)"
    if item in (CombatTable.ASSAULT.value, CombatTable.MANEUVER.value):
        points = crt_cost(cat.components, CombatTable(item))
        return f"Fight on the {item.title()} table (costs {points} Operations Points)"
    if item in (GAIN_LEADER, REMOVE_LEADER):
        return f"Play the Leader marker: {item.partition(': ')[2]}"
    if item.startswith(FORCED_ITEM):
        flag, _, where_text = item[len(FORCED_ITEM) :].rpartition(" ")
        if where_text.isdigit():
            whose = "fleet force" if flag == "fleet" else "counters"
            return (
                f"Play a Forced March marker for the {whose} at"
                f" {place_name(cat, int(where_text))} (16.72)"
            )
    if item == "military advantage":
        return f"Play a {item.title()} marker"
    if rule == "11.11" and item in {k.value for k in UnitKind}:
        return f"Levy a {cat.unit_types[UnitKind(item)].name}"
    if item in cat.counter_index and rule in _COUNTER_VERB:
        unit = cat.counter_index[item]
        return f"{_COUNTER_VERB[rule]} {unit_name(cat, unit, factors=True)}"
    if item == PILLAGE:
        points = cat.components.operation_cost(Operation.PILLAGE)
        return f"Pillage the hex the force is in (costs {points} Operations Points)"
    if item == COLONIZE:
        cost = cat.components.solidus_points(SolidusItem.COLONIZATION)
        points = cat.components.operation_cost(Operation.COLONIZATION)
        return (
            f"Try to found a Colony where the force is (costs {points} Operations Points"
            f" and {cost} Solidus)"
        )
    if item == DEBARK:
        return "Debark every passenger here"
    if item == CAPITULATE:
        return "Capitulate (the game ends, your opponent wins)"
    if item in cat.stratagem_index:
        stratagem = cat.components.stratagem(item)
        summary = f": {stratagem.summary}" if stratagem.summary else ""
        return f"{stratagem.name}{summary}"
    if item.isdigit() and int(item) in cat.map:
        where = int(item)
        return f"The stack at {place_name(cat, where)}{_here(cat, state, where)}"
    if item in cat.counter_index:
        return unit_name(cat, cat.counter_index[item], factors=True)
    text = _translate(cat, item)
    return text[:1].upper() + text[1:]


def _place_text(game: Belisarius, state: BelState, where: int) -> str:
    cat = game.catalog
    request = state.pending
    rule = request.rule if request is not None else ""
    here = _here(cat, state, where)
    if rule == "16.1" and request is not None:
        task = request.task
        if isinstance(task, OperationsPhase) and task.force:
            cost = _step_cost(game, state, task, where)
            price = f"; costs {cost} of {task.points} Operations Points" if cost is not None else ""
            return f"Move to {place_name(cat, where)}{price}{here}"
        return f"Move to {place_name(cat, where)}{here}"
    if rule in ("17.54", "17.9", "17.58"):
        return f"Retreat to {place_name(cat, where)}{here}"
    return f"Place in {place_name(cat, where)}{here}"


def _step_cost(
    game: Belisarius, state: BelState, task: OperationsPhase, where: int
) -> Fraction | None:
    if is_naval(game.catalog, task.force):
        return None
    steps = land_steps(
        Context(game, None),
        state,
        task.force,
        task.where,
        task.points,
        task.moved,
        task.operator(state),
    )
    return next((cost for at, cost in steps if at == where), None)


def describe_action(
    game: Belisarius, state: BelState, action: BelAction, viewer: int | None = None
) -> str:
    """An action in words for the person choosing it: names for counters, hexes with
    their terrain, City and Region, and the costs the rules set (not the question: see
    :func:`describe_decision`). Decisions not known here read as their item, with any
    ids in it turned into names.

    For a ``viewer`` who is not the chooser, a ``Done`` reads ``done``: what it
    declines would tell which question was asked, and a player is asked some only
    when he holds a Stratagem marker (22.1)."""
    cat = game.catalog
    request = state.pending
    rule = request.rule if request is not None else ""
    secret = viewer is not None and request is not None and viewer != request.player
    if secret and isinstance(action, Done):
        return "done"
    match action:
        case Roll(dice):
            return f"roll {' '.join(map(str, dice))}"
        case Draw(stratagem):
            if stratagem in cat.stratagem_index:
                return f"draw {cat.components.stratagem(stratagem).name}"
            return "draw a hidden marker" if stratagem == HIDDEN else f"draw {stratagem}"
        case Select(item):
            return _select_text(game, state, item)
        case Place(where):
            return _place_text(game, state, where)
        case Done():
            return _DONE.get(rule, "Done")
    raise AssertionError(action)  # pragma: no cover - a new kind of action


def describe_decision(game: Belisarius, state: BelState, viewer: int | None = None) -> str:
    """The question of the pending request in words, with what the person needs to
    answer it: the force that moves and its points (16.1); before standing or
    withdrawing, the odds of the combat, each side's multiplier, the CRT column and
    the chance to withdraw (17.5, 17.51, 17.7).

    A ``viewer`` other than the chooser reads nothing of a choice, as his observation
    shows no prompt (22.1): a question may quote the chooser's treasury. The question
    of a roll or a draw is public."""
    request = state.pending
    if request is None:
        return ""
    if viewer is not None and request.kind is RequestKind.CHOOSE and request.player != viewer:
        return ""
    cat = game.catalog
    lines = [_translate(cat, request.prompt)]
    task = request.task
    if request.rule == "16.1" and isinstance(task, OperationsPhase) and task.force:
        lines.append(
            f"  the force at {place_name(cat, task.where)}: {_force_line(cat, state, task.force)}"
        )
    if request.rule == "17.5" and isinstance(task, Battle):
        lines += battle_odds(game, state, task)
    return "\n".join(lines)


def battle_odds(game: Belisarius, state: BelState, battle: Battle) -> list[str]:
    """The odds of a combat about to be fought, as lines for a terminal (17.51, 17.7,
    17.74): strengths, multipliers, the CRT column and the die's results on each table
    (before any Military Advantage), and the chance that a withdrawal succeeds."""
    cat = game.catalog
    attackers = tuple(u for u in battle.force if state.units.where[u] > AVAILABLE)
    defenders = tuple(state.units.at(battle.target))
    if not attackers or not defenders:
        return []
    a_str, a_mult, d_str, d_mult, terrain, column = combat_odds(
        cat, state, attackers, battle.origin, battle.target
    )
    a_ops = max(cat.counters[u].operations for u in attackers)
    d_ops = max(cat.counters[u].operations for u in defenders)
    escape = Fraction(
        sum(withdrawal_allowed(a_ops, a, d_ops, d) for a in range(1, 7) for d in range(1, 7)),
        36,
    )
    lines = [
        f"  attacker: {len(attackers)} counters from {place_name(cat, battle.origin)}, "
        f"strength {a_str} (x{a_mult})",
        f"  defender: {len(defenders)} counters, strength {d_str} (x{d_mult}, terrain x{terrain})",
        f"  odds column {column.value} (before any Military Advantage, 17.74)",
    ]
    codes: dict[str, CombatResult] = {}
    for table in CombatTable:
        row = [crt_result(cat.components, table, column, roll) for roll in range(1, 7)]
        codes.update((r.code, r) for r in row)
        results = " ".join(f"{roll}:{r.code}" for roll, r in enumerate(row, 1))
        lines.append(f"  {table.value.title()} table, die -> result: {results}")
    lines += [
        f"    {code}: {_result_text(result, len(attackers), len(defenders))}"
        for code, result in sorted(codes.items())
    ]
    lines.append(
        f"  withdrawal roll-off: your best Operations {d_ops} against {a_ops}; "
        f"it succeeds with probability {escape.numerator}/{escape.denominator}"
    )
    return lines


def _result_text(result: CombatResult, attackers: int, defenders: int) -> str:
    """A CRT result for the defender: what each side loses and retreats here."""
    losses = apply_result(result, attackers, defenders)
    parts = [
        f"you lose {losses.defender_lost} of {defenders}",
        f"the attacker {losses.attacker_lost} of {attackers}",
    ]
    if losses.defender_retreat:
        parts.append(f"you retreat {losses.defender_retreat}")
    if losses.attacker_retreat:
        parts.append(f"the attacker retreats {losses.attacker_retreat}")
    return ", ".join(parts)


def own_stacks(game: Belisarius, state: BelState, player: int) -> str:
    """Every stack of ``player``'s counters, one a line, with what is in it."""
    cat = game.catalog
    places: dict[int, list[int]] = {}
    for unit, where in enumerate(state.units.where):
        if where > AVAILABLE and controller(cat, state, unit) == player:
            places.setdefault(where, []).append(unit)
    if not places:
        return f"The {_NAME[player]} player has no counters in play."
    lines = [f"The {_NAME[player]} player's stacks:"]
    for where in sorted(places):
        lines.append(f"  {place_name(cat, where)}: {_force_line(cat, state, tuple(places[where]))}")
    return "\n".join(lines)


def hex_map(game: Belisarius, state: BelState, center: int, radius: int = 2) -> str:
    """The map around a hex as ASCII, ``radius`` rows up and down and one and a half
    times as many columns each way.

    Each hex is one cell: its number, its terrain symbol, a City mark and the counters
    in it per side (``6729.*B4``: a City with four Barbarian counters). Columns are
    staggered as on the map, even columns half a hex lower, so that the six cells
    around a hex are its neighbours; the centre is in brackets. A legend and the Cities
    and stacks drawn, by name, follow.
    """
    cat = game.catalog
    col, row = column_of(center), row_of(center)
    span = radius + (radius + 1) // 2
    columns = [c for c in range(col - span, col + span + 1) if 1 <= c <= 99]
    rows = range(max(1, row - radius), min(99, row + radius) + 1)
    width = 10
    grid = [[" " * width for _ in columns] for _ in range(2 * len(rows) + 1)]
    listed: list[str] = []
    for x, c in enumerate(columns):
        for y, r in enumerate(rows):
            number = c * 100 + r
            if number not in cat.map:
                continue
            symbol = _TERRAIN_SYMBOL.get(cat.map.terrain_at(number), "?")
            city = cat.map.city_at(number)
            mark = "" if city is None else ("@" if city.capital else "*")
            units = state.units.at(number)
            cell = f"{number:04d}{symbol}{mark}{_short_sides(cat, state, units)}"[: width - 2]
            cell = f"[{cell}]" if number == center else f" {cell} "
            grid[2 * y + (c % 2 == 0)][x] = cell.ljust(width)
            if city is not None or units:
                what = _force_line(cat, state, units) if units else "no counters"
                listed.append(f"  {place_name(cat, number)}: {what}")
    lines = ["".join(cells).rstrip() for cells in grid]
    while lines and not lines[-1]:
        lines.pop()
    lines.append('Legend: . clear  ^ rough  " marsh  : desert  ~ sea  * City  @ capital City')
    lines.append("        E3, B2, N1: counters of the Empire, the Barbarian, Neutrals")
    return "\n".join(["Map around " + place_name(cat, center) + ":", *lines, *listed])


def _short_sides(cat: Catalog, state: BelState, units: tuple[int, ...]) -> str:
    counts: dict[int, int] = {}
    for unit in units:
        side = controller(cat, state, unit)
        counts[side] = counts.get(side, 0) + 1
    return "".join(f"{_SIDE[s]}{counts[s]}" for s in (EMPIRE, BARBARIAN, NOBODY) if s in counts)


def _where_of(game: Belisarius, state: BelState, words: str) -> int | None:
    """A location named by a person: a hex number, a City or a Peripheral Area box;
    none given: where the operating force is."""
    cat = game.catalog
    text = words.strip()
    if not text:
        task = state.pending.task if state.pending is not None else None
        where = getattr(task, "where", 0)
        return where if isinstance(where, int) and where >= FIRST_HEX else None
    if text.isascii() and text.isdigit() and len(text) <= 4:
        number = int(text)
        return number if number in cat.map else None
    lowered = text.lower()
    for city in cat.map.cities:
        if city.name.lower() == lowered:
            return city.hex
    for box, area in enumerate(cat.peripherals, 1):
        if area.name.lower() == lowered:
            return box
    return None


LOOKS = (
    ("map [HEX]", "the map around a hex or City (or the moving force) as ASCII"),
    ("stack HEX", "every counter at a hex, City or box, with its factors (combat-ops)"),
    ("stacks", "your own stacks and what is in them"),
)


def look(game: Belisarius, state: BelState, player: int | None, request: str) -> str | None:
    """Answer ``map [HEX]``, ``stack HEX`` or ``stacks`` (counters are public, 22.0);
    None for anything else."""
    word, _, rest = request.strip().partition(" ")
    word = word.lower()
    if word not in ("map", "stack", "stacks"):
        return None
    if word == "stacks":
        players = PLAYERS if player is None or player == SPECTATOR else (player,)
        return "\n".join(own_stacks(game, state, p) for p in players)
    where = _where_of(game, state, rest)
    if where is None:
        if not rest.strip():
            return f"Say where: {word} HEX (a hex number such as 5624, or a City's name)"
        return f"No hex, City or box '{rest.strip()[:20]}' on the map."
    if word == "stack":
        return stack_text(game.catalog, state, where)
    if where < FIRST_HEX:
        return stack_text(game.catalog, state, where)
    return hex_map(game, state, where)
