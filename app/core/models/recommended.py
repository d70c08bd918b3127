"""A short, curated list of well-known instruct models to offer a new user instead of the starter model.

The starter (SmolLM2 135M) only shows that the app works; these are the usual first real
models, one file each in Q4_K_M (the balanced 4-bit quantization), from bartowski's GGUF
repositories on the Hugging Face Hub (public, not gated, one file per model). The sizes are
the files' sizes as the Hub lists them, rounded to 10 MB: enough for the memory planner's
verdict before any request, so the list shows offline too. The download itself asks the Hub
for the exact size and SHA-256 and verifies the file against them.

Whether each one fits this machine is the memory package's job (`app.core.memory.recommended_fit`).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.support.user_text import N_

MB = 1000 * 1000  # the Hub lists sizes in decimal units


@dataclass(frozen=True)
class RecommendedModel:
    name: str  # as the model's makers call it
    parameters: str  # "1.5B": how big the model is, the first thing users compare
    repo_id: str
    filename: str
    quant: str
    size_bytes: int  # the file's size on the Hub (rounded)
    summary: str  # one line for a user: what it is good for (a core text, worded again by the UI)


RECOMMENDED_MODELS: tuple[RecommendedModel, ...] = (
    RecommendedModel(
        "Qwen2.5 0.5B Instruct",
        "0.5B",
        "bartowski/Qwen2.5-0.5B-Instruct-GGUF",
        "Qwen2.5-0.5B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        400 * MB,
        N_("Very small and fast; simple questions and short texts, many languages."),
    ),
    RecommendedModel(
        "Llama 3.2 1B Instruct",
        "1B",
        "bartowski/Llama-3.2-1B-Instruct-GGUF",
        "Llama-3.2-1B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        810 * MB,
        N_("Small and fast; everyday questions and summaries in English."),
    ),
    RecommendedModel(
        "Qwen2.5 1.5B Instruct",
        "1.5B",
        "bartowski/Qwen2.5-1.5B-Instruct-GGUF",
        "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        990 * MB,
        N_("Small and capable; a good first model for a laptop."),
    ),
    RecommendedModel(
        "Gemma 2 2B it",
        "2B",
        "bartowski/gemma-2-2b-it-GGUF",
        "gemma-2-2b-it-Q4_K_M.gguf",
        "Q4_K_M",
        1710 * MB,
        N_("Clear, well-written answers for its size."),
    ),
    RecommendedModel(
        "Qwen2.5 3B Instruct",
        "3B",
        "bartowski/Qwen2.5-3B-Instruct-GGUF",
        "Qwen2.5-3B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        1930 * MB,
        N_("Good all-rounder: writing, coding help, many languages."),
    ),
    RecommendedModel(
        "Llama 3.2 3B Instruct",
        "3B",
        "bartowski/Llama-3.2-3B-Instruct-GGUF",
        "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        2020 * MB,
        N_("Good all-rounder for conversation and summaries."),
    ),
    RecommendedModel(
        "Phi-3.5 mini instruct",
        "3.8B",
        "bartowski/Phi-3.5-mini-instruct-GGUF",
        "Phi-3.5-mini-instruct-Q4_K_M.gguf",
        "Q4_K_M",
        2390 * MB,
        N_("Strong at reasoning and maths for its size; long context."),
    ),
    RecommendedModel(
        "Mistral 7B Instruct v0.3",
        "7B",
        "bartowski/Mistral-7B-Instruct-v0.3-GGUF",
        "Mistral-7B-Instruct-v0.3-Q4_K_M.gguf",
        "Q4_K_M",
        4370 * MB,
        N_("A full-size model: better answers, needs a GPU or patience."),
    ),
    RecommendedModel(
        "Qwen2.5 7B Instruct",
        "7B",
        "bartowski/Qwen2.5-7B-Instruct-GGUF",
        "Qwen2.5-7B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        4680 * MB,
        N_("A full-size model: the best answers here; coding and many languages."),
    ),
)
