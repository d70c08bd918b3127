"""Retrieval for the chat's replies, on a thread of its own beside the LLM worker.

Before a reply is planned, the chat asks this worker for what its collections (and its
long memory, when on) hold about the new message (`retrieveRequested`); the chunks that
fit the room the window planner leaves come back as a `Retrieval` (`retrieved`), whose
block the chat hands to the planner as `PlanRequest.retrieved`, so the planner counts it
with the model's tokenizer. After each plan the chat hands over the turns the window
dropped (`rememberRequested`), which long memory indexes when it is on for that chat.

The worker owns its own connection to the documents index (in the chats database) and
uses the embedding model shared with the documents panel (`SharedEmbedder`), which runs in
a process of its own: a reply never waits for an indexing run, at most for one batch of it.
Whatever goes wrong here, a reply still gets its answer: `retrieved` always comes, with
nothing retrieved and `failed` saying why.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.core.chat.context_window import PlanRequest, reply_reserve
from app.core.chat.store import Message
from app.core.documents.embedding_process import EmbeddingProcess
from app.core.documents.embeddings import EmbeddingError
from app.core.documents.index import DocumentIndex, DocumentIndexError, LazyIndex
from app.core.documents.long_memory import LongMemory
from app.core.documents.retrieval import Retrieval, Retriever, chat_scope, retrieval_budget
from app.core.documents.tokens import estimate_tokens
from app.core.support.formatting import fill
from app.core.support.user_text import text_of
from app.ui.threads import WorkerThread, rearm

log = logging.getLogger(__name__)

FRAME_ALLOWANCE = 64  # tokens a chat template adds around the system prompt and the message, at most
UNKNOWN_CONTEXT = 4096  # a server's model that does not say its context length


class SharedEmbedder:
    """The embedding model that indexing and retrieval share (one child process); None: keyword search alone.

    Safe from any thread: `EmbeddingProcess` serialises its batches itself.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: EmbeddingProcess | None = None

    @property
    def model_path(self) -> Path | None:
        with self._lock:
            return self._process.model_path if self._process is not None else None

    def current(self) -> EmbeddingProcess | None:
        with self._lock:
            return self._process

    def set_model(self, path: Path | None) -> None:
        """Use this model from now on (its process starts at its first use); the old one's process ends."""
        with self._lock:
            old = self._process
            if old is not None and path is not None and old.model_path == path:
                return
            self._process = EmbeddingProcess(path) if path is not None else None
        if old is not None:
            old.close()

    def close(self) -> None:
        self.set_model(None)


@dataclass(frozen=True)
class RetrievalJob:
    """A reply about to be planned: what to retrieve for, and the plan request that waits for it."""

    chat_id: str
    plan: PlanRequest  # its newest message is the user's question
    thread_ids: tuple[str, ...]  # the branch on show: only its turns may be recalled
    window_ids: tuple[str, ...]  # the turns the last plan kept in the window: not recalled
    n_ctx: int

    @property
    def question(self) -> str:
        messages = self.plan.messages
        return messages[-1].text if messages and messages[-1].role == "user" else ""


class RetrievalWorker(QObject):
    retrieveRequested = Signal(object)  # RetrievalJob
    rememberRequested = Signal(str, object)  # chat id, tuple[Message, ...]: turns the window dropped
    longMemoryRequested = Signal(str, bool)  # chat id, on: switch the chat's long memory
    optionsRequested = Signal(str)  # chat id: say whether its long memory is on (answered by `options`)

    retrieved = Signal(object, object)  # RetrievalJob, Retrieval (empty when nothing applies or it failed)
    options = Signal(str, bool)  # chat id, long memory on
    remembered = Signal(str, int)  # chat id, how many dropped turns were indexed
    failed = Signal(object)  # (str) why retrieval or long memory did not work this time (the reply goes on)

    def __init__(self, db_path: Path, embedder: SharedEmbedder) -> None:
        super().__init__()
        self.db_path = db_path
        self.embedder = embedder
        self.cancel = threading.Event()
        self.closing = threading.Event()
        self._index = LazyIndex(db_path)
        self.retrieveRequested.connect(self._retrieve)
        self.rememberRequested.connect(self._remember)
        self.longMemoryRequested.connect(self._set_long_memory)
        self.optionsRequested.connect(self._options)

    def index(self) -> DocumentIndex:
        """Opened in this worker's thread on first use (the chat store has created its tables by then)."""
        return self._index.get()

    def close(self) -> None:
        self._index.close()

    @Slot(object)
    def _retrieve(self, job: RetrievalJob) -> None:
        rearm(self.cancel, self.closing)
        retrieval = Retrieval(job.question)
        try:
            index = self.index()
            scope = chat_scope(index, job.chat_id, job.thread_ids, job.window_ids)
            if not scope.empty:
                n_ctx = job.n_ctx or UNKNOWN_CONTEXT
                reserve = reply_reserve(job.plan.reserve, n_ctx)
                used = estimate_tokens(job.plan.system_prompt) + estimate_tokens(job.question) + FRAME_ALLOWANCE
                budget = retrieval_budget(n_ctx, reserve, used)
                retriever = Retriever(index, self.embedder.current())
                retrieval = retriever.retrieve(job.question, scope, budget, self.cancel)
                if retrieval.embedding_error:
                    self.failed.emit(
                        fill(
                            self.tr("The question could not be embedded, so only keyword search was used: {error}"),
                            error=retrieval.embedding_error,
                        )
                    )
        except DocumentIndexError as error:
            self.failed.emit(text_of(error))
        except Exception as error:  # retrieval must never keep a reply from being written
            log.exception("Retrieval failed")
            self.failed.emit(fill(self.tr("Nothing could be retrieved for this reply: {error}"), error=error))
        self.retrieved.emit(job, retrieval)

    @Slot(str, object)
    def _remember(self, chat_id: str, turns: Sequence[Message]) -> None:
        try:
            memory = LongMemory(self.index(), self.embedder.current())
            stored = memory.remember(chat_id, turns, self.closing)
        except (DocumentIndexError, EmbeddingError) as error:
            self.failed.emit(
                fill(self.tr("Long memory could not keep the turns that left the window: {error}"), error=error)
            )
            return
        if stored:
            self.remembered.emit(chat_id, stored)

    @Slot(str, bool)
    def _set_long_memory(self, chat_id: str, enabled: bool) -> None:
        try:
            self.index().set_long_memory(chat_id, enabled)
        except DocumentIndexError as error:
            self.failed.emit(text_of(error))
            return
        self.options.emit(chat_id, enabled)

    @Slot(str)
    def _options(self, chat_id: str) -> None:
        try:
            enabled = self.index().long_memory(chat_id)
        except DocumentIndexError as error:
            self.failed.emit(text_of(error))
            return
        self.options.emit(chat_id, enabled)


class RetrievalThread:
    """The retrieval worker's thread; the index closes in the thread once it has ended."""

    def __init__(self, db_path: Path, embedder: SharedEmbedder) -> None:
        self.embedder = embedder
        self.worker = RetrievalWorker(db_path, embedder)
        self.thread = WorkerThread(
            self.worker, "retrieval", flags=(self.worker.closing, self.worker.cancel), on_end=self.worker.close
        )
        self.thread.start()

    def request_stop(self) -> None:
        self.thread.request_stop()
