"""The game logic of the server, without HTTP: create, join, view, act, and the worker
that takes the steps of chance and of the built-in players.

:class:`Sessions` holds a :class:`~byzantium.server.store.Store` and the library. It is
called from worker threads of the web server (every method blocks), never from its
event loop. Every answer is a JSON-ready ``dict``; every refusal a
:class:`ServerError` with the HTTP status, a short code and one sentence (and the rule,
for an illegal action).

Secrecy (22.1 for Belisarius): every text, observation and picture handed out is made
for its reader, a seat or :data:`~byzantium.core.game.SPECTATOR`, by the library's
per-reader methods; the chronicle of each step is written per reader when the step is
committed. The state itself, the seed and the tokens never leave the server. A seat
token is 32 random bytes; the store keeps only its SHA-256 digest, and a token is
compared with every seat's digest in constant time (:func:`hmac.compare_digest`).

Chance and the built-in players draw from a generator seeded by the game's seed and
the number of the step (``seed``, ``seq``), so a restarted server draws the same dice
and makes the same moves; :meth:`Sessions.resume` restarts the worker on every game in
play whose next step is not a person's.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Final, TypeVar

import attrs

from byzantium.core.codec import DecodeError, JSONValue, codec_for, loads_json
from byzantium.core.drivers import random_policy, sample
from byzantium.core.errors import (
    ByzantiumError,
    IllegalActionError,
    InvalidStateError,
    RecordError,
    RuleIndexError,
    UnknownGameError,
    UnknownOptionError,
)
from byzantium.core.game import CHANCE, SPECTATOR, Event, Game
from byzantium.core.records import GameRecord, check_record, record_to_json, state_from_json
from byzantium.core.registry import available_games, game_class, load_game
from byzantium.core.rules import get_rulebook
from byzantium.core.schema import observation_type
from byzantium.render import board as board_layer
from byzantium.render import layers
from byzantium.render.belisarius import Pieces
from byzantium.render.targets import action_targets
from byzantium.server.store import GameRow, StepRow, Store

__all__ = [
    "OPEN",
    "PERSON",
    "SPECTATOR_KEY",
    "ServerError",
    "Sessions",
    "token_digest",
]

#: A seat played by a person who holds its token from the game's creation.
PERSON: Final = "person"
#: A seat for a person who takes it with ``join``.
OPEN: Final = "open"
#: The key of the spectator's lines in a step's stored chronicle.
SPECTATOR_KEY: Final = "spectator"
#: The options key (never an option's name) marking a game begun from a given position.
_FROM_POSITION: Final = "@from_position"
#: The server plays with its own components: a client may not name a directory.
_SERVER_ONLY_OPTIONS: Final = frozenset({"components"})
#: The most steps the worker takes before committing what it has (the watchers see
#: the game move on), and the longest it computes before committing.
_BATCH: Final = 32
_BATCH_SECONDS: Final = 0.25
#: The most chronicle entries one view carries (the latest ones).
MAX_CHRONICLE: Final = 200
#: The longest page of the game list.
MAX_LIST: Final = 200
#: The most outcomes a chance step's odds list in the chronicle (as the record viewer).
MAX_ODDS: Final = 40
#: The key, beside the readers' keys, of the odds in a step's stored chronicle.
_ODDS_KEY: Final = "odds"
#: The most games whose drawn picture parts are kept (the least recently drawn go).
KEPT_PIECES: Final = 256

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
AnyGame = Game[object, object]


class ServerError(ByzantiumError):
    """A request the server refuses: ``status`` (4xx), ``code`` (a short tag), one
    sentence, and the rule that forbids an illegal action."""

    def __init__(self, status: int, code: str, message: str, *, rule: str = "") -> None:
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        super().__init__(message)

    def body(self) -> dict[str, JSONValue]:
        """The JSON error object of the protocol."""
        found: dict[str, JSONValue] = {"error": self.message, "code": self.code}
        if self.rule:
            found["rule"] = self.rule
        return found


class _Cache(OrderedDict[K, V]):
    """A small least-recently-used map, safe across threads."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.lock = threading.Lock()

    def find(self, key: K) -> V | None:
        with self.lock:
            if key not in self:
                return None
            self.move_to_end(key)
            return self[key]

    def keep(self, key: K, value: V) -> V:
        with self.lock:
            self[key] = value
            self.move_to_end(key)
            while len(self) > self.size:
                self.popitem(last=False)
        return value

    def find_or_keep(self, key: K, make: Callable[[], V]) -> V:
        """The value of ``key``, made by ``make()`` and kept if there is none (one
        value per key, however many threads ask at once)."""
        with self.lock:
            if key in self:
                self.move_to_end(key)
                return self[key]
            value = self[key] = make()
            while len(self) > self.size:
                self.popitem(last=False)
            return value


@attrs.frozen
class _Kept:
    """The picture parts drawn of one game, and the lock its drawers take in turn (a
    :class:`~byzantium.render.belisarius.Pieces` is not safe across threads)."""

    pieces: Pieces = attrs.field(factory=Pieces)
    lock: threading.Lock = attrs.field(factory=threading.Lock)


def token_digest(token: str) -> str:
    """The hex SHA-256 digest under which a seat token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _new_token() -> tuple[str, str]:
    token = secrets.token_urlsafe(32)
    return token, token_digest(token)


def _reader_key(reader: int) -> str:
    return SPECTATOR_KEY if reader == SPECTATOR else str(reader)


def _int(value: object) -> bool:
    return type(value) is int


def _policy_names(game: AnyGame) -> list[str]:
    return ["random", *sorted(game.policies())]


class Sessions:
    """The server's games (see the module documentation)."""

    def __init__(
        self,
        store: Store,
        *,
        workers: int = 2,
        cache_size: int = 64,
        picture_cache_size: int = 64,
        kept_pieces: int = KEPT_PIECES,
    ) -> None:
        self.store = store
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="byzantium-play")
        self._games: _Cache[str, AnyGame] = _Cache(16)
        self._states: _Cache[tuple[str, int], object] = _Cache(cache_size)
        self._pictures: _Cache[tuple[str, int, int], tuple[str | None, str]] = _Cache(
            picture_cache_size
        )
        self._boards: _Cache[str, str | None] = _Cache(8)
        #: Each live game's drawn picture parts (issue 38: an act's overlay is drawn
        #: from them in a fraction of the time).
        self._pieces: _Cache[str, _Kept] = _Cache(kept_pieces)
        self._records: _Cache[str, dict[str, JSONValue]] = _Cache(16)
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._lock = threading.Lock()
        self._closed = False
        #: Called with (game id, message) when the worker fails on a game (logging).
        self.on_error: Callable[[str, str], None] = lambda game_id, message: None

    # -- the lobby ---------------------------------------------------------------------

    def catalogue(self) -> dict[str, JSONValue]:
        """What the lobby offers: each game, its seats, scenarios, options and players."""
        games: list[JSONValue] = []
        for name in available_games():
            cls = game_class(name)
            game = self._game(name, {})
            options: list[JSONValue] = []
            scenarios: list[JSONValue] = []
            for spec in cls.OPTIONS:
                if spec.name in _SERVER_ONLY_OPTIONS:
                    continue
                entry: dict[str, JSONValue] = {
                    "name": spec.name,
                    "default": spec.default,
                    "help": spec.help,
                }
                if spec.choices:
                    entry["choices"] = list(spec.choices)
                if spec.name == "scenario":
                    scenarios = list(spec.choices)
                options.append(entry)
            policies: list[JSONValue] = [*_policy_names(game)]
            games.append(
                {
                    "game": name,
                    "name": cls.TITLE,
                    "seats": [game.player_name(p) for p in range(cls.NUM_PLAYERS)],
                    "scenarios": scenarios,
                    "options": options,
                    "policies": policies,
                }
            )
        return {"games": games}

    def create(self, body: object, *, state: object = None) -> dict[str, JSONValue]:
        """A new game from a request body (``game``, ``options``, ``seats``, ``seed``,
        optionally ``state``: a saved position to begin from); the answer holds the
        public game info and one token per ``person`` seat. ``state`` (a state of the
        game, not JSON) begins the game there: for tests and tools in this process."""
        if not isinstance(body, dict):
            raise ServerError(400, "bad-request", "the body must be a JSON object")
        unknown = sorted(set(body) - {"game", "options", "seats", "seed", "state"})
        if unknown:
            raise ServerError(400, "bad-request", f"unknown field {str(unknown[0])[:40]!r}")
        name = body.get("game")
        if not isinstance(name, str):
            raise ServerError(400, "bad-request", "'game' must be a game id (a string)")
        if name not in available_games():
            known = ", ".join(available_games())
            raise ServerError(404, "unknown-game", f"no game {name[:40]!r}; games: {known}")
        given = body.get("options", {})
        if not isinstance(given, dict):
            raise ServerError(400, "bad-request", "'options' must be a JSON object")
        refused = sorted(set(given) & _SERVER_ONLY_OPTIONS)
        if refused:
            raise ServerError(
                400, "bad-option", f"option {refused[0]!r} is the server's to set, not a client's"
            )
        try:
            options = game_class(name).resolve_options(given)
            game = self._game(name, options)
        except (UnknownOptionError, UnknownGameError) as error:
            raise ServerError(400, "bad-option", str(error)) from None
        except ByzantiumError as error:
            raise ServerError(400, "bad-option", str(error)[:200]) from None
        seats = self._seats(game, body.get("seats"))
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(63)
        elif not _int(seed) or not 0 <= seed < 2**63:
            raise ServerError(400, "bad-request", "'seed' must be an integer from 0 to 2**63-1")
        assert isinstance(seed, int)
        if "state" in body:
            state = self._position(game, body["state"])
        start = game.initial_state() if state is None else state
        if state is not None:
            game.check_state(state)
        stored: dict[str, JSONValue] = dict(options)
        if state is not None:
            stored[_FROM_POSITION] = True
        tokens: dict[str, JSONValue] = {}
        digests: list[str | None] = []
        for index, seat in enumerate(seats):
            if seat == PERSON:
                token, digest = _new_token()
                tokens[str(index)] = token
                digests.append(digest)
            elif seat == OPEN:
                digests.append(None)
            else:
                digests.append("")  # a built-in player: no token opens it
        now = time.time()
        row = GameRow(
            game_id=secrets.token_hex(8),
            game=name,
            options=json.dumps(stored, sort_keys=True),
            seats=json.dumps([{"player": s} for s in seats]),
            token_digests=tuple(digests),
            seed=seed,
            seq=0,
            state=json.dumps(game.encode_state(start), separators=(",", ":")),
            status="over" if game.is_terminal(start) else "playing",
            created=now,
            updated=now,
        )
        self.store.create(row)
        self._states.keep((row.game_id, 0), start)
        self.schedule(row.game_id)
        return {**self._info(row, game, start), "tokens": tokens}

    def _position(self, game: AnyGame, data: object) -> object:
        try:
            found, state = state_from_json(data, game)  # type: ignore[arg-type]
        except (RecordError, DecodeError, InvalidStateError) as error:
            raise ServerError(
                400, "bad-state", f"not a position of this game: {error}"[:300]
            ) from None
        except ByzantiumError as error:
            raise ServerError(400, "bad-state", str(error)[:300]) from None
        if found.options != game.options:
            raise ServerError(400, "bad-state", "the position was saved with other options")
        return state

    def _seats(self, game: AnyGame, given: object) -> list[str]:
        if given is None:
            return [PERSON] * game.NUM_PLAYERS
        if not isinstance(given, list) or len(given) != game.NUM_PLAYERS:
            raise ServerError(
                400, "bad-request", f"'seats' must list {game.NUM_PLAYERS} seat(s) of {game.ID}"
            )
        allowed = [PERSON, OPEN, *_policy_names(game)]
        seats: list[str] = []
        for seat in given:
            player = seat.get("player") if isinstance(seat, dict) else None
            if not isinstance(player, str) or player not in allowed:
                raise ServerError(
                    400, "bad-request", f"each seat is {{'player': one of {', '.join(allowed)}}}"
                )
            seats.append(player)
        return seats

    def join(self, game_id: str, body: object) -> dict[str, JSONValue]:
        """Take an open seat: its token."""
        row = self._row(game_id)
        if not isinstance(body, dict) or not _int(body.get("seat")):
            raise ServerError(400, "bad-request", "the body must be {'seat': N}")
        seat = body["seat"]
        kinds = self._seat_kinds(row)
        if not 0 <= seat < len(kinds):
            raise ServerError(404, "unknown-seat", f"the game has seats 0 to {len(kinds) - 1}")
        if kinds[seat] != OPEN:
            raise ServerError(409, "seat-taken", f"seat {seat} is not open to join")
        if row.status != "playing":
            raise ServerError(409, "game-over", "the game is over")
        token, digest = _new_token()
        if not self.store.take_seat(game_id, seat, digest):
            raise ServerError(409, "seat-taken", f"seat {seat} is taken")
        return {"seat": seat, "token": token}

    def games(self, *, limit: int = 50, offset: int = 0) -> dict[str, JSONValue]:
        """Public facts of the games, newest first."""
        if not 0 < limit <= MAX_LIST or not 0 <= offset < 2**31:
            raise ServerError(400, "bad-request", f"limit is 1 to {MAX_LIST}, offset 0 or more")
        rows = self.store.games(limit=limit, offset=offset)
        found: list[JSONValue] = [self._info(row, *self._loaded(row)) for row in rows]
        return {"games": found}

    def info(self, game_id: str) -> dict[str, JSONValue]:
        """Public facts of one game."""
        row = self._row(game_id)
        return self._info(row, *self._loaded(row))

    def _info(self, row: GameRow, game: AnyGame, state: object) -> dict[str, JSONValue]:
        kinds = self._seat_kinds(row)
        return {
            "game_id": row.game_id,
            "game": row.game,
            "name": game.TITLE,
            "options": dict(game.options),
            "options_text": game.describe_options(),
            "from_position": _FROM_POSITION in json.loads(row.options),
            "seats": [
                {
                    "seat": k,
                    "name": game.player_name(k),
                    "player": kind,
                    "taken": kind not in (PERSON, OPEN) or row.token_digests[k] is not None,
                }
                for k, kind in enumerate(kinds)
            ],
            "seq": row.seq,
            "status": row.status,
            "to_act": self._to_act(game, state),
            "heading": game.chronicle_heading(state, SPECTATOR),
            "created": row.created,
        }

    # -- one reader's view ---------------------------------------------------------------

    def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat a token opens (None for no token: the spectator); 401 for a token
        that opens no seat of this game."""
        row = self._row(game_id)
        return self._seat(row, token)

    def _seat(self, row: GameRow, token: str | None) -> int | None:
        if token is None:
            return None
        digest = token_digest(token)
        found = None
        for seat, stored in enumerate(row.token_digests):
            # Every seat is compared, each in constant time.
            if stored and hmac.compare_digest(stored, digest):
                found = seat
        if found is None:
            raise ServerError(401, "bad-token", "the token opens no seat of this game")
        return found

    def view(
        self, game_id: str, token: str | None, *, since: int | None = None, picture: bool = True
    ) -> dict[str, JSONValue]:
        """The view of the token's seat (the spectator's without a token)."""
        row = self._row(game_id)
        seat = self._seat(row, token)
        return self.view_of(row, seat, since=since, picture=picture)

    def view_seat(
        self, game_id: str, seat: int | None, *, since: int | None = None, picture: bool = True
    ) -> dict[str, JSONValue]:
        """The view of ``seat`` (None: the spectator), whose token was checked before."""
        return self.view_of(self._row(game_id), seat, since=since, picture=picture)

    def view_of(
        self, row: GameRow, seat: int | None, *, since: int | None = None, picture: bool = True
    ) -> dict[str, JSONValue]:
        """The view of ``seat`` (None: the spectator) of the stored game ``row``."""
        if since is not None and (not _int(since) or since < 0):
            raise ServerError(400, "bad-request", "'since' must be a step number, 0 or more")
        game, state = self._loaded(row)
        reader = SPECTATOR if seat is None else seat
        to_act = self._to_act(game, state)
        first = max(since or 0, row.seq - MAX_CHRONICLE)
        chronicle: list[JSONValue] = []
        if first < row.seq:
            key = _reader_key(reader)
            for step in self.store.steps(row.game_id, after=first):
                if step.seq > row.seq:
                    break
                stored = json.loads(step.chronicle)
                entry: dict[str, JSONValue] = {
                    "seq": step.seq,
                    "actor": step.actor,
                    "lines": stored.get(key, []),
                }
                odds = stored.get(_ODDS_KEY, {}).get(key)
                if odds is not None:
                    entry["odds"] = odds
                chronicle.append(entry)
        view: dict[str, JSONValue] = {
            "game_id": row.game_id,
            "seq": row.seq,
            "seat": seat,
            "status": row.status,
            "to_act": to_act,
            "heading": game.chronicle_heading(state, reader),
            "status_line": self._status_line(game, state, row),
            "observation": self._observation(game, state, reader),
            "question": (
                self._question(game, state, seat) if seat is not None and seat == to_act else None
            ),
            "chronicle": chronicle,
            "chronicle_from": first,
            "picture": self._picture(row, game, state, reader) if picture else None,
            "result": self._result(game, state),
        }
        return view

    def _to_act(self, game: AnyGame, state: object) -> int | None:
        if game.is_terminal(state):
            return None
        actor = game.current_player(state)
        return None if actor == CHANCE else actor

    def _status_line(self, game: AnyGame, state: object, row: GameRow) -> str:
        if game.is_terminal(state):
            return "The game is over."
        actor = game.current_player(state)
        if actor == CHANCE:
            return "Chance decides (the server draws it)."
        kind = self._seat_kinds(row)[actor]
        who = game.player_name(actor)
        if kind in (PERSON, OPEN):
            return f"{who} to act."
        return f"{who} to act (the built-in {kind} player)."

    def _observation(self, game: AnyGame, state: object, reader: int) -> JSONValue:
        seen = game.observation(state, reader)
        return codec_for(observation_type(game)).encode(seen)

    def _question(self, game: AnyGame, state: object, seat: int) -> JSONValue:
        try:
            space = game.action_space()
        except NotImplementedError:
            space = None
        rule = game.decision_rule(state)
        actions: list[JSONValue] = []
        legal = game.legal_actions(state)
        numbers = space.indices(state) if space is not None else [None] * len(legal)
        for index, (action, number) in enumerate(zip(legal, numbers, strict=True)):
            actions.append(
                {
                    "index": index,
                    "number": number,
                    "action": game.encode_action(action),
                    "text": game.describe_choice(state, action, seat),
                    # What the action names on the seat's picture (issue 39: a client
                    # picks it with a click there).
                    "targets": list(action_targets(game, state, action)),
                    # Why to think twice (Game.caution): the page lists such choices
                    # last, so that the first choice, which takes the keyboard's focus,
                    # never passes or throws something away.
                    "caution": game.caution(state, action),
                }
            )
        return {
            "seat": seat,
            "text": game.describe_decision(state, seat),
            "rule": rule,
            "rule_summary": _summary(game.ID, rule),
            "actions": actions,
        }

    def _result(self, game: AnyGame, state: object) -> JSONValue:
        if not game.is_terminal(state):
            return None
        result = game.result(state)
        scores = result.points or result.scores
        return {
            "text": list(game.chronicle_summary(state)),
            "winners": list(result.winners),
            "level": result.level,
            "reason": result.reason,
            "rule": result.rule,
            "scores": [float(s) for s in scores],
        }

    def _picture(self, row: GameRow, game: AnyGame, state: object, reader: int) -> JSONValue:
        key = (row.game_id, row.seq, reader)
        found = self._pictures.find(key)
        if found is None:
            kept = self._pieces.find_or_keep(row.game_id, _Kept)
            with kept.lock:
                drawn = layers(game, state, reader, pieces=kept.pieces)
            found = self._pictures.keep(key, drawn)
        board, overlay = found
        url = None if board is None else f"/api/games/{row.game_id}/board.svg"
        return {"board": url, "overlay": overlay}

    def board(self, game_id: str) -> str:
        """The static picture layer of a game (404 for a game whose pictures have none)."""
        row = self._row(game_id)
        game = self._game_of(row)
        key = game.ID + game.components_digest()
        found = self._boards.find(key)
        if found is None and key not in self._boards:
            found = self._boards.keep(key, board_layer(game))
        if found is None:
            raise ServerError(404, "no-board", f"{game.TITLE}'s pictures have no static layer")
        return found

    # -- acting ------------------------------------------------------------------------

    def act(
        self, game_id: str, token: str | None, body: object, *, picture: bool = True
    ) -> dict[str, JSONValue]:
        """A seat's decision: committed before the answer, then the worker moves the
        game on to the next person's decision. The answer holds the seat's view
        (without its picture if ``picture`` is false), its chronicle from the step
        answered on."""
        row = self._row(game_id)
        if token is None:
            raise ServerError(401, "no-token", "acting needs the seat's token (Authorization)")
        seat = self._seat(row, token)
        assert seat is not None
        if not isinstance(body, dict):
            raise ServerError(400, "bad-request", "the body must be a JSON object")
        seq = body.get("seq")
        if not _int(seq):
            raise ServerError(400, "bad-request", "'seq' must be the view's step number")
        given = [k for k in ("action", "number", "index") if k in body]
        if len(given) != 1 or set(body) - {"seq", "action", "number", "index"}:
            raise ServerError(
                400, "bad-request", "give 'seq' and one of 'action', 'number' or 'index'"
            )
        if row.status != "playing":
            raise ServerError(409, "game-over", "the game is over")
        if seq != row.seq:
            raise ServerError(409, "stale", f"the game is at step {row.seq}, not {seq}")
        game, state = self._loaded(row)
        actor = game.current_player(state)
        if actor != seat:
            whose = "chance" if actor == CHANCE else game.player_name(actor)
            raise ServerError(403, "not-your-turn", f"it is {whose}'s turn, not this seat's")
        action = self._decode(game, state, given[0], body[given[0]])
        try:
            game.check_action(state, action)
        except IllegalActionError as error:
            raise ServerError(422, "illegal", str(error)[:300], rule=error.rule) from None
        step = game.step(state, action)
        new = step.state
        chronicle = self._chronicle(game, state, actor, action, step.events)
        rows = [StepRow(row.seq + 1, actor, json.dumps(game.encode_action(action)), chronicle)]
        status = "over" if game.is_terminal(new) else "playing"
        encoded = self._encode(game, new)
        if not self.store.advance(game_id, row.seq, rows, encoded, status):
            raise ServerError(409, "stale", "the game moved on meanwhile: read the view again")
        self._states.keep((game_id, row.seq + 1), new)
        self.schedule(game_id)
        # The view just after this step, whatever the worker has done since (the answer
        # does not depend on how fast chance is drawn); its chronicle from the step
        # answered on: the client has read what came before.
        after = attrs.evolve(row, seq=row.seq + 1, state=encoded, status=status)
        view = self.view_of(after, seat, since=row.seq, picture=picture)
        return {"seq": row.seq + 1, "view": view}

    def _decode(self, game: AnyGame, state: object, kind: str, value: object) -> object:
        if kind == "index":
            legal = game.legal_actions(state)
            if not _int(value):
                raise ServerError(400, "bad-request", "'index' must be an integer")
            assert isinstance(value, int)
            if not 0 <= value < len(legal):
                raise ServerError(
                    422,
                    "illegal",
                    f"the menu has {len(legal)} action(s): no index {value}",
                    rule=game.decision_rule(state),
                )
            return legal[value]
        if kind == "number":
            if not _int(value):
                raise ServerError(400, "bad-request", "'number' must be an integer")
            assert isinstance(value, int)
            try:
                space = game.action_space()
            except NotImplementedError:
                raise ServerError(400, "no-numbers", f"{game.ID} has no action numbers") from None
            try:
                return space.action(state, value)
            except IllegalActionError as error:
                raise ServerError(422, "illegal", str(error)[:300], rule=error.rule) from None
            except ByzantiumError as error:
                raise ServerError(
                    422, "illegal", str(error)[:300], rule=game.SEQUENCE_RULE
                ) from None
        try:
            action = game.decode_action(value)  # type: ignore[arg-type]
        except (DecodeError, ByzantiumError, TypeError, ValueError) as error:
            raise ServerError(
                400, "bad-action", f"not an action of {game.ID}: {error}"[:300]
            ) from None
        if not game.is_action(action):
            raise ServerError(400, "bad-action", f"not an action of {game.ID}")
        return action

    def _chronicle(
        self, game: AnyGame, state: object, actor: int, action: object, events: tuple[Event, ...]
    ) -> str:
        """The step's lines for every reader (each seat and the spectator), as JSON."""
        who = "chance" if actor == CHANCE else game.player_name(actor)
        lines: dict[str, JSONValue] = {}
        odds: dict[str, JSONValue] = {}
        outcomes = game.chance_outcomes(state) if actor == CHANCE else ()
        for reader in [*range(game.NUM_PLAYERS), SPECTATOR]:
            said: list[JSONValue] = [f"{who}: {game.describe_step(state, action, reader)}"]
            said += [t for t in (game.event_text(e, reader) for e in events) if t is not None]
            lines[_reader_key(reader)] = said
            # Odds before, result after (issue 39): only to a reader who may know them.
            if outcomes and game.odds_visible(state, reader):
                odds[_reader_key(reader)] = self._odds(game, state, action, outcomes, reader)
        if odds:
            lines[_ODDS_KEY] = odds
        return json.dumps(lines, separators=(",", ":"))

    @staticmethod
    def _odds(
        game: AnyGame,
        state: object,
        action: object,
        outcomes: tuple[tuple[object, Fraction], ...],
        reader: int,
    ) -> list[JSONValue]:
        """A chance step's outcomes with their exact probabilities, for a reader who
        may know them (:meth:`~byzantium.core.game.Game.odds_visible`); the one drawn
        is marked only where he may see which it was, as the record viewer does."""
        seen = game.visible_action(state, action, reader) == action
        found: list[JSONValue] = []
        for outcome, probability in outcomes[:MAX_ODDS]:
            entry: dict[str, JSONValue] = {
                "text": game.describe_action(state, outcome),
                "probability": str(probability),
            }
            if seen and outcome == action:
                entry["drawn"] = True
            found.append(entry)
        if len(outcomes) > MAX_ODDS:
            rest = sum((p for _, p in outcomes[MAX_ODDS:]), Fraction(0))
            found.append(
                {"text": f"... and {len(outcomes) - MAX_ODDS} more", "probability": str(rest)}
            )
        return found

    # -- the worker: chance and built-in players ---------------------------------------

    def schedule(self, game_id: str) -> None:
        """Have the worker take the game's automatic steps (if its next step is one)."""
        with self._lock:
            if self._closed:
                return
            if game_id in self._running:
                self._again.add(game_id)
                return
            self._running.add(game_id)
        self._pool.submit(self._work, game_id)

    def resume(self) -> int:
        """Restart the worker on every game in play (after a restart); returns how many."""
        playing = self.store.playing()
        for game_id in playing:
            self.schedule(game_id)
        return len(playing)

    def _work(self, game_id: str) -> None:
        try:
            while True:
                try:
                    self._automate(game_id)
                except Exception as error:  # the worker must not die with one game
                    self.on_error(game_id, f"{type(error).__name__}: {error}"[:300])
                with self._lock:
                    if game_id in self._again and not self._closed:
                        self._again.discard(game_id)
                        continue
                    self._running.discard(game_id)
                    return
        finally:
            with self._lock:
                self._running.discard(game_id)

    @staticmethod
    def rng(seed: int, seq: int) -> random.Random:
        """The generator of step ``seq`` of the game seeded ``seed`` (chance and bots)."""
        return random.Random(f"byzantium-server:{seed}:{seq}")

    def _automate(self, game_id: str) -> None:
        while not self._closed:
            row = self.store.get(game_id)
            if row is None or row.status != "playing":
                return
            game, state = self._loaded(row)
            kinds = self._seat_kinds(row)
            policies = game.policies()
            steps: list[StepRow] = []
            started = time.monotonic()
            seq = row.seq
            while (
                not game.is_terminal(state)
                and len(steps) < _BATCH
                and time.monotonic() - started < _BATCH_SECONDS
            ):
                actor = game.current_player(state)
                rng = self.rng(row.seed, seq + 1)
                if actor == CHANCE:
                    action = sample(game.chance_outcomes(state), rng)
                elif kinds[actor] in (PERSON, OPEN):
                    break
                else:
                    policy = policies.get(kinds[actor], random_policy)
                    action = policy(game, state, rng)
                step = game.step(state, action)
                seq += 1
                steps.append(
                    StepRow(
                        seq,
                        actor,
                        json.dumps(game.encode_action(action)),
                        self._chronicle(game, state, actor, action, step.events),
                    )
                )
                state = step.state
            if not steps:
                return
            status = "over" if game.is_terminal(state) else "playing"
            if self.store.advance(game_id, row.seq, steps, self._encode(game, state), status):
                self._states.keep((game_id, seq), state)

    # -- a finished game's record --------------------------------------------------------

    def record(self, game_id: str) -> dict[str, JSONValue]:
        """The library's record of a finished game (``byzantium verify`` passes)."""
        row = self._row(game_id)
        if row.status != "over":
            raise ServerError(409, "not-over", "the record is given once the game is over")
        found = self._records.find(game_id)
        if found is not None:
            return found
        if _FROM_POSITION in json.loads(row.options):
            raise ServerError(
                409, "no-record", "the game began from a given position: it has no record"
            )
        game = self._game_of(row)
        steps = self.store.steps(game_id)
        record: GameRecord[object] = GameRecord(
            game=game.ID,
            options=tuple(sorted(game.options.items())),
            components=game.components_digest(),
            seed=row.seed,
            actors=tuple(s.actor for s in steps),
            actions=tuple(game.decode_action(loads_json(s.action)) for s in steps),
        )
        final = check_record(game, record)
        record = GameRecord(
            game=record.game,
            options=record.options,
            components=record.components,
            seed=None,  # the seed would foretell the dice of a game replayed on this server
            actors=record.actors,
            actions=record.actions,
            final=game.state_digest(final.state),
        )
        return self._records.keep(game_id, record_to_json(game, record))

    # -- loading -------------------------------------------------------------------------

    def _row(self, game_id: str) -> GameRow:
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
            raise ServerError(404, "unknown-game", "no such game")
        row = self.store.get(game_id)
        if row is None:
            raise ServerError(404, "unknown-game", "no such game")
        return row

    def _seat_kinds(self, row: GameRow) -> list[str]:
        return [str(seat["player"]) for seat in json.loads(row.seats)]

    def _game(self, name: str, options: Mapping[str, object]) -> AnyGame:
        key = name + json.dumps(dict(options), sort_keys=True)
        found = self._games.find(key)
        if found is None:
            found = self._games.keep(key, load_game(name, **options))
        return found

    def _game_of(self, row: GameRow) -> AnyGame:
        options = {k: v for k, v in json.loads(row.options).items() if k != _FROM_POSITION}
        return self._game(row.game, options)

    def _loaded(self, row: GameRow) -> tuple[AnyGame, object]:
        game = self._game_of(row)
        key = (row.game_id, row.seq)
        state = self._states.find(key)
        if state is None:
            state = self._states.keep(key, game.decode_state(loads_json(row.state)))
        return game, state

    @staticmethod
    def _encode(game: AnyGame, state: object) -> str:
        return json.dumps(game.encode_state(state), separators=(",", ":"))

    def close(self) -> None:
        """Stop the worker (the steps it has not committed are taken again on resume)."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)


def _summary(game_id: str, rule: str) -> str:
    try:
        book = get_rulebook(game_id)
    except RuleIndexError:
        return ""
    return book[rule].summary if rule in book else ""
