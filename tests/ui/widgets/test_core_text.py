"""Core text (English, filled in app/core) shown in the reader's language."""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.memory.fallback import FallbackStep
from app.core.support.formatting import fill
from app.core.support.user_text import CONTEXT, N_
from app.core.types.stats import StopReason
from app.ui.widgets import core_text
from app.ui.widgets.core_text import CoreTexts
from app.ui.widgets.error_banner import ErrorBanner
from tests.repo import REPO_ROOT

TRANSLATIONS = {
    "Loading {name} was cancelled.": "已取消加载 {name}。",
    "The reply stopped: {reason}": "回复已停止：{reason}",
    "stopped by user": "用户已停止",
    "{a} and {a} again": "{a}，又是 {a}",
    "{during} with {n_gpu_layers} GPU layers ran out of memory ({reason}).": (
        "{during}（{n_gpu_layers} 个 GPU 层）时显存不足（{reason}）。"
    ),
    "Loading": "加载",
}


def _catalog(tmp_path: Path) -> Path:
    messages = "".join(
        f"<message><source>{source}</source><translation>{target}</translation></message>"
        for source, target in TRANSLATIONS.items()
    )
    ts = tmp_path / "core_zh_CN.ts"
    ts.write_text(
        f'<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" language="zh_CN">'
        f"<context><name>{CONTEXT}</name>{messages}</context></TS>",
        encoding="utf-8",
    )
    spec = importlib.util.spec_from_file_location("glassbox_translations", REPO_ROOT / "packaging" / "translations.py")
    assert spec is not None and spec.loader is not None
    pipeline = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pipeline)
    qm = tmp_path / "core_zh_CN.qm"
    pipeline.compile_catalog(ts, qm)
    return qm


@pytest.fixture
def chinese(qapp: QApplication, tmp_path: Path) -> Iterator[CoreTexts]:
    translator = QTranslator()
    assert translator.load(str(_catalog(tmp_path)))
    qapp.installTranslator(translator)
    core_text.install(TRANSLATIONS)
    yield CoreTexts(TRANSLATIONS)
    core_text.install(())
    qapp.removeTranslator(translator)


def test_a_filled_core_text_is_worded_from_its_translated_template(chinese: CoreTexts) -> None:
    english = fill(N_("Loading {name} was cancelled."), name="tiny.gguf")
    assert chinese.word(english) == "已取消加载 tiny.gguf。"


def test_values_that_are_core_texts_are_worded_too(chinese: CoreTexts) -> None:
    english = fill(N_("The reply stopped: {reason}"), reason=StopReason.USER.value)
    assert chinese.word(english) == "回复已停止：用户已停止"


def test_a_placeholder_used_twice_must_hold_the_same_value(chinese: CoreTexts) -> None:
    assert chinese.word("x and x again") == "x，又是 x"
    assert chinese.word("x and y again") == "x and y again"


def test_text_from_no_template_is_shown_as_it_is(chinese: CoreTexts) -> None:
    assert chinese.word("Hello from the model") == "Hello from the model"
    assert chinese.word("") == ""


def test_a_message_composed_by_the_core_reads_chinese(chinese: CoreTexts) -> None:
    step = FallbackStep(n_gpu_layers=30, reason="cudaMalloc failed", next_n_gpu_layers=None)
    assert step.message == "Loading with 30 GPU layers ran out of memory (cudaMalloc failed)."
    assert chinese.word(step.message) == "加载（30 个 GPU 层）时显存不足（cudaMalloc failed）。"


def test_english_words_nothing_again() -> None:
    core_text.install(())
    assert core_text.word("Loading tiny.gguf was cancelled.") == "Loading tiny.gguf was cancelled."


@pytest.mark.expected_log("app.errors", logging.ERROR, r"Loading tiny\.gguf was cancelled")
def test_the_banner_shows_core_text_in_the_readers_language_and_logs_it_as_it_came(
    qtbot: QtBot, chinese: CoreTexts, caplog: pytest.LogCaptureFixture
) -> None:
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    banner.show()
    banner.show_error(fill(N_("Loading {name} was cancelled."), name="tiny.gguf"))
    assert banner.message() == "已取消加载 tiny.gguf。"
    assert "Loading tiny.gguf was cancelled." in caplog.text


def test_a_long_text_that_matches_no_template_is_left_alone_quickly(chinese: CoreTexts) -> None:
    """Text that is no core message (a model's own long words) is not searched through, whatever its length."""
    many_fields = CoreTexts(["{a} and {b} or {c} with {d} then {e}."])
    text = "and or with then " * 200 + "!"
    assert many_fields.word(text) == text
    assert chinese.word("x" * 10_000) == "x" * 10_000
