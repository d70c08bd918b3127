"""Load progress: llama.cpp's progress callback during the weight load, which also cancels it."""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable

import llama_cpp
import llama_cpp._internals

LoadProgress = Callable[[float], None]


class TimedModelLoad:
    """Times llama.cpp's weight loading and feeds its progress callback, which can also cancel.

    llama-cpp-python 0.3.36 has no progress parameter, so for the duration of one load
    the model wrapper it constructs is replaced by one that sets `progress_callback` on
    the model params. Loads happen on one thread at a time (the engine's owner).
    """

    _lock = threading.Lock()

    def __init__(self, progress: LoadProgress | None, cancel: threading.Event | None) -> None:
        self.seconds = 0.0
        self.started_at = 0.0  # time.perf_counter() when llama.cpp began reading the model
        self._progress = progress
        self._cancel = cancel
        self._callback = llama_cpp.llama_progress_callback(self._on_progress)
        self._original = llama_cpp._internals.LlamaModel

    def _on_progress(self, fraction: float, _data: ctypes.c_void_p) -> bool:
        if self._progress is not None:
            self._progress(float(fraction))
        return not (self._cancel is not None and self._cancel.is_set())

    def __enter__(self) -> TimedModelLoad:
        self._lock.acquire()
        original = self._original = llama_cpp._internals.LlamaModel

        def timed_model(*, path_model: str, params: llama_cpp.llama_model_params, verbose: bool) -> object:
            params.progress_callback = self._callback
            self.started_at = time.perf_counter()
            try:
                return original(path_model=path_model, params=params, verbose=verbose)
            finally:
                self.seconds = time.perf_counter() - self.started_at

        llama_cpp._internals.LlamaModel = timed_model  # type: ignore[misc,assignment]
        return self

    def __exit__(self, *_exc: object) -> None:
        llama_cpp._internals.LlamaModel = self._original  # type: ignore[misc]
        self._lock.release()
