"""The `server` section's parallel part: Glassbox's server with 4 slots against 1 client, and llama-cpp-python's.

Measured from outside with the official `openai` client, as a user's programs see it:

- aggregate streamed tokens/s of 4 clients at once ÷ 1 client alone, each client streaming
  replies to prompts of its own (target >= 1.3 on a 2-core machine: one batch of 4 tokens
  costs less than 4 single decodes); llama-cpp-python's own server (`python -m llama_cpp.server`,
  which writes one reply at a time) is measured the same way on the same model in the same run;
- the longest gap between two chunks of a running stream while another client's prompt of
  about 2,000 tokens is read (chunked, between the stream's tokens);
- time to first token of a new request while 3 others stream.
"""

from __future__ import annotations

import itertools
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.bench import BenchContext, BenchRow, judged, not_measured, row
from app.bench.llama_server import ServerUnavailable, server_missing, start_llama_server
from app.core.backends.local.backend import LocalBackend
from app.core.inference.engine import default_threads
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig

SECTION = "server"
SLOTS = 4
SLOT_CTX = 2560  # room for the 2,000-token prompt and its chat template in one slot
N_CTX = SLOTS * SLOT_CTX
AGGREGATE = f"streamed tok/s: {SLOTS} clients at once ÷ 1 client ({SLOTS} slots)"
AGGREGATE_TARGET = ">= 1.3"
RUNNING_BEFORE_S = 0.5  # the running stream's tokens before the long prompt is sent


@dataclass(frozen=True)
class Lengths:
    """How long the parallel part's prompts and streams are: the bench's, or the shortest that still exercise
    every path (`BenchContext.smoke`, for the section's tests)."""

    long_prompt_tokens: int = 2000
    running_tokens: int = 400  # the running stream's length: it outlasts the long prompt's reading
    beside_tokens: int = 200  # the streams a newcomer's first token is timed beside


SMOKE_LENGTHS = Lengths(long_prompt_tokens=300, running_tokens=96, beside_tokens=32)
STORY = "Tell a long story about a lighthouse keeper named {name} and the storm that came in the night."
NAMES = ("Ada", "Bram", "Cleo", "Dov", "Eli", "Fay", "Gus", "Hal", "Ivo", "Jun", "Kai", "Lea")


def parallel_rows(context: BenchContext, openai: Any) -> list[BenchRow]:
    """The parallel part's rows; `openai` is the clients' library."""
    params = replace(GREEDY, max_tokens=24 if context.smoke else 48 if context.quick else 128)
    backend = LocalBackend()
    backend.load(LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=default_threads()))
    backend.open_slots(SLOTS)
    queue = ModelQueue(backend, SLOTS, slots=SLOTS)
    server = ApiServer(ServerConfig(port=0), queue)
    server.start()
    rounds = 1 if context.quick else 3
    lengths = SMOKE_LENGTHS if context.smoke else Lengths()
    try:
        ask = _streamer(openai, server.base_url)
        ask(_story(0), params, None)  # warm up
        ratios = [_aggregate_ratio(ask, params, index) for index in range(rounds)]
        gap_s = _longest_gap(ask, params, lengths)
        ttft_s = _first_token_beside(ask, params, SLOTS - 1, lengths.beside_tokens)
        alone_ttft_s = _first_token_beside(ask, params, 0, lengths.beside_tokens)
    finally:
        server.stop()
        queue.close()
        backend.close()
    reference = _llama_cpp_server(context, openai, params, rounds)
    context.details[f"{SECTION}_slots"] = {
        "ratios": ratios,
        "longest_gap_s": gap_s,
        "ttft_beside_s": ttft_s,
        "ttft_alone_s": alone_ttft_s,
        "llama_cpp_server": reference,
    }
    rows = [
        judged(SECTION, AGGREGATE, ratios, "ratio", AGGREGATE_TARGET),
        _gap_row(gap_s, lengths.long_prompt_tokens),
        row(SECTION, f"time to first token beside {SLOTS - 1} streaming clients", ttft_s * 1000, "ms"),
        row(SECTION, "time to first token of the same request alone", alone_ttft_s * 1000, "ms"),
    ]
    name = f"llama_cpp.server: streamed tok/s, {SLOTS} clients at once ÷ 1 client"
    if isinstance(reference, str):
        rows.append(not_measured(SECTION, name, reference, "ratio"))
    else:
        rows.append(row(SECTION, name, statistics.median(reference), "ratio"))
    return rows


def _gap_row(gap_s: float | None, long_prompt_tokens: int) -> BenchRow:
    name = f"longest gap in a stream while a {long_prompt_tokens}-token prompt is read"
    if gap_s is None:
        return not_measured(SECTION, name, "the running stream ended before the long prompt was answered", "ms")
    return row(SECTION, name, gap_s * 1000, "ms")


# One streamed request: (completion tokens, each chunk's arrival time); the event, if any, is set at the first chunk.
Ask = Callable[[str, SamplingParams, threading.Event | None], tuple[int, list[float]]]


def _streamer(openai: Any, base_url: str) -> Ask:
    def ask(content: str, params: SamplingParams, first: threading.Event | None = None) -> tuple[int, list[float]]:
        arrivals: list[float] = []
        tokens = 0
        with openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0) as client:
            chunks = client.chat.completions.create(
                model="any",
                messages=[{"role": "user", "content": content}],
                stream=True,
                stream_options={"include_usage": True},
                max_tokens=params.max_tokens,
                temperature=params.temperature,
            )
            for chunk in chunks:
                if chunk.choices and chunk.choices[0].delta.content:
                    arrivals.append(time.perf_counter())
                    if first is not None:
                        first.set()
                if chunk.usage is not None:
                    tokens = chunk.usage.completion_tokens
        # llama_cpp.server sends no usage in a stream, and one token a chunk.
        return tokens or len(arrivals), arrivals

    return ask


def _story(index: int) -> str:
    return STORY.format(name=NAMES[index % len(NAMES)] + str(index))


def _at_once(calls: list[Callable[[], Any]]) -> tuple[list[Any], float]:
    """The calls' results, each on a thread of its own, and the wall time they took together."""
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,), name=f"bench-client-{i}") for i in range(len(calls))]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, time.perf_counter() - started


def _aggregate_ratio(ask: Ask, params: SamplingParams, index: int) -> float:
    """Tokens/s of SLOTS clients streaming at once ÷ tokens/s of one client streaming alone."""
    (alone,), alone_s = _at_once([lambda: ask(_story(100 + index), params, None)])
    together, together_s = _at_once(
        [lambda i=i: ask(_story(200 + index * SLOTS + i), params, None) for i in range(SLOTS)]  # type: ignore[misc]
    )
    return (sum(tokens for tokens, _ in together) / together_s) / (alone[0] / alone_s)


def _longest_gap(ask: Ask, params: SamplingParams, lengths: Lengths) -> float | None:
    """The longest time between two chunks of a running stream while another client's long prompt is read;
    None when the running stream ended before the long prompt was answered (nothing to measure then).

    The running stream is a long story: a request that ends sooner (a short count the model closes
    after a few words) leaves the long prompt to be read alone, and the time that takes is no gap."""
    long_prompt = "Summarise this: " + "the tide comes in and the tide goes out. " * (lengths.long_prompt_tokens // 10)
    streaming = threading.Event()
    window: list[float] = []

    def running() -> tuple[int, list[float]]:
        return ask(_story(400), replace(params, max_tokens=lengths.running_tokens), streaming)

    def long() -> None:
        streaming.wait()
        time.sleep(RUNNING_BEFORE_S)
        window.append(time.perf_counter())
        ask(long_prompt, replace(params, max_tokens=1), None)
        window.append(time.perf_counter())

    (streamed, _none), _wall = _at_once([running, long])
    _tokens, arrivals = streamed
    # The chunks while the long request was out, with the last one before it and the first one after it.
    before = [t for t in arrivals if t < window[0]][-1:]
    inside = [t for t in arrivals if window[0] <= t <= window[1]]
    after = [t for t in arrivals if t > window[1]][:1]
    if not before or not after:
        return None
    return max(b - a for a, b in itertools.pairwise(before + inside + after))


def _first_token_beside(ask: Ask, params: SamplingParams, others: int, streamed_tokens: int) -> float:
    """Seconds to the first chunk of a short request sent once `others` clients stream `streamed_tokens` each."""
    streaming = [threading.Event() for _ in range(others)]

    def newcomer() -> float:
        for event in streaming:
            event.wait()
        sent = time.perf_counter()
        _tokens, arrivals = ask("Say hello.", replace(params, max_tokens=4), None)
        return arrivals[0] - sent if arrivals else float("nan")

    streamed = replace(params, max_tokens=streamed_tokens)
    streams = [lambda i=i: ask(_story(300 + i), streamed, streaming[i]) for i in range(others)]
    results, _wall = _at_once([*streams, newcomer])
    return float(results[-1])


def _llama_cpp_server(context: BenchContext, openai: Any, params: SamplingParams, rounds: int) -> list[float] | str:
    """The same 4 ÷ 1 ratio against llama-cpp-python's server; the reason when it cannot run."""
    missing = server_missing()
    if missing:
        return missing
    with tempfile.TemporaryDirectory(prefix="glassbox-bench-") as logs:
        try:
            server = start_llama_server(context.model_path, Path(logs), n_ctx=SLOT_CTX)
        except ServerUnavailable as error:
            return str(error)
        try:
            ask = _streamer(openai, f"{server.url}/v1")
            ask(_story(0), params, None)
            return [_aggregate_ratio(ask, params, index) for index in range(rounds)]
        finally:
            server.stop()
