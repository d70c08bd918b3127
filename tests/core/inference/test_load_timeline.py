"""The load timeline: every stage of a model load, in order, with durations and details."""

from __future__ import annotations

import ctypes
import itertools
import logging
import os
import threading
import time
from pathlib import Path

import pytest

from app.core.inference.engine import Engine, LoadProgress
from app.core.inference.load_timeline import (
    FIRST_DECODE,
    HASH_CHECK,
    LOAD_WEIGHTS,
    LoadTimeline,
    check_hash,
    detect_template_family,
    offload_counts,
)
from app.core.memory.fallback import load_with_fallback
from app.core.models.hashing import VerifiedIndex, VerifyState, sha256_file
from app.core.models.validation import ModelFileError
from app.core.paths import app_paths
from app.core.types.errors import LoadCancelled
from app.core.types.load import LoadConfig, LoadReport

EXPECTED_ORDER = [
    "hash check",
    "check file",
    "prepare",
    "read metadata",
    "load vocabulary",
    "GPU offload",
    "load weights",
    "create context",
    "chat template",
]


def test_a_load_records_every_stage_in_order_with_durations_and_details(starter_model: Path) -> None:
    VerifiedIndex(app_paths().models).record(starter_model, "0" * 64, reference="import")
    engine = Engine()
    live: list[str] = []
    fractions: list[float] = []
    timeline = LoadTimeline(engine, on_stage=live.append)
    began = time.perf_counter()
    try:
        report = timeline.load(LoadConfig(starter_model, n_ctx=1024), progress=fractions.append)
        wall = time.perf_counter() - began
        assert engine.is_loaded
    finally:
        engine.close()

    stages = report.stages
    assert [stage.name for stage in stages] == EXPECTED_ORDER
    assert all(stage.seconds >= 0 for stage in stages)
    for earlier, later in itertools.pairwise(stages):
        assert earlier.start_s + earlier.seconds <= later.start_s + 1e-6, (earlier, later)
    assert report.total_seconds <= wall
    assert stages[-1].start_s + stages[-1].seconds <= wall

    details = {stage.name: stage.detail for stage in stages}
    assert details["hash check"].startswith("cached")
    assert "GGUF V3" in details["read metadata"] and "Q4_1" in details["read metadata"]
    assert "49,152 tokens" in details["load vocabulary"]
    assert f"0/{report.n_layers + 1} layers on GPU" in details["GPU offload"]
    assert "memory-mapped" in details["load weights"]
    # 1024 cells x 30 layers x (K + V) x 192 values x 2 bytes (f16) = 22.5 MiB
    assert "KV cache 22.5 MiB (f16 K/V, 30 layers)" in details["create context"]
    assert "compute" in details["create context"]
    assert details["chat template"].startswith("ChatML")

    assert live == ["hash check", "read model", "load weights", "create context"]
    assert fractions[-1] == pytest.approx(1.0)
    assert fractions == sorted(fractions)


def test_cancelling_during_the_weights_stops_the_load_and_records_where(starter_model: Path) -> None:
    engine = Engine()
    cancel = threading.Event()
    timeline = LoadTimeline(engine)
    with pytest.raises(LoadCancelled):
        timeline.load(LoadConfig(starter_model, n_ctx=512), progress=lambda _fraction: cancel.set(), cancel=cancel)
    assert not engine.is_loaded
    assert [stage.name for stage in timeline.stages] == [HASH_CHECK, LOAD_WEIGHTS]
    assert timeline.stages[-1].detail.startswith("cancelled at")
    assert timeline.current_stage == ""


class _CancelledAsTheWeightsFinish(Engine):
    """The user presses Cancel the moment llama.cpp has finished loading, before the first decode."""

    def load(
        self, config: LoadConfig, progress: LoadProgress | None = None, cancel: threading.Event | None = None
    ) -> LoadReport:
        report = super().load(config, progress, cancel)
        assert cancel is not None
        cancel.set()
        return report


def test_a_load_cancelled_before_the_first_decode_skips_it_frees_the_model_and_says_cancelled(
    starter_model: Path,
) -> None:
    engine = _CancelledAsTheWeightsFinish()
    timeline = LoadTimeline(engine)
    with pytest.raises(LoadCancelled):
        load_with_fallback(timeline, LoadConfig(starter_model, n_ctx=512), cancel=threading.Event(), total_layers=31)
    assert not engine.is_loaded
    assert FIRST_DECODE not in [stage.name for stage in timeline.stages]


class _CancelledDuringTheFirstDecode(Engine):
    """The user presses Cancel while llama.cpp computes the first decode (seen from its abort callback)."""

    def _should_abort(self, data: ctypes.c_void_p) -> bool:
        if self._abort_requested is not None:
            self._abort_requested.set()
        return super()._should_abort(data)


def test_a_load_cancelled_during_the_first_decode_ends_the_decode_frees_the_model_and_says_cancelled(
    starter_model: Path,
) -> None:
    engine = _CancelledDuringTheFirstDecode()
    cancel = threading.Event()
    engine.load(LoadConfig(starter_model, n_ctx=512), cancel=cancel)
    with pytest.raises(LoadCancelled):
        engine.warm_up()
    assert cancel.is_set()
    assert not engine.is_loaded


def test_the_first_decode_runs_when_the_load_was_not_cancelled(starter_model: Path) -> None:
    engine = Engine()
    try:
        engine.load(LoadConfig(starter_model, n_ctx=512), cancel=threading.Event())
        engine.warm_up()
        assert engine.is_loaded
    finally:
        engine.close()


def test_through_the_offload_fallback_the_first_decode_closes_the_timeline(starter_model: Path) -> None:
    engine = Engine()
    timeline = LoadTimeline(engine)
    try:
        result = load_with_fallback(timeline, LoadConfig(starter_model, n_ctx=512), total_layers=31)
    finally:
        timeline.close()
    assert not engine.is_loaded
    names = [stage.name for stage in result.report.stages]
    assert names == [*EXPECTED_ORDER, FIRST_DECODE]
    last, decode = result.report.stages[-2:]
    assert decode.start_s >= last.start_s + last.seconds


def _model_file(folder: Path, content: bytes = b"GGUF" + b"\0" * 4096) -> Path:
    path = folder / "tiny.gguf"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def _touch_later(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))


def test_a_file_verified_and_unchanged_is_a_cached_hash_hit(tmp_path: Path) -> None:
    path = _model_file(tmp_path / "models")
    VerifiedIndex(tmp_path / "models").record(path, sha256_file(path).hexdigest(), reference="hub")
    stage = check_hash(path, tmp_path / "models")
    assert stage.name == "hash check"
    assert stage.detail.startswith("cached")


def test_a_file_changed_since_it_was_verified_is_hashed_again(tmp_path: Path) -> None:
    models = tmp_path / "models"
    path = _model_file(models)
    index = VerifiedIndex(models)
    index.record(path, sha256_file(path).hexdigest(), reference="hub")
    _touch_later(path)
    assert index.state(path) is VerifyState.CHANGED
    fractions: list[float] = []
    stage = check_hash(path, models, progress=fractions.append)
    assert "hashed again" in stage.detail
    assert fractions[-1] == 1.0
    assert index.state(path) is VerifyState.VERIFIED


@pytest.mark.expected_log("app.core.models.hashing", logging.WARNING, "Hash mismatch for .*: recorded")
def test_a_damaged_file_is_refused_before_llama_cpp_sees_it(tmp_path: Path) -> None:
    models = tmp_path / "models"
    path = _model_file(models)
    VerifiedIndex(models).record(path, sha256_file(path).hexdigest(), reference="hub")
    path.write_bytes(b"GGUF" + b"\1" * 4096)
    _touch_later(path)
    with pytest.raises(ModelFileError, match="damaged or was changed"):
        check_hash(path, models)


def test_cancelling_while_hashing_cancels_the_load(tmp_path: Path) -> None:
    models = tmp_path / "models"
    path = _model_file(models)
    VerifiedIndex(models).record(path, sha256_file(path).hexdigest(), reference="hub")
    _touch_later(path)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(LoadCancelled):
        check_hash(path, models, cancel)


def test_a_file_without_a_record_says_it_is_not_verified(tmp_path: Path) -> None:
    path = _model_file(tmp_path / "models")
    assert "no hash on record" in check_hash(path, tmp_path / "models").detail


def test_gpu_offload_is_read_from_the_gpu_builds_summary_line() -> None:
    lines = [
        "load_tensors: layer   0 assigned to device CUDA0, is_swa = 0",
        "load_tensors: offloading 28 repeating layers to GPU",
        "load_tensors: offloaded 29/33 layers to GPU",
    ]
    assert offload_counts(lines) == (29, 33)


def test_gpu_offload_is_counted_from_layer_placement_when_no_summary_is_printed() -> None:
    devices = ["CUDA0", "CUDA0", "CUDA0", "CPU", "CPU"]
    lines = [f"load_tensors: layer {i:3d} assigned to device {device}, is_swa = 0" for i, device in enumerate(devices)]
    assert offload_counts(lines) == (3, 5)
    assert offload_counts(["print_info: n_layer = 30"]) == (0, 0)


@pytest.mark.parametrize(
    ("template", "family"),
    [
        ("{{ '<|im_start|>' + message['role'] }}", "ChatML"),
        ("<|start_header_id|>{{ role }}<|end_header_id|>", "Llama 3"),
        ("[INST] {{ content }} [/INST]", "Mistral / Llama 2"),
        ("<start_of_turn>user", "Gemma"),
        ("{{ messages }}", "custom"),
    ],
)
def test_the_chat_template_family_is_named_by_its_markers(template: str, family: str) -> None:
    assert detect_template_family(template) == family
