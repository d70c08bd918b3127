"""Why the prompt cache missed: from what filled the cache and the conversation now sent."""

from __future__ import annotations

import pytest

from app.core.inference.prompt_cache import CachedPrompt, explain_reuse
from app.core.types.messages import ChatMessage
from app.core.types.stats import CacheMiss

SYSTEM = ChatMessage("system", "Be brief.")
TURNS = (
    ChatMessage("user", "Name a fruit."),
    ChatMessage("assistant", "A banana."),
    ChatMessage("user", "Name a vegetable."),
    ChatMessage("assistant", "A carrot."),
    ChatMessage("user", "Which is sweeter?"),
)
BEFORE = CachedPrompt((SYSTEM, *TURNS), prompt_tokens=100)
REPLY = ChatMessage("assistant", "The banana.")
NEXT = ChatMessage("user", "Why?")


def why(messages: tuple[ChatMessage, ...] | None, reused: int, shifted: int = 0) -> CacheMiss:
    return explain_reuse(BEFORE, messages, prompt_tokens=130, reused=reused, shifted=shifted)


def test_nothing_cached_is_the_first_turn() -> None:
    assert explain_reuse(None, (SYSTEM, TURNS[0]), prompt_tokens=20, reused=0) is CacheMiss.FIRST_TURN


def test_a_follow_up_that_reuses_the_whole_previous_prompt_is_no_miss() -> None:
    assert why((SYSTEM, *TURNS, REPLY, NEXT), reused=104) is CacheMiss.NONE


def test_regenerating_the_last_reply_reuses_all_but_the_last_token() -> None:
    assert explain_reuse(BEFORE, BEFORE.messages, prompt_tokens=100, reused=99) is CacheMiss.NONE


def test_a_shifted_cache_says_so() -> None:
    assert why((SYSTEM, *TURNS[2:], REPLY, NEXT), reused=90, shifted=60) is CacheMiss.CONTEXT_SHIFT


def test_a_changed_system_prompt() -> None:
    assert why((ChatMessage("system", "Be verbose."), *TURNS, REPLY, NEXT), reused=2) is CacheMiss.SYSTEM_PROMPT
    assert why((*TURNS, REPLY, NEXT), reused=1) is CacheMiss.SYSTEM_PROMPT  # removed


def test_unchanged_messages_rendered_differently_are_the_template() -> None:
    assert why((SYSTEM, *TURNS, REPLY, NEXT), reused=60) is CacheMiss.TEMPLATE


@pytest.mark.parametrize(
    "conversation",
    [
        (SYSTEM, TURNS[0], TURNS[1], ChatMessage("user", "Name a vegetable, please."), REPLY),  # edited
        (SYSTEM, TURNS[0], ChatMessage("assistant", "An apple."), *TURNS[2:]),  # regenerated earlier reply
        (SYSTEM, TURNS[0], TURNS[1], TURNS[4]),  # an exchange deleted
    ],
)
def test_an_earlier_message_that_differs_is_edited_history(conversation: tuple[ChatMessage, ...]) -> None:
    assert why(conversation, reused=30) is CacheMiss.EDITED_HISTORY


def test_dropped_oldest_turns_without_a_shift_are_the_window_sliding() -> None:
    assert why((SYSTEM, *TURNS[2:], REPLY, NEXT), reused=5) is CacheMiss.WINDOW_SLIDE


def test_another_chat_or_a_raw_prompt_is_another_conversation() -> None:
    assert why((SYSTEM, ChatMessage("user", "Tell me a joke.")), reused=5) is CacheMiss.OTHER_CONVERSATION
    assert why(None, reused=5) is CacheMiss.OTHER_CONVERSATION
