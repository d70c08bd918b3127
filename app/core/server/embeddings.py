"""POST /v1/embeddings: an embedding context of its own beside the model that writes text.

The chat model's context is built for generating (no pooled output), and giving it embedding
work would make chat requests wait behind it; so the server opens a second llama.cpp context
in embedding mode, in a child process (documents' `EmbeddingProcess`), started on the first
embeddings request. It runs the embedding model the server was given, or else the served
model's own file: llama.cpp pools any GGUF model into one vector per text (an embedding
model with its own pooling, a chat model by the mean over its tokens). A model llama.cpp
cannot open for embeddings is a 400 that says why, and the context is closed with the server.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from app.core.documents.embedding_process import EmbeddingProcess
from app.core.documents.embeddings import EmbeddingError
from app.core.documents.vectors import Matrix
from app.core.server.errors import ApiError, invalid

ENCODINGS = ("float", "base64")


@dataclass(frozen=True)
class EmbeddingRequest:
    texts: list[str]
    encoding: str  # "float" or "base64" (little-endian float32, what the openai client asks for)
    dimensions: int | None


@dataclass(frozen=True)
class Embedded:
    model: str
    vectors: Matrix
    tokens: list[int]


def parse_embedding_request(body: Mapping[str, Any]) -> EmbeddingRequest:
    value = body.get("input")
    if isinstance(value, str):
        texts = [value]
    elif isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        texts = list(value)
    else:
        raise invalid("input", "must be a text or a non-empty list of texts.")
    encoding = body.get("encoding_format") or "float"
    if encoding not in ENCODINGS:
        raise invalid("encoding_format", f"must be one of {', '.join(ENCODINGS)}.")
    dimensions = body.get("dimensions")
    if dimensions is not None and (isinstance(dimensions, bool) or not isinstance(dimensions, int) or dimensions < 1):
        raise invalid("dimensions", "must be a positive whole number.")
    return EmbeddingRequest(texts, encoding, dimensions)


class ServerEmbeddings:
    """The embedding context, opened on first use for one model file and reopened when that file changes."""

    def __init__(self, model_path: Path | None = None) -> None:
        self._fixed = model_path  # the embedding model the server was given; None: the served model
        self._process: EmbeddingProcess | None = None
        self._lock = threading.Lock()

    def embed(self, served_model: Path, request: EmbeddingRequest) -> Embedded:
        """Blocking (run it off the event loop); an ApiError when the model cannot make embeddings."""
        path = self._fixed or served_model
        with self._lock:
            process = self._process_for(path)
            try:
                vectors, tokens = process.embed_counted(request.texts)
            except EmbeddingError as error:
                process.close()
                self._process = None
                raise ApiError(
                    400,
                    f"{path.stem} cannot make embeddings here: {error}",
                    param="model",
                    code="embeddings_not_supported",
                ) from error
        if request.dimensions is not None and request.dimensions != vectors.shape[1]:
            raise invalid(
                "dimensions",
                f"{path.stem} makes vectors of {vectors.shape[1]} dimensions; leave dimensions out or ask for that.",
            )
        return Embedded(path.stem, vectors, tokens)

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                self._process.close()
                self._process = None

    def _process_for(self, path: Path) -> EmbeddingProcess:
        if self._process is not None and self._process.model_path != path:
            self._process.close()
            self._process = None
        if self._process is None:
            self._process = EmbeddingProcess(path)
        return self._process


def embedding_response(embedded: Embedded, encoding: str) -> dict[str, Any]:
    total = sum(embedded.tokens)
    return {
        "object": "list",
        "model": embedded.model,
        "data": [
            {"object": "embedding", "index": index, "embedding": _encoded(vector, encoding)}
            for index, vector in enumerate(embedded.vectors)
        ],
        "usage": {"prompt_tokens": total, "total_tokens": total},
    }


def _encoded(vector: np.ndarray, encoding: str) -> list[float] | str:
    if encoding == "base64":
        return base64.b64encode(vector.astype("<f4").tobytes()).decode("ascii")
    return [float(value) for value in vector]
