"""gpt-oss's harmony channels split into reasoning and answer, whatever the pieces they arrive in."""

from __future__ import annotations

import pytest

from app.core.reasoning.splitter import HARMONY, ReasoningSplitter, split_reasoning
from app.core.types.replies import ReplyPart

# As gpt-oss writes a reply after the generation prompt `<|start|>assistant` (its control tokens rendered).
REPLY = (
    "<|channel|>analysis<|message|>The user asks 2+2. Easy.<|end|><|start|>assistant<|channel|>final<|message|>It is 4."
)


def split_in_pieces(text: str, cuts: list[int]) -> tuple[str, str]:
    splitter = ReasoningSplitter(HARMONY)
    chunks = []
    for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True):
        chunks += splitter.feed(text[start:end])
    chunks += splitter.finish()
    return (
        "".join(c.text for c in chunks if c.part is ReplyPart.REASONING),
        "".join(c.text for c in chunks if c.part is ReplyPart.ANSWER),
    )


@pytest.mark.parametrize("cut", range(len(REPLY) + 1))
def test_a_harmony_reply_cut_at_any_position_splits_the_same(cut: int) -> None:
    assert split_in_pieces(REPLY, [cut]) == ("The user asks 2+2. Easy.", "It is 4.")


def test_a_harmony_reply_fed_one_character_at_a_time_splits_the_same() -> None:
    assert split_in_pieces(REPLY, list(range(1, len(REPLY)))) == ("The user asks 2+2. Easy.", "It is 4.")


def test_the_header_between_the_channels_is_neither_reasoning_nor_answer() -> None:
    reasoning, answer = split_reasoning(REPLY, HARMONY)
    assert "<|start|>" not in reasoning + answer and "assistant" not in reasoning + answer


def test_a_reply_straight_to_the_final_channel_is_all_answer() -> None:
    assert split_reasoning("<|channel|>final<|message|>Hello.", HARMONY) == ("", "Hello.")


def test_a_second_analysis_message_is_more_reasoning() -> None:
    reply = (
        "<|channel|>analysis<|message|>First.<|end|><|start|>assistant<|channel|>analysis<|message|>Second.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>Done."
    )
    assert split_reasoning(reply, HARMONY) == ("First.Second.", "Done.")


def test_a_reply_stopped_in_the_analysis_channel_is_reasoning() -> None:
    assert split_reasoning("<|channel|>analysis<|message|>Let me think", HARMONY) == ("Let me think", "")


def test_a_reply_stopped_in_the_header_after_the_analysis_has_no_answer() -> None:
    assert split_reasoning("<|channel|>analysis<|message|>Done.<|end|><|start|>assist", HARMONY) == ("Done.", "")


def test_a_long_header_before_the_final_channel_is_dropped_and_the_answer_still_found() -> None:
    splitter = ReasoningSplitter(HARMONY)
    chunks = splitter.feed("<|channel|>analysis<|message|>x<|end|>")
    for _ in range(200):
        chunks += splitter.feed("header text <|chan")
    chunks += splitter.feed("nel|>final<|message|>Answer.") + splitter.finish()
    assert [(c.part, c.text) for c in chunks] == [(ReplyPart.REASONING, "x"), (ReplyPart.ANSWER, "Answer.")]
