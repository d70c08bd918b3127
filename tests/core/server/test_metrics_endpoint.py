"""GET /metrics: Prometheus text about the requests this server answered, through a real server and client."""

from __future__ import annotations

import httpx2
import openai
import pytest
from prometheus_client.parser import text_string_to_metric_families

from app.core.server.server import ApiServer
from tests.core.server.conftest import Serve

KEY = "a-long-enough-api-key-for-tests"
HELLO = [{"role": "user", "content": "Say hello."}]


def scrape(server: ApiServer, key: str | None = None) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """{(sample name, labels): value}, read back by prometheus_client's own parser."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    response = httpx2.get(server.base_url.removesuffix("/v1") + "/metrics", headers=headers, timeout=10)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def requests(values: dict[tuple[str, tuple[tuple[str, str], ...]], float], endpoint: str, status: int) -> float:
    return values.get(("glassbox_requests_total", (("endpoint", endpoint), ("status", str(status)))), 0.0)


def test_metrics_count_requests_by_endpoint_and_status_and_the_reply_tokens(serve: Serve) -> None:
    server = serve()
    with openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0) as client:
        client.models.list()
        reply = client.chat.completions.create(model="any", messages=HELLO, max_tokens=12, temperature=0)  # type: ignore[arg-type]
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(model="any", messages=HELLO, temperature="hot")  # type: ignore[arg-type]

    values = scrape(server)
    assert requests(values, "/v1/models", 200) == 1
    assert requests(values, "/v1/chat/completions", 200) == 1
    assert requests(values, "/v1/chat/completions", 400) == 1
    assert reply.usage is not None
    assert values[("glassbox_tokens_total", (("direction", "in"),))] == reply.usage.prompt_tokens
    assert values[("glassbox_tokens_total", (("direction", "out"),))] == reply.usage.completion_tokens
    assert values[("glassbox_time_to_first_token_seconds_count", ())] == 1
    record = next(r for r in server.request_log.records() if r.endpoint == "/v1/chat/completions")
    assert record.time_to_first_token_s is not None
    assert values[("glassbox_time_to_first_token_seconds_sum", ())] == pytest.approx(record.time_to_first_token_s)
    speeds = 1 if reply.usage.completion_tokens > 1 else 0
    assert values[("glassbox_generation_tokens_per_second_count", ())] == speeds
    assert values[("glassbox_queue_length", ())] == 0
    assert not any(r.endpoint == "/metrics" for r in server.request_log.records())  # scrapes stay out of the log


def test_each_server_counts_only_its_own_requests(serve: Serve) -> None:
    first, second = serve(), serve()
    httpx2.get(f"{first.base_url}/models", timeout=10)
    assert requests(scrape(first), "/v1/models", 200) == 1
    assert requests(scrape(second), "/v1/models", 200) == 0


def test_the_counts_survive_a_restart_of_the_same_server(serve: Serve) -> None:
    server = serve()
    httpx2.get(f"{server.base_url}/models", timeout=10)
    server.stop()
    server.start()
    httpx2.get(f"{server.base_url}/models", timeout=10)
    assert requests(scrape(server), "/v1/models", 200) == 2


def test_with_an_api_key_metrics_need_it_too(serve: Serve) -> None:
    server = serve(api_key=KEY)
    refused = httpx2.get(server.base_url.removesuffix("/v1") + "/metrics", timeout=10)
    assert refused.status_code == 401
    assert requests(scrape(server, KEY), "/metrics", 401) == 1
