"""How this chat's replies are decoded, in the settings panel: Sampling, Greedy or Beam search.

Sampling draws each token with the sampling settings below it; Greedy always takes the most
likely token; Beam search keeps `width` candidate replies going at once and answers with the
best of the finished ones under a length penalty. The box shows a chat's DecodingSettings
(`show_settings`) and announces the user's edits (`edited`); the settings panel keeps them
with the chat's other settings. `reply_request` turns the mode into the LLM worker's request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QLabel, QSpinBox, QWidget

from app.core.inference.beam_search import MAX_WIDTH
from app.core.inference.decoding_mode import MIN_CHAT_WIDTH, MODE_LABELS, DecodingMode, DecodingSettings
from app.core.inference.sampling import SamplingParams
from app.core.types.messages import ChatMessage
from app.ui.llm.decoding_replies import ForkSpec
from app.ui.llm.worker import ReplyRequest
from app.ui.widgets.core_text import word
from app.ui.widgets.theme import Tone, set_tone
from app.ui.widgets.wrapping_label import WrappingLabel


def reply_request(
    messages: Sequence[ChatMessage],
    sampling: SamplingParams,
    decoding: DecodingSettings,
    fork: ForkSpec | None = None,
) -> ReplyRequest:
    """The worker's request for a reply in the chat's decoding mode; a fork goes on with the mode's
    params (a beam-search chat's fork goes on greedily: the search cannot start mid-reply)."""
    params = decoding.params(sampling)
    beam = decoding.beam(sampling.max_tokens) if decoding.mode is DecodingMode.BEAM and fork is None else None
    return ReplyRequest(tuple(messages), params, fork=fork, beam=beam)


class DecodingModeBox(QGroupBox):
    edited = Signal(object)  # DecodingSettings the user chose for the chat on show

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Decoding — this chat"))
        self.settings = DecodingSettings()
        form = QFormLayout(self)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.mode_box = QComboBox(self)
        for mode, name in MODE_LABELS.items():
            self.mode_box.addItem(word(name), mode.value)
        self.mode_box.setAccessibleName(self.tr("Decoding mode"))
        self.mode_box.activated.connect(self._changed)
        self.explanation = WrappingLabel(parent=self)
        set_tone(self.explanation, Tone.NOTE)
        self.width_box = QSpinBox(self)
        self.width_box.setRange(MIN_CHAT_WIDTH, MAX_WIDTH)
        self.width_box.setToolTip(
            self.tr(
                "Candidate replies kept going at once; each needs its own KV cache, so a wider search needs more memory"
            )
        )
        self.alpha_box = QDoubleSpinBox(self)
        self.alpha_box.setRange(0.0, 5.0)
        self.alpha_box.setSingleStep(0.1)
        self.alpha_box.setToolTip(
            self.tr("GNMT length penalty: score = log-probability / ((5 + length) / 6) ^ alpha; 0 ranks by the sum")
        )
        self.keep_box = QSpinBox(self)
        self.keep_box.setRange(0, MAX_WIDTH)
        self.keep_box.setSpecialValueText(self.tr("as many as the width"))
        self.keep_box.setToolTip(self.tr("The search ends once this many replies have finished; the best is the reply"))
        for box in (self.width_box, self.alpha_box, self.keep_box):
            box.editingFinished.connect(self._changed)
        self.width_label = QLabel(self.tr("Beam &width"), self)
        self.alpha_label = QLabel(self.tr("&Length penalty (alpha)"), self)
        self.keep_label = QLabel(self.tr("&Hypotheses to keep"), self)
        form.addRow(self.tr("&Mode"), self.mode_box)
        form.addRow(self.explanation)
        for label, box in ((self.width_label, self.width_box), (self.alpha_label, self.alpha_box),
                           (self.keep_label, self.keep_box)):  # fmt: skip
            label.setBuddy(box)
            box.setAccessibleName(label.text().replace("&", ""))
            form.addRow(label, box)
        self.show_settings(self.settings)

    def _explanations(self) -> dict[DecodingMode, str]:
        return {
            DecodingMode.SAMPLING: self.tr("Each token is drawn at random, shaped by the sampling settings below."),
            DecodingMode.GREEDY: self.tr(
                "Always the most likely token: the same prompt, computed the same way, gives the same reply. Part "
                "of a prompt reused from the KV cache (after an earlier reply) is computed in other batches than "
                "a fresh read, which can tip a near tie: Replay or Compare may then differ. The sampling settings "
                "below do not apply (only the length limit and stop strings)."
            ),
            DecodingMode.BEAM: self.tr(
                "Several candidate replies decoded together; the reply is the most likely finished one. "
                "It appears when the search is done. A width whose memory does not fit is refused."
            ),
        }

    def show_settings(self, settings: DecodingSettings) -> None:
        self.settings = settings
        self.mode_box.setCurrentIndex(self.mode_box.findData(settings.mode.value))
        for box, value in ((self.width_box, settings.width), (self.keep_box, settings.keep)):
            box.blockSignals(True)
            box.setValue(value)
            box.blockSignals(False)
        self.alpha_box.blockSignals(True)
        self.alpha_box.setValue(settings.alpha)
        self.alpha_box.blockSignals(False)
        self.keep_box.setMaximum(settings.width)
        self.explanation.setText(self._explanations()[settings.mode])
        beam = settings.mode is DecodingMode.BEAM
        for widget in (self.width_label, self.width_box, self.alpha_label, self.alpha_box,
                       self.keep_label, self.keep_box):  # fmt: skip
            widget.setVisible(beam)

    def choose(self, mode: DecodingMode, width: int | None = None, alpha: float | None = None,
               keep: int | None = None) -> None:  # fmt: skip
        """Set the mode (and beam values) as a user would, and announce it."""
        self.mode_box.setCurrentIndex(self.mode_box.findData(mode.value))
        if width is not None:
            self.width_box.setValue(width)
        if alpha is not None:
            self.alpha_box.setValue(alpha)
        if keep is not None:
            self.keep_box.setMaximum(MAX_WIDTH)
            self.keep_box.setValue(keep)
        self._changed()

    def _changed(self) -> None:
        previous = self.settings
        chosen = replace(
            previous,
            mode=DecodingMode(self.mode_box.currentData()),
            width=self.width_box.value(),
            alpha=round(self.alpha_box.value(), 2),
            keep=min(self.keep_box.value(), self.width_box.value()),
        )
        self.show_settings(chosen)
        if chosen != previous:
            self.edited.emit(chosen)
