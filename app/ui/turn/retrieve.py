"""A turn's retrieve step on the retrieval worker's thread, waited for on the LLM worker's.

The retrieval worker owns its connection to the documents index, so the turn asks it and
waits for its answer; a Stop ends the wait at once (and cancels the search), and the turn
then ends as stopped without planning anything.
"""

from __future__ import annotations

import queue

from PySide6.QtCore import Qt

from app.core.chat.context_window import PlanRequest
from app.core.documents.retrieval import Retrieval
from app.core.support.stop_flag import StopFlag
from app.core.turn.steps import Retrieve
from app.ui.llm.retrieval import RetrievalJob, RetrievalWorker


def retrieve_with(
    worker: RetrievalWorker, chat_id: str, thread_ids: tuple[str, ...], window_ids: tuple[str, ...], n_ctx: int
) -> Retrieve:
    """The retrieve step's work for a reply in `chat_id` (see RetrievalJob for the ids)."""

    def retrieve(request: PlanRequest, stop: StopFlag) -> Retrieval:
        job = RetrievalJob(chat_id, request, thread_ids, window_ids, n_ctx)
        answers: queue.SimpleQueue[Retrieval | None] = queue.SimpleQueue()

        def answer(answered: RetrievalJob, retrieval: Retrieval) -> None:  # on the retrieval worker's thread
            if answered is job:
                answers.put(retrieval)

        worker.retrieved.connect(answer, Qt.ConnectionType.DirectConnection)
        try:
            with stop.waking(lambda: answers.put(None)):
                if stop.is_set():
                    return Retrieval(job.question)
                worker.retrieveRequested.emit(job)
                found = answers.get()
        finally:
            worker.retrieved.disconnect(answer)
        if found is None:  # stopped: the search need not go on
            worker.cancel.set()
            return Retrieval(job.question)
        return found

    return retrieve
