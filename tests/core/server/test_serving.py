"""One model, many clients: the FIFO queue, disconnects, the other endpoints, the request log, start and stop."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx2
import openai
import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.inference.sampling import GREEDY
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue, QueuedJob
from app.core.server.request_log import CLIENT_CLOSED, RequestRecord
from app.core.server.server import ApiServer, ServerStartError
from app.core.support.user_text import UserText, text_of
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, final_reply
from app.core.types.stats import StopReason
from tests.core.server.conftest import N_CTX, Serve

LONG = {"messages": [{"role": "user", "content": "Count from 1 to 500, one number per line."}], "temperature": 0}
WAIT_S = 60.0  # for an effect on another thread; the test fails, with a message, if it never comes


def wait_for(condition: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.01)
    pytest.fail(f"waited {WAIT_S:.0f} s for {what}")


def last_record(server: ApiServer, endpoint: str) -> RequestRecord | None:
    records = [r for r in server.request_log.records() if r.endpoint == endpoint]
    return records[-1] if records else None


def test_models_lists_the_loaded_model_with_its_context(client: openai.OpenAI, model_queue: ModelQueue) -> None:
    models = client.models.list().data
    assert [model.id for model in models] == ["SmolLM2-135M-Instruct.Q4_1"] or len(models) == 1
    assert model_queue.backend.model is not None and model_queue.backend.model.endswith(f"{models[0].id}.gguf")
    assert models[0].model_extra is not None and models[0].model_extra["max_model_len"] == N_CTX


def test_health_says_ok_and_how_busy_the_model_is(server: ApiServer) -> None:
    health = httpx2.get(server.base_url.removesuffix("/v1") + "/health", timeout=10)
    assert health.status_code == 200
    assert health.json()["status"] == "ok" and health.json()["queue"] == {
        "busy": False,
        "waiting": 0,
        "slots": 1,  # one reply at a time: no parallel slots
        "slots_busy": 0,
        "slot_ctx": 0,
    }


def test_a_raw_completion_continues_the_prompt_without_the_chat_template(client: openai.OpenAI) -> None:
    whole = client.completions.create(model="any", prompt="The capital of France is", max_tokens=6, temperature=0)
    assert whole.object == "text_completion" and whole.choices[0].text
    assert whole.usage is not None and whole.usage.prompt_tokens < 10  # no template around it
    stream = client.completions.create(
        model="any", prompt="The capital of France is", max_tokens=6, temperature=0, stream=True
    )
    chunks = list(stream)
    assert "".join(chunk.choices[0].text for chunk in chunks) == whole.choices[0].text
    assert [c.choices[0].finish_reason for c in chunks][-1] == "length"


def test_raw_completion_logprobs_have_the_legacy_shape(client: openai.OpenAI) -> None:
    reply = client.completions.create(model="any", prompt="One, two, three,", max_tokens=5, temperature=0, logprobs=2)
    logprobs = reply.choices[0].logprobs
    assert logprobs is not None and logprobs.tokens and logprobs.top_logprobs and logprobs.text_offset
    assert "".join(logprobs.tokens) == reply.choices[0].text
    assert len(logprobs.tokens) == len(logprobs.token_logprobs or []) == len(logprobs.top_logprobs) == 5
    assert all(len(top) <= 2 for top in logprobs.top_logprobs)


def test_an_unknown_endpoint_answers_in_openais_error_shape(server: ApiServer) -> None:
    missing = httpx2.get(f"{server.base_url}/files", timeout=10)
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == "This server has no GET /v1/files."
    wrong_method = httpx2.get(f"{server.base_url}/chat/completions", timeout=10)
    assert wrong_method.status_code == 405 and wrong_method.json()["error"]["code"] == "not_allowed"
    assert wrong_method.headers["allow"] == "POST"


def test_the_request_log_keeps_metadata_and_tells_its_listeners(client: openai.OpenAI, server: ApiServer) -> None:
    heard: list[RequestRecord] = []
    stop_listening = server.request_log.add_listener(heard.append)
    try:
        client.chat.completions.create(
            model="any", messages=[{"role": "user", "content": "Hi!"}], max_tokens=5, temperature=0
        )
    finally:
        stop_listening()
    (record,) = heard
    assert record.endpoint == "/v1/chat/completions" and record.method == "POST" and record.status == 200
    assert record.client.startswith("127.0.0.1:") and record.model == client.models.list().data[0].id
    assert record.prompt_tokens > 0 and record.completion_tokens == 5 and record.finish_reason == "length"
    assert record.time_to_first_token_s is not None and record.time_to_first_token_s > 0
    assert record.tokens_per_s is not None and record.tokens_per_s > 0
    assert record.messages == (ChatMessage("user", "Hi!"),) and record.reply  # this server keeps the text
    assert server.request_log.records()[-1].endpoint == "/v1/models"


def test_without_text_logging_the_log_keeps_no_prompt_or_reply(serve: Serve) -> None:
    quiet = serve()
    with openai.OpenAI(base_url=quiet.base_url, api_key="unused") as client:
        client.chat.completions.create(model="any", messages=[{"role": "user", "content": "Secret"}], max_tokens=3)
    (record,) = quiet.request_log.records()
    assert record.status == 200 and record.completion_tokens == 3
    assert record.messages == () and record.reply == "" and record.prompt == ""


def test_a_client_that_disconnects_stops_its_generation(server: ApiServer, model_queue: ModelQueue) -> None:
    seen = 0
    body = {**LONG, "max_tokens": 1500, "stream": True}
    with httpx2.stream("POST", f"{server.base_url}/chat/completions", json=body, timeout=60) as response:
        for line in response.iter_lines():
            if '"content":"' in line:
                seen += 1
                if seen == 3:
                    break  # leaving the block closes the connection
    record = wait_for(lambda: (r := last_record(server, "/v1/chat/completions")) and r.status == CLIENT_CLOSED and r,
                      "the reply to end as a 499")  # fmt: skip
    assert record.finish_reason == "stop"  # stopped, not run out of tokens
    assert record.completion_tokens < 100
    wait_for(lambda: not model_queue.busy, "the model to be free")


def test_beyond_the_queue_bound_a_request_gets_503_with_retry_after(server: ApiServer, model_queue: ModelQueue) -> None:
    url = f"{server.base_url}/chat/completions"
    waiting_reply: list[httpx2.Response] = []
    with httpx2.stream("POST", url, json={**LONG, "max_tokens": 1500, "stream": True}, timeout=60) as running:
        lines = running.iter_lines()  # kept: a dropped iterator closes the connection
        next(lines)  # the first one generates now
        waiter = threading.Thread(
            target=lambda: waiting_reply.append(httpx2.post(url, json={**LONG, "max_tokens": 4}, timeout=120))
        )
        waiter.start()
        wait_for(lambda: model_queue.waiting == 1, "the second request to wait")
        refused = httpx2.post(url, json={**LONG, "max_tokens": 4}, timeout=60)
    waiter.join()

    assert refused.status_code == 503
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["error"]["code"] == "queue_full"
    assert waiting_reply[0].status_code == 200  # the waiting one ran once the first client left
    assert waiting_reply[0].json()["usage"]["completion_tokens"] == 4


def test_another_owner_of_the_queue_and_an_api_request_both_finish(
    client: openai.OpenAI, model_queue: ModelQueue
) -> None:
    """The window's own chat goes through the same queue: whoever comes first runs first, both complete."""
    done: list[ReplyDone] = []

    def window_chat(backend: LocalBackend) -> None:
        messages = [ChatMessage("user", "Name three fruits.")]
        done.append(final_reply(backend.stream_chat(messages, replace(GREEDY, max_tokens=20), threading.Event())))

    api_reply: list[str] = []
    api = threading.Thread(
        target=lambda: api_reply.append(
            client.chat.completions.create(model="any", **LONG, max_tokens=20).choices[0].message.content or ""
        )
    )
    api.start()
    wait_for(lambda: model_queue.busy, "the API request to run")
    window = QueuedJob(window_chat)
    model_queue.submit(window)
    api.join()
    wait_for(lambda: done, "the window's reply")
    assert done[0].stats.stop_reason in (StopReason.END_OF_TEXT, StopReason.LENGTH)
    assert done[0].text and api_reply[0]


def test_a_server_starts_and_stops_leaving_no_thread(model_queue: ModelQueue) -> None:
    before = {thread.name for thread in threading.enumerate()}
    server = ApiServer(ServerConfig(port=0), model_queue)
    server.start()
    assert server.running and "api-server" in {thread.name for thread in threading.enumerate()}
    assert httpx2.get(server.base_url.removesuffix("/v1") + "/health", timeout=10).status_code == 200
    server.stop()
    assert not server.running
    assert {thread.name for thread in threading.enumerate()} <= before
    server.start()  # a stopped server starts again (the window's Start after Stop)
    assert httpx2.get(server.base_url.removesuffix("/v1") + "/health", timeout=10).status_code == 200
    server.stop()


def test_a_port_in_use_is_a_clear_start_error(model_queue: ModelQueue) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ServerStartError, match=f"Port {port} on 127.0.0.1 is already in use") as caught:
            ApiServer(ServerConfig(port=port), model_queue).start()
    message = text_of(caught.value)  # the window shows it in the reader's language
    assert isinstance(message, UserText) and message.template.startswith("Port {port} on {host} is already in use")


def test_stopping_the_server_ends_a_reply_in_progress(model_queue: ModelQueue) -> None:
    server = ApiServer(ServerConfig(port=0), model_queue)
    server.start()
    received: list[str] = []

    def read_long_reply() -> None:
        body = {**LONG, "max_tokens": 1500, "stream": True}
        with httpx2.stream("POST", f"{server.base_url}/chat/completions", json=body, timeout=60) as response:
            received.extend(line for line in response.iter_lines() if line)

    reader = threading.Thread(target=read_long_reply)
    reader.start()
    wait_for(lambda: model_queue.busy, "the reply to start")
    server.stop()
    reader.join()
    assert not server.running
    assert received[-1] == "data: [DONE]"  # the reply was ended, not cut: the client got a whole stream
    wait_for(lambda: not model_queue.busy, "the model to be free")
