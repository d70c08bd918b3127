"""Under a reply: the sources retrieved for it, [1], [2] …, each opening its file; and the "recalled" mark.

Built from what the chat history keeps with the reply (`stats["retrieval"]`, see
`Retrieval.to_dict`), so a reply reloaded after a restart shows the same sources. A
source the reply cites by its number is shown in bold. Clicking one opens the file with
the program the system has for it; the tooltip says which page or line the excerpt is on
(a file URL cannot carry a page or line that every program understands).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from app.core.support.formatting import fill
from app.ui.widgets.theme import Tone, set_tone

RECALLED_MARK = "glassbox_recalled"  # the property a message widget gets once it is marked recalled


def retrieved_sources(stats: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The document chunks a saved reply was given (empty for replies without retrieval)."""
    retrieval = (stats or {}).get("retrieval")
    chunks = retrieval.get("chunks") if isinstance(retrieval, dict) else None
    return [c for c in chunks if isinstance(c, dict) and "uri" in c] if isinstance(chunks, list) else []


def recalled_ids(stats: Mapping[str, Any] | None) -> list[str]:
    """The ids of the earlier messages long memory brought back into a saved reply's prompt."""
    retrieval = (stats or {}).get("retrieval")
    memories = retrieval.get("memories") if isinstance(retrieval, dict) else None
    if not isinstance(memories, list):
        return []
    return list(dict.fromkeys(str(m["uri"]) for m in memories if isinstance(m, dict) and "uri" in m))


class CitationsBar(QWidget):
    """'Sources: [1] notes.md, lines 3–9  [2] guide.pdf, page 4' — each one a button that opens its file."""

    opened = Signal(QUrl)  # a source was opened (tests follow it)

    def __init__(self, sources: Sequence[Mapping[str, Any]], reply: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CitationsBar")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(4)
        title = QLabel(self.tr("Sources:"), self)
        set_tone(title, Tone.NOTE)
        layout.addWidget(title)
        self.buttons: list[QToolButton] = []
        for source in sources:
            number = int(source.get("number", 0))
            button = QToolButton(self)
            button.setAutoRaise(True)
            button.setText(f"[{number}] {source.get('label', Path(str(source['uri'])).name)}")
            cited = f"[{number}]" in reply
            if cited:
                font = button.font()
                font.setBold(True)
                button.setFont(font)
            button.setToolTip(self._tooltip(source, cited))
            button.clicked.connect(lambda _checked=False, uri=str(source["uri"]): self.open_source(uri))
            layout.addWidget(button)
            self.buttons.append(button)
        layout.addStretch(1)

    def _tooltip(self, source: Mapping[str, Any], cited: bool) -> str:
        where = ""
        if source.get("page"):
            where = fill(self.tr("The excerpt is on page {page}."), page=source["page"])
        elif source.get("line"):
            where = fill(self.tr("The excerpt starts at line {line}."), line=source["line"])
        why = fill(self.tr("Found by {why} search."), why=source.get("why", ""))
        text = fill(self.tr("Open {path}"), path=source["uri"])
        parts = [text, where, why, self.tr("The reply cites it.") if cited else ""]
        return "\n".join(part for part in parts if part)

    def open_source(self, uri: str) -> None:
        url = QUrl.fromLocalFile(uri)
        QDesktopServices.openUrl(url)
        self.opened.emit(url)


def recalled_badge(parent: QWidget) -> QLabel:
    """The note on a message that long memory brought back into a later prompt."""
    text = QCoreApplication.translate("Citations", "recalled: long memory brought this back into a later prompt")
    badge = QLabel(text, parent)
    badge.setObjectName("RecalledBadge")
    set_tone(badge, Tone.NOTE)
    return badge
