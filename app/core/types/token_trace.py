"""Token probabilities of a reply: for each generated token, how sure the model was and what else it considered.

`TokenProbabilityRecorder` (app/core/inference/token_probs.py) records them in the engine.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any

UNSURE_BELOW = 0.5  # the chosen token had less than even odds
LOW_BELOW = 0.2  # the model was far from sure


class Confidence(str, Enum):
    HIGH = "high"
    UNSURE = "unsure"
    LOW = "low"


def confidence(probability: float) -> Confidence:
    if probability < LOW_BELOW:
        return Confidence.LOW
    if probability < UNSURE_BELOW:
        return Confidence.UNSURE
    return Confidence.HIGH


@dataclass(frozen=True)
class Alternative:
    token_id: int
    text: str  # special tokens visible
    probability: float


@dataclass(frozen=True)
class TokenStep:
    """One generated token: the text it added to the reply, its probability, the top alternatives."""

    token_id: int
    text: str  # what this token added to the reply ("" when it is the first byte of a character)
    probability: float
    alternatives: tuple[Alternative, ...]  # most likely first; the chosen token is among them unless it was unlikely

    @property
    def confidence(self) -> Confidence:
        return confidence(self.probability)

    @property
    def rank(self) -> int | None:
        """1 when the chosen token was the most likely one; None when it was outside the top list."""
        for position, alternative in enumerate(self.alternatives, start=1):
            if alternative.token_id == self.token_id:
                return position
        return None


@dataclass
class TokenTrace:
    """The token probabilities of one reply with the sampling settings they were sampled under."""

    steps: list[TokenStep] = field(default_factory=list)
    sampling: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TokenTrace:
        steps = [
            TokenStep(
                int(step["token_id"]),
                str(step["text"]),
                float(step["probability"]),
                tuple(_alternative(a) for a in step["alternatives"]),
            )
            for step in data.get("steps", [])
        ]
        return cls(steps, dict(data.get("sampling", {})))

    @property
    def mean_probability(self) -> float:
        return sum(step.probability for step in self.steps) / len(self.steps) if self.steps else 0.0

    def low_confidence_steps(self) -> list[int]:
        return [i for i, step in enumerate(self.steps) if step.confidence is Confidence.LOW]


def _alternative(data: dict[str, Any]) -> Alternative:
    return Alternative(int(data["token_id"]), str(data["text"]), float(data["probability"]))
