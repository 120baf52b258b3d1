"""A real PostgreSQL server for the tests, started from the system's binaries.

:func:`start_postgres` runs ``initdb`` into a fresh temporary directory and starts the
server with ``pg_ctl`` on a free TCP port of 127.0.0.1 and a unix socket in that
directory; :meth:`PostgresServer.stop` stops it and removes the directory. PostgreSQL
refuses to run as root, so under uid 0 the server runs as the ``postgres`` user (or
``nobody`` where there is none), owning its directory.

Where PostgreSQL (or psycopg) is missing the tests that need it are skipped, except when
``BYZANTIUM_REQUIRE_POSTGRES`` is set (as tox does), where they fail. The binaries are
looked for in ``BYZANTIUM_POSTGRES_BIN``, then Debian's ``/usr/lib/postgresql/N/bin``
(newest first), then ``PATH``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

REQUIRED = bool(os.environ.get("BYZANTIUM_REQUIRE_POSTGRES"))
HAS_PSYCOPG = importlib.util.find_spec("psycopg") is not None


def postgres_bin() -> Path | None:
    """The directory of ``initdb``, ``pg_ctl`` and ``postgres``, or None."""
    named = os.environ.get("BYZANTIUM_POSTGRES_BIN")
    candidates = [Path(named)] if named else []
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.isdigit()]
        candidates += [p / "bin" for p in sorted(versions, key=lambda p: -int(p.name))]
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).parent)
    for directory in candidates:
        if all((directory / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return directory
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _server_user() -> pwd.struct_passwd | None:
    """Whom the server runs as: None for this process's user, unless that is root."""
    if os.getuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise RuntimeError("running as root and there is neither a postgres nor a nobody user")


@attrs.define
class PostgresServer:
    """A running server: trust authentication for the superuser ``byzantium``."""

    bindir: Path
    directory: Path
    port: int
    user: pwd.struct_passwd | None
    _databases: Iterator[int] = attrs.field(factory=lambda: itertools.count(1))

    @property
    def socket_dir(self) -> Path:
        return self.directory / "socket"

    def url(self, database: str = "postgres", *, tcp: bool = False) -> str:
        """A libpq URL of one of the server's databases (over the unix socket unless
        ``tcp``)."""
        if tcp:
            return f"postgresql://byzantium@127.0.0.1:{self.port}/{database}"
        return f"postgresql://byzantium@/{database}?host={self.socket_dir}&port={self.port}"

    def new_database(self) -> str:
        """Create an empty database of its own for one test; its URL."""
        import psycopg

        name = f"test_{next(self._databases)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def _run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        uid = gid = None
        groups: list[int] | None = None
        if self.user is not None:
            uid, gid, groups = self.user.pw_uid, self.user.pw_gid, []
        return subprocess.run(
            [str(self.bindir / argv[0]), *argv[1:]],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            cwd=self.directory,
            user=uid,
            group=gid,
            extra_groups=groups,
        )

    def start(self, *, fsync: bool) -> None:
        data = self.directory / "data"
        done = self._run("initdb", "-D", str(data), "-U", "byzantium", "-A", "trust", "-E", "UTF8",
                         "--no-sync")  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.strip()}")
        for _attempt in range(5):
            options = (
                f"-c port={self.port} -c listen_addresses=127.0.0.1 "
                f"-c unix_socket_directories={self.socket_dir} -c max_connections=300 "
                f"-c fsync={'on' if fsync else 'off'} "
                f"-c synchronous_commit={'on' if fsync else 'off'}"
            )
            done = self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(data),
                             "-l", str(self.directory / "log"), "-o", options)  # fmt: skip
            if done.returncode == 0:
                return
            # Most likely somebody took the port between probing and binding: another.
            self.port = _free_port()
        log = (self.directory / "log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"pg_ctl start failed: {done.stderr.strip()}\n{log}")

    def stop(self) -> None:
        """Stop the server at once and remove its directory."""
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "stop", "-D", str(self.directory / "data"), "-m", "immediate")
        shutil.rmtree(self.directory, ignore_errors=True)


def start_postgres(*, fsync: bool = False) -> PostgresServer:
    """Start a new server in a new temporary directory (with ``fsync`` off unless asked:
    the tests kill the game server, never the database)."""
    bindir = postgres_bin()
    if bindir is None:
        raise FileNotFoundError("PostgreSQL's binaries (initdb, pg_ctl) are not installed")
    user = _server_user()
    # Not under pytest's tmp_path: its parents are private to root.
    directory = Path(tempfile.mkdtemp(prefix="byzantium-pg-"))
    (directory / "socket").mkdir()
    if user is not None:
        for path in (directory, directory / "socket"):
            os.chown(path, user.pw_uid, user.pw_gid)
    server = PostgresServer(bindir, directory, _free_port(), user)
    try:
        server.start(fsync=fsync)
    except BaseException:
        server.stop()
        raise
    return server


def postgres_or_skip() -> PostgresServer:
    """Start a server, or skip the test where PostgreSQL is not installed (fail instead
    when ``BYZANTIUM_REQUIRE_POSTGRES`` is set)."""
    if not HAS_PSYCOPG or postgres_bin() is None:
        missing = "psycopg" if not HAS_PSYCOPG else "PostgreSQL (initdb, pg_ctl)"
        if REQUIRED:
            pytest.fail(f"{missing} is not installed and BYZANTIUM_REQUIRE_POSTGRES is set")
        pytest.skip(f"{missing} is not installed")
    return start_postgres()
