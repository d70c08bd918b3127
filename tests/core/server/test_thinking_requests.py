"""A chat's thinking switch and budget asked for by the official `openai` client (in `extra_body`, as
llama-server's and vLLM's users send them), against a real server on the real starter model.

The starter does not think: loaded with the `think` markers named for it, a grammar makes it write
`<think>…</think>answer` whenever thinking is on (as a thinking model would), so the whole path runs
on a real model: the switch reaches the template's render, the budget the token loop."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import openai
import pytest

from app.core.backends.local.backend import LocalBackend
from app.core.inference.sampling import SamplingParams
from app.core.server.config import ServerConfig
from app.core.server.model_queue import ModelQueue
from app.core.server.server import ApiServer
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyEvent
from app.core.types.tools import ToolSpec

THINK_AT_LENGTH = 'root ::= "<think>" [a-z ]+ "</think>" [A-Za-z]{1,8}'  # the block may close at any point
QUESTION = [{"role": "user", "content": "What is two plus two?"}]
EMPTY_BLOCK = "<think></think>\n\n"  # what thinking off writes after the generation prompt (no switch of its own)


class ForcedThinker(LocalBackend):
    """The starter made to write a reasoning block while thinking is on."""

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
        forced = THINK_AT_LENGTH if params.thinking and not grammar else grammar
        return super().stream_chat(messages, params, stop, token_probabilities, forced, record, prompt_ids, tools)


@pytest.fixture(scope="module")
def backend(starter_model: Path) -> Iterator[ForcedThinker]:
    thinker = ForcedThinker()
    thinker.load(LoadConfig(starter_model, n_ctx=512, reasoning="think"))
    yield thinker
    thinker.close()


@pytest.fixture(scope="module")
def client(backend: ForcedThinker) -> Iterator[openai.OpenAI]:
    queue = ModelQueue(backend, limit=1)
    try:
        with (
            ApiServer(ServerConfig(port=0), queue) as server,
            openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0) as official,
        ):
            yield official
    finally:
        queue.close()


def ask(client: openai.OpenAI, **extra_body: Any) -> Any:
    return client.chat.completions.create(
        model="starter",
        messages=QUESTION,  # type: ignore[arg-type]
        max_tokens=24,
        temperature=0,
        extra_body=extra_body,
    )


def reasoning_of(reply: Any) -> str:
    return (reply.choices[0].message.model_extra or {}).get("reasoning_content") or ""


def test_thinking_on_by_default_the_reply_reasons_until_its_length_limit(client: openai.OpenAI) -> None:
    reply = ask(client)
    assert reasoning_of(reply) != "" and reply.choices[0].message.content == ""
    assert reply.choices[0].finish_reason == "length"
    assert reply.usage.completion_tokens_details.reasoning_tokens == reply.usage.completion_tokens


@pytest.mark.parametrize("field", ["thinking_budget_tokens", "reasoning_budget_tokens"])
def test_a_budget_closes_the_reasoning_and_the_answer_follows(client: openai.OpenAI, field: str) -> None:
    reply = ask(client, **{field: 3})
    assert reasoning_of(reply) != "" and reply.choices[0].message.content != ""
    assert reply.choices[0].finish_reason == "stop"
    assert 3 < reply.usage.completion_tokens_details.reasoning_tokens < reply.usage.completion_tokens


@pytest.mark.parametrize(
    "switch", [{"chat_template_kwargs": {"enable_thinking": False}}, {"thinking_budget_tokens": 0}]
)
def test_thinking_off_starts_the_reply_after_an_empty_block(
    client: openai.OpenAI, backend: ForcedThinker, switch: dict[str, Any]
) -> None:
    on, off = ask(client), ask(client, **switch)
    block = backend.count_tokens(EMPTY_BLOCK).tokens
    assert off.usage.prompt_tokens == on.usage.prompt_tokens + block
    assert reasoning_of(off) == "" and off.usage.completion_tokens_details.reasoning_tokens == 0


def test_a_wrong_switch_is_refused_with_its_reason(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        ask(client, chat_template_kwargs={"enable_thinking": "off"})
    assert "Invalid 'chat_template_kwargs.enable_thinking': must be true or false" in str(refused.value)
    with pytest.raises(openai.BadRequestError) as refused:
        ask(client, reasoning_effort="extreme")
    assert "must be one of low, medium, high" in str(refused.value)
