"""Sampling parameters for one reply."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SamplingParams:
    """How the next token is chosen. temperature 0 means greedy (always the most likely token)."""

    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 40
    min_p: float = 0.05
    repeat_penalty: float = 1.1
    repeat_last_n: int = 64
    presence_penalty: float = 0.0
    frequency_penalty: float = 0.0
    seed: int | None = None  # None: a new random seed for every reply
    max_tokens: int = 512
    stop: tuple[str, ...] = field(default_factory=tuple)


GREEDY = SamplingParams(temperature=0.0, top_k=1, top_p=1.0, min_p=0.0, repeat_penalty=1.0, seed=0)
