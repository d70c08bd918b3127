"""The GPU offload panel: how many layers go to the GPU, what that costs, and what really happened.

A slider picks n_gpu_layers (0 … all) over coloured ranges (fits / tight / will not fit)
with the recommended maximum marked; a readout shows the plan as the slider or the
context length moves; bars show each GPU's VRAM (this app / other processes / free)
and RAM, refreshed about once a second by a poller in its own thread. Apply asks the
main window to save the settings and reload the model; after the load the plan is compared
with what NVML measured, and the difference is kept to correct the next plan for that file.
The slider and the context length start from the saved settings (`show_settings`), the
same values the settings panel shows, and stay within their bounds.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QObject, QRect, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QStyle,
    QStyleOptionSlider,
    QVBoxLayout,
    QWidget,
)

from app.core.memory.calibration import CalibrationStore, PlanCheck, measure_after_load
from app.core.inference.engine import LoadConfig, LoadReport
from app.core.models.gguf_info import GgufInfo, GgufInfoError, read_gguf_info
from app.core.memory.hardware import GpuSnapshot, GpuState, HardwareMonitor, HardwareSnapshot
from app.core.memory.planner import (
    DEFAULT_RUNTIME_OVERHEAD,
    DEFAULT_SAFETY_MARGIN,
    GIB,
    MIB,
    ContextSettings,
    Fit,
    MemoryPlan,
    MemoryPlanner,
)
from app.core.memory.fallback import FallbackResult, FallbackStep
from app.core.support.formatting import format_bytes
from app.core.settings import GPU_LAYERS_FIELD, MODEL_FIELDS, ModelSettings
from app.ui.threads import start_worker_thread, stop_thread

log = logging.getLogger(__name__)

POLL_INTERVAL_MS = 1000
FIT_COLOURS = {Fit.FITS: QColor("#3a9d5d"), Fit.TIGHT: QColor("#e0a030"), Fit.WONT_FIT: QColor("#d9534f")}
APP_COLOUR, OTHERS_COLOUR, FREE_COLOUR = QColor("#4a7fd4"), QColor("#9a9a9a"), QColor("#e6e6e6")
CONTEXT_STEP = 256
MIN_CONTEXT, MAX_CONTEXT = int(MODEL_FIELDS["n_ctx"].minimum), int(MODEL_FIELDS["n_ctx"].maximum)
MAX_LAYERS = int(GPU_LAYERS_FIELD.maximum)


# ---- the poller (its own thread) ---------------------------------------------------


@dataclass(frozen=True)
class ModelMemory:
    """A model file's header and this machine's calibration for it."""

    path: Path
    info: GgufInfo
    correction: int


@dataclass(frozen=True)
class MeasureRequest:
    model_path: Path
    n_gpu_layers: int
    n_ctx: int
    planned: int  # the plan shown, with calibration
    planned_raw: int  # the same plan without calibration (what the record compares against)
    before: HardwareSnapshot | None


@dataclass(frozen=True)
class MeasuredLoad:
    request: MeasureRequest
    check: PlanCheck
    correction: int  # the file's correction after this measurement


class HardwareWorker(QObject):
    """Polls the hardware monitor, reads model headers, measures loads; lives in its own thread."""

    snapshotReady = Signal(object)  # HardwareSnapshot
    modelReady = Signal(object)  # ModelMemory
    modelFailed = Signal(str)
    loadMeasured = Signal(object)  # MeasuredLoad

    startRequested = Signal()
    stopRequested = Signal()
    modelRequested = Signal(object)  # Path
    measureRequested = Signal(object)  # MeasureRequest

    def __init__(self, monitor: HardwareMonitor, calibration: CalibrationStore, interval_ms: int) -> None:
        super().__init__()
        self._monitor = monitor
        self._calibration = calibration
        self._interval_ms = interval_ms
        self._timer: QTimer | None = None
        self.startRequested.connect(self._start)
        self.stopRequested.connect(self._stop, Qt.ConnectionType.BlockingQueuedConnection)
        self.modelRequested.connect(self._read_model)
        self.measureRequested.connect(self._measure)

    @Slot()
    def _start(self) -> None:
        self._timer = QTimer(self)
        self._timer.setInterval(self._interval_ms)
        self._timer.timeout.connect(self._poll)
        self._timer.start()
        self._poll()

    @Slot()
    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._monitor.close()

    @Slot()
    def _poll(self) -> None:
        self.snapshotReady.emit(self._monitor.snapshot())

    @Slot(object)
    def _read_model(self, path: Path) -> None:
        try:
            info = read_gguf_info(path)
        except GgufInfoError as error:
            log.warning("GPU panel cannot plan for %s: %s", path, error)
            self.modelFailed.emit(str(error))
            return
        self.modelReady.emit(ModelMemory(path, info, self._correction(path)))

    @Slot(object)
    def _measure(self, request: MeasureRequest) -> None:
        after = self._monitor.snapshot()
        self.snapshotReady.emit(after)
        check = measure_after_load(request.planned, request.before, after)
        if check.measured is not None:
            try:
                self._calibration.record(
                    request.model_path, request.n_gpu_layers, request.n_ctx, request.planned_raw, check.measured
                )
            except OSError as error:
                log.warning("Could not save the VRAM calibration: %s", error)
        self.loadMeasured.emit(MeasuredLoad(request, check, self._correction(request.model_path)))

    def _correction(self, path: Path) -> int:
        try:
            return self._calibration.correction(path)
        except OSError as error:
            log.warning("Could not read the VRAM calibration: %s", error)
            return 0


# ---- widgets -------------------------------------------------------------------------


class MemoryBar(QWidget):
    """One horizontal bar of segments (bytes, colour) over a total, with a caption inside."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(20)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.total = 0
        self.segments: list[tuple[int, QColor]] = []
        self.caption = ""

    def set_segments(self, total: int, segments: list[tuple[int, QColor]], caption: str, tooltip: str) -> None:
        self.total, self.segments, self.caption = total, segments, caption
        self.setToolTip(tooltip)
        self.update()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        area = self.rect().adjusted(0, 0, -1, -1)
        painter.fillRect(area, FREE_COLOUR)
        x = area.left()
        for size, colour in self.segments:
            width = round(area.width() * size / self.total) if self.total else 0
            painter.fillRect(QRect(x, area.top(), width, area.height()), colour)
            x += width
        painter.setPen(QPen(QColor("#707070")))
        painter.drawRect(area)
        painter.setPen(QPen(QColor("#202020")))
        painter.drawText(area.adjusted(6, 0, -6, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.caption)
        painter.end()


class LayerSlider(QSlider):
    """A slider over 0 … all layers with its fit ranges painted under the groove and the
    recommended value marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.setMinimumHeight(34)
        self.fits: list[Fit] = []  # one per value 0 … maximum
        self.recommended: int | None = None

    def set_fits(self, fits: list[Fit], recommended: int | None) -> None:
        if fits != self.fits or recommended != self.recommended:
            self.fits, self.recommended = fits, recommended
            self.update()

    def ranges(self) -> list[tuple[int, int, Fit]]:
        """Runs of equal fit: (first value, last value, fit)."""
        runs: list[tuple[int, int, Fit]] = []
        for value, fit in enumerate(self.fits):
            if runs and runs[-1][2] is fit:
                runs[-1] = (runs[-1][0], value, fit)
            else:
                runs.append((value, value, fit))
        return runs

    def _x_for(self, value: float, option: QStyleOptionSlider) -> int:
        groove = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, self)
        handle = self.style().subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, self)
        span = groove.width() - handle.width()
        if self.maximum() == self.minimum():
            return groove.left() + handle.width() // 2
        fraction = (value - self.minimum()) / (self.maximum() - self.minimum())
        return groove.left() + handle.width() // 2 + round(fraction * span)

    def paintEvent(self, event: QPaintEvent) -> None:
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        painter = QPainter(self)
        band_top = self.height() - 7
        for first, last, fit in self.ranges():
            left = self._x_for(first - 0.5 if first > 0 else first, option)
            right = self._x_for(last + 0.5 if last < self.maximum() else last, option)
            painter.fillRect(QRect(left, band_top, max(1, right - left), 5), FIT_COLOURS[fit])
        if self.recommended is not None:
            x = self._x_for(self.recommended, option)
            painter.setPen(QPen(QColor("#202020"), 2))
            painter.drawLine(x, band_top - 4, x, self.height() - 1)
        painter.end()
        super().paintEvent(event)


# ---- the panel -------------------------------------------------------------------------


class GpuPanel(QWidget):
    """GPU layers, the memory plan, live VRAM/RAM bars, Apply, and the check after loading."""

    applyRequested = Signal(object)  # LoadConfig: reload the model with these settings

    def __init__(
        self,
        llm_worker: QObject | None = None,
        monitor: HardwareMonitor | None = None,
        calibration: CalibrationStore | None = None,
        poll_interval_ms: int = POLL_INTERVAL_MS,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.snapshot: HardwareSnapshot | None = None
        self.planner: MemoryPlanner | None = None
        self.config: LoadConfig | None = None  # the settings of the model now loaded
        self.margin = DEFAULT_SAFETY_MARGIN
        self._model: ModelMemory | None = None
        self._before_load: HardwareSnapshot | None = None
        self._unmeasured: LoadConfig | None = None  # a load whose VRAM is still to be compared with the plan
        self._load_running = False
        self._saved: ModelSettings | None = None  # the saved settings last shown
        self._build()

        self._hardware = HardwareWorker(monitor or HardwareMonitor(), calibration or CalibrationStore(), poll_interval_ms)
        self._hardware.snapshotReady.connect(self._on_snapshot)
        self._hardware.modelReady.connect(self._on_model_ready)
        self._hardware.modelFailed.connect(self._on_model_failed)
        self._hardware.loadMeasured.connect(self._on_load_measured)
        self._thread: QThread | None = start_worker_thread(self._hardware, "hardware-poller")
        self._hardware.startRequested.emit()
        if llm_worker is not None:
            self.connect_llm_worker(llm_worker)

    # ---- layout ----------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.status_label = QLabel(self.tr("Looking for GPUs…"), self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status_label)

        self.gpu_bars_box = QVBoxLayout()
        self.gpu_bars: list[MemoryBar] = []
        layout.addLayout(self.gpu_bars_box)
        self.ram_bar = MemoryBar(self)
        layout.addWidget(self.ram_bar)

        self.model_label = QLabel(self.tr("No model loaded yet."), self)
        self.model_label.setWordWrap(True)
        layout.addWidget(self.model_label)

        form = QFormLayout()
        slider_row = QHBoxLayout()
        self.slider = LayerSlider(self)
        self.slider.setRange(0, 0)
        self.slider.setToolTip(self.tr("Layers to put on the GPU; the rightmost value also moves the output head"))
        self.slider.valueChanged.connect(self._update_readout)
        self.layers_label = QLabel(self)
        self.layers_label.setMinimumWidth(90)
        self.auto_box = QCheckBox(self.tr("Auto"), self)
        self.auto_box.setToolTip(self.tr("Use the most layers that fit, with a safety margin"))
        self.auto_box.toggled.connect(self._on_auto_toggled)
        slider_row.addWidget(self.slider, 1)
        slider_row.addWidget(self.layers_label)
        slider_row.addWidget(self.auto_box)
        form.addRow(self.tr("GPU layers"), slider_row)

        self.recommended_label = QLabel(self)
        self.recommended_label.setWordWrap(True)
        form.addRow("", self.recommended_label)
        legend = QLabel(self)
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setText(
            " ".join(
                f'<span style="color:{FIT_COLOURS[fit].name()}">■</span> {text}'
                for fit, text in ((Fit.FITS, self.tr("fits")), (Fit.TIGHT, self.tr("tight")), (Fit.WONT_FIT, self.tr("will not fit")))
            )
        )
        form.addRow("", legend)

        self.context_box = QSpinBox(self)
        self.context_box.setRange(MIN_CONTEXT, MAX_CONTEXT)
        self.context_box.setSingleStep(CONTEXT_STEP)
        self.context_box.setSuffix(self.tr(" tokens"))
        self.context_box.setToolTip(self.tr("Context length (n_ctx): the KV cache grows with it"))
        self.context_box.valueChanged.connect(self._update_readout)
        form.addRow(self.tr("Context"), self.context_box)
        layout.addLayout(form)

        self.readout = QLabel(self)
        self.readout.setWordWrap(True)
        self.readout.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.readout)

        apply_row = QHBoxLayout()
        self.apply_button = QPushButton(self.tr("Apply"), self)
        self.apply_button.setToolTip(self.tr("Reload the model with these settings"))
        self.apply_button.clicked.connect(self.apply)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 100)
        self.progress.hide()
        apply_row.addWidget(self.apply_button)
        apply_row.addWidget(self.progress, 1)
        layout.addLayout(apply_row)

        self.notice = QLabel(self)
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #8a5a00;")
        self.notice.hide()
        layout.addWidget(self.notice)

        self.check_label = QLabel(self)
        self.check_label.setWordWrap(True)
        self.check_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.check_label)
        layout.addStretch(1)
        self._update_controls()

    # ---- wiring to the LLM worker ------------------------------------------------------

    def connect_llm_worker(self, worker: QObject) -> None:
        """Follow the worker's loads: progress, the loaded settings, fallbacks, failures."""
        worker.loadProgress.connect(self._on_load_progress)
        worker.loaded.connect(self._on_loaded)
        worker.loadFailed.connect(self._on_load_failed)
        worker.loadFallbackStep.connect(self._on_fallback_step)
        worker.loadFellBack.connect(self._on_fell_back)

    def shutdown(self) -> None:
        """Stop the poller thread (called by the main window on exit)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._hardware.stopRequested.emit()
        if not stop_thread(thread):
            log.error("The hardware poller did not stop in time")

    # ---- model and settings ------------------------------------------------------------

    def set_loaded_config(self, config: LoadConfig) -> None:
        """Show the plan for the model that is (being) loaded with `config`."""
        self.config = config
        self.context_box.blockSignals(True)
        self.context_box.setValue(config.n_ctx)
        self.context_box.blockSignals(False)
        if self._model is None or self._model.path != Path(config.model_path):
            self._hardware.modelRequested.emit(Path(config.model_path))
        else:
            self._set_slider_value(config.n_gpu_layers)
            self._update_readout()
            self._measure_unmeasured()

    def show_settings(self, model: ModelSettings) -> None:
        """Show the saved load settings (what the next load uses) where they changed since last shown;
        a value being tried out here and not applied stays while its setting is unchanged."""
        saved, self._saved = self._saved, model
        if saved is None or saved.n_ctx != model.n_ctx:
            self.context_box.setMaximum(max(self.context_box.maximum(), model.n_ctx))
            self.context_box.setValue(model.n_ctx)
        if saved is None or saved.n_gpu_layers != model.n_gpu_layers:
            self._set_slider_value(model.n_gpu_layers)

    def selected_config(self) -> LoadConfig | None:
        if self.config is None:
            return None
        return replace(self.config, n_ctx=self.context_box.value(), n_gpu_layers=self.slider.value())

    def context_settings(self) -> ContextSettings:
        n_batch = self.config.n_batch if self.config is not None else 512
        return ContextSettings.for_load(self.context_box.value(), n_batch)

    def current_plan(self) -> MemoryPlan | None:
        if self.planner is None:
            return None
        return self.planner.plan(self.slider.value(), self.context_settings(), gpu=self._gpu_usable())

    def recommended_layers(self) -> int:
        if self.planner is None or not self._gpu_usable():
            return 0
        return self.planner.recommend(self.context_settings(), self._free_vram(), self.margin)

    @Slot()
    def apply(self) -> None:
        config = self.selected_config()
        if config is None:
            return
        self.notice.hide()
        self._begin_load()
        self.applyRequested.emit(config)

    # ---- slots ----------------------------------------------------------------------------

    @Slot(object)
    def _on_snapshot(self, snapshot: HardwareSnapshot) -> None:
        self.snapshot = snapshot
        self._show_hardware(snapshot)
        if self.planner is not None:
            self.planner.runtime_overhead = DEFAULT_RUNTIME_OVERHEAD * max(1, len(snapshot.gpus))
        self._update_readout()
        self._update_controls()

    @Slot(object)
    def _on_model_ready(self, model: ModelMemory) -> None:
        if self.config is None or Path(self.config.model_path) != model.path:
            return  # an answer for a model that is no longer current
        self._model = model
        gpus = len(self.snapshot.gpus) if self.snapshot is not None and self.snapshot.gpus else 1
        self.planner = MemoryPlanner(model.info, DEFAULT_RUNTIME_OVERHEAD * gpus, model.correction)
        info = model.info
        self.model_label.setText(
            self.tr("{name}: {arch}, {layers} layers, {quant}, {size}")
            .replace("{name}", model.path.name)
            .replace("{arch}", info.architecture)
            .replace("{layers}", str(info.block_count))
            .replace("{quant}", info.file_type)
            .replace("{size}", format_bytes(info.tensor_bytes))
        )
        self.slider.blockSignals(True)
        self.slider.setRange(0, min(self.planner.max_gpu_layers, MAX_LAYERS))
        self.slider.blockSignals(False)
        saved_n_ctx = self._saved.n_ctx if self._saved is not None else MIN_CONTEXT
        self.context_box.setMaximum(min(max(info.context_length, self.config.n_ctx, saved_n_ctx), MAX_CONTEXT))
        self._set_slider_value(self.config.n_gpu_layers)
        self._update_readout()
        self._update_controls()
        self._measure_unmeasured()

    @Slot(str)
    def _on_model_failed(self, message: str) -> None:
        self._model = None
        self.planner = None
        self.model_label.setText(self.tr("No memory plan: {error}").replace("{error}", message))
        self._update_readout()
        self._update_controls()

    def _begin_load(self) -> None:
        """A load is on its way: busy until it ends; remember the GPU as it was before it."""
        self._load_running = True
        self._before_load = self.snapshot
        self.check_label.clear()
        self.progress.setValue(0)
        self.progress.show()
        self._update_controls()

    @Slot(float)
    def _on_load_progress(self, fraction: float) -> None:
        if not self._load_running:
            self._begin_load()  # a load the main window started (model picker)
        self.progress.setValue(int(fraction * 100))

    @Slot(object)
    def _on_loaded(self, report: LoadReport) -> None:
        self._load_running = False
        self.progress.hide()
        self._unmeasured = report.config
        self.set_loaded_config(report.config)
        self._update_controls()

    @Slot(str)
    def _on_load_failed(self, message: str) -> None:
        self._load_running = False
        self.progress.hide()
        self.notice.setText(self.tr("Loading failed: {error}").replace("{error}", message))
        self.notice.show()
        self._update_controls()

    @Slot(object)
    def _on_fallback_step(self, step: FallbackStep) -> None:
        self.notice.setText(step.message)
        self.notice.show()

    @Slot(object)
    def _on_fell_back(self, result: FallbackResult) -> None:
        self.auto_box.setChecked(False)
        self.notice.setText(result.message)
        self.notice.show()

    @Slot(object)
    def _on_load_measured(self, measured: MeasuredLoad) -> None:
        check = measured.check
        if self._model is not None and self._model.path == measured.request.model_path and self.planner is not None:
            self._model = replace(self._model, correction=measured.correction)
            self.planner.correction = measured.correction
            self._update_readout()
        if check.measured is None:
            self.check_label.setText(
                self.tr("After loading: planned {planned} on the GPU; not measured ({reason})")
                .replace("{planned}", format_bytes(check.planned))
                .replace("{reason}", check.reason.rstrip("."))
            )
            return
        self.check_label.setText(
            self.tr("After loading: planned {planned} on the GPU, measured {measured} ({source}), {error}. "
                    "The next estimate for this file includes the difference.")
            .replace("{planned}", format_bytes(check.planned))
            .replace("{measured}", format_bytes(check.measured))
            .replace("{source}", check.source)
            .replace("{error}", self.tr("plan off by {percent}%").replace("{percent}", f"{check.error_percent:+.1f}"))
        )

    @Slot(bool)
    def _on_auto_toggled(self, _checked: bool) -> None:
        self._update_readout()
        self._update_controls()

    # ---- display ----------------------------------------------------------------------------

    def _gpu_usable(self) -> bool:
        return self.snapshot is not None and self.snapshot.can_offload

    def _free_vram(self) -> int:
        return self.snapshot.vram_available_to_app if self.snapshot is not None else 0

    def _set_slider_value(self, n_gpu_layers: int) -> None:
        maximum = self.slider.maximum()
        self.slider.setValue(maximum if n_gpu_layers < 0 else min(n_gpu_layers, maximum))

    def _measure_unmeasured(self) -> None:
        """Once the plan for the loaded model is known, ask the poller to measure the load."""
        config, self._unmeasured = self._unmeasured, None
        if config is None or self.planner is None:
            return
        if config.n_gpu_layers == 0 or not self._gpu_usable():
            self.check_label.clear()
            return
        context = ContextSettings.for_load(config.n_ctx, config.n_batch)
        planned = self.planner.plan(config.n_gpu_layers, context).gpu_total
        raw = replace(self.planner, correction=0).plan(config.n_gpu_layers, context).gpu_total
        self._hardware.measureRequested.emit(
            MeasureRequest(Path(config.model_path), config.n_gpu_layers, config.n_ctx, planned, raw, self._before_load)
        )

    def _update_readout(self) -> None:
        if self.planner is None:
            self.readout.setText("")
            self.layers_label.setText("")
            self.recommended_label.setText("")
            self.slider.set_fits([], None)
            return
        context = self.context_settings()
        usable = self._gpu_usable()
        recommended = self.recommended_layers()
        if self.auto_box.isChecked() and usable and self.slider.value() != recommended:
            self.slider.setValue(recommended)  # re-enters through valueChanged
            return
        free = self._free_vram()
        if usable:
            fits = [plan.fit(free, self.margin) for plan in self.planner.plans(context)]
            self.slider.set_fits(fits, recommended)
        else:
            self.slider.set_fits([], None)
        value = self.slider.value()
        self.layers_label.setText(
            self.tr("{n} of {all}").replace("{n}", str(value)).replace("{all}", str(self.planner.max_gpu_layers))
        )
        plan = self.planner.plan(value, context, gpu=usable)
        self.readout.setText(self._readout_text(plan, free, usable))
        self.readout.setToolTip(self._breakdown(plan))
        if usable:
            self.recommended_label.setText(
                self.tr("Recommended: {n} layers (keeps {margin} free)")
                .replace("{n}", str(recommended))
                .replace("{margin}", format_bytes(self.margin))
            )
        else:
            self.recommended_label.setText(self.tr("No GPU to offload to: everything runs on the CPU."))

    def _readout_text(self, plan: MemoryPlan, free: int, usable: bool) -> str:
        if not usable:
            return (
                self.tr("In RAM {ram} (weights {weights}, KV cache {kv})")
                .replace("{ram}", format_bytes(plan.cpu_total))
                .replace("{weights}", format_bytes(plan.cpu_weights))
                .replace("{kv}", format_bytes(plan.cpu_kv))
            )
        return (
            self.tr("On GPU {gpu} (weights {weights}, KV cache {kv}), in RAM {ram}, free VRAM after load {free}")
            .replace("{gpu}", format_bytes(plan.gpu_total))
            .replace("{weights}", format_bytes(plan.gpu_weights))
            .replace("{kv}", format_bytes(plan.gpu_kv))
            .replace("{ram}", format_bytes(plan.cpu_total))
            .replace("{free}", format_bytes(free - plan.gpu_total))
        )

    def _breakdown(self, plan: MemoryPlan) -> str:
        rows = [
            (self.tr("GPU weights"), plan.gpu_weights),
            (self.tr("GPU KV cache"), plan.gpu_kv),
            (self.tr("GPU compute buffer (estimate)"), plan.gpu_compute),
            (self.tr("CUDA runtime and calibration"), plan.gpu_overhead),
            (self.tr("RAM weights (memory-mapped)"), plan.cpu_weights),
            (self.tr("RAM KV cache"), plan.cpu_kv),
            (self.tr("RAM compute and output buffers"), plan.cpu_compute),
        ]
        return "\n".join(f"{name}: {format_bytes(size)}" for name, size in rows)

    def _show_hardware(self, snapshot: HardwareSnapshot) -> None:
        lines = []
        if snapshot.state is GpuState.AVAILABLE:
            names = ", ".join(gpu.name for gpu in snapshot.gpus)
            lines.append(self.tr("GPU: {names} (driver {driver})").replace("{names}", names).replace("{driver}", snapshot.driver_version))
        else:
            lines.append(snapshot.reason)
        if not snapshot.offload.supported and snapshot.offload.hint:
            lines.append(snapshot.offload.hint)
        self.status_label.setText("\n".join(lines))
        while len(self.gpu_bars) < len(snapshot.gpus):
            bar = MemoryBar(self)
            self.gpu_bars.append(bar)
            self.gpu_bars_box.addWidget(bar)
        while len(self.gpu_bars) > len(snapshot.gpus):
            self.gpu_bars.pop().deleteLater()
        for bar, gpu in zip(self.gpu_bars, snapshot.gpus):
            self._show_gpu(bar, gpu)
        ram = snapshot.ram
        if ram is not None:
            self.ram_bar.set_segments(
                ram.total,
                [(ram.process_rss, APP_COLOUR), (ram.other_used, OTHERS_COLOUR)],
                self.tr("RAM: this app {app} · others {others} · available {free} of {total}")
                .replace("{app}", format_bytes(ram.process_rss))
                .replace("{others}", format_bytes(ram.other_used))
                .replace("{free}", format_bytes(ram.available))
                .replace("{total}", format_bytes(ram.total)),
                self.tr("System memory; models are memory-mapped, so their pages count once they are read"),
            )

    def _show_gpu(self, bar: MemoryBar, gpu: GpuSnapshot) -> None:
        own = gpu.this_process or 0
        app_text = format_bytes(own) if gpu.this_process is not None else self.tr("unknown")
        caption = (
            self.tr("GPU {index}: this app {app} · others {others} · free {free} of {total}")
            .replace("{index}", str(gpu.index))
            .replace("{app}", app_text)
            .replace("{others}", format_bytes(gpu.other_processes))
            .replace("{free}", format_bytes(gpu.free))
            .replace("{total}", format_bytes(gpu.total))
        )
        utilisation = "" if gpu.utilization_percent is None else f" · {gpu.utilization_percent}% busy"
        bar.set_segments(gpu.total, [(own, APP_COLOUR), (gpu.other_processes, OTHERS_COLOUR)], caption, gpu.name + utilisation)

    def _update_controls(self) -> None:
        ready = self.planner is not None and self.config is not None
        usable = self._gpu_usable()
        self.slider.setEnabled(ready and usable and not self.auto_box.isChecked())
        self.auto_box.setEnabled(ready and usable)
        self.context_box.setEnabled(ready)
        self.apply_button.setEnabled(ready and not self._load_running)
