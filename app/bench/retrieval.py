"""Bench section `retrieval`: indexing throughput, query latency, and what retrieval adds before a reply.

The corpus is synthetic but shaped like text: pseudo-words drawn with Zipf's law (a few
very common, most rare), in sentences and paragraphs, so that posting lists have the
lengths real ones have. Questions are drawn the same way (8 words each), which makes them
harder than real ones: they hold common words.

- Indexing throughput: MB of text per second through the indexer (read, hash, chunk, FTS5,
  one transaction per file), with full-text search only and with embeddings from the
  bench's model in the embedding process (started before the clock runs).
- Query latency: the median of many questions (each question's time is a round of the
  rows' intervals: a latency against its bound needs no pairing, and a hundred questions
  are rounds enough, so this section adds none), keyword search at 10,000 and 100,000
  chunks, and exact vector search over 10,000 vectors of 768 dimensions (the first vector
  query, which reads the vectors from SQLite, is shown apart).
- Before a reply: the whole retrieval of a turn (search, fusion, fitting the budget,
  rendering) over 10,000 chunks, without embeddings (the target) and with the question
  embedded by the model. The excerpts also make the prompt longer: the last row is the
  time to first token with excerpts minus without, on the bench's model, which grows with
  the model and with how many tokens the budget lets in.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import numpy as np

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.core.documents.embedding_process import EmbeddingProcess
from app.core.documents.embeddings import EmbeddingError
from app.core.documents.index import DocumentIndex, NewChunk
from app.core.documents.indexer import Indexer
from app.core.documents.retrieval import RetrievalScope, Retriever
from app.core.documents.tokens import estimate_tokens
from app.core.inference.engine import Engine, default_threads
from app.core.inference.sampling import GREEDY
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import final_reply

SECTION = "retrieval"
LATENCY_TARGET = "<= 50"
BEFORE_REPLY_TARGET = "<= 100"
CHUNK_WORDS = 200  # about 300 tokens, the size the chunker makes
VECTOR_DIM = 768  # nomic-embed-text, bge-base
BUDGET = 600  # tokens of excerpts a turn gets in the bench
T = TypeVar("T")
_SYLLABLES = "ka lo mi ne ru sa ti vo pe zu da fi go he ja ku".split()


class _Text:
    """Zipf-distributed pseudo-words, in sentences and paragraphs."""

    def __init__(self, seed: int = 0, vocabulary: int = 30_000) -> None:
        self.rng = np.random.default_rng(seed)
        words = {"".join(self.rng.choice(_SYLLABLES, size=self.rng.integers(2, 6))) for _ in range(vocabulary)}
        self.words = sorted(words)
        self.rng.shuffle(self.words)
        weights = 1.0 / np.arange(1, len(self.words) + 1)
        self.weights = weights / weights.sum()

    def draw(self, count: int) -> list[str]:
        return [self.words[i] for i in self.rng.choice(len(self.words), size=count, p=self.weights).tolist()]

    def chunks(self, count: int, words: int = CHUNK_WORDS) -> list[str]:
        drawn = self.draw(count * words)
        return [self._prose(drawn[i * words : (i + 1) * words]) for i in range(count)]

    def document(self, words: int) -> str:
        return "\n\n".join(self._prose(self.draw(120)) for _ in range(max(1, words // 120)))

    def question(self) -> str:
        return " ".join(self.draw(8)) + "?"

    def _prose(self, words: list[str]) -> str:
        sentences = []
        for start in range(0, len(words), 15):
            sentence = words[start : start + 15]
            sentences.append(" ".join(sentence).capitalize() + ".")
        return " ".join(sentences)


def run(context: BenchContext) -> list[BenchRow]:
    text = _Text()
    details: dict[str, object] = {}
    context.details[SECTION] = details
    rows: list[BenchRow] = []
    with tempfile.TemporaryDirectory(prefix="glassbox-bench-retrieval-") as folder:
        root = Path(folder)
        rows += _indexing(root, text, context, details)
        rows += _queries(root, text, context, details)
    rows += _time_to_first_token(context, text, details)
    return rows


# ---- indexing ------------------------------------------------------------------------------


def _indexing(root: Path, text: _Text, context: BenchContext, details: dict[str, object]) -> list[BenchRow]:
    plain_files = 100 if context.quick else 400  # of about 20 KB each
    plain = _write_files(root / "plain", text, plain_files, 3000)
    seconds, text_bytes = _index_folder(root / "plain.sqlite3", plain, None)
    rows = [
        row(
            SECTION, f"indexing, full-text only ({text_bytes / 1e6:.1f} MB of text)", text_bytes / seconds / 1e6, "MB/s"
        )
    ]
    details["indexing_plain"] = {"seconds": seconds, "bytes": text_bytes}
    embedded = _write_files(root / "embedded", text, 1 if context.quick else 8, 1200)
    embedder = EmbeddingProcess(context.model_path, n_threads=default_threads())
    try:
        embedder.start()
        seconds, text_bytes = _index_folder(root / "embedded.sqlite3", embedded, embedder)
        rows.append(
            row(
                SECTION,
                f"indexing with embeddings ({context.model_path.name}, {text_bytes / 1e3:.0f} KB of text)",
                text_bytes / seconds / 1e3,
                "KB/s",
            )
        )
        details["indexing_embedded"] = {"seconds": seconds, "bytes": text_bytes}
    except EmbeddingError as error:
        rows.append(not_measured(SECTION, "indexing with embeddings", str(error), "KB/s"))
    finally:
        embedder.close()
    return rows


def _write_files(folder: Path, text: _Text, count: int, words: int) -> Path:
    folder.mkdir()
    for index in range(count):
        (folder / f"note-{index:04d}.md").write_text(text.document(words), encoding="utf-8")
    return folder


def _index_folder(db: Path, folder: Path, embedder: EmbeddingProcess | None) -> tuple[float, int]:
    with DocumentIndex(db) as index:
        collection = index.create_collection("bench").id
    started = time.perf_counter()
    report = Indexer(db, embedder).add(collection, [folder])
    seconds = time.perf_counter() - started
    if report.embedding_error:
        raise EmbeddingError(report.embedding_error)
    return seconds, report.text_bytes


# ---- queries ---------------------------------------------------------------------------------


def _queries(root: Path, text: _Text, context: BenchContext, details: dict[str, object]) -> list[BenchRow]:
    repeats = 30 if context.quick else 100
    questions = [text.question() for _ in range(repeats)]
    rows: list[BenchRow] = []
    with DocumentIndex(root / "queries.sqlite3") as index:
        collection = index.create_collection("bench").id
        _add_chunks(index, collection, text, 10_000)
        scope = RetrievalScope((collection,))
        keyword_10k = _timings_ms(lambda q: index.keyword_search(q, [collection], 24), questions)
        rows.append(judged(SECTION, "keyword query, 10,000 chunks (per question)", keyword_10k, "ms", LATENCY_TARGET))

        rng = np.random.default_rng(1)
        ids = [chunk_id for chunk_id, _text in index.chunks_without_vectors(collection, "bench")]
        vectors = rng.standard_normal((len(ids), VECTOR_DIM), dtype=np.float32)
        index.set_vectors(collection, "bench", list(zip(ids, vectors, strict=True)))
        queries = list(rng.standard_normal((repeats, VECTOR_DIM), dtype=np.float32))
        started = time.perf_counter()
        index.vector_search(queries[0], "bench", [collection], 24)
        first = (time.perf_counter() - started) * 1000
        vector_10k = _timings_ms(lambda q: index.vector_search(q, "bench", [collection], 24), queries)
        metric = f"vector query, 10,000 × {VECTOR_DIM} (per question)"
        rows.append(judged(SECTION, metric, vector_10k, "ms", LATENCY_TARGET))
        rows.append(row(SECTION, "first vector query (reads the vectors from SQLite)", first, "ms"))

        retriever = Retriever(index)
        before = _timings_ms(lambda q: retriever.retrieve(q, scope, BUDGET), questions)
        metric = "retrieval before a reply, full-text only, 10,000 chunks (per question)"
        rows.append(judged(SECTION, metric, before, "ms", BEFORE_REPLY_TARGET))
        rows.append(_with_embedded_question(index, collection, ids, scope, questions, context))

        _add_chunks(index, collection, text, 90_000)
        keyword_100k = _timings_ms(lambda q: index.keyword_search(q, [collection], 24), questions)
        metric = "keyword query, 100,000 chunks (per question)"
        rows.append(judged(SECTION, metric, keyword_100k, "ms", LATENCY_TARGET))
    details["queries"] = {
        "questions": repeats,
        "keyword_10k_ms": statistics.median(keyword_10k),
        "keyword_100k_ms": statistics.median(keyword_100k),
        "vector_10k_ms": statistics.median(vector_10k),
        "retrieval_before_reply_ms": statistics.median(before),
    }
    return rows


def _with_embedded_question(
    index: DocumentIndex,
    collection: int,
    ids: list[int],
    scope: RetrievalScope,
    questions: list[str],
    context: BenchContext,
) -> BenchRow:
    """The same retrieval with the question embedded by the model (the stored vectors are random, of its size)."""
    metric = f"retrieval before a reply, question embedded ({context.model_path.name}) (median)"
    embedder = EmbeddingProcess(context.model_path, n_threads=default_threads())
    try:
        rng = np.random.default_rng(2)
        vectors = rng.standard_normal((len(ids), embedder.dim), dtype=np.float32)
        index.set_vectors(collection, embedder.model_key, list(zip(ids, vectors, strict=True)))
        retriever = Retriever(index, embedder)
        retriever.retrieve(questions[0], scope, BUDGET)  # the vectors are read once
        asked = questions[: 5 if context.quick else 20]
        timings = _timings_ms(lambda q: retriever.retrieve(q, scope, BUDGET), asked)
        return row(SECTION, metric, statistics.median(timings), "ms")
    except EmbeddingError as error:
        return not_measured(SECTION, metric, str(error), "ms")
    finally:
        embedder.close()


def _add_chunks(index: DocumentIndex, collection: int, text: _Text, count: int) -> None:
    per_source = 100
    start = len(index.sources(collection))
    for source in range(count // per_source):
        chunks = [NewChunk(body, estimate_tokens(body)) for body in text.chunks(per_source)]
        index.replace_source(collection, f"/bench/file-{start + source:06d}.md", "markdown", chunks)


def _timings_ms(function: Callable[[T], object], inputs: Sequence[T]) -> list[float]:
    """Milliseconds `function` took for each input."""
    timings = []
    for value in inputs:
        started = time.perf_counter()
        function(value)
        timings.append((time.perf_counter() - started) * 1000)
    return timings


# ---- what the excerpts add to the first token ------------------------------------------------------


def _time_to_first_token(context: BenchContext, text: _Text, details: dict[str, object]) -> list[BenchRow]:
    question = "What do my notes say about " + " ".join(text.draw(4)) + "?"
    count = 1 if context.quick else 3
    excerpts = "\n\n".join(
        f"[{i}] notes-{i}.md, lines 1–20\n{body}" for i, body in enumerate(text.chunks(count, 150), 1)
    )
    rounds = 2 if context.quick else 5
    params = replace(GREEDY, max_tokens=1)
    engine = Engine()
    engine.load(LoadConfig(context.model_path, n_ctx=2048, n_threads=default_threads()))
    timings: dict[str, list[float]] = {"without": [], "with": []}
    try:
        added = len(engine.tokenize(excerpts, special=False))
        for index in range(rounds):
            order = ("without", "with") if index % 2 == 0 else ("with", "without")
            for side in order:
                content = question if side == "without" else f"{excerpts}\n\n{question}"
                engine.llama.reset()
                done = final_reply(engine.stream_chat([ChatMessage("user", content)], params, threading.Event()))
                timings[side].append(done.stats.time_to_first_token_s)
    finally:
        engine.close()
    extra = (statistics.median(timings["with"]) - statistics.median(timings["without"])) * 1000
    details["time_to_first_token"] = {"rounds": timings, "excerpt_tokens": added}
    return [row(SECTION, f"time to first token, + {added} tokens of excerpts ({context.model_path.name})", extra, "ms")]
