"""The chat history: chats, messages and branches in SQLite, partial replies, search, export."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from app.core.chat.store import (
    DEFAULT_TITLE,
    ChatStore,
    ChatStoreError,
    MessageState,
    ReplyRecorder,
    new_message,
    title_from_text,
)
from app.core.paths import app_paths


def test_the_database_uses_wal_in_the_data_folder(store: ChatStore) -> None:
    assert store.path == app_paths().data / "chats.sqlite3"
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_chat_keeps_its_messages_with_role_model_settings_and_stats(store: ChatStore) -> None:
    chat = store.create_chat()
    store.add_message(chat.id, "user", "What is a GGUF file?")
    reply = store.add_message(
        chat.id,
        "assistant",
        "A model file format.",
        model="SmolLM2-135M",
        settings={"temperature": 0.2},
        stats={"completion_tokens": 5, "stop_reason": "end of text"},
    )
    with ChatStore(store.path) as reopened:
        thread = reopened.thread(chat.id)
    assert [(m.role, m.text) for m in thread] == [
        ("user", "What is a GGUF file?"),
        ("assistant", "A model file format."),
    ]
    assert thread[1] == reply
    assert (thread[1].model, thread[1].settings, thread[1].stats["completion_tokens"]) == (
        "SmolLM2-135M",
        {"temperature": 0.2},
        5,
    )


def test_the_first_message_names_an_untitled_chat_and_renaming_sticks(store: ChatStore) -> None:
    chat = store.create_chat()
    assert chat.title == DEFAULT_TITLE
    store.add_message(chat.id, "user", "Plan a trip to Lisbon\nwith three days")
    assert store.chat(chat.id).title == "Plan a trip to Lisbon"
    store.rename_chat(chat.id, "  Lisbon   trip ")
    store.add_message(chat.id, "user", "Another question")
    assert store.chat(chat.id).title == "Lisbon trip"
    with pytest.raises(ChatStoreError, match="needs a title"):
        store.rename_chat(chat.id, "   ")


def test_long_first_lines_make_short_titles() -> None:
    title = title_from_text("word " * 40)
    assert len(title) <= 48 and title.endswith("…")


def test_chats_are_listed_most_recent_first_and_deleting_removes_their_messages(store: ChatStore) -> None:
    old = store.create_chat("Old")
    new = store.create_chat("New")
    store.add_message(old.id, "user", "bump")
    assert [c.title for c in store.chats()] == ["Old", "New"], "a new message makes a chat recent"
    store.delete_chat(old.id)
    assert [c.id for c in store.chats()] == [new.id]
    count = store._db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    assert count == 0


def test_editing_a_message_starts_a_branch_and_keeps_the_old_one(store: ChatStore) -> None:
    chat = store.create_chat()
    first = store.add_message(chat.id, "user", "Name a fruit.")
    store.add_message(chat.id, "assistant", "Apple.")
    store.add_message(chat.id, "user", "Another?")
    store.add_message(chat.id, "assistant", "Pear.")
    edited = store.save_message(new_message(chat.id, "user", "Name a vegetable.", first.parent_id))
    store.add_message(chat.id, "assistant", "Carrot.")
    assert [m.text for m in store.thread(chat.id)] == ["Name a vegetable.", "Carrot."]
    assert [m.text for m in store.siblings(edited.id)] == ["Name a fruit.", "Name a vegetable."]
    old = store.switch_branch(first.id)
    assert [m.text for m in old] == ["Name a fruit.", "Apple.", "Another?", "Pear."]
    assert [m.text for m in store.thread(chat.id)] == [m.text for m in old]


def test_deleting_a_message_takes_what_follows_and_shows_its_other_version(store: ChatStore) -> None:
    chat = store.create_chat()
    first = store.add_message(chat.id, "user", "Name a fruit.")
    store.add_message(chat.id, "assistant", "Apple.")
    edited = store.save_message(new_message(chat.id, "user", "Name a vegetable.", first.parent_id))
    carrot = store.add_message(chat.id, "assistant", "Carrot.")
    store.delete_message(edited.id)
    assert [m.text for m in store.thread(chat.id)] == ["Name a fruit.", "Apple."]  # the other version on show
    with pytest.raises(ChatStoreError):
        store.message(carrot.id)  # the reply to the deleted message went with it
    store.delete_message(first.id)
    assert store.thread(chat.id) == []


def test_regenerating_adds_a_sibling_reply(store: ChatStore) -> None:
    chat = store.create_chat()
    question = store.add_message(chat.id, "user", "Tell me a joke.")
    first = store.add_message(chat.id, "assistant", "Knock knock.")
    second = store.save_message(new_message(chat.id, "assistant", "Why did the chicken…", question.id))
    assert [m.id for m in store.siblings(first.id)] == [first.id, second.id]
    assert store.thread(chat.id)[-1].id == second.id


@pytest.mark.expected_log("app.core.chat.store", logging.WARNING, r"reply\(ies\) were interrupted by the previous exit")
def test_a_partial_reply_is_saved_as_it_grows_and_interrupted_ones_are_marked_on_reopen(store: ChatStore) -> None:
    chat = store.create_chat()
    question = store.add_message(chat.id, "user", "Count to five.")
    reply = store.save_message(new_message(chat.id, "assistant", "", question.id, state=MessageState.STREAMING))
    now = [0.0]
    recorder = ReplyRecorder(reply.id, store.save_partial, interval=0.5, clock=lambda: now[0])
    assert not recorder.append("One, ")
    now[0] = 0.6
    assert recorder.append("two, ")
    assert not recorder.append("three")
    assert store.message(reply.id).text == "One, two, "
    now[0] = 1.2
    assert recorder.save_if_due()
    assert store.message(reply.id).text == "One, two, three"
    assert not recorder.save(), "nothing new to save"
    assert store.recover_interrupted() == 1
    assert store.message(reply.id).state is MessageState.INTERRUPTED
    assert store.message(reply.id).text == "One, two, three"


def test_a_finished_reply_has_its_state_and_stats(store: ChatStore) -> None:
    chat = store.create_chat()
    reply = store.save_message(new_message(chat.id, "assistant", "", None, state=MessageState.STREAMING))
    done = store.finish_message(reply.id, "Stopped here", MessageState.STOPPED, {"completion_tokens": 3})
    assert (done.text, done.state, done.stats) == ("Stopped here", MessageState.STOPPED, {"completion_tokens": 3})


def test_search_finds_chats_by_title_or_message_text_ignoring_case(store: ChatStore) -> None:
    lisbon = store.create_chat("Lisbon trip")
    store.add_message(lisbon.id, "user", "Where should I eat pastéis de nata?")
    code = store.create_chat("Code help")
    store.add_message(code.id, "user", "Why does my 100% CPU loop_hang?")
    assert [h.chat.id for h in store.search("PASTÉIS")] == [lisbon.id]
    assert "pastéis de nata" in store.search("pastéis")[0].snippet
    assert [h.chat.id for h in store.search("lisbon")] == [lisbon.id]
    assert [h.chat.id for h in store.search("100%")] == [code.id], "% is not a wildcard"
    assert [h.chat.id for h in store.search("op_h")] == [code.id]
    assert store.search("opXh") == [], "_ is not a wildcard"
    assert store.search("nothing like this") == []
    assert {h.chat.id for h in store.search("")} == {lisbon.id, code.id}


def test_export_to_markdown_shows_the_conversation_on_show(store: ChatStore) -> None:
    chat = store.create_chat("Fruit", settings={"system_prompt": "Answer in one word."})
    store.add_message(chat.id, "user", "Name a fruit.")
    store.add_message(chat.id, "assistant", "**Apple**.", model="SmolLM2", stats={"completion_tokens": 3})
    text = store.export_markdown(chat.id)
    assert text.startswith("# Fruit\n")
    assert "## System prompt\n\nAnswer in one word." in text
    assert "## You\n\nName a fruit." in text
    assert "## Assistant (SmolLM2)\n\n**Apple**." in text
    assert "*3 tokens*" in text


def test_export_to_json_has_every_branch_and_the_thread(store: ChatStore) -> None:
    chat = store.create_chat()
    question = store.add_message(chat.id, "user", "Hi")
    first = store.add_message(chat.id, "assistant", "Hello!")
    second = store.save_message(new_message(chat.id, "assistant", "Hey!", question.id))
    data = json.loads(store.export_json(chat.id))
    assert data["format"] == "glassbox-chat"
    assert data["thread"] == [question.id, second.id]
    assert [m["id"] for m in data["messages"]] == [question.id, first.id, second.id]
    assert data["messages"][1]["parent_id"] == question.id


@pytest.mark.expected_log(
    "app.core.chat.store", logging.ERROR, r"The chat history could not be read \(file is not a database\)"
)
def test_a_damaged_database_is_set_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with ChatStore(path) as store:
        assert "could not be read" in store.notices[0]
        assert store.chats() == []
        assert store.integrity_check() == "ok"
    [aside] = tmp_path.glob("chats.sqlite3.damaged-*")
    assert aside.read_bytes().startswith(b"this is not sqlite")


def test_a_database_from_a_newer_version_is_refused_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(ChatStoreError, match="newer Glassbox"):
        ChatStore(path)


def test_a_missing_chat_is_a_readable_error(store: ChatStore) -> None:
    with pytest.raises(ChatStoreError, match="no longer exists"):
        store.thread("nope")


def test_versions_tell_each_message_its_place_among_its_edits(store: ChatStore) -> None:
    chat = store.create_chat()
    first = store.add_message(chat.id, "user", "v1")
    reply = store.add_message(chat.id, "assistant", "r1")
    second = store.save_message(new_message(chat.id, "user", "v2", None))
    versions = store.versions(chat.id)
    assert versions[first.id] == (0, 2) and versions[second.id] == (1, 2)
    assert versions[reply.id] == (0, 1)


def test_pinned_chats_come_first_and_each_hit_names_the_model_of_its_latest_reply(store: ChatStore) -> None:
    older = store.create_chat("Older")
    store.add_message(older.id, "user", "Hi")
    store.add_message(older.id, "assistant", "Hello", model="SmolLM2")
    newer = store.create_chat("Newer")
    store.add_message(newer.id, "user", "Hey")
    assert [hit.chat.title for hit in store.search("")] == ["Newer", "Older"]
    store.set_pinned(older.id, True)
    hits = store.search("")
    assert [(hit.chat.title, hit.chat.pinned, hit.model) for hit in hits] == [
        ("Older", True, "SmolLM2"),
        ("Newer", False, ""),
    ]
    assert [(hit.chat.title, hit.model) for hit in store.search("h")] == [("Older", "SmolLM2"), ("Newer", "")]


def test_a_history_from_before_pinning_opens_with_every_chat_unpinned(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE chats (id TEXT PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
                            settings TEXT NOT NULL DEFAULT '{}', head_id TEXT);
        INSERT INTO chats VALUES ('c1', 'From version 1', 1.0, 1.0, '{}', NULL);
        PRAGMA user_version = 1;
        """
    )
    old.close()
    with ChatStore(path) as store:
        [chat] = store.chats()
        assert (chat.title, chat.pinned) == ("From version 1", False)
        store.set_pinned("c1", True)
        assert store.chat("c1").pinned


def test_a_history_from_before_thinking_models_opens_unchanged_and_then_keeps_reasoning(tmp_path: Path) -> None:
    path = tmp_path / "chats.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE chats (id TEXT PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
                            settings TEXT NOT NULL DEFAULT '{}', head_id TEXT, pinned INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE messages (id TEXT PRIMARY KEY, chat_id TEXT NOT NULL, parent_id TEXT, role TEXT NOT NULL,
                               text TEXT NOT NULL, state TEXT NOT NULL, model TEXT NOT NULL DEFAULT '',
                               settings TEXT NOT NULL DEFAULT '{}', stats TEXT NOT NULL DEFAULT '{}',
                               created REAL NOT NULL, updated REAL NOT NULL);
        INSERT INTO chats VALUES ('c1', 'From version 2', 1.0, 1.0, '{}', 'm2', 0);
        INSERT INTO messages VALUES ('m1', 'c1', NULL, 'user', 'Hi', 'complete', '', '{}', '{}', 1.0, 1.0);
        INSERT INTO messages VALUES ('m2', 'c1', 'm1', 'assistant', 'Hello.', 'complete', 'm', '{}', '{}', 2.0, 2.0);
        PRAGMA user_version = 2;
        """
    )
    old.close()
    with ChatStore(path) as store:
        assert [(m.text, m.reasoning) for m in store.thread("c1")] == [("Hi", ""), ("Hello.", "")]
        reply = store.add_message("c1", "assistant", "", state=MessageState.STREAMING)
        store.save_partial(reply.id, "", reasoning="The user greets")
        assert store.message(reply.id).reasoning == "The user greets"
        store.finish_message(reply.id, "Hi there.", MessageState.COMPLETE, reasoning="The user greets me.")
        assert (store.message(reply.id).text, store.message(reply.id).reasoning) == ("Hi there.", "The user greets me.")


def test_reasoning_is_exported_apart_from_the_answer_and_search_finds_only_answers(store: ChatStore) -> None:
    chat = store.create_chat()
    store.add_message(chat.id, "user", "What is 2+2?")
    store.add_message(chat.id, "assistant", "4.", reasoning="Adding two and two gives four.")
    markdown = store.export_markdown(chat.id)
    assert "<details><summary>Reasoning</summary>" in markdown
    assert markdown.index("Adding two and two gives four.") < markdown.index("4.\n")
    [exported_reply] = [m for m in json.loads(store.export_json(chat.id))["messages"] if m["role"] == "assistant"]
    assert (exported_reply["text"], exported_reply["reasoning"]) == ("4.", "Adding two and two gives four.")
    assert store.search("gives four") == []


def test_search_finds_reasoning_only_when_asked(store: ChatStore) -> None:
    chat = store.create_chat()
    store.add_message(chat.id, "user", "What is 2+2?")
    store.add_message(chat.id, "assistant", "4.", reasoning="Adding two and TWO gives four.")
    assert store.search("two gives") == []
    [hit] = store.search("two gives", reasoning=True)
    assert (hit.chat.id, hit.matches) == (chat.id, 1)
    assert "two and TWO gives four" in hit.snippet
    assert [h.chat.id for h in store.search("2+2", reasoning=True)] == [chat.id], "answers are still searched"


def test_a_streaming_replys_reasoning_is_saved_apart_from_its_answer(store: ChatStore) -> None:
    chat = store.create_chat()
    reply = store.save_message(new_message(chat.id, "assistant", "", None, state=MessageState.STREAMING))
    now = [0.0]
    recorder = ReplyRecorder(reply.id, store.save_partial, interval=0.5, clock=lambda: now[0])
    assert not recorder.append_reasoning("The user ")
    now[0] = 0.6
    assert recorder.append_reasoning("asks.")
    assert (store.message(reply.id).text, store.message(reply.id).reasoning) == ("", "The user asks.")
    recorder.append("Four.")
    assert recorder.save()
    assert (store.message(reply.id).text, store.message(reply.id).reasoning) == ("Four.", "The user asks.")
    assert (recorder.text, recorder.reasoning) == ("Four.", "The user asks.")
    assert not recorder.save(), "nothing new to save"
