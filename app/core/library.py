"""Installed models: the models folder plus the starter model."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.starter import find_starter_model


@dataclass(frozen=True)
class InstalledModel:
    name: str
    path: Path
    size_bytes: int
    is_starter: bool = False


def installed_models(models_dir: Path) -> list[InstalledModel]:
    """Models in `models_dir` (sorted by name), then the starter model if it is installed."""
    models: list[InstalledModel] = []
    if models_dir.is_dir():
        for path in sorted(models_dir.rglob("*.gguf")):
            if path.is_file():
                models.append(InstalledModel(name=path.stem, path=path, size_bytes=path.stat().st_size))
    starter = find_starter_model()
    if starter is not None:
        models.append(
            InstalledModel(name=starter.stem, path=starter, size_bytes=starter.stat().st_size, is_starter=True)
        )
    return models
