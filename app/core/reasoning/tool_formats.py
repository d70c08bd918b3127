"""How a model's chat template offers tools and writes the calls it expects back: its tool-call family.

The family is read by rendering the template as the engine does, with one probe tool offered and
one earlier call of it in the conversation, never guessed from a model's name: the markers the
template writes around that call are the markers the model was trained to write.

- `hermes`: `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (Hermes, Qwen 2.5 and 3, SmolLM3 …)
- `llama3`: a bare JSON object `{"name": …, "parameters": {…}}` (Llama 3.1–3.3)
- `mistral`: `[TOOL_CALLS]name[ARGS]{…}` (Mistral's newer templates: Ministral 3, Magistral, Devstral)
- `mistral-json`: `[TOOL_CALLS][{"name": …, "arguments": {…}}]` (older Mistral templates)
- `harmony`: gpt-oss's `<|channel|>commentary to=functions.name … <|message|>{…}<|call|>`

A template that writes none of them (SmolLM2's, most small models') gets Glassbox's own offer in the
system message, in the Hermes format (`fallback_system_text`): the most widely trained one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from llama_cpp import llama_chat_format

from app.core.types.messages import ChatMessage
from app.core.types.tools import ToolCall, ToolSpec


class ToolFamily(StrEnum):
    HERMES = "hermes"
    LLAMA3 = "llama3"
    MISTRAL = "mistral"
    MISTRAL_JSON = "mistral-json"
    HARMONY = "harmony"


@dataclass(frozen=True)
class ToolFormat:
    """A model's way with tools: its family, and whether its own template writes the tools offered
    (False: Glassbox writes them into the system message)."""

    family: ToolFamily
    template_renders_tools: bool


FALLBACK = ToolFormat(ToolFamily.HERMES, template_renders_tools=False)

_PROBE = "glassbox_probe_tool"
_PROBE_ARGUMENTS = {"glassbox_probe_argument": "glassbox-probe-value"}
_PROBE_TOOL = ToolSpec(_PROBE, "A probe.", json.dumps({"type": "object", "properties": {}}))


def tool_format(template: str) -> ToolFormat:
    """The family `template` writes tool calls in; FALLBACK when it writes none it knows (or cannot be rendered)."""
    if not template:
        return FALLBACK
    formatter = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token="", bos_token="")
    rendered = ""
    for arguments_as_text in (False, True):  # templates differ in whether a call's arguments are an object or text
        try:
            rendered = _probe_render(formatter, arguments_as_text)
            break
        except Exception:
            continue
    if _PROBE not in rendered:
        return FALLBACK
    family = _family(rendered)
    return FALLBACK if family is None else ToolFormat(family, template_renders_tools=True)


def _family(rendered: str) -> ToolFamily | None:
    if f"to=functions.{_PROBE}" in rendered:
        return ToolFamily.HARMONY
    if f"[TOOL_CALLS]{_PROBE}[ARGS]" in rendered:
        return ToolFamily.MISTRAL
    if "[TOOL_CALLS]" in rendered:
        return ToolFamily.MISTRAL_JSON
    if "<tool_call>" in rendered:
        return ToolFamily.HERMES
    if f'"name": "{_PROBE}", "parameters"' in rendered:
        return ToolFamily.LLAMA3
    return None


def _probe_render(formatter: llama_chat_format.Jinja2ChatFormatter, arguments_as_text: bool) -> str:
    call = _probe_call(arguments_as_text)
    messages: list[Any] = [
        {"role": "user", "content": "What does the probe say?"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call["id"], "name": _PROBE, "content": "It says yes."},
        {"role": "assistant", "content": "The probe says yes."},
    ]
    tools: list[Any] = [_PROBE_TOOL.as_openai()]  # llama_cpp's TypedDicts
    return str(formatter(messages=messages, tools=tools).prompt)


def _probe_call(arguments_as_text: bool) -> dict[str, Any]:
    arguments: Any = json.dumps(_PROBE_ARGUMENTS) if arguments_as_text else _PROBE_ARGUMENTS
    return {"id": "call0probe", "type": "function", "function": {"name": _PROBE, "arguments": arguments}}


def template_message(message: ChatMessage) -> dict[str, Any]:
    """The fields a message carries into the template beyond its role and content: an assistant's
    calls (arguments as an object, as llama.cpp passes them) and a tool result's call id and name."""
    fields: dict[str, Any] = {}
    if message.tool_calls:
        fields["tool_calls"] = [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.parsed_arguments}}
            for call in message.tool_calls
        ]
    if message.tool_call_id:
        fields["tool_call_id"] = message.tool_call_id
    return fields


def fallback_system_text(tools: tuple[ToolSpec, ...]) -> str:
    """Glassbox's offer of `tools` for a template that writes none: Hermes's own wording."""
    listed = "\n".join(json.dumps(tool.as_openai(), ensure_ascii=False) for tool in tools)
    return (
        "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
        f"You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{listed}\n</tools>\n\n"
        "For each function call, return a json object with function name and arguments within "
        '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n'
        "</tool_call>"
    )


def messages_for_template(
    messages: Sequence[ChatMessage], tools: Sequence[ToolSpec], form: ToolFormat
) -> tuple[list[ChatMessage], dict[str, Any]]:
    """The messages the template renders and the variables it gets for the tools offered.

    A template that writes tools gets them as its `tools` variable, and the calls and results as
    message fields (`template_message`). Otherwise Glassbox writes them in the Hermes format: the
    offer in the system message, each call in its assistant message's text, each result as a user
    message in `<tool_response>` tags.
    """
    if form.template_renders_tools:
        return list(messages), ({"tools": [tool.as_openai() for tool in tools]} if tools else {})
    written: list[ChatMessage] = []
    for message in messages:
        if message.role == "tool":
            written.append(ChatMessage("user", f"<tool_response>\n{message.content}\n</tool_response>"))
        elif message.tool_calls:
            calls = "\n".join(_hermes_call(call) for call in message.tool_calls)
            content = f"{message.content}\n{calls}" if message.content else calls
            written.append(replace(message, content=content, tool_calls=()))
        else:
            written.append(message)
    if tools:
        offer = fallback_system_text(tuple(tools))
        if written and written[0].role == "system":
            written[0] = replace(written[0], content=f"{written[0].content}\n\n{offer}")
        else:
            written.insert(0, ChatMessage("system", offer))
    return written, {}


def _hermes_call(call: ToolCall) -> str:
    body = json.dumps({"name": call.name, "arguments": call.parsed_arguments}, ensure_ascii=False)
    return f"<tool_call>\n{body}\n</tool_call>"
