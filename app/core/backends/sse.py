"""Server-sent events, as OpenAI-compatible servers stream them: the `data:` payloads, in order.

Bytes arrive in arbitrary pieces (a line, or a UTF-8 character, may be split between two
network reads); lines end in LF, CRLF or CR; a line starting with ':' is a comment (a
keep-alive); an event ends at a blank line and its data lines are joined with LF. Fields
other than `data` (event, id, retry) carry nothing a chat completion needs and are skipped.

Each byte is looked at once: a read is split at its own line ends and only the unfinished
line is kept, so a long line costs its length, not its length squared. Lines are split as
bytes (CR and LF never occur inside a UTF-8 character) and decoded whole. A server is not
trusted with memory: an event (its data lines and the line still arriving) over
MAX_EVENT_BYTES is refused.
"""

from __future__ import annotations

import re

MAX_EVENT_BYTES = 8 * 1024 * 1024  # far above any chat chunk (a token's text and its probabilities)
_LINE_END = re.compile(rb"\r\n|\r|\n")


class EventTooLarge(ValueError):
    """The server sent an event, or a line, longer than `limit` bytes."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"an event over {limit} bytes")
        self.limit = limit


class SSEParser:
    def __init__(self) -> None:
        self._line = bytearray()  # the line not yet ended
        self._after_cr = False  # the last read ended in CR: an LF first in the next one is its pair
        self._data: list[str] = []
        self._data_bytes = 0

    def feed(self, chunk: bytes) -> list[str]:
        """The data of every event this chunk completed; raises EventTooLarge past the limit."""
        if not chunk:
            return []
        if self._after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        self._after_cr = chunk.endswith(b"\r")
        events: list[str] = []
        start = 0
        for end in _LINE_END.finditer(chunk):
            self._end_line(chunk[start : end.start()], events)
            start = end.end()
        self._line += chunk[start:]
        self._check_size(0)
        return events

    def close(self) -> list[str]:
        """At the end of the stream: an event that was not ended by a blank line still counts."""
        return self.feed(b"\n\n") if self._line or self._data else []

    def _end_line(self, tail: bytes, events: list[str]) -> None:
        self._check_size(len(tail))
        size = len(self._line) + len(tail)
        line = (bytes(self._line) + tail).decode("utf-8", errors="replace")
        self._line.clear()
        if line == "":
            if self._data:
                events.append("\n".join(self._data))
            self._data, self._data_bytes = [], 0
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            if name == "data":
                self._data.append(value.removeprefix(" "))
                self._data_bytes += size

    def _check_size(self, more: int) -> None:
        if self._data_bytes + len(self._line) + more > MAX_EVENT_BYTES:
            raise EventTooLarge(MAX_EVENT_BYTES)
