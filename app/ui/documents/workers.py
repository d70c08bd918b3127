"""The documents panel's two threads: one keeps the collections (quick edits and listings), one indexes.

`CollectionsWorker` creates, renames, deletes and attaches collections and answers every
change with the whole `DocumentsState` for the chat on show. `IndexingWorker` runs the
`Indexer` (adding files and folders, rescanning) with its progress; a long run there
never holds up a rename or a switch of chats. Each opens its own connection to the
documents index in its own thread.

Cancel stops the run in hand and every run queued before it (`IndexingWorker.cancel_upto`);
what was indexed until then stays. The run's cancel flag (which closing the window sets too)
reaches the file being read: the indexer asks it between blocks, pages, paragraphs and chunks.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.core.documents.embeddings import EmbeddingError
from app.core.documents.index import (
    Collection,
    CollectionKind,
    CollectionStats,
    DocumentIndex,
    DocumentIndexError,
    LazyIndex,
    SourceRecord,
)
from app.core.documents.indexer import Indexer, IndexReport
from app.core.support.formatting import fill
from app.core.support.user_text import text_of
from app.ui.llm.retrieval import SharedEmbedder
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CollectionEntry:
    collection: Collection
    attached: bool  # the chat on show retrieves from it
    stats: CollectionStats
    roots: tuple[Path, ...]
    sources: tuple[SourceRecord, ...]


@dataclass(frozen=True)
class DocumentsState:
    """What the panel shows: the chat's own files, the named collections, the embedding model."""

    chat_id: str
    own: CollectionEntry | None  # "for this chat only"; None until the chat has such files
    named: tuple[CollectionEntry, ...] = ()
    embedding_model: Path | None = None


OWN = -1  # the collection id that stands for "this chat's own files" in a request


class CollectionsWorker(QObject):
    refreshRequested = Signal(str)  # chat id
    createRequested = Signal(str, str)  # name, chat id (the new collection is attached to it)
    renameRequested = Signal(int, str, str)  # collection id, name, chat id
    deleteRequested = Signal(int, str)  # collection id, chat id
    attachRequested = Signal(str, int, bool)  # chat id, collection id, attached
    removeRootRequested = Signal(int, str, str)  # collection id, path, chat id
    embeddingModelRequested = Signal(object, str)  # Path | None, chat id

    state = Signal(object)  # DocumentsState (its embedding model is the one retrieval and indexing use)
    failed = Signal(object)  # (str) why: a core text keeps its template

    def __init__(self, db_path: Path) -> None:
        super().__init__()
        self.db_path = db_path
        self._index = LazyIndex(db_path)
        self.refreshRequested.connect(self._refresh)
        self.createRequested.connect(self._create)
        self.renameRequested.connect(self._rename)
        self.deleteRequested.connect(self._delete)
        self.attachRequested.connect(self._attach)
        self.removeRootRequested.connect(self._remove_root)
        self.embeddingModelRequested.connect(self._set_embedding_model)

    def index(self) -> DocumentIndex:
        return self._index.get()

    def close(self) -> None:
        self._index.close()

    def _then_refresh(self, chat_id: str, change: Callable[[DocumentIndex], object]) -> None:
        try:
            change(self.index())
        except DocumentIndexError as error:
            self.failed.emit(text_of(error))
        self._refresh(chat_id)

    @Slot(str)
    def _refresh(self, chat_id: str) -> None:
        try:
            self.state.emit(self._state(self.index(), chat_id))
        except DocumentIndexError as error:
            self.failed.emit(text_of(error))

    def _state(self, index: DocumentIndex, chat_id: str) -> DocumentsState:
        attached = {c.id for c in index.chat_collections(chat_id)}
        own = next(
            (c for c in index.chat_collections(chat_id) if c.chat_id == chat_id and c.kind is CollectionKind.DOCUMENTS),
            None,
        )
        return DocumentsState(
            chat_id,
            self._entry(index, own, True) if own is not None else None,
            tuple(self._entry(index, c, c.id in attached) for c in index.named_collections()),
            index.embedding_model(),
        )

    @staticmethod
    def _entry(index: DocumentIndex, collection: Collection, attached: bool) -> CollectionEntry:
        return CollectionEntry(
            collection,
            attached,
            index.stats(collection.id),
            tuple(index.roots(collection.id)),
            tuple(index.sources(collection.id)),
        )

    @Slot(str, str)
    def _create(self, name: str, chat_id: str) -> None:
        def create(index: DocumentIndex) -> None:
            collection = index.create_collection(name)
            if chat_id:
                index.attach(chat_id, collection.id)

        self._then_refresh(chat_id, create)

    @Slot(int, str, str)
    def _rename(self, collection_id: int, name: str, chat_id: str) -> None:
        self._then_refresh(chat_id, lambda index: index.rename_collection(collection_id, name))

    @Slot(int, str)
    def _delete(self, collection_id: int, chat_id: str) -> None:
        self._then_refresh(chat_id, lambda index: index.delete_collection(collection_id))

    @Slot(str, int, bool)
    def _attach(self, chat_id: str, collection_id: int, attached: bool) -> None:
        def attach(index: DocumentIndex) -> None:
            if attached:
                index.attach(chat_id, collection_id)
            else:
                index.detach(chat_id, collection_id)

        self._then_refresh(chat_id, attach)

    @Slot(int, str, str)
    def _remove_root(self, collection_id: int, path: str, chat_id: str) -> None:
        self._then_refresh(chat_id, lambda index: index.remove_root(collection_id, Path(path)))

    @Slot(object, str)
    def _set_embedding_model(self, path: Path | None, chat_id: str) -> None:
        self._then_refresh(chat_id, lambda index: index.set_embedding_model(path))


@dataclass(frozen=True)
class IndexJob:
    number: int  # grows with every job; Cancel stops the jobs up to a number
    chat_id: str
    collection_id: int  # OWN: the chat's own files
    paths: tuple[Path, ...] = ()  # files and folders to add; () rescans the collection
    label: str = ""  # the collection's name, for the status line


@dataclass
class _Cancel:
    """Which jobs are cancelled; the GUI sets it, the indexing thread reads it."""

    upto: int = 0
    event: threading.Event = field(default_factory=threading.Event)


class IndexingWorker(QObject):
    indexRequested = Signal(object)  # IndexJob
    warmRequested = Signal()  # start the embedding model's process now, so the first question need not wait

    started = Signal(object)  # IndexJob
    progress = Signal(object, object)  # IndexJob, IndexProgress
    finished = Signal(object, object)  # IndexJob, IndexReport
    failed = Signal(object, object)  # IndexJob, why the run could not be done (str)

    def __init__(self, db_path: Path, embedder: SharedEmbedder) -> None:
        super().__init__()
        self.db_path = db_path
        self.embedder = embedder
        self.closing = threading.Event()
        self._cancel = _Cancel()
        self.indexRequested.connect(self._run)
        self.warmRequested.connect(self._warm)

    @Slot()
    def _warm(self) -> None:
        process = self.embedder.current()
        if process is None or self.closing.is_set():
            return
        try:
            process.start()
        except EmbeddingError as error:  # said again, where it matters, by the next run or question
            log.warning("The embedding model could not be started: %s", error)

    @property
    def cancel_event(self) -> threading.Event:
        return self._cancel.event

    def cancel_upto(self, number: int) -> None:
        """Stop the job running now (if its number is at most `number`) and skip the queued ones up to it.

        Called from the GUI thread: the number first, then the flag the running job watches.
        """
        self._cancel.upto = max(self._cancel.upto, number)
        self._cancel.event.set()

    def _cancelled(self, job: IndexJob) -> bool:
        return self.closing.is_set() or job.number <= self._cancel.upto

    @Slot(object)
    def _run(self, job: IndexJob) -> None:
        if self._cancelled(job):
            self.finished.emit(job, IndexReport(cancelled=True))
            return
        self._cancel.event.clear()
        if self._cancelled(job):  # a Cancel that came in between the check and the clear
            self._cancel.event.set()
        self.started.emit(job)
        indexer = Indexer(self.db_path, self.embedder.current())
        try:
            collection_id = job.collection_id
            if collection_id == OWN:
                with DocumentIndex(self.db_path) as index:
                    collection_id = index.own_collection(job.chat_id).id
            if job.paths:
                report = indexer.add(collection_id, job.paths, lambda p: self.progress.emit(job, p), self._cancel.event)
            else:
                report = indexer.rescan(collection_id, lambda p: self.progress.emit(job, p), self._cancel.event)
        except DocumentIndexError as error:
            self.failed.emit(job, text_of(error))
            return
        except Exception as error:  # a bug must not end the thread: the panel says it and stays usable
            log.exception("Indexing failed")
            self.failed.emit(job, fill(self.tr("Indexing stopped unexpectedly: {error}"), error=error))
            return
        self.finished.emit(job, report)


class DocumentsThreads:
    """Both workers and their threads."""

    def __init__(self, db_path: Path, embedder: SharedEmbedder) -> None:
        self.collections = CollectionsWorker(db_path)
        self.indexing = IndexingWorker(db_path, embedder)
        self.collections_thread = WorkerThread(self.collections, "documents", on_end=self.collections.close)
        self.indexing_thread = WorkerThread(
            self.indexing, "indexing", flags=(self.indexing.closing, self.indexing.cancel_event)
        )
        self.collections_thread.start()
        self.indexing_thread.start()

    @property
    def threads(self) -> tuple[WorkerThread, WorkerThread]:
        return (self.collections_thread, self.indexing_thread)

    def request_stop(self) -> None:
        for thread in self.threads:
            thread.request_stop()
