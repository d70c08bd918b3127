"""Stop strings: the reply ends at the first one, and text that may be the start of one waits.

A stop string can arrive split across tokens, so the filter holds back the longest tail of
the text that is a prefix of a stop string until the next piece decides it.
"""

from __future__ import annotations

from collections.abc import Sequence


class StopStringFilter:
    """Cuts the reply at the first stop string; holds back text that may start one."""

    def __init__(self, stop: Sequence[str]) -> None:
        self._stop = [s for s in stop if s]
        self._pending = ""

    @property
    def active(self) -> bool:
        """Whether there is any stop string to watch for (without one, `feed` passes every piece on)."""
        return bool(self._stop)

    def feed(self, piece: str) -> tuple[str, bool]:
        """Return (text safe to show now, whether a stop string was hit)."""
        if not self._stop:
            return piece, False
        text = self._pending + piece
        cut = min((i for i in (text.find(s) for s in self._stop) if i >= 0), default=-1)
        if cut >= 0:
            self._pending = ""
            return text[:cut], True
        keep = max((_overlap(text, s) for s in self._stop), default=0)
        self._pending = text[len(text) - keep :] if keep else ""
        return text[: len(text) - keep], False

    def flush(self) -> str:
        pending, self._pending = self._pending, ""
        return pending


def _overlap(text: str, stop: str) -> int:
    """Length of the longest suffix of `text` that is a proper prefix of `stop`."""
    for size in range(min(len(text), len(stop) - 1), 0, -1):
        if text.endswith(stop[:size]):
            return size
    return 0
