"""The steps a turn runs, and the state they hand on to each other.

A step checks the turn's stop flag before it starts (the turn does that for it) and hands
the flag to whatever it waits on, so a Stop during the step ends the wait; a step that
returns with the flag set ends the turn as stopped. A step that cannot go on raises
`TurnFailed` with the message the user reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan
from app.core.documents.retrieval import Retrieval
from app.core.support.stop_flag import StopFlag
from app.core.support.user_text import N_
from app.core.turn.events import TurnSink
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart

Retrieve = Callable[[PlanRequest, StopFlag], Retrieval]  # wakes and returns early when the flag is set
Plan = Callable[[PlanRequest], PlanResult]
Generate = Callable[[WindowPlan, StopFlag, Callable[[ReplyEvent], None]], None]  # events, then one ReplyDone


class TurnFailed(Exception):
    """A step could not go on; `message` says why, for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class TurnState:
    """What the steps of one turn know so far (owned by the turn, written by one step at a time)."""

    request: PlanRequest  # what the context window is planned from (excerpts added by retrieval)
    plan: WindowPlan | None = None
    partial: str = ""  # the reply's answer so far
    reasoning: str = ""  # a thinking model's reasoning so far (never part of `partial`)
    done: ReplyDone | None = None  # set by the step that ends the reply


class TurnStep(Protocol):
    name: str

    def run(self, state: TurnState, stop: StopFlag, sink: TurnSink) -> None: ...


class RetrieveStep:
    """Excerpts of documents and recalled turns for the newest message, put in front of it for the planner."""

    name = "retrieve"

    def __init__(self, retrieve: Retrieve) -> None:
        self._retrieve = retrieve

    def run(self, state: TurnState, stop: StopFlag, sink: TurnSink) -> None:
        retrieval = self._retrieve(state.request, stop)
        if stop.is_set():
            return
        sink.retrieved(retrieval)
        if retrieval.block:
            state.request = replace(state.request, retrieved=retrieval.block)


class PlanStep:
    """The context window for the turn, counted with the model's tokenizer.

    When the excerpts make the turn too long, it is planned once more without them (the
    reply is written without excerpts); a turn that does not fit at all fails with the
    planner's message."""

    name = "plan"

    def __init__(self, plan: Plan) -> None:
        self._plan = plan

    def run(self, state: TurnState, stop: StopFlag, sink: TurnSink) -> None:
        result = self._plan(state.request)
        if result.plan is None and state.request.retrieved and not stop.is_set():
            state.request = replace(state.request, retrieved="")
            result = self._plan(state.request)
        if stop.is_set():
            return
        if result.plan is None:
            raise TurnFailed(result.error)
        state.plan = result.plan
        sink.planned(result)


THINK = "think"


class GenerateStep:
    """The reply to the planned prompt, streamed; the stop flag goes down to the token loop.

    A thinking model thinks inside this step: its first piece of reasoning starts the "think" step
    on the sink, and its first piece of answer after the reasoning starts "generate" again, so the
    turn reads retrieve → plan → generate → think → generate. The reasoning is kept apart from the
    answer (`TurnState.reasoning`), so a reply stopped or failed while it thinks keeps it as reasoning.
    """

    name = "generate"

    def __init__(self, generate: Generate) -> None:
        self._generate = generate

    def run(self, state: TurnState, stop: StopFlag, sink: TurnSink) -> None:
        if state.plan is None:
            raise TurnFailed(N_("The reply cannot be written: its context window was not planned."))
        ended: list[ReplyDone] = []

        def on_event(event: ReplyEvent) -> None:
            if isinstance(event, ReplyDone):
                ended.append(event)
                return
            if event.part is ReplyPart.REASONING:
                if event.text and not state.reasoning:
                    sink.step_started(THINK)
                state.reasoning += event.text
            else:
                if event.text and state.reasoning and not state.partial:
                    sink.step_started(self.name)  # the thinking is over: the answer is written
                state.partial += event.text
            sink.token(event)

        self._generate(state.plan, stop, on_event)
        if not ended:
            if stop.is_set():
                return  # ended by the Stop before a ReplyDone: the turn ends it as stopped
            raise TurnFailed(N_("The reply ended without saying how it ended."))
        done = ended[-1]
        sink.measured(done.metrics, done.trace)
        state.done = done
