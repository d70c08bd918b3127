"""Closing the window mid-reply: every flag first, then a wait that never aborts and loses no token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from app.core.chat.store import ChatStore
from app.core.paths import app_paths

ROOT = Path(__file__).resolve().parents[3]
PROCESS_TIMEOUT_S = 300  # a liveness bound for a busy machine, not a speed expectation


def run_stubborn_reply() -> tuple[subprocess.CompletedProcess[str], dict[str, object]]:
    """Run tests/ui/shell/stubborn_reply.py in its own process with this test's GLASSBOX_HOME."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    process = subprocess.run(
        [sys.executable, "-m", "tests.ui.shell.stubborn_reply"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=PROCESS_TIMEOUT_S,
    )
    lines = [line for line in process.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"the window never showed the reply:\n{process.stdout}\n{process.stderr}"
    return process, json.loads(lines[-1].removeprefix("RESULT "))


def saved_reply() -> str:
    store = ChatStore(app_paths().chats_db)
    try:
        [hit] = store.search("")
        return store.thread(hit.chat.id)[-1].text
    finally:
        store.close()


def test_closing_mid_reply_waits_for_a_worker_that_ignores_stop_exits_0_and_saves_every_token_shown() -> None:
    process, result = run_stubborn_reply()
    assert "Destroyed while thread is still running" not in process.stderr
    assert process.returncode == 0, process.stderr  # not 134: no qFatal, no SIGABRT
    assert result["still_streaming"] is False  # closing waited for the reply to end
    shown = str(result["shown"])
    assert shown == result["streamed"]  # every token the worker made reached the chat view
    assert len(shown) > len(str(result["shown_when_closing"]))  # it went on after the stop flag was set
    assert saved_reply() == shown
