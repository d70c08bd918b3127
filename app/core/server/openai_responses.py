"""Glassbox's replies in OpenAI's shapes: whole responses, stream chunks, usage and logprobs.

A stream follows the invariants llama.cpp's own server tests check: the first chunk's delta
is `{"role": "assistant", "content": null}`, the content chunks carry no role, every chunk has
the same id, only the last choice chunk has a finish_reason (and an empty delta), a usage
chunk with no choices follows when asked (stream_options.include_usage), then `data: [DONE]`.

A thinking model's reasoning goes where the request's `reasoning_format` says
(reasoning_format.py): in `reasoning_content` by default, as llama-server sends it.

Usage reports the prompt tokens reused from the previous request's KV cache in
`prompt_tokens_details.cached_tokens`, and the tokens the model spent reasoning in
`completion_tokens_details.reasoning_tokens`; llama-server's `timings` object comes along for the
clients that read it (Glassbox's own remote backend among them).

Log probabilities are the model's own distribution (the softmax of its raw logits) before
the sampling settings reshape it, as the glass box shows them; OpenAI's are after. Only
the tokens that made it into the reply are listed (not those of a stop string). A thinking
model's reasoning tokens are left out: `logprobs.content` lists the answer's tokens, in step
with `content`, as OpenAI's reasoning models list only the answer's; the reasoning is counted in
`usage.completion_tokens_details.reasoning_tokens`. (With `reasoning_format: none` the reasoning
is inside `content` but still has no logprobs.)
"""

from __future__ import annotations

import json
import math
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from app.core.reasoning.tool_calls import ParsedAnswer
from app.core.server.reasoning_format import ReasoningFormat, ReasoningInContent, with_reasoning_inside
from app.core.server.tool_calling import TOOL_CALLS, call_json
from app.core.types.replies import ReplyDone, ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace

FINISH_REASONS = {
    StopReason.END_OF_TEXT: "stop",
    StopReason.STOP_STRING: "stop",
    StopReason.USER: "stop",
    StopReason.LENGTH: "length",
    StopReason.CONTEXT_FULL: "length",
}
DONE = "data: [DONE]\n\n"
MIN_LOGPROB = -9999.0  # log(0), which JSON cannot carry


def finish_reason(stats: ReplyStats) -> str:
    return FINISH_REASONS.get(stats.stop_reason, "stop")


def usage(stats: ReplyStats) -> dict[str, Any]:
    return {
        "prompt_tokens": stats.prompt_tokens,
        "completion_tokens": stats.completion_tokens,
        "total_tokens": stats.prompt_tokens + stats.completion_tokens,
        "prompt_tokens_details": {"cached_tokens": stats.cached_prompt_tokens},
        "completion_tokens_details": {"reasoning_tokens": stats.reasoning_tokens},
    }


def timings(stats: ReplyStats) -> dict[str, Any]:
    """llama-server's timings object (times in milliseconds)."""
    generating_s = max(stats.total_s - stats.time_to_first_token_s, 0.0)
    return {
        "cache_n": stats.cached_prompt_tokens,
        "prompt_n": stats.evaluated_prompt_tokens,
        "prompt_ms": stats.time_to_first_token_s * 1000,
        "prompt_per_second": stats.prompt_eval_tokens_per_s,
        "predicted_n": stats.completion_tokens,
        "predicted_ms": generating_s * 1000,
        "predicted_per_second": stats.generation_tokens_per_s,
    }


def sse(payload: dict[str, Any]) -> str:
    return f"data: {json.dumps(payload, separators=(',', ':'), ensure_ascii=False)}\n\n"


@dataclass(frozen=True)
class ReplyIdentity:
    """What every chunk and response of one reply carries."""

    model: str
    prefix: str  # "chatcmpl" or "cmpl"
    id: str = ""
    created: int = field(default_factory=lambda: int(time.time()))

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", f"{self.prefix}-{uuid.uuid4().hex}")

    def head(self, kind: str) -> dict[str, Any]:
        return {"id": self.id, "object": kind, "created": self.created, "model": self.model}


# ---- chat ----------------------------------------------------------------------------

CHAT_CHUNK = "chat.completion.chunk"


def chat_response(
    identity: ReplyIdentity,
    done: ReplyDone,
    top_logprobs: int | None,
    reasoning_format: ReasoningFormat,
    answer: ParsedAnswer | None = None,
) -> dict[str, Any]:
    """`answer`: the reply's text and tool calls, where tools were offered (None: the text is all answer)."""
    text = done.text if answer is None else answer.content
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if reasoning_format.in_content(stream=False):
        message["content"] = with_reasoning_inside(done.reasoning, text)
    elif done.reasoning:
        message["reasoning_content"] = done.reasoning
    finish = finish_reason(done.stats)
    if answer is not None and answer.calls:
        message["content"] = message["content"] or None
        message["tool_calls"] = [call_json(call) for call in answer.calls]
        finish = TOOL_CALLS
    choice: dict[str, Any] = {
        "index": 0,
        "message": message,
        "finish_reason": finish,
        "logprobs": None,
    }
    if top_logprobs is not None:
        choice["logprobs"] = {"content": list(chat_logprobs(done, top_logprobs)), "refusal": None}
    return {
        **identity.head("chat.completion"),
        "choices": [choice],
        "usage": usage(done.stats),
        "timings": timings(done.stats),
    }


class ChatChunks:
    """The chunks of one streamed chat reply, in order. The reasoning goes in `reasoning_content`
    deltas, or inside `content` where the reasoning format asks for it there."""

    def __init__(
        self, identity: ReplyIdentity, include_usage: bool, reasoning_format: ReasoningFormat = ReasoningFormat.AUTO
    ) -> None:
        self._identity = identity
        self._include_usage = include_usage
        self._inside = ReasoningInContent() if reasoning_format.in_content(stream=True) else None

    def role(self) -> str:
        return self._choice({"role": "assistant", "content": None})

    def piece(self, piece: TokenPiece, logprobs: list[dict[str, Any]] | None = None) -> str:
        if self._inside is not None:
            return self._choice({"content": self._inside.text(piece)}, logprobs=logprobs)
        if piece.part is ReplyPart.REASONING:
            return self._choice({"reasoning_content": piece.text}, logprobs=logprobs)
        return self._choice({"content": piece.text}, logprobs=logprobs)

    def tool_calls(self, answer: ParsedAnswer) -> str:
        """What the reply's end releases: text held back as a possible call's start, and the calls, each
        whole in one delta of its index (the client joins a call's deltas by index)."""
        chunks = self._choice({"content": answer.content}) if answer.content else ""
        for index, call in enumerate(answer.calls):
            chunks += self._choice({"tool_calls": [call_json(call, index)]})
        return chunks

    def finish(self, done: ReplyDone, reason: str | None = None) -> str:
        """The last choice chunk (its finish reason the reply's, unless `reason` says otherwise); then the
        usage chunk when asked, then [DONE]."""
        reason = reason or finish_reason(done.stats)
        last = self._choice({}, finish=reason, extra={"timings": timings(done.stats)})
        if self._include_usage:
            last += sse({**self._identity.head(CHAT_CHUNK), "choices": [], "usage": usage(done.stats)})
        return last + DONE

    def _choice(
        self,
        delta: dict[str, Any],
        finish: str | None = None,
        logprobs: list[dict[str, Any]] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> str:
        choice = {
            "index": 0,
            "delta": delta,
            "finish_reason": finish,
            "logprobs": None if logprobs is None else {"content": logprobs, "refusal": None},
        }
        chunk: dict[str, Any] = {**self._identity.head(CHAT_CHUNK), "choices": [choice], **(extra or {})}
        if self._include_usage:
            chunk["usage"] = None
        return sse(chunk)


def chat_logprobs(done: ReplyDone, top: int) -> Iterator[dict[str, Any]]:
    """One entry per token of the reply, with its `top` most likely alternatives."""
    for step, _text in reply_steps(done):
        yield {**_token_entry(_token_text(step), step.probability), "top_logprobs": _top(step, top)}


def reply_steps(done: ReplyDone) -> Iterator[tuple[TokenStep, str]]:
    """The trace's steps of the answer, up to the end of its text, each with the part of the text it wrote.

    A thinking model's trace starts with its reasoning's tokens (the block's markers among them),
    `stats.reasoning_tokens` of them: they are skipped, and of the answer's first step only what
    follows the block counts (one token may end the block and start the answer). A stop string's
    tokens are in the trace but not in the text: they are left out. A step in the middle of a
    character writes "" and its neighbour the whole character."""
    trace = done.trace or TokenTrace()
    steps = trace.steps[done.stats.reasoning_tokens :]
    written = 0
    for index, step in enumerate(steps):
        if written >= len(done.text):
            return
        text = step.text
        if index == 0 and done.stats.reasoning_tokens:
            text = text[_answer_start(text, done.text) :]
        piece = done.text[written : written + len(text)]
        written += len(piece)
        yield step, piece


def _answer_start(step_text: str, answer: str) -> int:
    """Where the answer begins in the text of its first token: after the end of the block and the blank
    lines after it, which the answer does not keep."""
    return next(at for at in range(len(step_text) + 1) if answer.startswith(step_text[at:]))


def _token_text(step: TokenStep) -> str:
    for alternative in step.alternatives:
        if alternative.token_id == step.token_id:
            return alternative.text
    return step.text


def _top(step: TokenStep, top: int) -> list[dict[str, Any]]:
    return [_token_entry(a.text, a.probability) for a in step.alternatives[:top]]


def _token_entry(text: str, probability: float) -> dict[str, Any]:
    return {"token": text, "logprob": logprob(probability), "bytes": list(text.encode("utf-8"))}


def logprob(probability: float) -> float:
    return math.log(probability) if probability > 0 else MIN_LOGPROB


# ---- completions ---------------------------------------------------------------------

COMPLETION = "text_completion"


def completion_response(identity: ReplyIdentity, done: ReplyDone, logprobs: int | None) -> dict[str, Any]:
    choice = {
        "index": 0,
        "text": with_reasoning_inside(done.reasoning, done.text),  # raw text: a reasoning block stays in it
        "finish_reason": finish_reason(done.stats),
        "logprobs": None if logprobs is None else completion_logprobs(done, logprobs),
    }
    return {
        **identity.head(COMPLETION),
        "choices": [choice],
        "usage": usage(done.stats),
        "timings": timings(done.stats),
    }


def completion_logprobs(done: ReplyDone, top: int) -> dict[str, Any]:
    """The legacy shape: parallel lists of tokens, their logprobs, top alternatives and text offsets."""
    tokens: list[str] = []
    token_logprobs: list[float] = []
    tops: list[dict[str, float]] = []
    offsets: list[int] = []
    offset = 0
    for step, piece in reply_steps(done):
        tokens.append(_token_text(step))
        token_logprobs.append(logprob(step.probability))
        tops.append(_top_map(step.alternatives[:top]))
        offsets.append(offset)
        offset += len(piece)
    return {"tokens": tokens, "token_logprobs": token_logprobs, "top_logprobs": tops, "text_offset": offsets}


def _top_map(alternatives: tuple[Alternative, ...]) -> dict[str, float]:
    return {a.text: logprob(a.probability) for a in alternatives}


class CompletionChunks:
    def __init__(self, identity: ReplyIdentity, include_usage: bool) -> None:
        self._identity = identity
        self._include_usage = include_usage

    def text(self, text: str) -> str:
        return self._chunk(text, None)

    def finish(self, done: ReplyDone) -> str:
        last = self._chunk("", finish_reason(done.stats))
        if self._include_usage:
            last += sse({**self._identity.head(COMPLETION), "choices": [], "usage": usage(done.stats)})
        return last + DONE

    def _chunk(self, text: str, finish: str | None) -> str:
        choice = {"index": 0, "text": text, "finish_reason": finish, "logprobs": None}
        chunk: dict[str, Any] = {**self._identity.head(COMPLETION), "choices": [choice]}
        if self._include_usage:
            chunk["usage"] = None
        return sse(chunk)


def error_event(message: str) -> str:
    """A failure after the stream began (the engine died mid-reply): an error chunk, then [DONE]."""
    return sse({"error": {"message": message, "type": "server_error", "param": None, "code": None}}) + DONE
