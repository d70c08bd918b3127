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

from collections.abc import Sequence

import llama_cpp
import numpy as np

from app.core.inference.decode_batch import DecodeBatch
from app.core.inference.logits import LogitsRows

PROBE_BATCHES = (2, 4, 8)  # and the whole probe


def batches_decode_exactly(
    batch: DecodeBatch, rows: LogitsRows, memory: llama_cpp.llama_memory_t | None, start: int, probe: Sequence[int]
) -> bool:
    """Whether `probe`, decoded at `start` after what the KV cache holds, gives the same logits in
    batches as one token at a time. The cache is left as it was: everything from `start` on is
    removed again."""
    singles: list[np.ndarray] = []
    try:
        for offset, token in enumerate(probe):
            batch.decode_one(token, start + offset)
            singles.append(rows.row(-1).copy())
        for size in sorted({*(s for s in PROBE_BATCHES if s < len(probe)), len(probe)}):
            llama_cpp.llama_memory_seq_rm(memory, 0, start, -1)
            batch.decode(probe[:size], start, every_logit=True)
            if not all(np.array_equal(rows.row(i), singles[i]) for i in range(size)):
                return False
        return True
    finally:
        llama_cpp.llama_memory_seq_rm(memory, 0, start, -1)
