"""Server-sent events, as OpenAI-compatible servers stream them: the `data:` payloads, in order.

Bytes arrive in arbitrary pieces (a line, or a UTF-8 character, may be split between two
network reads); lines end in LF, CRLF or CR; a line starting with ':' is a comment (a
keep-alive); an event ends at a blank line and its data lines are joined with LF. Fields
other than `data` (event, id, retry) carry nothing a chat completion needs and are skipped.
"""

from __future__ import annotations

import codecs


class SSEParser:
    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._data: list[str] = []

    def feed(self, chunk: bytes) -> list[str]:
        """The data of every event this chunk completed."""
        self._buffer += self._decoder.decode(chunk)
        events: list[str] = []
        while True:
            line, found = self._take_line()
            if not found:
                return events
            if line == "":
                if self._data:
                    events.append("\n".join(self._data))
                    self._data = []
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                if name == "data":
                    self._data.append(value.removeprefix(" "))

    def _take_line(self) -> tuple[str, bool]:
        for index, char in enumerate(self._buffer):
            if char == "\n" or char == "\r":
                if char == "\r" and index + 1 == len(self._buffer):
                    return "", False  # a CR at the end may be the first half of CRLF: wait for more
                end = index + 2 if self._buffer[index : index + 2] == "\r\n" else index + 1
                line, self._buffer = self._buffer[:index], self._buffer[end:]
                return line, True
        return "", False

    def close(self) -> list[str]:
        """At the end of the stream: an event that was not ended by a blank line still counts."""
        events = self.feed(b"\n\n") if self._buffer or self._data else []
        return events
