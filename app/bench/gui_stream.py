"""The GUI path of the streaming benchmark: LLM worker thread -> queued signals -> chat view."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

from PySide6.QtCore import QEventLoop, QObject, QTimer, Slot

from app.bench.qt_offscreen import bench_application
from app.bench.streaming import Measured, counted
from app.core.inference.engine import ChatMessage, LoadConfig, ReplyDone
from app.core.inference.sampling import SamplingParams
from app.ui.chat.view import ChatView
from app.ui.llm.worker import LlmThread, ReplyRequest

HEARTBEAT_MS = 5


class GuiStreamProbe(QObject):
    """Measures on the GUI thread, as the user sees it. A QObject with slots, so worker
    signals are queued to the GUI thread exactly as they are in the main window."""

    def __init__(
        self, config: LoadConfig, messages: Sequence[ChatMessage], params: SamplingParams, draw: bool = True
    ) -> None:
        """`draw` False: the text reaches the GUI thread but not the chat view (what drawing costs)."""
        super().__init__()
        self._draw = draw
        self._app = bench_application()
        self._llm = LlmThread()
        self._view = ChatView()
        self._view.resize(900, 700)
        self._view.show()
        self._request = ReplyRequest(tuple(messages), params)
        self._loop = QEventLoop()
        self._first = self._last = 0.0
        self._done: ReplyDone | None = None
        worker = self._llm.worker
        worker.loaded.connect(self._on_loaded)
        worker.token.connect(self._on_token)
        worker.finished.connect(self._on_finished)
        worker.loadRequested.emit(config)
        self._loop.exec()

    @Slot(object)
    def _on_loaded(self, _report: object) -> None:
        self._loop.quit()

    @Slot(str)
    def _on_token(self, text: str) -> None:
        self._last = time.perf_counter()
        self._first = self._first or self._last
        if self._draw:
            self._view.append_tokens(text)

    @Slot(object)
    def _on_finished(self, done: ReplyDone) -> None:
        self._last = time.perf_counter()
        self._done = done
        if self._draw:
            self._view.finish_reply(done.text)
        self._loop.quit()

    def measure(self) -> Measured:
        """Tokens/s as the GUI thread receives them, first token to last, with the counters
        llama.cpp kept for the reply in the engine's child process."""
        self._stream()
        done = self._done
        assert done is not None and done.metrics is not None
        return Measured((done.stats.completion_tokens - 1) / (self._last - self._first), counted(done.metrics))

    def longest_stall_ms(self) -> float:
        """The longest gap between ticks of a 5 ms timer on the GUI thread while a reply streams.

        Measured in rounds of its own: the timer's 200 wake-ups a second would otherwise
        take CPU from the generation whose speed is being measured.
        """
        beats: list[float] = []
        heartbeat = QTimer()
        heartbeat.setInterval(HEARTBEAT_MS)
        heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
        heartbeat.start()
        self._stream()
        heartbeat.stop()
        gaps_ms = [(b - a) * 1000 - HEARTBEAT_MS for a, b in itertools.pairwise(beats)]
        return max(max(gaps_ms, default=0.0), 0.0)

    def _stream(self) -> None:
        self._first = self._last = 0.0
        self._done = None
        self._view.begin_reply()
        self._llm.worker.generateRequested.emit(self._request)
        self._loop.exec()

    def close(self) -> None:
        self._view.close()
        self._llm.shutdown()
