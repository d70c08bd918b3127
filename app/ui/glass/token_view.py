"""A finished reply token by token: hover a word for the model's top 5 alternatives, click to pin them.

Tokens the model was unsure of (below even odds) or far from sure of (below 20 %) get a
coloured background, so the shaky parts of a reply stand out at a glance. The
probabilities are the model's own distribution before sampling; the sampling settings
that were in force are shown beside them. A thinking model's reasoning tokens come first and
are shown muted and in italics, apart from the answer's.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QCursor, QPalette
from PySide6.QtWidgets import QBoxLayout, QFrame, QLabel, QSizePolicy, QToolTip, QVBoxLayout, QWidget

from app.core.support.formatting import fill
from app.core.types.token_trace import LOW_BELOW, UNSURE_BELOW, Confidence, TokenStep, TokenTrace
from app.ui.glass.fork_links import fork_link, parse_fork_link
from app.ui.widgets.theme import Tone, colours, set_tone


def confidence_background(confidence: Confidence) -> str | None:
    """The theme's background for a token the model was unsure of, or far from sure of; None for the rest."""
    c = colours()
    return {Confidence.UNSURE: c.token_unsure, Confidence.LOW: c.token_low}.get(confidence)


BAR_WIDTH = 20  # characters for a probability of 100 %


def sampling_summary(sampling: dict[str, Any]) -> str:
    """One line with the sampling settings a reply was drawn under."""
    if not sampling:
        return ""
    temperature = float(sampling.get("temperature", 0.0))
    if temperature == 0:
        return QCoreApplication.translate("TokenView", "Sampling: greedy (temperature 0, always the most likely token)")
    seed = sampling.get("seed")
    parts = [
        fill(QCoreApplication.translate("TokenView", "temperature {v}"), v=f"{temperature:g}"),
        fill(QCoreApplication.translate("TokenView", "top-k {v}"), v=str(sampling.get("top_k", ""))),
        fill(QCoreApplication.translate("TokenView", "top-p {v}"), v=f"{float(sampling.get('top_p', 1.0)):g}"),
        fill(QCoreApplication.translate("TokenView", "min-p {v}"), v=f"{float(sampling.get('min_p', 0.0)):g}"),
        fill(
            QCoreApplication.translate("TokenView", "repeat penalty {v}"),
            v=f"{float(sampling.get('repeat_penalty', 1.0)):g}",
        ),
        fill(QCoreApplication.translate("TokenView", "seed {v}"), v=seed)
        if seed is not None
        else QCoreApplication.translate("TokenView", "random seed"),
    ]
    return QCoreApplication.translate("TokenView", "Sampling: ") + " · ".join(parts)


def shown(text: str) -> str:
    """A token's text for a table cell: whitespace made visible, HTML escaped."""
    visible = text.replace("\n", "↵").replace("\t", "→")
    if visible.strip() != visible or not visible:
        visible = visible.replace(" ", "␣") or "∅"
    return html.escape(visible)


def alternatives_html(step: TokenStep, fork_at: int | None = None) -> str:
    """The top alternatives of one token as a small table, the chosen one in bold.

    `fork_at`: the token's index in the reply; the other alternatives become fork links."""
    rank = step.rank
    where = (
        fill(QCoreApplication.translate("TokenView", "rank {n}"), n=rank)
        if rank
        else QCoreApplication.translate("TokenView", "outside the top 5")
    )
    rows = []
    for alternative in step.alternatives:
        chosen = alternative.token_id == step.token_id
        text = f"<b>{shown(alternative.text)}</b>" if chosen else shown(alternative.text)
        if fork_at is not None and not chosen:
            text = f'<a href="{fork_link(fork_at, alternative.token_id)}">{text}</a>'
        bar = "█" * max(1, round(alternative.probability * BAR_WIDTH))
        rows.append(
            f"<tr><td>{text}</td><td style='color:{colours().probability_bar}'>{bar}</td>"
            f"<td align='right'>{alternative.probability:.1%}</td></tr>"
        )
    header = f"<p><b>{shown(step.text)}</b> {step.probability:.1%} ({where})</p>"
    return f"{header}<table cellspacing='4'>{''.join(rows)}</table>"


def probability_note(sampling: dict[str, Any]) -> str:
    """What the probabilities are, and the sampling settings in force beside them."""
    return (
        QCoreApplication.translate("TokenView", "The model’s own probabilities, before sampling reshapes them.")
        + "\n"
        + sampling_summary(sampling)
    )


def answer_start(trace: TokenTrace, reasoning_tokens: int) -> int:
    """The index of the trace's first answer token: the reply's reasoning tokens (its stats count them)
    come first."""
    return max(0, min(len(trace.steps), reasoning_tokens))


def token_reply_html(trace: TokenTrace, text_colour: str | None = None, reasoning_steps: int = 0) -> str:
    """The reply as one link per token (for hover and click), coloured by confidence; the first
    `reasoning_steps` tokens (a thinking model's reasoning) muted and in italics."""
    spans = []
    for index, step in enumerate(trace.steps):
        if not step.text:
            continue
        background = confidence_background(step.confidence)
        if index < reasoning_steps:
            style = f"color: {colours().muted}; font-style: italic; text-decoration: none;"
        else:
            style = f"color: {text_colour or colours().text}; text-decoration: none;"
        if background:
            style += f" background-color: {background};"
        spans.append(f'<a href="token:{index}" style="{style}">{html.escape(step.text)}</a>')
    return f'<div style="white-space: pre-wrap;">{"".join(spans)}</div>'


class TokenReplyView(QWidget):
    """One reply's token trace; `tokenActivated(index)` when a token is clicked."""

    tokenActivated = Signal(int)
    forkRequested = Signal(int, int)  # the token's index in the reply, the alternative's token id

    def __init__(self, trace: TokenTrace, parent: QWidget | None = None, reasoning_steps: int = 0) -> None:
        super().__init__(parent)
        self.setObjectName("TokenReplyView")
        self.trace = trace
        self.reasoning_steps = reasoning_steps  # the first tokens, a thinking model's reasoning
        self.pinned: int | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.text = QLabel(self)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        text_colour = self.palette().color(QPalette.ColorRole.WindowText).name()
        self.text.setText(token_reply_html(trace, text_colour, reasoning_steps))
        self.text.linkHovered.connect(self._hovered)
        self.text.linkActivated.connect(self._activated)
        layout.addWidget(self.text)

        self.legend = QLabel(self)
        set_tone(self.legend, Tone.NOTE)
        self.legend.setWordWrap(True)
        self.legend.setText(self._legend())
        layout.addWidget(self.legend)

        self.pinned_box = QFrame(self)
        self.pinned_box.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(self.pinned_box)
        box.setContentsMargins(8, 4, 8, 4)
        self.detail = QLabel(self.pinned_box)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        self.detail.linkActivated.connect(self._fork)
        self.detail_note = QLabel(probability_note(trace.sampling), self.pinned_box)
        self.detail_note.setWordWrap(True)
        set_tone(self.detail_note, Tone.NOTE)
        box.addWidget(self.detail)
        box.addWidget(self.detail_note)
        self.pinned_box.hide()
        layout.addWidget(self.pinned_box)

    def details_html(self, index: int) -> str:
        return alternatives_html(self.trace.steps[index])

    def pin(self, index: int) -> None:
        """Show token `index`'s alternatives below the reply (what a click does)."""
        self.pinned = index
        fork_note = QCoreApplication.translate("TokenView", "Click an alternative to fork the reply there.")
        details = alternatives_html(self.trace.steps[index], index) + f"<p><small>{fork_note}</small></p>"
        self.detail.setText(details)  # markup around translated text
        self.pinned_box.show()
        self.tokenActivated.emit(index)

    def _legend(self) -> str:
        low = len(self.trace.low_confidence_steps())
        unsure = sum(1 for step in self.trace.steps if step.confidence is Confidence.UNSURE)
        text = QCoreApplication.translate(
            "TokenView",
            "{n} tokens, mean probability {mean}; {unsure} unsure (below {u}), {low} low (below {l}). "
            "Point at a word for alternatives, click to pin them.",
        )
        values = {
            "{n}": str(len(self.trace.steps)),
            "{mean}": f"{self.trace.mean_probability:.0%}",
            "{unsure}": str(unsure),
            "{u}": f"{UNSURE_BELOW:.0%}",
            "{low}": str(low),
            "{l}": f"{LOW_BELOW:.0%}",
        }
        for key, value in values.items():
            text = text.replace(key, value)
        if self.reasoning_steps:
            text += " " + fill(
                QCoreApplication.translate(
                    "TokenView", "The first {n} tokens are the reasoning (muted, in italics); the answer follows."
                ),
                n=self.reasoning_steps,
            )
        return text

    def _index(self, link: str) -> int | None:
        if not link.startswith("token:"):
            return None
        index = int(link.split(":", 1)[1])
        return index if 0 <= index < len(self.trace.steps) else None

    def _hovered(self, link: str) -> None:
        index = self._index(link)
        if index is None:
            QToolTip.hideText()
            return
        note = html.escape(probability_note(self.trace.sampling)).replace("\n", "<br>")
        QToolTip.showText(QCursor.pos(), f"{self.details_html(index)}<p><small>{note}</small></p>", self.text)

    def _activated(self, link: str) -> None:
        index = self._index(link)
        if index is not None:
            self.pin(index)

    def _fork(self, link: str) -> None:
        parsed = parse_fork_link(link)
        if parsed is not None and 0 <= parsed[0] < len(self.trace.steps):
            self.forkRequested.emit(*parsed)


def attach_token_view(message: QWidget, body: QWidget, trace: TokenTrace, reasoning_tokens: int = 0) -> TokenReplyView:
    """Put a token view into a chat message, right below its `body`, and show it instead of the body;
    `reasoning_tokens`: how many of the reply's tokens were reasoning (its stats say)."""
    view = TokenReplyView(trace, message, answer_start(trace, reasoning_tokens))
    layout = message.layout()
    if not isinstance(layout, QBoxLayout):
        raise TypeError(f"a chat message stacks its parts in a box layout, not {layout!r}")
    layout.insertWidget(layout.indexOf(body) + 1, view)
    view.show()  # a child added to a widget on screen stays hidden until shown
    body.hide()
    return view


def show_tokens(message: QWidget, body: QWidget, tokens: bool) -> None:
    """Switch a message between its formatted text and its token view (when it has one)."""
    view = message.findChild(TokenReplyView)
    if view is None:
        return
    view.setVisible(tokens)
    body.setVisible(not tokens)
