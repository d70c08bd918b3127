"""The embedding model in a child process of its own, so that making vectors never blocks the chat.

Why a process and not a thread: llama.cpp can end its process (an assert, an unsupported
CPU instruction, running out of memory), and a process of its own keeps the window and
the chat's engine process alive when it does; it also keeps the GIL-bound parts of
llama-cpp-python (tokenizing, copying vectors into Python) from taking turns with the
window's thread. The child runs at a lower priority (nice 10 on POSIX), so on a machine
with few cores the chat's engine gets the CPU first and a reply does not slow down while a
folder is indexed. The model file is memory-mapped, so its weights are shared with the
page cache rather than copied.

The child is served by the same host as the engine's (app/core/support/child_host.py):
`EmbeddingService` opens the model and answers two operations, `Describe` (its
dimensions and the key its vectors are stored under) and `Embed`. `EmbeddingProcess` is an
`Embedder`: `embed` sends the texts in batches of EMBED_BATCH, checks the cancel event
between batches and watches the child while it waits, so a dead child is an
`EmbeddingError` that says what happened (as the engine's death does), never a hang. It is started on first use
and is safe to call from several threads (an indexing thread and the retrieval thread);
a question waits for at most one batch of an indexing run.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from app.core.documents.embeddings import EmbeddingCancelled, EmbeddingError
from app.core.documents.vectors import Matrix
from app.core.inference.crash_report import describe_exit
from app.core.support.child_host import ChildService, Operation, Send
from app.core.support.child_messages import ErrorReport, Failed, Finished, Job
from app.core.support.child_process import ChildProcess, next_job_id
from app.core.support.formatting import fill
from app.core.support.user_text import N_, text_of

if TYPE_CHECKING:
    from app.core.documents.llama_embedder import LlamaEmbedder

log = logging.getLogger(__name__)

EMBED_BATCH = 8
BATCH_TIMEOUT_S = 300.0  # one batch of EMBED_BATCH chunks on a slow CPU and a big model
CHILD_NICENESS = 10
IDLE = "waiting for texts"


# ---- the work and its answers ------------------------------------------------------------------


@dataclass(frozen=True)
class Describe:
    """What the loaded model gives: its dimensions and the key its vectors are stored under."""


@dataclass(frozen=True)
class Description:
    dim: int
    model_key: str


@dataclass(frozen=True)
class Embed:
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Vectors:
    data: bytes  # float32 rows
    rows: int
    tokens: tuple[int, ...]  # each text's token count


@dataclass(frozen=True)
class EmbeddingFailure:
    """An error of the embedding child as it crosses the pipe."""

    message: str
    unexpected: bool

    def to_exception(self) -> Exception:
        return EmbeddingError(self.message)


def _describe(embedder: LlamaEmbedder, _work: Describe, _job: int, _flag: threading.Event, _send: Send) -> Any:
    return Description(embedder.dim, embedder.model_key)


def _embed(embedder: LlamaEmbedder, work: Embed, _job: int, _flag: threading.Event, _send: Send) -> Any:
    rows = embedder.embed(work.texts)
    tokens = tuple(embedder.count_tokens(work.texts))
    return Vectors(rows.astype(np.float32).tobytes(), rows.shape[0], tokens)


OPERATIONS: dict[type, Operation[LlamaEmbedder]] = {Describe: _describe, Embed: _embed}


class _PoolingWeAskedFor(logging.Filter):
    """llama.cpp warns when the pooling differs from the model's own: for a model that names none, we chose mean."""

    def filter(self, record: logging.LogRecord) -> bool:
        if "pooling_type is [-1]" in record.getMessage() and record.levelno == logging.WARNING:
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


class EmbeddingService(ChildService["LlamaEmbedder"]):
    """The embedding child: one embedding model, loaded when the child starts, and its two operations."""

    name = "embedding"
    operations = OPERATIONS

    def __init__(self, model_path: Path, n_threads: int | None) -> None:
        self.model_path = model_path
        self.n_threads = n_threads

    def open(self) -> LlamaEmbedder:
        logging.getLogger("llama.cpp").addFilter(_PoolingWeAskedFor())
        with contextlib.suppress(AttributeError, OSError):  # os.nice is POSIX-only
            os.nice(CHILD_NICENESS)
        from app.core.documents.llama_embedder import LlamaEmbedder  # here: only the child imports llama.cpp

        return LlamaEmbedder(self.model_path, self.n_threads)

    def report(self, error: BaseException) -> ErrorReport:
        if isinstance(error, EmbeddingError):
            return EmbeddingFailure(text_of(error), unexpected=False)
        text = text_of(error) or type(error).__name__
        return EmbeddingFailure(fill(N_("Embedding failed: {error}"), error=text), unexpected=True)

    def unknown(self, name: str) -> Exception:
        return EmbeddingError(fill(N_("The embedding process has no operation called {name}."), name=name))

    def not_started(self, seconds: float) -> Exception:
        return EmbeddingError(
            fill(N_("The embedding process did not start within {seconds} s."), seconds=f"{seconds:.0f}")
        )

    def crashed(self, exit_code: int | None, doing: str, last_lines: tuple[str, ...]) -> Exception:
        return EmbeddingError(describe_exit(self.name, exit_code, doing, last_lines))


# ---- the caller's side -------------------------------------------------------------------------


class EmbeddingProcess:
    """An Embedder whose model runs in a child process; close() ends it (bounded)."""

    def __init__(self, model_path: Path, n_threads: int | None = None) -> None:
        self.model_path = model_path
        self._lock = threading.Lock()
        self._doing = IDLE
        self._child = ChildProcess(EmbeddingService(model_path, n_threads), lambda: self._doing, log)
        self._description: Description | None = None

    @property
    def model_key(self) -> str:
        return self._started().model_key

    @property
    def dim(self) -> int:
        return self._started().dim

    @property
    def pid(self) -> int | None:
        return self._child.pid if self.running else None

    @property
    def running(self) -> bool:
        return self._child.running

    def start(self) -> None:
        """Start the child and load the model now (it is otherwise started by the first call)."""
        self._started()

    def embed(self, texts: Sequence[str], cancel: threading.Event | None = None) -> Matrix:
        return self.embed_counted(texts, cancel)[0]

    def embed_counted(self, texts: Sequence[str], cancel: threading.Event | None = None) -> tuple[Matrix, list[int]]:
        """The vectors and each text's token count (what an API's usage reports)."""
        rows: list[Matrix] = []
        tokens: list[int] = []
        for start in range(0, len(texts), EMBED_BATCH):
            if cancel is not None and cancel.is_set():
                raise EmbeddingCancelled(N_("Embedding was cancelled."))
            batch, counts = self._embed_batch(tuple(texts[start : start + EMBED_BATCH]))
            rows.append(batch)
            tokens += counts
        dim = self.dim
        return (np.concatenate(rows) if rows else np.zeros((0, dim), dtype=np.float32)), tokens

    def close(self) -> None:
        """Ask the child to exit, then terminate, then kill it."""
        with self._lock:
            self._stop()

    # ---- inside the lock ---------------------------------------------------------------

    def _started(self) -> Description:
        with self._lock:
            return self._ensure_started()

    def _embed_batch(self, texts: tuple[str, ...]) -> tuple[Matrix, list[int]]:
        with self._lock:
            description = self._ensure_started()
            answer = self._run(Embed(texts), f"making embeddings with {self.model_path.name}")
            if not isinstance(answer, Vectors) or answer.rows != len(texts):
                self._stop()
                raise EmbeddingError(N_("The embedding process answered out of turn; it was restarted."))
            rows = np.frombuffer(answer.data, dtype=np.float32).reshape(answer.rows, description.dim).copy()
            return rows, list(answer.tokens)

    def _ensure_started(self) -> Description:
        if self._description is not None and self._child.running:
            return self._description
        self._description = None
        description = self._run(Describe(), f"loading {self.model_path.name}")
        if not isinstance(description, Description):
            self._stop()
            raise EmbeddingError(N_("The embedding process answered out of turn; it was restarted."))
        self._description = description
        return description

    def _run(self, work: Describe | Embed, doing: str) -> object:
        """The work's result; EmbeddingError when it failed, the child died, or it took over BATCH_TIMEOUT_S."""
        self._doing = doing
        try:
            job = Job(next_job_id(), work)
            self._child.submit(job)  # starts the child (and loads the model) when none runs
            deadline = time.monotonic() + BATCH_TIMEOUT_S
            while (remaining := deadline - time.monotonic()) > 0:
                event = self._child.next_event(remaining)
                if isinstance(event, Finished | Failed) and event.job == job.id:
                    if isinstance(event, Failed):
                        raise event.error.to_exception()
                    return event.value
        finally:
            self._doing = IDLE
        self._stop()
        raise EmbeddingError(
            fill(
                N_("The embedding process took longer than {timeout} s {doing}; it was ended."),
                timeout=f"{BATCH_TIMEOUT_S:.0f}",
                doing=doing,
            )
        )

    def _stop(self) -> None:
        self._description = None
        self._child.close()
