"""The GPU panel as a user meets it: slider, coloured ranges, live readout, bars, Auto, Apply, checks."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Signal
from pytestqt.qtbot import QtBot

from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.memory.calibration import CalibrationStore
from app.core.memory.fallback import FallbackResult, FallbackStep
from app.core.memory.hardware import GpuSnapshot, HardwareMonitor, OffloadSupport
from app.core.memory.planner import MIB, Headroom
from app.core.monitor.clock import SessionClock
from app.core.monitor.sampler import ResourceSampler
from app.core.support.formatting import format_bytes
from app.core.types.load import LoadConfig, LoadReport
from app.ui.gpu.memory_bars import MemoryBar
from app.ui.gpu.panel import GpuPanel
from app.ui.hardware_sampling import HardwareSampling
from tests.fakes import fake_pynvml
from tests.fakes.fake_pynvml import GIB, FakeGpu, FakeNvml


class FakeLlmWorker(QObject):
    """The LLM worker's outgoing signals, driven by the test."""

    loadProgress = Signal(float)
    loaded = Signal(object)
    loadFailed = Signal(str)
    loadCancelled = Signal(str)
    loadFallbackStep = Signal(object)
    loadFellBack = Signal(object)


PanelFactory = Callable[[FakeNvml], tuple[GpuPanel, FakeLlmWorker]]


@pytest.fixture
def make_panel(qtbot: QtBot) -> Iterator[PanelFactory]:
    made: list[tuple[GpuPanel, HardwareSampling]] = []

    def make(fake: FakeNvml) -> tuple[GpuPanel, FakeLlmWorker]:
        worker = FakeLlmWorker()
        monitor = HardwareMonitor(nvml=fake.module, offload=OffloadSupport(True))
        sampling = HardwareSampling(ResourceSampler(SessionClock(), monitor), interval_ms=50)
        panel = GpuPanel(sampling, worker, CalibrationStore())
        qtbot.addWidget(panel)
        made.append((panel, sampling))
        sampling.start()
        qtbot.waitUntil(lambda: panel.snapshot is not None)
        return panel, worker

    yield make
    for panel, sampling in made:
        sampling.shutdown()
        panel.shutdown()


def load(qtbot: QtBot, panel: GpuPanel, worker: FakeLlmWorker, config: LoadConfig) -> None:
    worker.loadProgress.emit(0.0)
    worker.loaded.emit(LoadReport(config=config))
    qtbot.waitUntil(lambda: panel.planner is not None and panel.slider.maximum() > 0)


def tight_gpu(free: int) -> FakeNvml:
    """One 8 GiB GPU of which another program leaves `free` bytes."""
    return FakeNvml(gpus=[FakeGpu(total=8 * GIB, reserved=0, processes={4242: 8 * GIB - free})])


def test_without_a_driver_the_panel_says_why_and_plans_everything_in_ram(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.no_driver())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))

    assert panel.status_label.text() == "No NVIDIA GPU found — Glassbox runs on the CPU."
    assert "No NVIDIA driver found" in panel.status_label.toolTip()  # the technical reason, on demand
    assert panel.slider.isHidden() and panel.auto_box.isHidden() and panel.legend.isHidden()
    assert "pip" not in panel.status_label.text()
    assert panel.readout.text().startswith("In RAM ")
    assert panel.recommended_label.text() == "No GPU to offload to: everything runs on the CPU."
    assert panel.gpu_bars == [] and "RAM: this app" in panel.ram_bar.caption


def test_the_slider_runs_from_zero_to_all_layers_with_the_recommended_maximum_marked(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048, n_gpu_layers=10))

    assert (panel.slider.minimum(), panel.slider.maximum()) == (0, 31)  # 30 blocks + output head
    assert panel.slider.value() == 10 and panel.slider.isEnabled()
    assert panel.slider.recommended == 31  # the starter model fits in 6 GiB with room to spare
    assert panel.slider.ranges() == [(0, 31, Headroom.FITS)]
    assert panel.layers_label.text() == "10 of 31"


def test_ranges_are_coloured_fits_then_tight_then_will_not_fit(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(tight_gpu(free=650 * MIB))
    panel.margin = 64 * MIB
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))

    ranges = panel.slider.ranges()
    assert [fit for _, _, fit in ranges] == [Headroom.FITS, Headroom.TIGHT, Headroom.WONT_FIT]
    plans = panel.planner.plans(panel.context_settings())
    last_fit, last_tight = ranges[0][1], ranges[1][1]
    assert plans[last_fit].gpu_total + 64 * MIB <= 650 * MIB < plans[last_fit + 1].gpu_total + 64 * MIB
    assert plans[last_tight].gpu_total <= 650 * MIB < plans[last_tight + 1].gpu_total
    assert panel.slider.recommended == last_fit == panel.recommended_layers()
    panel.grab()  # paints the ranges and the marker


def test_the_readout_follows_the_slider_and_the_context_length(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))

    panel.slider.setValue(31)
    plan = panel.current_plan()
    shown = panel.shown_plan(plan)
    text = panel.readout.text()
    assert text.startswith(f"On GPU {shown['gpu'].total_text} = weights {shown['gpu'].parts[0].text} + KV cache ")
    assert f"; In RAM {shown['ram'].total_text} = " in text
    assert text.endswith(f"free VRAM after load {format_bytes(6 * GIB - plan.gpu_total)}")

    panel.slider.setValue(5)
    assert panel.readout.text() != text and panel.layers_label.text() == "5 of 31"
    kv_at_5 = panel.current_plan().gpu_kv
    panel.context_box.setValue(8192)
    assert panel.current_plan().gpu_kv == 4 * kv_at_5
    kv_shown = next(part for part in panel.shown_plan(panel.current_plan())["gpu"].parts if part.name == "KV cache")
    assert f"KV cache {kv_shown.text}" in panel.readout.text()


def _sums(text: str) -> list[tuple[float, float]]:
    """(total, sum of its parts) for each "WHERE TOTAL UNIT = NAME SIZE UNIT + …" the text writes."""
    sums = []
    for clause in text.split("; "):
        if " = " not in clause:
            continue
        total, parts = clause.split(" = ")
        sums.append((float(total.split()[-2]), sum(float(part.split()[-2]) for part in parts.split(" + "))))
    return sums


@pytest.mark.parametrize("n_ctx", [512, 2048, 8192])
@pytest.mark.parametrize("layers", [0, 7, 31])
def test_the_memory_parts_shown_add_up_to_the_total_shown(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path, n_ctx: int, layers: int
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))
    panel.context_box.setValue(n_ctx)
    panel.slider.setValue(layers)

    plan = panel.current_plan()
    for where, shown in panel.shown_plan(plan).items():
        assert sum(part.steps for part in shown.parts) == shown.total_steps, where
        assert shown.total_text == format_bytes(plan.gpu_total if where == "gpu" else plan.cpu_total)
    sums = _sums(panel.readout.text())
    assert len(sums) == (2 if layers else 1)  # nothing on the GPU: the GPU total is written alone
    for total, parts in sums:
        assert parts == pytest.approx(total, abs=1e-9)
    tooltip = panel.readout.toolTip()
    assert "On GPU:" in tooltip and "In RAM:" in tooltip


def test_auto_follows_the_recommendation_as_the_context_grows(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(tight_gpu(free=1000 * MIB))
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=512))

    panel.auto_box.setChecked(True)
    assert not panel.slider.isEnabled()
    first = panel.slider.value()
    assert first == panel.recommended_layers() > 0
    panel.context_box.setValue(8192)  # a bigger KV cache leaves room for fewer layers
    assert panel.slider.value() == panel.recommended_layers() < first


def test_apply_asks_for_a_reload_with_the_chosen_layers_and_context(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    loaded = LoadConfig(starter_model, n_ctx=2048, n_gpu_layers=0, n_threads=2, n_batch=256)
    load(qtbot, panel, worker, loaded)
    panel.slider.setValue(20)
    panel.context_box.setValue(4096)

    with qtbot.waitSignal(panel.applyRequested) as applied:
        panel.apply_button.click()
    assert applied.args[0] == replace(loaded, n_gpu_layers=20, n_ctx=4096)


def test_load_progress_shows_and_apply_waits_for_the_load(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))
    worker.loadProgress.emit(0.4)
    assert panel.progress.isVisibleTo(panel) and panel.progress.value() == 40
    assert not panel.apply_button.isEnabled()
    worker.loadFailed.emit("Cannot use model file x: it is truncated")
    assert not panel.progress.isVisibleTo(panel) and panel.apply_button.isEnabled()
    assert "truncated" in panel.notice.text()


def test_a_cancelled_load_is_said_as_a_cancel_not_a_failure(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))
    worker.loadCancelled.emit("Loading SmolLM2 was cancelled.")
    assert not panel.progress.isVisibleTo(panel) and panel.apply_button.isEnabled()
    assert panel.notice.text() == "Loading was cancelled."


def test_bars_show_this_app_other_processes_and_free_for_each_gpu(make_panel: PanelFactory, qtbot: QtBot) -> None:
    fake = fake_pynvml.two_gpus()
    fake.gpus[0].processes[os.getpid()] = 512 * MIB
    panel, _ = make_panel(fake)
    qtbot.waitUntil(lambda: len(panel.gpu_bars) == 2)

    first, second = panel.gpu_bars
    assert first.caption.startswith("GPU 0: this app 0.50 GiB · others ")  # in the total's unit, to add up
    assert first.caption.endswith("of 16.00 GiB")
    for bar in (first, second):  # this app + others + free (+ what the driver reserves) = the total, as written
        sizes = [float(size) for size in re.findall(r"(\d+\.\d+) GiB", bar.caption)]
        assert sum(sizes[:-1]) == pytest.approx(sizes[-1], abs=1e-9), bar.caption
    assert first.segments[0][0] == 512 * MIB
    assert "NVIDIA RTX A4000" in first.toolTip() and "30% busy" in first.toolTip()
    assert second.caption.endswith("of 12.00 GiB")
    assert "NVIDIA RTX A4000, NVIDIA GeForce RTX 3060" in panel.status_label.text()

    fake.gpus[0].processes[os.getpid()] = 1 * GIB  # the bars follow the sampler
    qtbot.waitUntil(lambda: panel.gpu_bars[0].caption.startswith("GPU 0: this app 1.00 GiB"))
    panel.grab()


def test_memory_the_driver_reserves_outside_every_process_is_a_part_of_the_bar_of_its_own(
    make_panel: PanelFactory, qtbot: QtBot
) -> None:
    panel, _ = make_panel(fake_pynvml.two_gpus())
    bar = MemoryBar()
    qtbot.addWidget(bar)
    gpu = GpuSnapshot(0, "Test GPU", total=8 * GIB, used=3 * GIB, free=4 * GIB, this_process=1 * GIB)
    panel._show_gpu(bar, gpu)
    assert bar.caption == ("GPU 0: this app 1.00 GiB · others 2.00 GiB · reserved 1.00 GiB · free 4.00 GiB of 8.00 GiB")


@pytest.mark.expected_log("app.core.memory.hardware", logging.WARNING, "NVML poll failed: GPU is lost")
def test_nvml_failing_mid_poll_shows_the_reason_and_recovers(make_panel: PanelFactory, qtbot: QtBot) -> None:
    fake = fake_pynvml.one_gpu_with_other_process()
    panel, _ = make_panel(fake)
    qtbot.waitUntil(lambda: len(panel.gpu_bars) == 1)

    fake.lose_gpu()
    qtbot.waitUntil(lambda: "stopped answering" in panel.status_label.text())
    assert "GPU is lost" in panel.status_label.text()
    qtbot.waitUntil(lambda: panel.gpu_bars == [])
    fake.recover()
    qtbot.waitUntil(lambda: len(panel.gpu_bars) == 1)


def test_after_a_gpu_load_the_plan_is_compared_with_nvml_and_remembered(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    fake = fake_pynvml.one_gpu_with_other_process()
    panel, worker = make_panel(fake)
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))
    planned = panel.planner.plan(31, panel.context_settings()).gpu_total

    fake.gpus[0].processes[os.getpid()] = planned + 100 * MIB  # what NVML sees after the load
    worker.loaded.emit(LoadReport(config=LoadConfig(starter_model, n_ctx=2048, n_gpu_layers=31)))
    qtbot.waitUntil(lambda: panel.check_label.text().startswith("After loading"))

    text = panel.check_label.text()
    assert f"planned {format_bytes(planned)} on the GPU, measured {format_bytes(planned + 100 * MIB)}" in text
    assert "NVML, this process" in text and "includes the difference" in text
    assert CalibrationStore().correction(starter_model) == 100 * MIB
    assert panel.planner.correction == 100 * MIB  # the next estimate is corrected
    assert panel.planner.plan(31, panel.context_settings()).gpu_total == planned + 100 * MIB


def test_a_load_is_measured_by_a_sample_taken_after_it_never_by_one_from_before(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    fake = fake_pynvml.one_gpu_with_other_process()
    panel, worker = make_panel(fake)
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))
    planned = panel.planner.plan(31, panel.context_settings()).gpu_total
    with qtbot.waitSignal(panel._sampling.sampled) as taken:
        panel._sampling.sample_now()
    before_the_load = taken.args[0]  # this app holds nothing on the GPU yet

    fake.gpus[0].processes[os.getpid()] = planned + 100 * MIB
    worker.loaded.emit(LoadReport(config=LoadConfig(starter_model, n_ctx=2048, n_gpu_layers=31)))
    panel._sampling.sampled.emit(before_the_load)  # a sample from before the load, handled only now
    assert panel.check_label.text() == ""
    qtbot.waitUntil(lambda: panel.check_label.text().startswith("After loading"))

    assert f"measured {format_bytes(planned + 100 * MIB)}" in panel.check_label.text()


def test_a_fallback_is_explained_and_the_slider_shows_the_setting_that_holds(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048))
    panel.auto_box.setChecked(True)
    requested = LoadConfig(starter_model, n_ctx=2048, n_gpu_layers=31)
    held = replace(requested, n_gpu_layers=15)
    step = FallbackStep(31, "cudaMalloc failed: out of memory", 15)

    worker.loadFallbackStep.emit(step)
    assert panel.notice.text() == step.message
    worker.loadFellBack.emit(FallbackResult(requested, held, LoadReport(config=held), [step]))
    worker.loaded.emit(LoadReport(config=held))

    assert "GPU layers is now set to 15" in panel.notice.text() and panel.notice.isVisibleTo(panel)
    assert not panel.auto_box.isChecked()
    assert panel.slider.value() == 15


# ---- the API server's parallel slots and a vision projector ---------------------------


def part(panel_text: str, name: str) -> bool:
    return f"+ {name} " in panel_text or f"= {name} " in panel_text


def test_the_servers_slots_add_their_kv_cache_to_the_plan_and_say_they_share_one_context(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path
) -> None:
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=4096))
    panel.slider.setValue(31)
    alone = panel.current_plan()
    assert alone is not None and not part(panel.readout.text(), "parallel slots' KV cache")

    panel.set_parallel(4)
    served = panel.current_plan()
    assert served is not None
    assert served.gpu_slots_kv == alone.gpu_kv > 0
    assert served.gpu_total > alone.gpu_total + alone.gpu_kv
    assert part(panel.readout.text(), "parallel slots' KV cache")
    assert "4 parallel slots share one context of 4096 tokens (1024 each)" in panel.readout.toolTip()

    panel.set_parallel(1)
    assert panel.current_plan() == alone


def test_a_models_projector_is_planned_beside_it_and_its_images_kv_said_to_be_in_the_context(
    make_panel: PanelFactory, qtbot: QtBot, starter_model: Path, tmp_path: Path
) -> None:
    mmproj = write_synthetic_projector(tmp_path / "mmproj-synthetic.gguf", SyntheticProjector())
    panel, worker = make_panel(fake_pynvml.one_gpu_with_other_process())
    load(qtbot, panel, worker, LoadConfig(starter_model, n_ctx=2048, mmproj=mmproj))
    qtbot.waitUntil(lambda: panel.planner is not None and panel.planner.projector is not None)
    panel.slider.setValue(31)
    plan = panel.current_plan()
    assert plan is not None and plan.gpu_projector > 0 and plan.cpu_projector == 0
    assert part(panel.readout.text(), "vision projector")
    assert "An image's tokens take room in the context" in panel.readout.toolTip()

    panel.slider.setValue(0)
    plan = panel.current_plan()
    assert plan is not None and plan.gpu_projector == 0 and plan.cpu_projector > 0
