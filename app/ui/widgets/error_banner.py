"""A stack of notices that shows errors and news without a modal dialog that blocks the chat.

Notices stack: a load failure followed by a damaged-settings notice shows both, newest
first, each with its own severity and its own ✕; "Dismiss all" clears the stack. Only the
latest few are kept, and a notice repeated moves to the top instead of showing twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from app.core.support.formatting import fill
from app.ui.widgets import core_text
from app.ui.widgets.theme import Colours, keep_styled

log = logging.getLogger("app.errors")

MAX_NOTICES = 5


def notice_style(c: Colours) -> str:
    """Each severity's row in the theme's background, border and text colour."""
    rules = []
    for severity in ("error", "warning", "info"):
        notice = c.notice(severity)
        rules.append(
            f"#Notice[severity='{severity}'] {{ background: {notice.background}; "
            f"border: 1px solid {notice.border}; border-radius: 6px; }}"
            f"#Notice[severity='{severity}'] QLabel {{ color: {notice.text}; }}"
        )
    return "".join(rules)


@dataclass(frozen=True)
class NoticeAction:
    """A button on a notice (e.g. Retry); pressing it also dismisses the notice."""

    label: str
    run: Callable[[], object] = field(compare=False)


@dataclass(frozen=True)
class Notice:
    text: str
    level: int  # a logging level: ERROR and above is an error, WARNING a warning, below that information
    action: NoticeAction | None = None

    @property
    def severity(self) -> str:
        if self.level >= logging.ERROR:
            return "error"
        return "warning" if self.level >= logging.WARNING else "info"


class ErrorBanner(QFrame):
    """A stack of dismissible strips at the top of the chat: what happened and what to do, newest first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ErrorBanner")
        keep_styled(self, notice_style)
        self._notices: list[Notice] = []  # newest first
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self._header = QWidget(self)
        header = QHBoxLayout(self._header)
        header.setContentsMargins(0, 0, 0, 0)
        self._count = QLabel(self._header)
        self.dismiss_all_button = QPushButton(self.tr("Dismiss all"), self._header)
        self.dismiss_all_button.clicked.connect(self.dismiss_all)
        header.addWidget(self._count, 1)
        header.addWidget(self.dismiss_all_button)
        layout.addWidget(self._header)
        self._rows = QVBoxLayout()
        self._rows.setSpacing(4)
        layout.addLayout(self._rows)
        self.setVisible(False)

    def show_error(self, message: str, level: int = logging.ERROR, action: NoticeAction | None = None) -> None:
        """Log `message` at `level` and show it (the window's own banner is reached through `app.ui.message`)."""
        log.log(level, "%s", message)
        self.show_notice(message, level, action)

    def show_notice(self, message: str, level: int, action: NoticeAction | None = None) -> None:
        """Put `message` on top (with `action`'s button, if given): a core text in the reader's language."""
        message = core_text.word(message)
        notice = Notice(message, level, action)
        self._notices = [notice, *(n for n in self._notices if n.text != message)][:MAX_NOTICES]
        self._rebuild()

    def notices(self) -> list[Notice]:
        """What is on show, newest first."""
        return list(self._notices)

    def message(self) -> str:
        """The texts on show, newest first, one a line ("" when the banner is hidden)."""
        return "\n".join(notice.text for notice in self._notices) if self.isVisible() else ""

    def dismiss(self, notice: Notice) -> None:
        self._notices = [n for n in self._notices if n is not notice]
        self._rebuild()

    def dismiss_all(self) -> None:
        self._notices = []
        self._rebuild()

    def hide(self) -> None:
        """Dismiss every notice: what the window means by hiding the banner (a new message, a new chat)."""
        self.dismiss_all()

    def _rebuild(self) -> None:
        while (item := self._rows.takeAt(0)) is not None:
            if (widget := item.widget()) is not None:
                widget.deleteLater()
        for notice in self._notices:
            self._rows.addWidget(self._row(notice))
        self._header.setVisible(len(self._notices) > 1)
        self._count.setText(fill(self.tr("{count} notices, newest first"), count=len(self._notices)))
        self.setVisible(bool(self._notices))

    def _act(self, notice: Notice, action: NoticeAction) -> None:
        self.dismiss(notice)
        action.run()

    def _row(self, notice: Notice) -> QFrame:
        row = QFrame(self)
        row.setObjectName("Notice")
        row.setProperty("severity", notice.severity)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(12, 8, 8, 8)
        label = QLabel(notice.text, row)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton(row)
        close.setObjectName("DismissNotice")
        close.setText("✕")
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(lambda: self.dismiss(notice))
        layout.addWidget(label, 1)
        if notice.action is not None:
            action = notice.action
            button = QPushButton(action.label, row)
            button.setObjectName("NoticeAction")
            button.clicked.connect(lambda: self._act(notice, action))
            layout.addWidget(button)
        layout.addWidget(close)
        return row
