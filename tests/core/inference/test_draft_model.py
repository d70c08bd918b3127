"""Speculative decoding with a draft model: a second, smaller copy of the model guesses, the model decides.

The draft here is the starter model quantized again to Q4_0 (llama.cpp's own quantizer): the same
vocabulary, slightly different weights, so it proposes mostly, not always, what the model picks."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import llama_cpp
import pytest

from app.bench.synthetic_gguf import SyntheticModel, write_synthetic_model
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.types.load import LoadConfig, Speculative
from app.core.types.messages import ChatMessage
from tests.helpers.replies import reply_tokens

PROMPTS = [
    [ChatMessage("user", "Name three colours of the rainbow.")],
    [ChatMessage("user", "Write a long story about a fox in a forest.")],
]
LONG = replace(GREEDY, max_tokens=32)


@pytest.fixture(scope="module")
def requantized_starter(starter_model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The starter model quantized again, to Q4_0."""
    out = tmp_path_factory.mktemp("draft") / "SmolLM2-135M-Instruct.Q4_0.gguf"
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_0
    # Q4_0's mixture wants Q6_K for the embedding, whose 576 columns fit no Q6_K block: ask for Q8_0 at once.
    params.token_embedding_type = llama_cpp.GGML_TYPE_Q8_0
    params.allow_requantize = True
    params.nthread = 2
    assert llama_cpp.llama_model_quantize(str(starter_model).encode(), str(out).encode(), ctypes.byref(params)) == 0
    return out


@pytest.fixture(scope="module")
def drafting_engine(starter_model: Path, requantized_starter: Path) -> Iterator[Engine]:
    """Flash attention on: with it llama.cpp's CPU backend decodes a batch exactly like single tokens."""
    engine = Engine()
    report = engine.load(
        LoadConfig(
            starter_model, n_ctx=2048, flash_attn=True, speculative=Speculative.ON, draft_model=requantized_starter
        )
    )
    assert any(stage.name == "draft model" for stage in report.stages)
    yield engine
    engine.close()


@pytest.mark.parametrize("messages", PROMPTS, ids=["rainbow", "story"])
def test_greedy_replies_with_a_draft_model_are_token_for_token_those_of_plain_decoding(
    drafting_engine: Engine, messages: list[ChatMessage]
) -> None:
    plain, plain_done = reply_tokens(drafting_engine, messages, LONG, Speculative.OFF)
    drafted, done = reply_tokens(drafting_engine, messages, LONG, Speculative.ON)
    assert drafted == plain
    assert done.text == plain_done.text
    assert 0 < done.stats.accepted_tokens <= done.stats.drafted_tokens


def test_a_draft_that_is_the_model_itself_has_every_greedy_proposal_taken(starter_model: Path) -> None:
    # Its cache follows the conversation exactly: were it a token off, it would propose other tokens.
    engine = Engine()
    engine.load(
        LoadConfig(starter_model, n_ctx=1024, flash_attn=True, speculative=Speculative.ON, draft_model=starter_model)
    )
    try:
        for messages in PROMPTS:
            _tokens, done = reply_tokens(engine, messages, LONG, Speculative.ON)
            assert done.stats.drafted_tokens > 0
            assert done.stats.accepted_tokens == done.stats.drafted_tokens
    finally:
        engine.close()


def test_a_sampled_reply_with_a_draft_model_is_the_draw_plain_decoding_makes(drafting_engine: Engine) -> None:
    # The acceptance rule keeps the model's distribution: with the same seed, the very same tokens.
    for seed in (3, 21):
        params = SamplingParams(temperature=0.9, seed=seed, max_tokens=24)
        plain, _ = reply_tokens(drafting_engine, PROMPTS[1], params, Speculative.OFF)
        drafted, done = reply_tokens(drafting_engine, PROMPTS[1], params, Speculative.ON)
        assert drafted == plain
        assert done.stats.drafted_tokens > 0


def test_a_follow_up_reply_reuses_what_the_draft_model_has_in_its_cache(drafting_engine: Engine) -> None:
    first, done = reply_tokens(drafting_engine, PROMPTS[0], LONG, Speculative.ON)
    follow_up = [*PROMPTS[0], ChatMessage("assistant", done.text), ChatMessage("user", "And two more?")]
    plain, _ = reply_tokens(drafting_engine, follow_up, LONG, Speculative.OFF)
    drafted, _ = reply_tokens(drafting_engine, follow_up, LONG, Speculative.ON)
    assert drafted == plain and first


def _load_refusing(starter_model: Path, draft: Path) -> str:
    """Load the starter with `draft` as its draft model: it loads, the draft does not; returns the reason."""
    engine = Engine()
    try:
        report = engine.load(LoadConfig(starter_model, n_ctx=512, speculative=Speculative.ON, draft_model=draft))
        assert engine.is_loaded
        assert all(stage.name != "draft model" for stage in report.stages)
        _tokens, done = reply_tokens(engine, PROMPTS[0], replace(LONG, max_tokens=8), Speculative.ON)
        assert done.stats.completion_tokens == 8  # it replies, drafting by prompt lookup
        return report.draft_refused
    finally:
        engine.close()


def test_a_draft_model_with_another_vocabulary_is_refused_with_the_reason(starter_model: Path, tmp_path: Path) -> None:
    other = write_synthetic_model(tmp_path / "synthetic-llama.F16.gguf", SyntheticModel())
    reason = _load_refusing(starter_model, other)
    assert reason.startswith("synthetic-llama.F16.gguf cannot draft for this model: ")
    assert reason.endswith("A draft model needs the same vocabulary.")


def test_a_damaged_draft_model_is_refused_with_a_clear_message(starter_model: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\x00" * 64)
    reason = _load_refusing(starter_model, broken)
    assert reason.startswith("The draft model cannot be used. Cannot use model file ")
    assert "broken.gguf" in reason


def test_with_speculative_decoding_off_the_draft_model_is_not_loaded(starter_model: Path, tmp_path: Path) -> None:
    # Off means off: no memory is spent on a draft that would never be asked.
    engine = Engine()
    try:
        report = engine.load(
            LoadConfig(starter_model, n_ctx=512, speculative=Speculative.OFF, draft_model=tmp_path / "missing.gguf")
        )
        assert all(stage.name != "draft model" for stage in report.stages)
    finally:
        engine.close()
