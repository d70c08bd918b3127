"""Keyboard and screen-reader use of the main window: a short tab order, and a finished reply announced once.

Tab goes toolbar → chat list → chat → message box → Send (then the panels); Shift+Tab walks it
back, so the chat list is two steps from the message box. A reply streams silently (its text
changes at screen rate, which a screen reader would read out piece by piece); when it ends, one
announcement says so and reads its beginning.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from PySide6.QtCore import QObject, SignalInstance
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QWidget

from app.core.support.formatting import fill
from app.core.types.replies import ReplyDone
from app.core.types.stats import StopReason

ANNOUNCED_CHARS = 400  # the beginning of the reply; the rest is in the chat, read at the reader's pace


def arrange_tab_order(order: Sequence[QWidget]) -> None:
    """Tab visits `order` one after the other (the other widgets keep their places after the last)."""
    for first, second in pairwise(order):
        QWidget.setTabOrder(first, second)


class ReplyAnnouncer(QObject):
    """Tells assistive technology once that a reply has ended, never token by token."""

    def __init__(self, reply_shown: SignalInstance, speaker: QWidget) -> None:
        super().__init__(speaker)
        self._speaker = speaker
        reply_shown.connect(self.announce)

    def announce(self, done: ReplyDone) -> None:
        self._speaker.setAccessibleDescription(self.message(done))  # also what the chat says when asked again
        event = QAccessibleAnnouncementEvent(self._speaker, self.message(done))
        QAccessible.updateAccessibility(event)

    def message(self, done: ReplyDone) -> str:
        text = done.text.strip()
        excerpt = text if len(text) <= ANNOUNCED_CHARS else text[:ANNOUNCED_CHARS] + "…"
        reason = done.stats.stop_reason
        if reason is StopReason.USER:
            return fill(self.tr("Reply stopped: {text}"), text=excerpt)
        if reason is StopReason.ERROR:
            return self.tr("The reply stopped with an error.")
        return fill(self.tr("Reply finished: {text}"), text=excerpt)
