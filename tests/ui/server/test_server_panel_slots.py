"""The Server panel's parallel replies: the count the user sets, what each slot does, the window's chat in a slot."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import openai
import pytest
from pytestqt.qtbot import QtBot

from app.bench.llama_server import free_port
from app.ui.shell.main_window import MainWindow

pytestmark = pytest.mark.window(greedy_tokens=8)

CLIENT_PROMPTS = ("Name three colours.", "Write one sentence about the sea.")


@dataclass
class Streamed:
    text: str = ""
    finish_reason: str | None = None
    error: str = ""


def start(panel: object, qtbot: QtBot, parallel: int) -> None:
    panel.port.setValue(free_port())  # type: ignore[attr-defined]
    panel.parallel.setValue(parallel)  # type: ignore[attr-defined]
    panel.start_button.click()  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: panel.running, timeout=30_000)  # type: ignore[attr-defined]


def test_the_parallel_count_is_kept_in_the_settings_and_applied_at_the_next_start(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.server_panel
    assert panel.parallel.text() == "Auto"  # 0: what the memory plan allows
    start(panel, qtbot, 2)
    assert window.settings_store.settings.serving.parallel == 2
    assert window.worker.model_queue is not None and window.worker.model_queue.slots == 2
    assert "2 replies at once, 2048 tokens of context each" in panel.status.text()
    assert window.gpu_panel.current_plan().cpu_slots_kv > 0  # the GPU panel plans the slots' KV cache

    panel.parallel.setValue(3)
    assert "applied when the server starts next" in panel.status.text()
    assert window.worker.model_queue.slots == 2  # not while it runs
    panel.stop()
    worker = window.worker  # the model is the window's alone again, without slots
    qtbot.waitUntil(lambda: worker.model_queue is None and worker.backend.parallel == 1, timeout=30_000)
    assert window.gpu_panel.current_plan().cpu_slots_kv == 0

    start(panel, qtbot, 3)
    assert window.worker.model_queue is not None and window.worker.model_queue.slots == 3
    panel.stop()


def test_the_windows_chat_writes_in_a_slot_of_its_own_while_openai_clients_stream(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.server_panel
    start(panel, qtbot, 3)
    assert panel.server is not None
    client = openai.OpenAI(base_url=panel.server.base_url, api_key="unused", max_retries=0)
    streaming = [threading.Event() for _ in CLIENT_PROMPTS]
    results = [Streamed() for _ in CLIENT_PROMPTS]

    def stream(index: int) -> None:
        result = results[index]
        try:
            chunks = client.chat.completions.create(
                model="any",
                messages=[{"role": "user", "content": CLIENT_PROMPTS[index]}],
                stream=True,
                max_tokens=64,
                temperature=0,
            )
            for chunk in chunks:
                if chunk.choices:
                    result.text += chunk.choices[0].delta.content or ""
                    result.finish_reason = chunk.choices[0].finish_reason or result.finish_reason
                    streaming[index].set()
        except openai.APIError as error:
            result.error = str(error)
        finally:
            streaming[index].set()

    clients = [threading.Thread(target=stream, args=(i,), name=f"client-{i}") for i in range(len(CLIENT_PROMPTS))]
    for thread in clients:
        thread.start()
    try:
        qtbot.waitUntil(lambda: all(event.is_set() for event in streaming), timeout=60_000)
        qtbot.waitUntil(lambda: "writing" in panel.slots_view.text(), timeout=10_000)  # what each slot does
        with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
            window.send("Say hello.")
    finally:
        for thread in clients:
            thread.join()
    window_reply = finished.args[0]
    assert window_reply.text and window_reply.stats.error == ""
    assert window_reply.stats.slot >= 0  # written in one of the slots, beside the clients' replies
    for result in results:
        assert result.error == "" and result.text and result.finish_reason in ("stop", "length")
    assert results[0].text != results[1].text  # each its own reply
    qtbot.waitUntil(lambda: panel.table.rowCount() == len(CLIENT_PROMPTS), timeout=30_000)
    api_slots = {panel.table.item(row, 10).text() for row in range(len(CLIENT_PROMPTS))}
    assert len(api_slots | {str(window_reply.stats.slot)}) == 3  # three replies, three slots
    session = window.chats.session
    assert [m.role for m in session.shown_thread] == ["user", "assistant"]
    panel.stop()
