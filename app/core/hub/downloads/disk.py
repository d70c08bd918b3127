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
from app.core.support.formatting import format_bytes
from app.core.support.os_errors import describe_os_error

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
            raise DownloadError(describe_os_error(error, folder), "not writable") from error
        if not folder.is_dir():
            raise DownloadError(describe_os_error(OSError(errno.ENOTDIR, "not a folder"), folder), "not writable")


def check_room(paths: AppPaths, plan: DownloadPlan, part_size: int, free_space: FreeSpace) -> None:
    """Raise DownloadError unless the rest of the file (and, on another disk, the installed copy) fits."""
    ensure_folders(paths)
    for folder in (paths.downloads, paths.models):
        if not os.access(folder, os.W_OK):
            refusal = errno.EROFS if _on_read_only_disk(folder) else errno.EACCES
            raise DownloadError(describe_os_error(OSError(refusal, os.strerror(refusal)), folder), "not writable")
    needed = plan.expected_size - part_size + DISK_MARGIN
    free = free_space(paths.downloads)
    if free < needed:
        raise DownloadError(
            f"Not enough disk space for {plan.filename}: it needs {format_bytes(needed)} more, "
            f"{format_bytes(free)} are free in {paths.downloads}. Free up space first.",
            "disk full",
            next_step=NextStep.RESUME,
        )
    if not _same_device(paths.downloads, paths.models):
        free_models = free_space(paths.models)
        if free_models < plan.expected_size + DISK_MARGIN:
            raise DownloadError(
                f"Not enough disk space in the models folder {paths.models} for {plan.filename}: it needs "
                f"{format_bytes(plan.expected_size)}, {format_bytes(free_models)} are free.",
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
