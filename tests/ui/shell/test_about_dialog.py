"""Help → About Glassbox: versions of the app, Qt and llama.cpp, and the licences of what ships with it."""

from __future__ import annotations

import email.message
import importlib.metadata
import re
from typing import cast

import llama_cpp
import pytest
from PySide6.QtCore import qVersion
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app import __version__
from app.core.diagnostics.versions import license_of, llama_build_info, main_components, python_packages
from app.ui.shell.about_dialog import AboutDialog, show_about_dialog


def _rows(html_text: str) -> list[str]:
    """The table rows of a QTextBrowser's HTML as plain text, one string per row."""
    return [re.sub(r"<[^>]+>", " ", row) for row in re.findall(r"<tr.*?</tr>", html_text, re.S)]


def _row_of(name: str, html_text: str) -> str:
    matches = [row for row in _rows(html_text) if name in row]
    assert matches, f"no row for {name!r}"
    return matches[0]


def test_the_components_tab_names_app_qt_and_llama_cpp_with_their_versions(qtbot: QtBot) -> None:
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    page = dialog.components_view.toHtml()
    assert __version__ in _row_of("Glassbox", page)
    assert qVersion() in _row_of("Qt", page)
    assert llama_cpp.__version__ in _row_of("llama-cpp-python", page)
    assert llama_build_info().ggml_commit in _row_of("llama.cpp", page)


def test_the_licences_of_the_bundled_parts_are_listed(qtbot: QtBot) -> None:
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    page = dialog.components_view.toHtml()
    assert "Apache-2.0" in _row_of("SmolLM2-135M-Instruct", page)
    assert "MIT" in _row_of("llama.cpp", page)
    assert "LGPL-3.0" in _row_of("Qt", page)
    assert "LGPL-3.0" in _row_of("PySide6", page)
    assert "MIT" in _row_of("Glassbox", page)


def test_the_system_tab_carries_llama_cpp_build_info_and_copies_it(qtbot: QtBot) -> None:
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    report = dialog.system_view.toPlainText()
    first_feature = llama_cpp.llama_print_system_info().decode().split("|")[0].strip()
    assert first_feature and first_feature in report
    assert f"Glassbox {__version__}" in report
    assert f"Qt {qVersion()}" in report
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == report


def test_every_python_package_of_the_app_is_listed_with_a_version_and_licence(qtbot: QtBot) -> None:
    packages = {component.name.lower().replace("_", "-"): component for component in python_packages()}
    for name in ("huggingface-hub", "llama-cpp-python", "numpy", "gguf", "keyring", "psutil"):
        assert packages[name].version and packages[name].license, name
    assert "pytest" not in packages  # a test extra, not shipped
    assert "glassbox" not in packages
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    assert packages["numpy"].version in _row_of("numpy", dialog.packages_view.toHtml())


def test_the_starter_model_row_appears_only_when_it_is_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    assert any("SmolLM2" in component.name for component in main_components("6.0.0"))
    monkeypatch.setattr("app.core.diagnostics.versions.find_starter_model", lambda: None)
    assert not any("SmolLM2" in component.name for component in main_components("6.0.0"))


def _metadata(**fields: str | list[str]) -> importlib.metadata.PackageMetadata:
    """Package metadata as importlib.metadata parses it (an email message), built from keyword fields."""
    message = email.message.Message()
    for key, value in fields.items():
        for item in value if isinstance(value, list) else [value]:
            message[key.replace("_", "-")] = item
    return cast(importlib.metadata.PackageMetadata, message)


def test_a_licence_is_read_from_the_expression_then_a_short_field_then_classifiers() -> None:
    assert license_of(_metadata(License_Expression="Apache-2.0", License="ignored")) == "Apache-2.0"
    assert license_of(_metadata(License="BSD-3-Clause")) == "BSD-3-Clause"
    full_text = "Copyright (c) someone\n\nPermission is hereby granted..."
    classifiers = ["Programming Language :: Python", "License :: OSI Approved :: MIT License"]
    assert license_of(_metadata(License=full_text, Classifier=classifiers)) == "MIT License"
    assert license_of(_metadata()) == "see the package's licence file"


@pytest.mark.requires_model  # the window loads the starter
def test_help_about_opens_the_dialog_without_blocking_the_window(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QMainWindow, QMenu

    from app.ui.shell.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    help_menu: QMenu = window.help_menu
    assert window.about_action in help_menu.actions()
    window.about_action.trigger()
    dialog = window.findChild(AboutDialog)
    assert isinstance(dialog, AboutDialog) and dialog.isVisible()
    assert isinstance(dialog.parent(), QMainWindow)
    dialog.close()
    window.close()


def test_show_about_dialog_returns_an_open_dialog(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    dialog = show_about_dialog(parent)
    assert dialog.isVisible() and dialog.windowTitle() == "About Glassbox"
    with qtbot.waitSignal(dialog.destroyed, timeout=5_000):
        dialog.close()
