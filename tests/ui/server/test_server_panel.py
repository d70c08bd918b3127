"""The Server panel: the window's model served to other programs, every request listed, the chat still working."""

from __future__ import annotations

import openai
import pytest
from pytestqt.qtbot import QtBot

from app.bench.llama_server import free_port
from app.ui.shell.main_window import MainWindow

pytestmark = pytest.mark.window(greedy_tokens=6)


def test_the_panel_serves_the_windows_model_lists_each_request_and_the_chat_goes_on(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.server_panel
    panel.port.setValue(free_port())
    panel.keep_text.setChecked(True)
    panel.start_button.click()
    qtbot.waitUntil(lambda: panel.running, timeout=30_000)
    assert panel.server is not None and panel.server.base_url in panel.status.text()
    assert window.worker.model_queue is not None  # API requests and the chat now take turns

    client = openai.OpenAI(base_url=panel.server.base_url, api_key="unused")
    reply = client.chat.completions.create(
        model="any", messages=[{"role": "user", "content": "Say hello."}], max_tokens=5, temperature=0
    )
    assert reply.choices[0].message.content
    qtbot.waitUntil(lambda: panel.table.rowCount() == 1, timeout=10_000)
    assert panel.table.item(0, 2).text() == "POST /v1/chat/completions" and panel.table.item(0, 9).text() == "200"
    assert panel.table.item(0, 10).text() in {"0", "1", "2", "3"}  # Auto: 4 slots of 1,024 tokens in the 4,096
    assert panel.table.item(0, 11).text().endswith(" ms")  # how long it waited for the model
    panel.table.selectRow(0)
    assert "user: Say hello." in panel.details.toPlainText()

    panel.open_chat_button.click()  # the request and its reply become a chat the user can go on with
    session = window.chats.session
    assert session.chat.title == "Say hello."
    assert [(m.role, m.text) for m in session.shown_thread] == [
        ("user", "Say hello."),
        ("assistant", reply.choices[0].message.content),
    ]
    with qtbot.waitSignal(window.replyFinished, timeout=60_000) as finished:  # the window's own chat still works
        window.send("And again.")
    assert finished.args[0].text
    assert [m.role for m in session.shown_thread] == ["user", "assistant", "user", "assistant"]

    panel.start_button.click()  # stop
    assert not panel.running and "Stopped" in panel.status.text()


def test_without_kept_text_a_request_cannot_be_opened_as_chat_and_listed_origins_reach_the_server(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.server_panel
    panel.port.setValue(free_port())
    panel.cors.setText("http://localhost:3000, https://app.example")
    panel.start_button.click()
    qtbot.waitUntil(lambda: panel.running, timeout=30_000)
    assert panel.server is not None
    assert panel.server.config.cors_origins == ("http://localhost:3000", "https://app.example")
    assert not panel.cors.isEnabled()  # fixed while the server runs

    client = openai.OpenAI(base_url=panel.server.base_url, api_key="unused")
    client.chat.completions.create(model="any", messages=[{"role": "user", "content": "Hi"}], max_tokens=2)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 1, timeout=10_000)
    panel.table.selectRow(0)
    assert "Keep prompts and replies" in panel.details.toPlainText()
    assert not panel.open_chat_button.isEnabled()
    panel.stop()


def test_a_network_address_without_a_key_is_refused_with_the_reason(window: MainWindow) -> None:
    panel = window.server_panel
    panel.host.setText("0.0.0.0")
    assert panel.warning.isVisibleTo(panel)
    panel.start_button.click()
    assert not panel.running and "needs an API key" in panel.status.text()
