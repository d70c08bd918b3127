"""What parallel slots and a vision projector add to the memory plan, and how many slots `serve` opens untold."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from gguf.constants import GGMLQuantizationType

from app.bench.synthetic_projector import SyntheticProjector, write_synthetic_projector
from app.core.memory.fit import RAM_RESERVE, Machine
from app.core.memory.planner import GIB, MIB, ContextSettings, MemoryPlanner
from app.core.memory.projector_memory import ProjectorMemory, projector_memory
from app.core.memory.slots_fit import MAX_DEFAULT_SLOTS, default_parallel, slots_memory
from app.core.models.gguf_info import GgufInfo, TensorInfo, read_gguf_info
from app.core.types.load import LoadConfig
from tests.core.memory.test_memory_plan import model

F16 = GGMLQuantizationType.F16
CONTEXT = ContextSettings(n_ctx=4096)


def projector_info(image_size: int = 224, patch_size: int = 14, heads: int = 16, weights: int = 600 * MIB) -> GgufInfo:
    """A projector header: a ViT over image_size / patch_size squared patches, its weights in one tensor."""
    metadata = {
        "general.architecture": "clip",
        "clip.vision.image_size": image_size,
        "clip.vision.patch_size": patch_size,
        "clip.vision.embedding_length": 1024,
        "clip.vision.feed_forward_length": 4096,
        "clip.vision.attention.head_count": heads,
    }
    tensors = (TensorInfo("v.blk.0.ffn_up.weight", (weights // 2,), F16, 0, weights),)
    return GgufInfo(Path("mmproj.gguf"), 0, 3, 32, 0, metadata, tensors)


# ---- parallel slots ---------------------------------------------------------------------


def test_one_slot_adds_nothing_to_the_plan() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    assert planner.plan(2, replace(CONTEXT, parallel=1)) == planner.plan(2, CONTEXT)


def test_the_slots_share_one_context_of_n_ctx_cells_whatever_their_number() -> None:
    """As llama-server splits its context: 4 slots hold n_ctx // 4 tokens each, not n_ctx each."""
    planner = MemoryPlanner(model([100, 200, 300]))
    two = planner.plan(0, replace(CONTEXT, parallel=2))
    four = planner.plan(0, replace(CONTEXT, parallel=4))
    assert two.cpu_slots_kv == four.cpu_slots_kv == planner.kv_bytes(CONTEXT)


def test_with_slots_the_kv_cache_is_there_twice_once_for_the_chat_and_once_for_the_slots() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    alone = planner.plan(0, CONTEXT)
    served = planner.plan(0, replace(CONTEXT, parallel=4))
    assert served.cpu_kv == alone.cpu_kv  # the chat context's own cache is unchanged
    assert served.cpu_kv + served.cpu_slots_kv == 2 * alone.cpu_kv
    assert served.cpu_total > alone.cpu_total + alone.cpu_kv  # the slots' compute buffer comes on top


def test_the_slots_kv_lives_where_the_layers_live() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    served = planner.plan(2, replace(CONTEXT, parallel=4))
    assert served.gpu_slots_kv == served.gpu_kv > 0
    assert served.cpu_slots_kv == served.cpu_kv > 0
    assert served.gpu_total - planner.plan(2, CONTEXT).gpu_total == served.gpu_slots_kv + planner.compute_bytes(CONTEXT)


def test_each_slot_adds_a_row_of_logits_and_nothing_else() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    two = planner.plan(0, replace(CONTEXT, parallel=2))
    four = planner.plan(0, replace(CONTEXT, parallel=4))
    assert four.cpu_total - two.cpu_total == 2 * planner.output_buffer_bytes()


def test_what_the_slots_add_is_the_plan_with_them_less_the_plan_without() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    added = slots_memory(planner, 2, CONTEXT, 4)
    served, alone = planner.plan(2, replace(CONTEXT, parallel=4)), planner.plan(2, CONTEXT)
    assert added.gpu_bytes == served.gpu_total - alone.gpu_total
    assert added.ram_bytes == served.cpu_total - alone.cpu_total


# ---- serve's default --parallel -----------------------------------------------------------


def test_serve_opens_four_slots_when_they_fit_and_the_context_holds_1024_tokens_each() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    machine = Machine(free_vram=None, free_ram=RAM_RESERVE + 4 * GIB, gpus=0)
    assert default_parallel(planner, machine, 0, ContextSettings(n_ctx=16384)) == MAX_DEFAULT_SLOTS == 4
    assert default_parallel(planner, machine, 0, ContextSettings(n_ctx=2048)) == 2
    assert default_parallel(planner, machine, 0, ContextSettings(n_ctx=1536)) == 1


def test_serve_writes_one_reply_at_a_time_when_the_slots_do_not_fit_in_ram() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    needed = slots_memory(planner, 0, CONTEXT, 4).ram_bytes
    tight = Machine(free_vram=None, free_ram=RAM_RESERVE + needed - 1, gpus=0)
    roomy = Machine(free_vram=None, free_ram=RAM_RESERVE + needed, gpus=0)
    assert default_parallel(planner, tight, 0, CONTEXT) == 1
    assert default_parallel(planner, roomy, 0, CONTEXT) == 4


def test_serve_writes_one_reply_at_a_time_when_the_slots_do_not_fit_in_the_free_vram() -> None:
    planner = MemoryPlanner(model([100, 200, 300]))
    needed = slots_memory(planner, -1, CONTEXT, 4).gpu_bytes
    assert needed > 0
    assert default_parallel(planner, Machine(needed - 1, 64 * GIB), -1, CONTEXT) == 1
    assert default_parallel(planner, Machine(needed, 64 * GIB), -1, CONTEXT) == 4


# ---- the vision projector ----------------------------------------------------------------


def test_a_projector_takes_its_weights_and_an_image_encoder_that_grows_with_the_patches_squared() -> None:
    small = projector_memory(projector_info(image_size=224))  # 16 x 16 = 256 patches
    large = projector_memory(projector_info(image_size=448))  # 1,024 patches
    assert small.weights == large.weights == 600 * MIB
    assert (small.image_tokens, large.image_tokens) == (256, 1024)
    assert small.compute == 256 * (256 * 16 + 3 * 1024 + 4096) * 4
    assert large.compute == 1024 * (1024 * 16 + 3 * 1024 + 4096) * 4  # the scores: patches x patches per head


def test_a_gemma_3_sized_projector_needs_about_the_gigabyte_llama_cpp_reserves_for_its_encoder() -> None:
    """Gemma 3's SigLIP: 896 px in 14 px patches (4,096 patches), 16 heads, 1,152 wide, 4,304 feed-forward;
    llama.cpp's log reports a compute buffer of about 1.1 GiB for it without flash attention."""
    info = projector_info(image_size=896, patch_size=14, heads=16)
    memory = projector_memory(replace(info, metadata={**info.metadata, "clip.vision.embedding_length": 1152}))
    assert 1.0 * GIB < memory.compute < 1.2 * GIB


def test_flash_attention_drops_the_image_encoders_attention_scores() -> None:
    plain = projector_memory(projector_info(), flash_attn=False)
    flash = projector_memory(projector_info(), flash_attn=True)
    assert flash.compute == 256 * (3 * 1024 + 4096) * 4 < plain.compute


def test_a_projector_lives_on_the_gpu_when_any_layer_does_and_in_ram_otherwise() -> None:
    projector = ProjectorMemory(weights=600 * MIB, compute=100 * MIB, image_tokens=256)
    planner = MemoryPlanner(model([100, 200, 300]), projector=projector)
    on_gpu = planner.plan(1, CONTEXT)
    on_cpu = planner.plan(0, CONTEXT)
    assert (on_gpu.gpu_projector, on_gpu.cpu_projector) == (700 * MIB, 0)
    assert (on_cpu.gpu_projector, on_cpu.cpu_projector) == (0, 700 * MIB)
    without = MemoryPlanner(model([100, 200, 300])).plan(1, CONTEXT)
    assert on_gpu.gpu_total - without.gpu_total == 700 * MIB


def test_an_images_tokens_add_no_kv_cache_beyond_n_ctx() -> None:
    """They are context tokens: the KV cache for n_ctx holds them, with or without a projector."""
    projector = ProjectorMemory(weights=600 * MIB, compute=100 * MIB, image_tokens=4096)
    with_projector = MemoryPlanner(model([100, 200, 300]), projector=projector).plan(0, CONTEXT)
    without = MemoryPlanner(model([100, 200, 300])).plan(0, CONTEXT)
    assert with_projector.kv == without.kv


def test_the_plan_for_a_load_with_an_mmproj_reads_the_projector_file(starter_model: Path, tmp_path: Path) -> None:
    spec = SyntheticProjector()
    mmproj = write_synthetic_projector(tmp_path / "mmproj-synthetic.gguf", spec)
    planner = MemoryPlanner.for_load(LoadConfig(starter_model, mmproj=mmproj))
    assert planner.projector is not None
    assert planner.projector.weights == read_gguf_info(mmproj).tensor_bytes
    assert planner.projector.image_tokens == spec.image_tokens
    assert MemoryPlanner.for_load(LoadConfig(starter_model)).projector is None


@pytest.mark.parametrize("broken", ["no patch size", "no heads"])
def test_a_projector_header_without_its_shapes_counts_its_weights_and_no_encoder(broken: str) -> None:
    info = projector_info()
    key = "clip.vision.patch_size" if broken == "no patch size" else "clip.vision.attention.head_count"
    metadata = {name: value for name, value in info.metadata.items() if name != key}
    memory = projector_memory(replace(info, metadata=metadata))
    assert memory.weights == 600 * MIB
    if broken == "no patch size":
        assert memory.compute == memory.image_tokens == 0
    else:
        assert memory.compute == 256 * (3 * 1024 + 4096) * 4
