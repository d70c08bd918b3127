"""A chat reply in the chat's decoding mode, started on the backend the LLM worker holds.

A local reply is recorded for replay (its ReplyDone carries the record, app/core/inference/replay.py);
a beam search runs whole and comes back as one piece (app/core/inference/decoding_mode.py),
refused before it runs when its KV cache does not fit; a fork continues a reply from its KV
cache with another token at one position (app/core/inference/fork.py). A server's model only
samples: what needs llama.cpp here is refused with a message.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from app.core.backends.local.backend import LocalBackend
from app.core.backends.remote import RemoteBackend
from app.core.inference.beam_search import BeamSettings
from app.core.inference.decoding_mode import beam_reply
from app.core.inference.engine import ChatMessage, EngineError, ReplyEvent
from app.core.inference.sampling import SamplingParams


@dataclass(frozen=True)
class ForkSpec:
    """Fork a reply (its token ids) at `position`, with `forced` there instead of the token it had."""

    reply: tuple[int, ...]
    position: int
    forced: int


class LocalOnly(EngineError):
    """Beam search and forks need llama.cpp on this machine; a server does not offer them."""


def open_reply(
    backend: LocalBackend | RemoteBackend,
    messages: Sequence[ChatMessage],
    params: SamplingParams,
    stop: threading.Event,
    token_probabilities: bool,
    fork: ForkSpec | None = None,
    beam: BeamSettings | None = None,
    local_only: str = "",
) -> Iterator[ReplyEvent]:
    """The reply's events; `local_only` is the message when a server's model is asked for a fork or beams."""
    if isinstance(backend, RemoteBackend):
        if fork is not None or beam is not None:
            raise LocalOnly(local_only)
        return backend.stream_chat(messages, params, stop, token_probabilities)
    if fork is not None:
        return backend.stream_fork(messages, fork.reply, fork.position, fork.forced, params, stop, token_probabilities)
    if beam is not None:
        started = time.perf_counter()
        result = backend.beam_search(messages, beam, stop)  # BeamWidthDoesNotFit before the search runs
        return beam_reply(result, time.perf_counter() - started)
    return backend.stream_chat(messages, params, stop, token_probabilities, record=True)
