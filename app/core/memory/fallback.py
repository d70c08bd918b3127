"""Load with fewer GPU layers when the GPU runs out of memory: halve, then step down, then CPU.

llama-cpp-python reports a failed load only as "Failed to load model from file" or
"Failed to create llama_context"; the reason is in llama.cpp's log ("cudaMalloc failed:
out of memory", "unable to allocate CUDA0 buffer"). So each attempt listens to the log,
and only a failure for lack of memory leads to a retry; any other failure (a damaged
file) is raised at once. Every step is reported, and the result says which setting
now holds: never a crash, never a silent CPU fallback.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from app.core.inference.engine import LoadProgress
from app.core.inference.llama_log import add_line_listener, install_llama_logging, remove_line_listener
from app.core.models.gguf_info import GgufInfoError, read_gguf_info
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import EngineError, LoadCancelled
from app.core.types.load import LoadConfig

log = logging.getLogger(__name__)

OUT_OF_MEMORY = re.compile(
    r"out of memory|outofdevicememory|cudaMalloc failed|failed to allocate|unable to allocate|"
    r"not enough memory|insufficient memory|bad_alloc|cannot allocate memory",
    re.IGNORECASE,
)
_LOG_PREFIX = re.compile(r"^\w+: ")  # llama.cpp's "function_name: " at the start of a line
# After halving, the remaining layers are given up in about this many steps before the CPU.
STEPS_AFTER_HALVING = 4


class Loader(Protocol):
    """What the fallback needs from an engine (app.core.inference.engine.Engine fits)."""

    def load(
        self, config: LoadConfig, progress: LoadProgress | None = None, cancel: threading.Event | None = None
    ) -> Any: ...

    def close(self) -> None: ...


class OutOfMemoryError(EngineError):
    """Even the CPU-only load ran out of memory."""


@dataclass(frozen=True)
class FallbackStep:
    """One attempt that failed for lack of memory, and what comes next."""

    n_gpu_layers: int
    reason: str  # the out-of-memory line from llama.cpp or the error
    next_n_gpu_layers: int | None  # None: nothing left to try
    during: str = "loading"  # or "first decode"

    @property
    def message(self) -> str:
        where = (
            N_("on the CPU only")
            if self.next_n_gpu_layers == 0
            else fill(N_("with {next_n_gpu_layers} GPU layers"), next_n_gpu_layers=self.next_n_gpu_layers)
        )
        during = N_("First decode") if self.during == "first decode" else N_("Loading")
        fields = {"during": during, "n_gpu_layers": self.n_gpu_layers, "reason": self.reason}
        if self.next_n_gpu_layers is None:
            return fill(N_("{during} with {n_gpu_layers} GPU layers ran out of memory ({reason})."), **fields)
        return fill(
            N_("{during} with {n_gpu_layers} GPU layers ran out of memory ({reason}); trying again {where}."),
            where=where,
            **fields,
        )


@dataclass
class FallbackResult:
    requested: LoadConfig
    config: LoadConfig  # the setting that loaded and now holds
    report: Any  # what the engine's load returned (a LoadReport for Engine)
    steps: list[FallbackStep] = field(default_factory=list)

    @property
    def fell_back(self) -> bool:
        return bool(self.steps)

    @property
    def message(self) -> str:
        """For the user: what happened and what setting now holds (empty when nothing happened)."""
        if not self.steps:
            return ""
        first = self.steps[0]
        held = self.config.n_gpu_layers
        outcome = (
            N_("Loaded on the CPU only (0 GPU layers): replies will be slower.")
            if held == 0
            else fill(N_("Loaded with {held} GPU layers instead."), held=held)
        )
        return fill(
            N_(
                "Not enough GPU memory for {n_gpu_layers} GPU layers ({reason}). {outcome} GPU "
                "layers is now set to {held}; close other programs using the GPU or lower the "
                "context length to fit more."
            ),
            n_gpu_layers=first.n_gpu_layers,
            reason=first.reason,
            outcome=outcome,
            held=held,
        )


def fallback_layers(requested: int, total: int) -> list[int]:
    """The settings to try, in order: the request, half of it, then steps down to 0 (CPU).

    `requested` < 0 means all `total` layers.
    """
    first = total if requested < 0 or requested > total else requested
    tries = [first]
    if first == 0:
        return tries
    half = first // 2
    tries.append(half)
    step = max(1, math.ceil(half / STEPS_AFTER_HALVING))
    n = half
    while n > 0:
        n = max(0, n - step)
        tries.append(n)
    return tries


def is_out_of_memory(error: BaseException, log_lines: list[str]) -> str:
    """What says memory ran out (from the error, else the first such log line), or "" if it was something else."""
    if isinstance(error, MemoryError):
        return "the system is out of memory"
    text = str(error)
    match = OUT_OF_MEMORY.search(text)
    if match:
        return _short(text[match.start() :].rstrip(")"))
    for line in log_lines:
        if OUT_OF_MEMORY.search(line):
            return _short(_LOG_PREFIX.sub("", line, count=1))
    return ""


def load_with_fallback(
    engine: Loader,
    config: LoadConfig,
    on_step: Callable[[FallbackStep], None] | None = None,
    progress: LoadProgress | None = None,
    cancel: threading.Event | None = None,
    total_layers: int | None = None,
) -> FallbackResult:
    """Load `config`; on out-of-memory retry with fewer layers. Raises the original error
    for failures that are not about memory, and OutOfMemoryError when even the CPU fails.

    `total_layers` is the model's block count + 1 (its "all"); read from the file if not given.
    After a load, the engine's `warm_up()` (if it has one) runs the first decode, so memory
    that runs out there is caught here too rather than in the middle of the first reply.
    """
    total = total_layers if total_layers is not None else _total_layers(config)
    tries = fallback_layers(config.n_gpu_layers, total) if total else [config.n_gpu_layers, 0]
    if config.n_gpu_layers == 0:
        tries = [0]
    steps: list[FallbackStep] = []
    last_error: Exception | None = None
    for index, n_gpu_layers in enumerate(tries):
        if cancel is not None and cancel.is_set():
            raise LoadCancelled(fill(N_("Loading {name} was cancelled."), name=config.model_path.name))
        attempt = replace(config, n_gpu_layers=n_gpu_layers)
        lines: list[str] = []
        during = "loading"
        try:
            with _collect_log_lines(lines):
                report = engine.load(attempt, progress=progress, cancel=cancel)
                during = "first decode"
                warm_up = getattr(engine, "warm_up", None)
                if callable(warm_up):
                    warm_up()
        except LoadCancelled:
            raise
        except Exception as error:
            reason = is_out_of_memory(error, lines)
            if not reason:
                raise
            engine.close()
            last_error = error
            step = FallbackStep(n_gpu_layers, reason, tries[index + 1] if index + 1 < len(tries) else None, during)
            steps.append(step)
            log.warning("%s", step.message)
            if on_step is not None:
                on_step(step)
            continue
        return FallbackResult(requested=config, config=attempt, report=report, steps=steps)
    raise OutOfMemoryError(
        fill(
            N_(
                "Not enough memory to load {name}, even on the CPU ({reason}). Lower the context "
                "length, close other programs, or choose a smaller quantization."
            ),
            name=config.model_path.name,
            reason=steps[-1].reason,
        )
    ) from last_error


def _total_layers(config: LoadConfig) -> int:
    try:
        return read_gguf_info(config.model_path).block_count + 1
    except GgufInfoError as error:
        log.info("Cannot read the layer count for the fallback plan: %s", error)
        return 0


class _collect_log_lines:  # noqa: N801 (used as a context manager)
    """Collect llama.cpp's log lines while one attempt runs."""

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines

    def _listener(self, _level: int, line: str) -> None:
        self._lines.append(line)

    def __enter__(self) -> None:
        install_llama_logging()
        add_line_listener(self._listener)

    def __exit__(self, *_exc: object) -> None:
        remove_line_listener(self._listener)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
