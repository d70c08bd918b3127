"""How a chat's replies are decoded: sampling (the sampling settings), greedy, or beam search.

A chat keeps one `DecodingSettings` with its other settings (app/core/settings.py ChatSettings).
Sampling uses the chat's sampling settings as they are; greedy takes the most likely token at
every step (temperature 0, no penalties: GREEDY) with the chat's length limit and stop strings;
beam search runs `width` beams together (app/core/inference/beam_search.py) and the reply is
the best of the `keep` finished hypotheses under the GNMT length penalty `alpha`.

A beam reply is not streamed: the search decides the whole reply before any of it is the best,
so `beam_reply` makes one TokenPiece of the best hypothesis and a ReplyDone whose stats say
what the search did.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from app.core.inference.beam_search import MAX_WIDTH, BeamEnd, BeamResult, BeamSettings
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece
from app.core.types.stats import ReplyStats, StopReason

log = logging.getLogger(__name__)

MIN_CHAT_WIDTH = 2  # width 1 is greedy decoding, offered as its own mode
STATS_KEY = "beam"  # where a beam reply keeps its hypotheses in the message's stats


class DecodingMode(str, Enum):
    SAMPLING = "sampling"
    GREEDY = "greedy"
    BEAM = "beam"


MODE_LABELS: dict[DecodingMode, str] = {
    DecodingMode.SAMPLING: N_("Sampling"),
    DecodingMode.GREEDY: N_("Greedy"),
    DecodingMode.BEAM: N_("Beam search"),
}


@dataclass(frozen=True)
class DecodingSettings:
    mode: DecodingMode = DecodingMode.SAMPLING
    width: int = 4  # beams, MIN_CHAT_WIDTH..MAX_WIDTH
    alpha: float = 1.0  # GNMT length penalty exponent, 0..5
    keep: int = 0  # finished hypotheses to keep; 0: as many as the width

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode.value, "width": self.width, "alpha": self.alpha, "keep": self.keep}

    @classmethod
    def from_dict(cls, data: Any) -> DecodingSettings:
        """Lenient (a chat database of another version): what cannot be read is the default, logged."""
        if not isinstance(data, Mapping):
            return cls()
        default = cls()
        try:
            found = cls(
                mode=DecodingMode(data.get("mode", default.mode.value)),
                width=int(data.get("width", default.width)),
                alpha=float(data.get("alpha", default.alpha)),
                keep=int(data.get("keep", default.keep)),
            )
        except (TypeError, ValueError) as error:
            log.warning("Decoding settings dropped: %s", error)
            return default
        problems = found.problems()
        if problems:
            log.warning("Decoding settings dropped: %s", " ".join(problems))
            return default
        return found

    def problems(self) -> list[str]:
        """What is wrong with the beam settings, worded for the user; [] when they can run."""
        if not MIN_CHAT_WIDTH <= self.width <= MAX_WIDTH:
            message = N_("The beam width must be {least} to {most}, not {width}.")
            return [fill(message, least=MIN_CHAT_WIDTH, most=MAX_WIDTH, width=self.width)]
        return self.beam(1).problems()  # the hypotheses to keep and the length penalty

    def beam(self, max_new_tokens: int) -> BeamSettings:
        return BeamSettings(width=self.width, alpha=self.alpha, keep=self.keep, max_new_tokens=max_new_tokens)

    def params(self, sampling: SamplingParams) -> SamplingParams:
        """The sampling params a reply in this mode is drawn with (beam search: the length limit and stops only)."""
        if self.mode is DecodingMode.SAMPLING:
            return sampling
        return replace(GREEDY, max_tokens=sampling.max_tokens, stop=sampling.stop)


@dataclass(frozen=True)
class BeamReplyDone(ReplyDone):
    """A beam-search reply's end: `beams` is what the search found (beam_stats), kept with the reply."""

    beams: dict[str, Any] = field(default_factory=dict)


def beam_reply(result: BeamResult, seconds: float) -> Iterator[ReplyEvent]:
    """A finished beam search as a chat reply: the best hypothesis's text in one piece, then its ReplyDone."""
    best = result.best
    if best.text:
        yield TokenPiece(best.text, best.tokens[0] if best.tokens else -1)
    stop = {BeamEnd.END_OF_TEXT: StopReason.END_OF_TEXT, BeamEnd.USER: StopReason.USER}.get(best.end, StopReason.LENGTH)
    stats = ReplyStats(
        prompt_tokens=result.prompt_tokens,
        completion_tokens=best.length,
        time_to_first_token_s=seconds,  # the whole reply arrives at once
        prompt_eval_tokens_per_s=result.prompt_tokens / result.prompt_s if result.prompt_s > 0 else 0.0,
        generation_tokens_per_s=result.steps / result.decode_s if result.decode_s > 0 else 0.0,
        total_s=seconds,
        stop_reason=stop,
    )
    yield BeamReplyDone(best.text, stats, beams=beam_stats(result))


def beam_stats(result: BeamResult) -> dict[str, Any]:
    """The search's hypotheses (best first) and settings, JSON-ready, for the reply's saved stats."""
    settings = result.settings
    return {
        "width": settings.width,
        "alpha": settings.alpha,
        "keep": settings.kept,
        "steps": result.steps,
        "forks": result.forks,
        "hypotheses": [
            {
                "text": h.text,
                "score": h.score,
                "logprob": h.cumulative_logprob,
                "tokens": h.length,
                "end": h.end.value,
            }
            for h in result.hypotheses
        ],
    }
