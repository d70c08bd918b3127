"""The engine's operations: what the engine child process does with each kind of job.

`OPERATIONS` maps each kind of work the wire carries to the function that runs it on the
child's `EngineSession`; the child host (app/core/support/child_host.py) runs every job
through it, and a kind the table lacks is an error that names it, never an Unload. A new
operation is a work type in `wire`, an entry here, and the backend's call that sends it.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from app.core.backends.local import wire
from app.core.backends.local.session import EngineSession, LoadListener
from app.core.support.child_host import Operation, Send
from app.core.support.timed_batch import TimedBatch
from app.core.types.replies import ReplyDone, ReplyEvent, TokenPiece

# The reply's pieces go to the window 30 times a second at most. Each message wakes three of
# its threads (the pipe's reader, the LLM worker, the GUI); measured in the whole window on two
# cores, that is about 400 µs of the reply's time per message, so 60 messages a second instead
# of 30 cost 100 µs a token more at 100 tokens/s. Text that grows 30 times a second still reads
# as streaming.
PIECE_BATCH_S = 1 / 30


def _load(session: EngineSession, work: wire.Load, job_id: int, flag: threading.Event, send: Send) -> Any:
    listener = LoadListener(
        stage=lambda name: send(wire.Stage(job_id, name)),
        progress=lambda fraction: send(wire.Progress(job_id, fraction)),
        fallback_step=lambda step: send(wire.FallbackStepped(job_id, step)),
    )
    return session.load(work.config, listener, flag)


def _reply(session: EngineSession, work: wire.Reply, job_id: int, flag: threading.Event, send: Send) -> Any:
    events = session.stream_chat(
        work.messages,
        work.params,
        flag,
        work.token_probabilities,
        work.grammar,
        work.record,
        work.prompt_ids,
        work.tools,
        work.window,
    )
    return _send_reply(job_id, events, send)


def _fork(session: EngineSession, work: wire.Fork, job_id: int, flag: threading.Event, send: Send) -> Any:
    events = session.stream_fork(
        work.messages, work.reply, work.position, work.forced, work.params, flag, work.token_probabilities
    )
    return _send_reply(job_id, events, send)


def _complete(session: EngineSession, work: wire.Complete, job_id: int, flag: threading.Event, send: Send) -> Any:
    events = session.stream_completion(work.prompt, work.params, flag, work.token_probabilities, work.grammar)
    return _send_reply(job_id, events, send)


def _unload(session: EngineSession, _work: wire.Unload, _job_id: int, _flag: threading.Event, _send: Send) -> Any:
    session.close()


# Every operation the engine runs, by the type of its job's work: one entry per member of wire.Work.
OPERATIONS: dict[type, Operation[EngineSession]] = {
    wire.Load: _load,
    wire.Reply: _reply,
    wire.Fork: _fork,
    wire.Complete: _complete,
    wire.Plan: lambda session, work, _id, _flag, _send: session.plan(work.request),
    wire.Inspect: lambda session, work, _id, _flag, _send: session.inspect(work.request),
    wire.CountTokens: lambda session, work, _id, _flag, _send: session.count_tokens(work.text),
    wire.BeamSearch: lambda session, work, _id, flag, _send: session.beam_search(work.messages, work.settings, flag),
    wire.Replay: lambda session, work, _id, flag, _send: session.replay(work.record, work.messages, work.changed, flag),
    wire.Unload: _unload,
    wire.OpenSlots: lambda session, work, _id, _flag, _send: session.open_slots(work.count),
    wire.RepliesAtOnce: lambda session, work, _id, flag, _send: session.replies_at_once(
        work.messages, work.params, flag
    ),
    wire.SlotStates: lambda session, _work, _id, _flag, _send: session.slot_states(),
}


def _send_reply(job_id: int, events: Iterator[ReplyEvent], send: Send) -> ReplyDone | None:
    """Send a reply's pieces in batches; the ReplyDone that ends it is the job's result."""
    batch: TimedBatch[TokenPiece] = TimedBatch(
        PIECE_BATCH_S,
        lambda pieces: send(wire.Pieces(job_id, "".join(p.text for p in pieces), tuple(p.token_id for p in pieces))),
    )
    done: ReplyDone | None = None
    for event in events:
        if isinstance(event, TokenPiece):
            batch.add(event)
        else:
            done = event
    batch.flush()
    return done
