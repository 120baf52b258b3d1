"""A compact text view of a state of Belisarius, for a terminal.

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

from typing import TYPE_CHECKING

from byzantium.belisarius.engine import Context
from byzantium.belisarius.negotiations import promise_text
from byzantium.belisarius.observation import BelObservation, PendingView, observe
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    AVAILABLE,
    BARBARIAN,
    EMPIRE,
    FIRST_HEX,
    NOBODY,
    PLAYERS,
    BelState,
    Catalog,
    Request,
    RequestKind,
)
from byzantium.belisarius.world import region_chart

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = ["render_state"]

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
    else:
        other = 1 - player
        secrets = {
            player: (view.treasury, view.hand),
            other: (view.other_treasury, view.other_hand),
        }
        pending = _pending_line(view.pending)
    heading = game.chronicle_heading(state).split("\n", 1)[0]
    lines = [f"{heading} phase: {view.phase}"]
    if player is not None:
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
