"""One reply's reasoning as the token loop meets it, without a model: pieces, the answer's index, the budget."""

from __future__ import annotations

import time
from dataclasses import replace

from app.core.inference.sampling import GREEDY
from app.core.inference.thinking import ReplyThinking
from app.core.reasoning.families import ReasoningSupport
from app.core.reasoning.splitter import HARMONY, THINK_TAGS
from app.core.reasoning.switch import ThinkingSwitch
from app.core.types.replies import ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats

R1 = ReasoningSupport(THINK_TAGS, starts_inside=True)  # DeepSeek-R1's distills: the prompt opens the block


def fake_tokenize(text: str) -> list[int]:
    return [ord(character) for character in text]


def run(thinking: ReplyThinking, texts: list[str]) -> tuple[list[TokenPiece], list[str]]:
    answer: list[str] = []
    pieces: list[TokenPiece] = []
    for completed, text in enumerate(texts, start=1):
        pieces += thinking.pieces(text, completed, completed, answer.append)
    return pieces + thinking.finish(len(texts), answer.append), answer


def test_a_token_that_ends_the_reasoning_and_starts_the_answer_is_reported_once() -> None:
    thinking = ReplyThinking.start(R1, GREEDY, fake_tokenize)
    pieces, answer = run(thinking, ["Two and two.", "</think>Four", "."])
    assert [(p.text, p.token_id, p.part) for p in pieces] == [
        ("Two and two.", 1, ReplyPart.REASONING),
        ("Four", 2, ReplyPart.ANSWER),
        (".", 3, ReplyPart.ANSWER),
    ]
    assert "".join(answer) == "Four." and thinking.text == "Two and two."


def test_the_reasoning_tokens_are_the_index_of_the_answers_first_token() -> None:
    thinking = ReplyThinking.start(R1, GREEDY, fake_tokenize)
    first_token_at = time.perf_counter()
    run(thinking, ["Hmm", ".", "</think>", "\n\n", "Yes", "."])
    finished = time.perf_counter()
    stats = ReplyStats(completion_tokens=6)
    thinking.fill(stats, 6, first_token_at, finished)
    assert stats.reasoning_tokens == 4  # "Yes" is the fifth token: index 4
    assert 0 <= stats.reasoning_s <= finished - first_token_at  # up to the answer, not the end


def test_a_reply_without_a_block_has_no_reasoning_cost() -> None:
    thinking = ReplyThinking.start(ReasoningSupport(THINK_TAGS), GREEDY, fake_tokenize)
    run(thinking, ["Just", " an answer."])
    stats = ReplyStats()
    thinking.fill(stats, 2, first_token_at=1.0, finished=2.0)
    assert (stats.reasoning_tokens, stats.reasoning_s, thinking.text) == (0, 0.0, "")


def test_the_budget_counts_tokens_inside_the_block_and_closes_it_once() -> None:
    thinking = ReplyThinking.start(ReasoningSupport(THINK_TAGS), replace(GREEDY, reasoning_budget=2), fake_tokenize)
    answer: list[str] = []
    thinking.pieces("<think>", 1, 1, answer.append)
    assert thinking.budget_spent(1) == []  # the opening marker is not the budget's
    thinking.pieces("one", 2, 2, answer.append)
    assert thinking.budget_spent(2) == []
    thinking.pieces(" two", 3, 3, answer.append)
    assert thinking.budget_spent(3) == fake_tokenize("</think>\n\n")
    assert thinking.budget_spent(4) == []  # once


def test_harmonys_budget_closes_the_analysis_and_opens_the_final_channel() -> None:
    gpt_oss = ReasoningSupport(HARMONY, switch=ThinkingSwitch.EFFORT)
    thinking = ReplyThinking.start(gpt_oss, replace(GREEDY, reasoning_budget=1), fake_tokenize)
    answer: list[str] = []
    thinking.pieces("<|channel|>analysis<|message|>", 1, 1, answer.append)
    thinking.pieces("Think", 2, 2, answer.append)
    closing = "".join(map(chr, thinking.budget_spent(2)))
    assert closing == "<|end|><|start|>assistant<|channel|>final<|message|>"
    thinking.pieces(closing, -1, 3, answer.append)
    thinking.pieces("Answer.", 4, 4, answer.append)
    assert (thinking.text, "".join(answer)) == ("Think", "Answer.")


def test_thinking_off_starts_outside_the_block_and_has_no_budget() -> None:
    off = replace(GREEDY, thinking=False, reasoning_budget=5)
    thinking = ReplyThinking.start(R1, off, fake_tokenize)
    _, answer = run(thinking, ["Four."])
    assert "".join(answer) == "Four." and thinking.budget == 0
