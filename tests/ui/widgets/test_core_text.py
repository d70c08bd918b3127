"""Core text (a template and its fields, from app/core) shown in the reader's language."""

from __future__ import annotations

import importlib.util
import logging
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.backends.local.wire import ErrorInfo
from app.core.memory.fallback import FallbackStep
from app.core.support.formatting import fill
from app.core.support.user_text import CONTEXT, N_, UserText
from app.core.types.errors import EngineError
from app.core.types.stats import StopReason
from app.ui.widgets import core_text
from app.ui.widgets.error_banner import ErrorBanner
from tests.repo import REPO_ROOT

TRANSLATIONS = {
    "Loading {name} was cancelled.": "已取消加载 {name}。",
    "The reply stopped: {reason}": "回复已停止：{reason}",
    "stopped by user": "用户已停止",
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
def chinese(qapp: QApplication, tmp_path: Path) -> Iterator[None]:
    translator = QTranslator()
    assert translator.load(str(_catalog(tmp_path)))
    qapp.installTranslator(translator)
    yield
    qapp.removeTranslator(translator)


def test_a_filled_core_text_reads_as_english_and_keeps_its_template_and_fields() -> None:
    text = fill(N_("Loading {name} was cancelled."), name=Path("tiny.gguf"))
    assert text == "Loading tiny.gguf was cancelled." and str(text) == text
    assert isinstance(text, UserText)
    assert (text.template, text.fields) == ("Loading {name} was cancelled.", {"name": "tiny.gguf"})


def test_a_core_text_crosses_a_pickle_and_an_exception_with_its_template() -> None:
    inner = fill(N_("The reply stopped: {reason}"), reason=StopReason.USER)
    outer = pickle.loads(pickle.dumps(fill(N_("Loading {name} was cancelled."), name=inner)))
    assert isinstance(outer, UserText) and isinstance(outer.fields["name"], UserText)
    info = pickle.loads(pickle.dumps(ErrorInfo.of(EngineError(outer))))  # as an error crosses the engine's pipe
    assert isinstance(info.message, UserText) and core_text.word(info.to_exception()) == outer


def test_a_filled_core_text_is_worded_from_its_translated_template(chinese: None) -> None:
    english = fill(N_("Loading {name} was cancelled."), name="tiny.gguf")
    assert core_text.word(english) == "已取消加载 tiny.gguf。"


def test_fields_that_are_core_texts_are_worded_too(chinese: None) -> None:
    english = fill(N_("The reply stopped: {reason}"), reason=StopReason.USER.value)
    assert core_text.word(english) == "回复已停止：用户已停止"
    nested = fill(N_("Loading {name} was cancelled."), name=fill(N_("The reply stopped: {reason}"), reason="x"))
    assert core_text.word(nested) == "已取消加载 回复已停止：x。"


def test_an_error_that_carries_a_core_text_is_worded(chinese: None) -> None:
    error = EngineError(fill(N_("Loading {name} was cancelled."), name="tiny.gguf"))
    assert core_text.word(error) == "已取消加载 tiny.gguf。"


def test_nothing_is_read_back_out_of_plain_english(chinese: None) -> None:
    """Only a template with its fields is translated: the same words as a plain string stay as they are."""
    assert core_text.word("Loading tiny.gguf was cancelled.") == "Loading tiny.gguf was cancelled."
    assert core_text.word("Hello from the model") == "Hello from the model"
    assert core_text.word("") == ""


def test_an_unknown_template_falls_back_to_its_english_filled(chinese: None) -> None:
    text = fill(N_("A template no catalog has: {what}."), what=StopReason.USER.value)
    assert core_text.word(text) == "A template no catalog has: 用户已停止."


def test_a_message_composed_by_the_core_reads_chinese(chinese: None) -> None:
    step = FallbackStep(n_gpu_layers=30, reason="cudaMalloc failed", next_n_gpu_layers=None)
    assert step.message == "Loading with 30 GPU layers ran out of memory (cudaMalloc failed)."
    assert core_text.word(step.message) == "加载（30 个 GPU 层）时显存不足（cudaMalloc failed）。"


def test_english_shows_the_english_text() -> None:
    text = fill(N_("Loading {name} was cancelled."), name="tiny.gguf")
    assert core_text.word(text) == "Loading tiny.gguf was cancelled."


@pytest.mark.expected_log("app.errors", logging.ERROR, r"Loading tiny\.gguf was cancelled")
def test_the_banner_shows_core_text_in_the_readers_language_and_logs_it_as_it_came(
    qtbot: QtBot, chinese: None, caplog: pytest.LogCaptureFixture
) -> None:
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    banner.show()
    banner.show_error(fill(N_("Loading {name} was cancelled."), name="tiny.gguf"))
    assert banner.message() == "已取消加载 tiny.gguf。"
    assert "Loading tiny.gguf was cancelled." in caplog.text
