"""What the library shows about a GGUF file: architecture, parameters, quantization, context length.

Read from the header alone and fast: `gguf.GGUFReader` materialises every metadata array
(the whole vocabulary) and takes seconds per file; this reader skips arrays and keeps
only scalars and strings, then sums the tensor shapes for the parameter count.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.core.model_file import GGUF_HEADER_SIZE, GGUF_MAGIC, ModelFileError

# GGUF metadata value types (spec): scalar sizes; 8 = string, 9 = array.
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True)
class GgufSummary:
    architecture: str | None
    model_name: str | None
    parameter_count: int | None
    quantization: str | None
    context_length: int | None
    size_label: str | None


def read_gguf_summary(paths: Sequence[Path]) -> GgufSummary:
    """Summary of a model made of `paths` (one file, or every shard of a split model, first first)."""
    if not paths:
        raise ValueError("no files given")
    metadata, parameters = _read_one(paths[0])
    for shard in paths[1:]:
        parameters += _read_one(shard)[1]
    architecture = _text(metadata.get("general.architecture"))
    context = metadata.get(f"{architecture}.context_length") if architecture else None
    return GgufSummary(
        architecture=architecture,
        model_name=_text(metadata.get("general.name")),
        parameter_count=parameters or None,
        quantization=_file_type_name(metadata.get("general.file_type")),
        context_length=int(context) if isinstance(context, int) else None,
        size_label=_text(metadata.get("general.size_label")),
    )


def format_parameters(count: int | None) -> str:
    if not count:
        return "?"
    for limit, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if count >= limit:
            value = count / limit
            return f"{value:.1f}{suffix}" if value < 10 else f"{value:.0f}{suffix}"
    return str(count)


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _file_type_name(value: object) -> str | None:
    from gguf.constants import LlamaFileType

    if not isinstance(value, int):
        return None
    try:
        name = LlamaFileType(value).name
    except ValueError:
        return None
    return {"ALL_F32": "F32", "GUESSED": None}.get(name, name.removeprefix("MOSTLY_"))


def _read_one(path: Path) -> tuple[dict[str, object], int]:
    try:
        with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            if len(data) < GGUF_HEADER_SIZE or data[:4] != GGUF_MAGIC:
                raise ModelFileError(path, "this is not a GGUF file (wrong magic bytes)")
            return _parse(data)
    except ModelFileError:
        raise
    except (struct.error, ValueError, UnicodeDecodeError, IndexError) as error:
        raise ModelFileError(path, f"the GGUF header is damaged ({error})") from error
    except OSError as error:
        raise ModelFileError(path, f"the file cannot be read ({error.strerror or error})") from error


def _parse(data: mmap.mmap) -> tuple[dict[str, object], int]:
    _, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    pos = GGUF_HEADER_SIZE
    metadata: dict[str, object] = {}
    for _ in range(n_kv):
        key, pos = _read_string(data, pos)
        (value_type,) = struct.unpack_from("<I", data, pos)
        pos += 4
        if value_type in _SCALARS:
            fmt = _SCALARS[value_type]
            (metadata[key],) = struct.unpack_from(fmt, data, pos)
            pos += struct.calcsize(fmt)
        elif value_type == _STRING:
            metadata[key], pos = _read_string(data, pos)
        elif value_type == _ARRAY:
            pos = _skip_array(data, pos)
        else:
            raise ValueError(f"unknown metadata value type {value_type}")
    parameters = 0
    for _ in range(n_tensors):
        _, pos = _read_string(data, pos)
        (n_dims,) = struct.unpack_from("<I", data, pos)
        dims = struct.unpack_from(f"<{n_dims}Q", data, pos + 4)
        pos += 4 + 8 * n_dims + 12  # dims, then type (4) and offset (8)
        elements = 1
        for dim in dims:
            elements *= dim
        parameters += elements
    return metadata, parameters


def _read_string(data: mmap.mmap, pos: int) -> tuple[str, int]:
    (length,) = struct.unpack_from("<Q", data, pos)
    end = pos + 8 + length
    if end > len(data):
        raise ValueError("a metadata string runs past the end of the file")
    return data[pos + 8 : end].decode("utf-8", errors="replace"), end


def _skip_array(data: mmap.mmap, pos: int) -> int:
    item_type, count = struct.unpack_from("<IQ", data, pos)
    pos += 12
    if item_type in _SCALARS:
        return pos + count * struct.calcsize(_SCALARS[item_type])
    if item_type == _STRING:
        for _ in range(count):
            (length,) = struct.unpack_from("<Q", data, pos)
            pos += 8 + length
        if pos > len(data):
            raise ValueError("a metadata array runs past the end of the file")
        return pos
    if item_type == _ARRAY:
        for _ in range(count):
            pos = _skip_array(data, pos)
        return pos
    raise ValueError(f"unknown array item type {item_type}")
