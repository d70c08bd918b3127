"""The decoding explorer in the window, on the starter model: the chat's decoding mode, Compare,
forks from the token view saved as versions, and the replay record of every reply with Replay."""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.backends.local import session as session_module
from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.inference import replay, token_probs
from app.core.inference.decoding_mode import DecodingMode
from app.core.inference.engine import Engine
from app.core.inference.replay import ReplayReport
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.memory.fit import Machine
from app.core.paths import app_paths
from app.core.settings import ModelSettings, Settings, save_settings
from app.core.types.messages import ChatMessage
from app.core.types.replies import final_reply
from app.core.types.token_trace import TokenTrace
from app.ui.glass.fork_links import fork_link
from app.ui.glass.token_view import TokenReplyView
from app.ui.llm.worker import LlmThread, LlmWorker
from app.ui.shell.main_window import MainWindow
from tests.helpers.windows import WindowOpener

SAMPLED = SamplingParams(temperature=0.9, max_tokens=10)  # a random seed for every reply
REPLY_MS = 120_000


pytestmark = pytest.mark.window(settings=Settings(sampling=SAMPLED, model=ModelSettings(n_ctx=1024)))


def reply_to(window: MainWindow, qtbot: QtBot, text: str) -> None:
    with qtbot.waitSignal(window.replyFinished, timeout=REPLY_MS):
        window.send(text)


def test_greedy_mode_answers_with_the_greedy_tokens(window: MainWindow, qtbot: QtBot, engine: Engine) -> None:
    window.chats.settings_panel.sampling.decoding_box.choose(DecodingMode.GREEDY)
    reply_to(window, qtbot, "Name three colours.")
    reply = window.chats.session.shown_thread[-1]
    conversation = [ChatMessage(m.role, m.content) for m in window.chats.session.conversation()[:-1]]
    engine.llama.reset()
    expected = final_reply(engine.stream_chat(conversation, replace(GREEDY, max_tokens=10), threading.Event()))
    assert reply.text == expected.text
    assert [step["name"] for step in reply.stats[replay.STATS_KEY]["sampler_chain"]] == ["greedy"]
    assert reply.settings["decoding"]["mode"] == "greedy"  # what the reply was made with stays beside it


def test_a_reply_keeps_its_replay_record_in_the_history_and_export_and_replays_identically(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    reply_to(window, qtbot, "Tell me about foxes.")
    reply = window.chats.session.shown_thread[-1]
    record = reply.stats[replay.STATS_KEY]
    assert record["seed"] is not None and record["model_sha256"] and record["prompt_sha256"]
    assert [step["name"] for step in record["sampler_chain"]] == ["penalties", "top_k", "top_p", "min_p",
                                                                  "temperature", "draw"]  # fmt: skip

    export = tmp_path / "chat.json"
    with qtbot.waitSignal(window.chats.session.exported, timeout=10_000):
        window.chats.session.export_chat(window.chats.session.chat.id, "json", str(export))
    exported = json.loads(export.read_text(encoding="utf-8"))
    assert record in [m["stats"].get(replay.STATS_KEY) for m in exported["messages"]]

    widget = window.chat_view.messages()[-1]
    with qtbot.waitSignal(window.decoding.replayReported, timeout=REPLY_MS) as reported:
        widget.action_bar.buttons["replay"].click()
    report: ReplayReport = reported.args[1]
    assert report.identical, report.summary
    assert "Identical" in window.error_banner.message()


def test_a_fork_from_the_token_view_keeps_the_prefix_forces_the_token_and_is_a_new_version(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.chats.set_sampling(replace(GREEDY, max_tokens=12))
    window.glass.token_action.setChecked(True)
    reply_to(window, qtbot, "Name three colours.")
    original = window.chats.session.shown_thread[-1]
    steps = TokenTrace.from_dict(original.stats[token_probs.STATS_KEY]).steps
    view = window.chat_view.messages()[-1].findChild(TokenReplyView)
    assert view is not None
    position = 2
    view.pin(position)
    [forced, *_] = [a.token_id for a in steps[position].alternatives if a.token_id != steps[position].token_id]
    with qtbot.waitSignal(window.replyFinished, timeout=REPLY_MS):
        view.detail.linkActivated.emit(fork_link(position, forced))  # a click on the alternative

    fork = window.chats.session.shown_thread[-1]
    assert fork.id != original.id and fork.parent_id == original.parent_id
    forked = TokenTrace.from_dict(fork.stats[token_probs.STATS_KEY]).steps
    assert [s.token_id for s in forked[:position]] == [s.token_id for s in steps[:position]]
    assert forked[position].token_id == forced
    assert fork.text.startswith("".join(s.text for s in steps[:position]))
    assert fork.stats["cached_prompt_tokens"] >= fork.stats["prompt_tokens"] - 1  # the prefix came from the cache
    arrows = window.chat_view.messages()[-1].versions
    assert arrows.isVisibleTo(window) and arrows.label.text() == "2/2"
    window.chats.session.show_version(fork.id, -1)  # the original is one ◀ away
    qtbot.waitUntil(lambda: window.chat_view.messages()[-1].key == original.id, timeout=10_000)


def test_compare_shows_greedy_beam_search_and_sampled_replies_side_by_side(window: MainWindow, qtbot: QtBot) -> None:
    reply_to(window, qtbot, "Name a fruit.")
    [action] = [a for a in window.chat_menu.actions() if a.text() == "Compare &decoding…"]
    action.trigger()
    dialog = window.decoding.compare_dialog
    assert dialog.isVisible() and window.decoding.compare_button.isEnabled()
    dialog.tokens_box.setValue(6)
    dialog.width_box.setValue(2)
    dialog.seeds_box.setValue(2)
    dialog.run_button.click()
    assert not window.decoding.compare_button.isEnabled()  # one comparison at a time
    qtbot.waitUntil(dialog.run_button.isEnabled, timeout=REPLY_MS)
    labels = [result.label for result in dialog.results]
    assert labels == ["greedy", "beam width 2", "sampled, seed 1", "sampled, seed 2"]
    assert dialog.table.rowCount() == 4 and all(0 < r.length <= 6 for r in dialog.results)
    assert "4 strategies compared" in dialog.status.text()
    assert window.decoding.compare_button.isEnabled()

    dialog.tokens_box.setValue(200)
    dialog.run_button.click()
    dialog.stop_button.click()  # Stop: the strategy running ends at its next token, the others do not start
    qtbot.waitUntil(dialog.run_button.isEnabled, timeout=REPLY_MS)
    assert len(dialog.results) < 4


@pytest.mark.expected_log("app.errors", logging.ERROR, r"Beam width 8 needs")
def test_a_beam_width_that_does_not_fit_is_refused_with_the_reason_and_one_that_fits_answers(
    open_main_window: WindowOpener, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_settings(app_paths().ensure().settings_file, Settings(sampling=SAMPLED, model=ModelSettings(n_ctx=1024)))
    # the engine runs in this process, so the machine it measures can be made small
    window = open_main_window(llm=LlmThread(LlmWorker(LocalBackend(link=InProcessEngine()))))
    try:
        real = session_module.machine_now
        monkeypatch.setattr(session_module, "machine_now", lambda: Machine(None, 64 * 1024 * 1024, 0))
        window.chats.settings_panel.sampling.decoding_box.choose(DecodingMode.BEAM, width=8)
        window.send("Name three colours.")
        qtbot.waitUntil(lambda: "Beam width 8 needs" in window.error_banner.message(), timeout=REPLY_MS)
        qtbot.waitUntil(lambda: window.state.can_send, timeout=10_000)
        assert "of RAM for its KV cache" in window.error_banner.message()
        assert [m.role for m in window.chats.session.shown_thread] == ["user"]  # no empty reply is left

        monkeypatch.setattr(session_module, "machine_now", real)
        window.chats.settings_panel.sampling.decoding_box.choose(DecodingMode.BEAM, width=2, keep=2)
        with qtbot.waitSignal(window.replyFinished, timeout=REPLY_MS):
            window.chats.regenerate()
        reply = window.chats.session.shown_thread[-1]
        assert reply.role == "assistant" and reply.text
        assert len(reply.stats["beam"]["hypotheses"]) == 2
        assert "Beam search, width 2" in " ".join(
            label.text() for label in window.chat_view.messages()[-1].findChildren(type(window.status_label))
        )
    finally:
        window.close()
