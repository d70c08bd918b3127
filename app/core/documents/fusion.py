"""Reciprocal rank fusion: one ranking from the keyword and the vector rankings.

Each list gives a chunk 1 / (k + rank) (ranks from 1); the sums decide. It needs no
calibration between BM25 scores and cosine similarities, which live on different scales,
and k = 60 (Cormack, Clarke and Büttcher, 2009) keeps one list's first place from
drowning out what both lists agree on.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

RRF_K = 60

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Fused(Generic[K]):
    key: K
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # list name -> 1-based rank in that list


def reciprocal_rank_fusion(rankings: dict[str, Sequence[K]], k: int = RRF_K) -> list[Fused[K]]:
    """Keys of all rankings by fused score, the best first; ties keep the order of first appearance."""
    scores: dict[K, float] = {}
    ranks: dict[K, dict[str, int]] = {}
    for name, ranking in rankings.items():
        for rank, key in enumerate(ranking, start=1):
            if name in ranks.get(key, {}):
                continue  # a key listed twice counts once, at its better rank
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
            ranks.setdefault(key, {})[name] = rank
    order = sorted(scores, key=lambda key: -scores[key])  # sorted() is stable: first appearance breaks ties
    return [Fused(key, scores[key], ranks[key]) for key in order]
