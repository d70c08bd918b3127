"""Crash-loop protection: a load that took the process down is not repeated at the next start.

A marker naming the model is written (atomically) before the load and removed once it has
finished or failed cleanly. If llama.cpp aborts or the machine dies mid-load, the marker
survives; at the next start the window finds it and does not load that model on its own.
"""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path

from app.core.paths import app_paths
from app.core.support.atomic import atomic_write

log = logging.getLogger(__name__)

MARKER_NAME = "loading.json"


def marker_path() -> Path:
    return app_paths().data / MARKER_NAME


def begin_load(model: Path) -> None:
    """Record that `model` is being loaded (call before llama.cpp sees it)."""
    marker = marker_path()
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(marker, json.dumps({"model": str(model)}))
    except OSError as error:  # a read-only data folder costs the protection, not the load
        log.warning("Could not record the model being loaded in %s: %s", marker, error)


def end_load() -> None:
    """The load finished or failed cleanly: nothing to guard against any more."""
    with contextlib.suppress(FileNotFoundError):
        marker_path().unlink()


def unfinished_load() -> Path | None:
    """The model whose last load never finished (the process ended during it), or None."""
    try:
        recorded = json.loads(marker_path().read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("Ignoring an unreadable load marker %s: %s", marker_path(), error)
        return None
    model = recorded.get("model") if isinstance(recorded, dict) else None
    if not isinstance(model, str) or not model:
        log.warning("Ignoring an unreadable load marker %s: it names no model", marker_path())
        return None
    return Path(model)
