"""Beam search on the real starter model: greedy at width 1, as likely as greedy or more when wider, GNMT ranking."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from app.core.inference.beam_search import (
    BeamEnd,
    BeamSearcher,
    BeamSearchError,
    BeamSettings,
    Hypothesis,
    beam_context_cells,
    beam_score,
    length_penalty,
    rank_hypotheses,
)
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY
from app.core.types.messages import ChatMessage
from app.core.types.replies import TokenPiece

PROMPTS = ["Name three colours.", "What is the capital of France?", "Write one sentence about the sea."]


def prompt_of(engine: Engine, text: str) -> list[int]:
    return engine.prompt_tokens([ChatMessage("user", text)])


def greedy_tokens(engine: Engine, prompt: list[int], n: int) -> list[int]:
    """From an empty KV cache, as the beam search reads the prompt: a prefix another test left in the
    cache was computed in other batches, and a near tie may then go the other way."""
    engine.llama.reset()
    events = engine.stream_tokens(prompt, replace(GREEDY, max_tokens=n), threading.Event())
    return [e.token_id for e in events if isinstance(e, TokenPiece) and e.token_id >= 0]


@pytest.mark.parametrize("text", PROMPTS[:2])
def test_width_one_gives_exactly_the_greedy_tokens(engine: Engine, text: str) -> None:
    prompt = prompt_of(engine, text)
    result = BeamSearcher(engine.llama).search(prompt, BeamSettings(width=1, max_new_tokens=24))
    assert list(result.best.tokens) == greedy_tokens(engine, prompt, 24)


def test_the_best_beam_is_at_least_as_likely_as_greedy_for_the_same_length(engine: Engine) -> None:
    searcher = BeamSearcher(engine.llama)
    for text in PROMPTS:
        prompt = prompt_of(engine, text)
        fixed = BeamSettings(width=1, alpha=0.0, max_new_tokens=10, stop_at_end_of_text=False)
        greedy = searcher.search(prompt, fixed).best
        beam = searcher.search(prompt, replace(fixed, width=4)).best
        assert greedy.length == beam.length == 10
        assert beam.cumulative_logprob >= greedy.cumulative_logprob - 1e-9, text


def test_the_beams_share_one_batch_and_fork_their_cache_when_they_split(engine: Engine) -> None:
    result = BeamSearcher(engine.llama).search(
        prompt_of(engine, PROMPTS[0]), BeamSettings(width=4, max_new_tokens=8, stop_at_end_of_text=False)
    )
    assert result.steps == 7  # the first token comes from the prompt's logits, then one batched decode per token
    assert result.forks >= 3  # the first step splits the prompt's one sequence into four
    assert result.context_cells == beam_context_cells(result.prompt_tokens, 4, 8)
    assert len(result.hypotheses) == 4
    assert len({h.tokens for h in result.hypotheses}) == 4


def test_hypotheses_come_sorted_by_their_length_penalised_score(engine: Engine) -> None:
    settings = BeamSettings(width=4, alpha=0.8, keep=3, max_new_tokens=40)
    result = BeamSearcher(engine.llama).search(prompt_of(engine, PROMPTS[0]), settings)
    assert len(result.hypotheses) == 3
    scores = [h.score for h in result.hypotheses]
    assert scores == sorted(scores, reverse=True)
    for h in result.hypotheses:
        assert h.score == pytest.approx(h.cumulative_logprob / ((5 + h.length) / 6) ** 0.8)
        if h.end is BeamEnd.END_OF_TEXT:  # the end token's log-probability is in the sum, not in the text
            assert h.cumulative_logprob < sum(h.logprobs)
        else:
            assert h.cumulative_logprob == pytest.approx(sum(h.logprobs))


def test_the_length_penalty_ranks_as_gnmts_formula_says() -> None:
    short = Hypothesis((1, 2), (-1.0, -2.0), -3.0, 0.0, BeamEnd.END_OF_TEXT)
    long = Hypothesis(tuple(range(10)), (-0.4,) * 10, -4.0, 0.0, BeamEnd.END_OF_TEXT)
    assert length_penalty(1, 1.0) == 1.0
    assert rank_hypotheses([long, short], alpha=0.0)[0].tokens == short.tokens  # -3 beats -4
    # alpha 2: -3 / (7/6)^2 = -2.20 against -4 / (15/6)^2 = -0.64: the longer one wins.
    ranked = rank_hypotheses([short, long], alpha=2.0)
    assert ranked[0].tokens == long.tokens
    assert ranked[0].score == pytest.approx(beam_score(-4.0, 10, 2.0)) == pytest.approx(-0.64)


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        (BeamSettings(width=9), "width must be 1 to 8"),
        (BeamSettings(width=2, keep=3), "Keep 1 to 2"),
        (BeamSettings(max_new_tokens=0), "at least one new token"),
    ],
)
def test_settings_that_cannot_run_are_refused_with_the_reason(
    engine: Engine, settings: BeamSettings, words: str
) -> None:
    with pytest.raises(BeamSearchError, match=words):
        BeamSearcher(engine.llama).search(prompt_of(engine, PROMPTS[0]), settings)
