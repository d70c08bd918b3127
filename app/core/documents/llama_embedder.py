"""llama.cpp in embedding mode on a GGUF model: what runs inside the embedding process.

`LlamaEmbedder` owns a `llama_cpp.Llama(embedding=True)`: a context of its own, apart from
the chat model's, so embedding never touches the chat's KV cache. The window never calls
it directly; `EmbeddingProcess` runs it in a child process.

Models made for embeddings (nomic-embed-text, bge, all-MiniLM in GGUF form) name their
pooling in the file (`<arch>.pooling_type`) and llama.cpp applies it. A chat model used in
embedding mode (the starter model, in the tests) names none, so Glassbox asks llama.cpp
for the mean of the token vectors. Inputs longer than the context are cut to it; every
vector is scaled to length 1.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path

import llama_cpp
import numpy as np

from app.core.documents.embeddings import EmbeddingCancelled, EmbeddingError, model_key_for
from app.core.documents.vectors import Matrix
from app.core.inference.llama_log import install_llama_logging
from app.core.models.gguf_info import read_gguf_info
from app.core.models.validation import check_model_file

log = logging.getLogger(__name__)

EMBEDDING_CONTEXT = 2048  # tokens per input at most (and less when the model was trained for less)


class LlamaEmbedder:
    """llama.cpp in embedding mode on one GGUF model; one thread uses it at a time."""

    def __init__(self, model_path: Path, n_threads: int | None = None) -> None:
        install_llama_logging()
        check_model_file(model_path)
        info = read_gguf_info(model_path)
        trained = info.context_length or EMBEDDING_CONTEXT
        n_ctx = min(EMBEDDING_CONTEXT, trained)
        pooling = (
            llama_cpp.LLAMA_POOLING_TYPE_UNSPECIFIED
            if info.arch_value("pooling_type") is not None
            else llama_cpp.LLAMA_POOLING_TYPE_MEAN
        )
        try:
            self._llama = llama_cpp.Llama(
                model_path=str(model_path),
                embedding=True,
                n_ctx=n_ctx,
                n_batch=n_ctx,
                n_ubatch=n_ctx,  # encoder models take each input in one micro-batch
                n_threads=n_threads,
                pooling_type=pooling,
                verbose=False,
            )
        except (ValueError, RuntimeError) as error:
            raise EmbeddingError(f"The embedding model {model_path.name} could not be loaded: {error}") from error
        self.path = model_path
        self.dim = int(self._llama.n_embd())
        self.model_key = model_key_for(model_path, self.dim)
        log.info("Embedding model %s loaded (%d dimensions, context %d)", model_path.name, self.dim, n_ctx)

    def embed(self, texts: Sequence[str], cancel: threading.Event | None = None) -> Matrix:
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for index, text in enumerate(texts):
            if cancel is not None and cancel.is_set():
                raise EmbeddingCancelled("Embedding was cancelled.")
            vector = np.asarray(self._llama.embed(text or " ", normalize=False, truncate=True), dtype=np.float32)
            if vector.ndim == 2:  # per-token vectors (a model whose pooling llama.cpp left to us)
                vector = vector.mean(axis=0)
            norm = float(np.linalg.norm(vector))
            rows[index] = vector / norm if norm > 0 else vector
        return rows

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Tokens each text gives this model, as embedded: at most the context, where `embed` truncates."""
        n_ctx = self._llama.n_ctx()
        return [min(len(self._llama.tokenize((text or " ").encode("utf-8"))), n_ctx) for text in texts]

    def close(self) -> None:
        self._llama.close()
