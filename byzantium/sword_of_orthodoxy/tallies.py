"""What ``byzantium simulate`` counts in a game of Sword of Orthodoxy.

Read from the events of the whole game and from the facts its final state remembers:

* ``political event: NAME``: the Synopsis Phases (8.1) whose row brought the
  Political Event and in which it was resolved (8.4.1), whatever its effect; a ✹
  event skipped because it already took effect (8.4) does not count;
* ``military event: NAME``: the Military Events put on the Strategikon (8.3);
* ``arrives: NAME``: an enemy Army or Tribe that takes over a Path, once per Path
  (the Mongols, the Ottomans, the Seljuks, the Saracens...);
* ``Rise of Islam`` (2.8), ``Crusades begin`` (5.4.1), ``Constantinople betrayed``
  (5.4.2), ``East-West Schism`` (5.3.3), ``Greek Fire`` (10.5): 1 when the game
  made it happen (a fact the scenario starts with does not count).

The event names come from the engine's chronicle lines, which name the event first
(``"Kiev: trade with the Orthodox Rus'"``); :data:`EVENT_PATTERNS` lists what is read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from byzantium.core.game import Event
from byzantium.sword_of_orthodoxy.state import SooState
from byzantium.sword_of_orthodoxy.synopsis import POLITICAL_EVENTS

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = ["EVENT_PATTERNS", "FACTS", "game_tallies", "political_event_name"]

#: Facts of the final state worth a tally, by tally name.
FACTS: dict[str, str] = {
    "Rise of Islam": "islam",
    "Crusades begin": "crusades",
    "Constantinople betrayed": "constantinople-betrayed",
    "East-West Schism": "east-west-schism",
    "Greek Fire": "greek-fire",
}

_MILITARY = re.compile(r"Military Event: (?P<name>.+)")
_ARMY = re.compile(r"Path \S+: (?P<name>.+) now stand in ")
_TRIBE = re.compile(r"the Tribe of Path \S+ is now (?P<name>.+)")

#: (rule, event kind, what the text looks like) of every chronicle line read.
EVENT_PATTERNS: tuple[tuple[str, str, str], ...] = (
    ("8.1", "synopsis", "a new Synopsis Phase"),
    ("8.4.1", "event", "NAME: ... or NAME ... (a Political Event)"),
    ("8.3", "military", _MILITARY.pattern),
    ("*", "army", _ARMY.pattern),
    ("*", "tribe", _TRIBE.pattern),
)

# Longest first, so that "Magyar Princess" is not read as "Magyars".
_NAMES = sorted(POLITICAL_EVENTS, key=len, reverse=True)


def political_event_name(text: str) -> str | None:
    """The Political Event a chronicle line of 8.4.1 is about, if it names one first.

    >>> political_event_name("Riots break out in Constantinople")
    'Riots'
    >>> political_event_name("Magyar Princess: a Support Unit joins Zone Β")
    'Magyar Princess'
    >>> political_event_name("nothing to see") is None
    True
    """
    for name in _NAMES:
        if text == name or text.startswith((f"{name}:", f"{name} ")):
            return name
    return None


def game_tallies(
    game: SwordOfOrthodoxy, state: SooState, events: Sequence[Event]
) -> tuple[tuple[str, int], ...]:
    """Name and count pairs of a finished game (see the module documentation)."""
    counts: Counter[str] = Counter()
    this_phase: set[str] = set()
    for event in events:
        if event.kind == "synopsis" and event.rule == "8.1":
            this_phase = set()
        elif event.kind == "event" and event.rule == "8.4.1":
            name = political_event_name(event.text)
            if name is not None and name not in this_phase:
                this_phase.add(name)
                counts[f"political event: {name}"] += 1
        elif event.kind == "military" and (match := _MILITARY.fullmatch(event.text)):
            counts[f"military event: {match['name']}"] += 1
        elif event.kind in ("army", "tribe"):
            pattern = _ARMY if event.kind == "army" else _TRIBE
            arrival = pattern.match(event.text)
            if arrival:
                counts[f"arrives: {arrival['name']}"] += 1
    before = game.initial_state().done
    for name, fact in FACTS.items():
        counts[name] = int(fact in state.done and fact not in before)
    return tuple(sorted(counts.items()))
