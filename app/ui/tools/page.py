"""Tools → MCP servers…: add, edit, remove, start, stop and test the servers of mcp.json, and read their tools.

mcp.json has one owner, `McpConfig`; this page reads it, changes one server and writes it back,
then hands the new list to the worker. Values of `env` and `headers` live in the keyring: the
form shows each saved one as `KEPT` and keeps it unless another value is typed. Starting,
stopping and testing run on the MCP worker; each server's state (stopped, starting, running,
failed and why) and its tools come back as statuses. Below, the tools the user always allows, each to be
taken back (always_allowed.py).
"""

from __future__ import annotations

import html
import json
import shlex
from pathlib import Path

from PySide6.QtCore import Qt, SignalInstance, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.support.formatting import fill
from app.core.tools.config import McpConfig, McpServer, server_from_entry
from app.core.tools.errors import McpError
from app.core.tools.import_sources import import_servers, import_sources
from app.core.tools.manager import ServerState, ServerStatus
from app.ui.settings.store import SettingsStore
from app.ui.tools.always_allowed import AlwaysAllowedTools
from app.ui.tools.worker import McpThread
from app.ui.widgets.screen_fit import resize_to_fit

KEPT = "••••••"  # a saved env or header value, shown masked; left as it is, the saved value is kept
NAME_ROLE = Qt.ItemDataRole.UserRole


class McpServersPage(QDialog):
    def __init__(
        self,
        mcp: McpThread,
        config: McpConfig | None = None,
        parent: QWidget | None = None,
        store: SettingsStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("MCP servers"))
        resize_to_fit(self, 900, 560)
        self._mcp = mcp
        self._worker = mcp.worker
        self._config = config or McpConfig()
        self._statuses: dict[str, ServerStatus] = {}
        self._servers: list[McpServer] = []
        self._editing: McpServer | None = None

        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Configured MCP servers"))
        self.list.currentItemChanged.connect(self._show_selected)

        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. time"))
        self.command = QLineEdit(self)
        self.command.setPlaceholderText(self.tr("e.g. uvx mcp-server-time --local-timezone UTC"))
        self.url = QLineEdit(self)
        self.url.setPlaceholderText(self.tr("or the address of a streamable-HTTP server: https://…/mcp"))
        self.env = QPlainTextEdit(self)
        self.env.setPlaceholderText(self.tr("NAME=value, one a line (kept in the system keyring)"))
        self.env.setMaximumHeight(70)
        self.headers = QPlainTextEdit(self)
        self.headers.setPlaceholderText(self.tr("Name: value, one a line (kept in the system keyring)"))
        self.headers.setMaximumHeight(70)
        form = QFormLayout()
        form.addRow(self.tr("&Name"), self.name)
        form.addRow(self.tr("&Command"), self.command)
        form.addRow(self.tr("&Environment"), self.env)
        form.addRow(self.tr("&Address"), self.url)
        form.addRow(self.tr("&Headers"), self.headers)

        new_button = QPushButton(self.tr("&New"), self)
        new_button.clicked.connect(self._clear_form)
        self.save_button = QPushButton(self.tr("&Save"), self)
        self.save_button.clicked.connect(self.save)
        self.remove_button = QPushButton(self.tr("&Remove"), self)
        self.remove_button.clicked.connect(self.remove)
        self.start_button = QPushButton(self.tr("S&tart"), self)
        self.start_button.clicked.connect(lambda: self._ask(self._worker.startRequested))
        self.stop_button = QPushButton(self.tr("St&op"), self)
        self.stop_button.clicked.connect(self._stop_selected)
        self.test_button = QPushButton(self.tr("T&est"), self)
        self.test_button.setToolTip(self.tr("Start the server and list its tools"))
        self.test_button.clicked.connect(lambda: self._ask(self._worker.testRequested))
        self.import_button = QPushButton(self.tr("&Import from…"), self)
        self.import_menu = QMenu(self)
        for source in import_sources():
            action = self.import_menu.addAction(source.app)
            action.setToolTip(str(source.path))
            action.triggered.connect(lambda _checked=False, path=source.path: self.import_from(path))
        self.import_menu.addAction(self.tr("Another file…"), self._import_other)
        self.import_button.setMenu(self.import_menu)
        actions = QHBoxLayout()
        for button in (
            new_button,
            self.save_button,
            self.remove_button,
            self.start_button,
            self.stop_button,
            self.test_button,
            self.import_button,
        ):
            actions.addWidget(button)
        actions.addStretch(1)

        self.state = QLabel(self)
        self.state.setWordWrap(True)
        self.state.setTextFormat(Qt.TextFormat.PlainText)
        self.state.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.tools = QTreeWidget(self)
        self.tools.setHeaderLabels([self.tr("Tool"), self.tr("Description")])
        self.tools.setAccessibleName(self.tr("The server's tools"))
        self.tools.setRootIsDecorated(False)
        self.tools.currentItemChanged.connect(self._show_schema)
        self.schema = QPlainTextEdit(self)
        self.schema.setReadOnly(True)
        self.schema.setAccessibleName(self.tr("The tool's input schema"))
        self.schema.setPlaceholderText(self.tr("The arguments the selected tool takes (its JSON schema)"))
        self.outcome = QLabel(self)
        self.outcome.setWordWrap(True)
        self.outcome.setTextFormat(Qt.TextFormat.PlainText)
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        right = QVBoxLayout()
        right.addLayout(form)
        right.addLayout(actions)
        right.addWidget(self.state)
        right.addWidget(self.tools, 2)
        right.addWidget(self.schema, 1)
        right.addWidget(self.outcome)
        self.always_allowed = AlwaysAllowedTools(store, self) if store is not None else None
        if self.always_allowed is not None:
            right.addWidget(self.always_allowed, 1)
        body = QHBoxLayout()
        body.addWidget(self.list, 1)
        body.addLayout(right, 3)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(close)

        self._worker.statusChanged.connect(self._on_status)
        self._worker.failed.connect(self._on_failed)
        self.reload()

    # ---- mcp.json ------------------------------------------------------------------------

    def reload(self, select: str | None = None) -> None:
        """Read mcp.json again and hand its servers to the worker; a file that cannot be read is said."""
        try:
            self._servers = self._config.load()
        except McpError as error:
            self._servers = []
            self.outcome.setText(fill(self.tr("mcp.json was not changed: {error}"), error=error))
            self.save_button.setEnabled(False)
            self.import_button.setEnabled(False)
        else:
            self.save_button.setEnabled(True)
            self.import_button.setEnabled(True)
        self._worker.configureRequested.emit(tuple(self._servers))
        self._fill_list(select)

    @Slot()
    def save(self) -> None:
        server = self._form_server()
        if server is None:
            return
        others = [
            s for s in self._servers if s.name not in (server.name, self._editing.name if self._editing else None)
        ]
        if self._editing is None and any(s.name == server.name for s in self._servers):
            self.outcome.setText(fill(self.tr("A server named {name} is configured already."), name=server.name))
            return
        if self._write([*others, server]):
            self.outcome.setText(fill(self.tr("Saved {name}."), name=server.name))
            self.reload(select=server.name)

    @Slot()
    def remove(self) -> None:
        name = self._selected()
        if name is None:
            return
        if self._write([s for s in self._servers if s.name != name]):
            self.outcome.setText(fill(self.tr("Removed {name}; its secrets left the keyring."), name=name))
            self._clear_form()
            self.reload()

    def import_from(self, path: Path) -> None:
        try:
            imported = import_servers(path, self._servers)
        except McpError as error:
            self.outcome.setText(fill(self.tr("Nothing was imported: {error}"), error=error))
            return
        if imported.servers and not self._write([*self._servers, *imported.servers]):
            return
        names = ", ".join(server.name for server in imported.servers) or self.tr("none")
        lines = [fill(self.tr("Imported from {file}: {names}."), file=str(path), names=names), *imported.notes]
        self.outcome.setText("\n".join(lines))
        self.reload()

    def _import_other(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, self.tr("Import MCP servers"), "", "JSON (*.json)")
        if path:
            self.import_from(Path(path))

    def _write(self, servers: list[McpServer]) -> bool:
        try:
            self._config.save(servers)
        except McpError as error:
            self.outcome.setText(str(error))
            return False
        return True

    # ---- the form ------------------------------------------------------------------------

    def _form_server(self) -> McpServer | None:
        name = self.name.text().strip()
        url = self.url.text().strip()
        command_line = self.command.text().strip()
        kept = self._editing
        try:
            if url and command_line:
                raise McpError(self.tr("A server has a command or an address, not both."))
            if url:
                entry: dict[str, object] = {"url": url, "headers": self._pairs(self.headers, ":", kept, "headers")}
            else:
                try:
                    words = shlex.split(command_line)
                except ValueError as error:
                    raise McpError(fill(self.tr("The command cannot be read: {error}"), error=error)) from error
                entry = {
                    "command": words[0] if words else "",
                    "args": words[1:],
                    "env": self._pairs(self.env, "=", kept, "env"),
                }
            if kept is not None:
                entry.update({key: json.loads(value) for key, value in kept.extra})
            return server_from_entry(name, entry)
        except McpError as error:
            self.outcome.setText(str(error))
            return None

    def _pairs(self, field: QPlainTextEdit, separator: str, kept: McpServer | None, key: str) -> dict[str, str]:
        saved = dict(getattr(kept, key)) if kept is not None else {}
        pairs: dict[str, str] = {}
        for number, line in enumerate(field.toPlainText().splitlines(), start=1):
            if not line.strip():
                continue
            name, found, value = line.partition(separator)
            if not found or not name.strip():
                raise McpError(
                    fill(self.tr("Line {number} is not {form}."), number=number, form=f"NAME{separator}value")
                )
            value = value.strip()
            pairs[name.strip()] = saved.get(name.strip(), "") if value == KEPT else value
        return pairs

    def _show_selected(self, item: QListWidgetItem | None) -> None:
        name = item.data(NAME_ROLE) if item is not None else None
        server = next((s for s in self._servers if s.name == name), None)
        self._editing = server
        if server is None:
            self._show_status(None)
            return
        self.name.setText(server.name)
        self.command.setText(shlex.join([server.command, *server.args]) if server.command else "")
        self.url.setText(server.url)
        self.env.setPlainText("\n".join(f"{key}={KEPT}" for key, _value in server.env))
        self.headers.setPlainText("\n".join(f"{key}: {KEPT}" for key, _value in server.headers))
        self._show_status(self._statuses.get(server.name))

    def _clear_form(self) -> None:
        for field in (self.name, self.command, self.url):
            field.clear()
        self.env.clear()
        self.headers.clear()
        self._editing = None
        self.list.clearSelection()
        self.list.setCurrentRow(-1)
        self.name.setFocus()

    # ---- states and tools --------------------------------------------------------------

    def _ask(self, request: SignalInstance) -> None:
        name = self._selected()
        if name is None:
            self.outcome.setText(self.tr("Save the server first, then select it."))
            return
        self.outcome.clear()
        request.emit(name)

    @Slot()
    def _stop_selected(self) -> None:
        name = self._selected()
        if name is not None:
            self._mcp.stop_server(name)

    @Slot(object)
    def _on_status(self, status: ServerStatus) -> None:
        self._statuses[status.name] = status
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(NAME_ROLE) == status.name:
                self._label(item, status)
        if status.name == self._selected():
            self._show_status(status)

    @Slot(str, str)
    def _on_failed(self, name: str, error: str) -> None:
        if name == self._selected():
            self.outcome.setText(error)

    def _show_status(self, status: ServerStatus | None) -> None:
        self.tools.clear()
        self.schema.clear()
        if status is None:
            self.state.clear()
            return
        text = self._state_text(status.state)
        if status.state is ServerState.FAILED:
            text = fill(self.tr("{state}: {reason}"), state=text, reason=status.reason)
        elif status.state is ServerState.RUNNING:
            text = fill(self.tr("{state}, %n tool(s)", "", len(status.tools)), state=text)
        self.state.setText(text)
        for tool in status.tools:
            description = tool.description.strip().splitlines()[0] if tool.description.strip() else ""
            if not tool.usable:
                description = fill(self.tr("cannot be called: {problem}"), problem=tool.problem)
            row = QTreeWidgetItem(self.tools, [tool.name, description])
            row.setToolTip(1, plain_tip(tool.description))
            row.setData(0, NAME_ROLE, json.dumps(tool.input_schema, indent=2, ensure_ascii=False))

    def _show_schema(self, item: QTreeWidgetItem | None) -> None:
        self.schema.setPlainText(item.data(0, NAME_ROLE) if item is not None else "")

    def _state_text(self, state: ServerState) -> str:
        return {
            ServerState.STOPPED: self.tr("stopped"),
            ServerState.STARTING: self.tr("starting…"),
            ServerState.RUNNING: self.tr("running"),
            ServerState.FAILED: self.tr("failed"),
        }[state]

    def _label(self, item: QListWidgetItem, status: ServerStatus) -> None:
        item.setText(fill(self.tr("{name} — {state}"), name=status.name, state=self._state_text(status.state)))
        item.setToolTip(plain_tip(status.reason))

    def _fill_list(self, select: str | None) -> None:
        self.list.clear()
        for server in self._servers:
            item = QListWidgetItem(self.list)
            item.setData(NAME_ROLE, server.name)
            self._label(item, self._statuses.get(server.name, ServerStatus(server.name, ServerState.STOPPED)))
            if server.name == select:
                self.list.setCurrentItem(item)
        self.remove_button.setEnabled(self.list.count() > 0)

    def _selected(self) -> str | None:
        item = self.list.currentItem()
        return item.data(NAME_ROLE) if item is not None else None


def plain_tip(text: str) -> str:
    """A server's words as a tooltip, shown as they are: Qt would read text that looks like HTML as rich text."""
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>" if text else ""
