"""Intelligence and fog of war (22.0-22.2): what one player may see of a state.

Everything on the map is public (22.0): every counter and its face, the control of
every Region, the Pillaged, Colony and Public Works markers, the turn and phase. What
is secret is each player's hand of Stratagem markers and his treasury; the other
player sees only how many markers a hand holds (and how many the Pool holds), until a
Diplomacy result or a Stratagem lets him examine them (22.1, ``BelState.revealed``).

:func:`observe` builds a :class:`BelObservation`, a frozen record that encodes with
:mod:`byzantium.core.codec` like a state. The pending request is shown without its
procedure step, which may carry secrets: of the markers put face down for a
Diplomacy attempt (9.1) the observer sees his own and only the number of the other's.
The player who must choose sees the prompt and his options; the other player sees
only who must choose under which rule, since a prompt may quote the chooser's
treasury. Prompts of rolls and draws are public. The stack of steps still to come is
not shown.

Who is asked, and under which rule, is public too (so is an OpenSpiel state's current
player): no question may be put or skipped because of what a hand or a treasury holds.
A question about playing a marker is put whenever the public situation allows the
play (:func:`byzantium.belisarius.stratagems.may_offer`); the hand decides only the
options, and a player without the marker may only decline (22.1, see the rulings).

Random picks of Stratagem markers are chance actions naming the marker type, and a
marker committed face down to a Diplomacy attempt is a choice naming it: a record of
the game shows them to everybody. A frontend that shows a player the actions of a
game must pass them through :func:`visible_action`, which hides the type of a marker
that goes into, or out of, the other player's hand, and of a marker the other player
commits face down, and the steps of an offer the other player is building under the
optional Player Negotiations (24.1; the offer shows once it is made, and agreements in
force are public). Event texts are filtered by their owner instead: an event that
tells one player's secret (his treasury after Taxation, 10.11; what Corruption took
from it, 6.2; an offer he built and withdrew, 24.0) is his, with a public form for
the other (:meth:`byzantium.core.game.Event.seen_by`,
:meth:`byzantium.core.game.Game.event_text`).

22.2 (a player may show his markers and treasury to the other whenever he likes) is
a matter between the players: the engine has nothing to enforce and implements
nothing for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from byzantium.belisarius import RULES
from byzantium.belisarius.diplomacy import ATTACK, DEFENCE, HIDDEN, DiplomacyAttempt, conceal
from byzantium.belisarius.engine import Context
from byzantium.belisarius.negotiations import Proposal, hidden_step, shown_proposal
from byzantium.belisarius.scenarios import Control
from byzantium.belisarius.state import (
    NOBODY,
    PLAYERS,
    Agreement,
    BelAction,
    BelState,
    Draw,
    Ending,
    Markers,
    Request,
    RequestKind,
    Select,
    Units,
    opponent,
)
from byzantium.belisarius.stratagems import ReturnStratagem
from byzantium.core.game import SPECTATOR

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius

__all__ = [
    "BelObservation",
    "PendingView",
    "draw_recipient",
    "examines",
    "observe",
    "visible_action",
]


@attrs.frozen
class PendingView:
    """What the game waits for, as one player may see it.

    ``prompt`` and ``options`` of a choice are given only to the player who must
    choose (``prompt`` is empty for the other). ``commitments`` holds, per player, the
    Stratagem marker types committed to the Diplomacy attempt being settled (9.1); the
    other player's read :data:`~byzantium.belisarius.diplomacy.HIDDEN` until the
    reveal, so that only their number shows.
    """

    kind: RequestKind
    rule: str
    prompt: str
    player: int
    dice: int
    hand: int
    options: tuple[BelAction, ...] = ()
    commitments: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    #: The offer of a pending negotiation (24.1): shown to its proposer while he builds
    #: it, to both players once it is offered.
    proposal: Proposal | None = None


@attrs.frozen
class BelObservation:
    """One player's view of a state of Belisarius (22.0, 22.1).

    ``hand`` and ``treasury`` are the observer's own; ``other_hand`` and
    ``other_treasury`` the other player's, or ``None`` while he may not examine them.
    Hands are counts per Stratagem type in the catalogue's order. The spectator
    (``player`` is :data:`~byzantium.core.game.SPECTATOR`) holds nothing and sees no
    hand and no treasury: all four are ``None``.
    """

    player: int
    turn: int
    phasing: int
    phase: str
    units: Units
    control: tuple[Control, ...]
    markers: Markers
    barred: frozenset[str]
    revealed: tuple[bool, bool]
    pool_size: int
    hand_sizes: tuple[int, int]
    hand: tuple[int, ...] | None
    treasury: int | None
    other_hand: tuple[int, ...] | None
    other_treasury: int | None
    pending: PendingView | None
    ending: Ending | None
    #: Agreements in force this game turn (24.1): public.
    agreements: tuple[Agreement, ...] = ()


@RULES.implements("22.0", "22.1")
def observe(ctx: Context, state: BelState, player: int) -> BelObservation:
    """What ``player`` may see of ``state``: the board, his own secrets, counts of the other's.

    The other player's hand and treasury are shown only while ``state.revealed``
    allows it (22.1). The :data:`~byzantium.core.game.SPECTATOR` sees the board and
    the counts only: no hand, no treasury, no prompt of a choice.
    """
    del ctx
    spectator = player == SPECTATOR
    other = opponent(player)
    sees = not spectator and state.revealed[player]
    stratagems = state.stratagems
    return BelObservation(
        player=player,
        turn=state.turn,
        phasing=state.phasing,
        phase=state.phase,
        units=state.units,
        control=state.control,
        markers=state.markers,
        barred=state.barred,
        revealed=state.revealed,
        pool_size=sum(stratagems.pool),
        hand_sizes=(stratagems.held(0), stratagems.held(1)),
        hand=None if spectator else stratagems.hands[player],
        treasury=None if spectator else state.solidus[player],
        other_hand=stratagems.hands[other] if sees else None,
        other_treasury=state.solidus[other] if sees else None,
        pending=None if state.pending is None else _pending_view(state, state.pending, player),
        ending=state.ending,
        agreements=state.agreements,
    )


def _pending_view(state: BelState, request: Request, player: int) -> PendingView:
    choice = request.kind is RequestKind.CHOOSE
    chooser = choice and request.player == player
    return PendingView(
        kind=request.kind,
        rule=request.rule,
        prompt=request.prompt if chooser or not choice else "",
        player=request.player,
        dice=request.dice,
        hand=request.hand,
        options=request.options if chooser else (),
        commitments=_commitments(state, request, player),
        proposal=shown_proposal(request, player),
    )


def _commitments(
    state: BelState, request: Request, player: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Diplomacy markers of the attempt being settled (9.1): the other's face down."""
    del state
    task = request.task
    if not isinstance(task, DiplomacyAttempt):
        return ((), ())
    seen = conceal(task, player)
    assert isinstance(seen, DiplomacyAttempt)
    by_player = {seen.attacker: seen.attack, seen.defender: seen.defence}
    return by_player[0], by_player[1]


def examines(state: BelState, reader: int) -> bool:
    """Whether ``reader`` may examine the other player's markers and treasury now
    (22.1): never the spectator."""
    return reader in PLAYERS and state.revealed[reader]


def draw_recipient(request: Request) -> int:
    """Whose hand a random Stratagem marker goes into or comes out of (NOBODY if unknown).

    A loss at random names the hand drawn from (8.51); a pick from the Pool is made
    for the player of the step that asked (8.1).
    """
    if request.hand != NOBODY:
        return request.hand
    owner = getattr(request.task, "player", NOBODY)
    return owner if isinstance(owner, int) else NOBODY


@RULES.implements("22.1")
def visible_action(
    game: Belisarius, state: BelState, action: BelAction, player: int
) -> BelAction | None:
    """``action`` (applied to ``state``) as ``player`` may see it.

    Hidden from him unless he may examine the other's markers (22.1): the type of a
    random Stratagem marker picked for, or lost from, the other player's hand (a
    :class:`~byzantium.belisarius.state.Draw` of
    :data:`~byzantium.belisarius.diplomacy.HIDDEN`), and the type of a marker the
    other player commits face down to a Diplomacy attempt (a
    :class:`~byzantium.belisarius.state.Select` of ``HIDDEN``; those stay hidden until
    the reveal, even from a player who may examine the other's hand), the type of a
    marker the other player returns to the Pool unplayed to make room (8.3, a
    :class:`~byzantium.belisarius.state.Select` of ``HIDDEN``), and each step of
    an offer the other player is building (24.1, until he offers it). Every other
    action is public and comes back unchanged. ``None`` is never returned today; it is
    reserved for actions a player may not learn of at all.
    """
    del game
    request = state.pending
    if request is None:
        return action
    if isinstance(action, Draw) and request.kind is RequestKind.DRAW:
        owner = draw_recipient(request)
        if owner in (NOBODY, player) or examines(state, player):
            return action
        return Draw(HIDDEN)
    if isinstance(action, Select) and request.kind is RequestKind.CHOOSE:
        task = request.task
        if (
            isinstance(task, DiplomacyAttempt)
            and request.player != player
            and task.stage in (ATTACK, DEFENCE)
        ):
            return Select(HIDDEN)
        if hidden_step(request, player):
            return Select(HIDDEN)
        if (
            isinstance(task, ReturnStratagem)
            and request.player != player
            and not examines(state, player)
        ):
            return Select(HIDDEN)  # markers go back to the Pool unseen (8.3, 22.1)
    return action
