"""An LLM worker with a scripted engine (tests/core/turn/scripted.py): no model, steps that hold on cue.

`hold(step)` makes that step ("plan", "generate", or "token": after the first token) wait,
once entered, until `release` is set, so a test can press Stop while it runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.chat.context_window import PlanRequest, PlanResult
from app.core.inference.engine import Engine
from app.core.types.replies import ReplyEvent
from app.ui.llm.worker import LlmWorker, ReplyRequest
from tests.core.turn.scripted import ScriptedEngine


class ScriptedWorker(LlmWorker):
    def __init__(self, engine: ScriptedEngine | None = None) -> None:
        super().__init__(LocalBackend(InProcessEngine(Engine())))
        self.engine = engine or ScriptedEngine()
        self.entered = threading.Event()
        self.release = threading.Event()
        self.requests: list[ReplyRequest] = []

    def hold(self, step: str) -> None:
        def wait() -> None:
            self.entered.set()
            self.release.wait(30)

        self.engine.on_step[step] = wait

    def plan(self, request: PlanRequest) -> PlanResult:
        return self.engine.plan(request)

    def stream_reply(self, request: ReplyRequest, stop: threading.Event, emit: Callable[[ReplyEvent], None]) -> None:
        self.requests.append(request)
        self.engine.generate(None, stop, emit)
