"""What ``byzantium simulate`` counts in a game of Belisarius.

Read from the events of the whole game and its final state:

* ``random event: ID``: each Random Event rolled (6.1), by its id in the Events Table;
* ``diplomacy attempt``: each Diplomacy attempt designated (9.1), and
  ``diplomacy: OUTCOME`` the Diplomacy Table result of each (9.1; ``control``,
  ``neutral``, ``intelligence``, ``reaction``);
* ``revolt check: OUTCOME``: each Revolt check (4.72; ``no-effect``, ``neutral``,
  ``barbarian``), and ``revolt: control changes`` each Region that changed hands
  through one;
* ``mutiny``: each Guard stack that mutinied (12.2);
* ``capitulation: SIDE``: 1 when that side capitulated (3.1).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from byzantium.belisarius.components import DiplomacyOutcome, RevoltOutcome
from byzantium.belisarius.state import BelState
from byzantium.core.game import Event

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = ["game_tallies"]

_RANDOM_EVENT = re.compile(r"Random event (?P<number>\d+): ")
_DIPLOMACY = {outcome.value for outcome in DiplomacyOutcome}
_REVOLT = {outcome.value for outcome in RevoltOutcome}
_MUTINY = re.compile(r"\d+ Guard counters at .+ mutiny")


def game_tallies(
    game: Belisarius, state: BelState, events: Sequence[Event]
) -> tuple[tuple[str, int], ...]:
    """Name and count pairs of a finished game (see the module documentation)."""
    counts: Counter[str] = Counter()
    for event in events:
        text = event.text
        if event.kind == "event" and event.rule == "6.1":
            match = _RANDOM_EVENT.match(text)
            if match:
                row = game.components.event(int(match["number"]))
                counts[f"random event: {row.id}"] += 1
        elif event.kind == "diplomacy" and event.rule == "9.1":
            if " attempts Diplomacy on " in text:
                counts["diplomacy attempt"] += 1
            elif text.startswith("Diplomacy on ") and ": " in text:
                outcome = text.rsplit(": ", 1)[1]
                if outcome in _DIPLOMACY:
                    counts[f"diplomacy: {outcome}"] += 1
        elif event.kind == "revolt" and event.rule == "4.72":
            outcome = text.rsplit(" gives ", 1)[-1]
            if outcome in _REVOLT:
                counts[f"revolt check: {outcome}"] += 1
        elif event.kind == "control" and event.rule == "4.72":
            counts["revolt: control changes"] += 1
        elif event.kind == "mutiny" and _MUTINY.fullmatch(text):
            counts["mutiny"] += 1
    ending = state.ending
    for player in range(game.NUM_PLAYERS):
        name = f"capitulation: {game.player_name(player)}"
        counts[name] = int(ending is not None and ending.capitulated == player)
    return tuple(sorted(counts.items()))
