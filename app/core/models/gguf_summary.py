"""What the library shows about a GGUF model: architecture, parameters, quantization, context length.

A few fields of `gguf_info` (the one header reader); a split model adds up its shards' parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.core.models.gguf_info import read_gguf_info


@dataclass(frozen=True)
class GgufSummary:
    architecture: str | None
    model_name: str | None
    parameter_count: int | None
    quantization: str | None
    context_length: int | None
    size_label: str | None


def read_gguf_summary(paths: Sequence[Path]) -> GgufSummary:
    """Summary of a model made of `paths` (one file, or every shard of a split model, first first).

    Raises GgufInfoError with the reason when a file's header cannot be read.
    """
    if not paths:
        raise ValueError("no files given")
    infos = [read_gguf_info(path) for path in paths]
    first = infos[0]
    parameters = sum(info.parameter_count for info in infos)
    return GgufSummary(
        architecture=_text(first.metadata.get("general.architecture")),
        model_name=_text(first.metadata.get("general.name")),
        parameter_count=parameters or None,
        quantization=first.declared_file_type,
        context_length=first.context_length or None,
        size_label=_text(first.metadata.get("general.size_label")),
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
