"""Open file…: a .gguf file chosen on this computer joins the library where it is, then the shell loads it.

The file is checked (GGUF header and tensor table: a file that is not a GGUF model, or one
llama.cpp would abort on, is refused with the reason) and added in place by the library's own
`link_model`, which copies nothing and may hash the file to catch a duplicate. That is file I/O
on a file of any size, so it runs on the library worker (`LibraryWorker`) in a thread of its
own, started for the request and ended with its answer; the GUI thread only chooses the file.
A file the library already has is not added twice: its library entry is the one opened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QFileDialog, QWidget

from app.core.models.elsewhere import FoundModel
from app.core.models.importing import AlreadyInLibrary
from app.core.models.library import InstalledModel
from app.core.models.links import ModelSource
from app.core.support.formatting import fill
from app.ui.models.workers import LibraryWorker
from app.ui.threads import JobThreads, WorkerThread


class ModelFileOpener(QObject):
    opened = Signal(object)  # Path of the model in the library, to load
    notice = Signal(object)  # (str) news that is not a failure (the file was already in the library)
    failed = Signal(object)  # (str) why the file was not added, in plain words
    busy = Signal(str)  # what runs now (checking the file), for the status bar

    def __init__(self, models_dir: Path, parent: QWidget) -> None:
        super().__init__(parent)
        self.models_dir = models_dir
        self._window = parent
        self.choose_file: Callable[[], Path | None] = self._ask_file
        self._jobs = JobThreads()

    @property
    def is_busy(self) -> bool:
        return self._jobs.is_running()

    def choose_and_open(self) -> None:
        """Ask for a .gguf file, then check it and add it to the library on the worker thread."""
        if self.is_busy:
            return
        path = self.choose_file()
        if path is not None:
            self.open(path)

    def open(self, path: Path) -> None:
        """Check `path` and add it in place, off the GUI thread; `opened`, `notice` or `failed` follows."""
        worker = LibraryWorker()
        worker.imported.connect(self._on_added)
        worker.alreadyInLibrary.connect(self._on_already_in_library)
        worker.failed.connect(self._on_failed)
        self._jobs.start(worker, "open-model-file", flags=(worker.closing, worker.cancel))
        self.busy.emit(fill(self.tr("Checking {name}…"), name=path.name))
        # The size is 0: only the list of models found elsewhere shows it, and reading it here would be I/O.
        worker.linkRequested.emit(FoundModel(path.stem, path, 0, ModelSource.FILE), self.models_dir)

    @property
    def job_thread(self) -> WorkerThread | None:
        """The thread of the last request (it ends with its answer)."""
        return self._jobs.current

    def shutdown(self) -> bool:
        """Cancel a check in progress and wait for its thread; True once it has ended."""
        return self._jobs.shutdown()

    def _done(self) -> None:
        self._jobs.end()  # one file per thread: it ends with the answer

    @Slot(object)
    def _on_added(self, model: InstalledModel) -> None:
        self._done()
        self.opened.emit(model.path)

    @Slot(object)
    def _on_already_in_library(self, error: AlreadyInLibrary) -> None:
        self._done()
        self.notice.emit(
            fill(
                self.tr("{file} is already in the library as {name}; that one is loaded."),
                file=error.source.name,
                name=error.existing.name,
            )
        )
        self.opened.emit(error.existing.path)

    @Slot(str, object)
    def _on_failed(self, _what: str, message: str) -> None:
        self._done()
        self.failed.emit(message)

    def _ask_file(self) -> Path | None:
        name, _filter = QFileDialog.getOpenFileName(
            self._window, self.tr("Open a model file"), str(Path.home()), self.tr("GGUF models (*.gguf)")
        )
        return Path(name) if name else None
