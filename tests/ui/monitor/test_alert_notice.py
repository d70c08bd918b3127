"""The alert notices above the chat: one row per raised alert, in the user's words, gone when the episode ends."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QToolButton
from pytestqt.qtbot import QtBot

from app.core.monitor.alerts import Alert, AlertKind
from app.ui.monitor.alert_notice import AlertNotice
from tests.fakes.fake_pynvml import GIB

FIELDS = {
    AlertKind.VRAM_HIGH: {"gpu": 0, "name": "RTX", "percent": 93.0, "used": 7 * GIB, "total": 8 * GIB, "others": GIB},
    AlertKind.RAM_LOW: {"percent": 7.0, "available": GIB, "total": 16 * GIB, "app": GIB},
    AlertKind.SWAP_GROWING: {"growth": GIB, "swap_used": 2 * GIB, "model": "m.gguf"},
    AlertKind.CONTEXT_FULL: {"percent": 95.0, "used": 3900, "n_ctx": 4096},
    AlertKind.SLOW_TOKENS: {"tokens_per_s": 4.0, "usual": 20.0, "temperature_c": 88},
    AlertKind.SLOW_FIRST_TOKEN: {"ttft_s": 4.0, "usual_s": 0.5, "evaluated_tokens": 30},
    AlertKind.FAILED_REPLIES: {"count": 3, "last_error": "engine crashed"},
    AlertKind.IDLE_MODEL: {"minutes": 31.0, "vram": 2 * GIB, "model": "m.gguf"},
}


def alert(kind: AlertKind, subject: str = "") -> Alert:
    return Alert(kind, "English message for the log", FIELDS[kind], subject, offer_unload=kind is AlertKind.IDLE_MODEL)


def test_every_kind_is_worded_from_its_numbers(qtbot: QtBot) -> None:
    notice = AlertNotice()
    qtbot.addWidget(notice)
    texts = {kind: notice.text_for(alert(kind)) for kind in AlertKind}
    assert all("{" not in text and text != "English message for the log" for text in texts.values())
    assert texts[AlertKind.VRAM_HIGH].startswith("GPU 0 (RTX) memory is 93 % full: 7.00 GiB of 8.00 GiB")
    assert "3,900 of 4,096 tokens" in texts[AlertKind.CONTEXT_FULL]
    assert "The GPU is at 88 °C and may be throttling." in texts[AlertKind.SLOW_TOKENS]
    assert "m.gguf has not been used for 31 minutes and holds 2.00 GiB" in texts[AlertKind.IDLE_MODEL]


def test_raised_alerts_stack_newest_first_and_leave_when_cleared(qtbot: QtBot) -> None:
    notice = AlertNotice()
    qtbot.addWidget(notice)
    assert notice.isHidden()  # nothing to say: no room taken above the chat

    notice.show_alert(alert(AlertKind.RAM_LOW))
    notice.show_alert(alert(AlertKind.VRAM_HIGH, "GPU 0"))
    assert not notice.isHidden() and len(notice.texts()) == 2
    assert notice.texts()[0].startswith("GPU 0 (RTX)")

    notice.clear_alert(alert(AlertKind.VRAM_HIGH, "GPU 0"))
    notice.clear_alert(alert(AlertKind.RAM_LOW))
    assert notice.texts() == [] and notice.isHidden()


def test_the_cross_dismisses_an_alert(qtbot: QtBot) -> None:
    notice = AlertNotice()
    qtbot.addWidget(notice)
    notice.show_alert(alert(AlertKind.CONTEXT_FULL))
    (cross,) = notice.findChildren(QToolButton, "DismissAlert")
    cross.click()
    assert notice.texts() == []


def test_the_idle_alert_offers_to_unload(qtbot: QtBot) -> None:
    notice = AlertNotice()
    qtbot.addWidget(notice)
    notice.show_alert(alert(AlertKind.IDLE_MODEL))
    notice.show_alert(alert(AlertKind.RAM_LOW))
    buttons = notice.findChildren(QPushButton, "UnloadIdleModel")
    assert len(buttons) == 1  # only the idle alert has one

    with qtbot.waitSignal(notice.unloadRequested, timeout=1000):
        buttons[0].click()
    assert len(notice.texts()) == 1  # the idle alert is done; the RAM one stays
