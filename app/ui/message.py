"""One way for any part of the UI to tell the user something: `message.error(text)`.

As qutebrowser's `message.error`: a call logs the text (as it came, in English) and shows it
on the display the main window registered (its notice banner), in the reader's language.
Panels, workers and helpers call these functions instead of being handed the banner; a call
from another thread is shown by the GUI thread. Before a display is registered (a panel
tested on its own), the text is only logged.
"""

from __future__ import annotations

import logging
from typing import Protocol

import shiboken6
from PySide6.QtCore import QObject, Signal

from app.ui.widgets.error_banner import NoticeAction

log = logging.getLogger("app.errors")


class Display(Protocol):
    """What shows the messages: the main window's banner."""

    def show_notice(self, text: str, level: int, action: NoticeAction | None) -> None: ...

    def dismiss_all(self) -> None: ...


class _Bridge(QObject):
    """Carries each message to the GUI thread (Qt queues a signal emitted on another thread)."""

    shown = Signal(object, int, object)  # text (a core text keeps its template), logging level, NoticeAction | None
    cleared = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.display: Display | None = None
        self.shown.connect(self._show)
        self.cleared.connect(self._clear)

    def _show(self, text: str, level: int, action: NoticeAction | None) -> None:
        if (display := self._live_display()) is not None:
            display.show_notice(text, level, action)

    def _clear(self) -> None:
        if (display := self._live_display()) is not None:
            display.dismiss_all()

    def _live_display(self) -> Display | None:
        """The registered display, unless Qt has deleted it since (its window closed)."""
        if isinstance(self.display, QObject) and not shiboken6.isValid(self.display):
            self.display = None
        return self.display


_bridge: _Bridge | None = None


def register(display: Display) -> None:
    """Show every message on `display` from now on (the main window's banner); called on the GUI thread."""
    global _bridge
    if _bridge is None:
        _bridge = _Bridge()
    _bridge.display = display


def error(text: str, action: NoticeAction | None = None) -> None:
    """Something failed: log it and show it (with `action`'s button, e.g. Retry)."""
    _tell(text, logging.ERROR, action)


def warning(text: str, action: NoticeAction | None = None) -> None:
    """Something did not work as asked but the work goes on: log it and show it."""
    _tell(text, logging.WARNING, action)


def info(text: str, action: NoticeAction | None = None) -> None:
    """News that is not a failure: log it and show it."""
    _tell(text, logging.INFO, action)


def clear() -> None:
    """Dismiss every message on show (a new message sent, a new chat)."""
    if _bridge is not None:
        _bridge.cleared.emit()


def _tell(text: str, level: int, action: NoticeAction | None) -> None:
    log.log(level, "%s", text)
    if _bridge is not None:
        _bridge.shown.emit(text, level, action)
