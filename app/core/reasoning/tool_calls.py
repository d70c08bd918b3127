"""The tool calls in a model's answer, told apart from its text, as it streams.

Beside the reasoning splitter: where that one finds the reasoning block at the start of a reply,
this one finds where the answer's tool calls start (the family's opening marker, held back while
only part of it has come) and keeps everything from there until the reply ends, when the calls are
read. Text before the first call is the answer's content and streams as it comes. A call that does
not parse stays text: nothing the model wrote is lost.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.core.reasoning.splitter import partial_marker_length
from app.core.reasoning.tool_formats import ToolFamily
from app.core.types.tools import ToolCall

HERMES_OPEN = "<tool_call>"
HERMES_CLOSE = "</tool_call>"
MISTRAL_OPEN = "[TOOL_CALLS]"
MISTRAL_ARGS = "[ARGS]"
PYTHON_TAG = "<|python_tag|>"  # Llama 3.x's marker before a call (always before built-in tools)
HARMONY_RECIPIENT = "to=functions."

_OPENERS = {
    ToolFamily.HERMES: (HERMES_OPEN,),
    ToolFamily.LLAMA3: (PYTHON_TAG,),
    ToolFamily.MISTRAL: (MISTRAL_OPEN,),
    ToolFamily.MISTRAL_JSON: (MISTRAL_OPEN,),
    ToolFamily.HARMONY: ("<|channel|>commentary to=", HARMONY_RECIPIENT),
}
_HERMES_BLOCK = re.compile(re.escape(HERMES_OPEN) + r"\s*(.*?)\s*(?:" + re.escape(HERMES_CLOSE) + r"|$)", re.DOTALL)
_HARMONY_CALL = re.compile(  # to=functions.NAME, any header tokens, then the arguments up to <|call|>
    re.escape(HARMONY_RECIPIENT)
    + r"([\w.\-]+)[^<]*(?:<\|(?:channel|constrain)\|>[^<]*)*<\|message\|>(.*?)(?:<\|call\|>|$)",
    re.DOTALL,
)


@dataclass(frozen=True)
class ParsedAnswer:
    content: str  # the answer's text without its calls
    calls: tuple[ToolCall, ...]


def new_call_id() -> str:
    """An id for a call, in OpenAI's shape."""
    return "call_" + uuid.uuid4().hex[:24]


class ToolCallSplitter:
    """Feed it the answer's text as it streams: it returns the text sure to be content; `finish`
    reads the calls held back since the first marker."""

    def __init__(self, family: ToolFamily) -> None:
        self.family = family
        self._openers = _OPENERS[family]
        self._held = ""
        self._calling = False  # a call has started: everything from here is held to the end
        self._seen_text = False

    @property
    def calling(self) -> bool:
        return self._calling

    def feed(self, text: str) -> str:
        if self._calling:
            self._held += text
            return ""
        self._held += text
        if self.family is ToolFamily.LLAMA3 and not self._seen_text:
            stripped = self._held.lstrip()
            if not stripped:
                return ""
            if stripped.startswith("{"):  # Llama 3.x writes a call as the reply's only text
                self._calling, self._held = True, stripped
                return ""
        found = [at for marker in self._openers if (at := self._held.find(marker)) >= 0]
        if found:
            at = min(found)
            content, self._held, self._calling = self._held[:at], self._held[at:], True
            return self._sure(content)
        keep = max(partial_marker_length(self._held, marker) for marker in self._openers)
        content, self._held = self._held[: len(self._held) - keep], self._held[len(self._held) - keep :]
        return self._sure(content)

    def finish(self) -> ParsedAnswer:
        """The calls held back (none when they do not parse: then they are the text that is left)."""
        held, self._held = self._held, ""
        if not self._calling:
            return ParsedAnswer(held, ())
        calls = read_calls(held, self.family)
        return ParsedAnswer("", calls) if calls else ParsedAnswer(held, ())

    def _sure(self, content: str) -> str:
        if content.strip():
            self._seen_text = True
        return content


def parse_tool_calls(answer: str, family: ToolFamily) -> ParsedAnswer:
    """A whole answer's text and calls."""
    splitter = ToolCallSplitter(family)
    content = splitter.feed(answer)
    rest = splitter.finish()
    return ParsedAnswer((content + rest.content).strip(), rest.calls)


def read_calls(text: str, family: ToolFamily) -> tuple[ToolCall, ...]:
    """The calls in `text` (from the first marker on); () when any of them does not parse."""
    try:
        found = list(_calls(text, family))
    except (ValueError, TypeError, KeyError):
        return ()
    return tuple(ToolCall(new_call_id(), name, arguments) for name, arguments in found)


def _calls(text: str, family: ToolFamily) -> Iterator[tuple[str, str]]:
    if family is ToolFamily.HERMES:
        for block in _HERMES_BLOCK.findall(text):
            yield _named_call(json.loads(block))
    elif family is ToolFamily.LLAMA3:
        for value in _json_values(text.replace(PYTHON_TAG, "").strip(), separators=";\n "):
            for call in value if isinstance(value, list) else [value]:
                yield _named_call(call)
    elif family in (ToolFamily.MISTRAL, ToolFamily.MISTRAL_JSON):
        for segment in text.split(MISTRAL_OPEN)[1:]:
            if MISTRAL_ARGS in segment:
                name, arguments = segment.split(MISTRAL_ARGS, 1)
                yield name.strip(), _object_text(next(_json_values(arguments.strip(), separators="")))
            else:
                for call in json.loads(segment.strip()):
                    yield _named_call(call)
    else:  # harmony
        for name, arguments in _HARMONY_CALL.findall(text):
            yield name, _object_text(json.loads(arguments))
    if not _calls_in(text, family):
        raise ValueError("no call")


def _calls_in(text: str, family: ToolFamily) -> bool:
    if family is ToolFamily.HERMES:
        return bool(_HERMES_BLOCK.search(text))
    if family is ToolFamily.HARMONY:
        return bool(_HARMONY_CALL.search(text))
    return bool(text.strip())


def _named_call(value: Any) -> tuple[str, str]:
    """{"name": …, "arguments" or "parameters": {…} or its JSON text} as (name, arguments' JSON text)."""
    name = value["name"]
    if not isinstance(name, str) or not name:
        raise ValueError("a call without a name")
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = json.loads(arguments or "{}")
    return name, _object_text(arguments)


def _object_text(value: Any) -> str:
    if not isinstance(value, dict):
        raise ValueError("a call's arguments must be an object")
    return json.dumps(value, ensure_ascii=False)


def _json_values(text: str, separators: str) -> Iterator[Any]:
    """The JSON values written one after the other in `text` (separated by any of `separators`)."""
    decoder = json.JSONDecoder()
    position = 0
    while position < len(text):
        value, position = decoder.raw_decode(text, position)
        yield value
        while position < len(text) and text[position] in separators:
            position += 1
        if not separators:
            return
