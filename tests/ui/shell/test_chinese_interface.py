"""Glassbox started in Simplified Chinese: its own catalog and Qt's are installed, and the window reads Chinese."""

from __future__ import annotations

import logging
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtWidgets import QAbstractButton, QApplication, QGroupBox
from pytestqt.qtbot import QtBot

from app.core.settings import Language
from app.ui.shell.translations import catalog_file, install_translators, resolve_language
from tests.helpers.windows import WINDOW_LOAD_TIMEOUT_MS
from tests.ui.shell.test_engine_crash import engine_pid

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture
def in_chinese(qapp: QApplication) -> Iterator[None]:
    assert install_translators(qapp, Language.SIMPLIFIED_CHINESE) is Language.SIMPLIFIED_CHINESE
    yield
    assert install_translators(qapp, Language.ENGLISH) is Language.ENGLISH


@pytest.mark.parametrize(
    ("system", "shown"),
    [
        ("zh_CN", Language.SIMPLIFIED_CHINESE),
        ("zh_SG", Language.SIMPLIFIED_CHINESE),
        ("zh_TW", Language.ENGLISH),  # Traditional characters: no catalog yet, so the source text
        ("en_GB", Language.ENGLISH),
        ("de_DE", Language.ENGLISH),
    ],
)
def test_the_system_choice_follows_the_os_locale(system: str, shown: Language) -> None:
    assert resolve_language(Language.SYSTEM, QLocale(system)) is shown
    assert resolve_language(Language.ENGLISH, QLocale("zh_CN")) is Language.ENGLISH


def test_the_catalog_sits_beside_the_module_so_a_wheel_and_the_bundle_find_it() -> None:
    assert catalog_file(Language.SIMPLIFIED_CHINESE).is_file()


def test_qt_standard_texts_and_glassbox_texts_are_chinese(in_chinese: None) -> None:
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"  # from Qt's qtbase_zh_CN.qm
    assert QCoreApplication.translate("GpuPanel", "GPU layers") == "GPU 层数"
    assert QLocale().language() is QLocale.Language.Chinese  # numbers and dates follow


def test_english_removes_the_translators_again(qapp: QApplication) -> None:
    install_translators(qapp, Language.SIMPLIFIED_CHINESE)
    install_translators(qapp, Language.ENGLISH)
    assert QCoreApplication.translate("GpuPanel", "GPU layers") == "GPU layers"


@pytest.mark.expected_log("app.core.backends.local.process", logging.ERROR, r".")
@pytest.mark.expected_log("app.errors", logging.ERROR, r".")
def test_the_main_window_reads_chinese(qtbot: QtBot, starter_model: Path, in_chinese: None) -> None:
    from app.ui.shell.main_window import MainWindow

    main = MainWindow()
    qtbot.addWidget(main)
    main.show()
    qtbot.waitUntil(lambda: main.state.loaded_model is not None, timeout=WINDOW_LOAD_TIMEOUT_MS)

    menus = [action.text() for action in main.menuBar().actions()]
    assert menus[:4] == ["对话(&C)", "工具(&T)", "视图(&V)", "帮助(&H)"]
    assert all(HAN.search(action.text()) for action in main.view_menu.actions() if action.text())
    assert main.composer.placeholderText().startswith("给模型发消息")
    titles = [group.title() for group in main.chats.settings_panel.findChildren(QGroupBox)]
    assert "采样 —— 本对话" in titles and titles and all(HAN.search(title) for title in titles)
    # A chat not yet named by its first message is "New chat" in the database and 新对话 on screen.
    listed = [main.chats.sidebar.list.item(i).text() for i in range(main.chats.sidebar.list.count())]
    assert "新对话" in listed

    os.kill(engine_pid(main), signal.SIGKILL)  # the engine dies: the next message finds out, and the window says so
    qtbot.waitUntil(lambda: not main.worker.backend.link.running)  # type: ignore[attr-defined]
    main.send("你好")
    qtbot.waitUntil(lambda: main.error_banner.message() != "", timeout=30_000)
    # The banner's own words are Chinese; a reason composed in app/core is worded through its CoreText entry.
    banner_words = [b.text() + b.toolTip() for b in main.error_banner.findChildren(QAbstractButton) if b.isVisible()]
    assert any("关闭" in words for words in banner_words)
    qtbot.waitUntil(lambda: HAN.search(main.error_banner.message()) is not None)  # "the model is no longer loaded"
    main.close()  # joins the window's threads here, not after the test


def test_core_text_reads_chinese_too(qtbot: QtBot, in_chinese: None) -> None:
    """Setting labels and explanations, stop reasons, errors: composed in app/core, shown in Chinese."""
    from app.core.support.formatting import fill
    from app.core.support.user_text import N_
    from app.core.types.stats import StopReason
    from app.ui.chat.settings_panel import SettingsPanel
    from app.ui.settings.store import SettingsStore
    from app.ui.widgets.core_text import word

    panel = SettingsPanel(SettingsStore())
    qtbot.addWidget(panel)
    assert panel.sampling.rows["temperature"].label.text() == "温度"
    assert HAN.search(panel.sampling.rows["max_tokens"].label.text())
    assert HAN.search(panel.sampling.rows["temperature"].explanation.text())
    assert HAN.search(word(StopReason.USER.value))
    assert HAN.search(word(fill(N_("Loading {name} was cancelled."), name="tiny.gguf")))
