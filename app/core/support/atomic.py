"""The one way Glassbox replaces a file: nobody ever sees half of it, not even after a power cut.

Write a temporary file in the same folder (so the rename stays on one file system), flush
and fsync it, rename it over the target, then fsync the folder so the rename itself is on
disk. Readers see the old file or the new one, never a mix.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from pathlib import Path


def atomic_write(path: Path, data: bytes | str, encoding: str = "utf-8") -> None:
    """Replace `path` with `data` atomically and durably; the temporary file is removed on failure."""
    payload = data.encode(encoding) if isinstance(data, str) else data
    temporary = _temporary_beside(path)
    try:
        with open(temporary, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    fsync_folder(path.parent)


def atomic_move(source: Path, destination: Path) -> None:
    """Move a finished file into place atomically, also from another file system (copied beside, then renamed)."""
    try:
        os.replace(source, destination)
    except OSError as error:
        if error.errno != getattr(os, "EXDEV", 18):
            raise
        temporary = _temporary_beside(destination)
        try:
            shutil.copyfile(source, temporary)
            with open(temporary, "rb+") as handle:
                os.fsync(handle.fileno())
            os.replace(temporary, destination)
        except BaseException:
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise
        source.unlink()
    fsync_folder(destination.parent)


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


def _temporary_beside(path: Path) -> Path:
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
