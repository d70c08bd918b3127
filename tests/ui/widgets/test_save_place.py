"""A Save dialog opens in the documents folder (the home folder without one), never where Glassbox runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths

from app.ui.widgets.save_place import in_documents


def test_a_save_dialog_starts_in_the_documents_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    documents = tmp_path / "Documents"
    documents.mkdir()
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda _where: str(documents))
    assert Path(in_documents("chat.md")) == documents / "chat.md"


def test_without_a_documents_folder_it_starts_at_home_not_in_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda _where: str(tmp_path / "missing"))
    monkeypatch.chdir(tmp_path)
    assert Path(in_documents("glassbox-monitor.csv")) == Path.home() / "glassbox-monitor.csv"
