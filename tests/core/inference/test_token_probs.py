"""Token probabilities: the top alternatives of each generated token, from the current logits."""

from __future__ import annotations

import threading
from dataclasses import replace

import llama_cpp
import numpy as np
import pytest

from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.inference.token_probs import TokenProbabilityRecorder, softmax_top
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.token_trace import Confidence, TokenTrace, confidence

MESSAGES = [ChatMessage("user", "Name three colours of the rainbow.")]


def _reply(engine: Engine, params: SamplingParams) -> tuple[ReplyDone, TokenTrace, list[int]]:
    recorder = TokenProbabilityRecorder(params)
    events = list(engine.stream_chat(MESSAGES, params, threading.Event(), observer=recorder.observe))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    return done, recorder.trace(engine.llama), engine.prompt_tokens(MESSAGES)


@pytest.fixture(scope="module")
def greedy_reply(engine: Engine) -> tuple[ReplyDone, TokenTrace, list[int]]:
    return _reply(engine, replace(GREEDY, max_tokens=8))


def test_every_generated_token_has_five_alternatives_summing_to_at_most_one(greedy_reply) -> None:
    done, trace, _prompt = greedy_reply
    assert len(trace.steps) == done.stats.completion_tokens > 0
    for step in trace.steps:
        probabilities = [alternative.probability for alternative in step.alternatives]
        assert len(probabilities) == 5
        assert probabilities == sorted(probabilities, reverse=True)
        assert all(0.0 <= p <= 1.0 for p in probabilities)
        assert sum(probabilities) <= 1.0 + 1e-6


def test_under_greedy_sampling_the_chosen_token_is_the_most_likely_alternative(greedy_reply) -> None:
    _done, trace, _prompt = greedy_reply
    for step in trace.steps:
        assert step.rank == 1
        assert step.probability == pytest.approx(step.alternatives[0].probability)


def test_probabilities_match_a_direct_softmax_of_the_models_logits(engine: Engine, greedy_reply) -> None:
    """Replay the prompt and the reply token by token and take the softmax of each logits row by hand."""
    _done, trace, prompt = greedy_reply
    llama = engine.llama
    llama.reset()
    llama.eval(prompt)
    for step in trace.steps:
        row = np.ctypeslib.as_array(llama_cpp.llama_get_logits_ith(llama.ctx, -1), shape=(llama.n_vocab(),))
        logits = row.astype(np.float64)
        direct = np.exp(logits - logits.max())
        direct /= direct.sum()
        assert step.probability == pytest.approx(direct[step.token_id], abs=2e-3)
        for alternative in step.alternatives:
            assert alternative.probability == pytest.approx(direct[alternative.token_id], abs=2e-3)
        best = sorted(direct, reverse=True)[:5]
        assert [a.probability for a in step.alternatives] == pytest.approx(best, abs=2e-3)
        llama.eval([step.token_id])


def test_the_token_texts_put_together_are_the_reply(greedy_reply) -> None:
    done, trace, _prompt = greedy_reply
    assert "".join(step.text for step in trace.steps) == done.text


def test_the_trace_keeps_the_sampling_settings_it_was_drawn_under(greedy_reply) -> None:
    _done, trace, _prompt = greedy_reply
    assert trace.sampling["temperature"] == 0.0
    assert trace.sampling["max_tokens"] == 8


def test_with_temperature_the_chosen_token_has_a_probability_from_the_same_distribution(engine: Engine) -> None:
    params = SamplingParams(temperature=1.0, top_k=40, top_p=0.95, min_p=0.0, seed=7, max_tokens=10)
    _done, trace, _prompt = _reply(engine, params)
    for step in trace.steps:
        assert 0.0 < step.probability <= 1.0
        if step.rank is None:
            assert step.probability <= step.alternatives[-1].probability + 1e-6
        else:
            assert step.probability == pytest.approx(step.alternatives[step.rank - 1].probability)


def test_the_trace_survives_a_round_trip_through_json_ready_data(greedy_reply) -> None:
    _done, trace, _prompt = greedy_reply
    assert TokenTrace.from_dict(trace.to_dict()) == trace


def test_softmax_top_on_known_logits() -> None:
    logits = np.array([0.0, 2.0, 1.0, -1.0, 3.0, 0.5], dtype=np.float32)
    ids, probabilities, chosen = softmax_top(logits, token_id=0, top=3)
    expected = np.exp(logits.astype(np.float64)) / np.exp(logits.astype(np.float64)).sum()
    assert ids.tolist() == [4, 1, 2]
    assert probabilities.tolist() == pytest.approx(expected[[4, 1, 2]].tolist())
    assert chosen == pytest.approx(expected[0])


@pytest.mark.parametrize(
    ("probability", "band"),
    [
        (0.95, Confidence.HIGH),
        (0.5, Confidence.HIGH),
        (0.49, Confidence.UNSURE),
        (0.2, Confidence.UNSURE),
        (0.19, Confidence.LOW),
    ],
)
def test_confidence_bands(probability: float, band: Confidence) -> None:
    assert confidence(probability) is band
