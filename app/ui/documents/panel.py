"""The Documents panel: collections of files the chats retrieve from, their files' status, indexing.

A chat retrieves from the collections ticked here (named ones, usable by any chat) and
from its own files ("for this chat only"). Files and folders are added with the file
dialogs; every file gets a status — indexed, skipped or failed, with why — while a
progress bar and Cancel follow the run, which happens on the indexing thread. The folders
are rescanned when the panel is shown and with Rescan: changed files are read again,
deleted ones dropped; the added files and folders are also watched (`folder_watch`), and
rescanned a moment after they change. The embedding model chosen at the top makes vectors for search by
meaning; with none, retrieval is keyword search (FTS5) alone.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.documents.formats import SUPPORTED
from app.core.documents.index import SourceRecord
from app.core.documents.indexer import FileResult, FileStatus, IndexProgress, IndexReport, Stage
from app.core.models.library import InstalledModel
from app.core.support.formatting import fill
from app.ui import message
from app.ui.documents.file_status_list import FileStatusList
from app.ui.documents.folder_watch import FolderWatch
from app.ui.documents.workers import OWN, CollectionEntry, DocumentsState, DocumentsThreads, IndexJob
from app.ui.llm.retrieval import SharedEmbedder
from app.ui.widgets.ask_text import ask_item, ask_text
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone

RESCAN_ON_SHOW_AFTER_S = 30.0  # shown again sooner than this: no new rescan


class DocumentsPanel(QWidget):
    stateShown = Signal(object)  # DocumentsState, once shown (tests wait for it)
    indexingDone = Signal(object)  # IndexReport of a finished (or cancelled) run

    def __init__(
        self,
        threads: DocumentsThreads,
        embedder: SharedEmbedder,
        models: Callable[[], Sequence[InstalledModel]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("DocumentsPanel")
        self.threads = threads
        self.embedder = embedder
        self._models = models
        self.chat_id = ""
        self.state: DocumentsState | None = None
        self._selected = OWN
        self._jobs = 0  # numbers given so far
        self._running: set[int] = set()
        self._rescanned_at = 0.0
        self.folder_watch = FolderWatch(self)
        self._build()
        self._connect()

    # ---- layout --------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Embedding model:"), self))
        self.embedding_picker = QComboBox(self)
        self.embedding_picker.setToolTip(
            self.tr(
                "A GGUF embedding model (nomic-embed-text, bge, all-MiniLM) finds passages by meaning as well as "
                "by words. With none, retrieval searches the words alone."
            )
        )
        row.addWidget(self.embedding_picker, 1)
        layout.addLayout(row)

        layout.addWidget(QLabel(self.tr("Collections (ticked: this chat uses them)"), self))
        self.collection_list = QListWidget(self)
        self.collection_list.setAccessibleName(self.tr("Collections"))
        self.collection_list.setMaximumHeight(160)
        layout.addWidget(self.collection_list)
        buttons = QHBoxLayout()
        self.new_button = QPushButton(self.tr("New…"), self)
        self.rename_button = QPushButton(self.tr("Rename…"), self)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        for button in (self.new_button, self.rename_button, self.delete_button):
            buttons.addWidget(button)
        layout.addLayout(buttons)
        adding = QHBoxLayout()
        self.add_files_button = QPushButton(self.tr("Add files…"), self)
        self.add_folder_button = QPushButton(self.tr("Add folder…"), self)
        self.rescan_button = QPushButton(self.tr("Rescan"), self)
        self.rescan_button.setToolTip(self.tr("Read changed files again and drop deleted ones"))
        self.remove_button = QPushButton(self.tr("Remove…"), self)
        self.remove_button.setToolTip(self.tr("Take a file or folder out of the collection (the files stay on disk)"))
        for button in (self.add_files_button, self.add_folder_button, self.rescan_button, self.remove_button):
            adding.addWidget(button)
        layout.addLayout(adding)

        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        set_tone(self.summary, Tone.NOTE)
        layout.addWidget(self.summary)
        self.file_list = FileStatusList(self)
        layout.addWidget(self.file_list, 1)

        progress = QHBoxLayout()
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setToolTip(self.tr("Stop indexing; what is indexed so far stays"))
        progress.addWidget(self.progress, 1)
        progress.addWidget(self.cancel_button)
        layout.addLayout(progress)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self._show_running()

    def _connect(self) -> None:
        collections, indexing = self.threads.collections, self.threads.indexing
        collections.state.connect(self._show_state)
        collections.failed.connect(message.warning)
        indexing.started.connect(self._on_started)
        indexing.progress.connect(self._on_progress)
        indexing.finished.connect(self._on_finished)
        indexing.failed.connect(self._on_failed)
        self.collection_list.currentItemChanged.connect(self._on_current_changed)
        self.collection_list.itemChanged.connect(self._on_item_changed)
        self.new_button.clicked.connect(self._ask_new)
        self.rename_button.clicked.connect(self._ask_rename)
        self.delete_button.clicked.connect(self._ask_delete)
        self.add_files_button.clicked.connect(self._ask_files)
        self.add_folder_button.clicked.connect(self._ask_folder)
        self.rescan_button.clicked.connect(self.rescan_selected)
        self.remove_button.clicked.connect(self._ask_remove)
        self.cancel_button.clicked.connect(self.cancel)
        self.embedding_picker.activated.connect(self._on_embedding_chosen)
        self.folder_watch.changed.connect(self._rescan_changed)

    # ---- the chat on show ----------------------------------------------------------

    def set_chat(self, chat_id: str) -> None:
        if chat_id and chat_id != self.chat_id:
            self.chat_id = chat_id
            self.refresh()

    def refresh(self) -> None:
        self.threads.collections.refreshRequested.emit(self.chat_id)

    def _show_state(self, state: DocumentsState) -> None:
        if state.chat_id != self.chat_id:
            return
        self.state = state
        if state.embedding_model != self.embedder.model_path:
            self.embedder.set_model(state.embedding_model)
            self.threads.indexing.warmRequested.emit()
        self._fill_embedding_picker()
        self.collection_list.blockSignals(True)
        self.collection_list.clear()
        own = QListWidgetItem(self.tr("Files for this chat only"), self.collection_list)
        own.setData(Qt.ItemDataRole.UserRole, OWN)
        own.setToolTip(self.tr("Files only this chat retrieves from"))
        current = own
        for entry in state.named:
            item = QListWidgetItem(entry.collection.name, self.collection_list)
            item.setData(Qt.ItemDataRole.UserRole, entry.collection.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if entry.attached else Qt.CheckState.Unchecked)
            if entry.collection.id == self._selected:
                current = item
        self.collection_list.setCurrentItem(current)
        self.collection_list.blockSignals(False)
        self._selected = int(current.data(Qt.ItemDataRole.UserRole))
        self._show_files()
        self._watch()
        self.stateShown.emit(state)

    def entry(self, collection_id: int) -> CollectionEntry | None:
        if self.state is None:
            return None
        if collection_id == OWN:
            return self.state.own
        return next((e for e in self.state.named if e.collection.id == collection_id), None)

    def _show_files(self) -> None:
        entry = self.entry(self._selected)
        named = self._selected != OWN
        self.rename_button.setEnabled(named)
        self.delete_button.setEnabled(named)
        self.remove_button.setEnabled(entry is not None and bool(entry.roots))
        self.file_list.clear()
        if entry is None:
            self.summary.setText(
                fill(self.tr("No files yet. Add files or a folder; supported: {formats}."), formats=word(SUPPORTED))
            )
            return
        stats = entry.stats
        self.summary.setText(
            fill(
                self.tr("{files} files: {indexed} indexed, {skipped} skipped, {failed} failed · {chunks} chunks"),
                files=stats.files,
                indexed=stats.indexed,
                skipped=stats.skipped,
                failed=stats.failed,
                chunks=stats.chunks,
            )
            + (fill(self.tr(" · {vectors} with vectors"), vectors=stats.vectors) if stats.vectors else "")
        )
        for source in entry.sources:
            self.file_list.set_row(Path(source.uri), _record_status(source), source.chunks, source.reason)

    # ---- collections ---------------------------------------------------------------

    def _on_current_changed(self, current: QListWidgetItem | None, _previous: QListWidgetItem | None) -> None:
        if current is not None:
            self._selected = int(current.data(Qt.ItemDataRole.UserRole))
            self._show_files()

    def _on_item_changed(self, item: QListWidgetItem) -> None:
        collection_id = int(item.data(Qt.ItemDataRole.UserRole))
        if collection_id != OWN and self.chat_id:
            attached = item.checkState() == Qt.CheckState.Checked
            self.threads.collections.attachRequested.emit(self.chat_id, collection_id, attached)

    def select(self, collection_id: int) -> None:
        self._selected = collection_id
        for row in range(self.collection_list.count()):
            item = self.collection_list.item(row)
            if int(item.data(Qt.ItemDataRole.UserRole)) == collection_id:
                self.collection_list.setCurrentItem(item)

    def create_collection(self, name: str) -> None:
        self.threads.collections.createRequested.emit(name, self.chat_id)

    def _ask_new(self) -> None:
        name = ask_text(self, self.tr("New collection"), self.tr("Name of the collection:"))
        if name is not None and name.strip():
            self.create_collection(name)

    def _ask_rename(self) -> None:
        entry = self.entry(self._selected)
        if entry is None or self._selected == OWN:
            return
        name = ask_text(self, self.tr("Rename collection"), self.tr("New name:"), entry.collection.name)
        if name is not None and name.strip():
            self.threads.collections.renameRequested.emit(self._selected, name, self.chat_id)

    def _ask_delete(self) -> None:
        entry = self.entry(self._selected)
        if entry is None or self._selected == OWN:
            return
        answer = QMessageBox.question(
            self,
            self.tr("Delete collection"),
            fill(
                self.tr("Delete the collection “{name}” and its index? The files themselves stay where they are."),
                name=entry.collection.name,
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.threads.collections.deleteRequested.emit(self._selected, self.chat_id)
            self._selected = OWN

    # ---- indexing ------------------------------------------------------------------

    def _ask_files(self) -> None:
        names, _filter = QFileDialog.getOpenFileNames(self, self.tr("Add files to the collection"))
        if names:
            self.add_paths([Path(name) for name in names])

    def _ask_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder to the collection"))
        if folder:
            self.add_paths([Path(folder)])

    def add_paths(self, paths: Sequence[Path]) -> int:
        """Add files or folders to the selected collection and index them; the job's number."""
        return self._submit(self._selected, tuple(paths))

    def add_to_this_chat(self, paths: Sequence[Path]) -> int:
        """Add files to the chat's own files ("for this chat only") and index them; the job's number."""
        return self._submit(OWN, tuple(paths))

    def _ask_remove(self) -> None:
        entry = self.entry(self._selected)
        if entry is None or not entry.roots:
            return
        choices = [str(root) for root in entry.roots]
        choice = ask_item(self, self.tr("Remove from the collection"), self.tr("File or folder to take out:"), choices)
        if choice:
            self.remove_root(Path(choice))

    def remove_root(self, path: Path) -> None:
        """Take a file or folder out of the selected collection: its files leave the index at once."""
        entry = self.entry(self._selected)
        if entry is not None:
            self.threads.collections.removeRootRequested.emit(entry.collection.id, str(path), self.chat_id)

    def rescan_selected(self) -> None:
        self._submit(self._selected, ())

    def rescan_all(self) -> None:
        """Every collection the panel lists that has files or folders (unchanged files are not read again)."""
        if self.state is None:
            return
        self._rescanned_at = time.monotonic()
        for entry in self._entries():
            if entry.roots:
                self._submit(OWN if entry.collection.chat_id else entry.collection.id, ())

    def _submit(self, collection_id: int, paths: tuple[Path, ...]) -> int:
        if not self.chat_id:
            return 0
        self._jobs += 1
        entry = self.entry(collection_id)
        label = entry.collection.name if entry is not None and collection_id != OWN else self.tr("this chat's files")
        job = IndexJob(self._jobs, self.chat_id, collection_id, paths, label)
        self._running.add(job.number)
        self._show_running()
        self.threads.indexing.indexRequested.emit(job)
        return job.number

    def cancel(self) -> None:
        if self._running:
            self.threads.indexing.cancel_upto(self._jobs)
            self.status.setText(self.tr("Cancelling…"))

    @property
    def is_indexing(self) -> bool:
        return bool(self._running)

    def _show_running(self) -> None:
        running = bool(self._running)
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.cancel_button.setEnabled(running)

    def _on_started(self, job: IndexJob) -> None:
        self.progress.setRange(0, 0)
        self.status.setText(fill(self.tr("Indexing {name}…"), name=job.label))

    def _on_progress(self, job: IndexJob, progress: IndexProgress) -> None:
        if progress.total:
            self.progress.setRange(0, progress.total)
            self.progress.setValue(progress.done)
        if progress.stage is Stage.EMBEDDING:
            self.status.setText(
                fill(self.tr("Making vectors: {done} of {total} chunks"), done=progress.done, total=progress.total)
            )
        elif progress.stage is Stage.INDEXING:
            self.status.setText(
                fill(
                    self.tr("Indexing {name}: {done} of {total} files"),
                    name=job.label,
                    done=progress.done,
                    total=progress.total,
                )
            )
        result = progress.result
        if result is not None and job.collection_id == self._selected and job.chat_id == self.chat_id:
            self._show_result(result)

    def _show_result(self, result: FileResult) -> None:
        self.file_list.set_row(result.path, result.status, result.chunks, result.reason)

    def _on_finished(self, job: IndexJob, report: IndexReport) -> None:
        self._running.discard(job.number)
        self._show_running()
        if report.cancelled:
            self.status.setText(self.tr("Indexing cancelled; what was indexed until then stays."))
        else:
            text = fill(
                self.tr("{name}: {indexed} indexed, {skipped} skipped, {failed} failed, {removed} removed"),
                name=job.label,
                indexed=report.count(FileStatus.INDEXED),
                skipped=report.count(FileStatus.SKIPPED),
                failed=report.count(FileStatus.FAILED),
                removed=report.count(FileStatus.REMOVED),
            )
            if report.embedding_error:
                text += fill(self.tr(" · no vectors: {error}"), error=report.embedding_error)
            self.status.setText(text)
        self.refresh()
        self.indexingDone.emit(report)

    def _on_failed(self, job: IndexJob, why: str) -> None:
        self._running.discard(job.number)
        self._show_running()
        self.status.setText(word(why))
        message.warning(why)
        self.refresh()
        self.indexingDone.emit(IndexReport(cancelled=True))

    def showEvent(self, event: QShowEvent) -> None:
        """Shown: rescan the folders (not more often than every RESCAN_ON_SHOW_AFTER_S)."""
        super().showEvent(event)
        self._fill_embedding_picker()
        if not self._running and time.monotonic() - self._rescanned_at > RESCAN_ON_SHOW_AFTER_S:
            self.rescan_all()

    # ---- watching the files and folders -------------------------------------------

    def _entries(self) -> list[CollectionEntry]:
        if self.state is None:
            return []
        return [*([self.state.own] if self.state.own is not None else []), *self.state.named]

    def _watch(self) -> None:
        """Watch the roots of the collections the chat uses (its own files and the ticked ones)."""
        self.folder_watch.watch(
            {str(root) for entry in self._entries() if entry.attached for root in entry.roots if root.exists()}
        )

    def _rescan_changed(self, changed: set[str]) -> None:
        for entry in self._entries():
            if any(str(root) in changed for root in entry.roots):
                self._submit(OWN if entry.collection.chat_id else entry.collection.id, ())

    # ---- the embedding model -------------------------------------------------------

    def _fill_embedding_picker(self) -> None:
        chosen = self.state.embedding_model if self.state is not None else None
        picker = self.embedding_picker
        picker.blockSignals(True)
        picker.clear()
        picker.addItem(self.tr("None — keyword search only"), "")
        paths = [model.path for model in self._models()]
        if chosen is not None and chosen not in paths:
            paths.append(chosen)
        for path in paths:
            picker.addItem(path.name, str(path))
        picker.setCurrentIndex(max(picker.findData(str(chosen)) if chosen is not None else 0, 0))
        picker.blockSignals(False)

    def _on_embedding_chosen(self, index: int) -> None:
        value = self.embedding_picker.itemData(index)
        self.set_embedding_model(Path(value) if value else None)

    def set_embedding_model(self, path: Path | None) -> None:
        """Use this model for vectors from now on; a rescan gives the chunks indexed before it theirs."""
        self.threads.collections.embeddingModelRequested.emit(path, self.chat_id)
        self.embedder.set_model(path)
        if path is not None:
            self._rescanned_at = 0.0
            self.rescan_all()


def _record_status(source: SourceRecord) -> FileStatus:
    return FileStatus(source.status.value)
