"""Room on disk for a download: the folders it writes to, and free space with a margin."""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from app.core.hub.downloads.errors import DownloadError, NextStep
from app.core.hub.downloads.sidecar import DownloadPlan
from app.core.paths import AppPaths
from app.core.support.formatting import fill, format_bytes
from app.core.support.os_errors import describe_os_error
from app.core.support.user_text import N_

# Kept free beyond the file itself, so a download never fills the disk to the last byte.
DISK_MARGIN = 64 * 1024 * 1024

FreeSpace = Callable[[Path], int]


def disk_free(path: Path) -> int:
    return shutil.disk_usage(path).free


def ensure_folders(paths: AppPaths) -> None:
    """Create the models and downloads folders; raises DownloadError when one cannot be a folder."""
    for folder in (paths.models, paths.downloads):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DownloadError(describe_os_error(error, folder), N_("not writable")) from error
        if not folder.is_dir():
            raise DownloadError(describe_os_error(OSError(errno.ENOTDIR, N_("not a folder")), folder), "not writable")


def check_room(paths: AppPaths, plan: DownloadPlan, part_size: int, free_space: FreeSpace) -> None:
    """Raise DownloadError unless the rest of the file (and, on another disk, the installed copy) fits."""
    ensure_folders(paths)
    for folder in (paths.downloads, paths.models):
        if not os.access(folder, os.W_OK):
            refusal = errno.EROFS if _on_read_only_disk(folder) else errno.EACCES
            raise DownloadError(describe_os_error(OSError(refusal, os.strerror(refusal)), folder), N_("not writable"))
    needed = plan.expected_size - part_size + DISK_MARGIN
    free = free_space(paths.downloads)
    if free < needed:
        raise DownloadError(
            fill(
                N_(
                    "Not enough disk space for {filename}: it needs {needed} more, {free} are free in "
                    "{downloads}. Free up space first."
                ),
                filename=plan.filename,
                needed=format_bytes(needed),
                free=format_bytes(free),
                downloads=paths.downloads,
            ),
            "disk full",
            next_step=NextStep.RESUME,
        )
    if not _same_device(paths.downloads, paths.models):
        free_models = free_space(paths.models)
        if free_models < plan.expected_size + DISK_MARGIN:
            raise DownloadError(
                fill(
                    N_(
                        "Not enough disk space in the models folder {models} for {filename}: it needs "
                        "{expected_size}, {free_models} are free."
                    ),
                    models=paths.models,
                    filename=plan.filename,
                    expected_size=format_bytes(plan.expected_size),
                    free_models=format_bytes(free_models),
                ),
                "disk full",
            )


def _on_read_only_disk(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # AttributeError: no statvfs (Windows)
        return False


def _same_device(a: Path, b: Path) -> bool:
    try:
        return a.stat().st_dev == b.stat().st_dev
    except OSError:
        return True
