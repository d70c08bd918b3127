"""A document as read from its file: its text, and where each part of it came from.

The text is what gets chunked and indexed. `marks` map offsets in it back to the file: the
page (PDF), and the line of the source file (text, Markdown, reStructuredText, source code,
HTML) or the paragraph (DOCX, whose pages exist only once a word processor lays it out).
A citation opens the file at that place.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from pathlib import Path

from app.core.documents.formats import DocumentKind


class LineUnit(str, Enum):
    """What the `line` of a mark counts."""

    LINE = "line"  # lines of the source file
    PARAGRAPH = "paragraph"  # paragraphs of the document (DOCX)


@dataclass(frozen=True)
class Mark:
    offset: int  # where in Document.text this place begins
    page: int | None  # 1-based PDF page, None for formats without pages
    line: int | None  # 1-based line (or paragraph, see Document.unit); None when unknown


@dataclass(frozen=True)
class Place:
    """A range in the file: pages and lines (or paragraphs), each None when the format has none."""

    page_start: int | None = None
    page_end: int | None = None
    line_start: int | None = None
    line_end: int | None = None
    unit: LineUnit = LineUnit.LINE

    def describe(self) -> str:
        """'pages 3–4', 'lines 12–40', 'paragraph 7' — for citations."""
        parts = []
        if self.page_start is not None:
            parts.append(_span("page", self.page_start, self.page_end))
        if self.line_start is not None and self.page_start is None:
            parts.append(_span(self.unit.value, self.line_start, self.line_end))
        return ", ".join(parts)


def _span(unit: str, start: int, end: int | None) -> str:
    if end is None or end == start:
        return f"{unit} {start}"
    return f"{unit}s {start}–{end}"


@dataclass(frozen=True)
class Document:
    path: Path
    kind: DocumentKind
    text: str
    marks: tuple[Mark, ...]  # sorted by offset; the first at offset 0
    unit: LineUnit = LineUnit.LINE
    notes: tuple[str, ...] = field(default=())  # what went wrong in part (a page that could not be read)

    def place(self, start: int, end: int) -> Place:
        """The pages and lines the text[start:end] spans."""
        first = self._mark_at(start)
        last = self._mark_at(max(start, end - 1))
        return Place(first.page, last.page, first.line, last.line, self.unit)

    def _mark_at(self, offset: int) -> Mark:
        index = bisect.bisect_right(self._offsets, offset) - 1
        return self.marks[max(index, 0)]

    @cached_property
    def _offsets(self) -> list[int]:
        return [mark.offset for mark in self.marks]


class TextBuilder:
    """Builds a Document's text and marks piece by piece (the readers' shared helper)."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self.marks: list[Mark] = []

    @property
    def length(self) -> int:
        return self._length

    def add(self, text: str, page: int | None = None, line: int | None = None) -> None:
        """Append `text` that begins at `page`/`line` of the file."""
        if not text:
            return
        last = self.marks[-1] if self.marks else None
        if last is None or (last.page, last.line) != (page, line):
            self.marks.append(Mark(self._length, page, line))
        self._parts.append(text)
        self._length += len(text)

    def add_lines(self, text: str, page: int | None = None, first_line: int = 1) -> None:
        """Append text whose lines are lines of the file, from `first_line` on (a mark at each line)."""
        offset = self._length
        self.marks.append(Mark(offset, page, first_line))
        start = 0
        line = first_line
        while True:
            newline = text.find("\n", start)
            if newline < 0 or newline + 1 >= len(text):
                break
            start = newline + 1
            line += 1
            self.marks.append(Mark(offset + start, page, line))
        self._parts.append(text)
        self._length += len(text)

    def text(self) -> str:
        return "".join(self._parts)
