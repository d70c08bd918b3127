"""File-system failures worded as sentences that say what to do (models import, downloads, chat history)."""

from __future__ import annotations

import errno
from pathlib import Path


def describe_os_error(error: OSError, where: Path) -> str:
    """A file-system failure as a sentence that says what to do."""
    if error.errno == errno.ENOSPC:
        return f"The disk holding {where} is full. Free up space and try again."
    if error.errno == errno.EROFS:
        return (
            f"Glassbox cannot write to {where}: the disk it is on is read-only. "
            "Make the disk writable or pick another folder, then try again."
        )
    if error.errno in (errno.EACCES, errno.EPERM):
        return (
            f"Glassbox may not write to {where} ({error.strerror}). "
            "Check the folder's permissions or pick another folder, then try again."
        )
    if error.errno in (errno.ENOTDIR, errno.EEXIST):
        return f"{where} cannot be used as a folder: a file with that name is in the way. Move it and try again."
    return f"Cannot write to {where}: {error.strerror or error}."
