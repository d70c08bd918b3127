"""Which of a reply's links may be opened: web addresses only, and always shown in full first."""

from __future__ import annotations

from PySide6.QtCore import QUrl

WEB_SCHEMES = frozenset({"http", "https"})


def web_address(href: str) -> QUrl | None:
    """The http(s) address `href` names, or None for anything else (`file:`, `javascript:`, `data:`, relative)."""
    url = QUrl(href.strip(), QUrl.ParsingMode.TolerantMode)
    if not url.isValid() or url.scheme().lower() not in WEB_SCHEMES or not url.host():
        return None
    return url


def display_address(url: QUrl) -> str:
    """The address as it will be opened: percent-encoded and with an international host in its ASCII form,
    so look-alike characters cannot pass for another site."""
    return url.toString(QUrl.ComponentFormattingOption.FullyEncoded)
