"""What the window remembers between runs: size, place, maximized, open panels and their sizes, tabs, last chat,
and the model on duty (the next start loads it again, or the library's first when its file has gone).

Kept in `window.json` beside the settings and written once, when the window closes (Qt's
own `saveGeometry`/`saveState` bytes, base64 in JSON). A file that cannot be read is set
aside in the log and the window opens as on a first start; one that cannot be written is
logged and loses nothing else. The window always fits the screen it opens on: a size saved
on a larger monitor, or a first start on a small one, is shrunk to the available area.
"""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QByteArray, QRect
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar

from app.core.chat.store import SearchHit
from app.core.support.atomic import atomic_write
from app.ui.chat.conversations import Conversations

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WindowMemory:
    geometry: bytes = b""
    state: bytes = b""
    raised: tuple[str, ...] = ()  # the panel in front of each group of tabbed panels (object names)
    last_chat: str | None = None
    last_model: str | None = None  # the local model file on duty at the close
    closed_for_room: tuple[str, ...] = ()  # panels the window closed (not the user) to give the chat room

    def to_json(self) -> str:
        return json.dumps(
            {
                "geometry": base64.b64encode(self.geometry).decode("ascii"),
                "state": base64.b64encode(self.state).decode("ascii"),
                "raised": list(self.raised),
                "last_chat": self.last_chat,
                "last_model": self.last_model,
                "closed_for_room": list(self.closed_for_room),
            },
            indent=2,
        )

    @classmethod
    def from_json(cls, text: str) -> WindowMemory:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not an object")
        raised = data.get("raised") or []
        closed = data.get("closed_for_room") or []
        last_chat = data.get("last_chat")
        last_model = data.get("last_model")
        return cls(
            geometry=base64.b64decode(str(data.get("geometry") or "")),
            state=base64.b64decode(str(data.get("state") or "")),
            raised=tuple(str(name) for name in raised if isinstance(name, str)),
            last_chat=last_chat if isinstance(last_chat, str) and last_chat else None,
            last_model=last_model if isinstance(last_model, str) and last_model else None,
            closed_for_room=tuple(str(name) for name in closed if isinstance(name, str)),
        )


def load_memory(path: Path) -> WindowMemory:
    try:
        return WindowMemory.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return WindowMemory()
    except (OSError, ValueError) as error:
        log.warning(
            "The window's saved layout in %s could not be read (%s); starting with the default one", path, error
        )
        return WindowMemory()


def save_memory(path: Path, memory: WindowMemory) -> None:
    try:
        atomic_write(path, memory.to_json())
    except OSError as error:
        log.warning("The window's layout could not be saved to %s: %s", path, error)


def remember(
    window: QMainWindow, last_chat: str | None, last_model: Path | None, closed_for_room: Sequence[str] = ()
) -> WindowMemory:
    return WindowMemory(
        geometry=bytes(window.saveGeometry().data()),
        state=bytes(window.saveState().data()),
        raised=_raised_panels(window),
        last_chat=last_chat,
        last_model=str(last_model) if last_model is not None else None,
        closed_for_room=tuple(closed_for_room),
    )


def restore(window: QMainWindow, memory: WindowMemory) -> None:
    """Size, place and panels as they were, fitted to the screen."""
    if memory.geometry:
        window.restoreGeometry(QByteArray(memory.geometry))
    if memory.state:
        window.restoreState(QByteArray(memory.state))
    docks = {dock.objectName(): dock for dock in window.findChildren(QDockWidget)}
    for name in memory.raised:
        if name in docks and docks[name].isVisibleTo(window):
            docks[name].raise_()
    fit_to_screen(window)


def reopen_last_chat(chats: Conversations, last_chat: str | None) -> None:
    """Show the chat that was on show last time, once the chat list has it (and no other chat was saved since)."""
    if last_chat is None:
        return
    session = chats.session

    def reopen(hits: list[SearchHit]) -> None:
        session.chatsListed.disconnect(reopen)
        if any(hit.chat.id == last_chat for hit in hits) and not session.saved:
            chats.open_chat(last_chat)

    session.chatsListed.connect(reopen)


def fit_to_screen(window: QMainWindow) -> None:
    """Never larger than the available area of the screen the window is on, and inside it."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    area: QRect = screen.availableGeometry()
    if window.isMaximized() or area.isEmpty():
        return
    frame = window.frameGeometry()
    extra_width, extra_height = frame.width() - window.width(), frame.height() - window.height()
    width = min(window.width(), area.width() - extra_width)
    height = min(window.height(), area.height() - extra_height)
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    x = min(max(frame.x(), area.x()), area.right() - width - extra_width + 1)
    y = min(max(frame.y(), area.y()), area.bottom() - height - extra_height + 1)
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)


def _raised_panels(window: QMainWindow) -> tuple[str, ...]:
    docks = {dock.windowTitle(): dock for dock in window.findChildren(QDockWidget)}
    names = []
    for bar in window.findChildren(QTabBar):
        if bar.parent() is window and bar.currentIndex() >= 0:
            dock = docks.get(bar.tabText(bar.currentIndex()))
            if dock is not None:
                names.append(dock.objectName())
    return tuple(names)
