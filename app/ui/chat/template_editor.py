"""The chat template editor: a model's own Jinja template, tried on a sample conversation before it is saved.

Start from a known family (its text fills the editor) or paste a template; Try shows the prompt the
sample conversation builds, or the error with the template's line. Save tries it once more and hands it
to `save`, which answers "" (saved) or why it was refused; a refused template stays in the editor.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.inference.template_check import TemplateProblem, sample_prompt
from app.core.inference.template_choice import BUILT_IN, FAMILY_NAMES
from app.core.support.formatting import fill
from app.ui.widgets.core_text import word
from app.ui.widgets.screen_fit import resize_to_fit
from app.ui.widgets.theme import Tone, set_tone


class TemplateEditor(QDialog):
    def __init__(self, name: str, text: str, save: Callable[[str], str], parent: QWidget | None = None) -> None:
        """`name`: whose template (a model's file name, or the defaults); `text`: the template to start with."""
        super().__init__(parent)
        self._save = save
        self.setWindowTitle(fill(self.tr("Chat template — {name}"), name=name))
        resize_to_fit(self, 760, 640)
        intro = QLabel(
            self.tr(
                "A Jinja chat template, as in a model's tokenizer.chat_template: it gets messages (each with role "
                "and content), add_generation_prompt, bos_token and eos_token. It is tried on a sample "
                "conversation before it is saved."
            ),
            self,
        )
        intro.setWordWrap(True)
        set_tone(intro, Tone.NOTE)
        self.family = QComboBox(self)
        self.family.addItem(self.tr("Choose a family to start from…"), "")
        for key, label in FAMILY_NAMES.items():
            self.family.addItem(label, key)
        self.family.activated.connect(self._start_from_family)
        start = QLabel(self.tr("&Start from"), self)
        start.setBuddy(self.family)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.text = QPlainTextEdit(self)
        self.text.setFont(mono)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.text.setTabChangesFocus(True)
        self.text.setAccessibleName(self.tr("Chat template"))
        self.text.setPlainText(text)
        self.try_button = QPushButton(self.tr("&Try it"), self)
        self.try_button.setToolTip(self.tr("Render the sample conversation with this template"))
        self.try_button.clicked.connect(self.try_template)
        top = QHBoxLayout()
        top.addWidget(start)
        top.addWidget(self.family, 1)
        top.addWidget(self.try_button)
        self.verdict = QLabel(self)
        self.verdict.setWordWrap(True)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview = QPlainTextEdit(self)
        self.preview.setFont(mono)
        self.preview.setReadOnly(True)
        self.preview.setAccessibleName(self.tr("The sample conversation's prompt"))
        self.preview.setPlaceholderText(self.tr("The prompt the sample conversation builds shows here."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(top)
        layout.addWidget(self.text, 3)
        layout.addWidget(self.verdict)
        layout.addWidget(self.preview, 2)
        layout.addWidget(buttons)

    def _start_from_family(self, _index: int) -> None:
        family = self.family.currentData()
        if family:
            self.text.setPlainText(BUILT_IN[family])
            self.try_template()

    def try_template(self) -> bool:
        """Render the sample conversation: show its prompt, or why the template cannot build one."""
        try:
            prompt = sample_prompt(self.text.toPlainText())
        except TemplateProblem as problem:
            self._say(word(problem.message), Tone.ERROR)
            self.preview.clear()
            return False
        self._say(self.tr("The sample conversation builds this prompt:"), Tone.NOTE)
        self.preview.setPlainText(prompt)
        return True

    def save(self) -> None:
        """Saved and closed when the template builds the sample's prompt and the settings take it; else refused."""
        if not self.try_template():
            return
        refused = self._save(self.text.toPlainText())
        if refused:
            self._say(refused, Tone.ERROR)
            return
        self.accept()

    def _say(self, text: str, tone: Tone) -> None:
        self.verdict.setText(text)
        set_tone(self.verdict, tone)
