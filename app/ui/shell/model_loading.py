"""Loading the model that answers, a local one or a server's, and saying in the status bar how it went;
freeing it (Unload, idle too long) and loading it again with other settings (the GPU panel, a fall-back)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QProgressBar

from app.core.backends.servers import ServerModel
from app.core.memory.fallback import FallbackResult
from app.core.models.library import projector_of
from app.core.paths import app_paths
from app.core.state import AppState
from app.core.support.formatting import fill
from app.core.types.load import LoadConfig, LoadReport
from app.ui import message
from app.ui.llm.worker import LlmWorker
from app.ui.settings.store import SettingsStore


class ModelLoader(QObject):
    """Asks the worker for a load (after stopping a reply) and follows it: progress, the result, a lost engine.

    A model file loads with its saved model settings (the store's), and with the projector the library
    pairs with it when no projector was chosen; `stop_reply` ends a reply
    first (the worker loads once it has ended). A model unloaded on purpose is remembered until
    `take_unloaded`: the next message loads it again.
    """

    def __init__(
        self,
        state: AppState,
        worker: LlmWorker,
        status: QLabel,
        progress: QProgressBar,
        store: SettingsStore,
        stop_reply: Callable[[], None],
    ) -> None:
        super().__init__(status)
        self.state = state
        self.worker = worker
        self.status = status
        self.progress = progress
        self.store = store
        self._stop_reply = stop_reply
        self._unloaded: Path | None = None
        worker.loadProgress.connect(self._on_progress)
        worker.loaded.connect(self._on_loaded)
        worker.loadFailed.connect(self._on_failed)
        worker.loadCancelled.connect(self._on_cancelled)
        worker.engineLost.connect(self._on_engine_lost)
        worker.loadFellBack.connect(self._on_fell_back)

    def load(self, path: Path) -> None:
        self._stop_reply()  # the worker loads once the reply has ended
        config = self.store.model_settings(path.name).load_config(path)
        if config.mmproj is None:  # none chosen: a vision model's projector, found beside it, comes with it
            config = replace(config, mmproj=projector_of(app_paths().models, path))
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
            message.warning(report.draft_refused)
        if report.template_warning:  # a base model: said plainly, as a notice (nothing failed)
            message.info(report.template_warning)
        self.state.load_finished(report)

    def _on_cancelled(self, _message: str) -> None:
        """A cancel the user (or closing) asked for: said in the status bar, no error banner."""
        self.progress.hide()
        if not self.state.is_closing:
            self.status.setText(self.tr("Loading cancelled; no model loaded"))
        self.state.load_failed()

    def _on_failed(self, text: str) -> None:
        self.progress.hide()
        self.status.setText(self.tr("No model loaded"))
        message.error(text)
        self.state.load_failed()

    def _on_engine_lost(self, _message: str) -> None:
        """The engine process died (the reply's own notice says how); the window and the chat stay."""
        if not self.state.model_lost():
            return
        self.status.setText(self.tr("No model loaded: the engine stopped"))
        message.error(
            self.tr("The model is no longer loaded. Choose it in the model picker to load it again, or pick another.")
        )

    def unload(self) -> None:
        """Free the model now (the user's Unload, or idle for too long); the next message loads it again."""
        report = self.state.load_report
        if report is None or report.server or not self.state.model_unloaded():
            return
        self._unloaded = Path(report.config.model_path)
        self.worker.unloadRequested.emit()
        self.status.setText(self.tr("Model unloaded; the next message loads it again"))

    def unload_when_idle(self, text: str) -> None:
        self.unload()
        message.info(text)

    def take_unloaded(self) -> Path | None:
        """The model unloaded on purpose, if it still is (asked once: the next message loads it)."""
        unloaded, self._unloaded = self._unloaded, None
        return unloaded

    def on_duty(self) -> Path | None:
        """The local model that answers now, or the one unloaded on purpose that the next message loads again."""
        report = self.state.load_report
        if report is not None and not report.server:
            return Path(report.config.model_path)
        return self._unloaded

    def apply(self, config: LoadConfig) -> None:
        """Save the GPU layers and context length chosen (GPU panel, smaller variants) as that model's own,
        and reload with them."""
        path = Path(config.model_path)
        self.store.set_model({"n_gpu_layers": config.n_gpu_layers, "n_ctx": config.n_ctx}, path.name)
        self.load(path)

    def _on_fell_back(self, result: FallbackResult) -> None:
        """Out of GPU memory: the load went on with fewer layers, and that setting now holds for that model
        (and is saved)."""
        self.store.set_model({"n_gpu_layers": result.config.n_gpu_layers}, Path(result.config.model_path).name)
        message.warning(result.message)
