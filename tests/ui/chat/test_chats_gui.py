"""Conversations in the window, with the starter model: saved as they go, reopened, regenerated,
edited into branches, searched and deleted; the context window marks what the model no longer sees."""

from __future__ import annotations

import logging
import os
import pickle
import pickletools
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.core.chat.store import new_chat, new_message
from app.core.inference.chat_format import default_system_prompt
from app.core.inference.sampling import GREEDY
from app.core.paths import app_paths
from app.core.settings import ModelSettings, Settings, load_settings
from app.core.support.child_messages import Job
from app.core.support.child_process import ChildProcess
from app.core.types.replies import ReplyDone
from app.core.types.stats import ReplyStats, StopReason
from app.ui.chat.storage import StorageThread
from app.ui.shell.main_window import MainWindow
from tests.helpers.vision import prepared_picture
from tests.helpers.windows import WindowOpener

N_CTX = 1024
QUICK = GREEDY.with_values({"max_tokens": 6})


def rows(sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Read the chat history the way another process would (read-only, beside the running app)."""
    db = sqlite3.connect(f"file:{app_paths().chats_db}?mode=ro", uri=True)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


pytestmark = pytest.mark.window(settings=Settings(sampling=QUICK, model=ModelSettings(n_ctx=N_CTX)))


def reply_to(window: MainWindow, qtbot: QtBot, text: str) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        window.send(text)


def test_a_chat_with_its_settings_is_saved_as_it_goes_and_comes_back_after_a_restart(
    window: MainWindow, qtbot: QtBot, open_main_window: WindowOpener
) -> None:
    assert window.settings_store.settings.model.n_ctx == N_CTX, "the model settings come from the settings file"
    panel = window.chats.settings_panel
    panel.prompt.system_prompt.setPlainText("Answer in one word.")
    panel.prompt.system_prompt.editingFinished.emit()
    panel.set_field_text("top_k", "7")
    reply_to(window, qtbot, "Name a colour.")
    reply_to(window, qtbot, "And a fruit?")
    chat_id = window.chats.session.chat.id
    shown = [(m.role, m.text) for m in window.chat_view.messages()]
    window.close()

    saved = rows("SELECT role, text, state, model FROM messages WHERE chat_id = ? ORDER BY created", chat_id)
    assert [(role, text) for role, text, _, _ in saved] == shown
    assert {state for _, _, state, _ in saved} == {"complete"}
    assert saved[1][3] == "SmolLM2-135M-Instruct.Q4_1"

    again = open_main_window()
    try:
        qtbot.waitUntil(lambda: again.chats.sidebar.chat_ids() == [chat_id], timeout=10_000)
        assert again.chats.sidebar.list.findItems("Name a colour.", Qt.MatchFlag.MatchExactly)
        again.chats.open_chat(chat_id)
        qtbot.waitUntil(lambda: len(again.chat_view.messages()) == 4, timeout=10_000)
        assert [(m.role, m.text) for m in again.chat_view.messages()] == shown
        assert "tokens" in again.chat_view.messages()[1].footer.text()
        assert again.chats.session.effective().system_prompt == "Answer in one word."
        assert again.chats.session.effective().sampling.top_k == 7
        assert again.chats.settings_panel.sampling.rows["top_k"].label.font().bold()
    finally:
        again.close()


def test_save_as_defaults_writes_the_settings_file(window: MainWindow, qtbot: QtBot) -> None:
    panel = window.chats.settings_panel
    panel.set_field_text("temperature", "0.4")
    panel.save_as_defaults()
    window.close()
    assert load_settings(app_paths().settings_file).settings.sampling.temperature == 0.4


def test_the_panel_shows_the_models_own_system_prompt_and_reload_now_loads_the_model_again(
    window: MainWindow, qtbot: QtBot
) -> None:
    panel = window.chats.settings_panel
    assert "You are a helpful AI assistant named SmolLM" in panel.prompt.system_prompt.placeholderText()
    panel.show()
    panel.set_field_text("n_ctx", "2048")
    assert panel.model.reload_button.isVisibleTo(panel)
    with qtbot.waitSignal(window.state_signals.modelLoaded, timeout=60_000) as loaded:
        panel.model.reload_button.click()
    assert loaded.args[0].config.n_ctx == 2048  # loaded again through the window, with the new setting
    assert not panel.model.reload_button.isVisibleTo(panel)


def test_regenerate_writes_a_new_version_and_keeps_the_old_one(window: MainWindow, qtbot: QtBot) -> None:
    reply_to(window, qtbot, "Name a colour.")
    first = window.chats.session.shown_thread[-1]
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        window.chats.regenerate_action.trigger()
    thread = window.chats.session.shown_thread
    assert [m.role for m in thread] == ["user", "assistant"] and thread[-1].id != first.id
    arrows = window.chat_view.messages()[-1].versions
    assert arrows.isVisibleTo(window) and arrows.label.text() == "2/2" and not arrows.following.isEnabled()
    assert len(rows("SELECT id FROM messages WHERE parent_id = ?", thread[0].id)) == 2

    menu = window.chats.menus.menu(thread[-1].id)
    [previous] = [a for a in menu.actions() if a.text() == "Previous version"]
    previous.trigger()
    qtbot.waitUntil(lambda: window.chat_view.messages()[-1].key == first.id, timeout=10_000)
    assert window.chat_view.messages()[-1].versions.label.text() == "1/2"
    window.chat_view.messages()[-1].versions.following.click()  # ▶ goes back to the newer one
    qtbot.waitUntil(lambda: window.chat_view.messages()[-1].key == thread[-1].id, timeout=10_000)


def test_edit_and_continue_starts_a_branch_and_the_old_one_can_be_shown_again(window: MainWindow, qtbot: QtBot) -> None:
    reply_to(window, qtbot, "Name a colour.")
    reply_to(window, qtbot, "Name a fruit.")
    first = window.chats.session.shown_thread[0]
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        window.chats.edit_and_continue(first.id, "Name an animal.")
    thread = window.chats.session.shown_thread
    assert (thread[0].role, thread[0].text) == ("user", "Name an animal.")
    assert len(thread) == 2 and len(window.chat_view.messages()) == 2
    assert window.chat_view.messages()[0].versions.label.text() == "2/2"

    window.chats.session.show_version(thread[0].id, -1)
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 4, timeout=10_000)
    assert [m.text for m in window.chat_view.messages()][::2] == ["Name a colour.", "Name a fruit."]


def test_old_messages_outside_the_window_are_marked_and_counted(window: MainWindow, qtbot: QtBot) -> None:
    # Room for about 520 tokens of conversation; short replies end at the first full stop.
    window.chats.set_sampling(GREEDY.with_values({"max_tokens": 500, "stop": [".", "\n", "!"]}))
    question = "Here is a long question about the weather, the sea, the mountains and the rivers of Europe. " * 4
    for turn in range(5):
        reply_to(window, qtbot, f"Turn {turn}. {question}")
    qtbot.waitUntil(lambda: "outside the window" in window.chats.meter.label.text(), timeout=20_000)
    outside = {str(i) for i in window.chats.last_plan.outside_ids}
    widgets = window.chat_view.messages()
    assert outside and widgets[0].key in outside
    assert [w.outside_window for w in widgets] == [w.key in outside for w in widgets]
    assert not widgets[-1].outside_window
    assert window.chats.last_plan.prompt_tokens + 500 <= N_CTX


@pytest.mark.expected_log("app.errors", logging.ERROR, r"The latest message is \d+ tokens, but .* has room for \d+")
def test_a_message_too_long_for_the_context_is_refused_and_kept(window: MainWindow, qtbot: QtBot) -> None:
    window.send("word " * 1500)
    qtbot.waitUntil(lambda: "latest message is" in window.error_banner.message(), timeout=20_000)
    assert not window.state.is_streaming and window.send_button.isEnabled()
    assert [m.role for m in window.chats.session.shown_thread] == ["user"]
    qtbot.waitUntil(lambda: rows("SELECT role FROM messages") == [("user",)], timeout=5_000)


@pytest.mark.expected_log("app.errors", logging.ERROR, r"The latest message is \d+ tokens, but .* has room for \d+")
def test_the_meter_turns_red_only_for_a_message_that_will_not_fit_never_for_an_empty_box(
    window: MainWindow, qtbot: QtBot
) -> None:
    meter = window.chats.meter
    red = [("error", 1.0)]
    window.send("word " * 1500)  # refused: the chat now ends with a message far too long for the context
    qtbot.waitUntil(lambda: "latest message is" in window.error_banner.message(), timeout=20_000)
    assert window.composer.toPlainText() == ""
    # the next turn's window leaves that message out, so the meter says so, in plain words and not in red
    qtbot.waitUntil(lambda: "1 earlier message is outside the window" in meter.label.text(), timeout=10_000)
    assert (
        meter.label.text().startswith("This chat uses ")
        and meter.bar.parts != red
        and "latest message" not in meter.label.text()
    )
    assert f"of {N_CTX:,} tokens;" in meter.label.text() and "kept free for the reply" in meter.label.text()

    window.composer.setPlainText("word " * 1500)  # what will be sent does not fit: now it is red, and says why
    qtbot.waitUntil(lambda: meter.bar.parts == red, timeout=10_000)
    assert meter.label.text().startswith("The latest message is")

    window.composer.clear()
    qtbot.waitUntil(lambda: meter.bar.parts != red, timeout=10_000)
    assert meter.label.text().startswith("This chat uses ")


def test_in_an_empty_chat_the_meter_counts_the_system_prompt_the_template_writes_by_default(
    window: MainWindow, qtbot: QtBot
) -> None:
    meter = window.chats.meter
    window.new_chat()
    qtbot.waitUntil(lambda: meter.plan is not None, timeout=20_000)
    report = window.state.load_report
    assert report is not None
    default = default_system_prompt(report.chat_template)  # SmolLM2's: "You are a helpful AI assistant named …"
    assert default and meter.plan is not None and meter.plan.prompt_tokens > len(default.split())


def modules_named(pickled: bytes) -> set[str]:
    """The modules whose classes or functions a pickle names: what unpickling it imports."""
    named: set[str] = set()
    strings: list[str] = []
    for opcode, argument, _position in pickletools.genops(pickled):
        if opcode.name == "GLOBAL":  # protocol 0-3: "module name"
            named.add(str(argument).split(" ")[0])
        elif opcode.name == "STACK_GLOBAL" and len(strings) >= 2:  # protocol 4+: module, then name
            named.add(strings[-2])
        elif isinstance(argument, str):
            strings.append(argument)
    return named


def test_what_the_window_sends_the_engine_names_no_module_of_the_window(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine process unpickles every job it gets: a class of the window's in one made it import
    Qt and the window's modules (half a second, and a second copy of Qt in its memory)."""
    sent: list[bytes] = []
    submit = ChildProcess.submit

    def recorded(link: ChildProcess, job: Job) -> None:
        sent.append(pickle.dumps(job))
        submit(link, job)

    monkeypatch.setattr(ChildProcess, "submit", recorded)
    window.composer.setPlainText("And a fruit?")
    window.chats.measure_now()  # the meter's plan, with the message being typed
    qtbot.waitUntil(lambda: window.chats.measured("And a fruit?") is not None, timeout=20_000)
    reply_to(window, qtbot, "Name a colour.")  # a turn's plan and reply
    named = set().union(*map(modules_named, sent))
    assert len(sent) >= 3 and "app.core.chat.context_window" in named
    assert not {name for name in named if name.startswith(("app.ui", "PySide6", "shiboken6"))}


def test_the_meter_never_shows_the_chat_before_once_another_is_on_show(window: MainWindow, qtbot: QtBot) -> None:
    meter, chats = window.chats.meter, window.chats
    reply_to(window, qtbot, "Name a colour.")
    window.composer.setPlainText("And a fruit?")
    chats.measure_now()  # asked for this chat; its answer comes back after the switch below
    window.new_chat()
    assert meter.plan is None and meter.label.text() == "Context: measuring…"
    qtbot.waitUntil(lambda: meter.plan is not None, timeout=20_000)
    result = chats._draft_result
    assert result is not None and len(result.request.messages) == 1  # the new chat's turn: the message alone


def test_the_reply_is_in_the_history_while_it_streams(window: MainWindow, qtbot: QtBot) -> None:
    window.chats.set_sampling(GREEDY.with_values({"max_tokens": 2000}))  # more than the context: half is kept for it
    window.send("Write a very long story about a lighthouse keeper, at least ten paragraphs.")

    def partial_saved() -> bool:
        saved = rows("SELECT text, state FROM messages WHERE role = 'assistant'")
        return bool(saved) and saved[0][1] == "streaming" and len(saved[0][0]) > 10

    qtbot.waitUntil(partial_saved, timeout=30_000)
    with qtbot.waitSignal(window.replyFinished, timeout=30_000):
        window.stop_reply()
    qtbot.waitUntil(lambda: rows("SELECT state FROM messages WHERE role = 'assistant'") == [("stopped",)])
    [(text,)] = rows("SELECT text FROM messages WHERE role = 'assistant'")
    assert text == window.chat_view.messages()[-1].text


def test_a_reply_stopped_before_its_first_token_leaves_no_empty_message(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    def stopped_at_once(*_args: object, **_kwargs: object) -> Iterator[ReplyDone]:
        yield ReplyDone("", ReplyStats(prompt_tokens=12, stop_reason=StopReason.USER))

    monkeypatch.setattr(window.worker.backend, "stream_chat", stopped_at_once)
    reply_to(window, qtbot, "Hello?")
    qtbot.waitUntil(lambda: rows("SELECT role FROM messages") == [("user",)])
    assert [m.role for m in window.chats.session.shown_thread] == ["user"]


def test_search_narrows_the_list_and_delete_removes_the_chat(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    reply_to(window, qtbot, "Tell me about pastries.")
    pastries = window.chats.session.chat.id
    window.new_chat()
    reply_to(window, qtbot, "Tell me about trains.")
    sidebar = window.chats.sidebar
    qtbot.waitUntil(lambda: len(sidebar.chat_ids()) == 2, timeout=10_000)
    sidebar.search.setText("PASTRIES")
    qtbot.waitUntil(lambda: sidebar.chat_ids() == [pastries], timeout=10_000)
    monkeypatch.setattr(sidebar, "confirm_delete", lambda title: True)
    sidebar.delete(pastries)
    qtbot.waitUntil(lambda: sidebar.chat_ids() == [], timeout=10_000)
    assert rows("SELECT COUNT(*) FROM messages WHERE chat_id = ?", pastries) == [(0,)]


def test_closing_the_storage_first_saves_every_message_sent_before(qtbot: QtBot) -> None:
    paths = app_paths().ensure()
    storage = StorageThread(paths.chats_db, paths.settings_file)
    storage.open()
    chat = new_chat()
    storage.worker.saveChatRequested.emit(chat)
    parent = None
    for index in range(50):
        message = new_message(chat.id, "user", f"message {index}", parent)
        storage.worker.saveMessageRequested.emit(message)
        parent = message.id
    assert storage.shutdown()
    assert rows("SELECT COUNT(*) FROM messages") == [(50,)]


class Relay(QObject):
    """Receives a worker's signal on the GUI thread (qtbot's waitSignal must not run on the worker's)."""

    received = Signal(str)

    @Slot(str)
    def relay(self, text: str) -> None:
        self.received.emit(text)


def test_a_history_that_cannot_be_opened_is_reported_with_what_to_do(qtbot: QtBot, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    storage = StorageThread(blocker / "chats.sqlite3", tmp_path / "settings.json")
    relay = Relay()
    storage.worker.failed.connect(relay.relay)
    try:
        with qtbot.waitSignal(relay.received) as failed:
            storage.open()
        assert "could not be opened" in failed.args[0] and "writable" in failed.args[0]
        with qtbot.waitSignal(relay.received) as failed:
            storage.worker.saveChatRequested.emit(new_chat())
        assert "not open" in failed.args[0]
    finally:
        storage.shutdown()


def test_the_first_message_names_the_chat_in_the_list_and_the_window_title(window: MainWindow, qtbot: QtBot) -> None:
    reply_to(window, qtbot, "Plan a picnic for Sunday")
    qtbot.waitUntil(lambda: window.windowTitle() == "Plan a picnic for Sunday — Glassbox", timeout=10_000)
    [item] = window.chats.sidebar.list.findItems("Plan a picnic for Sunday", Qt.MatchFlag.MatchExactly)
    item.setText("Picnic")
    assert window.windowTitle() == "Picnic — Glassbox"
    qtbot.waitUntil(lambda: rows("SELECT title FROM chats") == [("Picnic",)], timeout=5_000)


@pytest.mark.expected_log("app.core.settings", logging.ERROR, "The settings file could not be read")
@pytest.mark.expected_log("app.errors", logging.WARNING, "The settings file could not be read")
def test_a_damaged_settings_file_is_reset_and_the_window_says_so(qtbot: QtBot, open_main_window: WindowOpener) -> None:
    paths = app_paths().ensure()
    paths.settings_file.write_text("{ this is not json")
    main = open_main_window()
    try:
        qtbot.waitUntil(lambda: "settings file could not be read" in main.error_banner.message(), timeout=10_000)
        assert main.chats.session.effective().sampling == Settings().sampling
    finally:
        main.close()


def test_a_reloaded_reply_has_the_footer_it_had_live_context_note_included(window: MainWindow, qtbot: QtBot) -> None:
    reply_to(window, qtbot, "Name a colour.")
    live = window.chat_view.messages()[-1].footer.text()
    assert "tokens" in live and f"/{N_CTX:,} (" in live
    chat_id = window.chats.session.chat.id
    window.new_chat()
    window.chats.open_chat(chat_id)
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=10_000)
    assert window.chat_view.messages()[-1].footer.text() == live


def test_a_reply_goes_on_in_its_own_chat_while_another_is_on_show_and_is_there_on_coming_back(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.chats.set_sampling(GREEDY.with_values({"max_tokens": 120}))
    window.send("Count from 1 to 100, one number per line.")
    writing = window.chats.session.chat.id
    qtbot.waitUntil(lambda: len(window.chats.replies.live_text()) > 3, timeout=60_000)

    window.new_chat()  # another chat on show: the reply is not stopped
    assert window.state.is_streaming and window.chat_view.messages() == [] and not window.chat_view.is_streaming
    qtbot.waitUntil(lambda: window.chats.sidebar.writing() == writing, timeout=10_000)
    window.chats.open_chat(writing)  # back while it still writes: the text so far, and it goes on growing
    qtbot.waitUntil(lambda: window.chat_view.is_streaming, timeout=10_000)
    shown_then = window.chat_view.live_text()
    assert shown_then and window.chats.replies.live_text().startswith(shown_then)

    window.new_chat()
    with qtbot.waitSignal(window.replyFinished, timeout=120_000) as finished:
        pass
    done: ReplyDone = finished.args[0]
    assert done.stats.stop_reason is not StopReason.USER and done.text.startswith(shown_then)
    assert window.chats.sidebar.writing() is None
    window.chats.open_chat(writing)
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=10_000)
    assert window.chat_view.messages()[1].text == done.text
    assert rows("SELECT state, text FROM messages WHERE role = 'assistant'") == [("complete", done.text)]


def test_deleting_the_chat_whose_reply_is_written_stops_the_reply_first(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.chats.set_sampling(GREEDY.with_values({"max_tokens": 120}))
    window.send("Count from 1 to 100, one number per line.")
    writing = window.chats.session.chat.id
    qtbot.waitUntil(lambda: len(window.chats.replies.live_text()) > 3, timeout=60_000)
    window.new_chat()
    qtbot.waitUntil(lambda: writing in window.chats.sidebar.chat_ids(), timeout=10_000)
    monkeypatch.setattr(window.chats.sidebar, "confirm_delete", lambda title: True)
    with qtbot.waitSignal(window.replyFinished, timeout=60_000) as finished:
        window.chats.sidebar.delete(writing)
    assert finished.args[0].stats.stop_reason is StopReason.USER
    qtbot.waitUntil(lambda: writing not in window.chats.sidebar.chat_ids(), timeout=10_000)
    assert rows("SELECT COUNT(*) FROM messages") == [(0,)]


def test_every_message_offers_its_actions_and_any_message_of_yours_is_edited_in_place(
    window: MainWindow, qtbot: QtBot
) -> None:
    reply_to(window, qtbot, "Name a colour.")
    reply_to(window, qtbot, "Name a fruit.")
    messages = window.chat_view.messages()
    assert set(messages[0].action_bar.buttons) == {"copy", "edit", "delete"}
    # not the last reply: no regenerate; every local reply keeps its replay record and can be replayed
    assert set(messages[1].action_bar.buttons) == {"copy", "replay", "delete"}
    assert set(messages[3].action_bar.buttons) == {"copy", "regenerate", "replay", "delete"}
    messages[1].action_bar.buttons["copy"].click()
    assert QGuiApplication.clipboard().text() == messages[1].text

    messages[0].action_bar.buttons["edit"].click()  # the first message, not only the last
    editor = messages[0].editor
    assert editor is not None and editor.toPlainText() == "Name a colour." and not messages[0].body.isVisible()
    qtbot.keyClick(editor, Qt.Key.Key_Escape)  # Esc puts it back
    assert messages[0].editor is None and messages[0].body.isVisible()

    messages[0].action_bar.buttons["edit"].click()
    editor = messages[0].editor
    assert editor is not None
    editor.setPlainText("Name an animal.")
    with qtbot.waitSignal(window.replyFinished, timeout=60_000):
        qtbot.keyClick(editor, Qt.Key.Key_Return)  # Enter continues from the new text, as a new branch
    thread = window.chats.session.shown_thread
    assert [m.text for m in thread][:1] == ["Name an animal."] and len(thread) == 2
    assert window.chat_view.messages()[0].versions.label.text() == "2/2"


def test_deleting_a_message_takes_those_after_it_and_undo_over_the_chat_brings_them_back(
    window: MainWindow, qtbot: QtBot
) -> None:
    reply_to(window, qtbot, "Name a colour.")
    reply_to(window, qtbot, "Name a fruit.")
    undo = window.chats.menus.undo
    assert undo.parentWidget() is window.chat_area.notices  # floats over the chat: it moves nothing
    window.chat_view.messages()[2].action_bar.buttons["delete"].click()
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 2, timeout=10_000)
    assert undo.isVisible() and undo.label.text() == "Message and the 1 message(s) after it deleted."
    assert rows("SELECT COUNT(*) FROM messages") == [(2,)]
    undo.undo_button.click()
    qtbot.waitUntil(lambda: len(window.chat_view.messages()) == 4, timeout=10_000)
    assert [m.text for m in window.chats.session.shown_thread][2] == "Name a fruit."
    assert rows("SELECT COUNT(*) FROM messages") == [(4,)]
    assert not undo.isVisible()


def test_opening_the_chat_history_sweeps_the_images_an_earlier_run_prepared_and_never_sent() -> None:
    paths = app_paths().ensure()
    stray = prepared_picture()  # attached, then the window was killed
    two_hours_ago = time.time() - 2 * 3600
    os.utime(stray, (two_hours_ago, two_hours_ago))
    storage = StorageThread(paths.chats_db, paths.settings_file)
    storage.open()
    assert storage.shutdown()  # the close waits for the requests sent before it: the open ran
    assert not stray.exists()
