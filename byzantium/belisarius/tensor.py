"""The observation tensor of Belisarius: one player's view (22.0-22.2) as numbers.

Built from :func:`byzantium.belisarius.observation.observe`, never from the state, so
it holds nothing the observation hides: of the other player's Stratagem markers and
treasury only what the observer may examine (22.1). Segment by segment
(:class:`~byzantium.core.tensors.TensorLayout`; ``game.observation_tensor_layout()
.describe()`` prints the table), player-indexed segments in player order (the Empire
first):

* ``observer``, ``phasing``: one-hot players; ``turn``: the game turn (0 in set-up);
  ``phase``: one-hot over :data:`PHASES`;
* ``counter place``: per counter of the catalogue (Leaders, then the counter mix),
  eight flags: out of the game, in the off-map stock, in Peripheral Area box 1 to 4,
  on the map; then its column and row on the map divided by the map's largest
  (0 off the map), whether it shows its Mutinying face, whether it is aboard a Fleet;
* ``hex markers``: per hex of the map (in hex-number order), Pillaged, Colony,
  Public Works;
* ``control``: per Region (the map's order), one-hot Empire, Barbarian, Neutral;
  ``barred``: per Region, whether the phasing player may not tax, levy or recruit
  there this player turn;
* ``revealed``: per player, whether he may examine the other's markers and treasury;
  ``pool size`` and ``hand sizes``: markers in the Pool and in each hand;
* ``own hand`` (per Stratagem type, the catalogue's order) and ``own treasury``;
  ``other known`` (1 while the observer may examine the other's secrets), then
  ``other hand`` and ``other treasury`` (zeros while he may not);
* ``pending kind`` (none, roll, draw, choose), ``pending rule`` (one-hot over the
  rule index, the last slot for a rule not in it), ``pending player`` (who must
  choose), ``pending dice``, ``pending hand`` (a draw from the Pool, from the
  Empire's hand, from the Barbarian's), ``commitments`` (per player, the Stratagem
  markers committed to a Diplomacy attempt by type, then the face-down ones the
  observer may not identify), ``proposal`` (an offer of the Player Negotiations is
  shown);
* ``agreements``: how many agreements bind this game turn; ``ended``: 1 when the
  game is over.

What may be chosen is not in the tensor: that is the action mask's business
(:meth:`~byzantium.core.game.Game.action_space`).
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING

from byzantium.belisarius.diplomacy import HIDDEN
from byzantium.belisarius.observation import BelObservation
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.sequence import PHASES as PLAYER_TURN_PHASES
from byzantium.belisarius.state import AVAILABLE, FIRST_HEX, GONE, NOBODY, RequestKind
from byzantium.core.tensors import (
    Segment,
    TensorLayout,
    TensorWriter,
    flags,
    one_hot,
    rule_slots,
)

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = ["COUNTER_FEATURES", "PHASES", "encode", "layout"]

#: The phase names a state may show, in the order of the ``phase`` segment.
PHASES: tuple[str, ...] = (
    "setup",
    *(name for name, _ in PLAYER_TURN_PHASES),
    "negotiations",
    "end of turn",
)
#: The numbers of each counter's row of ``counter place``.
COUNTER_FEATURES: tuple[str, ...] = (
    "gone",
    "available",
    "box 1",
    "box 2",
    "box 3",
    "box 4",
    "on map",
    "column",
    "row",
    "mutinying",
    "aboard",
)
#: Request kinds in the order of the ``pending kind`` segment (after "none").
KINDS: tuple[RequestKind, ...] = (RequestKind.ROLL, RequestKind.DRAW, RequestKind.CHOOSE)
CONTROLS: tuple[Control, ...] = (Control.EMPIRE, Control.BARBARIAN, Control.NEUTRAL)


class _Tables:
    """Fixed facts of one game instance the encoder reads."""

    def __init__(self, game: Belisarius) -> None:
        self.hexes: tuple[int, ...] = tuple(sorted(game.map.hexes()))
        self.hex_index = {h: i for i, h in enumerate(self.hexes)}
        self.columns = max(h // 100 for h in self.hexes)
        self.rows = max(h % 100 for h in self.hexes)
        self.boxes = len(game.catalog.peripherals)


_TABLES: weakref.WeakKeyDictionary[Belisarius, _Tables] = weakref.WeakKeyDictionary()


def _tables(game: Belisarius) -> _Tables:
    found = _TABLES.get(game)
    if found is None:
        found = _TABLES[game] = _Tables(game)
    return found


def layout(game: Belisarius) -> TensorLayout:
    """The segments of the tensor of a game instance (see the module documentation)."""
    cat = game.catalog
    tables = _tables(game)
    counters, regions, kinds = len(cat.counters), len(cat.regions), len(cat.stratagem_ids)
    if tables.boxes != 4:
        raise ValueError(f"the tensor knows four Peripheral Area boxes, not {tables.boxes}")
    many = math.inf
    return TensorLayout(
        (
            Segment("observer", (2,), "one-hot: the player who sees"),
            Segment("turn", (1,), "the game turn", 0, many),
            Segment("phasing", (2,), "one-hot: the phasing player"),
            Segment("phase", (len(PHASES),), "one-hot: the phase"),
            Segment("counter place", (counters, len(COUNTER_FEATURES)), "per counter: where"),
            Segment("hex markers", (len(tables.hexes), 3), "per hex: Pillaged, Colony, Works"),
            Segment("control", (regions, len(CONTROLS)), "per Region, one-hot: who controls it"),
            Segment("barred", (regions,), "per Region: barred to the phasing player"),
            Segment("revealed", (2,), "per player: may examine the other's secrets"),
            Segment("pool size", (1,), "Stratagem markers in the Pool", 0, many),
            Segment("hand sizes", (2,), "Stratagem markers in each hand", 0, many),
            Segment("own hand", (kinds,), "the observer's markers by type", 0, many),
            Segment("own treasury", (1,), "the observer's solidus", 0, many),
            Segment("other known", (1,), "1 while the other's secrets may be examined"),
            Segment("other hand", (kinds,), "the other's markers by type, if known", 0, many),
            Segment("other treasury", (1,), "the other's solidus, if known", 0, many),
            Segment("pending kind", (4,), "one-hot: none, roll, draw, choose"),
            Segment(
                "pending rule", (len(rule_slots("belisarius")) + 1,), "one-hot: the rule that asks"
            ),
            Segment("pending player", (2,), "one-hot: the player who must choose"),
            Segment("pending dice", (1,), "dice to roll", 0, many),
            Segment("pending hand", (3,), "one-hot: a draw from the Pool, hand 0, hand 1"),
            Segment("commitments", (2, kinds + 1), "Diplomacy markers by type, hidden", 0, many),
            Segment("proposal", (1,), "an offer of the negotiations is shown"),
            Segment("agreements", (1,), "agreements in force", 0, many),
            Segment("ended", (1,), "the game is over"),
        )
    )


def _places(tables: _Tables, seen: BelObservation) -> list[float]:
    """The ``counter place`` segment: per counter, the row of :data:`COUNTER_FEATURES`."""
    units = seen.units
    width = len(COUNTER_FEATURES)
    rows = [0.0] * (width * len(units.where))
    columns, lines = tables.columns, tables.rows
    for unit, where in enumerate(units.where):
        at = unit * width
        if where == GONE:
            rows[at] = 1.0
        elif where == AVAILABLE:
            rows[at + 1] = 1.0
        elif where < FIRST_HEX:
            rows[at + 1 + where] = 1.0
        else:
            rows[at + 6] = 1.0
            rows[at + 7] = (where // 100) / columns
            rows[at + 8] = (where % 100) / lines
    for unit, mutinying in enumerate(units.mutiny):
        if mutinying:
            rows[unit * width + 9] = 1.0
    for unit in units.embarked():
        rows[unit * width + 10] = 1.0
    return rows


def encode(game: Belisarius, seen: BelObservation) -> list[float]:
    """The tensor of an observation, laid out as :func:`layout` says."""
    cat = game.catalog
    tables = _tables(game)
    markers = seen.markers
    hex_marks = [
        3 * tables.hex_index[h] + plane
        for plane, hexes in enumerate((markers.pillaged, markers.colonies, markers.works))
        for h in hexes
    ]
    control: list[float] = []
    for region in seen.control:
        control += one_hot(CONTROLS.index(region), len(CONTROLS))
    kinds = len(cat.stratagem_ids)
    # A player's view (the spectator, who holds nothing, has no tensor).
    assert seen.hand is not None and seen.treasury is not None
    known = seen.other_hand is not None
    rules = rule_slots("belisarius")
    pending = seen.pending
    kind = rule = chooser = hand = -1
    dice = 0
    commitments = [0.0] * (2 * (kinds + 1))
    proposal = False
    if pending is not None:
        kind = KINDS.index(pending.kind)
        rule = rule_slots("belisarius").get(pending.rule, len(rules))
        chooser = pending.player if pending.kind is RequestKind.CHOOSE else NOBODY
        dice = pending.dice
        hand = pending.hand + 1 if pending.kind is RequestKind.DRAW else -1
        for player, markers_of in enumerate(pending.commitments):
            for marker in markers_of:
                slot = kinds if marker == HIDDEN else cat.stratagem(marker)
                commitments[player * (kinds + 1) + slot] += 1.0
        proposal = pending.proposal is not None
    return (
        TensorWriter(game.observation_tensor_layout())
        .put("observer", one_hot(seen.player, 2))
        .put("turn", [seen.turn])
        .put("phasing", one_hot(seen.phasing, 2))
        .put(
            "phase", one_hot(PHASES.index(seen.phase) if seen.phase in PHASES else -1, len(PHASES))
        )
        .put("counter place", _places(tables, seen))
        .put_ones("hex markers", hex_marks)
        .put("control", control)
        .put("barred", flags([r.name for r in cat.regions], seen.barred))
        .put("revealed", seen.revealed)
        .put("pool size", [seen.pool_size])
        .put("hand sizes", seen.hand_sizes)
        .put("own hand", seen.hand)
        .put("own treasury", [seen.treasury])
        .put("other known", [known])
        .put("other hand", seen.other_hand if seen.other_hand is not None else [0] * kinds)
        .put("other treasury", [seen.other_treasury or 0])
        .put("pending kind", one_hot(kind + 1, 4))
        .put("pending rule", one_hot(rule, len(rules) + 1))
        .put("pending player", one_hot(chooser, 2))
        .put("pending dice", [dice])
        .put("pending hand", one_hot(hand, 3))
        .put("commitments", commitments)
        .put("proposal", [proposal])
        .put("agreements", [len(seen.agreements)])
        .put("ended", [seen.ending is not None])
        .values()
    )
