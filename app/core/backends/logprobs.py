"""Token probabilities from a server's `logprobs`, as the same TokenTrace the local engine records.

Servers send, per generated token, its text, its log-probability and the `top_logprobs`
alternatives, but no token ids. Each distinct token text gets a stand-in id (negative, so it
never looks like a real one), the same for the chosen token and an alternative of the same
text, so the glass can still tell whether the chosen token was the most likely.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any

from app.core.inference.sampling import SamplingParams
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace

log = logging.getLogger(__name__)

TOP_LOGPROBS = 5


class LogprobTrace:
    """Collects the `logprobs.content` entries of a streamed reply."""

    def __init__(self) -> None:
        self._steps: list[TokenStep] = []
        self._ids: dict[str, int] = {}

    def add(self, entries: Any) -> None:
        """The `content` list of one chunk's `logprobs`; entries of a wrong shape are skipped (logged)."""
        for entry in _list(entries, "logprobs.content"):
            if isinstance(entry, Mapping) and isinstance(entry.get("token"), str):
                self._steps.append(self._step(entry))
            else:
                log.warning("Ignored a logprobs entry from the server: %.80r has no token text", entry)

    def trace(self, params: SamplingParams) -> TokenTrace | None:
        return TokenTrace(list(self._steps), params.to_dict()) if self._steps else None

    def _step(self, entry: Mapping[str, Any]) -> TokenStep:
        text = str(entry["token"])
        alternatives = tuple(
            Alternative(self._id(str(top["token"])), str(top["token"]), _probability(top.get("logprob")))
            for top in _list(entry.get("top_logprobs"), "top_logprobs")
            if isinstance(top, Mapping) and isinstance(top.get("token"), str)
        )
        ranked = tuple(sorted(alternatives, key=lambda alternative: alternative.probability, reverse=True))
        return TokenStep(self._id(text), text, _probability(entry.get("logprob")), ranked)

    def _id(self, text: str) -> int:
        return self._ids.setdefault(text, -1 - len(self._ids))


def _list(value: Any, where: str) -> list[Any]:
    """A list the server sent, or nothing (logged) when it sent something else; null is nothing too."""
    if isinstance(value, list):
        return value
    if value is not None:
        log.warning("Ignored %s from the server: %.80r is not a list", where, value)
    return []


def _probability(logprob: Any) -> float:
    if not isinstance(logprob, int | float) or isinstance(logprob, bool) or math.isnan(logprob):
        return 0.0
    return min(1.0, math.exp(min(float(logprob), 0.0)))
