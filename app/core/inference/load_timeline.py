"""A model load, stage by stage: what happened between choosing a file and the first prompt.

`LoadTimeline.load` wraps `Engine.load` and turns its coarse stages into the glass-box
timeline:

    hash check       the verified-hash record (a cached hit when size and mtime are unchanged,
                     otherwise the file is hashed again)
    check file       GGUF header and tensor table (the engine's own check)
    prepare          llama-cpp-python and llama.cpp set up before reading the model
    read metadata    GGUF key/values and the tensor list
    load vocabulary  the tokenizer
    GPU offload      layers assigned to devices and their buffers allocated
    load weights     weights memory-mapped or read (llama.cpp's progress callback runs here)
    create context   KV cache and compute buffers
    load projector   a vision model's projector (mmproj), when it has one: it reads images
    chat template    which template the model brings
    first decode     one token through the model (when the offload fallback warms it up)

The engine only knows when the model load began and ended; the sub-stages inside it are
cut at the timestamps of llama.cpp's own log lines (`init_tokenizer`, `load_tensors:
loading model tensors`) and of the first progress callback. A marker llama.cpp did not
print merges two sub-stages instead of inventing a boundary. Sizes come from the same log
lines, parsed by `llama_buffers`.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from app.core.inference.engine import Engine, LoadProgress
from app.core.inference.llama_buffers import MIB, LlamaBuffers
from app.core.inference.llama_log import add_line_listener, install_llama_logging, remove_line_listener
from app.core.models.hashing import Cancelled, VerifiedIndex, VerifyState
from app.core.models.library import split_shards
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import LoadCancelled
from app.core.types.load import LoadConfig, LoadReport, LoadStage

log = logging.getLogger(__name__)

StageListener = Callable[[str], None]

# The stages a load reports live, while it runs (the timeline afterwards is finer).
HASH_CHECK = "hash check"
READ_MODEL = "read model"
LOAD_WEIGHTS = "load weights"
CREATE_CONTEXT = "create context"
FIRST_DECODE = "first decode"
# Why the first decode takes longer than any token after it (shown beside its row in Load details).
FIRST_DECODE_DETAIL = N_(
    "warm-up: one token through the model; the first computation allocates its buffers, so it takes "
    "longer than the tokens after it"
)

_META = re.compile(
    r"loaded meta data with (?P<keys>\d+) key-value pairs and (?P<tensors>\d+) tensors.*\(version (?P<version>.+)\)\s*$"
)
_FILE_TYPE = re.compile(r"print_info: file type\s*=\s*(?P<type>.+)$")
_VOCAB_TYPE = re.compile(r"print_info: vocab type\s*=\s*(?P<type>\S+)")
_N_VOCAB = re.compile(r"print_info: n_vocab\s*=\s*(?P<n>\d+)")
_VOCAB_START = re.compile(r"^(init_tokenizer|load):")
_TENSORS_START = re.compile(r"^load_tensors: loading model tensors.*?(\(load_mode = (?P<mode>\w+)\))?$")
_OFFLOADED = re.compile(r"offloaded (?P<done>\d+)/(?P<total>\d+) layers to GPU")
_ASSIGNED = re.compile(r"load_tensors: layer\s+\d+ assigned to device (?P<device>[^,\s]+)")

# Template families recognised by their markers (first match wins).
TEMPLATE_FAMILIES: tuple[tuple[str, str], ...] = (
    ("<|start_header_id|>", "Llama 3"),
    ("<|im_start|>", "ChatML"),
    ("<start_of_turn>", "Gemma"),
    ("[INST]", "Mistral / Llama 2"),
    ("<｜User｜>", "DeepSeek"),
    ("<|user|>", "Zephyr / Phi-3"),
    ("### Instruction", "Alpaca"),
)


@dataclass
class _LogLine:
    at: float  # time.perf_counter()
    text: str


@dataclass
class _Marks:
    """What a load reported while it ran: log lines with their times, and the progress callbacks."""

    lines: list[_LogLine] = field(default_factory=list)
    buffers: LlamaBuffers = field(default_factory=LlamaBuffers)
    first_progress_at: float = 0.0
    weights_done_at: float = 0.0

    def first(self, pattern: re.Pattern[str], after: float = 0.0) -> _LogLine | None:
        return next((line for line in self.lines if line.at >= after and pattern.search(line.text)), None)

    def find(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        for line in self.lines:
            match = pattern.search(line.text)
            if match:
                return match
        return None


def detect_template_family(template: str) -> str:
    """A readable name for a Jinja chat template ("ChatML", "Llama 3"…), or "custom"."""
    for marker, family in TEMPLATE_FAMILIES:
        if marker in template:
            return family
    return "custom"


def check_hash(
    path: Path,
    models_dir: Path | None = None,
    cancel: threading.Event | None = None,
    progress: LoadProgress | None = None,
) -> LoadStage:
    """The hash check stage: a cached hit, a re-hash of a changed file, or 'no record'.

    Raises ModelFileError when a re-hash no longer matches the record, LoadCancelled when
    `cancel` is set while hashing.
    """
    started = time.perf_counter()
    index = VerifiedIndex(models_dir or app_paths().models)
    files = [file for file in split_shards(path) if file.exists()] or [path]
    states = [index.state(file) for file in files]
    rehashed = 0
    for file, state in zip(files, states, strict=True):
        if state is not VerifyState.CHANGED:
            continue
        log.info("%s changed since it was verified; hashing it again before loading", file)
        report = (lambda done, total: progress(done / total if total else 1.0)) if progress else None
        try:
            result = index.verify(file, progress=report, cancel=cancel)
        except Cancelled:
            raise LoadCancelled(
                fill(N_("Loading {name} was cancelled while its hash was checked."), name=path.name)
            ) from None
        if result.state is VerifyState.MISMATCH:
            raise ModelFileError(file, result.message)
        rehashed += file.stat().st_size
    seconds = time.perf_counter() - started
    if rehashed:
        detail = fill(
            N_("changed since verified: hashed again ({size} MiB), matches the record"), size=f"{rehashed / MIB:,.1f}"
        )
    elif all(state is VerifyState.VERIFIED for state in states):
        record = index.lookup(files[0])
        digest = f" (sha256 {record.sha256[:12]}…)" if record else ""
        detail = fill(N_("cached: verified earlier and unchanged since{digest}"), digest=digest)
    else:
        detail = N_("no hash on record: not verified (the file's structure is still checked)")
    return LoadStage("hash check", seconds, detail)


class LoadTimeline:
    """Loads through an engine and records the timeline; `stages` holds what is known so far, also after a failure.

    It has the engine's `load(config, progress, cancel)`, `close()` and `warm_up()`, so the
    offload fallback can drive it like an engine (each attempt gets its own timeline).
    """

    def __init__(self, engine: Engine, on_stage: StageListener | None = None, models_dir: Path | None = None) -> None:
        self._engine = engine
        self._on_stage = on_stage
        self._models_dir = models_dir
        self._progress: LoadProgress | None = None
        self._marks = _Marks()
        self._lock = threading.Lock()
        self._current = ""
        self._current_since = 0.0
        self._fraction = 0.0
        self._origin = 0.0
        self.stages: list[LoadStage] = []

    @property
    def current_stage(self) -> str:
        return self._current

    def load(
        self, config: LoadConfig, progress: LoadProgress | None = None, cancel: threading.Event | None = None
    ) -> LoadReport:
        """Check the hash, load through the engine and return its report with the full timeline."""
        install_llama_logging()
        self._progress = progress
        self._marks = _Marks()
        self._origin = time.perf_counter()
        self.stages = []
        try:
            self._enter(HASH_CHECK)
            hashed = check_hash(config.model_path, self._models_dir, cancel, self._report_fraction)
            self.stages.append(hashed)
            self._enter(READ_MODEL)
            add_line_listener(self._on_line)
            try:
                report = self._engine.load(config, progress=self._on_progress, cancel=cancel)
            finally:
                remove_line_listener(self._on_line)
        except LoadCancelled:
            self._close_current(fill(N_("cancelled at {share}"), share=f"{self._fraction:.0%}"))
            raise
        except Exception:
            self._close_current("failed")
            raise
        self.stages = [hashed, *build_stages(report, self._marks, self._origin)]
        report.stages = self.stages
        report.started_at = self._origin
        self._current = ""
        return report

    def warm_up(self) -> None:
        """The engine's first decode, recorded as the last stage of the load it follows."""
        warm_up = getattr(self._engine, "warm_up", None)
        if not callable(warm_up):
            return
        started = time.perf_counter()
        warm_up()
        seconds = time.perf_counter() - started
        self.stages.append(LoadStage(FIRST_DECODE, seconds, FIRST_DECODE_DETAIL, started - self._origin))

    def close(self) -> None:
        self._engine.close()

    # ---- live ----------------------------------------------------------------------

    def _enter(self, name: str) -> None:
        self._current = name
        self._current_since = time.perf_counter()
        self._fraction = 0.0
        if self._on_stage is not None:
            self._on_stage(name)

    def _close_current(self, how: str) -> None:
        """Record the stage that was running when the load stopped (for the panel and the log)."""
        if self._current:
            began = self._current_since - self._origin
            self.stages.append(LoadStage(self._current, time.perf_counter() - self._current_since, how, began))
            self._current = ""

    def _report_fraction(self, fraction: float) -> None:
        self._fraction = fraction
        if self._progress is not None:
            self._progress(fraction)

    def _on_line(self, _level: int, line: str) -> None:
        with self._lock:
            self._marks.lines.append(_LogLine(time.perf_counter(), line))
            self._marks.buffers.feed(line)

    def _on_progress(self, fraction: float) -> None:
        marks = self._marks
        now = time.perf_counter()
        if not marks.first_progress_at:
            marks.first_progress_at = now
            self._enter(LOAD_WEIGHTS)
        if fraction >= 1.0 and not marks.weights_done_at:
            marks.weights_done_at = now
            self._enter(CREATE_CONTEXT)
        self._report_fraction(fraction)


def build_stages(report: LoadReport, marks: _Marks, origin: float) -> list[LoadStage]:
    """The engine's stages, the model load cut into its sub-stages, with details from the log."""
    by_name = {stage.name: stage for stage in report.stages}
    shift = report.started_at - origin
    stages: list[LoadStage] = []
    check = by_name.get("check file")
    weights = by_name.get("load weights")
    if check is not None:
        stages.append(_shifted(check, shift))
    if weights is not None:
        check_end = check.start_s + check.seconds if check is not None else 0.0
        prepare = max(0.0, weights.start_s - check_end)
        stages.append(LoadStage("prepare", prepare, N_("llama.cpp backends and model parameters"), check_end + shift))
        stages.extend(_model_stages(report, weights, marks, shift))
    for name in ("create context", "chat template"):
        stage = by_name.get(name)
        if stage is not None:
            detail = _context_detail(report, marks) if name == "create context" else _template_detail(report)
            stages.append(LoadStage(name, stage.seconds, detail, stage.start_s + shift))
    known = {"check file", "load weights", "create context", "chat template"}
    stages.extend(_shifted(stage, shift) for stage in report.stages if stage.name not in known)
    return sorted(stages, key=lambda stage: stage.start_s)


def _model_stages(report: LoadReport, weights: LoadStage, marks: _Marks, shift: float) -> list[LoadStage]:
    """Cut llama.cpp's model load at the log lines and the first progress callback."""
    begin = report.started_at + weights.start_s
    end = begin + weights.seconds
    vocab = marks.first(_VOCAB_START, begin)
    tensors = marks.first(_TENSORS_START, begin)
    cuts: list[tuple[str, float, str]] = [("read metadata", begin, _metadata_detail(marks))]
    if vocab is not None and begin <= vocab.at <= end:
        cuts.append(("load vocabulary", vocab.at, _vocabulary_detail(marks)))
    if tensors is not None and begin <= tensors.at <= end:
        cuts.append(("GPU offload", tensors.at, _offload_detail(report, marks)))
    if marks.first_progress_at and begin <= marks.first_progress_at <= end:
        cuts.append(("load weights", marks.first_progress_at, _weights_detail(marks)))
    stages = []
    for (name, start, detail), following in zip(cuts, [*cuts[1:], ("", end, "")], strict=True):
        stages.append(LoadStage(name, max(0.0, following[1] - start), detail, start - report.started_at + shift))
    return stages


def _shifted(stage: LoadStage, shift: float) -> LoadStage:
    return LoadStage(stage.name, stage.seconds, stage.detail, stage.start_s + shift)


def _metadata_detail(marks: _Marks) -> str:
    meta = marks.find(_META)
    file_type = marks.find(_FILE_TYPE)
    parts = []
    if meta:
        parts.append(
            fill(
                N_("{version}, {keys} keys, {tensors} tensors"),
                version=meta["version"].strip(),
                keys=meta["keys"],
                tensors=meta["tensors"],
            )
        )
    if file_type:
        parts.append(file_type["type"].strip())
    return " · ".join(parts)


def _vocabulary_detail(marks: _Marks) -> str:
    kind = marks.find(_VOCAB_TYPE)
    size = marks.find(_N_VOCAB)
    if kind and size:
        return fill(N_("{kind}, {n} tokens"), kind=kind["type"], n=f"{int(size['n']):,}")
    return ""


def offload_counts(marks_lines: list[str]) -> tuple[int, int]:
    """(layers on GPU, layers in all) from llama.cpp's log of one load; (0, 0) when it said nothing.

    GPU builds print `offloaded N/M layers to GPU`; every build prints, at debug level,
    which device each layer went to (CPU-only builds print nothing else).
    """
    per_device: dict[str, int] = {}
    for line in marks_lines:
        offloaded = _OFFLOADED.search(line)
        if offloaded:
            return int(offloaded["done"]), int(offloaded["total"])
        assigned = _ASSIGNED.search(line)
        if assigned:
            per_device[assigned["device"]] = per_device.get(assigned["device"], 0) + 1
    total = sum(per_device.values())
    on_gpu = sum(count for device, count in per_device.items() if not device.startswith("CPU"))
    return on_gpu, total


def _offload_detail(report: LoadReport, marks: _Marks) -> str:
    on_gpu, total = offload_counts([line.text for line in marks.lines])
    parts = []
    if total:
        parts.append(
            fill(
                N_("{on_gpu}/{total} layers on GPU, {on_cpu} on CPU"), on_gpu=on_gpu, total=total, on_cpu=total - on_gpu
            )
        )
    else:
        parts.append(fill(N_("{n} layers asked on GPU"), n=report.config.n_gpu_layers))
    if marks.buffers.model:
        parts.append(", ".join(f"{name} {size / MIB:,.1f} MiB" for name, size in marks.buffers.model.items()))
    return " · ".join(parts)


def _weights_detail(marks: _Marks) -> str:
    tensors = marks.find(_TENSORS_START)
    mode = tensors["mode"] if tensors and tensors["mode"] else ""
    size = marks.buffers.model_bytes
    how = {"mmap": N_("memory-mapped"), "direct": N_("read directly"), "": ""}.get(mode, mode)
    return " · ".join(part for part in (how, f"{size / MIB:,.1f} MiB" if size else "") if part)


def _context_detail(report: LoadReport, marks: _Marks) -> str:
    buffers = marks.buffers
    parts = [f"n_ctx {report.config.n_ctx:,}"]
    if buffers.kv_caches:
        cache = buffers.kv_caches[0]
        total = sum(c.total_bytes for c in buffers.kv_caches)
        parts.append(
            fill(
                N_("KV cache {size} MiB ({type} K/V, {layers} layers)"),
                size=f"{total / MIB:,.1f}",
                type=cache.k_type,
                layers=cache.layers,
            )
        )
    elif buffers.kv:
        parts.append(fill(N_("KV cache {size} MiB"), size=f"{buffers.kv_bytes / MIB:,.1f}"))
    if buffers.compute:
        parts.append(fill(N_("compute {size} MiB"), size=f"{buffers.compute_bytes / MIB:,.1f}"))
    if buffers.output:
        parts.append(fill(N_("output {size} MiB"), size=f"{buffers.output_bytes / MIB:,.2f}"))
    return " · ".join(parts)


def _template_detail(report: LoadReport) -> str:
    if not report.chat_template:
        return N_("none in the file: ChatML is used")
    family = detect_template_family(report.chat_template)
    return fill(
        N_("{family}, {source} ({n} characters)"),
        family=family,
        source=report.template_note or N_("from the model file"),
        n=f"{len(report.chat_template):,}",
    )
