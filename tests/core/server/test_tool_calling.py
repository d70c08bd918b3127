"""OpenAI tool calling on the real server with the starter model, read by the official `openai` client.

SmolLM2's template writes no tools, so Glassbox offers them in the Hermes format; a named or required
`tool_choice` makes the reply one call under a grammar built from the tool's schema, so even this
135M model's call parses and obeys the schema.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2
import openai
import pytest

from app.core.server.server import ApiServer

TIME_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_current_time",
        "description": "The current time in a IANA time zone.",
        "parameters": {
            "type": "object",
            "properties": {"timezone": {"type": "string", "maxLength": 40}},
            "required": ["timezone"],
            "additionalProperties": False,
        },
    },
}
DICE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "roll_dice",
        "description": "Roll dice.",
        "parameters": {
            "type": "object",
            "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 6}},
            "required": ["count"],
            "additionalProperties": False,
        },
    },
}
ASK = [{"role": "user", "content": "What time is it in Paris?"}]
NAMED = {"type": "function", "function": {"name": "get_current_time"}}
GREEDY: dict[str, Any] = {"temperature": 0, "seed": 1, "max_tokens": 80}


def test_a_named_tool_choice_yields_one_parsed_call_that_obeys_the_schema(client: openai.OpenAI) -> None:
    reply = client.chat.completions.create(
        model="any", messages=ASK, tools=[TIME_TOOL, DICE_TOOL], tool_choice=NAMED, **GREEDY
    )

    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    [call] = choice.message.tool_calls or []
    assert call.type == "function" and call.id.startswith("call_")
    assert call.function.name == "get_current_time"
    arguments = json.loads(call.function.arguments)
    assert set(arguments) == {"timezone"} and isinstance(arguments["timezone"], str)


def test_a_streamed_call_comes_as_tool_call_deltas_the_client_reassembles(client: openai.OpenAI) -> None:
    with client.chat.completions.stream(
        model="any", messages=ASK, tools=[TIME_TOOL], tool_choice=NAMED, **GREEDY
    ) as stream:
        final = stream.get_final_completion()

    choice = final.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert not choice.message.content
    [call] = choice.message.tool_calls or []
    assert call.function.name == "get_current_time"
    assert set(json.loads(call.function.arguments)) == {"timezone"}


def test_the_streamed_call_is_the_whole_replys_call(client: openai.OpenAI) -> None:
    whole = client.chat.completions.create(model="any", messages=ASK, tools=[TIME_TOOL], tool_choice=NAMED, **GREEDY)
    stream = client.chat.completions.create(
        model="any", messages=ASK, tools=[TIME_TOOL], tool_choice=NAMED, stream=True, **GREEDY
    )
    deltas = [call for chunk in stream if chunk.choices for call in chunk.choices[0].delta.tool_calls or []]

    assert [delta.index for delta in deltas] == [0]
    assert deltas[0].function is not None
    assert deltas[0].function.arguments == (whole.choices[0].message.tool_calls or [])[0].function.arguments


def test_a_required_tool_choice_calls_one_of_the_tools(client: openai.OpenAI) -> None:
    reply = client.chat.completions.create(
        model="any", messages=ASK, tools=[TIME_TOOL, DICE_TOOL], tool_choice="required", **GREEDY
    )

    [call] = reply.choices[0].message.tool_calls or []
    assert call.function.name in ("get_current_time", "roll_dice")
    arguments = json.loads(call.function.arguments)
    if call.function.name == "roll_dice":
        assert set(arguments) == {"count"} and 1 <= arguments["count"] <= 6
    else:
        assert set(arguments) == {"timezone"}


def test_tool_choice_none_answers_in_text(client: openai.OpenAI) -> None:
    reply = client.chat.completions.create(model="any", messages=ASK, tools=[TIME_TOOL], tool_choice="none", **GREEDY)

    assert reply.choices[0].message.tool_calls is None
    assert reply.choices[0].finish_reason in ("stop", "length")
    assert reply.choices[0].message.content


def test_the_call_and_its_result_go_back_to_the_model_for_the_answer(client: openai.OpenAI) -> None:
    first = client.chat.completions.create(model="any", messages=ASK, tools=[TIME_TOOL], tool_choice=NAMED, **GREEDY)
    call = (first.choices[0].message.tool_calls or [])[0]
    result = json.dumps({"timezone": "Europe/Paris", "datetime": "2026-12-04T11:00:00+01:00"})
    follow_up: list[Any] = [
        *ASK,
        {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
        {"role": "tool", "tool_call_id": call.id, "content": result},
    ]
    without_result = client.chat.completions.create(model="any", messages=ASK, max_tokens=1, temperature=0)
    answer = client.chat.completions.create(
        model="any", messages=follow_up, tools=[TIME_TOOL], tool_choice="none", max_tokens=16, temperature=0
    )

    assert answer.choices[0].message.content
    assert answer.choices[0].finish_reason in ("stop", "length")
    assert answer.usage is not None and without_result.usage is not None
    assert answer.usage.prompt_tokens > without_result.usage.prompt_tokens + 30  # the call and its result are in


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"tools": [TIME_TOOL], "tool_choice": {"type": "function", "function": {"name": "nope"}}}, "tool_choice"),
        ({"tools": {"get_current_time": TIME_TOOL}}, "tools"),
        ({"tools": [{"type": "function", "function": {"description": "no name"}}]}, "tools[0].function.name"),
        ({"tools": [TIME_TOOL, TIME_TOOL]}, "tools[1].function.name"),
        ({"tool_choice": "required"}, "tool_choice"),
        ({"tools": [TIME_TOOL], "tool_choice": "always"}, "tool_choice"),
        ({"tools": [TIME_TOOL], "parallel_tool_calls": "yes"}, "parallel_tool_calls"),
        ({"messages": [*ASK, {"role": "tool", "content": "12:00"}]}, "messages[1].tool_call_id"),
        ({"messages": [*ASK, {"role": "assistant", "tool_calls": [{"id": "x"}]}]}, "messages[1].tool_calls[0]"),
    ],
)
def test_bad_tool_fields_are_refused_naming_the_field(server: ApiServer, fields: dict[str, Any], param: str) -> None:
    body = {"model": "any", "messages": ASK, "max_tokens": 4, **fields}
    response = httpx2.post(f"{server.base_url}/chat/completions", json=body, timeout=60)

    assert response.status_code == 400
    assert response.json()["error"]["param"].startswith(param.split(".")[0])
    assert param in response.json()["error"]["message"]


def test_with_logprobs_a_streamed_call_is_still_a_call_and_not_text(client: openai.OpenAI) -> None:
    stream = client.chat.completions.create(
        model="any", messages=ASK, tools=[TIME_TOOL], tool_choice=NAMED, stream=True, logprobs=True, **GREEDY
    )
    chunks = [chunk for chunk in stream if chunk.choices]

    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
    calls = [call for chunk in chunks for call in chunk.choices[0].delta.tool_calls or []]
    assert "tool_call" not in text
    assert [call.function.name for call in calls if call.function] == ["get_current_time"]
    assert chunks[-1].choices[0].finish_reason == "tool_calls"
