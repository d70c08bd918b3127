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
from typing import NamedTuple

from PySide6.QtGui import QTextCursor, QTextDocument, QTextDocumentFragment

from app.ui.widgets.code_blocks import CODE_PROPERTY
from app.ui.widgets.inert_text import InertDocument
from app.ui.widgets.markdown import render_markdown

# CommonMark's code fences: an opening one (a backtick fence's info string has no backtick) and a closing one.
_OPENING_FENCE = re.compile(r" {0,3}(`{3,}(?=[^`]*$)|~{3,})")
_CLOSING_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t\r]*$")
_CONTINUES_A_BLOCK = frozenset(" \t\r\n-*+>|0123456789")  # a line starting so may belong to the block above
# A last line still being written that may yet become a fence, a list item, a rule or a heading's underline.
_UNSETTLED_LINE = re.compile(r" {0,3}(`{1,2}|`{3,}[^`]*|~+.*|[-=*_+]+ *|\d{1,9}[.)]?)")
CODE_PIECE_CHARS = 4_000  # a longer code block goes on in a new piece (rendering code costs the most)


class Piece(NamedTuple):
    """A part of a reply that is rendered on its own."""

    source: str
    fence: str = ""  # the opening fence line of the code block this piece goes on with, if it does


def split_pieces(text: str) -> list[Piece]:
    """`text` cut where a new top-level block certainly begins, and inside a long code block; joins back to `text`.

    A code block is cut before a line that follows a non-blank line (Qt's reader drops a code
    block's leading blank line), once its part has CODE_PIECE_CHARS; Pygments then colours each
    part on its own, which a construct spanning the cut (a long string) may notice.
    """
    cuts: list[tuple[int, str]] = [(0, "")]
    fence: str | None = None  # the open fence's marker ("```", "~~~~"), None outside code
    opening_line = ""
    blank_before = False
    part_start = 0  # where the code block's current part began
    position = 0
    while position < len(text):
        newline = text.find("\n", position)
        end = len(text) if newline < 0 else newline + 1
        line = text[position:end].rstrip("\n")
        if fence is None:
            if blank_before and line and line[0] not in _CONTINUES_A_BLOCK:
                cuts.append((position, ""))
            opening = _OPENING_FENCE.match(line)
            if opening:
                fence, opening_line, part_start = opening.group(1), line, position
        else:
            closing = _CLOSING_FENCE.match(line)
            if closing and closing.group(1)[0] == fence[0] and len(closing.group(1)) >= len(fence):
                fence = None
            elif line.strip() and not blank_before and position - part_start >= CODE_PIECE_CHARS:
                cuts.append((position, opening_line))
                part_start = position
        blank_before = not line.strip()
        position = end
    ends = [start for start, _ in cuts[1:]] + [len(text)]
    return [Piece(text[start:end], fence) for (start, fence), end in zip(cuts, ends, strict=True) if start < end]


def settled_part(text: str) -> str:
    """`text` without a last, unfinished line that may still change what the lines before it are."""
    line_start = text.rfind("\n") + 1
    return text[:line_start] if _UNSETTLED_LINE.fullmatch(text, line_start) else text


@dataclass(frozen=True)
class _Shown:
    piece: Piece
    end: int  # the document position where the piece ends
    codes: tuple[str, ...]  # its code blocks' texts, for the Copy links (the first goes on the one before, if it does)


def _all_codes(shown: list[_Shown]) -> list[str]:
    codes: list[str] = []
    for part in shown:
        if part.piece.fence and codes and part.codes:
            codes[-1] += "\n" + part.codes[0]
            codes.extend(part.codes[1:])
        else:
            codes.extend(part.codes)
    return codes


class MarkdownPieces:
    """Shows Markdown in `document`, rendering again only the pieces that changed since the last `show`."""

    def __init__(self, document: QTextDocument) -> None:
        self._document = document
        document.setUndoRedoEnabled(False)  # re-rendering would otherwise keep every replaced piece
        self._shown: list[_Shown] = []
        self.rendered_pieces = 0  # how many pieces were rendered so far (what a re-render cost)

    def show(self, text: str, streaming: bool = False) -> None:
        """Show `text`; `streaming`: more is coming, so an unfinished last line that may change its meaning waits."""
        pieces = split_pieces(settled_part(text) if streaming else text)
        kept = 0
        while kept < min(len(pieces), len(self._shown)) and self._shown[kept].piece == pieces[kept]:
            kept += 1
        if kept == len(pieces) == len(self._shown):
            return
        if kept == 0:
            self._document.clear()  # as a new document (it keeps its font, margin and width)
        cursor = QTextCursor(self._document)
        cursor.beginEditBlock()
        if kept:
            cursor.setPosition(self._shown[kept - 1].end)
            _remove_to_end(cursor)
        del self._shown[kept:]
        for piece in pieces[kept:]:
            self._append(cursor, piece)
        self._document.setProperty(CODE_PROPERTY, _all_codes(self._shown))
        cursor.endEditBlock()

    def forget(self) -> None:
        """The document was filled by other means: the next `show` renders everything."""
        self._shown.clear()

    def _append(self, cursor: QTextCursor, piece: Piece) -> None:
        scratch = InertDocument()
        scratch.setDefaultFont(self._document.defaultFont())
        if piece.fence:  # the rest of a code block: rendered with its fence, without the fence's header line
            render_markdown(scratch, f"{piece.fence}\n{piece.source}", first_code=len(_all_codes(self._shown)) - 1)
            _drop_first_block(scratch)
        else:
            render_markdown(scratch, piece.source, first_code=len(_all_codes(self._shown)))
        self.rendered_pieces += 1
        codes = tuple(str(code) for code in scratch.property(CODE_PROPERTY) or [])
        if scratch.isEmpty():  # Qt's reader drops a paragraph of nothing but an image without alt text
            self._shown.append(_Shown(piece, self._document.characterCount() - 1, codes))
            return
        if self._shown and not _starts_with_placeholder(scratch):
            # A fragment's first block takes the format of the block it is inserted into; an empty block
            # ahead of it makes the piece's own first block start after a separator that carries its format.
            first = scratch.begin()
            QTextCursor(scratch).insertBlock(first.blockFormat(), first.charFormat())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertFragment(QTextDocumentFragment(scratch))
        self._shown.append(_Shown(piece, self._document.characterCount() - 1, codes))


def _remove_to_end(cursor: QTextCursor) -> None:
    """Remove from the cursor to the document's end; the block at the cursor keeps its own format.

    Left to itself, Qt gives the block where a removal begins the format of the block where it ends.
    """
    block = cursor.block()
    block_format, char_format = block.blockFormat(), block.charFormat()
    cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
    cursor.removeSelectedText()
    cursor.setBlockFormat(block_format)
    cursor.setBlockCharFormat(char_format)


def _drop_first_block(document: QTextDocument) -> None:
    """Remove the document's first block; the one after it becomes the first, with its own format."""
    second = document.begin().next()
    block_format, char_format = second.blockFormat(), second.charFormat()
    cursor = QTextCursor(document)
    cursor.setPosition(second.position(), QTextCursor.MoveMode.KeepAnchor)
    cursor.removeSelectedText()
    cursor.setBlockFormat(block_format)
    cursor.setBlockCharFormat(char_format)


def _starts_with_placeholder(document: QTextDocument) -> bool:
    """Whether Qt's reader put an empty, unformatted block first (it does before a table or a rule)."""
    first = document.begin()
    return (
        first.next().isValid()
        and not first.text()
        and not first.blockFormat().properties()
        and not first.charFormat().properties()
    )
