"""A Backend for OpenAI-compatible servers (llama-server, vLLM, Ollama, LM Studio, another Glassbox).

GET /v1/models lists the models; POST /v1/chat/completions with `stream: true` streams the
reply as server-sent events, which become the local engine's events. Time to first token and
tokens/s are measured here; the server's `usage` (and llama-server's `timings`) come with the
final event. Stop closes the HTTP stream, which makes the server stop generating. A server that
answers with one whole JSON reply instead of a stream is read too.

A thinking model's reasoning comes apart from its answer in whichever shape the server sends it
(reply_parts.py): its pieces are marked as reasoning, the ReplyDone carries it apart, and its
token count is the server's (`usage.completion_tokens_details.reasoning_tokens`) or else one per
reasoning chunk. Only the messages' content is sent: past reasoning never goes back to a server,
as OpenAI's and DeepSeek's APIs require.

Everything a server sends is checked before it is used: an event is bounded in size (sse.py),
a field of the wrong type is ignored with a log line, and a server that goes on past the
max_tokens it was asked for is cut there.

Redirects are not followed: httpx does not by default, and where the openai client does, a
301/302/303 turns the POST into a GET and a hop to another host drops the API key, both of
which end in a misleading refusal. A 3xx is reported with the address it points to, which
the user can save as the server's URL.

The API key travels as a Bearer token and is never logged; TLS verification is always on (a CA
file can be added for a private certificate authority).
"""

from __future__ import annotations

import contextlib
import dataclasses
import email.utils
import json
import logging
import math
import re
import socket
import ssl
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import httpx2

from app.core.backends.base import Capabilities, ModelInfo, TokenCount, estimate_tokens
from app.core.backends.bounded_body import BodyTooLarge, read_json
from app.core.backends.logprobs import TOP_LOGPROBS, LogprobTrace
from app.core.backends.openai_tools import ToolCallDeltas, request_message, tool_fields
from app.core.backends.reply_parts import REASONING_FIELDS, ReplyParts
from app.core.backends.sse import EventTooLarge, SSEParser
from app.core.inference.sampling import THINKING_FIELDS, SamplingParams
from app.core.reasoning.splitter import ReplyChunk
from app.core.support.formatting import fill, format_bytes
from app.core.support.user_text import N_
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from app.core.types.tools import ToolCall, ToolSpec

log = logging.getLogger(__name__)

# Sent to every server: the Chat Completions request's own fields.
OPENAI_FIELDS = ("temperature", "top_p", "max_tokens", "seed", "stop", "presence_penalty", "frequency_penalty")
# llama-server (and llama_cpp.server) accept these too; other servers may refuse or ignore them.
LLAMA_SERVER_FIELDS = ("top_k", "min_p", "repeat_penalty")
STOP_CHECK_S = 0.02  # how often a silent stream looks at its stop flag
# A reply that called tools ended its turn as one that answered does: its calls come with the ReplyDone.
FINISH_REASONS = {"stop": StopReason.END_OF_TEXT, "length": StopReason.LENGTH, "tool_calls": StopReason.END_OF_TEXT}
MAX_ERROR_BODY = 64 * 1024  # of a refusal's body, read for the server's message (the rest is not)
MAX_COUNT = 2**53  # a token count or context length above this is not a count a server could mean


class RemoteErrorKind(str, Enum):
    UNREACHABLE = "unreachable"
    DNS = "dns"
    TLS = "tls"
    UNAUTHORIZED = "unauthorized"
    NOT_FOUND = "not_found"
    REDIRECTED = "redirected"  # Glassbox does not follow an API redirect: the message names the new address
    BUSY = "busy"
    REJECTED = "rejected"  # any other refusal: a 4xx or 5xx the server explains in its body
    TOOLS_REFUSED = "tools_refused"  # a refusal of the tools offered, in words that say so: asked again without
    TIMEOUT_BEFORE_FIRST_TOKEN = "timeout_before_first_token"
    STREAM_CUT = "stream_cut"
    MALFORMED_CHUNK = "malformed_chunk"


class RemoteError(Exception):
    """A server failure with its kind and a one-line message that says what to do."""

    def __init__(self, kind: RemoteErrorKind, message: str, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.retry_after_s = retry_after_s


@dataclass(frozen=True)
class RemoteReplyDone(ReplyDone):
    """A ReplyDone with what the server said about the reply, and the failure that ended it, if any."""

    failure: RemoteError | None = None
    usage: Mapping[str, Any] = field(default_factory=dict)
    timings: Mapping[str, Any] = field(default_factory=dict)  # llama-server only
    notice: str = ""  # what the reader should know about a reply that did not fail (the server ignored max_tokens)


class TokenizeRoute(str, Enum):
    """How a server counts tokens with the model's own tokenizer (found by `probe_server`)."""

    NONE = "none"  # it cannot: counts are estimates, labelled as such
    LLAMA_SERVER = "llama-server"  # POST /tokenize {"content"} -> {"tokens"}
    LLAMA_CPP_PYTHON = "llama-cpp-python"  # POST /extras/tokenize {"input"} -> {"tokens"}
    VLLM = "vllm"  # POST /tokenize {"model", "prompt"} -> {"count"}


@dataclass(frozen=True)
class RemoteConfig:
    url: str  # the server's address, with or without the /v1 suffix
    api_key: str | None = None
    timeout_s: float = 60.0  # to connect, and between two chunks (the first one included)
    ca_file: Path | None = None  # trusted in addition to the system's certificate authorities
    llama_server_fields: bool = False  # the server accepts top_k, min_p and repeat_penalty
    tokenize: TokenizeRoute = TokenizeRoute.NONE

    def __repr__(self) -> str:  # the key never reaches a log through a repr
        return f"RemoteConfig(url={self.url!r}, timeout_s={self.timeout_s}, ca_file={self.ca_file!r})"

    @property
    def api_base(self) -> str:
        base = self.url.rstrip("/")
        return base if base.endswith("/v1") else base + "/v1"

    @property
    def root(self) -> str:
        """The server's root, where /health, /props, /tokenize and /api live."""
        return self.api_base.removesuffix("/v1")

    def verify(self) -> ssl.SSLContext | bool:
        """TLS verification, always on; with a CA file, that authority is trusted too."""
        if self.ca_file is None:
            return True
        return ssl.create_default_context(cafile=str(self.ca_file))


class RemoteBackend:
    """One server through one connection pool; one owner calls it, `stop` may be set from anywhere.

    Token probabilities come from the server's `logprobs` when it returns them (asked for with
    `token_probabilities=True`); a reply without them simply has no trace.
    """

    def __init__(self, config: RemoteConfig) -> None:
        self._config = config
        headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        self._client = httpx2.Client(
            base_url=config.api_base, headers=headers, verify=config.verify(), timeout=config.timeout_s
        )
        # Replies (and the model list they may need first) open a connection of their own, never a
        # pooled one, so the stop guard sees the socket from the moment it is connected.
        self._fresh_client = httpx2.Client(
            base_url=config.api_base,
            headers=headers,
            verify=config.verify(),
            timeout=config.timeout_s,
            limits=httpx2.Limits(max_keepalive_connections=0),
        )
        self._model: str | None = None

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(token_probabilities=True, tokenization=self._config.tokenize is not TokenizeRoute.NONE)

    @property
    def model(self) -> str | None:
        return self._model

    def select_model(self, model_id: str) -> None:
        self._model = model_id

    def close(self) -> None:
        self._client.close()
        self._fresh_client.close()

    def count_tokens(self, text: str) -> TokenCount:
        """Exact with the server's tokenizer where it has one; an estimate (flagged) otherwise or if it fails."""
        route = self._config.tokenize
        if route is TokenizeRoute.NONE:
            return estimate_tokens(text)
        path, body = {
            TokenizeRoute.LLAMA_SERVER: (f"{self._config.root}/tokenize", {"content": text}),
            TokenizeRoute.LLAMA_CPP_PYTHON: (f"{self._config.root}/extras/tokenize", {"input": text}),
            TokenizeRoute.VLLM: (f"{self._config.root}/tokenize", {"model": self._model or "", "prompt": text}),
        }[route]
        try:
            with self._client.stream("POST", path, json=body) as response:
                response.raise_for_status()
                data = read_json(response)
        except (httpx2.HTTPError, ValueError) as error:
            log.info("Counting tokens on %s failed (%s); using an estimate", self._config.root, type(error).__name__)
            return estimate_tokens(text)
        tokens = _mapping(data, "the tokenize answer").get("tokens")
        count = _count(data, "count", "the tokenize answer") if isinstance(data, dict) and "count" in data else None
        if count is None and isinstance(tokens, list):
            count = len(tokens)
        if count is None:
            log.info("%s did not answer with a token count; using an estimate", self._config.root)
            return estimate_tokens(text)
        return TokenCount(count, exact=True)

    def unsent_params(self, params: SamplingParams) -> tuple[str, ...]:
        """A field left out only because it is unset (no seed, no stop strings) is not named, nor a
        thinking switch left as it is: a server's model thinks as its own template says."""
        sent = self._field_names()
        untouched = SamplingParams().to_dict()
        values = params.to_dict()
        return tuple(
            name
            for name, value in values.items()
            if name not in sent and not (name in THINKING_FIELDS and value == untouched[name])
        )

    def list_models(self, stop: threading.Event | None = None) -> list[ModelInfo]:
        return [ModelInfo(str(entry["id"]), _context_length(entry)) for entry in self.raw_models(stop)]

    def raw_models(self, stop: threading.Event | None = None) -> list[Mapping[str, Any]]:
        """The entries of GET /v1/models as the server sent them (each has at least an id).

        With `stop`, the request ends when it is set (httpx2.HTTPError is raised, the caller
        knows why); without, it ends by the timeout like any other."""
        try:
            with contextlib.ExitStack() as stack:
                extensions = {}
                if stop is not None:
                    extensions["trace"] = stack.enter_context(_StopGuard(stop)).trace
                client = self._client if stop is None else self._fresh_client
                response = stack.enter_context(client.stream("GET", "/models", extensions=extensions))
                self._raise_for_status(response)
                data: Any = read_json(response)
        except httpx2.HTTPError as error:
            if stop is not None and stop.is_set():
                raise
            raise self._transport_error(error, text_so_far="") from error
        except BodyTooLarge as error:
            raise RemoteError(
                RemoteErrorKind.MALFORMED_CHUNK,
                fill(
                    N_("{api_base}/models sent more than {limit}, the most Glassbox reads of a model list."),
                    api_base=self._config.api_base,
                    limit=format_bytes(error.limit),
                ),
            ) from error
        except ValueError:
            data = None
        try:
            entries = data["data"]
            if not all(isinstance(entry, dict) and "id" in entry for entry in entries):
                raise TypeError("an entry without an id")
            return list(entries)
        except (KeyError, TypeError) as error:
            raise RemoteError(
                RemoteErrorKind.MALFORMED_CHUNK,
                fill(
                    N_("{api_base}/models did not return a model list; is this an OpenAI-compatible server?"),
                    api_base=self._config.api_base,
                ),
            ) from error

    def stream_chat(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool = False,
        tools: Sequence[ToolSpec] = (),
        forced: Sequence[str] = (),
    ) -> Iterator[ReplyEvent]:
        """TokenPiece events, then one RemoteReplyDone. A failure before any text is raised as
        RemoteError; after text it ends the reply (stop reason ERROR, the text so far kept).

        With `tools` offered (`forced`: the tools one of which the reply must call), the calls the
        reply makes come with the RemoteReplyDone, put together from the server's deltas. A server
        that refuses the tools (llama-server without --jinja, vLLM without a tool parser, a model
        Ollama says cannot use them) is asked again without them, and the ReplyDone's notice says so."""
        body: dict[str, Any] = {
            "messages": [request_message(m) for m in messages],
            "stream": True,
            "stream_options": {"include_usage": True},
            **self._request_fields(params),
        }
        if token_probabilities:
            body.update(logprobs=True, top_logprobs=TOP_LOGPROBS)
        if tools:
            return self._offering_tools(body, tool_fields(tools, forced), stop, token_probabilities, params)
        return self._stream(body, stop, LogprobTrace() if token_probabilities else None, params)

    def _offering_tools(
        self,
        body: dict[str, Any],
        tools: dict[str, Any],
        stop: threading.Event,
        token_probabilities: bool,
        params: SamplingParams,
    ) -> Iterator[ReplyEvent]:
        try:
            yield from self._stream({**body, **tools}, stop, LogprobTrace() if token_probabilities else None, params)
            return
        except RemoteError as error:
            if error.kind is not RemoteErrorKind.TOOLS_REFUSED:
                raise
            refusal = error.message
        for event in self._stream(body, stop, LogprobTrace() if token_probabilities else None, params):
            if isinstance(event, RemoteReplyDone):
                event = dataclasses.replace(event, notice=" ".join(filter(None, (refusal, event.notice))))
            yield event

    def _first_model(self, stop: threading.Event) -> str:
        models = self.list_models(stop)
        if not models:
            raise RemoteError(
                RemoteErrorKind.NOT_FOUND,
                fill(N_("{api_base} offers no models; load one there."), api_base=self._config.api_base),
            )
        self._model = models[0].id
        return self._model

    def _field_names(self) -> tuple[str, ...]:
        return OPENAI_FIELDS + (LLAMA_SERVER_FIELDS if self._config.llama_server_fields else ())

    def _request_fields(self, params: SamplingParams) -> dict[str, Any]:
        values = params.to_dict()
        fields = {name: values[name] for name in self._field_names()}
        if params.seed is None:
            del fields["seed"]
        if not params.stop:
            del fields["stop"]
        if params.max_tokens <= 0:  # 0: as long as the context allows, the server's own default
            del fields["max_tokens"]
        return fields

    def _stream(
        self, body: dict[str, Any], stop: threading.Event, logprobs: LogprobTrace | None, params: SamplingParams
    ) -> Iterator[ReplyEvent]:
        reply = _ReplyReader(params.max_tokens, logprobs)
        failure: RemoteError | None = None
        notice = ""
        try:
            body = {"model": self._model or self._first_model(stop), **body}
            with (
                _StopGuard(stop) as guard,
                self._fresh_client.stream(
                    "POST", "/chat/completions", json=body, extensions={"trace": guard.trace}
                ) as response,
            ):
                self._raise_for_status(response, offering_tools="tools" in body)
                if _is_whole_reply(response):  # a server that answers `stream: true` with one JSON reply
                    yield from self._pieces(reply, self._whole_reply(response), stop)
                    raise _Finished
                parser = SSEParser()
                for chunk in response.iter_bytes():
                    for data in self._events(parser, chunk):
                        if data.strip() == "[DONE]":
                            raise _Finished
                        yield from self._pieces(reply, _decode_chunk(data), stop)
                    if stop.is_set():
                        raise _Stopped
                self._events(parser, None)
                if stop.is_set():  # the stream was shut for a stop before the server said anything
                    raise _Stopped
                if reply.stats.stop_reason is StopReason.ERROR:
                    raise RemoteError(RemoteErrorKind.STREAM_CUT, self._cut_message())
        except _Finished:
            pass
        except _PastLimit:
            notice = self._over_limit_notice(params.max_tokens)
            reply.stats.stop_reason = StopReason.LENGTH  # leaving the `with` closed the stream: the server stops
        except _Stopped:
            reply.stats.stop_reason = StopReason.USER  # leaving the `with` closed the stream: the server stops
        except httpx2.HTTPError as error:
            if stop.is_set():  # the connection was shut for a stop, at whatever stage the request was
                reply.stats.stop_reason = StopReason.USER
            else:
                failure = self._transport_error(error, text_so_far=reply.text_so_far)
        except RemoteError as error:
            failure = error
        yield from reply.held_back()
        stats = reply.stats
        if failure is not None:
            # INFO, not WARNING: the caller shows the failure; the server's trouble is not Glassbox's fault.
            log.info("Reply from %s failed (%s): %s", self._config.api_base, failure.kind.value, failure.message)
            if not reply.text_so_far:
                raise failure
            stats.stop_reason = StopReason.ERROR
            stats.error = failure.message
        if notice:
            log.info("%s", notice)
        if stats.stop_reason is StopReason.ERROR and failure is None:
            stats.stop_reason = StopReason.END_OF_TEXT  # [DONE] without a finish reason
        reply.fill_stats(time.perf_counter())
        trace = logprobs.trace(params) if logprobs is not None else None
        yield RemoteReplyDone(
            reply.answer,
            stats,
            trace=trace,
            failure=failure,
            usage=reply.usage,
            timings=reply.timings,
            notice=notice,
            reasoning=reply.reasoning,
            tool_calls=reply.tool_calls,
        )

    def _pieces(self, reply: _ReplyReader, event: Mapping[str, Any], stop: threading.Event) -> Iterator[TokenPiece]:
        """The pieces one server event brings; a stop set while they are read ends the reply."""
        for piece in reply.take(event):
            yield piece
            if stop.is_set():
                raise _Stopped

    def _whole_reply(self, response: httpx2.Response) -> dict[str, Any]:
        try:
            data = read_json(response)
        except BodyTooLarge as error:
            raise RemoteError(
                RemoteErrorKind.MALFORMED_CHUNK,
                fill(
                    N_("{base} sent a reply longer than {limit}, the most Glassbox reads."),
                    base=self._config.api_base,
                    limit=format_bytes(error.limit),
                ),
            ) from error
        except ValueError:
            data = None
        if not isinstance(data, dict):
            raise RemoteError(
                RemoteErrorKind.MALFORMED_CHUNK,
                fill(N_("{base} sent a reply that is not a JSON object."), base=self._config.api_base),
            )
        return _server_event(data, f"{data!r:.80}")

    def _events(self, parser: SSEParser, chunk: bytes | None) -> list[str]:
        """The events a chunk completes (None: the stream ended); an oversized event is malformed."""
        try:
            return parser.feed(chunk) if chunk is not None else parser.close()
        except EventTooLarge as error:
            raise RemoteError(
                RemoteErrorKind.MALFORMED_CHUNK,
                fill(
                    N_("{base} sent an event longer than {limit}, the most Glassbox reads; the reply ends there."),
                    base=self._config.api_base,
                    limit=format_bytes(error.limit),
                ),
            ) from error

    def _over_limit_notice(self, max_tokens: int) -> str:
        return fill(
            N_("{base} ignored the limit of {max_tokens} tokens; Glassbox kept the first {max_tokens}."),
            base=self._config.api_base,
            max_tokens=max_tokens,
        )

    def _cut_message(self) -> str:
        return fill(N_("{base} stopped sending before the reply was complete; try again."), base=self._config.api_base)

    def _raise_for_status(self, response: httpx2.Response, offering_tools: bool = False) -> None:
        status = response.status_code
        base = self._config.api_base
        if 300 <= status < 400:
            raise RemoteError(
                RemoteErrorKind.REDIRECTED,
                fill(
                    N_(
                        "{base} redirected the request to {target} ({status}); Glassbox does not follow "
                        "redirects for the API: if that is the server, use its address as the URL."
                    ),
                    base=base,
                    target=_redirect_target(response),
                    status=status,
                ),
            )
        if status < 400:
            return
        detail = _error_detail(response)
        if status in (401, 403):
            raise RemoteError(
                RemoteErrorKind.UNAUTHORIZED,
                fill(
                    N_("{base} refused the API key ({status}); check the key for this server."),
                    base=base,
                    status=status,
                ),
            )
        if offering_tools and status not in (429, 503) and _refuses_tools(detail):
            raise RemoteError(
                RemoteErrorKind.TOOLS_REFUSED,
                fill(
                    N_("{base} refused the tools ({status}{detail}); this reply was written without them."),
                    base=base,
                    status=status,
                    detail=detail,
                ),
            )
        if status == 404:
            raise RemoteError(
                RemoteErrorKind.NOT_FOUND,
                fill(
                    N_("{base} does not have that (404{detail}); pick another model or check the URL."),
                    base=base,
                    detail=detail,
                ),
            )
        if status in (429, 503):
            retry_after = _retry_after(response.headers.get("Retry-After"))
            wait = (
                fill(N_("try again in {seconds} s"), seconds=f"{retry_after:.0f}")
                if retry_after is not None
                else N_("try again in a moment")
            )
            raise RemoteError(
                RemoteErrorKind.BUSY,
                fill(N_("{base} is busy ({status}); {wait}."), base=base, status=status, wait=wait),
                retry_after,
            )
        raise RemoteError(
            RemoteErrorKind.REJECTED,
            fill(N_("{base} refused the request ({status}{detail})."), base=base, status=status, detail=detail),
        )

    def _transport_error(self, error: httpx2.HTTPError, text_so_far: str) -> RemoteError:
        base = self._config.api_base
        if isinstance(error, httpx2.ConnectError):
            reason = str(error)
            if _is_tls(error):
                return RemoteError(
                    RemoteErrorKind.TLS,
                    fill(
                        N_("{base}: the TLS certificate could not be verified ({reason}); set a CA file."),
                        base=base,
                        reason=reason,
                    ),
                )
            if any(word in reason for word in ("Name or service not known", "getaddrinfo", "name resolution")):
                return RemoteError(
                    RemoteErrorKind.DNS, fill(N_("{base}: the host name was not found; check the URL."), base=base)
                )
            return RemoteError(
                RemoteErrorKind.UNREACHABLE,
                fill(N_("{base} cannot be reached ({reason}); is the server running?"), base=base, reason=reason),
            )
        if isinstance(error, httpx2.ConnectTimeout):
            return RemoteError(
                RemoteErrorKind.UNREACHABLE,
                fill(N_("{base} did not answer in time; is the server running?"), base=base),
            )
        if isinstance(error, httpx2.TimeoutException) and not text_so_far:
            return RemoteError(
                RemoteErrorKind.TIMEOUT_BEFORE_FIRST_TOKEN,
                fill(
                    N_("{base} sent nothing for {seconds} s; it may be busy or the timeout too short."),
                    base=base,
                    seconds=f"{self._config.timeout_s:.0f}",
                ),
            )
        return RemoteError(RemoteErrorKind.STREAM_CUT, self._cut_message())


class _ReplyReader:
    """What the server has sent of one reply so far: its reasoning and answer, counts and times."""

    def __init__(self, max_tokens: int, logprobs: LogprobTrace | None) -> None:
        self.stats = ReplyStats(stop_reason=StopReason.ERROR)  # until the server says why it finished
        self.usage: dict[str, Any] = {}
        self.timings: dict[str, Any] = {}
        self._max_tokens = max_tokens
        self._logprobs = logprobs
        self._parts = ReplyParts()
        self._calls = ToolCallDeltas()
        self._texts: dict[ReplyPart, list[str]] = {ReplyPart.REASONING: [], ReplyPart.ANSWER: []}
        self._started = time.perf_counter()
        self._first_at = 0.0
        self._answer_at = 0.0

    @property
    def answer(self) -> str:
        return "".join(self._texts[ReplyPart.ANSWER])

    @property
    def reasoning(self) -> str:
        return "".join(self._texts[ReplyPart.REASONING])

    @property
    def text_so_far(self) -> str:
        return self.reasoning + self.answer

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        """The calls of a reply that ended its turn (one cut short or stopped called nothing)."""
        return self._calls.calls() if self.stats.stop_reason is StopReason.END_OF_TEXT else ()

    def take(self, event: Mapping[str, Any]) -> Iterator[TokenPiece]:
        """The pieces of one event; raises _PastLimit at the first text past max_tokens."""
        self.usage.update(_mapping(event.get("usage"), "usage"))
        self.timings.update(_mapping(event.get("timings"), "timings"))
        for reasoning, text, finish_reason, token_logprobs, calls in _choices(event):
            if self._logprobs is not None:
                self._logprobs.add(token_logprobs)
            if reasoning or text or calls:
                if 0 < self._max_tokens <= self.stats.completion_tokens:
                    raise _PastLimit
                if not self._first_at:
                    self._first_at = time.perf_counter()
                self.stats.completion_tokens += 1
                self._calls.feed(calls)
                if reasoning or text:
                    yield from self._pieces(self._parts.feed(reasoning, text))
            if finish_reason:
                self.stats.stop_reason = FINISH_REASONS.get(finish_reason, StopReason.END_OF_TEXT)

    def held_back(self) -> Iterator[TokenPiece]:
        """At the end of the reply: the text held back in case it was the start of a marker."""
        yield from self._pieces(self._parts.finish())

    def fill_stats(self, finished: float) -> None:
        _fill_stats(self.stats, self.usage, self.timings, self._started, self._first_at, finished)
        if not self._texts[ReplyPart.REASONING]:
            return
        details = _mapping(self.usage.get("completion_tokens_details"), "usage.completion_tokens_details")
        counted = _count(details, "reasoning_tokens", "usage.completion_tokens_details")
        self.stats.reasoning_tokens = counted if counted is not None else self._parts.reasoning_deltas
        self.stats.reasoning_s = (self._answer_at or finished) - self._first_at

    def _pieces(self, chunks: list[ReplyChunk]) -> Iterator[TokenPiece]:
        for part, text in chunks:
            if part is ReplyPart.ANSWER and not self._answer_at:
                self._answer_at = time.perf_counter()
            self._texts[part].append(text)
            yield TokenPiece(text, -1, part)


class _StopGuard:
    """Shuts the request's connection when `stop` is set, at whatever stage the request is: in the
    TLS handshake, waiting for the headers of a silent server, for the first chunk while it
    evaluates a long prompt, or between two chunks. The server stops generating when its stream
    closes.

    httpcore's `trace` hook hands over the TCP stream as soon as it is connected, before anything
    is sent. The guard keeps a duplicate of its socket: shutting the duplicate down ends the one
    connection under both, wakes the thread blocked reading it, and never touches the TLS layer
    that thread is using (an SSLSocket's own shutdown would). The request must not ride on a
    pooled connection, which the hook would not report (hence the client without keep-alive).
    A connect still in progress ends by its timeout."""

    def __init__(self, stop: threading.Event) -> None:
        self._stop = stop
        self._sockets: list[socket.socket] = []
        self._shut = False
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="remote-stop", daemon=True)

    def __enter__(self) -> _StopGuard:
        self._watcher.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._done.set()
        self._watcher.join()
        with self._lock:
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()

    def trace(self, event: str, info: Mapping[str, Any]) -> None:
        if not event.endswith("connect_tcp.complete"):
            return
        stream = info.get("return_value")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if not isinstance(sock, socket.socket):
            return
        with self._lock, contextlib.suppress(OSError):
            duplicate = sock.dup()
            self._sockets.append(duplicate)
            if self._shut:  # stopped while connecting: shut as soon as it exists
                duplicate.shutdown(socket.SHUT_RDWR)

    def _watch(self) -> None:
        while not self._done.wait(STOP_CHECK_S):
            if self._stop.is_set():
                with self._lock:
                    self._shut = True
                    for sock in self._sockets:
                        with contextlib.suppress(OSError):
                            sock.shutdown(socket.SHUT_RDWR)
                return


class _Finished(Exception):
    """The server sent [DONE]."""


class _Stopped(Exception):
    """The stop event was set."""


class _PastLimit(Exception):
    """The server sent more tokens than max_tokens asked for."""


def _ignored(where: str, value: Any, expected: str) -> None:
    log.warning("Ignored %s from the server: %.80r is not %s", where, value, expected)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    """An object the server sent, or nothing (logged) when it sent something else; null is nothing too."""
    if isinstance(value, dict):
        return value
    if value is not None:
        _ignored(where, value, "an object")
    return {}


def _count(source: Mapping[str, Any], key: str, where: str) -> int | None:
    """A whole, non-negative number the server sent as `key`; None (logged) for anything else."""
    value = source.get(key)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 5.0: JSON has one kind of number; an infinity is not integral and stays out
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_COUNT:
        return value
    _ignored(f"{where}.{key}", value, "a count")
    return None


def _rate(source: Mapping[str, Any], key: str, where: str) -> float | None:
    """A finite, non-negative number the server sent as `key`; None (logged) for anything else."""
    value = source.get(key)
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return float(value)
    _ignored(f"{where}.{key}", value, "a rate")
    return None


def _choices(event: Mapping[str, Any]) -> Iterator[tuple[str, str, str | None, Any, Any]]:
    """(reasoning, text, finish reason, logprobs content, tool calls) of each choice in a chunk (its
    `delta`), or in a whole reply (its `message`). A choice whose text is of the wrong type is malformed (the
    reply cannot go on without its text); other fields of the wrong type are ignored."""
    choices = event.get("choices") or []
    if not isinstance(choices, list):
        raise RemoteError(
            RemoteErrorKind.MALFORMED_CHUNK,
            fill(N_("The server sent a chunk with no list of choices: {event}"), event=f"{event!r:.80}"),
        )
    for choice in choices:
        delta: Mapping[str, Any] = {}
        if isinstance(choice, dict):
            key = "delta" if "delta" in choice or "message" not in choice else "message"
            delta = _mapping(choice.get(key), f"a choice's {key}")
        text = delta.get("content")
        if not isinstance(choice, dict) or not isinstance(text, str | None):
            raise RemoteError(
                RemoteErrorKind.MALFORMED_CHUNK,
                fill(N_("The server sent a choice of a wrong shape: {choice}"), choice=f"{choice!r:.80}"),
            )
        reason = choice.get("finish_reason")
        if not isinstance(reason, str | None):
            _ignored("a choice's finish_reason", reason, "a string")
        logprobs = _mapping(choice.get("logprobs"), "a choice's logprobs")
        finish = reason if isinstance(reason, str) else None
        yield _reasoning(delta), text or "", finish, logprobs.get("content"), delta.get("tool_calls")


def _reasoning(delta: Mapping[str, Any]) -> str:
    """The reasoning a delta carries in a field of its own (the first of them a server filled)."""
    for name in REASONING_FIELDS:
        value = delta.get(name)
        if isinstance(value, str) and value:
            return value
        if value is not None and not isinstance(value, str):
            _ignored(f"a delta's {name}", value, "a text")
    return ""


def _decode_chunk(data: str) -> dict[str, Any]:
    try:
        event = json.loads(data)
    except (ValueError, RecursionError):
        event = None
    return _server_event(event, f"{data[:80]!r}")


def _server_event(event: Any, shown: str) -> dict[str, Any]:
    """A chunk (or a whole reply) the server sent, if it is an object that is not an error."""
    if not isinstance(event, dict):
        raise RemoteError(
            RemoteErrorKind.MALFORMED_CHUNK,
            fill(N_("The server sent a chunk that is not a JSON object: {data}."), data=shown),
        )
    if "error" in event:
        error = event["error"]
        message = error.get("message", error) if isinstance(error, dict) else error
        raise RemoteError(
            RemoteErrorKind.REJECTED,
            fill(N_("The server stopped the reply with an error: {message}."), message=f"{message!s:.200}"),
        )
    return event


def _is_whole_reply(response: httpx2.Response) -> bool:
    return response.headers.get("Content-Type", "").split(";")[0].strip().lower() == "application/json"


def _fill_stats(
    stats: ReplyStats,
    usage: Mapping[str, Any],
    timings: Mapping[str, Any],
    started: float,
    first_at: float,
    finished: float,
) -> None:
    """Times measured here; token counts from the server where it gave them, else one per chunk."""
    stats.prompt_tokens = _count(usage, "prompt_tokens", "usage") or 0
    stats.completion_tokens = _count(usage, "completion_tokens", "usage") or stats.completion_tokens
    stats.cached_prompt_tokens = _count(timings, "cache_n", "timings") or 0
    stats.total_s = finished - started
    if not first_at:
        return
    stats.time_to_first_token_s = first_at - started
    prompt_rate = _rate(timings, "prompt_per_second", "timings")
    if prompt_rate:
        stats.prompt_eval_tokens_per_s = prompt_rate
    elif stats.prompt_tokens:
        stats.prompt_eval_tokens_per_s = stats.evaluated_prompt_tokens / stats.time_to_first_token_s
    generating = finished - first_at
    if stats.completion_tokens > 1 and generating > 0:
        stats.generation_tokens_per_s = (stats.completion_tokens - 1) / generating


def _context_length(entry: Mapping[str, Any]) -> int | None:
    """vLLM says max_model_len; llama-server its meta.n_ctx_train."""
    meta = _mapping(entry.get("meta"), "a model's meta")
    length = _count(entry, "max_model_len", "a model") or _count(meta, "n_ctx_train", "a model's meta")
    return length or None


def _redirect_target(response: httpx2.Response) -> str:
    """Where a 3xx points, as an absolute address (as the server wrote it when it is not a URL)."""
    location = response.headers.get("Location", "")
    if not location:
        return N_("an address it did not give")
    try:
        return f"{response.url.join(location)!s:.200}"
    except (httpx2.InvalidURL, ValueError):
        return f"{location:.200}"


def _error_detail(response: httpx2.Response) -> str:
    """The server's own words for a refusal, from the first MAX_ERROR_BODY bytes of its body."""
    body = bytearray()
    try:
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) >= MAX_ERROR_BODY:
                break
        data = json.loads(body)
    except (httpx2.HTTPError, ValueError, RecursionError):
        return ""
    error = data.get("error") if isinstance(data, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    return f": {str(message)[:200]}" if message else ""


def _refuses_tools(detail: str) -> bool:
    """Does a refusal's message say the tools were the trouble? Only the server's own words tell: a bare
    400 is as often an overlong prompt, which a reply without tools would hide. llama-server without
    --jinja says "tools param requires --jinja flag" (a 500), vLLM without a tool parser that `"auto" tool
    choice requires --enable-auto-tool-choice`, Ollama that a model "does not support tools", OpenRouter
    that it found "no endpoints … that support tool use" (a 404)."""
    return re.search(r"tool|jinja", detail, re.IGNORECASE) is not None


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds, whether given as seconds or as an HTTP date."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _is_tls(error: BaseException) -> bool:
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, ssl.SSLError):
            return True
        cause = cause.__cause__ or cause.__context__
    return "CERTIFICATE_VERIFY_FAILED" in str(error) or "SSL" in str(error)
