"""A model's Markdown as an inert text document: formatting yes, anything that loads or runs no.

Qt's own CommonMark parser (GitHub dialect) reads the text with raw HTML switched off, so
`<br>`, `<div>`, `<img …>`, `<style>` and `style="…"` are shown as the characters they are
and hide nothing. What Markdown itself can still refer to is then taken out of the document:

- an image becomes its alt text (or "image"), in italics; its address is only named in the
  tooltip, never read;
- a link stays a link only for an http(s) address with a host (see `links.web_address`); any
  other (`file:`, `javascript:`, `data:`, a relative path) becomes plain text;
- every tooltip is replaced by one the renderer writes, escaped: Qt shows a tooltip that looks
  like HTML as rich text, which would load what a link's title names.

Math (`$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]`) is shown as formulas of Unicode text and scripts
(see `markdown_math`). Fenced and indented code get a language line with a Copy link, a
background, a monospace font and Pygments' colours, and keep their lines (see `code_blocks`). A single newline
stays a line break, as chat apps show model output (Markdown would join the lines of a poem
or an address into one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import (
    QGuiApplication,
    QPalette,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

from app.core.support.formatting import fill
from app.ui.widgets.code_blocks import style_code_blocks
from app.ui.widgets.links import display_address, web_address
from app.ui.widgets.markdown_math import protect_math, show_math
from app.ui.widgets.theme import colours
from app.ui.widgets.tooltips import plain_tooltip

MARKDOWN_FEATURES = QTextDocument.MarkdownFeature.MarkdownDialectGitHub | QTextDocument.MarkdownFeature.MarkdownNoHTML
IMAGE_PROPERTIES = (
    QTextFormat.Property.ObjectType,
    QTextFormat.Property.ImageName,
    QTextFormat.Property.ImageTitle,
    QTextFormat.Property.ImageAltText,
    QTextFormat.Property.ImageWidth,
    QTextFormat.Property.ImageHeight,
    QTextFormat.Property.ImageMaxWidth,
    QTextFormat.Property.ImageQuality,
)
LINK_PROPERTIES = (
    QTextFormat.Property.IsAnchor,
    QTextFormat.Property.AnchorHref,
    QTextFormat.Property.AnchorName,
    QTextFormat.Property.ForegroundBrush,
    QTextFormat.Property.TextUnderlineStyle,
)


_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_UNDERLINE = re.compile(r"^ {0,3}(=+|-+) *$")  # a setext heading's underline: its title line stays as it is
_HARD_BREAK = "  "  # two trailing spaces: CommonMark's hard line break (ignored at the end of a block)
_LINE_SEPARATOR = "\u2028"  # a line break inside a block, where Qt's reader would split a hard break off
_LIST_ITEM = re.compile(r"^\s*([-*+]|\d{1,9}[.)])(\s|$)")
# A line that starts a block of its own: it is never joined to the list item's line before it.
_BLOCK_START = re.compile(
    r"^\s*([-*+]\s|\d{1,9}[.)]\s|#{1,6}(\s|$)|>|```|~~~|\|)"  # an item, a heading, a quote, a fence, a table
    r"|^ {0,3}(?P<rule>[-*_])( *(?P=rule)){2,} *$"  # a thematic break
)


def keep_line_breaks(text: str) -> str:
    """Make each single newline between two lines of text a hard line break, outside code fences and tables.

    Inside a list item the break is a line separator (U+2028) instead: Qt's Markdown reader makes a
    hard break there a block of its own, which the list then numbers as an item (a tip and its
    explanation on the next line became items 1 and 2). The separator breaks the line within the
    item's block, and the document's plain text has a newline there."""
    lines = text.split("\n")
    parts: list[str] = []
    in_fence = in_item = joined = False
    for index, line in enumerate(lines):
        shown = line.lstrip() if joined else line  # a line joined to an item's line loses its indent
        joined = False
        if index == len(lines) - 1:
            parts.append(shown)
            break
        if _FENCE.match(line):
            in_fence, in_item = not in_fence, False
        if in_fence or _FENCE.match(line):
            parts.append(shown + "\n")
            continue
        in_item = bool(line.strip()) and (in_item or bool(_LIST_ITEM.match(line)))
        following = lines[index + 1]
        joins = line.strip() and following.strip() and not _UNDERLINE.match(following)
        if not joins or line.lstrip().startswith("|") or line.endswith((_HARD_BREAK, "\\")):
            parts.append(shown + "\n")
        elif in_item and not _BLOCK_START.match(following):
            parts.append(shown + _LINE_SEPARATOR)
            joined = True
        else:
            parts.append(shown + _HARD_BREAK + "\n")
    return "".join(parts)


@dataclass(frozen=True)
class _Span:
    """A run of text with one format, as found before the document is changed."""

    start: int
    length: int
    text: str
    format: QTextCharFormat


def render_markdown(document: QTextDocument, text: str, first_code: int = 0) -> None:
    """Fill `document` with `text` read as Markdown, with nothing in it that loads a resource or runs.

    `first_code` is the number of the first code block's Copy link (see `code_blocks`).
    """
    protected, formulas = protect_math(text)
    document.setMarkdown(keep_line_breaks(protected), MARKDOWN_FEATURES)
    cursor = QTextCursor(document)
    cursor.beginEditBlock()
    # From the end, so replacing an image by longer text leaves the positions still to visit where they were.
    for span in reversed(_spans(document)):
        if span.format.isImageFormat():
            _replace_image(cursor, span)
        elif span.format.isAnchor() or span.format.toolTip():
            _settle_link(cursor, span)
    show_math(document, formulas)  # after the tooltips are settled: a formula's own tooltip is its TeX
    style_code_blocks(document, first_code)
    cursor.endEditBlock()


def _spans(document: QTextDocument) -> list[_Span]:
    spans = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            spans.append(_Span(fragment.position(), fragment.length(), fragment.text(), fragment.charFormat()))
            fragments += 1
        block = block.next()
    return spans


def _select(cursor: QTextCursor, span: _Span) -> None:
    cursor.setPosition(span.start)
    cursor.setPosition(span.start + span.length, QTextCursor.MoveMode.KeepAnchor)


def _replace_image(cursor: QTextCursor, span: _Span) -> None:
    """Each image (one object character each) becomes its alt text, italic and grey."""
    image = span.format.toImageFormat()
    alt = " ".join(image.property(QTextFormat.Property.ImageAltText).split()) if image.isValid() else ""
    label = alt or QCoreApplication.translate("Markdown", "image")
    plain = QTextCharFormat(span.format)
    for name in IMAGE_PROPERTIES + LINK_PROPERTIES:
        plain.clearProperty(name)
    plain.setFontItalic(True)
    plain.setForeground(colours().qcolor("muted"))
    address = image.name() if image.isValid() else ""
    note = QCoreApplication.translate("Markdown", "Image not loaded: {address}")
    plain.setToolTip(plain_tooltip(fill(note, address=address)))
    _select(cursor, span)
    cursor.insertText(" ".join([label] * span.length), plain)  # one label per image character


def _settle_link(cursor: QTextCursor, span: _Span) -> None:
    """An http(s) link keeps its address in an escaped tooltip; any other link, and any other tooltip, goes."""
    settled = QTextCharFormat(span.format)
    settled.clearProperty(QTextFormat.Property.TextToolTip)
    address = web_address(span.format.anchorHref()) if span.format.isAnchor() else None
    if span.format.isAnchor():
        for name in LINK_PROPERTIES:
            settled.clearProperty(name)
    if address is not None:
        settled.setAnchor(True)
        settled.setAnchorHref(display_address(address))
        settled.setForeground(QGuiApplication.palette().color(QPalette.ColorRole.Link))
        settled.setFontUnderline(True)
        settled.setToolTip(plain_tooltip(display_address(address)))
    _select(cursor, span)
    cursor.setCharFormat(settled)
