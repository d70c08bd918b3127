"""The Monitor panel as a user meets it: live plots, replies marked and hoverable, CSV export, alerts, idle unload.

The machine is the fake one (fake psutil and NVML, a clock the test moves); the hardware
sampler samples when the test asks (`sample_now`), so every step is deterministic.
"""

from __future__ import annotations

import csv
import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, QPointF, Signal
from pytestqt.qtbot import QtBot

from app.core.monitor.alerts import Alert, AlertKind
from app.core.monitor.speed_history import SPEED_FILE, SpeedHistory, run_key
from app.core.monitor.timeline import ReplyOutcome
from app.core.paths import app_paths
from app.core.settings import MonitorSettings
from app.core.types.load import LoadConfig, LoadReport
from app.core.types.replies import ReplyDone
from app.core.types.stats import ReplyMetrics, ReplyStats, StopReason
from app.ui.hardware_sampling import HardwareSampling
from app.ui.monitor.alert_notice import AlertNotice
from app.ui.monitor.panel import MonitorPanel
from app.ui.state_signals import StateSignals
from tests.fakes.fake_machine import FakeMachine
from tests.fakes.fake_pynvml import GIB

NEVER_MS = 3_600_000  # the timer's interval: the test takes the samples itself
ALERTS = "app.core.monitor.alerts"


class FakeLlmWorker(QObject):
    """The LLM worker's reply signals, driven by the test."""

    replyMetrics = Signal(object)
    finished = Signal(object)
    failed = Signal(str)


class Rig:
    def __init__(
        self,
        qtbot: QtBot,
        panel: MonitorPanel,
        sampling: HardwareSampling,
        machine: FakeMachine,
        worker: FakeLlmWorker,
    ) -> None:
        self.qtbot = qtbot
        self.panel = panel
        self.sampling = sampling
        self.machine = machine
        self.worker = worker
        self.state = panel._state_signals.state
        self.raised: list[Alert] = []
        self.cleared: list[Alert] = []
        panel.alertRaised.connect(self.raised.append)
        panel.alertCleared.connect(self.cleared.append)

    def sample(self, seconds: float = 1.0) -> None:
        """Time passes, then the panel takes a sample and handles it."""
        self.machine.tick(seconds)
        with self.qtbot.waitSignal(self.panel.sampled, timeout=5000):
            self.sampling.sample_now()

    def load(self, name: str = "model.Q4_K_M.gguf", n_gpu_layers: int = 99) -> None:
        config = LoadConfig(Path(name), n_ctx=4096, n_gpu_layers=n_gpu_layers)
        self.state.load_started(config)
        self.state.load_finished(LoadReport(config=config))

    def reply(self, seconds: float = 3.0, tokens_per_s: float = 20.0, failed: str = "") -> None:
        """A reply streams for `seconds` (a sample each second) and ends."""
        self.state.reply_started()
        for _ in range(int(seconds)):
            self.sample()
        if failed:
            self.worker.failed.emit(failed)
        else:
            stats = ReplyStats(
                prompt_tokens=120,
                cached_prompt_tokens=100,
                completion_tokens=int(seconds * tokens_per_s),
                time_to_first_token_s=0.25,
                generation_tokens_per_s=tokens_per_s,
            )
            self.worker.replyMetrics.emit(ReplyMetrics(stats=stats, n_ctx=4096, context_used=300))
            self.worker.finished.emit(ReplyDone("text", stats))
        self.state.reply_ended()


@pytest.fixture
def make_rig(qtbot: QtBot) -> Iterator[Callable[..., Rig]]:
    made: list[tuple[MonitorPanel, HardwareSampling]] = []

    def make(
        machine: FakeMachine | None = None, settings: MonitorSettings | None = None, history: SpeedHistory | None = None
    ) -> Rig:
        machine = machine or FakeMachine()
        worker = FakeLlmWorker()
        sampling = HardwareSampling(machine.sampler(), interval_ms=NEVER_MS)
        panel = MonitorPanel(
            StateSignals(),
            sampling,
            worker,  # type: ignore[arg-type]  # the fake has the signals the panel follows
            settings=settings,
            history=history if history is not None else SpeedHistory(),
        )
        qtbot.addWidget(panel)
        panel.resize(480, 900)
        panel.show()
        made.append((panel, sampling))
        with qtbot.waitSignal(panel.sampled):  # the first sample comes at the start
            sampling.start()
        return Rig(qtbot, panel, sampling, machine, worker)

    yield make
    for panel, sampling in made:
        sampling.shutdown()
        panel.shutdown()


def test_the_plots_show_cpu_memory_and_each_gpu_as_samples_come_in(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig()
    rig.machine.set_vram(app=3 * GIB, others=1 * GIB)
    for _ in range(3):
        rig.sample()

    cpu = {series.label: series.points for series in rig.panel.cpu_plot.series}
    assert set(cpu) == {"Glassbox", "All programs"}
    assert [round(y) for _t, y in cpu["All programs"]] == [25, 25, 25]  # the first sample has no interval
    assert len(rig.panel.gpu_plots) == 1
    vram = {series.label: series.points for series in rig.panel.gpu_plots[0].vram.series}
    assert vram["Glassbox"][-1][1] == pytest.approx(3.0) and vram["Other programs"][-1][1] == pytest.approx(1.0)
    assert "GPU 0: 4.00 GiB of 8.00 GiB VRAM (Glassbox 3.00 GiB)" in rig.panel.status_label.text()


def test_a_reply_is_marked_on_every_plot_and_hovering_it_shows_its_numbers(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig()
    rig.load()
    rig.sample()
    rig.reply(seconds=3, tokens_per_s=20.0)
    rig.sample()
    rig.panel.window_box.setCurrentIndex(2)  # the whole session: a minute wide so far

    (span,) = rig.panel.timeline.spans()
    assert span.outcome is ReplyOutcome.FINISHED and span.completion_tokens == 60 and span.model == "model.Q4_K_M.gguf"
    for plot in rig.panel.plots():
        assert plot.spans == [span]

    plot = rig.panel.memory_plot
    tip = plot.tooltip_at(plot.span_rect(span).center())
    assert tip.startswith("Reply 1 · model.Q4_K_M.gguf · 3.0 s")
    assert "20.0 tokens/s" in tip and "first token after 0.25 s (100 of 120 prompt tokens cached)" in tip
    beside = QPointF(plot.span_rect(span).right() + 5, plot.span_rect(span).center().y())
    assert plot.tooltip_at(beside).startswith("now\nGlassbox: ")  # beside the reply: the values at that moment
    assert "Reply" not in plot.tooltip_at(beside)


def test_export_writes_one_row_per_sample(make_rig: Callable[..., Rig], tmp_path: Path) -> None:
    rig = make_rig()
    rig.load()
    rig.reply(seconds=2)
    rig.sample()
    target = tmp_path / "monitor.csv"
    rig.panel.ask_export_path = lambda: target  # type: ignore[method-assign]  # instead of the file dialog

    with rig.qtbot.waitSignal(rig.panel.exported, timeout=5000) as exported:
        rig.panel.export_button.click()

    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert exported.args == [target, len(rig.panel.timeline)] and len(rows) == len(rig.panel.timeline) == 4
    assert [row["reply"] for row in rows] == ["1", "1", "1", ""]  # from its start to its end, both included
    assert rig.panel.export_button.isEnabled()
    assert rig.panel.export_label.text() == f"Saved 4 samples to {target}"


@pytest.mark.expected_log("app.ui.monitor.files", logging.WARNING, r"could not be saved to")
def test_an_export_that_cannot_be_written_says_why_and_keeps_the_panel(
    make_rig: Callable[..., Rig], tmp_path: Path
) -> None:
    rig = make_rig()
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    with rig.qtbot.waitSignal(rig.panel.exportFailed, timeout=5000):
        rig.panel.export_csv(blocked / "monitor.csv")
    assert "Choose a folder you can write to" in rig.panel.export_label.text()
    assert rig.panel.export_button.isEnabled()


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"GPU 0 .* VRAM is 95 % full")
def test_a_vram_alert_reaches_the_notice_once_and_leaves_with_its_episode(
    make_rig: Callable[..., Rig], qtbot: QtBot
) -> None:
    rig = make_rig()
    notice = AlertNotice()
    qtbot.addWidget(notice)
    rig.panel.alertRaised.connect(notice.show_alert)
    rig.panel.alertCleared.connect(notice.clear_alert)

    rig.machine.set_vram(others=int(7.6 * GIB))
    rig.sample()
    rig.sample()
    assert [alert.kind for alert in rig.raised] == [AlertKind.VRAM_HIGH]
    assert not notice.isHidden()
    (text,) = notice.texts()
    assert text.startswith("GPU 0 (NVIDIA GeForce RTX 4060) memory is 95 % full")

    rig.machine.set_vram(others=4 * GIB)
    rig.sample()
    assert [alert.kind for alert in rig.cleared] == [AlertKind.VRAM_HIGH]
    assert notice.texts() == [] and notice.isHidden()


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"The last 3 replies failed; the latest said: engine crashed")
def test_three_failed_replies_raise_the_failure_alert(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig()
    rig.load()
    for _ in range(3):
        rig.reply(seconds=1, failed="engine crashed")
    assert [alert.kind for alert in rig.raised] == [AlertKind.FAILED_REPLIES]
    assert [span.outcome for span in rig.panel.timeline.spans()] == [ReplyOutcome.FAILED] * 3


def test_each_replys_speed_is_kept_for_the_next_session_written_off_the_gui_thread(
    make_rig: Callable[..., Rig], qtbot: QtBot
) -> None:
    rig = make_rig(history=SpeedHistory.default(autosave=False))
    rig.load()
    rig.reply(seconds=1, tokens_per_s=30.0)
    path = app_paths().data / SPEED_FILE
    qtbot.waitUntil(path.is_file, timeout=5000)
    assert SpeedHistory.default().usual(run_key(Path("model.Q4_K_M.gguf"), 99)).replies == 1


def test_a_stopped_reply_is_marked_stopped(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig()
    rig.load()
    rig.state.reply_started()
    rig.sample()
    stats = ReplyStats(completion_tokens=4, generation_tokens_per_s=10.0, stop_reason=StopReason.USER)
    rig.worker.finished.emit(ReplyDone("te", stats))
    rig.state.reply_ended()
    (span,) = rig.panel.timeline.spans()
    assert span.outcome is ReplyOutcome.STOPPED


def test_the_idle_unload_policy_asks_for_the_unload_after_the_set_minutes(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig(settings=MonitorSettings(idle_unload_minutes=10, idle_vram_minutes=0))
    rig.load()
    asked: list[str] = []
    rig.panel.idleUnloadRequested.connect(asked.append)

    rig.sample(9 * 60)
    assert asked == []
    rig.sample(60)
    rig.sample(60)
    assert len(asked) == 1 and "was unloaded after 10 minutes without use" in asked[0]


def test_turning_idle_unload_off_in_the_settings_stops_it(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig(settings=MonitorSettings(idle_unload_minutes=10, idle_vram_minutes=0))
    rig.load()
    asked: list[str] = []
    rig.panel.idleUnloadRequested.connect(asked.append)
    rig.panel.apply_settings(MonitorSettings(idle_unload_minutes=0, idle_vram_minutes=0))
    rig.sample(3600)
    assert asked == []


def test_the_window_choice_narrows_the_plots_to_the_last_minutes(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig()
    for _ in range(4):
        rig.sample(120)  # eight minutes in
    rig.panel.window_box.setCurrentIndex(0)
    assert rig.panel.cpu_plot.time_window == (pytest.approx(180.0), pytest.approx(480.0))
    rig.panel.window_box.setCurrentIndex(2)
    assert rig.panel.cpu_plot.time_window == (0.0, pytest.approx(480.0))  # the whole session, up to now


def test_on_this_machines_own_readings_the_panel_samples_and_closes(qtbot: QtBot) -> None:
    sampling = HardwareSampling(interval_ms=50)
    panel = MonitorPanel(StateSignals(), sampling)
    qtbot.addWidget(panel)
    sampling.start()
    try:
        qtbot.waitUntil(lambda: len(panel.timeline) >= 3, timeout=5000)
        qtbot.waitUntil(lambda: "RAM: Glassbox" in panel.status_label.text(), timeout=5000)
        latest = panel.timeline.latest
        assert latest is not None and latest.ram_total is not None and latest.window_pid > 0
    finally:
        sampling.shutdown()
        panel.shutdown()


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"has not been used for 31 minutes and holds 2.00 GiB of VRAM")
def test_an_idle_model_alert_ends_when_the_model_is_unloaded(make_rig: Callable[..., Rig]) -> None:
    rig = make_rig()
    rig.machine.set_vram(app=2 * GIB)
    rig.load()
    rig.sample(31 * 60)
    (idle,) = rig.raised
    assert idle.kind is AlertKind.IDLE_MODEL and idle.offer_unload

    assert rig.state.model_unloaded()  # what the shell does on the notice's Unload
    assert [alert.kind for alert in rig.cleared] == [AlertKind.IDLE_MODEL]
