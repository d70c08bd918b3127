"""QApplication bootstrap: logging, exception hooks, the main window, and the demo/smoke options."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from app import __version__
from app.core.paths import app_paths, resources_dir
from app.core.settings import read_appearance
from app.core.support.logging_setup import install_excepthooks, setup_logging
from app.ui.shell.main_window import MainWindow
from app.ui.shell.translations import install_translators
from app.ui.threads import connect_in_thread_of
from app.ui.widgets.theme import apply_theme

log = logging.getLogger(__name__)


def create_application(argv: list[str] | None = None) -> QApplication:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(argv or sys.argv[:1])
    app.setApplicationName("Glassbox")
    app.setApplicationVersion(__version__)
    app.setOrganizationName("Glassbox")
    app.setDesktopFileName("glassbox")
    icon = resources_dir() / "icons" / "glassbox.svg"
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    return app


def run_gui(args: argparse.Namespace) -> int:
    paths = app_paths().ensure()
    log_file = setup_logging(paths.logs)
    app = create_application()
    log.info("Glassbox %s starting; log file %s", __version__, log_file)
    appearance = read_appearance(paths.settings_file)
    language = install_translators(app, appearance.language)  # before any widget: tr() runs as widgets are built
    apply_theme(app, appearance.theme)
    log.info("Interface language %s, theme %s", language.value, appearance.theme.value)
    window = open_main_window(Path(args.model) if args.model else None)
    install_excepthooks(_banner_reporter(window))
    window.show()
    _schedule_demo(window, args)
    return app.exec()


def open_main_window(initial_model: Path | None = None) -> MainWindow:
    """The main window, not shown yet (the application, and the bench that measures it whole)."""
    return MainWindow(initial_model=initial_model)


def _banner_reporter(window: MainWindow):  # type: ignore[no-untyped-def]
    """Show uncaught errors in the window's banner, from whatever thread they happen in."""

    def report(message: str) -> None:
        QTimer.singleShot(0, window, lambda: window.error_banner.show_error(message))

    return report


def _schedule_demo(window: MainWindow, args: argparse.Namespace) -> None:
    """--prompt sends a message once the model is loaded; --screenshot / --quit-after-reply end the run."""
    if args.prompt:
        window.state_signals.modelLoaded.connect(lambda _report: window.send(args.prompt))
    if not (args.screenshot or args.quit_after_reply):
        return

    def finish(*_payload: object) -> None:
        if args.screenshot:
            QTimer.singleShot(300, window, lambda: _save_and_close(window, args.screenshot))
        else:
            window.close()

    opener = window.open_file.opener
    if window.model_picker.count() == 0 and not opener.is_busy:  # nothing will load: show the empty state, finish
        QTimer.singleShot(0, window, finish)
        return
    # A load, a reply or the opening of --model that fails ends the run too, showing what went wrong (the
    # worker's signals: in the window's thread, as closing it must be).
    connect_in_thread_of(window.worker.loadFailed, window, finish)
    connect_in_thread_of(opener.failed, window, finish)
    if args.prompt:
        window.replyFinished.connect(finish)
        connect_in_thread_of(window.worker.failed, window, finish)
    else:
        window.state_signals.modelLoaded.connect(finish)


def _save_and_close(window: MainWindow, path: str) -> None:
    window.grab().save(path)
    print(f"screenshot saved to {path}")
    window.close()
