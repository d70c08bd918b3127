"""The application's state: which model is on duty, what runs now (a load, a reply), which chat is on show.

Qt-free, so the window, the CLI and tests share one picture. Whoever drives the work (the
window, on its worker's signals) calls the transitions; whoever shows it subscribes and
hears each change as a plain callback.

A transition that does not fit the phase changes nothing and returns False: a late
signal (a load that ends while the window closes, a second "reply ended") is harmless.
The one exception is a load asked for while a reply streams: the LLM worker does it after
the reply, so the state keeps it queued and starts loading when the reply ends.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only: the state does not need llama.cpp to be importable
    from app.core.types.load import LoadConfig, LoadReport


class Phase(Enum):
    IDLE = "idle"  # nothing runs; a model may be loaded or not
    LOADING = "loading"
    STREAMING = "streaming"  # a reply is being written
    CLOSING = "closing"  # the app is shutting down; every later transition is ignored


class Change(Enum):
    """What a listener is told: the transition that just happened."""

    LOAD_STARTED = "load started"
    MODEL_LOADED = "model loaded"
    LOAD_FAILED = "load failed"
    MODEL_LOST = "model lost"
    MODEL_UNLOADED = "model unloaded"
    REPLY_STARTED = "reply started"
    REPLY_ENDED = "reply ended"
    CHAT_OPENED = "chat opened"
    CLOSING = "closing"


Listener = Callable[[Change], None]


class AppState:
    def __init__(self) -> None:
        self._phase = Phase.IDLE
        self._report: LoadReport | None = None  # the load of the model on duty
        self._loading: LoadConfig | None = None  # the load running now
        self._queued: LoadConfig | None = None  # a load asked for while a reply streams
        self._chat_id: str | None = None
        self._listeners: list[Listener] = []

    # ---- queries -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def load_report(self) -> LoadReport | None:
        """How the model on duty was loaded; None while none is (also during a load)."""
        return self._report

    @property
    def loaded_config(self) -> LoadConfig | None:
        return self._report.config if self._report is not None else None

    @property
    def loaded_model(self) -> Path | None:
        return Path(self._report.config.model_path) if self._report is not None else None

    @property
    def loading_config(self) -> LoadConfig | None:
        """The load running now, else the one waiting for the reply to end."""
        return self._loading or self._queued

    @property
    def chat_id(self) -> str | None:
        return self._chat_id

    @property
    def is_loading(self) -> bool:
        return self._phase is Phase.LOADING

    @property
    def is_streaming(self) -> bool:
        return self._phase is Phase.STREAMING

    @property
    def is_closing(self) -> bool:
        return self._phase is Phase.CLOSING

    @property
    def can_send(self) -> bool:
        """A model is loaded and nothing runs: a reply can start (and a prompt can be planned)."""
        return self._phase is Phase.IDLE and self._report is not None

    # ---- listeners -----------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` after every change, in the order of subscription."""
        self._listeners.append(listener)

    def _tell(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    # ---- transitions ---------------------------------------------------------------

    def load_started(self, config: LoadConfig) -> bool:
        """A load was asked for. The model on duty is given up; while a reply streams the load waits for its end."""
        if self._phase is Phase.CLOSING:
            return False
        if self._phase is Phase.STREAMING:
            self._queued = config
            return True
        self._start_loading(config)
        return True

    def load_finished(self, report: LoadReport) -> bool:
        """A model is on duty. Loads finish in the order they were asked, so the last report always holds."""
        if self._phase is Phase.CLOSING:
            return False
        self._report = report
        if self._phase is Phase.LOADING:
            self._loading = None
            self._phase = Phase.IDLE
        self._tell(Change.MODEL_LOADED)
        return True

    def load_failed(self) -> bool:
        """The load did not give a model: none is on duty (ignored while a reply streams or the app closes)."""
        if self._phase in (Phase.STREAMING, Phase.CLOSING):
            return False
        self._loading = None
        self._report = None
        self._phase = Phase.IDLE
        self._tell(Change.LOAD_FAILED)
        return True

    def model_lost(self) -> bool:
        """The engine that held the model ended (it crashed): none is on duty. A load reports its own end."""
        if self._phase in (Phase.LOADING, Phase.CLOSING) or self._report is None:
            return False
        self._report = None
        self._tell(Change.MODEL_LOST)
        return True

    def model_unloaded(self) -> bool:
        """The model was unloaded on purpose (idle for too long, or the user's Unload): none is on duty.

        Only while nothing runs; a load or a reply in progress keeps its model, and the next
        message loads one again as any load.
        """
        if self._phase is not Phase.IDLE or self._report is None:
            return False
        self._report = None
        self._tell(Change.MODEL_UNLOADED)
        return True

    def reply_started(self) -> bool:
        """A reply starts; only when `can_send`."""
        if not self.can_send:
            return False
        self._phase = Phase.STREAMING
        self._tell(Change.REPLY_STARTED)
        return True

    def reply_ended(self) -> bool:
        """The reply finished, stopped or failed; a load asked for meanwhile starts now."""
        if self._phase is not Phase.STREAMING:
            return False
        self._phase = Phase.IDLE
        self._tell(Change.REPLY_ENDED)
        queued, self._queued = self._queued, None
        if queued is not None:
            self._start_loading(queued)
        return True

    def chat_opened(self, chat_id: str) -> bool:
        """Another chat is on show (a new one included)."""
        if self._phase is Phase.CLOSING or chat_id == self._chat_id:
            return False
        self._chat_id = chat_id
        self._tell(Change.CHAT_OPENED)
        return True

    def closing(self) -> bool:
        """The app shuts down; from now on every transition is ignored. False when it already was closing."""
        if self._phase is Phase.CLOSING:
            return False
        self._phase = Phase.CLOSING
        self._loading = self._queued = None
        self._tell(Change.CLOSING)
        return True

    def _start_loading(self, config: LoadConfig) -> None:
        self._phase = Phase.LOADING
        self._loading = config
        self._report = None
        self._tell(Change.LOAD_STARTED)
