"""A QApplication for the GUI benchmarks, offscreen when there is no display."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QApplication


def bench_application() -> QApplication:
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.ui.shell.application import create_application

    return create_application()
