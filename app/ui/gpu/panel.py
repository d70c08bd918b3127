"""The GPU offload panel: how many layers go to the GPU, what that costs, and what really happened.

A slider picks n_gpu_layers (0 … all) over coloured ranges (fits / tight / will not fit)
with the recommended maximum marked; a readout shows the plan as the slider or the
context length moves; bars show each GPU's VRAM (this app / other processes / free)
and RAM, refreshed by each sample of the window's one hardware sampler (app.ui.hardware_sampling). Apply asks the
main window to save the settings and reload the model; after the load the plan is compared
with what NVML measured, and the difference is kept to correct the next plan for that file.
The slider and the context length start from the saved settings (`show_settings`), the
same values the settings panel shows, and stay within their bounds.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.memory.calibration import CalibrationStore
from app.core.memory.fallback import FallbackResult, FallbackStep
from app.core.memory.hardware import GpuSnapshot, GpuState, HardwareSnapshot
from app.core.memory.planner import (
    DEFAULT_RUNTIME_OVERHEAD,
    DEFAULT_SAFETY_MARGIN,
    ContextSettings,
    Headroom,
    MemoryPlan,
    MemoryPlanner,
)
from app.core.memory.projector_memory import projector_memory
from app.core.monitor.samples import ResourceSample
from app.core.settings import GPU_LAYERS_FIELD, MODEL_FIELDS, ModelSettings
from app.core.support.byte_parts import ShownSizes, shown_sizes
from app.core.support.formatting import fill, format_bytes
from app.core.types.load import LoadConfig, LoadReport
from app.ui.gpu.jobs import GpuJobs, MeasuredLoad, MeasureRequest, ModelMemory
from app.ui.gpu.memory_bars import MemoryBar
from app.ui.gpu.offload_slider import LayerSlider, zone_colour
from app.ui.hardware_sampling import HardwareSampling
from app.ui.llm.worker import LlmWorker
from app.ui.widgets import core_text
from app.ui.widgets.theme import Tone, colours, set_tone

CONTEXT_STEP = 256
MIN_CONTEXT, MAX_CONTEXT = int(MODEL_FIELDS["n_ctx"].minimum), int(MODEL_FIELDS["n_ctx"].maximum)
MAX_LAYERS = int(GPU_LAYERS_FIELD.maximum)


class GpuPanel(QWidget):
    """GPU layers, the memory plan, live VRAM/RAM bars, Apply, and the check after loading."""

    applyRequested = Signal(object)  # LoadConfig: reload the model with these settings

    def __init__(
        self,
        sampling: HardwareSampling,
        llm_worker: LlmWorker | None = None,
        calibration: CalibrationStore | None = None,
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
        self._measuring: MeasureRequest | None = None  # waits for the first sample taken after the load
        self._load_running = False
        self._saved: ModelSettings | None = None  # the saved settings last shown
        self._parallel = 1  # the API server's parallel slots on the loaded model (1: none): their KV is planned
        self._build()

        self._sampling = sampling
        sampling.sampled.connect(self._on_sample)
        self._jobs = GpuJobs(calibration or CalibrationStore())
        self._jobs.worker.modelReady.connect(self._on_model_ready)
        self._jobs.worker.modelFailed.connect(self._on_model_failed)
        self._jobs.worker.loadMeasured.connect(self._on_load_measured)
        self._jobs.start()
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
        self.slider.setAccessibleName(self.tr("GPU layers"))
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
        self.layers_title = QLabel(self.tr("GPU layers"), self)
        form.addRow(self.layers_title, slider_row)

        self.recommended_label = QLabel(self)
        self.recommended_label.setWordWrap(True)
        form.addRow("", self.recommended_label)
        legend = QLabel(self)
        legend.setTextFormat(Qt.TextFormat.RichText)
        legend.setText(
            " ".join(
                f'<span style="color:{zone_colour(fit).name()}">■</span> {text}'
                for fit, text in (
                    (Headroom.FITS, self.tr("fits")),
                    (Headroom.TIGHT, self.tr("tight")),
                    (Headroom.WONT_FIT, self.tr("will not fit")),
                )
            )
        )
        form.addRow("", legend)
        self.legend = legend
        # Shown only where there is a GPU to offload to (see _show_hardware).
        self._gpu_only: tuple[QWidget, ...] = (self.layers_title, self.slider, self.layers_label, self.auto_box, legend)

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
        set_tone(self.notice, Tone.WARNING, small=False)
        self.notice.hide()
        layout.addWidget(self.notice)

        self.check_label = QLabel(self)
        self.check_label.setWordWrap(True)
        self.check_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.check_label)
        layout.addStretch(1)
        self._update_controls()

    # ---- wiring to the LLM worker ------------------------------------------------------

    def connect_llm_worker(self, worker: LlmWorker) -> None:
        """Follow the worker's loads: progress, the loaded settings, fallbacks, failures."""
        worker.loadProgress.connect(self._on_load_progress)
        worker.loaded.connect(self._on_loaded)
        worker.loadFailed.connect(self._on_load_failed)
        worker.loadCancelled.connect(self._on_load_cancelled)
        worker.loadFallbackStep.connect(self._on_fallback_step)
        worker.loadFellBack.connect(self._on_fell_back)

    def request_stop(self) -> None:
        """Ask the panel's jobs thread to end; never waits (the main window's exit sets every flag first).
        The hardware sampler is the window's: it stops on its own owner's word."""
        self._jobs.request_stop()

    def shutdown(self) -> None:
        """Stop the panel's jobs thread and wait for it."""
        self._jobs.shutdown()

    # ---- model and settings ------------------------------------------------------------

    def set_loaded_config(self, config: LoadConfig) -> None:
        """Show the plan for the model that is (being) loaded with `config`."""
        self.config = config
        self.context_box.blockSignals(True)
        self.context_box.setValue(config.n_ctx)
        self.context_box.blockSignals(False)
        model = self._model
        if model is None or model.path != Path(config.model_path) or model.mmproj != config.mmproj:
            self._jobs.worker.modelRequested.emit(Path(config.model_path), config.mmproj)
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
        if saved is not None and saved.context_settings() != model.context_settings():
            self._update_readout()  # the cache types or micro-batch changed what the plan needs

    def _planned_config(self) -> LoadConfig:
        """The load the plan is for: the saved load options (else the loaded model's) with this
        panel's context and layers."""
        path = Path(self.config.model_path) if self.config is not None else Path()
        base = self._saved.load_config(path) if self._saved is not None else self.config or LoadConfig(path)
        return replace(base, n_ctx=self.context_box.value(), n_gpu_layers=self.slider.value())

    def selected_config(self) -> LoadConfig | None:
        if self.config is None:
            return None
        return self._planned_config()

    def context_settings(self) -> ContextSettings:
        return replace(ContextSettings.for_config(self._planned_config()), parallel=self._parallel)

    def set_parallel(self, count: int) -> None:
        """The API server writes `count` replies at once in parallel slots (1: none): the plan counts their KV."""
        if count != self._parallel:
            self._parallel = max(1, count)
            self._update_readout()

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
    def _on_sample(self, sample: ResourceSample) -> None:
        snapshot = sample.hardware
        self.snapshot = snapshot
        self._show_hardware(snapshot)
        if self.planner is not None:
            self.planner.runtime_overhead = DEFAULT_RUNTIME_OVERHEAD * max(1, len(snapshot.gpus))
        self._update_readout()
        self._update_controls()
        measuring = self._measuring
        if measuring is not None and sample.t >= measuring.asked_at:  # taken after the load: it measures it
            self._measuring = None
            self._jobs.worker.measureRequested.emit(measuring, snapshot)

    @Slot(object)
    def _on_model_ready(self, model: ModelMemory) -> None:
        if self.config is None or Path(self.config.model_path) != model.path:
            return  # an answer for a model that is no longer current
        self._model = model
        gpus = len(self.snapshot.gpus) if self.snapshot is not None and self.snapshot.gpus else 1
        flash_attn = self.config.flash_attn
        projector = projector_memory(model.projector, flash_attn) if model.projector is not None else None
        self.planner = MemoryPlanner(model.info, DEFAULT_RUNTIME_OVERHEAD * gpus, model.correction, projector)
        info = model.info
        self.model_label.setText(
            fill(
                self.tr("{name}: {arch}, {layers} layers, {quant}, {size}"),
                name=model.path.name,
                arch=info.architecture,
                layers=str(info.block_count),
                quant=info.file_type,
                size=format_bytes(info.tensor_bytes),
            )
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
        self.model_label.setText(fill(self.tr("No memory plan: {error}"), error=message))
        self._update_readout()
        self._update_controls()

    def _begin_load(self) -> None:
        """A load is on its way: busy until it ends; remember the GPU as it was before it."""
        self._load_running = True
        self._before_load = self.snapshot
        self._measuring = None  # a measurement still waiting for its sample would measure this load instead
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
        if report.server:
            self._load_ended(
                fill(self.tr("The model runs on the server {server}: nothing is offloaded here."), server=report.server)
            )
            return
        self._unmeasured = report.config
        self.set_loaded_config(report.config)
        self._update_controls()

    @Slot(object)
    def _on_load_failed(self, message: str) -> None:
        self._load_ended(fill(self.tr("Loading failed: {error}"), error=message))

    def _on_load_cancelled(self, _message: str) -> None:
        self._load_ended(self.tr("Loading was cancelled."))

    def _load_ended(self, notice: str) -> None:
        self._load_running = False
        self.progress.hide()
        self.notice.setText(notice)
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
                fill(
                    self.tr("After loading: planned {planned} on the GPU; not measured ({reason})"),
                    planned=format_bytes(check.planned),
                    reason=check.reason.rstrip("."),
                )
            )
            return
        self.check_label.setText(
            fill(
                self.tr(
                    "After loading: planned {planned} on the GPU, measured {measured} ({source}), {error}. "
                    "The next estimate for this file includes the difference."
                ),
                planned=format_bytes(check.planned),
                measured=format_bytes(check.measured),
                source=check.source,
                error=fill(self.tr("plan off by {percent}%"), percent=f"{check.error_percent:+.1f}"),
            )
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
        """Once the plan for the loaded model is known, measure the load with a sample taken from now on."""
        config, self._unmeasured = self._unmeasured, None
        if config is None or self.planner is None:
            return
        if config.n_gpu_layers == 0 or not self._gpu_usable():
            self.check_label.clear()
            return
        context = replace(ContextSettings.for_config(config), parallel=self._parallel)  # slots reopen after a load
        planned = self.planner.plan(config.n_gpu_layers, context).gpu_total
        raw = replace(self.planner, correction=0).plan(config.n_gpu_layers, context).gpu_total
        self._measuring = MeasureRequest(
            Path(config.model_path),
            config.n_gpu_layers,
            config.n_ctx,
            planned,
            raw,
            self._before_load,
            self._sampling.clock.now(),
        )
        self._sampling.sample_now()

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
            fits = [plan.headroom(free, self.margin) for plan in self.planner.plans(context)]
            self.slider.set_fits(fits, recommended)
        else:
            self.slider.set_fits([], None)
        value = self.slider.value()
        self.layers_label.setText(fill(self.tr("{n} of {all}"), n=str(value), all=str(self.planner.max_gpu_layers)))
        plan = self.planner.plan(value, context, gpu=usable)
        self.readout.setText(self._readout_text(plan, free, usable))
        self.readout.setToolTip(self._breakdown(plan))
        if usable:
            self.recommended_label.setText(
                fill(
                    self.tr("Recommended: {n} layers (keeps {margin} free)"),
                    n=str(recommended),
                    margin=format_bytes(self.margin),
                )
            )
        else:
            self.recommended_label.setText(self.tr("No GPU to offload to: everything runs on the CPU."))

    def _readout_text(self, plan: MemoryPlan, free: int, usable: bool) -> str:
        shown = self.shown_plan(plan)
        ram = self._sum_text(self.tr("In RAM"), shown["ram"])
        if not usable:
            return ram
        return fill(
            self.tr("{gpu}; {ram}; free VRAM after load {free}"),
            gpu=self._sum_text(self.tr("On GPU"), shown["gpu"]),
            ram=ram,
            free=format_bytes(free - plan.gpu_total),
        )

    def shown_plan(self, plan: MemoryPlan) -> dict[str, ShownSizes]:
        """The plan's totals and their parts as the readout writes them: the parts shown add up to each
        total shown (one unit, shared rounding; what no part covers is "other")."""
        gpu = [
            (self.tr("weights"), plan.gpu_weights),
            (self.tr("KV cache"), plan.gpu_kv),
            (self.tr("parallel slots' KV cache"), plan.gpu_slots_kv),
            (self.tr("compute buffers (estimate)"), plan.gpu_compute),
            (self.tr("vision projector"), plan.gpu_projector),
            (self.tr("CUDA runtime and calibration"), plan.gpu_overhead),
        ]
        ram = [
            (self.tr("weights (memory-mapped)"), plan.cpu_weights),
            (self.tr("KV cache"), plan.cpu_kv),
            (self.tr("parallel slots' KV cache"), plan.cpu_slots_kv),
            (self.tr("compute and output buffers"), plan.cpu_compute),
            (self.tr("vision projector"), plan.cpu_projector),
        ]
        other = self.tr("other")
        return {
            "gpu": shown_sizes([part for part in gpu if part[1]], plan.gpu_total, other),
            "ram": shown_sizes([part for part in ram if part[1]], plan.cpu_total, other),
        }

    def _sum_text(self, where: str, shown: ShownSizes) -> str:
        """For example "On GPU 1.20 GiB = weights 0.90 GiB + KV cache 0.25 GiB + …", adding up as written."""
        if not shown.parts:
            return fill(self.tr("{where} {total}"), where=where, total=shown.total_text)
        terms = [fill(self.tr("{name} {size}"), name=part.name, size=part.text) for part in shown.parts]
        return fill(self.tr("{where} {total} = {parts}"), where=where, total=shown.total_text, parts=" + ".join(terms))

    def _breakdown(self, plan: MemoryPlan) -> str:
        lines = []
        shown_plan = self.shown_plan(plan)
        for where, shown in ((self.tr("On GPU"), shown_plan["gpu"]), (self.tr("In RAM"), shown_plan["ram"])):
            lines.append(fill(self.tr("{where}: {total}"), where=where, total=shown.total_text))
            lines += [fill(self.tr("  {name}: {size}"), name=part.name, size=part.text) for part in shown.parts]
        if plan.gpu_slots_kv or plan.cpu_slots_kv:
            lines.append(
                fill(
                    self.tr(
                        "The server's {count} parallel slots share one context of {n_ctx} tokens ({each} each), "
                        "beside the chat's own: its KV cache is there a second time."
                    ),
                    count=str(self._parallel),
                    n_ctx=str(plan.n_ctx),
                    each=str(plan.n_ctx // self._parallel),
                )
            )
        if plan.gpu_projector or plan.cpu_projector:
            lines.append(self.tr("An image's tokens take room in the context: their KV is in the KV cache above."))
        return "\n".join(lines)

    def _show_hardware(self, snapshot: HardwareSnapshot) -> None:
        lines = []
        if snapshot.state is GpuState.AVAILABLE:
            names = ", ".join(gpu.name for gpu in snapshot.gpus)
            lines.append(fill(self.tr("GPU: {names} (driver {driver})"), names=names, driver=snapshot.driver_version))
            if not snapshot.offload.supported and snapshot.offload.hint:  # a GPU, but a CPU-only llama.cpp
                lines.append(snapshot.offload.hint)
        elif snapshot.state is GpuState.CPU_ONLY:
            lines.append(self.tr("No NVIDIA GPU found — Glassbox runs on the CPU."))
            self.status_label.setToolTip(snapshot.reason)  # the technical reason, for whoever asks
        else:  # a GPU that stopped answering: say why, and keep its controls
            lines.append(core_text.word(snapshot.reason))
        for widget in self._gpu_only:
            widget.setVisible(snapshot.state is not GpuState.CPU_ONLY)
        self.status_label.setText("\n".join(lines))
        while len(self.gpu_bars) < len(snapshot.gpus):
            bar = MemoryBar(self)
            self.gpu_bars.append(bar)
            self.gpu_bars_box.addWidget(bar)
        while len(self.gpu_bars) > len(snapshot.gpus):
            self.gpu_bars.pop().deleteLater()
        for bar, gpu in zip(self.gpu_bars, snapshot.gpus, strict=True):
            self._show_gpu(bar, gpu)
        ram = snapshot.ram
        if ram is not None:
            self.ram_bar.set_segments(
                ram.total,
                [
                    (ram.process_rss, colours().qcolor("memory_app")),
                    (ram.other_used, colours().qcolor("memory_others")),
                ],
                fill(
                    self.tr("RAM: this app {app} · others {others} · available {free} of {total}"),
                    **_adding_up({"app": ram.process_rss, "others": ram.other_used, "free": ram.available}, ram.total),
                ),
                self.tr("System memory; models are memory-mapped, so their pages count once they are read"),
            )

    def _show_gpu(self, bar: MemoryBar, gpu: GpuSnapshot) -> None:
        own = gpu.this_process or 0
        app_text = format_bytes(own) if gpu.this_process is not None else self.tr("unknown")
        sizes = _adding_up({"app": own, "others": gpu.other_processes, "free": gpu.free}, gpu.total)
        template = (
            # memory the driver holds outside every process (NVML's reserved memory) is a part of its own
            self.tr("GPU {index}: this app {app} · others {others} · reserved {rest} · free {free} of {total}")
            if "rest" in sizes
            else self.tr("GPU {index}: this app {app} · others {others} · free {free} of {total}")
        )
        caption = fill(
            template,
            index=str(gpu.index),
            **{**sizes, "app": sizes["app"] if gpu.this_process is not None else app_text},
        )
        utilisation = "" if gpu.utilization_percent is None else f" · {gpu.utilization_percent}% busy"
        bar.set_segments(
            gpu.total,
            [(own, colours().qcolor("memory_app")), (gpu.other_processes, colours().qcolor("memory_others"))],
            caption,
            gpu.name + utilisation,
        )

    def _update_controls(self) -> None:
        ready = self.planner is not None and self.config is not None
        usable = self._gpu_usable()
        self.slider.setEnabled(ready and usable and not self.auto_box.isChecked())
        self.auto_box.setEnabled(ready and usable)
        self.context_box.setEnabled(ready)
        self.apply_button.setEnabled(ready and not self._load_running)


def _adding_up(parts: dict[str, int], total: int) -> dict[str, str]:
    """The parts of a memory bar's caption and its total ("total"), written so that they add up as shown;
    what they do not cover is "rest". Each part on its own where they overlap (a memory-mapped model's pages
    count both as this app's and as available), since no sum is then shown truthfully."""
    try:
        shown = shown_sizes(list(parts.items()), total, "rest")
    except ValueError:
        return {**{name: format_bytes(size) for name, size in parts.items()}, "total": format_bytes(total)}
    return {**{part.name: part.text for part in shown.parts}, "total": shown.total_text}
