"""Whether a batch of tokens decodes bit for bit like the same tokens decoded one at a time.

Speculative decoding keeps its promise (the reply is the one plain decoding gives, token
for token) only if a token's logits do not depend on how many tokens shared its batch.
llama.cpp does not promise that. On this project's CPU build, its attention without flash
attention computes a batch with other kernels than a single token, and the logits of some
positions differ by a few tenths (enough to turn a near tie); with flash attention every
row is computed alike and batches match single tokens exactly. Other backends and types
may differ again, so the engine asks the loaded model itself, once, the first time it
would draft: it decodes a few tokens one at a time, then as batches of several sizes, and
compares every row. Different positions fail differently, so every row of every batch
must match.
"""

from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import llama_cpp
import numpy as np

from app.core.inference.decode_batch import DecodeBatch
from app.core.inference.logits import LogitsRows

PROBE_LENGTH = 9  # tokens decoded one at a time; batches up to this size are checked
PROBE_BATCHES = (2, 4)  # and the whole probe


@dataclass(frozen=True)
class BatchProbe:
    """What decoding the probe showed: whether batches match single tokens, and what they cost."""

    exact: bool
    # Batch size -> its decode time over a single token's (measured once each, so rough);
    # speculative decoding on Auto weighs proposals with it.
    cost: dict[int, float] = field(default_factory=dict)

    @property
    def largest(self) -> int:
        """The largest batch checked (Auto uses no larger one: only these are known to match)."""
        return max(self.cost, default=1)

    def cost_of(self, size: int) -> float:
        """A batch of `size` tokens in single-token decodes, interpolated between the sizes measured."""
        if size <= 1 or not self.cost:
            return float(max(size, 1))  # not measured: as if every token cost a decode of its own
        known = sorted({1: 1.0, **self.cost}.items())
        for (low, low_cost), (high, high_cost) in itertools.pairwise(known):
            if size <= high:
                return low_cost + (high_cost - low_cost) * (size - low) / (high - low)
        (last, last_cost), (before, before_cost) = known[-1], known[-2]
        return last_cost + (last_cost - before_cost) / (last - before) * (size - last)


def probe_batches(
    batch: DecodeBatch, rows: LogitsRows, memory: llama_cpp.llama_memory_t | None, start: int, probe: Sequence[int]
) -> BatchProbe:
    """Decode `probe` at `start` (after what the KV cache holds) one token at a time and then as
    batches; compare the logits and time the decodes. The cache is left as it was: everything
    from `start` on is removed again."""
    singles: list[np.ndarray] = []
    single_s: list[float] = []
    cost: dict[int, float] = {}
    try:
        for offset, token in enumerate(probe):
            started = time.perf_counter()
            batch.decode_one(token, start + offset)
            row = rows.row(-1)  # waits for the decode
            single_s.append(time.perf_counter() - started)
            singles.append(row.copy())
        single = statistics.median(single_s)
        for size in sorted({*(s for s in PROBE_BATCHES if s < len(probe)), len(probe)}):
            llama_cpp.llama_memory_seq_rm(memory, 0, start, -1)
            started = time.perf_counter()
            batch.decode(probe[:size], start, every_logit=True)
            first = rows.row(0)
            cost[size] = (time.perf_counter() - started) / single if single > 0 else float(size)
            if not np.array_equal(first, singles[0]) or not all(
                np.array_equal(rows.row(i), singles[i]) for i in range(1, size)
            ):
                return BatchProbe(False, cost)
        return BatchProbe(True, cost)
    finally:
        llama_cpp.llama_memory_seq_rm(memory, 0, start, -1)
