"""The context window, specified with properties over random conversations (fake token counter)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.chat.context_window import (
    ContextFullError,
    ContextWindow,
    MessageTooLongError,
    WindowError,
    WindowPolicy,
)
from app.core.chat.context_window import WindowTurn as Msg
from app.core.types.messages import ChatMessage
from tests.fakes.token_counter import FakeTokenCounter


def conversation(lengths: list[int], first_role: str = "user") -> list[Msg]:
    roles = ("user", "assistant") if first_role == "user" else ("assistant", "user")
    return [Msg(i, roles[i % 2], " ".join(f"w{i}x{j}" for j in range(n))) for i, n in enumerate(lengths)]


def as_chat(system: str, messages: list[Msg]) -> list[ChatMessage]:
    head = [ChatMessage("system", system)] if system else []
    return head + [ChatMessage(m.role, m.text) for m in messages]


conversations = st.builds(
    conversation,
    st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=30),
    st.sampled_from(["user", "user", "assistant"]),
)
systems = st.sampled_from(["", "Be brief.", "You are a pirate. " * 6])
policies = st.sampled_from(list(WindowPolicy))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    messages=conversations,
    system=systems,
    n_ctx=st.integers(min_value=60, max_value=700),
    reserve=st.integers(min_value=0, max_value=80),
    policy=policies,
    non_additive=st.sampled_from([0, 0, 3]),
)
def test_the_window_always_fits_keeps_the_system_prompt_the_newest_message_and_the_order(
    messages: list[Msg], system: str, n_ctx: int, reserve: int, policy: WindowPolicy, non_additive: int
) -> None:
    counter = FakeTokenCounter(non_additive_every=non_additive)
    budget = n_ctx - reserve
    newest = messages[-1]
    try:
        plan = ContextWindow(counter).plan(system, messages, n_ctx, reserve, policy)
    except MessageTooLongError:
        assert counter.count_tokens(as_chat(system, [newest])) > budget
        return
    except ContextFullError:
        assert policy is WindowPolicy.STOP_AT_LIMIT
        assert counter.count_tokens(as_chat(system, messages)) > budget
        return
    except WindowError:
        assert counter.count_tokens(as_chat(system, [])) >= budget
        return

    assert plan.prompt_tokens == counter.count_tokens(plan.messages) <= budget
    if system:
        assert plan.messages[0] == ChatMessage("system", system)
    assert newest.id in plan.kept_ids
    ids = [m.id for m in messages]
    assert sorted(plan.kept_ids + plan.outside_ids) == ids, "every message is either in or out"
    assert list(plan.kept_ids) == sorted(plan.kept_ids), "order is preserved"
    assert list(plan.messages[1 if system else 0 :]) == as_chat("", [m for m in messages if m.id in plan.kept_ids])

    if policy is WindowPolicy.ROLLING:
        assert list(plan.kept_ids) == ids[len(ids) - len(plan.kept_ids) :], "rolling keeps the newest messages"
    if policy is WindowPolicy.STOP_AT_LIMIT:
        assert plan.outside_ids == ()
    if policy is WindowPolicy.TRUNCATE_MIDDLE:
        first_user = next((m for m in messages if m.role == "user"), None)
        first_exchange = messages[: first_user.id + 2] if first_user else []
        fits_with_newest = counter.count_tokens(as_chat(system, [*first_exchange, newest])) <= budget
        if first_user is not None and newest not in first_exchange and fits_with_newest and non_additive == 0:
            assert set(m.id for m in first_exchange) <= set(plan.kept_ids), "the first exchange stays"


@settings(max_examples=100, deadline=None)
@given(
    lengths=st.lists(st.integers(min_value=1, max_value=40), min_size=4, max_size=40),
    system=systems,
    policy=st.sampled_from([WindowPolicy.ROLLING, WindowPolicy.TRUNCATE_MIDDLE]),
)
def test_the_window_start_moves_only_when_the_conversation_outgrows_it(
    lengths: list[int], system: str, policy: WindowPolicy
) -> None:
    counter = FakeTokenCounter()
    window = ContextWindow(counter)
    messages = conversation(lengths)
    n_ctx, reserve = 400, 50
    previous = None
    for end in range(1, len(messages) + 1):
        shown = messages[:end]
        try:
            plan = window.plan(system, shown, n_ctx, reserve, policy)
        except MessageTooLongError:
            previous = None
            continue
        if previous is not None:
            still_fits = (
                counter.count_tokens(
                    as_chat(system, [m for m in shown if m.id in previous.kept_ids or m.id >= end - 1])
                )
                <= n_ctx - reserve
            )
            if still_fits and shown[-1].role == "user":
                assert plan.outside_ids == previous.outside_ids, "the kept prefix stays put while it fits"
        previous = plan


def test_a_slide_drops_a_chunk_so_the_next_turns_fit_without_sliding() -> None:
    counter = FakeTokenCounter()
    window = ContextWindow(counter, chunk_fraction=0.25)
    messages = conversation([20] * 120)
    n_ctx, reserve = 1000, 100
    chunk = (n_ctx - reserve) // 4
    turn_tokens = 2 * 25  # two messages of 20 words plus the template's markers
    starts: list[int] = []
    for end in range(1, len(messages) + 1, 2):  # plan at every user message, as a chat does
        plan = window.plan("Be brief.", messages[:end], n_ctx, reserve)
        start = len(plan.outside_ids)
        if starts and start != starts[-1]:
            # boundaries fall between turns, and the conversation grew by up to a turn before the slide
            assert n_ctx - reserve - plan.prompt_tokens >= chunk - 2 * turn_tokens, "a slide leaves about a chunk free"
        starts.append(start)
    slides = len(set(starts)) - 1
    grown = counter.count_tokens(as_chat("Be brief.", messages)) - (n_ctx - reserve)
    assert 1 <= slides <= grown // (chunk - 2 * turn_tokens) + 1, "a few slides, not one per turn"


def test_stop_at_limit_refuses_with_what_to_do() -> None:
    window = ContextWindow(FakeTokenCounter())
    with pytest.raises(ContextFullError, match="rolling window"):
        window.plan("", conversation([50] * 8), 300, 50, WindowPolicy.STOP_AT_LIMIT)


def test_a_message_too_long_for_the_context_gets_a_clear_message() -> None:
    window = ContextWindow(FakeTokenCounter())
    with pytest.raises(MessageTooLongError, match=r"latest message is \d+ tokens.*Shorten the message"):
        window.plan("", conversation([10, 10, 500]), 300, 50)


def test_a_reserve_as_large_as_the_context_is_refused() -> None:
    with pytest.raises(WindowError, match="Max tokens"):
        ContextWindow(FakeTokenCounter()).plan("", conversation([3]), 256, 256)


def test_truncate_middle_gives_up_the_first_exchange_only_when_it_must() -> None:
    window = ContextWindow(FakeTokenCounter())
    messages = conversation([100, 100, 10, 10, 150])
    plan = window.plan("", messages, 320, 20, WindowPolicy.TRUNCATE_MIDDLE)
    assert plan.kept_ids == (2, 3, 4)
    assert "first exchange" in plan.notice


def test_planning_again_measures_only_the_new_messages() -> None:
    counter = FakeTokenCounter()
    window = ContextWindow(counter)
    messages = conversation([30] * 60)
    window.plan("Be brief.", messages[:59], 2000, 100)
    before = counter.calls
    window.plan("Be brief.", messages, 2000, 100)
    assert counter.calls - before <= 3, "one new message: two measuring renders and one real count"


def test_an_empty_conversation_is_just_the_system_prompt() -> None:
    plan = ContextWindow(FakeTokenCounter()).plan("Be brief.", [], 256, 64)
    assert plan.messages == (ChatMessage("system", "Be brief."),)
    assert plan.used_tokens == plan.prompt_tokens + 64
