"""Replies in OpenAI's shapes: the chunk sequence, usage, and logprobs that list only the reply's tokens."""

from __future__ import annotations

import json

from app.core.server.openai_responses import (
    DONE,
    MIN_LOGPROB,
    ChatChunks,
    ReplyIdentity,
    chat_logprobs,
    chat_response,
    completion_logprobs,
    completion_response,
    reply_steps,
    usage,
)
from app.core.server.reasoning_format import ReasoningFormat
from app.core.types.replies import ReplyDone, ReplyPart, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace


def step(token_id: int, text: str, probability: float) -> TokenStep:
    return TokenStep(token_id, text, probability, (Alternative(token_id, text, probability), Alternative(99, "x", 0.0)))


STATS = ReplyStats(prompt_tokens=10, cached_prompt_tokens=4, completion_tokens=3, stop_reason=StopReason.STOP_STRING)
# "Hi" " there" then the stop string "!!" the reply does not contain
TRACE = TokenTrace([step(1, "Hi", 0.5), step(2, " there", 0.25), step(3, "!!", 0.9)])
DONE_REPLY = ReplyDone("Hi there", STATS, trace=TRACE)


def test_usage_counts_the_cached_prompt_tokens() -> None:
    assert usage(STATS) == {
        "prompt_tokens": 10,
        "completion_tokens": 3,
        "total_tokens": 13,
        "prompt_tokens_details": {"cached_tokens": 4},
        "completion_tokens_details": {"reasoning_tokens": 0},
    }


def test_logprobs_stop_where_the_reply_text_stops() -> None:
    assert [piece for _step, piece in reply_steps(DONE_REPLY)] == ["Hi", " there"]
    entries = list(chat_logprobs(DONE_REPLY, top=2))
    assert [entry["token"] for entry in entries] == ["Hi", " there"]
    assert entries[0]["top_logprobs"][1]["logprob"] == MIN_LOGPROB  # a probability of 0 has no logarithm
    legacy = completion_logprobs(DONE_REPLY, top=1)
    assert legacy["tokens"] == ["Hi", " there"] and legacy["text_offset"] == [0, 2]
    assert legacy["top_logprobs"] == [{"Hi": legacy["token_logprobs"][0]}, {" there": legacy["token_logprobs"][1]}]


def test_a_character_split_across_tokens_is_written_by_its_last_token() -> None:
    split = TokenTrace([step(1, "", 0.5), step(2, "é", 0.5)])
    assert [piece for _step, piece in reply_steps(ReplyDone("é", STATS, trace=split))] == ["", "é"]


def test_chat_chunks_follow_the_stream_invariants() -> None:
    chunks = ChatChunks(ReplyIdentity("model", "chatcmpl"), include_usage=True)
    wire = chunks.role() + chunks.piece(TokenPiece("Hi", 1)) + chunks.finish(DONE_REPLY)
    events = [line.removeprefix("data: ") for line in wire.split("\n\n") if line]
    assert wire.endswith(DONE) and events[-1] == "[DONE]"
    role, content, last, usage_chunk = (json.loads(event) for event in events[:-1])
    assert role["choices"][0]["delta"] == {"role": "assistant", "content": None}
    assert content["choices"][0]["delta"] == {"content": "Hi"} and content["choices"][0]["finish_reason"] is None
    assert last["choices"][0]["delta"] == {} and last["choices"][0]["finish_reason"] == "stop"
    assert usage_chunk["choices"] == [] and usage_chunk["usage"]["prompt_tokens"] == 10
    assert len({chunk["id"] for chunk in (role, content, last, usage_chunk)}) == 1


THOUGHT = ReplyDone(
    "4.", ReplyStats(completion_tokens=7, reasoning_tokens=5, stop_reason=StopReason.END_OF_TEXT), reasoning="2 + 2."
)
IDENTITY = ReplyIdentity("model", "chatcmpl")


def test_a_message_carries_its_reasoning_in_reasoning_content_and_usage_counts_its_tokens() -> None:
    for name in ("auto", "deepseek", "deepseek-legacy"):  # legacy differs from deepseek in streams only
        response = chat_response(IDENTITY, THOUGHT, None, ReasoningFormat(name))
        assert response["choices"][0]["message"] == {
            "role": "assistant",
            "content": "4.",
            "reasoning_content": "2 + 2.",
        }
    assert response["usage"]["completion_tokens_details"] == {"reasoning_tokens": 5}


def test_a_message_without_reasoning_has_no_reasoning_content_field() -> None:
    message = chat_response(IDENTITY, ReplyDone("Hi", STATS), None, ReasoningFormat.AUTO)["choices"][0]["message"]
    assert message == {"role": "assistant", "content": "Hi"}


def test_reasoning_format_none_puts_the_reasoning_inside_the_content_in_think_tags() -> None:
    message = chat_response(IDENTITY, THOUGHT, None, ReasoningFormat.NONE)["choices"][0]["message"]
    assert message == {"role": "assistant", "content": "<think>2 + 2.</think>\n\n4."}
    stopped = ReplyDone("", STATS, reasoning="2 +")  # stopped while reasoning: the block stays open, as written
    assert (
        chat_response(IDENTITY, stopped, None, ReasoningFormat.NONE)["choices"][0]["message"]["content"] == "<think>2 +"
    )


def test_a_raw_completion_keeps_the_reasoning_block_in_its_text() -> None:
    assert completion_response(IDENTITY, THOUGHT, None)["choices"][0]["text"] == "<think>2 + 2.</think>\n\n4."


def deltas(reasoning_format: ReasoningFormat) -> list[dict[str, object]]:
    chunks = ChatChunks(IDENTITY, include_usage=False, reasoning_format=reasoning_format)
    wire = "".join(
        chunks.piece(piece)
        for piece in (
            TokenPiece("2 +", 1, ReplyPart.REASONING),
            TokenPiece(" 2.", 2, ReplyPart.REASONING),
            TokenPiece("4", 3),
            TokenPiece(".", 4),
        )
    )
    return [json.loads(line.removeprefix("data: "))["choices"][0]["delta"] for line in wire.split("\n\n") if line]


def test_stream_deltas_carry_the_reasoning_in_reasoning_content_as_llama_server_does() -> None:
    expected = [{"reasoning_content": "2 +"}, {"reasoning_content": " 2."}, {"content": "4"}, {"content": "."}]
    assert deltas(ReasoningFormat.AUTO) == deltas(ReasoningFormat.DEEPSEEK) == expected


def test_a_stream_asked_for_none_or_deepseek_legacy_sends_the_reasoning_inside_the_content() -> None:
    expected = [{"content": "<think>2 +"}, {"content": " 2."}, {"content": "</think>\n\n4"}, {"content": "."}]
    assert deltas(ReasoningFormat.NONE) == deltas(ReasoningFormat.DEEPSEEK_LEGACY) == expected


# <think> "2 +" " 2." "</think>" "\n\n" then the answer "4" "." : the trace holds every token the model wrote.
THINKING_TRACE = TokenTrace(
    [
        step(10, "<think>", 0.9),
        step(11, "2 +", 0.8),
        step(12, " 2.", 0.7),
        step(13, "</think>", 0.6),
        step(14, "\n\n", 0.5),
        step(15, "4", 0.4),
        step(16, ".", 0.3),
    ]
)


def test_logprobs_list_the_answers_tokens_only_in_step_with_the_content() -> None:
    done = ReplyDone(
        "4.",
        ReplyStats(completion_tokens=7, reasoning_tokens=5, stop_reason=StopReason.END_OF_TEXT),
        trace=THINKING_TRACE,
        reasoning="2 + 2.",
    )
    assert [(step.token_id, piece) for step, piece in reply_steps(done)] == [(15, "4"), (16, ".")]
    choice = chat_response(IDENTITY, done, 1, ReasoningFormat.AUTO)["choices"][0]
    assert [entry["token"] for entry in choice["logprobs"]["content"]] == ["4", "."]


def test_a_token_that_ends_the_block_and_starts_the_answer_writes_only_the_answers_part() -> None:
    trace = TokenTrace(
        [step(10, "<think>", 0.9), step(11, "2 + 2.", 0.8), step(12, "</think>\n\nIt", 0.7), step(13, " is 4", 0.6)]
    )
    done = ReplyDone(
        "It is 4",
        ReplyStats(completion_tokens=4, reasoning_tokens=2, stop_reason=StopReason.END_OF_TEXT),
        trace=trace,
        reasoning="2 + 2.",
    )
    assert [(step.token_id, piece) for step, piece in reply_steps(done)] == [(12, "It"), (13, " is 4")]
    assert [entry["token"] for entry in chat_logprobs(done, 0)] == ["</think>\n\nIt", " is 4"]
