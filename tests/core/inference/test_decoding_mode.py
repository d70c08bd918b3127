"""A chat's decoding mode: the params each mode decodes with, and a beam search as a chat reply."""

from __future__ import annotations

import pytest

from app.core.inference.beam_search import BeamEnd, BeamResult, BeamSettings, Hypothesis
from app.core.inference.decoding_mode import BeamReplyDone, DecodingMode, DecodingSettings, beam_reply
from app.core.inference.sampling import SamplingParams
from app.core.types.replies import TokenPiece
from app.core.types.stats import StopReason

SAMPLING = SamplingParams(temperature=1.1, top_k=7, max_tokens=33, stop=("\n\n",))


def result(end: BeamEnd) -> BeamResult:
    best = Hypothesis((5, 6, 7), (-0.1, -0.2, -0.3), -0.6, -0.5, end, text="a b c")
    other = Hypothesis((5, 8), (-0.1, -1.0), -1.1, -1.0, BeamEnd.END_OF_TEXT, text="a d")
    return BeamResult(BeamSettings(width=2, keep=2), [best, other], prompt_tokens=12, context_cells=256,
                      steps=4, prompt_s=0.5, decode_s=0.2, forks=1)  # fmt: skip


def test_sampling_keeps_the_chat_settings_and_the_others_keep_only_its_limit_and_stops() -> None:
    assert DecodingSettings().params(SAMPLING) == SAMPLING
    for mode in (DecodingMode.GREEDY, DecodingMode.BEAM):
        params = DecodingSettings(mode).params(SAMPLING)
        assert params.temperature == 0 and params.top_k == 1
        assert (params.max_tokens, params.stop) == (33, ("\n\n",))


@pytest.mark.parametrize(
    ("settings", "problem"),
    [
        (DecodingSettings(DecodingMode.BEAM, width=1), "The beam width must be 2 to 8, not 1."),
        (DecodingSettings(DecodingMode.BEAM, width=9), "The beam width must be 2 to 8, not 9."),
        (DecodingSettings(DecodingMode.BEAM, width=3, keep=4), "Keep 1 to 3 hypotheses"),
        (DecodingSettings(DecodingMode.BEAM, alpha=7.0), "length penalty must be 0 to 5"),
    ],
)
def test_beam_settings_that_cannot_run_are_named(settings: DecodingSettings, problem: str) -> None:
    assert problem in " ".join(settings.problems())


ENDS = [
    (BeamEnd.END_OF_TEXT, StopReason.END_OF_TEXT),
    (BeamEnd.LENGTH, StopReason.LENGTH),
    (BeamEnd.USER, StopReason.USER),
]


@pytest.mark.parametrize(("end", "reason"), ENDS)
def test_a_beam_search_becomes_one_piece_and_a_reply_that_keeps_every_hypothesis(
    end: BeamEnd, reason: StopReason
) -> None:
    piece, done = list(beam_reply(result(end), seconds=0.8))
    assert isinstance(piece, TokenPiece) and piece.text == "a b c" and piece.token_id == 5
    assert isinstance(done, BeamReplyDone) and done.text == "a b c"
    assert done.stats.stop_reason is reason
    assert (done.stats.prompt_tokens, done.stats.completion_tokens) == (12, 3)
    assert done.stats.generation_tokens_per_s == pytest.approx(4 / 0.2)
    assert [h["text"] for h in done.beams["hypotheses"]] == ["a b c", "a d"]
    assert (done.beams["width"], done.beams["keep"], done.beams["forks"]) == (2, 2, 1)
