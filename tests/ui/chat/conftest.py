"""The chat view the chat tests share: shown at a readable size, exposed before a test uses it."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.ui.chat.view import ChatView


@pytest.fixture
def view(qtbot: QtBot) -> ChatView:
    chat = ChatView()
    qtbot.addWidget(chat)
    chat.resize(700, 500)
    chat.show()
    qtbot.waitExposed(chat)
    return chat
