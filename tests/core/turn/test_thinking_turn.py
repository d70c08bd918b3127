"""A thinking model's turn: the think step inside generate, and its reasoning kept apart from the answer
however the turn ends (a scripted backend streams pieces marked as the engine marks them)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import pytest

from app.core.chat.context_window import WindowPlan
from app.core.turn.steps import TurnState
from app.core.turn.turn import Turn
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from tests.core.turn.scripted import Recorder, ScriptedEngine, turn_for

REASONING = ReplyPart.REASONING
PIECES = (("Two and ", REASONING), ("two.", REASONING), ("It is ", ReplyPart.ANSWER), ("4.", ReplyPart.ANSWER))


class ThinkingBackend(ScriptedEngine):
    """Streams reasoning, then the answer; `stop_at`: the piece after which the Stop is pressed; `end_on_stop`:
    whether it then ends with a ReplyDone of its own (the engine does; a backend cut off may not)."""

    def __init__(self, stop_at: int = -1, end_on_stop: bool = True, fail_at_piece: int = -1) -> None:
        super().__init__()
        self.stop_at, self.end_on_stop, self.fail_at_piece = stop_at, end_on_stop, fail_at_piece
        self.turn: Turn | None = None

    def generate(self, plan: WindowPlan | None, stop: threading.Event, emit: Callable[[ReplyEvent], None]) -> None:
        reasoning, answer = "", ""
        for index, (text, part) in enumerate(PIECES):
            if stop.is_set():
                if self.end_on_stop:
                    emit(ReplyDone(answer, ReplyStats(stop_reason=StopReason.USER), reasoning=reasoning))
                return
            if index == self.fail_at_piece:
                raise RuntimeError("the engine died mid-reply")
            emit(TokenPiece(text, index, part))
            if part is REASONING:
                reasoning += text
            else:
                answer += text
            if index == self.stop_at and self.turn is not None:
                self.turn.stop.set()
        emit(ReplyDone(answer, ReplyStats(stop_reason=StopReason.END_OF_TEXT), reasoning=reasoning))


def run(backend: ThinkingBackend) -> tuple[Recorder, Turn]:
    recorder = Recorder()
    turn = turn_for(backend, recorder, retrieve=False)
    backend.turn = turn
    turn.run()
    return recorder, turn


def test_a_thinking_reply_thinks_inside_generate_then_answers() -> None:
    recorder, turn = run(ThinkingBackend())
    assert recorder.named("step") == ["plan", "generate", "think", "generate"]
    (done,) = recorder.named("finished")
    assert isinstance(done, ReplyDone) and (done.reasoning, done.text) == ("Two and two.", "It is 4.")
    assert (turn.state.reasoning, turn.state.partial) == ("Two and two.", "It is 4.")


def test_a_reply_without_reasoning_has_no_think_step() -> None:
    recorder = Recorder()
    turn_for(ScriptedEngine(), recorder, retrieve=False).run()
    assert recorder.named("step") == ["plan", "generate"]


def test_a_stop_inside_the_reasoning_ends_the_turn_with_the_reasoning_kept_as_reasoning() -> None:
    recorder, _ = run(ThinkingBackend(stop_at=0, end_on_stop=False))
    (done,) = recorder.named("finished")
    assert isinstance(done, ReplyDone) and done.stats.stop_reason is StopReason.USER
    assert (done.reasoning, done.text) == ("Two and", "")  # no reasoning in the answer


@pytest.mark.expected_log("app.core.turn.turn", logging.ERROR, "The turn failed in its")
def test_a_failure_inside_the_reasoning_fails_with_no_reasoning_in_the_answer_so_far() -> None:
    recorder, turn = run(ThinkingBackend(fail_at_piece=2))  # after the reasoning, before the answer
    ((partial, _message),) = [value for value in recorder.named("failed") if isinstance(value, tuple)]
    assert partial == "" and turn.state.reasoning == "Two and two."


def test_a_turn_state_starts_with_no_reasoning() -> None:
    assert TurnState(turn_for(ScriptedEngine(), Recorder()).state.request).reasoning == ""
