"""The memory planner's arithmetic: where each byte goes for every n_gpu_layers and n_ctx."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from gguf.constants import GGMLQuantizationType

from app.core.memory.planner import (
    DEFAULT_RUNTIME_OVERHEAD,
    GIB,
    MIB,
    ContextSettings,
    Headroom,
    MemoryPlanner,
)
from app.core.models.gguf_info import GgufInfo, TensorInfo

F32 = GGMLQuantizationType.F32
F16 = GGMLQuantizationType.F16


def model(
    layer_sizes: list[int],
    embedding: int = 1000,
    output: int | None = 3000,
    heads: int = 8,
    kv_heads: int = 2,
    n_embd: int = 512,
    arch: str = "llama",
    extra: dict | None = None,
) -> GgufInfo:
    """A model whose tensor sizes are given directly (layer i: one tensor of layer_sizes[i] bytes)."""
    tensors = [TensorInfo("token_embd.weight", (n_embd, 100), F16, 0, embedding)]
    tensors += [TensorInfo(f"blk.{i}.ffn_up.weight", (size // 2,), F16, 0, size) for i, size in enumerate(layer_sizes)]
    tensors.append(TensorInfo("output_norm.weight", (n_embd,), F32, 0, n_embd * 4))
    if output is not None:
        tensors.append(TensorInfo("output.weight", (n_embd, 100), F16, 0, output))
    metadata = {
        "general.architecture": arch,
        f"{arch}.block_count": len(layer_sizes),
        f"{arch}.embedding_length": n_embd,
        f"{arch}.feed_forward_length": 4 * n_embd,
        f"{arch}.attention.head_count": heads,
        f"{arch}.attention.head_count_kv": kv_heads,
        f"{arch}.vocab_size": 32000,
        **(extra or {}),
    }
    return GgufInfo(Path("m.gguf"), 0, 3, 32, 0, metadata, tuple(tensors))


def test_zero_gpu_layers_keeps_everything_in_ram() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    plan = planner.plan(0, 1024)

    assert plan.gpu_total == 0
    assert plan.cpu_weights == 1000 + 600 + 512 * 4 + 3000
    assert plan.cpu_kv == planner.kv_bytes(ContextSettings(1024))
    assert plan.cpu_compute == planner.compute_bytes(ContextSettings(1024)) + planner.output_buffer_bytes()


def test_layers_are_offloaded_from_the_last_block_backwards() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    assert planner.plan(1, 1024).gpu_weights == 300
    assert planner.plan(2, 1024).gpu_weights == 500
    assert planner.plan(3, 1024).gpu_weights == 600  # all blocks, output head still on the CPU


def test_all_means_every_block_plus_the_output_head() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    assert planner.max_gpu_layers == 4
    full = planner.plan(-1, 1024)
    assert full.n_gpu_layers == 4 and full.all_on_gpu
    assert full.gpu_weights == 600 + 3000 + 512 * 4
    assert full.cpu_weights == 1000  # the token embedding always stays on the CPU
    assert planner.plan(99, 1024) == full


def test_tied_embeddings_put_a_second_copy_of_the_embedding_on_the_gpu() -> None:
    planner = MemoryPlanner(model([100, 200], output=None))
    assert planner.weight_bytes == 1000 + 300 + 512 * 4  # counted once on the CPU
    full = planner.plan(-1, 1024)
    assert full.gpu_weights == 300 + 512 * 4 + 1000
    assert full.cpu_weights == 1000


def test_kv_cache_follows_its_layer_to_the_gpu() -> None:
    planner = MemoryPlanner(model([100] * 4))
    per_layer = planner.kv_bytes_per_layer(ContextSettings(1024))
    plan = planner.plan(1, 1024)
    assert plan.gpu_kv == per_layer[-1]
    assert plan.cpu_kv == sum(per_layer[:-1])


def test_kv_cache_is_cells_times_key_and_value_rows() -> None:
    planner = MemoryPlanner(model([100] * 4, heads=8, kv_heads=2, n_embd=512))
    # head size 512 / 8 = 64; 2 KV heads; f16 = 2 bytes; K and V
    assert planner.kv_bytes(ContextSettings(1024)) == 4 * 1024 * (64 * 2 * 2) * 2


def test_context_is_padded_to_256_cells_like_llama_cpp() -> None:
    planner = MemoryPlanner(model([100] * 4))
    assert planner.kv_bytes(ContextSettings(1000)) == planner.kv_bytes(ContextSettings(1024))
    assert planner.kv_bytes(ContextSettings(1025)) == planner.kv_bytes(ContextSettings(1280))


def test_a_quantized_k_cache_takes_q8_0_row_sizes() -> None:
    planner = MemoryPlanner(model([100], heads=8, kv_heads=2, n_embd=512))
    # one layer, 1024 cells: K 128 values in q8_0 = 4 blocks of 34 bytes; V 128 f16 values = 256 bytes
    assert planner.kv_bytes(ContextSettings(1024, type_k="q8_0")) == 1024 * (4 * 34 + 256)


def test_an_unknown_cache_type_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="q3_x"):
        MemoryPlanner(model([100])).kv_bytes(ContextSettings(512, type_k="q3_x"))


def test_sliding_window_layers_keep_window_plus_batch_cells_when_swa_full_is_off() -> None:
    info = model([100] * 4, arch="gemma2", extra={"gemma2.attention.sliding_window": 1024})
    planner = MemoryPlanner(info)
    full = planner.kv_bytes_per_layer(ContextSettings(8192))
    windowed = planner.kv_bytes_per_layer(ContextSettings(8192, swa_full=False))
    assert windowed[1] == full[1] and windowed[3] == full[3]  # global layers
    assert windowed[0] == full[0] * (1536 // 256 * 256) // 8192  # 1024 + 512 cells
    assert planner.kv_cells(0, ContextSettings(1024, swa_full=False)) == 1024  # never more than n_ctx


def test_a_layer_without_kv_heads_has_no_cache() -> None:
    planner = MemoryPlanner(model([100] * 3, extra={"llama.attention.head_count_kv": (2, 0, 2)}))
    assert planner.kv_bytes_per_layer(ContextSettings(512))[1] == 0


def test_compute_buffer_grows_with_context_once_attention_outweighs_the_logits() -> None:
    planner = MemoryPlanner(model([100] * 4))
    small, large = planner.compute_bytes(ContextSettings(512)), planner.compute_bytes(ContextSettings(65536))
    assert small == planner.compute_bytes(ContextSettings(1024))  # logits dominate: n_vocab floats per token
    assert large > 2 * small


def test_gpu_plans_carry_the_runtime_overhead_and_calibration_correction() -> None:
    planner = MemoryPlanner(model([100] * 4), correction=-50 * MIB)
    plan = planner.plan(2, 1024)
    assert plan.gpu_overhead == DEFAULT_RUNTIME_OVERHEAD - 50 * MIB
    assert plan.gpu_compute == planner.compute_bytes(ContextSettings(1024))
    assert planner.plan(0, 1024).gpu_overhead == 0


def test_a_cpu_only_run_plans_nothing_on_the_gpu_whatever_is_asked() -> None:
    plan = MemoryPlanner(model([100] * 4)).plan(-1, 1024, gpu=False)
    assert plan.n_gpu_layers == 0 and plan.gpu_total == 0


def test_plans_cover_zero_to_all_and_grow_with_each_layer() -> None:
    planner = MemoryPlanner(model([10 * MIB] * 8))
    plans = planner.plans(4096)
    assert [p.n_gpu_layers for p in plans] == list(range(10))
    totals = [p.gpu_total for p in plans]
    assert totals == sorted(totals)
    assert all(a.cpu_total >= b.cpu_total for a, b in itertools.pairwise(plans[1:]))


def test_recommend_takes_the_most_layers_that_fit_with_the_margin() -> None:
    planner = MemoryPlanner(model([100 * MIB] * 10), runtime_overhead=0)
    context = ContextSettings(512)
    base = planner.plan(1, context).gpu_total - 100 * MIB  # everything but the layers
    assert planner.recommend(context, free_vram=base + 450 * MIB, margin=0) == 4
    assert planner.recommend(context, free_vram=base + 450 * MIB, margin=100 * MIB) == 3
    assert planner.recommend(context, free_vram=10 * GIB) == planner.max_gpu_layers
    assert planner.recommend(context, free_vram=0) == 0


def test_fit_says_fits_tight_or_will_not_fit() -> None:
    plan = MemoryPlanner(model([100 * MIB] * 4)).plan(2, 512)
    assert plan.headroom(plan.gpu_total + 300 * MIB, margin=256 * MIB) is Headroom.FITS
    assert plan.headroom(plan.gpu_total + 100 * MIB, margin=256 * MIB) is Headroom.TIGHT
    assert plan.headroom(plan.gpu_total - 1, margin=256 * MIB) is Headroom.WONT_FIT
    assert MemoryPlanner(model([100] * 4)).plan(0, 512).headroom(0) is Headroom.FITS


def test_context_settings_for_a_load_mirror_the_engine_batch_limits() -> None:
    assert ContextSettings.for_load(4096, 512).n_ubatch == 512
    assert ContextSettings.for_load(256, 512).n_ubatch == 256
    assert ContextSettings.for_load(4096, 2048).n_ubatch == 512  # llama-cpp-python caps n_ubatch
