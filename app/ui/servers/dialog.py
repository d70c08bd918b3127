"""Tools → Servers…: add, test and remove OpenAI-compatible servers; their models join the model picker.

The entries go to the settings through their one owner (passed in as two callables); API keys
go to the system keyring only. Testing runs on the servers worker, never on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.backends.remote import TokenizeRoute
from app.core.backends.servers import (
    DEFAULT_TIMEOUT_S,
    MAX_TIMEOUT_S,
    MIN_TIMEOUT_S,
    SavedServer,
    ServerError,
    ServerKeys,
    new_server,
)
from app.core.settings import Settings
from app.core.support.formatting import fill
from app.ui.servers.worker import ServersThread, Tested, TestRequest
from app.ui.widgets.screen_fit import resize_to_fit


class ServersDialog(QDialog):
    serversChanged = Signal()  # saved or removed: the picker lists the models again

    def __init__(
        self,
        servers: ServersThread,
        read_settings: Callable[[], Settings],
        save_settings: Callable[[Settings], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Servers"))
        resize_to_fit(self, 760, 420)
        self._worker = servers.worker
        self._read_settings = read_settings
        self._save_settings = save_settings
        self._keys = ServerKeys()
        self._pending: TestRequest | None = None

        self.list = QListWidget(self)
        self.list.setAccessibleName(self.tr("Saved servers"))
        self.list.currentItemChanged.connect(self._show_selected)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. team GPU"))
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("http://gpu-box:8000")
        self.api_key = QLineEdit(self)
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.timeout = QDoubleSpinBox(self)
        self.timeout.setRange(MIN_TIMEOUT_S, MAX_TIMEOUT_S)
        self.timeout.setSuffix(self.tr(" s"))
        self.timeout.setValue(DEFAULT_TIMEOUT_S)
        self.ca_file = QLineEdit(self)
        self.ca_file.setAccessibleName(self.tr("CA file"))
        self.ca_file.setPlaceholderText(self.tr("none: the system's certificate authorities"))
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse_ca_file)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_file, 1)
        ca_row.addWidget(browse)

        form = QFormLayout()
        form.addRow(self.tr("&Name"), self.name)
        form.addRow(self.tr("&Address"), self.url)
        form.addRow(self.tr("API &key"), self.api_key)
        form.addRow(self.tr("&Timeout"), self.timeout)
        ca_label = QLabel(self.tr("CA &file"), self)
        ca_label.setBuddy(self.ca_file)  # the row's field is a layout: the label needs its buddy for Alt+F
        form.addRow(ca_label, ca_row)

        self.test_button = QPushButton(self.tr("&Test connection"), self)
        self.test_button.clicked.connect(self.test)
        self.save_button = QPushButton(self.tr("&Save"), self)
        self.save_button.clicked.connect(self.save)
        self.remove_button = QPushButton(self.tr("&Remove"), self)
        self.remove_button.clicked.connect(self.remove)
        new_button = QPushButton(self.tr("&New"), self)
        new_button.clicked.connect(self._clear_form)
        actions = QHBoxLayout()
        for button in (new_button, self.test_button, self.save_button, self.remove_button):
            actions.addWidget(button)
        actions.addStretch(1)

        self.outcome = QLabel(self)
        self.outcome.setWordWrap(True)
        self.outcome.setTextFormat(Qt.TextFormat.PlainText)
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        right = QVBoxLayout()
        right.addLayout(form)
        right.addLayout(actions)
        right.addWidget(self.outcome, 1)
        body = QHBoxLayout()
        body.addWidget(self.list, 2)
        body.addLayout(right, 3)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(close)

        self._worker.tested.connect(self._on_tested)
        self._fill_list()

    # ---- actions -------------------------------------------------------------------

    @Slot()
    def test(self) -> None:
        """Probe the server in the form (with the key typed, else the saved one)."""
        server = self._form_server()
        if server is None:
            return
        self._pending = TestRequest(server, self.api_key.text().strip() or None)
        self.test_button.setEnabled(False)
        self.outcome.setText(fill(self.tr("Connecting to {url}…"), url=server.url))
        self._worker.testRequested.emit(self._pending)

    @Slot()
    def save(self) -> None:
        server = self._form_server()
        if server is None:
            return
        settings = self._read_settings()
        saved = settings.server(server.name)
        if saved is not None and saved.url == server.url:  # keep what its last test found
            server = server.with_probe_of(saved)
        try:
            if self.api_key.text().strip():
                self._keys.set(server, self.api_key.text())
        except ServerError as error:
            self.outcome.setText(str(error))
            return
        self._save_settings(settings.with_server(server))
        self.api_key.clear()
        self.outcome.setText(fill(self.tr("Saved {name}. Its models are in the model picker."), name=server.name))
        self._fill_list(select=server.name)
        self.serversChanged.emit()

    @Slot()
    def remove(self) -> None:
        item = self.list.currentItem()
        if item is None:
            return
        settings = self._read_settings()
        server = settings.server(item.data(Qt.ItemDataRole.UserRole))
        if server is None:
            return
        try:
            self._keys.delete(server)
        except ServerError as error:
            self.outcome.setText(str(error))
            return
        self._save_settings(settings.without_server(server.name))
        self.outcome.setText(fill(self.tr("Removed {name} and its key."), name=server.name))
        self._fill_list()
        self._clear_form()
        self.serversChanged.emit()

    # ---- the form ------------------------------------------------------------------

    def _form_server(self) -> SavedServer | None:
        try:
            return new_server(self.name.text(), self.url.text(), self.timeout.value(), self.ca_file.text().strip())
        except ServerError as error:
            self.outcome.setText(str(error))
            return None

    @Slot(object)
    def _on_tested(self, tested: Tested) -> None:
        if tested.request is not self._pending:
            return
        self._pending = None
        self.test_button.setEnabled(True)
        if tested.found is None:
            self.outcome.setText(fill(self.tr("The test failed: {error}"), error=tested.error))
            return
        found = tested.found
        if found.tokenize is TokenizeRoute.NONE:
            counts = self.tr("estimated (this server does not count tokens for others)")
        else:
            counts = self.tr("exact, with the server's tokenizer")
        self.outcome.setText(
            fill(self.tr("Connected. {found}\nToken counts: {counts}."), found=found.describe(), counts=counts)
        )
        settings = self._read_settings()
        saved = settings.server(tested.request.server.name)
        if saved is not None and saved.url == tested.request.server.url:
            self._save_settings(settings.with_server(saved.with_probe(found)))
            self._fill_list(select=saved.name)
            self.serversChanged.emit()  # what the test found (token counts, sampling fields) reaches the picker

    def _fill_list(self, select: str | None = None) -> None:
        self.list.clear()
        for server in self._read_settings().servers:
            kind = server.kind or self.tr("not tested")
            item = QListWidgetItem(f"{server.name} — {server.url} ({kind})", self.list)
            item.setData(Qt.ItemDataRole.UserRole, server.name)
            if server.name == select:
                self.list.setCurrentItem(item)
        self.remove_button.setEnabled(self.list.count() > 0)

    def _show_selected(self, item: QListWidgetItem | None) -> None:
        server = self._read_settings().server(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None
        if server is None:
            return
        self.name.setText(server.name)
        self.url.setText(server.url)
        self.timeout.setValue(server.timeout_s)
        self.ca_file.setText(server.ca_file)
        self.api_key.clear()
        has_key = self._keys.get(server) is not None
        self.api_key.setPlaceholderText(self.tr("saved in the system keyring") if has_key else self.tr("none"))

    def _clear_form(self) -> None:
        for field in (self.name, self.url, self.api_key, self.ca_file):
            field.clear()
        self.api_key.setPlaceholderText(self.tr("none"))
        self.timeout.setValue(DEFAULT_TIMEOUT_S)
        self.list.clearSelection()
        self.name.setFocus()

    def _browse_ca_file(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Certificate authority"), "", self.tr("Certificates (*.pem *.crt);;All files (*)")
        )
        if path:
            self.ca_file.setText(path)
