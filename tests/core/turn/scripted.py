"""A scripted in-process engine for whole turns: no model, steps that stop or fail on cue."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.chat.context_window import PlanRequest, PlanResult, WindowPlan, WindowPolicy
from app.core.documents.retrieval import Retrieval
from app.core.turn.steps import GenerateStep, PlanStep, RetrieveStep, TurnState, TurnStep
from app.core.turn.turn import Turn
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece
from app.core.types.stats import ReplyMetrics, ReplyStats, StopReason
from app.core.types.token_trace import TokenTrace


@dataclass
class Recorder:
    """A TurnSink that keeps every event in order."""

    events: list[tuple[str, object]] = field(default_factory=list)
    on_token: Callable[[TokenPiece], None] = lambda _piece: None

    def step_started(self, name: str) -> None:
        self.events.append(("step", name))

    def retrieved(self, retrieval: Retrieval) -> None:
        self.events.append(("retrieved", retrieval))

    def planned(self, result: PlanResult) -> None:
        self.events.append(("planned", result))

    def token(self, piece: TokenPiece) -> None:
        self.events.append(("token", piece.text))
        self.on_token(piece)

    def measured(self, metrics: ReplyMetrics | None, trace: TokenTrace | None) -> None:
        self.events.append(("measured", metrics))

    def finished(self, done: ReplyDone) -> None:
        self.events.append(("finished", done))

    def failed(self, partial: str, message: str) -> None:
        self.events.append(("failed", (partial, message)))

    def named(self, kind: str) -> list[object]:
        return [value for name, value in self.events if name == kind]

    @property
    def ends(self) -> list[tuple[str, object]]:
        return [(name, value) for name, value in self.events if name in ("finished", "failed")]


class ScriptedEngine:
    """Retrieves `block`, plans every message, and writes `tokens` one at a time, checking the stop
    flag between tokens as the real token loop does. `fail_at` names a step that raises;
    `on_step` is called inside a step (a test presses Stop there)."""

    def __init__(self, tokens: tuple[str, ...] = ("Hel", "lo", " there", "!"), block: str = "") -> None:
        self.tokens = tokens
        self.block = block
        self.fail_at = ""
        self.refuse = ""  # the planner's message when it refuses the turn ("" plans it)
        self.on_step: dict[str, Callable[[], None]] = {}  # "token": after the first token was emitted
        self.generated: list[str] = []  # tokens the backend produced
        self.planned: list[PlanRequest] = []

    def _enter(self, name: str) -> None:
        self.on_step.get(name, lambda: None)()
        if self.fail_at == name:
            raise RuntimeError(f"{name} broke")

    def retrieve(self, request: PlanRequest, stop: threading.Event) -> Retrieval:
        self._enter("retrieve")
        return Retrieval(request.messages[-1].text, block=self.block)

    def plan(self, request: PlanRequest) -> PlanResult:
        self._enter("plan")
        self.planned.append(request)
        if self.refuse:
            return PlanResult(request, error=self.refuse)
        messages = tuple(ChatMessage(m.role, m.text) for m in request.messages)
        plan = WindowPlan(messages, tuple(m.id for m in request.messages), (), 10, 2, 512, 64, WindowPolicy.ROLLING)
        return PlanResult(request, plan)

    def generate(self, plan: WindowPlan | None, stop: threading.Event, emit: Callable[[ReplyEvent], None]) -> None:
        self._enter("generate")
        text = ""
        for index, piece in enumerate(self.tokens):
            if stop.is_set():
                emit(ReplyDone(text, ReplyStats(completion_tokens=index, stop_reason=StopReason.USER)))
                return
            self.generated.append(piece)
            text += piece
            emit(TokenPiece(piece, index))
            if index == 0:
                self.on_step.get("token", lambda: None)()
            if self.fail_at == "token":
                raise RuntimeError("the engine died mid-reply")
        emit(ReplyDone(text, ReplyStats(completion_tokens=len(self.tokens), stop_reason=StopReason.END_OF_TEXT)))

    def steps(self, retrieve: bool = True) -> list[TurnStep]:
        steps: list[TurnStep] = [RetrieveStep(self.retrieve)] if retrieve else []
        return [*steps, PlanStep(self.plan), GenerateStep(self.generate)]


@dataclass(frozen=True)
class Said:
    id: str
    role: str
    text: str


def turn_for(engine: ScriptedEngine, recorder: Recorder, retrieve: bool = True) -> Turn:
    request = PlanRequest("reply", "Be brief.", (Said("u1", "user", "Hi"),), 64)
    return Turn(engine.steps(retrieve), TurnState(request), recorder)
