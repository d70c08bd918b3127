"""What a turn tells its owner while it runs: the `TurnSink` protocol."""

from __future__ import annotations

from typing import Protocol

from app.core.chat.context_window import PlanResult
from app.core.documents.retrieval import Retrieval
from app.core.types.replies import ReplyDone, TokenPiece
from app.core.types.stats import ReplyMetrics
from app.core.types.token_trace import TokenTrace


class TurnSink(Protocol):
    """Called on the thread that runs the turn, in this order: steps and their results, then
    exactly one of `finished` and `failed`."""

    def step_started(self, name: str) -> None: ...

    def retrieved(self, retrieval: Retrieval) -> None: ...

    def planned(self, result: PlanResult) -> None: ...

    def token(self, piece: TokenPiece) -> None: ...

    def measured(self, metrics: ReplyMetrics | None, trace: TokenTrace | None) -> None: ...

    def finished(self, done: ReplyDone) -> None: ...

    def failed(self, partial: str, message: str) -> None: ...
