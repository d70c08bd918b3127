"""The window's path of the `streaming` bench runs in a real main window of its own."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from app.bench.gui_stream import GuiStreamProbe
from app.core.inference.sampling import GREEDY
from app.core.types.load import LoadConfig, Speculative
from app.core.types.messages import ChatMessage

MESSAGE = [ChatMessage("user", "Tell me about the sea.")]


@pytest.mark.parametrize("draw", [True, False])
def test_the_whole_window_answers_the_message_and_its_reply_is_measured_against_llama_cpp(
    qapp: object, starter_model: Path, draw: bool
) -> None:
    home_before = os.environ["GLASSBOX_HOME"]
    config = LoadConfig(starter_model, n_ctx=1024, n_threads=2, speculative=Speculative.OFF)
    probe = GuiStreamProbe(config, MESSAGE, replace(GREEDY, max_tokens=12), draw)
    try:
        home = Path(os.environ["GLASSBOX_HOME"])
        assert home != Path(home_before)  # the window's settings and chats are its own
        measured = probe.measure()
        window = probe._window
        assert window.state.loaded_model is not None and window.state.loaded_model.name == starter_model.name
        assert measured.tokens_per_s > 0
        assert measured.llama.eval_tokens == 11  # llama.cpp's count for this reply, in the engine process
        assert measured.process_cpu_us_per_token is not None and measured.process_cpu_us_per_token > 0
        reply = window.chat_view.messages()[-1]
        assert reply.role == "assistant" and reply.text.strip()  # rendered, drawn while streaming or not
        assert reply.body.toPlainText().strip()
    finally:
        probe.close()
    assert os.environ["GLASSBOX_HOME"] == home_before
    assert not home.exists()
