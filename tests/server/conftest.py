"""Fixtures of the server's tests: a real PostgreSQL server (:mod:`tests.pg`), started
once for the session and stopped at its end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pg import PostgresServer, postgres_or_skip


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (skipped where PostgreSQL is not installed)."""
    server = postgres_or_skip()
    try:
        yield server
    finally:
        server.stop()
