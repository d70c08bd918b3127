"""The application state: one phase at a time, the model on duty, the chat on show, changes told to listeners."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.state import AppState, Change, Phase
from app.core.types.load import LoadConfig, LoadReport

SMALL = LoadConfig(Path("/models/small.gguf"), n_ctx=2048)
LARGE = LoadConfig(Path("/models/large.gguf"), n_ctx=8192)


@pytest.fixture
def changes() -> list[Change]:
    return []


@pytest.fixture
def state(changes: list[Change]) -> AppState:
    fresh = AppState()
    fresh.subscribe(changes.append)
    return fresh


def loaded(state: AppState, config: LoadConfig = SMALL) -> LoadReport:
    report = LoadReport(config)
    state.load_started(config)
    state.load_finished(report)
    return report


def test_a_new_state_is_idle_without_a_model_or_a_chat(state: AppState) -> None:
    assert state.phase is Phase.IDLE
    assert state.loaded_model is None and state.loaded_config is None and state.load_report is None
    assert state.chat_id is None
    assert not state.can_send and not state.is_loading and not state.is_streaming and not state.is_closing


def test_a_load_gives_up_the_model_on_duty_until_its_report_arrives(state: AppState, changes: list[Change]) -> None:
    loaded(state, SMALL)
    state.load_started(LARGE)
    assert state.is_loading and state.loaded_model is None and state.loading_config == LARGE
    assert not state.can_send
    report = LoadReport(LARGE)
    assert state.load_finished(report)
    assert state.phase is Phase.IDLE and state.load_report is report
    assert state.loaded_config == LARGE and state.loaded_model == Path("/models/large.gguf")
    assert state.loading_config is None and state.can_send
    assert changes == [Change.LOAD_STARTED, Change.MODEL_LOADED, Change.LOAD_STARTED, Change.MODEL_LOADED]


def test_a_failed_load_leaves_no_model_on_duty(state: AppState, changes: list[Change]) -> None:
    loaded(state)
    state.load_started(LARGE)
    assert state.load_failed()
    assert state.phase is Phase.IDLE and state.loaded_model is None and not state.can_send
    assert changes[-1] is Change.LOAD_FAILED


def test_a_lost_engine_leaves_no_model_on_duty_once(state: AppState, changes: list[Change]) -> None:
    loaded(state)
    state.reply_started()
    state.reply_ended()
    assert state.model_lost()
    assert state.phase is Phase.IDLE and state.loaded_model is None and not state.can_send
    assert changes[-1] is Change.MODEL_LOST
    assert not state.model_lost()  # nothing left to lose


def test_an_engine_lost_during_a_load_is_the_load_s_to_report(state: AppState, changes: list[Change]) -> None:
    state.load_started(SMALL)
    assert not state.model_lost()
    assert state.is_loading and changes == [Change.LOAD_STARTED]


def test_loads_finish_in_order_so_the_last_report_holds(state: AppState) -> None:
    state.load_started(SMALL)
    state.load_started(LARGE)
    state.load_finished(LoadReport(SMALL))
    last = LoadReport(LARGE)
    state.load_finished(last)
    assert state.load_report is last and state.phase is Phase.IDLE


def test_a_reply_streams_only_with_a_model_and_nothing_else_running(state: AppState, changes: list[Change]) -> None:
    assert not state.reply_started()  # no model yet
    state.load_started(SMALL)
    assert not state.reply_started()  # still loading
    state.load_finished(LoadReport(SMALL))
    assert state.reply_started()
    assert state.is_streaming and not state.can_send
    assert not state.reply_started()  # one reply at a time
    assert state.reply_ended()
    assert state.phase is Phase.IDLE and state.can_send
    assert changes[-2:] == [Change.REPLY_STARTED, Change.REPLY_ENDED]


def test_a_reply_ends_once(state: AppState, changes: list[Change]) -> None:
    loaded(state)
    state.reply_started()
    state.reply_ended()
    told = len(changes)
    assert not state.reply_ended()
    assert len(changes) == told


def test_a_load_asked_for_while_a_reply_streams_starts_when_the_reply_ends(
    state: AppState, changes: list[Change]
) -> None:
    loaded(state, SMALL)
    state.reply_started()
    assert state.load_started(LARGE)
    assert state.is_streaming and state.loaded_config == SMALL and state.loading_config == LARGE
    assert not state.load_failed()  # a failure cannot be this load's: it has not begun
    state.reply_ended()
    assert state.is_loading and state.loaded_model is None and state.loading_config == LARGE
    assert changes[-2:] == [Change.REPLY_ENDED, Change.LOAD_STARTED]


def test_opening_a_chat_is_told_once_per_chat(state: AppState, changes: list[Change]) -> None:
    assert state.chat_opened("a")
    assert not state.chat_opened("a")
    assert state.chat_opened("b")
    assert state.chat_id == "b"
    assert changes == [Change.CHAT_OPENED, Change.CHAT_OPENED]


def test_after_closing_every_transition_is_ignored(state: AppState, changes: list[Change]) -> None:
    loaded(state)
    state.reply_started()
    assert state.closing()
    assert state.is_closing and not state.is_streaming and not state.can_send
    told = len(changes)
    assert not state.closing()
    assert not state.reply_ended()
    assert not state.load_started(LARGE)
    assert not state.load_finished(LoadReport(LARGE))
    assert not state.load_failed()
    assert not state.chat_opened("later")
    assert state.phase is Phase.CLOSING and state.loaded_config == SMALL
    assert len(changes) == told and changes[-1] is Change.CLOSING


def test_listeners_hear_every_change_in_the_order_they_subscribed(state: AppState) -> None:
    heard: list[tuple[str, Change, Phase]] = []
    state.subscribe(lambda change: heard.append(("first", change, state.phase)))
    state.subscribe(lambda change: heard.append(("second", change, state.phase)))
    state.load_started(SMALL)
    assert heard == [("first", Change.LOAD_STARTED, Phase.LOADING), ("second", Change.LOAD_STARTED, Phase.LOADING)]
