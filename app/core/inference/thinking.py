"""A thinking model's reply in the token loop: its pieces marked reasoning or answer, and the block
closed at the thinking budget. (Thinking switched off is in the prompt already: the template's
variable, or the empty block the engine's render writes after the generation prompt.)

The split works on each piece's text as it comes (app/core/reasoning/splitter.py), never on the
whole reply again, so it adds a few microseconds a token. Every token the model (or the budget)
wrote is reported in exactly one piece that carries its id; where one token's text holds the end
of the reasoning and the start of the answer, the answer's part follows in a piece of id -1, as
the text a reply's end releases does.

The reasoning's cost: the tokens before the first token of the answer (the block's markers among
them; `ReplyStats.reasoning_tokens` is also the index of the answer's first token in the token
trace), and the seconds from the first token to the answer's first token (or the end, if none).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import llama_cpp

from app.core.inference.sampling import SamplingParams
from app.core.reasoning.families import ReasoningSupport
from app.core.reasoning.splitter import ReasoningSplitter, ReplyChunk
from app.core.types.replies import ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats

Tokenize = Callable[[str], list[int]]  # text to token ids, special tokens parsed


def marker_tokens(llama: llama_cpp.Llama, support: ReasoningSupport | None) -> frozenset[int]:
    """The control tokens among the family's markers: the token loop writes their text (token_texts.py)."""
    if support is None:
        return frozenset()
    vocab = llama._model.vocab
    markers = support.markers
    shown = set()
    for marker in filter(None, (markers.open, markers.close, markers.answer_open)):
        for token in llama.tokenize(marker.encode("utf-8"), add_bos=False, special=True):
            if llama_cpp.llama_vocab_get_attr(vocab, token) & llama_cpp.LLAMA_TOKEN_ATTR_CONTROL:
                shown.add(token)
    return frozenset(shown)


@dataclass
class ReplyThinking:
    """One reply's reasoning, as the token loop meets it."""

    splitter: ReasoningSplitter
    closing: list[int]  # written at the budget to close the block
    budget: int  # tokens inside the block after which it is closed (0: no limit)
    opened_after: int = -1  # tokens before the block opened (-1: not open yet)
    reasoning: list[str] = field(default_factory=list)
    answer_from: int = -1  # tokens before the answer's first one (-1: no answer yet)
    answered_at: float = 0.0
    closed_at_budget: bool = False

    @classmethod
    def start(cls, support: ReasoningSupport, params: SamplingParams, tokenize: Tokenize) -> ReplyThinking:
        off = not params.thinking and support.can_switch_off
        # Off, the prompt ends after a closed block (the template's switch or the prefill), never inside one.
        starts_inside = support.starts_inside and not off
        budget = params.reasoning_budget if not off else 0
        return cls(
            ReasoningSplitter(support.markers, starts_inside=starts_inside),
            tokenize(support.closing()) if budget else [],
            budget,
            0 if starts_inside else -1,
        )

    @property
    def part_now(self) -> ReplyPart:
        return ReplyPart.REASONING if self.splitter.reasoned and self.answer_from < 0 else ReplyPart.ANSWER

    def pieces(self, text: str, token: int, completed: int, answer: Callable[[str], None]) -> list[TokenPiece]:
        """The pieces of the `completed`-th token's `text` (`answer` keeps the answer's text)."""
        chunks = self.splitter.feed(text)
        if self.opened_after < 0 and self.splitter.in_reasoning:
            self.opened_after = completed  # the opening marker's tokens are not the budget's
        if not chunks:
            return [TokenPiece("", token, self.part_now)]  # held: it may be a marker
        return self._pieces(chunks, token, completed, answer)

    def finish(self, completed: int, answer: Callable[[str], None]) -> list[TokenPiece]:
        """What the splitter still held at the end of the reply."""
        return self._pieces(self.splitter.finish(), -1, completed + 1, answer)

    def budget_spent(self, completed: int) -> list[int]:
        """The closing tokens to write now, once, when the reasoning has used up its budget (else [])."""
        if not self.budget or self.closed_at_budget or not self.splitter.in_reasoning:
            return []
        if completed - self.opened_after < self.budget:
            return []
        self.closed_at_budget = True
        return self.closing

    def fill(self, stats: ReplyStats, completed: int, first_token_at: float, finished: float) -> None:
        if not self.splitter.reasoned:
            return
        stats.reasoning_tokens = completed if self.answer_from < 0 else self.answer_from
        if first_token_at:
            stats.reasoning_s = (self.answered_at or finished) - first_token_at

    @property
    def text(self) -> str:
        """The reasoning, without its markers and the blank lines around it."""
        return "".join(self.reasoning).strip()

    def _pieces(
        self, chunks: list[ReplyChunk], token: int, completed: int, answer: Callable[[str], None]
    ) -> list[TokenPiece]:
        pieces = []
        for part, text in chunks:
            if part is ReplyPart.ANSWER:
                if self.answer_from < 0:
                    self.answer_from, self.answered_at = completed - 1, time.perf_counter()
                answer(text)
            else:
                self.reasoning.append(text)
            pieces.append(TokenPiece(text, token, part))
            token = -1  # the token is reported once
        return pieces
