"""The Library tab: installed models with their metadata and hash status; load, edit the load settings, verify,
delete, reveal, import.

Import by the button's file dialog or by dropping .gguf files on the page; a file the library
already has (the same SHA-256) is not copied again. "Find on this computer…" offers the models
LM Studio, Ollama and the Hugging Face cache keep, to use in place. Hashing and file work
happen on the library worker's thread; a progress bar with Cancel shows while they run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.models.elsewhere import FoundModel
from app.core.models.gguf_summary import format_parameters
from app.core.models.hashing import VerifyResult, VerifyState
from app.core.models.importing import AlreadyInLibrary
from app.core.models.library import InstalledModel, LibraryEntry
from app.core.models.links import Missing, ModelSource
from app.core.support.formatting import fill, format_bytes
from app.ui.models.columns import fit_columns
from app.ui.models.elsewhere_dialog import ElsewhereDialog, source_label
from app.ui.models.vision_mark import vision_mark, vision_tooltip
from app.ui.models.workers import LibraryWorker
from app.ui.widgets import core_text
from app.ui.widgets.tables import read_only_item, style_row_table
from app.ui.widgets.theme import colours

_NAME_CAP_PX = 260
_LOCATION_CAP_PX = 260


class LibraryPage(QWidget):
    modelAdded = Signal(object)  # Path of an imported model (copied in or added in place)
    modelRemoved = Signal(object)  # Path of a deleted model
    loadRequested = Signal(object)  # Path of the model to load in the main window
    loadSettingsRequested = Signal(object)  # Path of the model whose own load settings the user wants to edit
    problem = Signal(str, object)  # (what failed, message (str)): a failure to show (mismatch, refused delete...)
    succeeded = Signal(str)  # what just worked ("import", "verify", "library"...): its old failures are stale
    notice = Signal(object)  # (str) news that is not a failure (the file was already in the library)
    verifyFinished = Signal(object)  # VerifyResult

    def __init__(self, worker: LibraryWorker, models_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self.models_dir = models_dir
        self.entries: list[LibraryEntry] = []
        self._busy = False
        # Replaceable so tests can answer without a modal dialog.
        self.confirm_delete: Callable[[InstalledModel], bool] = self._ask_delete
        self.choose_files: Callable[[], list[Path]] = self._ask_files
        self.open_folder: Callable[[Path], object] = lambda folder: QDesktopServices.openUrl(
            QUrl.fromLocalFile(str(folder))
        )
        self.setAcceptDrops(True)

        self.elsewhere: ElsewhereDialog | None = None
        headers = [
            self.tr("Name"),
            self.tr("Architecture"),
            self.tr("Parameters"),
            self.tr("Quantization"),
            self.tr("Size"),
            self.tr("Context"),
            self.tr("Hash"),
            self.tr("Location"),
        ]
        self.table = QTableWidget(0, len(headers), self)
        self.table.setAccessibleName(self.tr("Installed models"))
        self.table.setHorizontalHeaderLabels(headers)
        style_row_table(self.table)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        fit_columns(self.table)
        self.table.itemSelectionChanged.connect(self._on_selection_changed)
        self.table.itemDoubleClicked.connect(lambda _item: self.load_selected())

        self.load_button = QPushButton(self.tr("Load"), self)
        self.load_button.setToolTip(self.tr("Load the selected model in the main window"))
        self.load_button.clicked.connect(self.load_selected)

        self.settings_button = QPushButton(self.tr("Load settings…"), self)
        self.settings_button.setToolTip(
            self.tr("This model's own load settings: context length, GPU layers, KV cache, chat template…")
        )
        self.settings_button.clicked.connect(self.edit_selected_settings)
        self.settings_action = QAction(self.tr("Edit load settings…"), self.table)
        self.settings_action.triggered.connect(self.edit_selected_settings)
        self.table.addAction(self.settings_action)  # the table's context menu
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

        self.verify_button = QPushButton(self.tr("Verify"), self)
        self.verify_button.setToolTip(self.tr("Hash the file again and compare with its recorded SHA-256"))
        self.verify_button.clicked.connect(self.verify_selected)
        self.delete_button = QPushButton(self.tr("Delete…"), self)
        self.delete_button.clicked.connect(self.delete_selected)
        self.reveal_button = QPushButton(self.tr("Show in folder"), self)
        self.reveal_button.clicked.connect(self.reveal_selected)
        self.import_button = QPushButton(self.tr("Import…"), self)
        self.import_button.setToolTip(self.tr("Copy .gguf files into the library (you can also drop them here)"))
        self.import_button.clicked.connect(self.import_chosen)
        self.find_button = QPushButton(self.tr("Find on this computer…"), self)
        self.find_button.setToolTip(
            self.tr("Use models LM Studio, Ollama or the Hugging Face cache already keep, without copying them")
        )
        self.find_button.clicked.connect(self.open_elsewhere)
        buttons = QHBoxLayout()
        for button in (
            self.load_button,
            self.settings_button,
            self.verify_button,
            self.delete_button,
            self.reveal_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.find_button)
        buttons.addWidget(self.import_button)

        self.status = QLabel(self.tr("Drop .gguf files here to import them."), self)
        self._loading: str | None = None  # the model this view asked the main window to load, until it ends
        self.status.setWordWrap(True)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 1000)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.clicked.connect(self.worker.cancel.set)
        busy = QHBoxLayout()
        busy.addWidget(self.status, 1)
        busy.addWidget(self.progress)
        busy.addWidget(self.cancel_button)
        self._set_busy(False)

        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addLayout(busy)

        worker.refreshed.connect(self.show_entries)
        worker.progress.connect(self._on_progress)
        worker.verified.connect(self._on_verified)
        worker.imported.connect(self._on_imported)
        worker.alreadyInLibrary.connect(self._on_already_in_library)
        worker.deleted.connect(self._on_deleted)
        worker.failed.connect(self._on_failed)
        self._update_buttons()

    # ---- listing ------------------------------------------------------------------

    def refresh(self) -> None:
        self.worker.refreshRequested.emit(self.models_dir)

    def show_entries(self, entries: list[LibraryEntry]) -> None:
        selected = self.selected_model()
        self.entries = list(entries)
        self.table.setRowCount(0)
        for entry in self.entries:
            row = self.table.rowCount()
            self.table.insertRow(row)
            for column, (text, tooltip) in enumerate(self._cells(entry)):
                item = read_only_item(text, tooltip)
                if entry.model.missing is not None:
                    item.setForeground(colours().qcolor("fit_none"))
                self.table.setItem(row, column, item)
            if selected is not None and entry.model.path == selected.path:
                self.table.selectRow(row)
        fit_columns(self.table, {0: _NAME_CAP_PX, self.table.columnCount() - 1: _LOCATION_CAP_PX})
        if self.elsewhere is not None:
            self.elsewhere.set_library(self._library_files())
        self.succeeded.emit("library")
        self._update_buttons()

    def _library_files(self) -> set[Path]:
        return {entry.model.path.resolve() for entry in self.entries}

    def missing_text(self, model: InstalledModel) -> str:
        """Why a model used in place cannot be used now, and what to do, in a sentence."""
        if model.missing is Missing.UNREADABLE:
            text = self.tr(
                "{path} is there but cannot be read (its permissions, or a disk that is not mounted). "
                "Make it readable, or remove the model from the library."
            )
        elif model.source not in (None, ModelSource.FILE):  # another app's folder
            text = self.tr(
                "{path} is no longer there: it was moved or deleted (in {app}, perhaps). "
                "Put it back, or remove the model from the library."
            )
        else:
            text = self.tr(
                "{path} is no longer there: it was moved or deleted. Put it back, or remove the model from the library."
            )
        app = source_label(model.source) if model.source is not None else ""
        return fill(text, path=str(model.path), app=app)

    def _cells(self, entry: LibraryEntry) -> list[tuple[str, str]]:
        model, summary = entry.model, entry.summary
        name = model.name + (self.tr(" (starter)") if model.is_starter else "")
        if model.missing is not None:
            reason = self.missing_text(model)
            status = self.tr("missing: moved or deleted") if model.missing is Missing.GONE else self.tr("unreadable")
            return [
                (name, reason),
                (status, reason),
                ("", ""),
                ("", ""),
                ("", ""),
                ("", ""),
                ("", ""),
                self._location(model),
            ]
        if summary is None:
            unreadable = fill(self.tr("unreadable: {reason}"), reason=entry.problem or "?")
            return [
                (name, str(model.path)),
                (unreadable, unreadable),
                ("", ""),
                ("", ""),
                (format_bytes(model.size_bytes), ""),
                ("", ""),
                (self._hash_text(entry), ""),
                self._location(model),
            ]
        parts = fill(self.tr(" in {n} parts"), n=str(len(model.files))) if len(model.files) > 1 else ""
        seeing = vision_tooltip(model)
        return [
            (name + vision_mark(model), "\n".join(filter(None, (summary.model_name or model.name, seeing)))),
            (summary.architecture or "?", ""),
            (format_parameters(summary.parameter_count), f"{summary.parameter_count or 0:,}"),
            (summary.quantization or "?", ""),
            (format_bytes(model.size_bytes) + parts, f"{model.size_bytes:,} bytes"),
            (f"{summary.context_length:,}" if summary.context_length else "?", self.tr("trained context length")),
            (self._hash_text(entry), self._hash_tooltip(entry)),
            self._location(model),
        ]

    def _location(self, model: InstalledModel) -> tuple[str, str]:
        """Where the file lives, short: its folder under the models folder, 'bundled', or the app it is used from."""
        if model.is_starter:
            return self.tr("bundled with Glassbox"), str(model.path)
        if model.source is not None:
            text = fill(self.tr("in place · {app}"), app=source_label(model.source))
            return text, fill(self.tr("Used where it is, not copied: {path}"), path=str(model.path))
        try:
            return model.path.parent.relative_to(self.models_dir).as_posix(), str(model.path)
        except ValueError:
            return str(model.path.parent), str(model.path)

    def _hash_text(self, entry: LibraryEntry) -> str:
        if entry.state is VerifyState.VERIFIED:
            return self.tr("✓ verified") if entry.reference == "hub" else self.tr("✓ hash recorded")
        if entry.state is VerifyState.CHANGED:
            return self.tr("changed since verified")
        return self.tr("not verified")

    def _hash_tooltip(self, entry: LibraryEntry) -> str:
        if entry.reference == "hub":
            return self.tr("SHA-256 matched the Hugging Face LFS record when downloaded")
        if entry.reference == "import":
            return self.tr("SHA-256 recorded when the file was added; Verify compares with it")
        if entry.reference == "ollama":
            return self.tr("SHA-256 as Ollama recorded it; Verify compares the file with it")
        if entry.reference == "huggingface-cache":
            return self.tr("SHA-256 as the Hugging Face cache recorded it; Verify compares the file with it")
        return self.tr("No hash on record: Verify records one")

    def selected_model(self) -> InstalledModel | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows or rows[0].row() >= len(self.entries):
            return None
        return self.entries[rows[0].row()].model

    def select(self, path: Path) -> None:
        for row, entry in enumerate(self.entries):
            if entry.model.path == path:
                self.table.selectRow(row)
                return

    def _on_selection_changed(self) -> None:
        model = self.selected_model()
        if model is not None and model.missing is not None and not self._busy:
            self.status.setText(self.missing_text(model))
        self._update_buttons()

    def _update_buttons(self) -> None:
        model = self.selected_model()
        busy = self._busy
        usable = model is not None and model.missing is None
        self.load_button.setEnabled(usable)
        self.load_button.setToolTip(
            self.missing_text(model)
            if model is not None and model.missing is not None
            else self.tr("Load the selected model in the main window")
        )
        self.settings_button.setEnabled(usable)
        self.settings_action.setEnabled(usable)
        self.verify_button.setEnabled(usable and not busy)
        self.delete_button.setEnabled(model is not None and not model.is_starter and not busy)
        in_place = model is not None and model.in_place
        self.delete_button.setText(self.tr("Remove from library") if in_place else self.tr("Delete…"))
        if model is not None and model.is_starter:
            self.delete_button.setToolTip(self.tr("The starter model comes with Glassbox and cannot be deleted here"))
        elif in_place:
            self.delete_button.setToolTip(self.tr("Glassbox forgets the model; its file stays where it is"))
        else:
            self.delete_button.setToolTip(self.tr("Delete the model's files (asks first)"))
        self.reveal_button.setEnabled(usable)
        self.import_button.setEnabled(not busy)

    # ---- actions ------------------------------------------------------------------

    def load_selected(self) -> None:
        model = self.selected_model()
        if model is None or model.missing is not None:
            return
        self.status.setText(fill(self.tr("Loading {name} in the main window…"), name=model.name))
        self._loading = model.name
        self.loadRequested.emit(model.path)

    def edit_selected_settings(self) -> None:
        model = self.selected_model()
        if model is not None and model.missing is None:
            self.loadSettingsRequested.emit(model.path)

    def show_load_ended(self, failure: object = None) -> None:
        """The load asked for here ended: say how, in place of "Loading…" (`failure`: why it failed, if it did)."""
        name, self._loading = self._loading, None
        if name is None:
            return
        if failure is None:
            self.status.setText(fill(self.tr("{name} is loaded in the main window."), name=name))
        else:
            self.status.setText(
                fill(self.tr("{name} could not be loaded: {why}"), name=name, why=core_text.word(str(failure)))
            )

    def show_load_cancelled(self, _why: str) -> None:
        name, self._loading = self._loading, None
        if name is not None:
            self.status.setText(fill(self.tr("Loading {name} was cancelled."), name=name))

    def verify_selected(self) -> None:
        model = self.selected_model()
        if model is None:
            return
        self._set_busy(True, fill(self.tr("Verifying {name}…"), name=model.name))
        self.worker.verifyRequested.emit(model, self.models_dir)

    def delete_selected(self) -> None:
        model = self.selected_model()
        if model is None or model.is_starter:
            return
        if not model.in_place and not self.confirm_delete(model):  # removing a model used in place loses nothing
            return
        self.worker.deleteRequested.emit(model, self.models_dir)

    def reveal_selected(self) -> None:
        model = self.selected_model()
        if model is not None:
            self.open_folder(model.path.parent)

    def import_chosen(self) -> None:
        for path in self.choose_files():
            self.import_file(path)

    def import_file(self, path: Path) -> None:
        self._set_busy(True, fill(self.tr("Importing {name}…"), name=path.name))
        self.worker.importRequested.emit(path, self.models_dir)

    def open_elsewhere(self) -> ElsewhereDialog:
        """The list of models other apps keep on this computer (looked for anew each time it opens)."""
        if self.elsewhere is None:
            self.elsewhere = ElsewhereDialog(self.worker, self)
            self.elsewhere.addRequested.connect(self.link)
        self.elsewhere.set_library(self._library_files())
        self.elsewhere.show()
        self.elsewhere.raise_()
        self.elsewhere.scan()
        return self.elsewhere

    def link(self, found: FoundModel) -> None:
        """Add a model in place: the library records where its file is, nothing is copied."""
        self._set_busy(True, fill(self.tr("Adding {name} in place…"), name=found.name))
        self.worker.linkRequested.emit(found, self.models_dir)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.toLocalFile().lower().endswith(".gguf") for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [
            Path(url.toLocalFile()) for url in event.mimeData().urls() if url.toLocalFile().lower().endswith(".gguf")
        ]
        for path in paths:
            self.import_file(path)
        if paths:
            event.acceptProposedAction()

    def _ask_delete(self, model: InstalledModel) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("Delete model"),
            fill(
                self.tr("Delete {name} ({size}, %n file(s))? This cannot be undone.", "", len(model.files)),
                name=model.name,
                size=format_bytes(model.size_bytes),
            ),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _ask_files(self) -> list[Path]:
        names, _filter = QFileDialog.getOpenFileNames(
            self, self.tr("Import GGUF models"), str(Path.home()), self.tr("GGUF models (*.gguf)")
        )
        return [Path(name) for name in names]

    # ---- worker results -----------------------------------------------------------

    def _set_busy(self, busy: bool, text: str = "") -> None:
        self._busy = busy
        self.progress.setVisible(busy)
        self.cancel_button.setVisible(busy)
        self.progress.setValue(0)
        if text:
            self.status.setText(text)
        self._update_buttons()

    def _on_progress(self, what: str, done: int, total: int) -> None:
        self.progress.setValue(int(done / total * 1000) if total else 1000)
        self.status.setText(f"{what}… {format_bytes(done)} / {format_bytes(total)}")

    def _on_verified(self, model: InstalledModel, result: VerifyResult) -> None:
        self._set_busy(False, result.message)
        if result.state is VerifyState.MISMATCH:
            self.problem.emit("verify", result.message)
        else:
            self.succeeded.emit("verify")
        self.verifyFinished.emit(result)

    def _on_imported(self, model: InstalledModel) -> None:
        if model.in_place:
            text = fill(self.tr("Added {name} in place: its file stays at {path}."), name=model.name, path=model.path)
        else:
            text = fill(self.tr("Imported {name}."), name=model.name)
        self._set_busy(False, text)
        self.succeeded.emit("link" if model.in_place else "import")
        self.modelAdded.emit(model.path)
        self.select(model.path)

    def _on_already_in_library(self, error: AlreadyInLibrary) -> None:
        existing = error.existing
        if error.same_file:
            text = self.tr("{file} is already in the library as {name}; nothing was added.")
        else:
            text = self.tr(
                "{file} is already in the library as {name} (the same file: its SHA-256 is identical); "
                "no second copy was made."
            )
        message = fill(text, file=error.source.name, name=existing.name)
        self._set_busy(False, message)
        self.select(existing.path)
        for what in ("import", "link"):  # the request was answered: its earlier failure is stale
            self.succeeded.emit(what)
        self.notice.emit(message)

    def _on_deleted(self, model: InstalledModel) -> None:
        if model.in_place:
            text = fill(
                self.tr("Removed {name} from the library; its file stays at {path}."), name=model.name, path=model.path
            )
        else:
            text = fill(self.tr("Deleted {name}."), name=model.name)
        self.status.setText(text)
        self.succeeded.emit("delete")
        self.modelRemoved.emit(model.path)

    def _on_failed(self, what: str, message: str) -> None:
        self._set_busy(False, message)
        self.problem.emit(what, message)
