"""The chat history's tests share one store, opened in the test's own data folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.core.chat.store import ChatStore
from app.core.paths import app_paths


@pytest.fixture
def store() -> Iterator[ChatStore]:
    with ChatStore(app_paths().chats_db) as opened:
        yield opened
