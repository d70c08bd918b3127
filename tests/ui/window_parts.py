"""The main window's shared parts without the window (and without a model): for a feature built on them."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenu, QWidget

from app.ui import message
from app.ui.chat.composer import Composer
from app.ui.chat.session import ChatSession
from app.ui.chat.view import ChatView
from app.ui.llm.worker import LlmWorker
from app.ui.state_signals import StateSignals
from app.ui.widgets.error_banner import ErrorBanner


class PartsWindow(QMainWindow):
    """The error banner, the chat session and view, the composer, the state's signals and an LLM worker
    that runs nothing (it lives in this thread), with a menu and a way to add docks, as the shell hands them out."""

    replyShown = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.banner = ErrorBanner()
        message.register(self.banner)  # as the main window does
        self.setCentralWidget(self.banner)
        self.state_signals = StateSignals(parent=self)
        self.session = ChatSession(parent=self)
        self.worker = LlmWorker()
        self.chat_view = ChatView()
        self.composer = Composer()
        self.menu = QMenu(self)

    def add_dock(self, title: str, name: str, panel: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(panel)
        self.addDockWidget(area, dock)
        return dock

    def shut_down(self) -> None:
        assert self.session.shutdown()
        self.worker.close()
