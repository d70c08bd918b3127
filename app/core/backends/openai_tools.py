"""Tools on an OpenAI-compatible server: what is sent (the tools offered, the choice, the calls and
results of earlier rounds) and the calls read back, put together from the streamed deltas.

A streamed call comes in pieces: its first delta has the call's `index` (its place among the reply's
calls), its `id` and `function.name`; the next ones add fragments of `function.arguments`, JSON text
cut anywhere (inside a key, an escape, a number), under the same index. A whole reply's
`message.tool_calls` is the same thing in one piece. Servers differ in the details, and each is taken
as it comes:

- a delta without `index` continues the last call, unless it brings an id of its own (a new call);
- an id sent again on a later delta is the same call; a different id at an index already used starts
  a new call (servers that send each of parallel calls whole, all at index 0);
- arguments sent as an object instead of JSON text are that object's text;
- a call without an id gets one here, so its result can go back with it.

A call that never got a name cannot be run: it is left out, logged. A field of the wrong type is
ignored, logged, as the rest of the remote backend does.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.backends.image_content import message_content
from app.core.reasoning.tool_calls import new_call_id
from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolCall, ToolSpec

log = logging.getLogger(__name__)


def request_message(message: ChatMessage) -> dict[str, Any]:
    """`message` as the Chat Completions API takes it: an assistant's calls with their ids, a tool's
    result with the id of the call it answers."""
    if message.role == "tool":
        return {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
    body: dict[str, Any] = {"role": message.role, "content": message_content(message)}
    if message.role == "assistant" and message.tool_calls:
        # A reply that only called keeps its empty text: llama_cpp.server refuses a null content and its
        # chatml-function-calling template fails on a missing one; the other servers take "" too.
        body["tool_calls"] = [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in message.tool_calls
        ]
    return body


def tool_fields(tools: Sequence[ToolSpec], forced: Sequence[str]) -> dict[str, Any]:
    """The request's `tools` and `tool_choice`: one forced tool is named; several are required, with
    only those offered; none leaves the choice to the model (OpenAI's default, so no field is sent)."""
    if not tools:
        return {}
    choice: Any = None
    if len(forced) == 1:
        choice = {"type": "function", "function": {"name": forced[0]}}
    elif forced:
        tools = [tool for tool in tools if tool.name in forced]
        choice = "required"
    fields: dict[str, Any] = {"tools": [tool.as_openai() for tool in tools]}
    if choice is not None:
        fields["tool_choice"] = choice
    return fields


@dataclass
class _Call:
    id: str = ""
    name: list[str] = field(default_factory=list)
    arguments: list[str] = field(default_factory=list)


class ToolCallDeltas:
    """The calls of one reply, fed each delta's (or the whole message's) `tool_calls` in order."""

    def __init__(self) -> None:
        self._calls: list[_Call] = []
        self._places: dict[int, int] = {}  # the server's index -> the call's place in `_calls`

    def feed(self, value: Any) -> None:
        """Take one `tool_calls` field (None: the delta has none)."""
        if value is None:
            return
        if not isinstance(value, list):
            _ignored("a delta's tool_calls", value, "a list")
            return
        for entry in value:
            if isinstance(entry, dict):
                self._take(entry)
            else:
                _ignored("a tool call", entry, "an object")

    def calls(self) -> tuple[ToolCall, ...]:
        """The calls put together, in the order the server numbered them."""
        calls = []
        for call in self._calls:
            name = "".join(call.name)
            if not name:
                log.warning("Ignored a tool call from the server without a name (id %.40r)", call.id)
                continue
            arguments = "".join(call.arguments)
            calls.append(ToolCall(call.id or new_call_id(), name, arguments if arguments.strip() else "{}"))
        return tuple(calls)

    def _take(self, entry: dict[str, Any]) -> None:
        call = self._call_for(entry.get("index"), _text(entry, "id", "a tool call"))
        function = entry.get("function")
        if function is None:
            return
        if not isinstance(function, dict):
            _ignored("a tool call's function", function, "an object")
            return
        name = _text(function, "name", "a tool call's function")
        if name and "".join(call.name) != name:  # a name sent again whole is the same name
            call.name.append(name)
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            call.arguments.append(arguments)
        elif isinstance(arguments, dict):
            call.arguments[:] = [json.dumps(arguments, ensure_ascii=False)]
        elif arguments is not None:
            _ignored("a tool call's arguments", arguments, "a JSON text")

    def _call_for(self, index: Any, call_id: str) -> _Call:
        if not isinstance(index, int) or isinstance(index, bool):
            if index is not None:
                _ignored("a tool call's index", index, "a number")
            index = None
        if index is None:
            last = self._calls[-1] if self._calls else None
            if last is None or (call_id and last.id and call_id != last.id):
                return self._new(None, call_id)
            return self._fill_id(last, call_id)
        place = self._places.get(index)
        if place is None or (call_id and self._calls[place].id and call_id != self._calls[place].id):
            return self._new(index, call_id)
        return self._fill_id(self._calls[place], call_id)

    def _new(self, index: int | None, call_id: str) -> _Call:
        call = _Call(call_id)
        self._calls.append(call)
        if index is not None:
            self._places[index] = len(self._calls) - 1
        return call

    @staticmethod
    def _fill_id(call: _Call, call_id: str) -> _Call:
        call.id = call.id or call_id
        return call


def _text(source: dict[str, Any], key: str, where: str) -> str:
    value = source.get(key)
    if value is None or isinstance(value, str):
        return value or ""
    _ignored(f"{where}'s {key}", value, "a text")
    return ""


def _ignored(where: str, value: Any, expected: str) -> None:
    log.warning("Ignored %s from the server: %.80r is not %s", where, value, expected)
