"""Parallel slots on the real starter model: several replies in one context, one batch a step, each its own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.inference.engine import Engine, TokenObserver
from app.core.inference.logits import SampledLogits
from app.core.inference.sampler_chain import token_sampler
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.inference.slot_reply import SlotReply, SlotRequest
from app.core.inference.slots import ParallelSlots
from app.core.inference.token_texts import TokenTexts
from app.core.types.errors import PromptTooLong
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece
from app.core.types.slot_state import SlotState, SlotWork
from app.core.types.stats import StopReason

pytestmark = pytest.mark.requires_model

N_CTX = 4096
SLOTS = 4
TEXTS = ["Name three colours.", "What is the capital of France?", "Write one sentence about the sea.", "Count to five."]


@pytest.fixture(scope="module")
def loaded(starter_model: Path) -> Iterator[Engine]:
    engine = Engine()
    engine.load(LoadConfig(starter_model, n_ctx=N_CTX))
    yield engine
    engine.close()


@pytest.fixture
def slots(loaded: Engine) -> Iterator[ParallelSlots]:
    opened = ParallelSlots(loaded.llama, SLOTS, TokenTexts(loaded.llama._model.vocab))
    yield opened
    opened.close()


def prompt_of(engine: Engine, text: str) -> list[int]:
    return engine.prompt_tokens([ChatMessage("user", text)])


def ask(
    slots: ParallelSlots,
    prompt: list[int],
    params: SamplingParams,
    stop: threading.Event | None = None,
    observer: TokenObserver | None = None,
) -> SlotReply:
    sampler = token_sampler(params, 0, slots.rows, slots.ctx)
    request = SlotRequest(prompt, params, sampler, params.max_tokens, stop or threading.Event(), observer)
    return slots.submit(request)


def tokens_and_done(reply: SlotReply) -> tuple[list[int], ReplyDone]:
    tokens: list[int] = []
    for event in reply.events():
        if isinstance(event, ReplyDone):
            return tokens, event
        if isinstance(event, TokenPiece) and event.token_id >= 0:
            tokens.append(event.token_id)
    raise AssertionError("a reply ends with its ReplyDone")


def alone(engine: Engine, prompt: list[int], params: SamplingParams) -> list[int]:
    events = engine.stream_tokens(prompt, params, threading.Event())
    return [e.token_id for e in events if isinstance(e, TokenPiece) and e.token_id >= 0]


def agreeing(first: list[int], second: list[int]) -> int:
    """How many tokens the two start with in common."""
    differing = (i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b)
    return next(differing, min(len(first), len(second)))


def test_a_reply_alone_in_a_slot_is_the_engines_greedy_reply(loaded: Engine, slots: ParallelSlots) -> None:
    params = replace(GREEDY, max_tokens=24)
    for text in TEXTS[:2]:
        prompt = prompt_of(loaded, text)
        tokens, done = tokens_and_done(ask(slots, prompt, params))
        assert tokens == alone(loaded, prompt, params)
        assert done.stats.completion_tokens == len(tokens)


def test_replies_at_once_each_follow_their_own_prompt(loaded: Engine, slots: ParallelSlots) -> None:
    """Four greedy replies decoded together, one token each per batch, against each alone.

    The batch's matrix products round differently from a single sequence's, so a greedy reply
    may leave the one written alone where two tokens are nearly tied. Measured on the starter
    model (Q4_1, CPU, 40 tokens each): the four replies agree with their lone versions for 21,
    15, 5 and 40 tokens. Each is its own: its first tokens are its own prompt's."""
    params = replace(GREEDY, max_tokens=40)
    prompts = [prompt_of(loaded, text) for text in TEXTS]
    replies = [ask(slots, prompt, params) for prompt in prompts]
    results = [tokens_and_done(reply) for reply in replies]
    assert sorted(done.stats.slot for _tokens, done in results) == list(range(SLOTS))
    for prompt, (tokens, done) in zip(prompts, results, strict=True):
        assert agreeing(tokens, alone(loaded, prompt, params)) >= 4
        assert done.stats.prompt_tokens == len(prompt)


def test_a_stopped_reply_ends_alone_and_the_others_finish(loaded: Engine, slots: ParallelSlots) -> None:
    params = replace(GREEDY, max_tokens=30)
    stop = threading.Event()

    def stop_after_three(token: int, _logits: SampledLogits) -> None:
        stopping.append(token)
        if len(stopping) == 3:
            stop.set()

    stopping: list[int] = []
    stopped = ask(slots, prompt_of(loaded, TEXTS[0]), params, stop, stop_after_three)
    others = [ask(slots, prompt_of(loaded, text), params) for text in TEXTS[1:3]]
    tokens, done = tokens_and_done(stopped)
    assert done.stats.stop_reason is StopReason.USER
    assert len(tokens) <= 4
    for other in others:
        other_tokens, other_done = tokens_and_done(other)
        assert other_done.stats.stop_reason in (StopReason.LENGTH, StopReason.END_OF_TEXT)
        assert other_done.stats.error == ""
        assert len(other_tokens) > 4


def test_a_slot_keeps_its_cache_and_the_same_conversation_comes_back_to_it(
    loaded: Engine, slots: ParallelSlots
) -> None:
    params = replace(GREEDY, max_tokens=8)
    first = [tokens_and_done(ask(slots, prompt_of(loaded, text), params))[1] for text in TEXTS[:3]]
    prompt = prompt_of(loaded, TEXTS[1])
    again = tokens_and_done(ask(slots, prompt, params))[1]
    assert again.stats.slot == first[1].stats.slot
    assert again.stats.cached_prompt_tokens == len(prompt) - 1  # the last token is read again for its logits


def test_a_prompt_longer_than_a_slot_is_refused_with_the_slots_size(loaded: Engine, slots: ParallelSlots) -> None:
    assert slots.slot_ctx == N_CTX // SLOTS
    prompt = prompt_of(loaded, "word " * slots.slot_ctx)
    with pytest.raises(PromptTooLong) as refused:
        ask(slots, prompt, GREEDY)
    assert refused.value.n_ctx == slots.slot_ctx


def test_a_long_prompt_is_read_in_chunks_while_another_reply_goes_on(loaded: Engine, slots: ParallelSlots) -> None:
    long_prompt = prompt_of(loaded, "Summarise: " + "the tide comes in and the tide goes out. " * 80)
    assert len(long_prompt) > 10 * 64
    long_started = threading.Event()
    long_answered = threading.Event()
    during: list[int] = []  # tokens of the running reply sampled while the long prompt was being read

    def running(token: int, _logits: SampledLogits) -> None:
        if long_started.is_set() and not long_answered.is_set():
            during.append(token)

    def answered(_token: int, _logits: SampledLogits) -> None:
        long_answered.set()

    params = replace(GREEDY, max_tokens=100)
    steady = ask(slots, prompt_of(loaded, "Count from one to one hundred."), params, observer=running)
    events = steady.events()
    next(events)  # the running reply has begun
    long_started.set()
    long = ask(slots, long_prompt, replace(GREEDY, max_tokens=1), observer=answered)
    _tokens, long_done = tokens_and_done(long)
    for _event in events:
        pass
    assert long_done.stats.prompt_tokens == len(long_prompt)
    assert len(during) >= len(long_prompt) // 64 - 2  # about one token a chunk of the long prompt


def test_each_slot_says_what_it_is_doing_free_reading_or_writing(loaded: Engine, slots: ParallelSlots) -> None:
    assert [state.work for state in slots.states()] == [SlotWork.IDLE] * SLOTS
    release = threading.Event()
    seen: list[tuple[SlotState, ...]] = []

    def hold(_token: int, _logits: SampledLogits) -> None:
        if not seen:
            seen.append(slots.states())  # asked from the slots' own thread, mid-step
            release.set()

    prompt = prompt_of(loaded, TEXTS[0])
    tokens, done = tokens_and_done(ask(slots, prompt, replace(GREEDY, max_tokens=6), observer=hold))
    assert release.is_set()
    writing = [state for state in seen[0] if state.work is not SlotWork.IDLE]
    assert len(writing) == 1 and writing[0].slot == done.stats.slot
    assert writing[0].prompt_tokens == len(prompt) and writing[0].max_tokens == 6
    after = slots.states()[done.stats.slot]
    assert after.work is SlotWork.IDLE and after.cached == len(prompt) + len(tokens) - 1  # the last token not decoded
