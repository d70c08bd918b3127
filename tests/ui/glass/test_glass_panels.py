"""The glass-box panels offscreen: load details, stats and plots, prompt inspector, token view, logs."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.core.chat.prompt_inspector import inspect_conversation, inspect_prompt
from app.core.diagnostics.report import DiagnosticsInput
from app.core.inference.engine import Engine
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.inference.token_probs import TokenProbabilityRecorder
from app.core.support.log_buffer import LogBuffer
from app.core.support.user_text import N_, fill
from app.core.types.load import LoadConfig, LoadReport, LoadStage
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone
from app.core.types.stats import CacheMiss, LlamaCounters, ReplyMetrics, ReplyStats, StopReason
from app.core.types.token_trace import Alternative, TokenStep, TokenTrace
from app.ui.glass.load_panel import LoadPanel
from app.ui.glass.logs_panel import DiagnosticsCopier, LogsPanel
from app.ui.glass.prompt_inspector_panel import PromptInspectorPanel
from app.ui.glass.stats_panel import StatsPanel
from app.ui.glass.token_view import (
    TokenReplyView,
    attach_token_view,
    confidence_background,
    sampling_summary,
    show_tokens,
)
from app.ui.shell.main_window import MainWindow
from app.ui.widgets.plots import BarPlot, LinePlot, TimelineBar, nice_ceiling

pytestmark = pytest.mark.window(greedy_tokens=8)  # the tests in the main window, at the end

# ---- load details -------------------------------------------------------------------------


def _report() -> LoadReport:
    report = LoadReport(LoadConfig(Path("/models/tiny.gguf"), n_ctx=2048))
    report.stages = [
        LoadStage("hash check", 0.002, "cached: verified earlier and unchanged since"),
        LoadStage("read metadata", 0.050, "GGUF V3 (latest), 33 keys, 272 tensors · Q4_1", 0.002),
        LoadStage("load weights", 0.300, "memory-mapped · 92.1 MiB", 0.052),
        LoadStage("create context", 0.040, "n_ctx 2,048 · KV cache 45.0 MiB (f16 K/V, 30 layers)", 0.352),
    ]
    return report


def test_the_load_panel_shows_progress_with_a_cancel_button_then_the_timeline(qtbot: QtBot) -> None:
    panel = LoadPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.load_started(LoadConfig(Path("/models/tiny.gguf")))
    panel.stage_started("load weights")
    panel.progress_changed(0.4)
    assert panel.is_loading
    assert panel.progress.isVisible() and panel.progress.value() == 40
    assert panel.stage_label.text() == "Loading weights"
    assert panel.cancel_button.isVisible()

    panel.loaded(_report())
    assert not panel.progress.isVisible() and not panel.cancel_button.isVisible()
    assert panel.headline.text() == "tiny.gguf loaded in 0.39 s"
    rows = [panel.table.topLevelItem(i) for i in range(panel.table.topLevelItemCount())]
    assert [row.text(0) for row in rows] == [
        "Checking the hash",
        "Reading the metadata",
        "Loading weights",
        "Creating the context",
    ]
    assert rows[2].text(1) == "300.0 ms" and "KV cache 45.0 MiB" in rows[3].text(2)
    assert [span.name for span in panel.timeline.spans] == [row.text(0) for row in rows]
    assert panel.timeline.total() == pytest.approx(0.392)


def test_a_vision_model_s_load_shows_its_projector_as_a_stage_of_its_own(qtbot: QtBot) -> None:
    panel = LoadPanel()
    qtbot.addWidget(panel)
    report = _report()
    detail = fill(N_("{file}: {kind} projector, {size}"), file="mmproj-f16.gguf", kind="gemma3", size="811.8 MiB")
    report.stages.append(LoadStage("load projector", 0.120, detail, 0.392))
    panel.loaded(report)
    rows = [panel.table.topLevelItem(i) for i in range(panel.table.topLevelItemCount())]
    assert [row.text(0) for row in rows][-1] == "Loading the projector (images)"
    assert (rows[-1].text(1), rows[-1].text(2)) == ("120.0 ms", "mmproj-f16.gguf: gemma3 projector, 811.8 MiB")
    assert panel.timeline.spans[-1].name == "Loading the projector (images)"


def test_the_load_panel_names_the_load_options_and_warns_past_the_training_length(qtbot: QtBot) -> None:
    panel = LoadPanel()
    qtbot.addWidget(panel)
    panel.show()
    report = _report()
    report.n_ctx_train = 8192
    panel.loaded(report)
    options = panel.options_label.text()
    assert "flash attention off" in options and "K/V cache f16/f16" in options
    assert "speculative decoding auto" in options
    assert not panel.training_warning.isVisible()
    longer = LoadReport(replace(report.config, n_ctx=16384, flash_attn=True), report.stages, n_ctx_train=8192)
    panel.loaded(longer)
    assert "flash attention on" in panel.options_label.text()
    assert panel.training_warning.isVisible()
    assert "context (16,384 tokens) is longer than this model was trained for (8,192)" in panel.training_warning.text()


def test_cancel_asks_once_and_the_panel_says_where_the_load_stopped(qtbot: QtBot) -> None:
    panel = LoadPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.load_started(LoadConfig(Path("/models/big.gguf")))
    panel.stage_started("load weights")
    panel.progress_changed(0.31)
    with qtbot.waitSignal(panel.cancelRequested):
        panel.cancel_button.click()
    assert not panel.cancel_button.isEnabled()
    panel.failed("Loading big.gguf was cancelled.")
    assert panel.headline.text() == "Not loaded (Loading weights, 31%): Loading big.gguf was cancelled."
    assert not panel.is_loading


def test_the_timeline_bar_draws_each_stage_as_wide_as_it_took(qtbot: QtBot) -> None:
    bar = TimelineBar()
    qtbot.addWidget(bar)
    bar.resize(402, 28)
    bar.set_spans([_span(s) for s in _report().stages])
    widths = [bar.span_rect(i).width() for i in range(4)]
    assert widths[2] / widths[1] == pytest.approx(6.0)
    image = bar.grab().toImage()
    middle = bar.span_rect(2).center().toPoint()
    assert QColor(image.pixel(middle)) == bar.colour(2)


def _span(stage: LoadStage):  # type: ignore[no-untyped-def]
    from app.ui.widgets.plots import Span

    return Span(stage.name, stage.start_s, stage.seconds, stage.detail)


# ---- stats --------------------------------------------------------------------------------


def _metrics(speed: float, ttft: float) -> ReplyMetrics:
    stats = ReplyStats(
        prompt_tokens=40,
        cached_prompt_tokens=30,
        completion_tokens=20,
        time_to_first_token_s=ttft,
        prompt_eval_tokens_per_s=10 / ttft,
        generation_tokens_per_s=speed,
        total_s=ttft + 19 / speed,
        stop_reason=StopReason.LENGTH,
    )
    times = [ttft + i / speed for i in range(20)]
    return ReplyMetrics(stats, 2048, 60, times, LlamaCounters(10, 20.0, 19, 19 / speed * 900))


def test_the_stats_panel_shows_the_last_reply_and_plots_the_last_ones(qtbot: QtBot) -> None:
    panel = StatsPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.add_reply(_metrics(speed=50.0, ttft=0.2))
    panel.add_reply(_metrics(speed=80.0, ttft=0.1))
    assert panel.values["prompt"].text() == "40 tokens (30 reused from the cache, 10 evaluated)"
    assert panel.values["ttft"].text() == "100 ms"
    assert panel.values["generation"].text().startswith("80.0 tok/s; llama.cpp decode alone: 88.9 tok/s")
    assert panel.values["stop"].text() == "length limit"
    assert panel.context_bar.value() == 60 and panel.context_bar.format() == "context 60/2,048 (3%)"
    assert len(panel.speed_plot.points) == 19
    assert all(speed == pytest.approx(80.0) for _t, speed in panel.speed_plot.points)
    assert panel.ttft_plot.values == pytest.approx([200.0, 100.0])
    assert panel.rate_plot.values == pytest.approx([50.0, 80.0])
    assert panel.rate_plot.labels == ["#1", "#2"]
    assert panel.values["drafting"].text() == "no tokens drafted"
    panel.clear()
    assert panel.speed_plot.points == [] and panel.rate_plot.values == []


def test_the_stats_panel_shows_what_speculative_decoding_drafted_kept_and_gained(qtbot: QtBot) -> None:
    panel = StatsPanel()
    qtbot.addWidget(panel)
    drafted = _metrics(speed=80.0, ttft=0.1)
    drafted.stats.drafted_tokens, drafted.stats.accepted_tokens, drafted.stats.draft_speedup = 40, 30, 1.62
    panel.add_reply(drafted)
    assert panel.values["drafting"].text() == "40 drafted, 30 accepted (75 %); 1.62× the speed of plain decoding"
    drafted.stats.draft_speedup = 0.0  # every token came through a check: no plain decode to compare with
    panel.add_reply(drafted)
    assert panel.values["drafting"].text().endswith("speed-up not measured (no plain decode to compare with)")
    panel.add_reply(replace(drafted, llama=None))
    assert panel.values["drafting"].text() == "not known (a server ran the reply)"


def test_the_plots_draw_their_data_and_an_empty_state(qtbot: QtBot) -> None:
    line = LinePlot("Speed", "tok/s", "s")
    bars = BarPlot("TTFT", "ms")
    for plot in (line, bars):
        qtbot.addWidget(plot)
        plot.resize(300, 150)
    blank_line = line.grab().toImage()
    line.set_points([(0.0, 10.0), (1.0, 40.0), (2.0, 20.0)])
    assert line.y_top() == 50.0
    assert line.grab().toImage() != blank_line
    bars.set_bars([120.0, 80.0])
    image = bars.grab().toImage()
    middle = bars.bar_rect(0).center().toPoint()
    assert QColor(image.pixel(middle)) == bars.palette().highlight().color()
    assert bars.bar_rect(0).height() > bars.bar_rect(1).height()


@pytest.mark.parametrize(
    ("value", "top"), [(0.0, 1.0), (0.7, 1.0), (13.0, 20.0), (42.0, 50.0), (240.0, 250.0), (1001.0, 2000.0)]
)
def test_axes_end_on_a_round_number(value: float, top: float) -> None:
    assert nice_ceiling(value) == top


# ---- prompt inspector ---------------------------------------------------------------------


def test_the_prompt_inspector_shows_text_tokens_and_the_window(qtbot: QtBot, engine: Engine) -> None:
    panel = PromptInspectorPanel()
    qtbot.addWidget(panel)
    conversation = [ChatMessage("user", "Hi! Tell me a joke."), ChatMessage("assistant", "Why did the chicken…")]
    inspection = inspect_prompt(engine, conversation, left_out=[ChatMessage("user", "An old question")], reserve=512)
    panel.show_inspection(inspection)
    assert panel.summary.text().startswith(f"{inspection.count} tokens ({inspection.special_count} special)")
    assert panel.token_view.toHtml().count('href="token:') == inspection.count
    assert "<|im_start|>" in panel.text_view.toPlainText()
    rows = [panel.messages_view.topLevelItem(i) for i in range(panel.messages_view.topLevelItemCount())]
    assert [(row.text(0), row.text(2)) for row in rows] == [
        ("user", "no, outside"),
        ("user", "yes"),
        ("assistant", "yes"),
    ]
    index = next(i for i, t in enumerate(inspection.tokens) if t.text == " joke")
    panel._show_token(QUrl(f"token:{index}"))
    info = panel.token_info.text()
    assert f"id {inspection.tokens[index].token_id}" in info and "from the user message" in info


def test_the_prompt_inspector_warns_when_the_turn_cannot_be_sent(qtbot: QtBot, engine: Engine) -> None:
    panel = PromptInspectorPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.show_inspection(inspect_conversation(engine, [ChatMessage("user", "word " * 3000)], reserve=256))
    assert panel.notice.isVisible() and "Shorten the message" in panel.notice.text()


# ---- token probabilities ------------------------------------------------------------------


def _step(text: str, probability: float, token_id: int = 7) -> TokenStep:
    alternatives = (Alternative(token_id, text, probability), Alternative(9, " other", min(0.3, 1 - probability)))
    return TokenStep(token_id, text, probability, alternatives)


def test_low_confidence_tokens_are_coloured_and_a_click_pins_their_alternatives(qtbot: QtBot) -> None:
    trace = TokenTrace(
        [_step("The", 0.9), _step(" sky", 0.35), _step(" is", 0.95), _step(" green", 0.05)],
        SamplingParams(temperature=0.7, seed=3).to_dict(),
    )
    view = TokenReplyView(trace)
    qtbot.addWidget(view)
    view.show()
    html = view.text.text()
    assert html.count('href="token:') == 4
    assert html.count(confidence_background(trace.steps[1].confidence)) == 1
    assert html.count(confidence_background(trace.steps[3].confidence)) == 1
    assert "4 tokens" in view.legend.text() and "1 unsure" in view.legend.text() and "1 low" in view.legend.text()
    with qtbot.waitSignal(view.tokenActivated) as activated:
        view.text.linkActivated.emit("token:3")
    assert activated.args == [3]
    assert view.pinned_box.isVisible()
    assert "<b>␣green</b> 5.0%" in view.detail.text() and "30.0%" in view.detail.text()
    assert "temperature 0.7" in view.detail_note.text() and "seed 3" in view.detail_note.text()


def test_greedy_sampling_is_named_as_such_beside_the_probabilities() -> None:
    assert sampling_summary(GREEDY.to_dict()).startswith("Sampling: greedy")


def test_a_real_reply_renders_token_by_token_inside_its_message(qtbot: QtBot, engine: Engine) -> None:
    recorder = TokenProbabilityRecorder(GREEDY)
    params = replace(GREEDY, max_tokens=6)
    events = list(engine.stream_chat([ChatMessage("user", "Hello!")], params, threading.Event(), recorder.observe))
    done = events[-1]
    assert isinstance(done, ReplyDone)
    trace = recorder.trace(engine.llama)

    message = QWidget()
    qtbot.addWidget(message)
    body = QLabel(done.text, message)
    QVBoxLayout(message).addWidget(body)
    message.show()
    view = attach_token_view(message, body, trace)
    assert view.isVisible() and not body.isVisible()
    assert view.text.text().count('href="token:') == sum(1 for step in trace.steps if step.text)
    show_tokens(message, body, False)
    assert body.isVisible() and not view.isVisible()


# ---- logs and diagnostics -----------------------------------------------------------------


@pytest.fixture
def buffer(caplog: pytest.LogCaptureFixture) -> Iterator[LogBuffer]:
    caplog.set_level(logging.DEBUG)
    handler = LogBuffer(capacity=500)
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)


def test_the_logs_panel_follows_the_log_and_filters_by_level_source_and_text(qtbot: QtBot, buffer: LogBuffer) -> None:
    logging.getLogger("app.downloads").info("download started")
    panel = LogsPanel(buffer)
    qtbot.addWidget(panel)
    panel.show()
    assert "download started" in panel.shown_text()
    logging.getLogger("llama.cpp").info("load_tensors: CPU_Mapped model buffer size = 92.10 MiB")
    logging.getLogger("app.engine").debug("a debug detail")
    qtbot.waitUntil(lambda: "CPU_Mapped" in panel.shown_text(), timeout=2000)
    assert "a debug detail" not in panel.shown_text()  # the default level is Info

    panel.source.setCurrentIndex(panel.source.findData("llama.cpp"))
    assert "CPU_Mapped" in panel.shown_text() and "download started" not in panel.shown_text()
    panel.source.setCurrentIndex(0)
    panel.filter.setText("download")
    assert panel.shown_text().count("\n") == 0 and "download started" in panel.shown_text()
    panel.filter.clear()
    panel.level.setCurrentIndex(panel.level.findData(logging.DEBUG))
    assert "a debug detail" in panel.shown_text()

    panel.copy_shown()
    assert QGuiApplication.clipboard().text() == panel.shown_text()


@pytest.mark.expected_log("app.engine", logging.ERROR, "Generation failed: out of cheese")
def test_copy_diagnostics_puts_the_report_on_the_clipboard(qtbot: QtBot, buffer: LogBuffer) -> None:
    logging.getLogger("app.engine").error("Generation failed: out of cheese")
    copier = DiagnosticsCopier(lambda: DiagnosticsInput(errors=buffer.recent_errors(), qt_version="6"))
    with qtbot.waitSignal(copier.copied, timeout=10_000) as copied:
        copier.copy()
    assert copier.wait()
    text = QGuiApplication.clipboard().text()
    assert text == copied.args[0]
    assert "## Versions" in text and "## Hardware" in text and "GPU:" in text
    assert "Generation failed: out of cheese" in text


# ---- in the main window -------------------------------------------------------------------


def test_the_window_shows_the_load_timeline_metrics_tokens_and_the_prompt(window: MainWindow, qtbot: QtBot) -> None:
    glass = window.glass
    assert glass.load_panel.report is not None
    assert [stage.name for stage in glass.load_panel.report.stages][:2] == ["hash check", "check file"]
    assert glass.load_panel.table.topLevelItemCount() == len(glass.load_panel.report.stages)

    glass.token_action.setChecked(True)
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        window.send("Say hello.")
    reply = window.chat_view.messages()[-1]
    assert "context" in reply.footer.text() and "/4,096" in reply.footer.text()
    assert len(glass.stats_panel.history) == 1
    assert glass.stats_panel.history[0].stats.completion_tokens == len(glass.stats_panel.history[0].token_times_s)
    first = glass.stats_panel.history[0]  # the breakdown, measured through the worker and the engine process
    assert first.stats.cache_miss is CacheMiss.FIRST_TURN and "cache: first turn" in reply.footer.text()
    assert first.queue_wait_s is not None and first.queue_wait_s >= 0
    assert first.gpu_energy_j is None  # on the CPU: not measured
    view = reply.findChild(TokenReplyView)
    assert view is not None and view.isVisible() and not reply.body.isVisible()
    chat_id = window.chats.session.chat.id
    window.new_chat()  # the trace is saved with the reply: back in the chat, the token view is there again
    window.chats.open_chat(chat_id)
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=10_000)
    reply = window.chat_view.messages()[-1]
    view = reply.findChild(TokenReplyView)
    assert view is not None and view.isVisible() and len(view.trace.steps) > 0
    assert "tokens" in reply.footer.text()  # the saved stats still read as a footer
    glass.token_action.setChecked(False)
    assert reply.body.isVisible() and not view.isVisible()
    assert not window.worker.token_probabilities.is_set()
    assert "next reply" not in window.statusBar().currentMessage()

    qtbot.waitUntil(lambda: not glass._inspecting, timeout=30_000)  # an answer asked before is in
    glass.stats_dock.show()  # the glass panels are a click away in View (closed at the first start)
    glass.prompt_dock.show()
    glass.stats_dock.raise_()  # the prompt inspector goes behind the Stats tab of its group
    glass.prompt_panel.inspection = None
    window.composer.setPlainText("And goodbye?")
    qtbot.wait(1000)  # longer than the draft's refresh delay
    assert glass.prompt_panel.inspection is None  # nothing asked while the panel was behind another tab
    glass.prompt_dock.raise_()
    # (waitSignal on a worker-thread signal would stop pytest-qt's timer from that thread)
    qtbot.waitUntil(lambda: glass.prompt_panel.inspection is not None, timeout=30_000)
    inspection = glass.prompt_panel.inspection
    assert [entry.role for entry in inspection.messages] == ["user", "assistant", "user"]
    assert inspection.messages[-1].preview == "And goodbye?"
    assert inspection.reserve == 8


def test_a_load_cancelled_in_the_window_says_so_in_the_load_details(window: MainWindow, qtbot: QtBot) -> None:
    def cancel_when_weights_start(stage: str) -> None:  # runs on the worker thread, like the button's event
        if stage == "load weights":
            window.worker.cancel_load_event.set()

    window.worker.loadStage.connect(cancel_when_weights_start, Qt.ConnectionType.DirectConnection)
    panel = window.glass.load_panel
    window.load_model(window.state.loaded_model)
    qtbot.waitUntil(lambda: panel.headline.text().startswith("Not loaded"), timeout=60_000)
    assert not panel.is_loading
    # the engine process hears of the cancel while it loads the weights, or, when they are read by then
    # (memory-mapped, in the page cache), as the context is created: the headline names that stage
    assert re.match(r"Not loaded \((Loading weights|Creating the context), \d+%\): ", panel.headline.text())
    assert "was cancelled" in panel.headline.text()


def test_diagnostics_from_the_window_name_the_model_its_load_and_the_settings(window: MainWindow) -> None:
    given = window.glass.gather_diagnostics()
    assert given.load_report is window.state.load_report is not None
    assert given.sampling == window.chats.session.effective().sampling
    assert given.settings is not None and "sampling" in given.settings
    assert given.qt_version and given.qt_platform == "offscreen"
