"""The `streaming` bench section measures each path against llama.cpp's own counters for the same reply."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.bench.measured import Measured
from app.bench.streaming import (
    engine_process_reply,
    engine_reply,
    long_prompt,
    paired,
    paired_decode,
    process_cpu_us,
    prompt_eval,
)
from app.core.backends.local.backend import LocalBackend
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY
from app.core.types.load import LoadConfig, Speculative
from app.core.types.messages import ChatMessage
from app.core.types.stats import LlamaCounters


def test_a_path_is_measured_as_a_share_of_decode_speed_and_as_time_per_token_beyond_it() -> None:
    # llama.cpp decoded 99 tokens in 990 ms (100 tok/s); the path delivered 80 tok/s.
    measured = Measured(80.0, LlamaCounters(eval_tokens=99, eval_ms=990.0))
    assert measured.of_decode == pytest.approx(0.8)
    assert measured.overhead_us == pytest.approx(1e6 / 80 - 1e6 / 100)


def test_an_engine_reply_comes_with_llama_cpps_decode_count_for_that_reply(engine: Engine) -> None:
    params = GREEDY.with_values({"max_tokens": 12})
    measured = engine_reply(engine, [ChatMessage("user", "Tell me about the sea.")], params)
    assert measured.tokens_per_s > 0
    assert measured.llama.eval_tokens == 11  # every token but the last was decoded on its own
    assert 0 < measured.of_decode <= 1.0


def test_the_long_prompt_is_about_a_thousand_tokens_and_its_evaluation_is_counted(engine: Engine) -> None:
    messages = long_prompt(engine)
    assert 950 <= engine.count_tokens(messages) <= 1000
    measured = prompt_eval(engine, messages)
    assert measured.llama.prompt_eval_tokens == engine.count_tokens(messages)
    assert measured.tokens_per_s > 0 and measured.llama.prompt_eval_tokens_per_s >= measured.tokens_per_s


def test_the_engine_process_is_timed_where_its_tokens_arrive_with_llama_cpps_count_in_the_child(
    starter_model: Path,
) -> None:
    backend = LocalBackend()
    try:
        backend.load(LoadConfig(starter_model, n_ctx=1024, speculative=Speculative.OFF))
        measured = engine_process_reply(
            backend, [ChatMessage("user", "Tell me about the sea.")], GREEDY.with_values({"max_tokens": 12})
        )
    finally:
        backend.close()
    assert measured.tokens_per_s > 0
    assert measured.llama.eval_tokens == 11
    # Timed where the tokens arrive: the first one's trip through the pipe can take a millisecond
    # longer than the last one's, a percent of a 12-token reply (a tenth of that in the bench's).
    assert 0.5 < measured.of_decode < 1.1


def test_paths_are_compared_round_by_round_so_drift_between_rounds_cancels() -> None:
    # The machine ran twice as fast in the second round; within each round c was 0.9 of a.
    assert paired([90.0, 180.0, 45.0], [100.0, 200.0, 50.0]) == pytest.approx(0.9)
    slow, fast = LlamaCounters(eval_tokens=99, eval_ms=1980.0), LlamaCounters(eval_tokens=99, eval_ms=990.0)
    window = [Measured(40.0, slow), Measured(90.0, fast)]
    engine = [Measured(48.0, fast), Measured(98.0, fast)]
    assert paired_decode(window, engine) == pytest.approx(0.75)  # median of 0.5 and 1.0
    with pytest.raises(ValueError):
        paired([1.0], [1.0, 2.0])  # rounds that do not pair up are a mistake, not a shorter median


def test_the_window_s_cpu_per_token_is_a_median_and_a_round_without_it_is_an_error_not_a_zero() -> None:
    counters = LlamaCounters(eval_tokens=99, eval_ms=990.0)
    rounds = [Measured(90.0, counters, cpu) for cpu in (400.0, 500.0, 450.0)]
    assert process_cpu_us(rounds) == 450.0
    with pytest.raises(RuntimeError, match="did not measure"):
        process_cpu_us([*rounds, Measured(90.0, counters)])
