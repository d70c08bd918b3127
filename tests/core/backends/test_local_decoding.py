"""Beam search, replay and their refusals through the local backend's engine process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.backends.local import session as session_module
from app.core.backends.local import wire
from app.core.backends.local.backend import LocalBackend
from app.core.backends.local.process import InProcessEngine
from app.core.inference.beam_search import BeamSearchError, BeamSettings
from app.core.inference.engine import Engine
from app.core.inference.replay import generate_recorded
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.memory.beam_fit import BeamWidthDoesNotFit
from app.core.memory.fit import Machine
from app.core.types.load import LoadConfig
from app.core.types.messages import ChatMessage
from app.core.types.replies import ReplyDone, TokenPiece

COLOURS = [ChatMessage("user", "Name three colours.")]


@pytest.fixture(scope="module")
def backend(starter_model: Path) -> Iterator[LocalBackend]:
    local = LocalBackend()
    local.load(LoadConfig(starter_model, n_ctx=2048))
    yield local
    local.close()


def test_a_beam_search_runs_in_the_engine_process_and_width_one_is_the_greedy_reply(backend: LocalBackend) -> None:
    greedy = [
        e.token_id
        for e in backend.stream_chat(COLOURS, replace(GREEDY, max_tokens=20), threading.Event())
        if isinstance(e, TokenPiece) and e.token_id >= 0
    ]
    assert list(backend.beam_search(COLOURS, BeamSettings(width=1, max_new_tokens=20)).best.tokens) == greedy
    wide = backend.beam_search(COLOURS, BeamSettings(width=3, max_new_tokens=20))
    assert len(wide.hypotheses) == 3
    assert [h.score for h in wide.hypotheses] == sorted((h.score for h in wide.hypotheses), reverse=True)


def test_settings_that_cannot_run_are_refused_across_the_process_boundary(backend: LocalBackend) -> None:
    with pytest.raises(BeamSearchError, match="width must be 1 to 8"):
        backend.beam_search(COLOURS, BeamSettings(width=12))


def test_a_beam_width_refusal_keeps_its_type_across_the_pipe() -> None:
    info = wire.ErrorInfo.of(BeamWidthDoesNotFit("Beam width 8 needs 3 GiB of RAM"))
    assert info.kind == "beam_does_not_fit"
    rebuilt = info.to_exception()
    assert isinstance(rebuilt, BeamWidthDoesNotFit) and "Beam width 8" in str(rebuilt)


def test_a_reply_recorded_here_replays_identically_in_the_engine_process(engine: Engine, backend: LocalBackend) -> None:
    prompt = engine.prompt_tokens(COLOURS)
    engine.llama.reset()
    done, record = generate_recorded(engine, prompt, SamplingParams(temperature=0.8, seed=42, max_tokens=16))
    assert isinstance(done, ReplyDone)
    report = backend.replay(record, COLOURS)
    assert report.identical, report.summary
    assert report.replayed == record.tokens


def _reply(events: Iterator[object]) -> tuple[list[int], ReplyDone]:
    tokens: list[int] = []
    done: ReplyDone | None = None
    for event in events:
        if isinstance(event, TokenPiece) and event.token_id >= 0:
            tokens.append(event.token_id)
        elif isinstance(event, ReplyDone):
            done = event
    assert done is not None
    return tokens, done


def test_a_chat_reply_asked_to_be_recorded_carries_its_record_and_replays_identically(backend: LocalBackend) -> None:
    sampled = SamplingParams(temperature=0.9, seed=None, max_tokens=12)
    tokens, done = _reply(backend.stream_chat(COLOURS, sampled, threading.Event(), record=True))
    record = done.replay
    assert record is not None, "the reply's record crosses the process boundary with its ReplyDone"
    assert record.tokens == tuple(tokens) and record.seed is not None  # a seed was fixed for the reply
    assert [step.name for step in record.sampler_chain][-1] == "draw"
    report = backend.replay(record, COLOURS)
    assert report.identical, report.summary
    _, plain = _reply(backend.stream_chat(COLOURS, sampled, threading.Event()))
    assert plain.replay is None  # only on request (the API server's replies are not recorded)


def test_a_fork_in_the_engine_process_keeps_the_prefix_and_forces_the_token(backend: LocalBackend) -> None:
    original, _ = _reply(backend.stream_chat(COLOURS, replace(GREEDY, max_tokens=12), threading.Event()))
    forced = original[3] + 1  # any other token at position 3
    events = backend.stream_fork(COLOURS, original, 3, forced, replace(GREEDY, max_tokens=6), threading.Event(), True)
    pieces = list(events)
    done = pieces[-1]
    assert isinstance(done, ReplyDone) and isinstance(pieces[0], TokenPiece)
    assert pieces[0].token_id == forced  # the kept text and the forced token come first, as one piece
    assert done.stats.cached_prompt_tokens >= done.stats.prompt_tokens - 1  # the prefix came from the cache
    assert done.trace is not None and len(done.trace.steps) == done.stats.completion_tokens


def test_a_beam_width_whose_kv_cache_does_not_fit_is_refused_before_the_search_runs(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny = Machine(free_vram=None, free_ram=64 * 1024 * 1024, gpus=0)  # what this machine cannot be made to lack
    monkeypatch.setattr(session_module, "machine_now", lambda: tiny)
    in_process = LocalBackend(link=InProcessEngine(engine))
    with pytest.raises(BeamWidthDoesNotFit, match=r"Beam width 8 needs .* of RAM for its KV cache"):
        in_process.beam_search(COLOURS, BeamSettings(width=8, max_new_tokens=512))
