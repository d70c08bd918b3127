"""OpenAI tool calling: a request's `tools`, `tool_choice` and `parallel_tool_calls`, the calls and
results of earlier turns, and the calls of the reply in OpenAI's shapes.

The tools are offered through the model's own chat template (its tool-call family decides how they
are written and how the calls are read back, app/core/reasoning/tool_formats.py). `tool_choice`:
`auto` lets the model answer or call; `none` offers nothing, so the reply is text; `required` and a
named function make the reply one call, under a grammar built from the tools' schemas (so it parses
and obeys the schema); under `auto` that grammar is lazy: it holds once the model starts a call.
`parallel_tool_calls: false` keeps the reply's first call only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from app.core.reasoning.tool_calls import ParsedAnswer, ToolCallSplitter
from app.core.reasoning.tool_formats import ToolFamily
from app.core.reasoning.tool_grammar import lazy_tool_grammar, tool_call_grammar
from app.core.server.errors import ApiError, invalid
from app.core.server.grammar import schema_converter, strict_json_strings
from app.core.types.tools import EMPTY_PARAMETERS, ToolCall, ToolSpec

TOOL_CALLS = "tool_calls"  # the finish reason of a reply that calls tools


class ChoiceMode(StrEnum):
    AUTO = "auto"
    NONE = "none"
    REQUIRED = "required"
    FUNCTION = "function"  # the named function


@dataclass(frozen=True)
class ToolChoice:
    mode: ChoiceMode = ChoiceMode.AUTO
    name: str = ""  # the function a FUNCTION choice names


@dataclass(frozen=True)
class ToolRequest:
    """What a chat request says about tools."""

    tools: tuple[ToolSpec, ...] = ()
    choice: ToolChoice = field(default_factory=ToolChoice)
    parallel: bool = True

    @property
    def offered(self) -> tuple[ToolSpec, ...]:
        """The tools the model is offered (none for tool_choice none)."""
        return () if self.choice.mode is ChoiceMode.NONE else self.tools

    @property
    def forced(self) -> tuple[ToolSpec, ...]:
        """The tools one of which the reply must call (none: the reply is free)."""
        if self.choice.mode is ChoiceMode.REQUIRED:
            return self.tools
        if self.choice.mode is ChoiceMode.FUNCTION:
            return tuple(tool for tool in self.tools if tool.name == self.choice.name)
        return ()


def parse_tool_request(body: Mapping[str, Any]) -> ToolRequest:
    tools = _tools(body.get("tools"))
    parallel = body.get("parallel_tool_calls")
    if parallel is not None and not isinstance(parallel, bool):
        raise invalid("parallel_tool_calls", f"must be true or false, not {parallel!r}.")
    return ToolRequest(tools, _choice(body.get("tool_choice"), tools), parallel is not False)


def _tools(value: Any) -> tuple[ToolSpec, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise invalid("tools", "must be a list of tools.")
    tools: list[ToolSpec] = []
    for index, tool in enumerate(value):
        where = f"tools[{index}]"
        if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(tool.get("function"), dict):
            raise invalid(where, 'must be {"type": "function", "function": {"name": …, "parameters": {…}}}.')
        function = tool["function"]
        name = function.get("name")
        if not isinstance(name, str) or not name:
            raise invalid(f"{where}.function.name", "must be a non-empty text.")
        if any(known.name == name for known in tools):
            raise invalid(f"{where}.function.name", f"names {name!r} a second time; each tool needs its own name.")
        description = function.get("description") or ""
        if not isinstance(description, str):
            raise invalid(f"{where}.function.description", "must be a text.")
        parameters = function.get("parameters")
        if parameters is not None and not isinstance(parameters, dict):
            raise invalid(f"{where}.function.parameters", "must be a JSON schema object.")
        schema = json.dumps(parameters) if parameters else EMPTY_PARAMETERS
        tools.append(ToolSpec(name, description, schema))
    return tuple(tools)


def _choice(value: Any, tools: tuple[ToolSpec, ...]) -> ToolChoice:
    if value is None:
        return ToolChoice()
    if isinstance(value, str) and value in (ChoiceMode.AUTO, ChoiceMode.NONE, ChoiceMode.REQUIRED):
        choice = ToolChoice(ChoiceMode(value))
    elif isinstance(value, dict) and value.get("type") == "function" and isinstance(value.get("function"), dict):
        name = value["function"].get("name")
        if not any(tool.name == name for tool in tools):
            raise invalid("tool_choice.function.name", f"names {name!r}, which is not among the request's tools.")
        choice = ToolChoice(ChoiceMode.FUNCTION, name)
    else:
        raise invalid(
            "tool_choice", 'must be "auto", "none", "required" or {"type": "function", "function": {"name": …}}.'
        )
    if choice.mode is ChoiceMode.REQUIRED and not tools:
        raise invalid("tool_choice", "is required, but the request offers no tools.")
    return choice


def past_tool_calls(message: Mapping[str, Any], where: str) -> tuple[ToolCall, ...]:
    """An assistant message's `tool_calls`, as a client sends back the calls of an earlier reply."""
    value = message.get("tool_calls")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise invalid(f"{where}.tool_calls", "must be a list of calls.")
    calls = []
    for index, call in enumerate(value):
        at = f"{where}.tool_calls[{index}]"
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise invalid(at, 'must be {"id": …, "type": "function", "function": {"name": …, "arguments": "…"}}.')
        arguments = function.get("arguments") or "{}"
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        calls.append(ToolCall(str(call.get("id") or ""), function["name"], arguments))
    return tuple(calls)


def answered_call_id(message: Mapping[str, Any], where: str) -> str:
    """A tool message's `tool_call_id`: the call whose result it is."""
    value = message.get("tool_call_id")
    if not isinstance(value, str) or not value:
        raise invalid(f"{where}.tool_call_id", "must name the call this tool message answers.")
    return value


def call_grammar(family: ToolFamily, request: ToolRequest) -> str:
    """The grammar that makes the reply one call of the forced tools; where the reply is free, the lazy
    grammar that holds its calls to their schemas once one starts ("" with no tools offered)."""
    try:
        if request.forced:
            return strict_json_strings(tool_call_grammar(family, request.forced, schema_converter()))
        if request.offered:
            return strict_json_strings(lazy_tool_grammar(family, request.offered, schema_converter()))
        return ""
    except ApiError:
        raise
    except (AssertionError, AttributeError, KeyError, TypeError, ValueError, RecursionError) as error:
        raise invalid("tools", f"a tool's parameters cannot be turned into a grammar ({error}).") from None


class ReplyToolCalls:
    """The reply's calls, read as its answer streams: text before a call flows, the calls come at the end."""

    def __init__(self, family: ToolFamily, request: ToolRequest) -> None:
        self._splitter = ToolCallSplitter(family) if request.offered else None
        self._parallel = request.parallel

    def text(self, answer: str) -> str:
        return answer if self._splitter is None else self._splitter.feed(answer)

    def finish(self) -> ParsedAnswer:
        if self._splitter is None:
            return ParsedAnswer("", ())
        parsed = self._splitter.finish()
        return parsed if self._parallel else ParsedAnswer(parsed.content, parsed.calls[:1])


def read_reply_calls(answer: str, family: ToolFamily, request: ToolRequest) -> ParsedAnswer:
    """A whole reply's text and calls."""
    calls = ReplyToolCalls(family, request)
    content = calls.text(answer)
    rest = calls.finish()
    return ParsedAnswer((content + rest.content).strip() if rest.calls else content + rest.content, rest.calls)


def call_json(call: ToolCall, index: int | None = None) -> dict[str, Any]:
    """A call in OpenAI's shape; `index` for a stream's delta."""
    shaped: dict[str, Any] = {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }
    return shaped if index is None else {"index": index, **shaped}
