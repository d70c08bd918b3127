"""Embeddings through llama.cpp in a process of its own: the starter model in embedding mode (the code path;
quality is not the point), a damaged model, a cancel, and a child that dies."""

from __future__ import annotations

import logging
import os
import signal
import threading
from pathlib import Path

import numpy as np
import pytest

from app.core.documents.embedding_process import EmbeddingProcess
from app.core.documents.embeddings import EmbeddingCancelled, EmbeddingError
from app.core.inference.crash_report import describe_crash


@pytest.fixture
def embedder(starter_model: Path) -> EmbeddingProcess:
    process = EmbeddingProcess(starter_model, n_threads=2)
    yield process
    process.close()


def test_the_starter_model_in_embedding_mode_gives_unit_vectors_one_per_text(embedder: EmbeddingProcess) -> None:
    texts = ["The cat sat on the mat.", "A kitten rested on the rug.", "Tax returns are due in April.", "今天天气很好"]

    vectors = embedder.embed(texts * 3)  # more than one batch

    assert vectors.shape == (12, embedder.dim)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.allclose(vectors[:4], vectors[4:8]), "the same text gives the same vector"
    similarity = vectors[:4] @ vectors[:4].T
    assert similarity[0, 1] > similarity[0, 2], "two sentences about a cat are closer than one about taxes"
    assert embedder.model_key.startswith("SmolLM2") and embedder.model_key.endswith(f"|{embedder.dim}")


def test_the_embedding_process_is_not_the_callers_process(embedder: EmbeddingProcess) -> None:
    embedder.start()

    assert embedder.pid is not None and embedder.pid != os.getpid()


@pytest.mark.expected_log("app.core.documents.embedding_process", logging.ERROR, r"killed \(SIGKILL\)")
def test_a_killed_embedding_process_is_an_error_and_the_next_call_starts_a_new_one(embedder: EmbeddingProcess) -> None:
    embedder.start()
    first = embedder.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)

    with pytest.raises(EmbeddingError, match="killed") as error:
        embedder.embed(["still there?"])  # a death between calls is said once, as the engine's is

    # The engine's words for the same death: what killed it, while doing what.
    doing = f"making embeddings with {embedder.model_path.name}"
    assert str(error.value).startswith(describe_crash(signal.SIGKILL, doing))

    assert embedder.embed(["back again"]).shape == (1, embedder.dim)
    assert embedder.pid not in (None, first)


def test_a_damaged_model_file_is_an_embedding_error_naming_the_file(tmp_path: Path) -> None:
    model = tmp_path / "broken-embed.gguf"
    model.write_bytes(b"GGUF" + b"\x00" * 64)
    process = EmbeddingProcess(model)
    try:
        with pytest.raises(EmbeddingError, match=r"broken-embed\.gguf"):
            process.embed(["hello"])
        assert not process.running
    finally:
        process.close()


def test_a_set_cancel_event_stops_before_the_next_batch(tmp_path: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    process = EmbeddingProcess(tmp_path / "never-loaded.gguf")

    with pytest.raises(EmbeddingCancelled):
        process.embed(["a", "b"], cancel)
    assert not process.running
