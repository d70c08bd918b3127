"""Safe by default: loopback only, an API key for anything else, no web page without its origin listed,
no foreign Host (DNS rebinding), and limits on what one request may ask."""

from __future__ import annotations

import logging
from typing import Any

import httpx2
import openai
import pytest

from app.core.server.config import ServerConfig, ServerConfigError
from app.core.server.model_queue import ModelQueue
from app.core.server.server import ApiServer
from tests.core.server.conftest import Serve

KEY = "a-long-secret-key-1234"
HELLO = [{"role": "user", "content": "Hi"}]
PAGE = "http://localhost:3000"


def chat(server: ApiServer, headers: dict[str, str] | None = None, **body: Any) -> httpx2.Response:
    payload = {"messages": HELLO, "max_tokens": 2, **body}
    return httpx2.post(f"{server.base_url}/chat/completions", json=payload, headers=headers or {}, timeout=60)


def test_another_address_than_loopback_needs_an_api_key(model_queue: ModelQueue) -> None:
    with pytest.raises(ServerConfigError, match="needs an API key") as refused:
        ApiServer(ServerConfig(host="0.0.0.0", port=0), model_queue)
    assert refused.value.field == "api_key"
    ApiServer(ServerConfig(host="0.0.0.0", port=0, api_key=KEY), model_queue)  # accepted (not started)


def test_a_short_key_is_refused_before_anything_listens(model_queue: ModelQueue) -> None:
    with pytest.raises(ServerConfigError, match="at least 12 characters"):
        ApiServer(ServerConfig(port=0, api_key="short"), model_queue)


def test_without_the_key_the_request_is_refused_with_401(serve: Serve) -> None:
    keyed = serve(api_key=KEY)
    with openai.OpenAI(base_url=keyed.base_url, api_key="wrong-key-of-some-length", max_retries=0) as wrong:
        with pytest.raises(openai.AuthenticationError):
            wrong.chat.completions.create(model="any", messages=HELLO, max_tokens=2)
        with pytest.raises(openai.AuthenticationError):
            wrong.models.list()
    missing = chat(keyed)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"] == "Bearer"
    assert missing.json()["error"]["code"] == "invalid_api_key"
    with openai.OpenAI(base_url=keyed.base_url, api_key=KEY, max_retries=0) as right:
        assert right.chat.completions.create(model="any", messages=HELLO, max_tokens=2).choices[0].message.content
    assert httpx2.get(keyed.base_url.removesuffix("/v1") + "/health", timeout=10).status_code == 200


def test_the_key_is_never_in_the_log_or_the_request_log(serve: Serve, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    keyed = serve(api_key=KEY)
    chat(keyed, headers={"Authorization": f"Bearer {KEY}"})
    chat(keyed, headers={"Authorization": "Bearer not-the-key-at-all"})
    assert KEY not in caplog.text and "not-the-key-at-all" not in caplog.text
    assert all(KEY not in repr(record) for record in keyed.request_log.records())
    assert KEY not in repr(keyed.config)


def test_a_web_page_is_refused_unless_its_origin_is_listed(server: ApiServer) -> None:
    preflight = httpx2.options(
        f"{server.base_url}/chat/completions",
        headers={"Origin": PAGE, "Access-Control-Request-Method": "POST"},
        timeout=10,
    )
    assert preflight.status_code == 403
    assert "access-control-allow-origin" not in preflight.headers
    simple = chat(server, headers={"Origin": PAGE})  # a "simple" request skips the preflight: refused too
    assert simple.status_code == 403 and simple.json()["error"]["code"] == "origin_not_allowed"


def test_a_listed_origin_gets_its_preflight_and_its_replies(serve: Serve) -> None:
    open_to_page = serve(cors_origins=(PAGE,), api_key=KEY)
    asking = {
        "Origin": PAGE,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
    }
    preflight = httpx2.options(f"{open_to_page.base_url}/chat/completions", headers=asking, timeout=10)
    assert preflight.status_code == 204  # without the key: a browser sends none in a preflight
    assert preflight.headers["access-control-allow-origin"] == PAGE
    assert "authorization" in preflight.headers["access-control-allow-headers"].lower()
    reply = chat(open_to_page, headers={"Origin": PAGE, "Authorization": f"Bearer {KEY}"})
    assert reply.status_code == 200 and reply.headers["access-control-allow-origin"] == PAGE
    other = chat(open_to_page, headers={"Origin": "http://evil.example", "Authorization": f"Bearer {KEY}"})
    assert other.status_code == 403


def test_a_foreign_host_header_is_refused_on_a_loopback_bind(server: ApiServer) -> None:
    rebound = httpx2.get(f"{server.base_url}/models", headers={"Host": f"attacker.example:{server.port}"}, timeout=10)
    assert rebound.status_code == 403 and rebound.json()["error"]["code"] == "host_not_allowed"
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "localhost"):
        assert httpx2.get(f"{server.base_url}/models", headers={"Host": host}, timeout=10).status_code == 200


def test_a_body_over_the_limit_is_a_413(serve: Serve) -> None:
    small = serve(max_body_bytes=2048)
    refused = chat(small, messages=[{"role": "user", "content": "x" * 4096}])
    assert refused.status_code == 413 and "2048 bytes" in refused.json()["error"]["message"]
    assert chat(small).status_code == 200


def test_max_tokens_above_the_servers_limit_is_a_400(serve: Serve) -> None:
    limited = serve(max_tokens_limit=64)
    refused = chat(limited, max_tokens=65)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["param"] == "max_tokens" and "at most 64" in error["message"]
    also = chat(limited, max_completion_tokens=1000)
    assert also.status_code == 400 and also.json()["error"]["param"] == "max_completion_tokens"
    assert chat(limited, max_tokens=64).status_code == 200


def test_every_refusal_is_in_the_request_log(serve: Serve) -> None:
    keyed = serve(api_key=KEY)
    chat(keyed)
    (record,) = keyed.request_log.records()
    assert record.status == 401 and record.endpoint == "/v1/chat/completions" and "API key" in record.error
