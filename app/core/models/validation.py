"""Checks a model file before llama.cpp sees it, so a bad file gets a clear reason, not a crash.

Two kinds of check: the file's structure (a GGUF header whose tensors lie inside the file),
and the header values llama.cpp trusts. llama.cpp reports a missing key or a tensor of the
wrong shape as an error, but asserts on some values and reads past arrays on others, which
ends the whole process (`GGML_ASSERT(n_layer_all > 0 ...)` for 0 layers, `eps >= 0.0f` at the
first decode, a token-score array shorter than the vocabulary). Those values are checked
here, each refusal naming the field. A value that is absent is left to llama.cpp, which says
so itself.
"""

from __future__ import annotations

import math
import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard

from app.core.models.gguf_info import (
    GGUF_HEADER_SIZE,
    GGUF_MAGIC,
    ArrayInfo,
    GgufInfo,
    GgufInfoError,
    MetaValue,
    read_gguf_info,
)
from app.core.support.formatting import fill
from app.core.support.user_text import N_

# LLAMA_MAX_LAYERS and LLAMA_MAX_EXPERTS of the llama.cpp Glassbox ships (src/llama-hparams.h).
MAX_LAYERS = 512
MAX_EXPERTS = 1024
# Far beyond any published model, low enough that sizes computed from them cannot overflow.
MAX_EMBEDDING = 1 << 17
MAX_FEED_FORWARD = 1 << 20
MAX_HEADS = 1 << 12
MAX_HEAD_SIZE = 1 << 13
MAX_CONTEXT = 1 << 24
MAX_VOCABULARY = 1 << 22


class ModelFileError(Exception):
    """A model file that cannot be used; the message names the file and the reason."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"Cannot use model file {self.path}: {reason}")


def check_model_file(path: Path | str) -> Path:
    """Return the path if it looks like a complete GGUF file, else raise ModelFileError.

    Truncation is caught by reading the GGUF header and tensor table (`gguf_info`):
    every tensor's data must lie inside the file.
    """
    path = Path(path)
    if not path.exists():
        raise ModelFileError(path, N_("the file does not exist"))
    if path.is_dir():
        raise ModelFileError(path, N_("this is a folder, not a model file"))
    if not os.access(path, os.R_OK):
        raise ModelFileError(path, N_("the file cannot be read (permission denied)"))
    try:
        with path.open("rb") as handle:
            header = handle.read(GGUF_HEADER_SIZE)
    except OSError as error:
        raise ModelFileError(
            path, fill(N_("the file cannot be read ({strerror})"), strerror=error.strerror or error)
        ) from error
    if len(header) < GGUF_HEADER_SIZE:
        raise ModelFileError(
            path, fill(N_("the file is too small to be a GGUF model ({n_header} bytes)"), n_header=len(header))
        )
    if header[:4] != GGUF_MAGIC:
        raise ModelFileError(path, N_("this is not a GGUF file (wrong magic bytes); Glassbox loads .gguf models"))
    (version,) = struct.unpack("<I", header[4:8])
    if version not in (2, 3):
        raise ModelFileError(path, fill(N_("unsupported GGUF version {version}"), version=version))
    info = _check_tensor_extent(path)
    reason = next(_header_problems(info), None)
    if reason is not None:
        raise ModelFileError(path, reason)
    return path


def _check_tensor_extent(path: Path) -> GgufInfo:
    try:
        info = read_gguf_info(path)
    except GgufInfoError as error:
        # The reader's own exception (struct, decoding, OS) says most; without one, its reason.
        detail = error.__cause__ or error.reason
        raise ModelFileError(
            path, fill(N_("the GGUF header is damaged or the file is truncated ({detail})"), detail=detail)
        ) from error
    end, size = info.data_end, info.file_size
    if end > size:
        raise ModelFileError(
            path, fill(N_("the file is truncated: its tensors need {end} bytes but it has {size}"), end=end, size=size)
        )
    return info


def _header_problems(info: GgufInfo) -> Iterator[str]:
    yield from _layer_problems(info)
    yield from _size_problems(info)
    yield from _head_problems(info)
    yield from _expert_problems(info)
    yield from _epsilon_problems(info)
    yield from _vocabulary_problems(info)
    yield from _tensor_problems(info)


def _layer_problems(info: GgufInfo) -> Iterator[str]:
    key = f"{info.architecture}.block_count"
    layers = _integer(info, key)
    if layers is None:
        return
    if layers < 1:
        yield f"{key} is {layers}; a model needs at least one layer"
    elif layers > MAX_LAYERS:
        yield f"{key} is {layers}; llama.cpp loads at most {MAX_LAYERS} layers"


def _size_problems(info: GgufInfo) -> Iterator[str]:
    arch = info.architecture
    yield from _in_range(info, f"{arch}.embedding_length", 1, MAX_EMBEDDING, "the model's width")
    yield from _in_range(info, f"{arch}.context_length", 1, MAX_CONTEXT, "the context it was trained for")
    feed_forward = _has_tensor(info, "ffn_up", "ffn_down", "ffn_gate")
    yield from _per_layer(info, f"{arch}.feed_forward_length", MAX_FEED_FORWARD, "the feed-forward width", feed_forward)
    for name in ("key_length", "value_length"):
        yield from _in_range(info, f"{arch}.attention.{name}", 1, MAX_HEAD_SIZE, "the size of one attention head")


def _head_problems(info: GgufInfo) -> Iterator[str]:
    arch = info.architecture
    heads_key, kv_key = f"{arch}.attention.head_count", f"{arch}.attention.head_count_kv"
    attention = _has_tensor(info, "attn_q", "attn_qkv", "attn_k", "attn_v")
    yield from _per_layer(info, heads_key, MAX_HEADS, "the number of attention heads", attention)
    yield from _per_layer(info, kv_key, MAX_HEADS, "the number of key/value heads", attention)
    heads, kv_heads = _integers(info, heads_key), _integers(info, kv_key)
    if not heads:
        return
    first = heads[0]
    # Per-layer arrays, or one value for every layer.
    pairs = zip(heads * len(kv_heads) if len(heads) == 1 else heads, kv_heads * len(heads), strict=False)
    for layer, (n_head, n_kv) in enumerate(pairs):
        if n_head and n_kv and n_head % n_kv:
            where = f" (layer {layer})" if len(heads) > 1 or len(kv_heads) > 1 else ""
            yield (
                f"{heads_key} {n_head} is not a multiple of {kv_key} {n_kv}{where}; "
                "each key/value head must serve the same number of attention heads"
            )
            break
    embedding = _integer(info, f"{arch}.embedding_length")
    if embedding and first and embedding % first and _integer(info, f"{arch}.attention.key_length") is None:
        yield (
            f"{arch}.embedding_length {embedding} is not a multiple of {heads_key} {first} "
            f"and the file gives no {arch}.attention.key_length; the head size is undefined"
        )
    rope = _integer(info, f"{arch}.rope.dimension_count")
    head_size = _integer(info, f"{arch}.attention.key_length") or (embedding // first if embedding and first else 0)
    if rope is not None and head_size and (rope < 0 or rope > head_size or rope % 2):
        yield (
            f"{arch}.rope.dimension_count is {rope}; rotary embedding needs an even number of dimensions "
            f"no larger than the head size ({head_size})"
        )


def _expert_problems(info: GgufInfo) -> Iterator[str]:
    arch = info.architecture
    experts_key, used_key = f"{arch}.expert_count", f"{arch}.expert_used_count"
    experts, used = _integer(info, experts_key), _integer(info, used_key)
    if experts is not None and not 0 <= experts <= MAX_EXPERTS:
        yield f"{experts_key} is {experts}; llama.cpp supports 0 to {MAX_EXPERTS} experts"
    elif used is not None and used < 0:
        yield f"{used_key} is {used}; it cannot be negative"
    elif experts and not used:
        yield f"{experts_key} is {experts} but {used_key} is {used or 0}; a mixture of experts must use at least one"
    elif used and used > (experts or 0):
        yield f"{used_key} is {used} but {experts_key} is {experts or 0}; a token cannot use more experts than exist"


def _epsilon_problems(info: GgufInfo) -> Iterator[str]:
    """Every normalisation epsilon (layer_norm_rms_epsilon, layer_norm_epsilon, group_norm_epsilon…)."""
    prefix = f"{info.architecture}."
    for key, value in info.metadata.items():
        if not (key.startswith(prefix) and key.endswith("epsilon")) or not isinstance(value, (int, float)):
            continue
        if not math.isfinite(value) or value < 0:
            yield f"{key} is {value}; a normalisation epsilon must be a finite number of at least 0"


def _vocabulary_problems(info: GgufInfo) -> Iterator[str]:
    tokens = _length(info.metadata.get("tokenizer.ggml.tokens"))
    if tokens is None:
        return
    if not 1 <= tokens <= MAX_VOCABULARY:
        yield f"tokenizer.ggml.tokens has {tokens} tokens; a vocabulary has 1 to {MAX_VOCABULARY}"
        return
    for key in ("tokenizer.ggml.scores", "tokenizer.ggml.token_type"):
        length = _length(info.metadata.get(key))
        if length is not None and length != tokens:
            yield f"{key} has {length} entries but tokenizer.ggml.tokens has {tokens}; there must be one per token"


def _tensor_problems(info: GgufInfo) -> Iterator[str]:
    from gguf.constants import GGML_QUANT_SIZES

    for tensor in info.tensors:
        block_size = GGML_QUANT_SIZES[tensor.ggml_type][0]
        if tensor.shape and tensor.shape[0] % block_size:
            yield (
                f"tensor {tensor.name} has rows of {tensor.shape[0]} values, not a multiple of "
                f"{tensor.ggml_type.name}'s block of {block_size}"
            )
    # One row per token; llama.cpp sizes its logits by the vocabulary. (Its width is left to llama.cpp's own
    # shape check: some architectures embed at another width than embedding_length.)
    tokens = _length(info.metadata.get("tokenizer.ggml.tokens"))
    table = info.tensor("token_embd.weight")
    if tokens is not None and table is not None and len(table.shape) == 2 and table.shape[1] != tokens:
        yield f"tensor token_embd.weight has {table.shape[1]} rows but tokenizer.ggml.tokens has {tokens} tokens"


# ---- reading values ----------------------------------------------------------------------


def _in_range(info: GgufInfo, key: str, low: int, high: int, what: str) -> Iterator[str]:
    value = _integer(info, key)
    if value is not None and not low <= value <= high:
        yield f"{key} is {value}; {what} must be {low} to {high}"


def _per_layer(info: GgufInfo, key: str, high: int, what: str, needed: bool) -> Iterator[str]:
    """A value that is one number for every layer, or an array with one per layer (0 there: a layer without it).

    One number may be 0 only where the model has no tensors that use it (Mamba writes 0 heads
    and a feed-forward length of 0).
    """
    value = info.metadata.get(key)
    values = _integers(info, key)
    if not values:
        return
    if not isinstance(value, tuple):
        low = 1 if needed else 0
        if not low <= values[0] <= high:
            yield f"{key} is {values[0]}; {what} must be {low} to {high}"
        return
    layers = _integer(info, f"{info.architecture}.block_count")
    if layers is not None and len(values) != layers:
        yield f"{key} has {len(values)} entries but the model has {layers} layers; there must be one per layer"
    elif any(not 0 <= v <= high for v in values) or not any(values):
        yield f"{key} holds {_extreme(values, high)}; {what} in each layer must be 0 to {high}, not all 0"


def _has_tensor(info: GgufInfo, *kinds: str) -> bool:
    """Whether some block has a tensor of one of these kinds (`blk.N.attn_q.weight` is of kind attn_q)."""
    suffixes = tuple(f".{kind}.weight" for kind in kinds)
    return any(tensor.layer is not None and tensor.name.endswith(suffixes) for tensor in info.tensors)


def _extreme(values: list[int], high: int) -> int:
    return next((v for v in values if not 0 <= v <= high), 0)


def _integer(info: GgufInfo, key: str) -> int | None:
    """A whole-number value; None when absent or of another type (llama.cpp refuses a wrong type itself)."""
    value = info.metadata.get(key)
    return value if _is_integer(value) else None


def _integers(info: GgufInfo, key: str) -> list[int]:
    """A whole number as a one-item list, or an array of them; empty when absent or not whole numbers."""
    value = info.metadata.get(key)
    if _is_integer(value):
        return [value]
    if isinstance(value, tuple) and value and all(_is_integer(v) for v in value):
        return list(value)
    return []


def _is_integer(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _length(value: MetaValue | None) -> int | None:
    if isinstance(value, ArrayInfo):
        return value.length
    return len(value) if isinstance(value, tuple) else None
