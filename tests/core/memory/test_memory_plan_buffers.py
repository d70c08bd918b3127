"""Reading llama.cpp's buffer-size log lines (the ground truth the planner is checked against)."""

from __future__ import annotations

from pathlib import Path

from app.core.inference.engine import Engine
from app.core.inference.llama_buffers import MIB, capture_llama_buffers, is_host_buffer, parse_buffer_lines
from app.core.types.load import LoadConfig

# Lines as a CUDA build of llama.cpp prints them for a partly offloaded model.
CUDA_LOG = """\
load_tensors: offloading 20 repeating layers to GPU
load_tensors:   CPU_Mapped model buffer size =   250.50 MiB
load_tensors:        CUDA0 model buffer size =  1500.25 MiB
llama_context:  CUDA_Host  output buffer size =     0.49 MiB
llama_kv_cache:      CUDA0 KV buffer size =   160.00 MiB
llama_kv_cache:        CPU KV buffer size =    96.00 MiB
llama_kv_cache: size =  256.00 MiB (  4096 cells,  32 layers,  1/1 seqs), K (f16):  128.00 MiB, V (f16):  128.00 MiB
sched_reserve: reserving ...
sched_reserve:      CUDA0 compute buffer size =   300.00 MiB
sched_reserve:  CUDA_Host compute buffer size =    20.00 MiB
sched_reserve: reserving ...
sched_reserve:      CUDA0 compute buffer size =   296.00 MiB
sched_reserve:  CUDA_Host compute buffer size =    16.00 MiB
""".splitlines()


def test_cuda_lines_split_into_device_and_host_bytes() -> None:
    buffers = parse_buffer_lines(CUDA_LOG)

    assert buffers.model == {"CPU_Mapped": round(250.50 * MIB), "CUDA0": round(1500.25 * MIB)}
    assert buffers.kv_bytes == 256 * MIB
    assert buffers.compute == {"CUDA0": 296 * MIB, "CUDA_Host": 16 * MIB}  # the last reservation holds
    assert buffers.device_bytes() == round((1500.25 + 160 + 296) * MIB)
    assert buffers.device_split() == {"model": round(1500.25 * MIB), "KV": 160 * MIB, "compute": 296 * MIB, "output": 0}
    assert buffers.host_bytes() == round((250.50 + 0.49 + 96 + 16) * MIB)
    (summary,) = buffers.kv_caches
    assert (summary.cells, summary.layers, summary.k_type, summary.v_type) == (4096, 32, "f16", "f16")


def test_host_buffers_are_cpu_ones_and_pinned_host_ones() -> None:
    assert is_host_buffer("CPU_Mapped") and is_host_buffer("CPU_REPACK") and is_host_buffer("CUDA_Host")
    assert not is_host_buffer("CUDA0") and not is_host_buffer("Vulkan1")


def test_lines_about_other_things_are_ignored() -> None:
    buffers = parse_buffer_lines(
        ["print_info: file size   = 92.10 MiB (5.74 BPW)", "load: token to piece cache size = 0.3170 MB"]
    )
    assert not buffers.seen


def test_a_real_load_is_captured_from_the_llama_cpp_log(starter_model: Path) -> None:
    engine = Engine()
    try:
        with capture_llama_buffers() as buffers:
            engine.load(LoadConfig(starter_model, n_ctx=1024))
    finally:
        engine.close()

    assert round(buffers.model_bytes / MIB, 2) == 92.10
    assert buffers.kv_bytes == 22.5 * MIB
    assert buffers.compute_bytes > 0 and buffers.device_bytes() == 0
    (summary,) = buffers.kv_caches
    assert summary.cells == 1024 and summary.layers == 30
