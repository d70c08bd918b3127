"""`python -m app bench`: performance targets measured as ratios inside one run.

Each section is a module in this package with `run(context) -> list[BenchRow]`; add a
section by adding its module name to SECTIONS.
"""

from __future__ import annotations

import importlib
import json
import math
import platform
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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
]


@dataclass(frozen=True)
class BenchRow:
    section: str
    metric: str
    value: float
    unit: str = ""
    target: str = ""  # e.g. ">= 0.97"; empty for plain measurements
    passed: bool | None = None  # None: no target, or not measured
    note: str = ""  # why a row was not measured

    @property
    def measured(self) -> bool:
        return not math.isnan(self.value)


@dataclass
class BenchContext:
    model_path: Path
    quick: bool = False  # fewer repetitions (used by the tests of the bench itself)
    details: dict[str, Any] = field(default_factory=dict)  # per-section raw data for the JSON file


def check(value: float, target: str) -> bool:
    """Evaluate a target like '>= 0.97', '<= 1.5' or '< 50'."""
    operator, number = target.split()
    limit = float(number)
    return {">=": value >= limit, "<=": value <= limit, "<": value < limit, ">": value > limit}[operator]


def row(section: str, metric: str, value: float, unit: str = "", target: str = "") -> BenchRow:
    return BenchRow(section, metric, value, unit, target, check(value, target) if target else None)


def not_measured(section: str, metric: str, reason: str, unit: str = "", target: str = "") -> BenchRow:
    """A row that says it was not measured, and why: never a zero, never a pass."""
    return BenchRow(section, metric, math.nan, unit, target, None, reason)


def run_sections(context: BenchContext, only: Sequence[str] = ()) -> list[BenchRow]:
    rows: list[BenchRow] = []
    for name in SECTIONS:
        if only and name not in only:
            continue
        module = importlib.import_module(f"app.bench.{name}")
        rows.extend(module.run(context))
    return rows


def format_table(rows: Sequence[BenchRow]) -> str:
    header = ("section", "metric", "value", "unit", "target", "ok")
    lines = [(r.section, r.metric, _value(r), r.unit, r.target, _verdict(r.passed)) for r in rows]
    return text_table(header, lines, markdown=True)


def _value(bench_row: BenchRow) -> str:
    return f"{bench_row.value:.3f}" if bench_row.measured else f"not measured: {bench_row.note}"


def _verdict(passed: bool | None) -> str:
    """The "ok" column: empty for a row without a target."""
    return "" if passed is None else ("yes" if passed else "NO")


def write_json(path: Path, rows: Sequence[BenchRow], context: BenchContext) -> None:
    payload = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "model": str(context.model_path),
        "rows": [{**asdict(r), "value": r.value if r.measured else None} for r in rows],
        "details": context.details,
    }
    path.write_text(json.dumps(payload, indent=2, default=str))
