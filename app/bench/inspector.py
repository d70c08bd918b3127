"""What the token-probability inspector costs: generation tokens/s with it on versus off.

Both runs generate the streaming section's greedy reply to its prompt on one loaded engine,
in alternating rounds (the median of each side), so drift on a shared machine hits both alike;
the ratio is judged round by round (on over off in the same round).
"On" is what the LLM worker does when View → Token probabilities is checked: the recorder
takes the softmax of each step's logits row and keeps the top 5. The per-token cost of
that work is also timed alone, on this model's vocabulary and on a 152k one (Qwen-sized),
to show how it scales.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from app.bench import BenchContext, BenchRow, judged, row
from app.bench.streaming import N_CTX, PLAIN, engine_speed, workload
from app.core.inference.engine import Engine, default_threads
from app.core.inference.token_probs import TokenProbabilityRecorder, softmax_top
from app.core.types.load import LoadConfig

SECTION = "inspector"
LARGE_VOCAB = 152_064
TARGET = ">= 0.95"


def run(context: BenchContext) -> list[BenchRow]:
    rounds, messages, params = workload(context)
    engine = Engine()
    engine.load(LoadConfig(context.model_path, n_ctx=N_CTX, n_threads=default_threads(), speculative=PLAIN))
    speeds: dict[str, list[float]] = {"off": [], "on": []}
    loop = context.rounds(rounds)
    loop.judge(TARGET, lambda: _on_over_off(speeds))
    try:
        for index in loop:
            order = ("off", "on") if index % 2 == 0 else ("on", "off")
            for side in order:
                recorder = TokenProbabilityRecorder(params) if side == "on" else None
                speeds[side].append(engine_speed(engine, messages, params, recorder.observe if recorder else None))
        n_vocab = engine.llama.n_vocab()
    finally:
        engine.close()
    off, on = statistics.median(speeds["off"]), statistics.median(speeds["on"])
    own_cost = _softmax_cost_ms(n_vocab)
    large_cost = _softmax_cost_ms(LARGE_VOCAB)
    context.details[SECTION] = {"rounds": speeds, "max_tokens": params.max_tokens, "n_vocab": n_vocab}
    return [
        row(SECTION, "generation, token probabilities off", off, "tok/s"),
        row(SECTION, "generation, token probabilities on (top 5 per token)", on, "tok/s"),
        judged(SECTION, "on/off (per round)", _on_over_off(speeds), "ratio", TARGET),
        row(SECTION, f"softmax + top 5 per token, {n_vocab:,} vocabulary", own_cost, "ms"),
        row(SECTION, f"softmax + top 5 per token, {LARGE_VOCAB:,} vocabulary", large_cost, "ms"),
    ]


def _on_over_off(speeds: dict[str, list[float]]) -> list[float]:
    return [on / off for on, off in zip(speeds["on"], speeds["off"], strict=True)]


def _softmax_cost_ms(n_vocab: int, repeats: int = 200) -> float:
    """The recorder's numpy work for one token on a logits row of `n_vocab` floats."""
    logits = np.random.default_rng(0).normal(0.0, 3.0, n_vocab).astype(np.float32)
    started = time.perf_counter()
    for i in range(repeats):
        softmax_top(logits, i % n_vocab)
    return (time.perf_counter() - started) / repeats * 1000
