"""The engine session with parallel slots open: who writes in a slot, and what the window's chat is never refused."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.backends.local.session import EngineSession, LoadListener
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.types.errors import PromptTooLong
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.slot_state import SlotWork

pytestmark = pytest.mark.requires_model

N_CTX = 2048
SLOTS = 4  # 512 tokens a slot
LONG = [ChatMessage("user", "Summarise: " + "the tide comes in and the tide goes out. " * 80)]  # ~800 tokens


@pytest.fixture(scope="module")
def session(starter_model: Path) -> Iterator[EngineSession]:
    opened = EngineSession()
    opened.load(LoadConfig(starter_model, n_ctx=N_CTX), LoadListener(), threading.Event())
    assert opened.open_slots(SLOTS) == N_CTX // SLOTS
    yield opened
    opened.close()


def done_of(events: Iterator[object]) -> ReplyDone:
    return next(event for event in events if isinstance(event, ReplyDone))


def test_a_reply_is_written_in_a_slot_and_the_slots_say_so(session: EngineSession) -> None:
    params = replace(GREEDY, max_tokens=4)
    done = done_of(session.stream_chat([ChatMessage("user", "Hi")], params, threading.Event(), window=True))
    assert 0 <= done.stats.slot < SLOTS
    assert [state.work for state in session.slot_states()] == [SlotWork.IDLE] * SLOTS


def test_an_api_prompt_too_long_for_a_slot_is_refused_with_the_slots_size(session: EngineSession) -> None:
    with pytest.raises(PromptTooLong) as refused:
        session.stream_chat(LONG, replace(GREEDY, max_tokens=4), threading.Event())
    assert refused.value.n_ctx == N_CTX // SLOTS


def test_the_windows_prompt_too_long_for_a_slot_is_written_in_the_engines_own_context(session: EngineSession) -> None:
    done = done_of(session.stream_chat(LONG, replace(GREEDY, max_tokens=4), threading.Event(), window=True))
    assert done.text and done.stats.slot == -1 and done.stats.prompt_tokens > N_CTX // SLOTS


def test_several_replies_to_a_short_prompt_are_decoded_together_each_its_own(starter_model: Path) -> None:
    """The Compare dialog's greedy and sampled replies: one batch, in slots sized to them, each with its
    token probabilities; the greedy one starts as the greedy reply alone does."""
    alone = EngineSession()
    alone.load(LoadConfig(starter_model, n_ctx=N_CTX), LoadListener(), threading.Event())
    try:
        messages = [ChatMessage("user", "Name three colours.")]
        greedy = replace(GREEDY, max_tokens=64)  # longer than the prompt: the batch is worth it
        sampled = [SamplingParams(temperature=1.0, seed=seed, max_tokens=64) for seed in (1, 2)]
        lone = done_of(alone.stream_chat(messages, greedy, threading.Event()))
        together = alone.replies_at_once(messages, [greedy, *sampled], threading.Event())
    finally:
        alone.close()
    assert [done.stats.slot for done in together] == [0, 1, 2]  # three sequences of one batch
    for done in together:
        assert done.text and done.trace is not None and len(done.trace.steps) == done.stats.completion_tokens
    assert together[0].text[:12] == lone.text[:12]
    assert together[1].text != together[2].text  # each seed its own reply


def test_replies_to_a_prompt_longer_than_them_are_written_one_after_another(session: EngineSession) -> None:
    params = [replace(GREEDY, max_tokens=4), SamplingParams(temperature=1.0, seed=1, max_tokens=4)]
    replies = session.replies_at_once(LONG, params, threading.Event())
    assert [done.stats.slot for done in replies] == [-1, -1]  # the engine's own context: its prompt cache reads it once
    assert all(done.text and done.trace is not None for done in replies)
