"""The text of an HTML page (stdlib html.parser), with the source line each piece came from.

Scripts, styles and other non-text elements are dropped; block elements start a new
paragraph so that chunking can cut between them; whitespace is collapsed except inside
<pre>. Nothing is fetched: images, links and frames are text or nothing.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_SKIPPED = frozenset({"script", "style", "noscript", "template", "svg", "math", "iframe", "object", "canvas", "head"})
_KEPT_IN_HEAD = frozenset({"title"})
_PARAGRAPH = frozenset(
    {
        *("p", "div", "section", "article", "main", "aside", "header", "footer", "nav", "blockquote", "pre"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "table", "figure", "figcaption", "form"),
        *("fieldset", "details", "summary", "hr", "title", "body", "address"),
    }
)
_LINE = frozenset({"br", "li", "dt", "dd", "tr", "caption", "option"})
_CELL = frozenset({"td", "th"})
_SPACES = re.compile(r"\s+")


class HtmlText(HTMLParser):
    """Feed it the page; `pieces` is then [(text, source line)] in reading order, breaks as "\\n" pieces."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[tuple[str, int]] = []
        self._skipping: list[str] = []  # open skipped elements (head is skipped except its title)
        self._in_title = False
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self._skipping.clear()  # an omitted </head> ends with <body>
        if tag in _SKIPPED:
            self._skipping.append(tag)
            return
        if self._skipping and tag not in _KEPT_IN_HEAD:
            return
        if tag in _KEPT_IN_HEAD:
            self._in_title = True
        if tag == "pre":
            self._pre += 1
        self._break_for(tag, opening=True)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._skipping:
            self._break_for(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._skipping and tag == self._skipping[-1]:
            self._skipping.pop()
            return
        if self._skipping and tag not in _KEPT_IN_HEAD:
            return
        if tag in _KEPT_IN_HEAD:
            self._in_title = False
        if tag == "pre" and self._pre:
            self._pre -= 1
        self._break_for(tag)

    def handle_data(self, data: str) -> None:
        if self._skipping and not self._in_title:
            return
        text = data if self._pre else _SPACES.sub(" ", data)
        if not text.strip() and not self._pre:
            if self.pieces and not self.pieces[-1][0].endswith((" ", "\n")):
                self.pieces.append((" ", self.getpos()[0]))
            return
        self.pieces.append((text, self.getpos()[0]))

    def _break_for(self, tag: str, opening: bool = False) -> None:
        if tag in _PARAGRAPH:
            self._break("\n\n")
        elif tag in _LINE:
            self._break("\n")
        elif tag in _CELL and opening:
            tail = self._tail()
            if tail and not tail.endswith("\n"):
                self.pieces.append((" | ", self.getpos()[0]))

    def _break(self, mark: str) -> None:
        tail = self._tail()
        if not tail or tail.endswith(mark):
            return
        if tail.endswith("\n"):
            mark = mark[1:]
        self.pieces.append((mark, self.getpos()[0]))

    def _tail(self) -> str:
        return "".join(text for text, _line in self.pieces[-2:])
