"""The context meter: tokens the next turn takes of the context, and how many messages fell out."""

from __future__ import annotations

from dataclasses import replace

import pytest
from pytestqt.qtbot import QtBot

from app.core.chat.context_window import WindowPlan, WindowPolicy
from app.core.types.messages import ChatMessage
from app.ui.chat.context_meter import ContextMeter


def plan(prompt: int, frame: int, reserve: int, outside: int, n_ctx: int = 2048) -> WindowPlan:
    return WindowPlan(
        messages=(ChatMessage("user", "hi"),),
        kept_ids=(9,),
        outside_ids=tuple(range(outside)),
        prompt_tokens=prompt,
        frame_tokens=frame,
        n_ctx=n_ctx,
        reserve=reserve,
        policy=WindowPolicy.ROLLING,
        notice=f"{outside} earlier messages outside the window." if outside else "",
    )


@pytest.fixture
def meter(qtbot: QtBot) -> ContextMeter:
    widget = ContextMeter()
    qtbot.addWidget(widget)
    return widget


def test_the_meter_shows_used_reserved_and_total_tokens(meter: ContextMeter) -> None:
    meter.set_plan(plan(prompt=1234, frame=34, reserve=512, outside=0))
    assert meter.label.text() == "This chat uses 1,234 of 2,048 tokens; 512 are kept free for the reply"
    fractions = dict(meter.bar.parts)
    assert fractions["frame"] == pytest.approx(34 / 2048)
    assert fractions["conversation"] == pytest.approx(1200 / 2048)
    assert fractions["reserve"] == pytest.approx(512 / 2048)
    assert "free: 302" in meter.toolTip()


@pytest.mark.parametrize(
    ("outside", "words"), [(1, "1 earlier message is outside"), (7, "7 earlier messages are outside")]
)
def test_the_meter_says_how_many_messages_are_outside_the_window(meter: ContextMeter, outside: int, words: str) -> None:
    meter.set_plan(plan(prompt=1500, frame=30, reserve=256, outside=outside))
    assert words in meter.label.text()


def test_a_turn_that_cannot_be_sent_shows_why_in_red(meter: ContextMeter) -> None:
    meter.set_error("The latest message is 3000 tokens, …")
    assert meter.label.text().startswith("The latest message is 3000 tokens")
    assert meter.bar.parts == [("error", 1.0)]
    assert meter.plan is None
    meter.clear()
    assert "load a model" in meter.label.text()


def test_earlier_replies_reasoning_the_template_sends_is_a_part_of_its_own(meter: ContextMeter) -> None:
    meter.set_plan(replace(plan(prompt=1234, frame=34, reserve=512, outside=0), reasoning_tokens=200))
    fractions = dict(meter.bar.parts)
    assert fractions["conversation"] == pytest.approx(1000 / 2048)
    assert fractions["reasoning"] == pytest.approx(200 / 2048)
    assert [key for key, _ in meter.bar.parts] == ["frame", "conversation", "reasoning", "reserve"]
    assert "200 of them are earlier replies' reasoning" in meter.label.text()
    assert "earlier replies' reasoning: 200" in meter.toolTip()


def test_a_plan_without_past_reasoning_has_no_reasoning_part(meter: ContextMeter) -> None:
    meter.set_plan(plan(prompt=1234, frame=34, reserve=512, outside=0))
    assert "reasoning" not in dict(meter.bar.parts)
    assert "reasoning" not in meter.label.text()


def test_the_tooltip_says_how_much_past_reasoning_the_template_leaves_out(meter: ContextMeter) -> None:
    meter.set_plan(replace(plan(prompt=1234, frame=34, reserve=512, outside=0), reasoning_left_out=1500))
    assert "earlier replies' reasoning the model's template leaves out: about 1,500" in meter.toolTip()
    assert "reasoning" not in dict(meter.bar.parts)


def colours_in(meter: ContextMeter, left: float, right: float, row: float = 0.5) -> set[str]:
    """The colours the bar paints between two fractions of its width (on its middle line, or another row)."""
    image = meter.bar.grab().toImage()
    y, width = min(int(image.height() * row), image.height() - 1), image.width()
    return {image.pixelColor(x, y).name() for x in range(int(width * left), int(width * right))}


def test_the_room_kept_for_the_reply_is_only_outlined_so_it_reads_as_free_not_as_use(meter: ContextMeter) -> None:
    meter.set_plan(plan(prompt=1024, frame=0, reserve=512, outside=0))  # half used, a quarter kept for the reply
    used, kept, free = colours_in(meter, 0.1, 0.4), colours_in(meter, 0.55, 0.7), colours_in(meter, 0.8, 0.95)
    assert len(used) == 1 and used.isdisjoint(kept)  # the use is solid, in its own colour
    assert kept == free  # inside the outline: the free colour
    assert colours_in(meter, 0.55, 0.7, row=0.0) - free  # its dotted outline along the top


def test_while_the_chat_on_show_is_not_measured_yet_the_meter_shows_no_old_numbers(meter: ContextMeter) -> None:
    meter.set_plan(plan(prompt=40, frame=10, reserve=512, outside=0, n_ctx=4096))
    meter.set_waiting("Context: measuring the message…")
    assert meter.plan is None and meter.bar.parts == []
    assert meter.label.text() == "Context: measuring the message…" and "4,096" not in meter.toolTip()


def test_the_tools_definitions_are_a_part_of_their_own_taken_from_the_frame(meter: ContextMeter) -> None:
    meter.set_plan(replace(plan(prompt=1234, frame=334, reserve=512, outside=0), tool_tokens=300))
    fractions = dict(meter.bar.parts)
    assert fractions["frame"] == pytest.approx(34 / 2048)
    assert fractions["tools"] == pytest.approx(300 / 2048)
    assert fractions["conversation"] == pytest.approx(900 / 2048)
    assert [key for key, _ in meter.bar.parts] == ["frame", "tools", "conversation", "reserve"]
    assert "300 for the tools' definitions" in meter.label.text()
    assert "the tools' definitions: 300" in meter.toolTip()


def test_the_tools_results_are_a_part_of_the_conversation_of_their_own(meter: ContextMeter) -> None:
    turn = replace(plan(prompt=1234, frame=334, reserve=512, outside=0), tool_tokens=300, tool_result_tokens=700)
    meter.set_plan(turn)
    fractions = dict(meter.bar.parts)
    assert fractions["conversation"] == pytest.approx(200 / 2048)
    assert fractions["tool_results"] == pytest.approx(700 / 2048)
    assert [key for key, _ in meter.bar.parts] == ["frame", "tools", "conversation", "tool_results", "reserve"]
    assert "700 for the tools' results" in meter.label.text()
    assert "the tools' results: 700" in meter.toolTip()
    assert sum(fraction for _, fraction in meter.bar.parts) == pytest.approx((1234 + 512) / 2048)


def test_a_plan_without_tools_has_no_tool_parts(meter: ContextMeter) -> None:
    meter.set_plan(plan(prompt=1234, frame=34, reserve=512, outside=0))
    assert not {"tools", "tool_results"} & set(dict(meter.bar.parts))
    assert "tool" not in meter.label.text()
