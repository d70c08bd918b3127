"""The API server's cost: the same greedy reply in-process, through the engine process, and over HTTP.

Three paths write the reply in alternating rounds: (e) Glassbox's engine in this process;
(p) the engine process the server uses (LocalBackend), called through the server's model
queue but without HTTP; (h) Glassbox's server on loopback, read by the official `openai`
client. Speed is generation tokens/s from the first token to the last (for (h): the server's
usage count over the time between the first and the last content chunk, as a client sees
it). For speed, each round gives every path a prompt of its own of the same length, so each
evaluates the same new tokens after the chat template's cached start.

Time to first token is from the call (or the request) to the first text, measured on
one-token replies to one prompt every path already holds in its KV cache: then each path
decodes one token, and the difference between them is what the engine process and HTTP
add, not the noise of evaluating a prompt on a shared machine. Then 4 clients ask at once,
against 4 requests from 1 client in turn: one model writes one reply at a time, so the 4 share
its speed (reported, no target). Last, the same server with 4 parallel slots (server_slots.py).
"""

from __future__ import annotations

import importlib
import math
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.bench.server_slots import AGGREGATE, AGGREGATE_TARGET, parallel_rows
from app.bench.streaming import N_CTX, PROMPT, in_own_thread, workload
from app.core.backends.local.backend import LocalBackend
from app.core.inference.engine import Engine, default_threads
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue, QueuedJob
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent

SECTION = "server"
SPEED = "streamed tok/s: through the server (openai client) ÷ in-process engine (per round)"
EXTRA_TTFT = "time to first token HTTP adds over the in-process engine (per round)"
SPEED_TARGET = ">= 0.95"
TTFT_TARGET = "<= 5"
CLIENTS = 4
PATHS = ("engine", "process", "http")


@dataclass(frozen=True)
class Measured:
    tokens_per_s: float
    first_token_s: float


Path = Callable[[list[ChatMessage], SamplingParams], Measured]  # one reply on one path


def _openai() -> Any:
    """The clients' library, in a development install (the test extra); the bundle leaves it out."""
    return importlib.import_module("openai")


def run(context: BenchContext) -> list[BenchRow]:
    try:
        openai = _openai()
    except ImportError:
        reason = "the openai package is not installed (pip install openai)"
        return [
            not_measured(SECTION, SPEED, reason, "ratio", SPEED_TARGET),
            not_measured(SECTION, EXTRA_TTFT, reason, "ms", TTFT_TARGET),
            not_measured(SECTION, AGGREGATE, reason, "ratio", AGGREGATE_TARGET),
        ]
    rounds, _messages, params = workload(context)
    config = LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=default_threads())
    engine = Engine()
    engine.load(config)
    backend = LocalBackend()
    backend.load(config)
    queue = ModelQueue(backend, CLIENTS)
    server = ApiServer(ServerConfig(port=0), queue)
    server.start()
    client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0)
    measured: dict[str, list[Measured]] = {path: [] for path in PATHS}
    speed_rounds = context.rounds(rounds)
    speed_rounds.judge(SPEED_TARGET, lambda: _speed_ratios(measured))
    try:
        paths: dict[str, Path] = {
            "engine": lambda messages, asked: _engine_in_own_thread(engine, messages, asked),
            "process": lambda messages, asked: _through_queue(queue, messages, asked),
            "http": lambda messages, asked: _over_http(client, messages, asked),
        }
        for path, measure in paths.items():  # warm up: the first reply of each fills its caches
            measure(_prompt(0, path), params)
        for index in speed_rounds:
            order = PATHS if index % 2 else tuple(reversed(PATHS))  # drift hits every path alike
            for path in order:
                measured[path].append(paths[path](_prompt(index + 1, path), params))
        first_token = _first_tokens(paths, context, 10 if context.quick else 30)
        short = replace(params, max_tokens=16 if context.smoke else 48 if context.quick else 128)
        one = _throughput(openai, server.base_url, 1, short)
        many = _throughput(openai, server.base_url, CLIENTS, short)
    finally:
        client.close()
        server.stop()
        queue.close()
        backend.close()
        engine.close()
    speed = {path: statistics.median(m.tokens_per_s for m in runs) for path, runs in measured.items()}
    ttft = {path: statistics.median(seconds) for path, seconds in first_token.items()}
    context.details[SECTION] = {
        "rounds": {path: [vars(m) for m in runs] for path, runs in measured.items()},
        "first_token_s": first_token,
        "max_tokens": params.max_tokens,
        "throughput": {"1": one, str(CLIENTS): many},
    }
    return [
        row(SECTION, "(e) in-process engine", speed["engine"], "tok/s"),
        row(SECTION, "(h) server on loopback, read by the openai client", speed["http"], "tok/s"),
        judged(SECTION, SPEED, _speed_ratios(measured), "ratio", SPEED_TARGET),
        row(SECTION, "time to first token: in-process engine (median)", ttft["engine"] * 1000, "ms"),
        row(SECTION, "time to first token: engine process, no HTTP (median)", ttft["process"] * 1000, "ms"),
        row(SECTION, "time to first token: server over HTTP (median)", ttft["http"] * 1000, "ms"),
        judged(SECTION, EXTRA_TTFT, _extra_ms(first_token), "ms", TTFT_TARGET),
        row(SECTION, "  of which HTTP and the queue (h - p)", (ttft["http"] - ttft["process"]) * 1000, "ms"),
        row(SECTION, f"throughput, {CLIENTS} requests from 1 client in turn", one, "tok/s"),
        row(SECTION, f"throughput, {CLIENTS} requests from {CLIENTS} clients at once", many, "tok/s"),
        row(SECTION, f"{CLIENTS} clients ÷ 1 (one model writes one reply at a time)", many / one, "ratio"),
        *parallel_rows(context, openai),
    ]


def _speed_ratios(measured: dict[str, list[Measured]]) -> list[float]:
    """Each round's speed over HTTP ÷ the in-process engine's in the same round."""
    return [h.tokens_per_s / e.tokens_per_s for h, e in zip(measured["http"], measured["engine"], strict=True)]


def _extra_ms(seconds: dict[str, list[float]]) -> list[float]:
    """Each round's time to first token over HTTP minus the in-process engine's, in ms."""
    return [(h - e) * 1000 for h, e in zip(seconds["http"], seconds["engine"], strict=True)]


def _first_tokens(paths: dict[str, Path], context: BenchContext, rounds: int) -> dict[str, list[float]]:
    """Seconds to the first token of one-token replies to one prompt each path holds in its KV cache.
    Rounds of a few decodes, far shorter than a calibration probe: the loop runs without one."""
    prompt = [ChatMessage("user", PROMPT)]
    one = replace(GREEDY, max_tokens=1)
    seconds: dict[str, list[float]] = {path: [] for path in PATHS}
    for path in PATHS:
        paths[path](prompt, one)  # now in the cache
    loop = context.rounds(rounds, calibrated=False)
    loop.judge(TTFT_TARGET, lambda: _extra_ms(seconds))
    for index in loop:
        for path in PATHS if index % 2 else tuple(reversed(PATHS)):
            # the engine process holds the prompt of whichever of (p) and (h) ran last: both use this one
            seconds[path].append(paths[path](prompt, one).first_token_s)
    return seconds


def _prompt(index: int, path: str) -> list[ChatMessage]:
    """The same length for every path and round ("Story 3p: ..."), a different start for each."""
    return [ChatMessage("user", f"Story {index % 10}{path[0]}: {PROMPT}")]


def _timed(events: Iterator[ReplyEvent], started: float) -> Measured:
    first = 0.0
    for event in events:
        if isinstance(event, ReplyDone):
            return Measured(event.stats.generation_tokens_per_s, first - started)
        if event.text and not first:
            first = time.perf_counter()
    raise AssertionError("every reply stream ends with a ReplyDone")


def _engine_in_own_thread(engine: Engine, messages: list[ChatMessage], params: SamplingParams) -> Measured:
    """The engine on a thread that ends with the reply (see streaming.in_own_thread for why)."""
    result: list[Measured] = []

    def measure() -> float:
        started = time.perf_counter()
        result.append(_timed(engine.stream_chat(messages, params, threading.Event()), started))
        return result[-1].tokens_per_s

    in_own_thread(measure)
    return result[0]


def _through_queue(queue: ModelQueue, messages: list[ChatMessage], params: SamplingParams) -> Measured:
    """The engine process, called by the server's model thread, timed from the moment it starts the reply."""
    result: list[Measured] = []
    done = threading.Event()

    def reply(backend: LocalBackend) -> None:
        started = time.perf_counter()
        try:
            result.append(_timed(backend.stream_chat(messages, params, threading.Event()), started))
        finally:
            done.set()

    queue.submit(QueuedJob(reply))
    done.wait()
    return result[0]


def _request(params: SamplingParams, messages: list[ChatMessage]) -> dict[str, Any]:
    return {
        "model": "glassbox",
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "stream": True,
        "stream_options": {"include_usage": True},
        "temperature": params.temperature,
        "top_p": params.top_p,
        "max_tokens": params.max_tokens,
        "seed": params.seed,
        "extra_body": {"top_k": params.top_k, "min_p": params.min_p, "repeat_penalty": params.repeat_penalty},
    }


def _over_http(client: Any, messages: list[ChatMessage], params: SamplingParams) -> Measured:
    started = time.perf_counter()
    first = last = 0.0
    tokens = 0
    for chunk in client.chat.completions.create(**_request(params, messages)):
        if chunk.choices and chunk.choices[0].delta.content:
            last = time.perf_counter()
            first = first or last
        if chunk.usage is not None:
            tokens = chunk.usage.completion_tokens
    speed = (tokens - 1) / (last - first) if tokens > 1 and last > first else math.nan  # nan: one token, no speed
    return Measured(speed, first - started)


def _throughput(openai: Any, base_url: str, clients: int, params: SamplingParams) -> float:
    """Completion tokens per second of wall time for CLIENTS requests: from `clients` clients at once,
    each with its own connection, asking in turn for its share (1 client asks CLIENTS times in a row)."""
    counts: list[int] = []

    def ask(index: int) -> None:
        with openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0) as client:
            for turn in range(CLIENTS // clients):
                request = {**_request(params, _prompt(index * CLIENTS + turn, "client")), "stream": False}
                del request["stream_options"]
                counts.append(client.chat.completions.create(**request).usage.completion_tokens)

    threads = [threading.Thread(target=ask, args=(index,), name=f"bench-client-{index}") for index in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - started)
