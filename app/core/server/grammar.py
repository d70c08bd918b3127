"""`response_format` as a llama.cpp grammar: the reply can only be JSON (that follows the schema).

llama.cpp samples under a GBNF grammar by masking every token the grammar forbids, so the
output parses whatever the model would have liked to write; llama-cpp-python's
`SchemaConverter` (behind `json_schema_to_gbnf`) turns a JSON schema into such a grammar.
Its string characters allow raw control characters (a newline inside a string), which
strict JSON parsers refuse; the `char` rule is narrowed here to what JSON allows unescaped.
A reply cut short by max_tokens can still end mid-JSON (finish_reason "length").

The converter spells out every repetition (`minItems: 1000` is the item rule written 1000
times) and its cost for an object grows with the square of its optional properties, so a
250-byte schema could take gigabytes in the server and again in the engine. The converter
here is the same one with its expansions bounded *before* they are built: each repetition
count, the properties of one object, and the grammar's rules and bytes; a schema past a
limit is a 400 that names the limit.
"""

from __future__ import annotations

import json
import re
from typing import Any

from llama_cpp.llama_grammar import SchemaConverter

from app.core.server.errors import ApiError, invalid

# json_schema_to_gbnf's character rule, and the same without control characters (JSON forbids them raw)
_LOOSE_CHAR = r'char ::= [^"\\]'
_STRICT_CHAR = r'char ::= [^"\\\x7F\x00-\x1F]'
ANY_OBJECT: dict[str, Any] = {"type": "object"}
SCHEMA_FIELD = "response_format.json_schema.schema"

MAX_REPETITION = 4096  # minItems, maxItems, minLength, maxLength … and a pattern's {n,m}
MAX_PROPERTIES = 1024  # of one object, its allOf parts merged
MAX_OPTIONAL_PROPERTIES = 128  # of one object: the converter's work grows with their square
MAX_GRAMMAR_RULES = 4096
MAX_GRAMMAR_BYTES = 1024 * 1024
REPETITION_KEYWORDS = (
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
)
# The most one repetition adds to the grammar beyond its item's rule name: a separator, brackets, a suffix.
_REPEAT_OVERHEAD = 32
_QUANTIFIER = re.compile(r"\{\s*(\d*)\s*(?:,\s*(\d*)\s*)?\}")
_ERROR_TEXT = 200  # characters of a converter's message quoted back (it may quote the whole schema)


class SchemaTooLarge(ValueError):
    """The schema would make a grammar past one of this server's limits; the message names it."""


class _BoundedConverter(SchemaConverter):
    """llama-cpp-python's converter, refusing an expansion past a limit before it is built."""

    def __init__(self) -> None:
        super().__init__(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
        self._bytes = 0

    def visit(self, schema: Any, name: str) -> str:
        if isinstance(schema, dict):
            counts = [_repetition(schema, keyword, name) for keyword in REPETITION_KEYWORDS]
            self._fits(max(counts) * (len(name) + _REPEAT_OVERHEAD), name)
        return str(super().visit(schema, name))

    def _visit_pattern(self, pattern: Any, name: str) -> str:
        if isinstance(pattern, str):
            repeated = 0
            for match in _QUANTIFIER.finditer(pattern):
                numbers = [int(number) for number in match.groups() if number]
                if any(number > MAX_REPETITION for number in numbers):
                    raise SchemaTooLarge(_too_many(f"{match.group(0)} in its pattern", name))
                repeated += max(numbers, default=0)
            self._fits(repeated * (len(pattern) + len(name) + _REPEAT_OVERHEAD), name)
        return str(super()._visit_pattern(pattern, name))

    def _build_object_rule(
        self, properties: list[tuple[str, Any]], required: set[str], name: str, additional_properties: Any
    ) -> str:
        optional = sum(1 for key, _schema in properties if key not in required)
        if len(properties) > MAX_PROPERTIES or optional > MAX_OPTIONAL_PROPERTIES:
            raise SchemaTooLarge(
                f"the object at '{_shown_name(name)}' has {len(properties)} properties, {optional} of them "
                f"optional; this server allows at most {MAX_PROPERTIES} properties in one object, "
                f"{MAX_OPTIONAL_PROPERTIES} of them optional."
            )
        return str(super()._build_object_rule(properties, required, name, additional_properties))

    def _add_rule(self, name: str, rule: str) -> str:
        before = len(self._rules)
        key = str(super()._add_rule(name, rule))
        if len(self._rules) > before:
            if len(self._rules) > MAX_GRAMMAR_RULES:
                raise SchemaTooLarge(
                    f"its grammar would have more than {MAX_GRAMMAR_RULES} rules, this server's limit."
                )
            self._fits(len(key) + len(rule), name)
            self._bytes += len(key) + len(rule)
        return key

    def _fits(self, size: int, name: str) -> None:
        if self._bytes + size > MAX_GRAMMAR_BYTES:
            raise SchemaTooLarge(
                f"its grammar would be larger than {MAX_GRAMMAR_BYTES} bytes, this server's limit "
                f"(at '{_shown_name(name)}'); use smaller repetition counts or fewer properties."
            )


def _repetition(schema: dict[str, Any], keyword: str, name: str) -> int:
    value = schema.get(keyword)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{keyword} at '{_shown_name(name)}' must be a whole number of at least 0")
    if value > MAX_REPETITION:
        raise SchemaTooLarge(_too_many(f"{keyword} {value}", name))
    return value


def _too_many(what: str, name: str) -> str:
    return (
        f"{what} at '{_shown_name(name)}' is more than this server's limit of {MAX_REPETITION} repetitions "
        "(minItems, maxItems, minLength, maxLength and a pattern's {n,m} each)."
    )


def _shown_name(name: str) -> str:
    shown = name or "root"
    return shown if len(shown) <= 60 else shown[:59] + "…"


def schema_converter() -> SchemaConverter:
    """llama-cpp-python's schema converter, bounded by this server's limits (SchemaTooLarge past one)."""
    return _BoundedConverter()


def strict_json_strings(grammar: str) -> str:
    """`grammar` with its JSON strings free of raw control characters, as strict JSON parsers want them."""
    return grammar.replace(_LOOSE_CHAR, _STRICT_CHAR)


def schema_grammar(schema: dict[str, Any]) -> str:
    """GBNF for JSON that validates against `schema`; SchemaTooLarge past a limit, ValueError when the
    converter cannot read it."""
    converter = _BoundedConverter()
    try:
        converter.visit(converter.resolve_refs(json.loads(json.dumps(schema)), "stdin"), "")
        grammar = str(converter.format_grammar())
    except SchemaTooLarge:
        raise
    except (AssertionError, AttributeError, KeyError, TypeError, ValueError, RecursionError) as error:
        text = str(error) or type(error).__name__  # the converter asserts, and may quote the whole schema
        raise ValueError(text if len(text) <= _ERROR_TEXT else text[: _ERROR_TEXT - 1] + "…") from error
    return strict_json_strings(grammar)


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
            raise invalid(SCHEMA_FIELD, "must be a JSON schema object.")
        try:
            return schema_grammar(schema)
        except SchemaTooLarge as error:
            raise ApiError(
                400, f"Invalid '{SCHEMA_FIELD}': {error}", param=SCHEMA_FIELD, code="schema_too_large"
            ) from None
        except ValueError as error:
            raise invalid(SCHEMA_FIELD, f"cannot be turned into a grammar ({error}).") from None
    raise invalid("response_format.type", f"must be text, json_object or json_schema, not {kind!r}.")
