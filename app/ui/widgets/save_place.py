"""Where a Save dialog opens: the user's documents folder, never the folder Glassbox happens to run in."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths


def in_documents(name: str) -> str:
    """`name` in the documents folder (the home folder where there is none), for a Save dialog's first path."""
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    place = Path(folder) if folder and Path(folder).is_dir() else Path.home()
    return str(place / name)
