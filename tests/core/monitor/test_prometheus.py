"""`GET /metrics` text: server counters and histograms, the latest resource sample and the alerts, read back."""

from __future__ import annotations

import logging

import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.core.monitor.alerts import AlertKind, AlertMonitor
from app.core.monitor.prometheus import ServerMetrics
from app.core.monitor.speed_history import SpeedHistory
from app.core.types.stats import ReplyStats
from tests.fakes.fake_machine import FakeMachine
from tests.fakes.fake_pynvml import GIB, FakeGpu


def parsed(metrics: ServerMetrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """{(sample name, labels): value} of the rendered text, read back by prometheus_client's own parser."""
    text = metrics.render().decode("utf-8")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_requests_queue_and_tokens_are_counted() -> None:
    metrics = ServerMetrics()
    metrics.observe_request("/v1/chat/completions", 200)
    metrics.observe_request("/v1/chat/completions", 200)
    metrics.observe_request("/v1/models", 401)
    metrics.set_queue_length(3)
    metrics.observe_reply(
        ReplyStats(prompt_tokens=100, completion_tokens=40, time_to_first_token_s=0.3, generation_tokens_per_s=25.0)
    )

    values = parsed(metrics)
    assert values[("glassbox_requests_total", (("endpoint", "/v1/chat/completions"), ("status", "200")))] == 2
    assert values[("glassbox_requests_total", (("endpoint", "/v1/models"), ("status", "401")))] == 1
    assert values[("glassbox_queue_length", ())] == 3
    assert values[("glassbox_tokens_total", (("direction", "in"),))] == 100
    assert values[("glassbox_tokens_total", (("direction", "out"),))] == 40
    assert values[("glassbox_time_to_first_token_seconds_count", ())] == 1
    assert values[("glassbox_time_to_first_token_seconds_bucket", (("le", "0.5"),))] == 1
    assert values[("glassbox_time_to_first_token_seconds_bucket", (("le", "0.25"),))] == 0
    assert values[("glassbox_generation_tokens_per_second_sum", ())] == 25.0
    assert metrics.CONTENT_TYPE.startswith("text/plain")


def test_a_reply_without_tokens_adds_no_speed() -> None:
    metrics = ServerMetrics()
    metrics.observe_reply(ReplyStats(prompt_tokens=10, completion_tokens=0))
    values = parsed(metrics)
    assert values[("glassbox_time_to_first_token_seconds_count", ())] == 0
    assert values[("glassbox_generation_tokens_per_second_count", ())] == 0


def test_the_latest_sample_is_exported_per_gpu_and_unmeasured_readings_are_left_out() -> None:
    machine = FakeMachine(
        gpus=[
            FakeGpu(total=8 * GIB, reserved=0, temperature_c=70, power_mw=120_000, energy_mj=42_000),
            FakeGpu("NVIDIA GeForce RTX 3060", 12 * GIB, 0, temperature_c=None, power_mw=None, utilization=None),
        ]
    )
    machine.set_vram(app=3 * GIB, others=1 * GIB)
    metrics = ServerMetrics()
    metrics.observe_sample(machine.sampler().sample())

    values = parsed(metrics)
    gpu0 = (("gpu", "0"), ("name", "NVIDIA GeForce RTX 4060"))
    assert values[("glassbox_gpu_memory_used_bytes", (*gpu0, ("owner", "app")))] == 3 * GIB
    assert values[("glassbox_gpu_memory_used_bytes", (*gpu0, ("owner", "others")))] == 1 * GIB
    assert values[("glassbox_gpu_temperature_celsius", gpu0)] == 70
    assert values[("glassbox_gpu_power_watts", gpu0)] == 120.0
    assert values[("glassbox_gpu_energy_joules_total", gpu0)] == 42.0
    assert values[("glassbox_memory_available_bytes", ())] == 8 * GIB
    assert not any(name == "glassbox_gpu_temperature_celsius" and ("gpu", "1") in labels for name, labels in values)
    assert ("glassbox_system_cpu_percent", ()) not in values  # the first sample has no interval yet


@pytest.mark.expected_log("app.core.monitor.alerts", logging.WARNING, r"fills 98 % of the context window")
def test_active_alerts_are_one_gauge_per_kind() -> None:
    alerts = AlertMonitor(history=SpeedHistory())
    alerts.observe_context(4000, 4096)
    metrics = ServerMetrics()
    metrics.set_alerts(alerts.active())

    values = parsed(metrics)
    assert values[("glassbox_alert_active", (("kind", AlertKind.CONTEXT_FULL.value),))] == 1
    assert values[("glassbox_alert_active", (("kind", AlertKind.VRAM_HIGH.value),))] == 0


def test_two_servers_do_not_share_their_counts() -> None:
    first, second = ServerMetrics(), ServerMetrics()
    first.observe_request("/v1/models", 200)
    assert ("glassbox_requests_total", (("endpoint", "/v1/models"), ("status", "200"))) not in parsed(second)
