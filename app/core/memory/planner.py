"""How much VRAM and RAM a model will need, per n_gpu_layers and n_ctx, from the GGUF file alone.

The numbers follow what llama.cpp allocates (checked against its own log in the tests
and in `python -m app bench --section memory_plan`):

- weights: the bytes of each tensor. llama.cpp offloads the *last* n_gpu_layers
  repeating blocks; the token embedding always stays on the CPU; the output head
  (`output.weight`, or a copy of the token embedding when the two are tied) goes to
  the GPU only when n_gpu_layers exceeds the block count, so "all" is blocks + 1.
- KV cache: per layer, cells x (key_length + value_length) x KV heads at the cache
  types' row sizes; cells = n_ctx rounded up to 256. Sliding-window layers keep only
  window + n_ubatch cells unless llama.cpp's `swa_full` (its default) is on.
  With `offload_kqv` (the default) a layer's cache lives where the layer lives.
- compute buffer: the peak of the forward pass for one n_ubatch micro-batch: either
  the logits (n_vocab floats per token) or the attention scores (n_kv x (heads + 1)
  floats per token), plus a few activations. With flash attention the scores are
  computed in tiles and never held whole (llama.cpp's CPU compute buffer for a 32k
  context: 646 MiB without, 98 MiB with), so only the mask row (n_kv floats per token)
  is counted. An estimate, not a replay of ggml-alloc.
- runtime overhead: the CUDA context and libraries, a constant per GPU that
  calibration (measured VRAM after a real load) corrects per model file.
- parallel slots (`ContextSettings.parallel` > 1, app/core/inference/slots.py): the slots
  get a context of their own beside the chat context, as the beam search does. Its n_ctx is
  the load's, shared by the N slots as llama-server shares its context (n_ctx // N each, not
  N x n_ctx); but the chat context keeps its own n_ctx of cells, so with slots the KV cache
  is there twice: once for the chat context, once for all the slots together. Its compute
  buffer is the chat context's again, and its logits buffer holds one row per slot.
- a vision projector (`MemoryPlanner.projector`, projector_memory.py): its weights and its
  image encoder's compute buffer, with the layers on the GPU when any are there. An image's
  tokens are context tokens: their KV is within n_ctx, counted above.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

from app.core.memory.projector_memory import ProjectorMemory, projector_memory
from app.core.models.gguf_info import GgufInfo

if TYPE_CHECKING:
    from app.core.types.load import LoadConfig

MIB = 1024 * 1024
GIB = 1024 * MIB
KV_CELL_PADDING = 256  # llama.cpp pads the context (KV cells) to a multiple of this
# The same figure Ollama sets aside per CUDA device for the context and libraries
# (`MinimumMemory`); calibration replaces it with what this machine really uses.
DEFAULT_RUNTIME_OVERHEAD = 457 * MIB
DEFAULT_SAFETY_MARGIN = 256 * MIB
# llama-cpp-python caps the micro-batch at 512 tokens.
DEFAULT_UBATCH = 512


class Headroom(str, enum.Enum):
    """How a plan sits in the free VRAM: the GPU panel paints its slider with it."""

    FITS = "fits"
    TIGHT = "tight"  # fits, but inside the safety margin
    WONT_FIT = "will not fit"


@dataclass(frozen=True)
class ContextSettings:
    """The context parameters that change memory, with llama.cpp's defaults."""

    n_ctx: int
    n_ubatch: int = DEFAULT_UBATCH
    type_k: str = "f16"
    type_v: str = "f16"
    swa_full: bool = True
    flash_attn: bool = False
    parallel: int = 1  # replies written at once in parallel slots: > 1 adds the slots' context

    @property
    def kv_cells(self) -> int:
        return _pad(max(self.n_ctx, 1), KV_CELL_PADDING)

    @classmethod
    def for_load(cls, n_ctx: int, n_batch: int = DEFAULT_UBATCH) -> ContextSettings:
        """The settings `Engine.load` gives llama.cpp for this n_ctx and n_batch, every load option at its default."""
        return cls(n_ctx=n_ctx, n_ubatch=max(1, min(n_batch, n_ctx, DEFAULT_UBATCH)))

    @classmethod
    def for_config(cls, config: LoadConfig) -> ContextSettings:
        """The settings `Engine.load` gives llama.cpp for `config`, its cache types and n_ubatch included."""
        return cls(
            n_ctx=config.n_ctx,
            n_ubatch=max(1, min(config.n_ubatch, config.n_batch, config.n_ctx)),
            type_k=config.type_k,
            type_v=config.type_v,
            flash_attn=config.flash_attn,
        )


@dataclass(frozen=True)
class MemoryPlan:
    """Bytes one load will take, split by where they live and what they are."""

    n_gpu_layers: int
    n_layers: int  # repeating blocks; n_gpu_layers == n_layers + 1 also offloads the output head
    n_ctx: int
    gpu_weights: int = 0
    gpu_kv: int = 0
    gpu_compute: int = 0
    gpu_overhead: int = 0
    cpu_weights: int = 0
    cpu_kv: int = 0
    cpu_compute: int = 0
    # The parallel slots' KV cache (n_ctx cells for all the slots together); their context's compute buffer is
    # counted in gpu_compute / cpu_compute with the chat context's.
    gpu_slots_kv: int = 0
    cpu_slots_kv: int = 0
    gpu_projector: int = 0  # the vision projector's weights and image encoder
    cpu_projector: int = 0

    @property
    def gpu_total(self) -> int:
        on_gpu = self.gpu_weights + self.gpu_kv + self.gpu_compute + self.gpu_overhead
        return on_gpu + self.gpu_slots_kv + self.gpu_projector

    @property
    def cpu_total(self) -> int:
        return self.cpu_weights + self.cpu_kv + self.cpu_compute + self.cpu_slots_kv + self.cpu_projector

    @property
    def weights(self) -> int:
        return self.gpu_weights + self.cpu_weights

    @property
    def kv(self) -> int:
        return self.gpu_kv + self.cpu_kv

    @property
    def all_on_gpu(self) -> bool:
        return self.n_gpu_layers > self.n_layers

    def headroom(self, free_vram: int, margin: int = DEFAULT_SAFETY_MARGIN) -> Headroom:
        """How this plan sits in `free_vram` bytes (what is free for this app, over all GPUs)."""
        if self.n_gpu_layers == 0 or self.gpu_total + margin <= free_vram:
            return Headroom.FITS
        if self.gpu_total <= free_vram:
            return Headroom.TIGHT
        return Headroom.WONT_FIT


@dataclass
class MemoryPlanner:
    """Plans for one model file. `correction` (bytes, from calibration) is added to GPU use."""

    info: GgufInfo
    runtime_overhead: int = DEFAULT_RUNTIME_OVERHEAD
    correction: int = 0
    projector: ProjectorMemory | None = None  # the vision projector loaded beside the model (its mmproj)
    _layers: list[int] = field(init=False, repr=False)
    _input: int = field(init=False, repr=False)
    _output: int = field(init=False, repr=False)
    _output_on_gpu: int = field(init=False, repr=False)

    @classmethod
    def for_load(cls, config: LoadConfig) -> MemoryPlanner:
        """The planner for `config`'s model file and its projector (when it has one); reads their headers.
        Raises GgufInfoError when a header cannot be read."""
        from app.core.models.gguf_info import read_gguf_info

        projector = None
        if config.mmproj is not None:
            projector = projector_memory(read_gguf_info(config.mmproj), config.flash_attn)
        return cls(read_gguf_info(config.model_path), projector=projector)

    def __post_init__(self) -> None:
        self._layers = self.info.layer_bytes()
        output = [t for t in self.info.tensors if t.layer is None and t.name.startswith("output")]
        self._output = sum(t.n_bytes for t in output)
        self._input = sum(t.n_bytes for t in self.info.tensors if t.layer is None) - self._output
        self._output_on_gpu = self._output
        embedding = self.info.tensor("token_embd.weight")
        if self.info.tensor("output.weight") is None and embedding is not None:
            # Tied embeddings: llama.cpp loads a second copy of the token embedding as the
            # output head; on the CPU both share the one mapped file range.
            self._output_on_gpu += embedding.n_bytes

    @property
    def n_layers(self) -> int:
        return len(self._layers)

    @property
    def max_gpu_layers(self) -> int:
        """The slider's "all": every block and the output head."""
        return self.n_layers + 1

    @property
    def layer_bytes(self) -> list[int]:
        return list(self._layers)

    @property
    def weight_bytes(self) -> int:
        """All weights on the CPU (what llama.cpp's CPU model buffers add up to)."""
        return sum(self._layers) + self._input + self._output

    # ---- KV cache and compute buffer --------------------------------------------------

    def kv_cells(self, layer: int, context: ContextSettings) -> int:
        cells = context.kv_cells
        if not context.swa_full and self.info.is_sliding_window_layer(layer):
            cells = min(cells, _pad(self.info.sliding_window + context.n_ubatch, KV_CELL_PADDING))
        return cells

    def kv_bytes_per_layer(self, context: ContextSettings) -> list[int]:
        key_length, value_length = self.info.key_length, self.info.value_length
        sizes = []
        for layer in range(self.n_layers):
            heads = self.info.head_count_kv_for_layer(layer)
            if heads == 0:
                sizes.append(0)  # a layer without attention (recurrent blocks in hybrids)
                continue
            cells = self.kv_cells(layer, context)
            k_row = _row_bytes(context.type_k, key_length * heads)
            v_row = _row_bytes(context.type_v, value_length * heads)
            sizes.append(cells * (k_row + v_row))
        return sizes

    def kv_bytes(self, context: ContextSettings) -> int:
        return sum(self.kv_bytes_per_layer(context))

    def compute_bytes(self, context: ContextSettings) -> int:
        """Peak scratch memory of one forward pass (see the module docstring)."""
        info = self.info
        activations = 3 * info.embedding_length
        logits = info.vocab_size + activations
        scores = 0 if context.flash_attn else info.head_count  # rows of attention scores held at once
        attention = context.kv_cells * (scores + 1) + activations + info.feed_forward_length
        return context.n_ubatch * 4 * max(logits, attention)

    def host_compute_bytes(self, context: ContextSettings) -> int:
        """The pinned host-side inputs when a GPU runs the graph: mask, embeddings, positions."""
        return context.n_ubatch * 4 * (context.kv_cells + self.info.embedding_length + 1)

    def output_buffer_bytes(self) -> int:
        """The logits of the last token, in RAM."""
        return self.info.vocab_size * 4

    # ---- plans ------------------------------------------------------------------------

    def plan(self, n_gpu_layers: int, context: ContextSettings | int, gpu: bool = True) -> MemoryPlan:
        """Memory for one setting. n_gpu_layers < 0 means all; `gpu=False` for a CPU-only run."""
        if isinstance(context, int):
            context = ContextSettings(n_ctx=context)
        n = self.max_gpu_layers if n_gpu_layers < 0 else min(n_gpu_layers, self.max_gpu_layers)
        if not gpu:
            n = 0
        first_gpu_layer = self.n_layers - min(n, self.n_layers)
        on_gpu = [layer >= first_gpu_layer for layer in range(self.n_layers)]
        kv = self.kv_bytes_per_layer(context)
        output_on_gpu = n > self.n_layers
        plan = MemoryPlan(
            n_gpu_layers=n,
            n_layers=self.n_layers,
            n_ctx=context.n_ctx,
            gpu_weights=sum(size for size, g in zip(self._layers, on_gpu, strict=True) if g)
            + (self._output_on_gpu if output_on_gpu else 0),
            gpu_kv=sum(size for size, g in zip(kv, on_gpu, strict=True) if g),
            cpu_weights=sum(size for size, g in zip(self._layers, on_gpu, strict=True) if not g)
            + self._input
            + (0 if output_on_gpu else self._output),
            cpu_kv=sum(size for size, g in zip(kv, on_gpu, strict=True) if not g),
        )
        on_gpu_device = gpu and n > 0
        if on_gpu_device:
            plan = replace(
                plan,
                gpu_compute=self.compute_bytes(context),
                gpu_overhead=self.runtime_overhead + self.correction,
                cpu_compute=self.host_compute_bytes(context) + self.output_buffer_bytes(),
            )
        else:
            plan = replace(plan, cpu_compute=self.compute_bytes(context) + self.output_buffer_bytes())
        if context.parallel > 1:
            plan = self._with_slots(plan, context, on_gpu_device)
        if self.projector is not None:
            plan = replace(
                plan,
                gpu_projector=self.projector.total if on_gpu_device else 0,
                cpu_projector=0 if on_gpu_device else self.projector.total,
            )
        return plan

    def _with_slots(self, plan: MemoryPlan, context: ContextSettings, on_gpu_device: bool) -> MemoryPlan:
        """`plan` with the slots' context: the chat context's KV and compute again, one logits row per slot."""
        outputs = self.output_buffer_bytes() * context.parallel
        plan = replace(plan, gpu_slots_kv=plan.gpu_kv, cpu_slots_kv=plan.cpu_kv)
        if on_gpu_device:
            return replace(
                plan,
                gpu_compute=plan.gpu_compute + self.compute_bytes(context),
                cpu_compute=plan.cpu_compute + self.host_compute_bytes(context) + outputs,
            )
        return replace(plan, cpu_compute=plan.cpu_compute + self.compute_bytes(context) + outputs)

    def plans(self, context: ContextSettings | int) -> list[MemoryPlan]:
        """One plan for every n_gpu_layers from 0 to all."""
        return [self.plan(n, context) for n in range(self.max_gpu_layers + 1)]

    def recommend(
        self,
        context: ContextSettings | int,
        free_vram: int,
        margin: int = DEFAULT_SAFETY_MARGIN,
    ) -> int:
        """The most GPU layers whose plan fits in `free_vram` with `margin` to spare (0 if none)."""
        best = 0
        for plan in self.plans(context):
            if plan.n_gpu_layers > 0 and plan.gpu_total + margin <= free_vram:
                best = plan.n_gpu_layers
        return best


def _row_bytes(type_name: str, n_elements: int) -> int:
    """ggml_row_size for a cache type such as "f16" or "q8_0"."""
    try:
        ggml_type = GGMLQuantizationType[type_name.upper()]
    except KeyError:
        raise ValueError(f"unknown KV cache type {type_name!r}") from None
    block_size, type_size = GGML_QUANT_SIZES[ggml_type]
    return n_elements // block_size * type_size


def _pad(value: int, multiple: int) -> int:
    return (value + multiple - 1) // multiple * multiple
