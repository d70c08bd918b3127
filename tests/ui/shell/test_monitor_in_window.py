"""The Monitor panel in the window, and a model unloaded on purpose that the next message loads again."""

from __future__ import annotations

import httpx2
import pytest
from pytestqt.qtbot import QtBot

from app.bench.llama_server import free_port
from app.ui.monitor.settings_dialog import MonitorSettingsDialog
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WINDOW_LOAD_TIMEOUT_MS

pytestmark = pytest.mark.window(greedy_tokens=4)


def test_the_monitor_is_a_dock_in_the_view_menu(window: MainWindow) -> None:
    assert "Monitor" in [action.text().replace("&", "") for action in window.view_menu.actions()]
    assert window.monitor_panel.parent() is not None


def test_an_unloaded_model_is_loaded_again_by_the_next_message(window: MainWindow, qtbot: QtBot) -> None:
    model = window.state.loaded_model
    window.loader.unload()
    qtbot.waitUntil(lambda: not window.worker.backend.is_loaded)
    assert window.state.loaded_model is None and "unloaded" in window.status_label.text()
    with qtbot.waitSignal(window.replyFinished, timeout=WINDOW_LOAD_TIMEOUT_MS):
        window.send("Say hello.")
    assert window.state.loaded_model == model
    assert [m.role for m in window.chat_view.messages()] == ["user", "assistant"]


def test_monitor_settings_open_from_the_tools_menu_and_the_panel_and_apply_at_once(
    window: MainWindow, qtbot: QtBot
) -> None:
    assert window.monitor_extras.settings_action in window.tools_menu.actions()
    with qtbot.waitSignal(window.settings_store.monitorChanged, timeout=5000):
        window.monitor_extras.settings_action.trigger()
        dialog = window.findChild(MonitorSettingsDialog)
        assert dialog is not None and dialog.isVisible()
        dialog.thresholds["context_percent"].check.setChecked(False)
        dialog.accept()
    assert window.settings_store.settings.monitor.context_percent == 0
    assert window.monitor_panel.alerts.thresholds.context_percent == 0  # the alerts follow at once
    window.monitor_panel.settings_button.click()
    reopened = [d for d in window.findChildren(MonitorSettingsDialog) if d.isVisible()]
    assert len(reopened) == 1 and not reopened[0].thresholds["context_percent"].check.isChecked()
    reopened[0].reject()


def test_the_api_servers_metrics_carry_the_monitors_readings_while_it_runs(window: MainWindow, qtbot: QtBot) -> None:
    panel = window.server_panel
    panel.port.setValue(free_port())
    panel.start_button.click()
    qtbot.waitUntil(lambda: panel.running, timeout=30_000)
    try:
        with qtbot.waitSignal(window.monitor_panel.sampled, timeout=10_000):
            window.hardware_sampling.sample_now()
        assert panel.server is not None
        text = httpx2.get(panel.server.base_url.removesuffix("/v1") + "/metrics", timeout=10).text
        assert "glassbox_memory_available_bytes " in text and 'glassbox_alert_active{kind="vram_high"}' in text
    finally:
        panel.start_button.click()  # stop
    qtbot.waitUntil(lambda: not panel.running, timeout=30_000)
