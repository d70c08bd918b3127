"""GPU check: planned versus measured VRAM at several n_gpu_layers, as a table.

Run it on a machine with an NVIDIA GPU and a CUDA build of llama-cpp-python:

    CMAKE_ARGS="-DGGML_CUDA=on" pip install llama-cpp-python==0.3.36 --no-binary llama-cpp-python --force-reinstall
    python packaging/gpu_check.py [--model PATH] [--n-ctx 4096] [--layers 0,8,16,all] [--json result.json]

For each setting it loads the model (through the app's Engine, with its first-decode
warm-up), then prints what the memory planner predicted, what llama.cpp says it put on
the GPU (its logged device buffers), and what NVML measures for this process; the
difference to NVML is the number calibration will learn. Without a GPU or with a
CPU-only build it says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core.inference.engine import Engine
from app.core.inference.llama_buffers import capture_llama_buffers
from app.core.memory.calibration import measure_after_load
from app.core.memory.hardware import GpuState, HardwareMonitor
from app.core.memory.planner import MIB, ContextSettings, MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.models.starter import find_starter_model
from app.core.support.text_table import text_table
from app.core.types.load import LoadConfig

NOT_READY = 2


@dataclass(frozen=True)
class CheckRow:
    n_gpu_layers: int
    planned_total: int  # weights + KV + compute + runtime overhead
    planned_buffers: int  # weights + KV + compute: what llama.cpp's device buffers should add up to
    llama_device_buffers: int  # what llama.cpp logged for non-host buffers
    nvml_measured: int | None
    nvml_source: str

    @property
    def buffers_error_percent(self) -> float | None:
        return _percent(self.planned_buffers, self.llama_device_buffers)

    @property
    def nvml_error_percent(self) -> float | None:
        return _percent(self.planned_total, self.nvml_measured)


def parse_layers(text: str, all_layers: int) -> list[int]:
    """ "0,8,all" -> [0, 8, all_layers]; "auto" -> 0, a quarter, half, three quarters, all."""
    if text == "auto":
        return sorted({0, all_layers // 4, all_layers // 2, 3 * all_layers // 4, all_layers})
    values = []
    for item in text.split(","):
        item = item.strip()
        values.append(all_layers if item == "all" else min(int(item), all_layers))
    return values


def run_check(model: Path, n_ctx: int, layers: Sequence[int], monitor: HardwareMonitor) -> list[CheckRow]:
    planner = MemoryPlanner(read_gguf_info(model))
    context = ContextSettings.for_load(n_ctx)
    engine = Engine()
    rows = []
    try:
        for n_gpu_layers in layers:
            engine.close()
            before = monitor.snapshot()
            with capture_llama_buffers() as buffers:
                engine.load(LoadConfig(model, n_ctx=n_ctx, n_gpu_layers=n_gpu_layers))
                engine.warm_up()
            plan = planner.plan(n_gpu_layers, context)
            check = measure_after_load(plan.gpu_total, before, monitor.snapshot())
            rows.append(
                CheckRow(
                    n_gpu_layers=n_gpu_layers,
                    planned_total=plan.gpu_total,
                    planned_buffers=plan.gpu_weights + plan.gpu_kv + plan.gpu_compute,
                    llama_device_buffers=buffers.device_bytes(),
                    nvml_measured=check.measured,
                    nvml_source=check.source or check.reason,
                )
            )
    finally:
        engine.close()
    return rows


def format_table(rows: Sequence[CheckRow]) -> str:
    header = (
        "n_gpu_layers",
        "planned MiB",
        "planned buffers MiB",
        "llama.cpp GPU buffers MiB",
        "buffers err %",
        "NVML MiB",
        "NVML err %",
    )
    lines = [
        (
            str(r.n_gpu_layers),
            f"{r.planned_total / MIB:.1f}",
            f"{r.planned_buffers / MIB:.1f}",
            f"{r.llama_device_buffers / MIB:.1f}",
            _format_percent(r.buffers_error_percent),
            "-" if r.nvml_measured is None else f"{r.nvml_measured / MIB:.1f}",
            _format_percent(r.nvml_error_percent),
        )
        for r in rows
    ]
    sources = sorted({r.nvml_source for r in rows if r.nvml_source})
    return "\n".join([text_table(header, lines, markdown=True), *(f"NVML: {s}" for s in sources)])


def main(argv: Sequence[str] | None = None, monitor: HardwareMonitor | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="GGUF file (default: the starter model)")
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--layers", default="auto", help='comma list, "all" for every layer, or "auto"')
    parser.add_argument("--json", type=Path, default=None, help="also write the rows as JSON here")
    args = parser.parse_args(argv)

    monitor = monitor or HardwareMonitor()
    try:
        snapshot = monitor.snapshot()
        if not snapshot.offload.supported:
            print(snapshot.offload.hint, file=sys.stderr)
            return NOT_READY
        if snapshot.state is not GpuState.AVAILABLE:
            print(f"No GPU to check: {snapshot.reason}", file=sys.stderr)
            return NOT_READY
        model = args.model or find_starter_model()
        if model is None:
            print("No model: pass --model PATH or install the starter model.", file=sys.stderr)
            return NOT_READY
        all_layers = MemoryPlanner(read_gguf_info(model)).max_gpu_layers
        layers = parse_layers(args.layers, all_layers)
        gpus = ", ".join(f"{gpu.name} ({gpu.total / MIB:.0f} MiB)" for gpu in snapshot.gpus)
        print(
            f"Model {model.name}, n_ctx {args.n_ctx}, {all_layers} layers in all; GPUs: {gpus}; "
            f"driver {snapshot.driver_version}"
        )
        rows = run_check(model, args.n_ctx, layers, monitor)
    finally:
        monitor.close()
    print(format_table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    return 0


def _percent(planned: int, measured: int | None) -> float | None:
    return None if not measured else (planned - measured) / measured * 100


def _format_percent(value: float | None) -> str:
    return "-" if value is None else f"{value:+.1f}"


if __name__ == "__main__":
    sys.exit(main())
