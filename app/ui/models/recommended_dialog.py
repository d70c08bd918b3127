"""Get a better model: the recommended models sized for this computer, the ones that fit first, one click to download.

The list is the curated one in the core (`app.core.models.recommended`), each model given the
fit verdict of the memory package (`app.core.memory.recommended_fit`) on this machine's free
memory. Measuring the machine (NVML, psutil) and planning run on a worker thread, never on the
GUI thread. Nothing here talks to the Hub before a click: the sizes are in the data, so the list shows
offline, and a click hands the download requests to the Models window's download queue
(`downloadRequested`), whose download asks the Hub for the file and says clearly when it cannot be
reached. A model that reads images first has its repository listed, to take its projector with it
(`app.ui.models.recommended_download`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.hub.downloads.job import DownloadRequest
from app.core.memory.fit import Fit, FitHint, Machine, machine_now
from app.core.memory.planner import ContextSettings
from app.core.memory.recommended_fit import SizedRecommendation, size_recommended
from app.core.models.recommended import RecommendedModel
from app.core.settings import saved_context
from app.core.support.formatting import fill, format_bytes
from app.ui.models.recommended_download import RecommendedDownloads
from app.ui.threads import JobThreads, WorkerThread
from app.ui.widgets.core_text import word
from app.ui.widgets.error_banner import ErrorBanner, Notice
from app.ui.widgets.screen_fit import resize_to_fit
from app.ui.widgets.tables import read_only_item
from app.ui.widgets.theme import colours

_FIT_COLOURS = {Fit.GPU: "fit_gpu", Fit.PARTIAL: "fit_partial", Fit.RAM: "fit_ram", Fit.NO_FIT: "fit_none"}
MODEL, GOOD_FOR, SIZE, FIT, ACTION = range(5)


class RecommendationPlanner(QObject):
    """Measures the machine and sizes the list, on its own thread."""

    planRequested = Signal()
    planned = Signal(object, object)  # list[SizedRecommendation], the Machine they were sized for

    def __init__(self, measure: Callable[[], Machine], context: Callable[[], ContextSettings]) -> None:
        super().__init__()
        self._measure = measure
        self._context = context
        self.planRequested.connect(self._plan)

    @Slot()
    def _plan(self) -> None:
        machine = self._measure()
        self.planned.emit(size_recommended(machine, self._context()), machine)


class RecommendedModelsDialog(QDialog):
    downloadRequested = Signal(object, object)  # list[DownloadRequest] of the model chosen, a note for the user or ""

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        measure: Callable[[], Machine] | None = None,
        context: Callable[[], ContextSettings] | None = None,
    ) -> None:
        """`measure` and `context`: this machine's free memory and the saved load settings, unless given."""
        super().__init__(parent)
        self.setWindowTitle(self.tr("Get a better model"))
        resize_to_fit(self, 900, 460)
        self._measure = measure
        self._context = context
        self._jobs = JobThreads()
        self.sized: list[SizedRecommendation] = []
        self.downloads = RecommendedDownloads(self)
        self.downloads.ready.connect(self._on_download_ready)
        self.downloads.failed.connect(self._on_download_failed)
        self.banner = ErrorBanner(self)
        self._failures: dict[str, Notice] = {}  # a model's file name -> why its download did not start

        intro = QLabel(
            self.tr(
                "Well-known chat models that run on your own computer. The ones that fit this computer's "
                "free memory come first; the download goes to the Models window."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.machine_label = QLabel(self.tr("Measuring this computer's free memory…"), self)
        self.machine_label.setWordWrap(True)
        self.table = QTableWidget(0, 5, self)
        headers = [self.tr("Model"), self.tr("Good for"), self.tr("Download size"), self.tr("On this computer"), ""]
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setAccessibleName(self.tr("Recommended models"))
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        for column in range(self.table.columnCount()):
            mode = QHeaderView.ResizeMode.Stretch if column == GOOD_FOR else QHeaderView.ResizeMode.ResizeToContents
            header.setSectionResizeMode(column, mode)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(intro)
        layout.addWidget(self.machine_label)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

    # ---- planning (on a worker thread) ---------------------------------------------

    def plan(self) -> None:
        """Measure the machine and size the list again (the free memory changes); the table follows."""
        if self._jobs.is_running():
            return
        planner = RecommendationPlanner(self._measure or machine_now, self._context or saved_context)
        planner.planned.connect(self._on_planned)
        self._jobs.start(planner, "recommended-models")
        self.machine_label.setText(self.tr("Measuring this computer's free memory…"))
        planner.planRequested.emit()

    def threads(self) -> list[WorkerThread]:
        """The threads of the last plan and of the listings for projectors (each ends with its answer)."""
        planning = [self._jobs.current] if self._jobs.current is not None else []
        return planning + self.downloads.threads()

    def shutdown(self) -> bool:
        """Stop the planning and the listings and wait for their threads; True once they have ended."""
        return all([self._jobs.shutdown(), self.downloads.shutdown()])

    @Slot(object, object)
    def _on_planned(self, sized: list[SizedRecommendation], machine: Machine) -> None:
        self._jobs.end()  # one answer per plan: the thread ends with it
        self.sized = sized
        self.machine_label.setText(self._machine_text(machine))
        self.table.setRowCount(0)
        for item in sized:
            self._add_row(item)
        self.table.resizeRowsToContents()

    def _machine_text(self, machine: Machine) -> str:
        ram = format_bytes(machine.free_ram)
        if machine.free_vram is None:
            return fill(self.tr("This computer: {ram} of free RAM, no GPU to offload to."), ram=ram)
        return fill(
            self.tr("This computer: {vram} free on the GPU, {ram} of free RAM."),
            vram=format_bytes(machine.free_vram),
            ram=ram,
        )

    # ---- the table -----------------------------------------------------------------

    def capabilities(self, model: RecommendedModel) -> str:
        """What the model can do beyond chat: thinking, tools, images; "" for none."""
        marks = [
            (model.thinking, self.tr("Thinking")),
            (model.tools, self.tr("Tools")),
            (model.vision, self.tr("Vision")),
        ]
        return " · ".join(label for has, label in marks if has)

    def _add_row(self, item: SizedRecommendation) -> None:
        model, hint = item.model, item.hint
        row = self.table.rowCount()
        self.table.insertRow(row)
        where = fill(self.tr("{parameters} parameters · {file}"), parameters=model.parameters, file=model.filename)
        self.table.setItem(row, MODEL, read_only_item(model.name, f"{where}\n{model.repo_id}"))
        good_for = word(model.summary)
        marks = self.capabilities(model)
        if marks:
            good_for = fill(self.tr("{summary}\n{capabilities}"), summary=good_for, capabilities=marks)
        self.table.setItem(row, GOOD_FOR, read_only_item(good_for, good_for))
        self.table.setItem(row, SIZE, read_only_item(format_bytes(model.size_bytes), model.quant, align_right=True))
        verdict = read_only_item(self.fit_label(hint), self.fit_text(hint))
        verdict.setForeground(colours().qcolor(_FIT_COLOURS[hint.fit]))
        self.table.setItem(row, FIT, verdict)
        button = QPushButton(self.tr("Download"), self.table)
        button.setAutoDefault(False)
        button.setAccessibleName(fill(self.tr("Download {name}"), name=model.name))
        if item.fits:
            into_library = self.tr("Download {file} and its projector into the library")
            if not model.vision:
                into_library = self.tr("Download {file} into the library")
            button.setToolTip(fill(into_library, file=model.filename))
            button.clicked.connect(lambda _checked=False, chosen=model: self._download(chosen))
            if self.downloads.is_asking(model):  # the list was sized again meanwhile
                self._show_asking(button)
        else:
            button.setEnabled(False)
            button.setToolTip(self.tr("Too large for this computer's free memory"))
        self.table.setCellWidget(row, ACTION, button)

    def fit_label(self, hint: FitHint) -> str:
        return {
            Fit.GPU: self.tr("Fits on the GPU"),
            Fit.PARTIAL: self.tr("Fits, partly on the GPU"),
            Fit.RAM: self.tr("Fits on the CPU (in RAM)"),
            Fit.NO_FIT: self.tr("Too large"),
        }[hint.fit]

    def fit_text(self, hint: FitHint) -> str:
        text = {
            Fit.GPU: self.tr("About {vram} of GPU memory."),
            Fit.PARTIAL: self.tr("About {vram} on the GPU and {ram} in RAM; slower than fully on the GPU."),
            Fit.RAM: self.tr("About {ram} of RAM; runs on the CPU, slower than on a GPU."),
            Fit.NO_FIT: self.tr("Needs about {ram}: more than this computer has free."),
        }[hint.fit]
        text = fill(text, vram=format_bytes(hint.gpu_bytes), ram=format_bytes(hint.ram_bytes))
        return text + " " + self.tr("Estimated from the file size.") if hint.estimated else text

    def _download(self, model: RecommendedModel) -> None:
        """A text model's file goes to the queue at once; a vision model's once its projector is known."""
        earlier = self._failures.pop(model.filename, None)
        if earlier is not None:
            self.banner.dismiss(earlier)  # another try: the old reason is stale
        self.downloads.start(model)
        button = self.button_for(model.filename)
        if button is not None and self.downloads.is_asking(model):
            self._show_asking(button)

    def _show_asking(self, button: QPushButton) -> None:
        button.setEnabled(False)
        button.setText(self.tr("Finding its projector…"))

    def _on_download_ready(self, model: RecommendedModel, requests: list[DownloadRequest], note: str) -> None:
        button = self.button_for(model.filename)
        if button is not None:
            button.setEnabled(False)
            button.setText(self.tr("In Downloads"))
        self.downloadRequested.emit(requests, note)

    def _on_download_failed(self, model: RecommendedModel, message: str) -> None:
        """Nothing went to the queue: the button is ready for another try, the reason on show."""
        button = self.button_for(model.filename)
        if button is not None:
            button.setEnabled(True)
            button.setText(self.tr("Download"))
        self.banner.show_error(message, logging.ERROR)
        self._failures[model.filename] = self.banner.notices()[0]

    def button_for(self, filename: str) -> QPushButton | None:
        """The Download button of a model's row."""
        for row, item in enumerate(self.sized):
            if item.model.filename == filename:
                widget = self.table.cellWidget(row, ACTION)
                return widget if isinstance(widget, QPushButton) else None
        return None
