"""Load details: a progress bar with the running stage and a Cancel button while a model loads, the timeline after."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.support.formatting import fill
from app.core.support.user_text import UserText
from app.core.types.load import LoadConfig, LoadReport, LoadStage, Speculative
from app.ui.widgets.core_text import word
from app.ui.widgets.plots import Span, TimelineBar
from app.ui.widgets.theme import Tone, set_tone


class _WrappedDetails(QStyledItemDelegate):
    """Details wrapped to the width of their column, rows as tall as they need: not cut off with "…"
    (a tree view asks its delegate for a row's height without saying how wide the column is)."""

    def __init__(self, view: QTreeWidget) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        width = self._view.header().sectionSize(index.column()) - 8  # the item's own margins
        text = str(index.data() or "")
        if width <= 0 or not text:
            return hint
        bounds = option.fontMetrics.boundingRect(QRect(0, 0, width, 100_000), Qt.TextFlag.TextWordWrap, text)
        return QSize(hint.width(), max(hint.height(), bounds.height() + 4))


class LoadPanel(QWidget):
    """Follows the LLM worker's load signals; `cancelRequested` asks to stop the running load."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("LoadPanel")
        self.report: LoadReport | None = None
        self._loading = False
        self._stage = ""
        self._fraction = 0.0

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        self.headline = QLabel(self.tr("No model loaded"), self)
        self.headline.setWordWrap(True)
        self.headline.setStyleSheet("font-weight: 600;")
        layout.addWidget(self.headline)
        self.options_label = QLabel(self)
        self.options_label.setWordWrap(True)
        self.options_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        set_tone(self.options_label, Tone.NOTE)
        layout.addWidget(self.options_label)
        self.training_warning = QLabel(self)
        self.training_warning.setWordWrap(True)
        set_tone(self.training_warning, Tone.WARNING)
        self.training_warning.hide()
        layout.addWidget(self.training_warning)

        row = QHBoxLayout()
        self.stage_label = QLabel(self)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 100)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setToolTip(self.tr("Stop loading this model"))
        self.cancel_button.clicked.connect(self._cancel)
        row.addWidget(self.stage_label)
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)
        layout.addLayout(row)

        self.timeline = TimelineBar(self)
        self.timeline.setToolTip(self.tr("Each stage of the load, as wide as it took"))
        layout.addWidget(self.timeline)

        self.table = QTreeWidget(self)
        self.table.setAccessibleName(self.tr("Load stages"))
        self.table.setRootIsDecorated(False)
        self.table.setColumnCount(3)
        self.table.setHeaderLabels([self.tr("Stage"), self.tr("Time"), self.tr("Details")])
        header = self.table.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.setWordWrap(True)
        self.table.setItemDelegateForColumn(2, _WrappedDetails(self.table))
        header.sectionResized.connect(lambda *_: self.table.doItemsLayout())  # rows grow or shrink with it
        layout.addWidget(self.table, 1)
        self._show_running(False)

    # ---- slots for the worker's signals -------------------------------------------

    def load_started(self, config: LoadConfig) -> None:
        self._loading = True
        self.report = None
        self.options_label.clear()
        self.training_warning.hide()
        self._stage = ""
        self._fraction = 0.0
        self.headline.setText(fill(self.tr("Loading {name}…"), name=Path(config.model_path).name))
        self.stage_label.setText("")
        self.progress.setValue(0)
        self.table.clear()
        self.timeline.set_spans([])
        self.cancel_button.setEnabled(True)
        self._show_running(True)

    def stage_started(self, name: str) -> None:
        self._stage = name
        self.stage_label.setText(self._stage_title(name))
        self.progress.setValue(0)

    def progress_changed(self, fraction: float) -> None:
        self._fraction = fraction
        self.progress.setValue(round(fraction * 100))

    def loaded(self, report: LoadReport) -> None:
        self._loading = False
        self.report = report
        self._show_running(False)
        if report.server:  # nothing was loaded here: no stages to time
            self.headline.setText(
                fill(
                    self.tr("{name} runs on the server {server}; its load is the server's, not timed here"),
                    name=str(report.config.model_path),
                    server=report.server,
                )
            )
            self._show_stages([])
            return
        self.headline.setText(
            fill(
                self.tr("{name} loaded in {seconds} s"),
                name=Path(report.config.model_path).name,
                seconds=f"{report.total_seconds:.2f}",
            )
        )
        self.options_label.setText(self._options(report.config))
        self.training_warning.setText(
            fill(
                self.tr(
                    "The context ({n_ctx} tokens) is longer than this model was trained for ({trained}): replies "
                    "may get worse past that length unless the RoPE settings stretch it."
                ),
                n_ctx=f"{report.config.n_ctx:,}",
                trained=f"{report.n_ctx_train:,}",
            )
        )
        self.training_warning.setVisible(report.context_past_training)
        self._show_stages(report.stages)

    def failed(self, message: str) -> None:
        if not self._loading:
            return
        self._loading = False
        self._show_running(False)
        where = self._stage_title(self._stage) if self._stage else ""
        at = f" ({where}, {self._fraction:.0%})" if where else ""
        self.headline.setText(fill(self.tr("Not loaded{at}: {message}"), at=at, message=message))

    @property
    def is_loading(self) -> bool:
        return self._loading

    # ---- parts ---------------------------------------------------------------------

    def _options(self, config: LoadConfig) -> str:
        on, off = self.tr("on"), self.tr("off")
        threads = str(config.n_threads) if config.n_threads else self.tr("automatic")
        speculative = {Speculative.OFF: off, Speculative.AUTO: self.tr("auto"), Speculative.ON: on}[config.speculative]
        if config.draft_model is not None and config.speculative is not Speculative.OFF:
            speculative = fill(self.tr("{mode}, draft model {name}"), mode=speculative, name=config.draft_model.name)
        return fill(
            self.tr(
                "Threads {threads} · flash attention {flash} · K/V cache {k}/{v} · n_batch {batch}, "
                "n_ubatch {ubatch} · mmap {mmap}, mlock {mlock} · speculative decoding {speculative}"
            ),
            threads=threads,
            flash=on if config.flash_attn else off,
            k=config.type_k,
            v=config.type_v,
            batch=str(config.n_batch),
            ubatch=str(config.n_ubatch),
            mmap=on if config.use_mmap else off,
            mlock=on if config.use_mlock else off,
            speculative=speculative,
        )

    def _cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.stage_label.setText(self.tr("Cancelling…"))
        self.cancelRequested.emit()

    def _show_running(self, running: bool) -> None:
        for widget in (self.stage_label, self.progress, self.cancel_button):
            widget.setVisible(running)

    def _show_stages(self, stages: list[LoadStage]) -> None:
        self.timeline.set_spans(
            [Span(self._stage_title(s.name), s.start_s, s.seconds, _worded(s.detail)) for s in stages]
        )
        self.table.clear()
        for index, stage in enumerate(stages):
            item = QTreeWidgetItem(
                [self._stage_title(stage.name), self._duration(stage.seconds), _worded(stage.detail)]
            )
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setForeground(0, self.timeline.colour(index))
            item.setToolTip(2, _worded(stage.detail))
            self.table.addTopLevelItem(item)

    def _duration(self, seconds: float) -> str:
        if seconds >= 1:
            return fill(self.tr("{n} s"), n=f"{seconds:.2f}")
        return fill(self.tr("{n} ms"), n=f"{seconds * 1000:.1f}")

    def _stage_title(self, name: str) -> str:
        titles = {
            "hash check": self.tr("Checking the hash"),
            "check file": self.tr("Checking the file"),
            "prepare": self.tr("Preparing llama.cpp"),
            "read model": self.tr("Reading the model"),
            "read metadata": self.tr("Reading the metadata"),
            "load vocabulary": self.tr("Loading the vocabulary"),
            "GPU offload": self.tr("Offloading to the GPU"),
            "load weights": self.tr("Loading weights"),
            "create context": self.tr("Creating the context"),
            "load projector": self.tr("Loading the projector (images)"),
            "draft model": self.tr("Loading the draft model"),
            "chat template": self.tr("Chat template"),
            "first decode": self.tr("First decode (warm-up)"),
        }
        return titles.get(name, name)


def _worded(detail: str) -> str:
    """A stage's detail in the reader's language: one core text (a template and its fields), or core texts
    joined by " · "."""
    if isinstance(detail, UserText):
        return word(detail)
    return " · ".join(word(part) for part in detail.split(" · "))
