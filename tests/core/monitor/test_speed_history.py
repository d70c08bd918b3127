"""Each model's usual speed on this machine: medians of the newest replies, kept in the data folder."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from app.core.monitor.speed_history import KEEP_RECORDS, SPEED_FILE, SpeedHistory, run_key
from app.core.paths import app_paths
from app.core.types.stats import ReplyStats


def stats(tokens_per_s: float, ttft_s: float = 0.5, prompt: int = 50, tokens: int = 30) -> ReplyStats:
    return ReplyStats(
        prompt_tokens=prompt,
        completion_tokens=tokens,
        time_to_first_token_s=ttft_s,
        generation_tokens_per_s=tokens_per_s,
    )


@pytest.fixture
def key(tmp_path: Path) -> str:
    path = tmp_path / "model.gguf"
    path.write_bytes(b"GGUF")
    return run_key(path, 33)


def test_the_usual_speed_is_the_median_once_there_are_five_replies(key: str) -> None:
    history = SpeedHistory()
    for speed in (10.0, 30.0, 20.0, 25.0):
        history.record(key, stats(speed))
    assert history.usual(key).tokens_per_s is None

    history.record(key, stats(1000.0))  # one odd reply does not move the median far
    usual = history.usual(key)
    assert usual.replies == 5 and usual.tokens_per_s == 25.0
    assert usual.ttft_s == 0.5 and usual.prompt_tokens_per_s == 100.0


def test_a_reply_too_short_or_failed_is_not_a_speed(key: str) -> None:
    history = SpeedHistory()
    assert not history.record(key, stats(20.0, tokens=3))
    assert not history.record(key, ReplyStats(completion_tokens=30, generation_tokens_per_s=20.0, error="crash"))
    assert history.usual(key).replies == 0


def test_only_the_newest_replies_are_kept(key: str) -> None:
    history = SpeedHistory()
    for _ in range(KEEP_RECORDS):
        history.record(key, stats(5.0))
    for _ in range(KEEP_RECORDS // 2 + 1):
        history.record(key, stats(50.0))
    assert history.usual(key).replies == KEEP_RECORDS and history.usual(key).tokens_per_s == 50.0


def test_the_speeds_are_kept_across_sessions_in_the_data_folder(key: str) -> None:
    first = SpeedHistory.default()
    for speed in (10.0, 11.0, 12.0, 13.0, 14.0):
        first.record(key, stats(speed))
    assert (app_paths().data / SPEED_FILE).is_file()
    assert SpeedHistory.default().usual(key).tokens_per_s == 12.0


@pytest.mark.expected_log("app.core.monitor.speed_history", logging.WARNING, r"could not be read .* start afresh")
def test_a_damaged_file_starts_afresh(key: str) -> None:
    path = app_paths().data / SPEED_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"schema_version": 1, "runs": {"k": [{"tokens_per_s": "fast"}]}}')
    assert SpeedHistory.default().usual(key).replies == 0


def test_the_expected_first_token_allows_for_a_long_prompt(key: str) -> None:
    history = SpeedHistory()
    for _ in range(5):
        history.record(key, stats(20.0, ttft_s=0.5, prompt=50))
    usual = history.usual(key)
    assert usual.expected_ttft(10) == 0.5
    assert usual.expected_ttft(1000) == 10.0


def test_without_autosave_the_speeds_are_written_when_saved(key: str) -> None:
    history = SpeedHistory.default(autosave=False)
    history.record(key, stats(20.0))
    path = app_paths().data / SPEED_FILE
    assert not path.exists()
    history.save()
    assert path.is_file()
    modified = path.stat().st_mtime_ns
    history.save()  # nothing new: nothing written
    assert path.stat().st_mtime_ns == modified
