"""Forking a reply on the real starter model: the tokens before the fork are kept and not evaluated again."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

from app.core.inference.engine import Engine
from app.core.inference.fork import fork_point, stream_fork
from app.core.inference.sampling import GREEDY
from app.core.types.errors import EngineError
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece


def reply_tokens(events: list) -> list[int]:
    return [e.token_id for e in events if isinstance(e, TokenPiece) and e.token_id >= 0]


def test_a_fork_keeps_the_tokens_before_it_forces_its_token_and_reuses_the_cache(engine: Engine) -> None:
    prompt = engine.prompt_tokens([ChatMessage("user", "Name three colours.")])
    params = replace(GREEDY, max_tokens=16)
    original = reply_tokens(list(engine.stream_tokens(prompt, params, threading.Event())))
    forced = engine.tokenize(" Purple")[0]
    assert forced != original[6]
    point = fork_point(prompt, original, 6, forced)

    events = list(stream_fork(engine, point, params, threading.Event()))
    head, *rest = events
    done = events[-1]
    assert isinstance(head, TokenPiece) and isinstance(done, ReplyDone)
    forked = [*original[:6], forced, *reply_tokens(rest)]
    assert forked[:6] == original[:6]
    assert forked[6] == forced
    assert len(forked) > 7  # it went on after the forced token
    # Everything before the forced token came from the KV cache: only the forced token was evaluated.
    assert done.stats.cached_prompt_tokens == len(prompt) + 6
    assert done.text.startswith(engine.llama.detokenize([*original[:6], forced]).decode())


def test_a_fork_past_the_end_of_the_reply_is_refused(engine: Engine) -> None:
    with pytest.raises(EngineError, match="cannot be forked at token 9"):
        fork_point([1, 2], [3, 4, 5], 9, 7)
