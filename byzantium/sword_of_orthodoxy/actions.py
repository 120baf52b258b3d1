"""Typed actions: what each decision of Sword of Orthodoxy does, and its fixed number.

The engine asks its questions with five plain actions (:mod:`.state`): ``Roll`` and
``Draw`` for chance, and for the player ``Pay(amount)``, ``Decline()`` and
``Select(item)``, whose item is a short text such as ``"mission battle
army-alpha-1"`` or ``"pay 1 $, withdraw beta"``. This module is a layer over them
that changes nothing in the engine:

* a small vocabulary of frozen records (:data:`Decision`), one class per kind of
  decision, each naming the rules that offer it (``RULES``), saying in words what it
  does (:meth:`~DecisionBase.words`) and having a stable JSON form
  (:meth:`~DecisionBase.to_json`, :func:`decision_from_json`);
* :func:`classify`, the engine action of a state to its record, and
  :func:`engine_action`, a record back to the engine action legal in a state;
* :class:`SooActionSpace`, the fixed integer numbering of every decision the rules
  can offer, enumerated from the component data (docs:
  ``games/sword-of-orthodoxy-actions``).

Recorded games keep the engine's forms (``Select`` items), so every record made
before this layer replays unchanged; the typed form of any of their actions is
``classify(game, state, action)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, ClassVar, TypeAlias, cast

import attrs

from byzantium.core.codec import DecodeError, JSONValue
from byzantium.core.errors import IllegalActionError
from byzantium.core.spaces import ActionSpace
from byzantium.sword_of_orthodoxy.components import Path, SpaceKind, TileKind
from byzantium.sword_of_orthodoxy.state import (
    Catalog,
    Decline,
    Pay,
    Select,
    SooAction,
    SooState,
)
from byzantium.sword_of_orthodoxy.world import MAX_TRACK

if TYPE_CHECKING:
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = [
    "ATTACK_KINDS",
    "CALL_COUNCIL",
    "MISSION_KINDS",
    "OPTION_KINDS",
    "PASS_RULES",
    "SPEND_RULES",
    "AbandonOutpost",
    "ActivateGreekFire",
    "AdjustDie",
    "Attack",
    "BackDynasty",
    "Build",
    "BuildFaction",
    "BuildKastron",
    "CallCouncil",
    "ChooseSide",
    "ClearRuins",
    "Decision",
    "DecisionBase",
    "EndActionPhase",
    "EventBoon",
    "ExploitDivisions",
    "FreeAttack",
    "FreeHospital",
    "ImposeOrthodoxy",
    "Keep",
    "LoseHeart",
    "MagisterDefeat",
    "Mission",
    "Mutilate",
    "Pass",
    "PayTribute",
    "Rebuild",
    "RecallGoldenBasileus",
    "RemoveSocials",
    "ReopenMonastery",
    "RiotingFaction",
    "SendFaction",
    "SendHunHome",
    "ShiftForces",
    "SooActionSpace",
    "Spend",
    "SpendNike",
    "StolosArmy",
    "StolosPayment",
    "SupportUnit",
    "TakeOutpost",
    "UseHospitals",
    "classify",
    "decision_from_json",
    "engine_action",
]


# -- words for components -----------------------------------------------------------------


def _path_word(path: str) -> str:
    return f"Path {Path[path.upper()].letter}"


def tile_words(cat: Catalog, tile_id: str) -> str:
    """A tile by a name that does not depend on the state (both faces where they differ)."""
    index = cat.tile_index.get(tile_id)
    if index is None:
        return tile_id
    tile = cat.tiles[index]
    number = tile_id.rsplit("-", 1)[-1]
    letter = tile.path.letter if tile.path is not None else ""
    if tile.kind is TileKind.ARMY:
        if tile.front.name == "Army":
            return f"Army #{number} of Zone {letter}"
        return f"the {tile.front.name} Army of Path {letter}"
    if tile.kind in (TileKind.RIOT, TileKind.SOCIAL, TileKind.HOSPITAL, TileKind.AKRITAI):
        return f"{tile.kind.value.title()} #{number}"
    if tile.kind is TileKind.MONASTERY:
        return f"Monastery #{number}"
    if tile.path is not None and tile.kind is TileKind.MARKER:
        return f"the {tile.front.name} of Path {letter}"
    name = tile.front.name
    if tile.back is not None and tile.back.name != name:
        name = f"{name}/{tile.back.name}"
    # Twin tiles (the two Colonists, the two Anarchy Dynasties) by their number too.
    return f"{name} #{number}" if number.isdigit() else name


def space_words(cat: Catalog, space_id: str) -> str:
    """A map space by its printed name."""
    index = cat.space_index.get(space_id)
    return space_id if index is None else cat.spaces[index].name


# -- the records ------------------------------------------------------------------------------


class DecisionBase:
    """What every typed decision has: its JSON tag, the rules offering it, its words.

    Concrete decisions are frozen attrs classes; their fields are strings (tile,
    space and Path ids as the component files spell them), ints and tuples of
    strings, so the JSON form is ``{"type": TYPE, field: value, ...}``.
    """

    __slots__ = ()

    #: The tag of the JSON form (its ``"type"``).
    TYPE: ClassVar[str]
    #: The rules that offer this kind of decision.
    RULES: ClassVar[tuple[str, ...]]

    @property
    def rule(self) -> str:
        """The rule that offers this decision (the first of ``RULES``)."""
        return self.RULES[0]

    def words(self, cat: Catalog) -> str:
        """What the decision does, for people (names, not ids)."""
        raise NotImplementedError  # pragma: no cover

    def to_json(self) -> dict[str, JSONValue]:
        """The stable JSON form."""
        data: dict[str, JSONValue] = {"type": self.TYPE}
        for field in attrs.fields(cast("type[attrs.AttrsInstance]", type(self))):
            value = getattr(self, field.name)
            data[field.name] = list(value) if isinstance(value, tuple) else value
        return data


# Action Phase (10.0) ---------------------------------------------------------------------


@attrs.frozen
class EndActionPhase(DecisionBase):
    """End the Byzantine Action Phase (10.0)."""

    TYPE: ClassVar[str] = "end-action-phase"
    RULES: ClassVar[tuple[str, ...]] = ("10.0",)

    def words(self, cat: Catalog) -> str:
        return "End the Byzantine Action Phase"


@attrs.frozen
class TakeOutpost(DecisionBase):
    """Take an available Outpost (10.1)."""

    outpost: str
    TYPE: ClassVar[str] = "take-outpost"
    RULES: ClassVar[tuple[str, ...]] = ("10.1",)

    def words(self, cat: Catalog) -> str:
        return f"Take the Outpost {tile_words(cat, self.outpost)}"


@attrs.frozen
class AbandonOutpost(DecisionBase):
    """Abandon an Outpost for its plunder (10.2)."""

    outpost: str
    TYPE: ClassVar[str] = "abandon-outpost"
    RULES: ClassVar[tuple[str, ...]] = ("10.2",)

    def words(self, cat: Catalog) -> str:
        return f"Abandon the Outpost {tile_words(cat, self.outpost)}"


@attrs.frozen
class ActivateGreekFire(DecisionBase):
    """Activate Greek Fire (10.5)."""

    TYPE: ClassVar[str] = "activate-greek-fire"
    RULES: ClassVar[tuple[str, ...]] = ("10.5",)

    def words(self, cat: Catalog) -> str:
        return "Activate Greek Fire"


#: The Infrastructure that may be built (10.3), in menu order.
STRUCTURES = ("hospital", "monastery", "akritai")


@attrs.frozen
class Build(DecisionBase):
    """Build a Hospital, Monastery or Akritai (``structure``) on a space (10.3)."""

    structure: str
    space: str
    TYPE: ClassVar[str] = "build"
    RULES: ClassVar[tuple[str, ...]] = ("10.3",)

    def words(self, cat: Catalog) -> str:
        article = "an" if self.structure[0] in "aeiou" else "a"
        return f"Build {article} {self.structure.title()} in {space_words(cat, self.space)}"


@attrs.frozen
class Rebuild(DecisionBase):
    """Rebuild an Infrastructure tile from behind enemy lines on a space (10.3)."""

    tile: str
    space: str
    TYPE: ClassVar[str] = "rebuild"
    RULES: ClassVar[tuple[str, ...]] = ("10.3",)

    def words(self, cat: Catalog) -> str:
        return f"Rebuild {tile_words(cat, self.tile)} in {space_words(cat, self.space)}"


@attrs.frozen
class ReopenMonastery(DecisionBase):
    """Reopen a closed Monastery (10.14)."""

    monastery: str
    TYPE: ClassVar[str] = "reopen-monastery"
    RULES: ClassVar[tuple[str, ...]] = ("10.14",)

    def words(self, cat: Catalog) -> str:
        return f"Reopen {tile_words(cat, self.monastery)}"


#: The kinds of attack of the Action Phase, their menu word and rule.
ATTACK_KINDS: Mapping[str, str] = {
    "attack": "10.6",
    "kleidion": "8.4.1",
    "tricameron": "8.4.1",
    "emperor-attack": "10.6.8",
    "magister-attack": "10.8",
    "hippodrome": "10.6.9.2",
}
_ATTACK_WORDS = {
    "attack": "Attack",
    "kleidion": "Attack (Kleidion)",
    "tricameron": "Attack (Tricameron)",
    "emperor-attack": "The soldier emperor's free attack on",
    "magister-attack": "Send the Magister Militum against",
    "hippodrome": "Attack in the Hippodrome",
}


@attrs.frozen
class Attack(DecisionBase):
    """An attack of the Action Phase: its ``kind`` (see :data:`ATTACK_KINDS`) and target.

    ``attack`` is the paid attack (10.6, 10.6.5, 10.6.9.1-2), ``kleidion`` and
    ``tricameron`` the events' attacks on a Zone's last Army (8.4.1),
    ``emperor-attack`` the soldier emperor's (10.6.8), ``magister-attack`` the
    Magister Militum's (10.8), ``hippodrome`` the golden Basileus's on a Riot
    (10.6.9.2).
    """

    kind: str
    target: str
    TYPE: ClassVar[str] = "attack"
    RULES: ClassVar[tuple[str, ...]] = (
        "10.6",
        "10.6.5",
        "10.6.8",
        "10.6.9.1",
        "10.6.9.2",
        "10.8",
        "8.4.1",
    )

    @property
    def rule(self) -> str:
        return ATTACK_KINDS.get(self.kind, "10.6")

    def words(self, cat: Catalog) -> str:
        return f"{_ATTACK_WORDS.get(self.kind, self.kind)} {tile_words(cat, self.target)}"


@attrs.frozen
class ShiftForces(DecisionBase):
    """Shift forces on a Path: an unopposed Advance there, then a free attack (10.13)."""

    path: str
    TYPE: ClassVar[str] = "shift-forces"
    RULES: ClassVar[tuple[str, ...]] = ("10.13",)

    def words(self, cat: Catalog) -> str:
        return f"Shift forces on {_path_word(self.path)}"


#: The missions of the golden Basileus (10.7.x): menu word, rule, what the target is.
MISSION_KINDS: Mapping[str, tuple[str, str]] = {
    "battle-sword": ("10.7.1", "army"),
    "battle": ("10.7.2", "army"),
    "confront": ("10.7.3", "leader"),
    "orator": ("10.7.4", "faction"),
    "naval-reforms": ("10.7.5", ""),
    "taxation": ("10.7.6", ""),
    "ecclesiastical-policy": ("10.7.7", ""),
    "legislate": ("10.7.8", "social"),
    "slavery": ("10.7.9", "structure"),
    "reformer": ("10.7.10", ""),
    "expel": ("10.7.11", "colonist"),
    "pandidakterion": ("10.7.12", ""),
}
_MISSION_WORDS = {
    "battle-sword": "to battle, with his Sword, against",
    "battle": "to battle against",
    "confront": "to confront",
    "orator": "as a legendary orator to",
    "naval-reforms": "to naval reforms",
    "taxation": "to ruinous taxation",
    "ecclesiastical-policy": "to ecclesiastical policy",
    "legislate": "to legislate on",
    "slavery": "to slavery: a free",
    "reformer": "as a visionary reformer",
    "expel": "to expel",
    "pandidakterion": "to found the Pandidakterion",
}


@attrs.frozen
class Mission(DecisionBase):
    """A mission of the golden Basileus (10.7): its ``kind`` (:data:`MISSION_KINDS`),
    the tile it acts on (``target``: an Army, the Kan or Caliph, a Faction, a Social,
    a Colonist; for slavery the structure kind) and, for slavery, the ``space``."""

    kind: str
    target: str = ""
    space: str = ""
    TYPE: ClassVar[str] = "mission"
    RULES: ClassVar[tuple[str, ...]] = tuple(rule for rule, _ in MISSION_KINDS.values())

    @property
    def rule(self) -> str:
        return MISSION_KINDS.get(self.kind, ("10.7", ""))[0]

    def words(self, cat: Catalog) -> str:
        text = f"Commit the Basileus {_MISSION_WORDS.get(self.kind, self.kind)}"
        if self.kind == "slavery":
            return f"{text} {self.target.title()} in {space_words(cat, self.space)}"
        return f"{text} {tile_words(cat, self.target)}" if self.target else text


#: The favours of a Saint an Impose Orthodoxy purchase may carry (10.9.1).
SAINT_FAVOURS = ("", "ignore", "free")


@attrs.frozen
class ImposeOrthodoxy(DecisionBase):
    """Buy Impose Orthodoxy rolls (10.9), with a Saint's favour (10.9.1) or none."""

    saint: str = ""
    TYPE: ClassVar[str] = "impose-orthodoxy"
    RULES: ClassVar[tuple[str, ...]] = ("10.9", "10.9.1")

    def words(self, cat: Catalog) -> str:
        if self.saint == "ignore":
            return "Impose Orthodoxy, ignoring the Saint's -1 modifiers"
        if self.saint == "free":
            return "Impose Orthodoxy, with the Saint's free roll"
        return "Impose Orthodoxy"


@attrs.frozen
class ExploitDivisions(DecisionBase):
    """Exploit social divisions: every Social off the map (10.10)."""

    TYPE: ClassVar[str] = "exploit-divisions"
    RULES: ClassVar[tuple[str, ...]] = ("10.10",)

    def words(self, cat: Catalog) -> str:
        return "Exploit social divisions"


@attrs.frozen
class ClearRuins(DecisionBase):
    """Clear one space of the Empires in Rubble (10.11)."""

    TYPE: ClassVar[str] = "clear-ruins"
    RULES: ClassVar[tuple[str, ...]] = ("10.11",)

    def words(self, cat: Catalog) -> str:
        return "Clear the Ruins"


@attrs.frozen
class BuildFaction(DecisionBase):
    """Bring a Faction one space closer to Constantinople (10.12)."""

    faction: str
    TYPE: ClassVar[str] = "build-faction"
    RULES: ClassVar[tuple[str, ...]] = ("10.12",)

    def words(self, cat: Catalog) -> str:
        return f"Build the Faction {tile_words(cat, self.faction)}"


@attrs.frozen
class SpendNike(DecisionBase):
    """Exchange a Niké for 1 solidus (10.15)."""

    TYPE: ClassVar[str] = "spend-nike"
    RULES: ClassVar[tuple[str, ...]] = ("10.15",)

    def words(self, cat: Catalog) -> str:
        return "Spend the Niké"


# Questions asked along the way -------------------------------------------------------------


@attrs.frozen
class StolosPayment(DecisionBase):
    """How an attack on the Army carrying the Stolos is paid (10.6.5, 10.13): ``solidus``
    from the treasury and one withdrawal per Path in ``withdrawals`` (Path words, in
    Path order, a Path twice for two withdrawals there)."""

    solidus: int
    withdrawals: tuple[str, ...] = ()
    TYPE: ClassVar[str] = "stolos-payment"
    RULES: ClassVar[tuple[str, ...]] = ("10.6.5", "10.13")

    def words(self, cat: Catalog) -> str:
        parts = [f"pay {self.solidus} Solidus"] if self.solidus else []
        parts += [f"withdraw from {_path_word(p)}" for p in self.withdrawals]
        text = ", ".join(parts)
        return f"For the attack on the Stolos: {text}"


@attrs.frozen
class FreeAttack(DecisionBase):
    """The target of a free attack an earlier step grants (10.6)."""

    target: str
    TYPE: ClassVar[str] = "free-attack"
    RULES: ClassVar[tuple[str, ...]] = ("10.6",)

    def words(self, cat: Catalog) -> str:
        return f"Make the free attack on {tile_words(cat, self.target)}"


@attrs.frozen
class AdjustDie(DecisionBase):
    """The Akritai's adjustment of a roll: ``by`` -1, +1, or 0 to keep it (10.4.2)."""

    by: int
    TYPE: ClassVar[str] = "adjust-die"
    RULES: ClassVar[tuple[str, ...]] = ("10.4.2",)

    def words(self, cat: Catalog) -> str:
        if self.by == 0:
            return "Keep the die as rolled (the Akritai stay unused)"
        return f"Use the Akritai: the die {self.by:+d}"


@attrs.frozen
class SupportUnit(DecisionBase):
    """A Support Unit facing the Ottomans' deployment into Zone Β (9.5.3): ``use`` is
    ``"sacrifice"`` (it stops them, to the Counter Tray) or ``"prop"`` (1 $: they roll
    against it)."""

    use: str
    unit: str
    TYPE: ClassVar[str] = "support-unit"
    RULES: ClassVar[tuple[str, ...]] = ("9.5.3",)

    def words(self, cat: Catalog) -> str:
        if self.use == "prop":
            return f"Prop up {tile_words(cat, self.unit)} for 1 Solidus"
        return f"Sacrifice {tile_words(cat, self.unit)}"


@attrs.frozen
class MagisterDefeat(DecisionBase):
    """After the Magister Militum's defeat: a Riot (``riot``) or the Schism rises (10.8)."""

    riot: bool
    TYPE: ClassVar[str] = "magister-defeat"
    RULES: ClassVar[tuple[str, ...]] = ("10.8",)

    def words(self, cat: Catalog) -> str:
        return "A Riot breaks out" if self.riot else "The Schism rises"


@attrs.frozen
class RiotingFaction(DecisionBase):
    """The Faction that rioted (6.1, 10.6.9.2)."""

    faction: str
    TYPE: ClassVar[str] = "rioting-faction"
    RULES: ClassVar[tuple[str, ...]] = ("10.6.9.2", "6.1")

    def words(self, cat: Catalog) -> str:
        return f"{tile_words(cat, self.faction)} rioted"


@attrs.frozen
class Keep(DecisionBase):
    """Banking: keep this many solidus, the rest is lost (11.1)."""

    amount: int
    TYPE: ClassVar[str] = "keep"
    RULES: ClassVar[tuple[str, ...]] = ("11.1",)

    def words(self, cat: Catalog) -> str:
        return f"Keep {self.amount} Solidus"


@attrs.frozen
class LoseHeart(DecisionBase):
    """The Faction that loses heart and leaves Constantinople (11.6)."""

    faction: str
    TYPE: ClassVar[str] = "lose-heart"
    RULES: ClassVar[tuple[str, ...]] = ("11.6",)

    def words(self, cat: Catalog) -> str:
        return f"{tile_words(cat, self.faction)} loses heart"


@attrs.frozen
class RemoveSocials(DecisionBase):
    """The shrewd Basileus removes every Social for free (11.9)."""

    TYPE: ClassVar[str] = "remove-socials"
    RULES: ClassVar[tuple[str, ...]] = ("11.9",)

    def words(self, cat: Catalog) -> str:
        return "Remove every Social"


@attrs.frozen
class SendFaction(DecisionBase):
    """A Siege: send a Faction out for a free attack (12.1)."""

    faction: str
    TYPE: ClassVar[str] = "send-faction"
    RULES: ClassVar[tuple[str, ...]] = ("12.1",)

    def words(self, cat: Catalog) -> str:
        return f"Send {tile_words(cat, self.faction)} against the besiegers"


@attrs.frozen
class BackDynasty(DecisionBase):
    """Civil War: the Dynasty the solidus spent back (6.1.1)."""

    dynasty: str
    TYPE: ClassVar[str] = "back-dynasty"
    RULES: ClassVar[tuple[str, ...]] = ("6.1.1",)

    def words(self, cat: Catalog) -> str:
        return f"Back the {tile_words(cat, self.dynasty)} Dynasty"


@attrs.frozen
class Mutilate(DecisionBase):
    """Mutilate and depose the Basileus (6.2.3)."""

    basileus: str
    TYPE: ClassVar[str] = "mutilate"
    RULES: ClassVar[tuple[str, ...]] = ("6.2.3",)

    def words(self, cat: Catalog) -> str:
        return f"Mutilate {tile_words(cat, self.basileus)}"


@attrs.frozen
class ChooseSide(DecisionBase):
    """The face of the new Basileus: ``"front"`` or ``"back"`` (6.2.3)."""

    side: str
    TYPE: ClassVar[str] = "choose-side"
    RULES: ClassVar[tuple[str, ...]] = ("6.2.3",)

    def words(self, cat: Catalog) -> str:
        return f"The new Basileus on his {self.side} face"


@attrs.frozen
class RecallGoldenBasileus(DecisionBase):
    """Bring the golden Basileus back to Constantinople now (6.2.3)."""

    TYPE: ClassVar[str] = "recall-golden-basileus"
    RULES: ClassVar[tuple[str, ...]] = ("6.2.3",)

    def words(self, cat: Catalog) -> str:
        return "Bring the golden Basileus back to Constantinople"


@attrs.frozen
class PayTribute(DecisionBase):
    """Pay Tribute to the Barbarians of a Zone or Homeland (``space``) (6.5)."""

    space: str
    TYPE: ClassVar[str] = "pay-tribute"
    RULES: ClassVar[tuple[str, ...]] = ("6.5",)

    def words(self, cat: Catalog) -> str:
        return f"Pay Tribute in {space_words(cat, self.space)}"


@attrs.frozen
class BuildKastron(DecisionBase):
    """Build the Kastron on a Zone or Thema (6.6)."""

    space: str
    TYPE: ClassVar[str] = "build-kastron"
    RULES: ClassVar[tuple[str, ...]] = ("6.6",)

    def words(self, cat: Catalog) -> str:
        return f"Build the Kastron in {space_words(cat, self.space)}"


@attrs.frozen
class StolosArmy(DecisionBase):
    """The Stolos event: the Army of the Zone the fleet sails with (8.4.1)."""

    army: str
    TYPE: ClassVar[str] = "stolos-army"
    RULES: ClassVar[tuple[str, ...]] = ("8.4.1",)

    def words(self, cat: Catalog) -> str:
        return f"The Stolos sails with {tile_words(cat, self.army)}"


#: The boons an event lets the player choose between (8.4.1 Magyar Princess, Rotrude).
BOONS = ("reduce-schism", "gain-solidus")


@attrs.frozen
class EventBoon(DecisionBase):
    """An event's boon: ``"reduce-schism"`` or ``"gain-solidus"`` (8.4.1)."""

    boon: str
    TYPE: ClassVar[str] = "event-boon"
    RULES: ClassVar[tuple[str, ...]] = ("8.4.1",)

    def words(self, cat: Catalog) -> str:
        return "Lower the Schism" if self.boon == "reduce-schism" else "Gain the solidus"


#: The item of the Select that calls an Ecumenical Council (peer option, 4.1).
CALL_COUNCIL = "call-council"


@attrs.frozen
class CallCouncil(DecisionBase):
    """Controlled Ecumenical Councils (peer option): call a Council this Turn, or not.

    ``call`` is Yes (the Turn's chit is one of the Council chits in the mug) or No
    (a Council chit drawn is redrawn once) (4.1).
    """

    call: bool
    TYPE: ClassVar[str] = "call-council"
    RULES: ClassVar[tuple[str, ...]] = ("4.1",)

    def words(self, cat: Catalog) -> str:
        return "Call an Ecumenical Council" if self.call else "Call no Ecumenical Council"


@attrs.frozen
class UseHospitals(DecisionBase):
    """The Plague: use both Hospitals (8.4.1)."""

    TYPE: ClassVar[str] = "use-hospitals"
    RULES: ClassVar[tuple[str, ...]] = ("8.4.1",)

    def words(self, cat: Catalog) -> str:
        return "Use both Hospitals against the Plague"


@attrs.frozen
class FreeHospital(DecisionBase):
    """Trading Rights (round letter Ⓛ): where the free Hospital goes (5.3.8)."""

    space: str
    TYPE: ClassVar[str] = "free-hospital"
    RULES: ClassVar[tuple[str, ...]] = ("5.3.8",)

    def words(self, cat: Catalog) -> str:
        return f"The free Hospital in {space_words(cat, self.space)}"


@attrs.frozen
class SendHunHome(DecisionBase):
    """The Huns leave (round letter Ⓑ): the Hun Army sent home (5.3.8)."""

    army: str
    TYPE: ClassVar[str] = "send-hun-home"
    RULES: ClassVar[tuple[str, ...]] = ("5.3.8",)

    def words(self, cat: Catalog) -> str:
        return f"Send {tile_words(cat, self.army)} home"


#: The rules whose questions take an amount of solidus (``Pay``), with what it buys.
SPEND_RULES: Mapping[str, str] = {
    "5.3.4": "invested in the Reforms",
    "5.3.8": "for the round-letter event",
    "6.1.1": "spent on the Civil War",
    "6.2.2": "to exchange the Basileus's husband",
    "8.3": "to roll War in the East again",
    "8.4": "for the round-letter event",
    "8.4.1": "for the event",
    "11.5": "to reconquer Egypt",
}


@attrs.frozen
class Spend(DecisionBase):
    """Spend ``amount`` solidus on the matter of ``rule`` (see :data:`SPEND_RULES`)."""

    rule_id: str
    amount: int
    TYPE: ClassVar[str] = "spend"
    RULES: ClassVar[tuple[str, ...]] = tuple(SPEND_RULES)

    @property
    def rule(self) -> str:
        return self.rule_id

    def words(self, cat: Catalog) -> str:
        what = SPEND_RULES.get(self.rule_id, "")
        return f"{self.amount} Solidus {what} ({self.rule_id})".replace("  ", " ")


#: The rules whose questions may be declined (``Decline``), with what declining means.
PASS_RULES: Mapping[str, str] = {
    "5.3.4": "Invest nothing in the Reforms",
    "5.3.8": "Decline the round-letter event's offer",
    "6.2.2": "Keep the Basileus's husband",
    "6.2.3": "Decline (no mutilation; the golden Basileus stays away)",
    "6.5": "Pay no Tribute",
    "6.6": "Build no Kastron",
    "8.3": "Keep the War in the East roll",
    "8.4": "Decline the round-letter event's offer",
    "8.4.1": "Decline the event's offer",
    "9.5.3": "Let the Ottomans deploy",
    "10.6": "Make no free attack",
    "11.5": "Leave Egypt fallen",
    "11.9": "Leave the Socials on the map",
    "12.1": "Send no more Factions",
}


@attrs.frozen
class Pass(DecisionBase):
    """Decline the optional step that ``rule`` offers (see :data:`PASS_RULES`)."""

    rule_id: str
    TYPE: ClassVar[str] = "pass"
    RULES: ClassVar[tuple[str, ...]] = tuple(PASS_RULES)

    @property
    def rule(self) -> str:
        return self.rule_id

    def words(self, cat: Catalog) -> str:
        return f"{PASS_RULES.get(self.rule_id, 'Decline')} ({self.rule_id})"


Decision: TypeAlias = (
    EndActionPhase
    | TakeOutpost
    | AbandonOutpost
    | ActivateGreekFire
    | Build
    | Rebuild
    | ReopenMonastery
    | Attack
    | ShiftForces
    | Mission
    | ImposeOrthodoxy
    | ExploitDivisions
    | ClearRuins
    | BuildFaction
    | SpendNike
    | StolosPayment
    | FreeAttack
    | AdjustDie
    | SupportUnit
    | MagisterDefeat
    | RiotingFaction
    | Keep
    | LoseHeart
    | RemoveSocials
    | SendFaction
    | BackDynasty
    | Mutilate
    | ChooseSide
    | RecallGoldenBasileus
    | PayTribute
    | BuildKastron
    | StolosArmy
    | EventBoon
    | UseHospitals
    | FreeHospital
    | SendHunHome
    | Spend
    | Pass
    | CallCouncil
)

#: Every kind of decision, in the order the action space numbers them. New kinds go
#: at the end, so that the numbers of the others do not move.
KINDS: tuple[type[Decision], ...] = (
    EndActionPhase,
    TakeOutpost,
    AbandonOutpost,
    ActivateGreekFire,
    Build,
    Rebuild,
    ReopenMonastery,
    Attack,
    ShiftForces,
    Mission,
    ImposeOrthodoxy,
    ExploitDivisions,
    ClearRuins,
    BuildFaction,
    SpendNike,
    StolosPayment,
    FreeAttack,
    AdjustDie,
    SupportUnit,
    MagisterDefeat,
    RiotingFaction,
    Keep,
    LoseHeart,
    RemoveSocials,
    SendFaction,
    BackDynasty,
    Mutilate,
    ChooseSide,
    RecallGoldenBasileus,
    PayTribute,
    BuildKastron,
    StolosArmy,
    EventBoon,
    UseHospitals,
    FreeHospital,
    SendHunHome,
    Spend,
    Pass,
)
#: Kinds of decision only games with an option offer, with the option: the action
#: space numbers them after :data:`KINDS`, and only in such games.
OPTION_KINDS: Mapping[type[Decision], str] = {CallCouncil: "controlled_councils"}
_BY_TYPE: dict[str, type[Decision]] = {kind.TYPE: kind for kind in (*KINDS, *OPTION_KINDS)}


def decision_from_json(data: JSONValue) -> Decision:
    """A decision from its JSON form (:meth:`DecisionBase.to_json`).

    Raises :class:`~byzantium.core.codec.DecodeError` for anything else.
    """
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise DecodeError("a typed action is an object with a string 'type'")
    tag = data["type"]
    assert isinstance(tag, str)
    kind = _BY_TYPE.get(tag)
    if kind is None:
        raise DecodeError(f"no kind of Sword of Orthodoxy decision is called {tag[:40]!r}")
    fields = {field.name: field for field in attrs.fields(kind)}
    given = {key: value for key, value in data.items() if key != "type"}
    unknown = sorted(set(given) - set(fields))
    if unknown:
        raise DecodeError(f"a {tag} decision has no field {unknown[0][:40]!r}")
    values: dict[str, object] = {}
    for name, field in fields.items():
        if name not in given:
            if field.default is attrs.NOTHING:
                raise DecodeError(f"a {tag} decision needs the field {name!r}")
            continue
        value: object = given[name]
        default = field.default
        wanted: type = type(default) if default is not attrs.NOTHING else _field_type(field)
        if wanted is tuple:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise DecodeError(f"the field {name!r} of a {tag} decision is a list of strings")
            value = tuple(value)
        elif type(value) is not wanted:
            raise DecodeError(f"the field {name!r} of a {tag} decision is a {wanted.__name__}")
        values[name] = value
    return kind(**values)  # type: ignore[arg-type]


def _field_type(field: attrs.Attribute[object]) -> type:
    annotation = str(field.type)
    return {"str": str, "int": int, "bool": bool}.get(annotation, tuple)


# -- engine action -> decision ------------------------------------------------------------------


def _action_phase(item: str) -> Decision | None:
    word, _, rest = item.partition(" ")
    args = rest.split()
    if word == "take" and len(args) == 1:
        return TakeOutpost(rest)
    if word == "abandon" and len(args) == 1:
        return AbandonOutpost(rest)
    if item == "activate greek-fire":
        return ActivateGreekFire()
    if word == "build" and len(args) == 2:
        return Build(args[0], args[1])
    if word == "rebuild" and len(args) == 2:
        return Rebuild(args[0], args[1])
    if word == "reopen" and len(args) == 1:
        return ReopenMonastery(rest)
    if word in ATTACK_KINDS and len(args) == 1:
        return Attack(word, rest)
    if word == "shift-forces" and len(args) == 1:
        return ShiftForces(rest)
    if word == "mission" and args and args[0] in MISSION_KINDS and len(args) <= 3:
        if args[0] == "slavery":
            return Mission("slavery", *args[1:]) if len(args) == 3 else None
        return Mission(args[0], *args[1:2]) if len(args) <= 2 else None
    if word == "orthodoxy" and not rest:
        return ImposeOrthodoxy()
    if word == "orthodoxy" and rest.startswith("saint-"):
        return ImposeOrthodoxy(rest.removeprefix("saint-"))
    if item == "divisions":
        return ExploitDivisions()
    if item == "ruins":
        return ClearRuins()
    if word == "faction" and len(args) == 1:
        return BuildFaction(rest)
    if item == "nike":
        return SpendNike()
    return None


def _stolos_payment(item: str) -> StolosPayment | None:
    money = 0
    paths: list[str] = []
    for part in item.split(", "):
        if part.startswith("pay ") and part.endswith(" $") and not paths:
            amount = part[4:-2]
            if not amount.isdigit():
                return None
            money = int(amount)
        elif part.startswith("withdraw "):
            paths.append(part.removeprefix("withdraw "))
        else:
            return None
    return StolosPayment(money, tuple(paths))


def _select(game: SwordOfOrthodoxy, state: SooState, rule: str, item: str) -> Decision | None:
    if rule == "10.0":
        return _action_phase(item)
    if rule == "10.6.5":
        return _stolos_payment(item)
    if rule == "10.4.2" and item.startswith("akritai "):
        return AdjustDie(int(item.removeprefix("akritai ")))
    if rule == "9.5.3":
        use, _, unit = item.partition(" ")
        return SupportUnit(use, unit) if use in ("sacrifice", "prop") else None
    if rule == "10.8":
        return MagisterDefeat(item == "riot")
    if rule == "11.1" and item.startswith("keep "):
        return Keep(int(item.removeprefix("keep ")))
    if rule == "11.9":
        return RemoveSocials()
    if rule == "4.1":
        return CallCouncil(True) if item == CALL_COUNCIL else None
    if item in BOONS:
        return EventBoon(item)
    if item == "use-hospitals":
        return UseHospitals()
    if item in ("front", "back"):
        return ChooseSide(item)
    cat = game.catalog
    tile = cat.tile_index.get(item)
    if tile is not None:
        kind = cat.tiles[tile].kind
        if kind is TileKind.FACTION:
            if rule == "11.6":
                return LoseHeart(item)
            if rule == "12.1":
                return SendFaction(item)
            return RiotingFaction(item)
        if kind is TileKind.DYNASTY:
            return BackDynasty(item)
        if kind is TileKind.BASILEUS:
            return Mutilate(item)
        if kind is TileKind.GOLDEN_BASILEUS:
            return RecallGoldenBasileus()
        if rule == "10.6":
            return FreeAttack(item)
        if rule == "8.4.1":
            return StolosArmy(item)
        return SendHunHome(item)
    if item in cat.space_index:
        if rule == "6.5":
            return PayTribute(item)
        if rule == "6.6":
            return BuildKastron(item)
        return FreeHospital(item)
    return None


def classify(game: SwordOfOrthodoxy, state: SooState, action: SooAction) -> Decision:
    """The typed decision an engine action stands for in ``state`` (where the player
    is asked a question).

    Raises :class:`ValueError` for an action that is not a decision here (a chance
    outcome, no question pending, an item of a form no rule offers).
    """
    request = state.pending
    if request is None:
        raise ValueError("no decision is pending")
    rule = request.rule
    found: Decision | None
    match action:
        case Decline():
            if rule == "10.0":
                found = EndActionPhase()
            elif rule == "10.4.2":
                found = AdjustDie(0)
            elif rule == "4.1":
                found = CallCouncil(False)
            else:
                found = Pass(rule)
        case Pay(amount):
            found = Spend(rule, amount)
        case Select(item):
            found = _select(game, state, rule, item)
        case _:
            found = None
    if found is None:
        raise ValueError(f"rule {rule}: {action!r} is no decision the rules offer")
    return found


def engine_action(game: SwordOfOrthodoxy, state: SooState, decision: Decision) -> SooAction:
    """The legal engine action of ``state`` that ``decision`` stands for.

    Raises :class:`~byzantium.core.errors.IllegalActionError` (naming the rule that
    asks the pending question) when the decision is not offered now.
    """
    for action in game.legal_actions(state):
        if isinstance(action, Decline | Pay | Select) and classify(game, state, action) == decision:
            return action
    raise IllegalActionError(
        game.decision_rule(state),
        f"{decision.words(game.catalog)}: not a legal choice now",
        game=game.ID,
    )


# -- the fixed action space --------------------------------------------------------------------


def _ids(cat: Catalog, *kinds: TileKind) -> list[str]:
    return [tile.id for tile in cat.tiles if tile.kind in kinds]


def _space_ids(cat: Catalog, *kinds: SpaceKind) -> list[str]:
    return [space.id for space in cat.spaces if space.kind in kinds]


def _domain(cat: Catalog, kind: type[Decision]) -> Iterator[Decision]:
    """Every decision of one kind the components allow, in a fixed order."""
    paths = [path.slug for path in Path]
    armies = _ids(cat, TileKind.ARMY)
    mongols = [cat.tiles[t].id for path in Path for t in cat.mongols(path)]
    riots = _ids(cat, TileKind.RIOT)
    targets = armies + mongols + riots
    factions = _ids(cat, TileKind.FACTION)
    #: Zones and Themas, where Infrastructure and the Kastron may stand.
    sites = _space_ids(cat, SpaceKind.ZONE, SpaceKind.THEMA)
    if kind is EndActionPhase:
        yield EndActionPhase()
    elif kind is TakeOutpost or kind is AbandonOutpost:
        yield from (kind(o) for o in _ids(cat, TileKind.OUTPOST))
    elif kind is ActivateGreekFire:
        yield ActivateGreekFire()
    elif kind is Build:
        yield from (Build(s, site) for s in STRUCTURES for site in sites)
    elif kind is Rebuild:
        tiles = _ids(cat, TileKind.HOSPITAL, TileKind.MONASTERY, TileKind.AKRITAI)
        yield from (Rebuild(t, site) for t in tiles for site in sites)
    elif kind is ReopenMonastery:
        yield from (ReopenMonastery(m) for m in _ids(cat, TileKind.MONASTERY))
    elif kind is Attack:
        yield from (Attack(a, t) for a in ATTACK_KINDS for t in targets)
    elif kind is ShiftForces:
        yield from (ShiftForces(p) for p in paths)
    elif kind is Mission:
        yield from _missions(cat, targets, factions, sites)
    elif kind is ImposeOrthodoxy:
        yield from (ImposeOrthodoxy(s) for s in SAINT_FAVOURS)
    elif kind is ExploitDivisions:
        yield ExploitDivisions()
    elif kind is ClearRuins:
        yield ClearRuins()
    elif kind is BuildFaction:
        yield from (BuildFaction(f) for f in factions)
    elif kind is SpendNike:
        yield SpendNike()
    elif kind is StolosPayment:
        yield from _stolos_payments(paths)
    elif kind is FreeAttack:
        yield from (FreeAttack(t) for t in targets)
    elif kind is AdjustDie:
        yield from (AdjustDie(by) for by in (0, -1, 1))
    elif kind is SupportUnit:
        units = _ids(cat, TileKind.SUPPORT)
        yield from (SupportUnit(u, t) for u in ("sacrifice", "prop") for t in units)
    elif kind is MagisterDefeat:
        yield from (MagisterDefeat(riot) for riot in (False, True))
    elif kind is Keep:
        yield from (Keep(n) for n in range(MAX_TRACK + 1))
    elif kind is RiotingFaction or kind is LoseHeart or kind is SendFaction:
        yield from (kind(f) for f in factions)
    elif kind is RemoveSocials:
        yield RemoveSocials()
    elif kind is BackDynasty:
        yield from (BackDynasty(d) for d in _ids(cat, TileKind.DYNASTY))
    elif kind is Mutilate:
        yield from (Mutilate(b) for b in _ids(cat, TileKind.BASILEUS))
    elif kind is ChooseSide:
        yield from (ChooseSide(side) for side in ("front", "back"))
    elif kind is RecallGoldenBasileus:
        yield RecallGoldenBasileus()
    elif kind is PayTribute:
        yield from (PayTribute(s) for s in _space_ids(cat, SpaceKind.ZONE, SpaceKind.HOMELAND))
    elif kind is BuildKastron:
        yield from (BuildKastron(s) for s in sites)
    elif kind is StolosArmy:
        yield from (StolosArmy(a) for a in armies)
    elif kind is EventBoon:
        yield from (EventBoon(b) for b in BOONS)
    elif kind is UseHospitals:
        yield UseHospitals()
    elif kind is FreeHospital:
        yield from (FreeHospital(s) for s in sites)
    elif kind is SendHunHome:
        yield from (SendHunHome(a) for a in armies)
    elif kind is Spend:
        yield from (Spend(r, n) for r in SPEND_RULES for n in range(MAX_TRACK + 1))
    elif kind is Pass:
        yield from (Pass(r) for r in PASS_RULES)
    elif kind is CallCouncil:
        yield from (CallCouncil(True), CallCouncil(False))
    else:  # pragma: no cover - a kind added to KINDS without its domain
        raise AssertionError(kind)


def _missions(
    cat: Catalog, targets: list[str], factions: list[str], sites: list[str]
) -> Iterator[Mission]:
    for name, (_, what) in MISSION_KINDS.items():
        if what == "army":
            yield from (Mission(name, t) for t in targets)
        elif what == "leader":
            yield from (Mission(name, t) for t in ("marker-kan", "marker-caliph"))
        elif what == "faction":
            yield from (Mission(name, f) for f in factions)
        elif what == "social":
            yield from (Mission(name, s) for s in _ids(cat, TileKind.SOCIAL))
        elif what == "colonist":
            colonists = [t.id for t in cat.tiles if t.id.startswith("marker-colonist-")]
            yield from (Mission(name, c) for c in colonists)
        elif what == "structure":
            yield from (Mission(name, s, site) for s in ("hospital", "monastery") for site in sites)
        else:
            yield Mission(name)


def _stolos_payments(paths: list[str]) -> Iterator[StolosPayment]:
    """Every way to pay a price of 1 or 2 (10.6.5): solidus, and withdrawals worth 1 each."""
    for price in (1, 2):
        for withdrawn in range(price + 1):
            for combo in combinations_with_replacement(paths, withdrawn):
                yield StolosPayment(price - withdrawn, combo)


class SooActionSpace(ActionSpace[SooState, SooAction]):
    """Sword of Orthodoxy's fixed numbering of decisions.

    The decisions are numbered kind by kind in the order of :data:`KINDS`, and within
    a kind in the order of the component files (tiles, spaces) and of the tables of
    this module (Paths Α to Ζ, attack and mission kinds...). The numbering depends
    only on the component data: the shipped components always give the same numbers.
    """

    RECORD_TYPE: ClassVar[type] = DecisionBase

    def __init__(self, game: SwordOfOrthodoxy) -> None:
        super().__init__(game)
        self.soo = game
        records: list[Decision] = []
        #: Where each kind's numbers begin, and how many it has.
        self.ranges: dict[type[Decision], range] = {}
        options = tuple(kind for kind, name in OPTION_KINDS.items() if game.options[name])
        for kind in (*KINDS, *options):
            start = len(records)
            records.extend(_domain(game.catalog, kind))
            self.ranges[kind] = range(start, len(records))
        self.records: tuple[Decision, ...] = tuple(records)
        self._numbers = {record: i for i, record in enumerate(records)}
        if len(self._numbers) != len(records):  # pragma: no cover - a programming error
            raise AssertionError("two slots of the action space hold the same decision")

    @property
    def size(self) -> int:
        return len(self.records)

    def number(self, decision: Decision) -> int:
        """The number of a typed decision (a :class:`KeyError` if it has none)."""
        return self._numbers[decision]

    def index(self, state: SooState, action: SooAction) -> int:
        return self._numbers[classify(self.soo, state, action)]

    def label(self, index: int) -> str:
        return self.records[index].words(self.soo.catalog)

    def decision(self, index: int) -> Decision:
        """The typed decision numbered ``index``."""
        return self.records[index]

    def action(self, state: SooState, index: int) -> SooAction:
        if not 0 <= index < self.size:
            return super().action(state, index)
        return engine_action(self.soo, state, self.records[index])
