"""Monitor settings: each alert's threshold, each alert off on its own, idle unload, the smaller-variant switch."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from app.core.inference.sampling import InvalidSetting
from app.core.monitor.alerts import AlertChange, AlertKind, AlertMonitor
from app.core.settings import MonitorSettings, Settings
from app.ui.monitor.settings_dialog import MonitorSettingsDialog
from tests.fakes.fake_machine import FakeMachine
from tests.fakes.fake_pynvml import GIB, FakeGpu

ALERT_SETTINGS = (
    "vram_percent",
    "ram_available_percent",
    "swap_growth_mib",
    "context_percent",
    "slow_tokens_fraction",
    "slow_first_token_factor",
    "failed_replies",
    "idle_vram_minutes",
)


def kinds(changes: list[AlertChange]) -> set[AlertKind]:
    return {change.alert.kind for change in changes if change.raised}


class Saved:
    """The save callback the shell passes: through the settings' own checks, like the window's."""

    def __init__(self) -> None:
        self.settings = Settings()

    def __call__(self, values: Mapping[str, Any]) -> None:
        self.settings = self.settings.with_monitor(values)


def dialog(qtbot: QtBot, settings: MonitorSettings, save: Any) -> MonitorSettingsDialog:
    shown = MonitorSettingsDialog(settings, save)
    qtbot.addWidget(shown)
    return shown


def test_every_alert_of_the_monitor_has_a_threshold_that_can_be_turned_off(qtbot: QtBot) -> None:
    shown = dialog(qtbot, MonitorSettings(), Saved())
    assert set(ALERT_SETTINGS) <= set(shown.thresholds)
    assert all(shown.thresholds[name].check.isChecked() for name in ALERT_SETTINGS)  # on by default
    assert not shown.thresholds["idle_unload_minutes"].check.isChecked()  # idle unload: off by default
    assert shown.values() == {**vars(MonitorSettings())}


@pytest.mark.expected_log("app.core.monitor.alerts", logging.WARNING, r"VRAM is 94 % full")
def test_saving_changed_thresholds_and_an_alert_turned_off_reaches_the_settings_and_the_alerts(qtbot: QtBot) -> None:
    saved = Saved()
    shown = dialog(qtbot, MonitorSettings(), saved)
    shown.thresholds["context_percent"].box.setValue(80)
    shown.thresholds["slow_tokens_fraction"].box.setValue(30)  # shown in %
    shown.thresholds["vram_percent"].check.setChecked(False)
    shown.thresholds["idle_unload_minutes"].check.setChecked(True)
    shown.thresholds["idle_unload_minutes"].box.setValue(45)
    shown.smaller_variant.setChecked(True)
    shown.accept()

    assert shown.result() == QDialog.DialogCode.Accepted
    monitor = saved.settings.monitor
    assert monitor.context_percent == 80 and monitor.slow_tokens_fraction == pytest.approx(0.3)
    assert monitor.vram_percent == 0 and monitor.idle_unload_minutes == 45 and monitor.switch_to_smaller_variant
    assert not shown.thresholds["vram_percent"].box.isEnabled()
    machine = FakeMachine(gpus=[FakeGpu(total=8 * GIB, reserved=0)])
    machine.set_vram(app=7 * GIB + GIB // 2, others=0)  # 94 % full
    sample = machine.sampler().sample()
    assert AlertKind.VRAM_HIGH in kinds(AlertMonitor(MonitorSettings().alert_thresholds()).observe_sample(sample))
    assert AlertKind.VRAM_HIGH not in kinds(AlertMonitor(monitor.alert_thresholds()).observe_sample(sample))


def test_an_alert_turned_on_again_comes_back_with_its_last_threshold_or_its_default(qtbot: QtBot) -> None:
    shown = dialog(qtbot, MonitorSettings(context_percent=75, failed_replies=0), Saved())
    context = shown.thresholds["context_percent"]
    context.check.setChecked(False)
    context.check.setChecked(True)
    assert context.value == 75
    failed = shown.thresholds["failed_replies"]
    assert not failed.check.isChecked() and failed.value == 0
    failed.check.setChecked(True)
    assert failed.value == MonitorSettings().failed_replies


def test_a_refused_value_is_shown_and_the_dialog_stays_open_with_nothing_lost(qtbot: QtBot) -> None:
    def refuse(_values: Mapping[str, Any]) -> None:
        raise InvalidSetting("vram_percent", "VRAM alert (%) must be between 0 and 100, not 120.")

    shown = dialog(qtbot, MonitorSettings(), refuse)
    shown.show()
    shown.thresholds["context_percent"].box.setValue(85)
    shown.accept()
    assert shown.isVisible() and shown.result() != QDialog.DialogCode.Accepted
    assert "must be between" in shown.error.text() and shown.error.isVisible()
    assert shown.thresholds["context_percent"].value == 85
