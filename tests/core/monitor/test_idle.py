"""Idle unload: off by default; after N minutes without use, one decision to free the model."""

from __future__ import annotations

from app.core.monitor.clock import SessionClock
from app.core.monitor.idle import IdleUnloadPolicy
from tests.fakes.fake_machine import ManualClock


def policy(minutes: float) -> tuple[IdleUnloadPolicy, ManualClock]:
    clock = ManualClock()
    return IdleUnloadPolicy(minutes, SessionClock(clock.monotonic, clock.wall)), clock


def test_it_is_off_by_default_however_long_the_model_waits() -> None:
    idle, clock = policy(0)
    clock.advance(24 * 3600)
    assert not idle.enabled and not idle.decide(loaded=True, busy=False).unload


def test_after_the_set_minutes_without_use_it_decides_to_unload_once() -> None:
    idle, clock = policy(15)
    clock.advance(14 * 60)
    assert not idle.decide(loaded=True, busy=False).unload

    clock.advance(60)
    decision = idle.decide(loaded=True, busy=False, model_name="model.gguf")
    assert decision.unload and decision.idle_s == 15 * 60
    assert decision.message.startswith("model.gguf was unloaded after 15 minutes without use")
    assert "the next message loads it again" in decision.message

    clock.advance(60)
    assert not idle.decide(loaded=True, busy=False).unload  # one idle stretch, one decision


def test_use_starts_the_idle_time_again() -> None:
    idle, clock = policy(10)
    clock.advance(9 * 60)
    idle.used()
    clock.advance(9 * 60)
    assert not idle.decide(loaded=True, busy=False).unload
    clock.advance(60)
    assert idle.decide(loaded=True, busy=False).unload
    idle.used()  # the model was loaded again by the next message
    clock.advance(10 * 60)
    assert idle.decide(loaded=True, busy=False).unload


def test_nothing_is_unloaded_while_a_reply_or_a_load_runs_or_when_none_is_loaded() -> None:
    idle, clock = policy(1)
    clock.advance(3600)
    assert not idle.decide(loaded=True, busy=True).unload
    assert not idle.decide(loaded=False, busy=False).unload
    assert idle.decide(loaded=True, busy=False).unload
