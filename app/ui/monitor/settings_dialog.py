"""Monitor settings: where each alert is raised (each can be turned off), idle unload, and degradation.

Reached from the Monitor panel and from Tools → Monitor settings…. Each alert has a check
box and its threshold; an alert turned off is saved as 0 (the settings' "off"), and turned
on again it comes back with the threshold it had (or its default). The values are checked
against the settings' bounds when saved; a refusal is shown in the dialog, which then stays
open with nothing lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QGridLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from app.core.inference.sampling import InvalidSetting
from app.core.settings import MONITOR_FIELDS, MonitorSettings
from app.ui.widgets.theme import Tone, set_tone

log = logging.getLogger(__name__)

Save = Callable[[Mapping[str, Any]], None]  # raises InvalidSetting for a value out of bounds


@dataclass(frozen=True)
class _Shape:
    """How one threshold is edited: its unit, its precision, and the scale between the editor and the setting."""

    suffix: str
    decimals: int = 0
    step: float = 1.0
    scale: float = 1.0  # shown = stored × scale (a share of 1 shown in %)
    lowest: float = 1.0  # the smallest value that is "on", as shown


class _Threshold:
    """A check box (on or off) and the threshold's spin box."""

    def __init__(self, name: str, text: str, explanation: str, shape: _Shape, value: float, parent: QWidget) -> None:
        spec = MONITOR_FIELDS[name]
        self.name = name
        self.shape = shape
        self.check = QCheckBox(text, parent)
        self.check.setObjectName(f"{name}_on")
        self.box = QDoubleSpinBox(parent)
        self.box.setObjectName(name)
        self.box.setDecimals(shape.decimals)
        self.box.setSingleStep(shape.step)
        self.box.setRange(shape.lowest, spec.maximum * shape.scale)
        self.box.setSuffix(shape.suffix)
        self.explanation = QLabel(explanation, parent)
        self.explanation.setWordWrap(True)
        set_tone(self.explanation, Tone.NOTE)
        default = float(getattr(MonitorSettings(), name))
        self._kept = value if value > 0 else default  # what "on" comes back with
        self.box.setValue(self._kept * shape.scale)
        self.check.setChecked(value > 0)
        self.box.setEnabled(value > 0)
        self.check.toggled.connect(self.box.setEnabled)

    @property
    def value(self) -> float:
        """The setting's value: 0 when off."""
        return self.box.value() / self.shape.scale if self.check.isChecked() else 0.0


class MonitorSettingsDialog(QDialog):
    def __init__(self, settings: MonitorSettings, save: Save, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MonitorSettingsDialog")
        self.setWindowTitle(self.tr("Monitor settings"))
        self._save = save
        layout = QVBoxLayout(self)
        heading = QLabel(self.tr("Alerts are shown above the chat and written to the log, once per episode."), self)
        heading.setWordWrap(True)
        layout.addWidget(heading)
        grid = QGridLayout()
        self.thresholds: dict[str, _Threshold] = {}
        for row, (name, text, explanation, shape) in enumerate(self._rows()):
            threshold = _Threshold(name, text, explanation, shape, float(getattr(settings, name)), self)
            self.thresholds[name] = threshold
            grid.addWidget(threshold.check, row * 2, 0)
            grid.addWidget(threshold.box, row * 2, 1)
            grid.addWidget(threshold.explanation, row * 2 + 1, 0, 1, 2)
        grid.setColumnStretch(0, 1)
        layout.addLayout(grid)
        self.smaller_variant = QCheckBox(
            self.tr("When a model does not fit, load a more heavily quantized copy of it by itself"), self
        )
        self.smaller_variant.setObjectName("switch_to_smaller_variant")
        self.smaller_variant.setChecked(settings.switch_to_smaller_variant)
        self.smaller_variant.setToolTip(
            self.tr(
                "A copy already in the library that the memory planner says fits; you are always told which. "
                "Off: it is offered instead."
            )
        )
        layout.addWidget(self.smaller_variant)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        set_tone(self.error, Tone.ERROR)
        self.error.hide()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _rows(self) -> list[tuple[str, str, str, _Shape]]:
        percent = _Shape(" %")
        return [
            (
                "vram_percent",
                self.tr("GPU memory fuller than"),
                self.tr("By Glassbox and other programs together; a load or a longer context may then fail."),
                percent,
            ),
            (
                "ram_available_percent",
                self.tr("Available RAM under"),
                self.tr("The system may start swapping and everything slows down."),
                percent,
            ),
            (
                "swap_growth_mib",
                self.tr("Swap growing by more than"),
                self.tr("While a model is loaded: its memory may be paged out."),
                _Shape(" MiB", step=64),
            ),
            (
                "context_percent",
                self.tr("Context window fuller than"),
                self.tr("The oldest messages will soon drop out of what the model sees."),
                percent,
            ),
            (
                "slow_tokens_fraction",
                self.tr("Replies slower than this share of the model's usual speed"),
                self.tr("The usual speed is this model's median on this machine (another program, or throttling)."),
                _Shape(" %", step=5, scale=100, lowest=5),
            ),
            (
                "slow_first_token_factor",
                self.tr("First token slower than its usual time by this factor"),
                self.tr("Allowing for a long prompt at the usual prompt speed; never under a second."),
                _Shape(" ×", decimals=1, step=0.5, lowest=1.5),
            ),
            (
                "failed_replies",
                self.tr("Failed replies in a row"),
                self.tr("An engine error, a crash or a refused request, this many times running."),
                _Shape(""),
            ),
            (
                "idle_vram_minutes",
                self.tr("Idle model holding GPU memory for"),
                self.tr("Offers to unload it; the next message loads it again."),
                _Shape(" min"),
            ),
            (
                "idle_unload_minutes",
                self.tr("Unload an idle model by itself after"),
                self.tr("Frees its memory without asking; the next message loads it again, shown as any load."),
                _Shape(" min"),
            ),
        ]

    def values(self) -> dict[str, Any]:
        """The monitor settings as edited (thresholds turned off are 0)."""
        values: dict[str, Any] = {}
        for name, threshold in self.thresholds.items():
            value = threshold.value
            values[name] = round(value) if MONITOR_FIELDS[name].kind == "int" else value
        values["switch_to_smaller_variant"] = self.smaller_variant.isChecked()
        return values

    def accept(self) -> None:
        try:
            self._save(self.values())
        except InvalidSetting as error:
            log.info("Monitor settings refused: %s", error)
            self.error.setText(str(error))
            self.error.show()
            return
        super().accept()
