"""The decoding explorer's jobs that are not chat replies — Compare and Replay — on the LLM worker's thread.

`DecodingJobs` lives in the worker's thread beside the worker and runs them on the backend the
worker holds (its turn on the shared queue when the API server shares the model), one at a
time, with the worker's stop flag: the Compare dialog's Stop and closing the window set it.
(Replies in a decoding mode and forks are chat replies: decoding_replies.py.)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal, Slot

from app.core.inference.beam_search import BeamSettings
from app.core.inference.compare import compare_strategies
from app.core.inference.sampling import SamplingParams
from app.core.support.formatting import fill
from app.core.types.errors import EngineError
from app.core.types.messages import ChatMessage
from app.core.types.replay_record import ReplayRecord
from app.ui.llm.worker import LlmWorker
from app.ui.threads import rearm
from app.ui.widgets.core_text import word

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CompareJob:
    messages: tuple[ChatMessage, ...]
    params: SamplingParams  # the sampled replies' settings; their max_tokens bounds every strategy
    beam: BeamSettings
    seeds: tuple[int, ...]


@dataclass(frozen=True)
class ReplayJob:
    message_id: str
    record: ReplayRecord
    messages: tuple[ChatMessage, ...]


class DecodingJobs(QObject):
    """Compare and Replay on the worker's thread; results leave as signals, Stop is the worker's stop flag."""

    compareRequested = Signal(object)  # CompareJob
    replayRequested = Signal(object)  # ReplayJob

    compared = Signal(object)  # StrategyResult, one per strategy as it is done
    compareFinished = Signal(str)  # "" when done (or stopped), else what went wrong
    replayed = Signal(str, object)  # message id, ReplayReport
    replayFailed = Signal(str, str)  # message id, what went wrong

    def __init__(self, worker: LlmWorker) -> None:
        super().__init__()
        self.worker = worker
        self.moveToThread(worker.thread())
        self.compareRequested.connect(self._compare)
        self.replayRequested.connect(self._replay)

    def _local_problem(self) -> str:
        if self.worker.remote is not None:
            return self.tr("This needs the model on this computer: a server's model does not offer it.")
        if not self.worker.backend.is_loaded:
            return self.tr("No model is loaded yet: choose one in the model picker.")
        return ""

    def compare(self, job: CompareJob) -> None:
        """Ask for a comparison (from the GUI thread): a Stop from now on is this job's."""
        rearm(self.worker.stop_event, self.worker.closing)
        self.compareRequested.emit(job)

    def replay(self, job: ReplayJob) -> None:
        """Ask for a replay (from the GUI thread): a Stop from now on is this job's."""
        rearm(self.worker.stop_event, self.worker.closing)
        self.replayRequested.emit(job)

    @Slot(object)
    def _compare(self, job: CompareJob) -> None:
        stop = self.worker.stop_event
        problem = self._local_problem()
        if problem:
            self.compareFinished.emit(problem)
            return
        beam = replace(job.beam, max_new_tokens=job.params.max_tokens)
        try:
            self.worker.with_model(
                lambda backend: compare_strategies(
                    backend, job.messages, job.params, beam, job.seeds, stop, self.compared.emit
                )
            )
        except EngineError as error:  # a width that does not fit, a prompt too long, the engine gone
            self.compareFinished.emit(word(error))
            return
        except Exception as error:  # whatever else: never kill the thread
            log.exception("The comparison failed")
            self.compareFinished.emit(fill(self.tr("The comparison failed unexpectedly: {error}"), error=error))
            return
        self.compareFinished.emit("")

    @Slot(object)
    def _replay(self, job: ReplayJob) -> None:
        stop = self.worker.stop_event
        problem = self._local_problem()
        if problem:
            self.replayFailed.emit(job.message_id, problem)
            return
        try:
            report = self.worker.with_model(lambda backend: backend.replay(job.record, job.messages, None, stop))
        except EngineError as error:
            self.replayFailed.emit(job.message_id, word(error))
            return
        except Exception as error:
            log.exception("The replay failed")
            self.replayFailed.emit(
                job.message_id, fill(self.tr("The replay failed unexpectedly: {error}"), error=error)
            )
            return
        self.replayed.emit(job.message_id, report)
