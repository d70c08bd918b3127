"""Models used in place: files that stay where another app (or the user) keeps them.

Adding a model in place copies nothing: `models/.glassbox-links.json` records the path of
its (first) file, the name to show, where it was found and, for a vision model whose app keeps its
projector apart from it (Ollama), the projector's file. The library lists such a model
beside the ones in the models folder; when the file has gone, the model is listed as
missing with the reason, and removing it from the library forgets the record, never the file.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import threading
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from app.core.support.atomic import atomic_write

log = logging.getLogger(__name__)

LINKS_FILENAME = ".glassbox-links.json"


class ModelSource(Enum):
    """Where a model used in place was found."""

    LM_STUDIO = "lmstudio"
    OLLAMA = "ollama"
    HF_CACHE = "huggingface-cache"
    GPT4ALL = "gpt4all"
    JAN = "jan"
    FILE = "file"  # a file the user chose


class Missing(Enum):
    """Why a model used in place cannot be used now."""

    GONE = "gone"  # the file was moved or deleted
    UNREADABLE = "unreadable"  # it is there, but Glassbox may not read it (permissions, unmounted disk)


@dataclass(frozen=True)
class LinkedFile:
    path: Path  # absolute path of the model's file (its first shard for a split model)
    name: str  # the name shown in the library (Ollama's "llama3.2:1b", else the file's stem)
    source: ModelSource
    added_at: str
    projector: Path | None = None  # the projector its app keeps for it apart from the model (Ollama's layer)


def missing_reason(path: Path) -> Missing | None:
    """Why the file cannot be used now, or None when it can be read."""
    try:
        with path.open("rb"):
            return None
    except FileNotFoundError:
        return Missing.GONE
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return Missing.GONE
        return Missing.UNREADABLE


class LinkIndex:
    """The JSON record of models used in place, in the models folder; safe across threads."""

    _lock = threading.RLock()

    def __init__(self, models_dir: Path) -> None:
        self.models_dir = models_dir
        self.file = models_dir / LINKS_FILENAME

    def links(self) -> list[LinkedFile]:
        with self._lock:
            return list(self._load().values())

    def find(self, path: Path) -> LinkedFile | None:
        with self._lock:
            return self._load().get(_key(path))

    def add(self, path: Path, name: str, source: ModelSource, projector: Path | None = None) -> LinkedFile:
        link = LinkedFile(
            Path(os.path.abspath(path)),
            name,
            source,
            time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            Path(os.path.abspath(projector)) if projector is not None else None,
        )
        with self._lock:
            links = self._load()
            links[_key(path)] = link
            self._save(links)
        log.info("Using %s in place as %s (%s)", link.path, name, source.value)
        return link

    def remove(self, path: Path) -> bool:
        with self._lock:
            links = self._load()
            if links.pop(_key(path), None) is None:
                return False
            self._save(links)
        return True

    def _load(self) -> dict[str, LinkedFile]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.warning("The list of models used in place %s cannot be read (%s); it is ignored", self.file, error)
            return {}
        links: dict[str, LinkedFile] = {}
        for raw in data.get("links", []) if isinstance(data, dict) else []:
            try:
                projector = raw.get("projector")
                link = LinkedFile(
                    Path(raw["path"]),
                    str(raw["name"]),
                    ModelSource(raw["source"]),
                    str(raw["added_at"]),
                    Path(projector) if isinstance(projector, str) and projector else None,
                )
            except (AttributeError, KeyError, TypeError, ValueError):
                log.warning("A damaged entry in %s is ignored: %r", self.file, raw)
                continue
            links[_key(link.path)] = link
        return links

    def _save(self, links: dict[str, LinkedFile]) -> None:
        self.models_dir.mkdir(parents=True, exist_ok=True)
        rows = [_row(link) for link in links.values()]
        atomic_write(self.file, json.dumps({"version": 1, "links": rows}, indent=1))


def _row(link: LinkedFile) -> dict[str, str]:
    row = {"path": str(link.path), "name": link.name, "source": link.source.value, "added_at": link.added_at}
    if link.projector is not None:
        row["projector"] = str(link.projector)
    return row


def _key(path: Path) -> str:
    return os.path.normcase(os.path.abspath(path))
