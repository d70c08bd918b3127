"""Checks a model file before llama.cpp sees it, so a bad file gets a clear reason, not a crash."""

from __future__ import annotations

import mmap
import os
import struct
from pathlib import Path

GGUF_MAGIC = b"GGUF"
# magic (4) + version (4) + tensor count (8) + metadata kv count (8)
GGUF_HEADER_SIZE = 24


class ModelFileError(Exception):
    """A model file that cannot be used; the message names the file and the reason."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"Cannot use model file {self.path}: {reason}")


def check_model_file(path: Path | str) -> Path:
    """Return the path if it looks like a complete GGUF file, else raise ModelFileError.

    Truncation is caught by reading the GGUF header and tensor table with the `gguf`
    package: every tensor's data must lie inside the file.
    """
    path = Path(path)
    if not path.exists():
        raise ModelFileError(path, "the file does not exist")
    if path.is_dir():
        raise ModelFileError(path, "this is a folder, not a model file")
    if not os.access(path, os.R_OK):
        raise ModelFileError(path, "the file cannot be read (permission denied)")
    try:
        with path.open("rb") as handle:
            header = handle.read(GGUF_HEADER_SIZE)
    except OSError as error:
        raise ModelFileError(path, f"the file cannot be read ({error.strerror or error})") from error
    if len(header) < GGUF_HEADER_SIZE:
        raise ModelFileError(path, f"the file is too small to be a GGUF model ({len(header)} bytes)")
    if header[:4] != GGUF_MAGIC:
        raise ModelFileError(path, "this is not a GGUF file (wrong magic bytes); Glassbox loads .gguf models")
    (version,) = struct.unpack("<I", header[4:8])
    if version not in (2, 3):
        raise ModelFileError(path, f"unsupported GGUF version {version}")
    _check_tensor_extent(path)
    return path


def _check_tensor_extent(path: Path) -> None:
    try:
        end = gguf_data_end(path)
    except (struct.error, ValueError, UnicodeDecodeError, OSError) as error:
        raise ModelFileError(path, f"the GGUF header is damaged or the file is truncated ({error})") from error
    size = path.stat().st_size
    if end > size:
        raise ModelFileError(path, f"the file is truncated: its tensors need {end} bytes but it has {size}")


# Fixed sizes of GGUF metadata value types (gguf spec); 8 = string, 9 = array.
_SCALAR_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9


def gguf_data_end(path: Path) -> int:
    """The byte offset where the last tensor's data ends, read from the header alone.

    A small reader of its own: `gguf.GGUFReader` materialises every metadata array
    (the whole vocabulary), which takes seconds; this skips over them.
    """
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        _, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
        pos = GGUF_HEADER_SIZE
        alignment = 32
        for _ in range(n_kv):
            key, pos = _read_string(data, pos)
            (value_type,) = struct.unpack_from("<I", data, pos)
            pos += 4
            if key == "general.alignment" and value_type == 4:
                (alignment,) = struct.unpack_from("<I", data, pos)
            pos = _skip_value(data, pos, value_type)
        tensor_end = 0
        for _ in range(n_tensors):
            _, pos = _read_string(data, pos)
            (n_dims,) = struct.unpack_from("<I", data, pos)
            dims = struct.unpack_from(f"<{n_dims}Q", data, pos + 4)
            pos += 4 + 8 * n_dims
            tensor_type, offset = struct.unpack_from("<IQ", data, pos)
            pos += 12
            block_size, type_size = GGML_QUANT_SIZES[GGMLQuantizationType(tensor_type)]
            elements = 1
            for dim in dims:
                elements *= dim
            tensor_end = max(tensor_end, offset + elements // block_size * type_size)
        data_start = (pos + alignment - 1) // alignment * alignment
        return data_start + tensor_end


def _read_string(data: mmap.mmap, pos: int) -> tuple[str, int]:
    (length,) = struct.unpack_from("<Q", data, pos)
    end = pos + 8 + length
    if end > len(data):
        raise ValueError("a metadata string runs past the end of the file")
    return data[pos + 8 : end].decode("utf-8"), end


def _skip_value(data: mmap.mmap, pos: int, value_type: int) -> int:
    if value_type in _SCALAR_SIZES:
        return pos + _SCALAR_SIZES[value_type]
    if value_type == _STRING:
        (length,) = struct.unpack_from("<Q", data, pos)
        return pos + 8 + length
    if value_type == _ARRAY:
        item_type, count = struct.unpack_from("<IQ", data, pos)
        pos += 12
        if item_type in _SCALAR_SIZES:
            return pos + count * _SCALAR_SIZES[item_type]
        for _ in range(count):
            pos = _skip_value(data, pos, item_type)
        return pos
    raise ValueError(f"unknown metadata value type {value_type}")
