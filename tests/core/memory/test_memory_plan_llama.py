"""The planner against llama.cpp's own log of the buffers it allocated (CPU loads).

Target from the issue: weights and KV cache within 5 %. The compute buffer is an
estimate; it is held to a looser bound on the real starter model only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.bench.memory_plan import SYNTHETIC_MODELS, measure_plan_accuracy
from app.bench.synthetic_gguf import write_synthetic_model
from app.core.memory.planner import ContextSettings

TARGET_PERCENT = 5.0


@pytest.mark.parametrize("n_ctx", [512, 2048, 8192])
def test_starter_model_plan_matches_llama_cpp_within_5_percent(starter_model: Path, n_ctx: int) -> None:
    accuracy = measure_plan_accuracy(starter_model, ContextSettings(n_ctx))

    assert abs(accuracy.weights_error_percent) <= TARGET_PERCENT
    assert abs(accuracy.kv_error_percent) <= TARGET_PERCENT
    assert abs(accuracy.compute_error_percent) <= 10.0


def test_a_quantized_k_cache_matches_llama_cpp(starter_model: Path) -> None:
    accuracy = measure_plan_accuracy(starter_model, ContextSettings(2048, type_k="q8_0"))
    assert accuracy.logged_kv < measure_plan_accuracy(starter_model, ContextSettings(2048)).logged_kv
    assert abs(accuracy.kv_error_percent) <= TARGET_PERCENT


@pytest.mark.parametrize("spec", SYNTHETIC_MODELS, ids=lambda spec: spec.name)
def test_synthetic_model_plan_matches_llama_cpp_within_5_percent(tmp_path: Path, spec) -> None:
    path = write_synthetic_model(tmp_path / f"{spec.name}.gguf", spec)
    settings = [ContextSettings(1024)]
    if spec.sliding_window:
        settings.append(ContextSettings(2048, swa_full=False))
    for context in settings:
        accuracy = measure_plan_accuracy(path, context)
        assert abs(accuracy.weights_error_percent) <= TARGET_PERCENT, context
        assert abs(accuracy.kv_error_percent) <= TARGET_PERCENT, context


def test_sliding_window_cache_is_smaller_than_full_when_llama_cpp_is_told_so(tmp_path: Path) -> None:
    spec = next(spec for spec in SYNTHETIC_MODELS if spec.sliding_window)
    path = write_synthetic_model(tmp_path / "swa.gguf", spec)
    full = measure_plan_accuracy(path, ContextSettings(4096))
    windowed = measure_plan_accuracy(path, ContextSettings(4096, swa_full=False))
    assert windowed.logged_kv < full.logged_kv
    assert windowed.planned_kv == pytest.approx(windowed.logged_kv, rel=0.05)
