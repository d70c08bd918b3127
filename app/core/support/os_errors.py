"""File-system failures worded as sentences that say what to do (models import, downloads, chat history)."""

from __future__ import annotations

import errno
from pathlib import Path

from app.core.support.formatting import fill
from app.core.support.user_text import N_


def describe_os_error(error: OSError, where: Path) -> str:
    """A file-system failure as a sentence that says what to do."""
    if error.errno == errno.ENOSPC:
        return fill(N_("The disk holding {where} is full. Free up space and try again."), where=where)
    if error.errno == errno.EROFS:
        return fill(
            N_(
                "Glassbox cannot write to {where}: the disk it is on is read-only. Make the disk "
                "writable or pick another folder, then try again."
            ),
            where=where,
        )
    if error.errno in (errno.EACCES, errno.EPERM):
        return fill(
            N_(
                "Glassbox may not write to {where} ({strerror}). Check the folder's permissions "
                "or pick another folder, then try again."
            ),
            where=where,
            strerror=error.strerror,
        )
    if error.errno in (errno.ENOTDIR, errno.EEXIST):
        return fill(
            N_("{where} cannot be used as a folder: a file with that name is in the way. Move it and try again."),
            where=where,
        )
    return fill(N_("Cannot write to {where}: {strerror}."), where=where, strerror=error.strerror or error)
