"""The streaming split of a reply into reasoning and answer, whatever the pieces it arrives in."""

from __future__ import annotations

import pytest

from app.core.reasoning.splitter import THINK_BRACKETS, THINK_TAGS, ReasoningSplitter, split_reasoning
from app.core.types.replies import ReplyPart


def split_in_pieces(text: str, cuts: list[int], *, starts_inside: bool = False) -> tuple[str, str]:
    splitter = ReasoningSplitter(THINK_TAGS, starts_inside=starts_inside)
    chunks = []
    for start, end in zip([0, *cuts], [*cuts, len(text)], strict=True):
        chunks += splitter.feed(text[start:end])
    chunks += splitter.finish()
    return (
        "".join(c.text for c in chunks if c.part is ReplyPart.REASONING),
        "".join(c.text for c in chunks if c.part is ReplyPart.ANSWER),
    )


REPLY = "<think>\nTwo and two make four.\n</think>\n\nIt is 4."


@pytest.mark.parametrize("cut", range(len(REPLY) + 1))
def test_a_reply_cut_at_any_position_splits_the_same(cut: int) -> None:
    assert split_in_pieces(REPLY, [cut]) == ("\nTwo and two make four.\n", "It is 4.")


def test_a_reply_fed_one_character_at_a_time_splits_the_same() -> None:
    assert split_in_pieces(REPLY, list(range(1, len(REPLY)))) == ("\nTwo and two make four.\n", "It is 4.")


def test_a_template_that_opens_the_block_itself_starts_the_reply_inside_it() -> None:
    assert split_reasoning("Hmm, four.</think>Four.", THINK_TAGS, starts_inside=True) == ("Hmm, four.", "Four.")


def test_an_unclosed_block_at_the_end_is_reasoning_not_answer() -> None:
    assert split_reasoning("<think>Let me see, the user wants", THINK_TAGS) == ("Let me see, the user wants", "")
    assert split_reasoning("Still thinking </thi", THINK_TAGS, starts_inside=True) == ("Still thinking </thi", "")


def test_a_marker_inside_the_answer_is_the_answer_own_text() -> None:
    assert split_reasoning("Use <think> tags like <think>this</think>.", THINK_TAGS) == (
        "",
        "Use <think> tags like <think>this</think>.",
    )


def test_a_reply_without_reasoning_is_all_answer_even_when_it_starts_like_a_marker() -> None:
    assert split_reasoning("<thinking>is fun</thinking>", THINK_TAGS) == ("", "<thinking>is fun</thinking>")
    assert split_reasoning("<th", THINK_TAGS) == ("", "<th")


def test_magistral_brackets_split_the_same_way() -> None:
    assert split_reasoning("[THINK]Short.[/THINK]Answer.", THINK_BRACKETS) == ("Short.", "Answer.")


def test_the_splitter_says_when_it_is_inside_the_reasoning() -> None:
    splitter = ReasoningSplitter(THINK_TAGS)
    splitter.feed("<think>a")
    assert splitter.in_reasoning
    splitter.feed("</think>b")
    assert not splitter.in_reasoning


def test_the_block_opens_as_soon_as_its_marker_is_whole() -> None:
    splitter = ReasoningSplitter(THINK_TAGS)
    assert splitter.feed("<think>") == []
    assert splitter.in_reasoning  # a budget counts from here, not from the next piece
