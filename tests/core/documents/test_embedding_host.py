"""The embedding model's child is served by the same host as the engine's: its own table of operations,
the same handling of an unknown operation, the same words for a child that died."""

from __future__ import annotations

import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from app.core.backends.local.process import EngineService
from app.core.documents.embedding_process import Describe, Description, Embed, EmbeddingService, Vectors
from app.core.documents.embeddings import EmbeddingError
from app.core.documents.vectors import Matrix
from app.core.support.child_host import Aborts, run_job
from app.core.support.child_messages import Failed, Finished, Job
from tests.core.support.child_services import Rewind

SERVICE = EmbeddingService(Path("embed.gguf"), n_threads=1)


class TwoDimensions:
    """Stands in for LlamaEmbedder in the child: a text's vector is (its length, 1)."""

    dim = 2
    model_key = "two|2"

    def embed(self, texts: Sequence[str]) -> Matrix:
        return np.array([[len(text), 1.0] for text in texts], dtype=np.float32)

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return [len(text.split()) for text in texts]

    def close(self) -> None:
        pass


def run(work: object) -> Finished | Failed:
    sent: list[Any] = []
    run_job(SERVICE, TwoDimensions(), Job(3, work), Aborts(), sent.append)
    [answer] = sent
    return answer


def test_the_embedding_operations_answer_through_the_shared_host() -> None:
    assert run(Describe()) == Finished(3, Description(2, "two|2"))

    finished = run(Embed(("one two", "three")))

    assert isinstance(finished, Finished) and isinstance(finished.value, Vectors)
    rows = np.frombuffer(finished.value.data, dtype=np.float32).reshape(finished.value.rows, 2)
    assert rows.tolist() == [[7.0, 1.0], [5.0, 1.0]] and finished.value.tokens == (2, 1)


def test_an_unknown_embedding_operation_is_an_embedding_error_naming_it() -> None:
    failed = run(Rewind())

    assert isinstance(failed, Failed)
    error = failed.error.to_exception()
    assert isinstance(error, EmbeddingError) and "Rewind" in str(error)


def test_a_dying_embedding_child_is_worded_as_a_dying_engine() -> None:
    lines = ("llama.cpp:12: GGML_ASSERT(n > 0) failed",)
    for exit_code in (-signal.SIGKILL, -signal.SIGSEGV, 1):
        embedding = SERVICE.crashed(exit_code, "making embeddings", lines)
        engine = EngineService().crashed(exit_code, "making embeddings", lines)

        assert isinstance(embedding, EmbeddingError)
        assert str(embedding) == str(engine).replace("engine process", "embedding process")
        assert "GGML_ASSERT(n > 0) failed" in str(embedding)
