"""Forking a reply: keep its tokens before a position, force another token there, generate on.

The fork's prompt is the original prompt + the kept reply tokens + the forced token. The
engine's KV cache still holds the original prompt and reply (when that reply was the last
one made), so llama.cpp's prefix match reuses everything up to the fork position and only
the forced token is evaluated before the first new token: nothing before the fork is
evaluated again. (Forking an older reply, after another one filled the cache, reuses what
the two share, which the stats' cached_prompt_tokens shows.)
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from app.core.inference.engine import Engine, TokenObserver
from app.core.inference.sampling import SamplingParams
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import EngineError
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece


@dataclass(frozen=True)
class ForkPoint:
    prompt: tuple[int, ...]
    reply: tuple[int, ...]  # the original reply's token ids
    position: int  # index in `reply` of the token replaced
    forced: int  # the token put there instead

    @property
    def kept(self) -> tuple[int, ...]:
        return self.reply[: self.position]

    def tokens(self) -> list[int]:
        """What the forked generation continues from."""
        return [*self.prompt, *self.kept, self.forced]


def fork_point(prompt: Sequence[int], reply: Sequence[int], position: int, forced: int) -> ForkPoint:
    if not 0 <= position <= len(reply):
        message = N_("A reply of {count} tokens cannot be forked at token {position}.")
        raise EngineError(fill(message, count=len(reply), position=position))
    return ForkPoint(tuple(prompt), tuple(reply), position, forced)


def stream_fork(
    engine: Engine,
    point: ForkPoint,
    params: SamplingParams,
    stop: threading.Event,
    observer: TokenObserver | None = None,
) -> Iterator[ReplyEvent]:
    """The forked reply: one TokenPiece per kept token and for the forced one, then the new tokens
    as they come, then a ReplyDone whose text is the whole forked reply and whose stats are the
    continuation's (cached_prompt_tokens counts the reused prefix)."""
    head = [*point.kept, point.forced]
    head_text = engine.llama.detokenize(head).decode("utf-8", errors="replace")
    yield TokenPiece(head_text, point.forced)
    for event in engine.stream_tokens(point.tokens(), params, stop, observer):
        if isinstance(event, ReplyDone):
            yield ReplyDone(head_text + event.text, event.stats, event.metrics, event.trace)
        else:
            yield event
