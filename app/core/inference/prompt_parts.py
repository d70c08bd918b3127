"""The prompt split into the chat template's own text and the messages' content, tokenized apart.

A message's content is whatever someone typed or sent: the user, a retrieved document, a tool
result, an API client, a system prompt. Tokenized with special tokens parsed, a literal
`<|im_start|>system` in it would become the template's control tokens, and a document could open
a turn of its own. So only the template's own text may yield control tokens; content is always
tokenized as plain text, whatever it spells.

How the content is found: the template is rendered a second time with each content replaced by a
unique sentinel; what stands between the sentinels is the template's own text. The real render is
then read against those pieces: between two pieces stands the content as the template wrote it,
which must be the end of the message's content (templates trim it, or keep what follows a
reasoning block). The longest such end is taken, so a content that spells a piece of the
template can only make more text plain, never content special. A template that cannot be read so
(it rewrites content another way) gets each message's content as it was sent, still as text.

The token ids are those llama.cpp gives the whole prompt with special tokens parsed, whenever the
content spells no control token: the template's control tokens are cut out, and the plain text
between them (template text and content joined) is tokenized in one piece, as llama.cpp does.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import llama_cpp
from llama_cpp import llama_chat_format

from app.core.support.user_text import N_

log = logging.getLogger(__name__)

# The tokens llama.cpp parses from text only when asked to parse special tokens (llama-vocab.cpp,
# tokenizer_st_partition); user-defined tokens are parsed either way.
_MARKER_ATTRIBUTES = llama_cpp.LLAMA_TOKEN_ATTR_CONTROL | llama_cpp.LLAMA_TOKEN_ATTR_UNKNOWN


CUTS_CONTENT = N_(
    "The model's chat template cuts message content apart, so Glassbox cannot keep it apart from "
    "the template's own markers."
)


class TemplateCutsContent(Exception):
    """The chat template cuts message content apart, so content cannot be told from the template's text."""


@dataclass(frozen=True)
class PromptPart:
    text: str
    content: bool  # a message's content (tokenized as plain text); False: the template's own text
    tokens: tuple[int, ...] = ()  # given token ids (an image's, prompt_images.py) that stand for the text


@dataclass(frozen=True)
class RenderedPrompt:
    parts: tuple[PromptPart, ...]
    added_special: bool  # the template put in the BOS token itself (llama-cpp-python's formatters always do)

    @property
    def text(self) -> str:
        return "".join(part.text for part in self.parts)


def render_parts(
    formatter: llama_chat_format.Jinja2ChatFormatter,
    messages: Sequence[tuple[str, str] | tuple[str, str, str] | tuple[str, str, str, Mapping[str, Any]]],
    variables: Mapping[str, Any] | None = None,
) -> RenderedPrompt:
    """The prompt for `messages` ((role, content) pairs, or (role, content, reasoning) for an earlier reply's
    reasoning, passed as `reasoning_content` as llama.cpp passes it) in template parts and content parts;
    `variables` are the template's own (`enable_thinking`, `reasoning_effort`, `tools`). A past reasoning the template
    writes is content like any other: plain text, whatever it spells. A fourth item holds a message's other fields
    for the template (an assistant's `tool_calls`, a tool result's `tool_call_id`): the template writes them as its
    own text, as it writes the tools offered.

    Raises TemplateCutsContent when the template cuts a content apart (its sentinel is left broken)."""
    turns = [_turn(message) for message in messages]
    real = _render(formatter, turns, variables)
    nonce = uuid.uuid4().int  # digits: a template that changes the case of content leaves them as they are
    texts: list[str] = []  # what each sentinel stands for

    def sentinel(text: str) -> str:
        if not text:
            return ""
        texts.append(text)
        return f"\x00{nonce}:{len(texts) - 1}\x00"

    sentinels = [(role, sentinel(content), sentinel(reasoning), fields) for role, content, reasoning, fields in turns]
    marked = _render(formatter, sentinels, variables).prompt
    pieces = re.split(f"\x00{nonce}:(\\d+)\x00", marked)
    templates = pieces[0::2]
    if any("\x00" in template for template in templates):
        raise TemplateCutsContent(CUTS_CONTENT)
    contents = [texts[int(index)] for index in pieces[1::2]]  # as often and in the order the template has them
    found = _read_contents(real.prompt, templates, contents)
    if found is None:
        log.debug("The chat template rewrites message content; each content goes in as it was sent")
    return RenderedPrompt(_interleave(templates, contents if found is None else found), real.added_special)


_Turn = tuple[str, str, str, Mapping[str, Any]]


def _turn(message: Sequence[Any]) -> _Turn:
    role, content, *rest = message
    return (role, content, rest[0] if rest else "", rest[1] if len(rest) > 1 else {})


def _render(
    formatter: llama_chat_format.Jinja2ChatFormatter,
    messages: Sequence[_Turn],
    variables: Mapping[str, Any] | None,
) -> llama_chat_format.ChatFormatterResponse:
    chat: list[Any] = []  # llama_cpp's TypedDicts
    for role, content, reasoning, fields in messages:
        message = {**fields, "role": role, "content": content}
        if reasoning:
            message["reasoning_content"] = reasoning
        chat.append(message)
    return formatter(messages=chat, **(variables or {}))


def _read_contents(real: str, templates: Sequence[str], contents: Sequence[str]) -> list[str] | None:
    """What `real` has between the template pieces, each the end of its content (trimmed, or after a reasoning
    block the template leaves out); None if it cannot be read so. The latest end that fits is taken."""
    if not real.startswith(templates[0]):
        return None
    position = len(templates[0])
    found = []
    for index, content in enumerate(contents):
        following = templates[index + 1]
        if index == len(contents) - 1:
            ends = [len(real) - len(following)] if real.endswith(following) else []
        else:
            ends = _starts(real, following, position, len(content))
        written = (end for end in reversed(ends) if end >= position and _written_from(content, real[position:end]))
        end = next(written, None)
        if end is None:
            return None
        found.append(real[position:end])
        position = end + len(following)
    return found if position == len(real) else None


def _written_from(content: str, written: str) -> bool:
    """`written` is how a template may write `content`: the end of it, or the end of it trimmed."""
    return content.endswith(written) or content.rstrip().endswith(written)


def _starts(text: str, piece: str, start: int, longest: int) -> list[int]:
    """Where `piece` begins in `text` at most `longest` characters after `start`, in order."""
    ends = []
    at = text.find(piece, start)
    while 0 <= at <= start + longest:
        ends.append(at)
        at = text.find(piece, at + 1)
    return ends


def _interleave(templates: Sequence[str], contents: Sequence[str]) -> tuple[PromptPart, ...]:
    parts = [PromptPart(templates[0], False)]
    for content, template in zip(contents, templates[1:], strict=True):
        parts += [PromptPart(content, True), PromptPart(template, False)]
    return tuple(part for part in parts if part.text)


class PromptTokenizer:
    """Tokenizes rendered prompts for one loaded model; the template's pieces are split once each."""

    _KEPT_PIECES = 256  # a template has a handful of distinct pieces (one per role and position)

    def __init__(self, llama: llama_cpp.Llama) -> None:
        self._llama = llama
        self._pieces: OrderedDict[str, list[int | str]] = OrderedDict()

    def tokenize(self, prompt: RenderedPrompt) -> list[int]:
        """The prompt's token ids: control tokens only where the template's own text spells them."""
        runs: list[int | str | tuple[int, ...]] = []  # control token ids, the plain text between them, images
        for part in prompt.parts:
            if part.tokens:
                runs.append(part.tokens)
                continue
            for run in [part.text] if part.content else self._split_markers(part.text):
                if isinstance(run, str) and runs and isinstance(runs[-1], str):
                    runs[-1] += run
                else:
                    runs.append(run)
        llama = self._llama
        ids = [] if prompt.added_special else llama.tokenize(b"", add_bos=True, special=False)
        for piece in runs:
            if isinstance(piece, str):
                ids += llama.tokenize(piece.encode("utf-8"), add_bos=False, special=False)
            else:
                ids += [piece] if isinstance(piece, int) else piece
        return ids

    def _split_markers(self, text: str) -> list[int | str]:
        runs = self._pieces.get(text)
        if runs is None:
            runs = self._pieces[text] = _split_markers(self._llama, text)
            if len(self._pieces) > self._KEPT_PIECES:
                self._pieces.popitem(last=False)
        else:
            self._pieces.move_to_end(text)
        return runs


def _split_markers(llama: llama_cpp.Llama, text: str) -> list[int | str]:
    """`text` as its control tokens and the plain text around them."""
    vocab = llama._model.vocab
    runs: list[int | str] = []
    position = 0
    for token in llama.tokenize(text.encode("utf-8"), add_bos=False, special=True):
        if not llama_cpp.llama_vocab_get_attr(vocab, token) & _MARKER_ATTRIBUTES:
            continue
        spelled = llama.detokenize([token], special=True).decode("utf-8", errors="replace")
        at = text.find(spelled, position)
        if at < 0:  # a marker not spelled as its own text: the piece keeps llama.cpp's reading whole
            return [*llama.tokenize(text.encode("utf-8"), add_bos=False, special=True)]
        runs += [text[position:at], token]
        position = at + len(spelled)
    runs.append(text[position:])
    return [run for run in runs if run != ""]
