"""The local backend: llama.cpp in a child process that may die without taking this process with it."""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from app.core.backends.base import Backend
from app.core.backends.local import backend as local_backend
from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import EngineCrashed, EngineProcess
from app.core.backends.local.session import LoadListener
from app.core.chat.context_window import PlanRequest, WindowTurn
from app.core.inference.crash_report import rebuild_command
from app.core.inference.sampling import GREEDY
from app.core.models.validation import ModelFileError
from app.core.support.stop_flag import StopFlag
from app.core.types.errors import LoadCancelled, PromptTooLong
from app.core.types.load import LoadConfig, Speculative
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece
from app.core.types.stats import StopReason

STORY = [ChatMessage("user", "Write a long story about a lighthouse keeper.")]
LONG = replace(GREEDY, max_tokens=200)
PROCESS_LOG = "app.core.backends.local.process"


@pytest.fixture
def backend(starter_model: Path) -> Iterator[LocalBackend]:
    local = LocalBackend()
    local.load(LoadConfig(starter_model, n_ctx=1024))
    yield local
    local.close()


def engine_pid(backend: LocalBackend) -> int:
    assert isinstance(backend.link, EngineProcess) and backend.link.pid is not None
    return backend.link.pid


def test_it_is_a_backend_that_offers_everything_the_glass_shows(backend: LocalBackend) -> None:
    assert isinstance(backend, Backend)
    offered = backend.capabilities
    assert offered.token_probabilities and offered.tokenization and offered.kv_reuse
    assert offered.load_timeline and offered.gpu_plan
    assert backend.unsent_params(GREEDY) == ()


def test_the_model_runs_in_another_process_and_the_reply_streams_with_metrics_and_probabilities(
    backend: LocalBackend,
) -> None:
    assert engine_pid(backend) != os.getpid()
    events = list(backend.stream_chat(STORY, replace(GREEDY, max_tokens=24), threading.Event(), True))
    pieces, done = events[:-1], events[-1]
    assert all(isinstance(piece, TokenPiece) for piece in pieces)
    assert isinstance(done, ReplyDone) and done.text == "".join(p.text for p in pieces if isinstance(p, TokenPiece))
    assert done.stats.completion_tokens == 24 and done.stats.stop_reason is StopReason.LENGTH
    assert done.metrics is not None and done.metrics.llama.eval_tokens > 0 and done.metrics.n_ctx == 1024
    assert done.trace is not None and len(done.trace.steps) == 24


def test_token_probabilities_are_recorded_only_when_asked_for(backend: LocalBackend) -> None:
    *_, done = backend.stream_chat(STORY, replace(GREEDY, max_tokens=4), threading.Event())
    assert isinstance(done, ReplyDone) and done.trace is None and done.metrics is not None


def test_tokens_are_counted_exactly_and_the_window_is_planned_with_the_model_s_tokenizer(
    backend: LocalBackend,
) -> None:
    count = backend.count_tokens("The lighthouse keeper lit the lamp.")
    assert count.exact and 5 < count.tokens < 15
    request = PlanRequest("meter", "", (WindowTurn(1, "user", "Hello there."),), reserve=64)
    result = backend.plan(request)
    assert result.request is request  # the asker's own request comes back
    assert result.plan is not None and result.plan.n_ctx == 1024 and result.plan.prompt_tokens > 3


def test_a_raw_completion_continues_the_text_and_a_grammar_crosses_to_the_engine(backend: LocalBackend) -> None:
    raw = list(backend.stream_completion("One, two, three,", replace(GREEDY, max_tokens=6), threading.Event()))
    done = raw[-1]
    assert isinstance(done, ReplyDone) and done.text and done.stats.completion_tokens == 6
    assert done.stats.prompt_tokens < 10  # the prompt as it is, no chat template around it

    digits = 'root ::= [0-9]+ "."'
    constrained = list(backend.stream_chat(STORY, replace(GREEDY, max_tokens=8), threading.Event(), grammar=digits))
    text = constrained[-1].text if isinstance(constrained[-1], ReplyDone) else ""
    assert text and set(text) <= set("0123456789.")


def test_what_speculative_decoding_drafted_and_kept_crosses_from_the_engine_process(starter_model: Path) -> None:
    paragraph = "The keeper climbed the stairs at dusk, trimmed the wick and wrote the wind and the sea into the log."
    edit = [ChatMessage("user", f"Repeat this exactly:\n\n{paragraph}")]
    drafting = LocalBackend()
    try:
        drafting.load(LoadConfig(starter_model, n_ctx=1024, speculative=Speculative.ON, flash_attn=True))
        done = list(drafting.stream_chat(edit, replace(GREEDY, max_tokens=40), threading.Event()))[-1]
    finally:
        drafting.close()
    assert isinstance(done, ReplyDone) and done.metrics is not None and done.metrics.llama is not None
    stats = done.stats
    assert 0 < stats.accepted_tokens <= stats.drafted_tokens
    assert done.metrics.stats == stats and done.metrics.llama.draft_check_tokens > stats.drafted_tokens


def test_a_prompt_too_long_arrives_with_its_counts(backend: LocalBackend) -> None:
    with pytest.raises(PromptTooLong) as refused:
        list(backend.stream_chat([ChatMessage("user", "word " * 1200)], GREEDY, threading.Event()))
    assert refused.value.n_ctx == 1024 and refused.value.prompt_tokens > 1200


def test_stop_ends_the_reply_within_one_token(backend: LocalBackend) -> None:
    stop = threading.Event()
    seen = 0
    for event in backend.stream_chat(STORY, LONG, stop):
        if isinstance(event, ReplyDone):
            done = event
        elif event.token_id >= 0:
            seen += 1
            stop.set()
    assert done.stats.stop_reason is StopReason.USER
    assert done.stats.completion_tokens <= seen + 1


def test_a_stop_flag_set_from_another_thread_wakes_the_waiting_caller_which_never_polls(
    backend: LocalBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[tuple[float, bool]] = []  # each wait for the engine: its timeout, and whether an event came
    next_event = backend.link.next_event

    def watched(timeout: float) -> object:
        event = next_event(timeout)
        waits.append((timeout, event is not None))
        return event

    monkeypatch.setattr(backend.link, "next_event", watched)
    # Long enough that no wait runs out while the engine works, however loaded the machine: only the flag ends one.
    monkeypatch.setattr(local_backend, "WAIT_S", 60.0)
    stop = StopFlag()
    setter = threading.Timer(0.05, stop.set)
    for event in backend.stream_chat(STORY, LONG, stop):
        if isinstance(event, ReplyDone):
            done = event
        elif setter.ident is None:
            setter.start()  # set while the caller waits for the next piece
    setter.join()
    assert done.stats.stop_reason is StopReason.USER and done.stats.completion_tokens < LONG.max_tokens
    assert all(timeout > 50.0 for timeout, _ in waits)  # what is left of WAIT_S, never the plain Event's POLL_S
    assert sum(not came for _, came in waits) <= 1  # woken once, by the flag; never for nothing


def test_stop_set_before_the_reply_starts_aborts_the_prompt_evaluation(backend: LocalBackend) -> None:
    stop = threading.Event()
    stop.set()
    events = list(backend.stream_chat([ChatMessage("user", "word " * 600)], LONG, stop))
    done = events[-1]
    assert isinstance(done, ReplyDone) and done.stats.stop_reason is StopReason.USER
    assert done.stats.completion_tokens == 0 and done.text == ""
    # The engine is fine afterwards: the next reply runs.
    *_, after = backend.stream_chat(STORY, replace(GREEDY, max_tokens=3), threading.Event())
    assert isinstance(after, ReplyDone) and after.stats.completion_tokens == 3


CRASHES = [
    (signal.SIGSEGV, "crashed (SIGSEGV) while writing a reply"),
    (signal.SIGABRT, "crashed (SIGABRT) while writing a reply"),
    (signal.SIGILL, "'Illegal instruction' while writing a reply"),
    (signal.SIGKILL, "killed (SIGKILL) while writing a reply, most often by the system when memory runs out"),
]


@pytest.mark.parametrize(("signal_number", "said"), CRASHES, ids=[s.name for s, _ in CRASHES])
@pytest.mark.expected_log(PROCESS_LOG, logging.ERROR, "while writing a reply")
def test_a_dead_engine_ends_the_reply_with_its_text_kept_and_says_what_happened(
    backend: LocalBackend, starter_model: Path, signal_number: signal.Signals, said: str
) -> None:
    pid = engine_pid(backend)
    shown: list[str] = []
    for event in backend.stream_chat(STORY, LONG, threading.Event()):
        if isinstance(event, TokenPiece):
            shown.append(event.text)
            if len(shown) == 3:
                os.kill(pid, signal_number)
        else:
            done = event
    assert done.stats.stop_reason is StopReason.ERROR and said in done.stats.error
    assert "Last lines from llama.cpp: " in done.stats.error  # what llama.cpp logged last, in the engine
    assert done.text == "".join(shown) and done.text  # nothing the user saw is lost
    assert not backend.is_loaded
    # Load again: a fresh engine process takes over.
    backend.load(LoadConfig(starter_model, n_ctx=512))
    assert engine_pid(backend) != pid
    *_, after = backend.stream_chat(STORY, replace(GREEDY, max_tokens=3), threading.Event())
    assert isinstance(after, ReplyDone) and after.stats.completion_tokens == 3


@pytest.mark.expected_log(PROCESS_LOG, logging.ERROR, "Illegal instruction")
def test_illegal_instruction_names_the_rebuild_command(backend: LocalBackend) -> None:
    os.kill(engine_pid(backend), signal.SIGILL)
    with pytest.raises(EngineCrashed) as crash:
        backend.count_tokens("hello")
    assert "CPU instructions this machine cannot run" in str(crash.value) and rebuild_command() in str(crash.value)
    assert crash.value.exit_code == -signal.SIGILL


def dead(pid: int) -> bool:
    """Ended: a zombie its parent has not reaped yet, or reaped (a forkserver's child is at once)."""
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


@pytest.mark.expected_log(PROCESS_LOG, logging.ERROR, r"killed \(SIGKILL\) while running the model")
def test_the_job_that_finds_the_engine_dead_after_an_idle_death_takes_the_model_with_it(backend: LocalBackend) -> None:
    pid = engine_pid(backend)
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while not dead(pid) and time.monotonic() < deadline:
        time.sleep(0.01)  # dead before the job is sent: the send is what finds it
    with pytest.raises(EngineCrashed, match="SIGKILL") as crash:
        backend.count_tokens("hello")
    assert not backend.is_loaded and backend.crash is crash.value  # not a fresh engine with no model in it
    backend.check_engine()  # said once


@pytest.mark.expected_log(PROCESS_LOG, logging.ERROR, "GGML_ASSERT")
def test_what_the_engine_printed_last_before_dying_is_in_the_message(backend: LocalBackend) -> None:
    link = backend.link
    assert isinstance(link, EngineProcess)
    # What llama.cpp writes to the child's stderr right before abort() (an assert's reason).
    with open(link.stderr_path, "a") as stderr:
        stderr.write("llama.cpp:123: GGML_ASSERT(eps >= 0.0f) failed\n")
    os.kill(engine_pid(backend), signal.SIGABRT)
    with pytest.raises(EngineCrashed) as crash:
        backend.count_tokens("hello")
    assert "GGML_ASSERT(eps >= 0.0f) failed" in str(crash.value)


@pytest.mark.expected_log(PROCESS_LOG, logging.ERROR, "while loading SmolLM2")
def test_an_engine_that_dies_during_a_load_fails_the_load(starter_model: Path) -> None:
    backend = LocalBackend()
    try:
        pids: list[int] = []

        def die(_stage: str) -> None:
            if not pids:
                pids.append(engine_pid(backend))
                os.kill(pids[0], signal.SIGSEGV)

        with pytest.raises(EngineCrashed, match="crashed \\(SIGSEGV\\) while loading SmolLM2"):
            backend.load(LoadConfig(starter_model, n_ctx=512), LoadListener(stage=die))
        assert not backend.is_loaded
    finally:
        backend.close()


def test_a_file_that_is_not_a_model_is_refused_with_its_path_and_reason(tmp_path: Path) -> None:
    path = tmp_path / "notes.gguf"
    path.write_text("these are not weights")
    backend = LocalBackend()
    try:
        with pytest.raises(ModelFileError) as refused:
            backend.load(LoadConfig(path))
        assert refused.value.path == path and refused.value.reason
    finally:
        backend.close()


def test_a_cancelled_load_is_cancelled_not_failed(starter_model: Path) -> None:
    cancel = threading.Event()
    cancel.set()
    backend = LocalBackend()
    try:
        with pytest.raises(LoadCancelled):
            backend.load(LoadConfig(starter_model), cancel=cancel)
        assert not backend.is_loaded
    finally:
        backend.close()


def test_the_engine_s_log_lines_arrive_in_this_process_under_their_own_loggers(
    starter_model: Path, caplog: pytest.LogCaptureFixture
) -> None:
    backend = LocalBackend()
    try:
        with caplog.at_level(logging.DEBUG):
            backend.load(LoadConfig(starter_model, n_ctx=512))
    finally:
        backend.close()
    assert any(record.name == "llama.cpp" and "n_ctx" in record.getMessage() for record in caplog.records)


@pytest.mark.expected_log(PROCESS_LOG, logging.WARNING, "did not exit in 3 s; terminating it")
def test_closing_ends_even_a_frozen_engine(backend: LocalBackend) -> None:
    os.kill(engine_pid(backend), signal.SIGSTOP)  # as stuck as a process can be
    backend.close()
    assert not backend.link.running  # type: ignore[attr-defined]
