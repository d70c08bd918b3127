"""A reply of the real engine with speculative decoding set for it, as the drafting tests compare them."""

from __future__ import annotations

import threading

from app.core.inference.engine import Engine
from app.core.inference.sampling import SamplingParams
from app.core.types.load import Speculative
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece


def reply_tokens(
    engine: Engine, messages: list[ChatMessage], params: SamplingParams, mode: Speculative
) -> tuple[list[int], ReplyDone]:
    """The reply's token ids and its ReplyDone, from an empty KV cache."""
    engine.llama.reset()
    events = list(engine.stream_chat(messages, params, threading.Event(), speculative=mode))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    return [e.token_id for e in events if isinstance(e, TokenPiece) and e.token_id >= 0], done
