"""Logging for the app: a rotating file in the platformdirs log folder, and hooks so nothing dies silently."""

from __future__ import annotations

import logging
import logging.handlers
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from app.core.support.redaction import install_redaction

LOG_FORMAT = "%(asctime)s %(levelname)-7s %(threadName)s %(name)s: %(message)s"
LOG_FILE_NAME = "glassbox.log"

UncaughtListener = Callable[[str], None]


def setup_logging(log_dir: Path, level: int = logging.INFO) -> Path:
    """Log to `log_dir/glassbox.log` (rotating, 5 x 2 MB) and to stderr for warnings; URLs lose their queries."""
    install_redaction()
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / LOG_FILE_NAME
    root = logging.getLogger()
    root.setLevel(min(level, logging.DEBUG))
    if not any(isinstance(h, logging.handlers.RotatingFileHandler) for h in root.handlers):
        file_handler = logging.handlers.RotatingFileHandler(path, maxBytes=2_000_000, backupCount=5, encoding="utf-8")
        file_handler.setLevel(level)
        file_handler.setFormatter(logging.Formatter(LOG_FORMAT))
        root.addHandler(file_handler)
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(logging.WARNING)
        console.setFormatter(logging.Formatter(LOG_FORMAT))
        root.addHandler(console)
    return path


def install_excepthooks(on_uncaught: UncaughtListener | None = None) -> None:
    """Log every uncaught exception, in any thread, and tell `on_uncaught` (the UI) about it."""
    log = logging.getLogger("app.uncaught")

    def report(kind: type[BaseException], value: BaseException, trace: TracebackType | None, where: str) -> None:
        log.critical("Uncaught exception in %s", where, exc_info=(kind, value, trace))
        if on_uncaught is not None:
            on_uncaught(f"An unexpected error happened in {where}: {value}. Details are in the log.")

    def main_hook(kind: type[BaseException], value: BaseException, trace: TracebackType | None) -> None:
        report(kind, value, trace, "the main thread")

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread else "a background thread"
        report(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback, name)

    sys.excepthook = main_hook
    threading.excepthook = thread_hook
