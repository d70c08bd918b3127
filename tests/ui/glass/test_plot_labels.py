"""Stats and Load details in words a user reads: bars named by reply, time measured from the start,
muted text the theme makes readable, and the first decode's longer time explained where it shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QLabel, QToolTip
from pytestqt.qtbot import QtBot

from app.core.inference.load_timeline import FIRST_DECODE, FIRST_DECODE_DETAIL
from app.core.types.load import LoadConfig, LoadReport, LoadStage
from app.core.types.stats import LlamaCounters, ReplyMetrics, ReplyStats, StopReason
from app.ui.glass.load_panel import LoadPanel
from app.ui.glass.stats_panel import StatsPanel
from app.ui.widgets.theme import colours


def _reply(ttft: float, speed: float = 50.0) -> ReplyMetrics:
    stats = ReplyStats(
        prompt_tokens=40,
        completion_tokens=20,
        time_to_first_token_s=ttft,
        generation_tokens_per_s=speed,
        total_s=ttft + 19 / speed,
        stop_reason=StopReason.LENGTH,
    )
    times = [ttft + i / speed for i in range(20)]
    return ReplyMetrics(stats, 2048, 60, times, LlamaCounters(10, 20.0, 19, 19 / speed * 900))


@pytest.fixture
def stats(qtbot: QtBot) -> StatsPanel:
    panel = StatsPanel()
    qtbot.addWidget(panel)
    panel.resize(360, 700)
    panel.show()
    return panel


def _tooltip(widget: QLabel | object, x: float, y: float) -> str:
    QToolTip.hideText()
    event = QHelpEvent(QEvent.Type.ToolTip, QPoint(int(x), int(y)), QPoint(int(x), int(y)))
    widget.event(event)  # type: ignore[attr-defined]
    return QToolTip.text()


def test_reply_bars_are_named_by_reply_number_newest_on_the_right_never_minus_two(stats: StatsPanel) -> None:
    for ttft in (0.3, 0.2, 0.1):
        stats.add_reply(_reply(ttft))
    assert stats.ttft_plot.labels == stats.rate_plot.labels == ["#1", "#2", "#3"]
    assert stats.ttft_plot.tips == ["Reply #1", "Reply #2", "Reply #3 (the last)"]
    assert "newest right" in stats.ttft_plot.title and stats.ttft_plot.unit == "ms"
    bar = stats.ttft_plot.bar_rect(2)
    assert _tooltip(stats.ttft_plot, bar.center().x(), bar.center().y()) == "Reply #3 (the last): 100 ms"
    stats.clear()
    stats.add_reply(_reply(0.2))
    assert stats.ttft_plot.labels == ["#1"]  # a cleared history counts again from the first


def test_the_speed_of_a_reply_is_plotted_from_the_moment_it_was_sent(stats: StatsPanel) -> None:
    stats.add_reply(_reply(ttft=8.73))  # a long wait for the first token: the axis still starts at 0
    low, high = stats.speed_plot.x_range()
    assert low == 0.0 and high == pytest.approx(8.73 + 19 / 50)
    assert stats.speed_plot.x_unit == "s after sending"
    point = stats.speed_plot.to_screen(*stats.speed_plot.points[0])
    assert _tooltip(stats.speed_plot, point.x(), point.y()).startswith("8.75 s after sending: ")


def test_the_names_of_the_numbers_use_the_themes_muted_text(stats: StatsPanel) -> None:
    names = [label for label in stats.findChildren(QLabel) if label.text() == "Time to first token"]
    assert len(names) == 1
    assert colours().muted in names[0].styleSheet()  # a pair the theme checks for contrast, in both themes


def _report_with_warm_up() -> LoadReport:
    report = LoadReport(LoadConfig(Path("/models/tiny.gguf"), n_ctx=2048))
    report.stages = [
        LoadStage("hash check", 0.002, "cached: verified earlier and unchanged since"),
        LoadStage("load weights", 0.300, "memory-mapped · 92.1 MiB", 0.002),
        LoadStage("create context", 0.040, "n_ctx 2,048", 0.302),
        LoadStage(FIRST_DECODE, 0.250, FIRST_DECODE_DETAIL, 0.342),
    ]
    return report


def test_the_first_decode_row_says_it_is_a_warm_up_that_allocates_buffers(qtbot: QtBot) -> None:
    panel = LoadPanel()
    qtbot.addWidget(panel)
    panel.resize(360, 400)
    panel.show()
    panel.loaded(_report_with_warm_up())
    row = panel.table.topLevelItem(3)
    assert row is not None and row.text(0) == "First decode (warm-up)"
    assert "first computation allocates its buffers" in row.text(2)
    assert "first computation allocates its buffers" in row.toolTip(2)
    lines = panel.table.visualItemRect(row).height() / panel.table.fontMetrics().height()
    assert lines >= 3, "the details wrap in their column, not cut off with …"
    names = [panel.table.topLevelItem(i).text(0) for i in range(panel.table.topLevelItemCount())]  # type: ignore[union-attr]
    assert "first decode" not in names and "hash check" not in names  # no internal names


def test_the_load_timeline_says_when_each_stage_ran_after_the_load_began(qtbot: QtBot) -> None:
    panel = LoadPanel()
    qtbot.addWidget(panel)
    panel.resize(400, 400)
    panel.show()
    panel.loaded(_report_with_warm_up())
    span = panel.timeline.span_rect(3)
    tip = _tooltip(panel.timeline, span.center().x(), span.center().y())
    assert tip.startswith("First decode (warm-up): 250.0 ms")
    assert "allocates its buffers" in tip and "from 0.34 s to 0.59 s after the load began" in tip
