"""The engine process runs each job through one table of operations; an unknown job is an error, not an Unload."""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

from app.core.backends.local import host, wire
from app.core.backends.local.process import EngineService
from app.core.support.child_host import Aborts, run_job
from app.core.support.child_messages import Failed, Finished, Job


def test_every_kind_of_work_the_wire_carries_has_an_operation() -> None:
    assert set(host.OPERATIONS) == set(typing.get_args(wire.Work))


@dataclass(frozen=True)
class Rewind:
    """A job kind the engine was never taught (a new operation whose entry was forgotten)."""


class RecordingSession:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def run(session: Any, work: object) -> list[object]:
    sent: list[object] = []
    run_job(EngineService(), session, Job(7, work), Aborts(), sent.append)
    return sent


def test_an_unknown_operation_fails_naming_it_and_leaves_the_model_loaded() -> None:
    session = RecordingSession()
    [failed] = run(session, Rewind())
    assert isinstance(failed, Failed) and failed.job == 7
    assert isinstance(failed.error, wire.ErrorInfo) and failed.error.kind == "engine"
    assert "Rewind" in failed.error.message
    assert not session.closed


def test_a_known_operation_answers_with_its_result() -> None:
    session = RecordingSession()
    assert run(session, wire.CountTokens("three small words")) == [Finished(7, 3)]
    assert run(session, wire.Unload()) == [Finished(7, None)] and session.closed
