"""Compare decoding: the same prompt with greedy, beam search and N seeded replies, side by side.

The dialog asks for a comparison (`compareRequested` with a CompareRequest) and shows each
strategy's result as it arrives (`add_result`), then the end (`finish`, with an error text
or ""). It runs nothing itself: whoever owns the backend (the LLM worker's thread) runs
`app.core.inference.compare.compare_strategies` and feeds the results back, so the
backend is never used from two threads.

Every reply is scored with the model's own distribution, so the columns compare alike:
total and mean log-probability per token, perplexity, length and speed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.inference.beam_search import MAX_WIDTH, BeamSettings
from app.core.inference.compare import StrategyResult
from app.ui.widgets.core_text import word
from app.ui.widgets.screen_fit import resize_to_fit
from app.ui.widgets.tables import read_only_item, style_row_table

MAX_SEEDS = 8
FIRST_SEED = 1


@dataclass(frozen=True)
class CompareRequest:
    beam: BeamSettings
    seeds: tuple[int, ...]
    max_tokens: int = 64  # the longest reply of every strategy


class CompareDialog(QDialog):
    compareRequested = Signal(object)  # CompareRequest
    stopRequested = Signal()

    COLUMNS = 7

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Compare decoding"))
        resize_to_fit(self, 960, 420)
        self.results: list[StrategyResult] = []
        intro = QLabel(
            self.tr(
                "The last prompt of this chat, answered by greedy decoding, by beam search and by sampling with "
                "several seeds. Each reply is scored by the model itself: a higher log-probability (nearer 0) and "
                "a lower perplexity mean the model finds the reply more likely. Greedy here may differ from the "
                "chat's greedy reply where two tokens are nearly tied: the chat's prompt was partly reused from "
                "the KV cache, computed in other batches."
            ),
            self,
        )
        intro.setWordWrap(True)

        self.width_box = QSpinBox(self)
        self.width_box.setRange(2, MAX_WIDTH)
        self.width_box.setValue(4)
        self.alpha_box = QDoubleSpinBox(self)
        self.alpha_box.setRange(0.0, 5.0)
        self.alpha_box.setSingleStep(0.1)
        self.alpha_box.setValue(1.0)
        self.alpha_box.setToolTip(
            self.tr("GNMT length penalty: score = log-probability / ((5 + length) / 6) ^ alpha; 0 ranks by the sum")
        )
        self.seeds_box = QSpinBox(self)
        self.seeds_box.setRange(1, MAX_SEEDS)
        self.seeds_box.setValue(3)
        self.tokens_box = QSpinBox(self)
        self.tokens_box.setRange(1, 1024)
        self.tokens_box.setValue(64)
        self.tokens_box.setToolTip(self.tr("The longest reply of every strategy, in tokens"))
        form = QFormLayout()
        form.addRow(self.tr("&Max tokens:"), self.tokens_box)
        form.addRow(self.tr("Beam &width:"), self.width_box)
        form.addRow(self.tr("&Length penalty (alpha):"), self.alpha_box)
        form.addRow(self.tr("Sampled &replies (seeds):"), self.seeds_box)

        self.table = QTableWidget(0, self.COLUMNS, self)
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Strategy"),
                self.tr("Total log-prob"),
                self.tr("Mean log-prob"),
                self.tr("Perplexity"),
                self.tr("Tokens"),
                self.tr("Tokens/s"),
                self.tr("Reply"),
            ]
        )
        self.table.setAccessibleName(self.tr("Decoding strategies compared"))
        style_row_table(self.table)
        self.table.horizontalHeader().setStretchLastSection(True)

        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.run_button = QPushButton(self.tr("&Compare"), self)
        self.run_button.clicked.connect(self.request_comparison)
        self.stop_button = QPushButton(self.tr("&Stop"), self)
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stopRequested.emit)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(close)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

    def request(self) -> CompareRequest:
        beam = BeamSettings(width=self.width_box.value(), alpha=self.alpha_box.value())
        seeds = tuple(range(FIRST_SEED, FIRST_SEED + self.seeds_box.value()))
        return CompareRequest(beam, seeds, self.tokens_box.value())

    def request_comparison(self) -> None:
        self.results.clear()
        self.table.setRowCount(0)
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.status.setText(self.tr("Comparing…"))
        self.compareRequested.emit(self.request())

    def add_result(self, result: StrategyResult) -> None:
        self.results.append(result)
        row = self.table.rowCount()
        self.table.insertRow(row)
        perplexity = "—" if math.isnan(result.perplexity) else f"{result.perplexity:.2f}"
        cells = [
            read_only_item(word(result.label)),
            read_only_item(f"{result.total_logprob:.2f}", align_right=True),
            read_only_item(f"{result.mean_logprob:.3f}", align_right=True),
            read_only_item(perplexity, align_right=True),
            read_only_item(str(result.length), align_right=True),
            read_only_item(f"{result.tokens_per_s:.1f}", align_right=True),
            read_only_item(" ".join(result.text.split()), tooltip=result.text),
        ]
        for column, item in enumerate(cells):
            self.table.setItem(row, column, item)
        self._mark_best()

    def finish(self, error: str = "") -> None:
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        if error:
            self.status.setText(word(error))
        else:
            self.status.setText(self.tr("%n strategies compared.", "", len(self.results)))

    def _mark_best(self) -> None:
        """Bold the most likely reply per token (the highest mean log-probability)."""
        best = max(range(len(self.results)), key=lambda i: self.results[i].mean_logprob)
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 2)
            if item is None:
                continue
            font = item.font()
            font.setBold(row == best)
            item.setFont(font)
            item.setData(Qt.ItemDataRole.AccessibleDescriptionRole, self.tr("most likely") if row == best else "")


def add_compare_action(menu: QMenu, dialog_parent: QWidget) -> tuple[QAction, CompareDialog]:
    """The Chat menu's "Compare decoding…" entry and the dialog it opens (for the shell to wire to the worker)."""
    dialog = CompareDialog(dialog_parent)
    action = menu.addAction(dialog_parent.tr("Compare &decoding…"))
    action.setToolTip(dialog_parent.tr("Greedy, beam search and sampled replies to the last prompt, side by side"))
    action.triggered.connect(dialog.show)
    return action, dialog
