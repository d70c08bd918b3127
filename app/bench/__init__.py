"""`python -m app bench`: performance targets measured as ratios inside one run.

Each section is a module in this package with `run(context) -> list[BenchRow]`; add a
section by adding its module name to SECTIONS. Each runs in a process of its own, so no
section inherits what an earlier one left behind. The one that mattered: llama.cpp's CPU
backend (OpenMP) keeps a team of helper threads for every thread that has decoded, for as
long as that thread lives; once the main thread had decoded (a section that decodes there),
every later in-process decode on another thread met two teams on two cores, and libgomp
stops spin-waiting then: the `server` section's in-process engine ran at 30 tokens/s
against 88 through the engine process, and its ratios said the server was three times
faster than the engine it serves.
"""

from __future__ import annotations

import importlib
import json
import math
import multiprocessing
import platform
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
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


def run_sections(
    context: BenchContext, only: Sequence[str] = (), prepare: Callable[[], object] | None = None
) -> list[BenchRow]:
    """Each section (of `only`, else all) in a process of its own, one after the other; their rows
    in order, their details added to `context`. `prepare` (picklable) runs first in each process:
    the command's logging, say. A section that fails raises RuntimeError with its traceback."""
    rows: list[BenchRow] = []
    for name in SECTIONS:
        if only and name not in only:
            continue
        section_rows, details = _run_in_own_process(name, context, prepare)
        rows.extend(section_rows)
        context.details.update(details)
    return rows


SectionResult = tuple[list[BenchRow], dict[str, Any]]


def _run_in_own_process(name: str, context: BenchContext, prepare: Callable[[], object] | None) -> SectionResult:
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing of this process is inherited
    ours, theirs = spawn.Pipe(duplex=False)
    child = spawn.Process(
        target=_run_section, args=(name, context.model_path, context.quick, prepare, theirs), name=f"bench-{name}"
    )
    child.start()
    theirs.close()  # so a child that dies without answering ends the wait below
    try:
        outcome: SectionResult | str | None = ours.recv()
    except EOFError:
        outcome = None
    finally:
        ours.close()
        child.join()
    if outcome is None:
        raise RuntimeError(f"the bench section {name} ended without a result (exit code {child.exitcode})")
    if isinstance(outcome, str):
        raise RuntimeError(f"the bench section {name} failed:\n{outcome}")
    return outcome


def _run_section(
    name: str, model_path: Path, quick: bool, prepare: Callable[[], object] | None, connection: Connection
) -> None:
    """In the section's own process: run it and send back its rows and details, or its traceback."""
    if prepare is not None:
        prepare()
    context = BenchContext(model_path=model_path, quick=quick)
    try:
        rows = importlib.import_module(f"app.bench.{name}").run(context)
    except BaseException:
        connection.send(traceback.format_exc())
    else:
        connection.send((rows, context.details))
    finally:
        connection.close()


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
