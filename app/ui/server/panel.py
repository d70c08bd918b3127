"""The Server panel: start and stop the API server, the address to paste elsewhere, and every request.

The server shares the window's model through the LLM worker's model queue. With parallel
replies (the spin box, saved in the settings; "Auto": what the memory plan allows, at most 4)
the engine writes that many replies at once in parallel slots, and the window's own chat is
one of them: it waits ahead of the API requests, for the first slot that frees, and is never
refused. The count is applied when the server starts; while it runs, the panel shows what
each slot is doing. Requests are recorded by the server's threads; the panel hears of each
through a queued signal and adds a table row. Selecting a row shows what was asked and
answered (when keeping text is on).
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.chat.store import title_from_text
from app.core.server.config import DEFAULT_PORT, ServerConfig, ServerConfigError, is_loopback
from app.core.server.model_queue import ModelQueue
from app.core.server.request_log import RequestRecord
from app.core.settings import SERVING_FIELDS
from app.core.support.formatting import fill
from app.core.types.messages import ChatMessage
from app.core.types.slot_state import SlotState
from app.ui.llm.worker import LlmWorker
from app.ui.server.slot_watch import LOOK_MS, SlotWatch, describe
from app.ui.settings.store import SettingsStore
from app.ui.widgets.core_text import word
from app.ui.widgets.locale_format import time_of_day
from app.ui.widgets.theme import Tone, set_tone

if TYPE_CHECKING:
    from app.core.server.server import ApiServer

log = logging.getLogger(__name__)


class ServerPanel(QWidget):
    recorded = Signal(object)  # RequestRecord, emitted on a server thread: queued to this panel
    runningChanged = Signal(bool)
    openAsChat = Signal(str, object, str)  # title, list[ChatMessage] (the request and its reply), model
    slotsChanged = Signal(int)  # replies the model writes at once for the server now (1: no parallel slots)

    def __init__(self, worker: LlmWorker, store: SettingsStore | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._worker = worker
        self._store = store or SettingsStore(parent=self)
        self._pending: ServerConfig | None = None  # a start waiting for the worker to share the model
        worker.modelShared.connect(self._on_shared)
        self.server: ApiServer | None = None
        self._queue: ModelQueue | None = None  # the shared model's queue while the server runs
        self._records: list[RequestRecord] = []
        self._watch: SlotWatch | None = None  # asks what the slots are doing, while the server runs with slots
        self._look_timer = QTimer(self)
        self._look_timer.setInterval(LOOK_MS)
        self._look_timer.timeout.connect(self._look_at_slots)

        self.host = QLineEdit("127.0.0.1", self)
        self.host.setToolTip(self.tr("127.0.0.1: only programs on this machine; 0.0.0.0: every network (needs a key)"))
        self.host.setAccessibleName(self.tr("Address"))
        self.host.textChanged.connect(self._show_exposure)
        self.port = QSpinBox(self)
        self.port.setRange(1, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.api_key = QLineEdit(self)
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setAccessibleName(self.tr("API key"))
        self.api_key.setPlaceholderText(self.tr("none (allowed on 127.0.0.1 only)"))
        generate = QPushButton(self.tr("Generate"), self)
        generate.setToolTip(self.tr("Make a new random key"))
        generate.clicked.connect(self._generate_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.api_key, 1)
        key_row.addWidget(generate)
        self.keep_text = QCheckBox(self.tr("Keep prompts and replies in the request list"), self)
        self.cors = QLineEdit(self)
        self.cors.setPlaceholderText(self.tr("none: web pages cannot call the server"))
        self.cors.setToolTip(
            self.tr("Web pages allowed to call the server, separated by commas, e.g. http://localhost:3000")
        )
        form = QFormLayout()
        form.addRow(self.tr("&Address"), self.host)
        form.addRow(self.tr("&Port"), self.port)
        key_label = QLabel(self.tr("API &key"), self)
        key_label.setBuddy(self.api_key)  # the row's field is a layout: the label needs its buddy for Alt+K
        form.addRow(key_label, key_row)
        form.addRow(self.tr("Allowed &web origins"), self.cors)
        form.addRow("", self.keep_text)
        spec = SERVING_FIELDS["parallel"]
        self.parallel = QSpinBox(self)
        self.parallel.setRange(int(spec.minimum), int(spec.maximum))
        self.parallel.setSpecialValueText(self.tr("Auto"))  # 0: what the memory plan allows, at most 4
        self.parallel.setValue(self._store.settings.serving.parallel)
        self.parallel.setToolTip(word(spec.explanation))
        self.parallel.setAccessibleName(self.tr("Parallel replies"))
        self.parallel.valueChanged.connect(self._on_parallel_changed)
        form.addRow(self.tr("Parallel &replies"), self.parallel)

        self.start_button = QPushButton(self.tr("&Start server"), self)
        self.start_button.clicked.connect(self.toggle)
        self.copy_button = QPushButton(self.tr("Copy base URL"), self)
        self.copy_button.clicked.connect(self._copy_url)
        self.copy_button.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        self.status = QLabel(self.tr("Stopped. Other programs can use the loaded model once the server runs."), self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.warning = QLabel(self)
        self.warning.setWordWrap(True)
        set_tone(self.warning, Tone.WARNING)
        self.warning.hide()
        self.slots_view = QLabel(self)  # one line per parallel slot: what it is doing now
        self.slots_view.setAccessibleName(self.tr("Slots"))
        self.slots_view.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.slots_view.hide()

        headers = [
            self.tr("time"), self.tr("client"), self.tr("endpoint"), self.tr("model"), self.tr("prompt"),
            self.tr("cached"), self.tr("completion"), self.tr("first token"), self.tr("tok/s"), self.tr("status"),
            self.tr("slot"), self.tr("waited"),
        ]  # fmt: skip
        self.table = QTableWidget(0, len(headers), self)
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAccessibleName(self.tr("Requests"))
        self.table.verticalHeader().hide()
        self.table.currentCellChanged.connect(lambda row, *_: self._show_details(row))
        self.details = QPlainTextEdit(self)
        self.details.setAccessibleName(self.tr("Request details"))
        self.details.setReadOnly(True)
        self.details.setPlaceholderText(self.tr("Select a request to see it"))
        self.details.setMaximumHeight(160)
        self.details.setAccessibleName(self.tr("Request details"))
        self.open_chat_button = QPushButton(self.tr("&Open as chat"), self)
        self.open_chat_button.setToolTip(self.tr("Continue this request's conversation in a new chat"))
        self.open_chat_button.setEnabled(False)
        self.open_chat_button.clicked.connect(self._open_as_chat)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.warning)
        layout.addWidget(self.slots_view)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.open_chat_button, 0, Qt.AlignmentFlag.AlignRight)
        self.recorded.connect(self._add_record)

    # ---- start and stop ------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @Slot()
    def toggle(self) -> None:
        if self.running:
            self.stop()
        else:
            self.start()

    def start(self) -> None:
        """Check the settings, then have the LLM worker share the model (between its jobs) and serve it."""
        config = ServerConfig(
            host=self.host.text().strip(),
            port=self.port.value(),
            api_key=self.api_key.text().strip() or None,
            log_text=self.keep_text.isChecked(),
            cors_origins=tuple(origin.strip() for origin in self.cors.text().split(",") if origin.strip()),
        )
        try:
            config.check()
        except ServerConfigError as error:
            self.status.setText(fill(self.tr("Not started: {error}"), error=word(error)))
            return
        self._pending = config
        self.start_button.setEnabled(False)
        self.status.setText(self.tr("Starting…"))
        self._worker.shareRequested.emit(self.parallel.value())

    @Slot(object)
    def _on_shared(self, queue: ModelQueue) -> None:
        config, self._pending = self._pending, None
        self.start_button.setEnabled(True)
        if config is None:
            return
        from app.core.server.server import ApiServer, ServerStartError  # FastAPI: half a second, when first started

        try:
            server = ApiServer(config, queue)
            server.request_log.add_listener(self.recorded.emit)
            server.start()
        except ServerStartError as error:
            self.status.setText(fill(self.tr("Not started: {error}"), error=word(error)))
            self._worker.unshareRequested.emit()
            return
        self.server, self._queue = server, queue
        if queue.slots > 1:
            self._watch = SlotWatch()
            self._watch.looker.seen.connect(self._show_slots)
            self._look_timer.start()
        self._show_running()
        self.slotsChanged.emit(queue.slots)

    def stop(self) -> None:
        """Stops every API reply at its next token and joins the server's thread (a few seconds at most); the
        model's slots close, so the window's chat is back in its own context."""
        server, self.server, self._queue = self.server, None, None
        self._look_timer.stop()
        watch, self._watch = self._watch, None
        if watch is not None:
            watch.close()
        self.slots_view.hide()
        if server is not None:
            server.stop()
            self._worker.unshareRequested.emit()
            self.slotsChanged.emit(1)
        self._show_running()

    @Slot(int)
    def _on_parallel_changed(self, value: int) -> None:
        self._store.set_serving({"parallel": value})
        if self.running:
            self.status.setText(
                self.tr("Parallel replies: applied when the server starts next (stop it and start it again).")
            )

    def _look_at_slots(self) -> None:
        queue, watch = self._queue, self._watch
        if queue is not None and watch is not None:
            watch.look(queue.backend)

    @Slot(object)
    def _show_slots(self, states: tuple[SlotState, ...]) -> None:
        if self._watch is not None:
            self._watch.answered()
        if not self.running or not states:
            return
        self.slots_view.setText("\n".join(describe(state) for state in states))
        self.slots_view.show()

    def _show_running(self) -> None:
        running = self.running
        for field in (self.host, self.port, self.api_key, self.keep_text, self.cors):
            field.setEnabled(not running)
        self.copy_button.setEnabled(running)
        self.start_button.setText(self.tr("&Stop server") if running else self.tr("&Start server"))
        if running and self.server is not None:
            self.status.setText(
                fill(
                    self.tr("Running. Base URL for other programs: {url}"),
                    url=self.server.base_url,
                )
                + "\n"
                + self._slots_text()
            )
        elif not running:
            self.status.setText(self.tr("Stopped."))
        self._show_exposure()
        self.runningChanged.emit(running)

    def _slots_text(self) -> str:
        queue = self._queue
        if queue is None or queue.slots <= 1:
            return self.tr("The model writes one reply at a time; the window's chat takes its turn first.")
        return fill(
            self.tr(
                "The model writes {count} replies at once, {each} tokens of context each; "
                "the window's chat is one of them and takes the first free slot."
            ),
            count=str(queue.slots),
            each=str(queue.backend.slot_ctx),
        )

    def _show_exposure(self) -> None:
        host = self.host.text().strip()
        exposed = bool(host) and not is_loopback(host)
        self.warning.setVisible(exposed)
        if exposed:
            self.warning.setText(
                self.tr(
                    "Listening on this address lets other machines use the model: an API key is required, "
                    "and anyone with the key can use it."
                )
            )

    # ---- requests ------------------------------------------------------------------

    @Slot(object)
    def _add_record(self, record: RequestRecord) -> None:
        self._records.append(record)
        row = self.table.rowCount()
        self.table.insertRow(row)
        ttft = record.time_to_first_token_s
        speed = record.tokens_per_s
        cells = (
            time_of_day(record.started_at),
            record.client,
            f"{record.method} {record.endpoint}",
            record.model,
            str(record.prompt_tokens),
            str(record.cached_tokens),
            str(record.completion_tokens),
            f"{ttft * 1000:.0f} ms" if ttft is not None else "–",
            f"{speed:.1f}" if speed is not None else "–",
            str(record.status),
            str(record.slot) if record.slot is not None else "–",
            f"{record.queued_s * 1000:.0f} ms",
        )
        for column, text in enumerate(cells):
            self.table.setItem(row, column, QTableWidgetItem(text))

    def _selected(self) -> RequestRecord | None:
        row = self.table.currentRow()
        return self._records[row] if 0 <= row < len(self._records) else None

    def _show_details(self, row: int) -> None:
        record = self._records[row] if 0 <= row < len(self._records) else None
        self.open_chat_button.setEnabled(record is not None and bool(_transcript(record)))
        if record is None:
            self.details.clear()
            return
        lines = [f"{record.method} {record.endpoint} → {record.status} {record.error}".rstrip()]
        lines += [f"{message.role}: {message.content}" for message in record.messages]
        if record.prompt:
            lines.append(record.prompt)
        if record.reply:
            lines.append(fill(self.tr("reply: {text}"), text=record.reply))
        if not (record.messages or record.prompt or record.reply):
            lines.append(self.tr("(the text is kept only while “Keep prompts and replies” is on)"))
        self.details.setPlainText("\n".join(lines))

    def _open_as_chat(self) -> None:
        record = self._selected()
        messages = _transcript(record) if record is not None else []
        if record is None or not messages:
            return
        first_user = next((m.content for m in messages if m.role == "user"), "")
        title = title_from_text(first_user) if first_user else fill(self.tr("API request {id}"), id=record.id)
        self.openAsChat.emit(title, messages, record.model)

    def _generate_key(self) -> None:
        self.api_key.setText(secrets.token_urlsafe(24))
        self.api_key.setEchoMode(QLineEdit.EchoMode.Normal)

    def _copy_url(self) -> None:
        if self.server is not None:
            QGuiApplication.clipboard().setText(self.server.base_url)


def _transcript(record: RequestRecord) -> list[ChatMessage]:
    """The request's conversation and its reply as chat messages; empty when the text was not kept."""
    messages = list(record.messages)
    if record.prompt:
        messages.append(ChatMessage("user", record.prompt))
    if messages and record.reply:
        messages.append(ChatMessage("assistant", record.reply))
    return messages
