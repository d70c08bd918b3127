"""The context shift of the KV cache: reuse what is cached when the context window drops old turns.

llama-cpp-python reuses only the longest common prefix of the cached tokens and the new
prompt. When the context window cuts turns out of the middle of the conversation, the
prefix ends at the cut and everything after it would be evaluated again; the shift cuts the
same span out of the KV cache and moves the rest back, so only the new tokens are evaluated.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import llama_cpp
import numpy as np

log = logging.getLogger(__name__)

MIN_SHIFTED_TOKENS = 16


def shift_kv_cache_to(llama: llama_cpp.Llama, prompt: list[int]) -> int:
    """Context shift: when the prompt is the cached tokens with a span cut out (the context
    window dropped old turns), cut that span out of the KV cache and move the rest back,
    so only the new tokens are evaluated instead of everything after the cut.

    llama.cpp re-rotates the moved keys (RoPE shift) on the next decode, as llama-server
    does. The numbers differ slightly from a fresh evaluation. Returns how many cached
    tokens were kept by the shift (0 when nothing was cut or the model cannot shift).
    """
    cached = np.asarray(llama.input_ids[: llama.n_tokens])
    wanted = np.asarray(prompt, dtype=cached.dtype)
    start = shared_prefix_length(cached, wanted)
    if start >= len(cached) - MIN_SHIFTED_TOKENS or start >= len(wanted) - MIN_SHIFTED_TOKENS:
        return 0
    resume, kept = _longest_continuation(cached, wanted, start)
    if kept < MIN_SHIFTED_TOKENS:
        return 0
    memory = llama_cpp.llama_get_memory(llama.ctx)
    if memory is None or not llama_cpp.llama_memory_can_shift(memory):
        return 0
    if not llama_cpp.llama_memory_seq_rm(memory, 0, start, resume):
        return 0
    llama_cpp.llama_memory_seq_add(memory, 0, resume, resume + kept, start - resume)
    llama_cpp.llama_memory_seq_rm(memory, 0, start + kept, -1)
    llama.input_ids[start : start + kept] = cached[resume : resume + kept].copy()
    llama.n_tokens = start + kept
    log.debug("Context shift: dropped cached tokens %d-%d, kept %d", start, resume, kept)
    return kept


def shared_prefix_length(a: Sequence[int] | np.ndarray, b: Sequence[int] | np.ndarray) -> int:
    """How many leading tokens two token sequences have in common."""
    a, b = np.asarray(a), np.asarray(b)
    size = min(len(a), len(b))
    differs = np.flatnonzero(a[:size] != b[:size])
    return int(differs[0]) if len(differs) else size


def _longest_continuation(cached: np.ndarray, prompt: np.ndarray, start: int) -> tuple[int, int]:
    """The cached position after `start` from which the most tokens continue prompt[start:]."""
    best = (0, 0)
    for resume in np.flatnonzero(cached[start + 1 :] == prompt[start]) + start + 1:
        kept = shared_prefix_length(cached[resume:], prompt[start:])
        if kept > best[1]:
            best = (int(resume), kept)
    return best


def reusable_prefix(llama: llama_cpp.Llama, prompt: list[int]) -> int:
    """How many prompt tokens llama-cpp-python will reuse from its KV cache (mirrors `generate`)."""
    if llama.n_tokens <= 0:
        return 0
    common = shared_prefix_length(llama.input_ids[: llama.n_tokens], prompt)
    return common - 1 if common == len(prompt) else common
