"""The retrieval worker: what a reply gets from the chat's collections, and that a failure never holds a reply up."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import PlanRequest
from app.core.chat.store import new_message
from app.core.documents.index import DocumentIndex, NewChunk
from app.core.documents.retrieval import Retrieval
from app.ui.llm.retrieval import RetrievalJob, RetrievalWorker, SharedEmbedder

CHAT = "chat-1"


def job(question: str, n_ctx: int = 4096) -> RetrievalJob:
    message = new_message(CHAT, "user", question, None)
    plan = PlanRequest("reply", "", (message,), reserve=256)
    return RetrievalJob(CHAT, plan, (message.id,), (), n_ctx)


def retrieve(worker: RetrievalWorker, qtbot: QtBot, request: RetrievalJob) -> Retrieval:
    """The worker lives in this thread here: the request runs at once."""
    with qtbot.waitSignal(worker.retrieved, timeout=10_000) as answer:
        worker.retrieveRequested.emit(request)
    assert answer.args[0] is request
    retrieval: Retrieval = answer.args[1]
    return retrieval


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "chats.db"
    with DocumentIndex(path) as index:
        own = index.own_collection(CHAT).id
        index.replace_source(own, "/notes/lighthouse.md", "markdown", [NewChunk("The keeper climbs 132 steps.", 8)])
        index.replace_source(own, "/notes/bread.txt", "text", [NewChunk("Bread needs flour and yeast.", 8)])
    return path


def test_a_question_gets_the_matching_chunk_numbered_for_citing(db: Path, qtbot: QtBot) -> None:
    worker = RetrievalWorker(db, SharedEmbedder())
    try:
        retrieval = retrieve(worker, qtbot, job("How many steps does the keeper climb?"))
    finally:
        worker.close()
    assert [(c.number, c.label) for c in retrieval.chunks] == [(1, "lighthouse.md")]
    assert "[1] lighthouse.md\nThe keeper climbs 132 steps." in retrieval.block
    assert 0 < retrieval.tokens <= retrieval.budget


def test_a_context_too_small_for_excerpts_retrieves_nothing(db: Path, qtbot: QtBot) -> None:
    worker = RetrievalWorker(db, SharedEmbedder())
    try:
        retrieval = retrieve(worker, qtbot, job("How many steps does the keeper climb?", n_ctx=256))
    finally:
        worker.close()
    assert retrieval.budget == 0 and retrieval.block == "" and retrieval.chunks == ()


def test_a_chat_without_collections_or_long_memory_gets_nothing(tmp_path: Path, qtbot: QtBot) -> None:
    worker = RetrievalWorker(tmp_path / "chats.db", SharedEmbedder())
    try:
        retrieval = retrieve(worker, qtbot, job("Anything about lighthouses?"))
    finally:
        worker.close()
    assert retrieval.block == "" and retrieval.budget == 0


def test_an_index_that_cannot_be_opened_is_said_and_the_reply_still_goes_ahead(tmp_path: Path, qtbot: QtBot) -> None:
    folder_in_the_way = tmp_path / "chats.db"
    folder_in_the_way.mkdir()
    worker = RetrievalWorker(folder_in_the_way, SharedEmbedder())
    failures: list[str] = []
    worker.failed.connect(failures.append)
    try:
        retrieval = retrieve(worker, qtbot, job("Anything?"))
    finally:
        worker.close()
    assert retrieval.block == ""
    assert len(failures) == 1 and "could not be opened" in failures[0]
