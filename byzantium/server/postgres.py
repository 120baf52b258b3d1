"""The games in PostgreSQL, where several server processes share them (psycopg 3 and its
connection pool, from the ``server`` extra).

The schema is :mod:`byzantium.server.store`'s. Every write is one transaction;
:meth:`PostgresStore.advance` updates the game's row only ``WHERE seq`` is still the
one the caller read, so of several writers racing on one game, in this process or in
others, exactly one succeeds (the others wait for its row lock, then find the ``seq``
moved on and write nothing). Each commit also sends a notification on the channel
:data:`CHANNEL` (delivered only if the transaction commits), which every store on the
database hears on a connection of its own: a server process learns of moves made
through another.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Iterator, Sequence

import psycopg
from psycopg import conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from byzantium.server.store import GameRow, Listener, StepRow, StoreError

__all__ = ["CHANNEL", "LISTENER_NAME", "PostgresStore"]

#: The LISTEN/NOTIFY channel of commits; a payload is ``"SEQ ORIGIN GAME_ID"``.
CHANNEL = "byzantium_games"

#: The ``application_name`` of the notification connections (in ``pg_stat_activity``).
LISTENER_NAME = "byzantium-listen"

_log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seats TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    state TEXT NOT NULL,
    status TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
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
CREATE INDEX IF NOT EXISTS games_playing ON games (status) WHERE status = 'playing';
"""

#: Serialises the schema's creation between processes starting together (CREATE ...
#: IF NOT EXISTS is not safe against a concurrent twin).
_SCHEMA_LOCK = 0x62797A616E74

_GAME_COLUMNS = (
    "g.game_id, g.game, g.options, g.seats, g.seed, g.seq, g.state, g.status, g.created, "
    "g.updated, ARRAY(SELECT s.token_digest FROM seats s WHERE s.game_id = g.game_id "
    "ORDER BY s.seat)"
)


def _where(url: str) -> str:
    """The database named for a message, without its password."""
    try:
        parts = conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "the PostgreSQL database (its URL does not parse)"
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"the PostgreSQL database {parts.get('dbname') or '(default)'} on {host}{port}"


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


class PostgresStore:
    """A :class:`~byzantium.server.store.Store` in a PostgreSQL database (libpq URL, e.g.
    ``postgresql://user:password@host/dbname``), through a pool of at most
    ``pool_size`` connections, plus one more for notifications once somebody listens.
    Commits are durable as the server's ``synchronous_commit`` makes them (by default,
    on disk before :meth:`advance` returns)."""

    def __init__(self, url: str, *, pool_size: int = 10, timeout: float = 30.0) -> None:
        self._url = url
        self._where = _where(url)
        # Tells this store's notifications from other processes' (already told locally).
        self._origin = secrets.token_hex(8)
        self._listeners: list[Listener] = []
        self._listening: threading.Thread | None = None
        self._closed = threading.Event()
        self._subscribed = threading.Event()
        self._timeout = timeout
        self._guard = threading.Lock()
        try:
            # One connection first: its failure says why, in one line (a pool only
            # retries, and logs every attempt).
            psycopg.connect(url, connect_timeout=max(1, round(timeout))).close()
            self._pool = ConnectionPool(
                url,
                min_size=1,
                max_size=max(1, pool_size),
                timeout=timeout,
                open=False,
                name="byzantium",
            )
            self._pool.open(wait=True, timeout=timeout)
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreError(f"cannot connect to {self._where}: {_one_line(error)}") from None
        try:
            with self._pool.connection() as db:
                db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                db.execute(_SCHEMA)
        except psycopg.Error as error:
            self._pool.close()
            raise StoreError(f"cannot set up {self._where}: {_one_line(error)}") from None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
        """A pooled connection in a transaction, committed if the block ends normally
        (the pool rolls back otherwise); database failures become :class:`StoreError`."""
        try:
            with self._pool.connection() as db:
                yield db
        except PoolTimeout:
            raise StoreError(f"{self._where} is busy: no connection came free") from None
        except psycopg.Error as error:
            raise StoreError(f"{self._where} failed: {_one_line(error)}") from None

    def _tell(self, game_id: str, seq: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(game_id, seq)
            except Exception:
                # The commit stands: a failing listener must not make it look failed.
                _log.exception("a listener of game %s failed", game_id)

    def _notify(self, db: psycopg.Connection[tuple[object, ...]], game_id: str, seq: int) -> None:
        db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{seq} {self._origin} {game_id}"))

    @staticmethod
    def _row(found: Sequence[object]) -> GameRow:
        digests = found[10]
        assert isinstance(digests, list)
        return GameRow(
            game_id=str(found[0]),
            game=str(found[1]),
            options=str(found[2]),
            seats=str(found[3]),
            seed=int(str(found[4])),
            seq=int(str(found[5])),
            state=str(found[6]),
            status=str(found[7]),
            created=float(str(found[8])),
            updated=float(str(found[9])),
            token_digests=tuple(None if d is None else str(d) for d in digests),
        )

    def create(self, row: GameRow) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
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
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO seats VALUES (%s, %s, %s)",
                    [(row.game_id, k, d) for k, d in enumerate(row.token_digests)],
                )

    def get(self, game_id: str) -> GameRow | None:
        with self._transaction() as db:
            found = db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games g WHERE g.game_id = %s", (game_id,)
            ).fetchone()
        return None if found is None else self._row(found)

    def games(self, *, limit: int = 100, offset: int = 0) -> list[GameRow]:
        with self._transaction() as db:
            rows = db.execute(
                f"SELECT {_GAME_COLUMNS} FROM games g "
                "ORDER BY g.created DESC, g.game_id LIMIT %s OFFSET %s",
                (max(0, limit), max(0, offset)),
            ).fetchall()
        return [self._row(found) for found in rows]

    def take_seat(self, game_id: str, seat: int, token_digest: str) -> bool:
        with self._transaction() as db:
            # A racing twin waits for the first one's row lock, then finds the seat held.
            taken = db.execute(
                "UPDATE seats SET token_digest = %s "
                "WHERE game_id = %s AND seat = %s AND token_digest IS NULL",
                (token_digest, game_id, seat),
            ).rowcount
            if taken != 1:
                return False
            found = db.execute("SELECT seq FROM games WHERE game_id = %s", (game_id,)).fetchone()
            assert found is not None
            seq = int(str(found[0]))
            self._notify(db, game_id, seq)
        self._tell(game_id, seq)
        return True

    def advance(
        self, game_id: str, seq: int, steps: Sequence[StepRow], state: str, status: str
    ) -> bool:
        new_seq = seq + len(steps)
        with self._transaction() as db:
            moved = db.execute(
                "UPDATE games SET seq = %s, state = %s, status = %s, updated = %s "
                "WHERE game_id = %s AND seq = %s",
                (new_seq, state, status, time.time(), game_id, seq),
            ).rowcount
            if moved != 1:
                db.rollback()
                return False
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO steps VALUES (%s, %s, %s, %s, %s)",
                    [(game_id, s.seq, s.actor, s.action, s.chronicle) for s in steps],
                )
            self._notify(db, game_id, new_seq)
        self._tell(game_id, new_seq)
        return True

    def steps(self, game_id: str, *, after: int = 0) -> list[StepRow]:
        with self._transaction() as db:
            rows = db.execute(
                "SELECT seq, actor, action, chronicle FROM steps "
                "WHERE game_id = %s AND seq > %s ORDER BY seq",
                (game_id, after),
            ).fetchall()
        return [StepRow(int(str(r[0])), int(str(r[1])), str(r[2]), str(r[3])) for r in rows]

    def playing(self) -> list[str]:
        with self._transaction() as db:
            rows = db.execute(
                "SELECT game_id FROM games WHERE status = 'playing' ORDER BY created"
            ).fetchall()
        return [str(r[0]) for r in rows]

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` after every commit of this store at once, and after every
        commit of another store on the database (another process) when its notification
        arrives, on a thread of this store's."""
        with self._guard:
            self._listeners.append(listener)
            if self._listening is None and not self._closed.is_set():
                self._listening = threading.Thread(
                    target=self._hear, name="byzantium-postgres-listen", daemon=True
                )
                self._listening.start()
        # From here on no commit goes unheard.
        if not self._subscribed.wait(self._timeout):
            raise StoreError(f"cannot listen to the notifications of {self._where}")

    def _hear(self) -> None:
        """The notification thread: one connection LISTENing; after a lost connection,
        reconnect and tell of every game that moved meanwhile (its notification may be
        lost)."""
        lost_at: float | None = None
        while not self._closed.is_set():
            try:
                with psycopg.connect(
                    self._url, autocommit=True, application_name=LISTENER_NAME
                ) as db:
                    db.execute(f"LISTEN {CHANNEL}")
                    self._subscribed.set()
                    if lost_at is not None:
                        self._catch_up(db, lost_at)
                        lost_at = None
                    while not self._closed.is_set():
                        for note in db.notifies(timeout=0.5):
                            self._heard(note.payload)
            except psycopg.Error as error:
                if self._closed.is_set():
                    return
                _log.warning("lost the notifications of %s: %s", self._where, _one_line(error))
                if lost_at is None:
                    lost_at = time.time()
                self._closed.wait(1.0)

    def _heard(self, payload: str) -> None:
        seq, origin, game_id = [*payload.split(" ", 2), "", ""][:3]
        if origin == self._origin or not seq.isdigit() or not game_id:
            return
        self._tell(game_id, int(seq))

    def _catch_up(self, db: psycopg.Connection[tuple[object, ...]], since: float) -> None:
        # Clocks of the processes may differ a little: a margin, and duplicates are harmless.
        rows = db.execute(
            "SELECT game_id, seq FROM games WHERE updated >= %s", (since - 5.0,)
        ).fetchall()
        for game_id, seq in rows:
            self._tell(str(game_id), int(str(seq)))

    def close(self) -> None:
        self._closed.set()
        if self._listening is not None:
            self._listening.join(timeout=5)
        self._pool.close()
