"""A thinking model's whole turn on the real starter model (plan with its tokenizer, generate in its token
loop): a reply that ends inside its reasoning block (the length limit, a Stop, a failure) keeps what it
reasoned as reasoning, never as answer. A grammar makes the starter write `<think>` and reason on; the
`think` markers are named for it, as for a model whose template does not say."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.chat.context_window import EnginePlanner, PlanRequest, WindowPlan, WindowTurn
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.support.stop_flag import StopFlag
from app.core.turn.steps import GenerateStep, PlanStep, TurnState
from app.core.turn.turn import Turn
from app.core.types.load import LoadConfig
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import StopReason
from tests.core.turn.scripted import Recorder

REASONS_ON = 'root ::= "<think>" [a-z ]+ "</think>" [A-Za-z]{1,8}'  # greedy, it does not close within a few tokens
QUESTION = (WindowTurn("u1", "user", "What is two plus two?"),)


@pytest.fixture(scope="module")
def engine(starter_model: Path) -> Iterator[Engine]:
    thinker = Engine()
    thinker.load(LoadConfig(starter_model, n_ctx=512, reasoning="think"))
    yield thinker
    thinker.close()


def thinking_turn(engine: Engine, params: SamplingParams, recorder: Recorder, fail_after: int = 0) -> Turn:
    """A turn that plans with the engine and generates with it; `fail_after`: the engine dies after that many
    pieces of reasoning (0: it does not)."""

    def generate(plan: WindowPlan, stop: StopFlag, emit: Callable[[ReplyEvent], None]) -> None:
        reasoned = 0
        for event in engine.stream_chat(plan.messages, params, stop, grammar=REASONS_ON):
            emit(event)
            if isinstance(event, TokenPiece) and event.part is ReplyPart.REASONING and event.text:
                reasoned += 1
                if reasoned == fail_after:
                    raise RuntimeError("the engine died mid-reasoning")

    request = PlanRequest("reply", "", QUESTION, params.max_tokens, with_ids=True, sampling=params)
    steps = [PlanStep(EnginePlanner(engine).plan), GenerateStep(generate)]
    return Turn(steps, TurnState(request), recorder)


def finished(recorder: Recorder) -> ReplyDone:
    (done,) = recorder.named("finished")
    assert isinstance(done, ReplyDone)
    return done


def test_a_reply_that_reaches_its_length_limit_inside_the_block_is_all_reasoning(engine: Engine) -> None:
    recorder = Recorder()
    turn = thinking_turn(engine, replace(GREEDY, max_tokens=8), recorder)
    turn.run()
    done = finished(recorder)
    assert done.stats.stop_reason is StopReason.LENGTH
    assert (done.text, turn.state.partial) == ("", "")
    assert done.reasoning != "" and done.reasoning == turn.state.reasoning.strip()
    assert "<think>" not in done.reasoning
    assert recorder.named("step") == ["plan", "generate", "think"]


def test_a_stop_inside_the_reasoning_ends_the_turn_with_the_reasoning_as_reasoning(engine: Engine) -> None:
    recorder = Recorder()
    turn = thinking_turn(engine, replace(GREEDY, max_tokens=64), recorder)
    recorder.on_token = lambda piece: turn.stop.set() if piece.part is ReplyPart.REASONING and piece.text else None
    turn.run()
    done = finished(recorder)
    assert done.stats.stop_reason is StopReason.USER
    assert done.text == "" and done.reasoning != ""
    assert done.reasoning == turn.state.reasoning.strip()


@pytest.mark.expected_log("app.core.turn.turn", logging.ERROR, "The turn failed in its")
def test_a_failure_inside_the_reasoning_keeps_what_was_reasoned_apart_from_the_answer(engine: Engine) -> None:
    recorder = Recorder()
    turn = thinking_turn(engine, replace(GREEDY, max_tokens=64), recorder, fail_after=3)
    turn.run()
    ((partial, message),) = recorder.named("failed")  # type: ignore[misc]
    assert partial == "" and "the engine died mid-reasoning" in str(message)
    assert turn.state.reasoning.strip() != "" and "<think>" not in turn.state.reasoning
