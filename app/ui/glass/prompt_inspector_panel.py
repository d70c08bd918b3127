"""The prompt inspector panel: the exact text the model sees next, its tokens, and the context window.

A past reply's reasoning, where the chat template keeps it in the prompt, shows muted and in
italics, and the context window counts it apart; a template that drops it shows nothing extra. The
definitions of the tools the chat offers show in the meter's colour for them, and the summary says what
they and the tools' results take.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTabWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.chat.prompt_inspector import MessageEntry, PromptInspection, PromptToken, character_groups
from app.core.documents.retrieval import Retrieval, RetrievedChunk
from app.core.support.formatting import fill
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, colours, set_tone


def visible_whitespace(text: str) -> str:
    """HTML for a token's text with line breaks shown as ↵ (and kept as breaks) and tabs as →."""
    return html.escape(text).replace("\t", "→").replace("\n", "↵\n")


def tokens_html(tokens: list[PromptToken]) -> str:
    """Each token a chip (a link to its details); the tokens that together carry a character split
    across them (Chinese with a byte-level BPE) are shown as that character ← their bytes, e.g. 忽 ← <E5><BF><BD>."""
    chips = []
    c = colours()
    backgrounds = (c.prompt_token_a, c.prompt_token_b)  # alternate, so the boundaries show
    group_of = {group.start: group for group in character_groups(tokens)}
    in_group = -1
    for index, token in enumerate(tokens):
        group = group_of.get(index)
        if group is not None:
            in_group = group.stop - 1
            characters = "".join(tokens[i].text for i in group)
            chips.append(f'<b style="color:{c.text}">{visible_whitespace(characters)}</b><small> ← </small>')
        background = c.special_background if token.special else backgrounds[index % 2]
        colour = c.special_text if token.special else c.muted if token.reasoning else _text_colour(token)
        slant = " font-style:italic;" if token.reasoning else ""
        label = token.byte_label if index <= in_group else token.text
        chips.append(
            f'<a href="token:{index}" style="background-color:{background}; color:{colour};{slant}'
            f' text-decoration:none">{visible_whitespace(label) or "∅"}</a>'
        )
        if index == in_group:
            chips.append(" ")
    return f'<div style="white-space: pre-wrap; font-family: monospace;">{"".join(chips)}</div>'


def _text_colour(token: PromptToken) -> str:
    c = colours()
    return c.meter_tools if token.tool else c.text


def prompt_html(inspection: PromptInspection) -> str:
    parts = []
    c = colours()
    for token in inspection.tokens:
        text = html.escape(token.text)
        if token.special:
            text = f'<b style="color:{c.special_text}">{text}</b>'
        elif token.reasoning:
            text = f'<i style="color:{c.muted}">{text}</i>'
        elif token.tool:
            text = f'<span style="color:{c.meter_tools}">{text}</span>'
        parts.append(text)
    return f'<div style="white-space: pre-wrap; font-family: monospace;">{"".join(parts)}</div>'


class PromptInspectorPanel(QWidget):
    """Shows a PromptInspection; `refreshRequested` asks the main window for a new one."""

    refreshRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("PromptInspectorPanel")
        self.inspection: PromptInspection | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)

        row = QHBoxLayout()
        self.summary = QLabel(self.tr("Load a model to see the prompt"), self)
        self.summary.setWordWrap(True)
        self.include_draft = QCheckBox(self.tr("Include the message being typed"), self)
        self.include_draft.setChecked(True)
        self.include_draft.toggled.connect(self.refreshRequested)
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.refresh_button.clicked.connect(self.refreshRequested)
        layout.addWidget(self.summary)  # a line of its own: beside the controls it wrapped word by word
        layout.addWidget(self.include_draft)  # Refresh goes below the tabs: the panel stays narrow

        self.notice = QLabel(self)
        self.notice.setWordWrap(True)
        set_tone(self.notice, Tone.WARNING, small=False)
        self.notice.hide()
        layout.addWidget(self.notice)

        self.tabs = QTabWidget(self)
        self.text_view = QTextBrowser(self)
        self.text_view.setAccessibleName(self.tr("The prompt as text"))
        self.text_view.setOpenLinks(False)
        self.token_view = QTextBrowser(self)
        self.token_view.setAccessibleName(self.tr("The prompt as tokens"))
        self.token_view.setOpenLinks(False)
        self.token_view.highlighted.connect(self._show_token)
        self.token_view.anchorClicked.connect(self._show_token)
        self.messages_view = QTreeWidget(self)
        self.messages_view.setAccessibleName(self.tr("The messages in the prompt"))
        self.messages_view.setRootIsDecorated(False)
        self.messages_view.setHeaderLabels(
            [self.tr("Role"), self.tr("Tokens"), self.tr("Model sees it"), self.tr("Message")]
        )
        header = self.messages_view.header()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.tabs.addTab(self.text_view, self.tr("Text"))
        self.tabs.addTab(self.token_view, self.tr("Tokens"))
        self.tabs.addTab(self.messages_view, self.tr("Context window"))
        self.retrieved_view = QTreeWidget(self)
        self.retrieved_view.setAccessibleName(self.tr("Retrieved excerpts"))
        self.retrieved_view.setRootIsDecorated(False)
        self.retrieved_view.setHeaderLabels(
            [self.tr("#"), self.tr("Source"), self.tr("Why"), self.tr("Score"), self.tr("Tokens"), self.tr("Text")]
        )
        retrieved_header = self.retrieved_view.header()
        for column in range(5):
            retrieved_header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        retrieved_header.setStretchLastSection(True)
        self.tabs.addTab(self.retrieved_view, self.tr("Retrieved"))
        layout.addWidget(self.tabs, 1)

        self.token_info = QLabel(self.tr("Point at a token to see its id"), self)
        self.token_info.setWordWrap(True)
        self.token_info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.token_info, 1)
        row.addWidget(self.refresh_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(row)

    def set_busy(self) -> None:
        self.refresh_button.setEnabled(False)
        self.summary.setText(self.tr("Reading the prompt…"))

    def show_error(self, message: str) -> None:
        self.refresh_button.setEnabled(True)
        self.summary.setText(message)

    def show_waiting(self, message: str) -> None:
        """No prompt to show for the chat on show yet: say why, and show none of another chat's."""
        self.inspection = None
        self.summary.setText(message)
        self.notice.hide()
        self.text_view.clear()
        self.token_view.clear()
        self.messages_view.clear()

    def show_inspection(self, inspection: PromptInspection, draft_left_out: int = 0) -> None:
        """The prompt; `draft_left_out`, the length of a message being typed that was too long to show in it."""
        self.inspection = inspection
        self.refresh_button.setEnabled(True)
        self.summary.setText(
            fill(
                self.tr(
                    "{count} tokens ({special} special) of a {n_ctx}-token context; {reserve} kept free for the reply"
                ),
                count=f"{inspection.count:,}",
                special=f"{inspection.special_count:,}",
                n_ctx=f"{inspection.n_ctx:,}",
                reserve=f"{inspection.reserve:,}",
            )
            + self._tools_line(inspection)
            + (
                "\n" + fill(self.tr("Chat template: {how}"), how=word(inspection.template))
                if inspection.template
                else ""
            )
        )
        notes = [inspection.notice] if inspection.notice else []
        if draft_left_out:
            left_out = self.tr(
                "The message being typed ({chars} characters) is too long to show token by token; the prompt is "
                "shown with an empty message."
            )
            notes.append(fill(left_out, chars=f"{draft_left_out:,}"))
        self.notice.setText("\n".join(notes))
        self.notice.setVisible(bool(notes))
        self.text_view.setHtml(prompt_html(inspection))
        self.token_view.setHtml(tokens_html(inspection.tokens))
        self.messages_view.clear()
        for entry in inspection.messages:
            seen = self.tr("yes") if entry.inside else self.tr("no, outside")
            item = QTreeWidgetItem([entry.role, self._token_count(entry), seen, entry.preview])
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if not entry.inside:
                for column in range(4):
                    item.setForeground(column, colours().qcolor("muted"))
            self.messages_view.addTopLevelItem(item)

    def _tools_line(self, inspection: PromptInspection) -> str:
        """What the tools' definitions and results take of the prompt ("" without tools)."""
        if not (inspection.tool_count or inspection.tool_result_count):
            return ""
        return "\n" + fill(
            self.tr("Tools: {definitions} tokens of definitions, {results} of results"),
            definitions=f"{inspection.tool_count:,}",
            results=f"{inspection.tool_result_count:,}",
        )

    def _token_count(self, entry: MessageEntry) -> str:
        """A message's tokens, and how many of them carry its reasoning when the prompt keeps it."""
        if not entry.reasoning_tokens:
            return f"{entry.tokens:,}"
        return fill(
            self.tr("{n} ({reasoning} reasoning)"), n=f"{entry.tokens:,}", reasoning=f"{entry.reasoning_tokens:,}"
        )

    def describe_token(self, index: int) -> str:
        assert self.inspection is not None
        token = self.inspection.tokens[index]
        owner = ""
        if token.message is not None:
            entry = self.inspection.messages[token.message]
            owner = fill(self.tr(", from the {role} message “{preview}”"), role=entry.role, preview=entry.preview)
        kind = (
            self.tr(" (special)")
            if token.special
            else self.tr(" (reasoning)")
            if token.reasoning
            else self.tr(" (tool definitions)")
            if token.tool
            else ""
        )
        text = repr(token.text)
        group = next((g for g in character_groups(self.inspection.tokens) if index in g), None)
        if group is not None:
            text = fill(
                self.tr("bytes {bytes}, part of “{characters}”, which tokens {first}–{last} make together"),
                bytes=token.byte_label,
                characters="".join(self.inspection.tokens[i].text for i in group),
                first=group.start + 1,
                last=group.stop,
            )
        return fill(
            self.tr("Token {n} of {count}: id {id}{kind}, {text}{owner}"),
            n=index + 1,
            count=self.inspection.count,
            id=token.token_id,
            kind=kind,
            text=text,
            owner=owner,
        )

    def _show_token(self, url: QUrl) -> None:
        target = url.toString()
        if self.inspection is None or not target.startswith("token:"):
            return
        self.token_info.setText(self.describe_token(int(target.split(":", 1)[1])))

    def show_retrieval(self, retrieval: Retrieval) -> None:
        """What was retrieved for the last reply: each chunk, its score, and why (keyword, vector, both)."""
        self.retrieved_view.clear()
        for chunk in (*retrieval.chunks, *retrieval.memories):
            number = self.tr("memory") if chunk.memory else f"[{chunk.number}]"
            item = QTreeWidgetItem(
                [
                    number,
                    chunk.label,
                    self._why(chunk),
                    f"{chunk.score:.4f}",
                    f"{chunk.tokens:,}",
                    " ".join(chunk.chunk.text.split())[:300],
                ]
            )
            item.setToolTip(2, self._scores(chunk))
            item.setToolTip(5, chunk.chunk.text[:2000])
            self.retrieved_view.addTopLevelItem(item)

    def _why(self, chunk: RetrievedChunk) -> str:
        return {"keyword": self.tr("keyword"), "vector": self.tr("vector"), "both": self.tr("both")}[chunk.why.value]

    def _scores(self, chunk: RetrievedChunk) -> str:
        parts = [fill(self.tr("fused score (reciprocal rank fusion) {score}"), score=f"{chunk.score:.4f}")]
        if chunk.keyword_rank is not None:
            parts.append(
                fill(
                    self.tr("keyword rank {rank}, BM25 {bm25}"),
                    rank=chunk.keyword_rank,
                    bm25=f"{chunk.keyword_score or 0:.3f}",
                )
            )
        if chunk.vector_rank is not None:
            parts.append(
                fill(
                    self.tr("vector rank {rank}, cosine {cosine}"),
                    rank=chunk.vector_rank,
                    cosine=f"{chunk.similarity or 0:.3f}",
                )
            )
        return "\n".join(parts)
