"""The `monitor` bench section: engine speed with the resource sampler running vs without, in alternating rounds."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from app.bench.monitor import SamplingThread, run
from app.core.memory.hardware import HardwareMonitor
from app.core.monitor.clock import SessionClock
from app.core.monitor.sampler import ResourceSampler
from tests.bench.quick import quick_context
from tests.fakes import fake_pynvml


def test_the_sampling_thread_samples_at_its_pace_and_times_each_sample() -> None:
    sampler = ResourceSampler(SessionClock(), HardwareMonitor(nvml=fake_pynvml.two_gpus().module))
    sampling = SamplingThread(sampler, interval_s=0.01)
    with sampling:
        while len(sampling.costs_s) < 3:
            time.sleep(0.005)
    count = len(sampling.costs_s)
    assert count >= 3 and all(cost > 0 for cost in sampling.costs_s)
    assert sampling.gpus_seen == 2
    with sampling:  # it can run again for the next round
        while len(sampling.costs_s) < count + 1:
            time.sleep(0.005)


@pytest.mark.requires_model
def test_the_section_reports_the_ratio_against_its_target(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = {r.metric: r for r in run(context)}

    ratio = rows["tokens/s with the monitor sampling / without (per pair)"]
    assert ratio.target == ">= 0.99" and ratio.verdict is not None and ratio.value > 0
    details = context.details["monitor"]
    assert len(details["without_tok_s"]) == len(details["with_tok_s"]) == len(ratio.rounds) >= 4
    assert details["sample_ms"] and rows["one resource sample (median)"].value > 0
    if details["gpus_sampled"] == 0:
        assert math.isnan(rows["NVML's share of a sample"].value)
