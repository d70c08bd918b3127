"""A real main window, offscreen, closed mid-reply while its LLM worker ignores the stop flag.

Run by test_shutdown.py in a process of its own (`python -m tests.ui.shell.stubborn_reply`,
with GLASSBOX_HOME pointing at a scratch folder): the window loads the starter model, sends
one message, and is closed as soon as the reply shows text. The worker then goes on
streaming for STUBBORN_S seconds, as a long context creation or warm-up decode would. The
script prints one line, `RESULT {json}`, with what the worker streamed, what the chat view
showed when the close began and once it was done; its exit code is the application's.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.core.types.load import LoadReport
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece
from app.core.types.stats import ReplyStats, StopReason
from app.ui.llm.worker import LlmThread, LlmWorker, ReplyRequest
from app.ui.shell.main_window import MainWindow

STUBBORN_S = 3.0
TOKEN_PAUSE_S = 0.01


class StubbornWorker(LlmWorker):
    """Streams numbered tokens and goes on for STUBBORN_S after the stop flag is set."""

    def __init__(self) -> None:
        super().__init__()
        self.streamed: list[str] = []

    def stream_reply(self, request: ReplyRequest, stop: threading.Event, emit: Callable[[ReplyEvent], None]) -> None:
        stopped_at: float | None = None
        while stopped_at is None or time.monotonic() - stopped_at < STUBBORN_S:
            if stopped_at is None and stop.is_set():
                stopped_at = time.monotonic()
            piece = f" t{len(self.streamed)}"
            self.streamed.append(piece)
            emit(TokenPiece(piece, len(self.streamed)))
            time.sleep(TOKEN_PAUSE_S)
        stats = ReplyStats(completion_tokens=len(self.streamed), stop_reason=StopReason.USER)
        emit(ReplyDone("".join(self.streamed), stats))


def main() -> int:
    app = QApplication(sys.argv)
    worker = StubbornWorker()
    window = MainWindow(llm=LlmThread(worker))
    result: dict[str, object] = {}

    def send(_report: LoadReport) -> None:
        window.send("Count for me, please.")
        watch.start()

    def close_once_text_shows() -> None:
        if not window.chat_view.live_text():
            return
        watch.stop()
        result["shown_when_closing"] = window.chat_view.live_text()
        window.close()
        result["still_streaming"] = window.state.is_streaming
        view = window.chat_view
        result["shown"] = view.live_text() if window.state.is_streaming else view.messages()[-1].text
        result["streamed"] = "".join(worker.streamed)
        print("RESULT " + json.dumps(result), flush=True)

    watch = QTimer()
    watch.setInterval(10)
    watch.timeout.connect(close_once_text_shows)
    window.state_signals.modelLoaded.connect(send)
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
