"""The line under a reply is built from what the chat history keeps, the same live and reloaded."""

from __future__ import annotations

from dataclasses import replace

from app.core.types.stats import CacheMiss, ReplyMetrics, ReplyStats, StopReason
from app.ui.widgets.reply_footer import reply_footer, thinking_cost

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


def test_the_footer_says_why_the_cache_missed_the_wait_and_the_energy_per_token() -> None:
    stats = replace(STATS, cache_miss=CacheMiss.EDITED_HISTORY)
    footer = reply_footer(ReplyMetrics(stats, queue_wait_s=1.25, gpu_energy_j=3.6))
    assert "cache: an earlier message was edited, regenerated or deleted" in footer
    assert "waited 1,250 ms for the model" in footer
    assert "300 mJ/token on the GPU" in footer


def test_a_hit_no_wait_and_unmeasured_energy_add_nothing_never_a_zero() -> None:
    stats = replace(STATS, cache_miss=CacheMiss.NONE)
    footer = reply_footer(ReplyMetrics(stats, queue_wait_s=0.001, gpu_energy_j=None))
    assert footer == reply_footer(ReplyMetrics(STATS))
    assert "cache:" not in footer and "waited" not in footer and "J" not in footer


def test_a_thinking_replys_footer_splits_tokens_and_time_between_thinking_and_answering() -> None:
    stats = replace(STATS, completion_tokens=852, reasoning_tokens=840, reasoning_s=12.4, total_s=14.0)
    footer = reply_footer(ReplyMetrics(stats))
    assert footer.startswith("852 tokens (840 thinking, 12 answering) · thought 12.4 s, answered in 1.5 s · ")
    assert reply_footer(ReplyMetrics.from_dict(ReplyMetrics(stats).to_dict())) == footer, "the same reloaded"


def test_the_thinking_cost_comes_back_from_the_saved_stats() -> None:
    saved = ReplyMetrics(replace(STATS, reasoning_tokens=5, reasoning_s=2.5)).to_dict()
    assert thinking_cost(saved) == (2.5, 5)
    assert thinking_cost({}) == (0.0, 0), "a reply from before thinking models"


def test_a_reply_that_ended_while_it_thought_has_no_answering_time() -> None:
    stats = replace(STATS, completion_tokens=40, reasoning_tokens=40, reasoning_s=3.0, total_s=3.2)
    footer = reply_footer(ReplyMetrics(stats))
    assert footer.startswith("40 tokens (40 thinking, 0 answering) · thought 3.0 s · ")
    assert "answered" not in footer
