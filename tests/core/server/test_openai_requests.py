"""Reading OpenAI request bodies: defaults, what each field becomes, and a 400 naming each wrong field."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.server.errors import ApiError
from app.core.server.openai_requests import (
    COMPLETION_DEFAULT_MAX_TOKENS,
    Limits,
    parse_chat,
    parse_completion,
)
from app.core.server.reasoning_format import ReasoningFormat
from app.core.types.messages import ChatMessage

LIMITS = Limits(max_tokens=1000)
HI = [{"role": "user", "content": "Hi"}]


def refused_field(parse: Any, body: dict[str, Any]) -> str:
    with pytest.raises(ApiError) as refused:
        parse(body, LIMITS)
    assert refused.value.status == 400
    assert refused.value.param is not None and f"'{refused.value.param}'" in refused.value.message
    return refused.value.param


def test_what_a_chat_request_leaves_out_gets_openai_like_defaults() -> None:
    chat = parse_chat({"messages": HI}, LIMITS)
    assert chat.messages == (ChatMessage("user", "Hi"),)
    assert chat.params.repeat_penalty == 1.0  # OpenAI has no repeat penalty: off
    assert chat.params.max_tokens == LIMITS.max_tokens  # up to the limit (and the context)
    assert chat.params.seed is None and chat.params.stop == ()
    assert not chat.stream and not chat.include_usage and not chat.logprobs and chat.grammar == ""


def test_the_sampling_fields_are_read_with_the_settings_bounds() -> None:
    chat = parse_chat(
        {
            "messages": HI,
            "temperature": 0.2, "top_p": 0.5, "seed": 9, "stop": "END", "presence_penalty": 1,
            "frequency_penalty": -1, "top_k": 5, "min_p": 0.1, "repeat_penalty": 1.3,
            "max_tokens": 50, "max_completion_tokens": 20,
        },
        LIMITS,
    )  # fmt: skip
    params = chat.params
    assert (params.temperature, params.top_p, params.seed, params.stop) == (0.2, 0.5, 9, ("END",))
    assert (params.presence_penalty, params.frequency_penalty) == (1, -1)
    assert (params.top_k, params.min_p, params.repeat_penalty) == (5, 0.1, 1.3)
    assert params.max_tokens == 20  # max_completion_tokens replaces the older max_tokens


def test_seed_minus_one_asks_for_a_random_seed_as_in_llama_cpp() -> None:
    assert parse_chat({"messages": HI, "seed": -1}, LIMITS).params.seed is None


def test_developer_messages_are_system_messages_and_text_parts_are_joined() -> None:
    chat = parse_chat(
        {
            "messages": [
                {"role": "developer", "content": "Be brief."},
                {"role": "user", "content": [{"type": "text", "text": "Hello "}, {"type": "text", "text": "there"}]},
                {"role": "assistant", "content": None, "tool_calls": []},
            ]
        },
        LIMITS,
    )
    assert chat.messages == (
        ChatMessage("system", "Be brief."),
        ChatMessage("user", "Hello there"),
        ChatMessage("assistant", ""),
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"messages": "Hi"}, "messages"),
        ({"messages": [{"role": "function", "content": "42"}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, "messages[0].content[0]"),
        ({"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
        ({"messages": HI, "temperature": True}, "temperature"),
        ({"messages": HI, "temperature": 2.5}, "temperature"),
        ({"messages": HI, "seed": 2**40}, "seed"),
        ({"messages": HI, "stop": [f"s{i}" for i in range(17)]}, "stop"),
        ({"messages": HI, "max_tokens": 1001}, "max_tokens"),
        ({"messages": HI, "max_completion_tokens": 0}, "max_completion_tokens"),
        ({"messages": HI, "logprobs": True, "top_logprobs": 6}, "top_logprobs"),
        ({"messages": HI, "logprobs": True, "top_logprobs": 21}, "top_logprobs"),
        ({"messages": HI, "stream_options": {"include_usage": "yes"}}, "stream_options.include_usage"),
        ({"messages": HI, "response_format": "json"}, "response_format"),
        ({"messages": HI, "response_format": {"type": "json_schema"}}, "response_format.json_schema.schema"),
        (
            {"messages": HI, "response_format": {"type": "json_schema", "json_schema": {"schema": {"type": "nope"}}}},
            "response_format.json_schema.schema",
        ),
        ({"messages": HI, "model": 3}, "model"),
        ({"messages": HI, "reasoning_format": True}, "reasoning_format"),
        (
            {"messages": [{"role": "assistant", "content": "4", "reasoning_content": 4}]},
            "messages[0].reasoning_content",
        ),
        ({"messages": HI, "reasoning_format": "deepseek-r1"}, "reasoning_format"),
    ],
)
def test_a_wrong_chat_field_is_named(body: dict[str, Any], field: str) -> None:
    assert refused_field(parse_chat, body) == field


def test_the_reasoning_formats_llama_server_accepts_are_read_and_null_is_its_default() -> None:
    for name in ("none", "auto", "deepseek", "deepseek-legacy"):
        assert parse_chat({"messages": HI, "reasoning_format": name}, LIMITS).reasoning_format is ReasoningFormat(name)
    assert parse_chat({"messages": HI, "reasoning_format": None}, LIMITS).reasoning_format is ReasoningFormat.AUTO
    with pytest.raises(ApiError) as refused:
        parse_chat({"messages": HI, "reasoning_format": "hidden"}, LIMITS)
    assert "must be one of none, auto, deepseek, deepseek-legacy, not 'hidden'" in refused.value.message


def test_an_assistant_messages_past_reasoning_is_read_for_its_template_to_render_or_drop() -> None:
    past = {"role": "assistant", "content": "4", "reasoning_content": "2 + 2"}
    chat = parse_chat({"messages": [*HI, past, {"role": "user", "content": "And 3 + 3?"}]}, LIMITS)
    assert chat.messages[1] == ChatMessage("assistant", "4", reasoning="2 + 2")
    assert chat.messages[0].reasoning == chat.messages[2].reasoning == ""


def test_response_formats_become_grammars() -> None:
    assert parse_chat({"messages": HI, "response_format": {"type": "text"}}, LIMITS).grammar == ""
    assert "root ::= object" in parse_chat({"messages": HI, "response_format": {"type": "json_object"}}, LIMITS).grammar
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    grammar = parse_chat(
        {"messages": HI, "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}},
        LIMITS,
    ).grammar
    assert '"\\"ok\\""' in grammar and "boolean" in grammar


def test_a_completion_request_reads_its_prompt_and_the_legacy_logprobs() -> None:
    completion = parse_completion({"prompt": ["Once upon"], "logprobs": 3, "stream": True}, LIMITS)
    assert completion.prompt == "Once upon" and completion.logprobs == 3 and completion.stream
    assert completion.params.max_tokens == COMPLETION_DEFAULT_MAX_TOKENS


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"prompt": [1, 2, 3]}, "prompt"),
        ({"prompt": ["a", "b"]}, "prompt"),
        ({"prompt": "a", "echo": True}, "echo"),
        ({"prompt": "a", "suffix": "end"}, "suffix"),
        ({"prompt": "a", "best_of": 3}, "best_of"),
        ({"prompt": "a", "logprobs": 6}, "logprobs"),
        ({"prompt": "a", "n": 2}, "n"),
    ],
)
def test_a_wrong_completion_field_is_named(body: dict[str, Any], field: str) -> None:
    assert refused_field(parse_completion, body) == field


def test_a_chats_thinking_switch_effort_and_budget_are_read_from_other_servers_fields() -> None:
    default = parse_chat({"messages": HI}, LIMITS).params
    assert (default.thinking, default.reasoning_budget) == (True, 0)
    off = parse_chat({"messages": HI, "chat_template_kwargs": {"enable_thinking": False}}, LIMITS).params
    assert off.thinking is False
    assert parse_chat({"messages": HI, "reasoning_effort": "high"}, LIMITS).params.reasoning_effort == "high"
    in_kwargs = parse_chat({"messages": HI, "chat_template_kwargs": {"reasoning_effort": "low"}}, LIMITS).params
    assert in_kwargs.reasoning_effort == "low"
    for name in ("thinking_budget_tokens", "reasoning_budget_tokens"):
        assert parse_chat({"messages": HI, name: 300}, LIMITS).params.reasoning_budget == 300
    both = {"messages": HI, "reasoning_budget_tokens": 100, "thinking_budget_tokens": 200}
    assert parse_chat(both, LIMITS).params.reasoning_budget == 100  # llama-server's own name wins


def test_a_budget_of_minus_one_is_no_limit_and_zero_is_no_thinking_as_in_llama_server() -> None:
    unlimited = parse_chat({"messages": HI, "thinking_budget_tokens": -1}, LIMITS).params
    assert (unlimited.thinking, unlimited.reasoning_budget) == (True, 0)
    none = parse_chat({"messages": HI, "thinking_budget_tokens": 0}, LIMITS).params
    assert none.thinking is False


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ({"chat_template_kwargs": ["enable_thinking"]}, "chat_template_kwargs", "must be an object"),
        ({"chat_template_kwargs": {"enable_thinking": "no"}}, "chat_template_kwargs.enable_thinking", "true or false"),
        ({"reasoning_effort": "extreme"}, "reasoning_effort", "low, medium, high"),
        ({"chat_template_kwargs": {"reasoning_effort": 3}}, "chat_template_kwargs.reasoning_effort", "low, medium"),
        ({"thinking_budget_tokens": -5}, "thinking_budget_tokens", "between -1 (no limit) and 32768"),
        ({"reasoning_budget_tokens": 10**6}, "reasoning_budget_tokens", "between -1"),
        ({"thinking_budget_tokens": "many"}, "thinking_budget_tokens", "whole number"),
    ],
)
def test_a_wrong_thinking_field_is_refused_with_the_reason(body: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(ApiError) as refused:
        parse_chat({"messages": HI, **body}, LIMITS)
    assert refused.value.status == 400 and refused.value.param == field
    assert reason in refused.value.message


def test_a_long_wrong_effort_is_quoted_cut_short() -> None:
    with pytest.raises(ApiError) as refused:
        parse_chat({"messages": HI, "reasoning_effort": "x" * 10_000}, LIMITS)
    assert len(refused.value.message) < 200
