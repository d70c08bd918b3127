"""Load options: flash attention, cache types, n_ubatch, mmap/mlock, RoPE; the defaults are those of before."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import llama_cpp
import pytest

from app.core.inference.engine import Engine
from app.core.inference.llama_buffers import capture_llama_buffers
from app.core.inference.load_options import llama_options
from app.core.inference.sampling import GREEDY
from app.core.memory.planner import ContextSettings, MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.types.errors import EngineError
from app.core.types.load import LoadConfig, LoadReport
from app.core.types.messages import ChatMessage
from app.core.types.replies import final_reply

CONTEXT_FIELDS = ("flash_attn_type", "type_k", "type_v", "n_ubatch", "n_batch", "rope_freq_base", "rope_freq_scale")


def _loaded(config: LoadConfig) -> Engine:
    engine = Engine()
    engine.load(config)
    return engine


def test_without_options_llama_cpp_gets_the_settings_of_a_plain_llama_cpp_python_load(starter_model: Path) -> None:
    engine = _loaded(LoadConfig(starter_model, n_ctx=512, n_threads=2))
    plain = llama_cpp.Llama(model_path=str(starter_model), n_ctx=512, n_threads=2, verbose=False)
    try:
        for name in CONTEXT_FIELDS:
            assert getattr(engine.llama.context_params, name) == getattr(plain.context_params, name), name
        assert engine.llama.model_params.load_mode == plain.model_params.load_mode == llama_cpp.LLAMA_LOAD_MODE_MMAP
    finally:
        plain.close()
        engine.close()


def test_the_options_reach_llama_cpp(starter_model: Path) -> None:
    config = LoadConfig(
        starter_model,
        n_ctx=512,
        flash_attn=True,
        type_k="q8_0",
        type_v="q4_0",
        n_ubatch=128,
        use_mmap=False,
        rope_freq_base=20000.0,
        rope_freq_scale=0.5,
        rope_scaling="yarn",
    )
    engine = _loaded(config)
    try:
        params = engine.llama.context_params
        assert params.flash_attn_type == llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED
        assert (params.type_k, params.type_v) == (llama_cpp.GGML_TYPE_Q8_0, llama_cpp.GGML_TYPE_Q4_0)
        assert llama_cpp.llama_n_ubatch(engine.llama.ctx) == 128
        assert (params.rope_freq_base, params.rope_freq_scale) == (20000.0, 0.5)
        assert params.rope_scaling_type == llama_cpp.LLAMA_ROPE_SCALING_TYPE_YARN
        assert engine.llama.model_params.load_mode == llama_cpp.LLAMA_LOAD_MODE_NONE
    finally:
        engine.close()


def test_a_quantized_cache_takes_less_memory_and_the_model_still_answers(starter_model: Path) -> None:
    sizes = {}
    for cache in ("f16", "q8_0"):
        with capture_llama_buffers() as buffers:
            engine = _loaded(LoadConfig(starter_model, n_ctx=1024, flash_attn=True, type_k=cache, type_v=cache))
        try:
            (summary,) = buffers.kv_caches
            assert (summary.k_type, summary.v_type) == (cache, cache)
            sizes[cache] = summary.total_bytes
            hello = [ChatMessage("user", "Say hello.")]
            done = final_reply(engine.stream_chat(hello, replace(GREEDY, max_tokens=8), threading.Event()))
            assert done.stats.completion_tokens > 0 and done.text.strip()
        finally:
            engine.close()
    assert sizes["q8_0"] < 0.6 * sizes["f16"]
    # The memory plan follows the cache types as the load does.
    f16, q8 = (ContextSettings.for_config(LoadConfig(starter_model, n_ctx=1024, type_k=c, type_v=c)) for c in sizes)
    assert (q8.type_k, q8.type_v) == ("q8_0", "q8_0") and f16.type_k == "f16"


def test_the_memory_plan_follows_flash_attention_as_llama_cpp_allocates(starter_model: Path) -> None:
    # At a long context the attention scores outgrow the logits, unless flash attention tiles them.
    planner = MemoryPlanner(read_gguf_info(starter_model))
    for flash in (False, True):
        config = LoadConfig(starter_model, n_ctx=8192, flash_attn=flash, n_threads=1)
        with capture_llama_buffers() as buffers:
            _loaded(config).close()
        planned = planner.compute_bytes(ContextSettings.for_config(config))
        assert planned == pytest.approx(buffers.compute_bytes, rel=0.05), flash
    assert ContextSettings.for_config(config).flash_attn


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"type_v": "q4_0"}, "A q4_0 V cache needs flash attention"),
        ({"type_k": "q5_1"}, "The K cache type must be one of f16, q8_0, q4_0, not “q5_1”."),
        ({"n_ubatch": 0}, "n_ubatch must be at least 1"),
        ({"rope_freq_scale": -1.0}, "RoPE frequency base and scale must be 0"),
        ({"rope_scaling": "ntk"}, "RoPE scaling must be one of model, none, linear, yarn, not “ntk”."),
    ],
)
def test_options_llama_cpp_cannot_use_are_refused_with_the_reason_before_it_runs(
    tmp_path: Path, options: dict[str, object], message: str
) -> None:
    # The file does not even exist: the options are checked first.
    engine = Engine()
    with pytest.raises(EngineError, match=message):
        engine.load(LoadConfig(tmp_path / "missing.gguf", **options))  # type: ignore[arg-type]
    assert not engine.is_loaded


def test_a_context_longer_than_the_training_length_is_flagged(tmp_path: Path) -> None:
    report = LoadReport(config=LoadConfig(tmp_path / "m.gguf", n_ctx=16384), n_ctx_train=8192)
    assert report.context_past_training
    assert not LoadReport(config=LoadConfig(tmp_path / "m.gguf", n_ctx=8192), n_ctx_train=8192).context_past_training
    assert not LoadReport(config=LoadConfig(tmp_path / "m.gguf", n_ctx=4096)).context_past_training  # not known


def test_the_memory_plan_takes_n_ubatch_from_the_config_as_llama_cpp_does(tmp_path: Path) -> None:
    config = LoadConfig(tmp_path / "m.gguf", n_ctx=2048, n_batch=256, n_ubatch=512)
    assert ContextSettings.for_config(config).n_ubatch == 256  # llama.cpp never computes more than n_batch at once
    assert ContextSettings.for_config(replace(config, n_ubatch=64)).n_ubatch == 64
    assert ContextSettings.for_config(LoadConfig(tmp_path / "m.gguf", n_ctx=2048)) == ContextSettings.for_load(2048)


def test_mlock_is_asked_of_llama_cpp_python_with_the_mapping_kept(tmp_path: Path) -> None:
    # Not loaded here: locking 98 MB may exceed this container's RLIMIT_MEMLOCK (llama.cpp then warns).
    options = llama_options(LoadConfig(tmp_path / "m.gguf", use_mlock=True))
    assert options["use_mlock"] is True and options["use_mmap"] is True
