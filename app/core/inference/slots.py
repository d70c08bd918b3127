"""Parallel slots: several replies written at once in one llama.cpp context, one token each per batch.

What llama-server's `--parallel N` does (continuous batching), on the loaded model's weights:

- a context of its own with `n_seq_max = N` and a unified KV cache (as the beam search's,
  beam_search.py) beside the engine's chat context, which stays as it is; its size is the
  load's n_ctx, split across the slots as llama-server splits it: each slot holds
  n_ctx // N tokens, and a request that does not fit its slot raises PromptTooLong with the
  slot's size (the server's 400);
- slot i is sequence i; each reply in a slot has its own sampler chain (seed, grammar),
  stop strings, thinking, token observer and stop flag (slot_reply.py);
- every step decodes one token of every generating slot in ONE `llama_decode` batch, together
  with the next chunk (`PROMPT_CHUNK` tokens) of a slot whose prompt is still being read, so a
  long prompt does not freeze the streams already running; with nothing generating, a prompt
  goes in chunks of n_batch;
- a slot keeps its KV cache when its reply ends; a new request takes the free slot whose
  cache its prompt continues (as llama-server's `--slot-prompt-similarity`, see `_best_slot`),
  else the least recently used one, and only the rest of the prompt is decoded.

One thread (`slots`) owns the context and runs the steps; `submit` may be called from any
thread and returns the reply, whose events its caller reads on its own thread. A failed
decode ends the replies of that batch with an error (their slots' caches are dropped); an
error in one reply's sampling ends that reply alone.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import llama_cpp
from llama_cpp._internals import LlamaContext

from app.core.inference.decode_batch import describe
from app.core.inference.logits import LogitsRows
from app.core.inference.slot_reply import SlotReply, SlotRequest
from app.core.inference.token_texts import TokenTexts
from app.core.support.formatting import fill
from app.core.support.user_text import N_
from app.core.types.errors import EngineError, PromptTooLong
from app.core.types.slot_state import SlotState, SlotWork
from app.core.types.stats import StopReason

log = logging.getLogger(__name__)

MAX_SLOTS = 64
PROMPT_CHUNK = 64  # prompt tokens a step decodes beside the generating slots' tokens
SLOT_SIMILARITY = 0.8  # the share of a slot's cache a prompt must continue to be placed there (llama-server: 0.5)


@dataclass
class _Slot:
    seq: int
    cached: list[int] = field(default_factory=list)  # the tokens in this sequence's KV cache
    reply: SlotReply | None = None
    fed: int = 0  # prompt tokens in the cache while the prompt is read
    pending: int = -1  # the sampled token to decode in the next step (-1: still reading the prompt)
    used_at: float = 0.0

    def state(self) -> SlotState:
        reply = self.reply
        if reply is None:
            return SlotState(self.seq, SlotWork.IDLE, cached=len(self.cached))
        prompt = len(reply.request.prompt)
        work = SlotWork.READING if self.pending < 0 else SlotWork.WRITING
        return SlotState(
            self.seq, work, len(self.cached), prompt, min(self.fed, prompt), reply.completed, reply.request.max_tokens
        )

    def shared_prefix(self, prompt: list[int]) -> int:
        count = 0
        for cached, asked in zip(self.cached, prompt, strict=False):
            if cached != asked:
                break
            count += 1
        return count


class ParallelSlots:
    """N slots in a context of their own on a loaded model; close() ends every reply and frees it."""

    def __init__(self, llama: llama_cpp.Llama, count: int, texts: TokenTexts, n_ctx: int = 0) -> None:
        """`n_ctx`: the slots' context size, split across them (0: the chat context's, as the server's slots)."""
        if not 1 <= count <= MAX_SLOTS:
            raise EngineError(fill(N_("The slots must be 1 to {most}, not {count}."), most=MAX_SLOTS, count=count))
        self.count = count
        self.n_ctx = n_ctx or llama.n_ctx()
        self.slot_ctx = self.n_ctx // count  # as llama-server splits its context
        if self.slot_ctx < 2:
            message = N_("A context of {n_ctx} tokens cannot be split into {count} slots.")
            raise EngineError(fill(message, n_ctx=self.n_ctx, count=count))
        self._n_batch = max(1, int(llama.context_params.n_batch), count)
        self._context = _context(llama, self.n_ctx, count, self._n_batch)
        self._memory = self._context.memory
        self._batch = llama_cpp.llama_batch_init(self._n_batch, 0, 1)
        self.rows = LogitsRows(self._context.ctx, llama.n_vocab())
        self._texts = texts
        self._slots = [_Slot(seq) for seq in range(count)]
        self._waiting: list[SlotReply] = []
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="slots", daemon=True)
        self._thread.start()

    @property
    def ctx(self) -> llama_cpp.llama_context_p:
        """The slots' context (a sampler chain for a reply is built on it)."""
        return self._context.ctx

    def check_fits(self, prompt_tokens: int) -> None:
        """PromptTooLong when a prompt this long leaves no room for a reply in a slot."""
        if prompt_tokens >= self.slot_ctx:
            raise PromptTooLong(prompt_tokens, self.slot_ctx)

    def submit(self, request: SlotRequest) -> SlotReply:
        """Queue a reply for the next free slot; read its events with `events()`. Raises PromptTooLong."""
        self.check_fits(len(request.prompt))
        reply = SlotReply(request, self.rows, self._texts)
        with self._changed:
            if self._closed:
                raise EngineError(N_("The model's slots are closed."))
            self._waiting.append(reply)
            self._changed.notify_all()
        return reply

    def busy(self) -> int:
        """How many slots are writing a reply now."""
        with self._changed:
            return sum(slot.reply is not None for slot in self._slots)

    def states(self) -> tuple[SlotState, ...]:
        """What each slot is doing now (read from any thread; the numbers of a step in progress may lag it)."""
        with self._changed:
            return tuple(slot.state() for slot in self._slots)

    def close(self) -> None:
        """End every reply (as stopped) and free the context; waits for the slots' thread."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join()
        llama_cpp.llama_batch_free(self._batch)
        self._context.close()

    # ---- the slots' thread -----------------------------------------------------------

    def _work(self) -> None:
        try:
            while self._next_step():
                self._step()
        except Exception:
            log.exception("The slots' loop failed")
            self._end_all(StopReason.ERROR, N_("The model's slots failed; see the log."))
        else:
            self._end_all(StopReason.USER)

    def _next_step(self) -> bool:
        """Wait until a slot has work; place waiting replies in free slots. False once closed."""
        with self._changed:
            while not self._closed:
                self._place_waiting()
                if any(slot.reply is not None for slot in self._slots):
                    return True
                self._changed.wait()
            return False

    def _place_waiting(self) -> None:
        while self._waiting:
            free = [slot for slot in self._slots if slot.reply is None]
            if not free:
                return
            reply = self._waiting.pop(0)
            if reply.request.stop.is_set():  # its client left while it waited
                reply.fail(StopReason.USER)
                reply.finish()
                continue
            self._take(_best_slot(free, reply.request.prompt), reply)

    def _take(self, slot: _Slot, reply: SlotReply) -> None:
        prompt = reply.request.prompt
        reuse = min(slot.shared_prefix(prompt), len(prompt) - 1)  # the last token is decoded again for its logits
        if not llama_cpp.llama_memory_seq_rm(self._memory, slot.seq, reuse, -1):
            reuse = 0  # this model's memory cannot drop a tail: the sequence is read again
            llama_cpp.llama_memory_seq_rm(self._memory, slot.seq, -1, -1)
        slot.cached = prompt[:reuse]
        slot.reply, slot.fed, slot.pending = reply, reuse, -1
        reply.start(slot.seq, reuse)
        log.debug("Slot %d takes a reply: %d of %d prompt tokens cached", slot.seq, reuse, len(prompt))

    def _step(self) -> None:
        """One batch: each generating slot's pending token, then chunks of the prompts being read."""
        active = [slot for slot in self._slots if slot.reply is not None]
        for slot in active:
            assert slot.reply is not None
            if slot.reply.request.stop.is_set():
                slot.reply.fail(StopReason.USER)
                self._release(slot)
        rows: list[tuple[_Slot, int]] = []  # the slots that sample after this decode, and their row
        count = 0
        generating = [slot for slot in active if slot.reply is not None and slot.pending >= 0]
        for slot in generating:
            _put(self._batch, count, slot.pending, len(slot.cached), slot.seq, True)
            rows.append((slot, count))
            count += 1
        room = min(PROMPT_CHUNK if generating else self._n_batch, self._n_batch - count)
        reading: list[tuple[_Slot, int]] = []  # the slots whose prompt this batch reads on, and to where
        for slot in active:
            if slot.reply is None or slot.pending >= 0 or room <= 0:
                continue
            prompt = slot.reply.request.prompt
            chunk = prompt[slot.fed : slot.fed + room]
            done = slot.fed + len(chunk) == len(prompt)
            for i, token in enumerate(chunk):
                _put(self._batch, count, token, slot.fed + i, slot.seq, done and i == len(chunk) - 1)
                count += 1
            reading.append((slot, slot.fed + len(chunk)))
            if done:
                rows.append((slot, count - 1))
            room -= len(chunk)
        if not count:
            return
        self._batch.n_tokens = count
        code = llama_cpp.llama_decode(self._context.ctx, self._batch)
        if code:
            self._failed([slot for slot in active if slot.reply is not None], describe(code))
            return
        for slot in generating:
            slot.cached.append(slot.pending)
        for slot, fed in reading:
            assert slot.reply is not None
            slot.fed, slot.cached = fed, slot.reply.request.prompt[:fed]
        for slot, row in rows:
            self._advance(slot, row)

    def _advance(self, slot: _Slot, row: int) -> None:
        reply = slot.reply
        assert reply is not None
        try:
            token = reply.advance(row)
        except Exception as error:  # this reply's sampler failed: the others go on
            log.exception("A reply in slot %d failed", slot.seq)
            reply.fail(StopReason.ERROR, str(error))
            token = None
        if token is None or len(slot.cached) + 1 >= self.slot_ctx:
            self._release(slot)
            return
        slot.pending = token

    def _failed(self, slots: list[_Slot], reason: str) -> None:
        log.error("A batch of the slots failed: %s", reason)
        for slot in slots:
            assert slot.reply is not None
            slot.reply.fail(StopReason.ERROR, reason)
            llama_cpp.llama_memory_seq_rm(self._memory, slot.seq, -1, -1)
            slot.cached = []
            self._release(slot)

    def _release(self, slot: _Slot) -> None:
        reply, slot.reply = slot.reply, None
        slot.pending, slot.used_at = -1, time.monotonic()
        if reply is not None:
            reply.finish()
        with self._changed:
            self._changed.notify_all()

    def _end_all(self, reason: StopReason, error: str = "") -> None:
        with self._changed:
            self._closed = True
            waiting, self._waiting = self._waiting, []
        for slot in self._slots:
            if slot.reply is not None:
                slot.reply.fail(reason, error)
                self._release(slot)
        for reply in waiting:
            reply.fail(reason, error)
            reply.finish()


def batch_is_cheap(count: int, prompt_tokens: int, max_tokens: int) -> bool:
    """Whether `count` replies to one prompt cost less decoded together in `count` slots than one after another.

    Together, each slot reads the prompt itself, `count - 1` more times than one after another (where the
    engine's prompt cache keeps it); each step then decodes a token of every reply for about the cost of
    one, saving up to `count - 1` decodes a step. A prompt token read in a batch costs less than a decode
    step, so while the prompt is no longer than the replies the batch wins (a conservative bound)."""
    return count > 1 and 0 < prompt_tokens <= max_tokens


def _best_slot(free: list[_Slot], prompt: list[int]) -> _Slot:
    """The free slot whose cache `prompt` continues (its longest shared prefix, when that covers at least
    `SLOT_SIMILARITY` of the slot's cache), else the least recently used: another conversation's cache is
    not thrown away for the few tokens of a shared system prompt."""
    similar = [(slot.shared_prefix(prompt), slot) for slot in free if slot.cached]
    similar = [(shared, slot) for shared, slot in similar if shared >= SLOT_SIMILARITY * len(slot.cached)]
    if similar:
        return max(similar, key=lambda pair: pair[0])[1]
    return min(free, key=lambda slot: slot.used_at)


def _context(llama: llama_cpp.Llama, n_ctx: int, count: int, n_batch: int) -> LlamaContext:
    base = llama.context_params
    params = type(base).from_buffer_copy(base)  # the chat context's threads and KV types
    params.n_ctx = n_ctx
    params.n_batch = n_batch
    params.n_ubatch = min(int(base.n_ubatch), n_batch) if base.n_ubatch else n_batch
    params.n_seq_max = count
    params.kv_unified = True  # one pool of cells; each slot's share is kept by `slot_ctx`
    params.embeddings = False
    try:
        return LlamaContext(model=llama._model, params=params, verbose=False)
    except ValueError as error:
        message = N_("llama.cpp could not make a context of {n_ctx} tokens for {count} slots.")
        raise EngineError(fill(message, n_ctx=n_ctx, count=count)) from error


def _put(batch: llama_cpp.llama_batch, i: int, token: int, position: int, seq: int, logits: bool) -> None:
    """Row i of the batch: one token of one sequence, with or without its logits."""
    rows: Any = batch  # the binding's stubs type these C arrays loosely
    rows.token[i] = token
    rows.pos[i] = position
    rows.n_seq_id[i] = 1
    rows.seq_id[i][0] = seq
    rows.logits[i] = logits
