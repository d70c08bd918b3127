"""Per-reply metrics: the engine's wall-clock stats, llama.cpp's own counters, and speed over time.

`MetricsRecorder` is created right before a reply (it resets llama.cpp's performance
counters) and observes every generated token (an engine `TokenObserver`), so the reply's
speed can be drawn over time. `finish` puts together `ReplyMetrics`: the `ReplyStats`
measured by the engine around the token loop, what llama.cpp counted inside its decode
calls (`llama_perf_context`), and how much of the context window the conversation now
fills. Everything is plain data that `to_dict` turns into JSON for the chat history.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import llama_cpp

from app.core.inference.engine import ReplyStats, StopReason
from app.core.inference.logits import SampledLogits
from app.core.inference.prompt_cache import CacheMiss

SPEED_WINDOW = 8  # tokens per point of the speed-over-time series


@dataclass(frozen=True)
class LlamaCounters:
    """llama.cpp's own count of one reply's decode work (`llama_perf_context`).

    llama.cpp counts a decode of one token as generation (`eval`) and a decode of more than
    one as prompt processing (`p_eval`); it reports a count of 0 as 1 (to spare divisions by
    zero), so a reply whose prompt was entirely cached shows one prompt token. The batches
    that check drafted tokens (speculative decoding) are decodes of more than one token too:
    what llama.cpp booked as prompt processing after the first token is theirs.
    """

    prompt_eval_tokens: int = 0
    prompt_eval_ms: float = 0.0
    eval_tokens: int = 0
    eval_ms: float = 0.0
    draft_check_tokens: int = 0  # tokens decoded in the batches that checked drafted tokens
    draft_check_ms: float = 0.0

    @property
    def eval_tokens_per_s(self) -> float:
        return self.eval_tokens / self.eval_ms * 1000 if self.eval_ms > 0 else 0.0

    @property
    def prompt_eval_tokens_per_s(self) -> float:
        return self.prompt_eval_tokens / self.prompt_eval_ms * 1000 if self.prompt_eval_ms > 0 else 0.0


@dataclass
class ReplyMetrics:
    stats: ReplyStats
    n_ctx: int = 0
    context_used: int = 0  # prompt plus reply tokens: what the conversation now takes of the window
    token_times_s: list[float] = field(default_factory=list)  # when each token was sampled, after the request
    llama: LlamaCounters | None = field(default_factory=LlamaCounters)  # None: a server ran it, nobody counted here
    queue_wait_s: float | None = None  # asked for until the model began on it; None: not measured
    gpu_energy_j: float | None = None  # the GPUs' energy over the reply; None: not measured (never 0 for that)

    @property
    def context_fraction(self) -> float:
        return self.context_used / self.n_ctx if self.n_ctx else 0.0

    @property
    def decoding_s(self) -> float:
        """Seconds from the first token to the end of the reply: the decoding part of it."""
        if not self.stats.completion_tokens:
            return 0.0
        return max(0.0, self.stats.total_s - self.stats.time_to_first_token_s)

    @property
    def energy_per_token_j(self) -> float | None:
        """GPU joules per generated token; None when the energy was not measured or no token came."""
        if self.gpu_energy_j is None or not self.stats.completion_tokens:
            return None
        return self.gpu_energy_j / self.stats.completion_tokens

    def speed_series(self, window: int = SPEED_WINDOW) -> list[tuple[float, float]]:
        """(seconds after the request, tokens/s over the last `window` tokens), one point per token."""
        times = self.token_times_s
        points = []
        for i in range(1, len(times)):
            span = min(i, window)
            elapsed = times[i] - times[i - span]
            if elapsed > 0:
                points.append((times[i], span / elapsed))
        return points

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON-ready data: the ReplyStats fields at the top level, the rest beside them."""
        data = asdict(self.stats)
        data["stop_reason"] = self.stats.stop_reason.value
        data.update(
            n_ctx=self.n_ctx,
            context_used=self.context_used,
            token_times_s=[round(t, 5) for t in self.token_times_s],
            llama=asdict(self.llama) if self.llama is not None else None,
            queue_wait_s=self.queue_wait_s,
            gpu_energy_j=self.gpu_energy_j,
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReplyMetrics:
        stat_names = {f.name for f in fields(ReplyStats)}
        stats = ReplyStats(**{k: v for k, v in data.items() if k in stat_names and k not in _ENUMS})
        stats.stop_reason = StopReason(data.get("stop_reason", StopReason.END_OF_TEXT.value))
        stats.cache_miss = _cache_miss(data.get("cache_miss"))
        return cls(
            stats=stats,
            n_ctx=int(data.get("n_ctx", 0)),
            context_used=int(data.get("context_used", 0)),
            token_times_s=[float(t) for t in data.get("token_times_s", [])],
            llama=_counters(data),
            queue_wait_s=_optional_float(data.get("queue_wait_s")),
            gpu_energy_j=_optional_float(data.get("gpu_energy_j")),
        )


_ENUMS = ("stop_reason", "cache_miss")


def _cache_miss(value: Any) -> CacheMiss | None:
    """A saved reason; None for a reply saved before reasons were kept (or with one this version does not know)."""
    try:
        return CacheMiss(value) if value is not None else None
    except ValueError:
        return None


def _optional_float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _counters(data: dict[str, Any]) -> LlamaCounters | None:
    raw = data.get("llama", {})  # a record without the key predates servers: counted here
    return LlamaCounters(**raw) if isinstance(raw, dict) else None


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
