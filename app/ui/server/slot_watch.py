"""What each of the engine's parallel slots is doing, asked for on a thread of its own while the server runs.

The Server panel asks every `LOOK_MS` (one question at a time); the engine answers beside the
replies it writes (LocalBackend.slot_states), so a look never waits for a reply. The answer
reaches the panel through a queued signal, and `describe` turns it into the lines it shows.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import EngineCrashed
from app.core.support.formatting import fill
from app.core.types.errors import EngineError
from app.core.types.slot_state import SlotState, SlotWork
from app.ui.threads import WorkerThread

log = logging.getLogger(__name__)

LOOK_MS = 500


class SlotLooker(QObject):
    """Lives in the watch's thread: asks the backend, answers with `seen`."""

    lookRequested = Signal(object)  # the LocalBackend to ask
    seen = Signal(object)  # tuple[SlotState, ...]

    def __init__(self) -> None:
        super().__init__()
        self.lookRequested.connect(self._look)

    @Slot(object)
    def _look(self, backend: LocalBackend) -> None:
        try:
            states = backend.slot_states()
        except (EngineCrashed, EngineError) as error:  # the model went away: nothing to show
            log.info("The slots could not be looked at: %s", error)
            states = ()
        self.seen.emit(states)


class SlotWatch:
    """The looker's thread; `look` asks once unless a look is still out (its owner calls `answered` when
    `looker.seen` reaches it)."""

    def __init__(self) -> None:
        self.looker = SlotLooker()
        self.thread = WorkerThread(self.looker, "server-slots")
        self._out = False
        self.thread.start()

    def look(self, backend: LocalBackend) -> None:
        if not self._out:
            self._out = True
            self.looker.lookRequested.emit(backend)

    def answered(self) -> None:
        self._out = False

    def close(self) -> None:
        """End the thread (a look in progress is answered by the engine within its next step)."""
        self.thread.request_stop()
        self.thread.wait()


def describe(state: SlotState) -> str:
    """One slot's line, e.g. "Slot 1: writing, 35 of at most 200 tokens (prompt 420, 400 of them cached)"."""
    translate = QCoreApplication.translate
    if state.work is SlotWork.IDLE:
        text = translate("SlotWatch", "Slot {slot}: free, {cached} tokens cached")
        return fill(text, slot=state.slot, cached=state.cached)
    if state.work is SlotWork.READING:
        return fill(
            translate("SlotWatch", "Slot {slot}: reading the prompt, {read} of {prompt} tokens"),
            slot=state.slot,
            read=state.read,
            prompt=state.prompt_tokens,
        )
    return fill(
        translate("SlotWatch", "Slot {slot}: writing, {written} of at most {limit} tokens (prompt {prompt})"),
        slot=state.slot,
        written=state.written,
        limit=state.max_tokens,
        prompt=state.prompt_tokens,
    )
