"""How a thinking model's reasoning is switched off or its effort chosen, and the user's override of its
markers (no llama.cpp here: the settings and the window read it)."""

from __future__ import annotations

from enum import StrEnum

from app.core.reasoning.splitter import FAMILIES


class ThinkingSwitch(StrEnum):
    """How thinking is turned off (or its effort chosen) for a model."""

    TEMPLATE = "template"  # the template's `enable_thinking` variable (Qwen3, QwQ)
    EFFORT = "effort"  # the template's `reasoning_effort` (gpt-oss): low, medium or high; never off
    PREFILL = "prefill"  # an empty block written after the generation prompt, so the reply starts after it


EFFORTS = ("low", "medium", "high")  # gpt-oss's levels

# The per-model reasoning override (the model settings' `reasoning`): let the template say, say the model
# does not reason, or name the family whose markers it writes.
AUTO = "auto"
NONE = "none"
OVERRIDES = (AUTO, NONE, *FAMILIES)
