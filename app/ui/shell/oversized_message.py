"""A message that cannot fit the context is not sent as it is: the user chooses what becomes of it.

Sending a 2 MB paste used to save it in the chat, hold the GUI thread for half a minute and
end in an error. Now Send looks at the context meter's plan of the next turn, which the LLM
thread makes with the text being typed (its tokens are counted there, never on the GUI
thread). A long text the meter has not measured yet waits for that plan ("Measuring the
message…"); a short one goes at once. A message whose tokens exceed the room for it gets a
choice, as LM Studio and Jan offer it:

- attach it as a document for this chat: the text is saved as a file among the chat's own
  documents, indexed, and the replies retrieve from it; the message box is emptied for a question;
- cut it to fit: the message box keeps the beginning that fits (by the measured tokens per
  character, with a margin), and the meter measures it again before it is sent;
- keep editing: nothing changes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDockWidget, QMessageBox, QWidget

from app.core.chat.context_window import PlanResult
from app.core.paths import app_paths
from app.core.support.atomic import atomic_write
from app.core.support.formatting import fill
from app.ui import message
from app.ui.chat.composer import Composer
from app.ui.chat.conversations import Conversations
from app.ui.widgets.locale_format import number

MEASURE_ABOVE_CHARS = 8_000  # a text longer than this is sent only once the meter has measured it
CUT_MARGIN = 0.9  # a cut keeps this share of what the measured tokens per character say fits
DOCUMENTS_DOCK = "DocumentsDock"
PASTED_FOLDER = "pasted"  # under the data folder: the texts attached as documents


class Choice(Enum):
    ATTACH = "attach"
    CUT = "cut"
    KEEP_EDITING = "keep editing"


def cut_to_fit(text: str, tokens: int, room: int) -> str:
    """The beginning of `text` that fits `room` tokens when `text` is `tokens` long (ended at a line or word
    end when one is near)."""
    keep = int(len(text) * room / max(tokens, 1) * CUT_MARGIN)
    head = text[:keep]
    for separator in ("\n", " "):
        end = head.rfind(separator)
        if end >= keep * 3 // 4:
            return head[:end]
    return head


def pasted_file(chat_id: str) -> Path:
    """Where a text attached as a document of a chat is kept."""
    return app_paths().data / PASTED_FOLDER / f"{chat_id}-{time.strftime('%Y%m%d-%H%M%S')}.txt"


class OversizedMessage(QObject):
    """Decides whether the window may send a message now, and offers the choice when it cannot fit."""

    sendReady = Signal(str)  # a long message measured and found to fit: send it
    attached = Signal(object)  # Path: a message saved as a document of the chat on show

    def __init__(
        self,
        chats: Conversations,
        composer: Composer,
        attach: Callable[[list[Path]], object] | None,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self._chats = chats
        self._composer = composer
        self._attach = attach
        self._waiting: str | None = None  # a long message waiting for the meter to measure it
        chats.draftMeasured.connect(self._on_measured)

    @property
    def measuring(self) -> bool:
        return self._waiting is not None

    def allows(self, text: str) -> bool:
        """Whether `text` may be sent now; if not, it waits to be measured or the user is asked what to do."""
        result = self._chats.measured(text)
        if result is None:
            if len(text) <= MEASURE_ABOVE_CHARS:
                return True
            self._waiting = text
            self._chats.statusMessage.emit(self.tr("Measuring the message…"), 0)
            self._chats.measure_now()
            return False
        if result.too_long is None:
            return True
        self.offer(text, result)
        return False

    def _on_measured(self, result: PlanResult) -> None:
        waiting = self._waiting
        if waiting is None or self._chats.measured(waiting) is not result:
            return
        self._waiting = None
        self._chats.statusMessage.emit("", 0)
        if result.too_long is not None:
            self.offer(waiting, result)
        elif self._composer.toPlainText().strip() == waiting.strip():  # not edited meanwhile
            self.sendReady.emit(waiting)

    def offer(self, text: str, result: PlanResult) -> None:
        assert result.too_long is not None
        tokens, room = result.too_long
        choice = self.ask(tokens, room)
        if choice is Choice.CUT:
            self._composer.setPlainText(cut_to_fit(text, tokens, room))
            self._composer.setFocus()
        elif choice is Choice.ATTACH:
            self.attach(text)

    def attach(self, text: str) -> Path | None:
        """Save `text` as a document of the chat on show, index it, and empty the message box for a question."""
        if self._attach is None:
            return None
        path = pasted_file(self._chats.session.chat.id)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, text)
        except OSError as error:
            message.error(fill(self.tr("The message could not be saved as a document: {error}"), error=error))
            return None
        self._attach([path])
        self._composer.clear()
        self._composer.setFocus()
        parent = self.parent_widget()
        dock = parent.findChild(QDockWidget, DOCUMENTS_DOCK) if parent is not None else None
        if dock is not None:  # the Documents panel shows the text being read
            dock.show()
            dock.raise_()
        message.info(self.tr("The message is attached as a document of this chat: ask about it."))
        self.attached.emit(path)
        return path

    def ask(self, tokens: int, room: int) -> Choice:
        """Attach as a document, cut to fit, or keep editing (Esc)."""
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Message too long"), "", parent=self.parent_widget())
        box.setText(
            fill(
                self.tr("This message is {tokens} tokens; the model's context has room for {room}."),
                tokens=number(tokens),
                room=number(room),
            )
        )
        box.setInformativeText(
            self.tr(
                "Attach it as a document of this chat (the replies look up the parts they need), "
                "cut it to the beginning that fits, or keep editing."
            )
        )
        buttons = {}
        if self._attach is not None:
            buttons[box.addButton(self.tr("&Attach as a document"), QMessageBox.ButtonRole.AcceptRole)] = Choice.ATTACH
        buttons[box.addButton(self.tr("C&ut to fit"), QMessageBox.ButtonRole.ActionRole)] = Choice.CUT
        keep = box.addButton(self.tr("&Keep editing"), QMessageBox.ButtonRole.RejectRole)
        box.setEscapeButton(keep)
        box.setDefaultButton(keep)
        box.exec()
        clicked = box.clickedButton()
        return next((choice for button, choice in buttons.items() if button is clicked), Choice.KEEP_EDITING)

    def parent_widget(self) -> QWidget | None:
        parent = self.parent()
        return parent if isinstance(parent, QWidget) else None
