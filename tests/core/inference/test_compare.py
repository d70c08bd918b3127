"""Comparing greedy, beam search and sampled replies on the real starter model, scored by the model alike."""

from __future__ import annotations

import math
import threading

import pytest

from app.core.backends.local.session import EngineSession
from app.core.inference.beam_search import BeamSettings
from app.core.inference.compare import compare_strategies
from app.core.inference.engine import Engine
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage


def test_each_strategy_comes_with_its_likelihood_length_and_speed(engine: Engine) -> None:
    heard = []
    session = EngineSession(engine)  # what the engine process runs for the local backend
    results = compare_strategies(
        session,
        [ChatMessage("user", "Name three colours.")],
        SamplingParams(temperature=1.0, max_tokens=24),
        BeamSettings(width=3, alpha=0.0),
        seeds=[1, 2],
        stop=threading.Event(),
        on_result=heard.append,
    )
    assert [r.label for r in results] == ["greedy", "beam width 3", "sampled, seed 1", "sampled, seed 2"]
    assert heard == results
    for r in results:
        assert r.text and 0 < r.length <= 24
        assert r.total_logprob < 0
        assert r.mean_logprob == pytest.approx(r.total_logprob / r.length)
        assert r.perplexity == pytest.approx(math.exp(-r.mean_logprob)) and r.perplexity >= 1
        assert r.tokens_per_s > 0 and r.seconds > 0
