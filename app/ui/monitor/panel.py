"""The Monitor panel: what the machine did over the session, with the replies on the same time axis.

About once a second the window's one hardware sampler (app.ui.hardware_sampling) takes CPU,
RAM, swap and each GPU's use, VRAM, temperature and power; the panel keeps each sample in the
session's timeline, runs the alerts on it and plots the chosen window (the last
5 or 30 minutes, or the whole session) with every reply shaded, and hovering a reply shows
its numbers. Export CSV writes the whole session, one row per sample.

The panel also runs the alerts and the idle-unload policy on what it sees: it follows the
application state (a model loaded or not, a reply streaming) and the LLM worker's reply
signals, and says what happens through signals the shell connects (`alertRaised`,
`alertCleared`, `idleUnloadRequested`); it never unloads or loads anything itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.core.memory.hardware import GpuSnapshot
from app.core.monitor.alerts import AlertChange, AlertMonitor, ModelRun
from app.core.monitor.idle import IdleUnloadPolicy
from app.core.monitor.samples import ResourceSample
from app.core.monitor.speed_history import SpeedHistory
from app.core.monitor.timeline import ReplyOutcome, ReplySpan, SessionTimeline
from app.core.settings import MonitorSettings
from app.core.support.formatting import GIB, fill, format_bytes
from app.core.types.load import LoadConfig
from app.core.types.replies import ReplyDone
from app.core.types.stats import ReplyMetrics, StopReason
from app.ui.hardware_sampling import HardwareSampling
from app.ui.llm.worker import LlmWorker
from app.ui.monitor.files import MonitorFiles
from app.ui.monitor.timeline_plot import Series, TimelinePlot
from app.ui.state_signals import StateSignals
from app.ui.widgets import core_text
from app.ui.widgets.save_place import in_documents

log = logging.getLogger(__name__)

WINDOWS_S: tuple[float | None, ...] = (300.0, 1800.0, None)  # the last 5 minutes, 30 minutes, the whole session
MIN_SESSION_WINDOW_S = 60.0


class GpuPlots:
    """The three plots of one GPU."""

    def __init__(self, panel: MonitorPanel, gpu: GpuSnapshot) -> None:
        self.vram = TimelinePlot(
            fill(panel.tr("GPU {index} memory"), index=gpu.index), "GiB", panel, fixed_top=gpu.total / GIB
        )
        self.load = TimelinePlot(
            fill(panel.tr("GPU {index} use and temperature"), index=gpu.index), "% · °C", panel, fixed_top=100
        )
        self.power = TimelinePlot(fill(panel.tr("GPU {index} power"), index=gpu.index), "W", panel)
        self.vram.setToolTip(gpu.name)

    @property
    def plots(self) -> tuple[TimelinePlot, ...]:
        return self.vram, self.load, self.power


class MonitorPanel(QWidget):
    alertRaised = Signal(object)  # Alert: show it (AlertNotice.show_alert)
    alertCleared = Signal(object)  # Alert: its episode ended (AlertNotice.clear_alert)
    idleUnloadRequested = Signal(str)  # the idle-unload policy decided: unload the model, and tell the user this
    sampled = Signal(object)  # ResourceSample, after the panel (alerts, plots) has handled it
    exported = Signal(object, int)  # the CSV's path and its rows
    exportFailed = Signal(str)
    settingsRequested = Signal()  # the user asked for the alert thresholds (the shell opens MonitorSettingsDialog)

    def __init__(
        self,
        state_signals: StateSignals,
        sampling: HardwareSampling,
        llm_worker: LlmWorker | None = None,
        settings: MonitorSettings | None = None,
        history: SpeedHistory | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("MonitorPanel")
        settings = settings or MonitorSettings()
        self.clock = sampling.clock  # the samples' time axis is the timeline's
        self.timeline = SessionTimeline(self.clock)
        history = history if history is not None else SpeedHistory.default(autosave=False)
        self.alerts = AlertMonitor(settings.alert_thresholds(), history, self.clock)
        self.idle = IdleUnloadPolicy(settings.idle_unload_minutes, self.clock)
        self._state_signals = state_signals
        self._loaded: LoadConfig | None = None
        self._metrics: ReplyMetrics | None = None  # the reply's metrics, sent right before its end
        self.gpu_plots: list[GpuPlots] = []
        self._build()

        state_signals.changed.connect(self._on_state_changed)
        state_signals.streamingChanged.connect(self._on_streaming_changed)
        if llm_worker is not None:
            self.connect_llm_worker(llm_worker)
        self._on_state_changed()

        sampling.sampled.connect(self._on_sample)
        self._files = MonitorFiles(self.timeline, history)
        self._files.worker.exported.connect(self._on_exported)
        self._files.worker.exportFailed.connect(self._on_export_failed)
        self._files.start()

    # ---- layout ----------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.status_label = QLabel(self.tr("Waiting for the first sample…"), self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status_label)

        controls = QHBoxLayout()
        controls.addWidget(QLabel(self.tr("Show"), self))
        self.window_box = QComboBox(self)
        self.window_box.addItems([self.tr("Last 5 minutes"), self.tr("Last 30 minutes"), self.tr("Whole session")])
        self.window_box.currentIndexChanged.connect(self.refresh)
        controls.addWidget(self.window_box)
        controls.addStretch(1)
        self.settings_button = QPushButton(self.tr("Alerts…"), self)
        self.settings_button.setToolTip(self.tr("Alert thresholds, idle unload and smaller variants"))
        self.settings_button.clicked.connect(self.settingsRequested)
        controls.addWidget(self.settings_button)
        self.export_button = QPushButton(self.tr("Export CSV…"), self)
        self.export_button.setToolTip(self.tr("Save the whole session, one row per sample"))
        self.export_button.clicked.connect(self._on_export_clicked)
        controls.addWidget(self.export_button)
        layout.addLayout(controls)

        self.cpu_plot = TimelinePlot(self.tr("CPU"), "%", self, fixed_top=100)
        self.memory_plot = TimelinePlot(self.tr("Memory"), "GiB", self)
        for plot in (self.cpu_plot, self.memory_plot):
            plot.empty_text = self.tr("Samples appear here about once a second")
        body = QWidget(self)
        self._plots = QVBoxLayout(body)
        self._plots.setContentsMargins(0, 0, 0, 0)
        self._plots.addWidget(self.cpu_plot)
        self._plots.addWidget(self.memory_plot)
        self._plots.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        layout.addWidget(scroll, 1)

        self.export_label = QLabel(self)
        self.export_label.setWordWrap(True)
        self.export_label.setVisible(False)
        layout.addWidget(self.export_label)

    def plots(self) -> list[TimelinePlot]:
        return [self.cpu_plot, self.memory_plot, *(plot for gpu in self.gpu_plots for plot in gpu.plots)]

    # ---- wiring ------------------------------------------------------------------------

    def connect_llm_worker(self, worker: LlmWorker) -> None:
        """Follow the worker's replies: its `replyMetrics`, `finished` and `failed` signals."""
        worker.replyMetrics.connect(self._on_reply_metrics)
        worker.finished.connect(self._on_reply_finished)
        worker.failed.connect(self._on_reply_failed)

    def apply_settings(self, settings: MonitorSettings) -> None:
        """New thresholds and idle minutes (from the settings); an alert turned off ends at once."""
        self._tell(self.alerts.set_thresholds(settings.alert_thresholds()))
        self.idle.minutes = settings.idle_unload_minutes

    def observe_context(self, used: int, n_ctx: int) -> None:
        """How full the chat on show is (another chat opened, a window planned)."""
        self._tell(self.alerts.observe_context(used, n_ctx))

    def export_csv(self, path: Path) -> None:
        """Write the session's timeline to `path` in the panel's files thread; `exported` or `exportFailed` follows."""
        self.export_button.setEnabled(False)
        self._files.worker.exportRequested.emit(path)

    def request_stop(self) -> None:
        """Never waits; the hardware sampler is the window's and stops on its owner's word."""
        self._files.request_stop()

    def shutdown(self) -> None:
        """End the files thread, which saves the reply speeds last."""
        self._files.shutdown()

    # ---- the state and the replies ---------------------------------------------------------

    @Slot()
    def _on_state_changed(self) -> None:
        state = self._state_signals.state
        if state.is_closing:
            return
        config = state.loaded_config
        if config == self._loaded:
            return
        self._loaded = config
        self.idle.used()
        if config is None:
            self._tell(self.alerts.model_unloaded())
        else:
            self._tell(self.alerts.model_loaded(ModelRun(Path(config.model_path), config.n_gpu_layers)))

    @Slot(bool)
    def _on_streaming_changed(self, streaming: bool) -> None:
        self.idle.used()
        if streaming:
            self._metrics = None
            model = self._loaded.model_path.name if self._loaded is not None else ""
            self.timeline.reply_started(model)
            self.alerts.reply_started()
        elif self.timeline.open_reply is not None:  # it ended without a word from the worker (refused, lost)
            self.timeline.reply_ended(ReplyOutcome.STOPPED)
        self.refresh()

    @Slot(object)
    def _on_reply_metrics(self, metrics: ReplyMetrics) -> None:
        self._metrics = metrics

    @Slot(object)
    def _on_reply_finished(self, done: ReplyDone) -> None:
        stats = done.stats
        if stats.stop_reason is StopReason.ERROR:
            outcome = ReplyOutcome.FAILED
        elif stats.stop_reason is StopReason.USER:
            outcome = ReplyOutcome.STOPPED
        else:
            outcome = ReplyOutcome.FINISHED
        self.timeline.reply_ended(outcome, stats, stats.error)
        metrics = done.metrics if done.metrics is not None else self._metrics
        n_ctx = metrics.n_ctx if metrics is not None else 0
        used = metrics.context_used if metrics is not None else None
        self._tell(self.alerts.observe_reply(stats, n_ctx, used))
        self._files.worker.saveRequested.emit()  # the reply's speed, written off the GUI thread
        self._metrics = None
        self.refresh()

    @Slot(object)
    def _on_reply_failed(self, message: str) -> None:
        self.timeline.reply_ended(ReplyOutcome.FAILED, error=message)
        self._tell(self.alerts.observe_failure(message))
        self.refresh()

    # ---- samples -----------------------------------------------------------------------

    @Slot(object)
    def _on_sample(self, sample: ResourceSample) -> None:
        self.timeline.add(sample)
        state = self._state_signals.state
        if state.is_closing:
            return
        self._tell(self.alerts.observe_sample(sample))
        decision = self.idle.decide(
            loaded=state.loaded_model is not None,
            busy=state.is_streaming or state.is_loading,
            model_name=state.loaded_model.name if state.loaded_model is not None else "",
        )
        if decision.unload:
            log.info("%s", decision.message)
            self.idleUnloadRequested.emit(decision.message)
        self._ensure_gpu_plots(sample)
        self.status_label.setText(self.describe(sample))
        if self.isVisible():
            self.refresh()
        self.sampled.emit(sample)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()

    def _tell(self, changes: Sequence[AlertChange]) -> None:
        for change in changes:
            (self.alertRaised if change.raised else self.alertCleared).emit(change.alert)

    def _ensure_gpu_plots(self, sample: ResourceSample) -> None:
        known = len(self.gpu_plots)
        for gpu in sample.gpus[known:]:
            plots = GpuPlots(self, gpu)
            for plot in plots.plots:
                plot.empty_text = self.tr("Samples appear here about once a second")
                self._plots.insertWidget(self._plots.count() - 1, plot)
            self.gpu_plots.append(plots)

    # ---- drawing ---------------------------------------------------------------------------

    def time_window(self) -> tuple[float, float]:
        """The time window on show, in session seconds: it ends now (the latest sample), so the plots read
        back from the right edge ("now") to "10 min ago"; early in a session its left part is still empty."""
        latest = self.timeline.latest
        now = latest.t if latest is not None else 0.0
        length = WINDOWS_S[max(0, self.window_box.currentIndex())]
        if length is None:
            return min(0.0, now - MIN_SESSION_WINDOW_S), now
        return now - length, now

    @Slot()
    def refresh(self) -> None:
        low, high = self.time_window()
        samples = self.timeline.samples(since=low)
        spans = self.timeline.spans(since=low)
        window = (low, high)
        self.cpu_plot.set_data(
            [
                Series(self.tr("Glassbox"), _points(samples, lambda s: s.cpu_app_percent)),
                Series(self.tr("All programs"), _points(samples, lambda s: s.cpu_total_percent)),
            ],
            spans,
            window,
        )
        self.memory_plot.set_data(
            [
                Series(self.tr("Glassbox"), _points(samples, lambda s: _gib(s.ram_app))),
                Series(self.tr("Available"), _points(samples, lambda s: _gib(s.ram_available))),
                Series(self.tr("Swap"), _points(samples, lambda s: _gib(s.swap_used))),
            ],
            spans,
            window,
        )
        for index, plots in enumerate(self.gpu_plots):
            plots.vram.set_data(
                [
                    Series(self.tr("Glassbox"), _gpu_points(samples, index, lambda g: _gib(g.this_process))),
                    Series(self.tr("Other programs"), _gpu_points(samples, index, _others_gib)),
                ],
                spans,
                window,
            )
            plots.load.set_data(
                [
                    Series(self.tr("Use %"), _gpu_points(samples, index, lambda g: g.utilization_percent)),
                    Series(self.tr("°C"), _gpu_points(samples, index, lambda g: g.temperature_c)),
                ],
                spans,
                window,
            )
            plots.power.set_data(
                [Series(self.tr("Power"), _gpu_points(samples, index, lambda g: g.power_w))], spans, window
            )
        for plot in self.plots():
            plot.span_text = self.span_text

    def span_text(self, span: ReplySpan) -> str:
        """What hovering a reply shows."""
        lines = [
            fill(self.tr("Reply {number}"), number=span.number)
            + (f" · {span.model}" if span.model else "")
            + (fill(self.tr(" · {seconds} s"), seconds=f"{span.seconds:.1f}") if span.seconds is not None else "")
        ]
        outcomes = {
            ReplyOutcome.FINISHED: self.tr("finished"),
            ReplyOutcome.STOPPED: self.tr("stopped"),
            ReplyOutcome.FAILED: self.tr("failed"),
        }
        lines.append(outcomes[span.outcome] if span.outcome is not None else self.tr("being written"))
        if span.completion_tokens:
            lines.append(fill(self.tr("{tokens} tokens written"), tokens=f"{span.completion_tokens:,}"))
        if span.tokens_per_s is not None:
            lines.append(fill(self.tr("{speed} tokens/s"), speed=f"{span.tokens_per_s:.1f}"))
        if span.ttft_s is not None:
            lines.append(
                fill(
                    self.tr("first token after {ttft} s ({cached} of {prompt} prompt tokens cached)"),
                    ttft=f"{span.ttft_s:.2f}",
                    cached=f"{span.cached_prompt_tokens:,}",
                    prompt=f"{span.prompt_tokens:,}",
                )
            )
        if span.energy_j is not None:
            per_token = span.energy_per_token_j
            lines.append(
                fill(self.tr("GPU energy {energy} J"), energy=f"{span.energy_j:,.1f}")
                + (fill(self.tr(" ({per_token} J per token)"), per_token=f"{per_token:.2f}") if per_token else "")
            )
        if span.error:
            lines.append(span.error)
        return "\n".join(lines)

    def describe(self, sample: ResourceSample) -> str:
        """The latest sample in a few lines."""
        parts = []
        if sample.cpu_total_percent is not None and sample.cpu_app_percent is not None:
            parts.append(
                fill(
                    self.tr("CPU: Glassbox {app} %, all programs {total} %"),
                    app=f"{sample.cpu_app_percent:.0f}",
                    total=f"{sample.cpu_total_percent:.0f}",
                )
            )
        if sample.ram_available is not None and sample.ram_total is not None:
            parts.append(
                fill(
                    self.tr("RAM: Glassbox {app}, {available} available of {total}, swap {swap}"),
                    app=format_bytes(sample.ram_app or 0),
                    available=format_bytes(sample.ram_available),
                    total=format_bytes(sample.ram_total),
                    swap=format_bytes(sample.swap_used or 0),
                )
            )
        for gpu in sample.gpus:
            parts.append(self._describe_gpu(gpu))
        if sample.gpu_reason:
            parts.append(core_text.word(sample.gpu_reason))
        return "\n".join(parts)

    def _describe_gpu(self, gpu: GpuSnapshot) -> str:
        text = fill(
            self.tr("GPU {index}: {used} of {total} VRAM"),
            index=gpu.index,
            used=format_bytes(gpu.used),
            total=format_bytes(gpu.total),
        )
        if gpu.this_process is not None:
            text += fill(self.tr(" (Glassbox {app})"), app=format_bytes(gpu.this_process))
        extras = []
        if gpu.utilization_percent is not None:
            extras.append(fill(self.tr("{percent} % use"), percent=gpu.utilization_percent))
        if gpu.temperature_c is not None:
            extras.append(f"{gpu.temperature_c} °C")
        if gpu.power_w is not None:
            extras.append(f"{gpu.power_w:.0f} W")
        return ", ".join([text, *extras])

    # ---- export ------------------------------------------------------------------------------

    def _on_export_clicked(self) -> None:
        path = self.ask_export_path()
        if path is not None:
            self.export_csv(path)

    def ask_export_path(self) -> Path | None:
        name, _filter = QFileDialog.getSaveFileName(
            self,
            self.tr("Export the monitor timeline"),
            in_documents("glassbox-monitor.csv"),
            self.tr("CSV files (*.csv)"),
        )
        return Path(name) if name else None

    @Slot(object, int)
    def _on_exported(self, path: Path, rows: int) -> None:
        self.export_button.setEnabled(True)
        self.export_label.setText(fill(self.tr("Saved {rows} samples to {path}"), rows=rows, path=str(path)))
        self.export_label.setVisible(True)
        self.exported.emit(path, rows)

    @Slot(str)
    def _on_export_failed(self, message: str) -> None:
        self.export_button.setEnabled(True)
        self.export_label.setText(message)
        self.export_label.setVisible(True)
        self.exportFailed.emit(message)


def _gib(value: int | None) -> float | None:
    return None if value is None else value / GIB


def _others_gib(gpu: GpuSnapshot) -> float | None:
    return gpu.other_processes / GIB if gpu.this_process is not None else None


def _points(
    samples: Sequence[ResourceSample], read: Callable[[ResourceSample], float | int | None]
) -> list[tuple[float, float]]:
    """(t, value) for the samples that have the value: a reading not measured is left out, never drawn as 0."""
    return [(sample.t, float(value)) for sample in samples if (value := read(sample)) is not None]


def _gpu_points(
    samples: Sequence[ResourceSample], index: int, read: Callable[[GpuSnapshot], float | int | None]
) -> list[tuple[float, float]]:
    points = []
    for sample in samples:
        gpu = next((g for g in sample.gpus if g.index == index), None)
        if gpu is not None and (value := read(gpu)) is not None:
            points.append((sample.t, float(value)))
    return points
