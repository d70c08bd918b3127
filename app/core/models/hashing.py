"""Hashes of model files: SHA-256 read once, and the index of verified hashes in the models folder.

Every installed file's SHA-256 is recorded in `models/.glassbox-index.json` with its size and
mtime: a later "Verify", or a load after the file's size or mtime changed (the load timeline's
hash check), re-hashes the file and compares it with that record.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path

from app.core.support.atomic import atomic_write

log = logging.getLogger(__name__)

INDEX_FILENAME = ".glassbox-index.json"
HASH_CHUNK = 1 << 20

ProgressCallback = Callable[[int, int], None]  # (bytes done, bytes total)


class Cancelled(Exception):
    """The user cancelled a long library action (hashing, import)."""


def sha256_file(
    path: Path,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    limit: int | None = None,
    hasher: hashlib._Hash | None = None,
) -> hashlib._Hash:
    """SHA-256 of a file (or of its first `limit` bytes), read once into one reused buffer.

    Returns the hash object so a download can go on feeding it. `cancel` is checked
    between chunks (raises Cancelled). hashlib releases the GIL while hashing, so other
    threads keep running.
    """
    digest = hasher or hashlib.sha256()
    total = path.stat().st_size if limit is None else limit
    buffer = bytearray(HASH_CHUNK)
    view = memoryview(buffer)
    done = 0
    with path.open("rb", buffering=0) as handle:
        while done < total:
            if cancel is not None and cancel.is_set():
                raise Cancelled()
            count = handle.readinto(view[: min(HASH_CHUNK, total - done)])
            if not count:
                break
            digest.update(view[:count])
            done += count
            if progress is not None:
                progress(done, total)
    return digest


class VerifyState(Enum):
    VERIFIED = "verified"  # hash recorded and the file's size and mtime are unchanged
    CHANGED = "changed since verified"  # hash recorded, but size or mtime differ: hash again
    UNKNOWN = "not verified"  # no hash recorded
    MISMATCH = "hash mismatch"  # hashed again and it differs from the record


@dataclass
class HashRecord:
    sha256: str
    size: int
    mtime_ns: int
    verified_at: str
    # "hub": checked against the Hub's LFS SHA-256; "import": recorded when imported; "ollama",
    # "huggingface-cache": the hash that app recorded for a model used in place (links.py)
    reference: str
    source: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class VerifyResult:
    state: VerifyState
    sha256: str
    message: str


class VerifiedIndex:
    """The JSON record of verified hashes in the models folder; safe across threads."""

    _lock = threading.RLock()

    def __init__(self, models_dir: Path) -> None:
        self.models_dir = models_dir
        self.file = models_dir / INDEX_FILENAME

    def lookup(self, path: Path) -> HashRecord | None:
        with self._lock:
            raw = self._load().get(self._key(path))
        return HashRecord(**raw) if raw else None

    def record(self, path: Path, sha256: str, reference: str, source: dict[str, str] | None = None) -> HashRecord:
        stat = path.stat()
        entry = HashRecord(
            sha256=sha256,
            size=stat.st_size,
            mtime_ns=stat.st_mtime_ns,
            verified_at=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            reference=reference,
            source=dict(source or {}),
        )
        with self._lock:
            records = self._load()
            records[self._key(path)] = asdict(entry)
            self._save(records)
        return entry

    def forget(self, path: Path) -> None:
        with self._lock:
            records = self._load()
            if records.pop(self._key(path), None) is not None:
                self._save(records)

    def state(self, path: Path) -> VerifyState:
        entry = self.lookup(path)
        if entry is None:
            return VerifyState.UNKNOWN
        try:
            stat = path.stat()
        except OSError:
            return VerifyState.CHANGED
        if stat.st_size == entry.size and stat.st_mtime_ns == entry.mtime_ns:
            return VerifyState.VERIFIED
        return VerifyState.CHANGED

    def verify(
        self, path: Path, progress: ProgressCallback | None = None, cancel: threading.Event | None = None
    ) -> VerifyResult:
        """Hash the file again and compare with its record; with no record, record this hash."""
        sha = sha256_file(path, progress, cancel).hexdigest()
        entry = self.lookup(path)
        if entry is None:
            self.record(path, sha, reference="import", source={"first_hashed": "verify"})
            return VerifyResult(
                VerifyState.VERIFIED, sha, f"{path.name}: hash recorded ({sha[:12]}…); later checks compare with it"
            )
        if sha == entry.sha256:
            self.record(path, sha, entry.reference, entry.source)
            what = "the Hub's SHA-256" if entry.reference == "hub" else "the hash recorded when it was added"
            return VerifyResult(VerifyState.VERIFIED, sha, f"{path.name}: intact, matches {what}")
        log.warning("Hash mismatch for %s: recorded %s, now %s", path, entry.sha256, sha)
        return VerifyResult(
            VerifyState.MISMATCH,
            sha,
            f"{path.name} is damaged or was changed: its SHA-256 is {sha[:12]}…, expected {entry.sha256[:12]}…. "
            "Delete it and download it again.",
        )

    def _key(self, path: Path) -> str:
        absolute = Path(os.path.abspath(path))
        try:
            return absolute.relative_to(os.path.abspath(self.models_dir)).as_posix()
        except ValueError:
            return str(absolute)

    def _load(self) -> dict[str, dict]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            log.warning("The verified-hash index %s cannot be read (%s); starting a new one", self.file, error)
            return {}
        return data.get("files", {}) if isinstance(data, dict) else {}

    def _save(self, records: dict[str, dict]) -> None:
        self.models_dir.mkdir(parents=True, exist_ok=True)
        atomic_write(self.file, json.dumps({"version": 1, "files": records}, indent=1))
