"""Installed models: the models folder plus the starter model; listing, finding, verifying, deleting.

Layout: `models/<owner>/<repository>/<file>.gguf` for downloads, `models/imported/<file>.gguf`
for imports. A split model (`name-00001-of-00003.gguf` …) is one model whose path is its
first shard (llama.cpp finds the others beside it). A vision model's projector (`mmproj-*.gguf`)
lies beside it and is listed with it, never as a model (projector_pairing.py). Models used in place (links.py) stay
where another app keeps them; the library lists them too, as missing when their file has gone.

Beside this module: names.py (safe names for files from a repository), hashing.py (SHA-256
and the verified-hash index), importing.py (copying a file from elsewhere into the library,
or adding it in place), links.py (the record of models used in place), elsewhere.py (models
other apps keep on this computer).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from app.core.models.gguf_info import GgufInfoError
from app.core.models.gguf_summary import GgufSummary, read_gguf_summary
from app.core.models.hashing import (
    ProgressCallback,
    VerifiedIndex,
    VerifyResult,
    VerifyState,
)
from app.core.models.links import LinkedFile, LinkIndex, Missing, ModelSource, missing_reason
from app.core.models.projector_pairing import ProjectorPairing, is_projector_name
from app.core.models.starter import find_starter_model
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

SPLIT_PATTERN = re.compile(r"^(?P<base>.+)-(?P<index>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)


class LibraryError(Exception):
    """A library action that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class InstalledModel:
    name: str
    path: Path
    size_bytes: int
    is_starter: bool = False
    shards: tuple[Path, ...] = ()  # every file of the model, first shard first; () means just `path`
    source: ModelSource | None = None  # where a model used in place was found; None: in the models folder
    missing: Missing | None = None  # why a model used in place cannot be used now
    projector: Path | None = None  # the projector (mmproj) that lets it read images; None: a text model

    @property
    def sees_images(self) -> bool:
        return self.projector is not None

    @property
    def files(self) -> tuple[Path, ...]:
        return self.shards or (self.path,)

    @property
    def in_place(self) -> bool:
        """Used where another app keeps it: Glassbox never moves or deletes its file."""
        return self.source is not None


def installed_models(models_dir: Path, include_missing: bool = False) -> list[InstalledModel]:
    """Models in `models_dir` and those used in place (sorted by name), then the starter model if installed.

    A model used in place whose file has gone is listed only with `include_missing` (the
    library shows it as missing; pickers and the backend never offer it).
    """
    pairing = ProjectorPairing()
    models = _folder_models(models_dir, pairing)
    for link in LinkIndex(models_dir).links():
        model = _linked_model(link, pairing)
        if model.missing is None or include_missing:
            models.append(model)
    models.sort(key=lambda m: (m.name.lower(), str(m.path)))
    starter = find_starter_model()
    if starter is not None:
        models.append(
            InstalledModel(name=starter.stem, path=starter, size_bytes=starter.stat().st_size, is_starter=True)
        )
    return models


def _folder_models(models_dir: Path, pairing: ProjectorPairing) -> list[InstalledModel]:
    """The models in the models folder, each with the projector beside it that belongs to it (a projector
    file is no model of its own)."""
    models: list[InstalledModel] = []
    if models_dir.is_dir():
        for path in sorted(models_dir.rglob("*.gguf"), key=lambda p: (p.name.lower(), str(p))):
            if not path.is_file() or is_projector_name(path):
                continue
            split = SPLIT_PATTERN.match(path.name)
            if split is None:
                models.append(
                    InstalledModel(
                        name=path.stem,
                        path=path,
                        size_bytes=path.stat().st_size,
                        projector=pairing.projector_for(path),
                    )
                )
            elif int(split["index"]) == 1:
                shards = split_shards(path)
                models.append(
                    InstalledModel(
                        name=split["base"],
                        path=path,
                        size_bytes=sum(shard.stat().st_size for shard in shards if shard.is_file()),
                        shards=tuple(shards),
                        projector=pairing.projector_for(path),
                    )
                )
    return models


def _linked_model(link: LinkedFile, pairing: ProjectorPairing) -> InstalledModel:
    """A model used in place, with the projector its app recorded for it (Ollama), else the one beside it."""
    shards = split_shards(link.path)
    missing = next((reason for shard in shards if (reason := missing_reason(shard)) is not None), None)
    size = 0 if missing else sum(shard.stat().st_size for shard in shards)
    return InstalledModel(
        name=link.name,
        path=link.path,
        size_bytes=size,
        shards=tuple(shards) if len(shards) > 1 else (),
        source=link.source,
        missing=missing,
        projector=_linked_projector(link, pairing) if missing is None else None,
    )


def _linked_projector(link: LinkedFile, pairing: ProjectorPairing) -> Path | None:
    recorded = link.projector if link.projector is not None and link.projector.is_file() else None
    return recorded or pairing.projector_for(link.path)


def projector_of(models_dir: Path, path: Path) -> Path | None:
    """The projector the library pairs with the model file `path`: the one its app keeps for it when it is
    used in place (Ollama's), else the one beside it that belongs to it; None for a text model."""
    link = LinkIndex(models_dir).find(path)
    if link is not None:
        return _linked_projector(link, ProjectorPairing())
    return ProjectorPairing().projector_for(path)


def split_shards(first: Path) -> list[Path]:
    """All shard paths of a split model given its first shard (whether or not they exist yet)."""
    match = SPLIT_PATTERN.match(first.name)
    if match is None:
        return [first]
    count = int(match["count"])
    width = len(match["index"])
    return [first.with_name(f"{match['base']}-{i:0{width}d}-of-{match['count']}.gguf") for i in range(1, count + 1)]


@dataclass(frozen=True)
class LibraryEntry:
    model: InstalledModel
    summary: GgufSummary | None
    problem: str | None  # why the file cannot be read, if it cannot
    state: VerifyState
    reference: str | None  # "hub", "import", "ollama" or "huggingface-cache" when a hash is recorded


def describe(model: InstalledModel, index: VerifiedIndex) -> LibraryEntry:
    """The library row of a model: GGUF metadata and verified status (reads the header only)."""
    if model.missing is not None:
        return LibraryEntry(model, None, None, VerifyState.UNKNOWN, None)
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
    return [describe(model, index) for model in installed_models(models_dir, include_missing=True)]


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
            raise LibraryError(
                fill(
                    N_("{name} matches several models: {choices}. Give the path under the models folder."),
                    name=f"{name!r}",
                    choices=choices,
                )
            )
    raise LibraryError(
        fill(N_("No installed model is called {name}; `glassbox models list` shows the names."), name=f"{name!r}")
    )


def verify_model(
    model: InstalledModel,
    index: VerifiedIndex,
    progress: ProgressCallback | None = None,
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
    """Delete a model's files (all shards) and their hash records; only inside the models folder.

    A model used in place is only removed from the library: its file stays where it is.
    """
    index = index or VerifiedIndex(models_dir)
    if model.in_place:
        LinkIndex(models_dir).remove(model.path)
        for file in model.files:
            index.forget(file)
        log.info("No longer using %s in place; its file stays at %s", model.name, model.path)
        return []
    if model.is_starter or not is_inside(model.path, models_dir):
        raise LibraryError(
            fill(
                N_("{path} is not in the models folder {models_dir}; Glassbox only deletes files it manages."),
                path=model.path,
                models_dir=models_dir,
            )
        )
    removed: list[Path] = []
    for file in model.files:
        try:
            file.unlink()
        except FileNotFoundError:
            pass
        except OSError as error:
            raise LibraryError(
                fill(
                    N_("Cannot delete {file}: {strerror}. Close programs using it and retry."),
                    file=file,
                    strerror=error.strerror or error,
                )
            ) from error
        index.forget(file)
        removed.append(file)
    _prune_empty_folders(model.path.parent, models_dir)
    log.info("Deleted model %s (%d files)", model.name, len(removed))
    return removed


def is_inside(path: Path, folder: Path) -> bool:
    root = os.path.normpath(os.path.abspath(folder))
    return os.path.commonpath([root, os.path.normpath(os.path.abspath(path))]) == root


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.relative_to(folder).as_posix()
    except ValueError:
        return str(path)


def _prune_empty_folders(folder: Path, models_dir: Path) -> None:
    while is_inside(folder, models_dir) and folder != models_dir:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
