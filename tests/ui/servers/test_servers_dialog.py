"""Tools → Servers… saving a server whose API key the system keyring does not keep."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.core.settings import Settings
from app.ui.servers.dialog import ServersDialog
from app.ui.servers.worker import ServersThread
from tests.fakes.memory_keyring import ForgetfulKeyring


@pytest.fixture
def saved() -> list[Settings]:
    return []


@pytest.fixture
def dialog(qtbot: QtBot, saved: list[Settings]) -> Iterator[ServersDialog]:
    servers = ServersThread()
    window = ServersDialog(servers, lambda: saved[-1] if saved else Settings(), saved.append)
    qtbot.addWidget(window)
    try:
        yield window
    finally:
        servers.request_stop()
        assert servers.thread.wait(10_000)


@pytest.mark.expected_log("app.core.support.secrets", logging.WARNING, "did not keep it")
def test_a_key_the_keyring_does_not_keep_is_reported_as_not_saved_and_where(
    dialog: ServersDialog, saved: list[Settings], forgetful_keyring: ForgetfulKeyring
) -> None:
    dialog.name.setText("team")
    dialog.url.setText("http://box:1")
    dialog.api_key.setText("sk-lost")
    dialog.save_button.click()
    outcome = dialog.outcome.text()
    assert "The API key was not saved" in outcome and "ForgetfulKeyring" in outcome
    assert saved == []  # nothing claims the server is ready with its key
    assert dialog.api_key.text() == "sk-lost"  # still in the form: nothing is lost
