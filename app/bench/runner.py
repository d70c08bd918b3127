"""Run the bench's sections, each in a process of its own between two calibration probes (see app.bench)."""

from __future__ import annotations

import importlib
import multiprocessing
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from app.bench import NOISE, SECTIONS, BenchContext, BenchRow, judge_noise
from app.bench.calibration import Calibration, CalibrationUnavailable
from app.bench.rounds import ExtraTime


def run_sections(
    context: BenchContext, only: Sequence[str] = (), prepare: Callable[[], object] | None = None
) -> list[BenchRow]:
    """Each section (of `only`, else all) in a process of its own, one after the other; their rows
    in order, their details and the machine's speed while each ran (`noise`) added to
    `context.details`. `prepare` (picklable) runs first in each process: the command's logging,
    say. A section that fails raises RuntimeError with its traceback."""
    rows: list[BenchRow] = []
    for name in SECTIONS:
        if only and name not in only:
            continue
        started = time.perf_counter()
        section_rows, details = _run_in_own_process(name, context, prepare)
        rows.extend(section_rows)
        noise = details.pop(NOISE)
        context.details.update(details)
        context.details.setdefault(NOISE, {})[name] = {**noise, "seconds": time.perf_counter() - started}
    return rows


SectionResult = tuple[list[BenchRow], dict[str, Any]]


def _run_in_own_process(name: str, context: BenchContext, prepare: Callable[[], object] | None) -> SectionResult:
    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing of this process is inherited
    ours, theirs = spawn.Pipe(duplex=False)
    settings = (context.model_path, context.quick, context.base_rounds, context.extra_time.seconds)
    child = spawn.Process(target=_run_section, args=(name, settings, prepare, theirs), name=f"bench-{name}")
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
    name: str,
    settings: tuple[Path, bool, int | None, float],
    prepare: Callable[[], object] | None,
    connection: Connection,
) -> None:
    """In the section's own process: run it between two calibration probes and send back its rows
    (judged against the machine's drift) and details, or its traceback."""
    if prepare is not None:
        prepare()
    model_path, quick, base_rounds, extra_seconds = settings
    context = BenchContext(model_path, quick, base_rounds, ExtraTime(extra_seconds))
    try:
        rows, noise = _calibrated(name, context)
    except BaseException:
        connection.send(traceback.format_exc())
    else:
        connection.send((rows, {**context.details, NOISE: noise}))
    finally:
        connection.close()


def _calibrated(name: str, context: BenchContext) -> tuple[list[BenchRow], dict[str, Any]]:
    try:
        context.calibration = Calibration(context.model_path)
    except CalibrationUnavailable as error:
        unavailable = f"no calibration: {error}"
    else:
        unavailable = ""
    try:
        context.calibrate()
        rows = importlib.import_module(f"app.bench.{name}").run(context)
        context.calibrate()
    finally:
        if context.calibration is not None:
            context.calibration.close()
    drift = context.drift
    noise: dict[str, Any] = {
        "decode_rates": list(drift.rates),
        **(drift.summary() if drift.measured else {"note": unavailable}),
        "too_noisy": drift.too_noisy,
        "extra_rounds": context.extra_time.rounds,
        "extra_seconds": context.extra_time.spent,
    }
    return judge_noise(rows, drift), noise
