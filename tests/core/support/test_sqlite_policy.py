"""The chat store and the documents index share chats.sqlite3 and open it under one policy: the same busy
timeout, the same WAL switch, the same quick_check at open, a damaged file set aside the same way."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.chat.store import ChatStore, ChatStoreError
from app.core.documents.index import DocumentIndex, DocumentIndexError
from app.core.support import sqlite_policy

Owner = Callable[[Path], ChatStore | DocumentIndex]
OWNERS = [pytest.param(ChatStore, id="chat store"), pytest.param(DocumentIndex, id="documents index")]
LOCK_HELD_S = 0.3  # how long another connection keeps the write lock; well inside the busy timeout


def a_history(path: Path) -> None:
    """Chats and an index in one file, over enough pages that damage inside it leaves the header intact."""
    with ChatStore(path) as store:
        for number in range(5):
            chat = store.create_chat(f"chat {number}")
            store.add_message(chat.id, "user", "hello " * 200)
    DocumentIndex(path).close()


def damage_inner_pages(path: Path) -> None:
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    with path.open("r+b") as file:
        for page in range(2, pages):
            file.seek((page - 1) * page_size + 8)
            file.write(b"\xa5" * 64)


@pytest.mark.parametrize("owner", OWNERS)
def test_each_owner_opens_the_file_through_the_policy(
    owner: Owner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[Path] = []
    connect = sqlite_policy.connect

    def spy(path: Path, prepare: sqlite_policy.Prepare) -> sqlite3.Connection:
        opened.append(path)
        return connect(path, prepare)

    monkeypatch.setattr(sqlite_policy, "connect", spy)
    path = tmp_path / "chats.sqlite3"

    owner(path).close()

    assert opened == [path]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize("owner", OWNERS)
def test_a_database_another_connection_is_writing_is_waited_for_not_refused(
    owner: Owner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "chats.sqlite3"
    a_history(path)
    monkeypatch.setattr(sqlite_policy, "OPEN_PATIENCE_S", 0.0)  # no second attempt: only the busy timeout waits
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, as another Glassbox writing a message holds it
    release = threading.Timer(LOCK_HELD_S, lambda: holder.execute("ROLLBACK"))
    release.start()
    try:
        owner(path).close()  # its schema write waits for the lock, then goes through
    finally:
        release.join()
        holder.close()
    assert list(tmp_path.glob("*.damaged-*")) == []


@pytest.mark.parametrize(
    ("owner", "error", "message"),
    [
        pytest.param(ChatStore, ChatStoreError, "locked by another program", id="chat store"),
        pytest.param(DocumentIndex, DocumentIndexError, "could not be opened.*locked", id="documents index"),
    ],
)
def test_a_lock_held_past_the_busy_timeout_is_reported_and_the_file_left_alone(
    owner: Owner, error: type[Exception], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "chats.sqlite3"
    a_history(path)
    monkeypatch.setattr(sqlite_policy, "BUSY_TIMEOUT_S", 0.01)
    monkeypatch.setattr(sqlite_policy, "OPEN_PATIENCE_S", 0.1)
    holder = sqlite3.connect(path)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(error, match=message):
            owner(path)
    finally:
        holder.close()
    assert list(tmp_path.glob("*.damaged-*")) == []


SET_ASIDE = r"could not be read \(.*kept as chats\.sqlite3\.damaged-.*new, empty"


@pytest.mark.expected_log("app.core.chat.store", logging.ERROR, "The chat history " + SET_ASIDE)
@pytest.mark.expected_log("app.core.documents.index", logging.ERROR, "The documents index .* " + SET_ASIDE)
def test_a_damaged_file_is_set_aside_the_same_way_by_both_owners(tmp_path: Path) -> None:
    for name, owner in (("store", ChatStore), ("index", DocumentIndex)):
        folder = tmp_path / name
        folder.mkdir()
        path = folder / "chats.sqlite3"
        a_history(path)
        damage_inner_pages(path)
        damaged = path.read_bytes()

        owner(path).close()

        [aside] = folder.glob("chats.sqlite3.damaged-*")
        assert aside.read_bytes() == damaged, f"the {name} kept the damaged file as it was"
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok", f"the {name} started a sound file"


@pytest.mark.expected_log("app.core.documents.index", logging.ERROR, r"could not be read \(file is not a database")
def test_a_file_that_is_not_a_database_is_set_aside_by_the_index_too(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    path.write_bytes(b"not a database at all, " * 100)

    with DocumentIndex(path) as index:
        assert index.named_collections() == []

    [aside] = tmp_path.glob("chats.sqlite3.damaged-*")
    assert aside.read_bytes().startswith(b"not a database at all")


def _triggers(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'chats'")
        return [row[0] for row in rows]


def test_the_trigger_on_the_chats_table_is_the_index_s_alone(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    DocumentIndex(path).close()  # opened before any chat store: there is no chats table to put it on yet
    ChatStore(path).close()
    assert _triggers(path) == [], "the chat store never creates it"

    DocumentIndex(path).close()
    assert _triggers(path) == ["doc_chat_deleted"]
    ChatStore(path).close()
    assert _triggers(path) == ["doc_chat_deleted"], "nor drops it"
