"""The one way Glassbox replaces a file: nobody ever sees half of it, not even after a power cut.

Write a temporary file in the same folder (so the rename stays on one file system), flush
and fsync it, rename it over the target, then fsync the folder so the rename itself is on
disk. Readers see the old file or the new one, never a mix.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path


def atomic_write(path: Path, data: bytes | str, encoding: str = "utf-8") -> None:
    """Replace `path` with `data` atomically and durably; the temporary file is removed on failure."""
    payload = data.encode(encoding) if isinstance(data, str) else data
    with _replacing(path) as temporary, open(temporary, "wb") as handle:
        handle.write(payload)
        handle.flush()
        os.fsync(handle.fileno())


def atomic_move(source: Path, destination: Path) -> None:
    """Move a finished file into place atomically, also from another file system (copied beside, then renamed)."""
    try:
        os.replace(source, destination)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        with _replacing(destination) as temporary:
            shutil.copyfile(source, temporary)
            with open(temporary, "rb+") as handle:
                os.fsync(handle.fileno())
        source.unlink()
        return
    fsync_folder(destination.parent)


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[Path]:
    """A temporary file beside `path` to fill; renamed over `path` (and the rename synced) when the block ends."""
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        yield temporary
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    fsync_folder(path.parent)


def fsync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened, as on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
