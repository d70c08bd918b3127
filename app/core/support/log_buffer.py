"""The recent log in memory: what the Logs panel shows and what diagnostics quote as the last errors.

One `LogBuffer` handler on the root logger keeps the latest records (the app's and, through
`llama_log`, llama.cpp's) with a sequence number, so a panel can ask for what is new since
its last look instead of being called from whatever thread logged. Warnings and errors are
also kept in a small list of their own, so a flood of debug lines (llama.cpp prints about a
thousand per model load) cannot push the last errors out.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass

LLAMA_LOGGER = "llama.cpp"
DEFAULT_CAPACITY = 5000
ERROR_CAPACITY = 50


@dataclass(frozen=True)
class LogEntry:
    seq: int
    created: float  # time.time()
    level: int
    logger: str
    thread: str
    message: str  # with the traceback, if the record had one

    @property
    def source(self) -> str:
        """ "llama.cpp" for llama.cpp's own lines, "app" for everything else."""
        return LLAMA_LOGGER if self.logger == LLAMA_LOGGER else "app"

    @property
    def level_name(self) -> str:
        return logging.getLevelName(self.level)

    def format(self) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(self.created)) + f".{int(self.created % 1 * 1000):03d}"
        return f"{stamp} {self.level_name:<7} {self.logger}: {self.message}"


class LogBuffer(logging.Handler):
    """A bounded, thread-safe memory of recent log records."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY, level: int = logging.DEBUG) -> None:
        super().__init__(level)
        self._entries: deque[LogEntry] = deque(maxlen=capacity)
        self._errors: deque[LogEntry] = deque(maxlen=ERROR_CAPACITY)
        self._seq = 0
        self._guard = threading.Lock()
        self._formatter = logging.Formatter()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info:  # exc_text: the traceback as redaction left it
                message += "\n" + (record.exc_text or self._formatter.formatException(record.exc_info))
            with self._guard:
                self._seq += 1
                thread = record.threadName or ""
                entry = LogEntry(self._seq, record.created, record.levelno, record.name, thread, message)
                self._entries.append(entry)
                if record.levelno >= logging.WARNING:
                    self._errors.append(entry)
        except Exception:  # a handler must never raise into the code that logged
            self.handleError(record)

    @property
    def last_seq(self) -> int:
        with self._guard:
            return self._seq

    def entries(self) -> list[LogEntry]:
        with self._guard:
            return list(self._entries)

    def entries_since(self, seq: int) -> list[LogEntry]:
        """Records newer than `seq` (still in the buffer), oldest first."""
        with self._guard:
            if not self._entries or self._entries[-1].seq <= seq:
                return []
            newer = []
            for entry in reversed(self._entries):
                if entry.seq <= seq:
                    break
                newer.append(entry)
        newer.reverse()
        return newer

    def recent_errors(self, limit: int = 20) -> list[LogEntry]:
        """The latest warnings and errors, oldest first."""
        with self._guard:
            return list(self._errors)[-limit:]


_installed: LogBuffer | None = None
_install_lock = threading.Lock()


def install_log_buffer(capacity: int = DEFAULT_CAPACITY) -> LogBuffer:
    """The process's buffer on the root logger (created on the first call)."""
    global _installed
    with _install_lock:
        if _installed is None:
            _installed = LogBuffer(capacity)
            logging.getLogger().addHandler(_installed)
        return _installed
