"""A user adds a server in Tools → Servers…, picks its model in the picker, and chats with it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.bench.llama_server import LlamaServer
from app.core.backends.servers import ServerModel
from app.core.types.replies import ReplyDone
from app.core.types.stats import StopReason
from app.ui.shell.main_window import MainWindow
from tests.core.backends.llama_server import start_llama_server
from tests.fakes.memory_keyring import MemoryKeyring
from tests.helpers.windows import WindowOpener


@pytest.fixture(scope="module")
def server(starter_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    started = start_llama_server(starter_model, tmp_path_factory.mktemp("llama-server"), api_key="team-key")
    yield started
    started.stop()


@pytest.fixture
def window(open_main_window: WindowOpener, memory_keyring: MemoryKeyring) -> MainWindow:
    """The window, opened once the in-memory keyring is in place: it reads the servers' keys from it."""
    return open_main_window(greedy_tokens=12)


def server_rows(window: MainWindow) -> list[ServerModel]:
    picker = window.model_picker
    return [data for row in range(picker.count()) if isinstance(data := picker.itemData(row), ServerModel)]


def test_a_saved_servers_model_is_picked_and_answers_in_the_chat(
    window: MainWindow, server: LlamaServer, qtbot: QtBot, memory_keyring: MemoryKeyring
) -> None:
    window.servers_action.trigger()
    dialog = window.server_models.dialog
    assert dialog is not None and dialog.isVisible()
    qtbot.keyClicks(dialog.name, "team")
    qtbot.keyClicks(dialog.url, server.url)
    qtbot.keyClicks(dialog.api_key, "team-key")
    dialog.save_button.click()
    assert memory_keyring.get_password("Glassbox", "server:team") == "team-key"
    assert dialog.api_key.text() == ""  # the key left the form for the keyring

    dialog.test_button.click()
    qtbot.waitUntil(lambda: "Connected. llama-cpp-python" in dialog.outcome.text(), timeout=30_000)
    saved = window.settings_store.settings.server("team")
    assert saved is not None and saved.kind == "llama-cpp-python"

    qtbot.waitUntil(lambda: [m.server.kind for m in server_rows(window)] == ["llama-cpp-python"], timeout=30_000)
    row = window.model_picker.findData(server_rows(window)[0])
    window.model_picker.setCurrentIndex(row)
    window.model_picker.activated.emit(row)
    qtbot.waitUntil(lambda: window.state.load_report is not None and window.state.load_report.server == "team")
    assert "on team" in window.status_label.text()
    assert not window.worker.backend.is_loaded  # the local model was freed

    streamed: list[str] = []
    window.worker.token.connect(streamed.append)
    with qtbot.waitSignal(window.replyFinished, timeout=60_000) as finished:
        window.send("Say hello.")
    done: ReplyDone = finished.args[0]
    assert done.stats.stop_reason is StopReason.LENGTH and done.text
    assert window.chat_view.messages()[-1].text == done.text == "".join(streamed)
    assert "tok/s" in window.speed_label.text()
    assert "not sent: repeat_last_n." in window.error_banner.message()  # what the server does not take is named


def test_a_server_that_does_not_answer_is_said_in_the_dialog(window: MainWindow, qtbot: QtBot) -> None:
    window.servers_action.trigger()
    dialog = window.server_models.dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.name, "gone")
    qtbot.keyClicks(dialog.url, "http://127.0.0.1:9")
    dialog.test_button.click()
    qtbot.waitUntil(lambda: "The test failed" in dialog.outcome.text(), timeout=30_000)
    assert "cannot be reached" in dialog.outcome.text()
    dialog.url.clear()
    qtbot.keyClicks(dialog.url, "gpu-box:8000")
    dialog.save_button.click()
    assert "is not a server address" in dialog.outcome.text()
    assert window.settings_store.settings.servers == ()
