"""The `memory_plan` section's rows: the plan's error against llama.cpp's log, or why there is none."""

from __future__ import annotations

import math

import pytest

from app.bench.intervals import Verdict
from app.bench.memory_plan import PlanAccuracy


def _case(logged_kv: int) -> PlanAccuracy:
    return PlanAccuracy(
        case="model n_ctx 2048",
        planned_weights=1_010,
        logged_weights=1_000,
        planned_kv=500,
        logged_kv=logged_kv,
        planned_compute=90,
        logged_compute=100,
    )


def test_each_buffer_s_error_is_a_percentage_weights_and_kv_against_the_target() -> None:
    weights, kv, compute = _case(logged_kv=500).rows()
    assert (weights.metric, weights.value, weights.target, weights.verdict) == (
        "model n_ctx 2048: weights error",
        pytest.approx(1.0),
        "<= 5",
        Verdict.MET,
    )
    assert weights.rounds == () and weights.interval is None  # exact: the same bytes every run
    assert kv.value == 0.0 and kv.verdict is Verdict.MET  # planned exactly what llama.cpp allocated
    assert compute.value == pytest.approx(10.0) and compute.target == "" and compute.verdict is None


def test_a_buffer_llama_cpp_logged_nothing_for_is_not_measured_never_zero_percent() -> None:
    _weights, kv, _compute = _case(logged_kv=0).rows()
    assert math.isnan(kv.value) and not kv.measured
    assert kv.verdict is None and kv.note == "llama.cpp logged no KV cache size"
    assert kv.target == "<= 5"  # still its target: the row is neither met nor missed
