"""Help → About Glassbox: the app's version, the versions and licences of what it ships with, build info."""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import __version__
from app.core.diagnostics.versions import Component, main_components, python_packages, system_report
from app.core.paths import resources_dir
from app.core.support.formatting import fill
from app.ui.widgets.core_text import word
from app.ui.widgets.screen_fit import resize_to_fit

ICON_SIZE = 64


class AboutDialog(QDialog):
    """Three tabs: the main components with their licences, every Python package, and a system report."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About Glassbox"))
        resize_to_fit(self, 760, 520)
        layout = QVBoxLayout(self)
        layout.addLayout(self._header())

        self.tabs = QTabWidget(self)
        self.components_view = self._table_view(
            main_components(qVersion()),
            show_role=True,
            note=self.tr(
                "Qt and PySide6 are used under the LGPL-3.0: they are separate shared libraries "
                "inside the Glassbox folder, and you may replace them with your own builds."
            ),
        )
        self.packages_view = self._table_view(python_packages(), show_role=False, note="")
        self.system_view = QPlainTextEdit(self)
        self.system_view.setReadOnly(True)
        self.system_view.setAccessibleName(self.tr("System report"))
        self.system_view.setPlainText(system_report(qVersion(), QGuiApplication.platformName()))
        self.components_view.setAccessibleName(self.tr("Components"))
        self.packages_view.setAccessibleName(self.tr("Python packages"))
        self.tabs.addTab(self.components_view, self.tr("Components"))
        self.tabs.addTab(self.packages_view, self.tr("Python packages"))
        self.tabs.addTab(self._system_tab(), self.tr("System"))
        layout.addWidget(self.tabs, 1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _header(self) -> QHBoxLayout:
        row = QHBoxLayout()
        icon = QLabel(self)
        icon_file = resources_dir() / "icons" / f"glassbox-{ICON_SIZE}.png"
        if icon_file.is_file():
            icon.setPixmap(QIcon(str(icon_file)).pixmap(ICON_SIZE, ICON_SIZE))
        row.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        text = QLabel(self)
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setWordWrap(True)
        text.setText(
            fill(
                self.tr(
                    "<h2>Glassbox {version}</h2>"
                    "<p>Chat with language models on your own computer, and see inside: every stage from the "
                    "model file to the last streamed token.</p>"
                    "<p>Glassbox is free software under the MIT licence.</p>"
                ),
                version=html.escape(__version__),
            )
        )
        row.addWidget(text, 1)
        return row

    def _table_view(self, components: Sequence[Component], show_role: bool, note: str) -> QTextBrowser:
        view = QTextBrowser(self)
        view.setOpenExternalLinks(True)
        headers = [self.tr("Component"), self.tr("Version"), self.tr("Licence")]
        if show_role:
            headers.append(self.tr("Role"))
        rows = "".join(_row(component, show_role) for component in components)
        head = "".join(f"<th align='left'>{html.escape(title)}</th>" for title in headers)
        footer = f"<p>{html.escape(note)}</p>" if note else ""
        view.setHtml(f"<table cellspacing='0' cellpadding='4'><tr>{head}</tr>{rows}</table>{footer}")
        return view

    def _system_tab(self) -> QWidget:
        tab = QWidget(self)
        layout = QVBoxLayout(tab)
        layout.addWidget(self.system_view, 1)
        self.copy_button = QPushButton(self.tr("Copy to clipboard"), tab)
        self.copy_button.setToolTip(self.tr("For bug reports: the versions and the llama.cpp build"))
        self.copy_button.clicked.connect(self.copy_system_report)
        layout.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignRight)
        return tab

    def copy_system_report(self) -> None:
        QGuiApplication.clipboard().setText(self.system_view.toPlainText())


def _row(component: Component, show_role: bool) -> str:
    name = html.escape(component.name)
    if component.url:
        name = f"<a href='{html.escape(component.url, quote=True)}'>{name}</a>"
    cells = [f"<td>{name}</td>", f"<td>{html.escape(component.version)}</td>"]
    cells.append(f"<td nowrap>{html.escape(component.license)}</td>")
    if show_role:
        cells.append(f"<td>{html.escape(word(component.role))}</td>")
    return "<tr>" + "".join(cells) + "</tr>"


def show_about_dialog(parent: QWidget) -> AboutDialog:
    """Open the dialog beside `parent` without blocking it; it deletes itself when closed."""
    dialog = AboutDialog(parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
