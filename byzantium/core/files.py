"""The one way the library and the command line read a file from outside: bounded.

:func:`read_bytes` opens the file without blocking (a FIFO with no writer cannot hang
the open), looks at what the open descriptor is and refuses anything but a regular
file (a directory, a FIFO, a character device such as ``/dev/zero``) before reading a
byte, then reads at most ``limit`` + 1 bytes, so that a file that grows or lies about
its size is refused without being read whole. :func:`read_text` also decodes strict
UTF-8. Every refusal is an :class:`UnreadableFileError`, one line naming the file.
"""

from __future__ import annotations

import os
import stat

from byzantium.core.errors import ByzantiumError

__all__ = ["UnreadableFileError", "read_bytes", "read_text"]

#: What a file that is not a regular file is, by its mode.
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)
#: The most read in one call.
_CHUNK = 1 << 20
_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class UnreadableFileError(ByzantiumError, ValueError):
    """A file that cannot be read as asked: missing, not a regular file, too large,
    not UTF-8 text, or refused by the system. ``file`` names it, ``reason`` says why."""

    def __init__(self, file: str, reason: str) -> None:
        self.file = file
        self.reason = reason
        super().__init__(f"{file}: {reason}")


def _name(path: str | os.PathLike[str]) -> str:
    text = os.fspath(path)
    return text if len(text) <= 200 else f"{text[:200]}..."


def read_bytes(path: str | os.PathLike[str], limit: int, *, kind: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; ``kind`` names what the
    file should be in the message for one that is larger ("more than a KIND holds").

    >>> read_bytes("/dev/zero", 10)
    Traceback (most recent call last):
    ...
    byzantium.core.files.UnreadableFileError: /dev/zero: not a regular file but a character device
    """
    name = _name(path)
    try:
        descriptor = os.open(path, _FLAGS)
    except (OSError, ValueError) as exc:  # ValueError: a NUL character in the path
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UnreadableFileError(name, f"cannot be opened ({reason})") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            what = next((label for test, label in _KINDS if test(mode)), "a special file")
            raise UnreadableFileError(name, f"not a regular file but {what}")
        too_large = UnreadableFileError(name, f"over {limit} bytes, more than a {kind} holds")
        if os.fstat(descriptor).st_size > limit:
            raise too_large
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, _CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise too_large
        return b"".join(chunks)
    except OSError as exc:
        raise UnreadableFileError(name, f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(descriptor)


def read_text(path: str | os.PathLike[str], limit: int, *, kind: str = "file") -> str:
    """The text of a regular UTF-8 file of at most ``limit`` bytes (see :func:`read_bytes`)."""
    blob = read_bytes(path, limit, kind=kind)
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(_name(path), f"not UTF-8 text (byte {exc.start})") from None
