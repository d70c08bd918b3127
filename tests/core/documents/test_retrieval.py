"""Retrieval into the prompt: the right chunks within a budget, with their scores, why they were chosen,
an instruction to cite, and the context window counting them."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from app.core.chat.context_window import ContextWindow, EnginePlanner, PlanRequest, WindowTurn
from app.core.documents.index import DocumentIndex, NewChunk
from app.core.documents.retrieval import (
    DOCUMENTS_HEADER,
    RetrievalScope,
    Retriever,
    Why,
    chat_scope,
    retrieval_budget,
)
from app.core.documents.tokens import estimate_tokens
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY
from app.core.types.messages import ChatMessage
from tests.core.documents.embedders import WordCountEmbedder
from tests.fakes.token_counter import FakeTokenCounter

FILLER = "This paragraph is about nothing in particular and only takes room in the file. " * 6
PARAGRAPHS = {
    "boiler.md": [
        FILLER,
        "To reset the boiler, hold the red button for ten seconds until the pilot light blinks twice.",
        FILLER,
    ],
    "router.md": [FILLER, "The router password is printed on a sticker under the device.", FILLER],
    "garden.md": [FILLER, "Water the lemon tree once a week in summer and once a month in winter.", FILLER],
}


@pytest.fixture
def index(tmp_path: Path) -> DocumentIndex:
    with DocumentIndex(tmp_path / "chats.sqlite3") as opened:
        yield opened


def add_manuals(index: DocumentIndex, embedder: WordCountEmbedder | None = None) -> int:
    collection = index.create_collection("manuals").id
    for uri, paragraphs in PARAGRAPHS.items():
        chunks = [NewChunk(text, estimate_tokens(text)) for text in paragraphs]
        vectors = None if embedder is None else embedder.embed([c.text for c in chunks])
        model = "" if embedder is None else embedder.model_key
        index.replace_source(collection, f"/home/me/manuals/{uri}", "markdown", chunks, vectors=vectors, model=model)
    return collection


def test_the_right_chunk_is_chosen_within_the_budget_and_rendered_with_an_instruction_to_cite(
    index: DocumentIndex,
) -> None:
    collection = add_manuals(index)
    budget = 120

    question = "How do I reset the boiler? The manual takes too much room."
    retrieval = Retriever(index).retrieve(question, RetrievalScope((collection,)), budget)

    first = retrieval.chunks[0]
    assert "hold the red button" in first.chunk.text
    assert (first.number, first.why, first.keyword_rank, first.vector_rank) == (1, Why.KEYWORD, 1, None)
    assert first.keyword_score is not None and first.keyword_score > 0
    assert first.label == "boiler.md"
    assert retrieval.tokens <= budget
    assert retrieval.block.startswith(DOCUMENTS_HEADER)
    assert "cite it by its number in square brackets" in retrieval.block
    assert "[1] boiler.md\nTo reset the boiler" in retrieval.block
    assert len(retrieval.chunks) == 1
    assert retrieval.left_out >= 1, "the filler chunks, which match 'room', did not fit"


def test_a_chunk_too_big_for_what_is_left_is_passed_over_for_a_smaller_one(index: DocumentIndex) -> None:
    collection = index.create_collection("notes").id
    big = "kettle " * 200
    index.replace_source(collection, "/n/big.txt", "text", [NewChunk(big, estimate_tokens(big))])
    index.replace_source(collection, "/n/small.txt", "text", [NewChunk("the kettle", 3)])

    retrieval = Retriever(index).retrieve("kettle", RetrievalScope((collection,)), budget=150)

    assert [Path(c.chunk.uri).name for c in retrieval.chunks] == ["small.txt"]
    assert retrieval.left_out == 1


def test_keyword_and_vector_rankings_are_fused_and_each_chunk_says_why_it_was_chosen(index: DocumentIndex) -> None:
    embedder = WordCountEmbedder(["boiler", "pilot", "router", "sticker", "lemon", "tree"])
    collection = add_manuals(index, embedder)

    retrieval = Retriever(index, embedder).retrieve("pilot boiler sticker", RetrievalScope((collection,)), budget=2000)

    whys = {(Path(c.chunk.uri).name, c.chunk.text[:8]): c.why for c in retrieval.chunks}
    assert whys[("boiler.md", "To reset")] is Why.BOTH
    assert whys[("router.md", "The rout")] is Why.BOTH
    assert retrieval.chunks[0].chunk.text.startswith("To reset the boiler"), "two words of the question, not one"
    vector_only = [c for c in retrieval.chunks if c.why is Why.VECTOR]
    assert vector_only and all(c.keyword_rank is None and c.similarity is not None for c in vector_only)
    assert [c.number for c in retrieval.chunks] == list(range(1, len(retrieval.chunks) + 1))


def test_no_collections_no_budget_or_no_match_retrieve_nothing(index: DocumentIndex) -> None:
    collection = add_manuals(index)
    retriever = Retriever(index)

    assert retriever.retrieve("boiler", RetrievalScope(), 500).block == ""
    assert retriever.retrieve("boiler", RetrievalScope((collection,)), 0).block == ""
    nothing = retriever.retrieve("quantum chromodynamics", RetrievalScope((collection,)), 500)
    assert (nothing.chunks, nothing.block) == ((), "")


def test_the_citations_a_reply_makes_are_the_chunks_it_names(index: DocumentIndex) -> None:
    collection = add_manuals(index)
    retrieval = Retriever(index).retrieve("boiler router lemon", RetrievalScope((collection,)), 2000)

    cited = retrieval.cited_in("Hold the red button [1]; for the tree see [3]. Not [99].")

    assert [c.number for c in cited] == [1, 3]
    record = retrieval.to_dict()["chunks"][0]
    assert record["uri"] == retrieval.chunks[0].chunk.uri and record["why"] == "keyword"


def test_the_budget_is_a_share_of_the_room_and_never_more_than_is_free() -> None:
    assert retrieval_budget(n_ctx=4096, reserve=512, used=300) == int(3584 * 0.3)
    assert retrieval_budget(n_ctx=1024, reserve=512, used=400) == 112
    assert retrieval_budget(n_ctx=1024, reserve=512, used=480) == 0, "less than MIN_BUDGET is nothing"


def test_the_context_window_counts_the_retrieved_block_and_drops_old_turns_to_make_room() -> None:
    counter = FakeTokenCounter()
    window = ContextWindow(counter)
    turns = [WindowTurn(i, "user" if i % 2 == 0 else "assistant", f"turn {i} " + "word " * 20) for i in range(9)]
    block = "[1] notes.md\n" + "excerpt " * 60

    plain = window.plan("Be brief.", turns, n_ctx=330, reserve=50)
    with_block = window.plan("Be brief.", turns, n_ctx=330, reserve=50, retrieved=block)

    assert with_block.messages[-1].content == f"{block}\n\n{turns[-1].text}"
    newest = turns[-1].text
    assert with_block.retrieved_tokens == counter.count_tokens(
        [ChatMessage("user", f"{block}\n\n{newest}")]
    ) - counter.count_tokens([ChatMessage("user", newest)])
    assert with_block.prompt_tokens == counter.count_tokens(with_block.messages) <= 280
    assert plain.outside_ids == ()
    assert len(with_block.outside_ids) > 0, "older turns left the window to make room for the excerpts"
    assert turns[-1].text.startswith("turn 8"), "the message itself is unchanged"
    with pytest.raises(ValueError, match="user"):
        window.plan("", turns[:-1], n_ctx=330, reserve=50, retrieved=block)


def test_a_chat_with_a_collection_gets_a_reply_whose_prompt_holds_the_right_chunk(
    tmp_path: Path, engine: Engine
) -> None:
    with DocumentIndex(tmp_path / "chats.sqlite3") as index:
        collection = add_manuals(index)
        index.attach("chat-1", collection)
        question = WindowTurn(0, "user", "How do I reset the boiler?")
        counter = lambda text: len(engine.tokenize(text, special=False))  # noqa: E731
        scope = chat_scope(index, "chat-1", thread_ids=["0"])
        budget = retrieval_budget(engine.n_ctx, 256, engine.count_tokens([]) + counter(question.text))
        retrieval = Retriever(index, counter=counter).retrieve(question.text, scope, budget)

    result = EnginePlanner(engine).plan(PlanRequest("reply", "", (question,), reserve=256, retrieved=retrieval.block))

    assert result.plan is not None, result.error
    prompt = engine.render_prompt(result.plan.messages)
    assert "hold the red button for ten seconds" in prompt
    assert prompt.index("[1] boiler.md") < prompt.index("How do I reset the boiler?")
    assert result.plan.retrieved_tokens >= retrieval.tokens - 2  # counted by the model's tokenizer too
    reply = engine.complete_chat(result.plan.messages, dataclasses.replace(GREEDY, max_tokens=24))
    assert reply.text
    assert retrieval.to_dict()["chunks"][0]["label"] == "boiler.md"


@pytest.mark.expected_log("app.core.documents.retrieval", logging.WARNING, r"could not be embedded")
def test_when_the_question_cannot_be_embedded_keyword_search_still_answers(index: DocumentIndex) -> None:
    collection = add_manuals(index)

    retrieval = Retriever(index, WordCountEmbedder(["boiler"], fail_after=0)).retrieve(
        "reset the boiler", RetrievalScope((collection,)), 500
    )

    assert retrieval.chunks[0].chunk.text.startswith("To reset the boiler")
    assert retrieval.chunks[0].why is Why.KEYWORD
    assert "exit code 1" in retrieval.embedding_error
