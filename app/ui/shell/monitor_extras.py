"""What the shell adds around the Monitor panel: its settings dialog, smaller variants, the server's metrics.

- Tools → Monitor settings… (and the panel's Alerts… button) open MonitorSettingsDialog; the
  values are saved with the settings, which the panel follows at once.
- A model that does not fit (SmallerVariants): the offer goes to the banner with a button that
  loads the installed variant, or the variant is loaded at once when the settings say so
  (never cutting a reply short); the Monitor's VRAM alert with a model on the GPU asks whether
  it still fits.
- While the API server runs, its GET /metrics carries the Monitor's latest readings and alerts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from app.core.monitor.alerts import Alert, AlertKind
from app.core.monitor.degradation import DegradationOffer
from app.core.monitor.samples import ResourceSample
from app.core.state import AppState
from app.core.support.formatting import fill
from app.core.types.load import LoadConfig
from app.ui import message
from app.ui.llm.worker import LlmWorker
from app.ui.monitor.panel import MonitorPanel
from app.ui.monitor.settings_dialog import MonitorSettingsDialog

if TYPE_CHECKING:
    from app.core.server.server import ApiServer  # FastAPI: imported when the server first starts
from app.ui.monitor.smaller_variants import SmallerVariants, describe
from app.ui.settings.store import SettingsStore
from app.ui.widgets.error_banner import NoticeAction


class MonitorExtras(QObject):
    def __init__(
        self,
        panel: MonitorPanel,
        worker: LlmWorker,
        state: AppState,
        settings: SettingsStore,
        load: Callable[[LoadConfig], None],  # save the config's GPU layers and context, and load it
        server: Callable[[], ApiServer | None],
        tools_menu: QMenu,
        parent: QWidget,
    ) -> None:
        super().__init__(parent)
        self._panel = panel
        self._state = state
        self._settings = settings
        self._load = load
        self._server = server
        self._dialog_parent = parent
        self.settings_action = QAction(self.tr("Monitor settings…"), parent)
        self.settings_action.setToolTip(self.tr("Alert thresholds, idle unload and smaller variants"))
        self.settings_action.triggered.connect(self.open_settings)
        tools_menu.addAction(self.settings_action)
        panel.settingsRequested.connect(self.open_settings)
        settings.monitorChanged.connect(lambda: panel.apply_settings(settings.settings.monitor))
        self.smaller_variants = SmallerVariants(
            worker, lambda: settings.settings.monitor.switch_to_smaller_variant, parent=self
        )
        self.smaller_variants.offered.connect(self._offer)
        self.smaller_variants.switchRequested.connect(self._switch)
        panel.alertRaised.connect(self._check_fit_on_vram_alert)
        panel.sampled.connect(self._export_to_server)

    def open_settings(self) -> MonitorSettingsDialog:
        """The alerts' thresholds (each can be turned off), idle unload and degradation; saved with the settings."""
        dialog = MonitorSettingsDialog(self._settings.settings.monitor, self._settings.set_monitor, self._dialog_parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def request_stop(self) -> None:
        self.smaller_variants.request_stop()

    def shutdown(self) -> None:
        self.smaller_variants.shutdown()

    def _offer(self, config: LoadConfig | None, offer: DegradationOffer) -> None:
        """A smaller variant would fit: said, with a button to load it when it is in the library."""
        action = None
        if config is not None:
            label = fill(self.tr("Load {name}"), name=config.model_path.name)
            action = NoticeAction(label, lambda: self._load(config))
        message.warning(describe(offer), action)

    def _switch(self, config: LoadConfig, offer: DegradationOffer) -> None:
        """The settings ask for the smaller variant at once: loaded, and said (a reply in progress is not cut)."""
        if self._state.is_streaming:
            self._offer(config, offer)
            return
        message.warning(describe(offer, switching=True))
        self._load(config)

    def _check_fit_on_vram_alert(self, alert: Alert) -> None:
        """VRAM filled up with a model on the GPU: does it still fit as asked, or would a smaller variant?"""
        report = self._state.load_report
        if alert.kind is not AlertKind.VRAM_HIGH or report is None or report.server:
            return
        if report.config.n_gpu_layers != 0:
            self.smaller_variants.vram_taken(report.config)

    def _export_to_server(self, sample: ResourceSample) -> None:
        server = self._server()
        if server is not None:
            server.metrics.observe_sample(sample)
            server.metrics.set_alerts(self._panel.alerts.active())
