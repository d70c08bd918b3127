"""Installing a finished download: only a file of the right size and SHA-256 enters the library.

The file is moved into the models folder atomically (also across file systems) and its hash
is recorded in the library's verified index, so a later load does not hash it again.
"""

from __future__ import annotations

import logging
from pathlib import Path

from app.core.hub.downloads.errors import DownloadError, NextStep
from app.core.hub.downloads.sidecar import DownloadPlan
from app.core.models.hashing import VerifiedIndex, VerifyState
from app.core.support.atomic import atomic_move
from app.core.support.formatting import fill
from app.core.support.os_errors import describe_os_error
from app.core.support.user_text import N_

log = logging.getLogger(__name__)


def installed_copy(models: Path, plan: DownloadPlan) -> Path | None:
    """Where the same verified file already is in the library, or None when it is not."""
    destination = models / plan.destination
    index = VerifiedIndex(models)
    record = index.lookup(destination)
    if record is None or record.sha256 != plan.expected_sha256 or index.state(destination) is not VerifyState.VERIFIED:
        return None
    return destination


def install_verified(part: Path, plan: DownloadPlan, sha256: str, models: Path) -> Path:
    """Move the finished `part` into the library and record its hash; returns where it went.

    Raises DownloadError when its size or SHA-256 differ from the plan (not resumable: the
    download is deleted) or when the models folder cannot take it.
    """
    size = _size(part)
    if size != plan.expected_size:
        raise DownloadError(
            fill(
                N_("{filename} has {size} bytes instead of {expected_size}; the download was deleted."),
                filename=plan.filename,
                size=size,
                expected_size=plan.expected_size,
            ),
            "size mismatch",
            resumable=False,
            next_step=NextStep.RETRY,
        )
    if sha256 != plan.expected_sha256:
        log.error("SHA-256 mismatch for %s: expected %s, got %s", plan.filename, plan.expected_sha256, sha256)
        raise DownloadError(
            fill(
                N_(
                    "{filename} arrived damaged: its SHA-256 is {sha256}…, the Hub says "
                    "{expected_sha256}…. The file was deleted and not installed."
                ),
                filename=plan.filename,
                sha256=sha256[:12],
                expected_sha256=plan.expected_sha256[:12],
            ),
            "hash mismatch",
            resumable=False,
            next_step=NextStep.RETRY,
        )
    destination = models / plan.destination
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
        atomic_move(part, destination)
    except OSError as error:
        raise DownloadError(describe_os_error(error, destination.parent), N_("not writable")) from error
    VerifiedIndex(models).record(
        destination,
        sha256,
        reference="hub",
        source={"repo_id": plan.repo_id, "filename": plan.filename, "commit": plan.commit or "", "url": plan.url},
    )
    log.info("Installed %s (SHA-256 %s) at %s", plan.filename, sha256, destination)
    return destination


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0
