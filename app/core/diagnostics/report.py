"""Diagnostics for a bug report: versions, hardware, the model and how it loaded, settings, last errors.

`diagnostics_text` only formats what it is given plus what it can ask without side
effects (package versions, llama.cpp's build flags). Each part that cannot be read says so
in its line instead of failing: a bug report is most needed when something is broken.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.diagnostics.versions import package_version, system_report
from app.core.inference.sampling import SamplingParams
from app.core.memory.hardware import HardwareSnapshot
from app.core.support.formatting import format_bytes
from app.core.support.log_buffer import LogEntry
from app.core.types.load import LoadReport

# Besides those in versions.system_report: the packages whose behaviour shows in a bug report.
PACKAGES = ("gguf", "huggingface-hub", "numpy", "psutil", "nvidia-ml-py", "keyring", "platformdirs")
GIB = 1024**3


@dataclass
class DiagnosticsInput:
    """What the app knows at the moment the user asks for diagnostics."""

    load_report: LoadReport | None = None
    sampling: SamplingParams | None = None
    settings: Mapping[str, Any] | None = None
    hardware: HardwareSnapshot | None = None
    errors: Sequence[LogEntry] = ()
    log_file: Path | None = None
    qt_version: str = ""  # from the UI (this module never imports Qt)
    qt_platform: str = ""


def diagnostics_text(given: DiagnosticsInput) -> str:
    sections = [
        f"Glassbox diagnostics, {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        _section("Versions", _versions(given.qt_version, given.qt_platform)),
        _section("Hardware", _hardware(given.hardware)),
        _section("Model", _model(given.load_report)),
        _section("Settings", _settings(given.sampling, given.settings)),
        _section("Last errors and warnings", _errors(given.errors)),
        _section("Log file", [str(given.log_file) if given.log_file else "not set up"]),
    ]
    return "\n\n".join(sections) + "\n"


def _section(title: str, lines: list[str]) -> str:
    return f"## {title}\n" + "\n".join(lines)


def _versions(qt_version: str, qt_platform: str) -> list[str]:
    try:
        lines = system_report(qt_version or "not running", qt_platform or "none").splitlines()
    except Exception as error:  # a broken llama.cpp install is what the report is for
        lines = [f"versions unavailable ({error})"]
    return lines + [f"{name} {package_version(name)}" for name in PACKAGES]


def _hardware(snapshot: HardwareSnapshot | None) -> list[str]:
    lines = [f"CPU: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores"]
    if snapshot is None:
        return [*lines, "GPU and RAM: not measured"]
    if snapshot.ram is not None:
        ram = snapshot.ram
        lines.append(
            f"RAM: {ram.total / GIB:.1f} GiB total, {ram.available / GIB:.1f} GiB available, "
            f"Glassbox uses {ram.process_rss / GIB:.2f} GiB"
        )
    lines.append(f"GPU: {snapshot.state.value}" + (f" ({snapshot.reason})" if snapshot.reason else ""))
    if snapshot.driver_version:
        lines.append(f"NVIDIA driver {snapshot.driver_version}")
    for gpu in snapshot.gpus:
        lines.append(f"GPU {gpu.index}: {gpu.name}, {gpu.total / GIB:.1f} GiB VRAM, {gpu.free / GIB:.1f} GiB free")
    offload = snapshot.offload
    lines.append("llama.cpp GPU offload: " + ("supported" if offload.supported else f"not available. {offload.hint}"))
    return lines


def _model(report: LoadReport | None) -> list[str]:
    if report is None:
        return ["no model loaded"]
    config = report.config
    path = Path(config.model_path)
    try:
        size = format_bytes(path.stat().st_size)
    except OSError as error:
        size = f"unreadable now ({error.strerror})"
    lines = [
        f"{path.name} ({size}) at {path.parent}",
        f"n_ctx {config.n_ctx} (trained {report.n_ctx_train}), n_gpu_layers {config.n_gpu_layers}, "
        f"n_threads {config.n_threads or 'auto'}, n_batch {config.n_batch}, {report.n_layers} layers",
        f"loaded in {report.total_seconds:.2f} s:",
    ]
    lines += [f"  {stage.name}: {stage.seconds * 1000:.1f} ms  {stage.detail}".rstrip() for stage in report.stages]
    return lines


def _settings(sampling: SamplingParams | None, settings: Mapping[str, Any] | None) -> list[str]:
    lines = []
    if sampling is not None:
        lines.append("sampling: " + ", ".join(f"{name} {value}" for name, value in sampling.to_dict().items()))
    if settings:
        lines.append("settings file: " + json.dumps(settings, default=str, sort_keys=True))
    return lines or ["defaults"]


def _errors(errors: Sequence[LogEntry]) -> list[str]:
    return [entry.format() for entry in errors] or ["none"]
