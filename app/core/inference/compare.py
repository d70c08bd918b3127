"""Compare decoding strategies on one prompt: greedy, beam search and sampled replies with N seeds.

Every strategy is scored with the model's own distribution (the softmax of the raw logits,
before temperature and the other samplers), so the numbers say how likely the model finds
each reply, whatever chose it: total log-probability over the reply's tokens (the
end-of-text token not counted, so the replies are scored alike), the mean per token,
perplexity (exp of minus the mean), length and speed. Greedy is the most likely choice at
each step; beam search usually finds a reply more likely as a whole; sampled replies are
less likely and more varied.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from app.core.inference.beam_search import BeamResult, BeamSettings
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent


class DecodingRunner(Protocol):
    """What a comparison runs on: the local backend (LocalBackend) offers both."""

    def stream_chat(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool = False,
    ) -> Iterator[ReplyEvent]: ...

    def beam_search(
        self, messages: Sequence[ChatMessage], settings: BeamSettings, stop: threading.Event | None = None
    ) -> BeamResult: ...

    def replies_at_once(
        self, messages: Sequence[ChatMessage], params: Sequence[SamplingParams], stop: threading.Event
    ) -> tuple[ReplyDone, ...]: ...


@dataclass(frozen=True)
class StrategyResult:
    label: str  # "greedy", "beam width 4", "sampled, seed 7" (a core text, worded in the UI)
    text: str
    length: int  # tokens
    total_logprob: float
    tokens_per_s: float  # generation speed; for beam search, beam steps per second
    seconds: float

    @property
    def mean_logprob(self) -> float:
        return self.total_logprob / self.length if self.length else 0.0

    @property
    def perplexity(self) -> float:
        return math.exp(-self.mean_logprob) if self.length else math.nan


def _from_reply(label: str, done: ReplyDone, seconds: float) -> StrategyResult:
    steps = done.trace.steps if done.trace is not None else []
    total = sum(math.log(max(step.probability, 1e-300)) for step in steps)
    return StrategyResult(label, done.text, len(steps), total, done.stats.generation_tokens_per_s, seconds)


def _from_beams(label: str, result: BeamResult, seconds: float) -> StrategyResult:
    best = result.best
    speed = result.steps / result.decode_s if result.decode_s > 0 else 0.0
    return StrategyResult(label, best.text, best.length, sum(best.logprobs), speed, seconds)


def compare_strategies(
    runner: DecodingRunner,
    messages: Sequence[ChatMessage],
    params: SamplingParams,
    beam: BeamSettings,
    seeds: Sequence[int],
    stop: threading.Event,
    on_result: Callable[[StrategyResult], None] = lambda _result: None,
) -> list[StrategyResult]:
    """Greedy, the beam search, then one sampled reply per seed (with `params` otherwise), all of at most
    `params.max_tokens` tokens; `on_result` hears each as it is done, in that order.

    The greedy and sampled replies are asked for together (`replies_at_once`): the engine decodes them
    in one batch where that is cheap, so each one's `seconds` is the time they took together."""
    results: list[StrategyResult] = []
    chosen = [replace(GREEDY, max_tokens=params.max_tokens, stop=params.stop)]
    chosen += [replace(params, seed=seed) for seed in seeds]
    started = time.perf_counter()
    replies = runner.replies_at_once(messages, chosen, stop)
    together_s = time.perf_counter() - started
    labels = [N_("greedy")] + [fill(N_("sampled, seed {seed}"), seed=seed) for seed in seeds]
    written = [_from_reply(label, done, together_s) for label, done in zip(labels, replies, strict=True)]
    results.append(written[0])
    on_result(written[0])
    if not stop.is_set():
        started = time.perf_counter()
        found = runner.beam_search(messages, replace(beam, max_new_tokens=params.max_tokens), stop)
        results.append(
            _from_beams(fill(N_("beam width {width}"), width=beam.width), found, time.perf_counter() - started)
        )
        on_result(results[-1])
    for result in written[1:]:
        if stop.is_set():
            break
        results.append(result)
        on_result(result)
    return results
