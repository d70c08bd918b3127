"""One reply written in a slot (slots.py): its own sampler, stop strings, thinking, observer and stop flag.

The slots' scheduler decodes every slot's next token in one batch; this object is what one
slot does with the logits row its token got: sample the next token, turn it into text (stop
strings cut it, a thinking model's reasoning is told from its answer), hand the pieces to the
reply's reader and say whether the reply goes on. It is the engine's token loop (engine.py)
for one sequence among several, without speculative decoding. Events go into a queue that
`events()` reads on the reply's own thread; the scheduler's thread writes them.
"""

from __future__ import annotations

import codecs
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from app.core.inference.engine import TokenObserver, fill_timing
from app.core.inference.logits import LogitsRows, SampledLogits
from app.core.inference.sampler_chain import TokenSampler
from app.core.inference.sampling import SamplingParams
from app.core.inference.stop_strings import StopStringFilter
from app.core.inference.thinking import ReplyThinking
from app.core.inference.token_texts import TokenTexts
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece
from app.core.types.stats import ReplyStats, StopReason


@dataclass(frozen=True)
class SlotRequest:
    """What a reply in a slot is asked for; its sampler is built for it (its seed, its grammar)."""

    prompt: list[int]
    params: SamplingParams
    sampler: TokenSampler
    max_tokens: int  # at most this many tokens: the request's limit within the slot's room
    stop: threading.Event
    observer: TokenObserver | None = None
    thinking: ReplyThinking | None = None


class SlotReply:
    """One request's reply, advanced by the scheduler one token at a time; read with `events()`."""

    def __init__(self, request: SlotRequest, rows: LogitsRows, texts: TokenTexts) -> None:
        self.request = request
        self.stats = ReplyStats(prompt_tokens=len(request.prompt))
        limited = request.max_tokens == request.params.max_tokens
        self.stats.stop_reason = StopReason.LENGTH if limited else StopReason.CONTEXT_FULL
        self.submitted_at = time.perf_counter()
        self.started_at = 0.0  # when a slot took it
        self._texts = texts
        self._sampled = SampledLogits(rows)
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._stop_strings = StopStringFilter(request.params.stop)
        self._forced: list[int] = []  # tokens the reply writes itself (the thinking budget's closing), last first
        self._text: list[str] = []
        self._completed = 0
        self._first_token_at = 0.0
        self._events: queue.Queue[ReplyEvent] = queue.Queue()
        self.finished = False

    def events(self) -> Iterator[ReplyEvent]:
        """TokenPiece events, then exactly one ReplyDone (on the reader's thread)."""
        while True:
            event = self._events.get()
            yield event
            if isinstance(event, ReplyDone):
                return

    @property
    def completed(self) -> int:
        """Tokens written so far."""
        return self._completed

    def start(self, slot: int, cached: int) -> None:
        self.started_at = time.perf_counter()
        self.stats.slot = slot
        self.stats.cached_prompt_tokens = cached

    def advance(self, index: int) -> int | None:
        """Sample the next token from the batch's `index`-th logits row; the token to decode next,
        or None when the reply is over (finish() then ends it)."""
        request, stats, thinking = self.request, self.stats, self.request.thinking
        token = -1
        if self._forced and not request.sampler.accept(token := self._forced.pop()):
            self._forced, token = [], -1  # the grammar forbids the closing: the model goes on as it samples
        if token < 0:
            token = request.sampler.sample(index)
        if not self._first_token_at:
            self._first_token_at = time.perf_counter()
        piece = self._texts.piece(token)
        if piece is None:
            stats.stop_reason = StopReason.END_OF_TEXT
            return None
        self._completed += 1
        if request.observer is not None:
            self._sampled.index = index
            request.observer(token, self._sampled)
        text = self._decoder.decode(piece)
        visible, hit = self._stop_strings.feed(text)
        if thinking is not None:
            if visible:
                self._put_all(thinking.pieces(visible, token, self._completed, self._text.append))
            elif text == "" or hit:
                self._events.put(TokenPiece("", token, thinking.part_now))
            self._forced = self._forced or thinking.budget_spent(self._completed)[::-1]
        elif visible:
            self._text.append(visible)
            self._events.put(TokenPiece(visible, token))
        elif text == "" or hit:
            self._events.put(TokenPiece("", token))
        if hit:
            stats.stop_reason = StopReason.STOP_STRING
            return None
        if request.stop.is_set():
            stats.stop_reason = StopReason.USER
            return None
        if self._completed >= request.max_tokens:
            return None
        return token

    def fail(self, reason: StopReason, error: str = "") -> None:
        """End the reply now (its stop flag, a failed decode); finish() then ends it."""
        self.stats.stop_reason, self.stats.error = reason, error

    def finish(self) -> None:
        """The closing events: what the filters still hold, then the ReplyDone. Once."""
        if self.finished:
            return
        self.finished = True
        self.request.sampler.close()
        stats, thinking = self.stats, self.request.thinking
        stats.completion_tokens = self._completed
        if stats.stop_reason is not StopReason.STOP_STRING:
            # Bytes of a character the reply stopped in the middle of are dropped (as the engine does).
            self._decoder.reset()
            tail = self._stop_strings.flush()
            if tail and thinking is not None:
                self._put_all(thinking.pieces(tail, -1, self._completed + 1, self._text.append))
            elif tail:
                self._text.append(tail)
                self._events.put(TokenPiece(tail, -1))
        if thinking is not None:
            self._put_all(thinking.finish(self._completed, self._text.append))
        finished = time.perf_counter()
        fill_timing(stats, self.started_at or finished, self._first_token_at, finished)
        if thinking is None:
            self._events.put(ReplyDone("".join(self._text), stats))
            return
        thinking.fill(stats, self._completed, self._first_token_at, finished)
        self._events.put(ReplyDone("".join(self._text), stats, reasoning=thinking.text))

    def _put_all(self, pieces: list[TokenPiece]) -> None:
        for piece in pieces:
            self._events.put(piece)
