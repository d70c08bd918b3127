"""How the chat list draws its entries: date groups, a title, and a muted second line.

The second line is where the search found the text (the found words in bold) or else the
model the chat last used; one that does not fit the list's width ends in "…", and the entry is
as tall as its two lines really are (a CJK fallback font is taller than the Latin one). Group
headers ("Pinned", "Today", "Yesterday", "Previous 7 days", "Previous 30 days", then month by
month) are entries that cannot be selected.
"""

from __future__ import annotations

import html
import math
import re
from datetime import date, datetime, timedelta

from PySide6.QtCore import QCoreApplication, QDate, QLocale, QModelIndex, QPersistentModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QFont, QFontMetricsF, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from app.ui.widgets.theme import SMALL_TEXT, colours

DETAIL = Qt.ItemDataRole.UserRole + 2  # the muted second line
NEEDLE = Qt.ItemDataRole.UserRole + 3  # the searched text, shown in bold in the second line
GROUP = Qt.ItemDataRole.UserRole + 4  # a group header's label
PADDING = 4
Index = QModelIndex | QPersistentModelIndex


def date_group(updated: float, pinned: bool, today: date | None = None) -> str:
    """The group a chat is listed under, by when it was last used."""
    if pinned:
        return QCoreApplication.translate("ChatList", "Pinned")
    today = today or date.today()
    day = datetime.fromtimestamp(updated).date()
    if day >= today:
        return QCoreApplication.translate("ChatList", "Today")
    if day == today - timedelta(days=1):
        return QCoreApplication.translate("ChatList", "Yesterday")
    if day > today - timedelta(days=7):
        return QCoreApplication.translate("ChatList", "Previous 7 days")
    if day > today - timedelta(days=30):
        return QCoreApplication.translate("ChatList", "Previous 30 days")
    return QLocale().toString(QDate(day.year, day.month, 1), "MMMM yyyy")


def detail_html(detail: str, needle: str) -> str:
    """The second line, escaped, with each place the search found in bold."""
    if not needle:
        return html.escape(detail)
    parts = re.split(f"({re.escape(needle)})", detail, flags=re.IGNORECASE)
    return "".join(
        f"<b>{html.escape(part)}</b>" if index % 2 else html.escape(part) for index, part in enumerate(parts)
    )


class ChatItemDelegate(QStyledItemDelegate):
    """Draws the title in the item's own font and the second line smaller and muted, or a group header."""

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        group = index.data(GROUP)
        detail = index.data(DETAIL) or ""
        if not group and not detail:
            super().paint(painter, option, index)
            return
        options = QStyleOptionViewItem(option)
        self.initStyleOption(options, index)
        style = options.widget.style() if options.widget is not None else QApplication.style()
        title = options.text
        options.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, options, painter, options.widget)
        selected = bool(options.state & QStyle.StateFlag.State_Selected)
        text_colour = options.palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, options, options.widget)
        painter.save()
        if group:
            font = options.font
            font.setBold(True)
            font.setPointSizeF(max(1.0, font.pointSizeF() * SMALL_TEXT))
            painter.setFont(font)
            painter.setPen(colours().qcolor("muted"))
            painter.drawText(rect.adjusted(PADDING, 0, 0, 0), Qt.AlignmentFlag.AlignBottom, str(group))
            painter.restore()
            return
        metrics = options.fontMetrics
        painter.setFont(options.font)
        painter.setPen(text_colour)
        first = rect.adjusted(PADDING, PADDING // 2, -PADDING, 0)
        painter.drawText(first, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                         metrics.elidedText(title, Qt.TextElideMode.ElideRight, first.width()))  # fmt: skip
        document = detail_document(detail, str(index.data(NEEDLE) or ""), options, selected, first.width())
        painter.translate(first.left(), first.top() + metrics.height())
        context = QAbstractTextDocumentLayout.PaintContext()
        context.clip = QRectF(0, 0, first.width(), document.size().height())
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        base = super().sizeHint(option, index)
        metrics = option.fontMetrics
        if index.data(GROUP):
            return QSize(base.width(), int(metrics.height() * 1.6))
        detail = index.data(DETAIL)
        if detail:
            second = detail_document(str(detail), "", option, False, float(base.width() or 1000))
            return QSize(base.width(), PADDING // 2 + metrics.height() + math.ceil(second.size().height()) + PADDING)
        return base


def detail_document(
    detail: str, needle: str, options: QStyleOptionViewItem, selected: bool, width: float
) -> QTextDocument:
    """The second line in the small font, cut to `width` with "…" where it is longer."""
    document = QTextDocument()
    document.setDocumentMargin(0)
    font = QFont(options.font)
    font.setPointSizeF(max(1.0, font.pointSizeF() * SMALL_TEXT))
    document.setDefaultFont(font)
    colour = options.palette.color(QPalette.ColorRole.HighlightedText) if selected else colours().qcolor("muted")
    one_line = QFontMetricsF(font).elidedText(" ".join(detail.split()), Qt.TextElideMode.ElideRight, width)
    document.setHtml(f"<span style='color:{colour.name()}; white-space:nowrap'>{detail_html(one_line, needle)}</span>")
    document.setTextWidth(width)
    return document
