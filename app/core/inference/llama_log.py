"""Routes llama.cpp's own log into Python `logging` with the right levels.

llama-cpp-python 0.3.36 maps ggml's log levels wrongly (its table predates ggml adding
DEBUG as level 1) and, with `verbose=False`, redirects the whole process's stdout and
stderr file descriptors while a model loads, which swallows other threads' output.
Glassbox installs its own callback and disables that redirection: every line llama.cpp
prints arrives here, once, as a log record of logger `llama.cpp`.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import re
import threading
from collections.abc import Callable

import llama_cpp
import llama_cpp._internals
import llama_cpp._logger  # imported for its side effect, so ours is installed after it
import llama_cpp.llama

LOGGER = logging.getLogger("llama.cpp")

# enum ggml_log_level in ggml.h
GGML_LEVELS: dict[int, int] = {
    0: logging.INFO,  # NONE: unlevelled output
    1: logging.DEBUG,
    2: logging.INFO,
    3: logging.WARNING,
    4: logging.ERROR,
}
GGML_LOG_LEVEL_CONT = 5

LineListener = Callable[[int, str], None]

# What llama.cpp prints when a decode ends because its abort callback said so. After an
# abort Glassbox asked for (Stop, a chat switch, closing, a cancelled load) these are not
# errors: they are logged at DEBUG as what they are.
REQUESTED_ABORT_LINES = re.compile(
    r"graph_compute: .*failed with error 1"
    r"|process_ubatch: failed to compute graph, compute status: 1"
    r"|llama_decode: failed to decode, ret = 2"
    r"|removing memory module entries"
)
_abort_requested = threading.Event()


def abort_requested() -> None:
    """The abort callback just told llama.cpp to stop: its complaints about it are expected."""
    _abort_requested.set()


def abort_handled() -> None:
    """The aborted decode has returned: from now on such lines are real errors again."""
    _abort_requested.clear()


class _LineAssembler:
    """Joins llama.cpp's fragments (continuations, pieces without newline) into whole lines."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buffer = ""
        self._level = logging.INFO
        self.listeners: list[LineListener] = []

    def feed(self, ggml_level: int, text: str) -> None:
        with self._lock:
            if ggml_level != GGML_LOG_LEVEL_CONT:
                level = GGML_LEVELS.get(ggml_level, logging.INFO)
                if self._buffer and level != self._level:
                    self._emit_locked()
                self._level = level
            self._buffer += text
            while "\n" in self._buffer:
                line, self._buffer = self._buffer.split("\n", 1)
                self._emit_line_locked(line)

    def _emit_locked(self) -> None:
        line, self._buffer = self._buffer, ""
        self._emit_line_locked(line)

    def _emit_line_locked(self, line: str) -> None:
        line = line.rstrip()
        if not line:
            return
        level = self._level
        if level > logging.DEBUG and _abort_requested.is_set() and REQUESTED_ABORT_LINES.search(line):
            LOGGER.debug("%s (stopped on request)", line)
        else:
            LOGGER.log(level, "%s", line)
        for listener in list(self.listeners):
            listener(self._level, line)


_ASSEMBLER = _LineAssembler()


@llama_cpp.llama_log_callback
def _on_llama_log(level: int, text: bytes, _user_data: ctypes.c_void_p) -> None:
    _ASSEMBLER.feed(level, text.decode("utf-8", errors="replace"))


class _NoRedirect(contextlib.nullcontext):
    """Stands in for llama-cpp-python's `suppress_stdout_stderr`, which dup2()s process-wide fds."""

    def __init__(self, disable: bool = True) -> None:
        super().__init__()


_installed = False


def install_llama_logging() -> None:
    """Install the callback (idempotent). Call before the first model load."""
    global _installed
    if _installed:
        return
    llama_cpp.llama.suppress_stdout_stderr = _NoRedirect  # type: ignore[misc, assignment]
    llama_cpp._internals.suppress_stdout_stderr = _NoRedirect  # type: ignore[misc, assignment]
    llama_cpp.llama_log_set(_on_llama_log, ctypes.c_void_p(0))
    _installed = True


def install_projector_logging() -> None:
    """Route libmtmd's log (the projector's) through the same callback as llama.cpp's; idempotent."""
    import llama_cpp.mtmd_cpp as mtmd  # loads libmtmd: only once a projector is loaded

    install_llama_logging()
    mtmd.mtmd_log_set(_on_llama_log, ctypes.c_void_p(0))
    mtmd.mtmd_helper_log_set(_on_llama_log, ctypes.c_void_p(0))


def add_line_listener(listener: LineListener) -> None:
    """Also call `listener(level, line)` for each llama.cpp log line (used to read buffer sizes)."""
    _ASSEMBLER.listeners.append(listener)


def remove_line_listener(listener: LineListener) -> None:
    with contextlib.suppress(ValueError):
        _ASSEMBLER.listeners.remove(listener)
