"""The Stats panel: the last reply's numbers, its speed over time, and the last replies side by side.

The last reply is broken down into its wait for the model, its prompt processing (tokens
reused from the cache and evaluated, and why the cache missed when it did), its decoding,
and its GPU energy per token where the GPU counts energy ("not measured" otherwise, never 0).
A thinking model's reply splits its tokens and time between thinking and answering; a reply
that did not think has no such row.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from app.core.support.formatting import fill
from app.core.types.stats import LlamaCounters, ReplyMetrics, ReplyStats
from app.ui.widgets.core_text import word
from app.ui.widgets.plots import BarPlot, LinePlot
from app.ui.widgets.reply_footer import answering_s, cache_miss_text, context_note, format_energy
from app.ui.widgets.theme import Tone, set_tone

HISTORY = 20  # replies shown in the bar plots


class StatsPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("StatsPanel")
        self.history: list[ReplyMetrics] = []
        self.replies_seen = 0  # replies since the window opened or the history was cleared (names the bars)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)

        self.title = QLabel(self.tr("No reply yet"), self)
        self.title.setStyleSheet("font-weight: 600;")
        layout.addWidget(self.title)

        grid = QGridLayout()
        grid.setHorizontalSpacing(12)
        self.values: dict[str, QLabel] = {}
        self.names: dict[str, QLabel] = {}
        rows = [
            ("queue", self.tr("Wait for the model")),
            ("prompt", self.tr("Prompt")),
            ("prompt_speed", self.tr("Prompt processing")),
            ("ttft", self.tr("Time to first token")),
            ("generation", self.tr("Generation")),
            ("decoding", self.tr("Decoding")),
            ("energy", self.tr("GPU energy")),
            ("reply", self.tr("Reply")),
            ("thinking", self.tr("Thinking")),
            ("drafting", self.tr("Speculative decoding")),
            ("stop", self.tr("Stopped by")),
        ]
        for row, (key, title) in enumerate(rows):
            name = QLabel(title, self)
            set_tone(name, Tone.NOTE, small=False)  # the theme's muted text, readable in both themes
            value = QLabel("–", self)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setWordWrap(True)
            grid.addWidget(name, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(value, row, 1)
            self.values[key] = value
            self.names[key] = name
        self._show_thinking_row(False)
        grid.addWidget(QLabel(self.tr("Context used"), self), len(rows), 0)
        self.context_bar = QProgressBar(self)
        self.context_bar.setTextVisible(True)
        self.context_bar.setFormat("–")
        grid.addWidget(self.context_bar, len(rows), 1)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)

        self.speed_plot = LinePlot(
            self.tr("Speed over the last reply"), self.tr("tok/s"), self.tr("s after sending"), self, x_from_zero=True
        )
        self.speed_plot.empty_text = self.tr("The speed of the last reply, token by token, appears here")
        self.ttft_plot = BarPlot(self.tr("Time to first token per reply, newest right"), self.tr("ms"), self)
        self.rate_plot = BarPlot(self.tr("Generation speed per reply, newest right"), self.tr("tok/s"), self)
        for plot in (self.ttft_plot, self.rate_plot):
            plot.empty_text = self.tr("No replies yet")
        layout.addWidget(self.speed_plot, 2)
        layout.addWidget(self.ttft_plot, 1)
        layout.addWidget(self.rate_plot, 1)

        self.clear_button = QPushButton(self.tr("Clear history"), self)
        self.clear_button.clicked.connect(self.clear)
        layout.addWidget(self.clear_button, 0, Qt.AlignmentFlag.AlignRight)

    def add_reply(self, metrics: ReplyMetrics) -> None:
        self.history = [*self.history, metrics][-HISTORY:]
        self.replies_seen += 1
        self._show(metrics)
        # each bar is named by the reply's number since the window opened or Clear: #1, #2 … (the newest right)
        first = self.replies_seen - len(self.history) + 1
        numbers = range(first, self.replies_seen + 1)
        labels = [fill(self.tr("#{n}"), n=n) for n in numbers]
        tips = [
            fill(self.tr("Reply #{n}"), n=n) + (self.tr(" (the last)") if n == self.replies_seen else "")
            for n in numbers
        ]
        self.ttft_plot.set_bars([m.stats.time_to_first_token_s * 1000 for m in self.history], labels, tips)
        self.rate_plot.set_bars([m.stats.generation_tokens_per_s for m in self.history], labels, tips)

    def clear(self) -> None:
        self.history = []
        self.replies_seen = 0
        self.title.setText(self.tr("No reply yet"))
        for value in self.values.values():
            value.setText("–")
        self._show_thinking_row(False)
        self.context_bar.setValue(0)
        self.context_bar.setFormat("–")
        self.speed_plot.set_points([])
        self.ttft_plot.set_bars([])
        self.rate_plot.set_bars([])

    def _prompt_speed(self, speed: float, llama: LlamaCounters | None) -> str:
        if llama is None:  # a server ran the reply: only what was measured here
            return fill(
                self.tr("{speed} tok/s (measured here; the server's own counters are not shown)"), speed=f"{speed:,.1f}"
            )
        return fill(
            self.tr("{speed} tok/s; llama.cpp: {n} tokens in {ms} ms"),
            speed=f"{speed:,.1f}",
            n=f"{llama.prompt_eval_tokens:,}",
            ms=f"{llama.prompt_eval_ms:,.1f}",
        )

    def _generation_speed(self, speed: float, llama: LlamaCounters | None) -> str:
        if llama is None:
            return fill(self.tr("{speed} tok/s, measured here as the chunks arrived"), speed=f"{speed:,.1f}")
        return fill(
            self.tr("{speed} tok/s; llama.cpp decode alone: {decode} tok/s ({n} tokens in {ms} ms)"),
            speed=f"{speed:,.1f}",
            decode=f"{llama.eval_tokens_per_s:,.1f}",
            n=f"{llama.eval_tokens:,}",
            ms=f"{llama.eval_ms:,.1f}",
        )

    def _queue_wait(self, metrics: ReplyMetrics) -> str:
        if metrics.queue_wait_s is None:
            return self.tr("not measured")
        return fill(self.tr("{ms} ms"), ms=f"{metrics.queue_wait_s * 1000:,.0f}")

    def _decoding(self, metrics: ReplyMetrics) -> str:
        return fill(
            self.tr("{n} tokens in {s} s after the first"),
            n=f"{max(0, metrics.stats.completion_tokens - 1):,}",
            s=f"{metrics.decoding_s:.2f}",
        )

    def _energy(self, metrics: ReplyMetrics) -> str:
        per_token = metrics.energy_per_token_j
        if metrics.gpu_energy_j is None or per_token is None:
            return self.tr("not measured (the model is not on a GPU that counts its energy)")
        return fill(
            self.tr("{per_token} per token, {total} for the reply (the whole GPU's counter)"),
            per_token=format_energy(per_token),
            total=format_energy(metrics.gpu_energy_j),
        )

    def _thinking(self, stats: ReplyStats) -> str:
        return fill(
            self.tr("{thinking} tokens in {thinking_s} s of reasoning, then {answer} tokens in {answer_s} s of answer"),
            thinking=f"{stats.reasoning_tokens:,}",
            thinking_s=f"{stats.reasoning_s:.2f}",
            answer=f"{max(0, stats.completion_tokens - stats.reasoning_tokens):,}",
            answer_s=f"{answering_s(stats):.2f}",
        )

    def _images(self, stats: ReplyStats) -> str:
        """The prompt's image tokens, and how long the projector took to encode each image it read."""
        n = f"{stats.image_tokens:,}"
        if not stats.image_encode_s:
            return fill(self.tr("{n} image tokens, all reused from the cache"), n=n)
        times = ", ".join(fill(self.tr("{ms} ms"), ms=f"{seconds * 1000:,.0f}") for seconds in stats.image_encode_s)
        return fill(self.tr("{n} image tokens, images encoded in {times}"), n=n, times=times)

    def _show_thinking_row(self, shown: bool) -> None:
        """The row is there for a reply that thought, not for one that did not."""
        self.names["thinking"].setVisible(shown)
        self.values["thinking"].setVisible(shown)

    def _drafting(self, stats: ReplyStats, llama: LlamaCounters | None) -> str:
        if llama is None:
            return self.tr("not known (a server ran the reply)")
        if not stats.drafted_tokens:
            return self.tr("no tokens drafted")
        counts = fill(
            self.tr("{drafted} drafted, {accepted} accepted ({rate} %)"),
            drafted=f"{stats.drafted_tokens:,}",
            accepted=f"{stats.accepted_tokens:,}",
            rate=f"{stats.acceptance_rate * 100:.0f}",
        )
        if not stats.draft_speedup:
            return fill(self.tr("{counts}; speed-up not measured (no plain decode to compare with)"), counts=counts)
        return fill(
            self.tr("{counts}; {speedup}× the speed of plain decoding"),
            counts=counts,
            speedup=f"{stats.draft_speedup:.2f}",
        )

    def _show(self, metrics: ReplyMetrics) -> None:
        stats, llama = metrics.stats, metrics.llama
        self.title.setText(self.tr("Last reply"))
        prompt = fill(
            self.tr("{n} tokens ({cached} reused from the cache, {evaluated} evaluated)"),
            n=f"{stats.prompt_tokens:,}",
            cached=f"{stats.cached_prompt_tokens:,}",
            evaluated=f"{stats.evaluated_prompt_tokens:,}",
        )
        if stats.cache_miss is not None:
            prompt = fill(self.tr("{prompt}; {reason}"), prompt=prompt, reason=cache_miss_text(stats.cache_miss))
        if stats.image_tokens:
            prompt = fill(self.tr("{prompt}; {images}"), prompt=prompt, images=self._images(stats))
        self.values["queue"].setText(self._queue_wait(metrics))
        self.values["prompt"].setText(prompt)
        self.values["decoding"].setText(self._decoding(metrics))
        self.values["energy"].setText(self._energy(metrics))
        self.values["prompt_speed"].setText(self._prompt_speed(stats.prompt_eval_tokens_per_s, llama))
        self.values["ttft"].setText(fill(self.tr("{ms} ms"), ms=f"{stats.time_to_first_token_s * 1000:,.0f}"))
        self.values["generation"].setText(self._generation_speed(stats.generation_tokens_per_s, llama))
        self.values["reply"].setText(
            fill(self.tr("{n} tokens in {s} s"), n=f"{stats.completion_tokens:,}", s=f"{stats.total_s:.2f}")
        )
        self.values["thinking"].setText(self._thinking(stats))
        self._show_thinking_row(bool(stats.reasoning_tokens or stats.reasoning_s))
        self.values["drafting"].setText(self._drafting(stats, llama))
        stop = word(stats.stop_reason.value) + (": " + word(stats.error) if stats.error else "")
        self.values["stop"].setText(stop)
        self.context_bar.setRange(0, max(1, metrics.n_ctx))
        self.context_bar.setValue(min(metrics.context_used, max(1, metrics.n_ctx)))
        self.context_bar.setFormat(context_note(metrics))
        self.speed_plot.set_points(metrics.speed_series())
