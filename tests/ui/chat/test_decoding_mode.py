"""The chat's decoding mode: Sampling, Greedy or Beam search in the settings panel, saved with the chat,
and what the LLM worker is asked for in each."""

from __future__ import annotations

import logging

import pytest
from pytestqt.qtbot import QtBot

from app.core.inference.beam_search import BeamSettings
from app.core.inference.decoding_mode import DecodingMode, DecodingSettings
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.settings import ChatSettings
from app.core.types.messages import ChatMessage
from app.ui.chat.decoding_mode import reply_request
from app.ui.chat.settings_panel import SettingsPanel
from app.ui.llm.decoding_replies import ForkSpec
from app.ui.settings.store import SettingsStore

SAMPLING = SamplingParams(temperature=0.9, max_tokens=40, stop=("END",))
HELLO = [ChatMessage("user", "Hello")]


@pytest.fixture
def panel(qtbot: QtBot) -> SettingsPanel:
    widget = SettingsPanel(SettingsStore())
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_sampling_is_the_default_and_the_beam_fields_show_only_for_beam_search(panel: SettingsPanel) -> None:
    box = panel.sampling.decoding_box
    assert box.mode_box.currentData() == "sampling"
    assert [box.mode_box.itemText(i) for i in range(box.mode_box.count())] == ["Sampling", "Greedy", "Beam search"]
    assert not box.width_box.isVisible()
    box.choose(DecodingMode.BEAM)
    assert box.width_box.isVisible() and box.alpha_box.isVisible() and box.keep_box.isVisible()
    assert (box.width_box.minimum(), box.width_box.maximum()) == (2, 8)
    assert "refused" in box.explanation.text()


def test_choosing_a_mode_applies_to_this_chat_and_is_saved_with_its_settings(
    panel: SettingsPanel, qtbot: QtBot
) -> None:
    with qtbot.waitSignal(panel.store.chatEdited) as edited:
        panel.sampling.decoding_box.choose(DecodingMode.BEAM, width=6, alpha=0.5, keep=3)
    chat = edited.args[0]
    assert chat.decoding == DecodingSettings(DecodingMode.BEAM, width=6, alpha=0.5, keep=3)
    assert ChatSettings.from_dict(chat.to_dict()) == chat  # what the chat store keeps
    with qtbot.waitSignal(panel.store.chatEdited) as edited:
        panel.sampling.decoding_box.choose(DecodingMode.GREEDY)
    assert edited.args[0].decoding.mode is DecodingMode.GREEDY
    assert edited.args[0].decoding.width == 6  # the beam values wait for the next beam search
    panel.store.show_chat(ChatSettings())
    assert panel.sampling.decoding_box.mode_box.currentData() == "sampling"  # another chat shows its own mode


def test_keeping_more_hypotheses_than_beams_keeps_as_many_as_the_width(panel: SettingsPanel, qtbot: QtBot) -> None:
    with qtbot.waitSignal(panel.store.chatEdited) as edited:
        panel.sampling.decoding_box.choose(DecodingMode.BEAM, width=3, keep=7)
    assert edited.args[0].decoding.keep == 3


@pytest.mark.expected_log("app.core.inference.decoding_mode", logging.WARNING, r"Decoding settings dropped")
def test_a_saved_mode_that_cannot_run_falls_back_to_sampling_and_says_why_in_the_log() -> None:
    assert ChatSettings.from_dict({"decoding": {"mode": "beam", "width": 30}}).decoding == DecodingSettings()
    assert ChatSettings.from_dict({"decoding": {"mode": "telepathy"}}).decoding == DecodingSettings()
    assert ChatSettings.from_dict({}).decoding == DecodingSettings()


def test_each_mode_asks_the_worker_for_its_own_kind_of_reply() -> None:
    sampled = reply_request(HELLO, SAMPLING, DecodingSettings())
    assert (sampled.params, sampled.beam, sampled.fork) == (SAMPLING, None, None)

    greedy = reply_request(HELLO, SAMPLING, DecodingSettings(DecodingMode.GREEDY))
    assert greedy.params.temperature == 0 and greedy.params.repeat_penalty == GREEDY.repeat_penalty
    assert (greedy.params.max_tokens, greedy.params.stop) == (40, ("END",))  # the chat's limit and stops stay

    beam = reply_request(HELLO, SAMPLING, DecodingSettings(DecodingMode.BEAM, width=5, alpha=0.2, keep=2))
    assert beam.beam == BeamSettings(width=5, alpha=0.2, keep=2, max_new_tokens=40)

    fork = ForkSpec((1, 2, 3), 1, 9)
    forked = reply_request(HELLO, SAMPLING, DecodingSettings(DecodingMode.BEAM), fork)
    assert forked.fork == fork and forked.beam is None  # a fork goes on token by token
