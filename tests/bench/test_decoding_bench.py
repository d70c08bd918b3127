"""The `decoding` bench section: beam search per step against llama.cpp's own batch decode of the same shape, and a
fork's first token against a fresh TTFT."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.bench.batch_reference import batch_step_s
from app.bench.decoding import BEAM, FORK, run
from app.core.inference.engine import Engine
from app.core.types.load import LoadConfig
from tests.bench.quick import quick_context


@pytest.mark.requires_model
def test_the_section_measures_beam_search_and_fork_against_their_targets(starter_model: Path) -> None:
    context = quick_context(starter_model)
    rows = {r.metric: r for r in run(context)}

    beam = rows[BEAM]
    assert beam.target == "<= 1.15" and beam.measured and beam.value > 0 and beam.verdict is not None
    assert rows["beam width 4 ÷ greedy, per output token"].measured
    fork = rows[FORK]
    assert fork.target == "<= 0.2" and fork.measured and fork.value > 0 and fork.verdict is not None
    assert rows["beam width 1 ÷ greedy, per output token"].measured
    details = context.details["decoding"]
    assert len(details["beam4_token_s"]) == len(details["batch4_step_s"]) == len(beam.rounds) >= 3
    assert details["fork_ttft_s"][0] < details["fresh_ttft_s"][0]  # the fork's prefix came from the cache


@pytest.mark.requires_model
def test_llama_cpps_own_batch_step_is_timed_for_each_shape(starter_model: Path) -> None:
    engine = Engine()
    engine.load(LoadConfig(starter_model, n_ctx=1024))
    try:
        prompt = engine.tokenize("The water cycle moves water between the sea, the air and the land.")
        one, four = batch_step_s(engine.llama, prompt, 1, 4), batch_step_s(engine.llama, prompt, 4, 4)
    finally:
        engine.close()
    assert one > 0 and four > 0  # a real decode took time; how much is the bench's to say
