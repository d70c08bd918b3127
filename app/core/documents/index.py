"""The documents index in the chats database: collections, their files, chunks, FTS5 and vectors.

It lives in the same SQLite file as the chats (`AppPaths.chats_db`), in tables of its own
(`doc_*`) with their own schema version in `doc_meta`, so the chat store's `user_version`
stays the chat store's. It opens its own connection under the same SQLite policy as the
chat store (app/core/support/sqlite_policy.py: WAL, so readers never wait for the writer; a
writer waits up to the busy timeout for the other; `quick_check` at open; a damaged file
set aside), and every write is one short transaction per file, so indexing never holds the
chat history up for long.

- A collection is named and usable by any chat (`chat_id` None, attached with `attach`), or
  a chat's own (its files, and its long memory). Deleting a chat deletes what is its own:
  the trigger `doc_chat_deleted` on the chat store's `chats` table does it. This index owns
  that trigger (the chat store never touches it): it is created at each open of the index
  once the `chats` table exists, so an index opened before the first ChatStore gets it at
  its next open.
- A source is a file (uri: its absolute path) or a remembered turn (uri: the message id),
  with the size, mtime and SHA-256 it had when indexed, so a rescan re-reads only what
  changed, and a status: indexed, skipped (with why) or failed (with why).
- Chunks carry their place (pages, lines or paragraphs); `doc_fts` indexes them for BM25
  (see `terms.py` for what it stores, and how Chinese is handled); `doc_vectors` holds one
  float32 unit vector per chunk for the embedding model that made it.

One DocumentIndex belongs to one thread (sqlite3 connections do not cross threads).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.documents.document import LineUnit, Place
from app.core.documents.terms import FTS_TOKENIZER, index_text, or_expression, question_words
from app.core.documents.vectors import VectorHit, VectorSet, to_blob, unit
from app.core.support import sqlite_policy
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
# A keyword search scores the chunks holding the question's words: words are taken from the rarest on
# while their chunks add up to this many (see keyword_search).
POSTINGS_BUDGET = 12_000

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS doc_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS doc_collections (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    chat_id TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('documents', 'memory')),
    created REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS doc_collections_named ON doc_collections(name) WHERE chat_id IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS doc_collections_own ON doc_collections(chat_id, kind) WHERE chat_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS doc_chat_collections (
    chat_id TEXT NOT NULL,
    collection_id INTEGER NOT NULL REFERENCES doc_collections(id) ON DELETE CASCADE,
    PRIMARY KEY (chat_id, collection_id)
);
CREATE TABLE IF NOT EXISTS doc_chat_options (chat_id TEXT PRIMARY KEY, long_memory INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS doc_roots (
    collection_id INTEGER NOT NULL REFERENCES doc_collections(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    PRIMARY KEY (collection_id, path)
);
CREATE TABLE IF NOT EXISTS doc_sources (
    id INTEGER PRIMARY KEY,
    collection_id INTEGER NOT NULL REFERENCES doc_collections(id) ON DELETE CASCADE,
    uri TEXT NOT NULL,
    kind TEXT NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    mtime REAL NOT NULL DEFAULT 0,
    sha256 TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('indexed', 'skipped', 'failed')),
    reason TEXT NOT NULL DEFAULT '',
    chunks INTEGER NOT NULL DEFAULT 0,
    indexed REAL NOT NULL,
    UNIQUE (collection_id, uri)
);
CREATE TABLE IF NOT EXISTS doc_chunks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: the vector cache tells new chunks by their ids
    source_id INTEGER NOT NULL REFERENCES doc_sources(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    text TEXT NOT NULL,
    tokens INTEGER NOT NULL,
    page_start INTEGER,
    page_end INTEGER,
    line_start INTEGER,
    line_end INTEGER,
    unit TEXT NOT NULL DEFAULT 'line'
);
CREATE INDEX IF NOT EXISTS doc_chunks_by_source ON doc_chunks(source_id, ordinal);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_fts USING fts5(terms, collection_id UNINDEXED, tokenize='{FTS_TOKENIZER}');
CREATE TABLE IF NOT EXISTS doc_vectors (
    chunk_id INTEGER PRIMARY KEY REFERENCES doc_chunks(id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BLOB NOT NULL
);
CREATE TRIGGER IF NOT EXISTS doc_chunk_deleted AFTER DELETE ON doc_chunks BEGIN
    DELETE FROM doc_fts WHERE rowid = old.id;
END;
"""
# Owned by this index, on the chat store's table (see the module's docstring).
_CHAT_TRIGGER = """
CREATE TRIGGER IF NOT EXISTS doc_chat_deleted AFTER DELETE ON chats BEGIN
    DELETE FROM doc_collections WHERE chat_id = old.id;
    DELETE FROM doc_chat_collections WHERE chat_id = old.id;
    DELETE FROM doc_chat_options WHERE chat_id = old.id;
END;
"""


class DocumentIndexError(Exception):
    """The documents index could not be read or written; the message says what to do."""


class CollectionKind(str, Enum):
    DOCUMENTS = "documents"
    MEMORY = "memory"  # a chat's long memory: the turns its window dropped


class SourceStatus(str, Enum):
    INDEXED = "indexed"
    SKIPPED = "skipped"
    FAILED = "failed"


@dataclass(frozen=True)
class Collection:
    id: int
    name: str
    chat_id: str | None  # None: a named collection any chat can use
    kind: CollectionKind
    created: float
    version: int  # grows with every change to its sources


@dataclass(frozen=True)
class SourceRecord:
    id: int
    collection_id: int
    uri: str
    kind: str  # a DocumentKind value, or a role for a remembered turn
    size: int
    mtime: float
    sha256: str
    status: SourceStatus
    reason: str
    chunks: int
    indexed: float


@dataclass(frozen=True)
class NewChunk:
    text: str
    tokens: int
    place: Place = field(default_factory=Place)


@dataclass(frozen=True)
class StoredChunk:
    id: int
    collection_id: int
    source_id: int
    uri: str
    source_kind: str
    ordinal: int
    text: str
    tokens: int
    place: Place


@dataclass(frozen=True)
class KeywordHit:
    chunk_id: int
    score: float  # BM25, higher is better (SQLite's bm25() negated)


@dataclass(frozen=True)
class CollectionStats:
    files: int
    indexed: int
    skipped: int
    failed: int
    chunks: int
    vectors: int


class DocumentIndex:
    """The documents tables of the chats database. Raises DocumentIndexError with a readable message."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._vector_cache: dict[tuple[int, str], tuple[int, VectorSet]] = {}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._open_or_set_aside(path)
        except (OSError, sqlite3.Error) as error:
            raise DocumentIndexError(
                fill(
                    N_(
                        "The documents index in {path} could not be opened ({error}). Check that the "
                        "folder is writable and the disk is not full."
                    ),
                    path=path,
                    error=error,
                )
            ) from error

    def _open_or_set_aside(self, path: Path) -> sqlite3.Connection:
        db, aside = sqlite_policy.open_or_set_aside(path, _prepare)
        if aside is not None:
            log.error(
                "%s",
                fill(
                    N_(
                        "The documents index in {path} could not be read ({reason}); the file was kept as "
                        "{aside} and a new, empty one was started."
                    ),
                    path=path,
                    reason=aside.reason,
                    aside=aside.path.name,
                ),
            )
        return db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> DocumentIndex:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        try:
            with self._db:
                yield self._db
        except sqlite3.Error as error:
            log.error("Documents index: %s failed: %s", what, error)
            raise DocumentIndexError(
                fill(
                    N_(
                        "Glassbox could not {what} in the documents index ({error}). Check that the disk "
                        "is not full; nothing was changed."
                    ),
                    what=what,
                    error=error,
                )
            ) from error

    # ---- collections -------------------------------------------------------------------

    def create_collection(self, name: str) -> Collection:
        """A named collection any chat can use."""
        name = " ".join(name.split())
        if not name:
            raise DocumentIndexError(N_("A collection needs a name; type at least one character."))
        if self._db.execute("SELECT 1 FROM doc_collections WHERE name = ? AND chat_id IS NULL", (name,)).fetchone():
            raise DocumentIndexError(
                fill(N_("A collection named “{name}” already exists; pick another name."), name=name)
            )
        with self._write("create the collection") as db:
            cursor = db.execute(
                "INSERT INTO doc_collections (name, chat_id, kind, created) VALUES (?, NULL, 'documents', ?)",
                (name, time.time()),
            )
        return self.collection(_rowid(cursor))

    def own_collection(self, chat_id: str, kind: CollectionKind = CollectionKind.DOCUMENTS) -> Collection:
        """The chat's own files (or its long memory), created when first asked for."""
        row = self._db.execute(
            "SELECT * FROM doc_collections WHERE chat_id = ? AND kind = ?", (chat_id, kind.value)
        ).fetchone()
        if row is not None:
            return _collection(row)
        name = "Long memory" if kind is CollectionKind.MEMORY else "This chat's files"
        with self._write("create the chat's collection") as db:
            cursor = db.execute(
                "INSERT INTO doc_collections (name, chat_id, kind, created) VALUES (?, ?, ?, ?)",
                (name, chat_id, kind.value, time.time()),
            )
        return self.collection(_rowid(cursor))

    def collection(self, collection_id: int) -> Collection:
        row = self._db.execute("SELECT * FROM doc_collections WHERE id = ?", (collection_id,)).fetchone()
        if row is None:
            raise DocumentIndexError(
                fill(
                    N_("The collection {collection_id} no longer exists; it may have been deleted."),
                    collection_id=collection_id,
                )
            )
        return _collection(row)

    def named_collections(self) -> list[Collection]:
        rows = self._db.execute("SELECT * FROM doc_collections WHERE chat_id IS NULL ORDER BY name").fetchall()
        return [_collection(row) for row in rows]

    def rename_collection(self, collection_id: int, name: str) -> Collection:
        name = " ".join(name.split())
        if not name:
            raise DocumentIndexError(N_("A collection needs a name; type at least one character."))
        with self._write("rename the collection") as db:
            db.execute("UPDATE doc_collections SET name = ? WHERE id = ?", (name, collection_id))
        return self.collection(collection_id)

    def delete_collection(self, collection_id: int) -> None:
        with self._write("delete the collection") as db:
            db.execute("DELETE FROM doc_collections WHERE id = ?", (collection_id,))

    def attach(self, chat_id: str, collection_id: int) -> None:
        """Let the chat retrieve from a named collection."""
        with self._write("attach the collection") as db:
            db.execute("INSERT OR IGNORE INTO doc_chat_collections VALUES (?, ?)", (chat_id, collection_id))

    def detach(self, chat_id: str, collection_id: int) -> None:
        with self._write("detach the collection") as db:
            db.execute(
                "DELETE FROM doc_chat_collections WHERE chat_id = ? AND collection_id = ?", (chat_id, collection_id)
            )

    def chat_collections(self, chat_id: str) -> list[Collection]:
        """The document collections a chat retrieves from: its own files and the named ones attached."""
        rows = self._db.execute(
            """
            SELECT * FROM doc_collections WHERE (chat_id = ? AND kind = 'documents')
                OR id IN (SELECT collection_id FROM doc_chat_collections WHERE chat_id = ?)
            ORDER BY chat_id IS NULL, name
            """,
            (chat_id, chat_id),
        ).fetchall()
        return [_collection(row) for row in rows]

    def set_long_memory(self, chat_id: str, enabled: bool) -> None:
        with self._write("save the long-memory setting") as db:
            db.execute("INSERT OR REPLACE INTO doc_chat_options VALUES (?, ?)", (chat_id, int(enabled)))

    def long_memory(self, chat_id: str) -> bool:
        row = self._db.execute("SELECT long_memory FROM doc_chat_options WHERE chat_id = ?", (chat_id,)).fetchone()
        return bool(row and row[0])

    def embedding_model(self) -> Path | None:
        """The GGUF embedding model set for retrieval; None: keyword search (FTS5) alone."""
        row = self._db.execute("SELECT value FROM doc_meta WHERE key = 'embedding_model'").fetchone()
        return Path(row[0]) if row is not None and row[0] else None

    def set_embedding_model(self, path: Path | None) -> None:
        with self._write("save the embedding model") as db:
            if path is None:
                db.execute("DELETE FROM doc_meta WHERE key = 'embedding_model'")
            else:
                db.execute("INSERT OR REPLACE INTO doc_meta VALUES ('embedding_model', ?)", (str(path),))

    # ---- roots: the files and folders added, for rescans ----------------------------------

    def add_root(self, collection_id: int, path: Path) -> None:
        with self._write("add the folder") as db:
            db.execute("INSERT OR IGNORE INTO doc_roots VALUES (?, ?)", (collection_id, str(path)))

    def remove_root(self, collection_id: int, path: Path) -> None:
        """Stop watching a file or folder; its files leave the collection at once."""
        root = str(path)
        below = root.rstrip(os.sep) + os.sep
        with self._write("remove the folder") as db:
            db.execute("DELETE FROM doc_roots WHERE collection_id = ? AND path = ?", (collection_id, root))
            db.execute(
                "DELETE FROM doc_sources WHERE collection_id = ? AND (uri = ? OR substr(uri, 1, ?) = ?)",
                (collection_id, root, len(below), below),
            )
            _bump(db, collection_id)

    def roots(self, collection_id: int) -> list[Path]:
        rows = self._db.execute("SELECT path FROM doc_roots WHERE collection_id = ? ORDER BY path", (collection_id,))
        return [Path(row[0]) for row in rows]

    # ---- sources and chunks ------------------------------------------------------------

    def sources(self, collection_id: int) -> list[SourceRecord]:
        rows = self._db.execute("SELECT * FROM doc_sources WHERE collection_id = ? ORDER BY uri", (collection_id,))
        return [_source(row) for row in rows]

    def source(self, collection_id: int, uri: str) -> SourceRecord | None:
        row = self._db.execute(
            "SELECT * FROM doc_sources WHERE collection_id = ? AND uri = ?", (collection_id, uri)
        ).fetchone()
        return _source(row) if row is not None else None

    def replace_source(
        self,
        collection_id: int,
        uri: str,
        kind: str,
        chunks: Sequence[NewChunk],
        *,
        size: int = 0,
        mtime: float = 0.0,
        sha256: str = "",
        vectors: npt.ArrayLike | None = None,
        model: str = "",
    ) -> SourceRecord:
        """Store a source's chunks (and their vectors, one row per chunk), replacing what it had.

        Raises ValueError when `vectors` does not have one row per chunk.
        """
        rows = None if vectors is None else np.asarray(vectors, dtype=np.float32)
        if rows is not None and (rows.ndim != 2 or rows.shape[0] != len(chunks)):
            raise ValueError(f"vectors of shape {rows.shape} for {len(chunks)} chunks")
        with self._write("save the file's chunks") as db:
            db.execute("DELETE FROM doc_sources WHERE collection_id = ? AND uri = ?", (collection_id, uri))
            cursor = db.execute(
                "INSERT INTO doc_sources (collection_id, uri, kind, size, mtime, sha256, status, chunks, indexed)"
                " VALUES (?, ?, ?, ?, ?, ?, 'indexed', ?, ?)",
                (collection_id, uri, kind, size, mtime, sha256, len(chunks), time.time()),
            )
            source_id = _rowid(cursor)
            for ordinal, chunk in enumerate(chunks):
                place = chunk.place
                chunk_id = _rowid(
                    db.execute(
                        "INSERT INTO doc_chunks (source_id, ordinal, text, tokens, page_start, page_end, line_start,"
                        " line_end, unit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            source_id,
                            ordinal,
                            chunk.text,
                            chunk.tokens,
                            place.page_start,
                            place.page_end,
                            place.line_start,
                            place.line_end,
                            place.unit.value,
                        ),
                    )
                )
                db.execute(
                    "INSERT INTO doc_fts (rowid, terms, collection_id) VALUES (?, ?, ?)",
                    (chunk_id, index_text(chunk.text), collection_id),
                )
                if rows is not None:
                    db.execute(
                        "INSERT INTO doc_vectors VALUES (?, ?, ?)", (chunk_id, model, to_blob(unit(rows[ordinal])))
                    )
            _bump(db, collection_id)
        record = self.source(collection_id, uri)
        assert record is not None
        return record

    def record_problem(
        self,
        collection_id: int,
        uri: str,
        kind: str,
        status: SourceStatus,
        reason: str,
        *,
        size: int = 0,
        mtime: float = 0.0,
        sha256: str = "",
    ) -> SourceRecord:
        """A file that was skipped or failed: its status and reason, and none of its old chunks."""
        if status is SourceStatus.INDEXED:
            raise ValueError("record_problem is for skipped and failed files")
        with self._write("save the file's status") as db:
            db.execute("DELETE FROM doc_sources WHERE collection_id = ? AND uri = ?", (collection_id, uri))
            db.execute(
                "INSERT INTO doc_sources (collection_id, uri, kind, size, mtime, sha256, status, reason, indexed)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (collection_id, uri, kind, size, mtime, sha256, status.value, reason, time.time()),
            )
            _bump(db, collection_id)
        record = self.source(collection_id, uri)
        assert record is not None
        return record

    def touch_source(self, source_id: int, mtime: float) -> None:
        """A file whose mtime moved but whose content (hash) did not: remember the new mtime only."""
        with self._write("save the file's time") as db:
            db.execute("UPDATE doc_sources SET mtime = ? WHERE id = ?", (mtime, source_id))

    def remove_sources(self, collection_id: int, uris: Iterable[str]) -> int:
        """Drop sources (deleted files, forgotten turns) with their chunks; returns how many were dropped."""
        uris = list(uris)
        if not uris:
            return 0
        with self._write("drop the deleted files") as db:
            removed = sum(
                db.execute("DELETE FROM doc_sources WHERE collection_id = ? AND uri = ?", (collection_id, uri)).rowcount
                for uri in uris
            )
            _bump(db, collection_id)
        return removed

    def chunks(self, chunk_ids: Sequence[int]) -> list[StoredChunk]:
        """The chunks with these ids, in that order (ids no longer stored are left out)."""
        if not chunk_ids:
            return []
        found: dict[int, StoredChunk] = {}
        for batch in _batches(list(chunk_ids), 500):
            rows = self._db.execute(
                f"""
                SELECT c.*, s.collection_id, s.uri, s.kind AS source_kind FROM doc_chunks c
                JOIN doc_sources s ON s.id = c.source_id WHERE c.id IN ({",".join("?" * len(batch))})
                """,
                batch,
            )
            found.update((row["id"], _chunk(row)) for row in rows)
        return [found[i] for i in chunk_ids if i in found]

    def source_chunks(self, source_id: int) -> list[StoredChunk]:
        rows = self._db.execute(
            "SELECT c.*, s.collection_id, s.uri, s.kind AS source_kind FROM doc_chunks c"
            " JOIN doc_sources s ON s.id = c.source_id WHERE c.source_id = ? ORDER BY c.ordinal",
            (source_id,),
        )
        return [_chunk(row) for row in rows]

    def stats(self, collection_id: int) -> CollectionStats:
        counts = dict(
            self._db.execute(
                "SELECT status, COUNT(*) FROM doc_sources WHERE collection_id = ? GROUP BY status", (collection_id,)
            ).fetchall()
        )
        chunks, vectors = self._db.execute(
            "SELECT COUNT(c.id), COUNT(v.chunk_id) FROM doc_sources s JOIN doc_chunks c ON c.source_id = s.id"
            " LEFT JOIN doc_vectors v ON v.chunk_id = c.id WHERE s.collection_id = ?",
            (collection_id,),
        ).fetchone()
        indexed, skipped, failed = (counts.get(status.value, 0) for status in SourceStatus)
        return CollectionStats(indexed + skipped + failed, indexed, skipped, failed, chunks, vectors)

    # ---- vectors -----------------------------------------------------------------------

    def chunks_without_vectors(self, collection_id: int, model: str) -> list[tuple[int, str]]:
        """(chunk id, text) of the collection's chunks that have no vector from `model` yet."""
        rows = self._db.execute(
            """
            SELECT c.id, c.text FROM doc_chunks c JOIN doc_sources s ON s.id = c.source_id
            LEFT JOIN doc_vectors v ON v.chunk_id = c.id AND v.model = ?
            WHERE s.collection_id = ? AND v.chunk_id IS NULL ORDER BY c.id
            """,
            (model, collection_id),
        )
        return [(row[0], row[1]) for row in rows]

    def set_vectors(self, collection_id: int, model: str, vectors: Sequence[tuple[int, npt.ArrayLike]]) -> None:
        """Store (chunk id, vector) pairs made by `model` for chunks without one (a vector of another model is
        replaced; one of the same model is never replaced, which the vector cache relies on)."""
        with self._write("save the embeddings") as db:
            db.executemany(
                "INSERT OR REPLACE INTO doc_vectors VALUES (?, ?, ?)",
                [(chunk_id, model, to_blob(unit(vector))) for chunk_id, vector in vectors],
            )
            _bump(db, collection_id)

    # ---- search ------------------------------------------------------------------------

    def keyword_search(self, question: str, collection_ids: Sequence[int], limit: int) -> list[KeywordHit]:
        """Chunks of the collections that match the question's terms, by BM25, the best first.

        BM25 weighs a word by how rare it is, so the words found in many chunks hardly move
        the ranking, yet they cost the most: FTS5 scores every chunk that matches any word.
        So each word's chunks are counted first (up to POSTINGS_BUDGET, a cheap walk of its
        posting list), and the words are taken from the rarest on while their chunks add up
        to the budget; a word in more chunks than that is not searched. On a corpus of up to
        POSTINGS_BUDGET chunks this is plain BM25 over every word.
        """
        expression = or_expression(self._informative(question_words(question)))
        if expression is None or not collection_ids or limit <= 0:
            return []
        marks = ",".join("?" * len(collection_ids))
        try:
            rows = self._db.execute(
                # ORDER BY rank (bm25 by default) lets FTS5 sort inside the table: several times faster
                # than ordering by a bm25() column.
                f"SELECT rowid, rank FROM doc_fts WHERE doc_fts MATCH ? AND collection_id IN ({marks})"
                " ORDER BY rank LIMIT ?",
                (expression, *collection_ids, limit),
            ).fetchall()
        except sqlite3.OperationalError as error:  # a query FTS5 cannot parse: nothing found, never a crash
            log.info("Keyword search for %r failed: %s", expression, error)
            return []
        return [KeywordHit(row[0], -row[1]) for row in rows]

    def _informative(self, words: list[str]) -> list[str]:
        """The words worth searching for, by how many chunks hold them (see keyword_search)."""
        counted = []
        for word in words:
            chunks = self._chunks_with(word)
            if 0 < chunks <= POSTINGS_BUDGET:
                counted.append((chunks, word))
        kept: set[str] = set()
        postings = 0
        for chunks, word in sorted(counted):
            if postings + chunks > POSTINGS_BUDGET:
                break
            kept.add(word)
            postings += chunks
        return [word for word in words if word in kept]

    def _chunks_with(self, word: str) -> int:
        """In how many chunks the word is, counted up to POSTINGS_BUDGET + 1."""
        try:
            row = self._db.execute(
                "SELECT COUNT(*) FROM (SELECT 1 FROM doc_fts WHERE doc_fts MATCH ? LIMIT ?)",
                (or_expression([word]), POSTINGS_BUDGET + 1),
            ).fetchone()
        except sqlite3.OperationalError as error:
            log.info("Keyword search could not count %r: %s", word, error)
            return 0
        return int(row[0])

    def vector_search(
        self, vector: npt.ArrayLike, model: str, collection_ids: Sequence[int], limit: int
    ) -> list[VectorHit]:
        """The chunks whose `model` vectors are most similar to `vector` (exact cosine), the best first."""
        query = unit(vector)
        hits: list[VectorHit] = []
        for collection_id in collection_ids:
            vectors = self._vectors(collection_id, model, query.shape[0])
            hits += vectors.search(query, limit)
        hits.sort(key=lambda hit: (-hit.similarity, hit.chunk_id))
        return hits[:limit]

    def _vectors(self, collection_id: int, model: str, dim: int) -> VectorSet:
        """The collection's vectors, kept between searches; after a change only the new ones are read.

        Chunks get new ids when their file is indexed again, and a vector is never replaced
        by another of the same model, so the ids alone tell what is new and what is gone.
        """
        row = self._db.execute("SELECT version FROM doc_collections WHERE id = ?", (collection_id,)).fetchone()
        version = row[0] if row is not None else -1
        cached = self._vector_cache.get((collection_id, model))
        if cached is not None and cached[0] == version and cached[1].dim == dim:
            return cached[1]
        ids = [
            r[0]
            for r in self._db.execute(
                "SELECT v.chunk_id FROM doc_vectors v JOIN doc_chunks c ON c.id = v.chunk_id"
                " JOIN doc_sources s ON s.id = c.source_id WHERE s.collection_id = ? AND v.model = ?",
                (collection_id, model),
            )
        ]
        known = cached[1].keeping(ids) if cached is not None and cached[1].dim == dim else VectorSet.from_blobs([], dim)
        have = set(known.keys.tolist())
        new: list[tuple[int, bytes]] = []
        for batch in _batches([i for i in ids if i not in have], 500):
            new += [
                (r[0], r[1])
                for r in self._db.execute(
                    f"SELECT chunk_id, vector FROM doc_vectors WHERE chunk_id IN ({','.join('?' * len(batch))})",
                    batch,
                )
            ]
        vectors = known.joined(VectorSet.from_blobs(new, dim))
        self._vector_cache[(collection_id, model)] = (version, vectors)
        return vectors


def _prepare(db: sqlite3.Connection, path: Path) -> None:
    """The index's schema (and its trigger on the chat store's table), on a connection the SQLite policy opened."""
    with db:
        db.execute("CREATE TABLE IF NOT EXISTS doc_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = db.execute("SELECT value FROM doc_meta WHERE key = 'schema'").fetchone()
        version = int(row[0]) if row is not None else 0
        if version > SCHEMA_VERSION:
            raise DocumentIndexError(
                fill(
                    N_(
                        "The documents index in {path} was written by a newer Glassbox (schema "
                        "{version}); update Glassbox to use it."
                    ),
                    path=path,
                    version=version,
                )
            )
        db.executescript(_SCHEMA)
        db.execute("INSERT OR REPLACE INTO doc_meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chats'").fetchone():
            db.executescript(_CHAT_TRIGGER)


def _bump(db: sqlite3.Connection, collection_id: int) -> None:
    db.execute("UPDATE doc_collections SET version = version + 1 WHERE id = ?", (collection_id,))


def _rowid(cursor: sqlite3.Cursor) -> int:
    rowid = cursor.lastrowid
    assert rowid is not None
    return rowid


def _batches(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _collection(row: sqlite3.Row) -> Collection:
    return Collection(
        row["id"], row["name"], row["chat_id"], CollectionKind(row["kind"]), row["created"], row["version"]
    )


def _source(row: sqlite3.Row) -> SourceRecord:
    return SourceRecord(
        row["id"],
        row["collection_id"],
        row["uri"],
        row["kind"],
        row["size"],
        row["mtime"],
        row["sha256"],
        SourceStatus(row["status"]),
        row["reason"],
        row["chunks"],
        row["indexed"],
    )


def _chunk(row: sqlite3.Row) -> StoredChunk:
    place = Place(row["page_start"], row["page_end"], row["line_start"], row["line_end"], LineUnit(row["unit"]))
    return StoredChunk(
        row["id"],
        row["collection_id"],
        row["source_id"],
        row["uri"],
        row["source_kind"],
        row["ordinal"],
        row["text"],
        row["tokens"],
        place,
    )


class LazyIndex:
    """A DocumentIndex a worker opens on first use, in its own thread (a SQLite connection stays in the
    thread that made it), and closes when it ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._index: DocumentIndex | None = None

    def get(self) -> DocumentIndex:
        if self._index is None:
            self._index = DocumentIndex(self.path)
        return self._index

    def close(self) -> None:
        index, self._index = self._index, None
        if index is not None:
            index.close()
