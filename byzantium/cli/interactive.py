"""``byzantium play GAME --interactive``: a person takes one or more seats in the terminal.

At each of the person's decisions the session shows the state as that player may see
it (:meth:`~byzantium.core.game.Game.render`), the rule that asks for the decision,
and the legal actions, numbered. The person answers with a number or a command:

``undo``
    back to the person's previous decision (a history of states is kept);
``save FILE``
    write the game record so far (it replays to the current state);
``view``
    show the state again;
``help``
    list the commands;
``quit``
    end the session (end of input does the same).

Seats the person does not take are played by a policy. Chance nodes are sampled
from the seed, or with ``--dice manual`` the person types every roll and draw: the
number of an outcome, or its text (``3 5`` for two dice, a tile's name for a draw).
Text is tried first, so for a single die ``4`` means the face 4. Dice and policy
choices at a step are drawn from a stream seeded by the seed and the step number, so
undoing and playing again meets the same dice at the same step.

Bad input is answered with a short message and asked again; it never stops the
session.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Generic, TextIO, TypeVar, cast

from byzantium.cli.common import print_result
from byzantium.core.drivers import Policy, sample
from byzantium.core.game import CHANCE, TERMINAL, Event, Game
from byzantium.core.records import GameRecord, dumps_record

__all__ = ["HELP", "Session", "run_interactive"]

S = TypeVar("S")
A = TypeVar("A")

HELP = """\
Commands:
  N          choose the action (or chance outcome) numbered N
  TEXT       at a chance node with --dice manual: the outcome's text, e.g. '3 5'
  undo       go back to your previous decision
  save FILE  write the game record so far to FILE
  view       show the state again
  help       this list
  quit       end the session (end of input does the same)
"""

#: Lists longer than this are laid out in columns when their items are short.
_LONG_LIST = 12
#: Items at most this long go in columns, four to a line.
_SHORT_ITEM = 28
_PER_LINE = 4


def _decision_prompt(state: object) -> str:
    pending = getattr(state, "pending", None)
    prompt = getattr(pending, "prompt", "")
    return prompt if isinstance(prompt, str) else ""


def _strip_prompt(text: str, prompt: str) -> str:
    suffix = f" ({prompt})"
    return text[: -len(suffix)] if prompt and text.endswith(suffix) else text


def _probability(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _normal(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


class _Quit(Exception):
    """The person ended the session."""


class Session(Generic[S, A]):
    """An interactive game: the history of states and actions, and the I/O streams.

    ``seats`` are the players the person takes; the others are played by
    ``policy``. With ``manual_dice`` the person answers chance nodes too.
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
    ) -> None:
        self.game = game
        self.seats = frozenset(seats)
        self.policy = policy
        self.manual_dice = manual_dice
        self.seed = seed
        self.inp = inp
        self.out = out
        self.max_steps = max_steps
        #: ``states[i]`` is the state before step ``i``; the last one is the current state.
        self.states: list[S] = [game.initial_state()]
        self.actors: list[int] = []
        self.actions: list[A] = []
        self.digests: list[str] = []
        self._heading = ""

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
                self._turn()
        except _Quit:
            self.out.write("Session ended.\n")

    def _turn(self) -> None:
        game, state = self.game, self.state
        actor = game.current_player(state)
        if actor == TERMINAL:
            self._game_over()
            return
        if len(self.actions) >= self.max_steps:
            self.out.write(f"Stopped after {self.max_steps} steps.\n")
            raise _Quit
        rng = random.Random(f"byzantium:{self.seed}:step:{len(self.actions)}")
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
        return [
            i
            for i, actor in enumerate(self.actors)
            if actor in self.seats or (actor == CHANCE and self.manual_dice)
        ]

    def _apply(self, actor: int, action: A) -> None:
        game, before = self.game, self.state
        step = game.step(before, action)
        self._chronicle(before, actor, action, step.events)
        self.states.append(step.state)
        self.actors.append(actor)
        self.actions.append(action)
        self.digests.append(game.state_digest(step.state))

    def _chronicle(self, before: S, actor: int, action: A, events: Sequence[Event]) -> None:
        game, out = self.game, self.out
        title = game.chronicle_heading(before)
        key = title.split("\n", 1)[0]
        if self._hiding():
            # A heading is an onlooker's view: its details may show the other's secrets.
            title = key
        if key and key != self._heading:
            self._heading = key
            out.write(f"\n{title}\n")
        who = "chance" if actor == CHANCE else game.player_name(actor)
        shown = self._visible(before, actor, action)
        text = "(hidden)" if shown is None else game.describe_action(before, shown)
        if self._hiding() and actor != CHANCE and actor not in self.seats:
            # The other player's prompt may quote his secrets (his treasury, say).
            text = _strip_prompt(text, _decision_prompt(before))
        out.write(f"{len(self.actions) + 1:>5}  {who}: {text}\n")
        for event in events:
            out.write(f"       {event}\n")

    def _hiding(self) -> bool:
        """Whether the person holds one seat of several, so that others' secrets stay hidden."""
        return len(self.seats) == 1 and self.game.NUM_PLAYERS > 1

    def _visible(self, state: S, actor: int, action: A) -> A | None:
        """The action as the person may see it (all of it when he holds every seat)."""
        del actor
        if not self._hiding():
            return action
        viewer = next(iter(self.seats))
        return self.game.visible_action(state, action, viewer)

    # -- the person's answers ---------------------------------------------------------

    def _read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n(end of input)\n")
            raise _Quit
        if not self.inp.isatty():
            # Echo scripted answers, so that a transcript reads like a session.
            self.out.write(line if line.endswith("\n") else f"{line}\n")
        return line.strip()

    def _command(self, line: str) -> bool:
        """Carry out a command; False when the line is not one."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q"):
            raise _Quit
        if word in ("help", "?", "h"):
            self.out.write(HELP)
            return True
        if word in ("view", "show"):
            self._show_view()
            return True
        if word == "undo":
            self._undo()
            return True
        if word == "save":
            self._save(rest.strip())
            return True
        return False

    def _undo(self) -> None:
        steps = [i for i in self._person_steps() if i < len(self.actions)]
        if not steps:
            self.out.write("Nothing to undo.\n")
            return
        back = steps[-1]
        del self.states[back + 1 :]
        del self.actors[back:]
        del self.actions[back:]
        del self.digests[back:]
        self._heading = ""
        self.out.write(f"Undone: back before step {back + 1}.\n")
        raise _Undone

    def _save(self, name: str) -> None:
        if not name:
            self.out.write("Say where: save FILE\n")
            return
        try:
            Path(name).write_text(dumps_record(self.game, self.record(), indent=1), "utf-8")
        except OSError as exc:
            self.out.write(f"Could not save: {exc}\n")
            return
        self.out.write(f"Record of {len(self.actions)} steps written to {name}\n")

    def _viewer(self, actor: int) -> int | None:
        if actor in self.seats:
            return actor
        if len(self.seats) == self.game.NUM_PLAYERS:
            return None
        return min(self.seats) if self.seats else None

    def _show_view(self) -> None:
        actor = self.game.current_player(self.state)
        self.out.write(f"\n{self.game.render(self.state, self._viewer(actor))}\n")

    def _ask_decision(self, actor: int) -> None:
        game, state, out = self.game, self.state, self.out
        actions = game.legal_actions(state)
        prompt = _decision_prompt(state)
        self._show_view()
        rule = self.game.decision_rule(state)
        where = f" [{rule}]" if rule else ""
        out.write(f"{game.player_name(actor)} to decide{where}{': ' if prompt else ''}{prompt}\n")
        texts = [_strip_prompt(game.describe_action(state, a), prompt) for a in actions]
        _write_numbered(out, [f"{i:>3}. {t}" for i, t in enumerate(texts, 1)])
        while True:
            line = self._read(f"{game.player_name(actor)}> ")
            try:
                if self._command(line):
                    continue
            except _Undone:
                return
            chosen = _pick_number(line, actions)
            if chosen is None:
                out.write(f"Type a number from 1 to {len(actions)}, or 'help'.\n")
                continue
            self._apply(actor, chosen)
            return

    def _ask_chance(self) -> None:
        game, state, out = self.game, self.state, self.out
        outcomes = game.chance_outcomes(state)
        prompt = _decision_prompt(state)
        rule = self.game.decision_rule(state)
        where = f" [{rule}]" if rule else ""
        out.write(f"Chance{where}{': ' if prompt else ''}{prompt}\n")
        texts = [_outcome_text(game, state, action, prompt) for action, _ in outcomes]
        cells = [
            f"{i:>3}. {text} ({_probability(p)})"
            for i, (text, (_, p)) in enumerate(zip(texts, outcomes, strict=True), 1)
        ]
        _write_numbered(out, cells)
        while True:
            line = self._read("chance> ")
            try:
                if self._command(line):
                    continue
            except _Undone:
                return
            chosen = _pick_outcome(line, [a for a, _ in outcomes], texts)
            if chosen is None:
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


class _Undone(Exception):
    """The history went back: the current question no longer stands."""


def _write_numbered(out: TextIO, cells: Sequence[str]) -> None:
    """Numbered items, one a line, or in columns when there are many short ones."""
    width = max((len(c) for c in cells), default=0)
    per_line = _PER_LINE if len(cells) > _LONG_LIST and width <= _SHORT_ITEM else 1
    for start in range(0, len(cells), per_line):
        row = cells[start : start + per_line]
        out.write("  " + "  ".join(c.ljust(width) for c in row).rstrip() + "\n")


def _pick_number(line: str, actions: Sequence[A]) -> A | None:
    if line.isdigit() and 1 <= int(line) <= len(actions):
        return actions[int(line) - 1]
    return None


def _outcome_text(game: Game[S, A], state: S, action: A, prompt: str) -> str:
    return _strip_prompt(game.describe_action(state, action), prompt)


def _pick_outcome(line: str, outcomes: Sequence[A], texts: Sequence[str]) -> A | None:
    """An outcome by its text (with or without its first word: ``roll 3 5`` or ``3 5``)
    or, failing that, by its number."""
    wanted = _normal(line)
    if not wanted:
        return None
    for action, text in zip(outcomes, texts, strict=True):
        full = _normal(text)
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
) -> Session[S, A]:
    """Run an interactive session reading the person's answers from ``inp``.

    Returns the session (its history and :meth:`Session.record`) once the person
    quits or the input ends.
    """
    names = ", ".join(game.player_name(p) for p in sorted(seats))
    dice = "you type every roll and draw" if manual_dice else f"dice from seed {seed}"
    out.write(f"{game.TITLE}: you play {names}; {dice}. Type 'help' for the commands.\n")
    session = Session(
        game,
        seats=seats,
        policy=policy,
        manual_dice=manual_dice,
        seed=seed,
        inp=inp,
        out=out,
        max_steps=max_steps,
    )
    session.run()
    return session
