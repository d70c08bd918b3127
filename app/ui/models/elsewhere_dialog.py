"""Models other apps keep on this computer (LM Studio, Ollama, the Hugging Face cache), added in place.

Nothing is copied: the library records where each file is, so many gigabytes stay where
they are and the other app keeps working with them. A model already in the library says so.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.models.elsewhere import FoundModel
from app.core.models.links import ModelSource
from app.core.support.formatting import fill, format_bytes
from app.ui.models.columns import fit_columns
from app.ui.models.workers import LibraryWorker
from app.ui.widgets.screen_fit import resize_to_fit
from app.ui.widgets.tables import read_only_item, style_row_table

_NAME_CAP_PX = 280
_LOCATION_CAP_PX = 320


def source_label(source: ModelSource) -> str:
    """The app a model used in place belongs to, in the user's words."""
    translate = QCoreApplication.translate
    return {
        ModelSource.LM_STUDIO: translate("ModelSources", "LM Studio"),
        ModelSource.OLLAMA: translate("ModelSources", "Ollama"),
        ModelSource.HF_CACHE: translate("ModelSources", "Hugging Face cache"),
        ModelSource.GPT4ALL: translate("ModelSources", "GPT4All"),
        ModelSource.JAN: translate("ModelSources", "Jan"),
        ModelSource.FILE: translate("ModelSources", "chosen file"),
    }[source]


class ElsewhereDialog(QDialog):
    addRequested = Signal(object)  # FoundModel to add in place
    listShown = Signal(int)  # number of models found

    def __init__(self, worker: LibraryWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Models on this computer"))
        resize_to_fit(self, 860, 420)
        self.worker = worker
        self.found: list[FoundModel] = []
        self.in_library: set[Path] = set()
        # Replaceable so tests can answer without a modal file dialog.
        self.choose_file: Callable[[], Path | None] = self._ask_file

        self.intro = QLabel(
            self.tr(
                "Models that LM Studio, Ollama or the Hugging Face cache already keep here. "
                "“Add in place” uses them where they are: nothing is copied."
            ),
            self,
        )
        self.intro.setWordWrap(True)
        self.table = QTableWidget(0, 5, self)
        self.table.setHorizontalHeaderLabels(
            [self.tr("Name"), self.tr("From"), self.tr("Size"), self.tr("Location"), self.tr("In the library")]
        )
        style_row_table(self.table)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda _item: self.add_selected())
        fit_columns(self.table)
        self.status = QLabel(self)
        self.status.setWordWrap(True)

        self.add_button = QPushButton(self.tr("Add in place"), self)
        self.add_button.setToolTip(self.tr("Use the selected models where they are, without copying them"))
        self.add_button.clicked.connect(self.add_selected)
        self.file_button = QPushButton(self.tr("Choose a file…"), self)
        self.file_button.setToolTip(self.tr("Use any .gguf file where it is, without copying it"))
        self.file_button.clicked.connect(self.add_chosen_file)
        self.rescan_button = QPushButton(self.tr("Look again"), self)
        self.rescan_button.clicked.connect(self.scan)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.file_button)
        buttons.addStretch(1)
        buttons.addWidget(self.rescan_button)
        buttons.addWidget(close)
        for button in (self.add_button, self.file_button, self.rescan_button, close):
            button.setAutoDefault(False)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addLayout(buttons)
        worker.scanned.connect(self.show_found)
        self._update_buttons()

    def scan(self) -> None:
        self.status.setText(self.tr("Looking for models…"))
        self.rescan_button.setEnabled(False)
        self.worker.scanRequested.emit()

    def set_library(self, paths: set[Path]) -> None:
        """The files already in the library (resolved), so their rows say so and cannot be added twice."""
        self.in_library = paths
        if self.found:
            self.show_found(self.found)

    def show_found(self, found: list[FoundModel]) -> None:
        selected = {model.path for model in self.selected()}
        self.found = list(found)
        self.rescan_button.setEnabled(True)
        self.table.setRowCount(0)
        for model in self.found:
            row = self.table.rowCount()
            self.table.insertRow(row)
            present = model.path.resolve() in self.in_library
            cells = [
                read_only_item(model.name, model.name),
                read_only_item(source_label(model.source)),
                read_only_item(format_bytes(model.size_bytes), f"{model.size_bytes:,} bytes", align_right=True),
                read_only_item(str(model.path), str(model.path)),
                read_only_item(self.tr("yes") if present else ""),
            ]
            for column, cell in enumerate(cells):
                self.table.setItem(row, column, cell)
            if model.path in selected:
                self.table.selectRow(row)
        fit_columns(self.table, {0: _NAME_CAP_PX, 3: _LOCATION_CAP_PX})
        if not self.found:
            self.status.setText(
                self.tr("No LM Studio, Ollama or Hugging Face cache models were found on this computer.")
            )
        else:
            self.status.setText(fill(self.tr("{n} model(s) found."), n=len(self.found)))
        self._update_buttons()
        self.listShown.emit(len(self.found))

    def selected(self) -> list[FoundModel]:
        rows = sorted(index.row() for index in self.table.selectionModel().selectedRows())
        return [self.found[row] for row in rows if row < len(self.found)]

    def select(self, path: Path) -> None:
        for row, model in enumerate(self.found):
            if model.path == path:
                self.table.selectRow(row)
                return

    def add_selected(self) -> None:
        for model in self.selected():
            if model.path.resolve() not in self.in_library:
                self.addRequested.emit(model)

    def add_chosen_file(self) -> None:
        path = self.choose_file()
        if path is None:
            return
        size = path.stat().st_size if path.is_file() else 0
        self.addRequested.emit(FoundModel(path.stem, path, size, ModelSource.FILE))

    def _update_buttons(self) -> None:
        addable = [m for m in self.selected() if m.path.resolve() not in self.in_library]
        self.add_button.setEnabled(bool(addable))

    def _ask_file(self) -> Path | None:
        name, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Use a GGUF model in place"), str(Path.home()), self.tr("GGUF models (*.gguf)")
        )
        return Path(name) if name else None
