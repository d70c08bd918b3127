"""A thinking model served to other programs, read by the official `openai` client: the reasoning in
`reasoning_content` (message and stream deltas) as llama-server sends it, its tokens in the usage,
and inside `content` in `<think>` tags for a request that asks for `reasoning_format: none`.

The model is scripted: a backend that replies as the local engine does for a thinking model,
its pieces marked with their part and its ReplyDone carrying the reasoning apart."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import openai
import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.backends.remote import RemoteBackend, RemoteConfig
from app.core.inference.sampling import SamplingParams
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent, ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace
from app.core.types.tools import ToolSpec
from tests.helpers.reasoning_streams import ANSWER, ANSWER_TEXT, REASONING, REASONING_TEXT

THINKER = LoadConfig(Path("thinker.gguf"), n_ctx=2048)
REASONING_TOKENS = len(REASONING) + 2  # the pieces and the block's two markers
HI = [{"role": "user", "content": "What is 2 + 2?"}]


class ThinkingBackend(LocalBackend):
    """A loaded thinking model that gives every chat the same reply, as the local engine gives it."""

    def __init__(self) -> None:
        super().__init__(link=InProcessEngine())
        self.asked: list[Sequence[ChatMessage]] = []

    @property
    def model(self) -> str | None:
        return str(THINKER.model_path)

    @property
    def config(self) -> LoadConfig | None:
        return THINKER

    def stream_chat(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool = False,
        grammar: str = "",
        record: bool = False,
        prompt_ids: Sequence[int] = (),
        tools: Sequence[ToolSpec] = (),
    ) -> Iterator[ReplyEvent]:
        self.asked.append(messages)
        yield from (TokenPiece(text, 100 + i, ReplyPart.REASONING) for i, text in enumerate(REASONING))
        yield from (TokenPiece(text, 200 + i) for i, text in enumerate(ANSWER))
        stats = ReplyStats(
            prompt_tokens=14,
            completion_tokens=REASONING_TOKENS + len(ANSWER),
            reasoning_tokens=REASONING_TOKENS,
            reasoning_s=0.25,
            stop_reason=StopReason.END_OF_TEXT,
        )
        # As the engine records it: every token, the reasoning's (its markers too) before the answer's.
        written = ["<think>", *REASONING, "</think>", *ANSWER]
        trace = TokenTrace([TokenStep(100 + i, t, 0.5, (Alternative(100 + i, t, 0.5),)) for i, t in enumerate(written)])
        yield ReplyDone(ANSWER_TEXT, stats, trace=trace if token_probabilities else None, reasoning=REASONING_TEXT)


@pytest.fixture(scope="module")
def server() -> Iterator[ApiServer]:
    queue = ModelQueue(ThinkingBackend(), limit=2)
    try:
        with ApiServer(ServerConfig(port=0), queue) as running:
            yield running
    finally:
        queue.close()


@pytest.fixture(scope="module")
def client(server: ApiServer) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0) as official:
        yield official


def extra(model: Any) -> dict[str, Any]:
    return model.model_extra or {}


def test_a_whole_reply_carries_its_reasoning_in_reasoning_content(client: openai.OpenAI) -> None:
    reply = client.chat.completions.create(model="thinker", messages=HI)  # type: ignore[arg-type]
    message = reply.choices[0].message
    assert message.content == ANSWER_TEXT
    assert extra(message)["reasoning_content"] == REASONING_TEXT
    assert reply.usage is not None and reply.usage.completion_tokens_details is not None
    assert reply.usage.completion_tokens_details.reasoning_tokens == REASONING_TOKENS


def test_a_stream_sends_the_reasoning_in_reasoning_content_deltas_before_the_answer(client: openai.OpenAI) -> None:
    stream = client.chat.completions.create(
        model="thinker",
        messages=HI,
        stream=True,
        stream_options={"include_usage": True},  # type: ignore[arg-type]
    )
    deltas, usage = [], None
    for chunk in stream:
        usage = chunk.usage or usage
        deltas += [(extra(choice.delta).get("reasoning_content"), choice.delta.content) for choice in chunk.choices]
    reasoning = [text for text, _content in deltas if text]
    content = [text for _reasoning, text in deltas if text]
    assert (reasoning, content) == (REASONING, ANSWER)
    last_reasoning = max(i for i, (text, _content) in enumerate(deltas) if text)
    first_answer = min(i for i, (_reasoning, text) in enumerate(deltas) if text)
    assert last_reasoning < first_answer
    assert usage is not None and usage.completion_tokens_details is not None
    assert usage.completion_tokens_details.reasoning_tokens == REASONING_TOKENS


def test_reasoning_format_none_gets_the_reasoning_inside_the_content_in_think_tags(client: openai.OpenAI) -> None:
    raw = f"<think>{REASONING_TEXT}</think>\n\n{ANSWER_TEXT}"
    reply = client.chat.completions.create(
        model="thinker",
        messages=HI,
        extra_body={"reasoning_format": "none"},  # type: ignore[arg-type]
    )
    assert reply.choices[0].message.content == raw
    assert "reasoning_content" not in extra(reply.choices[0].message)
    stream = client.chat.completions.create(
        model="thinker",
        messages=HI,
        stream=True,
        extra_body={"reasoning_format": "none"},  # type: ignore[arg-type]
    )
    deltas = [choice.delta for chunk in stream for choice in chunk.choices]
    assert "".join(delta.content or "" for delta in deltas) == raw
    assert not any(extra(delta).get("reasoning_content") for delta in deltas)


def test_a_stream_with_logprobs_sends_the_reasoning_first_and_the_answers_tokens_with_their_probabilities(
    client: openai.OpenAI,
) -> None:
    stream = client.chat.completions.create(
        model="thinker",
        messages=HI,
        stream=True,
        logprobs=True,
        top_logprobs=1,  # type: ignore[arg-type]
    )
    choices = [choice for chunk in stream for choice in chunk.choices]
    reasoning = "".join(extra(choice.delta).get("reasoning_content") or "" for choice in choices)
    tokens = [entry.token for choice in choices if choice.logprobs for entry in choice.logprobs.content or []]
    assert (reasoning, tokens) == (REASONING_TEXT, ANSWER)


def test_a_whole_reply_with_logprobs_lists_the_answers_tokens_only(client: openai.OpenAI) -> None:
    reply = client.chat.completions.create(model="thinker", messages=HI, logprobs=True)  # type: ignore[arg-type]
    choice = reply.choices[0]
    assert choice.logprobs is not None and choice.logprobs.content is not None
    assert [entry.token for entry in choice.logprobs.content] == ANSWER
    assert "".join(entry.token for entry in choice.logprobs.content) == choice.message.content


def test_a_reasoning_format_llama_server_does_not_know_is_refused_with_the_ones_it_does(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        client.chat.completions.create(
            model="thinker",
            messages=HI,
            extra_body={"reasoning_format": "hidden"},  # type: ignore[arg-type]
        )
    assert "must be one of none, auto, deepseek, deepseek-legacy" in str(refused.value)


def test_glassboxs_own_remote_backend_reads_the_reasoning_apart_from_another_glassbox(server: ApiServer) -> None:
    remote = RemoteBackend(RemoteConfig(server.base_url))
    try:
        events = list(remote.stream_chat([ChatMessage("user", "What is 2 + 2?")], SamplingParams(), threading.Event()))
    finally:
        remote.close()
    *pieces, done = events
    assert [(p.part, p.text) for p in pieces if isinstance(p, TokenPiece)] == [
        *((ReplyPart.REASONING, text) for text in REASONING),
        *((ReplyPart.ANSWER, text) for text in ANSWER),
    ]
    assert isinstance(done, ReplyDone) and (done.reasoning, done.text) == (REASONING_TEXT, ANSWER_TEXT)
    assert done.stats.reasoning_tokens == REASONING_TOKENS
