"""Several clients at once against a server whose model writes in parallel slots, read by the official `openai` client.

The starter model is loaded once for the module with a context of `N_CTX` tokens split across
`SLOTS` slots; every test's clients talk to one real ApiServer on loopback.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import openai
import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue
from app.core.server.request_log import CLIENT_CLOSED, RequestRecord
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig

pytestmark = pytest.mark.requires_model

SLOTS = 4
N_CTX = 8192  # 2048 tokens a slot
N_BATCH = 512
QUEUE_LIMIT = 1
RECORD_WAIT_S = 60.0  # how long a test waits for a reply the engine is still ending to be logged
PROMPTS = [
    "Name three colours.",
    "What is the capital of France?",
    "Write one sentence about the sea.",
    "Count to five.",
]


@pytest.fixture(scope="module")
def model_queue(starter_model: Path) -> Iterator[ModelQueue]:
    backend = LocalBackend()
    backend.load(LoadConfig(starter_model, n_ctx=N_CTX, n_batch=N_BATCH))
    backend.open_slots(SLOTS)
    queue = ModelQueue(backend, QUEUE_LIMIT, slots=SLOTS)
    yield queue
    queue.close()
    backend.close()


@pytest.fixture(scope="module")
def server(model_queue: ModelQueue) -> Iterator[ApiServer]:
    with ApiServer(ServerConfig(port=0), model_queue) as running:
        yield running


@pytest.fixture(scope="module")
def client(server: ApiServer) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0) as official:
        yield official


@dataclass
class Streamed:
    text: str = ""
    chunks: int = 0
    finish_reason: str | None = None
    error: str = ""
    order: list[str] = field(default_factory=list)


def stream(client: openai.OpenAI, content: str, max_tokens: int, **extra: object) -> Streamed:
    result = Streamed()
    try:
        chunks = client.chat.completions.create(
            model="any",
            messages=[{"role": "user", "content": content}],
            stream=True,
            max_tokens=max_tokens,
            temperature=0,
            **extra,  # type: ignore[arg-type]
        )
        for chunk in chunks:
            if not chunk.choices:
                continue
            result.text += chunk.choices[0].delta.content or ""
            result.chunks += 1
            result.finish_reason = chunk.choices[0].finish_reason or result.finish_reason
    except openai.APIError as error:
        result.error = str(error)
    return result


def at_once(*calls: Callable[[], Streamed]) -> list[Streamed]:
    results: list[Streamed | None] = [None] * len(calls)

    def run(index: int) -> None:
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,), name=f"client-{i}") for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result is not None for result in results)
    return [result for result in results if result is not None]


def records_since(server: ApiServer, since: float, count: int) -> list[RequestRecord]:
    """The records of the requests that arrived at `since` or later, once `count` of them came. A record is
    written when its reply has ended (a reply a client left, once the engine has ended it), so one of an
    earlier request can still come after `since`: it arrived before, and is not counted."""
    deadline = time.monotonic() + RECORD_WAIT_S
    while True:
        records = [record for record in server.request_log.records() if record.started_at >= since]
        if len(records) >= count or time.monotonic() > deadline:
            return records


def agreeing(first: str, second: str) -> int:
    """How many characters the two texts start with in common."""
    differing = (i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b)
    return next(differing, min(len(first), len(second)))


def test_the_health_check_shows_the_slots(server: ApiServer) -> None:
    health = httpx2.get(server.base_url.removesuffix("/v1") + "/health").json()
    assert health["queue"]["slots"] == SLOTS
    assert health["queue"]["slot_ctx"] == N_CTX // SLOTS


def test_four_clients_stream_at_once_each_its_own_reply_in_its_own_slot(
    server: ApiServer, client: openai.OpenAI
) -> None:
    """Each greedy reply written beside three others against the same request alone.

    Batches round differently from a single sequence, so a greedy reply may leave its lone
    version where two tokens are nearly tied. Measured on the starter model (Q4_1, CPU, 32 tokens,
    two runs): the replies written four at once agree with their lone versions for their first 17
    to 64 characters (about 4 to 15 tokens; "The sea is a vast" then "," or " and" is the
    shortest), then may go their own way. Each starts as its lone version does."""
    alone = [stream(client, prompt, 32) for prompt in PROMPTS]
    since = time.time()
    together = at_once(*(lambda prompt=prompt: stream(client, prompt, 32) for prompt in PROMPTS))
    for lone, beside in zip(alone, together, strict=True):
        assert beside.error == "" and beside.finish_reason in ("stop", "length")
        assert agreeing(lone.text, beside.text) >= 12, (lone.text, beside.text)
    slots = {record.slot for record in records_since(server, since, SLOTS)}
    assert slots == set(range(SLOTS))


def test_a_client_that_leaves_mid_stream_ends_its_reply_alone(server: ApiServer, client: openai.OpenAI) -> None:
    def leave_after_three_chunks() -> Streamed:
        result = Streamed()
        chunks = client.chat.completions.create(
            model="any", messages=[{"role": "user", "content": "Tell me a long story."}], stream=True, max_tokens=400
        )
        for _chunk in chunks:
            result.chunks += 1
            if result.chunks == 3:
                chunks.close()
                break
        return result

    since = time.time()
    left, *stayed = at_once(
        leave_after_three_chunks, *(lambda prompt=prompt: stream(client, prompt, 48) for prompt in PROMPTS[:2])
    )
    assert left.chunks == 3
    for result in stayed:
        assert result.error == "" and result.finish_reason in ("stop", "length") and result.text
    statuses = sorted(record.status for record in records_since(server, since, 3))
    assert statuses == [200, 200, CLIENT_CLOSED]


def test_a_long_prompt_arriving_while_another_streams_does_not_stop_that_stream(
    server: ApiServer, client: openai.OpenAI
) -> None:
    # about 700 tokens: more than a batch, read in many chunks while the other reply goes on
    long_prompt = "Summarise this: " + "the tide comes in and the tide goes out. " * 70
    order: list[str] = []  # what the clients saw, in the order they saw it
    lock = threading.Lock()
    first_chunk = threading.Event()

    def steady() -> Streamed:
        result = Streamed()
        chunks = client.chat.completions.create(
            model="any",
            messages=[{"role": "user", "content": "Count from one to one hundred."}],
            stream=True,
            max_tokens=160,
            temperature=0,
        )
        for chunk in chunks:
            if chunk.choices and chunk.choices[0].delta.content:
                result.chunks += 1
                with lock:
                    order.append("steady")
                first_chunk.set()
        return result

    def long() -> Streamed:
        first_chunk.wait()
        with lock:
            order.append("long sent")
        result = stream(client, long_prompt, 1)
        with lock:
            order.append("long answered")
        return result

    since = time.time()
    running, answered = at_once(steady, long)
    assert answered.error == "" and running.chunks > 0
    sent, done = order.index("long sent"), order.index("long answered")
    assert "steady" in order[sent:done]  # the running stream went on while the long prompt was read
    record = max(records_since(server, since, 2), key=lambda r: r.prompt_tokens)
    assert record.prompt_tokens > N_BATCH


def test_a_stop_string_or_a_prompt_too_long_in_one_request_leaves_the_others_alone(
    server: ApiServer, client: openai.OpenAI
) -> None:
    too_long = "word " * (N_CTX // SLOTS + 100)
    stopped, refused, *others = at_once(
        lambda: stream(client, "Count from one to twenty, separated by commas.", 60, stop=["5"]),
        lambda: stream(client, too_long, 8),
        *(lambda prompt=prompt: stream(client, prompt, 40) for prompt in PROMPTS[:2]),
    )
    assert stopped.finish_reason == "stop" and "5" not in stopped.text
    assert "context" in refused.error and str(N_CTX // SLOTS) in refused.error
    for other in others:
        assert other.error == "" and other.text and other.finish_reason in ("stop", "length")


def test_beyond_the_slots_and_the_queue_a_request_is_told_to_come_back(
    model_queue: ModelQueue, client: openai.OpenAI
) -> None:
    release = threading.Event()

    def hold() -> Streamed:
        """A stream that stays open (its reply runs in a slot, or waits in the queue) until released."""
        result = Streamed()
        chunks = client.chat.completions.create(
            model="any", messages=[{"role": "user", "content": "Tell me a long story."}], stream=True, max_tokens=2000
        )
        release.wait()
        chunks.close()
        return result

    holders = [threading.Thread(target=hold, name=f"holder-{i}") for i in range(SLOTS + QUEUE_LIMIT)]
    for holder in holders:
        holder.start()
    deadline = time.monotonic() + RECORD_WAIT_S
    while (model_queue.running, model_queue.waiting) != (SLOTS, QUEUE_LIMIT) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        with pytest.raises(openai.APIStatusError) as refused:
            client.chat.completions.create(model="any", messages=[{"role": "user", "content": "Hi"}], max_tokens=2)
    finally:
        release.set()
        for holder in holders:
            holder.join()
    assert refused.value.status_code == 503
    assert int(refused.value.response.headers["Retry-After"]) >= 1
