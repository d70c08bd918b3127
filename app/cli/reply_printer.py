"""A reply printed as it streams, a thinking model's reasoning apart from its answer.

On a terminal the reasoning is dimmed (ANSI faint) and the answer follows in plain text after a
blank line. Piped to a file or a program, where an escape code is noise, each part that follows
reasoning is marked with a line of its own, `[thinking]` and `[answer]`. With --hide-thinking
the reasoning is left out. A reply without reasoning prints as the answer alone, as it always
did; the markers of a model's block never reach the answer (the backends take them out).

On a terminal the model's text is made inert (terminal_text.py); piped, it is kept exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from app.cli.terminal_text import terminal_safe
from app.core.types.replies import ReplyPart, TokenPiece

FAINT = "\x1b[2m"
NOT_FAINT = "\x1b[22m"
THINKING_MARK = "[thinking]"
ANSWER_MARK = "[answer]"


class ReplyPrinter:
    def __init__(self, out: TextIO, *, terminal: bool, show_thinking: bool = True) -> None:
        self._out = out
        self._terminal = terminal
        self._show_thinking = show_thinking
        self._shown: Callable[[str], str] = terminal_safe if terminal else str
        self._part: ReplyPart | None = None  # the part being printed
        self._line_start = True  # the last character printed ended a line (or nothing was printed)
        self._faint = False  # the terminal prints dimmed

    def piece(self, piece: TokenPiece) -> None:
        if piece.part is ReplyPart.REASONING and not self._show_thinking:
            return
        text = piece.text
        if piece.part is not self._part:
            if piece.part is ReplyPart.REASONING or self._part is not None:
                text = text.lstrip("\n")  # the blank lines a model writes around its block: the layout is ours
            if not text:
                return
            self._begin(piece.part)
        self._write(self._shown(text))
        self._out.flush()

    def end(self) -> None:
        """The reply is over: the terminal back to plain text, the line ended."""
        self.close()
        self._out.write("\n")
        self._out.flush()

    def close(self) -> None:
        """The terminal back to plain text, if the reasoning left it dimmed (the reply was interrupted)."""
        if self._faint:
            self._faint = False
            self._out.write(NOT_FAINT)
            self._out.flush()

    def _begin(self, part: ReplyPart) -> None:
        after = self._part
        self._part = part
        if self._terminal:
            self.close()
            if after is not None:
                self._write("\n" if self._line_start else "\n\n")
            if part is ReplyPart.REASONING:
                self._faint = True
                self._out.write(FAINT)
        elif part is ReplyPart.REASONING or after is not None:
            mark = THINKING_MARK if part is ReplyPart.REASONING else ANSWER_MARK
            self._write(("" if self._line_start else "\n") + mark + "\n")

    def _write(self, text: str) -> None:
        self._out.write(text)
        self._line_start = text.endswith("\n")
