"""What a GGUF file says about its model: architecture, shapes, quantization and tensor sizes.

Read from the header alone, without loading the model. `gguf.GGUFReader` would do the
same job but materialises every metadata array (the whole vocabulary: seconds on a
small model); this reader keeps scalars, strings and small arrays, and records only the
length of big arrays such as `tokenizer.ggml.tokens`.

This is the one GGUF header reader: the memory planner, the library summary and the
model file check (`check_model_file`, which needs `GgufInfo.data_end`) all use it.
The `gguf` package (which pulls in its writer, reader and more) is imported on the first
read, not with this module, so the command line starts without it.
"""

from __future__ import annotations

import mmap
import re
import struct
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from app.core.support.formatting import fill
from app.core.support.user_text import N_

if TYPE_CHECKING:
    from gguf.constants import GGMLQuantizationType

GGUF_MAGIC = b"GGUF"
# magic (4) + version (4) + tensor count (8) + metadata kv count (8)
GGUF_HEADER_SIZE = 24
# Arrays up to this many items are read (per-layer head counts, SWA patterns); longer
# ones (the vocabulary, merges) are only counted.
SMALL_ARRAY_LIMIT = 4096

# GGUF metadata value types -> struct format (gguf spec); 8 = string, 9 = array.
SCALAR_FORMATS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9
# The smallest a metadata entry (key length, value type) and a tensor info (name length,
# dimension count, type, offset) can be: a header declaring more than fits is damaged.
_MIN_KV_BYTES = 8 + 4
_MIN_TENSOR_INFO_BYTES = 8 + 4 + 4 + 8
_MAX_DIMS = 4  # GGML_MAX_DIMS
_LAYER_TENSOR = re.compile(r"^blk\.(\d+)\.")

# Sliding-window layouts llama.cpp hard-codes per architecture when the file has no
# `{arch}.attention.sliding_window_pattern`: layer i uses the window when
# i % pattern < pattern - 1 (llama.cpp `set_swa_pattern`).
_SWA_PATTERNS = {"gemma2": 2, "gemma3": 6, "cohere2": 4, "llama4": 4}
_Read = TypeVar("_Read")


class GgufInfoError(Exception):
    """The file's header cannot be read as GGUF; the message says why."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"Cannot read the model header of {path}: {reason}")


class GgufHeaderIncomplete(GgufInfoError):
    """The bytes given end inside the header; `needed` is how many the header takes at least."""

    def __init__(self, path: Path, needed: int) -> None:
        super().__init__(path, f"the first bytes end inside the header (it needs at least {needed})")
        self.needed = needed


class _PastEnd(ValueError):
    """A length in the header points `end` bytes into the file, past the bytes there are."""

    def __init__(self, message: str, end: int) -> None:
        super().__init__(message)
        self.end = end


@dataclass(frozen=True)
class ArrayInfo:
    """A metadata array too long to keep: its item type and length only."""

    item_type: int
    length: int


MetaValue = int | float | bool | str | tuple | ArrayInfo


@dataclass(frozen=True)
class TensorInfo:
    name: str
    shape: tuple[int, ...]  # GGUF order: innermost dimension first
    ggml_type: GGMLQuantizationType
    offset: int  # from the start of the tensor data section
    n_bytes: int

    @property
    def n_elements(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count

    @property
    def layer(self) -> int | None:
        """The repeating block this tensor belongs to (`blk.N.`), None for the others."""
        match = _LAYER_TENSOR.match(self.name)
        return int(match.group(1)) if match else None


@dataclass(frozen=True)
class GgufInfo:
    path: Path
    file_size: int
    version: int
    alignment: int
    data_offset: int
    metadata: Mapping[str, MetaValue]
    tensors: tuple[TensorInfo, ...]
    _by_name: dict[str, TensorInfo] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_name.update((tensor.name, tensor) for tensor in self.tensors)

    # ---- metadata ------------------------------------------------------------------

    @property
    def architecture(self) -> str:
        return str(self.metadata.get("general.architecture", ""))

    @property
    def name(self) -> str:
        return str(self.metadata.get("general.name", self.path.stem))

    def arch_value(self, key: str, default: MetaValue | None = None) -> MetaValue | None:
        """`{architecture}.{key}` from the metadata."""
        return self.metadata.get(f"{self.architecture}.{key}", default)

    def _arch_int(self, key: str, default: int = 0) -> int:
        value = self.arch_value(key)
        if isinstance(value, tuple):
            return max((int(v) for v in value), default=default)
        return default if value is None or isinstance(value, (str, ArrayInfo)) else int(value)

    @property
    def block_count(self) -> int:
        return self._arch_int("block_count")

    @property
    def embedding_length(self) -> int:
        return self._arch_int("embedding_length")

    @property
    def feed_forward_length(self) -> int:
        return self._arch_int("feed_forward_length")

    @property
    def context_length(self) -> int:
        """The context the model was trained for (n_ctx_train)."""
        return self._arch_int("context_length")

    @property
    def head_count(self) -> int:
        return self._arch_int("attention.head_count")

    def head_count_for_layer(self, layer: int) -> int:
        return self._per_layer("attention.head_count", layer, 0)

    def head_count_kv_for_layer(self, layer: int) -> int:
        """KV heads of one layer (some files store a per-layer array; 0 = no attention there)."""
        return self._per_layer("attention.head_count_kv", layer, self.head_count_for_layer(layer))

    def _per_layer(self, key: str, layer: int, default: int) -> int:
        value = self.arch_value(key)
        if value is None or isinstance(value, (str, ArrayInfo)):
            return default
        if isinstance(value, tuple):
            return int(value[layer]) if layer < len(value) else default
        return int(value)

    @property
    def head_count_kv(self) -> int:
        return max((self.head_count_kv_for_layer(i) for i in range(self.block_count)), default=0)

    @property
    def key_length(self) -> int:
        """Size of one key head; llama.cpp defaults it to embedding_length / head_count."""
        default = self.embedding_length // self.head_count if self.head_count else 0
        return self._arch_int("attention.key_length", default)

    @property
    def value_length(self) -> int:
        default = self.embedding_length // self.head_count if self.head_count else 0
        return self._arch_int("attention.value_length", default)

    @property
    def sliding_window(self) -> int:
        """Tokens a sliding-window layer attends to; 0 when the model has none."""
        return self._arch_int("attention.sliding_window")

    def is_sliding_window_layer(self, layer: int) -> bool:
        if not self.sliding_window:
            return False
        pattern = self.arch_value("attention.sliding_window_pattern")
        if isinstance(pattern, tuple):
            return layer < len(pattern) and bool(pattern[layer])
        if isinstance(pattern, int) and not isinstance(pattern, bool) and pattern > 0:
            period = pattern
        else:
            period = _SWA_PATTERNS.get(self.architecture, 0)
        if period == 0:
            return True  # a window but no pattern: every layer uses it (e.g. mistral v0.1)
        return layer % period < period - 1

    @property
    def vocab_size(self) -> int:
        value = self.arch_value("vocab_size")
        if isinstance(value, int):
            return value
        tokens = self.metadata.get("tokenizer.ggml.tokens")
        if isinstance(tokens, ArrayInfo):
            return tokens.length
        return len(tokens) if isinstance(tokens, tuple) else 0

    # ---- tensors -------------------------------------------------------------------

    def tensor(self, name: str) -> TensorInfo | None:
        return self._by_name.get(name)

    @property
    def parameter_count(self) -> int:
        return sum(tensor.n_elements for tensor in self.tensors)

    @property
    def tensor_bytes(self) -> int:
        return sum(tensor.n_bytes for tensor in self.tensors)

    def layer_bytes(self) -> list[int]:
        """Bytes of each repeating block, from its tensors."""
        sizes = [0] * self.block_count
        for tensor in self.tensors:
            layer = tensor.layer
            if layer is not None and layer < len(sizes):
                sizes[layer] += tensor.n_bytes
        return sizes

    @property
    def data_end(self) -> int:
        """The byte offset where the last tensor's data ends: a complete file is at least this long."""
        return self.data_offset + max((tensor.offset + tensor.n_bytes for tensor in self.tensors), default=0)

    @property
    def declared_file_type(self) -> str | None:
        """The quantization `general.file_type` names ("Q4_K_M"); None when it names none (or "guessed")."""
        from gguf.constants import LlamaFileType

        value = self.metadata.get("general.file_type")
        if not isinstance(value, int):
            return None
        try:
            file_type = LlamaFileType(value)
        except ValueError:
            return None
        if file_type is LlamaFileType.GUESSED:
            return None
        return file_type.name.removeprefix("MOSTLY_").removeprefix("ALL_")

    @property
    def file_type(self) -> str:
        """The quantization named by `general.file_type` ("Q4_K_M"), else the dominant tensor type."""
        return self.declared_file_type or self.dominant_tensor_type

    @property
    def dominant_tensor_type(self) -> str:
        by_bytes: Counter[str] = Counter()
        for tensor in self.tensors:
            by_bytes[tensor.ggml_type.name] += tensor.n_bytes
        return by_bytes.most_common(1)[0][0] if by_bytes else ""


def read_gguf_info(path: Path | str) -> GgufInfo:
    """Read the header of a GGUF file. Raises GgufInfoError with the reason.

    The exception that stopped the reading, if any, is the error's `__cause__`.
    """
    path = Path(path)
    return _read_file(path, lambda data: _parse(path, data))


def read_model_shape(path: Path | str) -> tuple[str, int]:
    """A model file's architecture and embedding length, read from the first metadata entries only.

    Cheap where read_gguf_info is not: the converters write the architecture's numbers before the
    vocabulary, so a big model's tokenizer arrays are never walked. (0 when the file has no
    embedding length.) Raises GgufInfoError with the reason.
    """
    path = Path(path)

    def shape(metadata: Mapping[str, MetaValue]) -> tuple[str, int] | None:
        architecture = metadata.get("general.architecture")
        if not isinstance(architecture, str):
            return None
        embedding = metadata.get(f"{architecture}.embedding_length")
        return (architecture, embedding) if isinstance(embedding, int) else None

    def read(data: mmap.mmap) -> tuple[str, int]:
        if data[:4] != GGUF_MAGIC:
            raise GgufInfoError(path, N_("not a GGUF file (wrong magic bytes)"))
        (n_kv,) = struct.unpack_from("<Q", data, 16)
        pos = GGUF_HEADER_SIZE
        metadata: dict[str, MetaValue] = {}
        for _ in range(n_kv):
            key, pos = _read_string(data, pos, errors="strict")
            (value_type,) = struct.unpack_from("<I", data, pos)
            metadata[key], pos = _read_value(data, pos + 4, value_type)
            found = shape(metadata)
            if found is not None:
                return found
        return str(metadata.get("general.architecture", "")), 0

    return _read_file(path, read)


def _read_file(path: Path, read: Callable[[mmap.mmap], _Read]) -> _Read:
    """`read` over the file's bytes, its failures turned into GgufInfoError with the reason."""
    try:
        with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return read(data)
    except GgufInfoError:
        raise
    except OSError as error:
        raise GgufInfoError(
            path, fill(N_("the file cannot be read ({strerror})"), strerror=error.strerror or error)
        ) from error
    except ValueError as error:
        raise GgufInfoError(path, str(error)) from error
    except (struct.error, OverflowError) as error:  # a damaged length can point past any file
        raise GgufInfoError(path, fill(N_("the header is cut short or damaged ({error})"), error=error)) from error


def parse_gguf_prefix(data: bytes, path: Path | str, file_size: int) -> GgufInfo:
    """Read a GGUF header from the first bytes of a file of `file_size` bytes (fetched over HTTP).

    Raises GgufHeaderIncomplete when `data` ends inside the header (read more, at least
    `needed` bytes, and try again) and GgufInfoError when the header is damaged, including
    lengths that point past the end of the whole file.
    """
    path = Path(path)
    try:
        return _parse(path, data, file_size)
    except GgufInfoError:
        raise
    except _PastEnd as error:
        if error.end > file_size:
            raise GgufInfoError(
                path, fill(N_("a length in the header points past the end of the file ({error})"), error=error)
            ) from error
        raise GgufHeaderIncomplete(path, error.end) from error
    except struct.error as error:  # a fixed-size field past the bytes read so far
        if len(data) >= file_size:
            raise GgufInfoError(path, fill(N_("the header is cut short or damaged ({error})"), error=error)) from error
        raise GgufHeaderIncomplete(path, len(data) + 1) from error
    except (ValueError, OverflowError) as error:
        raise GgufInfoError(path, str(error)) from error


def _parse(path: Path, data: mmap.mmap | bytes, file_size: int | None = None) -> GgufInfo:
    from gguf.constants import GGMLQuantizationType

    file_size = len(data) if file_size is None else file_size
    if len(data) < GGUF_HEADER_SIZE and len(data) < file_size:
        raise struct.error("the fixed header is not complete")
    if data[:4] != GGUF_MAGIC:
        raise GgufInfoError(path, N_("not a GGUF file (wrong magic bytes)"))
    version, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    if version not in (2, 3):
        raise GgufInfoError(
            path, fill(N_("unsupported GGUF version {version} (big-endian files are not supported)"), version=version)
        )
    if GGUF_HEADER_SIZE + n_kv * _MIN_KV_BYTES + n_tensors * _MIN_TENSOR_INFO_BYTES > file_size:
        raise GgufInfoError(
            path,
            fill(
                N_(
                    "the header is cut short or damaged: it declares {n_kv} metadata entries and "
                    "{n_tensors} tensors, more than the file can hold"
                ),
                n_kv=n_kv,
                n_tensors=n_tensors,
            ),
        )
    pos = GGUF_HEADER_SIZE
    metadata: dict[str, MetaValue] = {}
    for _ in range(n_kv):
        key, pos = _read_string(data, pos, errors="strict")
        (value_type,) = struct.unpack_from("<I", data, pos)
        metadata[key], pos = _read_value(data, pos + 4, value_type)
    raw_tensors: list[tuple[str, tuple[int, ...], GGMLQuantizationType, int]] = []
    for _ in range(n_tensors):
        name, pos = _read_string(data, pos, errors="strict")
        (n_dims,) = struct.unpack_from("<I", data, pos)
        if n_dims > _MAX_DIMS:
            raise GgufInfoError(
                path,
                fill(
                    N_("tensor {name} has {n_dims} dimensions (GGUF allows at most {limit})"),
                    name=name,
                    n_dims=n_dims,
                    limit=_MAX_DIMS,
                ),
            )
        dims = struct.unpack_from(f"<{n_dims}Q", data, pos + 4)
        pos += 4 + 8 * n_dims
        type_id, offset = struct.unpack_from("<IQ", data, pos)
        pos += 12
        try:
            ggml_type = GGMLQuantizationType(type_id)
        except ValueError as error:
            raise GgufInfoError(
                path,
                fill(N_("tensor {name} has an unknown type {type_id} (a newer GGUF?)"), name=name, type_id=type_id),
            ) from error
        raw_tensors.append((name, tuple(int(d) for d in dims), ggml_type, offset))
    alignment = metadata.get("general.alignment", 32)
    alignment = alignment if isinstance(alignment, int) and alignment > 0 else 32
    tensors = tuple(
        TensorInfo(name, dims, ggml_type, offset, _tensor_bytes(dims, ggml_type))
        for name, dims, ggml_type, offset in raw_tensors
    )
    return GgufInfo(
        path=path,
        file_size=file_size,
        version=version,
        alignment=alignment,
        data_offset=(pos + alignment - 1) // alignment * alignment,
        metadata=metadata,
        tensors=tensors,
    )


def _tensor_bytes(dims: tuple[int, ...], ggml_type: GGMLQuantizationType) -> int:
    """Bytes of a tensor, row by row as ggml stores it (ggml_row_size * rows)."""
    from gguf.constants import GGML_QUANT_SIZES

    block_size, type_size = GGML_QUANT_SIZES[ggml_type]
    elements = 1
    for dim in dims:
        elements *= dim
    return elements // block_size * type_size


def _read_string(data: mmap.mmap | bytes, pos: int, errors: str = "replace") -> tuple[str, int]:
    """A length-prefixed string. Keys and tensor names are read strictly: bytes that are
    not UTF-8 there mean a damaged header; text values may hold anything."""
    (length,) = struct.unpack_from("<Q", data, pos)
    end = pos + 8 + length
    if end > len(data):
        raise _PastEnd(N_("a metadata string runs past the end of the file"), end)
    return data[pos + 8 : end].decode("utf-8", errors=errors), end


def _read_value(data: mmap.mmap | bytes, pos: int, value_type: int) -> tuple[MetaValue, int]:
    scalar = SCALAR_FORMATS.get(value_type)
    if scalar is not None:
        (value,) = struct.unpack_from("<" + scalar, data, pos)
        return value, pos + struct.calcsize(scalar)
    if value_type == _STRING:
        return _read_string(data, pos)
    if value_type == _ARRAY:
        item_type, count = struct.unpack_from("<IQ", data, pos)
        pos += 12
        item_format = SCALAR_FORMATS.get(item_type)
        if item_format is not None:
            end = pos + count * struct.calcsize(item_format)
            if end > len(data):
                raise _PastEnd(
                    N_("the header is cut short or damaged (a metadata array runs past the end of the file)"), end
                )
            if count > SMALL_ARRAY_LIMIT:
                return ArrayInfo(item_type, count), end
            return tuple(struct.unpack_from(f"<{count}{item_format}", data, pos)), end
        if count > SMALL_ARRAY_LIMIT:
            for _ in range(count):
                pos = _skip_value(data, pos, item_type)
            return ArrayInfo(item_type, count), pos
        items: list[MetaValue] = []
        for _ in range(count):
            item, pos = _read_value(data, pos, item_type)
            items.append(item)
        return tuple(items), pos
    raise ValueError(f"unknown metadata value type {value_type}")


def _skip_value(data: mmap.mmap | bytes, pos: int, value_type: int) -> int:
    scalar = SCALAR_FORMATS.get(value_type)
    if scalar is not None:
        return pos + struct.calcsize(scalar)
    if value_type == _STRING:
        (length,) = struct.unpack_from("<Q", data, pos)
        if pos + 8 + length > len(data):
            raise _PastEnd(N_("a metadata string runs past the end of the file"), pos + 8 + length)
        return pos + 8 + length
    if value_type == _ARRAY:
        item_type, count = struct.unpack_from("<IQ", data, pos)
        pos += 12
        item_format = SCALAR_FORMATS.get(item_type)
        if item_format is not None:
            return pos + count * struct.calcsize(item_format)
        for _ in range(count):
            pos = _skip_value(data, pos, item_type)
        return pos
    raise ValueError(f"unknown metadata value type {value_type}")
