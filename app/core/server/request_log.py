"""The server's request log: one record per request, kept in memory, told to whoever listens.

Metadata only by default (when, who, which endpoint and model, token counts, time to first
token, speed, status); the prompt and the reply are kept only while `keep_text` is on, which
the user turns on. The log is bounded: the oldest records go first. Listeners are called on
the server's threads, right after a record is added; a panel turns that into its own thread's
update (a Qt signal), and a listener that fails is logged and cannot disturb the server.
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from app.core.types.messages import ChatMessage

log = logging.getLogger(__name__)

CLIENT_CLOSED = 499  # the client went away before the reply was done (nginx's convention)


@dataclass(frozen=True)
class RequestRecord:
    id: int
    started_at: float  # time.time() when the request arrived
    client: str  # "host:port" of the caller
    method: str
    endpoint: str
    status: int  # the HTTP status; 499 when the client left first
    model: str = ""
    stream: bool = False
    prompt_tokens: int = 0
    cached_tokens: int = 0  # of prompt_tokens, reused from the previous request's KV cache
    completion_tokens: int = 0
    queued_s: float = 0.0  # waiting for the model while other requests ran
    slot: int | None = None  # the engine's parallel slot that wrote the reply (None: no slots, or no reply)
    time_to_first_token_s: float | None = None  # None: no token came
    tokens_per_s: float | None = None  # generation speed; None when fewer than two tokens came
    duration_s: float = 0.0
    finish_reason: str = ""
    error: str = ""  # why the request failed or was refused
    messages: tuple[ChatMessage, ...] = ()  # the request's conversation, only when text is kept
    prompt: str = ""  # a raw completion's prompt, only when text is kept
    reply: str = ""  # only when text is kept


Listener = Callable[[RequestRecord], None]


class RequestLog:
    """Thread-safe and bounded; `records()` is a snapshot, oldest first."""

    def __init__(self, size: int, keep_text: bool = False) -> None:
        self._records: deque[RequestRecord] = deque(maxlen=size)
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.keep_text = keep_text

    def next_id(self) -> int:
        return next(self._ids)

    def add(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(record)
            except Exception:
                log.exception("A request log listener failed")

    def records(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._records)

    def clear(self) -> None:
        with self._lock:
            self._records.clear()

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call `listener` with each new record; returns the function that stops it."""
        with self._lock:
            self._listeners.append(listener)

        def remove() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove
