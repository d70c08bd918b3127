"""A short, curated list of well-known instruct models to offer a new user instead of the starter model.

The starter (SmolLM2 135M) only shows that the app works; these are the models people run on
their own machines in 2026 (Qwen3, Gemma 3, Llama 3.x, Phi-4, SmolLM3, gpt-oss, Mistral Small 3.2),
one file each in Q4_K_M (the balanced 4-bit quantization; gpt-oss in its native MXFP4), from
bartowski's and ggml-org's GGUF repositories on the Hugging Face Hub (public, not gated, one file
per model: Llama 4, split in many files of tens of GB, is not a first model). Each says whether it
thinks before answering, can call tools, and can read images (with its projector file). The sizes are
the files' sizes as the Hub lists them, rounded to 10 MB: enough for the memory planner's
verdict before any request, so the list shows offline too. The download itself asks the Hub
for the exact size and SHA-256 and verifies the file against them; a vision model's lists its
repository first, to take the projector the repository publishes (not named here: repositories
rename and add them).

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
    thinking: bool = False  # reasons before it answers (a thinking switch in its template)
    tools: bool = False  # its chat template offers tool calls
    vision: bool = False  # reads images, with its projector (mmproj) file beside it


RECOMMENDED_MODELS: tuple[RecommendedModel, ...] = (
    RecommendedModel(
        "Qwen3 0.6B",
        "0.6B",
        "bartowski/Qwen_Qwen3-0.6B-GGUF",
        "Qwen_Qwen3-0.6B-Q4_K_M.gguf",
        "Q4_K_M",
        480 * MB,
        N_("Tiny and fast; thinks before it answers, many languages."),
        thinking=True,
        tools=True,
    ),
    RecommendedModel(
        "Gemma 3 1B it",
        "1B",
        "bartowski/google_gemma-3-1b-it-GGUF",
        "google_gemma-3-1b-it-Q4_K_M.gguf",
        "Q4_K_M",
        810 * MB,
        N_("Small and fast; clear short answers and summaries."),
    ),
    RecommendedModel(
        "Llama 3.2 1B Instruct",
        "1B",
        "bartowski/Llama-3.2-1B-Instruct-GGUF",
        "Llama-3.2-1B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        810 * MB,
        N_("Small and fast; everyday questions and summaries in English."),
        tools=True,
    ),
    RecommendedModel(
        "Qwen3 1.7B",
        "1.7B",
        "bartowski/Qwen_Qwen3-1.7B-GGUF",
        "Qwen_Qwen3-1.7B-Q4_K_M.gguf",
        "Q4_K_M",
        1280 * MB,
        N_("Small and capable; a good first model for a laptop."),
        thinking=True,
        tools=True,
    ),
    RecommendedModel(
        "SmolLM3 3B",
        "3B",
        "bartowski/HuggingFaceTB_SmolLM3-3B-GGUF",
        "HuggingFaceTB_SmolLM3-3B-Q4_K_M.gguf",
        "Q4_K_M",
        1920 * MB,
        N_("Fully open small model; thinking can be switched on or off, long context."),
        thinking=True,
        tools=True,
    ),
    RecommendedModel(
        "Llama 3.2 3B Instruct",
        "3B",
        "bartowski/Llama-3.2-3B-Instruct-GGUF",
        "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        2020 * MB,
        N_("Good all-rounder for conversation and summaries."),
        tools=True,
    ),
    RecommendedModel(
        "Phi-4 mini instruct",
        "3.8B",
        "bartowski/microsoft_Phi-4-mini-instruct-GGUF",
        "microsoft_Phi-4-mini-instruct-Q4_K_M.gguf",
        "Q4_K_M",
        2490 * MB,
        N_("Strong at reasoning and maths for its size; long context."),
        tools=True,
    ),
    RecommendedModel(
        "Gemma 3 4B it",
        "4B",
        "bartowski/google_gemma-3-4b-it-GGUF",
        "google_gemma-3-4b-it-Q4_K_M.gguf",
        "Q4_K_M",
        2490 * MB,
        N_("Well-written answers in many languages; reads images."),
        vision=True,
    ),
    RecommendedModel(
        "Qwen3 4B",
        "4B",
        "bartowski/Qwen_Qwen3-4B-GGUF",
        "Qwen_Qwen3-4B-Q4_K_M.gguf",
        "Q4_K_M",
        2500 * MB,
        N_("Good all-rounder: writing, coding help, many languages; thinks when asked."),
        thinking=True,
        tools=True,
    ),
    RecommendedModel(
        "Llama 3.1 8B Instruct",
        "8B",
        "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF",
        "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",
        "Q4_K_M",
        4920 * MB,
        N_("A full-size model: better answers, needs a GPU or patience."),
        tools=True,
    ),
    RecommendedModel(
        "Qwen3 8B",
        "8B",
        "bartowski/Qwen_Qwen3-8B-GGUF",
        "Qwen_Qwen3-8B-Q4_K_M.gguf",
        "Q4_K_M",
        5030 * MB,
        N_("A full-size model: strong reasoning, coding and many languages."),
        thinking=True,
        tools=True,
    ),
    RecommendedModel(
        "Gemma 3 12B it",
        "12B",
        "bartowski/google_gemma-3-12b-it-GGUF",
        "google_gemma-3-12b-it-Q4_K_M.gguf",
        "Q4_K_M",
        7300 * MB,
        N_("A larger model with clear writing; reads images; wants a GPU."),
        vision=True,
    ),
    RecommendedModel(
        "Phi-4",
        "14B",
        "bartowski/phi-4-GGUF",
        "phi-4-Q4_K_M.gguf",
        "Q4_K_M",
        9050 * MB,
        N_("Strong at maths and reasoning; wants a GPU with 12 GB or more."),
    ),
    RecommendedModel(
        "gpt-oss 20B",
        "21B",
        "ggml-org/gpt-oss-20b-GGUF",
        "gpt-oss-20b-mxfp4.gguf",
        "MXFP4",
        12110 * MB,
        N_("OpenAI's open model: reasons at a chosen effort, calls tools; fast for its size (mixture of experts)."),
        thinking=True,
        tools=True,
    ),
    RecommendedModel(
        "Mistral Small 3.2 24B Instruct",
        "24B",
        "bartowski/mistralai_Mistral-Small-3.2-24B-Instruct-2506-GGUF",
        "mistralai_Mistral-Small-3.2-24B-Instruct-2506-Q4_K_M.gguf",
        "Q4_K_M",
        14330 * MB,
        N_("A large all-rounder that reads images and calls tools; needs a big GPU."),
        tools=True,
        vision=True,
    ),
)
