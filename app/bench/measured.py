"""What a streaming path measured of one reply: the in-process paths (streaming.py) and the window's (gui_stream.py)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.types.stats import LlamaCounters, ReplyMetrics


@dataclass(frozen=True)
class Measured:
    """One reply's speed as its path saw it and llama.cpp's own counters for it."""

    tokens_per_s: float
    llama: LlamaCounters
    # CPU time the reader's process spent per token while the reply streamed (the window's
    # process, for the window's path); None where it was not measured.
    process_cpu_us_per_token: float | None = None

    @property
    def of_decode(self) -> float:
        """This path's speed as a share of llama.cpp's decode-only speed for the same reply."""
        return self.tokens_per_s / self.llama.eval_tokens_per_s

    @property
    def overhead_us(self) -> float:
        """Time per token spent outside llama.cpp's decode, in microseconds."""
        return (1 / self.tokens_per_s - 1 / self.llama.eval_tokens_per_s) * 1e6


def counted(metrics: ReplyMetrics) -> LlamaCounters:
    """llama.cpp's counters of a reply run on this machine (only a server's replies lack them)."""
    assert metrics.llama is not None, "a local reply always has llama.cpp's counters"
    return metrics.llama
