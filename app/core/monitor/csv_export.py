"""The session's timeline as CSV: one row per sample, the reply it fell in, one column group per GPU.

A reading that was not measured is an empty cell, never 0. `child_pids` names the processes
counted as this app besides the window's own (`window_pid`): the engine process that runs
the model. Bytes are bytes and energy is NVML's running total in joules, so a spreadsheet
can take differences.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from app.core.memory.hardware import GpuSnapshot
from app.core.monitor.samples import ResourceSample
from app.core.monitor.timeline import ReplySpan, SessionTimeline
from app.core.support.atomic import atomic_write
from app.core.support.formatting import fill
from app.core.support.user_text import N_

BASE_COLUMNS = (
    "time_s",
    "timestamp",
    "reply",
    "cpu_app_percent",
    "cpu_total_percent",
    "ram_app_bytes",
    "ram_available_bytes",
    "ram_total_bytes",
    "swap_used_bytes",
    "window_pid",
    "child_pids",
    "gpu_state",
)
GPU_COLUMNS = (
    "name",
    "utilization_percent",
    "vram_total_bytes",
    "vram_used_bytes",
    "vram_app_bytes",
    "vram_others_bytes",
    "temperature_c",
    "power_w",
    "energy_j",
)


class ExportError(Exception):
    """The CSV could not be written; the message says where and why."""


def csv_columns(gpu_indices: Sequence[int]) -> list[str]:
    return [*BASE_COLUMNS, *(f"gpu{index}_{column}" for index in gpu_indices for column in GPU_COLUMNS)]


def timeline_csv(samples: Sequence[ResourceSample], spans: Sequence[ReplySpan] = ()) -> str:
    """The CSV text: a header, then one row per sample, oldest first."""
    indices = sorted({gpu.index for sample in samples for gpu in sample.gpus})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_columns(indices))
    ordered = sorted(spans, key=lambda span: span.start)
    next_span = 0  # samples and spans both run forward in time, and spans do not overlap
    for sample in samples:
        while next_span < len(ordered) and (end := ordered[next_span].end) is not None and end < sample.t:
            next_span += 1
        current = ordered[next_span] if next_span < len(ordered) else None
        reply = current.number if current is not None and current.contains(sample.t) else None
        by_index = {gpu.index: gpu for gpu in sample.gpus}
        row = [
            f"{sample.t:.3f}",
            datetime.fromtimestamp(sample.wall).astimezone().isoformat(timespec="milliseconds"),
            _cell(reply),
            _cell(sample.cpu_app_percent),
            _cell(sample.cpu_total_percent),
            _cell(sample.ram_app),
            _cell(sample.ram_available),
            _cell(sample.ram_total),
            _cell(sample.swap_used),
            str(sample.window_pid),
            " ".join(str(pid) for pid in sample.child_pids),
            sample.gpu_state.value,
        ]
        for index in indices:
            row.extend(_gpu_cells(by_index.get(index)))
        writer.writerow(row)
    return out.getvalue()


def export_csv(timeline: SessionTimeline, path: Path) -> int:
    """Write the timeline to `path` (atomically); returns the number of rows (samples) written."""
    samples = timeline.samples()
    text = timeline_csv(samples, timeline.spans())
    try:
        atomic_write(path, text)
    except OSError as error:
        raise ExportError(
            fill(
                N_("The monitor timeline could not be saved to {path} ({strerror}). Choose a folder you can write to."),
                path=path,
                strerror=error.strerror or error,
            )
        ) from error
    return len(samples)


def _gpu_cells(gpu: GpuSnapshot | None) -> list[str]:
    if gpu is None:
        return [""] * len(GPU_COLUMNS)
    return [
        gpu.name,
        _cell(gpu.utilization_percent),
        _cell(gpu.total),
        _cell(gpu.used),
        _cell(gpu.this_process),
        _cell(gpu.other_processes if gpu.this_process is not None else None),
        _cell(gpu.temperature_c),
        _cell(gpu.power_w),
        _cell(gpu.energy_j),
    ]


def _cell(value: float | int | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    return str(value)
