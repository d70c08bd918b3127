"""A GBNF grammar that makes the reply one call of one of the tools, in the model's own family.

Each tool's call is its family's markers around JSON built from the tool's schema (llama-cpp-python's
`SchemaConverter`, which the API server bounds): the call's object (`{"name": …, "arguments": {…}}`,
or `"parameters"` for Llama 3.x) or, where the family writes the name outside (Mistral, harmony), the
arguments alone. So the call parses, names a tool that exists and its arguments follow the schema,
whatever a small model would have written. Where the call is required (`tool_choice` required or a
named function) the grammar holds from the reply's first token. Where the reply is free to answer in
text, the grammar is lazy (`lazy_tool_grammar`): llama.cpp applies it from the moment the model writes
its family's opening marker, so the text before is free and the calls after it follow their schemas.
A lazy grammar is GBNF whose first lines name its triggers (`LAZY_TRIGGER`, read by the sampler
chain), so it travels wherever a grammar's text does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from llama_cpp.llama_grammar import SchemaConverter

from app.core.reasoning.tool_calls import HERMES_CLOSE, HERMES_OPEN, MISTRAL_ARGS, MISTRAL_OPEN
from app.core.reasoning.tool_formats import ToolFamily
from app.core.types.tools import ToolSpec

LAZY_TRIGGER = "# lazy grammar trigger: "  # a comment line of GBNF: the regex that starts the grammar
_TRIGGERS = {ToolFamily.HERMES: HERMES_OPEN, ToolFamily.MISTRAL: MISTRAL_OPEN, ToolFamily.MISTRAL_JSON: MISTRAL_OPEN}


def tool_call_grammar(family: ToolFamily, tools: Sequence[ToolSpec], converter: SchemaConverter | None = None) -> str:
    """GBNF for exactly one call of one of `tools` as `family` writes it. The converter's errors
    (a schema it cannot read) go up as they are."""
    return _calls_grammar(family, tools, converter, "call")


def lazy_tool_grammar(family: ToolFamily, tools: Sequence[ToolSpec], converter: SchemaConverter | None = None) -> str:
    """A grammar for one call or more, applied once the model writes its family's opening marker ("" for a
    family whose calls have no marker to wait for: Llama 3's bare JSON, harmony's channels)."""
    trigger = _TRIGGERS.get(family)
    if trigger is None or not tools:
        return ""
    # llama.cpp matches the pattern against all the reply's text so far, after each token, and feeds the grammar
    # from the group to the text's end. It must end with the marker: a token that runs past it ("></" after
    # "<tool_call") would feed the grammar text it refuses, and llama.cpp aborts the process on that. Such a call
    # is left free (it parses or stays text); a call whose marker ends with a token is held to its schema.
    pattern = r"^[\s\S]*?(" + re.escape(trigger) + ")$"  # ^…$: matched whole, not searched
    separator = '"\\n"?' if family is ToolFamily.HERMES else '""'
    return f"{LAZY_TRIGGER}{pattern}\n" + _calls_grammar(family, tools, converter, f"call ( {separator} call )*")


def lazy_triggers(grammar: str) -> tuple[list[str], str]:
    """A grammar's trigger patterns (none: it holds from the first token) and its GBNF."""
    triggers = []
    lines = grammar.split("\n")
    while lines and lines[0].startswith(LAZY_TRIGGER):
        triggers.append(lines.pop(0)[len(LAZY_TRIGGER) :])
    return triggers, "\n".join(lines)


def _calls_grammar(family: ToolFamily, tools: Sequence[ToolSpec], converter: SchemaConverter | None, root: str) -> str:
    if not tools:
        raise ValueError("a call needs at least one tool")
    converter = converter or SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    alternatives = []
    for index, tool in enumerate(tools):
        schema = converter.resolve_refs(json.loads(json.dumps(tool.parameters)), "stdin")
        before, value, after = _call_shape(family, tool.name, schema)
        rule = converter.visit(value, f"tool{index}")
        parts = [converter._format_literal(before)] if before else []
        parts.append(rule)
        if after:
            parts.append(converter._format_literal(after))
        alternatives.append(" ".join(parts))
    converter._add_rule("call", " | ".join(f"( {alternative} )" for alternative in alternatives))
    converter._add_rule("root", root)
    return str(converter.format_grammar())


def _call_shape(family: ToolFamily, name: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any], str]:
    """What stands before the JSON, the JSON's schema, and what follows it."""
    if family is ToolFamily.MISTRAL:
        return f"{MISTRAL_OPEN}{name}{MISTRAL_ARGS}", arguments, ""
    if family is ToolFamily.HARMONY:
        return f"<|channel|>commentary to=functions.{name} <|constrain|>json<|message|>", arguments, "<|call|>"
    key = "parameters" if family is ToolFamily.LLAMA3 else "arguments"
    call = {
        "type": "object",
        "properties": {"name": {"const": name}, key: arguments},
        "required": ["name", key],
        "additionalProperties": False,
    }
    if family is ToolFamily.MISTRAL_JSON:
        return f"{MISTRAL_OPEN}[", call, "]"
    if family is ToolFamily.LLAMA3:
        return "", call, ""
    return f"{HERMES_OPEN}\n", call, f"\n{HERMES_CLOSE}"
