"""Where the server keeps its games: one interface, an embedded SQLite database by
default, PostgreSQL (:mod:`byzantium.server.postgres`) where several server processes
share the games.

A game is one row (:class:`GameRow`: what was asked at its creation, the seat tokens'
digests, its current encoded state and the number of steps taken, ``seq``) and one
row per step (:class:`StepRow`: the action, who took it, and the chronicle lines each
reader may read). :meth:`Store.advance` is the only way a game moves on: it commits
the new steps and the new state together, and only if the game is still at the
``seq`` the caller read, so two writers racing on one game cannot both succeed and a
step is on disk before anybody is told of it.

The store knows nothing of the rules: states, actions and chronicles are opaque JSON
text here.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Protocol

import attrs

__all__ = ["GameRow", "Listener", "SQLiteStore", "StepRow", "Store", "StoreError"]

_log = logging.getLogger(__name__)


class StoreError(Exception):
    """The database refused or failed (one line, for the operator)."""


@attrs.frozen
class GameRow:
    """One game as stored."""

    game_id: str
    #: The game's registry id (``"belisarius"``, ``"sword-of-orthodoxy"``).
    game: str
    #: JSON object: the options the game was created with (scenario among them).
    options: str
    #: JSON list, one entry per seat: ``{"player": "person" | "open" | POLICY}``.
    seats: str
    #: Per seat: the hex SHA-256 digest of its token, or None while nobody holds it.
    token_digests: tuple[str | None, ...]
    #: The seed of the game's chance and built-in players (drawn at creation).
    seed: int
    #: Steps taken so far (the next step is number ``seq + 1``).
    seq: int
    #: JSON of the current state (the library's encoded state).
    state: str
    #: ``"playing"`` or ``"over"``.
    status: str
    #: Seconds since the epoch.
    created: float
    updated: float


@attrs.frozen
class StepRow:
    """One step of a game."""

    seq: int
    #: The seat that acted (-1 for chance).
    actor: int
    #: JSON of the action (the library's encoded action).
    action: str
    #: JSON object: reader (``"0"``, ``"1"``..., ``"spectator"``) to the list of lines
    #: that reader sees of this step.
    chronicle: str


#: Called with a game id and its new ``seq`` after a commit (by this process or, on
#: PostgreSQL, by any process sharing the database).
Listener = Callable[[str, int], None]


class Store(Protocol):
    """What the server needs of a database. Every method is blocking (the server
    calls it from a worker thread) and safe to call from several threads."""

    def create(self, row: GameRow) -> None:
        """Add a new game (its ``seq`` is 0 and it has no steps)."""

    def get(self, game_id: str) -> GameRow | None:
        """The game, or None if there is no such game."""

    def games(self, *, limit: int = 100, offset: int = 0) -> list[GameRow]:
        """Games, newest first."""

    def take_seat(self, game_id: str, seat: int, token_digest: str) -> bool:
        """Give the seat to the holder of the token whose digest is given, if nobody
        holds it yet; False if somebody does (or there is no such game or seat)."""

    def advance(
        self, game_id: str, seq: int, steps: Sequence[StepRow], state: str, status: str
    ) -> bool:
        """Commit ``steps`` (numbered ``seq + 1``...) and the state after them, if the
        game is still at ``seq``; False (and nothing written) if it is not."""

    def steps(self, game_id: str, *, after: int = 0) -> list[StepRow]:
        """The game's steps numbered above ``after``, in order."""

    def playing(self) -> list[str]:
        """Ids of the games not over (a restarted server resumes their built-in
        players and chance)."""

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` after every commit of :meth:`advance` or :meth:`take_seat`."""

    def close(self) -> None:
        """Release the database."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(game_id),
    seat INTEGER NOT NULL,
    token_digest TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS steps (
    game_id TEXT NOT NULL REFERENCES games(game_id),
    seq INTEGER NOT NULL,
    actor INTEGER NOT NULL,
    action TEXT NOT NULL,
    chronicle TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS games_by_time ON games (created);
"""


class SQLiteStore:
    """The embedded default: one database file, written through a write-ahead log with
    a full sync at every commit (a step acknowledged survives ``kill -9`` and a power
    cut). One process owns the file; listeners hear this process's commits."""

    def __init__(self, path: str | Path) -> None:
        try:
            self._db = sqlite3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=30
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the database {path}: {error}") from None
        self._path = str(path)
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """This store to one thread at a time; a database failure (a game id created
        twice, a full disk) becomes one :class:`StoreError`."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as error:
                raise StoreError(f"the database {self._path} failed: {error}") from None

    def _tell(self, game_id: str, seq: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id, seq)
            except Exception:
                # The commit stands: a failing listener must not make it look failed.
                _log.exception("a listener of game %s failed", game_id)

    def create(self, row: GameRow) -> None:
        with self._locked():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        row.game_id,
                        row.game,
                        row.options,
                        row.seats,
                        row.seed,
                        row.seq,
                        row.state,
                        row.status,
                        row.created,
                        row.updated,
                    ),
                )
                self._db.executemany(
                    "INSERT INTO seats VALUES (?, ?, ?)",
                    [(row.game_id, k, d) for k, d in enumerate(row.token_digests)],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _row(self, found: tuple[object, ...]) -> GameRow:
        game_id = str(found[0])
        digests = self._db.execute(
            "SELECT token_digest FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        ).fetchall()
        return GameRow(
            game_id=game_id,
            game=str(found[1]),
            options=str(found[2]),
            seats=str(found[3]),
            seed=int(str(found[4])),
            seq=int(str(found[5])),
            state=str(found[6]),
            status=str(found[7]),
            created=float(str(found[8])),
            updated=float(str(found[9])),
            token_digests=tuple(None if d[0] is None else str(d[0]) for d in digests),
        )

    def get(self, game_id: str) -> GameRow | None:
        with self._locked():
            found = self._db.execute("SELECT * FROM games WHERE game_id = ?", (game_id,)).fetchone()
            return None if found is None else self._row(found)

    def games(self, *, limit: int = 100, offset: int = 0) -> list[GameRow]:
        with self._locked():
            rows = self._db.execute(
                "SELECT * FROM games ORDER BY created DESC, game_id LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
            return [self._row(found) for found in rows]

    def take_seat(self, game_id: str, seat: int, token_digest: str) -> bool:
        with self._locked():
            cursor = self._db.execute(
                "UPDATE seats SET token_digest = ? "
                "WHERE game_id = ? AND seat = ? AND token_digest IS NULL",
                (token_digest, game_id, seat),
            )
            taken = cursor.rowcount == 1
            seq = None
            if taken:
                found = self._db.execute(
                    "SELECT seq FROM games WHERE game_id = ?", (game_id,)
                ).fetchone()
                seq = int(found[0])
        if seq is not None:
            self._tell(game_id, seq)
        return taken

    def advance(
        self, game_id: str, seq: int, steps: Sequence[StepRow], state: str, status: str
    ) -> bool:

        new_seq = seq + len(steps)
        with self._locked():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(
                    "UPDATE games SET seq = ?, state = ?, status = ?, updated = ? "
                    "WHERE game_id = ? AND seq = ?",
                    (new_seq, state, status, time.time(), game_id, seq),
                )
                if cursor.rowcount != 1:
                    self._db.execute("ROLLBACK")
                    return False
                self._db.executemany(
                    "INSERT INTO steps VALUES (?, ?, ?, ?, ?)",
                    [(game_id, s.seq, s.actor, s.action, s.chronicle) for s in steps],
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        self._tell(game_id, new_seq)
        return True

    def steps(self, game_id: str, *, after: int = 0) -> list[StepRow]:
        with self._locked():
            rows = self._db.execute(
                "SELECT seq, actor, action, chronicle FROM steps "
                "WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ).fetchall()
        return [StepRow(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    def playing(self) -> list[str]:
        with self._locked():
            rows = self._db.execute(
                "SELECT game_id FROM games WHERE status = 'playing' ORDER BY created"
            ).fetchall()
        return [str(r[0]) for r in rows]

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        with self._locked():
            self._db.close()
