"""The events of a streamed reply: a piece of text per token, then one ReplyDone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from app.core.types.replay_record import ReplayRecord
from app.core.types.stats import ReplyMetrics, ReplyStats
from app.core.types.token_trace import TokenTrace
from app.core.types.tools import ToolCall


class ReplyPart(StrEnum):
    """Which part of a reply a piece of text belongs to: a thinking model writes its reasoning
    first, then the answer (app/core/reasoning splits the raw stream)."""

    REASONING = "reasoning"
    ANSWER = "answer"


@dataclass(frozen=True)
class TokenPiece:
    """Text that became complete with this token (may be empty mid-character), and the part of
    the reply it belongs to."""

    text: str
    token_id: int
    part: ReplyPart = ReplyPart.ANSWER


@dataclass(frozen=True)
class ReplyDone:
    """The end of a reply. A backend that measures more than ReplyStats adds `metrics`, and
    `trace` when token probabilities were asked for, and `replay` when the reply was recorded
    to be run again (app/core/inference/replay.py). `text` is the answer alone; a thinking
    model's reasoning is `reasoning`, without its markers. `tool_calls` are the calls a server
    read apart from the text (OpenAI's `tool_calls`); a local model's calls are in `text`, in its
    template's family, and read from there."""

    text: str
    stats: ReplyStats
    metrics: ReplyMetrics | None = None
    trace: TokenTrace | None = None
    replay: ReplayRecord | None = None
    reasoning: str = ""
    tool_calls: tuple[ToolCall, ...] = ()


ReplyEvent = TokenPiece | ReplyDone


def final_reply(events: Iterable[ReplyEvent]) -> ReplyDone:
    """Run a reply stream to its end and return the ReplyDone that closes it."""
    done: ReplyDone | None = None
    for event in events:
        if isinstance(event, ReplyDone):
            done = event
    assert done is not None, "every reply stream ends with a ReplyDone"
    return done
