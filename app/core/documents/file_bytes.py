"""The bytes of a file to index, read so that no file can hold the indexer.

The type is checked after links are resolved and before anything is opened: a named pipe
would block `open()` until a writer comes, a device such as /dev/zero never ends. The file
is opened without waiting (O_NONBLOCK, so a pipe swapped in after the check cannot block)
and checked again on the open descriptor; the read is bounded by the size limit and by the
size the file had when it was opened, and asks its `Cancelled` between blocks.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from app.core.documents.read_problems import Cancelled, DocumentError, ReadCancelled, ReadProblem, never_cancelled
from app.core.support.formatting import fill, format_bytes
from app.core.support.user_text import N_

MAX_FILE_BYTES = 200 * 1024 * 1024  # larger files are refused: reading one would hold the index for minutes
READ_BLOCK = 1 << 20  # Cancel is asked before each block
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


@dataclass(frozen=True)
class FileBytes:
    data: bytes
    sha256: str  # of `data`


def read_file_bytes(path: Path, cancelled: Cancelled = never_cancelled) -> FileBytes:
    """The bytes of the regular file at `path` (a link is followed); raises DocumentError or ReadCancelled."""
    try:
        refuse_what_is_not_a_file(path, os.stat(path))
        descriptor = os.open(path, _OPEN_FLAGS)
    except OSError as error:
        raise _unreadable(path, error) from error
    try:
        status = os.fstat(descriptor)
        refuse_what_is_not_a_file(path, status)  # swapped for a pipe or a device since the check above
        if status.st_size > MAX_FILE_BYTES:
            raise DocumentError(path, ReadProblem.TOO_LARGE, _too_large_reason(status.st_size))
        return _read(descriptor, status.st_size, cancelled)
    except OSError as error:
        raise _unreadable(path, error) from error
    finally:
        os.close(descriptor)


def _read(descriptor: int, size: int, cancelled: Cancelled) -> FileBytes:
    """Up to `size` bytes (what the file held when it was opened: one that grows meanwhile is not followed)."""
    data = io.BytesIO()
    digest = hashlib.sha256()
    left = size
    while left > 0:
        if cancelled():
            raise ReadCancelled()
        block = os.read(descriptor, min(left, READ_BLOCK))
        if not block:  # it shrank meanwhile; the indexer sees the change and reads it again later
            break
        data.write(block)
        digest.update(block)
        left -= len(block)
    return FileBytes(data.getvalue(), digest.hexdigest())


def refuse_what_is_not_a_file(path: Path, status: os.stat_result) -> None:
    """Raises DocumentError unless `status` is a regular file's."""
    mode = status.st_mode
    if stat.S_ISREG(mode):
        return
    if stat.S_ISFIFO(mode):
        reason = N_("This is a named pipe (FIFO), not a file: reading it could wait forever, so it is left out.")
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        reason = N_("This is a device, not a file: reading it might never end, so it is left out.")
    elif stat.S_ISSOCK(mode):
        reason = N_("This is a socket, not a file, so it is left out.")
    elif stat.S_ISDIR(mode):
        raise DocumentError(path, ReadProblem.UNREADABLE, N_("This is a folder, not a file."))
    else:
        reason = N_("This is not a regular file, so it is left out.")
    raise DocumentError(path, ReadProblem.NOT_A_FILE, reason)


def _too_large_reason(size: int) -> str:
    """Says by how much the file is over the limit, so that one byte over never reads as '200 MB of 200 MB'."""
    return fill(
        N_(
            "The file is {size}, {excess} over the {limit} Glassbox reads at most. Split it into smaller "
            "files to add it."
        ),
        size=format_bytes(size),
        excess=format_bytes(size - MAX_FILE_BYTES),
        limit=format_bytes(MAX_FILE_BYTES),
    )


def _unreadable(path: Path, error: OSError) -> DocumentError:
    return DocumentError(
        path,
        ReadProblem.UNREADABLE,
        fill(N_("The file could not be read ({strerror})."), strerror=error.strerror or error),
    )
