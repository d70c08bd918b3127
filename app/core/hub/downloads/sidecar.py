"""The plan of a download, kept in a sidecar file beside its partial file.

The sidecar records everything needed to resume with an HTTP Range request without asking
the Hub again: the pinned URL, the expected SHA-256 and size, and the ETag. It is written
atomically, so a crash leaves the old plan or the new one.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.core.support.atomic import atomic_write

log = logging.getLogger(__name__)

SIDECAR_VERSION = 1


@dataclass
class DownloadPlan:
    """What the sidecar records: everything needed to resume without asking the Hub again."""

    repo_id: str
    filename: str
    revision: str | None
    url: str
    commit: str | None
    expected_sha256: str
    expected_size: int
    etag: str | None
    destination: str  # relative to the models folder
    created: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    version: int = SIDECAR_VERSION


def read_sidecar(path: Path) -> DownloadPlan | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != SIDECAR_VERSION:
            return None
        plan = DownloadPlan(**data)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError) as error:
        log.warning("Ignoring the unreadable download record %s (%s)", path, error)
        return None
    return plan


def write_sidecar(path: Path, plan: DownloadPlan) -> None:
    atomic_write(path, json.dumps(plan.__dict__, indent=1))
