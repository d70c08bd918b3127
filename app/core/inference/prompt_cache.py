"""Why a reply's prompt was not all reused from the KV cache: said where the reuse is decided.

llama-cpp-python reuses the longest common prefix of the tokens in the KV cache and the new
prompt (after the context shift, kv_shift.py). A reply that continues the last one reuses
the whole previous prompt and evaluates only the reply's closing tokens and the new turn:
that is a hit (`CacheMiss.NONE`, app/core/types/stats.py). Anything less has a reason, found by comparing the
conversation the cache was filled from with the one now sent:

- first turn: nothing is cached, the first reply since the model loaded;
- context shift: a span was cut out of the cache and the rest moved back (old turns dropped);
- system prompt: the system prompt differs;
- template: the earlier messages are unchanged, yet the chat template renders them
  differently (templates that drop earlier reasoning, or print today's date);
- edited history: the conversation starts the same but an earlier message differs (edited,
  regenerated or deleted), the message the last reply answered included;
- window slide: the oldest turns are gone (the context window slid) and the cache could not
  be shifted;
- other conversation: the cache held another chat, an API request, or a raw prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.core.types.stats import CacheMiss

if TYPE_CHECKING:
    from app.core.types.messages import ChatMessage


@dataclass(frozen=True)
class CachedPrompt:
    """What the KV cache was last filled from: a conversation (None for a raw prompt) and its prompt's length."""

    messages: tuple[ChatMessage, ...] | None
    prompt_tokens: int


def explain_reuse(
    previous: CachedPrompt | None,
    messages: Sequence[ChatMessage] | None,
    prompt_tokens: int,
    reused: int,
    shifted: int = 0,
) -> CacheMiss:
    """Why `reused` of `prompt_tokens` came from the cache, given what filled it (`previous`; None: an empty cache).

    `shifted`: cached tokens the context shift kept (kv_shift.shift_kv_cache_to)."""
    if previous is None:
        return CacheMiss.FIRST_TURN
    if shifted > 0:
        return CacheMiss.CONTEXT_SHIFT
    if reused >= min(previous.prompt_tokens, prompt_tokens - 1):
        return CacheMiss.NONE
    if messages is None or previous.messages is None:
        return CacheMiss.OTHER_CONVERSATION
    old_system, old = _split(previous.messages)
    new_system, new = _split(messages)
    if old_system != new_system:
        return CacheMiss.SYSTEM_PROMPT
    if tuple(new[: len(old)]) == tuple(old):
        return CacheMiss.TEMPLATE
    if old and new and old[0] == new[0]:
        return CacheMiss.EDITED_HISTORY
    if any(tuple(old[k:]) == tuple(new[: len(old) - k]) for k in range(1, len(old))):
        return CacheMiss.WINDOW_SLIDE
    return CacheMiss.OTHER_CONVERSATION


def _split(messages: Sequence[ChatMessage]) -> tuple[str | None, Sequence[ChatMessage]]:
    """(the system prompt or None, the turns after it)."""
    if messages and messages[0].role == "system":
        return messages[0].content, messages[1:]
    return None, messages
