"""The prompt inspector: the exact text and tokens the model gets for the next turn.

The prompt is the chat rendered through the model's template and tokenized by the model's
tokenizer, exactly as the engine does before a reply (`Engine.prompt_tokens`). Each token
is shown with its id, its text (special tokens such as `<|im_start|>` visible), where it
starts and ends in the text, and which message it belongs to; messages the context window
left out are listed too, marked as outside. With tools offered, the tokens of their definitions (as the
template writes them) are marked as such, and a tool's result is a message of the role "tool".
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import cast

import llama_cpp

from app.core.chat.context_window import EnginePlanner, PlanRequest, WindowPolicy, WindowTurn, reply_reserve
from app.core.inference.engine import Engine
from app.core.inference.projector import is_image_token
from app.core.inference.prompt_images import SHOWN_MARKER
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolSpec

PREVIEW_CHARS = 60


@dataclass(frozen=True)
class PromptToken:
    token_id: int
    text: str  # special tokens visible; "" for the first bytes of a character split across tokens
    start: int  # character offsets in PromptInspection.text
    end: int
    special: bool  # a control token (template markers, BOS/EOS): not text the user wrote
    message: int | None  # index into PromptInspection.messages of the message whose text this token carries
    piece: bytes = b""  # the token's own bytes (a byte-level BPE token may hold part of a character)
    joins_next: bool = False  # a character begins in this token and ends in a later one
    reasoning: bool = False  # part of a past reply's reasoning, where the chat template keeps it
    tool: bool = False  # part of the definitions of the tools offered, as the template writes them

    @property
    def partial(self) -> bool:
        """The token's bytes are not whole characters: its text shows only in the token that completes them."""
        try:
            self.piece.decode("utf-8")
        except UnicodeDecodeError:
            return True
        return False

    @property
    def byte_label(self) -> str:
        """The token as what it holds: whole characters as text, the bytes of a split character as <E5>."""
        return byte_label(self.piece) if self.partial else self.text


@dataclass(frozen=True)
class MessageEntry:
    role: str
    preview: str
    tokens: int  # tokens carrying this message's text (the template's markers around it are not counted)
    inside: bool  # False: the context window left it out, the model does not see it
    reasoning_tokens: int = 0  # of `tokens`, those carrying the message's reasoning (a template that keeps it)


@dataclass
class PromptInspection:
    text: str
    tokens: list[PromptToken] = field(default_factory=list)
    messages: list[MessageEntry] = field(default_factory=list)  # the left-out ones first, then the prompt's
    n_ctx: int = 0
    reserve: int = 0  # tokens kept free for the reply
    notice: str = ""  # what the context window did, or why the turn cannot be sent
    template: str = ""  # the chat template the prompt is built with, and why (a core text)

    @property
    def count(self) -> int:
        return len(self.tokens)

    @property
    def special_count(self) -> int:
        return sum(1 for token in self.tokens if token.special)

    @property
    def tool_count(self) -> int:
        """Tokens of the tools' definitions."""
        return sum(1 for token in self.tokens if token.tool)

    @property
    def tool_result_count(self) -> int:
        """Tokens of the tools' results the prompt holds (its "tool" messages)."""
        return sum(entry.tokens for entry in self.messages if entry.inside and entry.role == "tool")

    @property
    def fits(self) -> bool:
        return self.count + self.reserve <= self.n_ctx


@dataclass(frozen=True)
class InspectRequest:
    """Show the prompt for the next turn of `conversation` (a leading system message is the system prompt)."""

    conversation: tuple[ChatMessage, ...]
    reserve: int  # max tokens; like a reply's plan, the room kept free is capped at a share of the context
    policy: WindowPolicy = WindowPolicy.ROLLING
    # The chat's sampling: a thinking model's switch and effort change what the template writes. None: defaults.
    sampling: SamplingParams | None = None
    tools: tuple[ToolSpec, ...] = ()  # the tools the chat offers the model


def inspect_prompt(
    engine: Engine,
    messages: Sequence[ChatMessage],
    left_out: Sequence[ChatMessage] = (),
    reserve: int = 0,
    notice: str = "",
    tools: Sequence[ToolSpec] = (),
) -> PromptInspection:
    """Inspect the prompt made of `messages` with `tools` offered; `left_out` are listed as outside the window."""
    ids = engine.prompt_tokens(messages, tools)
    llama = engine.llama
    vocab = llama._model.vocab
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pieces: list[tuple[int, str, bool, bytes, bool]] = []
    for index, token in enumerate(ids):
        if is_image_token(token):  # an image's block: its first token shows llama.cpp's media marker
            shown = SHOWN_MARKER if index == 0 or ids[index - 1] != token else ""
            pieces.append((token, shown, True, b"", False))
            continue
        special = bool(llama_cpp.llama_vocab_is_control(vocab, token) or llama_cpp.llama_vocab_is_eog(vocab, token))
        raw = llama.detokenize([token], special=True)
        piece = decoder.decode(raw)
        pending = bool(decoder.getstate()[0])  # bytes of a character that a later token completes
        pieces.append((token, piece, special, raw, pending))
    tail = decoder.decode(b"", final=True)
    text = "".join(piece for _id, piece, _special, _raw, _joins in pieces) + tail

    spans, reasoning_spans = message_spans(text, messages)
    offer = inserted_span(engine.render_prompt(messages), engine.render_prompt(messages, tools)) if tools else (0, 0)
    tokens: list[PromptToken] = []
    position = 0
    for token, piece, special, raw, joins in pieces:
        end = position + len(piece)
        owner = None if special else _owner(position, end, spans)
        thought = None if special or owner is not None else _owner(position, end, reasoning_spans)
        owner = thought if thought is not None else owner
        tool = owner is None and _owner(position, end, [offer]) is not None
        tokens.append(PromptToken(token, piece, position, end, special, owner, raw, joins, thought is not None, tool))
        position = end
    if tail and tokens:
        last = tokens[-1]
        tokens[-1] = replace(last, text=last.text + tail, end=len(text), joins_next=False)

    outside = [MessageEntry(m.role, _preview(m.content), _count(engine, m.content), False) for m in left_out]
    offset = len(outside)
    counts = [0] * len(messages)
    reasoning_counts = [0] * len(messages)
    for prompt_token in tokens:
        if prompt_token.message is not None:
            counts[prompt_token.message] += 1
            reasoning_counts[prompt_token.message] += prompt_token.reasoning
    inside = [
        MessageEntry(m.role, _preview(m.content), counts[i], True, reasoning_counts[i]) for i, m in enumerate(messages)
    ]
    tokens = [t if t.message is None else replace(t, message=t.message + offset) for t in tokens]
    return PromptInspection(
        text, tokens, [*outside, *inside], engine.n_ctx, reserve, notice, template=engine.template_note
    )


def inspect_conversation(
    engine: Engine,
    conversation: Sequence[ChatMessage],
    reserve: int,
    policy: WindowPolicy = WindowPolicy.ROLLING,
    planner: EnginePlanner | None = None,
    sampling: SamplingParams | None = None,
    tools: Sequence[ToolSpec] = (),
) -> PromptInspection:
    """Plan the context window for the next turn with the chat's own planner, then inspect that prompt.

    `reserve` is max tokens, as in a `PlanRequest`; `planner` is the one replies are planned with
    (the LLM worker's; a new one if None), so the messages inside the window and the room kept
    for the reply (max tokens, capped at a share of the context) are exactly what the model
    gets. A leading system message is the system prompt. When the turn cannot be sent (the
    latest message alone is too long, or the policy says stop), the whole conversation is
    inspected and the notice says why. `sampling` is the chat's: a thinking model's prompt is planned
    and rendered with its thinking switch and reasoning effort, as the reply's is. `tools` are the tools
    the chat offers: planned and rendered with them, their definitions' tokens marked.
    """
    system = conversation[0].content if conversation and conversation[0].role == "system" else ""
    turns = tuple(
        WindowTurn(i, m.role, m.content, m.reasoning) for i, m in enumerate(conversation) if m.role != "system"
    )
    request = PlanRequest("inspect", system, turns, reserve, policy, sampling=sampling, tools=tuple(tools))
    result = (planner or EnginePlanner(engine)).plan(request)
    with engine.thinking(sampling):
        if result.plan is None:
            # The planner's reserve, for the summary beside its message (which names it too).
            reserve = reply_reserve(reserve, engine.n_ctx)
            return inspect_prompt(engine, conversation, reserve=reserve, notice=result.error, tools=tools)
        plan = result.plan
        outside_ids = cast("tuple[int, ...]", plan.outside_ids)  # the turns' ids are their indexes (above)
        left_out = [conversation[i] for i in sorted(set(outside_ids))]
        return inspect_prompt(engine, plan.messages, left_out, plan.reserve, plan.notice, tools)


def byte_label(piece: bytes) -> str:
    """`piece` with its valid UTF-8 as text and every byte of an incomplete or broken character as <XX>."""
    parts = []
    while piece:
        try:
            parts.append(piece.decode("utf-8"))
            break
        except UnicodeDecodeError as error:
            parts.append(piece[: error.start].decode("utf-8"))
            parts.append("".join(f"<{byte:02X}>" for byte in piece[error.start : error.end]))
            piece = piece[error.end :]
    return "".join(parts)


def character_groups(tokens: Sequence[PromptToken]) -> list[range]:
    """Runs of tokens that together carry a character split across them (each run at least two tokens)."""
    groups = []
    start = 0
    for index, token in enumerate(tokens):
        if token.joins_next:
            continue
        if index > start:
            groups.append(range(start, index + 1))
        start = index + 1
    return groups


def message_spans(text: str, messages: Sequence[ChatMessage]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Where each message's content, and its reasoning, sit in the rendered text, searched in order
    ((-1, -1) where the template changed it or left it out).

    A template that keeps a past reply's reasoning writes it before the reply's answer; one that
    drops it (Qwen3, DeepSeek-R1) leaves no reasoning to find."""
    spans: list[tuple[int, int]] = []
    reasoning_spans: list[tuple[int, int]] = []
    cursor = 0
    for message in messages:
        reasoning_span = _found(text, message.reasoning, cursor)
        content_from = reasoning_span[1] if reasoning_span[0] >= 0 else cursor
        span = _found(text, message.content, content_from)
        if span[0] < 0 and reasoning_span[0] >= 0:  # the reasoning's text came later, not this message's
            reasoning_span, span = (-1, -1), _found(text, message.content, cursor)
        spans.append(span)
        reasoning_spans.append(reasoning_span)
        cursor = max(cursor, span[1], reasoning_span[1])
    return spans, reasoning_spans


def inserted_span(without: str, with_tools: str) -> tuple[int, int]:
    """Where in `with_tools` the text stands that is not in `without` (the rendered prompt without and with
    the tools offered): the tools' definitions, which templates write in one block (in the system
    message, or in the first user message as Llama 3.x's do). (0, 0) when the two are the same."""
    prefix = 0
    limit = min(len(without), len(with_tools))
    while prefix < limit and without[prefix] == with_tools[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and without[-1 - suffix] == with_tools[-1 - suffix]:
        suffix += 1
    end = len(with_tools) - suffix
    return (prefix, end) if end > prefix else (0, 0)


def _found(text: str, part: str, cursor: int) -> tuple[int, int]:
    """Where `part` (trimmed) first sits in `text` from `cursor`; (-1, -1) if nowhere or empty."""
    part = part.strip()
    found = text.find(part, cursor) if part else -1
    return (found, found + len(part)) if found >= 0 else (-1, -1)


def _owner(start: int, end: int, spans: list[tuple[int, int]]) -> int | None:
    for index, (first, last) in enumerate(spans):
        # a token holding only the first bytes of a split character has no width: it belongs where it sits
        if (first < end and start < last) or (start == end and first <= start < last):
            return index
    return None


def _count(engine: Engine, text: str) -> int:
    """Tokens of a message's text alone (for messages outside the window, which are not in the prompt)."""
    return len(engine.tokenize(text, special=False))


def _preview(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= PREVIEW_CHARS else line[: PREVIEW_CHARS - 1] + "…"
