"""The local llama.cpp backend: the Backend interface over an engine child process (or a thread).

Every call is a job for the engine (`wire`); the caller's thread waits for the job's events
in short slices and, between them, watches its stop or cancel flag, which it forwards to
the engine as an `Abort`. So Stop takes effect within a token, and inside prompt
processing or a weight load at llama.cpp's next abort check, although the engine runs in
another process.

When the engine process dies: a reply in progress ends as a ReplyDone with stop reason
ERROR that keeps the text so far and says what happened; any other job raises
`EngineCrashed`, and so does `check_engine` when it died between jobs. The model is then
gone (`is_loaded` is False, `crash` says why) and the next load starts a fresh process.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from app.core.backends.base import Capabilities, ModelInfo, TokenCount
from app.core.backends.local import wire
from app.core.backends.local.job_events import JobEvents
from app.core.backends.local.process import EngineCrashed, EngineLink, EngineProcess
from app.core.backends.local.session import LoadListener
from app.core.chat.context_window import PlanRequest, PlanResult
from app.core.chat.prompt_inspector import InspectRequest, PromptInspection
from app.core.inference.beam_search import BeamResult, BeamSettings
from app.core.inference.replay import ReplayReport
from app.core.inference.sampling import SamplingParams
from app.core.memory.fallback import FallbackResult
from app.core.models.library import installed_models
from app.core.reasoning.tool_formats import FALLBACK, ToolFormat, tool_format
from app.core.support.child_messages import Failed, Finished, Job
from app.core.support.child_process import next_job_id
from app.core.support.stop_flag import StopFlag
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replay_record import ReplayRecord
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece
from app.core.types.slot_state import SlotState
from app.core.types.stats import ReplyStats, StopReason
from app.core.types.tools import ToolSpec

POLL_S = 0.005  # how often a waiting caller looks at a stop flag that cannot wake it (a plain Event)
WAIT_S = 1.0  # how long it waits at a time otherwise: an event, or its StopFlag, ends the wait
IDLE = "running the model"


class LocalBackend:
    """llama.cpp on this machine. One owner calls it (with parallel slots, the server's workers write their
    replies through it at once); stop and cancel events may be set from anywhere."""

    capabilities = Capabilities(
        token_probabilities=True, tokenization=True, kv_reuse=True, load_timeline=True, gpu_plan=True
    )

    def __init__(self, link: EngineLink | None = None, models_dir: Path | None = None) -> None:
        self._doing = IDLE  # what the engine is busy with, for a crash message ("while loading X")
        self.link: EngineLink = link if link is not None else EngineProcess(lambda: self._doing)
        self._models_dir = models_dir
        self._config: LoadConfig | None = None
        self.crash: EngineCrashed | None = None  # the engine's death that took the model, until the next load
        self._tool_format: ToolFormat = FALLBACK
        self._job_events = JobEvents(self.link)
        self._parallel = 1  # replies written at once in the engine's slots (open_slots); kept across loads
        self.slot_ctx = 0  # each slot's context size (0: no slots)

    # ---- the model -------------------------------------------------------------------

    @property
    def model(self) -> str | None:
        return str(self._config.model_path) if self._config is not None else None

    @property
    def config(self) -> LoadConfig | None:
        """The setting the loaded model holds (after any offload fallback), None when none is loaded."""
        return self._config

    @property
    def is_loaded(self) -> bool:
        return self._config is not None

    @property
    def tool_format(self) -> ToolFormat:
        """How the loaded model's template offers tools and writes its calls (read as the engine reads it)."""
        return self._tool_format

    def list_models(self) -> list[ModelInfo]:
        if self._models_dir is None:
            return []
        return [ModelInfo(str(model.path)) for model in installed_models(self._models_dir)]

    def select_model(self, model_id: str) -> None:
        self.load(LoadConfig(Path(model_id)))

    def load(
        self, config: LoadConfig, listener: LoadListener | None = None, cancel: threading.Event | None = None
    ) -> FallbackResult:
        """Load `config` (hash check, timeline, offload fallback). Raises ModelFileError, EngineError,
        LoadCancelled, OutOfMemoryError, or EngineCrashed when llama.cpp took the engine down."""
        listener = listener or LoadListener()
        self._config = None
        self.crash = None
        self._doing = f"loading {config.model_path.name}"
        try:
            result = self._run(wire.Load(config), cancel, listener)
        finally:
            self._doing = IDLE
        assert isinstance(result, FallbackResult)
        self._config = result.config
        self._tool_format = tool_format(getattr(result.report, "chat_template", ""))
        if self._parallel > 1:
            self._open_slots()
        return result

    @property
    def parallel(self) -> int:
        return self._parallel

    def open_slots(self, count: int) -> int:
        """Write replies `count` at once in parallel slots of the engine (app/core/inference/slots.py), now and
        after every later load; 1: one at a time, as before. Returns each slot's context size (0: no slots).
        Raises EngineError when the slots' context cannot be made."""
        self._parallel = max(1, count)
        return self._open_slots() if self.is_loaded else 0

    def _open_slots(self) -> int:
        result = self._run(wire.OpenSlots(self._parallel))
        assert isinstance(result, int)
        self.slot_ctx = result
        return result

    def slot_states(self) -> tuple[SlotState, ...]:
        """What each parallel slot is doing now (none without slots or a model). Any thread may ask, beside the
        owner's calls: the engine answers it beside the replies it writes."""
        if not self.slot_ctx or not self.is_loaded:
            return ()
        result = self._run(wire.SlotStates())
        assert isinstance(result, tuple)
        return result

    def unload(self) -> None:
        self._config = None
        self._run(wire.Unload())

    # ---- replies ---------------------------------------------------------------------

    def unsent_params(self, params: SamplingParams) -> tuple[str, ...]:
        return ()  # llama.cpp here honours every sampling field

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
        """TokenPiece events, then one ReplyDone with the reply's metrics (and its trace when asked).

        `grammar` (GBNF) constrains the reply, e.g. to JSON that follows a schema; `record`: the
        ReplyDone carries the reply's replay record; `prompt_ids`: the tokens `messages` were planned
        as (the context window's plan), generated from without tokenizing again. A prompt that fills
        the context raises PromptTooLong before any event. `tools` are offered to the model through its
        template (`tool_format` says how it writes its calls). `window`: the window's own chat, which parallel
        slots never refuse: a prompt too long for a slot is written in the engine's own context instead."""
        work = wire.Reply(
            tuple(messages), params, token_probabilities, grammar, record, tuple(prompt_ids), tuple(tools), window
        )
        return self._stream(work, stop)

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
        """The reply to `messages` (its token ids `reply`) forked at `position` with `forced` there:
        a TokenPiece of the kept text and the forced token, the new tokens, then the ReplyDone of
        the whole forked reply (app/core/inference/fork.py; the prefix comes from the KV cache)."""
        work = wire.Fork(tuple(messages), tuple(reply), position, forced, params, token_probabilities)
        return self._stream(work, stop)

    def stream_completion(
        self,
        prompt: str,
        params: SamplingParams,
        stop: threading.Event,
        token_probabilities: bool = False,
        grammar: str = "",
    ) -> Iterator[ReplyEvent]:
        """As stream_chat, for a raw prompt the model continues without its chat template."""
        return self._stream(wire.Complete(prompt, params, token_probabilities, grammar), stop)

    def _stream(self, work: wire.Reply | wire.Complete | wire.Fork, stop: threading.Event) -> Iterator[ReplyEvent]:
        self._doing = "writing a reply"
        job = Job(next_job_id(), work)
        self._submit(job)
        parts: list[str] = []
        pieces = 0
        finished = False
        try:
            for event in self._events(job.id, stop):
                if isinstance(event, wire.Pieces):
                    parts.append(event.text)
                    pieces += len(event.token_ids)
                    yield TokenPiece(event.text, event.token_ids[0])
                    for token_id in event.token_ids[1:]:
                        yield TokenPiece("", token_id)
                elif isinstance(event, Finished):
                    assert isinstance(event.value, ReplyDone)
                    finished = True
                    yield event.value
                    return
        except EngineCrashed as crash:
            self._lost(crash)
            stats = ReplyStats(completion_tokens=pieces, stop_reason=StopReason.ERROR, error=str(crash))
            finished = True
            yield ReplyDone("".join(parts), stats)
        finally:
            self._doing = IDLE
            self._job_events.close(job.id)
            if not finished:  # the caller stopped reading: the engine must not go on writing
                self.link.abort(job.id)

    def replies_at_once(
        self, messages: Sequence[ChatMessage], params: Sequence[SamplingParams], stop: threading.Event | None = None
    ) -> tuple[ReplyDone, ...]:
        """One reply to `messages` per sampling setting, each with its token probabilities, in order: decoded
        together in parallel slots where that is cheap, else one after another (EngineSession.replies_at_once)."""
        result = self._run(wire.RepliesAtOnce(tuple(messages), tuple(params)), stop)
        assert isinstance(result, tuple)
        return result

    def count_tokens(self, text: str) -> TokenCount:
        value = self._run(wire.CountTokens(text))
        assert isinstance(value, int)
        return TokenCount(value, exact=True)

    def plan(self, request: PlanRequest) -> PlanResult:
        """The context window for a turn, measured with the loaded model's own tokenizer and template."""
        if not self.is_loaded:
            return PlanResult(request, error="No model is loaded yet: the window depends on its tokenizer.")
        result = self._run(wire.Plan(request))
        assert isinstance(result, PlanResult)
        return replace(result, request=request)  # the asker's own request object back

    def inspect(self, request: InspectRequest) -> PromptInspection:
        result = self._run(wire.Inspect(request))
        assert isinstance(result, PromptInspection)
        return result

    def beam_search(
        self, messages: Sequence[ChatMessage], settings: BeamSettings, stop: threading.Event | None = None
    ) -> BeamResult:
        """The beams' hypotheses, best first. Raises BeamWidthDoesNotFit (with the numbers) or BeamSearchError."""
        result = self._run(wire.BeamSearch(tuple(messages), settings), stop)
        assert isinstance(result, BeamResult)
        return result

    def replay(
        self,
        record: ReplayRecord,
        messages: Sequence[ChatMessage],
        changed: SamplingParams | None = None,
        stop: threading.Event | None = None,
    ) -> ReplayReport:
        result = self._run(wire.Replay(record, tuple(messages), changed), stop)
        assert isinstance(result, ReplayReport)
        return result

    def close(self) -> None:
        """End the engine (and free the model and its memory) in bounded time."""
        self._config = None
        self.link.close()

    def check_engine(self) -> None:
        """Raise EngineCrashed when the engine died while it had no job (the model is then gone)."""
        try:
            self.link.check()
        except EngineCrashed as crash:
            self._lost(crash)
            raise

    # ---- jobs ------------------------------------------------------------------------

    def _submit(self, job: Job) -> None:
        """Send `job` (its events go to a box of its own, until the job's caller closes it); EngineCrashed when
        the engine died since the last one (the model went with it)."""
        self._job_events.open(job.id)
        try:
            self.link.submit(job)
        except EngineCrashed as crash:
            self._job_events.close(job.id)
            self._lost(crash)
            raise
        except BaseException:
            self._job_events.close(job.id)
            raise

    def _lost(self, crash: EngineCrashed) -> None:
        self._config = None
        self.crash = crash

    def _run(
        self, work: wire.Work, abort: threading.Event | None = None, listener: LoadListener | None = None
    ) -> object:
        job = Job(next_job_id(), work)
        self._submit(job)
        try:
            for event in self._events(job.id, abort):
                if isinstance(event, Finished):
                    return event.value
                if listener is not None:
                    _tell(listener, event)
        except EngineCrashed as crash:
            self._lost(crash)
            raise
        finally:
            self._job_events.close(job.id)
        raise AssertionError("a job's events end with Finished or Failed")

    def _events(self, job_id: int, abort: threading.Event | None) -> Iterator[wire.Event]:
        """The job's events up to its Finished (included); Failed raises its error.

        `abort` is forwarded to the engine as soon as it is set: a StopFlag wakes the wait for
        it, a plain Event is looked at every POLL_S."""

        def wake() -> None:
            self._job_events.wake(job_id)

        with abort.waking(wake) if isinstance(abort, StopFlag) else contextlib.nullcontext():
            wait_s = WAIT_S if abort is None or isinstance(abort, StopFlag) else POLL_S
            aborted = False
            while True:
                if abort is not None and not aborted and abort.is_set():
                    self.link.abort(job_id)
                    aborted = True
                event = self._job_events.next(job_id, wait_s)
                if event is None:
                    continue  # nothing yet
                if isinstance(event, Failed):
                    raise event.error.to_exception()
                yield event
                if isinstance(event, Finished):
                    return


def _tell(listener: LoadListener, event: wire.Event) -> None:
    if isinstance(event, wire.Stage):
        listener.stage(event.name)
    elif isinstance(event, wire.Progress):
        listener.progress(event.fraction)
    elif isinstance(event, wire.FallbackStepped):
        listener.fallback_step(event.step)
