"""Switching branches and deleting messages while another connection writes: what the store reads to decide
the chat's head is read inside its own write transaction, so a message the other one adds is never left off."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.core.chat.store import ChatStore, new_message

LOCK_HELD_S = 0.3  # how long the other connection writes; the store's call starts meanwhile and waits for it


@contextmanager
def another_connection_adding(path: Path, chat_id: str, parent_id: str | None) -> Iterator[str]:
    """Another Glassbox saving a message after `parent_id`: it holds the write lock and commits a moment later.
    Yields the id of the message it adds."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    message_id = uuid.uuid4().hex
    newer = time.time() + 60  # newer than anything the test made
    other.execute("BEGIN IMMEDIATE")
    other.execute(
        "INSERT INTO messages (id, chat_id, parent_id, role, text, state, created, updated)"
        " VALUES (?, ?, ?, 'assistant', 'from the other window', 'complete', ?, ?)",
        (message_id, chat_id, parent_id, newer, newer),
    )
    commit = threading.Timer(LOCK_HELD_S, lambda: other.execute("COMMIT"))
    commit.start()
    try:
        yield message_id
    finally:
        commit.join()
        other.close()


def test_switching_to_a_branch_ends_at_the_reply_another_connection_adds_to_it(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    with ChatStore(path) as store:
        chat = store.create_chat("race")
        question = store.add_message(chat.id, "user", "question")
        first = store.add_message(chat.id, "assistant", "first answer")
        store.save_message(new_message(chat.id, "assistant", "second answer", question.id))  # the head now

        with another_connection_adding(path, chat.id, first.id) as follow_up:
            thread = store.switch_branch(first.id)

        assert [m.id for m in thread] == [question.id, first.id, follow_up]


def test_deleting_a_message_shows_the_version_another_connection_adds_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    with ChatStore(path) as store:
        chat = store.create_chat("race")
        question = store.add_message(chat.id, "user", "question")
        store.add_message(chat.id, "assistant", "first answer")
        doomed = store.save_message(new_message(chat.id, "assistant", "second answer", question.id))

        with another_connection_adding(path, chat.id, question.id) as third:
            store.delete_message(doomed.id)

        assert [m.id for m in store.thread(chat.id)] == [question.id, third]
