"""``byzantium serve``: the game server (HTTP and WebSocket, see docs/server.rst).

Games live in a database: an SQLite file by default (``byzantium-games.db`` in the
current directory), or PostgreSQL given a ``postgresql://`` address. The server
listens on 127.0.0.1 unless told otherwise, and says where on its first line of
output (with ``--port 0``, the port the system chose).
"""

from __future__ import annotations

import argparse
import importlib
import socket
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

from byzantium.core.errors import ByzantiumError

if TYPE_CHECKING:
    from byzantium.server.store import Store

__all__ = ["register", "run"]

#: The database file used when none is named.
DEFAULT_DATABASE = "byzantium-games.db"
_EXTRA = "the server needs its extra: pip install 'byzantium[server]'"


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {text[:20]!r}")
    return int(text)


def _workers(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"workers are 1 to 64, not {text[:20]!r}")
    return int(text)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the command to the parser."""
    parser = commands.add_parser(
        "serve", help="the game server: play across machines over HTTP and WebSocket"
    )
    parser.add_argument(
        "--database",
        default=DEFAULT_DATABASE,
        metavar="PATH|URL",
        help=f"an SQLite file (default: {DEFAULT_DATABASE} here) or a postgresql:// address",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=_port, default=8000, help="the port (default: 8000; 0: any free port)"
    )
    parser.add_argument(
        "--workers",
        type=_workers,
        default=2,
        help="threads taking the steps of chance and built-in players (default: 2)",
    )
    parser.set_defaults(run=run)


def open_store(database: str) -> Store:
    """The store a ``--database`` value names (one line of error if it cannot be opened)."""
    from byzantium.server.store import SQLiteStore, StoreError  # noqa: PLC0415

    try:
        if database.startswith(("postgresql://", "postgres://")):
            try:
                module = importlib.import_module("byzantium.server.postgres")
            except ModuleNotFoundError as error:
                if error.name == "byzantium.server.postgres":
                    raise ByzantiumError(
                        "this version of byzantium has no PostgreSQL store yet"
                    ) from None
                raise ByzantiumError(f"the PostgreSQL store needs {error.name}: {_EXTRA}") from None
            return cast("Store", module.PostgresStore(database))
        path = Path(database)
        if path.is_dir():
            raise ByzantiumError(f"the database {database} is a directory, not a file")
        return SQLiteStore(path)
    except StoreError as error:
        raise ByzantiumError(str(error)) from None


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except (OSError, OverflowError) as error:
        sock.close()
        reason = getattr(error, "strerror", None) or str(error)
        raise ByzantiumError(f"cannot listen on {host}:{port}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Serve until interrupted."""
    try:
        import uvicorn  # noqa: PLC0415 - an optional extra

        from byzantium.server.app import create_app  # noqa: PLC0415
    except ModuleNotFoundError as error:
        raise ByzantiumError(f"{_EXTRA} ({error.name} is missing)") from None
    sock = _listen(args.host, args.port)
    try:
        store = open_store(args.database)
    except ByzantiumError:
        sock.close()
        raise
    try:
        app = create_app(store, workers=args.workers)
        port = sock.getsockname()[1]
        shown = f"[{args.host}]" if ":" in args.host else args.host
        where = "PostgreSQL" if "://" in args.database else args.database
        out.write(f"byzantium serving on http://{shown}:{port}/api (games in {where})\n")
        out.flush()
        config = uvicorn.Config(
            app,
            log_level="warning",
            ws_max_size=64 * 1024,
            lifespan="on",
            timeout_graceful_shutdown=5,
        )
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
        store.close()
    return 0
