"""Runs a turn on the LLM worker's thread and turns its events into signals for the GUI thread.

`start` hands a `Turn` (app/core/turn) to the worker, which runs its steps; the turn's
events reach this controller's signals (queued to the GUI thread, in order), streamed text at
most once a frame, a thinking model's reasoning as `reasoning` and its answer as `token`, in the
order they were written. `stop` sets the running turn's own stop flag, directly from the GUI
thread: every step checks it and the token loop reads it between tokens, so a Stop at any
moment of the turn ends it, and the turn ends with exactly one `finished` or `failed`.

The worker's reply signals (`token`, `replyMetrics`, `replyTokens`, `finished`, `failed`),
which the monitor, the glass box and the bench follow, carry the turn's events too.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from app.core.chat.context_window import PlanRequest, PlanResult
from app.core.documents.retrieval import Retrieval
from app.core.support.timed_batch import TimedBatch
from app.core.turn.steps import TurnState, TurnStep
from app.core.turn.turn import Turn
from app.core.types.replies import ReplyDone, ReplyPart, TokenPiece
from app.core.types.stats import ReplyMetrics
from app.core.types.token_trace import TokenTrace
from app.ui.llm.worker import TEXT_BATCH_S, LlmWorker
from app.ui.turn.reply_parts import joined_runs


class TurnController(QObject):
    stepStarted = Signal(str)  # the step now running: "retrieve", "plan", "generate"
    retrieved = Signal(object)  # Retrieval: what was found for the newest message
    planned = Signal(object)  # PlanResult: the turn's context window
    token = Signal(str)  # streamed answer text, batched at screen rate
    reasoning = Signal(str)  # streamed reasoning text (a thinking model's, before its answer), batched likewise
    metrics = Signal(object)  # ReplyMetrics, right before `finished`
    trace = Signal(object)  # TokenTrace, right before `finished`, when token probabilities were asked for
    finished = Signal(object)  # ReplyDone: the turn's end (a stopped turn too, with its partial text)
    failed = Signal(str, object)  # partial text, why (a str; a core text keeps its template): the turn's end

    def __init__(self, worker: LlmWorker, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self._turn: Turn | None = None  # the turn running now (set and cleared on the GUI thread)
        self.token.connect(worker.token)
        self.metrics.connect(worker.replyMetrics)
        self.trace.connect(worker.replyTokens)
        self.finished.connect(worker.finished)
        self.failed.connect(self._tell_worker_listeners)
        self.finished.connect(self._ended)
        self.failed.connect(self._ended)

    @property
    def running(self) -> bool:
        return self._turn is not None

    def start(self, steps: Sequence[TurnStep], request: PlanRequest) -> Turn:
        """Run `steps` for `request` on the worker's thread; the end comes as `finished` or `failed`."""
        turn = Turn(steps, TurnState(request), _SignalSink(self))
        self._turn = turn
        self.worker.turnRequested.emit(turn)
        return turn

    def stop(self) -> None:
        """Never waits: the step running now sees the flag, the token loop before its next token."""
        if self._turn is not None:
            self._turn.stop.set()

    def _tell_worker_listeners(self, _partial: str, why: object) -> None:
        """The worker's `failed` still says a reply failed, for those that follow the worker (monitor, glass box)."""
        self.worker.failed.emit(why)

    def _ended(self, *_end: object) -> None:
        self._turn = None


class _SignalSink:
    """The turn's TurnSink, on the worker's thread: each event becomes the controller's signal."""

    def __init__(self, controller: TurnController) -> None:
        self._controller = controller
        self._text: TimedBatch[TokenPiece] = TimedBatch(TEXT_BATCH_S, self._send)

    def step_started(self, name: str) -> None:
        self._controller.stepStarted.emit(name)

    def retrieved(self, retrieval: Retrieval) -> None:
        self._controller.retrieved.emit(retrieval)

    def planned(self, result: PlanResult) -> None:
        self._controller.planned.emit(result)

    def token(self, piece: TokenPiece) -> None:
        if piece.text:
            self._text.add(piece)

    def _send(self, pieces: list[TokenPiece]) -> None:
        """One signal per run of pieces of the same part, in order: a batch may hold the reasoning's
        end and the answer's start."""
        for part, text in joined_runs((piece.part, piece.text) for piece in pieces):
            signal = self._controller.reasoning if part is ReplyPart.REASONING else self._controller.token
            signal.emit(text)

    def measured(self, metrics: ReplyMetrics | None, trace: TokenTrace | None) -> None:
        self._text.flush()
        if metrics is not None:
            self._controller.metrics.emit(metrics)
        if trace is not None:
            self._controller.trace.emit(trace)

    def finished(self, done: ReplyDone) -> None:
        self._text.flush()
        self._controller.finished.emit(done)

    def failed(self, partial: str, message: str) -> None:
        self._text.flush()
        self._controller.failed.emit(partial, message)
