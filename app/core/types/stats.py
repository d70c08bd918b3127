"""What a reply measured: the engine's wall-clock stats, llama.cpp's own counters, and speed over time.

Plain data that `to_dict` turns into JSON for the chat history; `MetricsRecorder`
(app/core/inference/metrics.py) fills it in the engine. `CacheMiss` is why a prompt was not all
reused from the KV cache (app/core/inference/prompt_cache.py decides it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any

from app.core.support.user_text import N_


class StopReason(str, Enum):
    END_OF_TEXT = N_("end of text")
    LENGTH = N_("length limit")
    STOP_STRING = N_("stop string")
    USER = N_("stopped by user")
    CONTEXT_FULL = N_("context full")
    ERROR = N_("error")


class CacheMiss(StrEnum):
    NONE = "none"  # all that could be reused was
    FIRST_TURN = "first_turn"
    CONTEXT_SHIFT = "context_shift"
    SYSTEM_PROMPT = "system_prompt"
    TEMPLATE = "template"
    EDITED_HISTORY = "edited_history"
    WINDOW_SLIDE = "window_slide"
    OTHER_CONVERSATION = "other_conversation"


@dataclass
class ReplyStats:
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0  # reused from the previous turn's KV cache
    cache_miss: CacheMiss | None = None  # why not more was reused (prompt_cache.py); None: not known (a server)
    completion_tokens: int = 0
    time_to_first_token_s: float = 0.0
    prompt_eval_tokens_per_s: float = 0.0
    generation_tokens_per_s: float = 0.0
    total_s: float = 0.0
    stop_reason: StopReason = StopReason.END_OF_TEXT
    error: str = ""
    # Speculative decoding (prompt lookup): tokens proposed, and how many of them the model kept.
    drafted_tokens: int = 0
    accepted_tokens: int = 0
    # Decode time with one token a batch (estimated from plain decodes) over the time it took;
    # 0.0 when the reply drafted nothing or there was no plain decode to compare with.
    draft_speedup: float = 0.0
    # A thinking model's reasoning: how many of the completion tokens it took, and the seconds from
    # the first generated token to the first token of the answer (or the end, if none came). The
    # tokens before the answer are the reasoning, its markers among them: `reasoning_tokens` is also
    # the index of the answer's first token in the reply's token trace.
    reasoning_tokens: int = 0
    reasoning_s: float = 0.0
    slot: int = -1  # the slot of the engine's parallel context that wrote the reply (slots.py); -1: none
    # Images in the prompt: their tokens (of prompt_tokens), and the seconds the projector took to encode
    # each image evaluated for this reply (a cached image is not encoded again).
    image_tokens: int = 0
    image_encode_s: list[float] = field(default_factory=list)

    @property
    def evaluated_prompt_tokens(self) -> int:
        return self.prompt_tokens - self.cached_prompt_tokens

    @property
    def acceptance_rate(self) -> float:
        return self.accepted_tokens / self.drafted_tokens if self.drafted_tokens else 0.0


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
