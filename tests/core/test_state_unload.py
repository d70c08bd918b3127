"""Unloading the model on purpose (idle unload, the user's Unload): none on duty, only while nothing runs."""

from __future__ import annotations

from app.core.state import AppState, Change, Phase
from tests.core.test_state import SMALL, loaded


def test_an_unloaded_model_is_no_longer_on_duty_and_the_next_load_is_an_ordinary_one() -> None:
    state = AppState()
    changes: list[Change] = []
    state.subscribe(changes.append)
    loaded(state)

    assert state.model_unloaded()
    assert state.phase is Phase.IDLE and state.loaded_model is None and not state.can_send
    assert changes[-1] is Change.MODEL_UNLOADED
    assert not state.model_unloaded()  # nothing left to unload

    assert state.load_started(SMALL) and state.is_loading


def test_a_model_busy_with_a_reply_or_a_load_is_not_unloaded() -> None:
    state = AppState()
    loaded(state)
    state.reply_started()
    assert not state.model_unloaded() and state.loaded_model is not None
    state.reply_ended()
    state.load_started(SMALL)
    assert not state.model_unloaded()
