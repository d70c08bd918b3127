"""The log: an in-memory buffer for the Logs panel, the rotating file, and diagnostics for bug reports."""

from __future__ import annotations

import logging
import logging.handlers
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.diagnostics.report import DiagnosticsInput, diagnostics_text
from app.core.inference.engine import Engine
from app.core.inference.sampling import SamplingParams
from app.core.memory.hardware import GpuSnapshot, GpuState, HardwareSnapshot, OffloadSupport, RamSnapshot
from app.core.paths import app_paths
from app.core.support.log_buffer import LLAMA_LOGGER, LogBuffer
from app.core.support.logging_setup import LOG_FILE_NAME, setup_logging
from app.core.types.errors import LoadCancelled
from app.core.types.load import LoadConfig, LoadReport, LoadStage


@pytest.fixture
def buffer(caplog: pytest.LogCaptureFixture) -> Iterator[LogBuffer]:
    caplog.set_level(logging.DEBUG)
    handler = LogBuffer(capacity=100)
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)


@pytest.mark.expected_log("app.test", logging.WARNING, "^second$")
def test_the_buffer_hands_out_what_is_new_since_the_last_look(buffer: LogBuffer) -> None:
    log = logging.getLogger("app.test")
    log.info("first")
    seen = buffer.last_seq
    log.warning("second")
    log.debug("third")
    newer = buffer.entries_since(seen)
    assert [entry.message for entry in newer] == ["second", "third"]
    assert [entry.level_name for entry in newer] == ["WARNING", "DEBUG"]
    assert buffer.entries_since(buffer.last_seq) == []


@pytest.mark.expected_log("app.test", logging.ERROR, "^the disk is full$")
def test_the_buffer_keeps_only_the_latest_records_but_the_errors_survive_a_flood(buffer: LogBuffer) -> None:
    log = logging.getLogger("app.test")
    log.error("the disk is full")
    for i in range(250):
        log.debug("chatter %d", i)
    entries = buffer.entries()
    assert len(entries) == 100
    assert entries[-1].message == "chatter 249"
    assert [entry.message for entry in buffer.recent_errors()] == ["the disk is full"]


@pytest.mark.expected_log("app.test", logging.ERROR, "^it broke$")
def test_a_logged_exception_keeps_its_traceback(buffer: LogBuffer) -> None:
    try:
        raise ValueError("bad value")
    except ValueError:
        logging.getLogger("app.test").exception("it broke")
    entry = buffer.recent_errors()[-1]
    assert entry.message.startswith("it broke\nTraceback")
    assert "ValueError: bad value" in entry.format()


def test_llama_cpps_own_lines_arrive_in_the_buffer_as_their_own_source(buffer: LogBuffer, starter_model: Path) -> None:
    cancel = threading.Event()
    with pytest.raises(LoadCancelled):
        Engine().load(LoadConfig(starter_model, n_ctx=256), progress=lambda _f: cancel.set(), cancel=cancel)
    llama_lines = [entry for entry in buffer.entries() if entry.source == LLAMA_LOGGER]
    assert any("cancelled model load" in entry.message for entry in llama_lines)


def test_the_log_file_lives_in_the_log_folder_and_rotates() -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        path = setup_logging(app_paths().logs)
        assert path == app_paths().logs / LOG_FILE_NAME
        handler = next(h for h in root.handlers if isinstance(h, logging.handlers.RotatingFileHandler))
        handler.maxBytes = 2000
        for i in range(60):
            logging.getLogger("app.test").info("line %03d %s", i, "x" * 60)
        handler.flush()
        assert "line 059" in path.read_text(encoding="utf-8")
        assert path.with_name(LOG_FILE_NAME + ".1").is_file()
    finally:
        for handler in root.handlers[:]:
            if handler not in before:
                root.removeHandler(handler)
                handler.close()


def _report(tmp_path: Path) -> LoadReport:
    model = tmp_path / "tiny-model.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 100)
    report = LoadReport(LoadConfig(model, n_ctx=4096, n_gpu_layers=12), n_layers=30, n_ctx_train=8192)
    report.stages = [LoadStage("hash check", 0.002, "cached"), LoadStage("load weights", 0.25, "memory-mapped", 0.1)]
    return report


@pytest.mark.expected_log("app.downloads", logging.ERROR, r"Download of model\.gguf failed: connection reset")
def test_diagnostics_cover_versions_hardware_model_settings_and_the_last_errors(
    buffer: LogBuffer, tmp_path: Path
) -> None:
    logging.getLogger("app.downloads").error("Download of model.gguf failed: connection reset")
    hardware = HardwareSnapshot(
        GpuState.AVAILABLE,
        "",
        (GpuSnapshot(0, "NVIDIA Test 24GB", 24 * 1024**3, 2 * 1024**3, 22 * 1024**3),),
        RamSnapshot(total=32 * 1024**3, available=20 * 1024**3, process_rss=1024**3),
        driver_version="555.42",
        offload=OffloadSupport(True),
    )
    text = diagnostics_text(
        DiagnosticsInput(
            load_report=_report(tmp_path),
            sampling=SamplingParams(temperature=0.3),
            settings={"model": {"n_ctx": 4096}},
            hardware=hardware,
            errors=buffer.recent_errors(),
            log_file=tmp_path / "glassbox.log",
            qt_version="6.11.3",
            qt_platform="offscreen",
        )
    )
    assert "llama-cpp-python 0.3.36" in text
    assert "Qt 6.11.3" in text and "platform plugin offscreen" in text
    assert "llama.cpp system info:" in text
    assert "numpy " in text
    assert "NVIDIA Test 24GB, 24.0 GiB VRAM" in text and "driver 555.42" in text
    assert "RAM: 32.0 GiB total" in text
    assert "tiny-model.gguf" in text and "n_gpu_layers 12" in text
    assert "load weights: 250.0 ms  memory-mapped" in text
    assert "temperature 0.3" in text
    assert '"n_ctx": 4096' in text
    assert "Download of model.gguf failed: connection reset" in text
    assert str(tmp_path / "glassbox.log") in text


def test_diagnostics_without_a_model_or_hardware_still_read_well() -> None:
    text = diagnostics_text(DiagnosticsInput())
    assert "no model loaded" in text
    assert "GPU and RAM: not measured" in text
    assert "## Last errors and warnings\nnone" in text
