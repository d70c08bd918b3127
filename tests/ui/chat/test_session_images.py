"""The chat session carries a message's images: into the conversation the model gets, the context window's
records, an edited version, and a conversation opened from an API request."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.paths import app_paths
from app.core.types.messages import ChatMessage
from app.ui.chat.session import ChatSession
from app.ui.settings.store import SettingsStore
from tests.helpers.vision import picture


@pytest.fixture
def session(qtbot: QtBot) -> Iterator[ChatSession]:
    opened = ChatSession(SettingsStore.from_file(app_paths().settings_file))
    yield opened
    assert opened.shutdown()


def test_a_sent_messages_images_reach_the_conversation_and_the_context_window(
    session: ChatSession, tmp_path: Path
) -> None:
    image = picture(tmp_path)
    session.add_user_message("What is this?", (image,))
    [sent] = session.conversation()
    assert (sent.content, sent.images) == ("What is this?", (image,))
    [record] = session.window_records()
    assert record.images == (image,)


def test_a_message_of_images_alone_is_part_of_the_conversation(session: ChatSession, tmp_path: Path) -> None:
    image = picture(tmp_path)
    session.add_user_message("", (image,))
    assert [m.images for m in session.conversation()] == [(image,)]


def test_an_edited_message_keeps_its_images(session: ChatSession, tmp_path: Path) -> None:
    image = picture(tmp_path)
    first = session.add_user_message("What is this?", (image,))
    edited = session.edit_message(first.id, "What colour is this?")
    assert (edited.text, edited.images) == ("What colour is this?", (image,))


def test_a_conversation_from_an_api_request_keeps_its_images(session: ChatSession, tmp_path: Path) -> None:
    image = picture(tmp_path)
    request = [ChatMessage("user", "", images=(image,)), ChatMessage("assistant", "Red.")]
    session.open_transcript("From the API", request)
    assert [(m.role, m.text, m.images) for m in session.shown_thread] == [
        ("user", "", (image,)),
        ("assistant", "Red.", ()),
    ]
