"""The line under a reply is built from what the chat history keeps, the same live and reloaded."""

from __future__ import annotations

from app.core.inference.engine import ReplyStats, StopReason
from app.core.inference.metrics import ReplyMetrics
from app.ui.widgets.reply_footer import reply_footer

STATS = ReplyStats(
    prompt_tokens=40,
    cached_prompt_tokens=30,
    completion_tokens=12,
    time_to_first_token_s=0.05,
    generation_tokens_per_s=80.0,
    stop_reason=StopReason.LENGTH,
)


def test_the_footer_names_the_stats_and_the_context_the_conversation_filled() -> None:
    footer = reply_footer(ReplyMetrics(STATS, n_ctx=2048, context_used=52))
    assert footer == (
        "12 tokens · 80.0 tok/s · first token 50 ms · prompt 40 tokens (30 cached) · length limit"
        " · context 52/2,048 (3%)"
    )


def test_a_saved_reply_gets_the_footer_it_had_when_it_was_shown() -> None:
    metrics = ReplyMetrics(STATS, n_ctx=2048, context_used=52, token_times_s=[0.05, 0.06])
    assert reply_footer(ReplyMetrics.from_dict(metrics.to_dict())) == reply_footer(metrics)


def test_a_reply_saved_without_its_context_numbers_shows_its_stats_only() -> None:
    footer = reply_footer(ReplyMetrics(STATS))
    assert footer.startswith("12 tokens") and "context" not in footer
