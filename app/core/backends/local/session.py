"""Everything the local backend does with one llama.cpp engine, in whichever process owns it.

The engine child process (`host.py`) runs an `EngineSession` and turns its results and
callbacks into messages; `InProcessEngine` runs one in the caller's process (for tests
that swap the engine for a fake, and for measuring what the child costs). Either way the
same code loads (hash check, timeline, offload fallback), streams (with the reply's
metrics and, when asked, its token probabilities), plans the context window and inspects
the prompt.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from app.core.chat.context_window import EnginePlanner, PlanRequest, PlanResult
from app.core.chat.prompt_inspector import InspectRequest, PromptInspection, inspect_conversation
from app.core.inference.beam_search import BeamResult, BeamSearcher, BeamSettings
from app.core.inference.engine import Engine, TokenObserver, conversation_key
from app.core.inference.fork import fork_point, stream_fork
from app.core.inference.load_timeline import LoadTimeline
from app.core.inference.logits import SampledLogits
from app.core.inference.metrics import MetricsRecorder
from app.core.inference.replay import (
    ReplayReport,
    choose_seed,
    hash_in_background,
    load_facts,
    record_reply,
    recorded_params,
    replay,
)
from app.core.inference.sampler_chain import InvalidGrammar, token_sampler
from app.core.inference.sampling import SamplingParams
from app.core.inference.slot_reply import SlotReply, SlotRequest
from app.core.inference.slots import ParallelSlots, batch_is_cheap
from app.core.inference.thinking import ReplyThinking, marker_tokens
from app.core.inference.token_probs import TokenProbabilityRecorder
from app.core.inference.token_texts import TokenTexts
from app.core.memory.beam_fit import beam_admission
from app.core.memory.fallback import FallbackResult, FallbackStep, load_with_fallback
from app.core.memory.fit import machine_now
from app.core.memory.planner import MemoryPlanner
from app.core.models.gguf_info import read_gguf_info
from app.core.support.user_text import N_, text_of
from app.core.types.errors import EngineError
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replay_record import ReplayRecord
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.slot_state import SlotState
from app.core.types.tools import ToolSpec

log = logging.getLogger(__name__)

SLOT_READERS_S = 5.0  # how long closing waits for the replies of closed slots to be read out


@dataclass(frozen=True)
class LoadListener:
    """What a load reports while it runs: the stage now running, weight-load progress, fallback steps."""

    stage: Callable[[str], None] = lambda _name: None
    progress: Callable[[float], None] = lambda _fraction: None
    fallback_step: Callable[[FallbackStep], None] = lambda _step: None


class EngineSession:
    """One engine and the planner that measures with its tokenizer; one owner calls it."""

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine = engine or Engine()
        self.planner = EnginePlanner(self.engine)
        # Replies in parallel slots (open_slots) run on threads of their own: these keep them apart.
        self._slots: ParallelSlots | None = None
        self._rendering = threading.Lock()  # the engine's thinking switch is set while a prompt is rendered
        self._own_context = threading.Lock()  # a reply with images, in the engine's context beside the slots
        self._readers = threading.Condition()
        self._reading = 0  # slot replies whose events are still being read

    @property
    def is_loaded(self) -> bool:
        return self.engine.is_loaded

    def load(self, config: LoadConfig, listener: LoadListener, cancel: threading.Event) -> FallbackResult:
        """Load with the timeline and the offload fallback. Raises ModelFileError, EngineError, LoadCancelled.

        The file's SHA-256 for the replay records is then found on a thread of its own (at once when
        the library has it on record), so no reply waits for a large file to be read; the rest of
        what a record says about the load is read at once."""
        self._close_slots()
        result = load_with_fallback(
            LoadTimeline(self.engine, on_stage=listener.stage),
            config,
            on_step=listener.fallback_step,
            progress=listener.progress,
            cancel=cancel,
        )
        hash_in_background(config.model_path)
        load_facts(self.engine)  # read now, not at the end of the first reply
        return result

    def stream_chat(
        self,
        messages: Sequence[ChatMessage],
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool = False,
        grammar: str = "",
        record: bool = False,
        prompt_ids: Sequence[int] = (),
        tools: Sequence[ToolSpec] = (),
        window: bool = False,
    ) -> Iterator[ReplyEvent]:
        """The engine's reply events; the closing ReplyDone carries the reply's metrics (and trace).

        `record`: the seed is fixed first (choose_seed) and the ReplyDone carries the reply's
        replay record, so it can be run again token for token (a reply under a grammar is not recorded).
        `prompt_ids`: the tokens the context window planned `messages` as; the conversation is
        tokenized here only without them, and once: the reply and its record start from the same ids.
        With parallel slots open, the reply is written in one of them, unless it has images, or it is the
        window's (`window`) and its prompt does not fit a slot: then in the engine's own context, one at a time."""
        record = record and not grammar
        if not prompt_ids:
            with self._rendering, self.engine.thinking(params):
                prompt_ids = self.engine.prompt_tokens(messages, tools)
        prompt = list(prompt_ids)
        if self._slots is not None:  # the server's replies: no replay record there
            fits = len(prompt) < self._slots.slot_ctx or not window  # a request too long for a slot gets a 400
            if fits and not any(message.images for message in messages):
                return self._in_slot(self._slots, prompt, params, stop, token_probabilities, grammar, chat=True)
            record = False  # the slots read no images: the engine's own context does, one reply at a time
        if record:
            params = choose_seed(params)
        key, conversation = conversation_key(messages), tuple(messages)
        events = self._recorded(
            lambda observe: self.engine.stream_tokens(
                prompt, params, stop, observe, grammar, None, key, conversation, chat=True
            ),
            params,
            token_probabilities,
        )
        if self._slots is not None:
            return self._one_at_a_time(events)
        return self._with_replay_record(events, prompt, params) if record else events

    def _one_at_a_time(self, events: Iterator[ReplyEvent]) -> Iterator[ReplyEvent]:
        """A reply in the engine's own context while the slots run replies on threads of their own: one at a time."""
        with self._own_context:
            yield from events

    def _with_replay_record(
        self, events: Iterator[ReplyEvent], prompt: list[int], params: SamplingParams
    ) -> Iterator[ReplyEvent]:
        tokens: list[int] = []
        for event in events:
            if isinstance(event, ReplyDone):
                try:
                    record = record_reply(self.engine, prompt, params, tokens, event.stats.cached_prompt_tokens)
                except Exception as error:  # whatever it was (the model file unreadable), the reply stays
                    log.warning("The reply's replay record could not be made: %s", error)
                    yield event
                    continue
                yield replace(event, replay=record)
                continue
            if event.token_id >= 0:
                tokens.append(event.token_id)
            yield event

    def stream_completion(
        self,
        prompt: str,
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool = False,
        grammar: str = "",
    ) -> Iterator[ReplyEvent]:
        """`prompt` continued as it is (no chat template; special tokens written in it count as such)."""
        tokens = self.engine.llama.tokenize(prompt.encode("utf-8"), add_bos=True, special=True)
        if self._slots is not None:
            return self._in_slot(self._slots, tokens, params, stop, token_probabilities, grammar, chat=False)
        return self._recorded(
            lambda observe: self.engine.stream_tokens(tokens, params, stop, observe, grammar),
            params,
            token_probabilities,
        )

    def _recorded(
        self,
        start: Callable[[TokenObserver], Iterator[ReplyEvent]],
        params: SamplingParams,
        token_probabilities: bool,
    ) -> Iterator[ReplyEvent]:
        """The events of `start(observer)`, with metrics (and probabilities) recorded by that observer.

        `start` runs now, so an error before the first token (a prompt too long) is raised here."""
        llama = self.engine.llama
        metrics = MetricsRecorder(llama)
        probabilities = TokenProbabilityRecorder(params) if token_probabilities else None

        observe: TokenObserver = metrics.observe
        if probabilities is not None:
            recorder = probabilities

            def observe(token_id: int, logits: SampledLogits) -> None:
                metrics.observe(token_id, logits)
                recorder.observe(token_id, logits)

        events = start(observe)

        def finished() -> Iterator[ReplyEvent]:
            for event in events:
                if isinstance(event, ReplyDone):
                    trace = probabilities.trace(llama) if probabilities is not None else None
                    yield replace(event, metrics=metrics.finish(event.stats, llama), trace=trace)
                else:
                    yield event

        return finished()

    # ---- parallel slots ----------------------------------------------------------------

    @property
    def in_slots(self) -> bool:
        """Whether replies are written in parallel slots now (each reply's job then runs on a thread of its own)."""
        return self._slots is not None

    def open_slots(self, count: int) -> int:
        """Write the next replies in `count` parallel slots (slots.py); 1 closes them. Returns each slot's
        context size (0 without slots). Raises EngineError when no model is loaded or the context cannot be made."""
        self._close_slots()
        if count <= 1:
            return 0
        llama = self.engine.llama
        texts = TokenTexts(llama._model.vocab, marker_tokens(llama, self.engine.reasoning))
        self._slots = ParallelSlots(llama, count, texts)
        return self._slots.slot_ctx

    def slot_states(self) -> tuple[SlotState, ...]:
        """What each parallel slot is doing now (none without slots)."""
        slots = self._slots
        return slots.states() if slots is not None else ()

    def replies_at_once(
        self, messages: Sequence[ChatMessage], params: Sequence[SamplingParams], stop: threading.Event
    ) -> tuple[ReplyDone, ...]:
        """One reply to `messages` for each of `params`, each with its token probabilities, decoded together (one
        token of every reply a step) where that is cheap (`batch_is_cheap`): in the server's slots when they are
        open, else in slots of their own for the while, sized to the replies; else one after another in the
        engine's own context. Raises PromptTooLong or EngineError before any reply."""
        with self._rendering, self.engine.thinking(params[0]):
            prompt = self.engine.prompt_tokens(messages)
        longest = max(chosen.max_tokens for chosen in params)
        if not batch_is_cheap(len(params), len(prompt), longest):
            return tuple(
                _done_of(self.stream_chat(messages, chosen, stop, True, prompt_ids=prompt, window=True))
                for chosen in params
            )
        if self._slots is not None and len(prompt) + longest < self._slots.slot_ctx:
            return self._all_in_slots(self._slots, prompt, params, stop)
        llama = self.engine.llama
        texts = TokenTexts(llama._model.vocab, marker_tokens(llama, self.engine.reasoning))
        slots = ParallelSlots(llama, len(params), texts, n_ctx=len(params) * (len(prompt) + longest + 1))
        try:
            return self._all_in_slots(slots, prompt, params, stop)
        finally:
            slots.close()

    def _all_in_slots(
        self, slots: ParallelSlots, prompt: list[int], params: Sequence[SamplingParams], stop: threading.Event
    ) -> tuple[ReplyDone, ...]:
        streams = [self._in_slot(slots, prompt, chosen, stop, True, "", chat=True) for chosen in params]
        return tuple(_done_of(stream) for stream in streams)

    def _in_slot(
        self,
        slots: ParallelSlots,
        prompt: list[int],
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool,
        grammar: str,
        *,
        chat: bool,
    ) -> Iterator[ReplyEvent]:
        """The reply written in the next free slot; raises PromptTooLong (the slot's size) or EngineError now."""
        slots.check_fits(len(prompt))
        room = slots.slot_ctx - len(prompt)
        max_tokens = min(params.max_tokens, room) if params.max_tokens > 0 else room
        seed = params.seed if params.seed is not None else random.randint(0, 2**31 - 1)
        try:
            sampler = token_sampler(params, seed, slots.rows, slots.ctx, grammar)
        except InvalidGrammar as error:
            raise EngineError(text_of(error)) from None
        reasoning = self.engine.reasoning
        thinking = ReplyThinking.start(reasoning, params, self.engine.tokenize) if chat and reasoning else None
        probabilities = TokenProbabilityRecorder(params) if token_probabilities else None
        observer = probabilities.observe if probabilities is not None else None
        reply = slots.submit(SlotRequest(prompt, params, sampler, max_tokens, stop, observer, thinking))
        with self._readers:
            self._reading += 1
        return self._read_slot(reply, probabilities)

    def _read_slot(self, reply: SlotReply, probabilities: TokenProbabilityRecorder | None) -> Iterator[ReplyEvent]:
        try:
            for event in reply.events():
                if isinstance(event, ReplyDone) and probabilities is not None:
                    event = replace(event, trace=probabilities.trace(self.engine.llama))
                yield event
        finally:
            with self._readers:
                self._reading -= 1
                self._readers.notify_all()

    def _close_slots(self) -> None:
        """End the replies in slots (as stopped), wait until they are read out, and free the slots' context."""
        slots, self._slots = self._slots, None
        if slots is None:
            return
        slots.close()
        with self._readers:
            if not self._readers.wait_for(lambda: self._reading == 0, SLOT_READERS_S):
                log.warning("Replies in the closed slots were still being read after %.0f s", SLOT_READERS_S)

    def plan(self, request: PlanRequest) -> PlanResult:
        with self._rendering:  # the window plans while the server's replies render their prompts in slots
            return self.planner.plan(request)

    def inspect(self, request: InspectRequest) -> PromptInspection:
        if not self.engine.is_loaded:
            raise EngineError(N_("No model is loaded yet: the prompt depends on the model's template and tokenizer."))
        with self._rendering:
            return inspect_conversation(
                self.engine,
                request.conversation,
                request.reserve,
                request.policy,
                self.planner,
                request.sampling,
                request.tools,
            )

    def count_tokens(self, text: str) -> int:
        return len(self.engine.tokenize(text, special=False))

    # ---- decoding explorer (beam search, fork, replay) -------------------------------

    def beam_search(self, messages: Sequence[ChatMessage], settings: BeamSettings, stop: threading.Event) -> BeamResult:
        """Beam search for the reply; a width whose KV cache does not fit now is refused first."""
        config = self.engine.config
        if config is None:
            raise EngineError(N_("No model is loaded."))
        planner = MemoryPlanner(read_gguf_info(config.model_path))
        admit = beam_admission(planner, machine_now(), config.n_gpu_layers, settings.width)
        prompt = self.engine.prompt_tokens(messages)
        return BeamSearcher(self.engine.llama).search(prompt, settings, stop, admit)

    def stream_fork(
        self,
        messages: Sequence[ChatMessage],
        reply: Sequence[int],
        position: int,
        forced: int,
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool = False,
    ) -> Iterator[ReplyEvent]:
        """The reply to `messages` forked at `position` with `forced` there (see fork.py)."""
        point = fork_point(self.engine.prompt_tokens(messages), reply, position, forced)
        return self._recorded(
            lambda observe: stream_fork(self.engine, point, params, stop, observe), params, token_probabilities
        )

    def replay(
        self,
        record: ReplayRecord,
        messages: Sequence[ChatMessage],
        changed: SamplingParams | None,
        stop: threading.Event,
    ) -> ReplayReport:
        with self.engine.thinking(changed or recorded_params(record)):  # the prompt as the reply had it
            prompt = self.engine.prompt_tokens(messages)
        return replay(self.engine, record, prompt, changed, stop)

    def close(self) -> None:
        """Free the model now (the slots' replies end first)."""
        self._close_slots()
        self.engine.close()


def _done_of(events: Iterator[ReplyEvent]) -> ReplyDone:
    """The ReplyDone that ends a reply's events (the pieces before it are read and dropped)."""
    for event in events:
        if isinstance(event, ReplyDone):
            return event
    raise EngineError(N_("The reply ended without its closing event."))
