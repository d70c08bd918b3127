"""A hand-made Embedder for the tests: a text's vector counts fixed words, so expected orders are exact."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from app.core.documents.embeddings import EmbeddingCancelled, EmbeddingError
from app.core.documents.vectors import Matrix


class WordCountEmbedder:
    """Dimension i counts `words[i]` in the text (plus a small constant, so no vector is zero)."""

    def __init__(self, words: Sequence[str], fail_after: int | None = None) -> None:
        self.words = [w.casefold() for w in words]
        self.calls = 0
        self.embedded = 0
        self._fail_after = fail_after

    @property
    def model_key(self) -> str:
        return f"word-count|{len(self.words)}"

    def embed(self, texts: Sequence[str], cancel: threading.Event | None = None) -> Matrix:
        if cancel is not None and cancel.is_set():
            raise EmbeddingCancelled("Embedding was cancelled.")
        self.calls += 1
        if self._fail_after is not None and self.calls > self._fail_after:
            raise EmbeddingError("The embedding process ended while making embeddings (exit code 1).")
        rows = np.full((len(texts), len(self.words)), 0.01, dtype=np.float32)
        for row, text in enumerate(texts):
            tokens = text.casefold().replace(".", " ").replace(",", " ").split()
            for column, word in enumerate(self.words):
                rows[row, column] += tokens.count(word)
        self.embedded += len(texts)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)
