"""Bodies no client library sends, sent raw: each is a 400 in OpenAI's shape, in the request log, never a 500."""

from __future__ import annotations

import httpx2
import pytest

from app.core.server.errors import ApiError
from app.core.server.json_body import MAX_DEPTH, parse_json
from app.core.server.server import ApiServer

DEEP_LEVELS = 100_000


def post_raw(server: ApiServer, body: bytes) -> httpx2.Response:
    headers = {"Content-Type": "application/json"}
    return httpx2.post(f"{server.base_url}/chat/completions", content=body, headers=headers, timeout=60)


def test_a_body_nested_100000_levels_deep_is_a_400_in_the_request_log(server: ApiServer) -> None:
    deep = b'{"messages": ' + b"[" * DEEP_LEVELS + b"]" * DEEP_LEVELS + b"}"
    refused = post_raw(server, deep)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["type"] == "invalid_request_error" and f"more than {MAX_DEPTH} levels" in error["message"]
    record = server.request_log.records()[-1]
    assert record.status == 400 and record.endpoint == "/v1/chat/completions" and "levels" in record.error


def test_a_lone_surrogate_in_content_is_a_400_naming_the_field(server: ApiServer) -> None:
    body = b'{"max_tokens": 2, "messages": [{"role": "user", "content": "Hi \\ud800 there"}]}'
    refused = post_raw(server, body)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["param"] == "messages[0].content" and "not valid Unicode" in error["message"]
    record = server.request_log.records()[-1]
    assert record.status == 400 and "not valid Unicode" in record.error


def test_an_escaped_surrogate_pair_is_text_and_is_answered(server: ApiServer) -> None:
    body = b'{"max_tokens": 2, "messages": [{"role": "user", "content": "Hi \\ud83d\\ude00"}]}'
    answered = post_raw(server, body)
    assert answered.status_code == 200, answered.text


def test_nesting_up_to_the_limit_is_read_and_one_level_more_is_refused() -> None:
    def nested(levels: int) -> bytes:  # the object itself is the first level
        return b'{"a": ' + b"[" * (levels - 1) + b"]" * (levels - 1) + b"}"

    assert "a" in parse_json(nested(MAX_DEPTH))
    with pytest.raises(ApiError, match=f"more than {MAX_DEPTH} levels") as refused:
        parse_json(nested(MAX_DEPTH + 1))
    assert refused.value.status == 400


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b'{"prompt": "\\udc00"}', "prompt"),
        (b'{"stop": ["ok", "\\ud800"]}', "stop[1]"),
        (b'{"response_format": {"json_schema": {"schema": {"properties": {"\\ud800": {}}}}}}', "response_format"),
    ],
)
def test_a_lone_surrogate_anywhere_is_refused_with_its_place(body: bytes, field: str) -> None:
    with pytest.raises(ApiError, match="not valid Unicode") as refused:
        parse_json(body)
    assert refused.value.param is not None and refused.value.param.startswith(field)
