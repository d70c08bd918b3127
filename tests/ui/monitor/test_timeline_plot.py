"""The timeline plot: a shared time window, replies shaded and hoverable, long sessions thinned keeping spikes."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from pytestqt.qtbot import QtBot

from app.core.monitor.timeline import ReplyOutcome, ReplySpan
from app.ui.monitor.timeline_plot import Series, TimelinePlot, ago_text, decimate


def test_the_time_axis_reads_back_from_now_not_as_a_clock() -> None:
    assert [ago_text(s) for s in (0, 40, 600, 3725)] == ["now", "40 s ago", "10 min ago", "1 h 2 min ago"]
    assert ago_text(200, exact=True) == "3 min 20 s ago"  # a moment under the mouse, to the second


def test_a_long_series_is_thinned_to_two_points_a_bucket_keeping_its_spikes() -> None:
    points = [(float(t), 1.0) for t in range(10_000)]
    points[4321] = (4321.0, 99.0)
    thinned = decimate(points, 100)
    assert len(thinned) <= 200 and (4321.0, 99.0) in thinned
    assert decimate(points[:50], 100) == points[:50]


def test_the_window_and_a_span_under_the_mouse(qtbot: QtBot) -> None:
    plot = TimelinePlot("CPU", "%", fixed_top=100)
    qtbot.addWidget(plot)
    plot.resize(400, 160)
    span = ReplySpan(1, start=30.0, end=45.0, outcome=ReplyOutcome.FINISHED)
    plot.span_text = lambda s: f"reply {s.number}"
    plot.set_data([Series("Glassbox", [(t, 10.0) for t in range(0, 61)])], [span], (0.0, 60.0))

    assert plot.x_range() == (0.0, 60.0) and plot.y_top() == 100
    rect = plot.span_rect(span)
    area = plot.plot_area()
    assert rect.left() == area.left() + area.width() / 2 and rect.width() == area.width() / 4
    assert plot.tooltip_at(rect.center()) == "reply 1"
    assert plot.tooltip_at(QPointF(area.left() + 1, rect.center().y())) == "1 min ago\nGlassbox: 10 %"
    assert plot.tooltip_at(QPointF(2, 2)) == ""  # outside the plot area


def test_an_empty_plot_says_what_will_appear(qtbot: QtBot) -> None:
    plot = TimelinePlot("GPU 0 power", "W")
    qtbot.addWidget(plot)
    plot.empty_text = "Samples appear here"
    plot.set_data([Series("Power", [])], [], (0.0, 60.0))
    plot.show()
    plot.grab()  # paints without a point to draw
    assert plot.points == []
