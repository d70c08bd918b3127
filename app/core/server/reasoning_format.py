"""Where a thinking model's reasoning goes in a chat reply: llama-server's `reasoning_format`.

- `auto` (the default) and `deepseek`: in `reasoning_content`, beside the answer's `content`,
  in the message and in the stream's deltas; a reply without reasoning has no such field.
- `deepseek-legacy`: the same in a whole reply; a stream sends the reasoning inside `content`
  in its tags (llama-server's `reasoning_in_content`, for streams only).
- `none`: the raw text: the reasoning inside `content`, in `<think>…</think>`, before the answer.

Inside `content` the block is closed when the answer begins, as the model wrote it; a reply
that ended while still reasoning (Stop, the length limit) leaves it open, as llama-server's raw
text does.
"""

from __future__ import annotations

from enum import StrEnum

from app.core.reasoning.splitter import THINK_TAGS
from app.core.types.replies import ReplyPart, TokenPiece

AFTER_BLOCK = "\n\n"  # between the closed block and the answer, as thinking models write it


class ReasoningFormat(StrEnum):
    """The values llama-server accepts, in its order."""

    NONE = "none"
    AUTO = "auto"
    DEEPSEEK = "deepseek"
    DEEPSEEK_LEGACY = "deepseek-legacy"

    def in_content(self, stream: bool) -> bool:
        """Whether the reasoning goes inside `content` rather than in `reasoning_content`."""
        return self is ReasoningFormat.NONE or (stream and self is ReasoningFormat.DEEPSEEK_LEGACY)


def with_reasoning_inside(reasoning: str, answer: str) -> str:
    """A whole reply's content with its reasoning inside, in its tags."""
    if not reasoning:
        return answer
    block = THINK_TAGS.open + reasoning
    return block + THINK_TAGS.close + AFTER_BLOCK + answer if answer else block


class ReasoningInContent:
    """A stream's pieces as content text, the reasoning inside its tags: the opening tag goes with
    the first piece of reasoning, the closing one with the first piece of the answer after it."""

    def __init__(self) -> None:
        self._part: ReplyPart | None = None

    def text(self, piece: TokenPiece) -> str:
        before = self._part
        if before is not ReplyPart.ANSWER:  # reasoning after the answer began is the answer's text
            self._part = piece.part
        if piece.part is ReplyPart.REASONING and before is None:
            return THINK_TAGS.open + piece.text
        if piece.part is ReplyPart.ANSWER and before is ReplyPart.REASONING:
            return THINK_TAGS.close + AFTER_BLOCK + piece.text
        return piece.text
