"""``byzantium play GAME --interactive``: a person takes one or more seats in the terminal.

The session shows the whole state (:meth:`~byzantium.core.game.Game.render`) at the
person's first decision; after that, one status line before each decision (the
turn, the phase, treasuries and points: :meth:`~byzantium.core.game.Game.status_line`),
and the full state again on request. Each question comes with its rule
(:meth:`~byzantium.core.game.Game.decision_rule`) and in words
(:meth:`~byzantium.core.game.Game.describe_decision`), and the legal actions are
numbered, each with names rather than ids and what it costs and does
(:meth:`~byzantium.core.game.Game.describe_choice`). Choices the game marks as
throwing something away, passing or ending a phase or the game
(:meth:`~byzantium.core.game.Game.caution`) come last in the menu, with the
reason, so that ``1`` is never one of them unless nothing else is offered; the
menu's numbers are its own, the actions and their order in the game are unchanged.
A new turn or player turn (:meth:`~byzantium.core.game.Game.chronicle_heading`) is
announced before anything of it is asked or played. The person answers with a
number or a command:

``auto``
    the built-in player (the game's ``sensible`` one, else random) plays this seat
    until the set-up or the phase is over (:meth:`~byzantium.core.game.Game.stage`),
    the game ends or another seat must act; its choices and the dice come from the
    same per-step streams as the rest of the session, and ``undo`` takes all of
    them back at once;
``undo``
    back to the person's previous decision (a history of states is kept);
``save FILE``
    write the game record so far (it replays to the current state, and
    ``byzantium resume FILE`` plays on from it);
``board``, ``status``, ``view``
    show the whole state again;
``rule N``, ``why``
    our summary of rule N from the game's rule index; the rule and summary of the
    question being asked;
``n``, ``p``, ``all``, ``/TEXT``
    turn the pages of a long menu, show it whole, or keep the items containing TEXT
    (``/`` alone shows them all again); numbers keep their meaning;
``help``
    list the commands, with the game's own ways to look at the state
    (:meth:`~byzantium.core.game.Game.look`: ``map 5725``, ``stack 5725`` in Belisarius);
``quit``
    end the session (end of input does the same).

Ctrl-C asks whether to leave and offers to save the game first. Seats the person
does not take are played by a policy (the command line picks the game's ``sensible``
player when it has one). Chance nodes are sampled from the seed, or with ``--dice
manual`` the person types every roll and draw: the number of an outcome, or its text
(``3 5`` for two dice, a tile's name for a draw). Text is tried first, so for a
single die ``4`` means the face 4. Dice and policy choices at a step are drawn from a
stream seeded by the seed and the step number, so undoing and playing again meets the
same dice at the same step, and a resumed game goes on as the saved one would have.

With colour on (``--color``: on a terminal by default, never with ``NO_COLOR``;
see :func:`~byzantium.cli.terminal.colour_wanted`) headings, the status line, the
question and the cautions are coloured; otherwise the text is plain.

Bad input is answered with one short line and asked again; it never stops the session.
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Collection, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Generic, TextIO, TypeVar, cast

from byzantium.cli.common import print_result, shown
from byzantium.cli.terminal import Menu, menu_number, normal, write_numbered, write_styled
from byzantium.core.drivers import Policy, random_policy, sample
from byzantium.core.errors import RuleIndexError
from byzantium.core.game import CHANCE, TERMINAL, Event, Game
from byzantium.core.records import GameRecord, dumps_record, replay
from byzantium.core.rules import get_rulebook

__all__ = ["HELP", "Session", "decision_menu", "run_interactive"]

S = TypeVar("S")
A = TypeVar("A")

HELP = """\
Commands:
  N          choose the action (or chance outcome) numbered N
  TEXT       at a chance node with --dice manual: the outcome's text, e.g. '3 5'
  /TEXT      show only the menu items that contain TEXT ('/' shows them all)
  n, p, all  next or previous page of a long menu, or the whole menu
  auto       the built-in player finishes this set-up or phase for you
  undo       go back to your previous decision (all of an 'auto' at once)
  save FILE  write the game record so far to FILE ('byzantium resume FILE' goes on)
  board      show the whole state again ('status' and 'view' do the same)
  rule N     our summary of rule N
  why        the rule that asks the question, and its summary
  help       this list
  quit       end the session (end of input does the same; Ctrl-C asks first)
"""


def _probability(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


class _Quit(Exception):
    """The person ended the session."""


class _Undone(Exception):
    """The history went back: the current question no longer stands."""


class Session(Generic[S, A]):
    """An interactive game: the history of states and actions, and the I/O streams.

    ``seats`` are the players the person takes; the others are played by
    ``policy`` (named ``policy_name`` in messages). With ``manual_dice`` the person
    answers chance nodes too. A ``start`` record is replayed first, so that the game
    goes on from where it was saved; ``record_path`` is where the command line writes
    the record at the end (the Ctrl-C save offer mentions it). With ``colour`` the
    headings, status lines, questions and cautions are coloured.
    """

    def __init__(
        self,
        game: Game[S, A],
        *,
        seats: Collection[int],
        policy: Policy[S, A],
        manual_dice: bool,
        seed: int,
        inp: TextIO,
        out: TextIO,
        max_steps: int = 1_000_000,
        policy_name: str = "",
        start: GameRecord[A] | None = None,
        record_path: Path | None = None,
        colour: bool = False,
    ) -> None:
        self.game = game
        self.seats = frozenset(seats)
        self.policy = policy
        self.policy_name = policy_name
        self.manual_dice = manual_dice
        self.seed = seed
        self.inp = inp
        self.out = out
        self.max_steps = max_steps
        self.record_path = record_path
        #: ``states[i]`` is the state before step ``i``; the last one is the current state.
        self.states: list[S] = [game.initial_state()]
        self.actors: list[int] = []
        self.actions: list[A] = []
        self.digests: list[str] = []
        self.colour = colour
        #: The player ``auto`` puts in the person's seat.
        self.helper: Policy[S, A] = game.policies().get("sensible", random_policy)
        #: Steps ``auto`` took after its first: ``undo`` goes back past them.
        self.auto_steps: set[int] = set()
        self._heading = ""
        self._board_shown = False
        self._saved_at = -1
        if start is not None:
            self._replay(start)
        self._line_editing = _line_editing(inp, out)

    def _replay(self, record: GameRecord[A]) -> None:
        """Take over the history of a saved game (checked step by step first)."""
        replay(self.game, record)
        for actor, action in zip(record.actors, record.actions, strict=True):
            after = self.game.apply(self.state, action)
            self.states.append(after)
            self.actors.append(actor)
            self.actions.append(action)
            self.digests.append(self.game.state_digest(after))
        self._saved_at = len(self.actions)

    # -- the record ---------------------------------------------------------------

    @property
    def state(self) -> S:
        """The current state."""
        return self.states[-1]

    def record(self) -> GameRecord[A]:
        """The game record so far; it replays to the current state."""
        game = self.game
        return GameRecord(
            game=game.ID,
            options=tuple(sorted(game.options.items())),
            components=game.components_digest(),
            seed=self.seed,
            actors=tuple(self.actors),
            actions=tuple(self.actions),
            digests=tuple(self.digests),
            final=game.state_digest(self.state),
        )

    # -- the loop -------------------------------------------------------------------

    def run(self) -> None:
        """Play until the person quits or the input ends."""
        try:
            while True:
                try:
                    self._turn()
                except KeyboardInterrupt:
                    self._interrupted()
        except _Quit:
            self.out.write("Session ended.\n")

    def _interrupted(self) -> None:
        """Ctrl-C: leave (after offering to save) or go on."""
        self._tidy()
        self.out.write("\n")
        try:
            answer = self._raw_read("Leave the game? [y/N] ")
        except (KeyboardInterrupt, EOFError):
            answer = "y"
        if not answer.strip().lower().startswith("y"):
            self.out.write("Going on.\n")
            return
        self._offer_save()
        raise _Quit

    def _offer_save(self) -> None:
        """Ask for a file to save the game in, unless it is saved or will be."""
        if self.record_path is not None:
            self.out.write(f"The record will be written to {self.record_path}.\n")
            return
        if self._saved_at == len(self.actions) or not self.actions:
            return
        while True:
            try:
                name = self._raw_read("Save the game first? File name (Enter: no): ").strip()
            except (KeyboardInterrupt, EOFError):
                self.out.write("\nNot saved.\n")
                return
            if not name:
                self.out.write("Not saved.\n")
                return
            if self._save(name):
                return

    def _tidy(self) -> None:
        """Make the history consistent after an interruption in the middle of a step."""
        steps = min(len(self.states) - 1, len(self.actors), len(self.actions), len(self.digests))
        self._truncate(steps)

    def _truncate(self, steps: int) -> None:
        """Keep the first ``steps`` steps of the history."""
        del self.states[steps + 1 :]
        del self.actors[steps:]
        del self.actions[steps:]
        del self.digests[steps:]
        self.auto_steps = {i for i in self.auto_steps if i < steps}

    def _rng(self) -> random.Random:
        """The stream of the current step: its dice and any built-in player's choice."""
        return random.Random(f"byzantium:{self.seed}:step:{len(self.actions)}")

    def _turn(self) -> None:
        game, state = self.game, self.state
        actor = game.current_player(state)
        if actor == TERMINAL:
            self._game_over()
            return
        if len(self.actions) >= self.max_steps:
            self.out.write(f"Stopped after {self.max_steps} steps.\n")
            raise _Quit
        rng = self._rng()
        if actor == CHANCE:
            if self.manual_dice:
                self._ask_chance()
            else:
                self._apply(actor, sample(game.chance_outcomes(state), rng))
        elif actor in self.seats:
            self._ask_decision(actor)
        else:
            self._apply(actor, self.policy(game, state, rng))

    def _person_steps(self) -> list[int]:
        """The steps the person chose (an ``auto`` counts as its first step only)."""
        return [
            i
            for i, actor in enumerate(self.actors)
            if (actor in self.seats or (actor == CHANCE and self.manual_dice))
            and i not in self.auto_steps
        ]

    def _apply(self, actor: int, action: A) -> None:
        game, before = self.game, self.state
        step = game.step(before, action)
        digest = game.state_digest(step.state)
        self._chronicle(before, actor, action, step.events)
        self.states.append(step.state)
        self.actors.append(actor)
        self.actions.append(action)
        self.digests.append(digest)

    def _announce(self, state: S) -> None:
        """The chronicle heading of ``state`` when its first line is new: a new turn
        or player turn is announced before anything of it is played or asked."""
        title = self.game.chronicle_heading(state, self._reader())
        key = title.split("\n", 1)[0]
        if key and key != self._heading:
            self._heading = key
            self.out.write("\n")
            for number, line in enumerate(title.split("\n")):
                self._styled(line, "heading" if number == 0 else "status")
                self.out.write("\n")

    def _styled(self, text: str, style: str) -> None:
        write_styled(self.out, text, style, self.colour)

    def _chronicle(self, before: S, actor: int, action: A, events: Sequence[Event]) -> None:
        game, out = self.game, self.out
        # Every line is made for the reader: one seat of several reads only what that
        # player may know; a person holding every seat is an onlooker who sees all.
        reader = self._reader()
        self._announce(before)
        who = "chance" if actor == CHANCE else game.player_name(actor)
        text = game.describe_step(before, action, reader)
        out.write(f"{len(self.actions) + 1:>5}  {who}: {text}\n")
        for event in events:
            line = game.event_text(event, reader)
            if line is not None:
                out.write(f"       {line}\n")

    def _hiding(self) -> bool:
        """Whether the person holds one seat of several, so that others' secrets stay hidden."""
        return len(self.seats) == 1 and self.game.NUM_PLAYERS > 1

    def _reader(self) -> int | None:
        """Whose knowledge the chronicle is made from: the person's one seat, or None
        (everything) when he holds every seat."""
        return next(iter(self.seats)) if self._hiding() else None

    # -- the person's answers ---------------------------------------------------------

    def _raw_read(self, prompt: str) -> str:
        """A line from the person; EOFError at the end of the input."""
        if self._line_editing:
            return input(prompt)
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise EOFError
        if not self.inp.isatty():
            # Echo scripted answers, so that a transcript reads like a session.
            self.out.write(line if line.endswith("\n") else f"{line}\n")
        return line

    def _read(self, prompt: str) -> str:
        try:
            line = self._raw_read(prompt)
        except EOFError:
            self.out.write("\n(end of input)\n")
            if self._line_editing:
                self._offer_save()
            raise _Quit from None
        return line.strip()

    def _command(self, line: str, actor: int | None = None) -> bool:
        """Carry out a command; False when the line is not one."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q"):
            raise _Quit
        if word in ("help", "?", "h"):
            self.out.write(HELP)
            looks = self.game.look_help()
            if looks:
                width = max(len(usage) for usage, _ in looks)
                for usage, what in looks:
                    self.out.write(f"  {usage.ljust(width)}  {what}\n")
            return True
        if word in ("view", "show", "board", "status"):
            self._show_view()
            return True
        if word == "undo":
            self._undo()
            return True
        if word == "save":
            self._save(rest.strip())
            return True
        if word == "rule":
            self._rule(rest.strip())
            return True
        if word == "why":
            self._why()
            return True
        if line and actor is not None:
            answer = self.game.look(self.state, self._viewer(actor), line)
            if answer is not None:
                self.out.write(answer.rstrip("\n") + "\n")
                return True
        return False

    def _undo(self) -> None:
        steps = [i for i in self._person_steps() if i < len(self.actions)]
        if not steps:
            self.out.write("Nothing to undo.\n")
            return
        back = steps[-1]
        self._truncate(back)
        self._heading = ""
        self.out.write(f"Undone: back before step {back + 1}.\n")
        raise _Undone

    def _save(self, name: str) -> bool:
        if not name:
            self.out.write("Say where: save FILE\n")
            return False
        try:
            Path(name).write_text(dumps_record(self.game, self.record(), indent=1), "utf-8")
        except (OSError, ValueError) as exc:
            self.out.write(f"Could not save: {exc}\n")
            return False
        self._saved_at = len(self.actions)
        self.out.write(f"Record of {len(self.actions)} steps written to {name}\n")
        return True

    def _viewer(self, actor: int) -> int | None:
        if actor in self.seats:
            return actor
        if len(self.seats) == self.game.NUM_PLAYERS:
            return None
        return min(self.seats) if self.seats else None

    def _show_view(self) -> None:
        actor = self.game.current_player(self.state)
        self.out.write(f"\n{self.game.render(self.state, self._viewer(actor))}\n")
        self._board_shown = True

    def _show_status(self, actor: int) -> None:
        """The whole state at the person's first decision; one status line after."""
        if not self._board_shown:
            self._show_view()
            return
        line = self.game.status_line(self.state, self._viewer(actor))
        if line:
            self.out.write("Now: ")
            self._styled(line, "status")
            self.out.write("\n")

    def _rule(self, number: str) -> None:
        """Our summary of rule ``number`` (and of a number printed twice, both)."""
        if not number:
            self.out.write("Say which: rule N (for example 'rule 3.1').\n")
            return
        try:
            book = get_rulebook(self.game.ID)
        except RuleIndexError:
            self.out.write(f"{self.game.TITLE} has no rule index to read rules from.\n")
            return
        entries = [entry for entry in book if entry.number == number]
        if not entries:
            self.out.write(f"No rule {shown(number, 20)} in the {self.game.TITLE} rule index.\n")
        for entry in entries:
            summary = entry.summary or "(no summary written yet)"
            self.out.write(f"[{entry.number}] {entry.title}: {summary}\n")

    def _why(self) -> None:
        """The rule that asks the question pending now, with its summary."""
        state = self.state
        if self.game.is_terminal(state):
            self.out.write("The game is over: nothing is asked.\n")
            return
        rule = self.game.decision_rule(state)
        question = self.game.describe_decision(state, self._reader())
        self.out.write(f"Asked by rule {rule}{': ' if question else ''}{question}\n")
        self._rule(rule)

    def _auto(self, actor: int) -> None:
        """The built-in player plays ``actor``'s decisions (and the dice, unless the
        person types them) while the stage of the game stays the same and no other
        seat must act."""
        game = self.game
        stage = game.stage(self.state)
        first = len(self.actions)
        while len(self.actions) < self.max_steps:
            state = self.state
            who = game.current_player(state)
            if who not in (actor, CHANCE) or (who == CHANCE and self.manual_dice):
                break
            if game.stage(state) != stage:
                break
            rng = self._rng()
            if who == CHANCE:
                self._apply(CHANCE, sample(game.chance_outcomes(state), rng))
            else:
                if len(self.actions) > first:
                    self.auto_steps.add(len(self.actions))
                self._apply(actor, self.helper(game, state, rng))
        mine = sum(1 for who in self.actors[first:] if who == actor)
        dice = len(self.actions) - first - mine
        also = f", and {dice} chance steps" if dice else ""
        self.out.write(f"auto: {mine} decisions taken for {game.player_name(actor)}{also}.\n")

    def _unknown(self, line: str, size: int) -> None:
        if not line:
            self.out.write(f"Type a number from 1 to {size}, or 'help'.\n")
        elif line.lstrip("-+").isdigit():
            self.out.write(f"No such item. Type a number from 1 to {size}, or 'help'.\n")
        else:
            shown = line if len(line) <= 20 else f"{line[:20]}..."
            self.out.write(
                f"Unknown command '{shown}'. Type a number from 1 to {size}, or 'help'.\n"
            )

    def _ask_decision(self, actor: int) -> None:
        game, state = self.game, self.state
        actions = game.legal_actions(state)
        question = game.describe_decision(state, actor)
        self._announce(state)
        self._show_status(actor)
        rule = self.game.decision_rule(state)
        where = f" [{rule}]" if rule else ""
        who = game.player_name(actor)
        asks = "Your decision" if game.NUM_PLAYERS == 1 else f"{who} to decide"
        self._question(f"{asks}{where}{': ' if question else ''}{question}")
        order, menu = decision_menu(game, state, actions)
        self._show_menu(menu)
        while True:
            line = self._read(f"{who if game.NUM_PLAYERS > 1 else ''}> ")
            try:
                if line.lower() == "auto":
                    self._auto(actor)
                    return
                if self._command(line, actor):
                    continue
            except _Undone:
                return
            if menu.command(line):
                self._show_menu(menu)
                continue
            number = menu_number(line, len(actions))
            if number is None:
                self._unknown(line, len(actions))
                continue
            self._apply(actor, actions[order[number - 1]])
            return

    def _question(self, text: str) -> None:
        """The question: its first line in the question's style, its details plain."""
        first, _, details = text.partition("\n")
        self._styled(first, "question")
        self.out.write(f"\n{details}\n" if details else "\n")

    def _show_menu(self, menu: Menu) -> None:
        menu.show(self.out, self._styled if self.colour else None)

    def _ask_chance(self) -> None:
        game, state, out = self.game, self.state, self.out
        outcomes = game.chance_outcomes(state)
        question = game.describe_decision(state)
        rule = self.game.decision_rule(state)
        where = f" [{rule}]" if rule else ""
        self._announce(state)
        self._question(f"Chance{where}{': ' if question else ''}{question}")
        texts = [game.describe_choice(state, action) for action, _ in outcomes]
        pairs = zip(texts, outcomes, strict=True)
        menu = Menu([f"{text} ({_probability(p)})" for text, (_, p) in pairs])
        menu.show(out)
        while True:
            line = self._read("chance> ")
            if line.lower() == "auto":
                out.write("With --dice manual you type the dice: an outcome's number or text.\n")
                continue
            try:
                if self._command(line, CHANCE):
                    continue
            except _Undone:
                return
            if line.startswith("/") and menu.command(line):
                menu.show(out)
                continue
            chosen = _pick_outcome(line, [a for a, _ in outcomes], texts)
            if chosen is None:
                if menu.command(line):
                    menu.show(out)
                    continue
                out.write(
                    f"Type an outcome: its number (1 to {len(outcomes)}) or its text; or 'help'.\n"
                )
                continue
            self._apply(CHANCE, chosen)
            return

    def _game_over(self) -> None:
        game, out = self.game, self.out
        out.write(f"\n{game.render(self.state, None)}\n")
        print_result(cast("Game[object, object]", game), self.state, out)
        out.write("The game is over: 'undo', 'save FILE' or 'quit'.\n")
        while True:
            line = self._read("> ")
            try:
                if self._command(line):
                    continue
            except _Undone:
                return
            out.write("The game is over: 'undo', 'save FILE' or 'quit'.\n")


def decision_menu(game: Game[S, A], state: S, actions: Sequence[A]) -> tuple[list[int], Menu]:
    """The menu of a decision and, per menu item, the index of its action in
    ``actions``: the choices the game cautions against
    (:meth:`~byzantium.core.game.Game.caution`) come last, each with its reason, so
    that ``1`` never throws anything away while something else is offered. Only the
    menu's order changes; ``actions`` keeps the game's."""
    cautions = [game.caution(state, action) for action in actions]
    order = sorted(range(len(actions)), key=lambda i: bool(cautions[i]))
    texts = []
    for i in order:
        text = game.describe_choice(state, actions[i])
        texts.append(f"{text} (careful: {cautions[i]})" if cautions[i] else text)
    return order, Menu(texts, cautioned=[bool(cautions[i]) for i in order])


def _line_editing(inp: TextIO, out: TextIO) -> bool:
    """Whether answers are read with :func:`input`, with line editing and a history
    (readline, where Python has it), rather than from ``inp`` as it is."""
    if inp is not sys.stdin or out is not sys.stdout:
        return False
    try:
        if not (inp.isatty() and out.isatty()):
            return False
    except ValueError:  # pragma: no cover - a closed stream
        return False
    with contextlib.suppress(ImportError):  # Windows has no readline
        import readline  # noqa: F401, PLC0415 - only for its side effect on input()
    return True


def _write_numbered(out: TextIO, cells: Sequence[str]) -> None:
    """Numbered items, one a line, or in columns when there are many short ones."""
    write_numbered(out, cells)


def _pick_number(line: str, actions: Sequence[A]) -> A | None:
    number = menu_number(line, len(actions))
    return None if number is None else actions[number - 1]


def _pick_outcome(line: str, outcomes: Sequence[A], texts: Sequence[str]) -> A | None:
    """An outcome by its text (with or without its first word: ``roll 3 5`` or ``3 5``)
    or, failing that, by its number."""
    wanted = normal(line)
    if not wanted:
        return None
    for action, text in zip(outcomes, texts, strict=True):
        full = normal(text)
        short = full.partition(" ")[2]
        if wanted in (full, short):
            return action
    return _pick_number(line, outcomes)


def run_interactive(
    game: Game[S, A],
    *,
    seats: Collection[int],
    policy: Policy[S, A],
    manual_dice: bool,
    seed: int,
    inp: TextIO,
    out: TextIO,
    max_steps: int = 1_000_000,
    policy_name: str = "",
    start: GameRecord[A] | None = None,
    record_path: Path | None = None,
    colour: bool = False,
) -> Session[S, A]:
    """Run an interactive session reading the person's answers from ``inp``.

    Returns the session (its history and :meth:`Session.record`) once the person
    quits or the input ends. With ``start`` the session first replays that record
    and goes on from its last state.
    """
    names = ", ".join(game.player_name(p) for p in sorted(seats)) or "no seat"
    dice = "you type every roll and draw" if manual_dice else f"dice from seed {seed}"
    out.write(f"{game.TITLE}: you play {names}; {dice}. Type 'help' for the commands.\n")
    others = [game.player_name(p) for p in range(game.NUM_PLAYERS) if p not in seats]
    if others:
        how = f"the built-in policy '{policy_name}'" if policy_name else "a policy"
        out.write(f"{', '.join(others)}: played by {how}.\n")
    session = Session(
        game,
        seats=seats,
        policy=policy,
        manual_dice=manual_dice,
        seed=seed,
        inp=inp,
        out=out,
        max_steps=max_steps,
        policy_name=policy_name,
        start=start,
        record_path=record_path,
        colour=colour,
    )
    if start is not None:
        out.write(f"Resumed after {len(session.actions)} steps.\n")
    session.run()
    return session
