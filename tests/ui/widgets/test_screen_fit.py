"""A window or dialog asks for its size and gets at most what the screen it opens on has free."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from app.ui.shell.about_dialog import AboutDialog
from app.ui.widgets.screen_fit import SCREEN_SHARE, resize_to_fit


def test_a_size_larger_than_the_screen_is_cut_to_its_free_area(qtbot: QtBot) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    resize_to_fit(dialog, 5000, 4000)
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert dialog.width() == int(area.width() * SCREEN_SHARE)
    assert dialog.height() == int(area.height() * SCREEN_SHARE)


def test_a_size_that_fits_is_kept_and_centre_puts_it_in_the_middle(qtbot: QtBot) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    resize_to_fit(dialog, 300, 200, centre=True)
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert (dialog.width(), dialog.height()) == (300, 200)
    assert dialog.geometry().center().x() in range(area.center().x() - 2, area.center().x() + 3)


def test_the_dialogs_fit_a_small_screen(qtbot: QtBot) -> None:
    about = AboutDialog()
    qtbot.addWidget(about)
    area = QGuiApplication.primaryScreen().availableGeometry()
    assert about.width() <= area.width() and about.height() <= area.height()
