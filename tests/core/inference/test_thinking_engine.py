"""A thinking model's whole path on the real starter model: a grammar makes it write `<think>…</think>answer`
and the per-model override names the markers (SmolLM2's template has no think block, as a user's model
whose template does not say). Short replies, a small context."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.core.chat.context_window import EnginePlanner, PlanRequest, WindowTurn
from app.core.chat.prompt_inspector import inspect_conversation
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import StopReason

THINK_THEN_ANSWER = 'root ::= "<think>" [a-z ]{1,24} "</think>" [A-Za-z]{1,8}'
THINK_AT_LENGTH = 'root ::= "<think>" [a-z ]+ "</think>" [A-Za-z]{1,8}'  # the block may close at any point
QUESTION = [ChatMessage("user", "What is two plus two?")]


@pytest.fixture(scope="module")
def thinking_engine(starter_model: Path) -> Iterator[Engine]:
    engine = Engine()
    engine.load(LoadConfig(starter_model, n_ctx=512, reasoning="think"))
    yield engine
    engine.close()


def reply(engine: Engine, grammar: str, **sampling: Any) -> list[ReplyEvent]:
    params = replace(GREEDY, max_tokens=24, **sampling)
    return list(engine.stream_chat(QUESTION, params, threading.Event(), grammar=grammar))


def split(events: list[ReplyEvent]) -> tuple[list[TokenPiece], ReplyDone]:
    done = events[-1]
    assert isinstance(done, ReplyDone)
    return [e for e in events if isinstance(e, TokenPiece)], done


def test_the_override_names_the_markers_for_a_template_that_does_not_say(starter_model: Path) -> None:
    engine = Engine()
    try:
        plain = engine.load(LoadConfig(starter_model, n_ctx=256))
        assert (plain.reasoning_family, plain.thinking_switch, engine.reasoning) == ("", "", None)
        report = engine.load(LoadConfig(starter_model, n_ctx=256, reasoning="think"))
    finally:
        engine.close()
    assert (report.reasoning_family, report.thinking_switch) == ("think", "prefill")  # what the window is told


def test_a_reply_in_the_think_shape_streams_its_reasoning_then_its_answer(thinking_engine: Engine) -> None:
    pieces, done = split(reply(thinking_engine, THINK_THEN_ANSWER))
    texts = [(p.part, p.text) for p in pieces if p.text]
    parts = [part for part, _ in texts]
    assert parts == sorted(parts, key=lambda part: part is ReplyPart.ANSWER)  # all reasoning, then all answer
    assert "".join(t for part, t in texts if part is ReplyPart.REASONING).strip() == done.reasoning != ""
    assert "".join(t for part, t in texts if part is ReplyPart.ANSWER) == done.text != ""
    assert "<think>" not in done.text + done.reasoning and "think>" not in done.text
    # Every token is reported once, with its id; the answer's first token comes after the reasoning's.
    ids = [p.token_id for p in pieces if p.token_id >= 0]
    assert len(ids) == done.stats.completion_tokens
    first_answer = next(p for p in pieces if p.part is ReplyPart.ANSWER and p.text)
    assert ids.index(first_answer.token_id) == done.stats.reasoning_tokens
    assert 0 < done.stats.reasoning_tokens < done.stats.completion_tokens
    assert 0 < done.stats.reasoning_s <= done.stats.total_s


def test_stop_inside_the_reasoning_ends_the_reply_with_the_reasoning_kept(thinking_engine: Engine) -> None:
    stop = threading.Event()
    params = replace(GREEDY, max_tokens=24)
    events: list[ReplyEvent] = []
    for event in thinking_engine.stream_chat(QUESTION, params, stop, grammar=THINK_AT_LENGTH):
        events.append(event)
        if isinstance(event, TokenPiece) and event.part is ReplyPart.REASONING and event.text:
            stop.set()  # the user's Stop, read between tokens
    _, done = split(events)
    assert done.stats.stop_reason is StopReason.USER
    assert done.text == "" and done.reasoning != ""
    assert done.stats.reasoning_tokens == done.stats.completion_tokens


def test_the_budget_closes_the_block_at_its_limit_and_the_answer_follows(thinking_engine: Engine) -> None:
    pieces, done = split(reply(thinking_engine, THINK_AT_LENGTH, reasoning_budget=3))
    inside = [p for p in pieces if p.part is ReplyPart.REASONING and p.text]
    assert len(inside) == 3  # the tokens written inside the block, each a word piece of [a-z ]
    assert done.text != "" and done.stats.stop_reason is StopReason.END_OF_TEXT


def test_thinking_off_starts_the_reply_after_an_empty_block(thinking_engine: Engine) -> None:
    off = replace(GREEDY, max_tokens=3, thinking=False)
    with thinking_engine.thinking(off):
        prompt = thinking_engine.render_prompt(QUESTION)
    assert prompt.endswith("<|im_start|>assistant\n<think></think>\n\n")
    assert not thinking_engine.render_prompt(QUESTION).endswith("</think>\n\n")  # on: no block written
    _, done = split(list(thinking_engine.stream_chat(QUESTION, off, threading.Event())))
    assert done.reasoning == "" and done.stats.reasoning_tokens == 0


def test_the_next_turns_prompt_has_no_past_reasoning_where_the_template_drops_it(thinking_engine: Engine) -> None:
    earlier = ChatMessage("assistant", "Four.", "two and two make four")
    later = [*QUESTION, earlier, ChatMessage("user", "And three?")]
    prompt = thinking_engine.render_prompt(later)
    assert "two and two make four" not in prompt and "Four." in prompt
    without = [*QUESTION, ChatMessage("assistant", "Four."), ChatMessage("user", "And three?")]
    assert thinking_engine.prompt_tokens(later) == thinking_engine.prompt_tokens(without)


def test_the_prompt_inspector_shows_the_prompt_with_the_chats_thinking_switch(thinking_engine: Engine) -> None:
    off = replace(GREEDY, max_tokens=8, thinking=False)
    inspected = inspect_conversation(thinking_engine, QUESTION, reserve=8, sampling=off)
    assert inspected.text.endswith("<|im_start|>assistant\n<think></think>\n\n")
    with thinking_engine.thinking(off):
        assert [t.token_id for t in inspected.tokens] == thinking_engine.prompt_tokens(QUESTION)
    on = inspect_conversation(thinking_engine, QUESTION, reserve=8, sampling=replace(off, thinking=True))
    assert on.text.endswith("<|im_start|>assistant\n")


def test_the_window_counts_no_past_reasoning_where_the_template_drops_it(thinking_engine: Engine) -> None:
    earlier = WindowTurn("a1", "assistant", "Four.", "two and two make four " * 20)
    turns = (WindowTurn("u1", "user", "What is two plus two?"), earlier, WindowTurn("u2", "user", "And three?"))
    plan = EnginePlanner(thinking_engine).plan(PlanRequest("meter", "", turns, reserve=64)).plan
    assert plan is not None and plan.kept_ids == ("u1", "a1", "u2")
    assert plan.reasoning_tokens == 0 and plan.estimated_tokens == plan.prompt_tokens
    assert plan.reasoning_left_out >= 100  # 100 words' tokens that the prompt does not carry
