"""Appending to one chat from two processes at once: the thread stays one line, no message is lost."""

from __future__ import annotations

import multiprocessing
import sqlite3
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from app.core.chat import store as store_module
from app.core.chat.store import ChatStore, Message

WRITERS = 2
APPENDS = 25  # each; the writers are released together


def _append(path: str, chat_id: str, start: Barrier, results: multiprocessing.Queue[str]) -> None:
    try:
        with ChatStore(Path(path)) as store:
            start.wait()
            for index in range(APPENDS):
                store.add_message(chat_id, "user", f"message {index}")
        results.put("ok")
    except Exception as error:  # reported to the test, which shows it
        results.put(f"{type(error).__name__}: {error}")


def test_two_processes_appending_to_one_chat_keep_one_thread_with_every_message(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    with ChatStore(path) as store:
        chat = store.create_chat("shared")
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(WRITERS)
    results: multiprocessing.Queue[str] = context.Queue()
    writers = [context.Process(target=_append, args=(str(path), chat.id, start, results)) for _ in range(WRITERS)]
    for writer in writers:
        writer.start()
    outcomes = [results.get(timeout=120) for _ in writers]
    for writer in writers:
        writer.join()
    results.close()
    results.join_thread()
    assert outcomes == ["ok"] * WRITERS
    with ChatStore(path) as store:
        thread = store.thread(chat.id)
    # Every message appended is on the one thread on show: none forked off beside another.
    expected = [f"message {index}" for index in range(APPENDS) for _writer in range(WRITERS)]
    assert sorted(message.text for message in thread) == sorted(expected)


def test_an_append_holds_the_write_lock_from_the_moment_it_reads_the_head(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "chats.sqlite3"
    other = sqlite3.connect(path, timeout=0, isolation_level=None)  # another process's connection, not waiting
    refused: list[str] = []
    made = store_module.new_message

    def another_append_meanwhile(*args: object, **details: object) -> Message:
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            refused.append(str(error))
        return made(*args, **details)  # type: ignore[arg-type]

    with ChatStore(path) as store:
        chat = store.create_chat("shared")
        first = store.add_message(chat.id, "user", "one")
        monkeypatch.setattr(store_module, "new_message", another_append_meanwhile)
        second = store.add_message(chat.id, "assistant", "two")
        assert [message.parent_id for message in store.thread(chat.id)] == [None, first.id]
    other.close()
    assert second.parent_id == first.id
    assert refused == ["database is locked"]  # the other writer waits until this append is in
