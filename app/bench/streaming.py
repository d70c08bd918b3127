"""Streaming speed: raw llama-cpp-python vs Glassbox's engine vs the whole GUI path, in one run.

(a) and (b) run in this process; (c) is the window's path, with the engine in its child
process, so c/b is what moving llama.cpp out of the window's process costs.

All three generate the same greedy reply to the same prompt. Speed is generation tokens/s
(first token to last), the median of several alternating rounds so drift on a shared
machine hits all three alike. The GUI path runs the LLM worker thread and the chat view
offscreen and measures on the GUI thread, which also records its longest event-loop stall.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import cast

import llama_cpp

from app.bench import BenchContext, BenchRow, row
from app.core.inference.engine import ChatMessage, Engine, LoadConfig, TokenObserver, default_threads, final_reply
from app.core.inference.sampling import GREEDY, SamplingParams

SECTION = "streaming"
# Greedy decoding of this prompt runs to the token limit, so every path times the same
# number of tokens (a reply that ends after a dozen tokens would time mostly noise).
PROMPT = "Write a long story about a lighthouse keeper and a storm, in at least five paragraphs."
N_CTX = 1024


def workload(context: BenchContext) -> tuple[int, list[ChatMessage], SamplingParams]:
    """Rounds, messages and sampling of the reply the speed sections time (here and `inspector`)."""
    max_tokens = 96 if context.quick else 256
    return (2 if context.quick else 7), [ChatMessage("user", PROMPT)], replace(GREEDY, max_tokens=max_tokens)


def engine_speed(
    engine: Engine, messages: list[ChatMessage], params: SamplingParams, observer: TokenObserver | None = None
) -> float:
    """Generation tokens/s of one reply through the engine."""
    engine.llama.reset()  # the same prompt evaluation every round
    return final_reply(engine.stream_chat(messages, params, threading.Event(), observer)).stats.generation_tokens_per_s


def run(context: BenchContext) -> list[BenchRow]:
    rounds, messages, params = workload(context)
    max_tokens = params.max_tokens
    threads = default_threads()

    raw = llama_cpp.Llama(model_path=str(context.model_path), n_ctx=N_CTX, n_threads=threads, verbose=False)
    engine = Engine()
    engine.load(LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=threads))
    from app.bench.gui_stream import GuiStreamProbe

    gui_config = LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=threads)
    speeds: dict[str, list[float]] = {"raw": [], "engine": [], "gui": []}
    try:
        for _ in range(rounds):
            speeds["raw"].append(in_own_thread(lambda: _raw_speed(raw, messages, max_tokens)))
            speeds["engine"].append(in_own_thread(lambda: engine_speed(engine, messages, params)))
            gui = GuiStreamProbe(gui_config, messages, params)  # its LLM thread ends with the round
            try:
                speeds["gui"].append(gui.speed())
            finally:
                gui.close()
        gui = GuiStreamProbe(gui_config, messages, params)
        try:
            stalls = [gui.longest_stall_ms() for _ in range(2)]
        finally:
            gui.close()
    finally:
        engine.close()
        raw.close()

    a, b, c = (statistics.median(speeds[k]) for k in ("raw", "engine", "gui"))
    context.details[SECTION] = {"rounds": speeds, "stalls_ms": stalls, "max_tokens": max_tokens, "threads": threads}
    return [
        row(SECTION, "(a) raw create_chat_completion(stream=True)", a, "tok/s"),
        row(SECTION, "(b) app.core.inference.engine, in this process", b, "tok/s"),
        row(SECTION, "(c) GUI path: engine process -> worker thread -> signals -> chat view", c, "tok/s"),
        row(SECTION, "b/a", b / a, "ratio"),
        row(SECTION, "c/a", c / a, "ratio", ">= 0.97"),
        row(SECTION, "c/b (the engine process's cost)", c / b, "ratio", ">= 0.97"),
        row(SECTION, "longest GUI event-loop stall while streaming", max(stalls), "ms", "< 50"),
    ]


def in_own_thread(measure: Callable[[], float]) -> float:
    """Run one measurement on a thread that ends with it.

    llama.cpp's CPU backend (built with OpenMP) keeps a team of helper threads for every
    thread that has decoded. While two such teams are alive and they outnumber the CPUs,
    libgomp stops spin-waiting at its barriers (one per graph node) and every decode gets
    about three times slower. The app decodes on one thread only, the LLM worker; here
    each path gets a thread of its own that ends, so no path slows another down.
    """
    result: list[float] = []
    worker = threading.Thread(target=lambda: result.append(measure()), name="bench-measure")
    worker.start()
    worker.join()
    return result[0]


def _raw_speed(llama: llama_cpp.Llama, messages: list[ChatMessage], max_tokens: int) -> float:
    llama.reset()
    first = last = 0.0
    count = 0
    payload = [{"role": m.role, "content": m.content} for m in messages]
    stream = llama.create_chat_completion(
        cast("list[llama_cpp.ChatCompletionRequestMessage]", payload),
        stream=True,
        temperature=0.0,
        top_k=1,
        top_p=1.0,
        min_p=0.0,
        repeat_penalty=1.0,
        max_tokens=max_tokens,
        seed=0,
    )
    for chunk in cast("Iterator[llama_cpp.CreateChatCompletionStreamResponse]", stream):  # stream=True: chunks
        if chunk["choices"][0]["delta"].get("content"):
            count += 1
            last = time.perf_counter()
            first = first or last
    return (count - 1) / (last - first)
