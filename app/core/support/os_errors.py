"""File-system failures worded as sentences that say what to do (models import, downloads)."""

from __future__ import annotations

import errno
from pathlib import Path


def describe_os_error(error: OSError, where: Path) -> str:
    """A file-system failure as a sentence that says what to do."""
    if error.errno == errno.ENOSPC:
        return f"The disk holding {where} is full. Free up space and try again."
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return (
            f"Glassbox may not write to {where} ({error.strerror}). "
            "Check the folder's permissions or pick another models folder."
        )
    if error.errno in (errno.ENOTDIR, errno.EEXIST):
        return f"{where} cannot be used as a folder: a file with that name is in the way. Move it and try again."
    return f"Cannot write to {where}: {error.strerror or error}."
