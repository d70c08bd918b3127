"""`response_format` as a llama.cpp grammar: the reply can only be JSON (that follows the schema).

llama.cpp samples under a GBNF grammar by masking every token the grammar forbids, so the
output parses whatever the model would have liked to write; llama-cpp-python's
`json_schema_to_gbnf` turns a JSON schema into such a grammar. Its string characters allow
raw control characters (a newline inside a string), which strict JSON parsers refuse; the
`char` rule is narrowed here to what JSON allows unescaped. A reply cut short by max_tokens
can still end mid-JSON (finish_reason "length").
"""

from __future__ import annotations

import json
from typing import Any

from llama_cpp.llama_grammar import json_schema_to_gbnf

from app.core.server.errors import invalid

# json_schema_to_gbnf's character rule, and the same without control characters (JSON forbids them raw)
_LOOSE_CHAR = r'char ::= [^"\\]'
_STRICT_CHAR = r'char ::= [^"\\\x7F\x00-\x1F]'
ANY_OBJECT: dict[str, Any] = {"type": "object"}


def schema_grammar(schema: dict[str, Any]) -> str:
    """GBNF for JSON that validates against `schema`; ValueError when the converter cannot read it."""
    try:
        grammar = json_schema_to_gbnf(json.dumps(schema))
    except (AssertionError, KeyError, TypeError, ValueError, RecursionError) as error:  # the converter asserts
        raise ValueError(str(error) or type(error).__name__) from error
    return grammar.replace(_LOOSE_CHAR, _STRICT_CHAR)


def response_format_grammar(value: Any) -> str:
    """The grammar for a request's `response_format` ("" for plain text), or a 400 naming what is wrong."""
    if value is None:
        return ""
    if not isinstance(value, dict):
        raise invalid("response_format", 'must be an object such as {"type": "json_object"}.')
    kind = value.get("type")
    if kind == "text":
        return ""
    if kind == "json_object":
        return schema_grammar(ANY_OBJECT)
    if kind == "json_schema":
        spec = value.get("json_schema")
        schema = spec.get("schema") if isinstance(spec, dict) else None
        if not isinstance(schema, dict):
            raise invalid("response_format.json_schema.schema", "must be a JSON schema object.")
        try:
            return schema_grammar(schema)
        except ValueError as error:
            raise invalid("response_format.json_schema.schema", f"cannot be turned into a grammar ({error}).") from None
    raise invalid("response_format.type", f"must be text, json_object or json_schema, not {kind!r}.")
