"""Beam search, replay and their refusals through the local backend's engine process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.core.backends.local import wire
from app.core.backends.local.backend import LocalBackend
from app.core.inference.beam_search import BeamSearchError, BeamSettings
from app.core.inference.engine import ChatMessage, Engine, LoadConfig, ReplyDone, TokenPiece
from app.core.inference.replay import generate_recorded
from app.core.inference.sampling import GREEDY, SamplingParams
from app.core.memory.beam_fit import BeamWidthDoesNotFit

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
