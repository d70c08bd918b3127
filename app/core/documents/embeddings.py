"""What makes embedding vectors: the Embedder interface, its errors, and the key vectors are stored under.

The one real Embedder is `EmbeddingProcess` (embedding_process.py), which runs
`LlamaEmbedder` (llama_embedder.py) in a child process of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from app.core.documents.vectors import Matrix


class EmbeddingError(Exception):
    """Embeddings could not be made; the message says why and what to do."""


class EmbeddingCancelled(EmbeddingError):
    """The caller's cancel event was set while vectors were being made."""


class Embedder(Protocol):
    """Turns texts into unit vectors; `model_key` names the model so vectors of two models never mix."""

    @property
    def model_key(self) -> str: ...

    def embed(self, texts: Sequence[str], cancel: threading.Event | None = None) -> Matrix:
        """One row per text, float32, each of length 1."""


def model_key_for(path: Path, dim: int) -> str:
    """What vectors made by this model file are stored under: its name, size and dimensions."""
    return f"{path.name}|{path.stat().st_size}|{dim}"
