"""Checks a model file before llama.cpp sees it, so a bad file gets a clear reason, not a crash."""

from __future__ import annotations

import os
import struct
from pathlib import Path

from app.core.models.gguf_info import GGUF_HEADER_SIZE, GGUF_MAGIC, GgufInfoError, read_gguf_info


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
        info = read_gguf_info(path)
    except GgufInfoError as error:
        # The reader's own exception (struct, decoding, OS) says most; without one, its reason.
        detail = error.__cause__ or error.reason
        raise ModelFileError(path, f"the GGUF header is damaged or the file is truncated ({detail})") from error
    end, size = info.data_end, info.file_size
    if end > size:
        raise ModelFileError(path, f"the file is truncated: its tensors need {end} bytes but it has {size}")
