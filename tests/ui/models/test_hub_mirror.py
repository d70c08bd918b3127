"""The Models window's Hub mirror: offered when the Hub cannot be reached, checked, kept, used at once."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.hub.mirror import hub_endpoint, use_mirror
from app.ui.models.manager import ModelManagerDialog
from app.ui.settings.store import SettingsStore
from tests.fakes.fake_hub import FakeHub, gguf_bytes
from tests.fakes.memory_keyring import MemoryKeyring

WAIT_MS = 20_000


@pytest.fixture
def store(qtbot: QtBot) -> Iterator[SettingsStore]:
    yield SettingsStore()
    use_mirror("")  # the process-wide mirror goes back to none for the next test


@pytest.fixture
def dialog(store: SettingsStore, qtbot: QtBot, memory_keyring: MemoryKeyring) -> Iterator[ModelManagerDialog]:
    window = ModelManagerDialog(settings=store)
    qtbot.addWidget(window)
    window.show()
    yield window
    assert window.shutdown()


@pytest.mark.expected_log("app.core.hub.client", logging.WARNING, r"Hub request failed \(offline\)")
@pytest.mark.expected_log("app.errors", logging.ERROR, "is unreachable")
def test_an_unreachable_hub_opens_the_mirror_bar_and_the_mirror_set_there_answers_the_retry(
    fake_hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: SettingsStore, qtbot: QtBot,
    memory_keyring: MemoryKeyring,
) -> None:  # fmt: skip
    fake_hub.add_repo("acme/Tiny-GGUF", {"tiny.Q4_K_M.gguf": gguf_bytes(tmp_path, "a.gguf")})
    with FakeHub() as stopped:
        monkeypatch.setenv("HF_ENDPOINT", stopped.url)  # huggingface.co, blocked
    window = ModelManagerDialog(settings=store)
    qtbot.addWidget(window)
    window.show()
    try:
        assert window.mirror_bar is not None and not window.mirror_bar.body.isVisible()
        qtbot.keyClicks(window.discover.search_edit, "tiny")
        qtbot.keyClick(window.discover.search_edit, Qt.Key.Key_Return)
        qtbot.waitUntil(window.mirror_bar.body.isVisible, timeout=WAIT_MS)
        assert any("is unreachable" in notice.text for notice in window.banner.notices())
        window.mirror_bar.edit.setText(fake_hub.url + "/")
        with qtbot.waitSignal(store.saveRequested):
            window.mirror_bar.save_button.click()
        assert store.settings.hub.endpoint == fake_hub.url and hub_endpoint() == fake_hub.url
        assert window.mirror_bar.status.text() == f"Using the mirror {fake_hub.url.split('//')[1]}."
        with qtbot.waitSignal(window.discover.resultsShown, timeout=WAIT_MS):
            window.discover.retry("search")
        assert window.discover.results.rowCount() == 1
    finally:
        assert window.shutdown()


def test_an_address_that_is_not_a_web_address_is_refused_and_nothing_changes(
    dialog: ModelManagerDialog, store: SettingsStore
) -> None:
    bar = dialog.mirror_bar
    assert bar is not None
    bar.set_expanded(True)
    bar.edit.setText("hf-mirror.com")
    bar.save_button.click()
    assert bar.problem.isVisible() and "is not a web address" in bar.problem.text()
    assert store.settings.hub.endpoint == ""


def test_use_the_default_forgets_the_mirror(dialog: ModelManagerDialog, store: SettingsStore) -> None:
    bar = dialog.mirror_bar
    assert bar is not None
    bar.edit.setText("https://hf-mirror.com")
    bar.save_button.click()
    assert hub_endpoint() == "https://hf-mirror.com" and bar.default_button.isEnabled()
    bar.default_button.click()
    assert store.settings.hub.endpoint == "" and hub_endpoint() != "https://hf-mirror.com"
    assert not bar.default_button.isEnabled()
