"""Tiny GGUF models with random weights that llama.cpp really loads.

They give the memory planner shapes the starter model does not have (untied output
head, explicit head sizes, F16 or Q8_0 weights, sliding-window layers) and are checked
against llama.cpp's logged buffer sizes by the tests and the `memory_plan` bench.

`header_layout`, `patch` and `set_metadata` damage a real file in place (one header value, one
tensor-table field) for the tests of what Glassbox refuses before llama.cpp sees a file.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from gguf import GGUFWriter, TokenType
from gguf.constants import GGMLQuantizationType, LlamaFileType
from gguf.quants import quantize

from app.core.models.gguf_info import SCALAR_FORMATS

# Architectures written here and the tensors of one of their blocks besides q/k/v/o and the FFN.
_EXTRA_NORMS = {
    "llama": ("attn_norm", "ffn_norm"),
    "gemma2": ("attn_norm", "post_attention_norm", "ffn_norm", "post_ffw_norm"),
}
_FILE_TYPES = {
    GGMLQuantizationType.F32: LlamaFileType.ALL_F32,
    GGMLQuantizationType.F16: LlamaFileType.MOSTLY_F16,
    GGMLQuantizationType.Q8_0: LlamaFileType.MOSTLY_Q8_0,
}


@dataclass(frozen=True)
class SyntheticModel:
    name: str = "synthetic-llama"
    architecture: str = "llama"  # "llama" or "gemma2" (sliding window on every other layer)
    n_layers: int = 4
    n_embd: int = 256
    n_head: int = 8
    n_head_kv: int = 2
    head_dim: int | None = None  # None: n_embd / n_head, not written to the file
    n_ff: int = 512
    n_vocab: int = 1024
    context_length: int = 4096
    weight_type: GGMLQuantizationType = GGMLQuantizationType.F16
    tied_embeddings: bool = False
    sliding_window: int = 0  # gemma2 only

    @property
    def n_embd_head(self) -> int:
        return self.head_dim or self.n_embd // self.n_head


def write_synthetic_model(path: Path, spec: SyntheticModel, seed: int = 0) -> Path:
    """Write `spec` as a GGUF file at `path` and return the path."""
    if spec.architecture not in _EXTRA_NORMS:
        raise ValueError(f"cannot write a synthetic {spec.architecture!r} model")
    rng = np.random.default_rng(seed)
    writer = GGUFWriter(path, spec.architecture)
    _write_metadata(writer, spec)
    for name, shape in _tensor_shapes(spec):
        if len(shape) == 1:
            writer.add_tensor(name, np.ones(shape, dtype=np.float32))
            continue
        values = (rng.standard_normal(shape, dtype=np.float32) * 0.02).astype(np.float32)
        if spec.weight_type is GGMLQuantizationType.F16:
            writer.add_tensor(name, values.astype(np.float16))
        elif spec.weight_type is GGMLQuantizationType.F32:
            writer.add_tensor(name, values)
        else:
            writer.add_tensor(name, quantize(values, spec.weight_type), raw_dtype=spec.weight_type)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def _write_metadata(writer: GGUFWriter, spec: SyntheticModel) -> None:
    writer.add_name(spec.name)
    writer.add_block_count(spec.n_layers)
    writer.add_context_length(spec.context_length)
    writer.add_embedding_length(spec.n_embd)
    writer.add_feed_forward_length(spec.n_ff)
    writer.add_head_count(spec.n_head)
    writer.add_head_count_kv(spec.n_head_kv)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(_FILE_TYPES.get(spec.weight_type, LlamaFileType.MOSTLY_Q8_0))
    if spec.head_dim is not None or spec.architecture == "gemma2":
        writer.add_key_length(spec.n_embd_head)
        writer.add_value_length(spec.n_embd_head)
    if spec.architecture == "llama":
        writer.add_rope_dimension_count(spec.n_embd_head)
        writer.add_vocab_size(spec.n_vocab)
    if spec.sliding_window:
        writer.add_sliding_window(spec.sliding_window)
    _write_vocabulary(writer, spec.n_vocab)


def _write_vocabulary(writer: GGUFWriter, n_vocab: int) -> None:
    """A SentencePiece-style vocabulary: specials, the 256 byte tokens, then filler words."""
    specials = ["<unk>", "<s>", "</s>"]
    tokens = specials + [f"<0x{b:02X}>" for b in range(256)]
    tokens += [f"\u2581w{i}" for i in range(n_vocab - len(tokens))]
    types = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL] + [TokenType.BYTE] * 256
    types += [TokenType.NORMAL] * (n_vocab - len(types))
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens[:n_vocab])
    writer.add_token_scores([-float(i) for i in range(n_vocab)])
    writer.add_token_types(types[:n_vocab])
    writer.add_unk_token_id(0)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)


def _tensor_shapes(spec: SyntheticModel) -> list[tuple[str, tuple[int, ...]]]:
    """Tensor names with numpy shapes (outermost dimension first)."""
    q_width = spec.n_head * spec.n_embd_head
    kv_width = spec.n_head_kv * spec.n_embd_head
    shapes: list[tuple[str, tuple[int, ...]]] = [("token_embd.weight", (spec.n_vocab, spec.n_embd))]
    for layer in range(spec.n_layers):
        block = f"blk.{layer}"
        shapes += [(f"{block}.{norm}.weight", (spec.n_embd,)) for norm in _EXTRA_NORMS[spec.architecture]]
        shapes += [
            (f"{block}.attn_q.weight", (q_width, spec.n_embd)),
            (f"{block}.attn_k.weight", (kv_width, spec.n_embd)),
            (f"{block}.attn_v.weight", (kv_width, spec.n_embd)),
            (f"{block}.attn_output.weight", (spec.n_embd, q_width)),
            (f"{block}.ffn_gate.weight", (spec.n_ff, spec.n_embd)),
            (f"{block}.ffn_up.weight", (spec.n_ff, spec.n_embd)),
            (f"{block}.ffn_down.weight", (spec.n_embd, spec.n_ff)),
        ]
    shapes.append(("output_norm.weight", (spec.n_embd,)))
    if not spec.tied_embeddings and spec.architecture != "gemma2":
        shapes.append(("output.weight", (spec.n_vocab, spec.n_embd)))
    return shapes


# ---- hostile files: patch a real header in place ------------------------------------

_STRING, _ARRAY = 8, 9  # GGUF metadata value types besides the scalars


@dataclass(frozen=True)
class HeaderField:
    """Where one scalar metadata value sits in the file, and its struct format."""

    key: str
    position: int
    format: str


@dataclass(frozen=True)
class TensorEntry:
    """Where one tensor-table entry's fields sit: its dimensions, its ggml type, its data offset."""

    name: str
    dims_position: int
    n_dims: int
    type_position: int
    offset_position: int


@dataclass(frozen=True)
class HeaderLayout:
    fields: dict[str, HeaderField]  # scalar values only; arrays and strings are not patched in place
    array_lengths: dict[str, int]  # position of each array's item count, by key
    tensors: tuple[TensorEntry, ...]
    end: int  # where the tensor table ends


def header_layout(path: Path) -> HeaderLayout:
    """Walk a GGUF header and say where each scalar value and tensor-table field is, to patch it in place."""
    data = path.read_bytes()
    _, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    pos = 24
    fields: dict[str, HeaderField] = {}
    arrays: dict[str, int] = {}
    for _ in range(n_kv):
        key, pos = _string(data, pos)
        (value_type,) = struct.unpack_from("<I", data, pos)
        pos += 4
        if value_type in SCALAR_FORMATS:
            fields[key] = HeaderField(key, pos, "<" + SCALAR_FORMATS[value_type])
        elif value_type == _ARRAY:
            arrays[key] = pos + 4
        pos = _skip(data, pos, value_type)
    tensors = []
    for _ in range(n_tensors):
        name, pos = _string(data, pos)
        (n_dims,) = struct.unpack_from("<I", data, pos)
        dims_at = pos + 4
        type_at = dims_at + 8 * n_dims
        tensors.append(TensorEntry(name, dims_at, n_dims, type_at, type_at + 4))
        pos = type_at + 12
    return HeaderLayout(fields, arrays, tuple(tensors), pos)


def patch(path: Path, position: int, fmt: str, value: int | float) -> None:
    """Overwrite the bytes at `position` with `value` packed as `fmt` (struct format)."""
    with path.open("r+b") as handle:
        handle.seek(position)
        handle.write(struct.pack(fmt, value))


def set_metadata(path: Path, key: str, value: int | float) -> None:
    """Give the scalar metadata value `key` a new value of the same type, in place."""
    field = header_layout(path).fields[key]
    patch(path, field.position, field.format, value)


def _string(data: bytes, pos: int) -> tuple[str, int]:
    (length,) = struct.unpack_from("<Q", data, pos)
    return data[pos + 8 : pos + 8 + length].decode("utf-8", errors="replace"), pos + 8 + length


def _skip(data: bytes, pos: int, value_type: int) -> int:
    if value_type in SCALAR_FORMATS:
        return pos + struct.calcsize(SCALAR_FORMATS[value_type])
    if value_type == _STRING:
        return _string(data, pos)[1]
    item_type, count = struct.unpack_from("<IQ", data, pos)
    pos += 12
    if item_type in SCALAR_FORMATS:
        return pos + count * struct.calcsize(SCALAR_FORMATS[item_type])
    for _ in range(count):
        pos = _skip(data, pos, item_type)
    return pos
