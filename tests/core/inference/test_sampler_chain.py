"""The token loop picks tokens with llama.cpp's own sampler chain, in the documented order."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from app.core.inference.engine import Engine
from app.core.inference.logits import LogitsRows
from app.core.inference.sampler_chain import GreedyArgmax, SamplerChain, token_sampler
from app.core.inference.sampling import GREEDY, SAMPLER_ORDER, THINKING_FIELDS, SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece

STORY = [ChatMessage("user", "Tell a short story about a cat who finds a key.")]


def _tokens(engine: Engine, messages: list[ChatMessage], params: SamplingParams) -> tuple[list[int], ReplyDone]:
    engine.llama.reset()
    events = list(engine.stream_chat(messages, params, threading.Event()))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    return [e.token_id for e in events if isinstance(e, TokenPiece) and e.token_id >= 0], done


def _reference_text(engine: Engine, messages: list[ChatMessage], params: SamplingParams) -> str:
    """The same reply through llama-cpp-python's own loop and sampler set-up."""
    llama = engine.llama
    llama.reset()
    llama.last_n_tokens_size = params.repeat_last_n
    reference = llama.create_completion(
        engine.prompt_tokens(messages),
        max_tokens=params.max_tokens,
        temperature=params.temperature,
        top_k=params.top_k,
        top_p=params.top_p,
        min_p=params.min_p,
        repeat_penalty=params.repeat_penalty,
        frequency_penalty=params.frequency_penalty,
        presence_penalty=params.presence_penalty,
        seed=params.seed,
    )
    return str(reference["choices"][0]["text"])  # type: ignore[index]


@pytest.mark.parametrize(
    "params",
    [
        SamplingParams(temperature=0.8, top_k=40, top_p=0.95, min_p=0.05, repeat_penalty=1.1, seed=11, max_tokens=40),
        SamplingParams(temperature=1.2, top_k=0, top_p=1.0, min_p=0.0, repeat_penalty=1.0, seed=3, max_tokens=40),
        SamplingParams(
            temperature=0.7,
            top_k=20,
            top_p=0.9,
            min_p=0.1,
            presence_penalty=0.5,
            frequency_penalty=0.3,
            seed=5,
            max_tokens=40,
        ),
        replace(GREEDY, repeat_penalty=1.3, max_tokens=40),
    ],
    ids=["balanced", "no cuts", "with presence and frequency penalties", "greedy with a repeat penalty"],
)
def test_a_seeded_reply_is_the_one_llama_cpp_python_draws_with_the_same_settings(
    engine: Engine, params: SamplingParams
) -> None:
    _tokens_drawn, done = _tokens(engine, STORY, params)
    assert done.text == _reference_text(engine, STORY, params)


def test_the_same_seed_draws_the_same_reply_and_another_seed_another(engine: Engine) -> None:
    params = SamplingParams(temperature=1.0, seed=42, max_tokens=30)
    first, _ = _tokens(engine, STORY, params)
    again, _ = _tokens(engine, STORY, params)
    other, _ = _tokens(engine, STORY, replace(params, seed=43))
    assert first == again
    assert other != first


def test_plain_greedy_takes_the_first_highest_logit_as_llama_cpps_greedy_chain_does(engine: Engine) -> None:
    llama = engine.llama
    rows = LogitsRows(llama.ctx, llama.n_vocab())
    for text in ("The capital of France is", "1, 2, 3, 4,", "Once upon a time"):
        llama.reset()
        llama.eval(llama.tokenize(text.encode(), add_bos=True))
        shortcut = token_sampler(GREEDY, 0, rows, llama.ctx)
        chain = SamplerChain(GREEDY, 0, llama.n_vocab(), llama.ctx)
        try:
            assert isinstance(shortcut, GreedyArgmax)
            assert shortcut.sample(-1) == chain.sample(-1) == int(rows.row(-1).argmax())
        finally:
            chain.close()
    llama.reset()


def test_the_chain_runs_its_stages_in_the_documented_order_and_leaves_out_those_that_do_nothing(
    engine: Engine,
) -> None:
    llama = engine.llama
    order = [name for name, _fields in SAMPLER_ORDER]
    full = SamplerChain(SamplingParams(repeat_penalty=1.1), 1, llama.n_vocab(), llama.ctx)
    plain = SamplerChain(
        SamplingParams(top_k=0, top_p=1.0, min_p=0.0, repeat_penalty=1.0), 1, llama.n_vocab(), llama.ctx
    )
    greedy = SamplerChain(replace(GREEDY, repeat_penalty=1.2), 1, llama.n_vocab(), llama.ctx)
    try:
        assert full.stages == order
        assert plain.stages == ["temperature", "draw"]
        assert greedy.stages == ["penalties", "greedy"]
    finally:
        for chain in (full, plain, greedy):
            chain.close()


def test_every_sampling_field_but_the_reply_limits_and_thinking_belongs_to_one_stage() -> None:
    named = [field for _stage, fields in SAMPLER_ORDER for field in fields]
    assert len(named) == len(set(named))
    assert set(named) == set(SamplingParams().to_dict()) - {"max_tokens", "stop", *THINKING_FIELDS}


def test_after_a_reply_the_cached_tokens_are_the_prompt_and_every_reply_token_but_the_last(engine: Engine) -> None:
    tokens, done = _tokens(engine, STORY, replace(GREEDY, max_tokens=12))
    llama = engine.llama
    assert done.stats.completion_tokens == len(tokens) == 12
    assert list(llama.input_ids[: llama.n_tokens]) == engine.prompt_tokens(STORY) + tokens[:-1]
