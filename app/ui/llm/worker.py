"""The LLM worker: one QObject in its own QThread that owns the local backend and nothing else touches.

The backend runs llama.cpp in its own process (`app.core.backends.local`); this thread
waits on it, so the GUI thread never does. Requests arrive as queued signals
(`loadRequested`, `turnRequested`); results leave as signals. A turn (app/core/turn) brings
its own stop flag, which the GUI thread sets directly: a queued "stop" slot would wait behind
the running generation. When the engine process dies, the reply in progress ends with its
text kept, and `engineLost` says what happened: no model is loaded any more.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar, cast

from PySide6.QtCore import QObject, Signal, Slot

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import EngineCrashed
from app.core.backends.local.session import LoadListener
from app.core.backends.remote import RemoteBackend, RemoteError, RemoteReplyDone
from app.core.backends.remote_window import DEFAULT_CONTEXT, RemotePlanner
from app.core.backends.servers import ServerKeys, ServerModel
from app.core.chat.context_window import PlanRequest, PlanResult
from app.core.chat.prompt_inspector import InspectRequest
from app.core.inference.beam_search import BeamSettings
from app.core.inference.sampling import SamplingParams
from app.core.memory.fallback import OutOfMemoryError
from app.core.memory.slots_fit import planned_parallel
from app.core.models.load_guard import begin_load, end_load
from app.core.models.validation import ModelFileError
from app.core.monitor.reply_energy import EnergyMeter, ReplyMeasure
from app.core.server.config import DEFAULT_QUEUE_LIMIT
from app.core.server.model_queue import ModelQueue, QueuedJob
from app.core.support.formatting import fill
from app.core.support.stop_flag import StopFlag
from app.core.support.user_text import text_of
from app.core.turn.steps import TurnFailed
from app.core.turn.turn import Turn
from app.core.types.errors import EngineError, LoadCancelled
from app.core.types.load import LoadConfig, LoadReport
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, ReplyEvent
from app.core.types.stats import ReplyMetrics, StopReason
from app.core.types.tools import ToolSpec
from app.ui.llm.decoding_replies import ForkSpec, open_reply
from app.ui.threads import WorkerThread, rearm
from app.ui.widgets.core_text import word

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class ReplyRequest:
    messages: tuple[ChatMessage, ...]
    params: SamplingParams
    requested_at: float = field(default_factory=time.perf_counter)  # the reply's queue wait starts here
    fork: ForkSpec | None = None  # continue an earlier reply to `messages` with another token at one place
    beam: BeamSettings | None = None  # decode by beam search (the reply is the best hypothesis)
    prompt_ids: tuple[int, ...] = ()  # the planned prompt's tokens (empty: the backend renders `messages` itself)
    tools: tuple[ToolSpec, ...] = ()  # offered to the model (through its template, or in a server's request)
    grammar: str = ""  # GBNF the reply follows (a tool call's schema; the local model only)
    forced: tuple[str, ...] = ()  # the tools one of which the reply must call (a server's tool_choice)


# Streamed text reaches the GUI thread at most once a frame: a fast model makes a hundred
# tokens a second or more, and the view shows text at screen rate anyway.
TEXT_BATCH_S = 0.016


class LlmWorker(QObject):
    loadRequested = Signal(object)  # LoadConfig
    turnRequested = Signal(object)  # Turn: run its steps on this thread (app/ui/turn)
    inspectRequested = Signal(object)  # InspectRequest
    planRequested = Signal(object)  # PlanRequest: the context window for the next turn
    unloadRequested = Signal()
    selectServerRequested = Signal(object)  # ServerModel: chat with a model on a saved server from now on
    # The API server wants the model, writing this many replies at once (0: what the memory plan allows): from
    # now on every job goes through one queue, and with parallel slots this window's chat is one of the slots.
    shareRequested = Signal(int)
    modelShared = Signal(object)  # ModelQueue: API requests and this window's chats take turns through it
    unshareRequested = Signal()  # the API server stopped: the model is this window's alone again

    loadStarted = Signal(object)  # LoadConfig
    loadStage = Signal(str)  # the load stage now running (see load_timeline)
    loadProgress = Signal(float)
    loaded = Signal(object)  # LoadReport
    loadFailed = Signal(object)  # why, as a str (a core text keeps its template for the reader's language)
    loadCancelled = Signal(str)  # the cancel Glassbox was asked for (Cancel, closing): not a failure
    loadFallbackStep = Signal(object)  # FallbackStep: out of memory, retrying with fewer GPU layers
    loadFellBack = Signal(object)  # FallbackResult: loaded with fewer GPU layers than asked (emitted before `loaded`)
    loadOutOfMemory = Signal(object)  # LoadConfig: not even the CPU had the memory (emitted before `loadFailed`)
    # A turn's reply as the monitor, the glass box and the bench follow it (emitted by app/ui/turn's controller):
    token = Signal(str)  # streamed text: one token, or those of the last TEXT_BATCH_S together
    replyMetrics = Signal(object)  # ReplyMetrics, emitted right before `finished`
    replyTokens = Signal(object)  # TokenTrace, right before `finished`, while token_probabilities is set
    finished = Signal(object)  # ReplyDone
    failed = Signal(object)  # why, as a str (a core text keeps its template)
    promptInspected = Signal(object)  # PromptInspection
    inspectFailed = Signal(str)
    windowPlanned = Signal(object)  # PlanResult
    notice = Signal(str)  # something the user should know about a reply that is not an error
    engineLost = Signal(str)  # the engine process died (the message says how): no model is loaded now

    def __init__(self, backend: LocalBackend | None = None) -> None:
        super().__init__()
        self.backend = backend or LocalBackend()
        # StopFlags: setting one wakes this thread while it waits for the engine (stop_flag.py)
        self.stop_event = StopFlag()
        self.cancel_load_event = StopFlag()
        self.closing = threading.Event()  # set first when the thread is asked to stop: no new job runs
        # Set (by the GUI, directly): record each token's top alternatives, emitted as replyTokens.
        self.token_probabilities = threading.Event()
        # Written by this thread while a reply streams, read by the GUI for the live speed.
        self.generated_tokens = 0
        self.first_token_at = 0.0
        self.loadRequested.connect(self._load)
        self.turnRequested.connect(self._run_turn)
        self._engine_lost = ""  # set while a turn runs when its engine died: said once the turn has ended
        self.inspectRequested.connect(self._inspect)
        self.planRequested.connect(self._plan)
        self.unloadRequested.connect(self._unload)
        self.selectServerRequested.connect(self._select_server)
        self.shareRequested.connect(self._share)
        self.unshareRequested.connect(self._unshare)
        # Once the API server shares the model, the queue's thread owns the backend and runs every job.
        self.model_queue: ModelQueue | None = None
        # While a server's model is on duty: its client and the planner that counts with it.
        self.remote: RemoteBackend | None = None
        self._remote_planner: RemotePlanner | None = None
        self._energy: EnergyMeter | None = None  # made at the first reply on a GPU

    @Slot(object)
    def _select_server(self, choice: ServerModel) -> None:
        """A model on a server is on duty now: the local model is freed, nothing is loaded here."""
        config = LoadConfig(Path(choice.model.id), n_ctx=choice.model.context_length or DEFAULT_CONTEXT)
        self.loadStarted.emit(config)
        self._drop_remote()
        self._unload()
        remote = RemoteBackend(choice.server.config(ServerKeys().get(choice.server)))
        remote.select_model(choice.model.id)
        self.remote, self._remote_planner = remote, RemotePlanner(remote, choice.model.context_length)
        self.loaded.emit(LoadReport(config, n_ctx_train=choice.model.context_length or 0, server=choice.server.name))

    def _drop_remote(self) -> None:
        remote, self.remote, self._remote_planner = self.remote, None, None
        if remote is not None:
            remote.close()

    def close(self) -> None:
        """Free whatever is on duty (run in the thread once its event loop has ended)."""
        self._drop_remote()
        if self._energy is not None:
            self._energy.close()
        queue, self.model_queue = self.model_queue, None
        if queue is not None:
            queue.close()
        self.backend.close()

    @Slot(int)
    def _share(self, parallel: int) -> None:
        """Created here, between this thread's jobs, so the backend never has two owners at once.

        With `parallel` > 1 (or 0, and the memory plan allows it) the engine writes that many replies at once
        in parallel slots and the queue runs as many jobs at once; this window's replies then go through the
        slots too, ahead of the API requests waiting (model_queue.py)."""
        count = self._slots_to_open(parallel)
        queue = self.model_queue
        if queue is None or queue.slots != count or self.backend.parallel != count:
            self.model_queue = None
            if queue is not None:
                queue.close()
            count = self._open_slots(count)
            self.model_queue = ModelQueue(self.backend, DEFAULT_QUEUE_LIMIT, name="model", slots=count)
        self.modelShared.emit(self.model_queue)

    @Slot()
    def _unshare(self) -> None:
        """The server stopped: the queue's threads end and this window's replies leave the slots (so they get
        their replay records and speculative decoding again)."""
        queue, self.model_queue = self.model_queue, None
        if queue is not None:
            queue.close()
        self._open_slots(1)

    def _slots_to_open(self, parallel: int) -> int:
        if parallel > 0:
            return parallel
        config = self.backend.config
        if self.remote is not None or config is None:
            return 1  # no local model to plan for: one reply at a time
        return planned_parallel(config)

    def _open_slots(self, count: int) -> int:
        """Open `count` slots on the loaded model (and after each later load); the count opened (1 when the slots'
        context cannot be made: the notice says why)."""
        if count == self.backend.parallel and (count == 1 or self.backend.slot_ctx or not self.backend.is_loaded):
            return count
        try:
            self.backend.open_slots(count)
        except EngineError as error:  # EngineCrashed included
            log.warning("The parallel slots could not be opened: %s", error)
            self.notice.emit(fill(self.tr("The server writes one reply at a time: {error}"), error=text_of(error)))
            try:
                self.backend.open_slots(1)
            except EngineError as closing:
                log.warning("Closing the parallel slots failed: %s", closing)
            return 1
        return count

    def _on_model(self, work: Callable[[LocalBackend], T]) -> T:
        """Run `work` with the model: here, or in its turn on the shared queue's thread (waiting for it)."""
        queue = self.model_queue
        if queue is None:
            return work(self.backend)
        outcome: list[tuple[bool, Any]] = []
        done = threading.Event()

        def run(backend: LocalBackend) -> None:
            try:
                outcome.append((True, work(backend)))
            except BaseException as error:  # handed back to this thread, which handles it as before
                outcome.append((False, error))
            finally:
                done.set()

        def skipped() -> None:
            outcome.append((False, EngineError(self.tr("The model is shutting down."))))
            done.set()

        queue.submit(QueuedJob(run=run, skipped=skipped), bounded=False)
        done.wait()
        succeeded, value = outcome[0]
        if not succeeded:
            raise value
        return cast("T", value)

    def with_model(self, work: Callable[[LocalBackend], T]) -> T:
        """Run `work` with the local model, on this thread (for jobs beside the replies: decoding_jobs.py)."""
        return self._on_model(work)

    @Slot(object)
    def _load(self, config: LoadConfig) -> None:
        rearm(self.cancel_load_event, self.closing)
        self._drop_remote()
        self.loadStarted.emit(config)
        # Marked while it runs: a load that takes the machine down is not repeated at the next start.
        begin_load(config.model_path)
        listener = LoadListener(self.loadStage.emit, self.loadProgress.emit, self.loadFallbackStep.emit)
        try:
            result = self._on_model(lambda backend: backend.load(config, listener, self.cancel_load_event))
        except LoadCancelled as error:
            log.info("%s", error)
            self.loadCancelled.emit(str(error))
            return
        except (ModelFileError, EngineError) as error:  # EngineCrashed included: the engine process died
            log.warning("Model load failed: %s", error)
            if isinstance(error, OutOfMemoryError):
                self.loadOutOfMemory.emit(config)
            self.loadFailed.emit(text_of(error))
            return
        except Exception as error:  # whatever else: never kill the thread
            log.exception("Unexpected error while loading %s", config.model_path)
            self.loadFailed.emit(
                fill(self.tr("Loading {name} failed unexpectedly: {error}"), name=config.model_path.name, error=error)
            )
            return
        finally:
            end_load()
        if result.fell_back:
            self.loadFellBack.emit(result)
        self.loaded.emit(result.report)

    @Slot(object)
    def _run_turn(self, turn: Turn) -> None:
        """Run a turn's steps here; closing stops it (its own flag is the one its steps check)."""
        if self.closing.is_set():
            turn.stop.set()
        with self.stop_event.waking(turn.stop.set):  # the thread's stop (closing) is the turn's too
            turn.run()
        lost, self._engine_lost = self._engine_lost, ""
        if lost:  # said after the turn's end, so the reply is saved before the model is marked gone
            self.engineLost.emit(lost)

    def stream_reply(self, request: ReplyRequest, stop: threading.Event, emit: Callable[[ReplyEvent], None]) -> None:
        """Write one reply (a turn's generate step, on this thread): its events go to `emit`, the last one a
        ReplyDone. Raises TurnFailed with the message the user reads when it cannot be written."""
        self.generated_tokens = 0
        self.first_token_at = 0.0
        remote = self.remote
        started = time.perf_counter()
        times: list[float] = []  # when each piece arrived, for a server's reply (the engine records its own)
        measure = ReplyMeasure(request.requested_at, self._energy_meter() if remote is None else None)

        def stream(backend: LocalBackend | RemoteBackend) -> None:
            measure.began()
            events = open_reply(
                backend,
                request.messages,
                request.params,
                stop,
                self.token_probabilities.is_set(),
                request.fork,
                request.beam,
                self.tr("Beam search and forks need the model on this computer: a server's model only samples."),
                request.prompt_ids,
                request.tools,
                request.grammar,
                request.forced,
            )
            for event in events:
                if isinstance(event, ReplyDone):
                    if isinstance(event, RemoteReplyDone) and event.notice:  # the server ignored max_tokens
                        self.notice.emit(word(event.notice))
                    done = event if event.metrics is not None else self._measured_here(event, times)
                    emit(replace(done, metrics=measure.finish(done.metrics)) if done.metrics else done)
                    if done.stats.stop_reason is StopReason.ERROR and not self.backend.is_loaded:
                        self._engine_lost = done.stats.error
                    continue
                if event.token_id >= 0 or remote is not None:  # a server's pieces carry no token ids
                    self.generated_tokens += 1
                    self.first_token_at = self.first_token_at or time.perf_counter()
                    if remote is not None:
                        times.append(time.perf_counter() - started)
                emit(event)

        try:
            if remote is not None:
                unsent = remote.unsent_params(request.params)
                if unsent:  # named, never silently dropped
                    names = ", ".join(unsent)
                    self.notice.emit(
                        fill(
                            self.tr(
                                "This server does not take these sampling settings, so they were not sent: {names}."
                            ),
                            names=names,
                        )
                    )
                stream(remote)  # a server's model: nothing of this machine's model is involved
            else:
                self._on_model(stream)
        except RemoteError as error:  # the server failed before any text came
            raise TurnFailed(error.message) from None
        except EngineCrashed as error:  # the engine died before the reply began
            self._engine_lost = str(error)
            raise TurnFailed(text_of(error)) from None
        except EngineError as error:
            raise TurnFailed(text_of(error)) from None
        except Exception as error:
            log.exception("Generation failed")
            raise TurnFailed(fill(self.tr("Generation failed unexpectedly: {error}"), error=error)) from None

    def _energy_meter(self) -> EnergyMeter | None:
        """The GPUs' energy meter while the local model has layers on a GPU; None on the CPU."""
        config = self.backend.config
        if config is None or config.n_gpu_layers == 0:
            return None
        if self._energy is None:
            self._energy = EnergyMeter()
        return self._energy

    def _measured_here(self, done: ReplyDone, times: list[float]) -> ReplyDone:
        """A server's reply with the metrics this side can give (no llama.cpp counters: None, not zeros)."""
        n_ctx = self._remote_planner.n_ctx if self._remote_planner is not None else 0
        used = done.stats.prompt_tokens + done.stats.completion_tokens
        metrics = ReplyMetrics(done.stats, n_ctx=n_ctx, context_used=used, token_times_s=times, llama=None)
        return replace(done, metrics=metrics)

    @Slot(object)
    def _plan(self, request: PlanRequest) -> None:
        self.windowPlanned.emit(self.plan(request))

    def count_tokens(self, text: str) -> int:
        """`text`'s tokens with the model on duty (a server's may estimate them), on this thread; 0 when it
        cannot be counted (the model is gone: the turn reports that itself)."""
        remote = self.remote
        try:
            counted = remote.count_tokens(text) if remote else self._on_model(lambda b: b.count_tokens(text))
        except (EngineError, RemoteError) as error:
            log.warning("A tool's result could not be counted: %s", error)
            return 0
        return counted.tokens

    def plan(self, request: PlanRequest) -> PlanResult:
        """The context window for `request`, with the model on duty (here or on a server), on this thread."""
        try:
            planner = self._remote_planner
            return planner.plan(request) if planner else self._on_model(lambda backend: backend.plan(request))
        except EngineError as error:  # EngineCrashed included: the model is gone
            if isinstance(error, EngineCrashed):
                self.engineLost.emit(str(error))
            return PlanResult(request, error=text_of(error))

    @Slot(object)
    def _inspect(self, request: InspectRequest) -> None:
        if self.remote is not None:
            self.inspectFailed.emit(
                self.tr(
                    "The prompt inspector needs the model's own chat template and tokenizer; "
                    "a server does not share them."
                )
            )
            return
        if not self.backend.is_loaded:
            self.inspectFailed.emit(
                self.tr("No model is loaded yet: the prompt depends on the model's template and tokenizer.")
            )
            return
        try:
            inspection = self._on_model(lambda backend: backend.inspect(request))
        except Exception as error:  # a template can fail on odd input; say so instead of dying
            self.inspectFailed.emit(fill(self.tr("The prompt could not be built: {error}"), error=word(error)))
            return
        self.promptInspected.emit(inspection)

    @Slot()
    def _unload(self) -> None:
        self._drop_remote()
        try:
            self._on_model(lambda backend: backend.unload())
        except EngineError as error:  # the engine is gone already: nothing is loaded, as asked
            log.info("Unloading: %s", error)


class LlmThread:
    """The worker's thread. Stopping sets the reply's stop flag and the load's cancel flag and
    drops queued requests; the model is closed in the thread itself once it has ended."""

    def __init__(self, worker: LlmWorker | None = None) -> None:
        self.worker = worker or LlmWorker()
        self.thread = WorkerThread(
            self.worker,
            "llm-worker",
            flags=(self.worker.closing, self.worker.stop_event, self.worker.cancel_load_event),
            on_end=self.worker.close,
        )
        self.thread.start()

    def request_stop(self) -> None:
        """Never waits: a reply stops before its next token, a load at its next step."""
        self.thread.request_stop()

    def shutdown(self) -> None:
        """Stop and wait for the thread, however long the step it is in takes."""
        self.request_stop()
        self.thread.wait()
