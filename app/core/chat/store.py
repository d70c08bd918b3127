"""Conversations in SQLite: chats, messages as a tree of branches, partial replies, search, export.

The database runs in WAL mode with `synchronous=NORMAL`: every committed write survives
the process being killed (it is in the WAL file as soon as the commit returns; only a
power cut can lose the last commits, never the database itself). A streaming reply is
saved as it grows (see `ReplyRecorder`), so a crash keeps what was shown.

Messages form a tree: each has a parent (None for the first). The chat's `head_id` is
the newest message of the branch on show; the conversation is the path from the root
to the head. Editing a message or regenerating a reply adds a sibling and moves the head,
so the old branch stays and can be shown again (`switch_branch`).

Ids are random hex strings made by the caller (`new_message`), so the UI can show and
refer to a message before the write has reached the disk.

The file is opened under the shared SQLite policy (app/core/support/sqlite_policy.py: busy
timeout, WAL, `quick_check` at open, a damaged file set aside). The documents index keeps
its tables in the same file and owns one trigger on `chats` (`doc_chat_deleted`, see
app/core/documents/index.py): deleting a chat here deletes the chat's own collections there.
This store never creates, changes or drops that trigger.

A message's images are prepared PNG files in the images folder beside the database
(app/core/chat/images.py names them by their SHA-256); a message keeps their file names. A file
is deleted with the last message that shows it (deleting a chat or a message), never before; one
that no message shows (prepared and never sent) is swept once it is an hour old.

One `ChatStore` belongs to one thread (sqlite3 connections do not cross threads).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any

from app.core.support import sqlite_policy
from app.core.support.formatting import fill
from app.core.support.user_text import N_

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4  # 2: chats.pinned; 3: messages.reasoning; 4: messages.images
STRAY_IMAGE_AGE_S = 3600.0  # an image file no message shows is a stray once this old (sweep_stray_images)
DEFAULT_TITLE = N_("New chat")  # stored as it is; the window shows it in the reader's language
TITLE_LENGTH = 48
PARTIAL_SAVE_INTERVAL_S = 0.5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chats (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    head_id TEXT,
    pinned INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    parent_id TEXT REFERENCES messages(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    text TEXT NOT NULL,
    state TEXT NOT NULL,
    model TEXT NOT NULL DEFAULT '',
    settings TEXT NOT NULL DEFAULT '{}',
    stats TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL,
    updated REAL NOT NULL,
    reasoning TEXT NOT NULL DEFAULT '',
    images TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS messages_by_chat ON messages(chat_id, created);
CREATE INDEX IF NOT EXISTS messages_by_parent ON messages(parent_id);
"""


# the model of a chat's latest reply, as a column of a query over chats
_LAST_MODEL = (
    "(SELECT model FROM messages lm WHERE lm.chat_id = chats.id AND lm.role = 'assistant' AND lm.model != '' "
    "ORDER BY lm.created DESC LIMIT 1) AS last_model"
)


class ChatStoreError(Exception):
    """The chat history could not be read or written; the message says what to do."""


class MessageState(str, Enum):
    COMPLETE = "complete"
    STREAMING = "streaming"  # being written; found after a crash it becomes INTERRUPTED
    STOPPED = "stopped"  # the user stopped the reply
    FAILED = "failed"  # generation failed part-way
    INTERRUPTED = "interrupted"  # the app ended while the reply streamed


@dataclass(frozen=True)
class Message:
    id: str
    chat_id: str
    parent_id: str | None
    role: str  # "user" or "assistant"
    text: str
    state: MessageState = MessageState.COMPLETE
    model: str = ""
    settings: dict[str, Any] = field(default_factory=dict)  # the sampling and window settings of a reply
    stats: dict[str, Any] = field(default_factory=dict)  # the reply's statistics
    created: float = 0.0
    updated: float = 0.0
    reasoning: str = ""  # a thinking model's reasoning before the answer in `text`
    images: tuple[Path, ...] = ()  # prepared images the message shows (app/core/chat/images.py), in order


@dataclass(frozen=True)
class Chat:
    id: str
    title: str
    created: float
    updated: float
    settings: dict[str, Any] = field(default_factory=dict)  # per-chat settings (see app.core.settings.ChatSettings)
    head_id: str | None = None
    pinned: bool = False  # listed first, in the chat list's "Pinned" group


@dataclass(frozen=True)
class RemovedMessages:
    """A deleted message and the messages after it on its branches, as they were stored: enough to put
    them back (Undo) until the delete is final."""

    chat_id: str
    head_id: str | None  # the chat's head before the delete
    rows: tuple[dict[str, Any], ...]  # the messages' rows, each parent before its replies


@dataclass(frozen=True)
class SearchHit:
    chat: Chat
    snippet: str  # where the text was found ("" when only the title matched)
    matches: int  # how many messages contain the text
    model: str = ""  # the model of the chat's latest reply ("" before the first)


def new_chat(title: str = DEFAULT_TITLE, settings: Mapping[str, Any] | None = None) -> Chat:
    """A chat with a fresh id, not yet saved (a new chat is saved with its first message)."""
    now = time.time()
    return Chat(uuid.uuid4().hex, " ".join(title.split()) or DEFAULT_TITLE, now, now, dict(settings or {}))


def new_message(
    chat_id: str,
    role: str,
    text: str,
    parent_id: str | None,
    *,
    state: MessageState = MessageState.COMPLETE,
    model: str = "",
    settings: Mapping[str, Any] | None = None,
    stats: Mapping[str, Any] | None = None,
    reasoning: str = "",
    images: tuple[Path, ...] = (),
) -> Message:
    """A message with a fresh id and timestamps, not yet saved."""
    now = time.time()
    return Message(
        uuid.uuid4().hex,
        chat_id,
        parent_id,
        role,
        text,
        state,
        model,
        dict(settings or {}),
        dict(stats or {}),
        now,
        now,
        reasoning,
        tuple(images),
    )


def title_from_text(text: str) -> str:
    """A chat title from its first message: the first line, shortened."""
    line = " ".join(text.strip().split("\n", 1)[0].split())
    return line if len(line) <= TITLE_LENGTH else line[: TITLE_LENGTH - 1].rstrip() + "…"


class ChatStore:
    """The chat history database. Raises ChatStoreError with a readable message on failure."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.images = path.parent / "images"  # where the messages' images are (app/core/chat/images.py)
        self.notices: list[str] = []  # things the user should be told about (e.g. a damaged file set aside)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = self._open_or_set_aside(path)
        except sqlite3.OperationalError as error:
            if not sqlite_policy.is_busy(error):
                raise self._open_failed(error) from error
            raise ChatStoreError(
                fill(
                    N_(
                        "The chat history at {path} is locked by another program (another Glassbox, or a "
                        "tool that has it open). Close that program, then restart Glassbox."
                    ),
                    path=path,
                )
            ) from error
        except (OSError, sqlite3.Error) as error:
            raise self._open_failed(error) from error

    def _open_failed(self, error: Exception) -> ChatStoreError:
        return ChatStoreError(
            fill(
                N_(
                    "The chat history at {path} could not be opened ({error}). Check that the folder is writable "
                    "and the disk is not full, then restart Glassbox."
                ),
                path=self.path,
                error=error,
            )
        )

    def _open_or_set_aside(self, path: Path) -> sqlite3.Connection:
        db, aside = sqlite_policy.open_or_set_aside(path, _prepare)
        if aside is not None:
            message = (
                f"The chat history could not be read ({aside.reason}); it was kept as {aside.path.name} and a new, "
                "empty history was started."
            )
            log.error("%s", message)
            self.notices.append(message)
        return db

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ChatStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One transaction; a failure becomes a ChatStoreError naming what could not be saved."""
        try:
            with self._db:
                yield self._db
        except sqlite3.Error as error:
            log.error("Chat history: %s failed: %s", what, error)
            raise ChatStoreError(
                fill(
                    N_(
                        "Glassbox could not {what} in the chat history ({error}). Check that the disk is "
                        "not full; the text is still shown and nothing else was changed."
                    ),
                    what=what,
                    error=error,
                )
            ) from error

    # ---- chats ---------------------------------------------------------------------

    def create_chat(self, title: str = DEFAULT_TITLE, settings: Mapping[str, Any] | None = None) -> Chat:
        return self.save_chat(new_chat(title, settings))

    def save_chat(self, chat: Chat) -> Chat:
        """Store a chat made by `new_chat` (its messages are saved separately)."""
        with self._write("create a chat") as db:
            db.execute(
                "INSERT OR IGNORE INTO chats (id, title, created, updated, settings) VALUES (?, ?, ?, ?, ?)",
                (chat.id, chat.title, chat.created, chat.updated, json.dumps(chat.settings)),
            )
        return self.chat(chat.id)

    def chats(self) -> list[Chat]:
        """All chats: pinned ones first, then the most recently used first."""
        rows = self._db.execute("SELECT * FROM chats ORDER BY pinned DESC, updated DESC, created DESC").fetchall()
        return [_chat(row) for row in rows]

    def set_pinned(self, chat_id: str, pinned: bool) -> Chat:
        with self._write("pin the chat" if pinned else "unpin the chat") as db:
            db.execute("UPDATE chats SET pinned = ? WHERE id = ?", (int(pinned), chat_id))
        return self.chat(chat_id)

    def chat(self, chat_id: str) -> Chat:
        row = self._db.execute("SELECT * FROM chats WHERE id = ?", (chat_id,)).fetchone()
        if row is None:
            raise ChatStoreError(
                fill(N_("The chat {chat_id} no longer exists; it may have been deleted."), chat_id=chat_id)
            )
        return _chat(row)

    def rename_chat(self, chat_id: str, title: str) -> Chat:
        title = " ".join(title.split())
        if not title:
            raise ChatStoreError(N_("A chat needs a title; type at least one character."))
        with self._write("rename the chat") as db:
            db.execute("UPDATE chats SET title = ? WHERE id = ?", (title, chat_id))
        return self.chat(chat_id)

    def set_chat_settings(self, chat_id: str, settings: Mapping[str, Any]) -> Chat:
        with self._write("save the chat's settings") as db:
            db.execute("UPDATE chats SET settings = ? WHERE id = ?", (json.dumps(dict(settings)), chat_id))
        return self.chat(chat_id)

    def delete_chat(self, chat_id: str) -> None:
        with self._write("delete the chat") as db:
            shown = _image_names(db, chat_id)
            db.execute("UPDATE chats SET head_id = NULL WHERE id = ?", (chat_id,))
            db.execute("DELETE FROM messages WHERE chat_id = ?", (chat_id,))
            db.execute("DELETE FROM chats WHERE id = ?", (chat_id,))
        self._delete_unused_images(shown)

    # ---- messages ------------------------------------------------------------------

    def save_message(self, message: Message) -> Message:
        """Insert (or replace) a message and make it the head of its chat.

        The first user message of an untitled chat names the chat.
        """
        with self._write("save the message") as db:
            db.execute("BEGIN IMMEDIATE")
            _store_as_head(db, message)
            return self.message(message.id)  # as stored, before another connection can change it

    def add_message(self, chat_id: str, role: str, text: str, **details: Any) -> Message:
        """Append a message after the chat's head.

        The head is read inside the write transaction, begun IMMEDIATE (the write lock first): another
        process appending to the same chat waits for this one and then appends after it, so the thread
        stays one line instead of forking at the head both read."""
        with self._write("save the message") as db:
            db.execute("BEGIN IMMEDIATE")
            message = new_message(chat_id, role, text, self.chat(chat_id).head_id, **details)
            _store_as_head(db, message)
        return self.message(message.id)

    def save_partial(self, message_id: str, text: str, reasoning: str = "") -> None:
        """Store the text (and reasoning) a streaming reply has so far (committed at once)."""
        with self._write("save the reply so far") as db:
            db.execute(
                "UPDATE messages SET text = ?, reasoning = ?, updated = ? WHERE id = ?",
                (text, reasoning, time.time(), message_id),
            )

    def finish_message(
        self,
        message_id: str,
        text: str,
        state: MessageState,
        stats: Mapping[str, Any] | None = None,
        reasoning: str = "",
    ) -> Message:
        with self._write("save the finished reply") as db:
            db.execute(
                "UPDATE messages SET text = ?, reasoning = ?, state = ?, stats = ?, updated = ? WHERE id = ?",
                (text, reasoning, state.value, json.dumps(dict(stats or {})), time.time(), message_id),
            )
        return self.message(message_id)

    def delete_message(self, message_id: str) -> None:
        """Remove a message and everything after it on its branches, and the images only they showed."""
        self.release_images(self.remove_message(message_id))

    def remove_message(self, message_id: str) -> RemovedMessages:
        """Remove a message and everything after it on its branches; returns them, to be put back by
        `restore_messages` (Undo). Their image files stay until `release_images`.

        The chat then shows the newest other version of the message, when it has one, else
        the thread up to the message's parent. What is read and what is written are one
        IMMEDIATE transaction: a version another connection adds meanwhile is the one shown.
        """
        with self._write("delete the message") as db:
            db.execute("BEGIN IMMEDIATE")
            message = self.message(message_id)
            before = self.chat(message.chat_id).head_id
            rows = db.execute(
                """
                WITH RECURSIVE below(id, depth) AS (
                    SELECT id, 0 FROM messages WHERE id = ?
                    UNION ALL
                    SELECT m.id, below.depth + 1 FROM messages m JOIN below ON m.parent_id = below.id
                )
                SELECT messages.* FROM below JOIN messages ON messages.id = below.id
                ORDER BY below.depth, messages.created, messages.rowid
                """,
                (message_id,),
            ).fetchall()
            others = [m for m in self.siblings(message_id) if m.id != message_id]
            head = _newest_descendant(db, others[-1].id) if others else message.parent_id
            db.execute("UPDATE chats SET head_id = ? WHERE id = ?", (head, message.chat_id))
            db.execute("DELETE FROM messages WHERE id = ?", (message_id,))
        return RemovedMessages(message.chat_id, before, tuple(dict(row) for row in rows))

    def restore_messages(self, removed: RemovedMessages) -> None:
        """Put back what `remove_message` removed, as it was, and show it again (its chat's head as before)."""
        with self._write("restore the deleted message") as db:
            db.execute("BEGIN IMMEDIATE")
            self.chat(removed.chat_id)  # a chat deleted meanwhile: its messages cannot come back
            for row in removed.rows:
                columns = ", ".join(row)
                marks = ", ".join("?" for _ in row)
                db.execute(f"INSERT OR REPLACE INTO messages ({columns}) VALUES ({marks})", tuple(row.values()))
            db.execute("UPDATE chats SET head_id = ? WHERE id = ?", (removed.head_id, removed.chat_id))

    def release_images(self, removed: RemovedMessages) -> None:
        """The removal is final: delete the image files that only the removed messages showed."""
        self._delete_unused_images({name for row in removed.rows for name in _names(row["images"])})

    def sweep_stray_images(self, older_than_s: float = STRAY_IMAGE_AGE_S) -> list[str]:
        """Delete the image files no message shows that are older than `older_than_s` seconds (younger ones
        may belong to a message being written elsewhere: an API request, a command line chat); their names."""
        try:
            files = [path for path in self.images.glob("*.png") if path.is_file()]
        except OSError as error:
            log.warning("Chat history: the images folder %s cannot be read: %s", self.images, error)
            return []
        now = time.time()
        old = set()
        for path in files:
            try:
                if now - path.stat().st_mtime > older_than_s:
                    old.add(path.name)
            except OSError:
                continue
        strays = old - _all_image_names(self._db) if old else set()
        self._delete_unused_images(strays)
        if strays:
            log.info("Chat history: deleted %d image files no message shows", len(strays))
        return sorted(strays)

    def _delete_unused_images(self, names: set[str]) -> None:
        """Delete the image files among `names` that no message shows any more."""
        still_shown = _all_image_names(self._db) if names else set()
        for name in names - still_shown:
            try:
                (self.images / name).unlink(missing_ok=True)
            except OSError as error:  # kept: a stray file costs only disk space
                log.warning("Chat history: the unused image %s could not be deleted: %s", name, error)

    def message(self, message_id: str) -> Message:
        row = self._db.execute("SELECT * FROM messages WHERE id = ?", (message_id,)).fetchone()
        if row is None:
            raise ChatStoreError(fill(N_("The message {message_id} no longer exists."), message_id=message_id))
        return _message(row, self.images)

    def thread(self, chat_id: str) -> list[Message]:
        """The conversation on show: from the first message to the chat's head."""
        head = self.chat(chat_id).head_id
        if head is None:
            return []
        rows = self._db.execute(
            """
            WITH RECURSIVE path(id, parent_id, depth) AS (
                SELECT id, parent_id, 0 FROM messages WHERE id = ?
                UNION ALL
                SELECT m.id, m.parent_id, path.depth + 1 FROM messages m JOIN path ON m.id = path.parent_id
            )
            SELECT messages.* FROM path JOIN messages ON messages.id = path.id ORDER BY path.depth DESC
            """,
            (head,),
        ).fetchall()
        return [_message(row, self.images) for row in rows]

    def siblings(self, message_id: str) -> list[Message]:
        """The versions of a message (itself included): edits and regenerated replies, oldest first."""
        message = self.message(message_id)
        rows = self._db.execute(
            "SELECT * FROM messages WHERE chat_id = ? AND parent_id IS ? ORDER BY created, rowid",
            (message.chat_id, message.parent_id),
        ).fetchall()
        return [_message(row, self.images) for row in rows]

    def versions(self, chat_id: str) -> dict[str, tuple[int, int]]:
        """For every message of the chat: (its position among its versions, how many versions there are)."""
        rows = self._db.execute(
            "SELECT id, parent_id FROM messages WHERE chat_id = ? ORDER BY created, rowid", (chat_id,)
        ).fetchall()
        groups: dict[str | None, list[str]] = {}
        for row in rows:
            groups.setdefault(row["parent_id"], []).append(row["id"])
        return {mid: (index, len(ids)) for ids in groups.values() for index, mid in enumerate(ids)}

    def switch_branch(self, message_id: str) -> list[Message]:
        """Show the branch through `message_id`, down to its newest descendant; returns the new thread.

        The descendant is looked for inside the IMMEDIATE write transaction: a reply another
        connection adds to the branch meanwhile becomes the head, not left off it."""
        with self._write("switch the branch") as db:
            db.execute("BEGIN IMMEDIATE")
            message = self.message(message_id)
            db.execute(
                "UPDATE chats SET head_id = ? WHERE id = ?", (_newest_descendant(db, message.id), message.chat_id)
            )
        return self.thread(message.chat_id)

    def recover_interrupted(self) -> int:
        """Replies still marked streaming were cut off by a crash or kill: mark them, keep their text."""
        with self._write("mark interrupted replies") as db:
            cursor = db.execute(
                "UPDATE messages SET state = ? WHERE state = ?",
                (MessageState.INTERRUPTED.value, MessageState.STREAMING.value),
            )
        if cursor.rowcount:
            log.warning("%d reply(ies) were interrupted by the previous exit; their text is kept", cursor.rowcount)
        return cursor.rowcount

    # ---- search and export ---------------------------------------------------------

    def search(self, query: str, limit: int = 100, *, reasoning: bool = False) -> list[SearchHit]:
        """Chats whose title or any message contains `query` (case-insensitive), the most recent first.

        A message's answer is searched; its reasoning too only when `reasoning` is asked for (a
        thinking model's reasoning mentions much that its answer does not)."""
        needle = query.strip().casefold()
        if not needle:
            rows = self._db.execute(
                f"SELECT chats.*, {_LAST_MODEL} FROM chats ORDER BY pinned DESC, updated DESC, created DESC "
                "LIMIT :limit",
                {"limit": limit},
            ).fetchall()
            return [SearchHit(_chat(row), "", 0, row["last_model"] or "") for row in rows]
        found, matched = _searched_text("f", reasoning), _searched_text("m", reasoning)
        rows = self._db.execute(
            f"""
            SELECT chats.*, COUNT(m.id) AS matches, {_LAST_MODEL},
                   (SELECT {found} FROM messages f WHERE f.chat_id = chats.id AND instr(fold({found}), :q) > 0
                    ORDER BY f.created LIMIT 1) AS found
            FROM chats LEFT JOIN messages m ON m.chat_id = chats.id AND instr(fold({matched}), :q) > 0
            GROUP BY chats.id
            HAVING matches > 0 OR instr(fold(chats.title), :q) > 0
            ORDER BY chats.pinned DESC, chats.updated DESC LIMIT :limit
            """,
            {"q": needle, "limit": limit},
        ).fetchall()
        return [
            SearchHit(_chat(row), _snippet(row["found"] or "", needle), row["matches"], row["last_model"] or "")
            for row in rows
        ]

    def export_markdown(self, chat_id: str) -> str:
        """The conversation on show as Markdown, with the system prompt and each reply's model and stats."""
        chat = self.chat(chat_id)
        lines = [f"# {chat.title}", "", f"*Exported from Glassbox on {datetime.now():%Y-%m-%d %H:%M}*", ""]
        system_prompt = str(chat.settings.get("system_prompt") or "")
        if system_prompt:
            lines += ["## System prompt", "", system_prompt, ""]
        for message in self.thread(chat_id):
            title = "You" if message.role == "user" else "Assistant"
            if message.model:
                title += f" ({message.model})"
            lines += [f"## {title}", ""]
            if message.images:  # the prepared files in the data folder, shown where the export is read
                lines += [" ".join(f"![image {n}]({image.as_uri()})" for n, image in enumerate(message.images, 1)), ""]
            if message.reasoning:  # folded, as the window shows it once the answer starts
                lines += ["<details><summary>Reasoning</summary>", "", message.reasoning, "", "</details>", ""]
            lines += [message.text, ""]
            note = _markdown_note(message)
            if note:
                lines += [f"*{note}*", ""]
        return "\n".join(lines).rstrip() + "\n"

    def export_json(self, chat_id: str) -> str:
        """The whole chat as JSON: the thread on show and every branch (messages carry their parent)."""
        chat = self.chat(chat_id)
        thread = self.thread(chat_id)
        rows = self._db.execute("SELECT * FROM messages WHERE chat_id = ? ORDER BY created, rowid", (chat_id,))
        payload = {
            "format": "glassbox-chat",
            "version": 1,
            "exported": datetime.now().astimezone().isoformat(timespec="seconds"),
            "chat": {
                "id": chat.id,
                "title": chat.title,
                "created": chat.created,
                "updated": chat.updated,
                "settings": chat.settings,
                "head_id": chat.head_id,
            },
            "thread": [m.id for m in thread],
            "messages": [_message_json(_message(row, self.images)) for row in rows],
        }
        return json.dumps(payload, indent=2, ensure_ascii=False)

    def integrity_check(self) -> str:
        """SQLite's own check: 'ok' when the file is intact."""
        return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])


def _prepare(db: sqlite3.Connection, path: Path) -> None:
    """The chat store's schema, on a connection the SQLite policy opened (it may be tried again)."""
    db.create_function("fold", 1, _fold, deterministic=True)
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise ChatStoreError(
            fill(
                N_(
                    "The chat history at {path} was written by a newer Glassbox (schema {version}); "
                    "update Glassbox to open it."
                ),
                path=path,
                version=version,
            )
        )
    with db:
        db.executescript(_SCHEMA)
        if 0 < version < 2:  # a history from before pinning: the column is added, every chat unpinned
            db.execute("ALTER TABLE chats ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
        columns = {row[1] for row in db.execute("PRAGMA table_info(messages)")}
        if "reasoning" not in columns:  # a history from before thinking models: no message has reasoning
            db.execute("ALTER TABLE messages ADD COLUMN reasoning TEXT NOT NULL DEFAULT ''")
        if "images" not in columns:  # a history from before images: no message shows one
            db.execute("ALTER TABLE messages ADD COLUMN images TEXT NOT NULL DEFAULT '[]'")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    db.execute("SELECT COUNT(*) FROM chats").fetchone()


def _newest_descendant(db: sqlite3.Connection, message_id: str) -> str:
    """The end of the branch through `message_id`: from it, the newest reply at each step."""
    head = message_id
    while True:
        row = db.execute(
            "SELECT id FROM messages WHERE parent_id = ? ORDER BY created DESC, rowid DESC LIMIT 1", (head,)
        ).fetchone()
        if row is None:
            return head
        head = row["id"]


def _store_as_head(db: sqlite3.Connection, message: Message) -> None:
    """Insert (or replace) `message` and make it its chat's head, in the caller's transaction."""
    now = time.time()
    db.execute(
        "INSERT OR REPLACE INTO messages (id, chat_id, parent_id, role, text, state, model, settings, stats,"
        " created, updated, reasoning, images) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            message.id,
            message.chat_id,
            message.parent_id,
            message.role,
            message.text,
            message.state.value,
            message.model,
            json.dumps(message.settings),
            json.dumps(message.stats),
            message.created or now,
            now,
            message.reasoning,
            json.dumps([image.name for image in message.images]),
        ),
    )
    db.execute("UPDATE chats SET head_id = ?, updated = ? WHERE id = ?", (message.id, now, message.chat_id))
    if message.role == "user":
        db.execute(
            "UPDATE chats SET title = ? WHERE id = ? AND title = ?",
            (title_from_text(message.text) or DEFAULT_TITLE, message.chat_id, DEFAULT_TITLE),
        )


def _fold(text: str | None) -> str:
    return (text or "").casefold()


def _chat(row: sqlite3.Row) -> Chat:
    return Chat(
        row["id"], row["title"], row["created"], row["updated"], _json(row["settings"]), row["head_id"],
        bool(row["pinned"]),
    )  # fmt: skip


def _message(row: sqlite3.Row, images: Path) -> Message:
    return Message(
        row["id"],
        row["chat_id"],
        row["parent_id"],
        row["role"],
        row["text"],
        MessageState(row["state"]),
        row["model"],
        _json(row["settings"]),
        _json(row["stats"]),
        row["created"],
        row["updated"],
        row["reasoning"],
        tuple(images / name for name in _names(row["images"])),
    )


def _names(text: str) -> list[str]:
    """The image file names a message's `images` column holds (bare names: nothing outside the folder)."""
    try:
        value = json.loads(text)
    except ValueError:
        return []
    if not isinstance(value, list):
        return []
    return [name for name in value if isinstance(name, str) and name and Path(name).name == name]


def _image_names(db: sqlite3.Connection, chat_id: str) -> set[str]:
    rows = db.execute("SELECT images FROM messages WHERE chat_id = ? AND images != '[]'", (chat_id,))
    return {name for (text,) in rows for name in _names(text)}


def _all_image_names(db: sqlite3.Connection) -> set[str]:
    rows = db.execute("SELECT images FROM messages WHERE images != '[]'")
    return {name for (text,) in rows for name in _names(text)}


def _json(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _searched_text(table: str, reasoning: bool) -> str:
    """The SQL for what a search looks in: a message's answer, and its reasoning when asked for."""
    return f"{table}.text || char(10) || {table}.reasoning" if reasoning else f"{table}.text"


def _snippet(text: str, needle: str, width: int = 60) -> str:
    at = text.casefold().find(needle)
    if at < 0:
        return ""
    start = max(0, at - width // 2)
    end = min(len(text), at + len(needle) + width // 2)
    core = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + core + ("…" if end < len(text) else "")


def _markdown_note(message: Message) -> str:
    parts = []
    if message.state is not MessageState.COMPLETE:
        parts.append(
            {
                MessageState.STREAMING: "reply still streaming",
                MessageState.STOPPED: "stopped by the user",
                MessageState.FAILED: "reply failed part-way",
                MessageState.INTERRUPTED: "reply interrupted when Glassbox closed",
            }[message.state]
        )
    stats = message.stats
    if stats.get("completion_tokens"):
        parts.append(f"{stats['completion_tokens']} tokens")
    if stats.get("generation_tokens_per_s"):
        parts.append(f"{float(stats['generation_tokens_per_s']):.1f} tok/s")
    return " · ".join(parts)


def _message_json(message: Message) -> dict[str, Any]:
    return {
        "id": message.id,
        "parent_id": message.parent_id,
        "role": message.role,
        "text": message.text,
        "state": message.state.value,
        "model": message.model,
        "settings": message.settings,
        "stats": message.stats,
        "reasoning": message.reasoning,
        "images": [image.name for image in message.images],  # files in the data folder's images/, by SHA-256
        "created": message.created,
        "updated": message.updated,
    }


class ReplyRecorder:
    """Saves a streaming reply as it grows: at most every `interval` seconds, and on finish.

    A thinking model's reasoning streams before its answer and is recorded apart from it, so a
    crash, a Stop or a failure in the middle of the reasoning keeps it as reasoning. `save` is
    where both go, as (message id, answer, reasoning): `ChatStore.save_partial` directly, or a
    signal to the thread that owns the store.
    """

    def __init__(
        self,
        message_id: str,
        save: Callable[[str, str, str], None],
        interval: float = PARTIAL_SAVE_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.message_id = message_id
        self._save = save
        self._interval = interval
        self._clock = clock
        self._parts: list[str] = []
        self._reasoning_parts: list[str] = []
        self._saved_lengths = (0, 0)
        self._last_save = clock()

    @property
    def text(self) -> str:
        """The answer so far."""
        return _joined(self._parts)

    @property
    def reasoning(self) -> str:
        """The reasoning so far."""
        return _joined(self._reasoning_parts)

    def append(self, piece: str) -> bool:
        """Add streamed answer text; saves when the last save is `interval` old. True if it saved."""
        if piece:
            self._parts.append(piece)
        return self.save_if_due()

    def append_reasoning(self, piece: str) -> bool:
        """Add streamed reasoning; saves as `append` does."""
        if piece:
            self._reasoning_parts.append(piece)
        return self.save_if_due()

    def save_if_due(self) -> bool:
        if self._clock() - self._last_save >= self._interval:
            return self.save()
        return False

    def save(self) -> bool:
        """Save now if anything is new. True if it saved."""
        text, reasoning = self.text, self.reasoning
        self._last_save = self._clock()
        if (len(text), len(reasoning)) == self._saved_lengths:
            return False
        self._save(self.message_id, text, reasoning)
        self._saved_lengths = (len(text), len(reasoning))
        return True


def _joined(parts: list[str]) -> str:
    """The parts as one string, kept joined so the next call does not join them again."""
    if len(parts) > 1:
        parts[:] = ["".join(parts)]
    return parts[0] if parts else ""
