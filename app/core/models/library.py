"""Installed models: the models folder plus the starter model; safe names, verified hashes, import, delete.

Layout: `models/<owner>/<repository>/<file>.gguf` for downloads, `models/imported/<file>.gguf`
for imports. A split model (`name-00001-of-00003.gguf` …) is one model whose path is its
first shard (llama.cpp finds the others beside it).

Every installed file's SHA-256 is recorded in `models/.glassbox-index.json` with its size and
mtime: a later "Verify", or a load after the file's size or mtime changed (the load timeline's
hash check), re-hashes the file and compares it with that record.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import Enum
from pathlib import Path, PurePosixPath

from app.core.models.gguf_info import GgufInfoError
from app.core.models.gguf_summary import GgufSummary, read_gguf_summary
from app.core.models.validation import check_model_file
from app.core.models.starter import find_starter_model

log = logging.getLogger(__name__)

INDEX_FILENAME = ".glassbox-index.json"
IMPORTED_FOLDER = "imported"
HASH_CHUNK = 1 << 20
SPLIT_PATTERN = re.compile(r"^(?P<base>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)

ProgressCallback = Callable[[int, int], None]  # (bytes done, bytes total)


class LibraryError(Exception):
    """A library action that cannot be done; the message says why and what to do."""


class UnsafeNameError(LibraryError):
    """A repository or file name that would place a file outside the models folder."""


class Cancelled(Exception):
    """The user cancelled a long library action (hashing, import)."""


@dataclass(frozen=True)
class InstalledModel:
    name: str
    path: Path
    size_bytes: int
    is_starter: bool = False
    shards: tuple[Path, ...] = ()  # every file of the model, first shard first; () means just `path`

    @property
    def files(self) -> tuple[Path, ...]:
        return self.shards or (self.path,)


def installed_models(models_dir: Path) -> list[InstalledModel]:
    """Models in `models_dir` (sorted by name), then the starter model if it is installed."""
    models: list[InstalledModel] = []
    if models_dir.is_dir():
        for path in sorted(models_dir.rglob("*.gguf"), key=lambda p: (p.name.lower(), str(p))):
            if not path.is_file():
                continue
            split = SPLIT_PATTERN.match(path.name)
            if split is None:
                models.append(InstalledModel(name=path.stem, path=path, size_bytes=path.stat().st_size))
            elif int(split["index"]) == 1:
                shards = split_shards(path)
                models.append(
                    InstalledModel(
                        name=split["base"],
                        path=path,
                        size_bytes=sum(shard.stat().st_size for shard in shards if shard.is_file()),
                        shards=tuple(shards),
                    )
                )
    starter = find_starter_model()
    if starter is not None:
        models.append(
            InstalledModel(name=starter.stem, path=starter, size_bytes=starter.stat().st_size, is_starter=True)
        )
    return models


def split_shards(first: Path) -> list[Path]:
    """All shard paths of a split model given its first shard (whether or not they exist yet)."""
    match = SPLIT_PATTERN.match(first.name)
    if match is None:
        return [first]
    count = int(match["count"])
    width = len(match["index"])
    return [first.with_name(f"{match['base']}-{i:0{width}d}-of-{match['count']}.gguf") for i in range(1, count + 1)]


# ---- safe names -------------------------------------------------------------------------------

_ODD_CHARACTERS = re.compile(r"[^A-Za-z0-9._+\-()\[\]@]")
_WINDOWS_RESERVED = re.compile(r"^(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(\..*)?$", re.IGNORECASE)
_MAX_COMPONENT = 180


def safe_component(text: str) -> str:
    """One path component that is valid and harmless on every OS; raises UnsafeNameError if nothing is left."""
    if text in ("", ".", "..") or "\x00" in text:
        raise UnsafeNameError(f"{text!r} is not a usable file name")
    cleaned = _ODD_CHARACTERS.sub("_", text.strip(" .")).strip(" .")
    if not cleaned or set(cleaned) <= {"_", "."}:
        raise UnsafeNameError(f"{text!r} is not a usable file name")
    if _WINDOWS_RESERVED.match(cleaned):
        cleaned = "_" + cleaned
    if len(cleaned) > _MAX_COMPONENT:
        stem, dot, suffix = cleaned.rpartition(".")
        cleaned = (stem[: _MAX_COMPONENT - len(suffix) - 1] + dot + suffix) if dot else cleaned[:_MAX_COMPONENT]
    return cleaned


def model_destination(models_dir: Path, repo_id: str, filename: str) -> Path:
    """Where a repository file is installed: `models/<owner>/<repo>/<file name>`.

    Names from a repository are untrusted: `..`, absolute paths, drive letters, backslashes
    and control characters are refused; other odd characters become `_`. Sub-folders in the
    repository are flattened (split shards always share one folder).
    """
    owner, slash, name = repo_id.partition("/")
    if not slash or "/" in name:
        raise UnsafeNameError(f"{repo_id!r} is not a repository id of the form owner/name")
    if "\\" in filename or filename.startswith("/") or re.match(r"^[A-Za-z]:", filename):
        raise UnsafeNameError(f"the repository names a file with an absolute or Windows path: {filename!r}")
    if any(ord(ch) < 32 for ch in filename):
        raise UnsafeNameError(f"the repository names a file with control characters: {filename!r}")
    parts = PurePosixPath(filename).parts
    if not parts or any(part in ("..", ".") for part in parts):
        raise UnsafeNameError(f"the repository names a file outside its own folder: {filename!r}")
    destination = models_dir / safe_component(owner) / safe_component(name) / safe_component(parts[-1])
    root = os.path.normpath(os.path.abspath(models_dir))
    if os.path.commonpath([root, os.path.normpath(os.path.abspath(destination))]) != root:
        raise UnsafeNameError(f"{filename!r} would be written outside the models folder")
    return destination


# ---- hashing ----------------------------------------------------------------------------------


def sha256_file(
    path: Path,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    limit: int | None = None,
    hasher: "hashlib._Hash | None" = None,
) -> "hashlib._Hash":
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


# ---- the verified-hash index ------------------------------------------------------------------


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
    reference: str  # "hub": checked against the Hub's LFS SHA-256; "import": recorded when imported
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
            return VerifyResult(VerifyState.VERIFIED, sha, f"{path.name}: hash recorded ({sha[:12]}…); later checks compare with it")
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
        temporary = self.file.with_name(self.file.name + f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"version": 1, "files": records}, indent=1), encoding="utf-8")
        os.replace(temporary, self.file)


# ---- the library view -------------------------------------------------------------------------


@dataclass(frozen=True)
class LibraryEntry:
    model: InstalledModel
    summary: GgufSummary | None
    problem: str | None  # why the file cannot be read, if it cannot
    state: VerifyState
    reference: str | None  # "hub" or "import" when a hash is recorded


def describe(model: InstalledModel, index: VerifiedIndex) -> LibraryEntry:
    """The library row of a model: GGUF metadata and verified status (reads the header only)."""
    summary: GgufSummary | None = None
    problem: str | None = None
    try:
        summary = read_gguf_summary(list(model.files))
    except GgufInfoError as error:
        problem = error.reason
    states = [index.state(file) for file in model.files]
    state = next((s for s in (VerifyState.CHANGED, VerifyState.UNKNOWN) if s in states), VerifyState.VERIFIED)
    record = index.lookup(model.path)
    return LibraryEntry(model, summary, problem, state, record.reference if record else None)


def library_entries(models_dir: Path) -> list[LibraryEntry]:
    index = VerifiedIndex(models_dir)
    return [describe(model, index) for model in installed_models(models_dir)]


def find_model(models_dir: Path, name: str) -> InstalledModel:
    """The installed model called `name` (its name, file name or path under the models folder)."""
    models = installed_models(models_dir)
    wanted = name.strip()
    for matcher in (
        lambda m: str(m.path) == wanted or _relative(m.path, models_dir) == wanted,
        lambda m: m.path.name == wanted,
        lambda m: m.name == wanted,
        lambda m: m.name.lower() == wanted.lower() or m.path.name.lower() == wanted.lower(),
    ):
        found = [m for m in models if matcher(m)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            choices = ", ".join(_relative(m.path, models_dir) for m in found)
            raise LibraryError(f"{name!r} matches several models: {choices}. Give the path under the models folder.")
    raise LibraryError(f"No installed model is called {name!r}; `glassbox models list` shows the names.")


def verify_model(
    model: InstalledModel, index: VerifiedIndex, progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> VerifyResult:
    """Verify every file of a model; the first mismatch is the result."""
    total = sum(file.stat().st_size for file in model.files)
    done_before = 0
    last: VerifyResult | None = None
    for file in model.files:
        size = file.stat().st_size

        def shard_progress(done: int, _total: int, offset: int = done_before) -> None:
            if progress is not None:
                progress(offset + done, total)

        last = index.verify(file, shard_progress, cancel)
        if last.state is VerifyState.MISMATCH:
            return last
        done_before += size
    assert last is not None
    if len(model.files) > 1:
        return VerifyResult(last.state, last.sha256, f"{model.name}: all {len(model.files)} parts intact")
    return last


def delete_model(model: InstalledModel, models_dir: Path, index: VerifiedIndex | None = None) -> list[Path]:
    """Delete a model's files (all shards) and their hash records; only inside the models folder."""
    if model.is_starter or not _inside(model.path, models_dir):
        raise LibraryError(
            f"{model.path} is not in the models folder {models_dir}; Glassbox only deletes files it manages."
        )
    index = index or VerifiedIndex(models_dir)
    removed: list[Path] = []
    for file in model.files:
        try:
            file.unlink()
        except FileNotFoundError:
            pass
        except OSError as error:
            raise LibraryError(f"Cannot delete {file}: {error.strerror or error}. Close programs using it and retry.") from error
        index.forget(file)
        removed.append(file)
    _prune_empty_folders(model.path.parent, models_dir)
    log.info("Deleted model %s (%d files)", model.name, len(removed))
    return removed


def import_model(
    source: Path,
    models_dir: Path,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> InstalledModel:
    """Copy a .gguf file (and its other shards) into `models/imported/`, hashing while copying.

    A file already inside the models folder is hashed and recorded in place. The copy goes to
    a temporary name first, so a cancelled or failed import leaves nothing half-written.
    """
    source = Path(source).expanduser()
    check_model_file(source)
    shards = split_shards(source)
    missing = [shard.name for shard in shards if not shard.is_file()]
    if missing:
        raise LibraryError(f"{source.name} is part of a split model, but these parts are missing beside it: {', '.join(missing)}")
    index = VerifiedIndex(models_dir)
    total = sum(shard.stat().st_size for shard in shards)
    if _inside(source, models_dir):
        done = 0
        for shard in shards:
            size = shard.stat().st_size
            digest = sha256_file(shard, _offset_progress(progress, done, total), cancel)
            index.record(shard, digest.hexdigest(), "import", {"imported_from": str(shard)})
            done += size
        return _model_at(source, models_dir)
    folder = models_dir / IMPORTED_FOLDER
    targets = [folder / safe_component(shard.name) for shard in shards]
    existing = [target for target in targets if target.exists()]
    if existing:
        raise LibraryError(f"A model file named {existing[0].name} is already in the library; delete it first or rename the file.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LibraryError(describe_os_error(error, folder)) from error
    free = shutil.disk_usage(folder).free
    if free < total:
        raise LibraryError(
            f"Not enough disk space to import {source.name}: it needs {total / 1e9:.2f} GB, "
            f"{free / 1e9:.2f} GB are free in {folder}. Free up space and try again."
        )
    done = 0
    for shard, target in zip(shards, targets):
        sha = _copy_hashing(shard, target, _offset_progress(progress, done, total), cancel)
        index.record(target, sha, "import", {"imported_from": str(shard)})
        done += shard.stat().st_size
    log.info("Imported %s into %s", source, targets[0])
    return _model_at(targets[0], models_dir)


def describe_os_error(error: OSError, where: Path) -> str:
    """A file-system failure as a sentence that says what to do."""
    import errno

    if error.errno == errno.ENOSPC:
        return f"The disk holding {where} is full. Free up space and try again."
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"Glassbox may not write to {where} ({error.strerror}). Check the folder's permissions or pick another models folder."
    if error.errno in (errno.ENOTDIR, errno.EEXIST):
        return f"{where} cannot be used as a folder: a file with that name is in the way. Move it and try again."
    return f"Cannot write to {where}: {error.strerror or error}."


def _copy_hashing(source: Path, target: Path, progress: ProgressCallback | None, cancel: threading.Event | None) -> str:
    digest = hashlib.sha256()
    temporary = target.with_name(target.name + ".importing")
    total = source.stat().st_size
    buffer = bytearray(HASH_CHUNK)
    view = memoryview(buffer)
    done = 0
    try:
        with source.open("rb", buffering=0) as reader, temporary.open("wb") as writer:
            while True:
                if cancel is not None and cancel.is_set():
                    raise Cancelled()
                count = reader.readinto(view)
                if not count:
                    break
                digest.update(view[:count])
                writer.write(view[:count])
                done += count
                if progress is not None:
                    progress(done, total)
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise LibraryError(describe_os_error(error, target.parent)) from error
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return digest.hexdigest()


def _offset_progress(progress: ProgressCallback | None, offset: int, total: int) -> ProgressCallback | None:
    if progress is None:
        return None
    return lambda done, _total: progress(offset + done, total)


def _model_at(path: Path, models_dir: Path) -> InstalledModel:
    for model in installed_models(models_dir):
        if model.path == path:
            return model
    raise LibraryError(f"{path} was added but is not listed as a model")


def _inside(path: Path, folder: Path) -> bool:
    root = os.path.normpath(os.path.abspath(folder))
    return os.path.commonpath([root, os.path.normpath(os.path.abspath(path))]) == root


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return str(path)


def _prune_empty_folders(folder: Path, models_dir: Path) -> None:
    while _inside(folder, models_dir) and folder != models_dir:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
