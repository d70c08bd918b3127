"""Keeps a collection's index up to date with its files and folders, off the GUI thread.

`Indexer.add` adds files or folders to a collection and indexes them; `Indexer.rescan`
walks every file and folder the collection has and brings the index up to date: new files
are indexed, changed ones re-indexed (a file whose size and mtime are as stored is not
read; one whose mtime moved but whose SHA-256 did not is only touched), deleted ones
dropped. With an embedder, chunks get vectors too, and chunks still without a vector from
this model (indexed before it was set) get theirs at the end of the run.

Each file gets a status, reported as it is handled: indexed, unchanged, skipped (a format
Glassbox does not read, no text, too large — with why) or failed (damaged, encrypted,
unreadable, changed while it was read — with why). One file's failure never stops the
others. A file is read once: its SHA-256 is taken from the bytes it is parsed from. Cancel
(a threading.Event) is checked between files, inside the file in hand (between blocks of
its bytes, pages, paragraphs and chunks) and between embedding batches; what was done until
then stays, the file in hand is left as it was.

The indexer runs on the caller's thread (the UI runs it on a WorkerThread) and opens its
own connection to the database there.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from app.core.documents.chunking import DEFAULT_CHUNK_TOKENS, DEFAULT_OVERLAP_TOKENS, chunk_document
from app.core.documents.document import Document
from app.core.documents.embeddings import Embedder, EmbeddingCancelled, EmbeddingError
from app.core.documents.file_bytes import read_file_bytes
from app.core.documents.formats import DocumentKind, document_kind, refusal_reason
from app.core.documents.index import DocumentIndex, NewChunk, SourceRecord, SourceStatus
from app.core.documents.read_problems import DocumentError, ReadCancelled, ReadProblem
from app.core.documents.readers import parse_document
from app.core.documents.tokens import TextTokenCounter, estimate_tokens
from app.core.support.user_text import text_of

log = logging.getLogger(__name__)

SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
EMBED_CHUNKS_PER_STEP = 32  # vectors for chunks indexed without them: this many per transaction


class FileStatus(str, Enum):
    INDEXED = "indexed"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"
    FAILED = "failed"
    REMOVED = "removed"  # the file is gone; its chunks were dropped


class Stage(str, Enum):
    SCANNING = "scanning"
    INDEXING = "indexing"
    EMBEDDING = "embedding"  # vectors for chunks indexed before the embedding model was set
    DONE = "done"


@dataclass(frozen=True)
class FileResult:
    path: Path
    status: FileStatus
    reason: str = ""
    chunks: int = 0
    text_bytes: int = 0  # characters of text indexed (UTF-8 bytes)


@dataclass(frozen=True)
class IndexProgress:
    """What the progress bar and the per-file list show; sent after every step."""

    stage: Stage
    done: int  # files (or chunks, when embedding) handled so far
    total: int
    result: FileResult | None = None  # the file just handled


@dataclass
class IndexReport:
    results: list[FileResult] = field(default_factory=list)
    cancelled: bool = False
    embedding_error: str = ""  # why vectors could not be made in this run (FTS still works)
    embedded: int = 0  # chunks that got a vector in the embedding stage
    seconds: float = 0.0

    def count(self, status: FileStatus) -> int:
        return sum(1 for result in self.results if result.status is status)

    @property
    def text_bytes(self) -> int:
        return sum(result.text_bytes for result in self.results)


ProgressListener = Callable[[IndexProgress], None]


class Indexer:
    """Indexes the files of collections in the documents index at `db_path`."""

    def __init__(
        self,
        db_path: Path,
        embedder: Embedder | None = None,
        counter: TextTokenCounter = estimate_tokens,
        chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
        overlap_tokens: int = DEFAULT_OVERLAP_TOKENS,
    ) -> None:
        self.db_path = db_path
        self.embedder = embedder
        self.counter = counter
        self.chunk_tokens = chunk_tokens
        self.overlap_tokens = overlap_tokens

    def add(
        self,
        collection_id: int,
        paths: Sequence[Path],
        progress: ProgressListener | None = None,
        cancel: threading.Event | None = None,
    ) -> IndexReport:
        """Add files or folders to the collection (they are rescanned from now on), and index them."""
        roots = [path.expanduser().absolute() for path in paths]
        with DocumentIndex(self.db_path) as index:
            for root in roots:
                if root.exists():  # a path that is not there is reported, not kept
                    index.add_root(collection_id, root)
            return _Run(self, index, collection_id, progress, cancel).run(roots)

    def rescan(
        self,
        collection_id: int,
        progress: ProgressListener | None = None,
        cancel: threading.Event | None = None,
    ) -> IndexReport:
        """Bring the collection up to date with its files and folders."""
        with DocumentIndex(self.db_path) as index:
            return _Run(self, index, collection_id, progress, cancel).run(index.roots(collection_id), whole=True)


class _Run:
    def __init__(
        self,
        indexer: Indexer,
        index: DocumentIndex,
        collection_id: int,
        progress: ProgressListener | None,
        cancel: threading.Event | None,
    ) -> None:
        self.indexer = indexer
        self.index = index
        self.collection_id = collection_id
        self.progress = progress or (lambda _progress: None)
        self.cancel = cancel or threading.Event()
        self.report = IndexReport()
        self.embedder = indexer.embedder

    def run(self, roots: Sequence[Path], whole: bool = False) -> IndexReport:
        started = time.perf_counter()
        index = self.index
        self.index.collection(self.collection_id)  # a deleted collection: a clear error before any work
        self.progress(IndexProgress(Stage.SCANNING, 0, 0))
        missing = [root for root in roots if not root.exists()]
        self.report.results += [FileResult(root, FileStatus.FAILED, _missing_root(root)) for root in missing]
        present = [root for root in roots if root not in missing]
        files = sorted(set(_files_under(present)))
        known = {record.uri: record for record in index.sources(self.collection_id)}
        gone = _gone(known, files, present, missing, whole)
        if gone:
            index.remove_sources(self.collection_id, gone)
            self.report.results += [FileResult(Path(uri), FileStatus.REMOVED) for uri in gone]
        total = len(files)
        for done, path in enumerate(files, start=1):
            if self.cancel.is_set():
                self.report.cancelled = True
                break
            result = self._file(path, known.get(str(path)))
            if result is None:  # cancelled in the middle of the file
                self.report.cancelled = True
                break
            self.report.results.append(result)
            self.progress(IndexProgress(Stage.INDEXING, done, total, result))
        if not self.report.cancelled and self.embedder is not None and not self.report.embedding_error:
            self._embed_missing()
        self.report.seconds = time.perf_counter() - started
        self.progress(IndexProgress(Stage.DONE, total, total))
        return self.report

    def _file(self, path: Path, known: SourceRecord | None) -> FileResult | None:
        uri = str(path)
        kind = document_kind(path)
        try:
            before = path.stat()
        except OSError as error:
            return self._problem(uri, "", SourceStatus.FAILED, f"The file could not be read ({error.strerror}).")
        if known is not None and (known.size, known.mtime) == (before.st_size, before.st_mtime):
            return FileResult(path, FileStatus.UNCHANGED, known.reason, known.chunks)
        if kind is None:
            return self._problem(
                uri, "", SourceStatus.SKIPPED, refusal_reason(path), size=before.st_size, mtime=before.st_mtime
            )
        try:
            content = read_file_bytes(path, self.cancel.is_set)
        except ReadCancelled:
            return None
        except DocumentError as error:
            return self._refused(uri, kind, before, error)
        if known is not None and known.sha256 == content.sha256 and known.status is SourceStatus.INDEXED:
            self.index.touch_source(known.id, before.st_mtime)
            return FileResult(path, FileStatus.UNCHANGED, "", known.chunks)
        try:
            document = parse_document(path, kind, content.data, self.cancel.is_set)
            chunks = self._chunks(document)
        except ReadCancelled:
            return None
        except DocumentError as error:
            return self._refused(uri, kind, before, error, content.sha256)
        vectors = None
        reason = "; ".join(document.notes)
        if self.embedder is not None and not self.report.embedding_error and chunks:
            try:
                vectors = self.embedder.embed([chunk.text for chunk in chunks], self.cancel)
            except EmbeddingCancelled:
                return None
            except EmbeddingError as error:
                self._embedding_failed(error)
        if _changed(path, before):
            return self._problem(
                uri,
                kind.value,
                SourceStatus.FAILED,
                "The file changed while it was being read; it will be read again at the next rescan.",
            )
        record = self.index.replace_source(
            self.collection_id,
            uri,
            kind.value,
            chunks,
            size=before.st_size,
            mtime=before.st_mtime,
            sha256=content.sha256,
            vectors=vectors,
            model=self.embedder.model_key if vectors is not None and self.embedder is not None else "",
        )
        text_bytes = len(document.text.encode("utf-8", errors="replace"))
        return FileResult(path, FileStatus.INDEXED, reason, record.chunks, text_bytes)

    def _chunks(self, document: Document) -> list[NewChunk]:
        """The document's chunks; asks Cancel between them (a large file takes a while)."""
        chunks: list[NewChunk] = []
        indexer = self.indexer
        for chunk in chunk_document(document, indexer.counter, indexer.chunk_tokens, indexer.overlap_tokens):
            if self.cancel.is_set():
                raise ReadCancelled()
            chunks.append(NewChunk(chunk.text, chunk.tokens, chunk.place))
        return chunks

    def _refused(
        self, uri: str, kind: DocumentKind, before: os.stat_result, error: DocumentError, sha256: str = ""
    ) -> FileResult:
        status = SourceStatus.SKIPPED if error.problem.skipped else SourceStatus.FAILED
        size, mtime = before.st_size, before.st_mtime
        if error.problem is ReadProblem.UNREADABLE:
            size, mtime = 0, 0.0  # a passing problem (permissions, a lock): tried again at the next rescan
        return self._problem(uri, kind.value, status, error.reason, size=size, mtime=mtime, sha256=sha256)

    def _problem(
        self,
        uri: str,
        kind: str,
        status: SourceStatus,
        reason: str,
        *,
        size: int = 0,
        mtime: float = 0.0,
        sha256: str = "",
    ) -> FileResult:
        self.index.record_problem(self.collection_id, uri, kind, status, reason, size=size, mtime=mtime, sha256=sha256)
        log.info("%s %s: %s", status.value.capitalize(), uri, reason)
        return FileResult(Path(uri), FileStatus(status.value), reason)

    def _embedding_failed(self, error: EmbeddingError) -> None:
        log.warning("Embeddings could not be made; indexing goes on with full-text search only: %s", error)
        self.report.embedding_error = text_of(error)

    def _embed_missing(self) -> None:
        assert self.embedder is not None
        try:
            model = self.embedder.model_key
        except EmbeddingError as error:
            self._embedding_failed(error)
            return
        missing = self.index.chunks_without_vectors(self.collection_id, model)
        for start in range(0, len(missing), EMBED_CHUNKS_PER_STEP):
            if self.cancel.is_set():
                self.report.cancelled = True
                return
            step = missing[start : start + EMBED_CHUNKS_PER_STEP]
            try:
                vectors = self.embedder.embed([text for _id, text in step], self.cancel)
            except EmbeddingCancelled:
                self.report.cancelled = True
                return
            except EmbeddingError as error:
                self._embedding_failed(error)
                return
            self.index.set_vectors(self.collection_id, model, list(zip((i for i, _t in step), vectors, strict=True)))
            self.report.embedded += len(step)
            self.progress(IndexProgress(Stage.EMBEDDING, self.report.embedded, len(missing)))


def _files_under(roots: Sequence[Path]) -> Iterator[Path]:
    """Every file of the roots: a file itself, a folder's files (hidden files and folders left out)."""
    for root in roots:
        if not root.is_dir():  # a file, or a pipe or device added by itself: its reading says what it is
            yield root
            continue
        for folder, subfolders, names in os.walk(root, followlinks=False):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d not in SKIPPED_FOLDERS)
            for name in names:
                if not name.startswith("."):
                    yield Path(folder) / name


def _gone(
    known: dict[str, SourceRecord], files: list[Path], roots: Sequence[Path], missing: Sequence[Path], whole: bool
) -> list[str]:
    """Sources whose files are no longer there: under the scanned roots, or anywhere on a whole rescan.

    The files of a root that is missing altogether (an unplugged drive, a folder moved) are kept.
    """
    found = {str(path) for path in files}
    return [uri for uri in known if uri not in found and (whole or _under(uri, roots)) and not _under(uri, missing)]


def _under(uri: str, roots: Sequence[Path]) -> bool:
    return any(uri == str(root) or uri.startswith(str(root).rstrip(os.sep) + os.sep) for root in roots)


def _missing_root(root: Path) -> str:
    return (
        f"{root} is not there (a drive not plugged in, or a folder moved); its files stay in the collection "
        "until it is back or you remove it."
    )


def _changed(path: Path, before: os.stat_result) -> bool:
    try:
        after = path.stat()
    except OSError:
        return True
    return (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns)
