"""llama.cpp's own decode of a batch of several sequences: what a beam search's step costs with no bookkeeping.

The beam search (app/core/inference/beam_search.py) decodes its beams one token each in one
`llama_decode` per step, then chooses the next beams from their logits and copies KV cells where a
beam splits. Timing the same shape of batch straight through llama.cpp — the same model, a context
made as the beam search makes its own (its cells, `n_seq_max`, a unified cache), the prompt decoded
once and shared, then one token of every sequence per step, with every row's logits — gives the
denominator of the bench's beam row: the beam's time per step over this one is the cost of its own
code, whatever the CPU or GPU.
"""

from __future__ import annotations

import time

import llama_cpp

from app.core.inference.beam_search import (
    BeamSearchError,
    beam_context,
    beam_context_cells,
    decode_beams,
    decode_shared_prompt,
    put_row,
)


def batch_step_s(llama: llama_cpp.Llama, prompt: list[int], width: int, steps: int) -> float:
    """Seconds per step of `steps` decodes of `width` sequences, one token each, after `prompt`
    (decoded once in sequence 0 and shared with the others); nan when llama.cpp's decode fails."""
    context = beam_context(llama, beam_context_cells(len(prompt), width, steps + 1), width)
    n_batch = max(int(llama.context_params.n_batch), width)
    batch = llama_cpp.llama_batch_init(n_batch, 0, 1)
    try:
        decode_shared_prompt(context, batch, prompt, n_batch)
        for seq in range(1, width):
            llama_cpp.llama_memory_seq_cp(context.memory, 0, seq, -1, -1)
        token = prompt[-1]
        started = time.perf_counter()
        for step in range(steps):
            batch.n_tokens = width
            for seq in range(width):
                put_row(batch, seq, token, len(prompt) + step, seq, True)
            decode_beams(context, batch)
            llama_cpp.llama_get_logits_ith(context.ctx, width - 1)  # waits for the decode, as reading a row does
        return (time.perf_counter() - started) / steps if steps else float("nan")
    except BeamSearchError:
        return float("nan")
    finally:
        llama_cpp.llama_batch_free(batch)
        context.close()
