"""The session on one time axis: resource samples in a bounded buffer, and the replies as spans.

The buffer keeps the newest samples (three hours at one a second by default), so a long
run costs a fixed amount of memory; spans are kept the same way. A reply's GPU energy is
read from NVML's total-energy counter, interpolated at the reply's start and end between
the samples around them, so it is filled in once the first sample after the reply's end
has arrived (about a second later); it stays None on GPUs without the counter.
"""

from __future__ import annotations

import bisect
import enum
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.core.monitor.clock import SessionClock
from app.core.monitor.samples import ResourceSample
from app.core.types.stats import ReplyStats

DEFAULT_CAPACITY = 3 * 3600  # samples: three hours at one a second
DEFAULT_SPAN_CAPACITY = 2000


class ReplyOutcome(str, enum.Enum):
    FINISHED = "finished"
    STOPPED = "stopped"
    FAILED = "failed"


@dataclass(frozen=True)
class ReplySpan:
    number: int  # 1, 2, … in this session
    start: float  # session seconds
    end: float | None = None  # None: still being written
    model: str = ""
    outcome: ReplyOutcome | None = None
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    ttft_s: float | None = None
    tokens_per_s: float | None = None
    error: str = ""
    energy_j: float | None = None  # all GPUs that count energy; None: none does, or not known yet

    @property
    def seconds(self) -> float | None:
        return None if self.end is None else self.end - self.start

    @property
    def energy_per_token_j(self) -> float | None:
        if self.energy_j is None or not self.completion_tokens:
            return None
        return self.energy_j / self.completion_tokens

    def contains(self, t: float) -> bool:
        return self.start <= t and (self.end is None or t <= self.end)


class SessionTimeline:
    """Samples and reply spans; safe to use from several threads."""

    def __init__(
        self,
        clock: SessionClock | None = None,
        capacity: int = DEFAULT_CAPACITY,
        span_capacity: int = DEFAULT_SPAN_CAPACITY,
    ) -> None:
        self.clock = clock or SessionClock()
        self._samples: deque[ResourceSample] = deque(maxlen=max(1, capacity))
        self._spans: deque[ReplySpan] = deque(maxlen=max(1, span_capacity))
        self._lock = threading.Lock()
        self._count = 0
        self._energy_pending: list[int] = []  # numbers of ended replies whose energy is still to be read

    # ---- samples -------------------------------------------------------------------

    def add(self, sample: ResourceSample) -> None:
        with self._lock:
            self._samples.append(sample)
            self._fill_energy()

    def samples(self, since: float | None = None) -> list[ResourceSample]:
        """The samples kept, oldest first; with `since`, only those from that session time on."""
        with self._lock:
            samples = list(self._samples)
        if since is None:
            return samples
        return samples[bisect.bisect_left([s.t for s in samples], since) :]

    @property
    def latest(self) -> ResourceSample | None:
        with self._lock:
            return self._samples[-1] if self._samples else None

    def __len__(self) -> int:
        return len(self._samples)

    # ---- replies -------------------------------------------------------------------

    def reply_started(self, model: str = "", at: float | None = None) -> ReplySpan:
        """A reply began; a reply still open is ended first (as stopped: its end was never heard)."""
        start = self.clock.now() if at is None else at
        with self._lock:
            if self._spans and self._spans[-1].end is None:
                self._spans[-1] = replace(self._spans[-1], end=start, outcome=ReplyOutcome.STOPPED)
            self._count += 1
            span = ReplySpan(number=self._count, start=start, model=model)
            self._spans.append(span)
            return span

    def reply_ended(
        self, outcome: ReplyOutcome, stats: ReplyStats | None = None, error: str = "", at: float | None = None
    ) -> ReplySpan | None:
        """Close the open reply with how it ended; None when no reply is open."""
        end = self.clock.now() if at is None else at
        with self._lock:
            if not self._spans or self._spans[-1].end is not None:
                return None
            span = replace(self._spans[-1], end=end, outcome=outcome, error=error)
            if stats is not None:
                span = replace(
                    span,
                    prompt_tokens=stats.prompt_tokens,
                    cached_prompt_tokens=stats.cached_prompt_tokens,
                    completion_tokens=stats.completion_tokens,
                    ttft_s=stats.time_to_first_token_s if stats.completion_tokens else None,
                    tokens_per_s=stats.generation_tokens_per_s if stats.completion_tokens > 1 else None,
                )
            self._spans[-1] = span
            self._energy_pending.append(span.number)
            self._fill_energy()
            return self._spans[-1]

    @property
    def open_reply(self) -> ReplySpan | None:
        with self._lock:
            return self._spans[-1] if self._spans and self._spans[-1].end is None else None

    def spans(self, since: float | None = None) -> list[ReplySpan]:
        """Reply spans, oldest first; with `since`, those still running or ending from then on."""
        with self._lock:
            spans = list(self._spans)
        if since is None:
            return spans
        return [span for span in spans if span.end is None or span.end >= since]

    def span_at(self, t: float) -> ReplySpan | None:
        return next((span for span in reversed(self.spans()) if span.contains(t)), None)

    # ---- energy --------------------------------------------------------------------

    def _fill_energy(self) -> None:
        """Energy of the ended replies the newest sample has passed (called with the lock held)."""
        if not self._energy_pending or not self._samples:
            return
        newest = self._samples[-1].t
        by_number = {span.number: index for index, span in enumerate(self._spans)}
        waiting: list[int] = []
        for number in self._energy_pending:
            index = by_number.get(number)
            if index is None:  # dropped from the buffer meanwhile
                continue
            span = self._spans[index]
            assert span.end is not None
            if span.end > newest:
                waiting.append(number)
                continue
            self._spans[index] = replace(span, energy_j=energy_between(self._recent(span.start), span.start, span.end))
        self._energy_pending = waiting

    def _recent(self, start: float) -> list[ResourceSample]:
        """The samples from the last one before `start` on (called with the lock held)."""
        recent: list[ResourceSample] = []
        for sample in reversed(self._samples):
            recent.append(sample)
            if sample.t <= start:
                break
        recent.reverse()
        return recent


def energy_between(samples: Sequence[ResourceSample], start: float, end: float) -> float | None:
    """Joules all GPUs with an energy counter used from `start` to `end` (session seconds).

    Each counter is interpolated linearly at both moments between the samples around them;
    None when no GPU counts energy or the samples do not reach around both moments.
    """
    before_start = [s for s in samples if s.t <= start]
    after_end = [s for s in samples if s.t >= end]
    if not before_start or not after_end:
        return None
    total: float | None = None
    indices = {gpu.index for gpu in samples[-1].gpus if gpu.energy_j is not None}
    for index in sorted(indices):
        at_start = _counter_at(samples, index, start)
        at_end = _counter_at(samples, index, end)
        if at_start is None or at_end is None or at_end < at_start:  # the driver reloaded between them
            continue
        total = (total or 0.0) + at_end - at_start
    return total


def _counter_at(samples: Sequence[ResourceSample], index: int, t: float) -> float | None:
    points = [
        (sample.t, gpu.energy_j)
        for sample in samples
        for gpu in sample.gpus
        if gpu.index == index and gpu.energy_j is not None
    ]
    before = [p for p in points if p[0] <= t]
    after = [p for p in points if p[0] >= t]
    if not before or not after:
        return None
    (t0, e0), (t1, e1) = before[-1], after[0]
    if t1 == t0:
        return e0
    return e0 + (e1 - e0) * (t - t0) / (t1 - t0)
