"""A reply's queue wait and GPU energy: measured from NVML's energy counters, "not measured" (None) otherwise."""

from __future__ import annotations

import time

import pytest

from app.core.memory.hardware import HardwareMonitor
from app.core.monitor.reply_energy import EnergyMeter, ReplyMeasure, energy_between
from app.core.types.stats import CacheMiss, ReplyMetrics, ReplyStats
from tests.fakes.fake_pynvml import FakeGpu, FakeNvml


def meter(*gpus: FakeGpu) -> tuple[EnergyMeter, FakeNvml]:
    fake = FakeNvml(gpus=list(gpus))
    return EnergyMeter(HardwareMonitor(nvml=fake.module)), fake


def metrics(completion_tokens: int = 40) -> ReplyMetrics:
    return ReplyMetrics(ReplyStats(prompt_tokens=20, completion_tokens=completion_tokens, total_s=2.0))


def test_a_reply_on_a_gpu_with_an_energy_counter_gets_its_joules_and_joules_per_token() -> None:
    energy, fake = meter(FakeGpu(energy_mj=1_000_000))
    measure = ReplyMeasure(time.perf_counter(), energy)
    measure.began()
    fake.gpus[0].energy_mj = 1_000_000 + 12_000  # 12 J over the reply
    measured = measure.finish(metrics(completion_tokens=40))
    assert measured.gpu_energy_j == pytest.approx(12.0)
    assert measured.energy_per_token_j == pytest.approx(0.3)
    energy.close()


def test_several_gpus_add_up_and_one_without_a_counter_is_left_out() -> None:
    assert energy_between((10.0, None, 5.0), (14.0, None, 6.5)) == pytest.approx(5.5)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ((), ()),  # no NVML
        ((None,), (None,)),  # a GPU without the counter
        ((100.0,), (90.0,)),  # the counter went back: the driver was reloaded
        ((1.0,), (2.0, 3.0)),  # a GPU came or went
    ],
)
def test_energy_that_cannot_be_told_is_not_measured_never_zero(
    before: tuple[float | None, ...], after: tuple[float | None, ...]
) -> None:
    assert energy_between(before, after) is None


def test_a_gpu_without_the_counter_leaves_the_energy_not_measured() -> None:
    energy, _fake = meter(FakeGpu(energy_mj=None))
    measure = ReplyMeasure(time.perf_counter(), energy)
    measure.began()
    measured = measure.finish(metrics())
    assert measured.gpu_energy_j is None and measured.energy_per_token_j is None
    energy.close()


def test_the_queue_wait_runs_from_the_request_to_the_models_start() -> None:
    asked = time.perf_counter()
    measure = ReplyMeasure(asked, None)
    time.sleep(0.01)
    measure.began()
    measured = measure.finish(metrics())
    assert measured.queue_wait_s is not None and measured.queue_wait_s >= 0.01
    assert measured.gpu_energy_j is None  # on the CPU: no meter


def test_a_reply_the_model_never_began_has_no_queue_wait() -> None:
    assert ReplyMeasure(time.perf_counter(), None).finish(metrics()).queue_wait_s is None


def test_the_breakdown_survives_the_chat_history() -> None:
    original = ReplyMetrics(
        ReplyStats(
            prompt_tokens=20,
            cached_prompt_tokens=4,
            cache_miss=CacheMiss.WINDOW_SLIDE,
            completion_tokens=10,
            time_to_first_token_s=0.5,
            total_s=1.5,
        ),
        queue_wait_s=0.25,
        gpu_energy_j=3.0,
    )
    again = ReplyMetrics.from_dict(original.to_dict())
    assert again.queue_wait_s == 0.25 and again.gpu_energy_j == 3.0
    assert again.stats.cache_miss is CacheMiss.WINDOW_SLIDE
    assert again.decoding_s == pytest.approx(1.0) and again.energy_per_token_j == pytest.approx(0.3)
    older = original.to_dict()
    del older["queue_wait_s"], older["gpu_energy_j"]  # saved before the breakdown existed
    older["cache_miss"] = "a reason from a newer version"
    assert ReplyMetrics.from_dict(older).gpu_energy_j is None
    assert ReplyMetrics.from_dict(older).stats.cache_miss is None
