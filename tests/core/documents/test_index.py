"""The documents index: collections in the chats database, BM25 keyword search in English and Chinese,
exact vector search, and what a chat's deletion takes with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.core.chat.store import ChatStore
from app.core.documents.document import Place
from app.core.documents.index import (
    CollectionKind,
    DocumentIndex,
    DocumentIndexError,
    NewChunk,
    SourceStatus,
)
from app.core.documents.terms import index_text, match_expression

ENGLISH = {
    "bread.md": "Sourdough bread needs a starter, flour, water and salt. Knead the dough, let it rise overnight, "
    "then bake the loaf in a hot oven until the crust is dark.",
    "garden.md": "Tomatoes in the garden need sun and water every day. Prune the side shoots and tie the plants "
    "to a stake so the fruit does not touch the soil.",
    "bikes.md": "To fix a flat tyre, take the wheel off, lever the tyre from the rim, find the hole in the inner "
    "tube and patch it. Pump the tyre back up before you ride.",
    "taxes.md": "File your tax return before the deadline. Keep the receipts of your expenses; the office may ask "
    "for them. Late returns pay a fine.",
}
CHINESE = {
    "weather.txt": "今天天气很好，阳光明媚。明天可能会下雨，出门记得带伞。天气预报说周末气温会下降。",
    "learning.txt": "机器学习是人工智能的一个分支。模型从数据中学习规律，然后对新的数据做出预测。",
    "cooking.txt": "做红烧肉要先把肉切块，用冷水焯一下，再加酱油和糖慢慢炖一个小时。",
    "travel.txt": "去北京旅游可以参观故宫和长城。坐高铁从上海到北京大约需要五个小时。",
}


@pytest.fixture
def index(tmp_path: Path) -> DocumentIndex:
    with DocumentIndex(tmp_path / "chats.sqlite3") as opened:
        yield opened


def add_corpus(index: DocumentIndex, corpus: dict[str, str], name: str = "notes") -> int:
    collection = index.create_collection(name)
    for uri, text in corpus.items():
        index.replace_source(collection.id, uri, "text", [NewChunk(text, len(text.split()))])
    return collection.id


def top_file(index: DocumentIndex, question: str, collection_id: int) -> str:
    hits = index.keyword_search(question, [collection_id], limit=3)
    assert hits, f"nothing found for {question!r}"
    return index.chunks([hits[0].chunk_id])[0].uri


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How long should I bake sourdough?", "bread.md"),
        ("my tyre is flat, how do I patch the tube", "bikes.md"),
        ("When is the deadline for the tax return?", "taxes.md"),
        ("pruning tomato plants", "garden.md"),  # stems: pruning → prune, plants → plant
    ],
)
def test_keyword_search_puts_the_right_file_first_in_english(
    index: DocumentIndex, question: str, expected: str
) -> None:
    collection = add_corpus(index, ENGLISH)

    assert top_file(index, question, collection) == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("明天会下雨吗？", "weather.txt"),  # 下雨: two characters, which a trigram index cannot match
        ("天气", "weather.txt"),
        ("什么是机器学习", "learning.txt"),
        ("红烧肉怎么做", "cooking.txt"),
        ("从上海到北京要多久", "travel.txt"),
    ],
)
def test_keyword_search_puts_the_right_file_first_in_chinese(
    index: DocumentIndex, question: str, expected: str
) -> None:
    collection = add_corpus(index, CHINESE)

    assert top_file(index, question, collection) == expected


def test_chinese_is_indexed_as_characters_and_pairs_and_asked_as_pairs() -> None:
    assert index_text("GPT模型") == "GPT 模 型 模型 "
    assert match_expression("天气很好") == '"天气" OR "气很" OR "很好"'
    assert match_expression("猫") == '"猫"'


def test_a_question_of_only_common_words_or_fts_syntax_finds_nothing_and_does_not_fail(index: DocumentIndex) -> None:
    collection = add_corpus(index, ENGLISH)

    assert match_expression("what is it?") is None
    assert index.keyword_search("what is it?", [collection], 5) == []
    assert index.keyword_search('NEAR( "bread" AND * OR', [collection], 5)[0].chunk_id > 0


def test_keyword_search_sees_only_the_collections_asked_for(index: DocumentIndex) -> None:
    mine = add_corpus(index, ENGLISH, "mine")
    other = add_corpus(index, {"bread2.md": "bread bread sourdough bread"}, "other")

    hits = index.keyword_search("sourdough bread", [mine], 10)

    assert {index.chunks([h.chunk_id])[0].uri for h in hits} == {"bread.md"}
    assert len(index.keyword_search("sourdough bread", [mine, other], 10)) == 2


def test_vector_search_is_exact_cosine_order_with_hand_made_vectors(index: DocumentIndex) -> None:
    collection = index.create_collection("vectors").id
    vectors = {"east": [1, 0, 0], "north-east": [1, 1, 0], "north": [0, 2, 0], "up": [0, 0, 5], "west": [-1, 0, 0]}
    for uri, vector in vectors.items():
        index.replace_source(collection, uri, "text", [NewChunk(uri, 1)], vectors=[vector], model="hand")

    hits = index.vector_search([2, 0.1, 0], "hand", [collection], limit=4)

    assert [index.chunks([h.chunk_id])[0].uri for h in hits] == ["east", "north-east", "north", "up"]
    assert hits[0].similarity == pytest.approx(2 / np.linalg.norm([2, 0.1]), rel=1e-6)
    assert hits[-1].similarity == pytest.approx(0.0, abs=1e-6)
    assert index.vector_search([1, 0, 0], "another model", [collection], limit=4) == []


def test_vector_search_sees_a_change_to_the_collection(index: DocumentIndex) -> None:
    collection = index.create_collection("vectors").id
    index.replace_source(collection, "a", "text", [NewChunk("a", 1)], vectors=[[1, 0]], model="m")
    assert len(index.vector_search([1, 0], "m", [collection], 5)) == 1

    index.replace_source(collection, "b", "text", [NewChunk("b", 1)], vectors=[[0, 1]], model="m")
    index.remove_sources(collection, ["a"])

    hits = index.vector_search([1, 0], "m", [collection], 5)
    assert [index.chunks([h.chunk_id])[0].uri for h in hits] == ["b"]


def test_vector_search_sees_the_new_vectors_of_a_file_indexed_again(index: DocumentIndex) -> None:
    collection = index.create_collection("vectors").id
    index.replace_source(collection, "a", "text", [NewChunk("a", 1)], vectors=[[1, 0]], model="m")
    index.replace_source(collection, "b", "text", [NewChunk("b", 1)], vectors=[[0, 1]], model="m")
    assert len(index.vector_search([1, 0], "m", [collection], 5)) == 2

    index.replace_source(collection, "b", "text", [NewChunk("b again", 2)], vectors=[[-1, 0]], model="m")

    hits = index.vector_search([-1, 0], "m", [collection], 5)
    found = [(index.chunks([h.chunk_id])[0].text, round(h.similarity, 3)) for h in hits]
    assert found == [("b again", 1.0), ("a", -1.0)]


def test_chunks_without_a_vector_of_the_model_are_listed_for_embedding(index: DocumentIndex) -> None:
    collection = index.create_collection("vectors").id
    index.replace_source(collection, "a", "text", [NewChunk("a", 1)], vectors=[[1, 0]], model="m")
    index.replace_source(collection, "b", "text", [NewChunk("b", 1)])

    ((missing, text),) = index.chunks_without_vectors(collection, "m")
    assert text == "b"
    assert [t for _id, t in index.chunks_without_vectors(collection, "new model")] == ["a", "b"]

    index.set_vectors(collection, "m", [(missing, [0, 3])])
    assert index.chunks_without_vectors(collection, "m") == []
    assert index.stats(collection).vectors == 2


def test_replacing_a_source_replaces_its_chunks_in_the_keyword_index(index: DocumentIndex) -> None:
    collection = index.create_collection("notes").id
    index.replace_source(collection, "f.txt", "text", [NewChunk("apples and pears", 3)])
    index.replace_source(collection, "f.txt", "text", [NewChunk("plums only", 2, Place(line_start=4, line_end=9))])

    assert index.keyword_search("apples", [collection], 5) == []
    (hit,) = index.keyword_search("plums", [collection], 5)
    chunk = index.chunks([hit.chunk_id])[0]
    assert chunk.place.describe() == "lines 4–9"
    assert index.stats(collection).chunks == 1


def test_a_failed_file_keeps_its_reason_and_loses_its_old_chunks(index: DocumentIndex) -> None:
    collection = index.create_collection("notes").id
    index.replace_source(collection, "f.pdf", "pdf", [NewChunk("old text", 2)])

    record = index.record_problem(collection, "f.pdf", "pdf", SourceStatus.FAILED, "The PDF is damaged.")

    assert (record.status, record.reason, record.chunks) == (SourceStatus.FAILED, "The PDF is damaged.", 0)
    assert index.keyword_search("old text", [collection], 5) == []
    stats = index.stats(collection)
    assert (stats.files, stats.failed, stats.chunks) == (1, 1, 0)


def test_named_collections_are_unique_and_shared_by_chats_that_attach_them(index: DocumentIndex) -> None:
    manuals = index.create_collection("Manuals")
    with pytest.raises(DocumentIndexError, match="already exists"):
        index.create_collection("  Manuals ")
    own = index.own_collection("chat-1")

    index.attach("chat-1", manuals.id)
    index.attach("chat-2", manuals.id)

    assert [c.id for c in index.chat_collections("chat-1")] == [own.id, manuals.id]
    assert [c.id for c in index.chat_collections("chat-2")] == [manuals.id]
    assert index.own_collection("chat-1") == own
    assert index.own_collection("chat-1", CollectionKind.MEMORY).id not in {
        c.id for c in index.chat_collections("chat-1")
    }


def test_deleting_a_chat_deletes_its_own_collections_and_not_the_shared_ones(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    with ChatStore(path) as store, DocumentIndex(path) as index:
        chat = store.create_chat("with files")
        shared = index.create_collection("shared")
        index.attach(chat.id, shared.id)
        own = index.own_collection(chat.id)
        index.replace_source(own.id, "mine.txt", "text", [NewChunk("private notes", 2)])
        index.set_long_memory(chat.id, True)

        store.delete_chat(chat.id)

        assert [c.id for c in index.named_collections()] == [shared.id]
        assert index.chat_collections(chat.id) == []
        assert not index.long_memory(chat.id)
        assert index.keyword_search("private", [own.id], 5) == []


def test_a_newer_schema_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    with DocumentIndex(path) as index, index._db:
        index._db.execute("UPDATE doc_meta SET value = '99' WHERE key = 'schema'")

    with pytest.raises(DocumentIndexError, match="newer Glassbox"):
        DocumentIndex(path)


def test_removing_a_folder_drops_the_files_below_it_only(index: DocumentIndex, tmp_path: Path) -> None:
    collection = index.create_collection("notes").id
    folder = tmp_path / "docs"
    for uri in (folder / "a.txt", folder / "sub" / "b.txt", tmp_path / "docs2" / "c.txt"):
        index.replace_source(collection, str(uri), "text", [NewChunk(uri.name, 1)])
    index.add_root(collection, folder)

    index.remove_root(collection, folder)

    assert [s.uri for s in index.sources(collection)] == [str(tmp_path / "docs2" / "c.txt")]
    assert index.roots(collection) == []


def test_on_a_large_corpus_a_word_in_more_chunks_than_the_budget_is_not_searched(
    index: DocumentIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.core.documents.index.POSTINGS_BUDGET", 3)
    collection = index.create_collection("big").id
    for i in range(6):
        index.replace_source(collection, f"common{i}.txt", "text", [NewChunk("a common word here", 4)])
    index.replace_source(collection, "rare.txt", "text", [NewChunk("a rare word and a common one", 7)])
    index.replace_source(collection, "both.txt", "text", [NewChunk("rare, unusual", 2)])

    hits = index.keyword_search("common rare unusual", [collection], 10)

    assert [index.chunks([h.chunk_id])[0].uri for h in hits] == ["both.txt", "rare.txt"]
    assert index.keyword_search("common", [collection], 10) == []
