"""A server's reply told apart into its reasoning and its answer, whichever shape the server sends.

Servers that split a thinking model's output send the reasoning in a field of its own beside
`content`: `reasoning_content` (llama-server, vLLM up to 0.10, DeepSeek's API), `reasoning`
(OpenRouter, Ollama's OpenAI endpoint, vLLM since 0.11) or `thinking` (Ollama's own name for
it). A server that does not split them (llama-server asked for `reasoning_format: none`, vLLM
without a reasoning parser, many proxies) leaves `<think>…</think>` at the start of `content`:
the same splitter the local engine uses takes the block out.

Once a server has sent reasoning in a field of its own, it has split the reply itself: its
`content` is the answer as it is, a `<think>` in it the answer's own text.
"""

from __future__ import annotations

from app.core.reasoning.splitter import THINK_TAGS, ReasoningSplitter, ReplyChunk
from app.core.types.replies import ReplyPart

# The fields a reasoning delta may come in, the most common first; a server sends one of them.
REASONING_FIELDS = ("reasoning_content", "reasoning", "thinking")


class ReplyParts:
    """Fed each delta's reasoning field and content, in order; returns the chunks it is sure of.

    It also counts the deltas that were reasoning, for a server that does not say how many of
    its tokens were: each delta before the first answer text (the markers' own included) when
    the reply had reasoning, and each reasoning delta after it."""

    def __init__(self) -> None:
        self._splitter = ReasoningSplitter(THINK_TAGS)
        self._server_splits = False
        self._answer_started = False
        self._had_reasoning = False
        self._before_answer = 0
        self._late_reasoning = 0

    @property
    def answer_started(self) -> bool:
        return self._answer_started

    @property
    def reasoning_deltas(self) -> int:
        return self._before_answer + self._late_reasoning if self._had_reasoning else 0

    def feed(self, reasoning: str, content: str) -> list[ReplyChunk]:
        chunks: list[ReplyChunk] = []
        if reasoning:
            if not self._server_splits:
                self._server_splits = True
                chunks += self._splitter.finish()  # what content was held (a blank line) goes as it was
            chunks.append(ReplyChunk(ReplyPart.REASONING, reasoning))
        if content:
            if self._server_splits:
                chunks.append(ReplyChunk(ReplyPart.ANSWER, content))
            else:
                chunks += self._splitter.feed(content)
        self._count(chunks)
        return chunks

    def finish(self) -> list[ReplyChunk]:
        """The end of the reply: what the splitter held back (a block never closed is reasoning)."""
        chunks = [] if self._server_splits else self._splitter.finish()
        self._had_reasoning |= any(chunk.part is ReplyPart.REASONING for chunk in chunks)
        self._answer_started |= any(chunk.part is ReplyPart.ANSWER for chunk in chunks)
        return chunks

    def _count(self, chunks: list[ReplyChunk]) -> None:
        reasoning = any(chunk.part is ReplyPart.REASONING for chunk in chunks)
        self._had_reasoning |= reasoning or self._splitter.in_reasoning
        if self._answer_started:
            self._late_reasoning += reasoning
        elif any(chunk.part is ReplyPart.ANSWER for chunk in chunks):
            self._answer_started = True
        else:
            self._before_answer += 1
