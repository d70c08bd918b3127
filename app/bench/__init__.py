"""`python -m app bench`: performance targets measured as ratios, with their spread, inside one run.

Each section is a module in this package with `run(context) -> list[BenchRow]`; add a
section by adding its module name to SECTIONS. A row with a target carries its per-round
values (each round pairs what it compares, so drift between rounds cancels), their median
and its bootstrap interval, and a verdict: met, missed, or within noise (intervals.py). A
section measures in loops (`context.rounds(n)`) that run more rounds by themselves while a
judged interval straddles its target, within the section's extra time (rounds.py). Before
each round, and at the section's start and end, a calibration probe times llama.cpp's own
decode (calibration.py): a section during which the machine's speed moved too much is "too
noisy to judge". Only "missed" makes the run fail.

Each section runs in a process of its own (runner.py), so no
section inherits what an earlier one left behind. The one that mattered: llama.cpp's CPU
backend (OpenMP) keeps a team of helper threads for every thread that has decoded, for as
long as that thread lives; once the main thread had decoded (a section that decodes there),
every later in-process decode on another thread met two teams on two cores, and libgomp
stops spin-waiting then: the `server` section's in-process engine ran at 30 tokens/s
against 88 through the engine process, and its ratios said the server was three times
faster than the engine it serves.
"""

from __future__ import annotations

import json
import math
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from app.bench.intervals import (
    CONFIDENCE,
    MAX_DRIFT,
    MIN_ROUNDS,
    RESAMPLES,
    SEED,
    Drift,
    Interval,
    Target,
    Verdict,
    bootstrap_interval,
    exact_verdict,
    median,
    verdict,
)
from app.bench.rounds import ExtraTime, RoundLoop
from app.core.support.text_table import text_table

SECTIONS: list[str] = [
    "streaming",
    "speculative",
    "threads",
    "chat_view",
    "memory_plan",
    "hashing",
    "context_reuse",
    "inspector",
    "remote",
    "monitor",
    "retrieval",
    "server",
    "decoding",
    "tools",
    "vision",
]


@dataclass(frozen=True)
class BenchRow:
    section: str
    metric: str
    value: float  # a judged row's: the median of its rounds
    unit: str = ""
    target: str = ""  # e.g. ">= 0.97"; empty for plain measurements
    verdict: Verdict | None = None  # None: no target, or not measured
    note: str = ""  # why a row was not measured
    rounds: tuple[float, ...] = ()  # a judged row's per-round values
    interval: Interval | None = None  # their median's bootstrap interval (None: fewer than MIN_ROUNDS)

    @property
    def measured(self) -> bool:
        return not math.isnan(self.value)


class Probe(Protocol):
    """The machine's speed now: calibration.py's probe, or a test's scripted one."""

    def decode_rate(self) -> float: ...

    def close(self) -> None: ...


NOISE = "noise"  # the details' key for each section's calibration, extra rounds and time


@dataclass
class BenchContext:
    model_path: Path
    quick: bool = False  # fewer repetitions
    base_rounds: int | None = None  # --rounds: every loop's base rounds, instead of the section's own
    extra_time: ExtraTime = field(default_factory=ExtraTime)
    calibration: Probe | None = None  # None: this section runs without calibration probes
    decode_rates: list[float] = field(default_factory=list)  # the calibration probes' rates, in order
    details: dict[str, Any] = field(default_factory=dict)  # per-section raw data for the JSON file
    clock: Callable[[], float] = time.perf_counter
    # The bench's own tests: replies as short as still exercise each section's machinery (their numbers mean nothing).
    smoke: bool = False

    def rounds(self, default: int, calibrated: bool = True) -> RoundLoop:
        """A loop of `default` rounds (or --rounds), each after a calibration probe unless
        `calibrated` is False (loops of many rounds far shorter than a probe)."""
        base = self.base_rounds if self.base_rounds is not None else default
        calibrate = self.calibrate if calibrated else lambda: None
        return RoundLoop(base, self.extra_time, calibrate, self.clock, lambda: self.drift.too_noisy)

    @property
    def drift(self) -> Drift:
        return Drift(tuple(self.decode_rates))

    def calibrate(self) -> None:
        if self.calibration is not None:
            self.decode_rates.append(self.calibration.decode_rate())


def row(section: str, metric: str, value: float, unit: str = "") -> BenchRow:
    """A plain measurement: no target, so no rounds and no verdict."""
    return BenchRow(section, metric, value, unit)


def judged(section: str, metric: str, rounds: Sequence[float], unit: str, target: str) -> BenchRow:
    """A row with a target: the median of its per-round values, their interval and the verdict."""
    values = tuple(float(value) for value in rounds)
    if not values or any(math.isnan(value) for value in values):
        raise ValueError(f"the bench row {metric!r} needs a measured value for every round: {values}")
    interval = bootstrap_interval(values)
    return BenchRow(
        section, metric, median(values), unit, target, verdict(interval, Target.parse(target)), "", values, interval
    )


def exact(section: str, metric: str, value: float, unit: str, target: str) -> BenchRow:
    """A row with a target whose value is deterministic (no timing in it): met or missed by the value."""
    return BenchRow(section, metric, value, unit, target, exact_verdict(value, Target.parse(target)))


def not_measured(section: str, metric: str, reason: str, unit: str = "", target: str = "") -> BenchRow:
    """A row that says it was not measured, and why: never a zero, never a verdict."""
    return BenchRow(section, metric, math.nan, unit, target, None, reason)


def judge_noise(rows: Sequence[BenchRow], drift: Drift) -> list[BenchRow]:
    """A section whose machine moved too much has no verdicts from its rounds: "too noisy to judge"."""
    if not drift.too_noisy:
        return list(rows)
    settled = (Verdict.MET, Verdict.MISSED, Verdict.WITHIN_NOISE)
    return [replace(r, verdict=Verdict.TOO_NOISY) if r.rounds and r.verdict in settled else r for r in rows]


def missed(rows: Sequence[BenchRow]) -> int:
    """The rows that missed their target; the exit status counts only these."""
    return sum(r.verdict is Verdict.MISSED for r in rows)


def format_table(rows: Sequence[BenchRow]) -> str:
    header = ("section", "metric", "value", f"{CONFIDENCE:.0%} interval", "rounds", "unit", "target", "verdict")
    lines = [
        (r.section, r.metric, _value(r), _interval(r), str(len(r.rounds) or ""), r.unit, r.target, r.verdict or "")
        for r in rows
    ]
    return text_table(header, lines, markdown=True)


def format_noise(noise: dict[str, dict[str, Any]]) -> str:
    """Each section's machine speed (the calibration probes' decode rate), its extra rounds and time,
    and the whole run's (each section is judged on its own drift: the run's is for the reader)."""
    header = ("section", "decode tok/s: min", "median", "max", "drift (Q3/Q1)", "extra rounds", "seconds")
    lines = [
        (
            name,
            *((*_speed(n), _drift(n)) if "drift" in n else (n["note"], "", "", "")),
            str(n["extra_rounds"]),
            f"{n['seconds']:.0f}",
        )
        for name, n in noise.items()
    ]
    whole = Drift(tuple(rate for n in noise.values() for rate in n["decode_rates"]))
    if whole.measured:
        extra_rounds = sum(n["extra_rounds"] for n in noise.values())
        seconds = sum(n["seconds"] for n in noise.values())
        summary = whole.summary()
        lines.append(("whole run", *_speed(summary), f"{summary['drift']:.3f}", str(extra_rounds), f"{seconds:.0f}"))
    return text_table(header, lines, markdown=True)


def _speed(summary: dict[str, Any]) -> tuple[str, str, str]:
    return f"{summary['min']:.1f}", f"{summary['median']:.1f}", f"{summary['max']:.1f}"


def _drift(noise: dict[str, Any]) -> str:
    return f"{noise['drift']:.3f}" + (f" > {MAX_DRIFT}: too noisy to judge" if noise["too_noisy"] else "")


def _value(bench_row: BenchRow) -> str:
    return f"{bench_row.value:.3f}" if bench_row.measured else f"not measured: {bench_row.note}"


def _interval(bench_row: BenchRow) -> str:
    """The interval of a judged row; "exact" for a deterministic one; empty without a target."""
    if bench_row.interval is not None:
        return f"{bench_row.interval.low:.3f} – {bench_row.interval.high:.3f}"
    if bench_row.verdict in (Verdict.MET, Verdict.MISSED) and not bench_row.rounds:
        return "exact"
    return ""


def write_json(path: Path, rows: Sequence[BenchRow], context: BenchContext) -> None:
    """The run: every row with its rounds and interval, the statistics' settings, the details."""
    payload = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "model": str(context.model_path),
        "statistics": {
            "median of rounds, percentile bootstrap interval": CONFIDENCE,
            "resamples": RESAMPLES,
            "seed": SEED,
            "min_rounds": MIN_ROUNDS,
            "max_drift": MAX_DRIFT,
            "extra_seconds_per_section": context.extra_time.seconds,
        },
        "rows": [{**asdict(r), "value": r.value if r.measured else None} for r in rows],
        "details": context.details,
    }
    path.write_text(json.dumps(payload, indent=2, default=str))
