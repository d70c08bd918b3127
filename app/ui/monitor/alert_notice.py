"""Alerts as a strip of notices above the chat: never a dialog, never in the way of typing.

One row per alert now raised, worded here from its kind and numbers (the core's English
message is for the log). A row goes away by itself when its episode ends, or with its ✕;
a dismissed alert comes back only as a new episode. The idle-model alert has an Unload
button.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from app.core.monitor.alerts import Alert, AlertKind
from app.core.support.formatting import fill, format_bytes
from app.ui.widgets.theme import Colours, keep_styled


def _style(c: Colours) -> str:
    """Alerts look like the banner's warnings, in the theme's colours."""
    warning = c.notice("warning")
    return (
        f"#AlertRow {{ background: {warning.background}; border: 1px solid {warning.border}; border-radius: 6px; }}"
        f"#AlertRow QLabel {{ color: {warning.text}; }}"
    )


class AlertNotice(QFrame):
    unloadRequested = Signal()  # the user asked to unload the idle model

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("AlertNotice")
        keep_styled(self, _style)
        self._alerts: dict[tuple[AlertKind, str], Alert] = {}
        self._rows: dict[tuple[AlertKind, str], QFrame] = {}
        # Each row's buttons and the alert they belong to. The buttons call bound methods, which Qt
        # holds weakly: a lambda holding `self` would keep this widget alive until a row's deletion and
        # then destroy it from inside that deletion.
        self._buttons: dict[QObject, tuple[AlertKind, str]] = {}
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)
        self.setVisible(False)

    # ---- what the panel tells ------------------------------------------------------------

    def show_alert(self, alert: Alert) -> None:
        self.clear_alert(alert)
        self._alerts[alert.key] = alert
        row = self._row(alert)
        self._rows[alert.key] = row
        self._layout.insertWidget(0, row)
        self.setVisible(True)

    def clear_alert(self, alert: Alert) -> None:
        self._alerts.pop(alert.key, None)
        row = self._rows.pop(alert.key, None)
        self._buttons = {button: key for button, key in self._buttons.items() if key != alert.key}
        if row is not None:
            self._layout.removeWidget(row)
            row.deleteLater()
        self.setVisible(bool(self._rows))

    def texts(self) -> list[str]:
        """The alerts on show, newest first."""
        return [self.text_for(alert) for alert in reversed(self._alerts.values())]

    # ---- rows ------------------------------------------------------------------------------

    def _row(self, alert: Alert) -> QFrame:
        row = QFrame(self)
        row.setObjectName("AlertRow")
        layout = QHBoxLayout(row)
        layout.setContentsMargins(10, 6, 6, 6)
        label = QLabel(self.text_for(alert), row)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(label, 1)
        if alert.offer_unload:
            unload = QPushButton(self.tr("Unload"), row)
            unload.setObjectName("UnloadIdleModel")
            unload.clicked.connect(self._on_unload_clicked)
            self._buttons[unload] = alert.key
            layout.addWidget(unload)
        close = QToolButton(row)
        close.setObjectName("DismissAlert")
        close.setText("✕")
        close.setToolTip(self.tr("Dismiss"))
        close.clicked.connect(self._on_dismiss_clicked)
        self._buttons[close] = alert.key
        layout.addWidget(close)
        return row

    @Slot()
    def _on_dismiss_clicked(self) -> None:
        alert = self._clicked_alert()
        if alert is not None:
            self.clear_alert(alert)

    @Slot()
    def _on_unload_clicked(self) -> None:
        alert = self._clicked_alert()
        if alert is not None:
            self.clear_alert(alert)
            self.unloadRequested.emit()

    def _clicked_alert(self) -> Alert | None:
        key = self._buttons.get(self.sender())
        return self._alerts.get(key) if key is not None else None

    def text_for(self, alert: Alert) -> str:
        """The alert in the user's language, from its kind and numbers."""
        f: dict[str, Any] = dict(alert.fields)
        kind = alert.kind
        if kind is AlertKind.VRAM_HIGH:
            return fill(
                self.tr(
                    "GPU {gpu} ({name}) memory is {percent} % full: {used} of {total}, other programs hold "
                    "{others}. A load or a longer context may run out of GPU memory."
                ),
                gpu=f["gpu"],
                name=f["name"],
                percent=f"{f['percent']:.0f}",
                used=format_bytes(f["used"]),
                total=format_bytes(f["total"]),
                others=format_bytes(f["others"]),
            )
        if kind is AlertKind.RAM_LOW:
            return fill(
                self.tr(
                    "Only {percent} % of the RAM is available ({available} of {total}). The system may start "
                    "swapping; close other programs or use a smaller model."
                ),
                percent=f"{f['percent']:.0f}",
                available=format_bytes(f["available"]),
                total=format_bytes(f["total"]),
            )
        if kind is AlertKind.SWAP_GROWING:
            return fill(
                self.tr(
                    "Swap use grew by {growth} while {model} is loaded: the machine is short of RAM and replies "
                    "may crawl. Close other programs or use a smaller model."
                ),
                growth=format_bytes(f["growth"]),
                model=f["model"],
            )
        if kind is AlertKind.CONTEXT_FULL:
            return fill(
                self.tr(
                    "The conversation fills {percent} % of the context window ({used} of {n_ctx} tokens); the "
                    "oldest messages will drop out of what the model sees. Start a new chat to keep them."
                ),
                percent=f"{f['percent']:.0f}",
                used=f"{f['used']:,}",
                n_ctx=f"{f['n_ctx']:,}",
            )
        if kind is AlertKind.SLOW_TOKENS:
            cause = (
                fill(self.tr("The GPU is at {temperature} °C and may be throttling."), temperature=f["temperature_c"])
                if f.get("temperature_c") is not None and f["temperature_c"] >= 80
                else self.tr("Another program may be using the GPU or the CPU, or the machine is throttling.")
            )
            return fill(
                self.tr("This reply ran at {speed} tokens/s, under half of this model's usual {usual}. {cause}"),
                speed=f"{f['tokens_per_s']:.1f}",
                usual=f"{f['usual']:.1f}",
                cause=cause,
            )
        if kind is AlertKind.SLOW_FIRST_TOKEN:
            return fill(
                self.tr(
                    "The first token took {ttft} s, far above the usual {usual} s for {tokens} new prompt "
                    "tokens. Another program may be using the GPU or the CPU."
                ),
                ttft=f"{f['ttft_s']:.1f}",
                usual=f"{f['usual_s']:.1f}",
                tokens=f"{f['evaluated_tokens']:,}",
            )
        if kind is AlertKind.FAILED_REPLIES:
            return fill(
                self.tr("The last {count} replies failed. The latest said: {error}"),
                count=f["count"],
                error=f["last_error"],
            )
        return fill(
            self.tr(
                "{model} has not been used for {minutes} minutes and holds {vram} of GPU memory. Unload it to "
                "free the GPU; the next message loads it again."
            ),
            model=f["model"],
            minutes=f"{f['minutes']:.0f}",
            vram=format_bytes(f["vram"]),
        )
