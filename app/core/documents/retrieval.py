"""Retrieval into the prompt: the chunks that best answer a message, within a token budget, and how
they are put in front of it with an instruction to cite them.

For each question the chat's document collections (and its long memory, when on) are
searched twice, by keywords (FTS5, BM25) and, with an embedding model, by meaning (exact
cosine over the stored vectors); the two rankings are merged by reciprocal rank fusion.
Candidates are then taken best first while they fit the budget (a chunk that does not fit
is passed over for a smaller one after it). Each chosen chunk keeps its scores and why it
was chosen — keyword, vector or both — for the prompt inspector, and its number, for the
citations [1], [2] … under the reply.

The rendered block goes in front of the user's message through the context window's one
hook (`ContextWindow.plan(..., retrieved=block)`), which counts it with the model's own
tokenizer; the budget given here is counted with `counter` (the model's tokenizer when the
caller has one, else the estimate, which errs on the high side).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from app.core.documents.embeddings import Embedder, EmbeddingCancelled, EmbeddingError
from app.core.documents.fusion import reciprocal_rank_fusion
from app.core.documents.index import CollectionKind, DocumentIndex, StoredChunk
from app.core.documents.tokens import TextTokenCounter, estimate_tokens
from app.core.documents.vectors import VectorHit
from app.core.support.user_text import text_of

log = logging.getLogger(__name__)

CANDIDATES = 24  # looked at per search (keyword and vector each)
DEFAULT_SHARE = 0.3  # of the room left for the conversation, at most, goes to retrieved excerpts
MIN_BUDGET = 64  # less room than this: nothing is retrieved

DOCUMENTS_HEADER = (
    "Excerpts from the user's documents that may help with the message below. When you use one, cite it by its "
    "number in square brackets, like [1] or [2]. If the excerpts do not answer the message, say so instead of "
    "guessing."
)
MEMORY_HEADER = "Recalled from earlier in this conversation (no longer in view):"
_CITATION = re.compile(r"\[(\d{1,3})\]")


class Why(str, Enum):
    """Why a chunk was chosen."""

    KEYWORD = "keyword"
    VECTOR = "vector"
    BOTH = "both"


@dataclass(frozen=True)
class RetrievedChunk:
    number: int  # [n] in the prompt for documents; the position among the recalled turns for memories
    chunk: StoredChunk
    score: float  # the fused score (reciprocal rank fusion)
    why: Why
    tokens: int  # what its entry in the block takes, by the retrieval's counter
    keyword_rank: int | None = None
    keyword_score: float | None = None  # BM25, higher is better
    vector_rank: int | None = None
    similarity: float | None = None  # cosine
    memory: bool = False  # a recalled turn of this chat, not a document

    @property
    def label(self) -> str:
        """'notes.md, lines 3–9' for a document; 'you' or 'assistant' for a recalled turn."""
        if self.memory:
            return "you" if self.chunk.source_kind == "user" else "assistant"
        place = self.chunk.place.describe()
        name = Path(self.chunk.uri).name
        return f"{name}, {place}" if place else name

    def to_dict(self) -> dict[str, Any]:
        """What the reply keeps in its stats, so citations still open after a restart."""
        place = self.chunk.place
        return {
            "number": self.number,
            "uri": self.chunk.uri,
            "label": self.label,
            "page": place.page_start,
            "line": place.line_start,
            "why": self.why.value,
            "score": round(self.score, 6),
            "keyword_score": None if self.keyword_score is None else round(self.keyword_score, 4),
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "tokens": self.tokens,
            "memory": self.memory,
        }


@dataclass(frozen=True)
class Retrieval:
    question: str
    chunks: tuple[RetrievedChunk, ...] = ()  # documents, numbered [1], [2] … best first
    memories: tuple[RetrievedChunk, ...] = ()  # recalled turns, best first
    budget: int = 0
    tokens: int = 0  # what the block takes, by the retrieval's counter
    considered: int = 0  # candidates from both searches together
    left_out: int = 0  # candidates that did not fit the budget
    seconds: float = 0.0
    embedding_error: str = ""  # the question could not be embedded: keyword search alone was used
    block: str = ""  # the text that goes in front of the message; "" when nothing was found

    @property
    def recalled_ids(self) -> tuple[str, ...]:
        """The ids of the messages recalled from long memory (the chat view greys them as recalled)."""
        return tuple(dict.fromkeys(m.chunk.uri for m in self.memories))

    def cited_in(self, reply: str) -> list[RetrievedChunk]:
        """The document chunks the reply cites by number, in the order of their numbers."""
        numbers = {int(n) for n in _CITATION.findall(reply)}
        return [chunk for chunk in self.chunks if chunk.number in numbers]

    def to_dict(self) -> dict[str, Any]:
        return {
            "chunks": [c.to_dict() for c in self.chunks],
            "memories": [m.to_dict() for m in self.memories],
            "budget": self.budget,
            "tokens": self.tokens,
            "left_out": self.left_out,
            "seconds": round(self.seconds, 4),
            "embedding_error": self.embedding_error,
        }


@dataclass(frozen=True)
class RetrievalScope:
    """Where a turn retrieves from."""

    collection_ids: tuple[int, ...] = ()  # document collections
    memory_collection_id: int | None = None  # the chat's long memory, when it is on
    memory_allowed: frozenset[str] | None = None  # only these message ids may be recalled (the branch on show)
    memory_excluded: frozenset[str] = field(default_factory=frozenset)  # still in the window: not recalled

    @property
    def empty(self) -> bool:
        return not self.collection_ids and self.memory_collection_id is None


def chat_scope(
    index: DocumentIndex, chat_id: str, thread_ids: Collection[str], window_ids: Collection[str] = ()
) -> RetrievalScope:
    """The scope of a chat's next turn: its collections, and its long memory (when on) limited to the
    turns of the branch on show (`thread_ids`) that are not in the window (`window_ids`, the last plan's kept ids).
    """
    collections = tuple(c.id for c in index.chat_collections(chat_id))
    memory = index.own_collection(chat_id, CollectionKind.MEMORY).id if index.long_memory(chat_id) else None
    return RetrievalScope(collections, memory, frozenset(thread_ids), frozenset(window_ids))


def retrieval_budget(n_ctx: int, reserve: int, used: int, share: float = DEFAULT_SHARE) -> int:
    """Tokens retrieval may take: a share of the room for the conversation, and never more than is free.

    `used` is what the prompt takes without excerpts: system prompt, template and the new message at least
    (older turns leave the window to make room, so they are not counted).
    """
    room = n_ctx - reserve
    budget = min(int(room * share), room - used)
    return budget if budget >= MIN_BUDGET else 0


class Retriever:
    """Searches the index for a turn; one thread uses it (it holds the index's connection)."""

    def __init__(
        self,
        index: DocumentIndex,
        embedder: Embedder | None = None,
        counter: TextTokenCounter = estimate_tokens,
        candidates: int = CANDIDATES,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.counter = counter
        self.candidates = candidates

    def retrieve(
        self, question: str, scope: RetrievalScope, budget: int, cancel: threading.Event | None = None
    ) -> Retrieval:
        """The chunks (and recalled turns) for `question` that fit `budget` tokens, rendered as one block."""
        started = time.perf_counter()
        if scope.empty or budget <= 0 or not question.strip():
            return Retrieval(question, budget=budget)
        collections = [*scope.collection_ids]
        if scope.memory_collection_id is not None:
            collections.append(scope.memory_collection_id)
        keyword = self.index.keyword_search(question, collections, self.candidates)
        vector, embedding_error = self._vector_search(question, collections, cancel)
        fused = reciprocal_rank_fusion(
            {"keyword": [h.chunk_id for h in keyword], "vector": [h.chunk_id for h in vector]}
        )
        stored = {c.id: c for c in self.index.chunks([f.key for f in fused])}
        keyword_scores = {h.chunk_id: h.score for h in keyword}
        similarities = {h.chunk_id: h.similarity for h in vector}
        documents: list[RetrievedChunk] = []
        memories: list[RetrievedChunk] = []
        left = budget - self._header_tokens()
        left_out = 0
        for candidate in fused:
            chunk = stored.get(candidate.key)
            if chunk is None:
                continue
            memory = chunk.collection_id == scope.memory_collection_id
            if memory and not _recallable(chunk.uri, scope):
                continue
            entry = RetrievedChunk(
                number=len(memories if memory else documents) + 1,
                chunk=chunk,
                score=candidate.score,
                why=_why(candidate.ranks),
                tokens=0,
                keyword_rank=candidate.ranks.get("keyword"),
                keyword_score=keyword_scores.get(chunk.id),
                vector_rank=candidate.ranks.get("vector"),
                similarity=similarities.get(chunk.id),
                memory=memory,
            )
            tokens = self.counter(_entry(entry) + "\n\n")  # with the blank line that separates it
            if tokens > left:
                left_out += 1
                continue
            left -= tokens
            (memories if memory else documents).append(replace(entry, tokens=tokens))
        block = render_block(documents, memories)
        return Retrieval(
            question,
            tuple(documents),
            tuple(memories),
            budget,
            self.counter(block) if block else 0,
            len(fused),
            left_out,
            time.perf_counter() - started,
            embedding_error,
            block,
        )

    def _vector_search(
        self, question: str, collections: Sequence[int], cancel: threading.Event | None
    ) -> tuple[list[VectorHit], str]:
        if self.embedder is None:
            return [], ""
        try:
            vector = self.embedder.embed([question], cancel)[0]
            return self.index.vector_search(vector, self.embedder.model_key, collections, self.candidates), ""
        except EmbeddingCancelled:  # the turn was stopped: what is returned is not used
            return [], ""
        except EmbeddingError as error:
            log.warning("The question could not be embedded; keyword search alone is used: %s", error)
            return [], text_of(error)

    def _header_tokens(self) -> int:
        """Room for both headers and the blank lines between entries, counted once up front."""
        return self.counter(f"{DOCUMENTS_HEADER}\n\n{MEMORY_HEADER}\n\n")


def render_block(documents: Sequence[RetrievedChunk], memories: Sequence[RetrievedChunk]) -> str:
    """The text that goes in front of the user's message."""
    parts: list[str] = []
    if documents:
        parts.append(DOCUMENTS_HEADER)
        parts += [_entry(chunk) for chunk in documents]
    if memories:
        parts.append(MEMORY_HEADER)
        parts += [_entry(memory) for memory in memories]
    return "\n\n".join(parts)


def _entry(chunk: RetrievedChunk) -> str:
    text = chunk.chunk.text.strip()
    if chunk.memory:
        speaker = "You said" if chunk.chunk.source_kind == "assistant" else "The user said"
        return f"({speaker} earlier:) {text}"
    return f"[{chunk.number}] {chunk.label}\n{text}"


def _why(ranks: dict[str, int]) -> Why:
    if "keyword" in ranks and "vector" in ranks:
        return Why.BOTH
    return Why.KEYWORD if "keyword" in ranks else Why.VECTOR


def _recallable(message_id: str, scope: RetrievalScope) -> bool:
    if message_id in scope.memory_excluded:
        return False
    return scope.memory_allowed is None or message_id in scope.memory_allowed
