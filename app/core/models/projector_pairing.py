"""Which projector file (mmproj) goes with a model file found on disk.

Hugging Face repositories, LM Studio's folders and llama.cpp's users keep a vision model's
projector beside it, named `mmproj-*.gguf` (often `mmproj-<model>-f16.gguf`, or LM Studio's
`mmproj-model-f16.gguf`). A projector beside a model is the model's only when it belongs to it
(projector_file.py: it makes embeddings of the model's size, for the model's architecture), so a
projector of another model in a shared folder is never paired; among several that belong, the
one whose name shares the most with the model's is. Only headers are read (the model's first
entries, the projector's small header), never weights.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePath

from app.core.models.gguf_info import GgufInfo, GgufInfoError, read_gguf_info
from app.core.models.projector_file import ModelShape, projector_problem

MARK = "mmproj"


def is_projector_name(path: Path) -> bool:
    """Named as llama.cpp's converter and the Hub's repositories name projector files."""
    return MARK in path.name.lower() and path.suffix.lower() == ".gguf"


def projectors_beside(models: Iterable[Path]) -> list[Path]:
    """The projector files in the folders of `models`, each once, in order of their paths."""
    found: set[Path] = set()
    for folder in {model.parent for model in models}:
        found.update(_projectors_in(folder))
    return sorted(found)


def projector_beside(model: Path) -> Path | None:
    """The projector in `model`'s folder that belongs to it, or None."""
    return ProjectorPairing().projector_for(model)


class ProjectorPairing:
    """Pairs model files with the projectors beside them for one listing of the library: each folder
    is listed once and each projector's header read once."""

    def __init__(self) -> None:
        self._folders: dict[Path, list[Path]] = {}
        self._headers: dict[Path, GgufInfo | None] = {}

    def projector_for(self, model: Path) -> Path | None:
        """The projector beside `model` that belongs to it, or None (also when a header cannot be read)."""
        folder = model.parent
        if folder not in self._folders:
            self._folders[folder] = _projectors_in(folder)
        candidates = self._folders[folder]
        if not candidates:
            return None
        try:
            shape = ModelShape.of(model)
        except GgufInfoError:
            return None
        belonging = [path for path in candidates if self._belongs(path, shape)]
        if not belonging:
            return None
        return max(belonging, key=lambda path: name_likeness(path, model.stem))

    def _belongs(self, projector: Path, model: ModelShape) -> bool:
        if projector not in self._headers:
            try:
                self._headers[projector] = read_gguf_info(projector)
            except GgufInfoError:
                self._headers[projector] = None
        info = self._headers[projector]
        return info is not None and projector_problem(info, model) is None


def _projectors_in(folder: Path) -> list[Path]:
    try:
        return sorted(path for path in folder.iterdir() if is_projector_name(path) and path.is_file())
    except OSError:
        return []


def name_likeness(projector: PurePath, model_stem: str) -> int:
    """How much of the model's name the projector's name shares (without "mmproj"), from the start."""
    return _shared_start(_bare(projector), model_stem.lower())


def _shared_start(a: str, b: str) -> int:
    """How many leading characters two names have in common."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _bare(projector: PurePath) -> str:
    """The projector's name without "mmproj" and its separators: what it shares with the model's name."""
    return projector.stem.lower().replace(MARK, "", 1).strip("-_.")
