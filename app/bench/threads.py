"""The default thread count against a sweep of 1 … physical cores, in one run.

One engine decodes the same greedy reply (plain decoding, no drafting) with each thread
count: before each reply its context is set to that many threads (`llama_set_n_threads`),
so every count runs the same weights and the same tokens. The speed is llama.cpp's own
decode rate for the reply (n_eval / t_eval_ms), which is what the thread count changes.
Rounds go through the counts forwards, then backwards, so drift on a shared machine hits
every count alike; each count's speed is its median. The default (`default_threads`, one
per physical core) is judged against the best count (by median) round by round: its speed
over the best's in the same round, which should be 1, or within 3 % of it.
"""

from __future__ import annotations

import statistics

import llama_cpp

from app.bench import BenchContext, BenchRow, judged, row
from app.bench.streaming import N_CTX, PLAIN, engine_reply, in_own_thread, workload
from app.core.inference.engine import Engine, default_threads
from app.core.types.load import LoadConfig

SECTION = "threads"
TARGET = ">= 0.97"


def thread_counts(physical_cores: int) -> list[int]:
    """1 … physical cores: every count up to 8, then doublings, and the cores themselves."""
    counts = set(range(1, min(physical_cores, 8) + 1))
    n = 16
    while n < physical_cores:
        counts.add(n)
        n *= 2
    counts.add(physical_cores)
    return sorted(counts)


def run(context: BenchContext) -> list[BenchRow]:
    rounds, messages, params = workload(context)
    loop = context.rounds(rounds)
    default = default_threads()
    counts = thread_counts(default)
    engine = Engine()
    engine.load(LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=default, speculative=PLAIN))
    speeds: dict[int, list[float]] = {n: [] for n in counts}
    loop.judge(TARGET, lambda: _default_over_best(speeds, default))
    try:
        for index in loop:
            for n in counts if index % 2 == 0 else reversed(counts):
                llama_cpp.llama_set_n_threads(engine.llama.ctx, n, n)
                measured = in_own_thread(lambda: engine_reply(engine, messages, params))
                speeds[n].append(measured.llama.eval_tokens_per_s)
    finally:
        engine.close()
    median = {n: statistics.median(values) for n, values in speeds.items()}
    best = _best(speeds)
    context.details[SECTION] = {"default": default, "best": best, "rounds": speeds, "max_tokens": params.max_tokens}
    rows = [row(SECTION, f"decode, {_threads(n)}", median[n], "tok/s") for n in counts]
    metric = f"default ({_threads(default)}) / best ({_threads(best)}), per round"
    rows.append(judged(SECTION, metric, _default_over_best(speeds, default), "ratio", TARGET))
    return rows


def _best(speeds: dict[int, list[float]]) -> int:
    """The thread count with the highest median speed."""
    return max(speeds, key=lambda n: statistics.median(speeds[n]))


def _default_over_best(speeds: dict[int, list[float]], default: int) -> list[float]:
    """Each round's default speed over the best count's in the same round."""
    best = speeds[_best(speeds)]
    return [mine / theirs for mine, theirs in zip(speeds[default], best, strict=True)]


def _threads(n: int) -> str:
    return f"{n} thread" if n == 1 else f"{n} threads"
