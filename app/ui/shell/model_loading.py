"""Loading the model that answers, a local one or a server's, and saying in the status bar how it went."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QProgressBar

from app.core.backends.servers import ServerModel
from app.core.state import AppState
from app.core.support.formatting import fill
from app.core.types.load import LoadConfig, LoadReport
from app.ui.llm.worker import LlmWorker
from app.ui.widgets.error_banner import ErrorBanner


class ModelLoader(QObject):
    """Asks the worker for a load (after stopping a reply) and follows it: progress, the result, a lost engine.

    `load_config` sets up the load of a model file from the saved model settings; `stop_reply`
    ends a reply first (the worker loads once it has ended).
    """

    def __init__(
        self,
        state: AppState,
        worker: LlmWorker,
        status: QLabel,
        progress: QProgressBar,
        banner: ErrorBanner,
        load_config: Callable[[Path], LoadConfig],
        stop_reply: Callable[[], None],
    ) -> None:
        super().__init__(status)
        self.state = state
        self.worker = worker
        self.status = status
        self.progress = progress
        self.banner = banner
        self._load_config = load_config
        self._stop_reply = stop_reply
        worker.loadProgress.connect(self._on_progress)
        worker.loaded.connect(self._on_loaded)
        worker.loadFailed.connect(self._on_failed)
        worker.loadCancelled.connect(self._on_cancelled)
        worker.engineLost.connect(self._on_engine_lost)

    def load(self, path: Path) -> None:
        self._stop_reply()  # the worker loads once the reply has ended
        config = self._load_config(path)
        self.status.setText(fill(self.tr("Loading {name}…"), name=path.name))
        self.progress.setValue(0)
        self.progress.show()
        self.state.load_started(config)
        self.worker.loadRequested.emit(config)

    def use_server_model(self, choice: ServerModel) -> None:
        """Chat with a model on a saved server from the next reply on (the local model is freed)."""
        self._stop_reply()
        self.status.setText(fill(self.tr("Connecting to {server}…"), server=choice.server.name))
        self.state.load_started(LoadConfig(Path(choice.model.id), n_ctx=choice.model.context_length or 0))
        self.worker.selectServerRequested.emit(choice)

    def _on_progress(self, fraction: float) -> None:
        self.progress.setValue(int(fraction * 100))

    def _on_loaded(self, report: LoadReport) -> None:
        self.progress.hide()
        if report.server:
            self.status.setText(
                fill(
                    self.tr("{name} on {server} · context {n_ctx} tokens"),
                    name=str(report.config.model_path),
                    server=report.server,
                    n_ctx=report.config.n_ctx,
                )
            )
            self.state.load_finished(report)
            return
        self.status.setText(
            fill(
                self.tr("{name} loaded in {seconds} s · context {n_ctx} tokens"),
                name=Path(report.config.model_path).name,
                seconds=f"{report.total_seconds:.2f}",
                n_ctx=report.config.n_ctx,
            )
        )
        if report.draft_refused:
            self.banner.show_error(report.draft_refused, logging.WARNING)
        self.state.load_finished(report)

    def _on_cancelled(self, _message: str) -> None:
        """A cancel the user (or closing) asked for: said in the status bar, no error banner."""
        self.progress.hide()
        if not self.state.is_closing:
            self.status.setText(self.tr("Loading cancelled; no model loaded"))
        self.state.load_failed()

    def _on_failed(self, message: str) -> None:
        self.progress.hide()
        self.status.setText(self.tr("No model loaded"))
        self.banner.show_error(message)
        self.state.load_failed()

    def _on_engine_lost(self, _message: str) -> None:
        """The engine process died (the reply's own notice says how); the window and the chat stay."""
        if not self.state.model_lost():
            return
        self.status.setText(self.tr("No model loaded: the engine stopped"))
        self.banner.show_error(
            self.tr("The model is no longer loaded. Choose it in the model picker to load it again, or pick another.")
        )
