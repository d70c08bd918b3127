"""Markdown to the rich text a QLabel shows, with code blocks set apart."""

from __future__ import annotations

from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

CODE_BACKGROUND = QColor("#f1f3f5")


def markdown_to_html(text: str) -> str:
    """Render CommonMark (Qt's own parser) and give fenced/indented code a background and monospace font."""
    document = QTextDocument()
    document.setMarkdown(text, QTextDocument.MarkdownFeature.MarkdownDialectGitHub)
    mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    block = document.begin()
    while block.isValid():
        block_format = block.blockFormat()
        if block_format.hasProperty(QTextFormat.Property.BlockCodeFence) or block_format.nonBreakableLines():
            cursor = QTextCursor(block)
            code_block = QTextBlockFormat()
            code_block.setBackground(CODE_BACKGROUND)
            code_block.setLeftMargin(6)
            cursor.mergeBlockFormat(code_block)
            cursor.select(QTextCursor.SelectionType.BlockUnderCursor)
            code_chars = QTextCharFormat()
            code_chars.setFontFamilies([mono.family()])
            code_chars.setFontStyleHint(QFont.StyleHint.Monospace)
            cursor.mergeCharFormat(code_chars)
        block = block.next()
    # Wrap long code lines instead of clipping them at the message's edge.
    return document.toHtml().replace("white-space:pre;", "white-space:pre-wrap;")
