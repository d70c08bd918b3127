"""The line under a reply: its stats and how much of the context the conversation then filled.

Built from the reply's `ReplyMetrics`, which the chat history keeps as `to_dict()`, so a
reply reloaded from the history gets the same line as when it was shown live.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from app.core.inference.engine import ReplyStats, StopReason
from app.core.inference.metrics import ReplyMetrics
from app.core.support.formatting import fill
from app.ui.widgets import core_text


def format_reply_stats(stats: ReplyStats) -> str:
    """The compact stats part of the line under a reply."""
    parts = [
        f"{stats.completion_tokens} tokens",
        f"{stats.generation_tokens_per_s:.1f} tok/s",
        f"first token {stats.time_to_first_token_s * 1000:.0f} ms",
        f"prompt {stats.prompt_tokens} tokens ({stats.cached_prompt_tokens} cached)",
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


def reply_footer(metrics: ReplyMetrics) -> str:
    """Stats, then the context note when the context is known (replies saved with bare stats lack it)."""
    parts = [format_reply_stats(metrics.stats)]
    if metrics.n_ctx:
        parts.append(context_note(metrics))
    return " · ".join(parts)
