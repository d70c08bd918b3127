"""Alerts as episodes: raised once, quiet while the reading stays past the hysteresis line, cleared, raised again.

The GPU alerts are driven by the fake NVML, the RAM and swap alerts by the fake psutil, the
speed alerts by recorded reply stats; time moves by hand.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from app.core.monitor.alerts import AlertChange, AlertKind, AlertMonitor, AlertThresholds, ModelRun
from app.core.monitor.speed_history import SpeedHistory
from app.core.types.stats import ReplyStats, StopReason
from tests.fakes.fake_machine import FakeMachine
from tests.fakes.fake_pynvml import GIB, MIB, FakeGpu

ALERTS = "app.core.monitor.alerts"


class Watch:
    """A machine, its sampler and an alert monitor on the same clock."""

    def __init__(self, machine: FakeMachine | None = None, thresholds: AlertThresholds | None = None) -> None:
        self.machine = machine or FakeMachine()
        self.sampler = self.machine.sampler()
        self.monitor = AlertMonitor(thresholds, SpeedHistory(), self.machine.session)

    def poll(self, seconds: float = 1.0) -> list[AlertChange]:
        self.machine.tick(seconds)
        return self.monitor.observe_sample(self.sampler.sample())

    def vram(self, percent: float) -> list[AlertChange]:
        """Another program fills the GPU to `percent` %."""
        self.machine.set_vram(others=int(self.machine.gpu.total * percent / 100))
        return self.poll()


def kinds(changes: list[AlertChange]) -> list[tuple[AlertKind, bool]]:
    return [(change.alert.kind, change.raised) for change in changes]


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == ALERTS and r.levelno == logging.WARNING]


def model(tmp_path: Path, n_gpu_layers: int = 99) -> ModelRun:
    path = tmp_path / "model.Q4_K_M.gguf"
    path.write_bytes(b"GGUF")
    return ModelRun(path, n_gpu_layers)


def reply(tokens_per_s: float = 20.0, ttft_s: float = 0.3, prompt: int = 20, tokens: int = 40) -> ReplyStats:
    return ReplyStats(
        prompt_tokens=prompt,
        completion_tokens=tokens,
        time_to_first_token_s=ttft_s,
        generation_tokens_per_s=tokens_per_s,
    )


# ---- GPU -----------------------------------------------------------------------------


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"GPU 0 \(NVIDIA GeForce RTX 4060\) VRAM is 9\d % full")
def test_vram_above_90_percent_is_one_alert_per_episode(caplog: pytest.LogCaptureFixture) -> None:
    watch = Watch()
    assert watch.vram(80) == []

    raised = watch.vram(92)
    assert kinds(raised) == [(AlertKind.VRAM_HIGH, True)]
    alert = raised[0].alert
    assert alert.subject == "GPU 0" and alert.fields["percent"] == pytest.approx(92, abs=0.1)
    assert "other programs 7.36 GiB" in alert.message

    assert watch.vram(95) == []  # the same episode: no repeat
    assert watch.vram(87) == []  # below the threshold but above the hysteresis line (85 %)
    assert kinds(watch.vram(84)) == [(AlertKind.VRAM_HIGH, False)]
    assert watch.monitor.active() == []

    assert kinds(watch.vram(91)) == [(AlertKind.VRAM_HIGH, True)]  # the next episode
    assert len(warnings(caplog)) == 2  # one log line per episode


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"GPU 1 \(NVIDIA GeForce RTX 3060\) VRAM")
def test_each_gpu_has_its_own_vram_episode() -> None:
    machine = FakeMachine(gpus=[FakeGpu(total=8 * GIB, reserved=0), FakeGpu("NVIDIA GeForce RTX 3060", 12 * GIB, 0)])
    watch = Watch(machine)
    machine.set_vram(others=int(11.5 * GIB), gpu=1)

    (change,) = watch.poll()
    assert change.alert.subject == "GPU 1" and change.alert.fields["name"] == "NVIDIA GeForce RTX 3060"


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"VRAM is 62 % full: 5.00 GiB of 8.00 GiB, Glassbox 5.00 GiB")
def test_the_engines_own_vram_counts_towards_the_alert_and_is_named() -> None:
    watch = Watch(thresholds=AlertThresholds(vram_percent=50))
    watch.machine.set_vram(app=5 * GIB, others=0)
    (change,) = watch.poll()
    assert change.alert.fields["app"] == 5 * GIB and "Glassbox 5.00 GiB" in change.alert.message


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"VRAM is 9\d % full")
def test_a_threshold_of_zero_turns_the_alert_off_and_ends_one_that_is_up() -> None:
    watch = Watch()
    assert kinds(watch.vram(95)) == [(AlertKind.VRAM_HIGH, True)]

    ended = watch.monitor.set_thresholds(AlertThresholds(vram_percent=0))

    assert kinds(ended) == [(AlertKind.VRAM_HIGH, False)]
    assert watch.vram(99) == []


# ---- RAM and swap --------------------------------------------------------------------------


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"Only 6 % of the RAM is available \(1.00 GiB of 16.00 GiB\)")
def test_low_available_ram_is_raised_below_10_percent_and_cleared_above_15() -> None:
    watch = Watch()
    watch.machine.system.available = 1 * GIB
    assert kinds(watch.poll()) == [(AlertKind.RAM_LOW, True)]
    watch.machine.system.available = 2 * GIB  # 12.5 %: inside the hysteresis band
    assert watch.poll() == []
    watch.machine.system.available = 3 * GIB  # 18.75 %
    assert kinds(watch.poll()) == [(AlertKind.RAM_LOW, False)]


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"Swap use grew by 300 MiB while model.Q4_K_M.gguf is loaded")
def test_swap_growing_while_a_model_is_loaded_is_raised_and_ends_with_the_model(tmp_path: Path) -> None:
    watch = Watch()
    watch.machine.system.swap_used = 100 * MIB
    watch.poll()
    watch.machine.system.swap_used = 900 * MIB
    assert watch.poll() == []  # no model loaded: swap is someone else's business

    watch.monitor.model_loaded(model(tmp_path))
    watch.poll()  # the first reading after the load is where growth counts from
    watch.machine.system.swap_used = 1200 * MIB
    (change,) = watch.poll()
    assert change.raised and change.alert.kind is AlertKind.SWAP_GROWING
    assert change.alert.fields["growth"] == 300 * MIB

    assert kinds(watch.monitor.model_unloaded()) == [(AlertKind.SWAP_GROWING, False)]


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"Swap use grew by (256|300) MiB")
def test_swap_that_settles_back_ends_the_episode_and_new_growth_starts_another(tmp_path: Path) -> None:
    watch = Watch()
    watch.monitor.model_loaded(model(tmp_path))
    watch.machine.system.swap_used = 0
    watch.poll()
    watch.machine.system.swap_used = 256 * MIB
    assert kinds(watch.poll()) == [(AlertKind.SWAP_GROWING, True)]
    watch.machine.system.swap_used = 100 * MIB  # less than half the threshold above the lowest
    assert kinds(watch.poll()) == [(AlertKind.SWAP_GROWING, False)]
    watch.machine.system.swap_used = 300 * MIB
    assert kinds(watch.poll()) == [(AlertKind.SWAP_GROWING, True)]


# ---- context --------------------------------------------------------------------------------


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"fills 90 % of the context window \(3,700 of 4,096 tokens\)")
def test_a_context_window_over_90_percent_full_is_said_once_and_a_new_chat_ends_it() -> None:
    monitor = AlertMonitor(history=SpeedHistory())
    assert kinds(monitor.observe_context(3700, 4096)) == [(AlertKind.CONTEXT_FULL, True)]
    assert monitor.observe_context(3600, 4096) == []  # 88 %: still the same episode
    assert kinds(monitor.observe_context(0, 4096)) == [(AlertKind.CONTEXT_FULL, False)]


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"fills 95 % of the context window")
def test_a_reply_reports_how_full_the_context_is(tmp_path: Path) -> None:
    monitor = AlertMonitor(history=SpeedHistory())
    monitor.model_loaded(model(tmp_path))
    changes = monitor.observe_reply(reply(prompt=900, tokens=73), n_ctx=1024)
    assert kinds(changes) == [(AlertKind.CONTEXT_FULL, True)]


# ---- speed ----------------------------------------------------------------------------------


def usual_monitor(tmp_path: Path, replies: int = 5, **usual: float) -> AlertMonitor:
    monitor = AlertMonitor(history=SpeedHistory())
    monitor.model_loaded(model(tmp_path))
    for _ in range(replies):
        assert monitor.observe_reply(reply(**usual)) == []
    return monitor


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"ran at 8.0 tokens/s, 40% of this model's usual 20.0 tokens/s")
def test_a_reply_at_under_half_the_usual_speed_raises_an_alert_until_speed_comes_back(tmp_path: Path) -> None:
    monitor = usual_monitor(tmp_path, tokens_per_s=20.0)

    assert kinds(monitor.observe_reply(reply(tokens_per_s=8.0))) == [(AlertKind.SLOW_TOKENS, True)]
    assert monitor.observe_reply(reply(tokens_per_s=12.0)) == []  # still under 15: the same episode
    assert kinds(monitor.observe_reply(reply(tokens_per_s=19.0))) == [(AlertKind.SLOW_TOKENS, False)]


def test_there_is_no_usual_speed_before_five_replies(tmp_path: Path) -> None:
    monitor = usual_monitor(tmp_path, replies=4, tokens_per_s=20.0)
    assert monitor.observe_reply(reply(tokens_per_s=2.0)) == []


def test_the_usual_speed_is_per_gpu_layer_count(tmp_path: Path) -> None:
    monitor = usual_monitor(tmp_path, tokens_per_s=80.0)
    monitor.model_loaded(model(tmp_path, n_gpu_layers=0))  # the same file on the CPU: its own yardstick
    assert monitor.observe_reply(reply(tokens_per_s=10.0)) == []


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"The GPU is at 86 °C and may be throttling")
def test_a_slow_reply_on_a_hot_gpu_names_the_temperature(tmp_path: Path) -> None:
    watch = Watch(FakeMachine(gpus=[FakeGpu(total=8 * GIB, reserved=0, temperature_c=86)]))
    watch.monitor.model_loaded(model(tmp_path))
    for _ in range(5):
        watch.monitor.observe_reply(reply(tokens_per_s=30.0))
    watch.poll()
    (change,) = watch.monitor.observe_reply(reply(tokens_per_s=9.0))
    assert change.alert.fields["temperature_c"] == 86


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"The first token took 2.0 s, 6.7× the usual 0.3 s")
def test_a_first_token_far_slower_than_usual_is_raised(tmp_path: Path) -> None:
    monitor = usual_monitor(tmp_path, ttft_s=0.3, prompt=20)
    assert kinds(monitor.observe_reply(reply(ttft_s=2.0, prompt=20))) == [(AlertKind.SLOW_FIRST_TOKEN, True)]
    assert kinds(monitor.observe_reply(reply(ttft_s=0.4, prompt=20))) == [(AlertKind.SLOW_FIRST_TOKEN, False)]


def test_a_long_prompt_at_the_usual_prompt_speed_is_not_a_slow_first_token(tmp_path: Path) -> None:
    monitor = usual_monitor(tmp_path, ttft_s=0.3, prompt=30)  # 100 prompt tokens/s
    assert monitor.observe_reply(reply(ttft_s=21.0, prompt=2000)) == []  # 20 s expected for 2,000 tokens


def test_a_first_token_under_a_second_is_never_slow(tmp_path: Path) -> None:
    monitor = usual_monitor(tmp_path, ttft_s=0.05, prompt=5)
    assert monitor.observe_reply(reply(ttft_s=0.9, prompt=5)) == []


def test_a_reply_too_short_to_have_a_speed_changes_nothing(tmp_path: Path) -> None:
    monitor = usual_monitor(tmp_path, tokens_per_s=20.0)
    assert monitor.observe_reply(reply(tokens_per_s=1.0, tokens=2)) == []


# ---- failures -------------------------------------------------------------------------------


@pytest.mark.expected_log(
    ALERTS, logging.WARNING, r"The last 3 replies failed; the latest said: (engine crashed|out of)"
)
def test_three_failed_replies_in_a_row_raise_one_alert_that_a_good_reply_ends() -> None:
    monitor = AlertMonitor(history=SpeedHistory())
    assert monitor.observe_failure("timeout") == []
    assert monitor.observe_failure("timeout") == []
    assert kinds(monitor.observe_failure("engine crashed")) == [(AlertKind.FAILED_REPLIES, True)]
    assert monitor.observe_failure("engine crashed") == []

    assert kinds(monitor.observe_reply(reply())) == [(AlertKind.FAILED_REPLIES, False)]

    monitor.observe_failure("x")
    monitor.observe_reply(ReplyStats(stop_reason=StopReason.ERROR, error="y"))  # an error in the stats is a failure
    assert kinds(monitor.observe_failure("out of memory")) == [(AlertKind.FAILED_REPLIES, True)]


# ---- idle -----------------------------------------------------------------------------------


@pytest.mark.expected_log(ALERTS, logging.WARNING, r"has not been used for 31 minutes and holds 2.00 GiB of VRAM")
def test_an_idle_model_holding_vram_offers_to_be_unloaded_and_use_ends_the_alert(tmp_path: Path) -> None:
    watch = Watch()
    watch.machine.set_vram(app=2 * GIB)
    watch.monitor.model_loaded(model(tmp_path))
    assert watch.poll(29 * 60) == []

    (raised,) = watch.poll(2 * 60)
    assert raised.raised and raised.alert.kind is AlertKind.IDLE_MODEL and raised.alert.offer_unload
    assert watch.poll(60) == []

    watch.monitor.reply_started()
    assert kinds(watch.poll()) == [(AlertKind.IDLE_MODEL, False)]


def test_an_idle_model_on_the_cpu_holds_no_vram_and_raises_nothing(tmp_path: Path) -> None:
    watch = Watch()
    watch.monitor.model_loaded(model(tmp_path, n_gpu_layers=0))
    assert watch.poll(3 * 3600) == []
