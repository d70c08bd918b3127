"""The context meter: how much of the model's context the next turn takes, and what fell out of it.

A bar in four parts: the system prompt with the chat template's frame, the conversation the model
still sees, the room kept for the reply (only outlined, the free colour inside: kept, not used), and
what is free. Where the model's template sends earlier replies' reasoning back (most thinking
models' templates drop it), the conversation's share of it is a part of its own; where it drops it,
the tooltip says about how much room that saves. With tools offered, their definitions are a part of
their own beside the frame they belong to, and during a tool turn the results the model reads are a
part of the conversation's. Under the bar one line in words, e.g. "This chat uses 1,234 of 2,048
tokens; 512 are kept free for the reply · 3 earlier messages are outside the window".
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from app.core.backends.remote_window import ESTIMATE_NOTICE
from app.core.chat.context_window import WindowPlan
from app.core.support.formatting import fill
from app.ui.widgets.locale_format import number
from app.ui.widgets.theme import Tone, colours, set_tone

KEPT_FREE = frozenset({"reserve"})  # segments only outlined: room kept, not taken


def _segment_colour(key: str) -> QColor:
    """A segment's colour from the theme: frame, tools, conversation, reasoning, tool_results, reserve, free or
    error."""
    return colours().qcolor(f"meter_{key}")


class _Bar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parts: list[tuple[str, float]] = []  # (color key, fraction of the context)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(200, 10)

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(_segment_colour("free"))
        painter.drawRoundedRect(rect, 4, 4)
        x = rect.left()
        for key, fraction in self.parts:
            width = rect.width() * fraction
            segment = QRectF(x, rect.top(), width, rect.height())
            if key in KEPT_FREE:  # room kept for the reply, not used: outlined only, the free colour inside
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(_segment_colour(key), 1, Qt.PenStyle.DotLine))
                painter.drawRect(segment.adjusted(0.5, 0.5, -0.5, -0.5))
                painter.setPen(Qt.PenStyle.NoPen)
            else:
                painter.setBrush(_segment_colour(key))
                painter.drawRect(segment)
            x += width
        painter.end()


class ContextMeter(QWidget):
    """Shows a WindowPlan for the next turn (set_plan) or why the next turn cannot be sent (set_error)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(2)
        self.bar = _Bar(self)
        self.label = QLabel(self)
        set_tone(self.label, Tone.NOTE)
        self.label.setWordWrap(True)
        layout.addWidget(self.bar)
        layout.addWidget(self.label)
        self.plan: WindowPlan | None = None
        self.clear()

    def clear(self) -> None:
        self.plan = None
        self.bar.parts = []
        self.bar.update()
        self.label.setText(self.tr("Context: load a model to see how much of it the chat takes"))
        self.setToolTip("")

    def set_waiting(self, message: str) -> None:
        """No plan for the chat on show yet (it is being measured, or the LLM thread writes a reply in another
        chat): say so rather than keep another chat's or another text's numbers."""
        self.plan = None
        self.bar.parts = []
        self.bar.update()
        self.label.setText(message)
        set_tone(self.label, Tone.NOTE)
        self.setToolTip("")

    def set_plan(self, plan: WindowPlan) -> None:
        self.plan = plan
        n_ctx = max(plan.n_ctx, 1)
        conversation = max(plan.prompt_tokens - plan.frame_tokens, 0)
        reasoning = min(plan.reasoning_tokens, conversation)
        results = min(plan.tool_result_tokens, conversation - reasoning)
        tools = min(plan.tool_tokens, plan.frame_tokens)
        self.bar.parts = [
            ("frame", (plan.frame_tokens - tools) / n_ctx),
            *([("tools", tools / n_ctx)] if tools else []),
            ("conversation", (conversation - reasoning - results) / n_ctx),
            *([("reasoning", reasoning / n_ctx)] if reasoning else []),
            *([("tool_results", results / n_ctx)] if results else []),
            ("reserve", plan.reserve / n_ctx),
        ]
        self.bar.update()
        text = fill(
            self.tr("This chat uses {used} of {n_ctx} tokens; {reserve} are kept free for the reply"),
            used=number(plan.prompt_tokens),
            reserve=number(plan.reserve),
            n_ctx=number(plan.n_ctx),
        )
        if reasoning:
            thoughts = self.tr("{reasoning} of them are earlier replies' reasoning")
            text += " · " + fill(thoughts, reasoning=number(reasoning))
        if tools:
            text += " · " + fill(self.tr("{tools} for the tools' definitions"), tools=number(tools))
        if results:
            text += " · " + fill(self.tr("{results} for the tools' results"), results=number(results))
        if ESTIMATE_NOTICE in plan.notice:
            text += " " + self.tr("(estimated)")
        outside = len(plan.outside_ids)
        if outside == 1:
            text += " · " + self.tr("1 earlier message is outside the window")
        elif outside:
            text += " · " + self.tr("%n earlier messages are outside the window", "", outside)
        self.label.setText(text)
        set_tone(self.label, Tone.NOTE)
        lines = [
            fill(
                self.tr(
                    "What the model gets on the next turn:\n"
                    "system prompt and chat template: {frame}\nconversation: {conversation}\n"
                    "kept free for the reply (max tokens): {reserve}\nfree: {free}"
                ),
                frame=number(plan.frame_tokens),
                conversation=number(conversation),
                reserve=number(plan.reserve),
                free=number(max(plan.n_ctx - plan.used_tokens, 0)),
            )
        ]
        if tools:
            part = self.tr("of the system prompt and chat template, the tools' definitions: {tools}")
            lines.append(fill(part, tools=number(tools)))
        if reasoning:
            part = self.tr("of the conversation, earlier replies' reasoning: {reasoning}")
            lines.append(fill(part, reasoning=number(reasoning)))
        if results:
            part = self.tr("of the conversation, the tools' results: {results}")
            lines.append(fill(part, results=number(results)))
        if plan.reasoning_left_out:
            saved = self.tr("earlier replies' reasoning the model's template leaves out: about {reasoning}")
            lines.append(fill(saved, reasoning=number(plan.reasoning_left_out)))
        if plan.notice:
            lines.append(plan.notice)
        self.setToolTip("\n".join(lines))

    def set_error(self, message: str) -> None:
        """The next turn does not fit (the policy stops, or a message is too long): say why."""
        self.plan = None
        self.bar.parts = [("error", 1.0)]
        self.bar.update()
        self.label.setText(message)
        set_tone(self.label, Tone.ERROR)
        self.setToolTip(message)
