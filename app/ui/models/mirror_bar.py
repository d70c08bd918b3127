"""The Hub mirror in the Models window: which Hugging Face Hub Glassbox talks to, folded into one line.

Where huggingface.co cannot be reached, a mirror that serves the same API stands in for it.
The address is checked before it is kept (the settings' `hub` section; the settings store puts
it in effect at once, see app/core/hub/mirror.py); *Use the default* forgets it. The bar opens
by itself when the Hub cannot be reached (the window calls `offer`).
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlparse

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QToolButton, QVBoxLayout, QWidget

from app.core.hub.mirror import KNOWN_MIRROR, chosen_mirror, endpoint_problem, hub_endpoint, normal_endpoint
from app.core.settings import HubSettings
from app.core.support.formatting import fill
from app.ui.settings.store import SettingsStore
from app.ui.widgets.core_text import word


class MirrorBar(QWidget):
    def __init__(self, store: SettingsStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.toggle = QToolButton(self)
        self.toggle.setText(self.tr("Hub mirror"))
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolTip(self.tr("Where huggingface.co cannot be reached, a mirror stands in for it"))
        self.toggle.toggled.connect(self.set_expanded)
        self.status = QLabel(self)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.toggle)
        header.addWidget(self.status, 1)

        self.body = QWidget(self)
        self.help = QLabel(
            fill(
                self.tr(
                    "Where huggingface.co is blocked or slow (as in mainland China), a mirror that serves the same "
                    "API stands in for it, for example {mirror}. Searches, file lists and downloads go there from "
                    "the next request on. Empty: HF_ENDPOINT if it is set, else huggingface.co."
                ),
                mirror=KNOWN_MIRROR,
            ),
            self.body,
        )
        self.help.setWordWrap(True)
        self.edit = QLineEdit(self.body)
        self.edit.setAccessibleName(self.tr("Hub mirror address"))
        self.edit.setPlaceholderText(KNOWN_MIRROR)
        self.edit.returnPressed.connect(self.save)
        self.save_button = QPushButton(self.tr("Use this mirror"), self.body)
        self.save_button.clicked.connect(self.save)
        self.default_button = QPushButton(self.tr("Use the default"), self.body)
        self.default_button.setToolTip(self.tr("Forget the mirror: HF_ENDPOINT if it is set, else huggingface.co"))
        self.default_button.clicked.connect(self.use_default)
        self.problem = QLabel(self.body)
        self.problem.setWordWrap(True)
        self.problem.setVisible(False)
        entry = QHBoxLayout()
        entry.setContentsMargins(0, 0, 0, 0)
        entry.addWidget(self.edit, 1)
        entry.addWidget(self.save_button)
        entry.addWidget(self.default_button)
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.addWidget(self.help)
        body.addLayout(entry)
        body.addWidget(self.problem)
        self.body.setVisible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(header)
        layout.addWidget(self.body)
        store.hubChanged.connect(self.show_endpoint)
        self.show_endpoint()

    def set_expanded(self, expanded: bool) -> None:
        self.toggle.setChecked(expanded)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)

    def offer(self) -> None:
        """The Hub could not be reached: open the bar (the focus stays where the user was)."""
        self.set_expanded(True)

    def show_endpoint(self) -> None:
        """Which Hub is in use, and where that comes from."""
        host = urlparse(hub_endpoint()).netloc or hub_endpoint()
        if chosen_mirror():
            text = fill(self.tr("Using the mirror {host}."), host=host)
        else:
            text = fill(self.tr("{host} (the default)."), host=host)
        self.status.setText(text)
        self.edit.setText(chosen_mirror())
        self.default_button.setEnabled(bool(chosen_mirror()))

    def save(self) -> None:
        """Keep the address typed (checked first; a bad one is said and nothing changes)."""
        address = normal_endpoint(self.edit.text())
        problem = endpoint_problem(address)
        self.problem.setText(word(problem) if problem is not None else "")
        self.problem.setVisible(problem is not None)
        if problem is None:
            self.store.set_defaults(replace(self.store.settings, hub=HubSettings(address)))

    def use_default(self) -> None:
        self.edit.clear()
        self.save()
