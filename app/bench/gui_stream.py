"""The window's path of the streaming benchmark: the real main window, as a user runs it.

A `MainWindow` (its panels, docks, pollers and the engine in its child process) opens in a
home folder of its own (`GLASSBOX_HOME`), with the bench's settings saved there as the
user's defaults, loads the starter and answers the message as if it had been typed: new
chat, send. The speed is measured on the GUI thread, from the first token's text to the
last's, by a slot connected after the window's own (so the window has drawn each piece), and
so is the CPU time the window's process (every thread of it: this process) spent meanwhile.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from PySide6.QtCore import QEventLoop, QObject, QTimer, Slot

from app.bench.measured import Measured, counted
from app.bench.qt_offscreen import bench_application
from app.core.inference.sampling import SamplingParams
from app.core.paths import app_paths
from app.core.settings import ModelSettings, Settings, save_settings
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone

HEARTBEAT_MS = 5
HOME_VARIABLE = "GLASSBOX_HOME"
SEND_WAIT_S = 30.0


@contextmanager
def _home_of_its_own() -> Iterator[Path]:
    """A fresh GLASSBOX_HOME for one window (and its engine process), removed afterwards."""
    before = os.environ.get(HOME_VARIABLE)
    home = Path(tempfile.mkdtemp(prefix="glassbox-bench-"))
    os.environ[HOME_VARIABLE] = str(home)
    try:
        yield home
    finally:
        if before is None:
            os.environ.pop(HOME_VARIABLE, None)
        else:
            os.environ[HOME_VARIABLE] = before
        shutil.rmtree(home, ignore_errors=True)


def _bench_settings(config: LoadConfig, params: SamplingParams) -> Settings:
    """The user's defaults that make the window load `config` and reply with `params`."""
    model = ModelSettings(
        n_ctx=config.n_ctx,
        n_threads=config.n_threads or 0,
        n_gpu_layers=config.n_gpu_layers,
        speculative=config.speculative.value,
        flash_attn=config.flash_attn,
    )
    return Settings(sampling=params, model=model)


class GuiStreamProbe(QObject):
    """Measures on the GUI thread of a real main window, as the user sees it."""

    def __init__(
        self, config: LoadConfig, messages: Sequence[ChatMessage], params: SamplingParams, draw: bool = True
    ) -> None:
        """`draw` False: the text reaches the window but the chat view does not show it while it
        streams (what drawing costs); the finished reply is rendered either way."""
        super().__init__()
        if len(messages) != 1 or messages[0].role != "user":
            raise ValueError("the window's path sends one user message")
        self._text = messages[0].content
        self._app = bench_application()
        self._home = ExitStack()  # the window's home folder, while it is open
        self._home.enter_context(_home_of_its_own())
        try:
            save_settings(app_paths().ensure().settings_file, _bench_settings(config, params))
            from app.ui.shell.application import open_main_window  # after GLASSBOX_HOME: the window reads it

            self._window = open_main_window(config.model_path)
        except BaseException:
            self._home.close()
            raise
        window = self._window
        if not draw:
            window.chat_view.append_tokens = lambda _text: None  # type: ignore[method-assign,assignment]
        self._loop = QEventLoop()
        self._first = self._last = 0.0
        self._cpu_first = self._cpu_last = 0.0  # time.process_time() at the first and the last token
        self._done: ReplyDone | None = None
        self._failure = ""
        window.worker.token.connect(self._on_token)
        window.replyFinished.connect(self._on_finished)
        window.worker.failed.connect(self._on_failed)
        window.worker.loadFailed.connect(self._on_failed)
        window.state_signals.modelLoaded.connect(self._on_loaded)
        window.resize(1280, 800)
        window.show()
        if window.state.loaded_model is None:
            self._loop.exec()
        if self._failure or window.state.loaded_model is None:
            self.close()
            raise RuntimeError(f"the window did not load the model: {self._failure}")

    @Slot(object)
    def _on_loaded(self, _report: object) -> None:
        self._loop.quit()

    @Slot(str)
    def _on_token(self, _text: str) -> None:
        self._last = time.perf_counter()
        self._cpu_last = time.process_time()
        if not self._first:
            self._first, self._cpu_first = self._last, self._cpu_last

    @Slot(object)
    def _on_finished(self, done: ReplyDone) -> None:
        self._done = done
        self._loop.quit()

    @Slot(object)
    def _on_failed(self, message: object) -> None:
        self._failure = str(message)
        self._loop.quit()

    def measure(self) -> Measured:
        """Tokens/s as the window's GUI thread receives them, first token to last, with the
        counters llama.cpp kept for the reply in the engine's child process and the window's
        CPU time per token meanwhile."""
        self._stream()
        done = self._done
        if done is None or done.metrics is None:
            raise RuntimeError(f"the window's reply did not finish: {self._failure or 'no metrics'}")
        intervals = done.stats.completion_tokens - 1
        cpu_us = (self._cpu_last - self._cpu_first) / intervals * 1e6
        return Measured(intervals / (self._last - self._first), counted(done.metrics), cpu_us)

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
        """A new chat with the message, sent as the message box sends it; back when it is answered."""
        self._first = self._last = 0.0
        self._done = None
        self._failure = ""
        window = self._window
        waited = time.perf_counter()
        while not window.state.can_send:  # the last reply's end is still being handled
            if time.perf_counter() - waited > SEND_WAIT_S:
                raise RuntimeError("the window did not become ready to send")
            self._app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        window.new_chat()
        window.send(self._text)
        if window.state.can_send:
            raise RuntimeError("the window did not start a reply to the message")
        self._loop.exec()

    def close(self) -> None:
        try:
            self._window.close()
            self._window.deleteLater()
            self._app.processEvents()
        finally:
            self._home.close()
