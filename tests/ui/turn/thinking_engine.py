"""A scripted thinking model: its reasoning pieces, then its answer's, as the engine reports them
(each TokenPiece with its part; ReplyDone's text the answer alone, its reasoning apart)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from app.core.chat.context_window import WindowPlan
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from tests.core.turn.scripted import ScriptedEngine

REASONING = ("The user ", "greets me.", " A short **hello** will do.")
ANSWER = ("Hello", " there!")
REASONING_S = 12.4


class ThinkingEngine(ScriptedEngine):
    """Writes `reasoning` then `answer`, one piece at a time, checking the stop flag between pieces;
    `on_step["token"]` runs after the first piece (a reasoning piece); `fail_at = "token"` fails there."""

    def __init__(self, reasoning: tuple[str, ...] = REASONING, answer: tuple[str, ...] = ANSWER) -> None:
        super().__init__(tokens=reasoning + answer)
        self.pieces = [(ReplyPart.REASONING, text) for text in reasoning] + [(ReplyPart.ANSWER, t) for t in answer]

    def generate(self, plan: WindowPlan | None, stop: threading.Event, emit: Callable[[ReplyEvent], None]) -> None:
        self._enter("generate")
        written = {ReplyPart.REASONING: "", ReplyPart.ANSWER: ""}
        for index, (part, text) in enumerate(self.pieces):
            if stop.is_set():
                emit(self._done(written, index, StopReason.USER))
                return
            self.generated.append(text)
            written[part] += text
            emit(TokenPiece(text, index, part))
            if index == 0:
                self.on_step.get("token", lambda: None)()
            if self.fail_at == "token":
                raise RuntimeError("the engine died mid-reasoning")
        emit(self._done(written, len(self.pieces), StopReason.END_OF_TEXT))

    def _done(self, written: dict[ReplyPart, str], count: int, reason: StopReason) -> ReplyDone:
        thought = sum(1 for part, _ in self.pieces[:count] if part is ReplyPart.REASONING)
        stats = ReplyStats(
            completion_tokens=count,
            total_s=REASONING_S + 1.0,
            stop_reason=reason,
            reasoning_tokens=thought,
            reasoning_s=REASONING_S if thought else 0.0,
        )
        return ReplyDone(written[ReplyPart.ANSWER], stats, reasoning=written[ReplyPart.REASONING])
