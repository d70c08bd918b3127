"""The session timeline: a bounded buffer of samples, the replies as spans on the same axis, energy per reply."""

from __future__ import annotations

import pytest

from app.core.monitor.timeline import ReplyOutcome, SessionTimeline
from app.core.types.stats import ReplyStats, StopReason
from tests.fakes.fake_machine import FakeMachine
from tests.fakes.fake_pynvml import GIB, FakeGpu


def record(machine: FakeMachine, timeline: SessionTimeline, seconds: int) -> None:
    """One sample a second for `seconds` seconds."""
    sampler = machine.sampler()
    for _ in range(seconds):
        timeline.add(sampler.sample())
        machine.tick()


def test_the_buffer_keeps_the_newest_samples_up_to_its_capacity() -> None:
    machine = FakeMachine()
    timeline = SessionTimeline(machine.session, capacity=5)
    record(machine, timeline, 8)

    assert len(timeline) == 5
    assert [round(s.t) for s in timeline.samples()] == [3, 4, 5, 6, 7]
    assert [round(s.t) for s in timeline.samples(since=6)] == [6, 7]
    latest = timeline.latest
    assert latest is not None and round(latest.t) == 7


def test_a_reply_is_a_span_on_the_samples_time_axis_with_its_numbers() -> None:
    machine = FakeMachine()
    timeline = SessionTimeline(machine.session)
    record(machine, timeline, 2)
    started = timeline.reply_started("model.gguf")
    assert timeline.open_reply == started and started.end is None
    record(machine, timeline, 3)
    stats = ReplyStats(
        prompt_tokens=40,
        cached_prompt_tokens=10,
        completion_tokens=30,
        time_to_first_token_s=0.4,
        generation_tokens_per_s=12.5,
    )
    ended = timeline.reply_ended(ReplyOutcome.FINISHED, stats)

    assert ended is not None and timeline.open_reply is None
    assert (ended.number, ended.start, ended.end) == (1, pytest.approx(2.0), pytest.approx(5.0))
    assert ended.seconds == pytest.approx(3.0)
    assert (ended.completion_tokens, ended.ttft_s, ended.tokens_per_s) == (30, 0.4, 12.5)
    assert timeline.span_at(3.5) == timeline.spans()[0]
    assert timeline.span_at(6.0) is None


def test_a_reply_that_wrote_nothing_has_no_speed_rather_than_zero() -> None:
    timeline = SessionTimeline()
    timeline.reply_started()
    ended = timeline.reply_ended(ReplyOutcome.FAILED, ReplyStats(stop_reason=StopReason.ERROR), error="engine died")
    assert ended is not None and ended.ttft_s is None and ended.tokens_per_s is None
    assert ended.error == "engine died" and ended.outcome is ReplyOutcome.FAILED


def test_a_reply_whose_end_was_never_heard_is_closed_as_stopped_by_the_next() -> None:
    timeline = SessionTimeline()
    timeline.reply_started(at=1.0)
    timeline.reply_started(at=4.0)
    first, second = timeline.spans()
    assert (first.end, first.outcome) == (4.0, ReplyOutcome.STOPPED)
    assert second.number == 2 and second.end is None
    assert timeline.reply_ended(ReplyOutcome.FINISHED, at=5.0) is not None
    assert timeline.reply_ended(ReplyOutcome.FINISHED, at=6.0) is None  # nothing open any more


def test_a_replys_gpu_energy_is_read_from_the_counter_once_a_sample_after_it_arrived() -> None:
    machine = FakeMachine(gpus=[FakeGpu(total=8 * GIB, reserved=0, energy_mj=0)])
    timeline = SessionTimeline(machine.session)
    sampler = machine.sampler()
    for second in range(6):  # 100 W for six seconds: the counter grows 100 J a second
        machine.gpu.energy_mj = second * 100_000
        timeline.add(sampler.sample())
        if second == 1:
            timeline.reply_started(at=1.5)
        if second == 3:
            ended = timeline.reply_ended(ReplyOutcome.FINISHED, ReplyStats(completion_tokens=50), at=3.5)
            assert ended is not None and ended.energy_j is None  # no sample after its end yet
        machine.clock.advance(1.0)

    (span,) = timeline.spans()
    assert span.energy_j == pytest.approx(200.0)
    assert span.energy_per_token_j == pytest.approx(4.0)


def test_without_an_energy_counter_a_reply_has_no_energy() -> None:
    machine = FakeMachine(gpus=[FakeGpu(energy_mj=None)])
    timeline = SessionTimeline(machine.session)
    record(machine, timeline, 2)
    timeline.reply_started()
    record(machine, timeline, 2)
    timeline.reply_ended(ReplyOutcome.FINISHED, ReplyStats(completion_tokens=5))
    record(machine, timeline, 2)
    (span,) = timeline.spans()
    assert span.energy_j is None and span.energy_per_token_j is None
