"""Math in a reply's Markdown: `$…$`, `$$…$$`, `\\(…\\)` and `\\[…\\]` shown as formulas.

Markdown would eat TeX before it could be read (`\\(` becomes `(`, `a_1 … b_1` italics, `\\\\` a
backslash), so each formula is taken out of the text first (`protect_math`) and stands there as
a placeholder of private-use characters, which Markdown leaves alone; once the document is built,
each placeholder is replaced by its formula's runs (`show_math`, from `tex_math`): Unicode
symbols, raised and lowered scripts, italic variables. A display formula on lines of its own
is a centred paragraph. Hovering a formula shows its TeX.

What is not math stays as it was: code (fenced blocks and `inline code`) is never looked
into, and a dollar is math only as Pandoc reads it — the opening `$` followed by a non-space,
the closing one preceded by a non-space and not followed by a digit — so "$5 and $10" is
money. TeX that does not read (a formula still streaming) is shown as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QRegularExpression, Qt
from PySide6.QtGui import QTextBlockFormat, QTextCharFormat, QTextCursor, QTextDocument

from app.ui.widgets.tex_math import MathRun, Place, math_runs
from app.ui.widgets.tooltips import plain_tooltip

_OPEN, _CLOSE = "\ue000", "\ue001"  # a placeholder: _OPEN, the formula's number, _CLOSE
_PLACEHOLDER = QRegularExpression(f"{_OPEN}(\\d+){_CLOSE}")
_NO_BLANK_LINE = r"(?:(?!\n[ \t]*\n).)"
_MATH = re.compile(
    rf"\$\$(?P<dollars>{_NO_BLANK_LINE}+?)\$\$"
    rf"|\\\[(?P<brackets>{_NO_BLANK_LINE}+?)\\\]"
    rf"|\\\((?P<parens>{_NO_BLANK_LINE}+?)\\\)"
    r"|(?<![\\$])\$(?=[^\s$])(?P<dollar>(?:[^$\n\\]|\\.)+?)(?<=[^\s\\])\$(?![\d$])",
    re.DOTALL,
)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", re.DOTALL)
_PLACE = {
    Place.LINE: QTextCharFormat.VerticalAlignment.AlignNormal,
    Place.RAISED: QTextCharFormat.VerticalAlignment.AlignSuperScript,
    Place.LOWERED: QTextCharFormat.VerticalAlignment.AlignSubScript,
}


@dataclass(frozen=True)
class Formula:
    tex: str  # between the delimiters
    source: str  # as written, delimiters and all
    display: bool  # $$…$$ or \[…\]


def protect_math(text: str) -> tuple[str, list[Formula]]:
    """`text` with each formula outside code replaced by a placeholder, and the formulas in order.

    A display formula that fills its lines becomes a paragraph of its own. Text that already
    holds the placeholder's private-use character is left as it is (nothing in it is read as math).
    """
    if _OPEN in text:
        return text, []
    formulas: list[Formula] = []
    parts: list[str] = []
    done = 0
    for start, end in _prose(text):
        for found in _MATH.finditer(text, start, end):
            tex = next(group for group in found.groups() if group is not None)
            if not tex.strip():
                continue
            display = found.group("dollars") is not None or found.group("brackets") is not None
            parts.append(text[done : found.start()])
            placeholder = f"{_OPEN}{len(formulas)}{_CLOSE}"
            if display and _fills_its_lines(text, found.start(), found.end()):
                placeholder = f"\n\n{placeholder}\n\n"
            parts.append(placeholder)
            formulas.append(Formula(tex.strip(), found.group(0), display))
            done = found.end()
    parts.append(text[done:])
    return "".join(parts), formulas


def _prose(text: str) -> list[tuple[int, int]]:
    """The stretches of `text` outside code blocks and code spans, as (start, end)."""
    stretches: list[tuple[int, int]] = []
    start = 0
    fence: str | None = None
    for line in _FENCE.finditer(text):
        marker = line.group(1)
        if fence is None:
            stretches += _outside_code_spans(text, start, line.start())
            fence = marker
        elif marker[0] == fence[0] and len(marker) >= len(fence):
            fence = None
            start = text.find("\n", line.end())
            start = len(text) if start < 0 else start
    if fence is None:
        stretches += _outside_code_spans(text, start, len(text))
    return stretches


def _outside_code_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    stretches = []
    for span in _CODE_SPAN.finditer(text, start, end):
        stretches.append((start, span.start()))
        start = span.end()
    stretches.append((start, end))
    return stretches


def _fills_its_lines(text: str, start: int, end: int) -> bool:
    """Whether the formula at start…end has its lines to itself, at the left margin (not in a list or a quote)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    after = text[end : len(text) if line_end < 0 else line_end]
    return text[line_start:start] == "" and not after.strip()


def show_math(document: QTextDocument, formulas: list[Formula]) -> None:
    """Replace each placeholder in `document` by its formula (in the format around it)."""
    if not formulas:
        return
    found: list[tuple[int, int, int]] = []  # start, length, formula number
    cursor = document.find(_PLACEHOLDER)
    while not cursor.isNull():
        number = int(cursor.selectedText()[1:-1])
        found.append((cursor.selectionStart(), cursor.selectionEnd() - cursor.selectionStart(), number))
        cursor = document.find(_PLACEHOLDER, cursor)
    editor = QTextCursor(document)
    for start, length, number in reversed(found):  # from the end: what is still to visit keeps its place
        if number < len(formulas):
            _show(editor, start, length, formulas[number])


def _show(cursor: QTextCursor, start: int, length: int, formula: Formula) -> None:
    cursor.setPosition(start + 1)
    around = cursor.charFormat()
    cursor.setPosition(start)
    cursor.setPosition(start + length, QTextCursor.MoveMode.KeepAnchor)
    whole_block = cursor.block().length() - 1 == length
    runs = math_runs(formula.tex, formula.display)
    if runs is None:
        cursor.insertText(formula.source, around)
        return
    tooltip = plain_tooltip(formula.source)
    cursor.removeSelectedText()
    for run in runs:
        cursor.insertText(run.text, _run_format(around, run, tooltip))
    if formula.display and whole_block:
        centred = QTextBlockFormat(cursor.blockFormat())
        centred.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        cursor.setBlockFormat(centred)


def _run_format(around: QTextCharFormat, run: MathRun, tooltip: str) -> QTextCharFormat:
    shown = QTextCharFormat(around)
    shown.setVerticalAlignment(_PLACE[run.place])
    if run.italic:
        shown.setFontItalic(True)
    if run.overline:
        shown.setFontOverline(True)
    shown.setToolTip(tooltip)
    return shown
