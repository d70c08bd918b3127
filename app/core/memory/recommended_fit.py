"""The recommended models (app.core.models.recommended) sized for one machine, the ones that fit first.

Each model gets the one fit verdict (`app.core.memory.fit.fit_hint`) the Models window gives a
variant whose header has not been read: from the file size in the curated data, with the
planner's CUDA overhead and safety margin on the GPU side and the RAM reserve on the CPU side.
No request is made, so the list is the same offline. The order: fully on the GPU, partly on
the GPU, on the CPU (RAM only), too large; within each, the curated order (smallest first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.memory.fit import Candidate, Fit, FitHint, Machine, fit_hint
from app.core.memory.planner import ContextSettings
from app.core.models.recommended import RECOMMENDED_MODELS, RecommendedModel

_ORDER = (Fit.GPU, Fit.PARTIAL, Fit.RAM, Fit.NO_FIT)


@dataclass(frozen=True)
class SizedRecommendation:
    model: RecommendedModel
    hint: FitHint

    @property
    def fits(self) -> bool:
        return self.hint.fit is not Fit.NO_FIT


def size_recommended(
    machine: Machine,
    context: ContextSettings,
    models: Sequence[RecommendedModel] = RECOMMENDED_MODELS,
) -> list[SizedRecommendation]:
    """Every model with its verdict on `machine` at `context`, ordered by how well it fits (stable within a verdict)."""
    sized = [
        SizedRecommendation(model, fit_hint(Candidate(model.filename, model.quant, model.size_bytes), machine, context))
        for model in models
    ]
    return sorted(sized, key=lambda item: _ORDER.index(item.hint.fit))
