"""The embedding model in a child process of its own, so that making vectors never blocks the chat.

Why a process and not a thread: llama.cpp can end its process (an assert, an unsupported
CPU instruction, running out of memory), and a process of its own keeps the window and
the chat's engine process alive when it does; it also keeps the GIL-bound parts of
llama-cpp-python (tokenizing, copying vectors into Python) from taking turns with the
window's thread. The child runs at a lower priority (nice 10 on POSIX), so on a machine
with few cores the chat's engine gets the CPU first and a reply does not slow down while a
folder is indexed. The model file is memory-mapped, so its weights are shared with the
page cache rather than copied.

`EmbeddingProcess` is an `Embedder`: `embed` sends the texts in batches of EMBED_BATCH,
checks the cancel event between batches and watches the child while it waits, so a dead
child is an `EmbeddingError` with what happened, never a hang. It is started on first use
and is safe to call from several threads (an indexing thread and the retrieval thread);
a question waits for at most one batch of an indexing run.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

import numpy as np

from app.core.documents.embeddings import EmbeddingCancelled, EmbeddingError
from app.core.documents.vectors import Matrix
from app.core.inference.crash_report import describe_crash
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

START_TIMEOUT_S = 120.0  # a cold start imports llama.cpp and numpy, then loads the model
EMBED_BATCH = 8
BATCH_TIMEOUT_S = 300.0  # one batch of EMBED_BATCH chunks on a slow CPU and a big model
SHUTDOWN_GRACE_S = 3.0
CHILD_NICENESS = 10


# ---- the messages ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ready:
    pid: int
    dim: int
    model_key: str


@dataclass(frozen=True)
class _Embed:
    texts: tuple[str, ...]


@dataclass(frozen=True)
class _Vectors:
    data: bytes  # float32 rows
    rows: int
    tokens: tuple[int, ...]  # each text's token count


@dataclass(frozen=True)
class _Failed:
    message: str


@dataclass(frozen=True)
class _Log:
    name: str
    level: int
    message: str


class _Shutdown:
    pass


# ---- the window's side -------------------------------------------------------------------------


class EmbeddingProcess:
    """An Embedder whose model runs in a child process; close() ends it (bounded)."""

    def __init__(self, model_path: Path, n_threads: int | None = None) -> None:
        self.model_path = model_path
        self._n_threads = n_threads
        self._lock = threading.Lock()
        self._process: multiprocessing.process.BaseProcess | None = None
        self._connection: Connection | None = None
        self._ready: _Ready | None = None

    @property
    def model_key(self) -> str:
        return self._started().model_key

    @property
    def dim(self) -> int:
        return self._started().dim

    @property
    def pid(self) -> int | None:
        return self._ready.pid if self._ready is not None and self.running else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.is_alive()

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

    def _started(self) -> _Ready:
        with self._lock:
            return self._ensure_started()

    def _embed_batch(self, texts: tuple[str, ...]) -> tuple[Matrix, list[int]]:
        with self._lock:
            ready = self._ensure_started()
            self._send(_Embed(texts))
            answer = self._receive(BATCH_TIMEOUT_S, f"making embeddings with {self.model_path.name}")
            if isinstance(answer, _Failed):
                raise EmbeddingError(answer.message)
            if not isinstance(answer, _Vectors) or answer.rows != len(texts):
                self._stop()
                raise EmbeddingError(N_("The embedding process answered out of turn; it was restarted."))
            rows = np.frombuffer(answer.data, dtype=np.float32).reshape(answer.rows, ready.dim).copy()
            return rows, list(answer.tokens)

    def _ensure_started(self) -> _Ready:
        if self._ready is not None and self.running:
            return self._ready
        self._stop()
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=child_main,
            args=(theirs, str(self.model_path), self._n_threads, logging.getLogger().getEffectiveLevel()),
            name="glassbox-embeddings",
            daemon=True,
        )
        started = time.perf_counter()
        process.start()
        theirs.close()  # ours alone now: the child's death reads as end-of-file
        self._process, self._connection = process, ours
        answer = self._receive(START_TIMEOUT_S, f"loading {self.model_path.name}")
        if isinstance(answer, _Failed):
            self._stop()
            raise EmbeddingError(answer.message)
        if not isinstance(answer, _Ready):
            self._stop()
            raise EmbeddingError(
                fill(
                    N_("The embedding process did not start within {seconds} s."),
                    seconds=f"{START_TIMEOUT_S:.0f}",
                )
            )
        self._ready = answer
        log.info("Embedding process %d started in %.2f s", answer.pid, time.perf_counter() - started)
        return answer

    def _send(self, message: object) -> None:
        assert self._connection is not None
        try:
            self._connection.send(message)
        except (OSError, ValueError) as error:
            raise self._died("taking a job") from error

    def _receive(self, timeout: float, doing: str) -> object:
        """The next answer (log records on the way are logged here); an EmbeddingError if the child dies."""
        connection = self._connection
        assert connection is not None
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._stop()
                raise EmbeddingError(
                    fill(
                        N_("The embedding process took longer than {timeout} s {doing}; it was ended."),
                        timeout=f"{timeout:.0f}",
                        doing=doing,
                    )
                )
            try:
                if not connection.poll(min(remaining, 0.25)):
                    if not self.running:
                        raise self._died(doing)
                    continue
                answer = connection.recv()
            except (EOFError, OSError) as error:
                raise self._died(doing) from error
            if isinstance(answer, _Log):
                logging.getLogger(answer.name).log(answer.level, "%s", answer.message)
                continue
            return answer

    def _died(self, doing: str) -> EmbeddingError:
        process = self._process
        code = None
        if process is not None:
            process.join(SHUTDOWN_GRACE_S)
            code = process.exitcode
        self._stop()
        if code is not None and code < 0:
            return EmbeddingError(describe_crash(-code, doing))
        return EmbeddingError(
            fill(N_("The embedding process ended while {doing} (exit code {code})."), doing=doing, code=code)
        )

    def _stop(self) -> None:
        process, self._process = self._process, None
        connection, self._connection = self._connection, None
        self._ready = None
        if process is not None:
            if connection is not None:
                with contextlib.suppress(OSError, ValueError):
                    connection.send(_Shutdown())
            process.join(SHUTDOWN_GRACE_S)
            if process.is_alive():
                process.terminate()
                process.join(SHUTDOWN_GRACE_S)
            if process.is_alive():
                process.kill()
                process.join()
        if connection is not None:
            connection.close()


# ---- the child's side ----------------------------------------------------------------------------


class _ForwardLogs(logging.Handler):
    def __init__(self, connection: Connection, lock: threading.Lock) -> None:
        super().__init__()
        self._connection = connection
        self._lock = lock

    def emit(self, record: logging.LogRecord) -> None:
        try:
            with self._lock:
                self._connection.send(_Log(record.name, record.levelno, record.getMessage()))
        except (OSError, ValueError):  # the window is gone
            pass


class _PoolingWeAskedFor(logging.Filter):
    """llama.cpp warns when the pooling differs from the model's own: for a model that names none, we chose mean."""

    def filter(self, record: logging.LogRecord) -> bool:
        if "pooling_type is [-1]" in record.getMessage() and record.levelno == logging.WARNING:
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def child_main(connection: Connection, model_path: str, n_threads: int | None, log_level: int) -> None:
    """The embedding process: load the model, then answer _Embed messages until _Shutdown or end of file."""
    lock = threading.Lock()
    root = logging.getLogger()
    root.handlers[:] = [_ForwardLogs(connection, lock)]
    root.setLevel(log_level)
    logging.getLogger("llama.cpp").addFilter(_PoolingWeAskedFor())
    with contextlib.suppress(AttributeError, OSError):  # os.nice is POSIX-only
        os.nice(CHILD_NICENESS)

    def send(message: object) -> None:
        with lock:
            connection.send(message)

    from app.core.documents.llama_embedder import LlamaEmbedder  # here: only the child imports llama.cpp

    try:
        embedder = LlamaEmbedder(Path(model_path), n_threads)
    except Exception as error:  # a missing, damaged or unloadable model: said in one line
        send(_Failed(str(error) or type(error).__name__))
        return
    send(_Ready(os.getpid(), embedder.dim, embedder.model_key))
    try:
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):
                break
            if isinstance(message, _Shutdown):
                break
            if isinstance(message, _Embed):
                try:
                    rows = embedder.embed(message.texts)
                    tokens = tuple(embedder.count_tokens(message.texts))
                    send(_Vectors(rows.astype(np.float32).tobytes(), rows.shape[0], tokens))
                except Exception as error:
                    log.exception("Embedding failed")
                    send(_Failed(f"Embedding failed: {error}"))
    finally:
        embedder.close()
