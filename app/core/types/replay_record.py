"""The record of a reply that lets it be run again token by token (app/core/inference/replay.py runs it)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from app.core.support.formatting import fill
from app.core.support.user_text import N_

RECORD_VERSION = 1

# Checked in this order when a replay diverged: the first that differs is the likeliest cause.
CAUSES: list[tuple[str, str]] = [
    ("model_sha256", N_("a different model file")),
    ("quantization", N_("another quantization of the model")),
    ("chat_template_sha256", N_("another chat template")),
    ("prompt_sha256", N_("a different prompt")),
    ("sampler_chain", N_("other sampler settings")),
    ("seed", N_("another seed")),
    ("llama_cpp_python", N_("another llama-cpp-python version")),
    ("llama_cpp_build", N_("another llama.cpp build")),
    ("backend", N_("another backend")),
    ("n_gpu_layers", N_("another number of GPU layers")),
    ("threads", N_("another thread count")),
    ("n_batch", N_("another batch size")),
    ("n_ctx", N_("another context length")),
    ("kv_types", N_("other KV-cache types")),
]


@dataclass(frozen=True)
class SamplerStep:
    name: str
    values: dict[str, float | int]


@dataclass(frozen=True)
class ReplayRecord:
    model_file: str
    model_sha256: str
    quantization: str
    chat_template_sha256: str
    llama_cpp_python: str
    llama_cpp_build: str  # the build's system info line (backends and CPU features compiled in)
    backend: str
    n_ctx: int
    n_batch: int
    threads: int
    kv_types: str  # "K/V", e.g. "f16/f16"
    n_gpu_layers: int
    sampler_chain: tuple[SamplerStep, ...]
    seed: int
    prompt_sha256: str
    prompt_tokens: int
    cached_prompt_tokens: int  # reused from the KV cache when the reply was made
    sampling: dict[str, Any]  # the SamplingParams, to run the reply again
    tokens: tuple[int, ...]  # the reply's token ids
    version: int = RECORD_VERSION

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (kept in a reply's stats in the chat history, and so in its export)."""
        data: dict[str, Any] = json.loads(self.to_json())
        return data

    @classmethod
    def from_json(cls, text: str) -> ReplayRecord:
        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReplayRecord:
        """Raises KeyError, TypeError or ValueError for a record that is not one of this version."""
        data = dict(data)
        if data.get("version") != RECORD_VERSION:
            raise ValueError(
                fill(N_("A replay record of version {version} cannot be read."), version=data.get("version"))
            )
        data["sampler_chain"] = tuple(SamplerStep(**step) for step in data["sampler_chain"])
        data["tokens"] = tuple(data["tokens"])
        return cls(**data)

    def comparable(self) -> dict[str, Any]:
        """The fields a replay compares with the machine it runs on."""
        return {key: getattr(self, key) for key, _cause in CAUSES}
