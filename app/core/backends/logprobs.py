"""Token probabilities from a server's `logprobs`, as the same TokenTrace the local engine records.

Servers send, per generated token, its text, its log-probability and the `top_logprobs`
alternatives, but no token ids. Each distinct token text gets a stand-in id (negative, so it
never looks like a real one), the same for the chosen token and an alternative of the same
text, so the glass can still tell whether the chosen token was the most likely.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from app.core.inference.sampling import SamplingParams
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace

TOP_LOGPROBS = 5


class LogprobTrace:
    """Collects the `logprobs.content` entries of a streamed reply."""

    def __init__(self) -> None:
        self._steps: list[TokenStep] = []
        self._ids: dict[str, int] = {}

    def add(self, entries: Any) -> None:
        """The `content` list of one chunk's `logprobs` (entries of a wrong shape are skipped)."""
        if not isinstance(entries, Sequence) or isinstance(entries, str):
            return
        for entry in entries:
            if isinstance(entry, Mapping) and isinstance(entry.get("token"), str):
                self._steps.append(self._step(entry))

    def trace(self, params: SamplingParams) -> TokenTrace | None:
        return TokenTrace(list(self._steps), params.to_dict()) if self._steps else None

    def _step(self, entry: Mapping[str, Any]) -> TokenStep:
        text = str(entry["token"])
        alternatives = tuple(
            Alternative(self._id(str(top["token"])), str(top["token"]), _probability(top.get("logprob")))
            for top in entry.get("top_logprobs") or []
            if isinstance(top, Mapping) and isinstance(top.get("token"), str)
        )
        ranked = tuple(sorted(alternatives, key=lambda alternative: alternative.probability, reverse=True))
        return TokenStep(self._id(text), text, _probability(entry.get("logprob")), ranked)

    def _id(self, text: str) -> int:
        return self._ids.setdefault(text, -1 - len(self._ids))


def _probability(logprob: Any) -> float:
    if not isinstance(logprob, int | float) or math.isnan(logprob):
        return 0.0
    return min(1.0, math.exp(min(float(logprob), 0.0)))
