"""A reply streaming into the chat history survives the process being killed mid-reply."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.core.chat.store import ChatStore, MessageState
from app.core.paths import app_paths
from tests.repo import REPO_ROOT

WRITER = textwrap.dedent(
    """
    import json, sys, threading
    from pathlib import Path
    from app.core.chat.store import ChatStore, MessageState, ReplyRecorder, new_message
    from app.core.inference.engine import ChatMessage, Engine, LoadConfig, TokenPiece
    from app.core.inference.sampling import GREEDY

    store = ChatStore(Path(sys.argv[1]))
    engine = Engine()
    engine.load(LoadConfig(Path(sys.argv[2]), n_ctx=512, n_threads=1))
    chat = store.create_chat()
    question = store.add_message(chat.id, "user", "Count from one to two hundred, in words.")
    reply = store.save_message(new_message(chat.id, "assistant", "", question.id, state=MessageState.STREAMING))

    def saved(message_id, text, reasoning):
        store.save_partial(message_id, text, reasoning)
        print(json.dumps({"chat": chat.id, "reply": reply.id, "text": text}), flush=True)

    recorder = ReplyRecorder(reply.id, saved, interval=0.05)
    params = GREEDY.with_values({"max_tokens": 400})
    for event in engine.stream_chat([ChatMessage("user", question.text)], params, threading.Event()):
        if isinstance(event, TokenPiece):
            recorder.append(event.text)
    print("FINISHED", flush=True)
    """
)


@pytest.mark.expected_log("app.core.chat.store", logging.WARNING, r"reply\(ies\) were interrupted by the previous exit")
def test_a_reply_killed_mid_stream_is_kept_and_the_database_is_intact(starter_model: Path) -> None:
    database = app_paths().chats_db
    database.parent.mkdir(parents=True, exist_ok=True)
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(database), str(starter_model)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    saves: list[dict[str, str]] = []
    try:
        assert child.stdout is not None
        for line in child.stdout:
            assert line.strip() != "FINISHED", "the reply ended before it could be killed"
            saves.append(json.loads(line))
            if len(saves) == 3:
                child.send_signal(signal.SIGKILL)
                break
    finally:
        child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL

    last = saves[-1]
    with ChatStore(database) as store:
        assert store.integrity_check() == "ok"
        reply = store.message(last["reply"])
        assert reply.state is MessageState.STREAMING
        assert reply.text.startswith(last["text"]) and last["text"], "what was saved before the kill is there"
        assert store.recover_interrupted() == 1
        assert [m.role for m in store.thread(last["chat"])] == ["user", "assistant"]
        assert store.message(last["reply"]).state is MessageState.INTERRUPTED
