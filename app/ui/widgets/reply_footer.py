"""The line under a reply: its stats and how much of the context the conversation then filled.

Built from the reply's `ReplyMetrics`, which the chat history keeps as `to_dict()`, so a
reply reloaded from the history gets the same line as when it was shown live. The breakdown
adds, when they were measured: why the prompt cache missed, the wait for the model, and the
GPU energy per token (left out when not measured, never shown as 0). A thinking model's reply
splits its tokens and time between thinking and answering.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from app.core.support.formatting import fill
from app.core.types.stats import CacheMiss, ReplyMetrics, ReplyStats, StopReason
from app.ui.widgets import core_text

SHOWN_QUEUE_WAIT_S = 0.05  # a shorter wait is no wait worth a word in the footer


def cache_miss_text(miss: CacheMiss) -> str:
    """Why the prompt cache missed, in the user's language."""
    texts = {
        CacheMiss.NONE: QCoreApplication.translate("ReplyFooter", "everything earlier was reused"),
        CacheMiss.FIRST_TURN: QCoreApplication.translate("ReplyFooter", "first turn: nothing was cached yet"),
        CacheMiss.CONTEXT_SHIFT: QCoreApplication.translate(
            "ReplyFooter", "context shift: old turns were cut out of the cache and the rest moved back"
        ),
        CacheMiss.SYSTEM_PROMPT: QCoreApplication.translate("ReplyFooter", "the system prompt changed"),
        CacheMiss.TEMPLATE: QCoreApplication.translate(
            "ReplyFooter", "the chat template rendered the earlier messages differently"
        ),
        CacheMiss.EDITED_HISTORY: QCoreApplication.translate(
            "ReplyFooter", "an earlier message was edited, regenerated or deleted"
        ),
        CacheMiss.WINDOW_SLIDE: QCoreApplication.translate(
            "ReplyFooter", "the context window dropped the oldest turns"
        ),
        CacheMiss.OTHER_CONVERSATION: QCoreApplication.translate(
            "ReplyFooter", "the cache held another conversation or prompt"
        ),
    }
    return texts[miss]


def format_energy(joules: float) -> str:
    """Joules, in mJ below one."""
    return (
        fill(QCoreApplication.translate("ReplyFooter", "{mj} mJ"), mj=f"{joules * 1000:,.0f}")
        if joules < 1
        else fill(QCoreApplication.translate("ReplyFooter", "{j} J"), j=f"{joules:,.2f}")
    )


def thinking_cost(stats: Mapping[str, Any]) -> tuple[float, int]:
    """The seconds and tokens a reply's reasoning took, from the stats the history keeps (0 when none)."""
    return float(stats.get("reasoning_s") or 0.0), int(stats.get("reasoning_tokens") or 0)


def answering_s(stats: ReplyStats) -> float:
    """The seconds from the answer's first token to the reply's end."""
    return max(0.0, stats.total_s - stats.time_to_first_token_s - stats.reasoning_s)


def thinking_split(stats: ReplyStats) -> list[str]:
    """The reply's tokens and time split between thinking and answering (a reply that thought; one
    that ended while it thought has no answering time)."""
    answer_tokens = max(0, stats.completion_tokens - stats.reasoning_tokens)
    time = (
        fill(
            QCoreApplication.translate("ReplyFooter", "thought {thinking} s, answered in {answer} s"),
            thinking=f"{stats.reasoning_s:.1f}",
            answer=f"{answering_s(stats):.1f}",
        )
        if answer_tokens
        else fill(
            QCoreApplication.translate("ReplyFooter", "thought {thinking} s"), thinking=f"{stats.reasoning_s:.1f}"
        )
    )
    return [
        fill(
            QCoreApplication.translate("ReplyFooter", "{n} tokens ({thinking} thinking, {answer} answering)"),
            n=stats.completion_tokens,
            thinking=stats.reasoning_tokens,
            answer=answer_tokens,
        ),
        time,
    ]


def format_reply_stats(stats: ReplyStats) -> str:
    """The compact stats part of the line under a reply."""
    tokens = (
        thinking_split(stats)
        if stats.reasoning_tokens
        else [fill(QCoreApplication.translate("ReplyFooter", "{n} tokens"), n=stats.completion_tokens)]
    )
    parts = [
        *tokens,
        fill(QCoreApplication.translate("ReplyFooter", "{speed} tok/s"), speed=f"{stats.generation_tokens_per_s:.1f}"),
        fill(
            QCoreApplication.translate("ReplyFooter", "first token {ms} ms"),
            ms=f"{stats.time_to_first_token_s * 1000:.0f}",
        ),
        fill(
            QCoreApplication.translate("ReplyFooter", "prompt {n} tokens ({cached} cached)"),
            n=stats.prompt_tokens,
            cached=stats.cached_prompt_tokens,
        ),
    ]
    if stats.stop_reason is not StopReason.END_OF_TEXT:
        parts.append(core_text.word(stats.stop_reason.value))
    return " · ".join(parts)


def context_note(metrics: ReplyMetrics) -> str:
    """The compact 'context used' part of the line under a reply."""
    return fill(
        QCoreApplication.translate("StatsPanel", "context {used}/{n_ctx} ({share})"),
        used=f"{metrics.context_used:,}",
        n_ctx=f"{metrics.n_ctx:,}",
        share=f"{metrics.context_fraction:.0%}",
    )


def breakdown_notes(metrics: ReplyMetrics) -> list[str]:
    """The measured parts of the breakdown: the cache miss, a wait for the model, the energy per token."""
    notes = []
    miss = metrics.stats.cache_miss
    if miss is not None and miss is not CacheMiss.NONE:
        notes.append(fill(QCoreApplication.translate("ReplyFooter", "cache: {reason}"), reason=cache_miss_text(miss)))
    if metrics.queue_wait_s is not None and metrics.queue_wait_s >= SHOWN_QUEUE_WAIT_S:
        notes.append(
            fill(
                QCoreApplication.translate("ReplyFooter", "waited {ms} ms for the model"),
                ms=f"{metrics.queue_wait_s * 1000:,.0f}",
            )
        )
    per_token = metrics.energy_per_token_j
    if per_token is not None:
        notes.append(
            fill(
                QCoreApplication.translate("ReplyFooter", "{energy}/token on the GPU"), energy=format_energy(per_token)
            )
        )
    return notes


def reply_footer(metrics: ReplyMetrics) -> str:
    """Stats, the breakdown, then the context note when the context is known (replies saved with bare stats lack it)."""
    parts = [format_reply_stats(metrics.stats), *breakdown_notes(metrics)]
    if metrics.n_ctx:
        parts.append(context_note(metrics))
    return " · ".join(parts)
