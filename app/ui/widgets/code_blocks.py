"""Code in a rendered reply: a line naming its language with a Copy link, Pygments' colours, no wrapping.

Qt's Markdown reader makes each line of a fenced block a text block marked as code (with the
fence's language). Consecutive such lines are one code block here: each gets the theme's
code background and a monospace font, its lines are never wrapped (the message scrolls
sideways instead), its tokens are coloured by Pygments' lexer for the named language (plain
when none is named or Pygments does not know it: guessing a language is slow and often
wrong), and a line above it names the language beside a Copy link. The link's address is
`glassbox-copy:N`; `copied_code` turns it into the code the reader asked for, kept on the
document, so the copy is the code exactly as the model wrote it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers.special import TextLexer
from pygments.token import Comment, Keyword, Name, Number, String, _TokenType
from pygments.util import ClassNotFound
from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QTextBlock,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

from app.ui.widgets.theme import SMALL_TEXT, SYNTAX_KINDS, colours

COPY_SCHEME = "glassbox-copy"
CODE_PROPERTY = "glassboxCode"  # the document's list of its code blocks' texts, in order
_TOKEN_KINDS: tuple[tuple[_TokenType, str], ...] = (
    (Comment, "comment"),
    (String, "string"),
    (Keyword, "keyword"),
    (Number, "number"),
    (Name.Function, "name"),
    (Name.Class, "name"),
    (Name.Builtin, "name"),
    (Name.Decorator, "name"),
)


@dataclass(frozen=True)
class _CodeBlock:
    language: str
    first: int  # position of its first character
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def style_code_blocks(document: QTextDocument, first_index: int = 0) -> None:
    """Style every code block of a rendered document and put its header line above it.

    The Copy links count from `first_index`: a reply rendered in pieces numbers its code blocks
    through all of them (see `markdown_pieces`).
    """
    blocks = list(_code_blocks(document))
    document.setProperty(CODE_PROPERTY, [block.text for block in blocks])
    cursor = QTextCursor(document)
    for index in range(len(blocks) - 1, -1, -1):  # from the end: inserting a header moves what follows
        block = blocks[index]
        _format_lines(document, block)
        _highlight(cursor, block)
        _insert_header(cursor, block, first_index + index)


def copied_code(document: QTextDocument, url: QUrl) -> str | None:
    """The code a Copy link names, or None when `url` is not one of this document's Copy links."""
    if url.scheme() != COPY_SCHEME:
        return None
    codes = document.property(CODE_PROPERTY) or []
    try:
        return str(codes[int(url.path())])
    except (ValueError, IndexError):
        return None


def _is_code(block: QTextBlock) -> bool:
    block_format = block.blockFormat()
    return block_format.hasProperty(QTextFormat.Property.BlockCodeFence) or block_format.nonBreakableLines()


def _code_blocks(document: QTextDocument) -> Iterator[_CodeBlock]:
    block = document.begin()
    while block.isValid():
        if not _is_code(block):
            block = block.next()
            continue
        language = str(block.blockFormat().property(QTextFormat.Property.BlockCodeLanguage) or "")
        first, lines = block.position(), []
        while block.isValid() and _is_code(block):
            lines.append(block.text())
            block = block.next()
        yield _CodeBlock(language.strip(), first, tuple(lines))


def _format_lines(document: QTextDocument, code: _CodeBlock) -> None:
    mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    block = document.findBlock(code.first)
    for _ in code.lines:
        cursor = QTextCursor(block)
        line_format = QTextBlockFormat()
        line_format.setBackground(colours().qcolor("code_background"))
        line_format.setLeftMargin(6)
        line_format.setNonBreakableLines(True)  # code keeps its lines; the message scrolls sideways
        cursor.mergeBlockFormat(line_format)
        cursor.select(QTextCursor.SelectionType.BlockUnderCursor)
        chars = QTextCharFormat()
        chars.setFontFamilies([mono.family()])
        chars.setFontStyleHint(QFont.StyleHint.Monospace)
        cursor.mergeCharFormat(chars)
        block = block.next()


def _lexer(language: str) -> Lexer:
    try:
        return get_lexer_by_name(language) if language else TextLexer()
    except ClassNotFound:
        return TextLexer()


def _highlight(cursor: QTextCursor, code: _CodeBlock) -> None:
    palette = dict(zip(SYNTAX_KINDS, colours().code_syntax, strict=True))
    offset = 0
    for token, value in _lexer(code.language).get_tokens(code.text):
        kind = _kind(token)
        if kind is not None and value.strip():
            chars = QTextCharFormat()
            chars.setForeground(QColor(palette[kind]))
            if kind == "comment":
                chars.setFontItalic(True)
            cursor.setPosition(code.first + offset)
            cursor.setPosition(code.first + offset + len(value), QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(chars)
        offset += len(value)


def _kind(token: _TokenType) -> str | None:
    for parent, kind in _TOKEN_KINDS:
        if token[: len(parent)] == parent:  # a subtype of parent (what pygments' `token in parent` asks)
            return kind
    return None


def _insert_header(cursor: QTextCursor, code: _CodeBlock, index: int) -> None:
    """A small line above the block: its language (or "code") and a Copy link."""
    cursor.setPosition(code.first)
    cursor.insertBlock(cursor.blockFormat(), cursor.charFormat())  # the code moves down a line, as it was
    cursor.movePosition(QTextCursor.MoveOperation.PreviousBlock)
    header = QTextBlockFormat()
    header.setBackground(colours().qcolor("code_background"))
    header.setLeftMargin(6)
    header.setTopMargin(4)
    cursor.setBlockFormat(header)
    label = QTextCharFormat()
    label.setForeground(colours().qcolor("muted"))
    size = cursor.document().defaultFont().pointSizeF()
    if size > 0:
        label.setFontPointSize(size * SMALL_TEXT)
    cursor.insertText((code.language or QCoreApplication.translate("Markdown", "code")) + "  ", label)
    link = QTextCharFormat(label)
    link.setAnchor(True)
    link.setAnchorHref(f"{COPY_SCHEME}:{index}")
    link.setForeground(colours().qcolor("link"))
    link.setToolTip(QCoreApplication.translate("Markdown", "Copy this code"))
    cursor.insertText(QCoreApplication.translate("Markdown", "Copy"), link)
