"""What an empty chat shows: a welcome that says what the model on duty is, and what to do next.

The starter model (SmolLM2, 135M parameters) only shows that the app works, so with it the
welcome says so in plain words and offers "Get a better model" (the shell opens the list of
recommended models). With any other model an empty chat names the model and says to type.
While a model loads it shows the load's progress, the stage first (checking the hash can
take a while for a big file) and then llama.cpp's weight-load fraction; when a load fails it
says so in a line (the error banner above has the details). The chat view hides it with the
first message (`ChatView.set_empty_state`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.core.models.starter import find_starter_model
from app.core.support.formatting import fill
from app.core.types.load import LoadConfig
from app.ui.llm.worker import LlmWorker
from app.ui.state_signals import StateSignals

CARD_WIDTH = 560


class WelcomeState(QWidget):
    betterModelRequested = Signal()  # "Get a better model" was clicked

    def __init__(
        self,
        state_signals: StateSignals,
        worker: LlmWorker,
        starter: Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state_signals.state
        self.starter = starter if starter is not None else find_starter_model()
        self._failed = False  # the last load failed (not cancelled); cleared by the next load

        card = QFrame(self)
        card.setMaximumWidth(CARD_WIDTH)
        self.title = QLabel(card)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.4)
        font.setBold(True)
        self.title.setFont(font)
        self.stage = QLabel(card)
        self.progress = QProgressBar(card)
        self.progress.setAccessibleName(self.tr("Loading the model"))
        self.progress.setTextVisible(False)
        self.starter_note = QLabel(card)
        self.starter_note.setWordWrap(True)
        self.starter_note.setTextFormat(Qt.TextFormat.PlainText)
        self.starter_note.setText(
            self.tr(
                "The starter model, SmolLM2, is a tiny demo with 135 million parameters: fine for trying "
                "the app, but too small for real answers. Expect mistakes and made-up facts."
            )
        )
        self.better_button = QPushButton(self.tr("&Get a better model"), card)
        self.better_button.setToolTip(self.tr("Models that fit this computer, one click to download"))
        self.better_button.clicked.connect(self.betterModelRequested.emit)
        self.hint = QLabel(card)
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)

        column = QVBoxLayout(card)
        column.setContentsMargins(0, 24, 0, 0)
        column.setSpacing(12)
        for widget in (self.title, self.stage, self.progress, self.starter_note):
            column.addWidget(widget)
        column.addWidget(self.better_button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addWidget(self.hint)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addStretch(1)
        row.addWidget(card, 100)
        row.addStretch(1)

        state_signals.changed.connect(self.refresh)
        worker.loadStarted.connect(self._on_load_started)
        worker.loadStage.connect(self._on_stage)
        worker.loadProgress.connect(self._on_progress)
        worker.loadFailed.connect(self._on_load_failed)
        self.refresh()

    @property
    def model(self) -> Path | None:
        """The model on duty, or the one loading now."""
        loading = self.state.loading_config
        if self.state.is_loading and loading is not None:
            return Path(loading.model_path)
        return self.state.loaded_model

    @property
    def is_starter(self) -> bool:
        model = self.model
        return model is not None and self.starter is not None and model == self.starter

    def refresh(self) -> None:
        """Say what the model on duty is (or what the load is doing) and what to do next."""
        state = self.state
        if state.is_loading or state.load_report is not None:
            self._failed = False
        model = self.model
        loading = state.is_loading and model is not None
        report = state.load_report
        if loading and model is not None:
            self.title.setText(fill(self.tr("Loading {name}…"), name=model.name))
            hint = self.tr("You can type your message meanwhile; it can be sent once the model is loaded.")
        elif report is not None and report.server:
            self.title.setText(
                fill(self.tr("{name} on {server}"), name=str(report.config.model_path), server=report.server)
            )
            hint = self.tr("Type a message below to start the conversation.")
        elif model is not None and self.is_starter:
            self.title.setText(self.tr("Welcome to Glassbox"))
            hint = self.tr("Type a message below to try it.")
        elif model is not None:
            self.title.setText(model.name)
            hint = self.tr("Type a message below to start the conversation.")
        elif self._failed:
            self.title.setText(self.tr("The model could not be loaded"))
            hint = self.tr("The message above says why. Choose another model in the model picker.")
        else:
            self.title.setText(self.tr("No model loaded"))
            hint = self.tr("Choose a model in the model picker to start.")
        self.hint.setText(hint)
        self.stage.setVisible(loading)
        self.progress.setVisible(loading)
        self.starter_note.setVisible(self.is_starter)
        self.better_button.setVisible(self.is_starter)

    def _on_load_started(self, _config: LoadConfig) -> None:
        self.progress.setRange(0, 0)  # busy until llama.cpp reports the weights' progress
        self.stage.setText(self.tr("Starting…"))

    def _on_stage(self, name: str) -> None:
        titles = {
            "hash check": self.tr("Checking the file's hash"),
            "read model": self.tr("Reading the model"),
            "load weights": self.tr("Loading the weights"),
            "create context": self.tr("Creating the context"),
            "first decode": self.tr("Warming up"),
        }
        self.stage.setText(titles.get(name, name))

    def _on_progress(self, fraction: float) -> None:
        self.progress.setRange(0, 100)
        self.progress.setValue(round(fraction * 100))

    def _on_load_failed(self, _message: str) -> None:
        self._failed = True
        self.refresh()
