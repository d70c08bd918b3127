"""A tool call as a step of the reply: what it shows, how it is answered, how its result folds under it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.ui.chat.tool_call_step import ALWAYS, DENY, ONCE, SavedCall, ToolCallStep, saved_steps


def step(qtbot: QtBot, arguments: str = '{"zone": "UTC"}') -> ToolCallStep:
    widget = ToolCallStep("clock", "now", arguments, None)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_the_three_answers_are_buttons_with_keys_and_each_is_given_once(qtbot: QtBot) -> None:
    widget = step(qtbot)
    widget.set_asking(True)
    assert [widget.buttons[a].text() for a in (ONCE, ALWAYS, DENY)] == [
        "Allow &once",
        "&Always allow this tool",
        "&Deny",
    ]
    assert all(button.focusPolicy() & Qt.FocusPolicy.TabFocus for button in widget.buttons.values())
    answers: list[str] = []
    widget.answered.connect(answers.append)
    widget.buttons[ALWAYS].click()
    widget.answer(ONCE)  # a second answer to the same call is not heard
    assert answers == [ALWAYS]
    assert not widget.asking and widget.status.text() == "Running…"


def test_arguments_that_are_not_json_are_shown_as_the_model_wrote_them(qtbot: QtBot) -> None:
    assert step(qtbot, '{"zone": ').arguments.toPlainText() == '{"zone": '


def test_a_call_left_waiting_when_the_turn_ends_says_it_did_not_run(qtbot: QtBot) -> None:
    widget = step(qtbot)
    widget.set_asking(True)
    widget.unanswered()
    assert not widget.asking and widget.status.text() == "Not run: the reply was stopped"


def test_a_result_is_plain_text_folded_under_a_line_that_says_its_size(qtbot: QtBot) -> None:
    widget = step(qtbot)
    widget.show_result(SavedCall("clock", "now", "{}", "<b>noon</b>\n<img src='http://x'>", seconds=0.25))
    assert widget.result_toggle is not None and widget.result is not None
    assert widget.result_toggle.text() == "Result · 32 characters · 0.25 s"
    assert widget.result.isHidden()
    widget.result_toggle.click()
    assert widget.result.isVisible()
    assert widget.result.toPlainText() == "<b>noon</b>\n<img src='http://x'>"  # shown as text, nothing loaded


def test_an_error_says_why_on_its_line(qtbot: QtBot) -> None:
    widget = step(qtbot)
    widget.show_result(SavedCall("clock", "now", "{}", "The server exited.\nexit code 1", is_error=True))
    assert widget.result_toggle is not None
    assert widget.result_toggle.text() == "Error: The server exited."


def test_a_saved_reply_gives_back_its_steps_in_order(qtbot: QtBot) -> None:
    calls = [SavedCall("clock", "now", "{}", "noon"), SavedCall("git", "status", "{}", "clean")]
    steps = saved_steps({"tool_calls": [call.to_dict() for call in calls]}, None)
    for widget in steps:
        qtbot.addWidget(widget)
    assert [w.title.text() for w in steps] == ["Tool call: now on clock", "Tool call: status on git"]
    assert all(w.result is not None and not w.asking for w in steps)


def test_a_result_says_its_size_in_the_models_tokens_and_the_cap_in_its_tooltip(qtbot: QtBot) -> None:
    widget = step(qtbot)
    widget.show_result(SavedCall("clock", "now", "{}", "noon", tokens=1234, size_bytes=4, cap_bytes=256 * 1024))
    assert widget.result_toggle is not None
    assert widget.result_toggle.text() == "Result · 1,234 tokens · 4 characters"
    assert widget.result_toggle.toolTip() == (
        "Glassbox keeps up to 256.0 KiB of a tool's result; the model reads what is kept.\n"
        "The model read 1,234 tokens of it."
    )


def test_a_result_larger_than_the_cap_says_it_was_cut_and_from_what(qtbot: QtBot) -> None:
    widget = step(qtbot)
    kept = "x" * 1024
    widget.show_result(SavedCall("big", "dump", "{}", kept, tokens=1, size_bytes=3 * 1024 * 1024, cap_bytes=1024))
    assert widget.result_toggle is not None
    assert widget.result_toggle.text() == "Result · 1 token · 1,024 characters · cut to 1.0 KiB of 3.0 MiB"


def test_the_tokens_and_the_cap_are_kept_with_the_saved_call_and_nonsense_is_read_as_none() -> None:
    call = SavedCall("clock", "now", "{}", "noon", tokens=7, size_bytes=4, cap_bytes=1024)
    assert SavedCall.from_dict(call.to_dict()) == call
    odd = {**call.to_dict(), "tokens": "many", "size_bytes": -3, "cap_bytes": True}
    assert SavedCall.from_dict(odd) == SavedCall("clock", "now", "{}", "noon")
