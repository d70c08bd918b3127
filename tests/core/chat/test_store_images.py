"""A message's images in the chat history: kept with it, exported with it, deleted with the last chat using them."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

from app.core.chat.images import images_dir
from app.core.chat.store import ChatStore
from tests.helpers.vision import prepared_picture


def test_the_store_looks_for_images_where_they_are_prepared(store: ChatStore) -> None:
    assert store.images == images_dir()


def test_a_messages_images_are_kept_in_order_and_come_back_after_reopening(store: ChatStore) -> None:
    red, blue = prepared_picture("red"), prepared_picture("blue")
    chat = store.create_chat()
    store.add_message(chat.id, "user", "What differs?", images=(red, blue))
    store.add_message(chat.id, "assistant", "The colour.")
    with ChatStore(store.path) as reopened:
        question, answer = reopened.thread(chat.id)
    assert question.images == (red, blue)
    assert answer.images == ()


def test_deleting_the_last_chat_that_shows_an_image_deletes_its_file(store: ChatStore) -> None:
    shared, own = prepared_picture("red"), prepared_picture("green")
    first, second = store.create_chat(), store.create_chat()
    store.add_message(first.id, "user", "Look", images=(shared, own))
    store.add_message(second.id, "user", "Look again", images=(shared,))
    store.delete_chat(first.id)
    assert shared.exists(), "the other chat still shows it"
    assert not own.exists()
    store.delete_chat(second.id)
    assert not shared.exists()


def test_deleting_a_message_deletes_the_images_only_its_branch_showed(store: ChatStore) -> None:
    kept, dropped = prepared_picture("red"), prepared_picture("blue")
    chat = store.create_chat()
    store.add_message(chat.id, "user", "First", images=(kept,))
    store.add_message(chat.id, "assistant", "Seen.")
    later = store.add_message(chat.id, "user", "Second", images=(dropped, kept))
    store.delete_message(later.id)
    assert kept.exists()
    assert not dropped.exists()


def test_the_json_export_names_each_messages_image_files(store: ChatStore) -> None:
    red = prepared_picture("red")
    chat = store.create_chat()
    store.add_message(chat.id, "user", "What colour?", images=(red,))
    store.add_message(chat.id, "assistant", "Red.")
    exported = json.loads(store.export_json(chat.id))
    assert [m["images"] for m in exported["messages"]] == [[red.name], []]
    assert red.name == f"{red.stem}.png" and len(red.stem) == 64, "named by the SHA-256 of the PNG"


def test_a_history_from_before_images_opens_unchanged_and_then_keeps_images(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE chats (id TEXT PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
                            settings TEXT NOT NULL DEFAULT '{}', head_id TEXT, pinned INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE messages (id TEXT PRIMARY KEY, chat_id TEXT NOT NULL, parent_id TEXT, role TEXT NOT NULL,
                               text TEXT NOT NULL, state TEXT NOT NULL, model TEXT NOT NULL DEFAULT '',
                               settings TEXT NOT NULL DEFAULT '{}', stats TEXT NOT NULL DEFAULT '{}',
                               created REAL NOT NULL, updated REAL NOT NULL, reasoning TEXT NOT NULL DEFAULT '');
        INSERT INTO chats VALUES ('c1', 'From version 3', 1.0, 1.0, '{}', 'm2', 0);
        INSERT INTO messages VALUES ('m1', 'c1', NULL, 'user', 'Hi', 'complete', '', '{}', '{}', 1.0, 1.0, '');
        INSERT INTO messages VALUES ('m2', 'c1', 'm1', 'assistant', 'Hello.', 'complete', 'm', '{}', '{}', 2.0, 2.0,
                                     'A greeting.');
        PRAGMA user_version = 3;
        """
    )
    old.close()
    with ChatStore(path) as store:
        assert [(m.text, m.reasoning, m.images) for m in store.thread("c1")] == [
            ("Hi", "", ()),
            ("Hello.", "A greeting.", ()),
        ]
        picture = store.add_message("c1", "user", "And this?", images=(store.images / "abc.png",))
        assert store.message(picture.id).images == (tmp_path / "images" / "abc.png",)


def test_an_image_name_that_points_outside_the_images_folder_is_not_shown(store: ChatStore) -> None:
    chat = store.create_chat()
    message = store.add_message(chat.id, "user", "Hi")
    sqlite3.connect(store.path).execute(
        "UPDATE messages SET images = ? WHERE id = ?", (json.dumps(["../chats.sqlite3", "ok.png"]), message.id)
    ).connection.commit()
    assert store.message(message.id).images == (store.images / "ok.png",)


def test_the_markdown_export_shows_each_image_from_its_file(store: ChatStore) -> None:
    red = prepared_picture("red")
    chat = store.create_chat()
    store.add_message(chat.id, "user", "What colour?", images=(red,))
    assert f"![image 1]({red.as_uri()})\n\nWhat colour?" in store.export_markdown(chat.id)


def test_an_image_no_message_shows_is_swept_once_it_is_an_hour_old(store: ChatStore) -> None:
    shown, stray, fresh = prepared_picture("red"), prepared_picture("blue"), prepared_picture("green")
    chat = store.create_chat()
    store.add_message(chat.id, "user", "What is it?", images=(shown,))
    two_hours_ago = time.time() - 2 * 3600
    for path in (shown, stray):
        os.utime(path, (two_hours_ago, two_hours_ago))
    # The stray was prepared and never sent (a window that closed abruptly, `glassbox chat --image`); the fresh
    # one may be an API request's, being answered now.
    assert store.sweep_stray_images() == [stray.name]
    assert shown.exists() and fresh.exists() and not stray.exists()
