"""A turn: its steps in order, its one stop flag, its one end event."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from app.core.support.formatting import fill
from app.core.support.stop_flag import StopFlag
from app.core.support.user_text import N_
from app.core.turn.events import TurnSink
from app.core.turn.steps import TurnFailed, TurnState, TurnStep
from app.core.types.replies import ReplyDone
from app.core.types.stats import ReplyStats, StopReason

log = logging.getLogger(__name__)


class Turn:
    """One user turn. `stop` may be set from any thread at any time; `run` runs the steps on the
    caller's thread and always ends with exactly one `finished` or `failed` on the sink.

    A Stop before a step ends the turn there, as a reply stopped with what it has written
    (nothing, before generation; the reasoning as reasoning, inside a thinking model's block): the
    sink gets `finished` with stop reason USER. `failed` carries the answer so far; the reasoning so
    far stays in `state.reasoning`.
    """

    def __init__(self, steps: Sequence[TurnStep], state: TurnState, sink: TurnSink) -> None:
        self.steps = tuple(steps)
        self.state = state
        self.sink = sink
        self.stop = StopFlag()

    def run(self) -> None:
        state, sink = self.state, self.sink
        step_name = ""
        try:
            for step in self.steps:
                if self.stop.is_set() or state.done is not None:
                    break
                step_name = step.name
                sink.step_started(step_name)
                step.run(state, self.stop, sink)
        except TurnFailed as error:
            sink.failed(state.partial, error.message)
            return
        except Exception as error:  # whatever a step did not expect: the turn still ends, and says where
            log.exception("The turn failed in its %s step", step_name)
            sink.failed(
                state.partial, fill(N_("The reply failed unexpectedly ({step}): {error}"), step=step_name, error=error)
            )
            return
        if state.done is not None:
            sink.finished(state.done)
        elif self.stop.is_set():
            stopped = ReplyStats(stop_reason=StopReason.USER)
            sink.finished(ReplyDone(state.partial, stopped, reasoning=state.reasoning.strip()))
        else:
            sink.failed(state.partial, N_("The reply ended without saying how it ended."))
