"""The bench context of the tests that run a section for real: quick, and with no extra rounds.

A section's tests check its machinery (every row measured, every target judged on its rounds, the details
kept), not its numbers. Without this, a ratio whose interval straddles its target earns extra rounds for up
to two minutes a section, which on a busy machine is most of the time; those extra rounds are tested on
their own, against a fake clock, in tests/bench/test_rounds.py.
"""

from __future__ import annotations

from pathlib import Path

from app.bench import BenchContext
from app.bench.rounds import ExtraTime


def quick_context(model_path: Path) -> BenchContext:
    """The section's quick base rounds of its shortest replies, and nothing more."""
    return BenchContext(model_path=model_path, quick=True, smoke=True, extra_time=ExtraTime(0.0))
