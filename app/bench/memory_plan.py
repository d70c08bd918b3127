"""Bench section `memory_plan`: the planner's numbers against llama.cpp's own log, in percent.

Each case loads a model on the CPU, reads the buffer sizes llama.cpp logs (model
weights, KV cache, compute buffer) and compares them with what `MemoryPlanner`
predicted from the GGUF header alone. Target: within 5 % for weights and KV cache;
the compute buffer is an estimate and is reported without a target. A buffer llama.cpp
logged nothing for is "not measured", never an error of 0 %.

These errors are exact: the same model, context and llama.cpp give the same bytes on every
run, with no timing in them, so they have no rounds and no interval, and their verdicts
(met or missed) come from the value itself.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import llama_cpp
from gguf.constants import GGMLQuantizationType

from app.bench import BenchContext, BenchRow, exact, not_measured, row
from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.inference.engine import Engine
from app.core.inference.llama_buffers import LlamaBuffers, capture_llama_buffers
from app.core.memory.planner import ContextSettings, MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.types.load import LoadConfig

SECTION = "memory_plan"
TARGET = "<= 5"
STARTER_CONTEXTS = (512, 2048, 8192)

# Shapes the starter model does not cover.
SYNTHETIC_MODELS = (
    SyntheticModel(name="llama-gqa-f16", n_layers=4, n_embd=256, n_head=8, n_head_kv=2),
    SyntheticModel(
        name="llama-q8_0-tied-headdim64",
        n_layers=3,
        n_embd=384,
        n_head=4,
        n_head_kv=4,
        head_dim=64,
        weight_type=GGMLQuantizationType.Q8_0,
        tied_embeddings=True,
    ),
    SyntheticModel(name="gemma2-swa256", architecture="gemma2", n_layers=4, n_head=4, n_head_kv=2, sliding_window=256),
)


@dataclass(frozen=True)
class PlanAccuracy:
    """Planned vs llama.cpp-logged bytes for one model and context."""

    case: str
    planned_weights: int
    logged_weights: int
    planned_kv: int
    logged_kv: int
    planned_compute: int
    logged_compute: int

    @property
    def weights_error_percent(self) -> float | None:
        return _error_percent(self.planned_weights, self.logged_weights)

    @property
    def kv_error_percent(self) -> float | None:
        return _error_percent(self.planned_kv, self.logged_kv)

    @property
    def compute_error_percent(self) -> float | None:
        return _error_percent(self.planned_compute, self.logged_compute)

    def rows(self) -> list[BenchRow]:
        """Each buffer's error in percent (weights and KV cache against the target), or why it was not measured."""
        errors = (
            ("weights", self.weights_error_percent, TARGET),
            ("KV cache", self.kv_error_percent, TARGET),
            ("compute buffer", self.compute_error_percent, ""),
        )
        return [
            _error_row(f"{self.case}: {kind} error", abs(error), target)
            if error is not None
            else not_measured(SECTION, f"{self.case}: {kind} error", f"llama.cpp logged no {kind} size", "%", target)
            for kind, error, target in errors
        ]


def measure_plan_accuracy(model_path: Path, context: ContextSettings, case: str = "") -> PlanAccuracy:
    """Load `model_path` on the CPU and compare llama.cpp's buffers with the plan."""
    planner = MemoryPlanner(read_gguf_info(model_path))
    buffers = load_and_capture(model_path, context)
    if not buffers.seen:
        raise RuntimeError(f"llama.cpp logged no buffer sizes while loading {model_path.name}")
    return PlanAccuracy(
        case=case or f"{model_path.stem} n_ctx {context.n_ctx}",
        planned_weights=planner.weight_bytes,
        logged_weights=buffers.model_bytes,
        planned_kv=planner.kv_bytes(context),
        logged_kv=buffers.kv_bytes,
        planned_compute=planner.compute_bytes(context),
        logged_compute=buffers.compute_bytes,
    )


def load_and_capture(model_path: Path, context: ContextSettings) -> LlamaBuffers:
    """The buffers llama.cpp logs for one CPU load: through the app's Engine when it can
    express the settings, else through llama_cpp.Llama (non-default cache settings)."""
    defaults = ContextSettings(context.n_ctx)
    with capture_llama_buffers() as buffers:
        if context == defaults:
            engine = Engine()
            try:
                engine.load(LoadConfig(model_path, n_ctx=context.n_ctx, n_gpu_layers=0))
            finally:
                engine.close()
        else:
            llama = llama_cpp.Llama(
                str(model_path),
                n_ctx=context.n_ctx,
                n_batch=context.n_ubatch,
                n_ubatch=context.n_ubatch,
                n_gpu_layers=0,
                swa_full=context.swa_full,
                type_k=_ggml_type(context.type_k),
                type_v=_ggml_type(context.type_v),
                verbose=False,
            )
            llama.close()
    return buffers


def accuracy_cases(starter: Path, workdir: Path) -> list[PlanAccuracy]:
    cases = [measure_plan_accuracy(starter, ContextSettings(n_ctx)) for n_ctx in STARTER_CONTEXTS]
    cases.append(measure_plan_accuracy(starter, ContextSettings(2048, type_k="q8_0"), f"{starter.stem} K q8_0"))
    for spec in SYNTHETIC_MODELS:
        path = write_synthetic_model(workdir / f"{spec.name}.gguf", spec)
        cases.append(measure_plan_accuracy(path, ContextSettings(2048), f"{spec.name} n_ctx 2048"))
        if spec.sliding_window:
            context = ContextSettings(2048, swa_full=False)
            cases.append(measure_plan_accuracy(path, context, f"{spec.name} n_ctx 2048 swa_full off"))
    return cases


def run(context: BenchContext) -> list[BenchRow]:
    with tempfile.TemporaryDirectory(prefix="glassbox-bench-") as workdir:
        cases = accuracy_cases(context.model_path, Path(workdir))
    context.details[SECTION] = [
        {
            **case.__dict__,
            "weights_error_percent": case.weights_error_percent,
            "kv_error_percent": case.kv_error_percent,
            "compute_error_percent": case.compute_error_percent,
        }
        for case in cases
    ]
    return [bench_row for case in cases for bench_row in case.rows()]


def _error_row(metric: str, error: float, target: str) -> BenchRow:
    return exact(SECTION, metric, error, "%", target) if target else row(SECTION, metric, error, "%")


def _error_percent(planned: int, logged: int) -> float | None:
    """The plan's error against llama.cpp's logged size; None when llama.cpp logged none."""
    return (planned - logged) / logged * 100 if logged else None


def _ggml_type(name: str) -> int:
    return int(GGMLQuantizationType[name.upper()])
