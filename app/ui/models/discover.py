"""The Discover tab: search Hugging Face, open a repository, pick a variant with its fit hint, download.

The hints and the starred suggestion come from the memory planner (`app.core.memory.fit`),
planned in the Hub worker from each variant's header read over HTTP: the same verdict the
GPU panel shows for the file once it is loaded. A hint guessed from the file size says so.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.hub.client import RepoListing, RepoSummary, Variant, hub_endpoint, incomplete_split
from app.core.hub.variant_download import download_requests, download_size, projector_for
from app.core.memory.fit import Assessment, Fit, FitHint
from app.core.support.formatting import fill, format_bytes
from app.ui.models.columns import fit_columns
from app.ui.models.workers import HubWorker
from app.ui.widgets.core_text import word
from app.ui.widgets.tables import read_only_item, style_row_table
from app.ui.widgets.theme import colours

_REPO_ID = re.compile(r"^[\w.\-]+/[\w.\-]+$")
_FIT_COLOURS = {
    Fit.GPU: "fit_gpu",
    Fit.PARTIAL: "fit_partial",
    Fit.RAM: "fit_ram",
    Fit.NO_FIT: "fit_none",
}  # theme colours
_REPOSITORY_CAP_PX = 420
_VARIANT_CAP_PX = 380


class DiscoverPage(QWidget):
    downloadRequested = Signal(object)  # list[DownloadRequest], one per file of the variant (and its projector)
    resultsShown = Signal(int)  # number of repositories now in the results table
    listingShown = Signal(object)  # the RepoListing now in the variants table

    def __init__(self, hub: HubWorker, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hub = hub
        self.listing: RepoListing | None = None
        self.recommended: str | None = None
        self.assessment: Assessment | None = None
        self._results: list[RepoSummary] = []
        self._last_query = ""
        self._last_repo = ""

        self.search_edit = QLineEdit(self)
        self.search_edit.setAccessibleName(self.tr("Search Hugging Face"))
        self.search_edit.setPlaceholderText(self.tr("Search Hugging Face for GGUF models, or paste owner/name"))
        self.search_edit.returnPressed.connect(self.search)
        self.search_button = QPushButton(self.tr("Search"), self)
        self.search_button.clicked.connect(self.search)
        top = QHBoxLayout()
        top.addWidget(self.search_edit, 1)
        top.addWidget(self.search_button)

        self.results = QTableWidget(0, 4, self)
        self.results.setAccessibleName(self.tr("Repositories found"))
        self.results.setHorizontalHeaderLabels(
            [self.tr("Repository"), self.tr("Downloads"), self.tr("Likes"), self.tr("Updated")]
        )
        self._table_style(self.results)
        self.results.itemSelectionChanged.connect(self._result_chosen)

        self.repo_label = QLabel(self.tr("Search, then choose a repository to see its files."), self)
        self.repo_label.setWordWrap(True)
        self.repo_label.setOpenExternalLinks(True)
        self.repo_label.setTextFormat(Qt.TextFormat.RichText)
        self.machine_label = QLabel(self)
        self.machine_label.setWordWrap(True)
        self.variants = QTableWidget(0, 5, self)
        self.variants.setAccessibleName(self.tr("Files of the repository"))
        self.variants.setHorizontalHeaderLabels(
            [
                self.tr("Variant"),
                self.tr("Quantization"),
                self.tr("Size"),
                self.tr("Fits this machine"),
                self.tr("Quality"),
            ]
        )
        self._table_style(self.variants)
        self.variants.itemSelectionChanged.connect(self._update_download_button)
        self.variants.itemDoubleClicked.connect(lambda _item: self.download_selected())
        self.download_button = QPushButton(self.tr("Download"), self)
        self.download_button.setEnabled(False)
        self.download_button.clicked.connect(self.download_selected)
        bottom = QHBoxLayout()
        bottom.addWidget(self.machine_label, 1)
        bottom.addWidget(self.download_button)

        lower = QWidget(self)
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.repo_label)
        lower_layout.addWidget(self.variants, 1)
        lower_layout.addLayout(bottom)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self.results)
        splitter.addWidget(lower)
        splitter.setStretchFactor(1, 2)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)

        hub.searchFinished.connect(self.show_results)
        hub.listingFinished.connect(self.show_listing)
        hub.failed.connect(self._on_failed)

    def _table_style(self, table: QTableWidget) -> None:
        style_row_table(table)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        fit_columns(table)

    # ---- search --------------------------------------------------------------------

    def search(self) -> None:
        text = self.search_edit.text().strip()
        if not text:
            return
        self._last_query = text
        self.search_button.setEnabled(False)
        self.repo_label.setText(self.tr("Searching…"))
        self.hub.searchRequested.emit(text)
        if _REPO_ID.match(text):  # a pasted repository name opens at once
            self.open_repository(text)

    def show_results(self, results: list[RepoSummary]) -> None:
        self.search_button.setEnabled(True)
        self._results = list(results)
        self.results.setRowCount(0)
        for summary in self._results:
            row = self.results.rowCount()
            self.results.insertRow(row)
            name = summary.repo_id + (self.tr(" (gated)") if summary.gated else "")
            self.results.setItem(row, 0, read_only_item(name, summary.repo_id))
            self.results.setItem(row, 1, read_only_item(f"{summary.downloads:,}", align_right=True))
            self.results.setItem(row, 2, read_only_item(f"{summary.likes:,}", align_right=True))
            updated = summary.last_modified.strftime("%Y-%m-%d") if summary.last_modified else ""
            self.results.setItem(row, 3, read_only_item(updated))
        fit_columns(self.results, {0: _REPOSITORY_CAP_PX})
        if self.listing is None:
            self.repo_label.setText(
                self.tr("No GGUF repositories found.")
                if not results
                else self.tr("Choose a repository to see its files.")
            )
        self.resultsShown.emit(len(self._results))

    def _result_chosen(self) -> None:
        rows = self.results.selectionModel().selectedRows()
        if rows:
            self.open_repository(self._results[rows[0].row()].repo_id)

    # ---- repository ----------------------------------------------------------------

    def retry(self, what: str) -> None:
        """Ask again what failed: the last search, or the last repository opened."""
        if what == "search" and self._last_query:
            self.search_edit.setText(self._last_query)
            self.search()
        elif what == "listing" and self._last_repo:
            self.open_repository(self._last_repo)

    def open_repository(self, repo_id: str) -> None:
        self._last_repo = repo_id
        self.listing = None
        self.variants.setRowCount(0)
        self.download_button.setEnabled(False)
        self.repo_label.setText(fill(self.tr("Opening {repo}…"), repo=repo_id))
        self.hub.listingRequested.emit(repo_id)

    def show_listing(self, listing: RepoListing, assessment: Assessment) -> None:
        self.listing = listing
        self.assessment = assessment
        self.recommended = assessment.recommended
        self.variants.setRowCount(0)
        bold = QFont()
        bold.setBold(True)
        for variant in listing.variants:
            self._add_variant_row(variant, assessment.hints.get(variant.key), bold)
        fit_columns(self.variants, {0: _VARIANT_CAP_PX})
        self.repo_label.setText(self._repo_text(listing))
        machine = assessment.machine
        gpu = (
            fill(self.tr("GPU: {vram} free"), vram=format_bytes(machine.free_vram))
            if machine.free_vram is not None
            else self.tr("no GPU offload")
        )
        self.machine_label.setText(
            fill(self.tr("This machine: {gpu}, RAM: {ram} free."), gpu=gpu, ram=format_bytes(machine.free_ram))
        )
        if self.recommended is not None:
            self.select_variant(self.recommended)
        self._update_download_button()
        self.listingShown.emit(listing)

    def _add_variant_row(self, variant: Variant, hint: FitHint | None, bold: QFont) -> None:
        row = self.variants.rowCount()
        self.variants.insertRow(row)
        problem = incomplete_split(variant) if hint is None else None
        label = variant.key + (fill(self.tr(" ({n} parts)"), n=len(variant.files)) if variant.is_split else "")
        if variant.key == self.recommended:
            label = "★ " + label
        files = "\n".join(f"{f.filename}  sha256 {f.sha256 or '?'}" for f in variant.files)
        cells = [
            read_only_item(label, files),
            read_only_item(variant.quant or "?"),
            read_only_item(format_bytes(variant.size), align_right=True),
            self._fit_item(hint, problem),
            read_only_item(word(variant.note), word(variant.note)),
        ]
        for column, cell in enumerate(cells):
            cell.setData(Qt.ItemDataRole.UserRole, variant.key)
            if variant.key == self.recommended:
                cell.setFont(bold)
                cell.setToolTip(self.tr("Recommended for this machine. ") + cell.toolTip())
            self.variants.setItem(row, column, cell)

    def _fit_item(self, hint: FitHint | None, problem: str | None) -> QTableWidgetItem:
        if hint is None:
            item = read_only_item(problem or self.tr("cannot be used"), problem or "")
            item.setForeground(colours().qcolor(_FIT_COLOURS[Fit.NO_FIT]))
            return item
        label = self.fit_label(hint)
        if hint.estimated:
            label += " " + self.tr("(estimate)")
        item = read_only_item(label, self.fit_text(hint))
        item.setForeground(colours().qcolor(_FIT_COLOURS[hint.fit]))
        return item

    def fit_label(self, hint: FitHint) -> str:
        return {
            Fit.GPU: self.tr("fully on GPU"),
            Fit.PARTIAL: self.tr("partly offloaded"),
            Fit.RAM: self.tr("RAM only"),
            Fit.NO_FIT: self.tr("does not fit"),
        }[hint.fit]

    def fit_text(self, hint: FitHint) -> str:
        """The hint in words: the plan's numbers, or an estimate that says it is one."""
        vram, ram = format_bytes(hint.gpu_bytes), format_bytes(hint.ram_bytes)
        if hint.estimated:
            text = {
                Fit.GPU: self.tr("Fits fully on the GPU: about {vram} of VRAM."),
                Fit.PARTIAL: self.tr("Partly offloaded: about {vram} on the GPU, {ram} in RAM."),
                Fit.RAM: self.tr("Runs from RAM only: about {ram}."),
                Fit.NO_FIT: self.tr("Does not fit: needs about {ram}."),
            }[hint.fit]
            return (
                fill(text, vram=vram, ram=ram)
                + " "
                + self.tr("Estimated from the file size: the file's header could not be read.")
            )
        text = {
            Fit.GPU: self.tr("Fits fully on the GPU: {vram} of VRAM, {ram} of RAM."),
            Fit.PARTIAL: self.tr("Partly offloaded: {n} of {all} layers on the GPU ({vram}), {ram} in RAM."),
            Fit.RAM: self.tr("Runs from RAM only: {ram}."),
            Fit.NO_FIT: self.tr("Does not fit: needs {ram} of RAM."),
        }[hint.fit]
        return fill(text, vram=vram, ram=ram, n=hint.gpu_layers, all=hint.max_gpu_layers)

    def _repo_text(self, listing: RepoListing) -> str:
        link = f'<a href="{self._page_url(listing.repo_id)}">{listing.repo_id}</a>'
        if not listing.variants:
            return fill(self.tr("{repo} has no GGUF files."), repo=link)
        text = fill(self.tr("{repo}: %n variants.", "", len(listing.variants)), repo=link)
        if listing.gated:
            text += " " + self.tr(
                "<b>Gated:</b> accept its licence on the repository page, then save a Hugging Face token above."
            )
        if self.recommended is None:
            text += " " + self.tr("No variant fits this machine's free memory.")
        return text

    def _page_url(self, repo_id: str) -> str:
        return f"{hub_endpoint()}/{repo_id}"

    def select_variant(self, key: str) -> None:
        for row in range(self.variants.rowCount()):
            if _variant_key(self.variants, row) == key:
                self.variants.selectRow(row)
                return

    def selected_variant(self) -> Variant | None:
        rows = self.variants.selectionModel().selectedRows()
        if not rows or self.listing is None:
            return None
        key = _variant_key(self.variants, rows[0].row())
        return self.listing.variant(key) if key is not None else None

    def _update_download_button(self) -> None:
        variant = self.selected_variant()
        self.download_button.setEnabled(variant is not None and incomplete_split(variant) is None)
        if variant is None or self.listing is None:
            return
        size = format_bytes(download_size(self.listing, variant))
        projector = projector_for(self.listing, variant)
        if projector is None:
            self.download_button.setText(fill(self.tr("Download {size}"), size=size))
            self.download_button.setToolTip("")
            return
        self.download_button.setText(fill(self.tr("Download with its projector, {size}"), size=size))
        self.download_button.setToolTip(
            fill(
                self.tr(
                    "A vision model: its projector {file} ({projector_size}) comes with it, so it can read images. "
                    "Both files are checked against the Hub's SHA-256."
                ),
                file=projector.filename.rsplit("/", 1)[-1],
                projector_size=format_bytes(projector.size or 0),
            )
        )

    def download_selected(self) -> None:
        variant = self.selected_variant()
        if variant is None or self.listing is None or incomplete_split(variant):
            return
        self.downloadRequested.emit(download_requests(self.listing, variant))

    def _on_failed(self, what: str, _message: str, _error: object) -> None:
        if what == "search":
            self.search_button.setEnabled(True)
            self.repo_label.setText(self.tr("The search failed; see the message above."))
        elif what == "listing":
            self.repo_label.setText(self.tr("The repository could not be opened; see the message above."))


def _variant_key(table: QTableWidget, row: int) -> str | None:
    """The variant key kept in a row's first cell (None for a row still being filled)."""
    item = table.item(row, 0)
    return item.data(Qt.ItemDataRole.UserRole) if item is not None else None
