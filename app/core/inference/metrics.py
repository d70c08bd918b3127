"""Per-reply metrics: the engine's wall-clock stats, llama.cpp's own counters, and speed over time.

`MetricsRecorder` is created right before a reply (it resets llama.cpp's performance
counters) and observes every generated token (an engine `TokenObserver`), so the reply's
speed can be drawn over time. `finish` puts together `ReplyMetrics`: the `ReplyStats`
measured by the engine around the token loop, what llama.cpp counted inside its decode
calls (`llama_perf_context`), and how much of the context window the conversation now
fills. Those are plain data (app/core/types/stats.py) that `to_dict` turns into JSON for the chat history.
"""

from __future__ import annotations

import time

import llama_cpp

from app.core.inference.logits import SampledLogits
from app.core.types.stats import LlamaCounters, ReplyMetrics, ReplyStats


class MetricsRecorder:
    """Create right before a reply; pass `observe` to the engine; call `finish` with the ReplyStats."""

    def __init__(self, llama: llama_cpp.Llama) -> None:
        # llama.cpp books a decode when it next synchronizes; a decode nobody read (the load's
        # warm-up) would otherwise land in this reply's counters, time included.
        llama_cpp.llama_synchronize(llama.ctx)
        llama_cpp.llama_perf_context_reset(llama.ctx)
        self._ctx = llama.ctx
        self._started = time.perf_counter()
        self._times: list[float] = []
        # The counters when the first token was sampled: the prompt's evaluation was booked by then.
        self._at_first_token: llama_cpp.llama_perf_context_data | None = None

    def observe(self, _token_id: int, _logits: SampledLogits) -> None:
        if not self._times:
            self._at_first_token = llama_cpp.llama_perf_context(self._ctx)
        self._times.append(time.perf_counter() - self._started)

    def finish(self, stats: ReplyStats, llama: llama_cpp.Llama) -> ReplyMetrics:
        perf = llama_cpp.llama_perf_context(llama.ctx)
        prompt = self._at_first_token or perf
        prompt_tokens, prompt_ms = _batched(prompt)
        all_tokens, all_ms = _batched(perf)
        counters = LlamaCounters(
            prompt_eval_tokens=int(prompt.n_p_eval),
            prompt_eval_ms=float(prompt.t_p_eval_ms),
            eval_tokens=int(perf.n_eval),
            eval_ms=float(perf.t_eval_ms),
            draft_check_tokens=all_tokens - prompt_tokens,
            draft_check_ms=all_ms - prompt_ms,
        )
        return ReplyMetrics(
            stats=stats,
            n_ctx=llama.n_ctx(),
            context_used=stats.prompt_tokens + stats.completion_tokens,
            token_times_s=list(self._times),
            llama=counters,
        )


def _batched(perf: llama_cpp.llama_perf_context_data) -> tuple[int, float]:
    """Tokens and milliseconds of the decodes of more than one token (a count llama.cpp shows
    as 1 when there were none is taken as the 0 it is)."""
    if perf.t_p_eval_ms <= 0:
        return 0, 0.0
    return int(perf.n_p_eval), float(perf.t_p_eval_ms)
