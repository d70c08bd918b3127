"""Adding a model file from elsewhere: copied into `models/imported/`, or used in place.

Importing copies the file, hashing it while it is copied. A file already inside the models
folder is hashed and recorded in place. The copy goes to a temporary name first and is
renamed into place once complete, so a cancelled or failed import leaves nothing half-written.

Adding in place (`link_model`) copies nothing: the library records where the file is
(links.py). Both refuse a file the library already has: the same path, or the same SHA-256
(hashed only when a library file has the same size, so the usual case reads nothing extra).
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import threading
from pathlib import Path

from app.core.models.gguf_info import read_model_shape
from app.core.models.hashing import (
    HASH_CHUNK,
    Cancelled,
    ProgressCallback,
    VerifiedIndex,
    VerifyState,
    sha256_file,
)
from app.core.models.library import (
    SPLIT_PATTERN,
    InstalledModel,
    LibraryError,
    installed_models,
    is_inside,
    split_shards,
)
from app.core.models.links import LinkIndex, ModelSource
from app.core.models.names import safe_component
from app.core.models.projector_file import PROJECTOR_ARCHITECTURE
from app.core.models.validation import check_model_file
from app.core.support.atomic import atomic_move
from app.core.support.formatting import fill, format_bytes
from app.core.support.os_errors import describe_os_error
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

IMPORTED_FOLDER = "imported"


class AlreadyInLibrary(LibraryError):
    """The file (or an identical copy of it) is already in the library: nothing was copied or added."""

    def __init__(self, source: Path, existing: InstalledModel, same_file: bool) -> None:
        self.source = source
        self.existing = existing
        self.same_file = same_file  # True: this very file; False: another file with the same SHA-256
        why = "it is that file" if same_file else "same SHA-256"
        super().__init__(f"{source.name} is already in the library as {existing.name} ({why}); nothing was added.")


def import_model(
    source: Path,
    models_dir: Path,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
) -> InstalledModel:
    """Copy a .gguf file (and its other shards) into `models/imported/`, hashing while copying."""
    source = Path(source).expanduser()
    shards = _whole_model(source)
    index = VerifiedIndex(models_dir)
    total = sum(shard.stat().st_size for shard in shards)
    if is_inside(source, models_dir):
        done = 0
        for shard in shards:
            size = shard.stat().st_size
            digest = sha256_file(shard, _offset_progress(progress, done, total), cancel)
            index.record(shard, digest.hexdigest(), "import", {"imported_from": str(shard)})
            done += size
        return _model_at(source, models_dir)
    _refuse_duplicate(source, models_dir, index, None, progress, cancel)
    folder = models_dir / IMPORTED_FOLDER
    targets = [folder / safe_component(shard.name) for shard in shards]
    existing = [target for target in targets if target.exists()]
    if existing:
        raise LibraryError(
            fill(
                N_("A model file named {name} is already in the library; delete it first or rename the file."),
                name=existing[0].name,
            )
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise LibraryError(describe_os_error(error, folder)) from error
    free = shutil.disk_usage(folder).free
    if free < total:
        raise LibraryError(
            fill(
                N_(
                    "Not enough disk space to import {name}: it needs {total}, {free} are free in "
                    "{folder}. Free up space and try again."
                ),
                name=source.name,
                total=format_bytes(total),
                free=format_bytes(free),
                folder=folder,
            )
        )
    done = 0
    for shard, target in zip(shards, targets, strict=True):
        sha = _copy_hashing(shard, target, _offset_progress(progress, done, total), cancel)
        index.record(target, sha, "import", {"imported_from": str(shard)})
        done += shard.stat().st_size
    log.info("Imported %s into %s", source, targets[0])
    return _model_at(targets[0], models_dir)


def link_model(
    source: Path,
    models_dir: Path,
    name: str | None = None,
    origin: ModelSource = ModelSource.FILE,
    known_sha256: str | None = None,
    progress: ProgressCallback | None = None,
    cancel: threading.Event | None = None,
    projector: Path | None = None,
) -> InstalledModel:
    """Add a model to the library where it is, copying nothing (its other shards must lie beside it).

    `known_sha256` is the hash the app that keeps the file recorded (Ollama's blob digest,
    the Hugging Face cache's LFS hash): it is recorded so Verify can compare the file with it.
    `projector` is the vision projector its app keeps apart from it (Ollama's); one beside the
    model is found without it.
    """
    source = Path(os.path.abspath(Path(source).expanduser()))
    shards = _whole_model(source)
    index = VerifiedIndex(models_dir)
    _refuse_duplicate(source, models_dir, index, known_sha256, progress, cancel)
    LinkIndex(models_dir).add(source, name or _display_name(source), origin, projector)
    if known_sha256 and len(shards) == 1:
        index.record(source, known_sha256.lower(), origin.value, {"recorded_by": origin.value})
    return _model_at(source, models_dir)


def _refuse_duplicate(
    source: Path,
    models_dir: Path,
    index: VerifiedIndex,
    known_sha256: str | None,
    progress: ProgressCallback | None,
    cancel: threading.Event | None,
) -> None:
    """Raise AlreadyInLibrary when the library has this file, or a file with its SHA-256 (first shards compared)."""
    models = [m for m in installed_models(models_dir) if not m.missing]
    resolved = source.resolve()
    for model in models:
        if model.path.resolve() == resolved:
            raise AlreadyInLibrary(source, model, same_file=True)
    size = source.stat().st_size
    same_size = [m for m in models if m.files[0].stat().st_size == size]
    if not same_size:
        return
    sha = known_sha256 or sha256_file(source, progress, cancel).hexdigest()
    for model in same_size:
        first = model.files[0]
        record = index.lookup(first)
        if record is not None and index.state(first) is VerifyState.VERIFIED:
            other = record.sha256
        else:
            other = sha256_file(first, cancel=cancel).hexdigest()
        if other == sha:
            raise AlreadyInLibrary(source, model, same_file=False)


def _display_name(path: Path) -> str:
    match = SPLIT_PATTERN.match(path.name)
    return match["base"] if match else path.stem


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
            writer.flush()
            os.fsync(writer.fileno())
        atomic_move(temporary, target)
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
    raise LibraryError(fill(N_("{path} was added but is not listed as a model"), path=path))


def _whole_model(source: Path) -> list[Path]:
    """The model file's shards, all of them there, after the file itself was checked; LibraryError otherwise
    (also for a projector file: it is no model of its own)."""
    check_model_file(source)
    if read_model_shape(source)[0] == PROJECTOR_ARCHITECTURE:
        raise LibraryError(
            fill(
                N_(
                    "{name} is a projector (mmproj) file, not a model: it lets the model it was made for read "
                    "images. Keep it in the folder of that model, where Glassbox finds it, and add the model."
                ),
                name=source.name,
            )
        )
    shards = split_shards(source)
    missing = [shard.name for shard in shards if not shard.is_file()]
    if missing:
        raise LibraryError(
            fill(
                N_("{name} is part of a split model, but these parts are missing beside it: {missing}"),
                name=source.name,
                missing=", ".join(missing),
            )
        )
    return shards
