"""A json_schema response format becomes a grammar of bounded size: a schema past a limit is a 400 naming it,
refused before anything large is built."""

from __future__ import annotations

import json
import tracemalloc
from typing import Any

import httpx2
import openai
import pytest

from app.core.server.errors import ApiError
from app.core.server.grammar import (
    MAX_GRAMMAR_BYTES,
    MAX_OPTIONAL_PROPERTIES,
    MAX_REPETITION,
    schema_grammar,
)
from app.core.server.openai_requests import Limits, parse_chat
from app.core.server.server import ApiServer

HI = [{"role": "user", "content": "Hi"}]
SMALL_MEMORY = 4 * 1024 * 1024  # what refusing may take; building the grammar asked for would take gigabytes


def with_schema(schema: dict[str, Any]) -> dict[str, Any]:
    return {"messages": HI, "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}}


def refusal(schema: dict[str, Any]) -> ApiError:
    with pytest.raises(ApiError) as refused:
        parse_chat(with_schema(schema), Limits(max_tokens=100))
    assert refused.value.status == 400 and refused.value.param == "response_format.json_schema.schema"
    return refused.value


def test_ten_million_items_are_refused_naming_the_limit_in_little_memory() -> None:
    schema = {"type": "array", "items": {"type": "string"}, "minItems": 10**7}
    assert len(json.dumps(with_schema(schema))) < 250
    tracemalloc.start()
    try:
        error = refusal(schema)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert error.code == "schema_too_large"
    assert "minItems 10000000" in error.message and f"limit of {MAX_REPETITION} repetitions" in error.message
    assert peak < SMALL_MEMORY


@pytest.mark.parametrize(
    ("schema", "named"),
    [
        ({"type": "array", "items": {"type": "string"}, "maxItems": MAX_REPETITION + 1}, "maxItems"),
        ({"type": "string", "minLength": 10**9}, "minLength"),
        ({"type": "string", "maxLength": 10**12}, "maxLength"),
        ({"type": "object", "minProperties": 10**6}, "minProperties"),
        ({"type": "string", "pattern": "^(ab){1,100000}$"}, "{1,100000} in its pattern"),
        (
            {
                "type": "object",
                "properties": {"list": {"type": "array", "items": {"type": "string"}, "minItems": 10**7}},
            },
            "at 'list'",
        ),
    ],
)
def test_each_repetition_past_the_limit_is_refused_by_name(schema: dict[str, Any], named: str) -> None:
    error = refusal(schema)
    assert named in error.message and str(MAX_REPETITION) in error.message


def test_an_object_with_too_many_optional_properties_is_refused() -> None:
    properties = {f"field{i}": {"type": "string"} for i in range(MAX_OPTIONAL_PROPERTIES + 1)}
    error = refusal({"type": "object", "properties": properties})
    assert f"{MAX_OPTIONAL_PROPERTIES} of them optional" in error.message
    required = {"type": "object", "properties": properties, "required": list(properties)}
    assert "field0" in schema_grammar(required)  # required ones cost little: the same count is fine


def test_many_repetitions_each_within_the_limit_are_refused_by_the_grammars_size() -> None:
    """Nested arrays of long strings stay under the per-keyword limit yet add up past the size limit."""
    name = "n" * 200
    properties = {
        f"{name}{i}": {"type": "array", "items": {"type": "string"}, "minItems": MAX_REPETITION} for i in range(8)
    }
    error = refusal({"type": "object", "properties": properties, "required": list(properties)})
    assert f"larger than {MAX_GRAMMAR_BYTES} bytes" in error.message


def test_a_repetition_count_that_is_not_a_whole_number_is_refused() -> None:
    error = refusal({"type": "array", "items": {"type": "string"}, "minItems": "5"})
    assert "minItems" in error.message and "whole number" in error.message


def test_schemas_within_the_limits_get_the_converters_grammar() -> None:
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 40}, "minItems": 1, "maxItems": 50},
            "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$"},
        },
        "required": ["tags", "code"],
    }
    grammar = schema_grammar(schema)
    assert grammar.count("tags-item") > 50 and "root ::=" in grammar


def test_the_server_answers_a_huge_schema_with_a_400_and_a_normal_one_with_json(
    server: ApiServer, client: openai.OpenAI
) -> None:
    body = {**with_schema({"type": "array", "items": {"type": "string"}, "minItems": 10**7}), "max_tokens": 4}
    refused = httpx2.post(f"{server.base_url}/chat/completions", json=body, timeout=60)
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "schema_too_large" and "minItems" in refused.json()["error"]["message"]
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    reply = client.chat.completions.create(
        model="any",
        messages=[{"role": "user", "content": "Is the sky blue? Answer as JSON."}],
        max_tokens=20,
        temperature=0,
        response_format={"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}},
    )
    assert isinstance(json.loads(reply.choices[0].message.content or "")["ok"], bool)
