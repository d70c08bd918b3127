"""The rounds of a section's measurement loop, and the extra rounds a straddling ratio earns.

A section asks its context for a loop (`context.rounds(7)`), tells it which per-round values
answer to a target (`loop.judge(target, values)`), and iterates it. The loop runs the
section's base rounds, each after a calibration probe of the machine's speed; then, while
any judged metric's interval straddles its target, it runs one more round at a time, as long
as the next round fits in what is left of the section's extra time (`ExtraTime`, one per
section: `--extra-seconds`) and the loop has not run MAX_EXTRA_FACTOR times its base rounds
more, and the machine's drift so far still lets the section be judged (extra rounds cannot
settle what "too noisy to judge" will override). Then the verdicts settle, whatever they are.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from app.bench.intervals import Target, Verdict, bootstrap_interval, verdict

EXTRA_SECONDS = 120.0  # per section, for the rounds a straddling ratio adds
MAX_EXTRA_FACTOR = 3  # a loop adds at most this many times its base rounds


@dataclass
class ExtraTime:
    """The time a section may spend on extra rounds, shared by its loops."""

    seconds: float = EXTRA_SECONDS
    spent: float = 0.0
    rounds: int = 0

    def fits(self, round_s: float) -> bool:
        """Whether a round as long as `round_s` still ends within the bound."""
        return self.spent + round_s <= self.seconds

    def spend(self, round_s: float) -> None:
        self.spent += round_s
        self.rounds += 1


@dataclass
class RoundLoop:
    base: int
    extra_time: ExtraTime
    calibrate: Callable[[], None] = lambda: None
    clock: Callable[[], float] = time.perf_counter
    too_noisy: Callable[[], bool] = lambda: False  # the section will be too noisy to judge: no extra rounds
    count: int = 0  # rounds run so far
    _last_round_s: float = 0.0
    _judged: list[tuple[Target, Callable[[], Sequence[float]]]] = field(default_factory=list)

    def judge(self, target: str, values: Callable[[], Sequence[float]]) -> None:
        """`values()` gives the per-round values that answer to `target` after each round: while
        their interval straddles it, the loop runs more rounds (within its bound)."""
        self._judged.append((Target.parse(target), values))

    def __iter__(self) -> Iterator[int]:
        while self.count < self.base:
            yield from self._round()
        while self.straddles() and not self.too_noisy() and self.count < self.base * (1 + MAX_EXTRA_FACTOR):
            if not self.extra_time.fits(self._last_round_s):  # the next round is about as long as the last
                return
            yield from self._round()
            self.extra_time.spend(self._last_round_s)

    def _round(self) -> Iterator[int]:
        started = self.clock()
        self.calibrate()
        yield self.count
        self.count += 1
        self._last_round_s = self.clock() - started

    def straddles(self) -> bool:
        """Whether any judged metric's interval straddles its target now."""
        return any(
            verdict(bootstrap_interval(values()), target) is Verdict.WITHIN_NOISE for target, values in self._judged
        )
