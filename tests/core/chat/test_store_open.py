"""Opening the chat history: racing processes, damage inside the file, a lock that stays."""

from __future__ import annotations

import logging
import multiprocessing
import sqlite3
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from app.core.chat.store import ChatStore, ChatStoreError

RACERS = 8
ROUNDS = 40  # one new database per round, all racers released together


def _open_and_write(folder: str, start: Barrier, results: multiprocessing.Queue[str]) -> None:
    for round_ in range(ROUNDS):
        start.wait()
        try:
            with ChatStore(Path(folder) / f"chats-{round_}.sqlite3") as store:
                store.create_chat("from a racer")
            results.put("ok")
        except Exception as error:  # reported to the test, which shows it
            results.put(f"{type(error).__name__}: {error}")


def test_processes_creating_the_same_new_database_at_once_all_open_it(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    start = context.Barrier(RACERS)
    results: multiprocessing.Queue[str] = context.Queue()
    racers = [context.Process(target=_open_and_write, args=(str(tmp_path), start, results)) for _ in range(RACERS)]
    for racer in racers:
        racer.start()
    outcomes = [results.get(timeout=120) for _ in range(RACERS * ROUNDS)]
    for racer in racers:
        racer.join()
    results.close()
    results.join_thread()
    assert [outcome for outcome in outcomes if outcome != "ok"] == []
    for round_ in range(ROUNDS):
        with ChatStore(tmp_path / f"chats-{round_}.sqlite3") as store:
            assert len(store.chats()) == RACERS
            assert store.notices == []


def test_a_database_locked_by_another_program_says_so_and_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "chats.sqlite3"
    ChatStore(path).close()
    monkeypatch.setattr("app.core.support.sqlite_policy.BUSY_TIMEOUT_S", 0.01)
    monkeypatch.setattr("app.core.support.sqlite_policy.OPEN_PATIENCE_S", 0.1)
    holder = sqlite3.connect(path)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(ChatStoreError, match="locked by another program") as raised:
            ChatStore(path)
        assert "disk is not full" not in str(raised.value)
    finally:
        holder.close()
    assert list(tmp_path.glob("*.damaged-*")) == []


def _corrupt_an_inner_page(path: Path) -> None:
    """Overwrite the middle of the messages table's pages, leaving the 100-byte header and page 1 intact."""
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    assert pages > 3
    with path.open("r+b") as file:
        for page in range(2, pages):
            file.seek((page - 1) * page_size + 8)
            file.write(b"\xa5" * 64)


@pytest.mark.expected_log("app.core.chat.store", logging.ERROR, r"The chat history could not be read")
def test_damaged_inner_pages_are_found_at_open_and_the_file_kept_aside(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    with ChatStore(path) as store:
        for number in range(5):
            chat = store.create_chat(f"chat {number}")
            store.add_message(chat.id, "user", "hello " * 200)
    header = path.read_bytes()[:100]
    _corrupt_an_inner_page(path)
    damaged = path.read_bytes()
    with ChatStore(path) as store:
        assert "could not be read" in store.notices[0] and "new, empty history" in store.notices[0]
        assert store.chats() == []
        assert store.integrity_check() == "ok"
    [aside] = tmp_path.glob("chats.sqlite3.damaged-*")
    assert aside.read_bytes() == damaged and damaged[:100] == header
