"""A server that ignores max_tokens: the window's reply is cut at the limit and the user is told why."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.backends.remote import RemoteBackend, RemoteConfig
from app.core.inference.engine import Engine
from app.core.inference.sampling import SamplingParams
from app.core.support.stop_flag import StopFlag
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.stats import StopReason
from app.ui.llm.worker import LlmWorker, ReplyRequest
from tests.helpers.canned_server import DONE, FINISH, Canned, CannedServer, piece


@pytest.fixture
def canned() -> Iterator[CannedServer]:
    server = CannedServer()
    yield server
    server.close()


def test_a_reply_past_max_tokens_is_cut_and_the_window_is_told_the_server_ignored_the_limit(
    canned: CannedServer,
) -> None:
    canned.reply = Canned(body=piece("one ") + piece("two ") + piece("three ") + FINISH + DONE)
    worker = LlmWorker(LocalBackend(InProcessEngine(Engine())))  # no thread: the reply is written here, at once
    worker.remote = RemoteBackend(RemoteConfig(canned.url))
    worker.remote.select_model("m")
    notices: list[str] = []
    events: list[ReplyEvent] = []
    worker.notice.connect(notices.append)
    try:
        request = ReplyRequest((ChatMessage("user", "hi"),), SamplingParams(max_tokens=2))
        worker.stream_reply(request, StopFlag(), events.append)
    finally:
        worker.close()
    finished = [event for event in events if isinstance(event, ReplyDone)]
    assert [(done.text, done.stats.stop_reason) for done in finished] == [("one two ", StopReason.LENGTH)]
    assert [notice for notice in notices if "ignored the limit of 2 tokens" in notice]
