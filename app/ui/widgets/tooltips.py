"""Tooltips for text that comes from a model or a file: shown as the characters they are."""

from __future__ import annotations

import html


def plain_tooltip(text: str) -> str:
    """A tooltip Qt shows as rich text made of escaped characters, so nothing in `text` becomes a tag.

    Qt reads a tooltip as HTML when it looks like HTML; text that comes from a model or a
    file must go through here, or an `<img>` in it is loaded when the mouse rests on it.
    """
    return f"<p style='white-space:pre-wrap'>{html.escape(text)}</p>"
