"""Per-reply metrics, checked against llama.cpp's own performance counters."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import pytest

from app.core.inference.engine import Engine
from app.core.inference.metrics import MetricsRecorder
from app.core.inference.sampling import GREEDY
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.stats import LlamaCounters, ReplyMetrics, ReplyStats, StopReason


def _reply(engine: Engine, messages: list[ChatMessage], max_tokens: int) -> ReplyMetrics:
    recorder = MetricsRecorder(engine.llama)
    sampling = replace(GREEDY, max_tokens=max_tokens)
    events = list(engine.stream_chat(messages, sampling, threading.Event(), recorder.observe))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    return recorder.finish(done.stats, engine.llama)


@pytest.fixture(scope="module")
def cold_reply(engine: Engine) -> ReplyMetrics:
    # After a load's warm-up nothing is cached, and its one-token decode was never synchronized:
    # it must not count towards the reply.
    engine.warm_up()
    return _reply(engine, [ChatMessage("user", "Count from one to ten.")], max_tokens=6)


def test_prompt_tokens_evaluated_match_llama_cpps_prompt_counter(cold_reply: ReplyMetrics) -> None:
    stats = cold_reply.stats
    assert stats.cached_prompt_tokens == 0
    assert cold_reply.llama.prompt_eval_tokens == stats.evaluated_prompt_tokens == stats.prompt_tokens


def test_generated_tokens_match_llama_cpps_decode_counter(cold_reply: ReplyMetrics) -> None:
    stats = cold_reply.stats
    assert stats.stop_reason is StopReason.LENGTH
    # Each token is decoded before the next is sampled; the last one sampled was never decoded.
    assert cold_reply.llama.eval_tokens == stats.completion_tokens - 1


def test_wall_clock_times_contain_llama_cpps_compute_times(cold_reply: ReplyMetrics) -> None:
    stats = cold_reply.stats
    assert cold_reply.llama.prompt_eval_ms / 1000 <= stats.time_to_first_token_s
    assert cold_reply.llama.eval_ms / 1000 <= stats.total_s - stats.time_to_first_token_s
    assert stats.time_to_first_token_s <= stats.total_s


def test_every_generated_token_has_a_time_and_the_times_increase(cold_reply: ReplyMetrics) -> None:
    times = cold_reply.token_times_s
    assert len(times) == cold_reply.stats.completion_tokens
    assert times == sorted(times)
    # The recorder starts before the engine's clock and sees each token after it: never earlier.
    assert times[0] >= cold_reply.stats.time_to_first_token_s
    assert len(cold_reply.speed_series()) == len(times) - 1


def test_context_used_is_the_prompt_plus_the_reply(cold_reply: ReplyMetrics) -> None:
    stats = cold_reply.stats
    assert cold_reply.n_ctx == 2048
    assert cold_reply.context_used == stats.prompt_tokens + stats.completion_tokens
    assert cold_reply.context_fraction == pytest.approx(cold_reply.context_used / 2048)


def test_a_follow_up_evaluates_only_the_new_part_of_the_prompt(engine: Engine, cold_reply: ReplyMetrics) -> None:
    first = [ChatMessage("user", "Count from one to ten.")]
    engine.llama.reset()
    opening = _reply(engine, first, max_tokens=4)
    follow_up = _reply(
        engine, [*first, ChatMessage("assistant", "One, two"), ChatMessage("user", "Go on, please.")], max_tokens=4
    )
    assert follow_up.stats.cached_prompt_tokens > 0
    assert follow_up.llama.prompt_eval_tokens == follow_up.stats.evaluated_prompt_tokens
    assert follow_up.stats.evaluated_prompt_tokens < opening.stats.prompt_tokens


def test_speed_over_time_is_tokens_per_second_over_a_sliding_window() -> None:
    metrics = ReplyMetrics(stats=ReplyStats(), token_times_s=[0.5 + i * 0.02 for i in range(20)])
    series = metrics.speed_series(window=4)
    assert len(series) == 19
    assert series[0] == (pytest.approx(0.52), pytest.approx(50.0))
    assert all(speed == pytest.approx(50.0) for _t, speed in series)


def test_metrics_round_trip_through_json_for_the_chat_history(cold_reply: ReplyMetrics) -> None:
    data = json.loads(json.dumps(cold_reply.to_dict()))
    assert data["completion_tokens"] == cold_reply.stats.completion_tokens
    assert data["stop_reason"] == "length limit"
    restored = ReplyMetrics.from_dict(data)
    assert restored.stats == cold_reply.stats
    assert restored.llama == cold_reply.llama
    assert restored.token_times_s == pytest.approx(cold_reply.token_times_s, abs=1e-5)


def test_metrics_read_from_plain_reply_stats_fill_in_the_rest() -> None:
    restored = ReplyMetrics.from_dict({"completion_tokens": 3, "stop_reason": "stopped by user"})
    assert restored.stats.completion_tokens == 3
    assert restored.stats.stop_reason is StopReason.USER
    assert restored.llama == LlamaCounters()
