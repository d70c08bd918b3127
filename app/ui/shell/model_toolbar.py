"""The main toolbar: the model picker, its load settings, Models… and Eject (Open file… is placed beside the
picker later)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QToolBar, QToolButton, QWidget

from app.ui.widgets.icons import set_icon


class ModelToolbar(QToolBar):
    """Lays out the model's controls; the window wires what they do (its actions belong to the window)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Main"))
        self.setObjectName("MainToolbar")
        self.setMovable(False)
        self.addWidget(QLabel(self.tr(" Model: "), self))
        self.picker = QComboBox(self)
        self.picker.setMinimumWidth(320)
        self.picker.setToolTip(self.tr("The model that answers; choosing one loads it"))
        self.addWidget(self.picker)
        self.load_settings = QAction(self.tr("Load settings…"), parent)
        self.load_settings.setToolTip(
            self.tr("The chosen model's own load settings: context length, GPU layers, KV cache, chat template…")
        )
        self.addAction(self.load_settings)
        self.models = QAction(self.tr("Models…"), parent)
        self.models.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.models.setToolTip(self.tr("Find, download and manage models (Ctrl+Shift+M)"))
        self.addAction(self.models)
        self.eject = QAction(self.tr("Eject"), parent)
        self.eject.setToolTip(self.tr("Unload the model and free its memory; the next message loads it again"))
        self.addAction(self.eject)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.models, "models")
        set_icon(self.eject, "eject")
        set_icon(self.load_settings, "load-settings")
        button = self.widgetForAction(self.load_settings)
        if isinstance(button, QToolButton):  # an icon beside the picker, as narrow as it can be
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
