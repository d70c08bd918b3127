"""The `threads` bench section sweeps 1 … physical cores and judges the default against the best."""

from __future__ import annotations

import statistics
from pathlib import Path

from app.bench.threads import SECTION, run, thread_counts
from app.core.inference.engine import default_threads
from tests.bench.quick import quick_context


def test_the_sweep_runs_from_one_thread_to_the_physical_cores() -> None:
    assert thread_counts(1) == [1]
    assert thread_counts(4) == [1, 2, 3, 4]
    assert thread_counts(12) == [1, 2, 3, 4, 5, 6, 7, 8, 12]
    assert thread_counts(64) == [1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64]


def test_the_section_measures_every_count_and_evaluates_the_default(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = run(context)
    *sweep, verdict = rows
    assert len(sweep) == len(thread_counts(default_threads()))
    assert all(r.measured and r.value > 0 and r.unit == "tok/s" for r in sweep)
    assert verdict.target == ">= 0.97" and verdict.verdict is not None and verdict.value > 0
    assert all(len(values) == len(verdict.rounds) for values in context.details[SECTION]["rounds"].values())
    details = context.details[SECTION]
    assert details["default"] == default_threads() and details["best"] in details["rounds"]
    # The best count is the fastest by median; a single round's ratio (and so their median) may pass 1.
    medians = {count: statistics.median(speeds) for count, speeds in details["rounds"].items()}
    assert medians[details["best"]] == max(medians.values())
