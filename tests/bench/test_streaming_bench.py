"""The `streaming` bench section measures each path against llama.cpp's own counters for the same reply."""

from __future__ import annotations

import pytest

from app.bench.streaming import Measured, engine_reply, long_prompt, prompt_eval
from app.core.inference.engine import ChatMessage, Engine
from app.core.inference.metrics import LlamaCounters
from app.core.inference.sampling import GREEDY


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
