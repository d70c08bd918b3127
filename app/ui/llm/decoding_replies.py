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
from dataclasses import dataclass, replace

from app.core.backends.local.backend import LocalBackend
from app.core.backends.remote import RemoteBackend
from app.core.inference.beam_search import BeamSettings
from app.core.inference.decoding_mode import beam_reply
from app.core.inference.sampling import SamplingParams
from app.core.types.errors import EngineError
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.token_trace import TokenStep, TokenTrace
from app.core.types.tools import ToolSpec


@dataclass(frozen=True)
class ForkSpec:
    """Fork a reply (its token ids) at `position`, with `forced` there instead of the token it had.

    `head`: the original reply's token steps before the fork and one for the forced token, so
    the forked reply's token view covers its whole text (the engine records the new tokens only)."""

    reply: tuple[int, ...]
    position: int
    forced: int
    head: tuple[TokenStep, ...] = ()


def fork_spec(trace: TokenTrace, position: int, forced: int) -> ForkSpec:
    """The fork of the reply `trace` shows, at token `position`, with the alternative `forced` there."""
    step = trace.steps[position]
    chosen = next((a for a in step.alternatives if a.token_id == forced), None)
    forced_step = TokenStep(
        forced, chosen.text if chosen else "", chosen.probability if chosen else 0.0, step.alternatives
    )
    reply = tuple(s.token_id for s in trace.steps)
    return ForkSpec(reply, position, forced, (*trace.steps[:position], forced_step))


def _whole_trace(events: Iterator[ReplyEvent], head: Sequence[TokenStep]) -> Iterator[ReplyEvent]:
    for event in events:
        if isinstance(event, ReplyDone) and event.trace is not None:
            yield replace(event, trace=TokenTrace([*head, *event.trace.steps], event.trace.sampling))
        else:
            yield event


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
    prompt_ids: Sequence[int] = (),
    tools: Sequence[ToolSpec] = (),
    grammar: str = "",
    forced: Sequence[str] = (),
) -> Iterator[ReplyEvent]:
    """The reply's events; `local_only` is the message when a server's model is asked for a fork or beams;
    `prompt_ids`, the planned prompt's tokens, spare the local engine tokenizing `messages` again. `tools` are
    offered to either model; a local one is held to them by `grammar`, a server's by `forced` (its tool_choice)."""
    if isinstance(backend, RemoteBackend):
        if fork is not None or beam is not None:
            raise LocalOnly(local_only)
        return backend.stream_chat(messages, params, stop, token_probabilities, tools, forced)
    if fork is not None:
        events = backend.stream_fork(
            messages, fork.reply, fork.position, fork.forced, params, stop, token_probabilities
        )
        return _whole_trace(events, fork.head)
    if beam is not None:
        started = time.perf_counter()
        result = backend.beam_search(messages, beam, stop)  # BeamWidthDoesNotFit before the search runs
        return beam_reply(result, time.perf_counter() - started)
    return backend.stream_chat(
        messages,
        params,
        stop,
        token_probabilities,
        grammar,
        record=True,
        prompt_ids=prompt_ids,
        tools=tools,
        window=True,
    )
