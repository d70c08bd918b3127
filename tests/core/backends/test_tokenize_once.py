"""A turn tokenizes its conversation once: the plan's token ids are the ones the reply and its record use."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from app.core.backends.local.session import EngineSession
from app.core.chat.context_window import PlanRequest, WindowTurn
from app.core.inference.engine import Engine
from app.core.inference.replay import prompt_hash
from app.core.inference.sampling import GREEDY
from app.core.types.messages import ChatMessage
from app.core.types.replies import final_reply
from app.core.types.tools import ToolSpec

CONVERSATION = (
    WindowTurn("u1", "user", "Name three colours."),
    WindowTurn("a1", "assistant", "Red, green and blue."),
    WindowTurn("u2", "user", "And three fruits?"),
)


def test_one_turn_tokenizes_its_conversation_once(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    session = EngineSession(engine)
    tokenized: list[tuple[ChatMessage, ...]] = []
    prompt_tokens = engine.prompt_tokens

    def counted(messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()) -> list[int]:
        tokenized.append(tuple(messages))
        return prompt_tokens(messages, tools)

    monkeypatch.setattr(engine, "prompt_tokens", counted)
    plan = session.plan(PlanRequest("reply", "Be brief.", CONVERSATION, 8, with_ids=True)).plan
    assert plan is not None and len(plan.prompt_ids) == plan.prompt_tokens

    llama_calls: list[Any] = []
    tokenize = engine.llama.tokenize
    monkeypatch.setattr(
        engine.llama, "tokenize", lambda *args, **kw: (llama_calls.append(args), tokenize(*args, **kw))[1]
    )
    events = session.stream_chat(
        plan.messages, replace(GREEDY, max_tokens=3), threading.Event(), record=True, prompt_ids=plan.prompt_ids
    )
    done = final_reply(events)

    assert tokenized.count(plan.messages) == 1  # the plan's count; neither the reply nor its record again
    assert llama_calls == []  # writing and recording the reply tokenized nothing at all
    assert done.replay is not None and done.replay.prompt_sha256 == prompt_hash(plan.prompt_ids)
    assert done.stats.prompt_tokens == len(plan.prompt_ids)


def test_a_reply_without_planned_ids_tokenizes_its_conversation_once_for_the_reply_and_its_record(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = EngineSession(engine)
    calls: list[int] = []
    prompt_tokens = engine.prompt_tokens
    monkeypatch.setattr(
        engine, "prompt_tokens", lambda messages, tools=(): (calls.append(1), prompt_tokens(messages, tools))[1]
    )
    messages = [ChatMessage(turn.role, turn.text) for turn in CONVERSATION]
    final_reply(session.stream_chat(messages, replace(GREEDY, max_tokens=2), threading.Event(), record=True))
    assert calls == [1]
