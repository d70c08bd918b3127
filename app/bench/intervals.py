"""How sure a bench ratio is: the median of its rounds, a bootstrap interval, and a verdict that repeats.

A round pairs the measurements it compares (the same work on both paths, back to back), so
drift of a shared machine between rounds cancels inside each round's ratio. What is left is
the spread of those per-round ratios: the statistic is their median, its 90 % interval a
percentile bootstrap over rounds (resampled with a fixed seed, so the same rounds always give
the same interval). A target is met only when the whole interval clears it, missed only when
the whole interval falls short, and "within noise" when the interval straddles it: never a
verdict from the luck of one run. Fewer than MIN_ROUNDS rounds give no interval at all.

The machine's own speed is watched apart from the ratios (see `Drift`): when llama.cpp's
decode rate at a section's calibration probes spread by more than MAX_DRIFT (upper over lower
quartile), its verdicts are "too noisy to judge" instead.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

MIN_ROUNDS = 3  # fewer rounds than this give no interval
CONFIDENCE = 0.90
RESAMPLES = 2000
SEED = 0  # a fixed seed: the same rounds always give the same interval, and the table repeats
# The largest spread of llama.cpp's decode rate over a section's calibration probes (upper over
# lower quartile) that still lets the section be judged. Within-round pairing cancels slow drift,
# and one slow probe is a blip that both paths of its round shared; a quarter of the probes this
# much slower than another quarter means the machine itself changed under the section (another
# program took the cores for a while), and its pairs no longer saw one machine.
MAX_DRIFT = 1.25
QUARTILE_PROBES = 5  # fewer probes than this have no quartiles worth the name: their max/min is the spread


class Verdict(StrEnum):
    MET = "met"
    MISSED = "missed"
    WITHIN_NOISE = "within noise"
    NOT_ENOUGH_ROUNDS = "not enough rounds"
    TOO_NOISY = "too noisy to judge"


@dataclass(frozen=True)
class Target:
    """A target like '>= 0.97', '<= 1.5' or '< 50'."""

    operator: str
    limit: float

    @classmethod
    def parse(cls, text: str) -> Target:
        operator, number = text.split()
        if operator not in (">=", ">", "<=", "<"):
            raise ValueError(f"a bench target compares with >=, >, <= or <, not {operator!r}")
        return cls(operator, float(number))

    @property
    def higher_is_better(self) -> bool:
        return self.operator in (">=", ">")

    def clears(self, value: float) -> bool:
        limit = self.limit
        return {">=": value >= limit, ">": value > limit, "<=": value <= limit, "<": value < limit}[self.operator]


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def bootstrap_interval(
    values: Sequence[float], confidence: float = CONFIDENCE, resamples: int = RESAMPLES, seed: int = SEED
) -> Interval | None:
    """The percentile bootstrap interval of the median of `values`; None with fewer than MIN_ROUNDS."""
    if len(values) < MIN_ROUNDS:
        return None
    rounds = np.asarray(values, dtype=float)
    picks = np.random.default_rng(seed).integers(0, len(rounds), size=(resamples, len(rounds)))
    medians = np.median(rounds[picks], axis=1)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(medians, [tail, 100 - tail])
    return Interval(float(low), float(high))


def verdict(interval: Interval | None, target: Target) -> Verdict:
    """Met when the whole interval clears the target, missed when none of it does, else within noise."""
    if interval is None:
        return Verdict.NOT_ENOUGH_ROUNDS
    worst, best = (interval.low, interval.high) if target.higher_is_better else (interval.high, interval.low)
    if target.clears(worst):
        return Verdict.MET
    if not target.clears(best):
        return Verdict.MISSED
    return Verdict.WITHIN_NOISE


def exact_verdict(value: float, target: Target) -> Verdict:
    """For a deterministic number (no rounds, no spread): met or missed by the value itself."""
    return Verdict.MET if target.clears(value) else Verdict.MISSED


@dataclass(frozen=True)
class Drift:
    """llama.cpp's decode rate (tokens/s) at each calibration probe of a section: how much the
    machine's own speed moved while it ran."""

    rates: tuple[float, ...]

    @property
    def measured(self) -> bool:
        return len(self.rates) >= 2

    @property
    def ratio(self) -> float:
        """How far the probes' rates spread: the upper over the lower quartile (max/min with fewer
        than QUARTILE_PROBES probes); 1.0 for a machine whose speed held still.

        Quartiles, not the extremes: on a shared virtual machine single probes land 30-50 %
        off their neighbours (one was 62 tokens/s between 121 and 110) while the paired ratios of
        the same rounds stayed within a few percent, so max/min judged the probe's own jitter,
        not a machine that changed."""
        if len(self.rates) < QUARTILE_PROBES:
            return max(self.rates) / min(self.rates)
        lower, upper = np.percentile(np.asarray(self.rates, dtype=float), [25, 75])
        return float(upper / lower)

    @property
    def too_noisy(self) -> bool:
        return self.measured and self.ratio > MAX_DRIFT

    def summary(self) -> dict[str, float]:
        return {"min": min(self.rates), "median": median(self.rates), "max": max(self.rates), "drift": self.ratio}
