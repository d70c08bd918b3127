"""The Stats panel breaks the last reply down: wait, prompt (and why the cache missed), decoding, energy."""

from __future__ import annotations

from dataclasses import replace

from pytestqt.qtbot import QtBot

from app.core.types.stats import CacheMiss, ReplyMetrics, ReplyStats
from app.ui.glass.stats_panel import StatsPanel

STATS = ReplyStats(
    prompt_tokens=400,
    cached_prompt_tokens=12,
    cache_miss=CacheMiss.SYSTEM_PROMPT,
    completion_tokens=41,
    time_to_first_token_s=0.5,
    generation_tokens_per_s=20.0,
    total_s=2.5,
)


def shown(metrics: ReplyMetrics, qtbot: QtBot) -> StatsPanel:
    panel = StatsPanel()
    qtbot.addWidget(panel)
    panel.add_reply(metrics)
    return panel


def test_a_reply_on_a_gpu_that_counts_energy_is_broken_down_whole(qtbot: QtBot) -> None:
    panel = shown(ReplyMetrics(STATS, 2048, 441, queue_wait_s=0.75, gpu_energy_j=8.2), qtbot)
    assert panel.values["queue"].text() == "750 ms"
    assert panel.values["prompt"].text() == (
        "400 tokens (12 reused from the cache, 388 evaluated); the system prompt changed"
    )
    assert panel.values["decoding"].text() == "40 tokens in 2.00 s after the first"
    assert panel.values["energy"].text() == "200 mJ per token, 8.20 J for the reply (the whole GPU's counter)"


def test_what_was_not_measured_says_so_and_never_shows_zero(qtbot: QtBot) -> None:
    panel = shown(ReplyMetrics(STATS, 2048, 441), qtbot)  # a server's reply, or the model on the CPU
    assert panel.values["queue"].text() == "not measured"
    assert panel.values["energy"].text().startswith("not measured")
    assert "0 J" not in panel.values["energy"].text()


def test_a_prompt_cache_hit_is_said_too(qtbot: QtBot) -> None:
    hit = ReplyStats(prompt_tokens=60, cached_prompt_tokens=50, cache_miss=CacheMiss.NONE, completion_tokens=3)
    panel = shown(ReplyMetrics(hit, 2048, 63), qtbot)
    assert panel.values["prompt"].text().endswith("; everything earlier was reused")


def test_a_thinking_reply_splits_its_tokens_and_time_between_thinking_and_answering(qtbot: QtBot) -> None:
    thought = replace(STATS, reasoning_tokens=30, reasoning_s=1.5)
    panel = shown(ReplyMetrics(thought, 2048, 441), qtbot)
    assert not panel.values["thinking"].isHidden()
    assert panel.values["thinking"].text() == ("30 tokens in 1.50 s of reasoning, then 11 tokens in 0.50 s of answer")


def test_a_reply_that_did_not_think_has_no_thinking_row(qtbot: QtBot) -> None:
    panel = shown(ReplyMetrics(replace(STATS, reasoning_tokens=3, reasoning_s=0.2), 2048, 441), qtbot)
    panel.add_reply(ReplyMetrics(STATS, 2048, 441))
    assert panel.values["thinking"].isHidden() and panel.names["thinking"].isHidden()


def test_a_prompt_with_images_says_their_tokens_and_each_image_s_encoding_time(qtbot: QtBot) -> None:
    seen = replace(STATS, cache_miss=None, image_tokens=128, image_encode_s=[0.0123, 0.0456])
    panel = shown(ReplyMetrics(seen, 2048, 441), qtbot)
    assert panel.values["prompt"].text() == (
        "400 tokens (12 reused from the cache, 388 evaluated); 128 image tokens, images encoded in 12 ms, 46 ms"
    )
    again = shown(ReplyMetrics(replace(seen, image_encode_s=[]), 2048, 441), qtbot)
    assert again.values["prompt"].text().endswith("; 128 image tokens, all reused from the cache")
