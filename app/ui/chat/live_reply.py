"""The streaming reply's text, shown rendered as Markdown a few times a second, not per token.

Appending text only keeps it (a list append); a render is due once new text has arrived,
at the next turn of the event loop for the first text and then at most once per
`RENDER_INTERVAL_MS`. The interval stretches when one render took long (a reply that is
one long code block costs more to render as it grows): rendering then takes at most
`RENDER_SHARE` of the GUI thread's time, and the window keeps responding.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

RENDER_INTERVAL_MS = 200
RENDER_SHARE = 0.1


class LiveReply(QObject):
    """Collects a reply's streamed text and hands all of it to `render` now and then."""

    rendered = Signal()  # the text so far was rendered (tests count re-renders by it)

    def __init__(self, render: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._render = render
        self._parts: list[str] = []
        self._interval_ms = 0  # the first text shows at once
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.render_now)

    def append(self, text: str) -> None:
        """Keep `text`; a render of everything so far follows within the interval."""
        if text:
            self._parts.append(text)
            if not self._timer.isActive():
                self._timer.start(self._interval_ms)

    def text(self) -> str:
        if len(self._parts) > 1:
            self._parts[:] = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def render_now(self) -> None:
        self._timer.stop()
        started = time.perf_counter()
        self._render(self.text())
        cost_ms = (time.perf_counter() - started) * 1000
        self._interval_ms = max(RENDER_INTERVAL_MS, math.ceil(cost_ms / RENDER_SHARE))
        self.rendered.emit()

    def stop(self) -> None:
        """No render is due any more (the reply ended)."""
        self._timer.stop()
