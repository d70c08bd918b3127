"""Which projector file (mmproj) goes with a model file found on disk.

Hugging Face repositories, LM Studio's folders and llama.cpp's users keep a vision model's
projector beside it, named `mmproj-*.gguf` (often `mmproj-<model>-f16.gguf`). With one such file
in the folder it is the model's; with several, the one whose name shares the most with the
model's is.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

PREFIX = "mmproj"


def is_projector_name(path: Path) -> bool:
    return path.name.lower().startswith(PREFIX) and path.suffix.lower() == ".gguf"


def projectors_beside(models: Iterable[Path]) -> list[Path]:
    """The projector files in the folders of `models`, each once, in order of their paths."""
    found: set[Path] = set()
    for folder in {model.parent for model in models}:
        try:
            found.update(path for path in folder.iterdir() if is_projector_name(path) and path.is_file())
        except OSError:
            continue
    return sorted(found)


def projector_beside(model: Path) -> Path | None:
    """The projector in `model`'s folder that belongs to it, or None."""
    try:
        candidates = sorted(path for path in model.parent.iterdir() if is_projector_name(path) and path.is_file())
    except OSError:
        return None
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    stem = model.stem.lower()
    return max(candidates, key=lambda path: _shared_start(_bare(path), stem))


def _shared_start(a: str, b: str) -> int:
    """How many leading characters two names have in common."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def _bare(projector: Path) -> str:
    """The projector's name without "mmproj" and its separator: what it shares with the model's name."""
    return projector.stem.lower()[len(PREFIX) :].lstrip("-_.")
