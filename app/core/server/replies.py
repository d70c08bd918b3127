"""One reply for one HTTP request: queued to the model's thread, its events handed to the event loop.

The model's thread (the ModelQueue worker) runs the backend's stream and puts each event
into an asyncio queue of the server's loop (`call_soon_threadsafe`); the endpoint awaits
them. The reply's stop event is the only thing that crosses the other way: it is set when
the client disconnects (a watcher task waits for the ASGI `http.disconnect` message, so a
client that leaves during a long prompt evaluation is noticed too) or when the server stops,
and the backend checks it between tokens.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator

from starlette.types import Receive

from app.core.backends.local.backend import LocalBackend
from app.core.server.model_queue import QueuedJob
from app.core.support.stop_flag import StopFlag
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece

ReplyStart = Callable[[LocalBackend, threading.Event], Iterator[ReplyEvent]]


class ReplyCancelled(Exception):
    """The reply never ran: its client left, or the server stopped, while it waited."""


class ReplyRun:
    """Created on the event loop; `job` goes to the ModelQueue."""

    def __init__(self, loop: asyncio.AbstractEventLoop, start: ReplyStart) -> None:
        self.stop = StopFlag()  # set when the client leaves; wakes the model's thread waiting for the engine
        self.queued_at = time.perf_counter()
        self.started_at: float | None = None  # when the model's thread took it
        self.first_token_at: float | None = None  # when its first text reached the loop
        self.disconnected = False
        self.job = QueuedJob(self._run, self.stop, self._skipped)
        self._loop = loop
        self._start = start
        self._events: asyncio.Queue[ReplyEvent | BaseException] = asyncio.Queue()
        self._watcher: asyncio.Task[None] | None = None
        self._ended_lock = threading.Lock()
        self._ended = False
        self._final: ReplyDone | None = None
        self._on_end: Callable[[ReplyDone | None], None] | None = None

    def watch(self, receive: Receive) -> None:
        """Set the stop event when the client disconnects (until `close`)."""
        self._watcher = asyncio.create_task(self._watch(receive))

    async def next(self) -> ReplyEvent:
        """The next event with text, or the ReplyDone; raises what the backend raised before any text."""
        item = await self._events.get()
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, TokenPiece) and self.first_token_at is None:
            self.first_token_at = time.perf_counter()
        return item

    async def rest(self, event: ReplyEvent) -> ReplyDone:
        """Read on from `event` to the ReplyDone."""
        while not isinstance(event, ReplyDone):
            event = await self.next()
        return event

    def when_ended(self, callback: Callable[[ReplyDone | None], None]) -> None:
        """Call `callback` with the reply's ReplyDone (None if it never ran) once the model's thread is
        done with it: now if it is, else on that thread. For a reply nobody reads any more."""
        with self._ended_lock:
            if not self._ended:
                self._on_end = callback
                return
        callback(self._final)

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None

    # ---- the model's thread ----------------------------------------------------------

    def _run(self, backend: LocalBackend) -> None:
        self.started_at = time.perf_counter()
        final: ReplyDone | None = None
        try:
            for event in self._start(backend, self.stop):
                if isinstance(event, ReplyDone):
                    final = event
                if isinstance(event, ReplyDone) or event.text:  # a text-less piece tells the loop nothing
                    self._put(event)
        except Exception as error:
            self._put(error)
        finally:
            self._end(final)

    def _skipped(self) -> None:
        self._put(ReplyCancelled("The request was cancelled before the model took it."))
        self._end(None)

    def _end(self, final: ReplyDone | None) -> None:
        with self._ended_lock:
            self._ended, self._final = True, final
            callback, self._on_end = self._on_end, None
        if callback is not None:
            callback(final)

    def _put(self, item: ReplyEvent | BaseException) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server stopped, nobody reads
            self._loop.call_soon_threadsafe(self._events.put_nowait, item)

    async def _watch(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.disconnected = True
        self.stop.set()
