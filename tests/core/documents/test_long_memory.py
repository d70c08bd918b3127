"""Long memory: a turn the sliding window dropped comes back, marked as recalled, when the new message needs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.chat.context_window import ContextWindow
from app.core.chat.store import ChatStore, Message
from app.core.documents.index import DocumentIndex
from app.core.documents.long_memory import LongMemory
from app.core.documents.retrieval import MEMORY_HEADER, Retriever, chat_scope
from tests.core.documents.embedders import WordCountEmbedder
from tests.fakes.token_counter import FakeTokenCounter

N_CTX, RESERVE = 300, 40


@pytest.fixture
def stores(tmp_path: Path) -> tuple[ChatStore, DocumentIndex]:
    path = tmp_path / "chats.sqlite3"
    with ChatStore(path) as store, DocumentIndex(path) as index:
        yield store, index


def long_chat(store: ChatStore) -> tuple[str, list[Message]]:
    chat = store.create_chat()
    store.add_message(chat.id, "user", "My locker code is 4172, please remember it.")
    store.add_message(chat.id, "assistant", "Noted: your locker code is 4172.")
    for day in range(8):
        store.add_message(chat.id, "user", f"What will the weather be like on day {day}? " + "Tell me more. " * 4)
        store.add_message(chat.id, "assistant", f"On day {day} it will be sunny and mild. " + "Enjoy it. " * 4)
    store.add_message(chat.id, "user", "What was my locker code again?")
    return chat.id, store.thread(chat.id)


def test_a_dropped_turn_comes_back_as_a_marked_memory_and_into_the_prompt(
    stores: tuple[ChatStore, DocumentIndex],
) -> None:
    store, index = stores
    chat_id, thread = long_chat(store)
    window = ContextWindow(FakeTokenCounter())
    plan = window.plan("", thread, N_CTX, RESERVE)
    assert thread[0].id in plan.outside_ids, "the window dropped the turn with the code"
    index.set_long_memory(chat_id, True)

    outside = [m for m in thread if m.id in plan.outside_ids]
    assert LongMemory(index).remember(chat_id, outside) == len(outside)
    scope = chat_scope(index, chat_id, [m.id for m in thread], plan.kept_ids)
    retrieval = Retriever(index).retrieve(thread[-1].text, scope, budget=120)
    replanned = window.plan("", thread, N_CTX, RESERVE, retrieved=retrieval.block)

    assert retrieval.chunks == ()
    assert set(retrieval.recalled_ids) <= {thread[0].id, thread[1].id} and retrieval.recalled_ids
    assert retrieval.memories[0].memory and retrieval.memories[0].label in ("you", "assistant")
    assert retrieval.block.startswith(MEMORY_HEADER)
    assert "4172" in retrieval.block
    assert thread[0].id not in replanned.kept_ids
    assert "4172" in replanned.messages[-1].content, "the model sees the code again"


def test_with_an_embedding_model_a_memory_is_recalled_by_meaning_too(
    stores: tuple[ChatStore, DocumentIndex],
) -> None:
    store, index = stores
    chat_id, thread = long_chat(store)
    index.set_long_memory(chat_id, True)
    embedder = WordCountEmbedder(["locker", "code", "weather", "sunny"])
    LongMemory(index, embedder).remember(chat_id, thread[:6])

    scope = chat_scope(index, chat_id, [m.id for m in thread])
    retrieval = Retriever(index, embedder).retrieve("the code of my locker?", scope, budget=200)

    assert retrieval.memories[0].why.value == "both"
    assert retrieval.memories[0].chunk.uri in (thread[0].id, thread[1].id)


def test_with_long_memory_off_nothing_is_remembered_or_recalled(stores: tuple[ChatStore, DocumentIndex]) -> None:
    store, index = stores
    chat_id, thread = long_chat(store)

    assert LongMemory(index).remember(chat_id, thread[:4]) == 0
    scope = chat_scope(index, chat_id, [m.id for m in thread])
    assert scope.empty
    assert Retriever(index).retrieve("locker code", scope, 200).memories == ()


def test_a_turn_is_remembered_once_and_again_when_its_text_changed(stores: tuple[ChatStore, DocumentIndex]) -> None:
    store, index = stores
    chat_id, thread = long_chat(store)
    index.set_long_memory(chat_id, True)
    memory = LongMemory(index)

    assert memory.remember(chat_id, thread[:2]) == 2
    assert memory.remember(chat_id, thread[:2]) == 0
    edited = Message(thread[0].id, chat_id, None, "user", "My locker code is 9001.")
    assert memory.remember(chat_id, [edited]) == 1
    scope = chat_scope(index, chat_id, [m.id for m in thread])
    assert "9001" in Retriever(index).retrieve("locker code", scope, 200).block


def test_turns_in_the_window_or_on_another_branch_are_not_recalled(stores: tuple[ChatStore, DocumentIndex]) -> None:
    store, index = stores
    chat_id, thread = long_chat(store)
    index.set_long_memory(chat_id, True)
    LongMemory(index).remember(chat_id, thread[:2])
    retriever = Retriever(index)

    in_window = chat_scope(index, chat_id, [m.id for m in thread], window_ids=[thread[0].id, thread[1].id])
    other_branch = chat_scope(index, chat_id, [m.id for m in thread[2:]])

    assert retriever.retrieve("locker code", in_window, 200).memories == ()
    assert retriever.retrieve("locker code", other_branch, 200).memories == ()
