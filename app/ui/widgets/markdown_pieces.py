"""A reply's Markdown rendered in pieces, so a streaming reply re-renders only its last piece.

A reply is cut where one top-level block certainly ends and the next begins: at a line after
a blank line, outside a fenced code block, that starts with a character no container can
continue with (not a space, a tab, a list marker, a digit, `>` or `|`). Markdown read from
such a line on cannot change how what came before it reads, so each piece is rendered on
its own (by `markdown.render_markdown`, in a scratch document) and copied into the shown
document after the pieces before it. When the text grows, the pieces that did not change
stay as they are in the document; only the ones from the first changed piece on are
rendered again: while a reply streams, that is the last one.

The streaming reply and the finished one go through the same `MarkdownPieces.show`, so for
the same text they are the same document (nothing jumps when the reply ends). While it
streams, a last, unfinished line that could still turn into a code fence, a list item or a
heading's underline is held back until its line ends: no raw ``` ever shows, and a code
fence that is still open shows as an open code block (as Markdown reads it).

One limit of reading pieces on their own: a link reference definition (`[x]: https://…`)
applies only to references in its own piece.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument, QTextDocumentFragment

from app.ui.widgets.code_blocks import CODE_PROPERTY
from app.ui.widgets.inert_text import InertDocument
from app.ui.widgets.markdown import render_markdown

# CommonMark's code fences: an opening one (a backtick fence's info string has no backtick) and a closing one.
_OPENING_FENCE = re.compile(r" {0,3}(`{3,}(?=[^`]*$)|~{3,})")
_CLOSING_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t\r]*$")
_CONTINUES_A_BLOCK = frozenset(" \t\r\n-*+>|0123456789")  # a line starting so may belong to the block above
# A last line still being written that may yet become a fence, a list item, a rule or a heading's underline.
_UNSETTLED_LINE = re.compile(r" {0,3}(`{1,2}|`{3,}[^`]*|~+.*|[-=*_+]+ *|\d{1,9}[.)]?)")


def split_pieces(text: str) -> list[str]:
    """`text` cut where a new top-level block certainly begins; the pieces join back into `text`."""
    starts = [0]
    fence: str | None = None  # the open fence's marker ("```", "~~~~"), None outside code
    blank_before = False
    position = 0
    while position < len(text):
        newline = text.find("\n", position)
        end = len(text) if newline < 0 else newline + 1
        line = text[position:end].rstrip("\n")
        if fence is None and blank_before and line[:1] not in _CONTINUES_A_BLOCK:
            starts.append(position)
        if fence is None:
            opening = _OPENING_FENCE.match(line)
            fence = opening.group(1) if opening else None
        else:
            closing = _CLOSING_FENCE.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                fence = None
        blank_before = fence is None and not line.strip()
        position = end
    return [text[start:end] for start, end in zip(starts, [*starts[1:], len(text)], strict=True) if start < end]


def settled_part(text: str) -> str:
    """`text` without a last, unfinished line that may still change what the lines before it are."""
    line_start = text.rfind("\n") + 1
    return text[:line_start] if _UNSETTLED_LINE.fullmatch(text, line_start) else text


@dataclass(frozen=True)
class _Piece:
    source: str
    end: int  # the document position where the piece ends
    codes: tuple[str, ...]  # its code blocks' texts, for the Copy links


class MarkdownPieces:
    """Shows Markdown in `document`, rendering again only the pieces that changed since the last `show`."""

    def __init__(self, document: QTextDocument) -> None:
        self._document = document
        document.setUndoRedoEnabled(False)  # re-rendering would otherwise keep every replaced piece
        self._pieces: list[_Piece] = []
        self.rendered_pieces = 0  # how many pieces were rendered so far (what a re-render cost)

    def show(self, text: str, streaming: bool = False) -> None:
        """Show `text`; `streaming`: more is coming, so an unfinished last line that may change its meaning waits."""
        sources = split_pieces(settled_part(text) if streaming else text)
        kept = 0
        while kept < min(len(sources), len(self._pieces)) and self._pieces[kept].source == sources[kept]:
            kept += 1
        if kept == len(sources) == len(self._pieces):
            return
        cursor = QTextCursor(self._document)
        cursor.beginEditBlock()
        if kept == 0:
            cursor.select(QTextCursor.SelectionType.Document)
            cursor.removeSelectedText()
            cursor.setBlockFormat(QTextBlockFormat())
            cursor.setBlockCharFormat(QTextCharFormat())
        else:
            cursor.setPosition(self._pieces[kept - 1].end)
            last = cursor.block()  # removing what follows it would give it the format of the last block removed
            block_format, char_format = last.blockFormat(), last.charFormat()
            cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
            cursor.setBlockFormat(block_format)
            cursor.setBlockCharFormat(char_format)
        del self._pieces[kept:]
        for source in sources[kept:]:
            self._append(cursor, source)
        self._document.setProperty(CODE_PROPERTY, [code for piece in self._pieces for code in piece.codes])
        cursor.endEditBlock()

    def forget(self) -> None:
        """The document was filled by other means: the next `show` renders everything."""
        self._pieces.clear()

    def _append(self, cursor: QTextCursor, source: str) -> None:
        scratch = InertDocument()
        scratch.setDefaultFont(self._document.defaultFont())
        render_markdown(scratch, source, first_code=sum(len(piece.codes) for piece in self._pieces))
        if scratch.isEmpty():  # Qt's reader drops a paragraph of nothing but an image without alt text
            self._pieces.append(_Piece(source, self._document.characterCount() - 1, ()))
            self.rendered_pieces += 1
            return
        if self._pieces and not _starts_with_placeholder(scratch):
            # A fragment's first block takes the format of the block it is inserted into; an empty block
            # ahead of it makes the piece's own first block start after a separator that carries its format.
            first = scratch.begin()
            QTextCursor(scratch).insertBlock(first.blockFormat(), first.charFormat())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertFragment(QTextDocumentFragment(scratch))
        codes = tuple(str(code) for code in scratch.property(CODE_PROPERTY) or [])
        self._pieces.append(_Piece(source, self._document.characterCount() - 1, codes))
        self.rendered_pieces += 1


def _starts_with_placeholder(document: QTextDocument) -> bool:
    """Whether Qt's reader put an empty, unformatted block first (it does before a table or a rule)."""
    first = document.begin()
    return (
        first.next().isValid()
        and not first.text()
        and not first.blockFormat().properties()
        and not first.charFormat().properties()
    )
