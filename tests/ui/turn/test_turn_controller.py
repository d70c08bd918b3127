"""The turn controller runs a turn on the LLM worker's thread: Stop at each step, failures, one end signal."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import PlanRequest
from app.core.inference.sampling import GREEDY
from app.core.turn.steps import GenerateStep, PlanStep, TurnStep
from app.core.types.replies import ReplyDone, ReplyPart
from app.core.types.stats import StopReason
from app.ui.llm.worker import LlmThread, ReplyRequest
from app.ui.turn.controller import TurnController
from app.ui.turn.reply_parts import joined_runs
from tests.core.turn.scripted import Said
from tests.ui.turn.scripted_worker import ScriptedWorker
from tests.ui.turn.thinking_engine import ANSWER, REASONING, ThinkingEngine

END_MS = 10_000


class Rig:
    def __init__(self, worker: ScriptedWorker) -> None:
        self.worker = worker
        self.controller = TurnController(worker)
        self.text: list[str] = []
        self.ends: list[tuple[str, object]] = []
        self.controller.token.connect(self.text.append)
        self.controller.finished.connect(lambda done: self.ends.append(("finished", done)))
        self.controller.failed.connect(lambda partial, message: self.ends.append(("failed", (partial, message))))

    def steps(self) -> list[TurnStep]:
        worker = self.worker
        return [
            PlanStep(worker.plan),
            GenerateStep(lambda plan, stop, emit: worker.stream_reply(ReplyRequest(plan.messages, GREEDY), stop, emit)),
        ]

    def start(self) -> None:
        self.controller.start(self.steps(), PlanRequest("reply", "", (Said("u1", "user", "Hi"),), 64))


@pytest.fixture
def rig(qtbot: QtBot) -> Iterator[Rig]:
    thread = LlmThread(ScriptedWorker())
    assert isinstance(thread.worker, ScriptedWorker)
    try:
        yield Rig(thread.worker)
    finally:
        thread.worker.release.set()
        thread.shutdown()


def test_a_turn_streams_its_reply_and_ends_with_one_finished(rig: Rig, qtbot: QtBot) -> None:
    with qtbot.waitSignal(rig.controller.finished, timeout=END_MS):
        rig.start()
    assert "".join(rig.text) == "Hello there!"
    [(kind, done)] = rig.ends
    assert kind == "finished" and isinstance(done, ReplyDone) and done.text == "Hello there!"
    assert not rig.controller.running


@pytest.mark.parametrize("step", ["plan", "generate", "token"])
def test_a_stop_while_a_step_runs_ends_the_turn_and_nothing_is_generated_after_it(
    rig: Rig, qtbot: QtBot, step: str
) -> None:
    rig.worker.hold(step)
    with qtbot.waitSignal(rig.controller.finished, timeout=END_MS) as finished:
        rig.start()
        qtbot.waitUntil(rig.worker.entered.is_set, timeout=END_MS)
        rig.controller.stop()
        rig.worker.release.set()
    done = finished.args[0]
    assert done.stats.stop_reason is StopReason.USER
    kept = ["Hel"] if step == "token" else []  # the token made before the Stop is kept, none after it
    assert rig.worker.engine.generated == kept
    assert done.text == "".join(kept) and "".join(rig.text) == done.text
    assert len(rig.ends) == 1


@pytest.mark.parametrize("step", ["plan", "generate", "token"])
@pytest.mark.expected_log("app.core.turn.turn", logging.ERROR, "The turn failed in its")
def test_a_failure_at_any_step_ends_the_turn_with_one_failed_signal(rig: Rig, qtbot: QtBot, step: str) -> None:
    rig.worker.engine.fail_at = step
    with qtbot.waitSignal(rig.controller.failed, timeout=END_MS) as failed:
        rig.start()
    partial, message = failed.args
    assert partial == ("Hel" if step == "token" else "")
    assert "broke" in message or "died" in message
    assert len(rig.ends) == 1 and rig.ends[0][0] == "failed"


def test_closing_the_worker_thread_stops_the_turn_it_runs(qtbot: QtBot) -> None:
    thread = LlmThread(ScriptedWorker())
    worker = thread.worker
    assert isinstance(worker, ScriptedWorker)
    rig = Rig(worker)
    worker.hold("token")
    rig.start()
    qtbot.waitUntil(worker.entered.is_set, timeout=END_MS)
    thread.request_stop()  # as the window does when it closes
    worker.release.set()
    thread.shutdown()
    assert worker.engine.generated == ["Hel"]


def test_a_thinking_replys_reasoning_comes_as_its_own_signal_before_the_answer(qtbot: QtBot) -> None:
    thread = LlmThread(ScriptedWorker(ThinkingEngine()))
    assert isinstance(thread.worker, ScriptedWorker)
    try:
        rig = Rig(thread.worker)
        order: list[tuple[str, str]] = []
        rig.controller.reasoning.connect(lambda text: order.append(("reasoning", text)))
        rig.controller.token.connect(lambda text: order.append(("answer", text)))
        with qtbot.waitSignal(rig.controller.finished, timeout=END_MS):
            rig.start()
    finally:
        thread.shutdown()
    assert "".join(text for part, text in order if part == "reasoning") == "".join(REASONING)
    assert "".join(rig.text) == "".join(ANSWER), "the answer signal carries the answer alone"
    parts = [part for part, _ in order]
    assert parts == sorted(parts, key=["reasoning", "answer"].index), "every piece of reasoning before the answer"


def test_a_batch_is_split_into_runs_of_one_part_in_order() -> None:
    pieces = [
        (ReplyPart.REASONING, "a"),
        (ReplyPart.REASONING, "b"),
        (ReplyPart.ANSWER, "c"),
        (ReplyPart.ANSWER, "d"),
    ]
    assert joined_runs(pieces) == [(ReplyPart.REASONING, "ab"), (ReplyPart.ANSWER, "cd")]
    assert joined_runs([]) == []
