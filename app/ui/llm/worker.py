"""The LLM worker: one QObject in its own QThread that owns the local backend and nothing else touches.

The backend runs llama.cpp in its own process (`app.core.backends.local`); this thread
waits on it, so the GUI thread never does. Requests arrive as queued signals
(`loadRequested`, `generateRequested`); results leave as signals. Stop is a
`threading.Event` the GUI thread sets directly: a queued "stop" slot would wait behind the
running generation. When the engine process dies, the reply in progress ends with its
text kept, and `engineLost` says what happened: no model is loaded any more.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import EngineCrashed
from app.core.backends.local.session import LoadListener
from app.core.chat.context_window import PlanRequest, PlanResult
from app.core.chat.prompt_inspector import InspectRequest
from app.core.inference.engine import ChatMessage, EngineError, LoadCancelled, LoadConfig, ReplyDone, StopReason
from app.core.inference.sampling import SamplingParams
from app.core.models.load_guard import begin_load, end_load
from app.core.models.validation import ModelFileError
from app.ui.threads import WorkerThread, rearm

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReplyRequest:
    messages: tuple[ChatMessage, ...]
    params: SamplingParams


TEXT_BATCH_S = 0.016


class _TextBatch:
    """Sends streamed text at most once a frame (16 ms), the first piece at once.

    A fast model makes a hundred tokens a second or more; one queued signal each wakes the
    GUI thread as often, and on a machine with few cores every wake-up takes a core from
    llama.cpp mid-token. The view shows text at screen rate anyway.
    """

    def __init__(self, send: Callable[[str], object]) -> None:
        self._send = send
        self._parts: list[str] = []
        self._sent_at = 0.0

    def add(self, text: str) -> None:
        self._parts.append(text)
        now = time.perf_counter()
        if now - self._sent_at >= TEXT_BATCH_S:
            self._sent_at = now
            self.flush()

    def flush(self) -> None:
        if self._parts:
            self._send("".join(self._parts))
            self._parts.clear()


class LlmWorker(QObject):
    loadRequested = Signal(object)  # LoadConfig
    generateRequested = Signal(object)  # ReplyRequest
    inspectRequested = Signal(object)  # InspectRequest
    planRequested = Signal(object)  # PlanRequest: the context window for the next turn
    unloadRequested = Signal()

    loadStarted = Signal(object)  # LoadConfig
    loadStage = Signal(str)  # the load stage now running (see load_timeline)
    loadProgress = Signal(float)
    loaded = Signal(object)  # LoadReport
    loadFailed = Signal(str)
    loadCancelled = Signal(str)  # the cancel Glassbox was asked for (Cancel, closing): not a failure
    loadFallbackStep = Signal(object)  # FallbackStep: out of memory, retrying with fewer GPU layers
    loadFellBack = Signal(object)  # FallbackResult: loaded with fewer GPU layers than asked (emitted before `loaded`)
    token = Signal(str)  # streamed text: one token, or those of the last TEXT_BATCH_S together
    replyMetrics = Signal(object)  # ReplyMetrics, emitted right before `finished`
    replyTokens = Signal(object)  # TokenTrace, right before `finished`, while token_probabilities is set
    finished = Signal(object)  # ReplyDone
    failed = Signal(str)
    promptInspected = Signal(object)  # PromptInspection
    inspectFailed = Signal(str)
    windowPlanned = Signal(object)  # PlanResult
    engineLost = Signal(str)  # the engine process died (the message says how): no model is loaded now

    def __init__(self, backend: LocalBackend | None = None) -> None:
        super().__init__()
        self.backend = backend or LocalBackend()
        self.stop_event = threading.Event()
        self.cancel_load_event = threading.Event()
        self.closing = threading.Event()  # set first when the thread is asked to stop: no new job runs
        # Set (by the GUI, directly): record each token's top alternatives, emitted as replyTokens.
        self.token_probabilities = threading.Event()
        # Written by this thread while a reply streams, read by the GUI for the live speed.
        self.generated_tokens = 0
        self.first_token_at = 0.0
        self.loadRequested.connect(self._load)
        self.generateRequested.connect(self._generate)
        self.inspectRequested.connect(self._inspect)
        self.planRequested.connect(self._plan)
        self.unloadRequested.connect(self._unload)

    @Slot(object)
    def _load(self, config: LoadConfig) -> None:
        rearm(self.cancel_load_event, self.closing)
        self.loadStarted.emit(config)
        # Marked while it runs: a load that takes the machine down is not repeated at the next start.
        begin_load(config.model_path)
        listener = LoadListener(self.loadStage.emit, self.loadProgress.emit, self.loadFallbackStep.emit)
        try:
            result = self.backend.load(config, listener, self.cancel_load_event)
        except LoadCancelled as error:
            log.info("%s", error)
            self.loadCancelled.emit(str(error))
            return
        except (ModelFileError, EngineError) as error:  # EngineCrashed included: the engine process died
            log.warning("Model load failed: %s", error)
            self.loadFailed.emit(str(error))
            return
        except Exception as error:  # whatever else: never kill the thread
            log.exception("Unexpected error while loading %s", config.model_path)
            self.loadFailed.emit(f"Loading {config.model_path.name} failed unexpectedly: {error}")
            return
        finally:
            end_load()
        if result.fell_back:
            self.loadFellBack.emit(result)
        self.loaded.emit(result.report)

    @Slot(object)
    def _generate(self, request: ReplyRequest) -> None:
        rearm(self.stop_event, self.closing)
        self.generated_tokens = 0
        self.first_token_at = 0.0
        try:
            batch = _TextBatch(self.token.emit)
            events = self.backend.stream_chat(
                request.messages, request.params, self.stop_event, self.token_probabilities.is_set()
            )
            for event in events:
                if isinstance(event, ReplyDone):
                    batch.flush()
                    self._finish(event)
                    continue
                if event.token_id >= 0:
                    self.generated_tokens += 1
                    self.first_token_at = self.first_token_at or time.perf_counter()
                if event.text:
                    batch.add(event.text)
        except EngineCrashed as error:  # the engine died before the reply began
            self.failed.emit(str(error))
            self.engineLost.emit(str(error))
        except EngineError as error:
            self.failed.emit(str(error))
        except Exception as error:
            log.exception("Generation failed")
            self.failed.emit(f"Generation failed unexpectedly: {error}")

    def _finish(self, done: ReplyDone) -> None:
        if done.metrics is not None:
            self.replyMetrics.emit(done.metrics)
        if done.trace is not None:
            self.replyTokens.emit(done.trace)
        self.finished.emit(done)
        if done.stats.stop_reason is StopReason.ERROR and not self.backend.is_loaded:
            self.engineLost.emit(done.stats.error)

    @Slot(object)
    def _plan(self, request: PlanRequest) -> None:
        try:
            result = self.backend.plan(request)
        except EngineError as error:
            result = PlanResult(request, error=str(error))
        self.windowPlanned.emit(result)

    @Slot(object)
    def _inspect(self, request: InspectRequest) -> None:
        if not self.backend.is_loaded:
            self.inspectFailed.emit("No model is loaded yet: the prompt depends on the model's template and tokenizer.")
            return
        try:
            inspection = self.backend.inspect(request)
        except Exception as error:  # a template can fail on odd input; say so instead of dying
            self.inspectFailed.emit(f"The prompt could not be built: {error}")
            return
        self.promptInspected.emit(inspection)

    @Slot()
    def _unload(self) -> None:
        try:
            self.backend.unload()
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
            on_end=self.worker.backend.close,
        )
        self.thread.start()

    def request_stop(self) -> None:
        """Never waits: a reply stops before its next token, a load at its next step."""
        self.thread.request_stop()

    def shutdown(self) -> None:
        """Stop and wait for the thread, however long the step it is in takes."""
        self.request_stop()
        self.thread.wait()
