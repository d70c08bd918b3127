"""Whole turns against a scripted engine: the steps in order, Stop at each step, a failure at each step."""

from __future__ import annotations

import logging

import pytest

from app.core.chat.context_window import PlanResult
from app.core.types.replies import ReplyDone
from app.core.types.stats import StopReason
from tests.core.turn.scripted import Recorder, ScriptedEngine, turn_for


def test_a_turn_retrieves_plans_and_generates_then_finishes_once_with_the_reply() -> None:
    engine, recorder = ScriptedEngine(block="[1] The lamp is lit at dusk."), Recorder()
    turn_for(engine, recorder).run()
    assert recorder.named("step") == ["retrieve", "plan", "generate"]
    assert recorder.named("token") == ["Hel", "lo", " there", "!"]
    [(kind, done)] = recorder.ends
    assert kind == "finished" and isinstance(done, ReplyDone) and done.text == "Hello there!"
    assert engine.planned[-1].retrieved == "[1] The lamp is lit at dusk."  # the excerpts reach the planner


def test_the_planned_prompt_is_the_one_generated_from() -> None:
    engine, recorder = ScriptedEngine(), Recorder()
    seen = []
    generate = engine.generate
    engine.generate = lambda plan, stop, emit: (seen.append(plan), generate(plan, stop, emit))[-1]  # type: ignore[method-assign]
    turn_for(engine, recorder, retrieve=False).run()
    [result] = recorder.named("planned")
    assert isinstance(result, PlanResult) and seen == [result.plan]


@pytest.mark.parametrize("step", ["retrieve", "plan", "generate"])
def test_a_stop_during_a_step_before_the_first_token_ends_the_turn_with_nothing_generated(step: str) -> None:
    engine, recorder = ScriptedEngine(), Recorder()
    turn = turn_for(engine, recorder)
    engine.on_step[step] = turn.stop.set  # Stop pressed while this step runs
    turn.run()
    assert engine.generated == []
    assert recorder.named("token") == []
    [(kind, done)] = recorder.ends
    assert kind == "finished" and isinstance(done, ReplyDone)
    assert done.stats.stop_reason is StopReason.USER and done.text == ""


def test_a_stop_during_retrieval_plans_nothing() -> None:
    engine, recorder = ScriptedEngine(), Recorder()
    turn = turn_for(engine, recorder)
    engine.on_step["retrieve"] = turn.stop.set
    turn.run()
    assert engine.planned == [] and recorder.named("planned") == []


def test_a_stop_while_tokens_stream_keeps_the_partial_reply_and_generates_nothing_after_it() -> None:
    engine = ScriptedEngine()
    turn_holder = []
    recorder = Recorder(on_token=lambda piece: turn_holder[0].stop.set() if piece.text == "lo" else None)
    turn = turn_for(engine, recorder)
    turn_holder.append(turn)
    turn.run()
    assert engine.generated == ["Hel", "lo"]  # the token after the Stop was never made
    [(kind, done)] = recorder.ends
    assert kind == "finished" and isinstance(done, ReplyDone)
    assert done.stats.stop_reason is StopReason.USER and done.text == "Hello"


def test_a_stop_before_the_turn_runs_ends_it_before_its_first_step() -> None:
    engine, recorder = ScriptedEngine(), Recorder()
    turn = turn_for(engine, recorder)
    turn.stop.set()
    turn.run()
    assert recorder.named("step") == [] and engine.generated == []
    assert [kind for kind, _ in recorder.ends] == ["finished"]


@pytest.mark.parametrize("step", ["retrieve", "plan", "generate", "token"])
@pytest.mark.expected_log("app.core.turn.turn", logging.ERROR, "The turn failed in its")
def test_a_failure_at_any_step_reaches_the_one_failed_event_with_the_partial_text(step: str) -> None:
    engine, recorder = ScriptedEngine(), Recorder()
    engine.fail_at = step
    turn_for(engine, recorder).run()
    [(kind, value)] = recorder.ends
    assert kind == "failed"
    partial, message = value  # type: ignore[misc]
    assert partial == ("Hel" if step == "token" else "")
    assert "broke" in message or "died" in message


def test_a_turn_the_window_refuses_fails_with_the_planners_message() -> None:
    engine, recorder = ScriptedEngine(), Recorder()
    engine.refuse = "The message is too long for the context window."
    turn_for(engine, recorder).run()
    assert recorder.ends == [("failed", ("", "The message is too long for the context window."))]
    assert engine.generated == []


def test_excerpts_that_do_not_fit_are_left_out_and_the_turn_is_planned_again_without_them() -> None:
    engine, recorder = ScriptedEngine(block="[1] A very long excerpt."), Recorder()
    plan = engine.plan

    def refuse_excerpts(request):  # type: ignore[no-untyped-def]
        return PlanResult(request, error="too long") if request.retrieved else plan(request)

    engine.plan = refuse_excerpts  # type: ignore[method-assign]
    turn_for(engine, recorder).run()
    [result] = recorder.named("planned")
    assert isinstance(result, PlanResult) and result.request.retrieved == ""
    assert [kind for kind, _ in recorder.ends] == ["finished"]
