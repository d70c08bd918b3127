"""The application state (app.core.state) as Qt signals, for the widgets that follow it.

The shell owns one `StateSignals` and hands it to every feature; they read `state` and
connect to the signals, and never need the main window for it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from app.core.state import AppState, Change


class StateSignals(QObject):
    changed = Signal()  # after every change
    modelLoaded = Signal(object)  # LoadReport: a model is on duty
    streamingChanged = Signal(bool)  # a reply started (True) or is no longer written (False)

    def __init__(self, state: AppState | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.state = state or AppState()
        self._streaming = self.state.is_streaming
        self.state.subscribe(self._on_change)

    def _on_change(self, change: Change) -> None:
        if change is Change.MODEL_LOADED:
            self.modelLoaded.emit(self.state.load_report)
        if self.state.is_streaming != self._streaming:
            self._streaming = self.state.is_streaming
            self.streamingChanged.emit(self._streaming)
        self.changed.emit()
