"""Loading with fewer GPU layers when memory runs out: halve, then step down, then the CPU."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from app.core.inference.engine import Engine
from app.core.memory.fallback import (
    FallbackStep,
    OutOfMemoryError,
    fallback_layers,
    is_out_of_memory,
    load_with_fallback,
)
from app.core.models.validation import ModelFileError
from app.core.types.errors import LoadCancelled
from app.core.types.load import LoadConfig

CUDA_OOM = (
    "ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1530.00 MiB on device 0: cudaMalloc failed: out of memory"
)


class OomEngine:
    """Loads only when n_gpu_layers <= fits; above that it fails like llama-cpp-python does on CUDA OOM."""

    def __init__(self, fits: int, decode_fits: int | None = None) -> None:
        self.fits = fits
        self.decode_fits = fits if decode_fits is None else decode_fits
        self.attempts: list[int] = []
        self.closed = 0
        self.loaded: LoadConfig | None = None

    def load(self, config: LoadConfig, progress=None, cancel=None) -> str:
        self.attempts.append(config.n_gpu_layers)
        if config.n_gpu_layers > self.fits:
            raise ModelFileError(config.model_path, f"llama.cpp could not load it ({CUDA_OOM})")
        if progress is not None:
            progress(1.0)
        self.loaded = config
        return f"report for {config.n_gpu_layers}"

    def warm_up(self) -> None:
        assert self.loaded is not None
        if self.loaded.n_gpu_layers > self.decode_fits:
            raise RuntimeError("llama_decode returned -3: failed to allocate CUDA0 buffer of size 268435456")

    def close(self) -> None:
        self.closed += 1
        self.loaded = None


def config(n_gpu_layers: int, path: Path = Path("model.gguf")) -> LoadConfig:
    return LoadConfig(path, n_ctx=4096, n_gpu_layers=n_gpu_layers)


def test_the_tries_halve_then_step_down_then_reach_the_cpu() -> None:
    assert fallback_layers(33, 33) == [33, 16, 12, 8, 4, 0]
    assert fallback_layers(-1, 31) == [31, 15, 11, 7, 3, 0]  # -1 means all
    assert fallback_layers(99, 31)[0] == 31
    assert fallback_layers(1, 31) == [1, 0]
    assert fallback_layers(0, 31) == [0]


@pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "ran out of memory .*; trying again")
def test_out_of_memory_on_the_first_tries_loads_with_fewer_layers_and_says_so() -> None:
    engine = OomEngine(fits=12)
    steps: list[FallbackStep] = []

    result = load_with_fallback(engine, config(33), on_step=steps.append, total_layers=33)

    assert engine.attempts == [33, 16, 12]
    assert result.config.n_gpu_layers == 12 and result.report == "report for 12"
    assert result.fell_back and result.steps == steps
    assert [s.n_gpu_layers for s in steps] == [33, 16]
    assert [s.next_n_gpu_layers for s in steps] == [16, 12]
    assert steps[0].reason == "cudaMalloc failed: out of memory"
    assert steps[0].message.startswith("Loading with 33 GPU layers ran out of memory")
    assert steps[0].message.endswith("trying again with 16 GPU layers.")
    assert "Not enough GPU memory for 33 GPU layers" in result.message
    assert "Loaded with 12 GPU layers instead" in result.message
    assert "GPU layers is now set to 12" in result.message
    assert engine.closed == 2  # every failed attempt is cleaned up


@pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "ran out of memory .*; trying again")
def test_when_no_gpu_setting_fits_the_model_lands_on_the_cpu_and_the_user_is_told() -> None:
    engine = OomEngine(fits=0)
    result = load_with_fallback(engine, config(33), total_layers=33)

    assert engine.attempts == [33, 16, 12, 8, 4, 0]
    assert result.config.n_gpu_layers == 0
    assert "CPU only (0 GPU layers)" in result.message and "slower" in result.message
    assert result.steps[-1].message.endswith("trying again on the CPU only.")


def test_a_load_that_fits_reports_no_fallback() -> None:
    result = load_with_fallback(OomEngine(fits=40), config(33), total_layers=33)
    assert not result.fell_back and result.message == ""
    assert result.config == result.requested


@pytest.mark.expected_log(
    "app.core.memory.fallback", logging.WARNING, "First decode with 33 GPU layers ran out of memory"
)
def test_out_of_memory_on_the_first_decode_also_steps_down() -> None:
    engine = OomEngine(fits=33, decode_fits=20)
    steps: list[FallbackStep] = []
    result = load_with_fallback(engine, config(33), on_step=steps.append, total_layers=33)

    assert engine.attempts == [33, 16]
    assert result.config.n_gpu_layers == 16
    assert steps[0].during == "first decode"
    assert steps[0].message.startswith("First decode with 33 GPU layers ran out of memory")


def test_a_failure_that_is_not_about_memory_is_raised_at_once(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.gguf"
    damaged.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\xff" * 40)
    engine = Engine()
    with pytest.raises(ModelFileError):
        load_with_fallback(engine, config(20, damaged), total_layers=31)
    assert not engine.is_loaded


@pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "ran out of memory .*; trying again")
def test_cancelling_between_attempts_stops_the_fallback() -> None:
    cancel = threading.Event()
    engine = OomEngine(fits=0)
    with pytest.raises(LoadCancelled):
        load_with_fallback(engine, config(33), on_step=lambda step: cancel.set(), cancel=cancel, total_layers=33)
    assert engine.attempts == [33]


@pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "ran out of memory .*; trying again")
def test_all_layers_are_counted_from_the_model_file(starter_model: Path) -> None:
    engine = OomEngine(fits=10)
    result = load_with_fallback(engine, config(-1, starter_model))
    assert engine.attempts == [31, 15, 11, 7]  # 30 blocks + output head
    assert result.config.n_gpu_layers == 7


@pytest.mark.expected_log("llama.cpp", logging.WARNING, r"n_ctx_seq \(\d+\) > n_ctx_train \(\d+\)")
@pytest.mark.expected_log("llama.cpp", logging.ERROR, "ggml_aligned_malloc: insufficient memory")
@pytest.mark.expected_log("llama.cpp", logging.ERROR, "failed to allocate (CPU )?buffer of size")
@pytest.mark.expected_log("llama.cpp", logging.ERROR, "llama_init_from_model: failed to initialize the context")
@pytest.mark.expected_log("app.core.memory.fallback", logging.WARNING, "Loading with 0 GPU layers ran out of memory")
def test_running_out_of_memory_even_on_the_cpu_is_a_clear_error(starter_model: Path) -> None:
    """Real llama.cpp: a 16M-token context needs a 360 GiB KV cache, which no test machine has."""
    engine = Engine()
    steps: list[FallbackStep] = []
    with pytest.raises(OutOfMemoryError, match=r"even on the CPU .*Lower the context length"):
        load_with_fallback(engine, LoadConfig(starter_model, n_ctx=2**24), on_step=steps.append)
    assert [s.n_gpu_layers for s in steps] == [0] and steps[0].next_n_gpu_layers is None
    assert "allocate" in steps[0].reason  # read from llama.cpp's log, not from the exception
    assert not engine.is_loaded


def test_the_real_engine_loads_through_the_fallback_and_warms_up(starter_model: Path) -> None:
    engine = Engine()
    try:
        result = load_with_fallback(engine, LoadConfig(starter_model, n_ctx=512))
        assert engine.is_loaded and not result.fell_back
        assert result.report.config.n_ctx == 512
        assert engine.llama.n_tokens == 0  # the warm-up decode leaves no tokens behind
    finally:
        engine.close()


@pytest.mark.parametrize(
    "text",
    [
        "cudaMalloc failed: out of memory",
        "ggml_vulkan: Device memory allocation of size 123 failed. vk::Device::allocateMemory: ErrorOutOfDeviceMemory",
        "llama_model_load: error loading model: unable to allocate CUDA0 buffer",
        "ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 1073741824",
    ],
)
def test_out_of_memory_is_recognised_in_the_log(text: str) -> None:
    assert is_out_of_memory(ValueError("Failed to load model from file"), ["some line", text])


def test_other_failures_are_not_mistaken_for_out_of_memory() -> None:
    assert is_out_of_memory(ValueError("Failed to load model from file"), ["unknown model architecture: 'foo'"]) == ""
    assert is_out_of_memory(MemoryError(), []) == "the system is out of memory"
