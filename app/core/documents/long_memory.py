"""Long memory: the turns a chat's sliding window dropped, indexed so the relevant ones come back.

After each plan of the context window the caller hands over the messages left outside it
(`WindowPlan.outside_ids`); when the chat's long memory is on (`DocumentIndex.set_long_memory`)
each new or edited one is chunked, embedded when there is an embedding model, and stored
in the chat's memory collection under its message id. Retrieval then searches that
collection beside the documents (`retrieval.chat_scope`), recalling only turns of the
branch on show that are not in the window, and marks them as memories in the prompt.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Hashable, Sequence
from typing import Protocol

from app.core.documents.chunking import DEFAULT_CHUNK_TOKENS, DEFAULT_OVERLAP_TOKENS, chunk_spans
from app.core.documents.embeddings import Embedder, EmbeddingError
from app.core.documents.index import CollectionKind, DocumentIndex, NewChunk
from app.core.documents.tokens import TextTokenCounter, estimate_tokens
from app.core.documents.vectors import Matrix

log = logging.getLogger(__name__)


class Turn(Protocol):
    """A message of the conversation: the chat store's Message fits."""

    @property
    def id(self) -> Hashable: ...

    @property
    def role(self) -> str: ...

    @property
    def text(self) -> str: ...


class LongMemory:
    """Remembers a chat's dropped turns in the documents index; one thread uses it."""

    def __init__(
        self,
        index: DocumentIndex,
        embedder: Embedder | None = None,
        counter: TextTokenCounter = estimate_tokens,
        chunk_tokens: int = DEFAULT_CHUNK_TOKENS,
        overlap_tokens: int = DEFAULT_OVERLAP_TOKENS,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.counter = counter
        self.chunk_tokens = chunk_tokens
        self.overlap_tokens = overlap_tokens

    def remember(self, chat_id: str, turns: Sequence[Turn], cancel: threading.Event | None = None) -> int:
        """Index the turns not yet remembered as they are now (when long memory is on); how many were indexed."""
        if not turns or not self.index.long_memory(chat_id):
            return 0
        memory = self.index.own_collection(chat_id, CollectionKind.MEMORY).id
        stored = 0
        for turn in turns:
            if cancel is not None and cancel.is_set():
                break
            uri, text = str(turn.id), turn.text.strip()
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            known = self.index.source(memory, uri)
            if not text or (known is not None and known.sha256 == digest):
                continue
            spans = chunk_spans(text, self.counter, self.chunk_tokens, self.overlap_tokens)
            chunks = [NewChunk(text[s.start : s.end], s.tokens) for s in spans]
            vectors, model = self._vectors(chunks)
            self.index.replace_source(
                memory, uri, turn.role, chunks, size=len(text), sha256=digest, vectors=vectors, model=model
            )
            stored += 1
        return stored

    def _vectors(self, chunks: list[NewChunk]) -> tuple[Matrix | None, str]:
        if self.embedder is None or not chunks:
            return None, ""
        try:
            return self.embedder.embed([chunk.text for chunk in chunks]), self.embedder.model_key
        except EmbeddingError as error:
            log.warning("A dropped turn is remembered for keyword search only: %s", error)
            return None, ""
