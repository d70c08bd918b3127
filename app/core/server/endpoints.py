"""The HTTP endpoints: GET /v1/models, POST /v1/chat/completions, /v1/completions, /v1/embeddings, GET /health,
GET /metrics.

A generating request is read and checked on the event loop, then queued to the model's
thread (`ModelQueue`); the response waits for the reply's first event before it starts, so
a prompt that does not fit, or a model that fails, still gets its proper HTTP status
instead of a broken stream. Every request ends as one record in the request log, except
GET /health and GET /metrics: monitors poll them every few seconds and would push the real
requests out. Each record is counted in the server's Prometheus metrics as well (requests by
endpoint and status, tokens, time to first token, tokens/s), which GET /metrics serves with the
queue length read at scrape time; like every endpoint but /health it needs the API key when
one is set.
"""

from __future__ import annotations

import asyncio
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.types import ASGIApp, Scope

from app.core.backends.local.backend import LocalBackend
from app.core.monitor.prometheus import ServerMetrics
from app.core.reasoning.tool_formats import ToolFamily
from app.core.server.config import ServerConfig
from app.core.server.embeddings import ServerEmbeddings, embedding_response, parse_embedding_request
from app.core.server.engine_keeper import EngineHealth, EngineState
from app.core.server.errors import SERVER_ERROR, UNAVAILABLE, ApiError
from app.core.server.guard import Guard
from app.core.server.json_body import read_json
from app.core.server.model_queue import ModelQueue, QueueClosed, QueueFull
from app.core.server.openai_requests import (
    ChatRequest,
    CompletionRequest,
    Limits,
    parse_chat,
    parse_completion,
)
from app.core.server.openai_responses import (
    ChatChunks,
    CompletionChunks,
    ReplyIdentity,
    chat_logprobs,
    chat_response,
    completion_response,
    error_event,
    finish_reason,
    reply_steps,
)
from app.core.server.reasoning_format import ReasoningInContent
from app.core.server.replies import ReplyCancelled, ReplyRun, ReplyStart
from app.core.server.request_log import CLIENT_CLOSED, RequestLog, RequestRecord
from app.core.server.tool_calling import TOOL_CALLS, ReplyToolCalls, call_grammar, read_reply_calls
from app.core.types.errors import ImagesNeedVision, PromptTooLong
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import StopReason

STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class ServerCore:
    """What the endpoints share: the config, the model's queue, the request log, the replies running."""

    def __init__(
        self, config: ServerConfig, queue: ModelQueue, request_log: RequestLog, metrics: ServerMetrics | None = None
    ) -> None:
        self.config = config
        self.queue = queue
        self.log = request_log
        self.metrics = metrics or ServerMetrics()
        self.metrics.follow_queue(lambda: queue.waiting)
        self.limits = Limits(max_tokens=config.max_tokens_limit, fetch_image_urls=config.fetch_image_urls)
        self.embeddings = ServerEmbeddings(config.embedding_model)
        self.stopping = False
        self._runs: set[ReplyRun] = set()
        self._runs_lock = threading.Lock()  # the loop adds and removes; stop_replies reads from the stopper's thread

    @property
    def backend(self) -> LocalBackend:
        return self.queue.backend

    def model_id(self) -> str | None:
        model = self.backend.model
        return Path(model).stem if model else None

    def stop_replies(self) -> None:
        """Set the stop event of every reply, running or waiting (from any thread)."""
        self.stopping = True
        with self._runs_lock:
            running = list(self._runs)
        for run in running:
            run.stop.set()

    def track(self, run: ReplyRun) -> None:
        with self._runs_lock:
            self._runs.add(run)

    def untrack(self, run: ReplyRun) -> None:
        with self._runs_lock:
            self._runs.discard(run)


@dataclass
class _Call:
    """One request from its arrival to its record in the log."""

    core: ServerCore
    scope: Scope
    endpoint: str
    arrived: float = field(default_factory=time.time)
    began: float = field(default_factory=time.perf_counter)
    model: str = ""
    stream: bool = False
    messages: tuple[ChatMessage, ...] = ()
    prompt: str = ""

    def answered(self, status: int, **values: Any) -> None:
        self._record(status, **values)

    def refused(self, error: ApiError) -> None:
        self._record(error.status, error=error.message)

    def finished(self, run: ReplyRun, done: ReplyDone | None, error: str = "") -> None:
        stats = done.stats if done is not None else None
        status = CLIENT_CLOSED if run.disconnected else (500 if error else 200)
        started = run.started_at or time.perf_counter()
        ttft = run.first_token_at - self.began if run.first_token_at is not None else None
        if stats is not None:
            self.core.metrics.observe_reply(stats, ttft)
        self._record(
            status,
            prompt_tokens=stats.prompt_tokens if stats else 0,
            cached_tokens=stats.cached_prompt_tokens if stats else 0,
            completion_tokens=stats.completion_tokens if stats else 0,
            queued_s=started - run.queued_at,
            slot=stats.slot if stats is not None and stats.slot >= 0 else None,
            time_to_first_token_s=ttft,
            tokens_per_s=stats.generation_tokens_per_s if stats and stats.completion_tokens > 1 else None,
            finish_reason=finish_reason(stats) if stats else "",
            error=error or ("the client disconnected" if run.disconnected else ""),
            reply=done.text if done is not None else "",
        )

    def _record(self, status: int, reply: str = "", **values: Any) -> None:
        self.core.metrics.observe_request(self.endpoint, status)
        log = self.core.log
        client = self.scope.get("client") or ("", 0)
        record = RequestRecord(
            id=log.next_id(),
            started_at=self.arrived,
            client=f"{client[0]}:{client[1]}",
            method=self.scope.get("method", ""),
            endpoint=self.endpoint,
            status=status,
            model=self.model,
            stream=self.stream,
            duration_s=time.perf_counter() - self.began,
            **values,
        )
        if log.keep_text:
            record = replace(record, messages=self.messages, prompt=self.prompt, reply=reply)
        log.add(record)


def build_app(core: ServerCore) -> ASGIApp:
    app = FastAPI(title="Glassbox", docs_url=None, redoc_url=None, openapi_url=None)
    endpoints = _Endpoints(core)
    app.add_api_route("/health", endpoints.health, methods=["GET"])
    app.add_api_route("/metrics", endpoints.metrics, methods=["GET"])
    app.add_api_route("/v1/models", endpoints.models, methods=["GET"])
    app.add_api_route("/v1/chat/completions", endpoints.chat, methods=["POST"])
    app.add_api_route("/v1/completions", endpoints.completions, methods=["POST"])
    app.add_api_route("/v1/embeddings", endpoints.embeddings, methods=["POST"])
    app.add_exception_handler(HTTPException, _not_served)
    return Guard(app, core.config, lambda scope, error: _Call(core, scope, scope.get("path", "")).refused(error))


class _Endpoints:
    def __init__(self, core: ServerCore) -> None:
        self._core = core

    async def health(self) -> Response:
        """ok (200), or why not (503): no model, or (under `glassbox serve`) the engine restarting."""
        model_queue = self._core.queue
        queue = {"busy": model_queue.busy, "waiting": model_queue.waiting}
        queue.update(slots=model_queue.slots, slots_busy=model_queue.running, slot_ctx=self._core.backend.slot_ctx)
        keeper = self._core.queue.keeper
        body: dict[str, Any] = {"status": "ok", "model": self._core.model_id(), "queue": queue}
        if keeper is not None:
            engine = keeper.health()
            body["engine"] = engine.as_json()
            if self._engine_down(engine):
                body.update(status=str(_down_state(engine)), model=keeper.config.model_path.stem)
                return JSONResponse(body, status_code=503, headers={"Retry-After": str(engine.retry_after_s)})
        if body["model"] is None:
            return JSONResponse({**body, "status": "no model loaded"}, status_code=503)
        return JSONResponse(body)

    async def metrics(self) -> Response:
        """Prometheus text: the server's counters and histograms, and the queue length now."""
        metrics = self._core.metrics
        return Response(metrics.render(), media_type=metrics.CONTENT_TYPE)

    async def models(self, request: Request) -> Response:
        _Call(self._core, request.scope, "/v1/models").answered(200)
        model = self._core.model_id()
        config = self._core.backend.config
        data = []
        if model is not None and config is not None:
            created = int(config.model_path.stat().st_mtime) if config.model_path.exists() else 0
            entry = {"id": model, "object": "model", "created": created, "owned_by": "glassbox"}
            data.append({**entry, "max_model_len": config.n_ctx})  # vLLM's name for the context length
        return JSONResponse({"object": "list", "data": data})

    async def chat(self, request: Request) -> Response:
        call = _Call(self._core, request.scope, "/v1/chat/completions")
        try:
            model = self._model()
            chat = parse_chat(await self._body(request), self._core.limits)
            call.model, call.stream, call.messages = model, chat.stream, chat.messages
            family = self._core.backend.tool_format.family
            grammar = call_grammar(family, chat.tools) if chat.tools.forced or not chat.grammar else chat.grammar
            run, first = await self._start(
                request,
                lambda backend, stop: backend.stream_chat(
                    chat.messages,
                    chat.params,
                    stop,
                    token_probabilities=chat.logprobs,
                    grammar=grammar,
                    tools=chat.tools.offered,
                ),
                "messages",
            )
        except ApiError as error:
            call.refused(error)
            return _error_response(error)
        identity = ReplyIdentity(model, "chatcmpl")
        if chat.stream:
            return StreamingResponse(
                self._stream(call, run, first, _ChatStream(identity, chat, family)), media_type="text/event-stream",
                headers=STREAM_HEADERS,
            )  # fmt: skip

        def shape(done: ReplyDone) -> dict[str, Any]:
            answer = read_reply_calls(done.text, family, chat.tools) if chat.tools.offered else None
            return chat_response(identity, done, _top(chat), chat.reasoning_format, answer)

        return await self._whole(call, run, first, shape)

    async def completions(self, request: Request) -> Response:
        call = _Call(self._core, request.scope, "/v1/completions")
        try:
            model = self._model()
            completion = parse_completion(await self._body(request), self._core.limits)
            call.model, call.stream, call.prompt = model, completion.stream, completion.prompt
            run, first = await self._start(
                request,
                lambda backend, stop: backend.stream_completion(
                    completion.prompt, completion.params, stop, token_probabilities=completion.logprobs is not None
                ),
                "prompt",
            )
        except ApiError as error:
            call.refused(error)
            return _error_response(error)
        identity = ReplyIdentity(model, "cmpl")
        if completion.stream:
            return StreamingResponse(
                self._stream(call, run, first, _CompletionStream(identity, completion)),
                media_type="text/event-stream", headers=STREAM_HEADERS,
            )  # fmt: skip
        logprobs = completion.logprobs
        return await self._whole(call, run, first, lambda done: completion_response(identity, done, logprobs))

    async def embeddings(self, request: Request) -> Response:
        call = _Call(self._core, request.scope, "/v1/embeddings")
        try:
            call.model = self._model()
            asked = parse_embedding_request(await self._body(request))
            served = Path(self._core.backend.model or "")
            embedded = await asyncio.to_thread(self._core.embeddings.embed, served, asked)
        except ApiError as error:
            call.refused(error)
            return _error_response(error)
        call.model = embedded.model
        call.answered(200, prompt_tokens=sum(embedded.tokens))
        return JSONResponse(embedding_response(embedded, asked.encoding))

    # ---- generating ------------------------------------------------------------------

    async def _body(self, request: Request) -> dict[str, Any]:
        return await read_json(
            request.stream(), request.headers.get("content-length", ""), self._core.config.max_body_bytes
        )

    def _model(self) -> str:
        if self._core.stopping:
            raise ApiError(503, "The server is stopping.", kind=UNAVAILABLE, code="server_stopping")
        keeper = self._core.queue.keeper
        engine = keeper.health() if keeper is not None else None
        if engine is not None and self._engine_down(engine):
            raise _restarting(engine)
        model = self._core.model_id()
        if model is None:
            raise ApiError(503, "No model is loaded in Glassbox; load one first.", kind=UNAVAILABLE, code="no_model")
        return model

    def _engine_down(self, engine: EngineHealth) -> bool:
        """The keeper restarts the engine, or will at its next look: the model was lost with its engine."""
        return engine.state is not EngineState.RUNNING or self._core.model_id() is None

    async def _start(self, request: Request, start: ReplyStart, prompt_field: str) -> tuple[ReplyRun, ReplyEvent]:
        """Queue the reply and wait for its first event; refusals and early failures become ApiErrors."""
        core = self._core
        run = ReplyRun(asyncio.get_running_loop(), start)
        try:
            core.queue.submit(run.job)
        except QueueFull as full:
            raise ApiError(
                503, str(full), kind=UNAVAILABLE, code="queue_full", headers={"Retry-After": str(full.retry_after_s)}
            ) from None
        except QueueClosed as closed:
            raise ApiError(503, str(closed), kind=UNAVAILABLE, code="server_stopping") from None
        core.track(run)
        run.watch(request.receive)
        try:
            return run, await run.next()
        except ImagesNeedVision as error:
            self._end(run)
            raise ApiError(400, str(error), param=prompt_field, code="model_cannot_see_images") from None
        except PromptTooLong as error:
            self._end(run)
            raise ApiError(
                400,
                f"The prompt has {error.prompt_tokens} tokens but the model's context holds {error.n_ctx}; "
                "shorten it, or load the model with a larger context length.",
                param=prompt_field,
                code="context_length_exceeded",
            ) from None
        except ReplyCancelled as error:
            self._end(run)
            status = CLIENT_CLOSED if run.disconnected else 503
            raise ApiError(status, str(error), kind=UNAVAILABLE, code="cancelled") from None
        except Exception as error:  # the engine failed before any text: its message says what happened
            self._end(run)
            raise ApiError(500, str(error), kind=SERVER_ERROR, code="engine_error") from None
        except BaseException:  # cancelled: the connection is gone
            run.stop.set()
            self._end(run)
            raise

    def _end(self, run: ReplyRun) -> None:
        run.close()
        self._core.untrack(run)

    async def _whole(
        self, call: _Call, run: ReplyRun, first: ReplyEvent, shape: Callable[[ReplyDone], dict[str, Any]]
    ) -> Response:
        try:
            done = await run.rest(first)
        except BaseException:
            run.stop.set()
            raise
        finally:
            self._end(run)
        if done.stats.stop_reason is StopReason.ERROR:
            call.finished(run, done, done.stats.error)
            error = ApiError(500, done.stats.error, kind=SERVER_ERROR, code="engine_error")
            return _error_response(error)
        call.finished(run, done)
        return JSONResponse(shape(done))

    async def _stream(self, call: _Call, run: ReplyRun, first: ReplyEvent, shape: _StreamShape) -> AsyncIterator[str]:
        done: ReplyDone | None = None
        try:
            opening = shape.start()  # sent with the first text: one write, one read for the client
            event = first
            while not isinstance(event, ReplyDone):
                if shape.live:
                    yield opening + shape.piece(event)
                    opening = ""
                event = await run.next()
            if opening:
                yield opening
            done = event
            if done.stats.stop_reason is StopReason.ERROR:
                yield shape.buffered(done) + error_event(done.stats.error)
            else:
                yield shape.buffered(done) + shape.finish(done)
        finally:
            self._end(run)
            if done is None:  # the client left (the stream was cancelled): stop; log once the engine has
                run.stop.set()
                run.disconnected = True
                run.when_ended(lambda final: call.finished(run, final))
            else:
                call.finished(run, done, done.stats.error)


class _StreamShape(ABC):
    """How one kind of stream writes its chunks; `live` False sends the text when the reply is done."""

    live = True

    def start(self) -> str:
        return ""

    @abstractmethod
    def piece(self, piece: TokenPiece) -> str: ...

    def buffered(self, done: ReplyDone) -> str:
        return ""

    @abstractmethod
    def finish(self, done: ReplyDone) -> str: ...


class _ChatStream(_StreamShape):
    """Chat chunks. With logprobs the tokens go out when the reply is done, each with its
    probabilities: the engine names the tokens once the reply ends (off the token loop)."""

    def __init__(self, identity: ReplyIdentity, chat: ChatRequest, family: ToolFamily) -> None:
        self._chunks = ChatChunks(identity, chat.include_usage, chat.reasoning_format)
        self._top = _top(chat)
        self._calls = ReplyToolCalls(family, chat.tools)
        self.live = self._top is None

    def start(self) -> str:
        return self._chunks.role()

    def piece(self, piece: TokenPiece) -> str:
        if piece.part is ReplyPart.ANSWER and piece.text:
            text = self._calls.text(piece.text)  # a tool call's text is held back, and read at the end
            if not text:
                return ""
            piece = replace(piece, text=text)
        return self._chunks.piece(piece)

    def buffered(self, done: ReplyDone) -> str:
        """The reasoning in one chunk, then the answer's tokens, each with its probabilities (a tool call's
        tokens are held back as in a live stream: the call comes whole at the end)."""
        if self._top is None:
            return ""
        reasoning = self._chunks.piece(TokenPiece(done.reasoning, -1, ReplyPart.REASONING)) if done.reasoning else ""
        chunks = []
        for (_step, piece), entry in zip(reply_steps(done), chat_logprobs(done, self._top), strict=True):
            text = self._calls.text(piece) if piece else piece
            if text or not piece:
                chunks.append(self._chunks.piece(TokenPiece(text, -1), [entry]))
        return reasoning + "".join(chunks)

    def finish(self, done: ReplyDone) -> str:
        answer = self._calls.finish()
        return self._chunks.tool_calls(answer) + self._chunks.finish(done, TOOL_CALLS if answer.calls else None)


class _CompletionStream(_StreamShape):
    """Raw text, as llama-server's completions are: a reasoning block stays inside it, in its tags."""

    def __init__(self, identity: ReplyIdentity, completion: CompletionRequest) -> None:
        self._chunks = CompletionChunks(identity, completion.include_usage)
        self._raw = ReasoningInContent()

    def piece(self, piece: TokenPiece) -> str:
        return self._chunks.text(self._raw.text(piece))

    def finish(self, done: ReplyDone) -> str:
        return self._chunks.finish(done)


def _top(chat: ChatRequest) -> int | None:
    return chat.top_logprobs if chat.logprobs else None


async def _not_served(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such endpoint, wrong method) in OpenAI's shape."""
    status, headers = (error.status_code, error.headers) if isinstance(error, HTTPException) else (500, None)
    what = f"{request.method} {request.url.path}"
    message = f"This server has no {what}." if status == 404 else f"{what} is not allowed ({status})."
    code = "not_found" if status == 404 else "not_allowed"
    return _error_response(ApiError(status, message, code=code, headers=headers))  # 405 keeps its Allow header


def _down_state(engine: EngineHealth) -> EngineState:
    """RESTARTING also in the moment between the engine's death and the keeper's noticing it."""
    return EngineState.RESTARTING if engine.state is EngineState.RUNNING else engine.state


def _restarting(engine: EngineHealth) -> ApiError:
    again = f"try again in {engine.retry_after_s} s."
    if engine.state is EngineState.CRASH_LOOP:
        message = (
            f"The model's engine keeps stopping ({engine.recent_failures} times recently) and is being restarted; "
            f"{again} GET /health says why."
        )
    else:
        message = f"The model's engine stopped unexpectedly and is restarting with the model; {again}"
    headers = {"Retry-After": str(engine.retry_after_s)}
    return ApiError(503, message, kind=UNAVAILABLE, code="engine_restarting", headers=headers)


def _error_response(error: ApiError) -> Response:
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)
