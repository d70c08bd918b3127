"""Exact replay of a thinking model's reply whose reasoning the budget closed, on the real starter model.

The starter's template has no reasoning block, so it stands in for a template that opens the block in its
generation prompt (as DeepSeek-R1's distills do): the engine is told its reply starts inside a `<think>`
block and the prompt ends with the opening tag, as such a template writes it. No grammar (a reply under a
grammar is not recorded): what the model writes is its reasoning until the budget closes the block."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.inference import engine as engine_module
from app.core.inference.engine import Engine
from app.core.inference.replay import generate_recorded, replay
from app.core.inference.sampling import SamplingParams
from app.core.reasoning.families import ReasoningSupport
from app.core.reasoning.splitter import THINK_TAGS
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replay_record import ReplayRecord

BUDGET = 4
SAMPLED = SamplingParams(temperature=0.9, top_k=40, seed=77, max_tokens=16, reasoning_budget=BUDGET)


@pytest.fixture(scope="module")
def engine(starter_model: Path) -> Iterator[Engine]:
    opens_the_block = ReasoningSupport(THINK_TAGS, starts_inside=True)
    thinker = Engine()
    with pytest.MonkeyPatch.context() as patch:  # what the template says, read once at the load
        patch.setattr(engine_module, "reasoning_support", lambda _template, _override: opens_the_block)
        thinker.load(LoadConfig(starter_model, n_ctx=512))
    yield thinker
    thinker.close()


def test_a_reply_whose_budget_closed_its_reasoning_replays_to_identical_tokens(engine: Engine) -> None:
    prompt = engine.prompt_tokens([ChatMessage("user", "Tell me about foxes.")]) + engine.tokenize("<think>\n")
    done, record = generate_recorded(engine, prompt, SAMPLED, chat=True)
    closing = engine.tokenize(THINK_TAGS.close + "\n\n")
    assert record.tokens[BUDGET : BUDGET + len(closing)] == tuple(closing)  # the engine closed the block there
    assert done.reasoning != "" and done.text != ""
    assert done.stats.reasoning_tokens == BUDGET + len(closing)
    engine.llama.reset()
    report = replay(engine, ReplayRecord.from_json(record.to_json()), prompt)
    assert report.identical, report.summary
    assert report.replayed == record.tokens


def test_replayed_with_another_budget_the_reply_goes_another_way_where_the_block_closed(engine: Engine) -> None:
    prompt = engine.prompt_tokens([ChatMessage("user", "Tell me about foxes.")]) + engine.tokenize("<think>\n")
    _, record = generate_recorded(engine, prompt, SAMPLED, chat=True)
    report = replay(engine, record, prompt, changed=replace(SAMPLED, reasoning_budget=BUDGET + 6))
    assert not report.identical and report.first_divergence == BUDGET
