"""Streaming speed against the limit: llama.cpp's own decode time, in one run.

Five speeds of the same greedy reply to the same prompt, generation tokens/s (first token
to last), measured in rounds whose order rotates, so drift on a shared machine hits every
path alike:

    (a) llama-cpp-python's own streaming loop (create_chat_completion, stream=True)
    (b) Glassbox's engine, in this process
    (c) the window's path: a real main window (its panels, docks and pollers) answering the
        message as typed, the engine in its child process -> LLM worker thread -> signals ->
        the window, measured on the GUI thread (gui_stream.py)
    (d) decode only: what llama.cpp itself counted inside `llama_decode` for the reply
        (`llama_perf_context`: n_eval / t_eval_ms), read for (b)'s reply and, in the child,
        for (c)'s and (e)'s (their ReplyDone.metrics)
    (e) the engine process without a window: LocalBackend's stream as the API server and
        the command line read it, on a thread of this process

b/d, c/d and e/d are taken per reply (each path against llama.cpp's time for that same
reply) and their medians reported (with their intervals over the rounds, where a target
judges them); so is the per-token time spent outside llama.cpp's
decode, 1/b − 1/d and 1/c − 1/d. Each window answers twice and its second reply is the one
counted (c), as for the other paths, whose engines answered before: the first reply after
the window's load has a row of its own (llama.cpp's decode in it against the second's).
Paths compared with each other (c/a, c/b, e/b) are compared within each round and the
median of those ratios reported: the speed of a shared machine drifts by several per cent
between rounds, far more than within one.

On two cores the window's own threads (GUI, LLM worker, pipe reader, pollers) run on the
cores llama.cpp's two threads decode on, so llama.cpp itself decodes slower in the window's
engine process than in this one: the section reports that share (d in the window's engine
process ÷ d here, per round) and the CPU time the window's process spends per streamed
token, with and without drawing the text. That is why c/b has no target: it is the window's
share plus the path's own cost; e/b is the engine process's cost alone.

Prompt processing is compared the same way: evaluated prompt tokens/s of a ~1,000-token
prompt through the engine (up to its first token) against llama.cpp's own prompt-eval rate
(n_p_eval / t_p_eval_ms) for that evaluation.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, replace
from typing import TypeVar, cast

import llama_cpp

from app.bench import BenchContext, BenchRow, judged, row
from app.bench.measured import Measured, counted
from app.core.backends.local.backend import LocalBackend
from app.core.inference.engine import Engine, TokenObserver, default_threads
from app.core.inference.metrics import MetricsRecorder
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.support.stop_flag import StopFlag
from app.core.types.load import LoadConfig, Speculative
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, final_reply

T = TypeVar("T")

SECTION = "streaming"
# Greedy decoding of this prompt runs to the token limit, so every path times the same
# number of tokens (a reply that ends after a dozen tokens would time mostly noise).
PROMPT = "Write a long story about a lighthouse keeper and a storm, in at least five paragraphs."
N_CTX = 2048
PLAIN = Speculative.OFF  # the speed of the token loop itself, one token a decode
PROMPT_EVAL_TOKENS = 1000  # the length of the prompt-processing prompt
# The rows judged against a target, each over its rounds (see _judged_rounds).
C_OVER_A = "c/a (per round)"
E_OVER_B = "e/b (the engine process's cost, per round)"
B_OVER_D = "b/d (the engine against llama.cpp's decode, per reply)"
ENGINE_OVERHEAD = "per-token time outside llama_decode, engine (1/b - 1/d, per reply)"
WINDOW_OVERHEAD = "per-token time outside llama_decode, window path (1/c - 1/d, per reply)"
PROMPT_SHARE = "prompt processing, engine / llama.cpp (per evaluation)"
STALL = "longest GUI event-loop stall while streaming (per round)"
_FILLER = (
    "The keeper climbed the spiral stairs at dusk, trimmed the wick, wound the clockwork that turned the lens, "
    "and wrote the wind, the sea and every passing ship into the log. "
)


def workload(context: BenchContext) -> tuple[int, list[ChatMessage], SamplingParams]:
    """Rounds, messages and sampling of the reply the speed sections time (here and `inspector`)."""
    max_tokens = 16 if context.smoke else 96 if context.quick else 256
    return (3 if context.quick else 7), [ChatMessage("user", PROMPT)], replace(GREEDY, max_tokens=max_tokens)


def engine_speed(
    engine: Engine, messages: list[ChatMessage], params: SamplingParams, observer: TokenObserver | None = None
) -> float:
    """Generation tokens/s of one reply through the engine."""
    return engine_reply(engine, messages, params, observer).tokens_per_s


def engine_reply(
    engine: Engine, messages: list[ChatMessage], params: SamplingParams, observer: TokenObserver | None = None
) -> Measured:
    """One reply through the engine, evaluated from scratch, with llama.cpp's counters for it."""
    engine.llama.reset()  # the same prompt evaluation every round
    recorder = MetricsRecorder(engine.llama)
    done = final_reply(engine.stream_chat(messages, params, threading.Event(), observer, speculative=PLAIN))
    return Measured(done.stats.generation_tokens_per_s, counted(recorder.finish(done.stats, engine.llama)))


def engine_process_reply(backend: LocalBackend, messages: list[ChatMessage], params: SamplingParams) -> Measured:
    """One reply through the engine process, timed where its tokens arrive (first to last), with
    the counters llama.cpp kept for it in the child."""
    first = last = 0.0
    done: ReplyDone | None = None
    for event in backend.stream_chat(messages, params, StopFlag()):
        if isinstance(event, ReplyDone):
            done = event
        elif event.token_id >= 0:
            last = time.perf_counter()
            first = first or last
    assert done is not None and done.metrics is not None, "a local reply ends with its metrics"
    return Measured((done.stats.completion_tokens - 1) / (last - first), counted(done.metrics))


def prompt_eval(engine: Engine, messages: list[ChatMessage]) -> Measured:
    """The prompt's evaluated tokens/s up to the first token, with llama.cpp's prompt counters for it."""
    engine.llama.reset()
    recorder = MetricsRecorder(engine.llama)
    one_token = replace(GREEDY, max_tokens=1)
    done = final_reply(engine.stream_chat(messages, one_token, threading.Event(), speculative=PLAIN))
    return Measured(done.stats.prompt_eval_tokens_per_s, counted(recorder.finish(done.stats, engine.llama)))


def long_prompt(engine: Engine, tokens: int = PROMPT_EVAL_TOKENS) -> list[ChatMessage]:
    """A user message whose chat prompt is about `tokens` tokens long."""
    words = _FILLER.split(" ")
    text = ""
    while True:
        longer = text + " ".join(words[:8]) + " "
        words = words[8:] + words[:8]
        if engine.count_tokens([ChatMessage("user", longer + "Summarize.")]) > tokens:
            return [ChatMessage("user", text + "Summarize.")]
        text = longer


def run(context: BenchContext) -> list[BenchRow]:
    rounds, messages, params = workload(context)
    max_tokens = params.max_tokens
    threads = default_threads()
    config = LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=threads, speculative=PLAIN)

    raw = llama_cpp.Llama(model_path=str(context.model_path), n_ctx=N_CTX, n_threads=threads, verbose=False)
    engine = Engine()
    engine.load(config)
    backend = LocalBackend()
    backend.load(config)
    from app.bench.gui_stream import GuiStreamProbe

    long = long_prompt(engine)
    speeds: dict[str, list[float]] = {"raw": []}
    names = ("engine", "process", "gui", "gui_first", "gui_no_drawing", "prompt")
    measured: dict[str, list[Measured]] = {name: [] for name in names}
    stalls: list[float] = []
    loop = context.rounds(rounds)
    for target, values in _judged_rounds(speeds, measured, stalls).values():
        loop.judge(target, values)

    def gui_round(name: str = "gui", draw: bool = True) -> None:
        gui = GuiStreamProbe(config, messages, params, draw)  # its LLM thread ends with the round
        try:
            first = gui.measure()  # the first reply after the window's load, reported on its own
            measured[name].append(gui.measure())
            if draw:
                measured["gui_first"].append(first)
                # In a reply of its own: the timer's 200 wake-ups a second would slow the measured one.
                stalls.append(gui.longest_stall_ms())
        finally:
            gui.close()

    paths: list[Callable[[], None]] = [
        lambda: speeds["raw"].append(in_own_thread(lambda: _raw_speed(raw, messages, max_tokens))),
        lambda: measured["engine"].append(in_own_thread(lambda: engine_reply(engine, messages, params))),
        lambda: measured["process"].append(in_own_thread(lambda: engine_process_reply(backend, messages, params))),
        gui_round,
        lambda: gui_round("gui_no_drawing", draw=False),
        lambda: measured["prompt"].append(in_own_thread(lambda: prompt_eval(engine, long))),
    ]
    try:
        for index in loop:
            for path in paths[index % len(paths) :] + paths[: index % len(paths)]:
                path()
    finally:
        backend.close()
        engine.close()
        raw.close()

    a = statistics.median(speeds["raw"])
    b, c, e = (statistics.median(m.tokens_per_s for m in measured[k]) for k in ("engine", "gui", "process"))
    engine_rounds, gui_rounds, process_rounds = measured["engine"], measured["gui"], measured["process"]
    d, d_gui, d_process = (
        statistics.median(m.llama.eval_tokens_per_s for m in replies)
        for replies in (engine_rounds, gui_rounds, process_rounds)
    )
    c_of_d, e_of_d = (statistics.median(m.of_decode for m in measured[k]) for k in ("gui", "process"))
    window_cpu, undrawn_cpu = (process_cpu_us(measured[k]) for k in ("gui", "gui_no_drawing"))
    prompt = measured["prompt"]
    prompt_rate = statistics.median(m.tokens_per_s for m in prompt)
    llama_prompt_rate = statistics.median(m.llama.prompt_eval_tokens_per_s for m in prompt)
    context.details[SECTION] = {
        "rounds": {
            "raw": speeds["raw"],
            **{name: [asdict(m) for m in replies] for name, replies in measured.items()},
        },
        "stalls_ms": stalls,
        "max_tokens": max_tokens,
        "prompt_tokens": prompt[0].llama.prompt_eval_tokens,
        "threads": threads,
    }
    judge = _judged_rounds(speeds, measured, stalls)

    def judged_row(metric: str, unit: str) -> BenchRow:
        target, values = judge[metric]
        return judged(SECTION, metric, values(), unit, target)

    return [
        row(SECTION, "(a) raw create_chat_completion(stream=True)", a, "tok/s"),
        row(SECTION, "(b) app.core.inference.engine, in this process", b, "tok/s"),
        row(SECTION, "(c) the whole window: engine process -> worker thread -> signals -> main window", c, "tok/s"),
        row(SECTION, "(e) the engine process without a window, as the API server reads it", e, "tok/s"),
        row(SECTION, "(d) decode only, llama.cpp's own count for (b)'s replies", d, "tok/s"),
        row(SECTION, "(d) decode only, llama.cpp's own count in the window's engine process", d_gui, "tok/s"),
        row(SECTION, "(d) decode only, llama.cpp's own count in (e)'s engine process", d_process, "tok/s"),
        row(SECTION, "b/a", b / a, "ratio"),
        judged_row(C_OVER_A, "ratio"),
        judged_row(E_OVER_B, "ratio"),
        row(
            SECTION,
            "c/b (the window's share of the cores and its path, per round)",
            paired_speeds(gui_rounds, engine_rounds),
            "ratio",
        ),
        judged_row(B_OVER_D, "ratio"),
        row(SECTION, "e/d (the engine process against llama.cpp's decode)", e_of_d, "ratio"),
        row(SECTION, "c/d (the window's path against llama.cpp's decode)", c_of_d, "ratio"),
        judged_row(ENGINE_OVERHEAD, "µs"),
        judged_row(WINDOW_OVERHEAD, "µs"),
        row(
            SECTION,
            "llama.cpp's decode in the window's engine process ÷ in this process (per round)",
            paired_decode(gui_rounds, engine_rounds),
            "ratio",
        ),
        row(
            SECTION,
            "the window's first reply after its load: llama.cpp's decode ÷ its second reply's (per round)",
            paired_decode(measured["gui_first"], gui_rounds),
            "ratio",
        ),
        row(SECTION, "CPU time of the window's process per streamed token", window_cpu, "µs"),
        row(SECTION, "  of which drawing the streamed text (with drawing - without)", window_cpu - undrawn_cpu, "µs"),
        row(SECTION, f"prompt processing, engine ({prompt[0].llama.prompt_eval_tokens} tokens)", prompt_rate, "tok/s"),
        row(SECTION, "prompt processing, llama.cpp's own count", llama_prompt_rate, "tok/s"),
        judged_row(PROMPT_SHARE, "ratio"),
        judged_row(STALL, "ms"),
    ]


def _judged_rounds(
    speeds: dict[str, list[float]], measured: dict[str, list[Measured]], stalls: list[float]
) -> dict[str, tuple[str, Callable[[], list[float]]]]:
    """Each judged metric's target and its per-round values, read from the rounds measured so far."""
    return {
        C_OVER_A: (">= 0.97", lambda: per_round([m.tokens_per_s for m in measured["gui"]], speeds["raw"])),
        E_OVER_B: (">= 0.97", lambda: per_round_speeds(measured["process"], measured["engine"])),
        B_OVER_D: (">= 0.99", lambda: [m.of_decode for m in measured["engine"]]),
        ENGINE_OVERHEAD: ("<= 100", lambda: [m.overhead_us for m in measured["engine"]]),
        WINDOW_OVERHEAD: ("<= 300", lambda: [m.overhead_us for m in measured["gui"]]),
        PROMPT_SHARE: (
            ">= 0.97",
            lambda: [m.tokens_per_s / m.llama.prompt_eval_tokens_per_s for m in measured["prompt"]],
        ),
        STALL: ("< 50", lambda: list(stalls)),
    }


def process_cpu_us(replies: Sequence[Measured]) -> float:
    """The median CPU time per token of the replies' reader process (each window round measures it)."""
    values = [m.process_cpu_us_per_token for m in replies]
    measured = [value for value in values if value is not None]
    if len(measured) != len(values):
        raise RuntimeError("a round did not measure its process's CPU time")
    return statistics.median(measured)


def per_round(values: Sequence[float], others: Sequence[float]) -> list[float]:
    """Each round's value ÷ other, the two measured in the same round."""
    return [value / other for value, other in zip(values, others, strict=True)]


def paired(values: Sequence[float], others: Sequence[float]) -> float:
    """The median over rounds of value ÷ other, each pair measured in the same round."""
    return statistics.median(per_round(values, others))


def per_round_speeds(replies: Sequence[Measured], others: Sequence[Measured]) -> list[float]:
    return per_round([m.tokens_per_s for m in replies], [m.tokens_per_s for m in others])


def paired_speeds(replies: Sequence[Measured], others: Sequence[Measured]) -> float:
    return statistics.median(per_round_speeds(replies, others))


def paired_decode(replies: Sequence[Measured], others: Sequence[Measured]) -> float:
    """How fast llama.cpp decoded for `replies` against `others`, round by round."""
    return paired([m.llama.eval_tokens_per_s for m in replies], [m.llama.eval_tokens_per_s for m in others])


def in_own_thread(measure: Callable[[], T]) -> T:
    """Run one measurement on a thread that ends with it.

    llama.cpp's CPU backend (built with OpenMP) keeps a team of helper threads for every
    thread that has decoded. While two such teams are alive and they outnumber the CPUs,
    libgomp stops spin-waiting at its barriers (one per graph node) and every decode gets
    about three times slower. The app decodes on one thread only, the LLM worker; here
    each path gets a thread of its own that ends, so no path slows another down.
    """
    result: list[T] = []
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
