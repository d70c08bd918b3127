"""The saved servers' models in the model picker, grouped under each server after the local models.

Listing runs on the servers worker at start and whenever the Servers dialog saves or removes
one; the picker's server rows are replaced then, and the local rows and the current choice are
left alone (rebuilding them would load another model).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Slot
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox, QWidget

from app.core.backends.servers import ServerModel
from app.core.settings import Settings
from app.core.support.formatting import fill
from app.ui import message
from app.ui.servers.dialog import ServersDialog
from app.ui.servers.worker import Listed, ServersThread

SERVER_ROLE = Qt.ItemDataRole.UserRole + 1  # marks the rows this helper added


class ServerModels(QObject):
    def __init__(
        self,
        picker: QComboBox,
        read_settings: Callable[[], Settings],
        save_settings: Callable[[Settings], None],
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self._picker = picker
        self._read_settings = read_settings
        self._save_settings = save_settings
        self._window = parent
        self.servers = ServersThread()
        self.servers.worker.listed.connect(self._on_listed)
        self.models: tuple[ServerModel, ...] = ()
        self.dialog: ServersDialog | None = None

    def refresh(self) -> None:
        """List every saved server's models again (the picker changes when the answer comes)."""
        servers = self._read_settings().servers
        if servers:
            self.servers.worker.listRequested.emit(servers)
        else:
            self._on_listed(Listed((), ()))

    def picked(self) -> ServerModel | None:
        data = self._picker.currentData()
        return data if isinstance(data, ServerModel) else None

    def add_rows(self) -> None:
        """(Re)add the server rows after the local ones: a header per server, then its models."""
        for row in reversed(range(self._picker.count())):
            if self._picker.itemData(row, SERVER_ROLE):
                self._picker.removeItem(row)
        server_name = None
        for choice in self.models:
            if choice.server.name != server_name:
                server_name = choice.server.name
                self._picker.insertSeparator(self._picker.count())
                self._picker.setItemData(self._picker.count() - 1, True, SERVER_ROLE)
                self._add_header(fill(self.tr("On {server}"), server=server_name))
            self._picker.addItem(f"{choice.model.id} — {choice.server.name}", choice)
            self._picker.setItemData(self._picker.count() - 1, True, SERVER_ROLE)

    def open_dialog(self) -> None:
        if self.dialog is None:
            self.dialog = ServersDialog(self.servers, self._read_settings, self._save_settings, self._window)
            self.dialog.serversChanged.connect(self.refresh)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()

    def request_stop(self) -> None:
        self.servers.request_stop()

    def _add_header(self, text: str) -> None:
        self._picker.addItem(text)
        row = self._picker.count() - 1
        self._picker.setItemData(row, True, SERVER_ROLE)
        model = self._picker.model()
        if isinstance(model, QStandardItemModel):
            item = model.item(row)
            if item is not None:
                item.setEnabled(False)  # a group's title, not a choice

    @Slot(object)
    def _on_listed(self, listed: Listed) -> None:
        picked = self.picked()
        self.models = listed.models
        self.add_rows()
        if picked is not None:  # the server model on duty stays the one shown, where its row went
            row = next((r for r in range(self._picker.count()) if self._picker.itemData(r) == picked), -1)
            if row >= 0:
                self._picker.setCurrentIndex(row)
        for error in listed.errors:  # one notice per server that did not answer
            message.warning(error)
