"""An empty chat says what the model on duty is: the starter is a tiny demo; a load shows its progress."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.inference.engine import Engine
from app.core.state import AppState
from app.core.types.load import LoadConfig, LoadReport
from app.ui.chat.view import ChatView
from app.ui.chat.welcome import WelcomeState
from app.ui.llm.worker import LlmWorker
from app.ui.state_signals import StateSignals

STARTER = Path("/models/SmolLM2-135M-Instruct.Q4_1.gguf")
OTHER = Path("/models/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf")


@pytest.fixture
def worker() -> LlmWorker:
    """Its signals are emitted by the tests (no thread, no model)."""
    return LlmWorker(LocalBackend(InProcessEngine(Engine())))


@pytest.fixture
def state() -> StateSignals:
    return StateSignals(AppState())


@pytest.fixture
def welcome(view: ChatView, state: StateSignals, worker: LlmWorker) -> WelcomeState:
    widget = WelcomeState(state, worker, starter=STARTER)
    view.set_empty_state(widget)
    return widget


def loaded(state: StateSignals, path: Path) -> None:
    config = LoadConfig(path)
    state.state.load_started(config)
    state.state.load_finished(LoadReport(config))


def shown_text(welcome: WelcomeState) -> str:
    labels = (welcome.title, welcome.stage, welcome.starter_note, welcome.hint)
    return "\n".join(label.text() for label in labels if label.isVisible())


def test_with_the_starter_model_an_empty_chat_says_it_is_a_tiny_demo_and_offers_a_better_model(
    welcome: WelcomeState, state: StateSignals, qtbot: QtBot
) -> None:
    loaded(state, STARTER)
    assert welcome.isVisible()
    text = shown_text(welcome)
    assert "tiny demo with 135 million parameters" in text
    assert "fine for trying the app, but too small for real answers" in text
    assert welcome.better_button.isVisible() and welcome.better_button.text() == "&Get a better model"
    with qtbot.waitSignal(welcome.betterModelRequested, timeout=1000):
        welcome.better_button.click()


def test_with_another_model_an_empty_chat_names_it_and_says_to_type_without_the_demo_text(
    welcome: WelcomeState, state: StateSignals
) -> None:
    loaded(state, OTHER)
    assert welcome.isVisible()
    assert welcome.title.text() == OTHER.name
    assert "Type a message below" in welcome.hint.text()
    assert "demo" not in shown_text(welcome)
    assert not welcome.better_button.isVisible()


def test_the_welcome_goes_with_the_first_message_and_comes_back_in_a_new_chat(
    welcome: WelcomeState, view: ChatView, state: StateSignals
) -> None:
    loaded(state, STARTER)
    view.add_message("user", "Hello")
    assert not welcome.isVisible()
    view.clear()  # another chat, an empty one
    assert welcome.isVisible()
    view.begin_reply()  # a reply streams in a chat with no message shown yet
    assert not welcome.isVisible()


def test_while_a_model_loads_the_chat_shows_the_stage_and_the_progress_then_the_model(
    welcome: WelcomeState, state: StateSignals, worker: LlmWorker
) -> None:
    config = LoadConfig(OTHER)
    state.state.load_started(config)
    worker.loadStarted.emit(config)
    assert welcome.title.text() == f"Loading {OTHER.name}…"
    assert welcome.progress.isVisible() and welcome.progress.maximum() == 0  # busy until the weights load
    worker.loadStage.emit("hash check")
    assert welcome.stage.text() == "Checking the file's hash"
    worker.loadStage.emit("load weights")
    worker.loadProgress.emit(0.42)
    assert welcome.stage.text() == "Loading the weights"
    assert (welcome.progress.maximum(), welcome.progress.value()) == (100, 42)
    state.state.load_finished(LoadReport(config))
    assert not welcome.progress.isVisible() and not welcome.stage.isVisible()
    assert welcome.title.text() == OTHER.name


def test_the_starter_loading_already_says_what_it_is(welcome: WelcomeState, state: StateSignals) -> None:
    state.state.load_started(LoadConfig(STARTER))
    assert welcome.progress.isVisible()
    assert "tiny demo" in shown_text(welcome)


def test_a_failed_load_is_said_in_a_line_and_the_next_load_clears_it(
    welcome: WelcomeState, state: StateSignals, worker: LlmWorker
) -> None:
    state.state.load_started(LoadConfig(OTHER))
    state.state.load_failed()
    worker.loadFailed.emit(f"Cannot use model file {OTHER}: this is not a GGUF file")
    assert welcome.title.text() == "The model could not be loaded"
    assert "The message above says why" in welcome.hint.text()
    assert not welcome.progress.isVisible()
    state.state.load_started(LoadConfig(OTHER))
    assert welcome.title.text() == f"Loading {OTHER.name}…"


def test_a_cancelled_load_is_not_called_a_failure(welcome: WelcomeState, state: StateSignals) -> None:
    state.state.load_started(LoadConfig(OTHER))
    state.state.load_failed()  # what the window does on a cancel too; the worker sent loadCancelled, not loadFailed
    assert welcome.title.text() == "No model loaded"
