"""The observation tensor of Sword of Orthodoxy: the whole board as numbers.

Built from the player's observation (:mod:`byzantium.sword_of_orthodoxy.observation`,
the whole state), segment by segment (:class:`~byzantium.core.tensors.TensorLayout`;
``game.observation_tensor_layout().describe()`` prints the table):

* ``turn``: the Game Turn (0 before the first Turn Chit);
* ``tile space``: per tile of the catalogue (the tiles of the component file, then
  the Turn Chits), a one-hot row over the spaces of the map file: where it lies;
* ``tile back``: 1 where a tile's back face is up; ``tile value``: its position on a
  track (the Omnibus Track, the Strategikon; 0 elsewhere);
* ``facts``: the one-time facts the rules remember (:data:`FIXED_FACTS`, a strategic
  retreat per Path, each once-only Political Event spent, the scenario), one flag
  each; ``facts this turn`` the facts stamped with the current Turn
  (:data:`TURN_FACTS`);
* ``counters``: the numbers the rules remember that no tile shows
  (:data:`COUNTERS`), raw;
* ``pending kind`` (none, roll, draw, choose), ``pending rule`` (one-hot over the
  rule index, the last slot for a rule not in it), ``pending dice``, ``pending mug``
  (the space drawn from) and ``pending path`` (the Path a single-die roll applies
  to): the request the game waits for.

The Byzantine Action Phase's menus are not in the tensor: what may be chosen is the
action mask's business (:meth:`~byzantium.core.game.Game.action_space`).
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING

from byzantium.core.tensors import (
    Segment,
    TensorLayout,
    TensorWriter,
    flags,
    one_hot,
    rule_slots,
)
from byzantium.sword_of_orthodoxy.components import Path
from byzantium.sword_of_orthodoxy.observation import SooObservation
from byzantium.sword_of_orthodoxy.siege import retreat_fact
from byzantium.sword_of_orthodoxy.state import RequestKind

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = [
    "COUNTERS",
    "FIXED_FACTS",
    "TURN_FACTS",
    "counter_range",
    "encode",
    "fact_names",
    "layout",
]

#: Once-only facts remembered under a fixed name.
FIXED_FACTS: tuple[str, ...] = (
    "islam",
    "greek-fire",
    "justinian-turn",
    "black-dynasties",
    "egypt-independent",
    "east-west-schism",
    "honoria",
    "crusades",
    "constantinople-betrayed",
)
#: Facts stamped with the Turn they happened in (``<name>-turn-<turn>``): the tensor
#: shows whether each happened in the current Turn.
TURN_FACTS: tuple[str, ...] = ("soldier-emperor", "saint", "saint-ignore", "kleidion", "tricameron")
#: The named numbers of ``SooState.counters``. Each is a Turn number (the Turn
#: something happened, 0 once undone) or a number of Turns (how many Turns War in the
#: East came up), so in a state of Turn ``t`` it lies in ``counter_range(t)``.
COUNTERS: tuple[str, ...] = (
    "first-turn",
    "justinian-turn",
    "ravenna-turn",
    "war-in-the-east",
    "comet",
    "sicilian-vespers",
    "porphyrios",
    "crusades-began",
)


def counter_range(turn: int) -> tuple[int, int]:
    """The bounds of every counter of :data:`COUNTERS` in a state of Turn ``turn``."""
    return 0, turn


#: Request kinds in the order of the ``pending kind`` segment (after "none").
KINDS: tuple[RequestKind, ...] = (RequestKind.ROLL, RequestKind.DRAW, RequestKind.CHOOSE)


_FACTS: weakref.WeakKeyDictionary[SwordOfOrthodoxy, tuple[str, ...]] = weakref.WeakKeyDictionary()


def fact_names(game: SwordOfOrthodoxy) -> tuple[str, ...]:
    """The facts of the ``facts`` segment, in order."""
    found = _FACTS.get(game)
    if found is None:
        components = game.components
        found = _FACTS[game] = (
            *FIXED_FACTS,
            *(retreat_fact(path) for path in Path),
            *(f"event:{event.name}" for event in components.political_events),
            *(f"scenario:{scenario.id}" for scenario in components.scenarios),
        )
    return found


def layout(game: SwordOfOrthodoxy) -> TensorLayout:
    """The segments of the tensor of a game instance (see the module documentation)."""
    cat = game.catalog
    tiles, spaces = len(cat.tiles), len(cat.spaces)
    return TensorLayout(
        (
            Segment("turn", (1,), "the Game Turn", 0, math.inf),
            Segment("tile space", (tiles, spaces), "per tile, one-hot: the space it is on"),
            Segment("tile back", (tiles,), "per tile: 1 if its back face is up"),
            Segment("tile value", (tiles,), "per tile: its track position", -math.inf, math.inf),
            Segment("facts", (len(fact_names(game)),), "one-time facts remembered"),
            Segment("facts this turn", (len(TURN_FACTS),), "facts of the current Turn"),
            Segment("counters", (len(COUNTERS),), "numbers remembered", -math.inf, math.inf),
            Segment("pending kind", (4,), "one-hot: none, roll, draw, choose"),
            Segment(
                "pending rule",
                (len(rule_slots("sword-of-orthodoxy")) + 1,),
                "one-hot: the rule that asks",
            ),
            Segment("pending dice", (1,), "dice to roll", 0, math.inf),
            Segment("pending mug", (spaces,), "one-hot: the space drawn from"),
            Segment("pending path", (len(Path),), "one-hot: the Path of a single-die roll"),
        )
    )


def encode(game: SwordOfOrthodoxy, seen: SooObservation) -> list[float]:
    """The tensor of an observation, laid out as :func:`layout` says."""
    cat = game.catalog
    board = seen.board
    spaces = len(cat.spaces)
    rules = rule_slots("sword-of-orthodoxy")
    request = seen.pending
    kind = rule = mug = path = -1
    dice = 0
    if request is not None:
        kind = KINDS.index(request.kind)
        rule = rule_slots("sword-of-orthodoxy").get(request.rule, len(rules))
        dice = request.dice
        mug = cat.space_index.get(request.space, -1) if request.space else -1
        path = -1 if request.path is None else list(Path).index(request.path)
    return (
        TensorWriter(game.observation_tensor_layout())
        .put("turn", [seen.turn])
        .put_ones("tile space", [tile * spaces + where for tile, where in enumerate(board.where)])
        .put("tile back", board.back)
        .put("tile value", board.value)
        .put("facts", flags(fact_names(game), seen.done))
        .put("facts this turn", flags([f"{f}-turn-{seen.turn}" for f in TURN_FACTS], seen.done))
        .put("counters", [seen.counter(name) for name in COUNTERS])
        .put("pending kind", one_hot(kind + 1, 4))
        .put("pending rule", one_hot(rule, len(rules) + 1))
        .put("pending dice", [dice])
        .put("pending mug", one_hot(mug, spaces))
        .put("pending path", one_hot(path, len(Path)))
        .values()
    )
